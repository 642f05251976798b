"""Le Conseil des 12 played in headless Chromium against the built site (see conftest.py): a
whole game from the quick start to the Chronicle, the die drawn as a twelve-sided die, and the
next game of the chronicle.  Every test also fails on any request to another host, console
error or page error (the ``page`` fixture)."""

from __future__ import annotations

import json
import random

import pytest

pytestmark = pytest.mark.e2e
GAME = "conseil"


@pytest.fixture
def game(open_game):
    return open_game(GAME)


def test_a_whole_game_to_the_chronicle(game, rng: random.Random, shot) -> None:
    game.quick_start()
    page = game.page
    assert page.locator(".gb-die.gb-d12").count() == 1  # the shared die, drawn as a d12
    phases = set()
    for _ in range(250):
        state = game.saved()["state"]
        phases.add(state["phase"])
        if state["phase"] == "over":
            break
        game.decide(rng)
    else:
        pytest.fail(f"the game did not end; phases seen: {sorted(phases)}")
    assert {"choose", "over"} <= phases
    shot(page, "conseil-end")
    assert "Règne de" in page.locator("#gb-root").text_content()
    before = json.dumps(game.saved()["state"]["chronicle"])
    game.decide(rng)  # « Partie suivante »: the chronicle goes on
    after = game.saved()["state"]["chronicle"]
    assert after["games"] == 1 and json.dumps(after) != before
