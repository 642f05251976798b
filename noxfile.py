"""Developer entry points: ``nox -s check`` (the quality gate), ``tests``, ``build``,
``serve``, ``bench``, ``docs``, ``schema``, ``mutation -- GAME``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nox

nox.options.sessions = ["check", "tests"]
nox.options.reuse_existing_virtualenvs = True
nox.options.default_venv_backend = "venv"
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
#: every session installs the pinned versions of constraints.txt (updated on purpose: see there)
LOCK = ("-c", "constraints.txt")


def _chromium():
    """``pipeline/chromium.py`` (standard library only), loaded by path: nox's own Python has not
    installed the project."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("gamebook_chromium", "pipeline/chromium.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@nox.session
def tests(session: nox.Session) -> None:
    """Every test: unit, property, content fixtures, CLI, simulation, Pyodide in Node, and the
    site end to end in Chromium (found by pipeline.chromium: GAMEBOOK_CHROMIUM, Playwright's own
    browser, or chromium on the PATH; those tests skip without one, and fail on CI)."""
    session.install(*LOCK, "-e", ".[test]", "playwright>=1.40")
    vendored = ("node_modules/pyodide/pyodide.mjs", "node_modules/axe-core/axe.min.js")
    if not all(Path(p).is_file() for p in vendored):
        session.run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", external=True)
    browser = _chromium().find()
    if not browser.found:
        session.warn(f"{browser.missing}: the browser tests will be skipped")
    # every core (CI has two): a file's tests stay in one worker, so module and session fixtures
    # (the built site, the browser) are made once per worker; arguments given replace these
    session.run("pytest", *(session.posargs or ("-n", "auto", "--dist", "loadfile")))


#: mypy's known errors, one a line without its line number: ``nox -s check`` fails on any other
#: (a ratchet: fixed ones are dropped with ``nox -s check -- --mypy-baseline``)
MYPY_BASELINE = Path("mypy-baseline.txt")


def _mypy_errors(output: str) -> list[str]:
    out = []
    for line in output.splitlines():
        path, sep, rest = line.partition(":")
        if sep and ": error: " in rest:
            # no line numbers, even those mypy puts in a local class's name (``Start@176``)
            text = re.sub(r"@\d+\b", "", rest.split(":", 1)[1])
            out.append(f"{path}:{text}".strip())
    return sorted(out)


def _mypy(session: nox.Session) -> None:
    """mypy over engine/ and pipeline/ (settings in pyproject.toml), against the baseline."""
    import collections

    output = session.run("mypy", success_codes=[0, 1], silent=True) or ""
    found = _mypy_errors(output)
    if "--mypy-baseline" in session.posargs:
        MYPY_BASELINE.write_text("".join(f"{e}\n" for e in found), encoding="utf-8")
        session.log(f"{MYPY_BASELINE}: {len(found)} known errors")
        return
    known = collections.Counter(MYPY_BASELINE.read_text(encoding="utf-8").splitlines())
    new = collections.Counter(found) - known
    gone = known - collections.Counter(found)
    if gone:
        session.log(
            f"mypy: {sum(gone.values())} known errors fixed; shrink the baseline with "
            "nox -s check -- --mypy-baseline"
        )
    if new:
        session.error("mypy: new errors:\n" + "\n".join(sorted(new.elements())))
    session.log(f"mypy: no new error ({len(found)} known, in {MYPY_BASELINE})")


@nox.session
def check(session: nox.Session) -> None:
    """The one quality gate (pre-commit, .ci/run and the Pages workflow run it): ruff (with a
    complexity cap), mypy on engine/ and pipeline/, ESLint on site/assets/, and the generated
    parts of the writers' guide up to date (``nox -s docs`` rewrites them)."""
    session.install(*LOCK, "-e", ".[test,editor]", "ruff", "mypy")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    _mypy(session)
    if not Path("node_modules/.bin/eslint").is_file():
        session.run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", external=True)
    session.run("node_modules/.bin/eslint", "--max-warnings", "0", "site/assets", external=True)
    session.run("python", "-m", "pipeline.publish.guide", "--check")


@nox.session
def lint(session: nox.Session) -> None:
    """The same gate as ``check`` (kept for old habits)."""
    check(session)


@nox.session
def docs(session: nox.Session) -> None:
    """Rewrite the generated parts of the writers' guide (each finding code's section, from its
    record) and the editors' JSON Schema."""
    session.install(*LOCK, "-e", ".")
    session.run("python", "-m", "pipeline.publish.guide")
    schema(session)


@nox.session
def schema(session: nox.Session) -> None:
    """Regenerate site/schema/contenu.schema.json (the editors' JSON Schema of the format)."""
    session.install(*LOCK, "-e", ".")
    session.run("gamebook", "schema", "--out", "site/schema/contenu.schema.json")


@nox.session
def build(session: nox.Session) -> None:
    """The whole static site into build/site."""
    session.install(*LOCK, "-e", ".")
    session.run("gamebook", "build", *session.posargs)


@nox.session
def serve(session: nox.Session) -> None:
    """Build the site and serve it on http://127.0.0.1:8000."""
    session.install(*LOCK, "-e", ".")
    session.run("gamebook", "serve", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """`gamebook check` at 1k/10k/100k nodes, bot games, simulation, the play pages and the
    play table in Chromium; all into BENCHMARKS.md.  (``.[test]``: bench/table.py reads the
    screens with the browser suite's own helpers, which import pytest.)"""
    session.install(*LOCK, "-e", ".[test]", "playwright>=1.40")
    session.run("python", "bench/run.py", *session.posargs)
    session.run("python", "bench/incremental.py")
    session.run("python", "bench/lsp.py", "--reference", "3fe891b")  # the server before issue 31
    session.run("python", "bench/engine.py")
    session.run("python", "bench/simulate.py")
    for script in sorted(Path("bench").glob("game_*.py")):  # one per game: bots, speed
        session.run("python", str(script))
    session.run("python", "bench/browser.py")  # builds the site; Chromium from pipeline.chromium
    session.run("python", "bench/devices.py")  # several devices at one table (issue 32)
    session.run("python", "bench/table.py")  # the play table (issue 26): view, hot seat, axe


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation testing (mutmut 3) of one game's rules: ``nox -s mutation -- GAME [MODULE...]``
    (``--survivors``: run again what survived).  What is mutated, which tests judge it and
    which survivors are equivalent is in ``engine/GAME/mutation.toml``; each game runs in its
    own copy (build/mutation/GAME), one worker at nice 19 by default; the table per module
    goes to BENCHMARKS.md."""
    session.install(*LOCK, "-e", ".[test]", "mutmut>=3,<4")
    if not session.posargs:
        session.error("name the game: nox -s mutation -- GAME [MODULE...]")
    session.run("python", "bench/mutation.py", *session.posargs)
