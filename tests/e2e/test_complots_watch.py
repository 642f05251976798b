"""Complots in Chromium: a person whose last character is lost watches the rest of the game
(issue 29): the screen says they are out, « Coup suivant » shows the bots' next move,
« Voir la fin » skips to the end, and the end screen with its reveal follows."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.e2e


def test_a_person_out_watches_then_sees_the_end(open_game, rng: random.Random, shot) -> None:
    game = open_game("complots")
    page = game.page
    game.quick_start()
    nxt = page.get_by_role("button", name="Coup suivant")
    for _ in range(400):
        if nxt.count():
            break
        game.decide(rng)  # a seeded random person; at the end of a game, a new one
    else:
        pytest.fail("the person was never out before the end of a game")
    root = page.locator("#gb-root")
    assert "hors jeu" in (root.text_content() or "")
    assert page.get_by_role("button", name="Voir la fin").count() == 1
    moves = len(game.saved()["actions"])
    game.click_and_render(nxt)
    assert len(game.saved()["actions"]) > moves, "the bots played on"
    if nxt.count():
        shot(page, "complots-watching")
        game.click_and_render(page.get_by_role("button", name="Voir la fin"))
    over = page.locator(".gb-over")
    over.wait_for()
    assert "remporte la partie" in (over.text_content() or "")
    assert "Ce que chacun cachait" in (root.text_content() or ""), "the reveal follows"
