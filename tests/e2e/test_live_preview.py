"""``gamebook serve`` in Chromium: a content file saved → the open play page reloads by itself
and shows the change; broken content → the findings overlay over the last good page; fixed →
the overlay goes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
TEXT = re.compile(r"^(?P<lead>[ ]+text: >-?[ ]*\n[ ]+)", re.M)


@pytest.fixture
def e2e(request):
    return request.config.pluginmanager.get_plugin(str(Path(__file__).parent / "conftest.py"))


@pytest.fixture
def served(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(content), "--out",
         str(tmp_path / "site"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    url = next(m.group(1) for line in proc.stdout if (m := re.search(r"(http://\S+/)", line)))
    yield content, url
    proc.terminate()
    proc.wait(20)


def test_saved_change_reloads_the_page_and_broken_content_shows_an_overlay(
    e2e, browser, served, request
) -> None:
    content, url = served
    camp = next(p for p in sorted(content.glob("*/campaign.yaml")))
    family = re.search(r"^\s*family:\s*(\S+)", camp.read_text(encoding="utf-8"), re.M).group(1)
    context = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900})
    e2e.prepare_context(context, request)
    page = context.new_page()
    page.goto(f"{url}play/{family}/", wait_until="domcontentloaded")
    page.locator('[data-testid="quick-start"]').wait_for(state="visible")
    text = camp.read_text(encoding="utf-8")

    camp.write_text(TEXT.sub(lambda m: m.group("lead") + "Motenvue ", text, 1), "utf-8")
    page.wait_for_function(
        "() => (document.querySelector('.gb-opening') || {textContent: ''})"
        ".textContent.includes('Motenvue')"
    )
    page.locator('[data-testid="quick-start"]').wait_for(state="visible")

    camp.write_text(camp.read_text(encoding="utf-8").replace("campaign:", "campaign: [", 1))
    overlay = page.locator("#gb-live-overlay")
    overlay.wait_for(state="visible")
    assert "constat" in (overlay.text_content() or "")
    assert "campaign.yaml" in (overlay.text_content() or "")
    assert "Motenvue" in (page.locator(".gb-opening").text_content() or "")  # last good page
    e2e.screenshot(page, "test_live_preview-overlay")

    camp.write_text(text, encoding="utf-8")
    page.wait_for_function(
        "() => !document.getElementById('gb-live-overlay') && "
        "!(document.querySelector('.gb-opening') || {textContent: 'Motenvue'})"
        ".textContent.includes('Motenvue')"
    )
    context.close()


def test_serve_started_on_broken_content_shows_the_overlay_at_once(e2e, browser, tmp_path, request):
    """Issue 31: ``serve`` on content that already has an error starts all the same; the first
    page opened shows the findings overlay over the site built from that content, and the
    overlay goes once the error is fixed (the whole site built again)."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "complots", content / "complots")
    counters = content / "complots" / "contres.yaml"
    good = counters.read_text(encoding="utf-8")
    assert "by: [duchesse]" in good
    counters.write_text(good.replace("by: [duchesse]", "by: [duchese]", 1), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GAMEBOOK_PRECOMPILE": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(content), "--out",
         str(tmp_path / "site"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        url = next(m.group(1) for line in proc.stdout if (m := re.search(r"(http://\S+/)", line)))
        context = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900})
        e2e.prepare_context(context, request)
        page = context.new_page()
        page.goto(f"{url}play/complots/", wait_until="domcontentloaded")
        overlay = page.locator("#gb-live-overlay")
        overlay.wait_for(state="visible")
        shown = overlay.text_content() or ""
        assert "constat" in shown and "REF001" in shown and "duchese" in shown
        assert "complots/contres.yaml:5:" in shown
        e2e.screenshot(page, "test_live_preview-started-broken")
        counters.write_text(good, encoding="utf-8")
        page.wait_for_function("() => !document.getElementById('gb-live-overlay')", timeout=240_000)
        context.close()
    finally:
        proc.terminate()
        proc.wait(20)
