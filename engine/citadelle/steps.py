"""The Citadel's effects and control steps as tables: every rules module registers here.

An effect (``{"damage": 2}``, ``{"read": "12"}``, ``{"_act": ...}``) is applied by the handler
registered under its name, by the rules module the effect belongs to (a dialogue's effects by
``dialogues``, the citadel sheet's by ``citadel``, an action's frames by ``actions``); the
queue that runs them (``effects.pump``) names no module above it.  A control step is where
one section hands over to another that imports it (the next turn when the queue is empty,
the end of the adventure when every character has fainted, the numbered card taking a
free place), called by name.  Both tables are filled once, when the package is imported
(``engine.citadelle.turn`` imports every section), and never change afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``handler(bundle, state, name, value, ctx, c)``: ``name`` the effect's name (one handler
#: may serve several), ``c`` the active character (0 when the context names no character left)
Handler = Callable[[dict, dict, str, Any, dict, int], None]

#: the effects by name (every effect of the content schema has one)
HANDLERS: dict[str, Handler] = {}
#: the control steps by name: ``next_turn`` (turn), ``finish`` (citadel), ``take`` (taking)
STEPS: dict[str, Callable[..., Any]] = {}


def effect(*names: str) -> Callable[[Handler], Handler]:
    """Register a function as the handler of the effects ``names`` (once each), by a call
    after its definition: ``effect("damage")(_damage)``.  Not as a decorator: mutmut, which
    proves the rules modules, leaves decorated functions unmutated."""

    def register(handler: Handler) -> Handler:
        for name in names:
            if name in HANDLERS:
                raise AssertionError(f"citadelle: two handlers for the effect {name!r}")
            HANDLERS[name] = handler
        return handler

    return register


def step(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function as the control step ``name`` (once), by a call after its
    definition (``step("take")(take)``; not as a decorator, see ``effect``)."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        if name in STEPS:
            raise AssertionError(f"citadelle: two steps named {name!r}")
        STEPS[name] = function
        return function

    return register


def run(name: str, *args: Any, **kwargs: Any) -> Any:
    """Hand over to the control step ``name``."""
    return STEPS[name](*args, **kwargs)
