"""Two gamebook sites under one origin (``user.github.io/a/`` and ``/b/``, as GitHub project
pages are): each service worker keeps to its own site's caches, so visiting one never wipes the
other's offline copy, and a play page's memory snapshots are dropped per site.

``/b/`` is another version of the same site (one page changed, its worker regenerated): before
the caches were named by scope, ``/b/``'s worker deleted ``/a/``'s cache as an old version."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.publish.site import _service_worker

pytestmark = pytest.mark.e2e

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
APP = "document.getElementById('gb-app').dataset"
CACHES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def origin(site: Path, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("origine")
    # the origin's own page (no favicon to ask for), where the test plants a cache
    (root / "index.html").write_text('<link rel="icon" href="data:,">', encoding="utf-8")
    (root / "a").symlink_to(site, target_is_directory=True)
    other = root / "b"
    shutil.copytree(site, other)
    index = other / "index.html"
    index.write_text(index.read_text(encoding="utf-8") + "\n<!-- b -->\n", encoding="utf-8")
    manifest = json.loads((other / "manifest.json").read_text(encoding="utf-8"))
    _service_worker(other, manifest)
    return root


def controlled(page, game) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(CONTROLLED, timeout=30_000)
    except PlaywrightTimeout:
        game.reload()
        page.wait_for_function(CONTROLLED)


def test_two_sites_of_one_origin_keep_their_own_caches(browser, origin, kit, request, rng) -> None:
    server = kit.serve_site(origin)
    context, page, guard = kit.worker_page(
        browser, request, viewport={"width": 1280, "height": 900}
    )
    try:
        # another site's snapshot of an older version, which /a/ must leave alone
        page.goto(server.url, wait_until="load")
        page.evaluate(
            """async () => {
              const old = await caches.open("gbsnap-000000000000");
              await old.put(new URL("/b/__snapshot/dilemme", location.href).href,
                new Response("b's own"));
            }"""
        )
        a = kit.Game(page, server.url + "a/", "dilemme").open()
        page.wait_for_function(f"{APP}.snapshot === 'saved'")
        assert page.evaluate(CACHES)["gbsnap-000000000000"] == ["/b/__snapshot/dilemme"]
        controlled(page, a)
        b = kit.Game(page, server.url + "b/", "dilemme").open()
        controlled(page, b)
        page.wait_for_function(f"{APP}.snapshot === 'saved'")
        stored = page.evaluate(CACHES)
        mine = {n: keys for n, keys in stored.items() if n.startswith("gamebook-")}
        assert sorted(n.split("@")[0] for n in mine) == ["gamebook-/a/", "gamebook-/b/"], stored
        assert all(len(keys) > 50 for keys in mine.values()), {n: len(k) for n, k in mine.items()}
        snapshots = sorted(p for n, keys in stored.items() if n.startswith("gbsnap-") for p in keys)
        assert snapshots == ["/a/__snapshot/dilemme", "/b/__snapshot/dilemme"], stored

        # offline: both sites still play from their own caches
        server.stop()
        context.set_offline(True)
        for game in (a, b):
            game.open()
            game.quick_start()
            game.play(3, rng)
        assert page.evaluate(CONTROLLED)
    finally:
        kit.screenshot(page, kit.artifact_name(request))
        server.stop()
        context.close()
    guard.check()
