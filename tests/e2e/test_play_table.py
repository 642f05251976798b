"""The play table of every game (issue 26), in headless Chromium at a desktop (1280×800) and a
phone (390×844) size.

A game of each registered game, 40 decisions mixing the choices (seeded: not always the first;
now and then a folded group opened first, a form filled at random, a number key pressed), and
after every one of them:

- the turn bar ``[data-testid="turn"]``, the last-step block ``[data-testid="last-step"]`` and
  the first enabled choice are inside the viewport (below the site's sticky header, above the
  bottom edge) and not covered by anything (the bottom sheet of a phone included), without the
  test scrolling anything;
- the keyboard focus is on that first choice;
- at most 16 choices can be seen; every button that can be seen has a label that can be seen;
  no two buttons of one group have the same label; every number written on a button is the key
  that presses it;
- nothing scrolls sideways, and every control of the table is at least 44 px high and wide.

When the game opens, its first choice is above the fold.  A number key of a button inside a
folded group sends nothing: it opens that group and puts the keyboard on the button.  Large
tables (a 16-player Roi tournament, five Dilemme houses) show the other seats as a compact strip
that opens on demand, and keep the same promises.  A quick start never overwrites a slot that
holds a game in progress.  Viewport screenshots land in tests/e2e/artifacts/ (``table-…``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core import registry

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
DECISIONS = 40
MAX_VISIBLE = 16
TARGET = 44  # px, the smallest control of the table
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

# Everything measured in the page, as a player would see it now.
MEASURE = """() => {
  const header = document.querySelector(".md-header");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const H = innerHeight, W = innerWidth;
  const shown = (el) => !!el && !el.closest("details:not([open])") && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const rect = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.top, r.bottom, r.left, r.right];
  };
  // the element itself is what a tap at its first line would reach
  const uncovered = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + Math.min(12, r.width / 2), 0), W - 1);
    const y = Math.min(Math.max(r.top + Math.min(14, r.height / 2), top + 1), H - 1);
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
  };
  const turn = document.querySelector('[data-testid="turn"]');
  const last = document.querySelector('[data-testid="last-step"]');
  const choices = [...document.querySelectorAll(".gb-choices [data-choice]")]
    .filter((e) => shown(e) && !e.disabled);
  const first = choices[0] || null;
  const label = (e) => (e.querySelector(".gb-choice-label") || e).innerText.trim();
  const groups = [...document.querySelectorAll(".gb-choices .gb-group, .gb-choices .gb-row")]
    .map((g) => [...g.querySelectorAll("[data-choice]")].filter(shown).map(label));
  const app = document.getElementById("gb-app");
  const controls = [...app.querySelectorAll("button, summary, select, a.md-button, "
    + "input:not([type=checkbox]):not([type=radio]):not(.gb-sr-only)")].filter(shown);
  const unlabelled = controls
    .filter((e) => e.matches("button, summary, a.md-button") && !e.innerText.trim())
    .map((e) => e.outerHTML.slice(0, 120));
  const small = controls.map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.height < 43.5 || r.width < 43.5)
    .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className} `
      + `« ${e.innerText.trim().slice(0, 30)} » ${Math.round(r.width)}×${Math.round(r.height)}`);
  const keys = [...document.querySelectorAll(".gb-choices [data-key]")].filter(shown)
    .map((e) => [e.dataset.key, (e.querySelector("kbd") || {}).textContent || null]);
  const over = !!document.querySelector(".gb-choices .gb-over");
  return {
    top, H, W, sideways: document.documentElement.scrollWidth - W,
    turn: rect(turn), last: rect(last), first: rect(first),
    turnSeen: uncovered(turn), lastSeen: uncovered(last), firstSeen: uncovered(first),
    firstText: first ? first.innerText.trim().slice(0, 60) : null,
    focused: !!first && document.activeElement === first,
    confirm: !!document.querySelector(".gb-confirm"),
    visible: choices.length, groups, unlabelled, small, keys, over,
    handoff: !!document.querySelector(".gb-handoff"),
    where: (document.querySelector(".gb-where") || {}).textContent || "",
  };
}"""


def _snap(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"table-{name}.png"))


def _inside(m: dict, box) -> bool:
    return box is not None and box[0] >= m["top"] - 1 and box[1] <= m["H"] + 1


def check(page, where: str, *, first_screen: bool = False) -> dict:
    """Every promise of the table on the screen shown now."""
    m = page.evaluate(MEASURE)
    if m["handoff"]:
        return m
    say = f"{where} ({m['where'][:80]!r})"
    for name in ("turn", "last", "first"):
        box = [round(v) for v in m[name]] if m[name] else None
        if not (_inside(m, m[name]) and m[f"{name}Seen"]):
            _snap(page, f"failed-{where}")
        assert _inside(m, m[name]), f"{say}: {name} at {box}, viewport {round(m['top'])}–{m['H']}"
        assert m[f"{name}Seen"], f"{say}: {name} at {box} is covered"
    if first_screen:
        assert m["first"][1] <= m["H"], f"{say}: the first choice is below the fold"
    if not m["confirm"]:
        assert m["focused"], f"{say}: the focus is not on the first choice ({m['firstText']!r})"
    assert m["visible"] <= MAX_VISIBLE, f"{say}: {m['visible']} choices in view"
    assert not m["unlabelled"], f"{say}: buttons without a visible label: {m['unlabelled']}"
    for labels in m["groups"]:
        assert len(labels) == len(set(labels)), f"{say}: the same label twice in a group: {labels}"
    for key, shown in m["keys"]:
        assert key == shown, f"{say}: key {key} on a button that shows {shown}"
    assert m["sideways"] <= 0, f"{say}: the page scrolls sideways by {m['sideways']} px"
    assert not m["small"], f"{say}: controls smaller than {TARGET} px: {m['small']}"
    return m


def _fill(form, rng: random.Random) -> None:
    """Every field of a form group, in order: a random allowed value."""
    fields = form.locator("select, input.gb-stepper-input")
    for i in range(fields.count()):
        field = fields.nth(i)
        if field.evaluate("el => el.tagName") == "SELECT":
            values = field.evaluate("el => [...el.options].map((o) => o.value)")
            field.select_option(rng.choice(values))
        else:
            low, high = field.evaluate("el => [Number(el.min), Number(el.max)]")
            field.fill(str(rng.randint(low, high)))
            field.dispatch_event("change")


def _press(game, target) -> None:
    page = game.page
    game._mark()
    target.click()
    confirm = page.locator(".gb-confirm .md-button--primary")
    if confirm.count():
        confirm.click()
    game._rendered()


def _folded_key_sends_nothing(game) -> bool:
    """A number key of a button in a closed group: the group opens, the keyboard goes to the
    button, nothing is sent.  False when the screen has no such button."""
    page = game.page
    key = page.evaluate(
        """() => {
          const b = [...document.querySelectorAll(".gb-choices details:not([open]) [data-key]")][0];
          return b ? b.dataset.key : null;
        }"""
    )
    if key is None:
        return False
    before = game.saved()
    game._mark()
    page.keyboard.press(key)
    page.wait_for_timeout(150)
    assert game.saved() == before, f"key {key} of a folded button sent something"
    stale = page.evaluate(
        "() => document.querySelector('#gb-root > *').hasAttribute('data-e2e-stale')"
    )
    assert stale, f"key {key} of a folded button drew a new screen"
    state = page.evaluate(
        f"""() => {{
          const b = document.querySelector('.gb-choices [data-key="{key}"]');
          return {{ open: !!b.closest('details[open]'), focused: document.activeElement === b }};
        }}"""
    )
    assert state == {"open": True, "focused": True}, state
    return True


def decide(game, rng: random.Random, step: int) -> str:
    """One decision, mixing the ways a player makes one; returns how."""
    page = game.page
    if page.locator(".gb-handoff").count():
        _press(game, page.locator(".gb-handoff [data-choice]"))
        return "hand-over"
    kinds = page.eval_on_selector_all(
        ".gb-choices [data-choice]", "els => els.map((e) => e.dataset.choice)"
    )
    if "next-game" in kinds:
        _press(game, page.locator('[data-choice="next-game"]'))
        return "next game"
    if kinds == ["new"]:
        page.locator('[data-choice="new"]').click()
        game.wait_ready()
        game.quick_start()
        return "new game"
    folded = page.locator(".gb-choices details.gb-folded:not([open])")
    if folded.count() and rng.random() < 0.25:  # opening a folded group: a step of its own
        folded.nth(rng.randrange(folded.count())).locator("summary").click()
    visible = page.locator(".gb-choices [data-choice]:visible")
    n = visible.count()
    assert n, f"no choice to make: {game.story[:200]!r}"
    pick = visible.nth(rng.randrange(n))
    form = pick.locator("xpath=ancestor::form[contains(@class, 'gb-form')]")
    if form.count():
        _fill(form.first, rng)
    key = pick.get_attribute("data-key")
    if key and step % 5 == 2 and not form.count():  # the number written on it
        game._mark()
        page.keyboard.press(key)
        if page.locator(".gb-confirm").count():
            page.keyboard.press("Enter")  # the confirmation has the focus
        game._rendered()
        return f"key {key}"
    _press(game, pick)
    return "click"


def _reveal(page, locator) -> None:
    """Scroll the page as a player does, until ``locator`` sits right under the turn bar."""
    locator.evaluate(
        """(el) => {
          const turn = document.querySelector('[data-testid="turn"]').getBoundingClientRect();
          window.scrollBy(0, el.getBoundingClientRect().top - turn.bottom - 4);
        }"""
    )


def _open(page, open_game, game_id: str, size: str):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    return open_game(game_id)


def play_and_check(
    game, rng: random.Random, name: str, decisions: int = DECISIONS, opened: bool = False
) -> None:
    """``decisions`` decisions, every promise checked after each; ``opened``: the first screen
    was checked already."""
    page = game.page
    if not opened:
        check(page, f"{name} open", first_screen=True)
        _snap(page, f"{name}-0")
    folded_tried = 0
    for step in range(1, decisions + 1):
        how = decide(game, rng, step)
        m = check(page, f"{name} after decision {step} ({how})", first_screen=how == "new game")
        if step in (1, decisions // 2, decisions):
            _snap(page, f"{name}-{step}")
        if not m["confirm"] and folded_tried < 3 and _folded_key_sends_nothing(game):
            folded_tried += 1


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", registry.ids())
def test_the_table_keeps_the_turn_the_last_step_and_the_choices_in_view(
    game_id: str, size: str, page, open_game, rng: random.Random
) -> None:
    game = _open(page, open_game, game_id, size)
    game.quick_start()
    play_and_check(game, rng, f"{game_id}-{size}")


LARGE = {"roi": 16, "dilemme": 5}


@pytest.mark.parametrize("game_id", [g for g in LARGE if g in registry.ids()])
def test_a_large_table_folds_the_other_seats_into_a_strip(
    game_id: str, page, open_game, rng: random.Random
) -> None:
    game = _open(page, open_game, game_id, "phone")
    page.locator("details.gb-custom summary").click()
    count = page.locator("#gb-count")
    count.fill(str(LARGE[game_id]))
    count.dispatch_event("change")
    assert page.locator(".gb-seat").count() == LARGE[game_id]
    game.click_and_render(page.get_by_role("button", name="Commencer"))
    name = f"{game_id}-{LARGE[game_id]}-seats"
    check(page, f"{name} open", first_screen=True)
    _snap(page, f"{name}-0")
    strip = page.locator(".gb-strip")
    assert strip.count() >= 1, "no strip of seats"
    assert strip.first.locator("li").count() == LARGE[game_id]
    table = page.locator(".gb-strip-more .gb-players").first
    assert not table.is_visible(), "the whole table is shown at once"
    summary = page.locator(".gb-strip-more > summary").first
    _reveal(page, summary)  # the board scrolls between the turn bar and the sheet
    summary.click()
    assert table.is_visible()
    _snap(page, f"{name}-strip-open")
    play_and_check(game, rng, name, decisions=15, opened=True)
    assert page.locator(".gb-strip-more").first.get_attribute("open") is not None, (
        "the table opened by the player closed again"
    )


def test_a_quick_start_never_overwrites_a_game_in_progress(
    page, open_game, rng: random.Random
) -> None:
    game_id = "dilemme" if "dilemme" in registry.ids() else registry.ids()[0]
    game = open_game(game_id)
    saves = {}
    for slot in "ABC":
        if slot != "A":
            game.menu()
        game.quick_start()
        game.play(2, rng)
        saves[slot] = game.saved()
        assert page.evaluate(f"() => localStorage.getItem('gamebook:{game_id}:slot')") == slot
    stored = lambda s: page.evaluate(f"() => localStorage.getItem('gamebook:{game_id}:{s}')")  # noqa: E731
    kept = {s: stored(s) for s in "ABC"}
    game.menu()
    page.locator('[data-testid="quick-start"]').click()
    ask = page.locator(".gb-confirm")
    ask.wait_for()
    text = ask.inner_text()
    assert "emplacement A" in text and "remplacée" in text, text  # the oldest, named
    buttons = ask.locator("button")
    assert buttons.nth(0).inner_text() == "Annuler", "« Annuler » is not first"
    assert page.evaluate("() => document.activeElement.textContent") == "Annuler"
    buttons.nth(0).click()
    assert ask.count() == 0
    assert {s: stored(s) for s in "ABC"} == kept, "a slot changed with no game started"
    page.locator('[data-testid="quick-start"]').click()
    game._mark()
    page.locator(".gb-confirm .md-button--primary").click()
    game._rendered()
    assert stored("A") != kept["A"] and stored("B") == kept["B"] and stored("C") == kept["C"]


SHEET = """() => {
  const dock = document.querySelector(".gb-dock").getBoundingClientRect();
  const stage = [...document.querySelectorAll(".gb-stage > *, .gb-board > *")]
    .filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().bottom);
  const turn = document.querySelector('[data-testid="turn"]');
  const r = turn.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 12, r.top + Math.min(14, r.height / 2));
  return {
    dock: [dock.top, dock.height], H: innerHeight, tableBottom: Math.max(...stage),
    turnSeen: !!hit && turn.contains(hit) && r.top >= 0 && r.bottom <= innerHeight,
    choices: [...document.querySelectorAll(".gb-choices [data-choice]")]
      .filter((e) => e.getClientRects().length).length,
    focus: document.activeElement ? document.activeElement.className : null,
  };
}"""


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_phone_sheet_lowers_to_show_the_table_and_rises_again(
    game_id: str, page, open_game, rng: random.Random
) -> None:
    """One tap on the sheet's handle lowers it to the handle (the whole table can be read, the
    turn bar stays in view), its state in ``aria-expanded`` and its label; one more tap raises
    it; the handle is reached with Tab and pressed with Enter; a number key while it is lowered
    raises it and puts the keyboard on that button, and sends nothing."""
    game = _open(page, open_game, game_id, "phone")
    game.quick_start()
    game.play(3, rng)
    handle = page.locator(".gb-sheet-handle")
    assert handle.is_visible()
    assert handle.get_attribute("aria-expanded") == "true"
    assert handle.inner_text() == "Réduire les choix (voir la table)"
    before = game.saved()
    game._mark()
    handle.click()
    low = page.evaluate(SHEET)
    assert handle.get_attribute("aria-expanded") == "false"
    assert handle.inner_text() == "Afficher vos choix"
    assert low["dock"][1] <= 60, f"the lowered sheet is {low['dock'][1]} px high"
    assert low["choices"] == 0 and low["turnSeen"], low
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    low = page.evaluate(SHEET)
    assert low["tableBottom"] <= low["dock"][0] + 1, f"the table ends under the sheet: {low}"
    assert low["turnSeen"], "the turn bar left the view"
    _snap(page, f"{game_id}-sheet-lowered")
    handle.click()
    assert handle.get_attribute("aria-expanded") == "true"
    check(page, f"{game_id} sheet raised")
    # the keyboard: Tab reaches the handle, Enter lowers it, a number key raises it again
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('gb-sheet-handle')"):
            break
    else:
        pytest.fail("Tab never reaches the sheet's handle")
    page.keyboard.press("Enter")
    assert handle.get_attribute("aria-expanded") == "false"
    key = page.evaluate(
        "() => (document.querySelector('.gb-choices [data-key]') || {}).dataset?.key || null"
    )
    assert key, "no numbered choice"
    page.keyboard.press(key)
    assert handle.get_attribute("aria-expanded") == "true"
    focused = page.evaluate("() => document.activeElement.dataset.key || null")
    assert focused == key, f"key {key} left the keyboard on {focused}"
    assert game.saved() == before, "lowering, raising or a key sent an action"
    stale = page.evaluate(
        "() => document.querySelector('#gb-root > *').hasAttribute('data-e2e-stale')"
    )
    assert stale, "a new screen was drawn"


def _until_a_question(game, rng: random.Random, limit: int = 400) -> int | None:
    """Random choices until one asks first (its question shown, not answered): its rank among
    the visible choices, or None."""
    page = game.page
    for _ in range(limit):
        kinds = page.eval_on_selector_all(
            ".gb-choices [data-choice]:visible", "els => els.map((e) => e.dataset.choice)"
        )
        if "next-game" in kinds or kinds == ["new"] or not kinds:
            return None
        rank = rng.randrange(len(kinds))
        game._mark()
        page.locator(".gb-choices [data-choice]:visible").nth(rank).click()
        if page.locator(".gb-confirm").count():
            return rank
        game._rendered()
    return None


@pytest.mark.parametrize("game_id", [g for g in ("roi",) if g in registry.ids()])
def test_a_reload_or_a_closed_tab_during_a_confirmation_applies_nothing(
    game_id: str, page, open_game, guard, rng: random.Random
) -> None:
    """A choice that asks first (the Roi's card slid under the die), left unanswered: a reload,
    or the tab closed and the page opened again, resumes the screen from before the question —
    the autosave is the last confirmed state, nothing was applied, nothing twice."""
    game = open_game(game_id)
    rank = None
    for _ in range(6):  # a few quick games: the question comes at the end of a manche
        game.quick_start()
        rank = _until_a_question(game, rng)
        if rank is not None:
            break
        game.menu()
    assert rank is not None, "no choice ever asked first"
    asked = game.saved()
    choices = game.choices()
    game.reload()
    assert game.saved() == asked, "the reload changed the autosave"
    game.resume()
    assert page.locator(".gb-confirm").count() == 0
    assert game.saved()["actions"] == asked["actions"], "an action was applied"
    assert game.choices() == choices, "the resumed screen is not the one of the question"
    # the same question again, then the tab closed and the page opened in a new tab
    page.locator(".gb-choices [data-choice]:visible").nth(rank).click()
    assert page.locator(".gb-confirm").count() == 1, "the same choice did not ask again"
    context = page.context
    page.close()
    tab = context.new_page()
    guard.watch_page(tab)
    reopened = type(game)(tab, game.url.rsplit("play/", 1)[0], game_id).open()
    assert reopened.saved() == asked, "closing the tab changed the autosave"
    reopened.resume()
    assert reopened.saved()["actions"] == asked["actions"], "an action was applied"
    assert tab.locator(".gb-confirm").count() == 0
    assert reopened.choices() == choices
