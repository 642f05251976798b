"""The contract suite's template games are registered while its tests run, and only then."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from contract_games import TEMPLATES

from engine.core import registry


def pytest_plugin_registered(plugin: Any, manager: Any) -> None:
    """pytest imports each conftest.py outside a package as the module ``conftest``: loading this
    one replaced ``tests/conftest.py`` in ``sys.modules``, and the test modules collected after it
    that do ``from conftest import …`` would get this one.  Put the parent back (the fixture here
    is reached through pytest, never imported); ``tests/e2e/conftest.py`` does the same."""
    if getattr(plugin, "__file__", None) != __file__:
        return
    parent = manager.get_plugin(str(Path(__file__).resolve().parent.parent / "conftest.py"))
    if parent is not None and sys.modules.get("conftest") is plugin:
        sys.modules["conftest"] = parent


@pytest.fixture(scope="module", autouse=True)
def template_games() -> Iterator[None]:
    with registry.registered(*TEMPLATES):
        yield
