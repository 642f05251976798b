"""The runtime's WebAssembly and standard library come as Zstandard (``pipeline.publish.packed``,
``site/assets/unpack.js``), in Chromium:

- a cold visit (no service worker) boots from the ``.zst`` files and never asks for the
  uncompressed ones; the page checks the decoded bytes' length and SHA-256 (localhost is a
  secure context), so a boot is the proof that they are the originals;
- a damaged, truncated or missing ``.zst`` stops the start with a French message, quickly,
  never a page waiting forever;
- the service worker keeps the files decoded under their own names: a visit it controls asks
  the server for neither the ``.zst`` nor the originals, and plays with the server stopped.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

import pytest

from pipeline.publish.site import SiteHandler

pytestmark = pytest.mark.e2e

WASM = "pyodide/pyodide.asm.wasm"
STDLIB = "pyodide/python_stdlib.zip"


def packed_entries(site: Path) -> dict:
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest.get("packed") or {}
    if not entries:
        pytest.skip("this build packed nothing (zstandard or node_modules/fzstd missing)")
    return entries


def test_the_build_ships_the_compressed_files_only(site) -> None:
    entries = packed_entries(site)
    assert set(entries) == {WASM, STDLIB}
    for rel, entry in entries.items():
        assert not (site / rel).exists(), rel
        assert (site / entry["zst"]).is_file(), rel
    sw = (site / "sw.js").read_text(encoding="utf-8")
    files = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    # precached decoded by the worker itself, never as the .zst
    assert not [f for f in files if f.endswith(".zst")]
    assert "assets/vendor/fzstd.js" in files


def test_a_cold_visit_boots_from_the_compressed_runtime(page, server, site, open_game) -> None:
    entries = packed_entries(site)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url.removeprefix(server.url)))
    game = open_game("dilemme")
    game.quick_start()
    assert game.story.strip()
    for rel, entry in entries.items():
        assert entry["zst"] in requested, requested
        assert rel not in requested, requested
    assert page.evaluate("() => document.getElementById('gb-app').dataset.boot") == "normal"


def broken_start(browser, url: str, kit, request, handler) -> str:
    """The play page with the runtime's ``.zst`` answered by ``handler`` (a Playwright route
    handler): the loader's message, which must come well before the page's usual timeout."""
    context = browser.new_context(service_workers="block", locale="fr-FR")
    kit.prepare_context(context, request)
    try:
        context.route("**/*.wasm.zst", handler)
        page = context.new_page()
        page.goto(url + "play/dilemme/", wait_until="domcontentloaded")
        loader = page.locator("#gb-loader.gb-error")
        loader.wait_for(state="visible", timeout=30_000)
        assert page.evaluate("() => !document.getElementById('gb-app').hasAttribute('data-ready')")
        return page.locator("#gb-progress-text").text_content() or ""
    finally:
        context.close()


def test_a_truncated_runtime_says_so_in_french(browser, server, site, kit, request) -> None:
    entries = packed_entries(site)
    blob = (site / entries[WASM]["zst"]).read_bytes()

    def truncated(route):
        route.fulfill(status=200, body=blob[: len(blob) // 3], content_type="application/zstd")

    text = broken_start(browser, server.url, kit, request, truncated)
    assert "Le jeu n'a pas pu démarrer" in text and "« pyodide.asm.wasm.zst »" in text, text
    assert "abîmé ou incomplet" in text and "rechargez la page" in text, text


def test_a_damaged_runtime_says_so_in_french(browser, server, site, kit, request) -> None:
    entries = packed_entries(site)
    blob = bytearray((site / entries[WASM]["zst"]).read_bytes())
    for i in range(len(blob) // 2, len(blob) // 2 + 64):  # bytes changed in the middle
        blob[i] ^= 0x5A

    def damaged(route):
        route.fulfill(status=200, body=bytes(blob), content_type="application/zstd")

    text = broken_start(browser, server.url, kit, request, damaged)
    assert "« pyodide.asm.wasm.zst »" in text and "abîmé ou incomplet" in text, text


def test_a_missing_runtime_says_so_in_french(browser, server, site, kit, request) -> None:
    packed_entries(site)
    text = broken_start(
        browser, server.url, kit, request, lambda route: route.fulfill(status=404, body="")
    )
    assert "« pyodide.asm.wasm.zst »" in text and "n'a pas pu être téléchargé" in text, text


class Recording(SiteHandler):
    """The site's handler, remembering every path asked for."""

    seen: list[str]

    def do_GET(self) -> None:
        self.seen.append(self.path.split("?", 1)[0].lstrip("/"))
        super().do_GET()


def test_the_service_worker_keeps_the_runtime_decoded(browser, site, kit, request, rng) -> None:
    entries = packed_entries(site)
    seen: list[str] = []
    handler = functools.partial(type("H", (Recording,), {"seen": seen}), directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    context, page, guard = kit.worker_page(browser, request)
    try:
        game = kit.Game(page, url, "dilemme").open()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        cache = page.evaluate(
            """async (rels) => {
              const out = {};
              for (const name of await caches.keys()) {
                if (!name.startsWith("gamebook-")) continue;
                const cache = await caches.open(name);
                for (const req of await cache.keys()) {
                  const rel = req.url.slice(location.origin.length + 1);
                  if (!rel.startsWith("pyodide/")) continue;
                  const res = await cache.match(req);
                  const data = await res.arrayBuffer();
                  const digest = await crypto.subtle.digest("SHA-256", data);
                  const hex = Array.from(new Uint8Array(digest),
                    (b) => b.toString(16).padStart(2, "0")).join("");
                  out[rel] = { type: res.headers.get("content-type"), size: data.byteLength,
                    sha256: hex };
                }
              }
              return out;
            }""",
            list(entries),
        )
        for rel, entry in entries.items():
            assert cache.get(rel) == {
                "type": entry["type"],
                "size": entry["size"],
                "sha256": entry["sha256"],
            }, rel
            assert entry["zst"] not in cache
        seen.clear()
        game.reload()  # the worker in control: the runtime from its cache, decoded
        game.quick_start()
        game.play(2, rng)
        asked = [p for p in seen if p.startswith("pyodide/")]
        assert asked == [], asked
        httpd.shutdown()
        context.set_offline(True)
        game.reload()
        game.quick_start()
        game.play(2, rng)
    finally:
        kit.screenshot(page, kit.artifact_name(request))
        context.close()
        httpd.shutdown()
        httpd.server_close()
    guard.check()
