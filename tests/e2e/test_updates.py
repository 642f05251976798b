"""Updates reach players safely (Chromium, service workers on): two builds served one after the
other from the same address — the second with the content's texts changed (a content-only
republish: new pages and new bundles, the same engine).

A returning player first still gets the whole old version (no mix), then sees « Nouvelle
version disponible »; on the button, the game in progress is saved, the new version takes over,
the page reloads and the game is resumed, replayed with the new content, nothing lost."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

pytestmark = pytest.mark.e2e

MARK = "Nouvelle édition du récit."


def _new_edition(content: Path) -> None:
    """Each campaign's opening text, changed (what a writer's republish does)."""
    yaml = YAML(typ="safe")
    yaml.width = 1_000_000
    for path in content.rglob("*.yaml"):
        data = yaml.load(path.read_text(encoding="utf-8"))
        camp = data.get("campaign") if isinstance(data, dict) else None
        if isinstance(camp, dict) and isinstance(camp.get("text"), str):
            camp["text"] = camp["text"] + " " + MARK
            with path.open("w", encoding="utf-8") as stream:
                yaml.dump(data, stream)


@pytest.fixture(scope="module")
def builds(tmp_path_factory, kit):
    base = tmp_path_factory.mktemp("updates")
    shutil.copytree(kit.root / "content", base / "content-a")
    shutil.copytree(kit.root / "content", base / "content-b")
    _new_edition(base / "content-b")
    kit.build_site(base / "content-a", base / "a")
    kit.build_site(base / "content-b", base / "b")
    return base


def _publish(build: Path, live: Path) -> None:
    for child in live.iterdir():
        shutil.rmtree(child) if child.is_dir() else child.unlink()
    shutil.copytree(build, live, dirs_exist_ok=True)


def test_a_new_version_is_offered_and_the_game_goes_on(browser, builds, kit, request) -> None:
    rng = random.Random(request.node.nodeid)
    live = builds / "live"
    live.mkdir(exist_ok=True)
    _publish(builds / "a", live)
    server = kit.serve_site(live)
    context, page, guard = kit.worker_page(browser, request)
    game_id = "dilemme" if (builds / "a" / "play" / "dilemme").is_dir() else None
    game_id = game_id or sorted(p.name for p in (builds / "a" / "play").iterdir())[0]
    try:
        game = kit.Game(page, server.url, game_id).open()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert MARK not in game.story
        game.quick_start()
        game.play(4, rng)
        before = game.snapshot()

        _publish(builds / "b", live)  # the site is republished
        game.reload()
        # still the old version, whole: the page and what it loads
        assert page.locator('[data-testid="update"]').count() <= 1
        manifest = page.evaluate("() => fetch('../../manifest.json').then((r) => r.json())")
        assert manifest == json.loads((builds / "a" / "manifest.json").read_text())
        game.click_and_render(page.locator('[data-testid="resume"]'))  # the player plays on
        assert game.snapshot()["state"] == before["state"]
        update = page.locator('[data-testid="update"]')
        update.wait_for(state="visible")
        assert "Nouvelle version disponible" in (page.locator("#gb-update").text_content() or "")
        kit.screenshot(page, "update-offered")
        game._mark()
        with page.expect_navigation():
            update.click()
        page.locator(".gb-where").wait_for()  # resumed without a click
        game.raise_page_error()
        after = game.snapshot()
        assert after["state"] == before["state"]
        assert "Reprise impossible" not in (page.locator("#gb-app").text_content() or "")
        manifest = page.evaluate("() => fetch('../../manifest.json').then((r) => r.json())")
        assert manifest == json.loads((builds / "b" / "manifest.json").read_text())
        html = page.evaluate("() => fetch('./').then((r) => r.text())")
        assert MARK in html
        game.play(2, rng)  # and it plays on
        kit.screenshot(page, "update-done")
    finally:
        kit.screenshot(page, kit.artifact_name(request))
        server.stop()
        context.close()
    guard.check()
