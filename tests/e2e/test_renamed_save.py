"""A record renamed in a new version of the content (``renamed_from``), met by a save kept in a
real browser: the page of the new version resumes the save converted, says so in French, and
autosaves it with the new id; a rename left undeclared keeps the save intact and explains why.

Generic over the registry: the renamed record is the one the first seat gets at a quick start
(a house, a character...) of the first game with content."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from test_safe_updates import GAMES, SUFFIX, rename, seat_record

from pipeline.story.bundles import bundle_for

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def e2e(request):
    """This folder's conftest (its helpers: ``Game``, ``build_site``, ``serve_site``...)."""
    return request.config.pluginmanager.get_plugin(str(Path(__file__).parent / "conftest.py"))


def _context(e2e, browser, request, state=None):
    context = browser.new_context(
        service_workers="block", locale="fr-FR", storage_state=state,
        viewport={"width": 1280, "height": 900},
    )  # fmt: skip
    e2e.prepare_context(context, request)
    return context


def test_renamed_record_in_a_browser_save(e2e, browser, tmp_path: Path, request) -> None:
    Game, build_site, screenshot = e2e.Game, e2e.build_site, e2e.screenshot
    cls = GAMES[0]
    field, value = seat_record(cls, bundle_for(cls.id, ROOT / "content"))
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(ROOT / "content", content)
    build_site(content, site)
    server = e2e.serve_site(site)
    try:
        # version 1: a game played for a while, autosaved in localStorage
        context = _context(e2e, browser, request)
        game = Game(context.new_page(), server.url, cls.id).open()
        game.quick_start()
        game.play(3, random.Random(3))
        saved = game.saved()
        assert saved["setup"]["seats"][0][field] == value
        state = context.storage_state()
        context.close()

        # version 2: the record renamed, its former id declared
        rename(content, value, cls.id)
        build_site(content, site)
        context = _context(e2e, browser, request, state)
        page = context.new_page()
        game = Game(page, server.url, cls.id).open()
        page.get_by_role("button", name="Reprendre la partie").click()
        notice_el = page.locator('[data-testid="story"] .gb-notice')
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"story\"] .gb-notice') || "
            "(document.getElementById('gb-status') || {}).textContent"
        )
        assert notice_el.count(), game.status()
        notice = notice_el.text_content() or ""
        assert "convertie" in notice and f"« {value} » → « {value}{SUFFIX} »" in notice
        game.play(1, random.Random(4))  # plays on, and autosaves the converted game
        after = game.saved()
        assert after["setup"]["seats"][0][field] == value + SUFFIX
        assert after["bundle"] != saved["bundle"]
        screenshot(page, "test_renamed_save-converted")
        state = context.storage_state()
        context.close()

        # version 3: renamed again, without declaring it: refused, explained, kept intact
        for path in content.rglob("*.yaml"):
            text = path.read_text(encoding="utf-8")
            text = re.sub(rf"^[ ]*renamed_from: \[{re.escape(value)}\]\n", "", text, flags=re.M)
            path.write_text(text.replace(value + SUFFIX, value + "_encore"), encoding="utf-8")
        build_site(content, site)
        context = _context(e2e, browser, request, state)
        page = context.new_page()
        game = Game(page, server.url, cls.id).open()
        kept = game.saved()
        page.get_by_role("button", name="Reprendre la partie").click()
        page.wait_for_function(  # refused: the page says why where the story goes
            "() => /version précédente/.test(document.getElementById('gb-story').textContent)"
        )
        status = game.story
        assert "version précédente du contenu" in status and "exportez-la" in status
        assert game.saved() == kept  # the save is not touched
        screenshot(page, "test_renamed_save-refused")
        context.close()
    finally:
        server.stop()
