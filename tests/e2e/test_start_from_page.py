"""The play page opened at a node (the story map's « Jouer depuis ici », ``?from=``) that the
game cannot start at: the refusal is said once, in French, and brought into view on a phone
(it is written below the setup form, out of sight after « Démarrage rapide »)."""

from __future__ import annotations

import pytest

from engine.core import registry


@pytest.mark.parametrize("game", registry.ids())
def test_a_start_refused_is_said_in_view_on_a_phone(page, server, game):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}play/{game}/?from=nimporte", wait_until="domcontentloaded")
    start = page.locator('[data-testid="quick-start"]').first
    start.wait_for(state="visible")
    start.click()
    status = page.locator("#gb-status")
    status.filter(has_text="nimporte").wait_for()
    said = status.text_content() or ""
    assert said.startswith("Impossible de commencer à « nimporte »"), said
    assert said.lower().count("impossible de commencer") == 1, said
    assert "sorte:clé" in said
    box = status.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
