"""The contract suite's template games are registered while its tests run, and only then."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from contract_games import TEMPLATES

from engine.core import registry


@pytest.fixture(scope="module", autouse=True)
def template_games() -> Iterator[None]:
    with registry.registered(*TEMPLATES):
        yield
