"""The 7th Citadel played in headless Chromium against the built site (see conftest.py).

Quick start and 30+ decisions (a new quick game when one ends); saves are in
test_saves.py.  Every test also fails on any request to
another host, console error or page error (the ``page`` fixture)."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.e2e
GAME = "citadelle"


@pytest.fixture
def game(open_game):
    return open_game(GAME)


def test_quick_start_and_thirty_decisions(game, rng: random.Random) -> None:
    game.quick_start()
    assert game.story.strip()
    run = game.play(36, rng)
    assert game.decisions >= 30
    # The story line names the scenario and changes with dialogues, the citadel and the end;
    # what the player reads as a whole (story and board) changes all along.
    seen = {(s, b) for s, b in zip(run["stories"], run["boards"], strict=True)}
    assert len(seen) >= 10, f"the page barely moved: {len(seen)} distinct screens"
    assert max(run["logs"]) > run["logs"][0], f"the log did not grow: {run['logs']}"
    assert all(a != b for a, b in zip(run["states"], run["states"][1:], strict=False))
    assert game.page.locator(".gb-board").is_visible()
