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
