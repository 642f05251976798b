"""The mutation score of the last ``mutmut run`` (``nox -s mutation``), per mutated module,
into BENCHMARKS.md.

Reads the modules from pyproject's ``[tool.mutmut] only_mutate`` and mutmut's verdicts from
``mutants/<module>.meta``.  A mutant is *killed* when a test failed (or timed out) with it,
*survived* when every test covering it passed, *not run* when no verdict is recorded yet (a
partial run), *no tests* when no test reaches its function.  The kill rate is killed / (killed
+ survived + no tests); mutants not run are left out of it and counted apart.

Usage: ``python bench/mutation.py [--output BENCHMARKS.md] [--no-write] [--note TEXT]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402  (bench/ is on sys.path as a script)

BEGIN = "<!-- BEGIN bench/mutation.py: this section is rewritten by `nox -s mutation` -->"
END = "<!-- END bench/mutation.py -->"
SURVIVED, NO_TESTS = 0, 33
SKIPPED = {34, 37}  # skipped, caught by the type checker


def scores() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    rows = []
    for module in config.get("only_mutate", []):
        meta = ROOT / "mutants" / f"{module}.meta"
        row = {"module": module, "killed": 0, "survived": 0, "no_tests": 0, "not_run": 0,
               "survivors": []}  # fmt: skip
        if meta.is_file():
            verdicts = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            for key, code in sorted(verdicts.items()):
                if code is None:
                    row["not_run"] += 1
                elif code == SURVIVED:
                    row["survived"] += 1
                    row["survivors"].append(key.rsplit(".", 1)[-1])
                elif code == NO_TESTS:
                    row["no_tests"] += 1
                elif code not in SKIPPED:
                    row["killed"] += 1
        rows.append(row)
    return rows


def section(rows: list[dict], note: str) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        BEGIN,
        "## Mutation testing of the rules modules",
        "",
        f"Date (UTC): {now} · commit {commit} · Python {platform.python_version()} · "
        f"{cpu_model()} · mutmut, two workers, the modules of pyproject's `[tool.mutmut]`.",
        "",
        "| module | mutants | killed | survived | no test | not run | kill rate |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    total = {"killed": 0, "survived": 0, "no_tests": 0, "not_run": 0}
    for r in rows:
        judged = r["killed"] + r["survived"] + r["no_tests"]
        rate = f"{r['killed'] / judged:.1%}" if judged else "–"
        n = judged + r["not_run"]
        lines.append(
            f"| `{r['module']}` | {n} | {r['killed']} | {r['survived']} | {r['no_tests']} "
            f"| {r['not_run']} | {rate} |"
        )
        for k in total:
            total[k] += r[k]
    judged = total["killed"] + total["survived"] + total["no_tests"]
    rate = f"{total['killed'] / judged:.1%}" if judged else "–"
    lines.append(
        f"| **all** | {judged + total['not_run']} | {total['killed']} | {total['survived']} "
        f"| {total['no_tests']} | {total['not_run']} | **{rate}** |"
    )
    if note:
        lines += ["", note]
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--note", default="")
    args = parser.parse_args(argv)
    rows = scores()
    text = section(rows, args.note)
    print(text)
    for r in rows:
        if r["survivors"]:
            print(f"survivors in {r['module']}: {' '.join(r['survivors'])}")
    if not args.no_write:
        write_section(args.output, text, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
