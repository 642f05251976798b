"""Mutation testing of a game's rules with mutmut 3: ``python bench/mutation.py GAME [MODULE...]``.

What to mutate and which tests judge the mutants is the game's own business: its package holds
``mutation.toml``:

- ``modules``: the rules modules, files of ``engine/GAME/`` (every module that decides play);
- ``left_out``: the game's other modules, each with the reason it is not a rules module;
- ``tests``: the fast test files that judge them (mutmut runs, for each mutant, only the tests
  that reach the mutated function, so one list serves every module); ``pytest_args``: more
  arguments for pytest (``-k`` leaving out a file's slow tests);
- ``equivalent``: mutant name → why that mutant cannot change what the rules decide.

The run happens in ``build/mutation/GAME/``, a copy of the project whose ``setup.cfg`` carries
that game's mutmut settings (any ``[tool.mutmut]`` of ``pyproject.toml`` is left out of the
copy), so each game has its own configuration, cache and results.  Naming modules runs only
their mutants (``nox -s mutation -- roi dice.py``), so a run fits a shared machine; results
accumulate in the copy, module after module — until ``tests`` or ``pytest_args``
change: mutmut then forgets every result of the copy (its configuration's fingerprint), so
after writing tests for the survivors, ``--survivors`` runs them again and the other mutants
wait for their module's next run.  mutmut runs at the lowest priority
(``--nice 19``) with one worker unless told otherwise.  The table per module — mutants, killed,
survived (equivalent or not), kill rate, time, load, date — is written to BENCHMARKS.md, in a
section of its own for each game.

    python bench/mutation.py conseil die.py plan.py     # two modules, one worker, nice 19
    python bench/mutation.py conseil --survivors        # re-run what survived (after new tests)
    python bench/mutation.py conseil die.py --remaining # go on with a stopped run
    python bench/mutation.py conseil --report-only      # rewrite the table from the copy
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import cpu_model, write_section  # noqa: E402

COPY = ("engine", "pipeline", "content", "tests", "site", "mkdocs.yml", "overrides")
#: mutmut's statuses counted as killed: the tests failed, hung, crashed the test process
#: (« segfault »: a mutant whose recursion never ends overflows the C stack), or the mutant did
#: not type-check
KILLED = ("killed", "timeout", "segfault", "caught by type check")
#: what a module's row counts (``tally``)
COUNTS = ("mutants", "killed", "killed after", "equivalent", "survived", "not run")


def settings_of(game: str) -> dict:
    settings = tomllib.loads((ROOT / "engine" / game / "mutation.toml").read_text("utf-8"))
    package = sorted(
        p.name for p in (ROOT / "engine" / game).glob("*.py") if p.name != "__init__.py"
    )
    listed = set(settings["modules"]) | set(settings.get("left_out", {}))
    missing = [name for name in package if name not in listed]
    if missing:
        raise SystemExit(
            f"engine/{game}/mutation.toml: neither in modules nor in left_out: {', '.join(missing)}"
        )
    return settings


def prepare(game: str, settings: dict) -> Path:
    work = ROOT / "build" / "mutation" / game
    work.mkdir(parents=True, exist_ok=True)
    for name in COPY:
        src, dst = ROOT / name, work / name
        if not src.exists():
            continue
        if dst.is_dir():
            shutil.rmtree(dst)
        elif dst.exists():
            dst.unlink()
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    pyproject = re.sub(r"(?ms)^\[tool\.mutmut\].*?(?=^\[|\Z)", "", pyproject)
    (work / "pyproject.toml").write_text(pyproject, "utf-8")
    only = [f"engine/{game}/{m}" for m in settings["modules"]]
    cfg = [
        "[mutmut]",
        "source_paths =\n    engine",
        "only_mutate =\n" + "\n".join(f"    {m}" for m in only),
        "also_copy =\n    pipeline\n    content\n    site\n    mkdocs.yml\n    overrides",
        "pytest_add_cli_args_test_selection =\n" + "\n".join(f"    {t}" for t in settings["tests"]),
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n    -q"
        + "".join(f"\n    {arg}" for arg in settings.get("pytest_args", [])),
        "",
    ]
    (work / "setup.cfg").write_text("\n".join(cfg), "utf-8")
    return work


def statuses(work: Path) -> dict[str, str]:
    """Every mutant of the copy and its status (``not checked`` until it is run)."""
    if not (work / "mutants").is_dir():  # never run: no mutant yet
        return {}
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    found: dict[str, str] = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(":")
        if sep and name.startswith("engine."):
            found[name] = status.strip()
    return found


def module_of(mutant: str) -> str:
    """``engine.roi.dice.x_roll__mutmut_3`` → ``dice.py``."""
    return mutant.split(".")[2] + ".py"


def killed_after(game: str) -> set[str]:
    """The survivors of the last run that tests written after it kill, each checked by hand
    (``MUTANT_UNDER_TEST=name pytest TESTS`` in the run's ``mutants/`` copy):
    ``engine/GAME/mutation-killed.txt`` (beside its ``mutation.toml``), one name per line.
    They count as killed until the next whole run of their module, which sees those tests
    itself."""
    path = ROOT / "engine" / game / "mutation-killed.txt"
    if not path.is_file():
        return set()
    lines = path.read_text("utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def tally(
    found: dict[str, str],
    equivalent: dict[str, str],
    after: frozenset[str] | set[str] = frozenset(),
) -> dict[str, dict[str, int]]:
    rows: dict[str, dict[str, int]] = {}
    for mutant, status in found.items():
        row = rows.setdefault(module_of(mutant), dict.fromkeys(COUNTS, 0))
        row["mutants"] += 1
        if status in KILLED:
            row["killed"] += 1
        elif status == "not checked":
            row["not run"] += 1
        elif mutant in after:
            row["killed after"] += 1
        elif mutant in equivalent:
            row["equivalent"] += 1
        else:  # survived, no tests, suspicious, segfault...
            row["survived"] += 1
    return rows


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "—"


def report(game: str, settings: dict, work: Path, runs: dict[str, dict]) -> str:
    found = {m: s for m, s in statuses(work).items() if module_of(m) in settings["modules"]}
    equivalent = settings.get("equivalent", {})
    after = killed_after(game)
    rows = tally(found, equivalent, after)
    lines = [
        "| module | mutants | killed by the run | killed by later tests | survived: equivalent "
        "| survived: not | not run | kill rate | killed or equivalent | time | load | date |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    total = dict.fromkeys(COUNTS, 0)
    for module in settings["modules"]:
        row = rows.get(module)
        run = runs.get(module, {})
        if row is None:
            lines.append(f"| `{module}` | — | — | — | — | — | — | — | — | — | — | not run |")
            continue
        for key in total:
            total[key] += row[key]
        run_mutants = row["mutants"] - row["not run"]
        killed = row["killed"] + row["killed after"]
        lines.append(
            f"| `{module}` | {row['mutants']} | {row['killed']} | {row['killed after']} "
            f"| {row['equivalent']} | {row['survived']} | {row['not run']} "
            f"| {percent(killed, run_mutants)} "
            f"| {percent(killed + row['equivalent'], run_mutants)} "
            f"| {run.get('minutes', 0):.0f} min | {run.get('load', '—')} | {run.get('date', '—')} |"
        )
    run_total = total["mutants"] - total["not run"]
    killed = total["killed"] + total["killed after"]
    lines.append(
        f"| **all** | {total['mutants']} | {total['killed']} | {total['killed after']} "
        f"| {total['equivalent']} | {total['survived']} | {total['not run']} "
        f"| **{percent(killed, run_total)}** "
        f"| **{percent(killed + total['equivalent'], run_total)}** | | | |"
    )
    left = [f"`{m}` ({why})" for m, why in sorted(settings.get("left_out", {}).items())]
    survivors = sorted(
        m for m, s in found.items() if s not in KILLED and s != "not checked" and m not in after
    )
    listed = [f"`{m}`: {equivalent[m]}" for m in survivors if m in equivalent]
    unlisted = [f"`{m}` ({found[m]})" for m in survivors if m not in equivalent]
    begin = f"<!-- BEGIN bench/mutation.py {game} table -->"
    end = f"<!-- END bench/mutation.py {game} table -->"
    return "\n".join(
        [
            begin,
            "",
            f"### Every rules module of {game}: `nox -s mutation -- {game} [MODULE...]`",
            "",
            f"{cpu_model()}; mutmut 3, one module at a time (`bench/mutation.py`, "
            "`nice -n 19`). Kill rate: killed of the mutants run (timeouts count as killed), "
            "by the run itself or, for its survivors, by tests written after it (listed in "
            f"`engine/{game}/mutation-killed.txt`, each checked by activating the mutant against "
            "them); « killed or equivalent » adds the survivors listed as equivalent "
            f"in `engine/{game}/mutation.toml` with the reason. Load: the machine's one-minute "
            "load average at the start and the end of the module's run (two cores, shared).",
            "",
            *lines,
            "",
            "Judged by " + ", ".join(f"`{t}`" for t in settings["tests"]) + ".",
            "",
            "Not rules modules (not mutated): " + ("; ".join(left) if left else "none") + ".",
            "",
            "Equivalent survivors: " + ("; ".join(listed) if listed else "none") + ".",
            "",
            "Survivors not shown equivalent: "
            + (", ".join(unlisted) if unlisted else "none")
            + ".",
            "",
            end,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("module", nargs="*", help="rules modules to run (all by default)")
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--nice", type=int, default=19, help="the run's niceness (0: none)")
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="run again only the mutants that survived (of the named modules)",
    )
    parser.add_argument(
        "--remaining",
        action="store_true",
        help="run only the mutants not run yet (of the named modules): a stopped run goes on",
    )
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="no run: report the results already in build/mutation/GAME",
    )
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    args = parser.parse_args(argv)
    settings = settings_of(args.game)
    unknown = [m for m in args.module if m not in settings["modules"]]
    if unknown:
        parser.error(f"not a rules module of {args.game}: {', '.join(unknown)}")
    modules = args.module or settings["modules"]
    work = ROOT / "build" / "mutation" / args.game
    runs_file = work / "runs.json"
    runs: dict[str, dict] = json.loads(runs_file.read_text()) if runs_file.exists() else {}
    if not args.report_only:
        prepare(args.game, settings)
        if args.survivors or args.remaining:
            found = statuses(work)
            names = [
                m
                for m, s in sorted(found.items())
                if module_of(m) in modules
                and (
                    s == "not checked" if args.remaining else s not in KILLED and s != "not checked"
                )
            ]
            names = [m for m in names if m not in settings.get("equivalent", {})]
        else:
            names = [f"engine.{args.game}.{m.removesuffix('.py')}.*" for m in modules]
        load = os.getloadavg()[0]
        started = time.perf_counter()
        if names:
            command = [sys.executable, "-m", "mutmut", "run"]
            subprocess.run(
                [*command, "--max-children", str(args.max_children), *names],
                cwd=work,
                check=False,
                preexec_fn=(lambda: os.nice(args.nice)) if args.nice else None,
            )
        minutes = (time.perf_counter() - started) / 60
        if not args.survivors and not args.remaining:
            for m in modules:  # a run of several modules: its time shared by their mutants
                runs[m] = {
                    "minutes": minutes / len(modules),
                    "load": f"{load:.1f}–{os.getloadavg()[0]:.1f}",
                    "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
                }
            runs_file.write_text(json.dumps(runs, indent=1))
    text = report(args.game, settings, work, runs)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, text.splitlines()[0], text.splitlines()[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
