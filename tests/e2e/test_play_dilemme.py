"""Le Dilemme du Roi played in headless Chromium against the built site (see conftest.py).

Quick start and 30+ decisions (through games of the campaign), and the card text carrying a
``<script>`` and an ``<img onerror>`` shown as text; saves are in test_saves.py.  Every test
also fails on any request to another host, console error or page error (the ``page``
fixture)."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.e2e
GAME = "dilemme"


@pytest.fixture
def game(open_game):
    return open_game(GAME)


def test_quick_start_and_thirty_decisions(game, rng: random.Random) -> None:
    game.quick_start()
    run = game.play(90, rng)  # three games or so: later games use what earlier ones unlocked
    assert game.decisions >= 30
    assert sum("Partie suivante" in label for label in run["labels"]) >= 1
    assert len(set(run["stories"])) >= 3, f"the story never moved: {set(run['stories'])}"
    assert max(run["logs"]) > run["logs"][0], f"the log did not grow: {run['logs']}"
    assert all(a != b for a, b in zip(run["states"], run["states"][1:], strict=False))
    assert game.page.locator(".gb-board").is_visible()


def test_card_text_is_shown_as_text(game, rng: random.Random, hostile_text, shot) -> None:
    page = game.page
    story = page.locator('[data-testid="story"]')
    # the opening (rendered at build time, before Python runs) holds the hostile text as text
    assert hostile_text in game.story
    shot(page, "dilemme-opening")
    game.quick_start()
    for _ in range(10):  # the secret objective first, then the first dilemma of envelope 00
        if hostile_text in game.story:
            break
        game.decide(rng)
    assert hostile_text in game.story, game.story
    shot(page, "dilemme-hostile-card")
    assert story.locator("img, script, iframe, object").count() == 0
    assert page.locator("#gb-app img").count() == 0
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"]').length") == 0
