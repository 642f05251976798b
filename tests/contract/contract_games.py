"""The games the contract suite runs: every registered game, and the template games of the
test fixtures (``tests/fixtures/morpion.py``), registered like real games while the suite runs
(``conftest.py``).  A template game proves that a sixth game needs nothing outside its own
package: the suite finds it through the registry and the registry alone."""

from __future__ import annotations

from fixtures.morpion import Morpion

from engine.core import registry

TEMPLATES = (Morpion,)
#: the ids the contract tests are parametrized with
GAMES = [*registry.ids(), *(t.id for t in TEMPLATES)]
