"""Mutation testing of a game's rules with mutmut 3: ``python bench/mutation.py GAME``.

What to mutate and which tests judge the mutants is the game's own business: its package holds
``mutation.toml`` (``modules``: files of ``engine/GAME/``; ``tests``: test files).  The run
happens in ``build/mutation/GAME/``, a copy of the project whose ``setup.cfg`` carries that
game's mutmut settings (any ``[tool.mutmut]`` of ``pyproject.toml`` is left out of the copy),
so that each game's run has its own configuration, cache and results.  The killed share is
written to BENCHMARKS.md, in a section of its own for each game.

    python bench/mutation.py citadelle [--max-children 2] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
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


def prepare(game: str) -> tuple[Path, dict]:
    settings = tomllib.loads((ROOT / "engine" / game / "mutation.toml").read_text("utf-8"))
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
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n    -q",
        "",
    ]
    (work / "setup.cfg").write_text("\n".join(cfg), "utf-8")
    return work, settings


def results(work: Path) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    counts: dict[str, int] = {}
    for line in out.splitlines():
        status = line.rpartition(":")[2].strip()
        if status:
            counts[status] = counts.get(status, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    args = parser.parse_args(argv)
    work, settings = prepare(args.game)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.max_children)],
        cwd=work,
        check=False,
    )
    elapsed = time.perf_counter() - started
    counts = results(work)
    total = sum(counts.values())
    killed = (
        counts.get("killed", 0) + counts.get("timeout", 0) + counts.get("caught by type check", 0)
    )
    share = 100 * killed / total if total else 0.0
    rows = [f"| {status} | {n} |" for status, n in sorted(counts.items())]
    begin = f"<!-- BEGIN bench/mutation.py {args.game} -->"
    end = f"<!-- END bench/mutation.py {args.game} -->"
    text = "\n".join(
        [
            begin,
            "",
            f"## Mutation testing: {args.game}",
            "",
            f"{datetime.date.today().isoformat()}, {cpu_model()}; mutmut 3, "
            f"`python bench/mutation.py {args.game} --max-children {args.max_children}` "
            f"({elapsed / 60:.0f} min).",
            "",
            "Mutated: " + ", ".join(f"`engine/{args.game}/{m}`" for m in settings["modules"]),
            "; judged by " + ", ".join(f"`{t}`" for t in settings["tests"]) + ".",
            "",
            f"**Killed: {killed} of {total} mutants ({share:.1f} %)** (timeouts count as killed).",
            "",
            "| Status | Mutants |",
            "|---|---:|",
            *rows,
            "",
            end,
        ]
    )
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, begin, end)
    return 0


if __name__ == "__main__":
    sys.exit(main())
