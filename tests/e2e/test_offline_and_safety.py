"""The whole site on this host only, and the play pages offline through the service worker.

- Every page of the built site loads with no request to another host (each one routed and
  counted), no console error and no page error; a screenshot of each is kept in
  ``tests/e2e/artifacts/page-*.png``.  The chronicle page shows the campaign just played.
- Offline: with service workers allowed, a play page is visited once (the link the site's own
  navigation gives, ``…/index.html``); once the worker controls the page, the server is stopped
  and the context goes offline: a reload starts the game and plays on, and so does the other
  game's page, never visited, at its folder address (``play/citadelle/``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def site_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def test_every_page_stays_on_this_host(page, server, site, open_game, shot, guard, rng) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    pages = site_pages(site)
    assert {"index.html", "play/dilemme/index.html", "play/citadelle/index.html"} <= set(pages)
    # play first, so that the chronicle page has a campaign to show
    game = open_game("dilemme")
    game.quick_start()
    game.play(3, rng)
    for rel in pages:
        response = page.goto(server.url + rel, wait_until="load")
        assert response is not None
        assert response.status == 200, rel
        if rel.startswith("play/"):
            page.locator('[data-testid="quick-start"]').wait_for(state="visible")
        page.wait_for_load_state("networkidle")
        assert page.title(), rel
        shot(page, "page-" + rel.removesuffix(".html").replace("/", "-"))
        if rel == "chronique/dilemme/index.html":
            assert "Sauvegarde : emplacement" in (
                page.locator("#gb-chronicle").text_content() or ""
            )
    # the search (a worker on lunr and the site's index) runs on this host too; a query typed
    # before the worker has its index is not run again, so type it until results show
    page.goto(server.url + "index.html", wait_until="load")
    page.wait_for_load_state("networkidle")
    query = page.locator("input[data-md-component='search-query']")
    results = page.locator(".md-search-result__item")
    for _ in range(20):
        query.click()
        query.fill("")
        query.press_sequentially("Citadelle")
        try:
            results.first.wait_for(state="visible", timeout=1_000)
            break
        except PlaywrightTimeout:
            continue
    assert results.count() > 0, page.locator(".md-search-result__meta").text_content()
    shot(page, "page-search")
    assert guard.foreign == []


def test_offline_reload_plays_on(browser, site, kit, request, rng) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    server = kit.serve_site(site)  # its own server (and origin): this test stops it
    context, page, guard = kit.worker_page(
        browser, request, viewport={"width": 1280, "height": 900}
    )
    controlled = "() => navigator.serviceWorker.controller !== null"
    try:
        # the address the site's own navigation links to
        game = kit.Game(page, server.url, "dilemme", path="play/dilemme/index.html").open()
        try:  # the worker precaches the whole site, then claims the page
            page.wait_for_function(controlled, timeout=30_000)
        except PlaywrightTimeout:
            game.reload()
            page.wait_for_function(controlled)

        server.stop()
        context.set_offline(True)
        game.reload()
        game.quick_start()
        game.play(5, rng)
        kit.screenshot(page, "offline-dilemme")

        # never visited, and by its folder address (as typed or bookmarked)
        other = kit.Game(page, server.url, "citadelle", path="play/citadelle/")
        other.open()
        other.quick_start()
        other.play(5, rng)
        kit.screenshot(page, "offline-citadelle")
        assert page.evaluate(controlled)
    finally:
        kit.screenshot(page, kit.artifact_name(request))
        server.stop()
        context.close()
    guard.check()
