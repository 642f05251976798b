"""The docstring examples of the engine and the pipeline run as tests: an example a reader
trusts must stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine
import pipeline

SKIP = {"pipeline.cli.__main__", "pipeline.publish.mkdocs_plugin"}


def _modules() -> list[str]:
    out = []
    for package in (engine, pipeline):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name not in SKIP:
                out.append(info.name)
    return sorted(out)


MODULES = _modules()


def test_there_are_examples_to_run():
    total = sum(len(doctest.DocTestFinder().find(importlib.import_module(m))) for m in MODULES)
    assert total > 5


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed"
