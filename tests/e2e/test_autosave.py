"""The autosave is written in a microtask the move queues, never lost: a reload in the very
script of a move — before that microtask could run — resumes that move, on every game's play
page (headless Chromium, see conftest.py)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

try:  # without Playwright, conftest.py skips every test here (and fails them on CI)
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover
    PlaywrightError = Exception

from engine.core import registry

pytestmark = pytest.mark.e2e

# In one task: a move (confirmed if it asks), what the screen then shows, and a reload. The
# snapshot goes to sessionStorage, which survives the reload.
MOVE_AND_RELOAD = """
game => {
  const root = document.getElementById("gb-root");
  const key = `gamebook:${game}:A`;
  const before = localStorage.getItem(key);
  const button = [...root.querySelectorAll(".gb-choices [data-choice]")]
    .find((b) => /^[0-9]+$/.test(b.dataset.choice) && b.offsetParent !== null);
  button.click();
  const yes = root.querySelector(".gb-confirm .md-button--primary");
  if (yes) yes.click();
  const seen = {
    story: document.querySelector('[data-testid="story"]').textContent,
    choices: [...root.querySelectorAll(".gb-choices [data-choice]")]
      .map((e) => e.getAttribute("aria-label") || e.textContent),
    deferred: localStorage.getItem(key) === before,
  };
  sessionStorage.setItem("e2e-seen", JSON.stringify(seen));
  location.reload();
  return true;
}
"""


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_reload_in_the_task_of_a_move_resumes_that_move(
    open_game, game_id: str, rng: random.Random
) -> None:
    game = open_game(game_id)
    game.quick_start()
    game.play(3, rng)
    actions = len(game.saved()["actions"])
    with contextlib.suppress(PlaywrightError):  # the reload may end the evaluation first
        game.page.evaluate(MOVE_AND_RELOAD, game_id)
    game.wait_ready()
    seen = json.loads(game.page.evaluate("() => sessionStorage.getItem('e2e-seen')"))
    assert seen["deferred"], "the autosave ran inside the move's task: nothing tested here"
    assert len(game.saved()["actions"]) > actions
    game.resume()
    assert game.story == seen["story"]
    assert game.choices() == seen["choices"]
