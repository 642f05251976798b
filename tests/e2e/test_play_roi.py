"""Le Roi des 12 played in headless Chromium against the built site (see conftest.py): a whole
game from the quick start, and the first manche of a five-player tournament from the custom
form.  Every test also fails on any request to another host, console error or page error."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.e2e
GAME = "roi"


@pytest.fixture
def game(open_game):
    return open_game(GAME)


def _where(game) -> str:
    return game.page.locator(".gb-where").text_content() or ""


def test_a_whole_game_from_the_quick_start(game, rng: random.Random) -> None:
    game.quick_start()
    seen_reveal = False
    for _ in range(400):
        if "Partie terminée" in _where(game):
            break
        seen_reveal |= "la révélation" in _where(game)
        game.decide(rng)
    assert "Partie terminée" in _where(game), _where(game)
    assert seen_reveal
    assert game.page.locator(".gb-board").is_visible()


def test_a_tournament_manche_from_the_custom_form(game, rng: random.Random) -> None:
    page = game.page
    page.locator("details.gb-custom summary").click()
    count = page.locator("#gb-count")
    count.fill("5")
    count.dispatch_event("change")
    assert page.locator(".gb-seat").count() == 5
    page.locator("#gb-opt-pas_a_pas").uncheck()
    game.click_and_render(page.get_by_role("button", name="Commencer"))
    assert "Groupe" in game.board()
    for _ in range(60):
        if "Manche 2" in _where(game) or "Partie terminée" in _where(game):
            break
        game.decide(rng)
    assert "Manche 2" in _where(game) or "Partie terminée" in _where(game), _where(game)
