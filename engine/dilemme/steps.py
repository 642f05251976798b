"""The Dilemme's steps as a table: where one section of the rules hands over to another.

The round goes round (a round starts, the houses vote, the winning outcome is applied, the
card goes on the timeline, the next round starts) and an outcome's effects reach back into
the sections that apply them (an envelope opened, an event put in play, the events' rules
on a move).  Each rules module registers its steps here under a public name; a module that
hands over calls the step by name (``run``) instead of importing the module above it, so
the sections depend on each other in one direction only.  The table is filled once, when the
package is imported (``engine.dilemme.game`` imports every section), and never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the steps by name: ``start_round`` (voting), ``resolve`` (outcome), ``open_envelope``
#: (envelopes), ``start_event`` and ``event_rules`` (events)
STEPS: dict[str, Callable[..., Any]] = {}


def step(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function as the step ``name`` (once), by a call after its definition:
    ``step("resolve")(_cleanup_and_outcome)``.  Not as a decorator: mutmut, which proves the
    rules modules, leaves decorated functions unmutated."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        if name in STEPS:
            raise AssertionError(f"dilemme: two steps named {name!r}")
        STEPS[name] = function
        return function

    return register


def run(name: str, *args: Any) -> Any:
    """Hand over to the step ``name``."""
    return STEPS[name](*args)
