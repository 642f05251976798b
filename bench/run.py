"""Benchmark ``gamebook check`` on synthetic campaigns and write the results to BENCHMARKS.md.

For each size the campaign is generated (or reused, see ``bench/generate.py``), then
``gamebook check bench/data/<size> --format json`` runs ``--runs`` times as a subprocess.  Each
run records:

* wall time: ``time.perf_counter()`` around the subprocess, interpreter start-up included;
* peak RSS of the largest process: GNU time's "Maximum resident set size" (``/usr/bin/time -v``),
  or ``os.wait4``'s ``ru_maxrss`` without it.  Both are the kernel's maximum over the checker and
  the worker processes it waited for, i.e. the single largest process, not their sum;
* peak memory of the whole process tree: ``/proc/<pid>/status`` VmRSS and
  ``/proc/<pid>/smaps_rollup`` Pss of the checker and its workers, summed and sampled every
  50 ms.  RSS counts pages the forked workers share with the parent once per process; PSS
  splits them, so the PSS sum is the honest total.

The medians are reported.  Every run's JSON is checked against what the generator planted.

Usage: ``python bench/run.py [--sizes 1000,10000] [--runs 3] [--output BENCHMARKS.md]``.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # bench/ is not a package: found through sys.path
from common import cpu_model, write_section

ROOT = Path(__file__).resolve().parent.parent
GNU_TIME = Path("/usr/bin/time")
SAMPLE_EVERY = 0.05
#: PSS (``smaps_rollup``) is read at one sample in this many: the kernel walks every page of
#: the process to answer, and read every 50 ms it added about 4% to a cold check at 100k nodes
#: (0.3-0.4 s); RSS is read at every sample
PSS_EVERY = 10
MiB = 1024 * 1024
GiB = 1024 * MiB
#: the targets, stated for 100,000 nodes
TARGET_SECONDS = 10.0
TARGET_BYTES = int(1.5 * GiB)
TARGET_NODES = 100_000
#: stats.nodes may differ from the requested size by this much
SIZE_TOLERANCE = 0.05

BEGIN = "<!-- BEGIN bench/run.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/run.py -->"


# --------------------------------------------------------------------------- measuring


def _children_by_parent() -> dict[int, list[int]]:
    """Every process's children, from ``/proc/<pid>/stat`` (``/proc/<pid>/task/*/children``
    is not available on every kernel)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: fields restart after the last ')'
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children[ppid].append(int(entry.name))
    return children


def _descendants(pid: int) -> list[int]:
    children = _children_by_parent()
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            out.append(child)
            todo.append(child)
    return out


def _kib_field(path: str, name: bytes) -> int | None:
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(name):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class TreeSampler(threading.Thread):
    """Samples the summed RSS and PSS of a process tree until stopped."""

    def __init__(self, root: int, include_root: bool) -> None:
        super().__init__(daemon=True)
        self.root, self.include_root = root, include_root
        self.peak_rss = self.peak_pss = 0
        self.peak_procs = 0
        self.samples = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            pids = _descendants(self.root)
            if self.include_root:
                pids.append(self.root)
            rss = pss = 0
            with_pss = self.samples % PSS_EVERY == 0
            for pid in pids:
                rss += _kib_field(f"/proc/{pid}/status", b"VmRSS:") or 0
                if with_pss:
                    pss += _kib_field(f"/proc/{pid}/smaps_rollup", b"Pss:") or 0
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)
            self.peak_procs = max(self.peak_procs, len(pids))
            self.samples += 1
            self._halt.wait(SAMPLE_EVERY)

    def stop(self) -> None:
        self._halt.set()
        self.join()


@dataclass
class Run:
    seconds: float
    exit_code: int
    #: peak RSS of the largest single process (bytes)
    largest_rss: int
    #: sampled peaks over the whole process tree (bytes; 0 when /proc could not be read)
    tree_rss: int
    tree_pss: int
    processes: int
    report: dict[str, Any] | None
    stderr: str


def checker_command(folder: Path, jobs: int | None, cache: bool = False) -> list[str]:
    """``gamebook check`` from this interpreter's environment (the nox or project venv)."""
    script = Path(sys.executable).parent / "gamebook"
    found = str(script) if script.exists() else shutil.which("gamebook")
    cmd = [found] if found else [sys.executable, "-m", "pipeline.cli"]
    cmd += ["check", str(folder), "--format", "json"]
    if cache is False:
        cmd += ["--no-cache"]  # a cold check every time (bench/incremental.py measures the cache)
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    return cmd


