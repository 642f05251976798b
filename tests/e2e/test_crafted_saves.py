"""A few files of the crafted-save corpus (``tests/save_corpus.py``; all of them run in CPython
in ``tests/test_save_corpus.py``) imported on every game's page in Chromium, and one planted in
the autosave that a reload offers to resume: each is refused in French, in a moment, the game
in progress untouched, no traceback, no error in the page, no prototype polluted."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from save_corpus import crafted  # noqa: E402

pytestmark = pytest.mark.e2e

IN_CHROMIUM = (
    "nan-literal",
    "infinity-literal",
    "lone-surrogate",
    "utf-16-without-mark",
    "deep-in-state",
    "proto-at-top",
    "log-proto",
    "log-last-twice",
    "unknown-key",
    "state-negative-value",
    "state-same-card-twice",
    "v1-list-is-a-string",
    "v1-unknown-id",
)


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def _other(game_id: str) -> str:
    return next((g for g in registry.ids() if g != game_id), "autre")


def _corpus(saved: dict) -> dict[str, str | bytes]:
    from pipeline.story.bundles import bundle_for

    game = registry.get(saved["game"])(bundle_for(saved["game"], ROOT / "content"))
    fresh = game.new_game(game.normalize_setup(saved["setup"]))
    return dict(crafted(json.dumps(saved), _other(saved["game"]), fresh))


def test_crafted_imports_are_refused(game, rng: random.Random, tmp_path: Path) -> None:
    game.quick_start()
    game.play(3, rng)
    before = game.snapshot()
    files = _corpus(game.saved())
    for name in IN_CHROMIUM:
        if name not in files:
            continue
        path = tmp_path / f"{name}.json"
        data = files[name]
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        start = time.monotonic()
        game.import_file(path)
        status = game.status()
        assert status.startswith("Import refusé : "), (name, status)
        assert "Traceback" not in status and "Error" not in status, (name, status)
        assert time.monotonic() - start < 10, f"{name}: the page took too long"
        assert game.snapshot() == before, name
    polluted = game.page.evaluate("() => [({}).polluted, window.__pwned, Object.prototype.x]")
    assert polluted == [None, None, None]
    game.play(1, rng)  # the game goes on


def test_a_crafted_autosave_is_refused_on_resume(game, rng: random.Random) -> None:
    page = game.page
    game.quick_start()
    game.play(2, rng)
    forged = _corpus(game.saved())["state-negative-value"]
    page.evaluate(
        "([key, text]) => localStorage.setItem(key, text)", [f"gamebook:{game.game}:A", forged]
    )
    page.evaluate(f"() => localStorage.setItem('gamebook:{game.game}:slot', 'A')")
    game.reload()
    page.locator('[data-testid="resume"]').click()
    status = page.locator("#gb-status")
    status.filter(has_text="Reprise impossible").wait_for()
    assert "modifiée ou endommagée" in (status.text_content() or "")
    assert page.locator('[data-testid="quick-start"]').is_visible()  # still the setup
    game.quick_start()  # and a new game starts
    game.play(1, rng)
