"""The site ships Python as bytecode of its own Pyodide (``pipeline.publish.site._precompiled``):
the
standard library cut to what the games import and the engine (one archive per game), as
``.pyc`` files without docstrings in archives stored uncompressed — and every game's page plays
from them (the other e2e tests).  Nothing a play page does not need is in what it loads."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from pipeline.publish.packed import unpacked

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e


def test_stdlib_and_engine_are_precompiled(site) -> None:
    if shutil.which("node") is None:
        pytest.skip("no Node: the build ships the sources")
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    archives = [manifest["engine"], *manifest["engines"].values(), "pyodide/python_stdlib.zip"]
    for rel in archives:
        assert rel.endswith((".pyc.zip", "python_stdlib.zip")), rel
        with zipfile.ZipFile(io.BytesIO(unpacked(site, rel))) as z:
            infos = z.infolist()
        names = [i.filename for i in infos]
        assert not [n for n in names if n.endswith(".py")], rel
        assert sum(n.endswith(".pyc") for n in names) > 20, rel
        assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}, rel
    stdlib = zipfile.ZipFile(io.BytesIO(unpacked(site, "pyodide/python_stdlib.zip"))).namelist()
    assert "json/__init__.pyc" in stdlib and "os.pyc" in stdlib  # os: Python's landmark
    unused = [n for n in stdlib if n.startswith(("unittest/", "email/", "xmlrpc/"))]
    assert not [n for n in unused if not n.endswith("/")], unused  # (empty folders may stay)
    # built into the runtime (frozen): never read from the archive
    assert "importlib/_bootstrap.pyc" not in stdlib and "zipimport.pyc" not in stdlib
    # codecs: the usual ones only
    assert "encodings/utf_8.pyc" in stdlib and "encodings/cp1252.pyc" not in stdlib


def test_a_play_page_loads_its_own_game_only(site) -> None:
    """Each play page's engine archive holds the engine's top level, its core and that game."""
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    games = set(manifest["engines"])
    assert games == set(manifest["bundles"])
    for game, rel in manifest["engines"].items():
        names = zipfile.ZipFile(site / rel).namelist()
        packages = {n.split("/")[1] for n in names if n.count("/") >= 2}
        assert packages == {"core", game}, (game, packages)
        assert "engine/web.pyc" in names or "engine/web.py" in names
    # the lock file lists no package: the pages load none (Pyodide still fetches it)
    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"] == {} and lock["info"]["python"]


def test_bytecode_has_no_docstrings_but_keeps_line_numbers(site) -> None:
    if shutil.which("node") is None:
        pytest.skip("no Node: the build ships the sources")
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    data = zipfile.ZipFile(site / manifest["engines"]["dilemme"]).read("engine/web.pyc")
    # the module docstring of engine/web.py is not in the bytecode; its line numbers are
    first_line = (ROOT / "engine" / "web.py").read_text(encoding="utf-8").splitlines()[0]
    assert first_line.strip('"').split(".")[0].encode() not in data
    assert b"act_json" in data


def test_play_pages_have_no_search_the_reading_pages_do(site) -> None:
    play = (site / "play" / "dilemme" / "index.html").read_text(encoding="utf-8")
    rules = (site / "regles-dilemme.html").read_text(encoding="utf-8")
    assert 'name="search"' not in play  # the theme fetches its index only with this form
    assert 'name="search"' in rules
