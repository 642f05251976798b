"""The campaign engines' tables of steps are whole: every effect of the Citadel's content
format has its handler, and every step a rules module hands over to by name is registered
(``engine/citadelle/steps.py``, ``engine/dilemme/steps.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine.citadelle.steps as citadel_steps
import engine.dilemme.steps as dilemme_steps
from engine.citadelle.content import SCHEMA

ROOT = Path(__file__).resolve().parent.parent
CALLED = re.compile(r"""\brun\(\s*["']([a-z_]+)["']""")


def test_every_effect_of_the_format_has_a_handler() -> None:
    assert set(SCHEMA.effects) <= set(citadel_steps.HANDLERS)
    # the rest are the engine's own frames, never written by a writer
    assert all(name.startswith("_") for name in set(citadel_steps.HANDLERS) - set(SCHEMA.effects))


@pytest.mark.parametrize(
    ("game_id", "steps"), [("citadelle", citadel_steps.STEPS), ("dilemme", dilemme_steps.STEPS)]
)
def test_every_step_handed_over_to_is_registered(game_id: str, steps: dict) -> None:
    called = {
        name
        for path in sorted((ROOT / "engine" / game_id).glob("*.py"))
        for name in CALLED.findall(path.read_text(encoding="utf-8"))
    }
    assert called, game_id
    assert called <= set(steps)
    assert set(steps) <= called  # no step registered that nobody hands over to


def test_a_name_is_registered_once() -> None:
    with pytest.raises(AssertionError):
        dilemme_steps.step("start_round")(lambda: None)
    with pytest.raises(AssertionError):
        citadel_steps.effect("damage")(lambda *args: None)
