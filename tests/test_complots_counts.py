"""Complots' ``check_state`` counts the copies of each character, not only the total: a state
where one Duc became a fourth Assassin has the right number of cards and is impossible."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.core import registry
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent


def test_a_card_turned_into_another_character_is_refused():
    game = registry.get("complots")(bundle_for("complots", ROOT / "content"))
    state = game.new_game(game.normalize_setup({"seed": "compte", "players": 4, "bots": 4}))
    game.check_state(state)
    forged = copy.deepcopy(state)
    hand = forged["players"][0]["hidden"]
    hand[0] = next(c for c in forged["chars"] if c != hand[0])
    with pytest.raises(ValueError, match="copies of"):
        game.check_state(forged)
    forged = copy.deepcopy(state)
    forged["copies"] = 5
    with pytest.raises(ValueError):
        game.check_state(forged)