def measure(cmd: list[str]) -> Run:
    use_time = GNU_TIME.is_file() and os.access(GNU_TIME, os.X_OK)
    with tempfile.TemporaryDirectory(prefix="gamebook-bench-") as tmp:
        out_path, err_path, time_path = (Path(tmp) / n for n in ("out.json", "err", "time"))
        argv = [str(GNU_TIME), "-v", "-o", str(time_path), *cmd] if use_time else cmd
        with out_path.open("wb") as out, err_path.open("wb") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=out, stderr=err)
            sampler = TreeSampler(proc.pid, include_root=not use_time)
            sampler.start()
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4 already
            sampler.stop()
        largest = usage.ru_maxrss * 1024  # KiB on Linux
        if use_time:
            for line in time_path.read_text(errors="replace").splitlines():
                if "Maximum resident set size" in line:
                    largest = int(line.rsplit(":", 1)[1]) * 1024
        try:
            report = json.loads(out_path.read_text(encoding="utf-8"))
        except ValueError:
            report = None
        return Run(
            seconds,
            proc.returncode,
            largest,
            sampler.peak_rss,
            sampler.peak_pss,
            sampler.peak_procs,
            report,
            err_path.read_text(encoding="utf-8", errors="replace"),
        )


# --------------------------------------------------------------------------- one size


@dataclass
class Result:
    gen: generate.Generated
    runs: list[Run]
    nodes: int = 0
    edges: int = 0
    findings: int = 0
    warnings: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def largest_rss(self) -> int:
        return int(statistics.median(r.largest_rss for r in self.runs))

    @property
    def tree_rss(self) -> int:
        return int(statistics.median(r.tree_rss for r in self.runs))

    @property
    def tree_pss(self) -> int:
        return int(statistics.median(r.tree_pss for r in self.runs))

    @property
    def processes(self) -> int:
        return max(r.processes for r in self.runs)

    @property
    def passed(self) -> bool:
        return self.seconds <= TARGET_SECONDS and self.memory <= TARGET_BYTES

    @property
    def memory(self) -> int:
        """What the memory target is judged on: the whole tree (PSS) when it could be
        sampled, and never less than the largest single process."""
        return max(self.largest_rss, self.tree_pss)


def verify(gen: generate.Generated, run: Run) -> list[str]:
    """What is wrong with one run's output, given what was planted."""
    if run.report is None:
        tail = run.stderr.strip().splitlines()[-3:]
        return [f"exit code {run.exit_code}, no JSON on stdout: {' / '.join(tail)}"]
    problems = []
    if run.exit_code != 1:
        problems.append(f"exit code {run.exit_code}, expected 1 (planted errors)")
    stats = run.report.get("stats", {})
    nodes = stats.get("nodes", 0)
    if nodes != gen.nodes:
        problems.append(f"stats.nodes is {nodes}, the generator wrote {gen.nodes}")
    if abs(nodes - gen.size) > SIZE_TOLERANCE * gen.size:
        problems.append(f"stats.nodes is {nodes}, more than 5 % away from the target {gen.size}")
    findings = run.report.get("findings", [])
    got = collections.Counter(f.get("code") for f in findings)
    want = gen.planted.expected_codes()
    for code in sorted(set(got) | set(want)):
        if got.get(code, 0) != want.get(code, 0):
            problems.append(f"{code}: {got.get(code, 0)} found, {want.get(code, 0)} planted")
    for code, planted in (
        ("GRAPH001", gen.planted.unreachable),
        ("GRAPH003", gen.planted.unreferenced),
    ):
        found = sorted(f.get("node") for f in findings if f.get("code") == code)
        if found != planted and got.get(code, 0) == len(planted):
            problems.append(f"{code} reports other nodes than the planted ones")
    return problems


def bench_size(size: int, runs: int, jobs: int | None, force: bool) -> Result:
    gen = generate.generate(size, force=force)
    how = f"generated in {gen.seconds:.1f} s" if gen.fresh else "reused"
    print(f"{size:>7} nodes: {gen.files} files ({how}), {gen.planted.total} planted findings")
    cmd = checker_command(gen.folder, jobs)
    result = Result(gen, [])
    for i in range(runs):
        run = measure(cmd)
        result.runs.append(run)
        print(
            f"         run {i + 1}/{runs}: {run.seconds:6.2f} s, largest process "
            f"{_mib(run.largest_rss)}, tree RSS {_mib(run.tree_rss)} / PSS {_mib(run.tree_pss)}"
        )
        for problem in verify(gen, run):
            if problem not in result.warnings:
                result.warnings.append(problem)
                print(f"WARNING: {size} nodes, run {i + 1}: {problem}", file=sys.stderr)
    last = next((r.report for r in reversed(result.runs) if r.report), None)
    if last is not None:
        result.nodes = last["stats"]["nodes"]
        result.edges = last["stats"]["edges"]
        result.findings = len(last["findings"])
    return result


# --------------------------------------------------------------------------- the report


def _mib(n: int) -> str:
    return f"{n / MiB:,.0f} MiB" if n else "n/a"


def _ram() -> str:
    total = _kib_field("/proc/meminfo", b"MemTotal:")
    return f"{total / GiB:.1f} GiB RAM" if total else "RAM unknown"


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def _commit() -> str:
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    # like `git describe --dirty`: modified tracked files; untracked files do not count
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return f"{head}-dirty" if dirty else head


def _ratio(results: list[Result]) -> str:
    by_size = {r.gen.size: r for r in results}
    if 10_000 in by_size and 100_000 in by_size:
        ratio = by_size[100_000].seconds / by_size[10_000].seconds
        return f"{ratio:.1f} (linear growth ≈ 10)"
    return "n/a (needs the 10,000 and 100,000 sizes)"


