"""The engine under real Pyodide, in Node, from the vendored runtime (``node_modules/pyodide``,
installed by ``npm ci``): for fixed seeds and scripted actions, CPython and Pyodide go through
identical state sequences.

The Python that plays is the ``DRIVER`` text of ``tests/pyodide/run_engine.mjs``: this file
execs that very text in CPython, and the script runs it in Pyodide on the engine archive the
site ships (``pipeline.publish.engine_archive``).  Both hash the state after every action
(sha256 of its canonical JSON) and the sequences must be equal.  One Node process runs every
game and seed: starting Pyodide costs seconds.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from engine.core import registry
from pipeline.publish.engine_archive import ENGINE_DIR, archive_bytes, build_archive
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SCRIPT = Path(__file__).resolve().parent / "pyodide" / "run_engine.mjs"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
NODE = shutil.which("node")
GAMES = tuple(registry.ids())  # the contract: every registered game, CPython = Pyodide
SEEDS = (7, 2026)
N_ACTIONS = 150
NODE_TIMEOUT = 300  # seconds; the whole run takes a few seconds

if NODE is None:
    _why = "node is not installed (Node 20 runs the Pyodide tests)"
elif not (PYODIDE_DIR / "pyodide.mjs").is_file():
    _why = f"{PYODIDE_DIR.relative_to(ROOT)} is missing: run `npm ci` at the repository root"
else:
    _why = ""
if _why and os.environ.get("CI"):  # on CI a missing runtime is an error, never a quiet skip
    raise RuntimeError(f"CI must run the Pyodide tests: {_why}")
needs_pyodide = pytest.mark.skipif(bool(_why), reason=_why)


def driver_source() -> str:
    """The Python text of ``run_engine.mjs`` (between ``String.raw``\\` and \\`;)."""
    text = SCRIPT.read_text(encoding="utf-8")
    found = re.search(r"const DRIVER = String\.raw`(.*?)`;", text, re.DOTALL)
    assert found, f"no DRIVER in {SCRIPT}"
    return found.group(1)


def cpython_driver() -> dict:
    namespace: dict = {"__name__": "run_engine_driver"}
    exec(compile(driver_source(), f"{SCRIPT.name}:DRIVER", "exec"), namespace)
    return namespace


def run_node(*args: str | Path) -> subprocess.CompletedProcess:
    assert NODE is not None
    proc = subprocess.run(
        [NODE, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=NODE_TIMEOUT,
    )
    assert proc.returncode == 0, f"node exited with {proc.returncode}:\n{proc.stderr}"
    return proc


# --------------------------------------------------------------------------- the engine archive


def test_archive_is_deterministic_and_complete(tmp_path):
    first = build_archive(tmp_path / "a")
    second = build_archive(tmp_path / "b")
    assert first.name == second.name
    assert first.read_bytes() == second.read_bytes() == archive_bytes()
    assert re.fullmatch(r"engine-[0-9a-f]{12}\.zip", first.name)

    expected = {
        f"engine/{p.relative_to(ENGINE_DIR).as_posix()}": p.read_bytes()
        for p in ENGINE_DIR.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    with zipfile.ZipFile(first) as zf:
        infos = zf.infolist()
        names = [i.filename for i in infos]
        assert names == sorted(expected)
        assert {n: zf.read(n) for n in names} == expected
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert "engine/__init__.py" in names and "engine/core/session.py" in names


# --------------------------------------------------------------------------- Pyodide vs CPython


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, Path]:
    """Every registered game's bundle, compiled from ``content/``."""
    out = tmp_path_factory.mktemp("bundles")
    paths = {}
    for game in GAMES:
        paths[game] = out / f"{game}.json"
        paths[game].write_text(json.dumps(bundle_for(game, CONTENT)), encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def engine_zip(tmp_path_factory) -> Path:
    return build_archive(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def pyodide_run(bundles, engine_zip, tmp_path_factory) -> dict:
    """Every game and seed in one Node process (``--jobs``)."""
    if _why:
        pytest.skip(_why)
    jobs = [
        {"bundle": str(bundles[game]), "game": game, "seed": seed, "n_actions": N_ACTIONS}
        for game in GAMES
        for seed in SEEDS
    ]
    jobs_file = tmp_path_factory.mktemp("jobs") / "jobs.json"
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    proc = run_node(PYODIDE_DIR, engine_zip, "--jobs", jobs_file)
    out = json.loads(proc.stdout)
    out["stderr"] = proc.stderr
    out["by_job"] = {(r["game"], r["seed"]): r["hashes"] for r in out["results"]}
    return out


@pytest.fixture(scope="module")
def cpython_run(bundles) -> dict[tuple[str, int], list[str]]:
    run_sequence = cpython_driver()["run_sequence"]
    return {
        (game, seed): run_sequence(bundles[game].read_text(encoding="utf-8"), game, seed, N_ACTIONS)
        for game in GAMES
        for seed in SEEDS
    }


@needs_pyodide
def test_a_game_archive_holds_the_core_and_that_game_only(tmp_path):
    for game in registry.ids():
        path = build_archive(tmp_path, game=game)
        assert re.fullmatch(rf"engine-{game}-[0-9a-f]{{12}}\.zip", path.name)
        assert path.read_bytes() == archive_bytes(game=game)  # deterministic
        names = zipfile.ZipFile(path).namelist()
        assert {n.split("/")[1] for n in names if n.count("/") >= 2} == {"core", game}
        top = {n for n in names if n.count("/") == 1}
        assert top == {f"engine/{p.name}" for p in ENGINE_DIR.glob("*.py")}


def test_pyodide_runs_a_recent_python(pyodide_run):
    assert tuple(pyodide_run["python"]) >= (3, 11), pyodide_run["python"]
    vendored = json.loads((PYODIDE_DIR / "package.json").read_text(encoding="utf-8"))
    assert pyodide_run["pyodide"] == vendored["version"]


@needs_pyodide
def test_pyodide_makes_no_request(pyodide_run):
    # the script wraps fetch (it throws on any non-local URL) and lists every call: in Node,
    # Pyodide reads its own files with fs, and we load no package, so there is none at all
    assert pyodide_run["fetch_calls"] == []


@needs_pyodide
def test_engine_comes_from_the_archive(pyodide_run):
    assert pyodide_run["engine_file"] == "/engine_archive/engine/__init__.py"


@needs_pyodide
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES)
def test_cpython_and_pyodide_agree(pyodide_run, cpython_run, game, seed):
    expected = cpython_run[(game, seed)]
    got = pyodide_run["by_job"][(game, seed)]
    assert len(expected) >= 20, f"{game} seed {seed}: only {len(expected)} actions played"
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in got)
    if got != expected:
        first = next(
            (i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
            min(len(expected), len(got)),
        )
        pytest.fail(
            f"{game} seed {seed}: the states differ from action {first + 1} on "
            f"(CPython played {len(expected)} actions, Pyodide {len(got)})"
        )


def test_seeds_give_different_games(cpython_run):
    for game in GAMES:
        assert cpython_run[(game, SEEDS[0])] != cpython_run[(game, SEEDS[1])], game


@needs_pyodide
def test_command_line_prints_only_the_hashes(pyodide_run, bundles, engine_zip):
    """The one-game form: one hash per line on stdout, nothing else."""
    game, seed = "dilemme", SEEDS[0]
    proc = run_node(PYODIDE_DIR, engine_zip, bundles[game], game, seed, 40)
    lines = proc.stdout.splitlines()
    assert proc.stdout.endswith("\n")
    assert lines == pyodide_run["by_job"][(game, seed)][:40]
    assert "Python 3." in proc.stderr
