"""Saves on every game's play page, in headless Chromium against the built site (see conftest.py):
reload and resume, export → new game → import, undo, hostile imports refused with the game
intact.  Every test also fails on any request to another host, console error or page error
(the ``page`` fixture)."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest

try:  # without Playwright, conftest.py skips every test here (and fails them on CI)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover
    PlaywrightTimeout = Exception

from engine.core import registry

pytestmark = pytest.mark.e2e


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def test_reload_resumes_the_same_game(game, rng: random.Random) -> None:
    game.quick_start()
    game.play(6, rng)
    before = game.snapshot()
    assert before["choices"]
    game.reload()
    assert game.page.get_by_role("button", name="Reprendre la partie").is_enabled()
    game.resume()
    assert game.snapshot() == before


def test_export_new_game_import(game, rng: random.Random, tmp_path: Path) -> None:
    game.quick_start()
    game.play(5, rng)
    before = game.snapshot()
    exported = game.export()
    assert (exported["format"], exported["game"]) == ("gamebook-save", game.game)
    assert exported["state"] == before["state"]
    save = tmp_path / "export.json"
    save.write_text(json.dumps(exported), encoding="utf-8")

    game.menu()
    game.quick_start()  # another seed: another game
    game.play(1, rng)
    assert game.snapshot() != before

    game.import_file(save)
    assert "Partie importée" in game.status()
    assert game.snapshot() == before
    game.play(2, rng)  # and it plays on


def test_a_reencoded_export_imports_as_the_same_game(game, rng, tmp_path: Path) -> None:
    """An editor's copy of the export (a UTF-8 byte-order mark, UTF-16 with its mark, as
    Windows tools write it) is the same save: the page decodes it and resumes the game."""
    from save_corpus import reencoded

    game.quick_start()
    game.play(4, rng)
    before = game.snapshot()
    exported = json.dumps(game.export())
    for name, data in reencoded(exported):
        game.menu()
        # once every slot holds a game, a quick start asks which one it replaces (issue 26)
        game._mark()
        game.page.locator('[data-testid="quick-start"]').click()
        replace = game.page.get_by_role("button", name="Remplacer cette partie")
        with contextlib.suppress(PlaywrightTimeout):
            replace.wait_for(state="visible", timeout=5_000)
            replace.click()
        game._rendered()
        game.play(1, rng)
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        game.import_file(path)
        assert "Partie importée" in game.status(), (name, game.status())
        assert game.snapshot() == before, name


def test_undo(game, rng: random.Random) -> None:
    game.quick_start()
    game.play(3, rng)
    before = game.snapshot()
    game.decide(rng)
    assert game.saved()["state"] != before["state"]
    game.undo()
    assert game.snapshot() == before


def test_hostile_imports_are_refused(game, rng: random.Random, hostile_files) -> None:
    game.quick_start()
    game.play(4, rng)
    before = game.snapshot()
    for path, fragment in hostile_files(game.export()):
        game.import_file(path)
        status = game.status()
        assert status.startswith("Import refusé : "), (path.name, status)
        assert fragment in status, (path.name, status)
        assert game.snapshot() == before, path.name
    polluted = game.page.evaluate("() => [({}).polluted, window.__pwned, Object.prototype.x]")
    assert polluted == [None, None, None]
    game.play(2, rng)  # the game goes on
