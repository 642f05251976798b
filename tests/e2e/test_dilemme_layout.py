"""A whole Dilemme game in headless Chromium at a desktop and a phone size: what a player needs
to decide is on screen together with the choices (issue 14, "Done when").

"Without scrolling away from the choices" means here: once the page has scrolled the first
choice into view (the browser's own ``scrollIntoView({block: "nearest"})``, what a keyboard
user or a click on a choice does), the viewport — below the site's sticky header — holds at
the same time:

- the heading of the first choice group and its first control (a button, or a form's fields
  and its submit button), whole;
- after the first vote, the « Dernier tour » summary: its heading and the lines it shows, whole
  (on a phone its first three, the others one tap away);
- the player's own Pouvoir, coins and secret objective (the « your house » facts), whole;

and at the end of a game, the result (why the game ended, the ranking with each house's points)
together with the next-game / new-game buttons.  At 390 px the page never scrolls sideways
(``scrollWidth <= innerWidth``), and no text of the houses table or of the tracks is clipped
(``scrollWidth <= clientWidth`` for every cell, label and value).

One human house (the quick game: the others are bots); the choices, negotiation form
included, are picked with a seeded generator.  Screenshots go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
GAME = "dilemme"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
MAX_DECISIONS = 120  # one game is ~40 decisions of the human house
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _snap(page, name: str) -> None:
    """What the player sees (the viewport, not the whole page), kept in tests/e2e/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dilemme-layout-{name}.png"))


# What is on screen, measured in the page: rectangles (top, bottom, left, right) in viewport
# coordinates; ``top`` is the bottom of the site's sticky header.
MEASURE = """(scroll) => {
  const header = document.querySelector(".md-header");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const rect = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.top, r.bottom, r.left, r.right];
  };
  const widget = (start) => [...document.querySelectorAll("#gb-app section.gb-w")]
    .find((s) => (s.querySelector(":scope > h3")?.textContent || "").startsWith(start)) || null;
  const group = document.querySelector(".gb-choices .gb-group");
  const first = group ? group.querySelector(".gb-buttons > *") : null;
  const over = document.querySelector(".gb-choices .gb-over");
  const next = document.querySelector('.gb-choices [data-choice="next-game"]')
    || document.querySelector('.gb-choices [data-choice="new"]');
  const anchor = over ? next : first;
  if (scroll && anchor) anchor.scrollIntoView({ block: "end" });
  const mine = [...document.querySelectorAll("#gb-app section.gb-w-facts")]
    .find((s) => /Votre Pouvoir/.test(s.textContent)) || null;
  const ranking = document.querySelector("#gb-app .gb-w-ranking");
  const rows = ranking ? [...ranking.querySelectorAll(".gb-ranking > li")].map((li) => {
    const r = document.createRange();  // the row's first line: « 1er — Maison X : 12 points »
    r.setStartBefore(li.firstChild);
    r.setEndAfter(li.firstChild.nextSibling || li.firstChild);
    const b = r.getBoundingClientRect();
    return [b.top, b.bottom, b.left, b.right];
  }) : [];
  // text cut by its own box: the houses table's cells and the tracks' labels, values, slots
  const clipped = [...document.querySelectorAll(
    ".gb-players th, .gb-players td, .gb-track-row > *, .gb-slot, .gb-facts dt, .gb-facts dd")]
    .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().width > 1)
    .filter((el) => !el.closest("thead") || el.closest("thead").getBoundingClientRect().width > 1)
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.className || el.tagName}: ${el.textContent.trim().slice(0, 40)}`);
  return {
    top, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
    innerWidth, clipped,
    heading: rect(group && group.querySelector("h3, summary")), first: rect(first),
    last: rect(widget("Dernier tour")), mine: rect(mine),
    over: rect(over), next: rect(next),
    why: rect(ranking && ranking.querySelector(".gb-why")), rows,
    headingText: group ? (group.querySelector("h3, summary")?.textContent || "") : "",
  };
}"""


def _inside(m: dict, box: list[float] | None) -> bool:
    return box is not None and box[0] >= m["top"] - 1 and box[1] <= m["height"] + 1


def _where(m: dict, name: str) -> str:
    box = m[name]
    return f"{name} at {box and [round(v) for v in box]}, viewport {round(m['top'])}–{m['height']}"


