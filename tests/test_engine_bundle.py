"""The bundle contract between pipeline and engine: version checks with clear messages."""

from __future__ import annotations

import json

import pytest

from engine import BUNDLE_FORMAT_VERSION, BUNDLE_MIN_COMPATIBLE, BundleError, load_bundle


def _bundle(version: int) -> dict:
    return {"format_version": version, "campaign": {"id": "x"}, "records": {}}


def test_current_version_loads_from_text_and_dict():
    data = _bundle(BUNDLE_FORMAT_VERSION)
    assert load_bundle(data) is data
    assert load_bundle(json.dumps(data))["campaign"] == {"id": "x"}


def test_newer_bundle_is_refused():
    with pytest.raises(BundleError) as err:
        load_bundle(_bundle(BUNDLE_FORMAT_VERSION + 1))
    assert str(err.value) == (
        f"bundle format {BUNDLE_FORMAT_VERSION + 1} is newer than this engine reads "
        f"({BUNDLE_FORMAT_VERSION}): update the engine"
    )


def test_too_old_bundle_is_refused():
    with pytest.raises(BundleError, match="too old"):
        load_bundle(_bundle(BUNDLE_MIN_COMPATIBLE - 1))


def test_not_a_bundle():
    with pytest.raises(BundleError, match="'format_version' is missing"):
        load_bundle({"campaign": {}})
    assert issubclass(BundleError, ValueError)


def test_engine_imports_only_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "engine"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "engine", f"{path}: imports {name}"


#: compiled into Pyodide's runtime (``PyInit_unicodedata`` in pyodide.asm.wasm), not a file of
#: the python_stdlib.zip the build prunes
BUILT_INTO_PYODIDE = frozenset({"unicodedata"})


def test_a_module_the_engine_imports_late_is_one_the_site_ships():
    """The site ships a standard library pruned to what the engine and Pyodide import while the
    build plays every game (``templates/precompile.mjs``): a module imported only inside a
    function, on a path the build's play-through does not take (an error message), would be
    missing in the browser. So a standard module imported late must also be imported at the
    top of some engine module (found: ``import difflib`` in the unknown-game message)."""
    import ast
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "engine"
    top: set[str] = set()
    late: dict[str, str] = {}
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                first = name.split(".")[0]
                if first not in sys.stdlib_module_names:
                    continue
                if node.col_offset == 0:
                    top.add(first)
                else:
                    late.setdefault(first, f"{path.relative_to(root)}:{node.lineno}")
    missing = {m: where for m, where in late.items() if m not in top | BUILT_INTO_PYODIDE}
    assert not missing, missing
