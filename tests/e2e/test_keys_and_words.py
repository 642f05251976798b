"""Words and keys of every game's page (headless Chromium):

- the setup speaks plain French: no « bot », « Graine », « seed », « Deck » or « politique
  automatique » in what the page itself writes (the setup form, open);
- every choice shows the number of the key that presses it, numbers are unique on a screen,
  and pressing a key does exactly what clicking its button does; the key of a button inside a
  folded group sends nothing: it opens the group (a step of its own);
- after an action, focus is on the first choice, with no ring after a click (nothing looks
  preselected) and a ring for a keyboard user;
- the journal's numbers fit in its margin.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.core import registry

pytestmark = pytest.mark.e2e

JARGON = re.compile(r"\b(bots?|Graine|seed|Deck|politique automatique)\b", re.I)


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def test_setup_speaks_plain_french(game) -> None:
    page = game.page
    page.locator("details.gb-custom summary").click()
    page.locator(".gb-seat").first.wait_for()
    text = page.locator("#gb-app").inner_text()
    assert not JARGON.search(text), JARGON.search(text)
    assert "Numéro de partie" in text and "l'ordinateur" in text


def _keys(page) -> list[dict]:
    return page.eval_on_selector_all(
        ".gb-choices [data-key]",
        """els => els.map(e => ({key: e.dataset.key, choice: e.dataset.choice,
            shown: (e.querySelector('kbd') || {}).textContent || null,
            open: !e.closest('details:not([open])')}))""",
    )


def test_number_keys_press_the_button_that_shows_them(game, rng: random.Random) -> None:
    page = game.page
    game.quick_start()
    compared = 0
    opened = False  # a folded group just opened by its key: the focus is on its button
    for _ in range(8):
        keys = _keys(page)
        assert len({k["key"] for k in keys}) == len(keys), keys
        for k in keys:
            assert k["key"] == k["shown"] == k["choice"], k
        focus = page.evaluate(
            """() => {
              const el = document.activeElement;
              const first = [...document.querySelectorAll('.gb-choices [data-choice]')]
                .find((e) => !e.disabled && !e.closest('details:not([open])'));
              const ring = !!el && getComputedStyle(el).outlineStyle !== 'none'
                && el.matches(':focus-visible');
              const input = document.getElementById('gb-app').dataset.input || '';
              return { first: !!el && el === first, ring, input };
            }"""
        )
        assert focus["first"] or opened, "the focus is not on the first choice"
        opened = False
        if focus["input"] == "pointer":
            assert not focus["ring"], (
                "a ring on the first choice after a click: it looks preselected"
            )
        shown = [k for k in keys if k["open"]]
        folded = [k for k in keys if not k["open"]]
        if folded and rng.random() < 0.5:  # a folded key: the group opens, nothing is sent
            before = game.saved()
            page.keyboard.press(folded[0]["key"])
            assert game.saved() == before, f"key {folded[0]['key']} of a folded button acted"
            button = page.locator(f'.gb-choices [data-key="{folded[0]["key"]}"]')
            assert button.is_visible(), "the folded group did not open"
            assert button.evaluate("el => el === document.activeElement")
            opened = True
            continue
        if not shown:
            game.decide(rng)
            continue
        pick = rng.choice(shown)["key"]
        before = game.saved()["state"]
        game._mark()
        page.keyboard.press(pick)
        confirm = page.locator(".gb-confirm .md-button--primary")
        if confirm.count():
            page.keyboard.press("Enter")  # the confirmation has the focus
        game._rendered()
        by_key = game.saved()["state"]
        assert by_key != before
        undo = page.get_by_role("button", name="Annuler la dernière action")
        if undo.is_enabled():
            game.undo()
            if game.saved()["state"] == before:
                button = page.locator(f'.gb-choices [data-key="{pick}"]')
                folded = button.locator("xpath=ancestor::details")  # opened by the player before
                if folded.count() and folded.first.get_attribute("open") is None:
                    folded.first.locator("summary").click()
                game._mark()
                button.click()
                if confirm.count():
                    confirm.click()
                game._rendered()
                assert game.saved()["state"] == by_key, f"key {pick} and its button differ"
                compared += 1
    assert compared >= 1


def test_journal_numbers_are_not_clipped(game, rng: random.Random) -> None:
    page = game.page
    game.quick_start()
    game.play(6, rng)
    page.locator(".gb-journal summary").click()
    clipped = page.evaluate(
        """() => {
          const ol = document.querySelector('.gb-log');
          const li = ol && ol.querySelector('li:last-child');
          if (!li) return null;
          const pad = parseFloat(getComputedStyle(ol).paddingLeft);
          const digits = String(Number(ol.start) + ol.children.length).length + 1;
          const probe = document.createElement('span');
          probe.textContent = '9'.repeat(digits);
          li.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return width > pad ? [width, pad] : false;
        }"""
    )
    assert clipped is False, clipped


def test_home_page_presents_every_game_with_a_way_in(page, server, site) -> None:
    page.goto(server.url, wait_until="load")
    text = page.locator("article").inner_text()
    assert "arrivent bientôt" not in text
    for cls in registry.games():
        assert cls.title in text, cls.title
        play = page.locator(f'article a[href$="play/{cls.id}/index.html"]')
        assert play.count() >= 1, f"no play link for {cls.id}"
        if (site / f"regles-{cls.id}.html").is_file():
            assert page.locator(f'article a[href$="regles-{cls.id}.html"]').count() >= 1
    play = page.locator(f'article a[href$="play/{registry.ids()[0]}/index.html"]').first
    play.click()
    page.locator('[data-testid="quick-start"]').wait_for()
