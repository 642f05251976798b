"""Content is inert: hostile markup planted in every text field of a copy of ``content/``
(``hostile_content.plant``, guided by each game's content schema) and built with the story map
(``gamebook build --authoring``).  In Chromium, on every play page during a game, on the
chronicle pages, the story map and every other page: nothing runs (no ``window.__pwned``, no
element carrying the planted handlers, ``javascript:`` URLs, frames or images) and the text
shows literally where content is shown."""

from __future__ import annotations

import random
import re
import shutil

import pytest
from hostile_content import LITERAL, plant

from engine.core import registry

pytestmark = pytest.mark.e2e

INERT = """() => {
  const bad = [];
  if (window.__pwned !== undefined) bad.push("window.__pwned was set");
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      const risky = a.name.startsWith("on")
        || /^(href|src|action|formaction|xlink:href|srcdoc)$/.test(a.name);
      if (risky && /pwned|^\\s*javascript:/i.test(a.value)) {
        bad.push(`${el.tagName} ${a.name}=${a.value}`);
      }
    }
    const tag = el.tagName.toLowerCase();
    if (["script", "iframe", "svg", "object", "embed"].includes(tag) && /pwned/.test(el.outerHTML)
        && !(tag === "script" && el.type === "application/json")) bad.push(`<${tag}> planted`);
  }
  if (document.querySelector('img[src="x"]')) bad.push("<img src=x> planted");
  return bad;
}"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, kit):
    base = tmp_path_factory.mktemp("hostile-content")
    content = base / "content"
    shutil.copytree(kit.root / "content", content)
    planted = plant(content)
    assert planted > 100, planted
    out = base / "site"
    kit.build_site(content, out, "--authoring")
    server = kit.serve_site(out)
    yield server
    server.stop()


def inert(page, where: str) -> None:
    assert page.evaluate(INERT) == [], where


def shown(page) -> str:
    return page.evaluate("() => document.body.innerText")


@pytest.mark.parametrize("game_id", registry.ids())
def test_play_page_keeps_planted_text_inert(game_id, page, hostile, kit, rng: random.Random):
    game = kit.Game(page, hostile.url, game_id).open()
    with_content = (hostile.root / "carte" / game_id).is_dir()
    if with_content:
        assert LITERAL in game.story, "the opening does not show the planted text as text"
    inert(page, "opening")
    game.quick_start()
    seen = LITERAL in shown(page)
    for i in range(15):
        game.decide(rng)
        inert(page, f"after decision {i + 1}")
        seen = seen or LITERAL in shown(page)
    page.locator(".gb-journal summary").click()
    inert(page, "journal")
    if with_content:
        assert seen, "no planted text ever shown on the play page"
    if (hostile.root / "chronique" / game_id / "index.html").is_file():
        page.goto(hostile.url + f"chronique/{game_id}/index.html", wait_until="load")
        inert(page, "chronicle")
        assert LITERAL in shown(page)  # the campaign's title, as text


def test_story_map_keeps_planted_text_inert(page, hostile) -> None:
    root = hostile.root
    pages = ["carte/index.html"]
    for family in sorted(p.name for p in (root / "carte").iterdir() if p.is_dir()):
        pages.append(f"carte/{family}/index.html")
        nodes = sorted((root / "carte" / family).rglob("*.html"))
        planted = [p for p in nodes if "pwned" in p.read_text(encoding="utf-8")]
        pages += [p.relative_to(root).as_posix() for p in planted[:3] if p.name != "index.html"]
    assert len(pages) >= 5, pages
    for rel in pages:
        page.goto(hostile.url + rel, wait_until="load")
        page.wait_for_load_state("networkidle")
        inert(page, rel)
        text = shown(page)
        # a node's page shows its planted text literally; a map index draws titles on the
        # canvas (and lists them only when a node is flagged), so there it is only inert
        if not rel.endswith("index.html"):
            assert LITERAL in text, rel


def test_every_other_page_keeps_planted_text_inert(page, hostile) -> None:
    root = hostile.root
    pages = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*.html")
        if not p.relative_to(root).as_posix().startswith("carte/")
    )
    for rel in pages:
        page.goto(hostile.url + rel, wait_until="load")
        inert(page, rel)
    # the search shows planted titles and texts as text too
    page.goto(hostile.url + "index.html", wait_until="load")
    page.wait_for_load_state("networkidle")
    query = page.locator("input[data-md-component='search-query']")
    results = page.locator(".md-search-result__item")
    for _ in range(20):
        query.click()
        query.fill("")
        query.press_sequentially("pwned")
        try:
            results.first.wait_for(state="visible", timeout=1_000)
            break
        except Exception:
            continue
    inert(page, "search results")
    assert not re.search(r"window\.__pwned", page.title())
