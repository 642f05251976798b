"""Benchmark ``gamebook simulate``: whole campaigns played by the real engine.

Targets (issue: simulation and rules-aware coverage): ≥ 2,000 units of play — complete games,
or scenarios where a game's runs count them (a campaign of scenarios in one game) — in ≤ 60 s
for every registered game on this 2-core machine, with memory flat as runs grow.  Each
simulation runs in a fresh child process (``pipeline.cli simulate``) so that its peak memory can
be read from the kernel (``wait4``).  The run count is chosen by a pilot of ``PILOT`` runs so
that the units reach 2,000 (with a margin); memory is measured again at half as many runs to
show it stays flat.

Usage: ``python bench/simulate.py [--output BENCHMARKS.md] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import write_section  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import registry  # noqa: E402

BEGIN = "<!-- BEGIN bench/simulate.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/simulate.py -->"
TARGET_S = 60.0
UNITS = 2000
PILOT = 24
MARGIN = 1.06  # runs for 6 % more units than the target, by the pilot's count


def run(game: str, runs: int) -> dict:
    cmd = [sys.executable, "-m", "pipeline.cli", "simulate", game, "--runs", str(runs),
           "--seed", "bench", "--format", "json", "--content", str(ROOT / "content")]  # fmt: skip
    with tempfile.TemporaryFile() as out:  # a file, not a pipe: a big report cannot block
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        data = json.loads(out.read())
    # ru_maxrss of the waited child: the largest of the parent and the workers it waited for
    return {"seconds": seconds, "peak_mib": usage.ru_maxrss / 1024, "data": data}


def _units(data: dict) -> tuple[int, str]:
    """What a run plays: scenarios when the game counts more of them than games, else games."""
    if data.get("scenarios", 0) > data["games"]:
        return data["scenarios"], "scenarios"
    return data["games"], "games"


def section(results: dict) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "?"  # fmt: skip
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        BEGIN,
        "",
        "## Simulation: whole campaigns played by the real engine",
        "",
        f"Date (UTC): {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} · commit {commit} · "
        f"Python {platform.python_version()} · {os.cpu_count()} cores, load average {load} "
        "at the end · policy `mixed`",
        "",
        "*Begun at a chapter*: runs that begin where an earlier run entered a chapter (a "
        "campaign's scenario, `Game.chapter`); they count only the scenarios they play.",
        "",
        "| campaign | runs | begun at a chapter | games / scenarios | wall time | "
        "per run (median share) | peak RSS (half the runs → all) | coverage | target ≤ 60 s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for game, r in results.items():
        d = r["full"]["data"]
        units, unit = _units(d)
        per_run = 1000 * r["full"]["seconds"] / d["runs"]
        cov = d["coverage"]
        ok = "pass" if r["full"]["seconds"] <= TARGET_S and units >= 2000 else "FAIL"
        lines.append(
            f"| {game} | {d['runs']} | {sum((d.get('restarts') or {}).values())} | "
            f"{units} {unit} | {r['full']['seconds']:.1f} s | "
            f"{per_run:.0f} ms | {r['half']['peak_mib']:.0f} → {r['full']['peak_mib']:.0f} MiB | "
            f"{cov['visited']}/{cov['reachable_static']} ({100 * cov['ratio']:.1f} %) | {ok} |"
        )
    lines += ["", END]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark gamebook simulate.")
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    results = {}
    for game in registry.ids():  # every registered game with shipped content
        if not (ROOT / "content" / game).is_dir():
            continue
        pilot = _units(run(game, PILOT)["data"])[0] / PILOT
        # a small margin: too few units is a FAIL of its own; too many only makes it slower
        runs = max(PILOT, int(UNITS * MARGIN / max(pilot, 1e-9)) + 1)
        results[game] = {"half": run(game, runs // 2), "full": run(game, runs)}
    text = section(results)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
