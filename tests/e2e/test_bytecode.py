"""The site ships Python as bytecode of its own Pyodide (``pipeline.site._precompiled``): the
standard library cut to what the games import and the engine, as ``.pyc`` files in archives
stored uncompressed — and every game's page plays from them (the other e2e tests)."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

pytestmark = pytest.mark.e2e


def test_stdlib_and_engine_are_precompiled(site) -> None:
    if shutil.which("node") is None:
        pytest.skip("no Node: the build ships the sources")
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["engine"].endswith(".pyc.zip"), manifest["engine"]
    for archive in (site / manifest["engine"], site / "pyodide" / "python_stdlib.zip"):
        with zipfile.ZipFile(archive) as z:
            infos = z.infolist()
        names = [i.filename for i in infos]
        assert not [n for n in names if n.endswith(".py")], archive
        assert sum(n.endswith(".pyc") for n in names) > 20, archive
        assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}, archive
    stdlib = zipfile.ZipFile(site / "pyodide" / "python_stdlib.zip").namelist()
    assert "json/__init__.pyc" in stdlib
    unused = [n for n in stdlib if n.startswith(("unittest/", "email/", "xmlrpc/"))]
    assert not [n for n in unused if not n.endswith("/")], unused  # (empty folders may stay)
