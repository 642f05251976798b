"""Reopening a play page with an autosave (every registered game, headless Chromium): the offer
to resume is the first thing on the screen, on ``[data-testid="resume"]``, and works as soon as
it shows (a click made while Python loads waits for it); the three slots say which game, how
far it went (``Game.progress``) and when it was saved; another slot resumes its own game."""

from __future__ import annotations

import datetime
import random

import pytest

from engine.core import registry

pytestmark = pytest.mark.e2e

FIRST_CONTROL = """() => {
  const sel = "button, a[href], input, select, summary".split(", ").map((t) => "#gb-app " + t);
  const all = [...document.querySelectorAll(sel.join(", "))];
  const shown = all.find((e) => e.offsetParent !== null);
  return shown ? shown.getAttribute('data-testid') : null;
}"""


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def test_reopening_offers_resume_first(game, rng: random.Random) -> None:
    page = game.page
    assert page.locator('[data-testid="resume"]').count() == 0  # nothing saved yet
    game.quick_start()
    game.play(4, rng)
    before = game.snapshot()
    saved = game.saved()
    game.reload()
    resume = page.locator('[data-testid="resume"]')
    assert resume.is_visible()
    assert page.evaluate(FIRST_CONTROL) == "resume"
    top = resume.bounding_box()
    assert top["y"] < page.locator('[data-testid="story"]').bounding_box()["y"]
    rows = page.locator(".gb-slot-row")
    assert rows.count() == 3
    first = rows.nth(0).text_content() or ""
    assert registry.get(game.game).title in first, first
    if saved.get("progress"):
        assert saved["progress"] in first, first
    assert str(datetime.date.today().year) in first, first
    assert "libre" in (rows.nth(1).text_content() or "")
    game.click_and_render(resume)  # at once: the click waits for Python if it is not ready
    assert game.snapshot() == before


def test_each_slot_resumes_its_own_game(game, rng: random.Random) -> None:
    page = game.page
    game.quick_start()
    game.play(3, rng)
    first = game.snapshot()
    game.menu()
    page.locator("#gb-slot").select_option("B")
    game.quick_start()
    game.play(2, rng)
    second = game.snapshot()
    assert second["state"] != first["state"]
    game.reload()
    game.click_and_render(page.locator('[data-testid="resume"]'))  # the last slot used: B
    assert game.snapshot() == second
    game.menu()
    assert page.locator('[data-testid="resume-B"]').count() == 0
    game.click_and_render(page.locator('[data-testid="resume-A"]'))
    assert game.snapshot() == first
