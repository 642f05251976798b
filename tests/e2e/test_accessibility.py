"""Accessibility in Chromium, with axe-core (npm, ``devDependencies``; injected from
``node_modules``, never fetched) and the WCAG 2.2 AA rules (the target-size rule included): no
serious or critical violation on the home page, every rules page, the writers' guide, the format
reference, every game's play page during a game (setup, a turn, the journal open) and at its end
(on a desktop and on a phone), the chronicle pages and the story map; a whole game of every game
with the keyboard alone; the last step announced by a live region; nothing scrolls sideways on a
390×844 phone."""

from __future__ import annotations

import random
import shutil

import pytest

from engine.core import registry

pytestmark = pytest.mark.e2e

SERIOUS = ("serious", "critical")


def _axe_path(kit):
    path = kit.root / "node_modules" / "axe-core" / "axe.min.js"
    if not path.is_file():
        pytest.fail("axe-core is missing: run `npm ci` (it is in package.json's devDependencies)")
    return path


def violations(page, kit) -> list[dict]:
    """Serious and critical violations of the page as it is now: ``{"impact", "id", "help",
    "nodes": [where]}`` (``bench/table.py`` counts their nodes)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(_axe_path(kit)))
    return page.evaluate(
        """async () => {
          const r = await axe.run(document, {
            resultTypes: ["violations"], rules: { "target-size": { enabled: true } },
          });
          const where = (v, n) => n.target.join(" ")
            + (v.id === "color-contrast" ? ` (${(n.any[0] || {}).message || ""})` : "");
          return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
            .map((v) => ({ impact: v.impact, id: v.id, help: v.help,
                           nodes: v.nodes.map((n) => where(v, n)) }));
        }"""
    )


def audit(page, kit, where: str) -> None:
    """No serious or critical violation on the page as it is now."""
    found = [
        f"{v['impact']} {v['id']}: {v['help']} — " + " | ".join(v["nodes"][:3])
        for v in violations(page, kit)
    ]
    assert found == [], f"{where}:\n" + "\n".join(found)


def test_home_rules_guide_and_reference_pages(page, server, site, kit) -> None:
    pages = ["index.html", *sorted(p.name for p in site.glob("regles-*.html"))]
    pages += ["guide-auteurs.html", "reference-format.html"]
    for rel in pages:
        page.goto(server.url + rel, wait_until="load")
        audit(page, kit, rel)


@pytest.mark.parametrize("game_id", registry.ids())
def test_play_and_chronicle_pages(game_id, page, server, site, kit, rng: random.Random) -> None:
    game = kit.Game(page, server.url, game_id).open()
    page.locator("details.gb-custom summary").click()
    page.locator(".gb-seat").first.wait_for()
    audit(page, kit, f"{game_id}: setup")
    game.quick_start()
    game.play(3, rng)
    audit(page, kit, f"{game_id}: a turn")
    page.locator(".gb-journal summary").click()
    audit(page, kit, f"{game_id}: journal open")
    page.locator(".gb-journal summary").click()
    for _ in range(800):  # to the end of the game
        if page.locator(".gb-choices .gb-over").count():
            break
        game.decide(rng)
    assert page.locator(".gb-choices .gb-over").count(), "the game did not end"
    audit(page, kit, f"{game_id}: the end")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(600)  # the theme's navigation fades into its phone drawer
    audit(page, kit, f"{game_id}: the end on a phone")
    if (site / "chronique" / game_id / "index.html").is_file():
        page.goto(server.url + f"chronique/{game_id}/index.html", wait_until="load")
        audit(page, kit, f"{game_id}: chronicle")


@pytest.fixture(scope="module")
def authoring(tmp_path_factory, kit):
    base = tmp_path_factory.mktemp("authoring")
    out = base / "site"
    shutil.copytree(kit.root / "content", base / "content")
    kit.build_site(base / "content", out, "--authoring")
    server = kit.serve_site(out)
    yield server
    server.stop()


def test_story_map(page, authoring, kit) -> None:
    # a desktop of 800 px: the map's side panel scrolls (a region the keyboard must reach)
    page.set_viewport_size({"width": 1280, "height": 800})
    root = authoring.root
    pages = ["carte/index.html"]
    for family in sorted(p.name for p in (root / "carte").iterdir() if p.is_dir()):
        pages.append(f"carte/{family}/index.html")
        nodes = sorted(
            p for p in (root / "carte" / family).rglob("*.html") if p.name != "index.html"
        )
        pages += [p.relative_to(root).as_posix() for p in nodes[:1]]
    for rel in pages:
        page.goto(authoring.url + rel, wait_until="load")
        page.wait_for_load_state("networkidle")
        audit(page, kit, rel)


NO_SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


WHOLE_GAME = 1500  # key presses at most: every game ends well before


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_whole_game_with_the_keyboard_alone(
    game_id, page, server, kit, rng: random.Random
) -> None:
    """Tab to the quick start, Enter, then only keys to the end of the game: the number of a
    choice one can see (Enter confirms a choice that asks first; Enter on the hand-over's
    button), and every key moves the game on and is announced by the live region."""
    game = kit.Game(page, server.url, game_id).open()
    page.locator("#gb-app").get_attribute("data-ready")  # keys work as soon as it shows
    for _ in range(80):  # Tab to the quick start, like a keyboard user
        if page.evaluate("() => document.activeElement?.dataset?.testid === 'quick-start'"):
            break
        page.keyboard.press("Tab")
    else:
        pytest.fail("the quick start cannot be reached with Tab")
    game._mark()
    page.keyboard.press("Enter")
    game._rendered()
    live = page.locator("#gb-live")
    for step in range(WHOLE_GAME):
        if page.locator(".gb-choices .gb-over").count():
            break
        before = game.saved()
        keys = page.eval_on_selector_all(  # the keys of the buttons one can see
            ".gb-choices [data-key]",
            "els => els.filter(e => !e.closest('details:not([open])')).map(e => e.dataset.key)",
        )
        game._mark()
        if keys:
            page.keyboard.press(rng.choice(keys))
            if page.locator(".gb-confirm").count():
                page.keyboard.press("Enter")  # the confirmation has the focus
        else:  # the hand-over screen: its one button has the focus
            focused = page.evaluate("() => document.activeElement?.dataset?.choice || null")
            assert focused, f"step {step}: no key and nothing focused"
            page.keyboard.press("Enter")
        game._rendered()
        assert game.saved() != before or keys == [], f"step {step}: nothing happened"
        assert (live.text_content() or "").strip(), "the live region announced nothing"
    else:
        pytest.fail(f"no end after {WHOLE_GAME} keys")
    assert page.locator(".gb-choices .gb-over").count(), "the game did not end"
    kit.screenshot(page, f"keyboard-{game_id}-end")
    # the story block is not a live region (it would be re-read whole at every step)
    assert page.locator('[data-testid="story"]').get_attribute("aria-live") is None


@pytest.mark.parametrize("game_id", registry.ids())
def test_nothing_scrolls_sideways_on_a_phone(game_id, page, server, kit, rng) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    game = kit.Game(page, server.url, game_id).open()
    assert page.evaluate(NO_SIDEWAYS) <= 0, "setup"
    game.quick_start()
    for i in range(8):
        game.decide(rng)
        assert page.evaluate(NO_SIDEWAYS) <= 0, f"after decision {i + 1}"
    page.locator(".gb-journal summary").click()
    assert page.evaluate(NO_SIDEWAYS) <= 0, "journal open"
    kit.screenshot(page, f"phone-{game_id}")


def test_reading_pages_fit_a_phone(page, server, site) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    for rel in ["index.html", *sorted(p.name for p in site.glob("regles-*.html"))]:
        page.goto(server.url + rel, wait_until="load")
        assert page.evaluate(NO_SIDEWAYS) <= 0, rel