def render(results: list[Result], runs: int, jobs: int | None) -> str:
    cores = os.cpu_count() or 1
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = [
        "| size | files | nodes | edges | findings (planted) | wall time (median) "
        "| peak RSS, largest process | peak RSS / PSS, all processes | ≤ 10 s and ≤ 1.5 GiB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in results:
        verdict = "pass" if r.passed else "**fail**"
        if r.warnings:
            verdict += " (findings differ from planted, see below)"
        tree = f"{_mib(r.tree_rss)} / {_mib(r.tree_pss)} ({r.processes} proc.)"
        rows.append(
            f"| {r.gen.size:,} | {r.gen.files:,} | {r.nodes:,} | {r.edges:,} "
            f"| {r.findings:,} ({r.gen.planted.total:,}) | {r.seconds:.2f} s "
            f"| {_mib(r.largest_rss)} | {tree} | {verdict} |"
        )
    target_row = next((r for r in results if r.gen.size == TARGET_NODES), None)
    if target_row is None:
        verdict_line = "The 100,000-node size was not run this time."
    else:
        verdict_line = (
            f"At 100,000 nodes: {target_row.seconds:.2f} s and "
            f"{target_row.memory / GiB:.2f} GiB: **{'pass' if target_row.passed else 'fail'}**."
        )
    jobs_text = f"`--jobs {jobs}`" if jobs is not None else "default `--jobs`"
    planted = "; ".join(
        f"{r.gen.size:,}: "
        + ", ".join(f"{c} × {n}" for c, n in r.gen.planted.expected_codes().items())
        for r in results
    )
    lines = [
        BEGIN,
        "",
        "## `gamebook check` at scale",
        "",
        "Targets: a campaign of **100,000 nodes is checked in ≤ 10 s wall time and ≤ 1.5 GiB** "
        "of memory. Every row below is held to those same limits.",
        "",
        f"- Machine: {cpu_model()}, {cores} cores, {_ram()}, {platform.system()} "
        f"{platform.release()}",
        f"- Date: {now}",
        f"- Commit: `{_commit()}`",
        f"- Python: {platform.python_version()} ({platform.python_implementation()})",
        f"- Command: `gamebook check bench/data/<size> --format json`, {jobs_text}; "
        f"{runs} run(s) per size, medians shown",
        "",
        *rows,
        "",
        f"Time ratio 100k / 10k: {_ratio(results)}.",
        "",
        verdict_line,
        "",
        "How to read it:",
        "",
        "- *wall time* includes interpreter start-up and imports: it is what a writer waits for.",
        "- *peak RSS, largest process* is the kernel's maximum resident set over the checker and "
        "its worker processes (GNU time / `wait4`): the largest single process, not a sum.",
        "- *all processes* sums the checker and its workers, sampled every 50 ms from `/proc`. "
        "RSS counts the pages forked workers share with the parent once per process; PSS "
        "shares them out, so the PSS sum is the honest total. The memory target is judged on "
        "the larger of the PSS sum and the largest process.",
        f"- Planted findings (all must be found, nothing else): {planted}.",
        "",
        "Reproduce with `nox -s bench` (or `python bench/run.py --sizes 1000,10000 --runs 1`); "
        "see `bench/README.md`.",
    ]
    problems = [(r.gen.size, w) for r in results for w in r.warnings]
    if problems:
        lines += ["", "**Warnings from this run:**", ""]
        lines += [f"- {size:,} nodes: {w}" for size, w in problems]
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark `gamebook check` on synthetic campaigns.")
    p.add_argument(
        "--sizes",
        type=generate.parse_sizes,
        default=list(generate.DEFAULT_SIZES),
        help="comma-separated node counts (default: 1000,10000,100000)",
    )
    p.add_argument("--runs", type=int, default=3, help="runs per size; the median is reported")
    p.add_argument("--jobs", type=int, default=None, help="pass --jobs N to gamebook check")
    p.add_argument(
        "--output",
        type=Path,
        default=ROOT / "BENCHMARKS.md",
        help="file whose section is rewritten",
    )
    p.add_argument("--no-write", action="store_true", help="print the section, write nothing")
    p.add_argument("--regenerate", action="store_true", help="regenerate the data even if stamped")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")

    results = [bench_size(size, args.runs, args.jobs, args.regenerate) for size in args.sizes]
    section = render(results, args.runs, args.jobs)
    if args.no_write:
        print(section)
    else:
        write_section(args.output, section, BEGIN, END)
        print(f"results written to {args.output}")
    print(f"100k / 10k time ratio: {_ratio(results)}")
    for r in results:
        print(
            f"{r.gen.size:>7}: {r.seconds:.2f} s, {_mib(r.largest_rss)} largest process, "
            f"{_mib(r.tree_pss)} PSS in all — {'pass' if r.passed else 'FAIL'}"
        )
    # a mismatch with the planted findings is a warning; a checker that gave no report is not
    # a benchmark at all
    return 1 if any(r.report is None for res in results for r in res.runs) else 0


if __name__ == "__main__":
    sys.exit(main())
