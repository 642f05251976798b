"""A later visit starts Python from a memory snapshot (``site/assets/boot.js``): made on the
first visit, stored in Cache Storage under the site's version, restored on the next visit —
and never trusted when it belongs to another version or is damaged: the page then boots
normally, plays, and stores a good snapshot in its place."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.e2e

GAME = "dilemme"

APP = "document.getElementById('gb-app').dataset"
CACHES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith("gbsnap-")) continue;
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""


def version(site) -> str:
    return json.loads((site / "manifest.json").read_text(encoding="utf-8"))["version"]


def opened(page, open_game):
    game = open_game(GAME)
    page.wait_for_function(f"{APP}.ready === '1'")
    return game


def wait_saved(page) -> None:
    page.wait_for_function(f"{APP}.snapshot === 'saved'")


def first_screen(game) -> list[str]:
    game.page.locator('[data-testid="quick-start"]').click()
    game.page.locator(".gb-choices [data-choice]").first.wait_for()
    return game.choices()


def test_a_second_visit_starts_from_the_snapshot(page, open_game, site) -> None:
    game = opened(page, open_game)
    assert page.evaluate(f"{APP}.boot") == "normal"
    wait_saved(page)
    assert page.evaluate(CACHES) == {f"gbsnap-{version(site)}": [f"/__snapshot/{GAME}"]}
    normal = first_screen(game)

    game.reload()
    page.wait_for_function(f"{APP}.ready === '1'")
    assert page.evaluate(f"{APP}.boot") == "snapshot"
    # the same seeded quick game as from a normal start, and it goes on
    assert first_screen(game) == normal
    game.page.locator(".gb-choices [data-choice]").first.click()
    game.page.locator(".gb-choices [data-choice]").first.wait_for()
    assert game.saved()  # autosaved by the restored interpreter


def test_a_snapshot_of_another_version_is_not_used(page, open_game, site) -> None:
    opened(page, open_game)
    wait_saved(page)
    current = f"gbsnap-{version(site)}"
    # the snapshot moves to another version's cache: this version has none
    page.evaluate(
        """async (current) => {
          const old = await caches.open("gbsnap-000000000000");
          const from = await caches.open(current);
          for (const r of await from.keys()) await old.put(r, await from.match(r));
          await caches.delete(current);
        }""",
        current,
    )
    assert list(page.evaluate(CACHES)) == ["gbsnap-000000000000"]
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(f"{APP}.ready === '1'")
    assert page.evaluate(f"{APP}.boot") == "normal"
    wait_saved(page)
    assert list(page.evaluate(CACHES)) == [current]  # the other version's cache is gone


@pytest.mark.parametrize("damage", ["garbage", "truncated", "contents"])
def test_a_damaged_snapshot_is_ignored_and_replaced(page, open_game, site, damage) -> None:
    game = opened(page, open_game)
    wait_saved(page)
    page.evaluate(
        """async ([name, damage]) => {
          const cache = await caches.open(name);
          const [request] = await cache.keys();
          const stored = await cache.match(request);
          const good = new Uint8Array(await stored.arrayBuffer());
          let bytes, length;
          if (damage === "garbage") {
            bytes = new Uint8Array(good.length).fill(7);  // right length, wrong bytes
            length = String(bytes.length);
          } else if (damage === "truncated") {
            bytes = good.slice(0, good.length >> 1);  // cut short
            length = String(good.length);
          } else {
            // a well-formed stored form (boot.js's pack) of a memory that is not Pyodide's
            const runs = new DataView(good.buffer).getUint32(8, true);
            bytes = good.slice().fill(7, 16 + 8 * runs);
            length = String(bytes.length);
          }
          // the stored headers kept (the form, the length...): only the bytes are damaged
          const headers = Object.fromEntries(stored.headers);
          headers["x-snapshot-length"] = length;
          await cache.put(request, new Response(bytes, { headers }));
        }""",
        [f"gbsnap-{version(site)}", damage],
    )
    game.reload()
    page.wait_for_function(f"{APP}.ready === '1'")
    assert page.evaluate(f"{APP}.boot") == "normal"
    assert first_screen(game)  # it plays
    wait_saved(page)  # and a good snapshot took the damaged one's place
    game.reload()
    page.wait_for_function(f"{APP}.ready === '1'")
    assert page.evaluate(f"{APP}.boot") == "snapshot"
