"""Every registered game's play page in headless Chromium (see conftest.py): the page is drawn
from the game's widgets alone, so a new game is played here the day it is registered.

Quick start, then decisions until the game has moved on; the page never shows a button twice
with the same label in one group, the story block changes as the game goes, the status line
always says where the game stands, and the custom-game form is drawn from the setup fields.
Every test also fails on any request to another host, console error or page error."""

from __future__ import annotations

import random

import pytest

from engine.core import registry

pytestmark = pytest.mark.e2e


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def test_quick_start_and_twenty_decisions(game, rng: random.Random) -> None:
    game.quick_start()
    run = game.play(20, rng)
    assert game.decisions >= 20
    assert len(set(run["stories"])) >= 3, f"the story never moved: {set(run['stories'])}"
    assert all(a != b for a, b in zip(run["states"], run["states"][1:], strict=False))
    where = game.page.locator(".gb-where")
    assert where.count() == 1 and where.text_content().strip()
    for group in game.page.locator(".gb-group").all():
        labels = group.locator(".gb-choice-label").all_text_contents()
        assert len(labels) == len(set(labels)), f"a label twice in one group: {labels}"


def test_custom_form_is_drawn_from_the_setup_fields(game) -> None:
    page = game.page
    page.locator("details.gb-custom summary").click()
    seats = page.locator(".gb-seat")
    seats.first.wait_for()  # the form is drawn once the game is loaded
    assert seats.count() >= 1
    assert page.get_by_role("button", name="Commencer").is_visible()
    game.click_and_render(page.get_by_role("button", name="Commencer"))
    assert page.locator(".gb-where").text_content().strip()
