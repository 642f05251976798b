"""Developer entry points: ``nox -s tests``, ``lint``, ``build``, ``serve``, ``bench``,
``mutation -- GAME``."""

from __future__ import annotations

import os
from pathlib import Path

import nox

nox.options.sessions = ["lint", "tests"]
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
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    session.install(*LOCK, "ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


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
    """`gamebook check` at 1k/10k/100k nodes, bot games, simulation, the play pages in
    Chromium; all into BENCHMARKS.md."""
    session.install(*LOCK, "-e", ".", "playwright>=1.40")
    session.run("python", "bench/run.py", *session.posargs)
    session.run("python", "bench/incremental.py")
    session.run("python", "bench/lsp.py", "--reference", "3fe891b")  # the server before issue 31
    session.run("python", "bench/engine.py")
    session.run("python", "bench/simulate.py")
    for script in sorted(Path("bench").glob("game_*.py")):  # one per game: bots, speed
        session.run("python", str(script))
    session.run("python", "bench/browser.py")  # builds the site; Chromium from pipeline.chromium


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