def _decide(game, rng: random.Random) -> str:
    """One decision, like a player: now and then a folded group is opened (the negotiation
    form: a house, what for, an amount picked at random among those the form allows; or an
    ability), otherwise one of the visible buttons or forms.  Returns what was sent."""
    page = game.page
    folded = page.locator(".gb-choices details.gb-folded")
    target = None
    if folded.count() and rng.random() < 0.35:
        box = folded.nth(rng.randrange(folded.count()))
        box.locator("summary").click()
        form = box.locator("form.gb-form")
        if form.count():
            _fill(form, rng)
            target = form.locator("[data-choice]")
        else:
            buttons = box.locator("[data-choice]")
            target = buttons.nth(rng.randrange(buttons.count()))
    if target is None:
        forms = page.locator(".gb-choices section.gb-group form.gb-form")
        buttons = page.locator(".gb-choices section.gb-group .gb-buttons > button[data-choice]")
        picks = [("form", i) for i in range(forms.count())]
        picks += [("button", i) for i in range(buttons.count())]
        assert picks, f"no choice on screen: {game.story!r}"
        kind, i = rng.choice(picks)
        if kind == "form":
            _fill(forms.nth(i), rng)
            target = forms.nth(i).locator("[data-choice]")
        else:
            target = buttons.nth(i)
    label = target.text_content() or ""
    game._mark()
    target.click()
    confirm = page.locator(".gb-confirm .md-button--primary")
    if confirm.count():
        confirm.click()
    game._rendered()
    return label


def _fill(form, rng: random.Random) -> None:
    """Every field of a form group, in order (each narrows the next): a random allowed value."""
    fields = form.locator("select, input.gb-stepper-input")
    for i in range(fields.count()):
        field = fields.nth(i)
        if (field.evaluate("el => el.tagName")) == "SELECT":
            values = field.evaluate("el => [...el.options].map((o) => o.value)")
            field.select_option(rng.choice(values))
        else:
            low, high = field.evaluate("el => [Number(el.min), Number(el.max)]")
            field.fill(str(rng.randint(low, high)))
            field.dispatch_event("change")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_game_keeps_the_last_round_your_house_and_the_result_by_the_choices(
    page, open_game, rng: random.Random, size: str
) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    game = open_game(GAME)
    game.quick_start()
    _whole_game(page, game, rng, size)


def test_five_houses_on_a_phone(page, open_game, rng: random.Random) -> None:
    """The largest table (five houses: the longest « Dernier tour », five ranking lines) keeps
    the same promise at 390×844: one human house, four bots, from the custom form."""
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"], strict=True)))
    game = open_game(GAME)
    page.locator("details.gb-custom summary").click()
    count = page.locator("#gb-count")
    count.fill("5")
    count.dispatch_event("change")
    assert page.locator(".gb-seat").count() == 5
    game.click_and_render(page.get_by_role("button", name="Commencer"))
    _whole_game(page, game, rng, "phone-5")


def _whole_game(page, game, rng: random.Random, size: str) -> None:
    height = page.viewport_size["height"]
    seen_last = forms_sent = 0
    for n in range(MAX_DECISIONS):
        m = page.evaluate(MEASURE, True)
        if m["over"] is not None:
            break
        assert m["scrollWidth"] <= m["innerWidth"], f"sideways scroll at decision {n}: {m}"
        assert not m["clipped"], f"text clipped at decision {n}: {m['clipped']}"
        if n in (0, 1, 5, 20):
            _snap(page, f"{size}-{n}")
        seen_last = seen_last or m["last"] is not None
        for name in ("heading", "first", "mine", *(["last"] if seen_last else [])):
            if not _inside(m, m[name]):
                _snap(page, f"{size}-failed")
            assert _inside(m, m[name]), f"decision {n} ({m['headingText']}): {_where(m, name)}"
        label = _decide(game, rng)
        forms_sent += "Proposer" in label or "Donner" in label
    else:
        pytest.fail(f"no end of game after {MAX_DECISIONS} decisions")
    assert seen_last, "no « Dernier tour » was ever shown"
    assert forms_sent, "the negotiation form was never sent"
    assert n >= 10, f"a game of {n} decisions"
    m = page.evaluate(MEASURE, True)
    _snap(page, f"{size}-end")
    assert m["scrollWidth"] <= m["innerWidth"], f"sideways scroll at the end: {m}"
    assert not m["clipped"], f"text clipped at the end: {m['clipped']}"
    for name in ("over", "next", "why"):
        assert _inside(m, m[name]), f"the end: {_where(m, name)}"
    assert len(m["rows"]) >= 3 + size.endswith("-5") * 2
    for row in m["rows"]:
        assert _inside(m, row), f"the end: a ranking row at {row}, viewport {m['top']}–{height}"
