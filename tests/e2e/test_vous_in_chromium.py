"""A single person's quick start of every game in headless Chromium (one person, the others
played by the computer): the game speaks to them as « Vous » (the turn bar addresses them, and
names no holder of the device), in the journal too, and never with a third-person verb after
it (« Vous joue », « Vous a »), a capital « Vous » inside a sentence (« à Vous ») or « de
vous » after a noun (see conftest.py)."""

from __future__ import annotations

import random
import re

import pytest

from engine.core import registry
from pipeline.story import french_text as F

pytestmark = pytest.mark.e2e


def _about_vous(rule: str) -> bool:
    """The reader's rules about « Vous » (pipeline/french_text.py)."""
    return "ous" in rule or rule.startswith("chiffre romain")


DECISIONS = 12


@pytest.fixture(params=registry.ids())
def game(request, open_game):
    return open_game(request.param)


def _texts(game) -> tuple[str, list[str], list[str]]:
    page = game.page
    turn = page.locator('[data-testid="turn"] .gb-turn-text').inner_text()
    log = page.locator(".gb-log li").all_text_contents()
    root = page.locator("#gb-root").inner_text()
    return turn, log, [line for line in root.splitlines() if line.strip()]


def test_a_single_person_is_vous_in_the_turn_bar_and_the_log(game, rng: random.Random) -> None:
    game.quick_start()
    turns, logs, seen = [], set(), set()
    for _ in range(DECISIONS):
        turn, log, lines = _texts(game)
        turns.append(turn)
        logs.update(log)
        seen.update([turn, *log, *lines])
        game.decide(rng)
    turn, log, lines = _texts(game)
    turns.append(turn)
    logs.update(log)
    seen.update([turn, *log, *lines])
    you = re.compile(r"\b[Vv]ous\b")
    # the turn bar speaks to the person: « À vous de jouer », « votre tour », or an imperative
    # (« choisissez une carte »); it never says who holds the device (nobody else may)
    addressed = re.compile(r"\b(?:[Vv]ous|[Vv]otre|[a-zéèê]+ez)\b")
    assert any(addressed.search(t) for t in turns), f"the turn bar never speaks to you: {turns}"
    assert not any("Appareil" in t for t in turns), f"a holder named for one person: {turns}"
    assert any(you.search(line) for line in logs), f"no « Vous » in the journal: {sorted(logs)}"
    found = [f for f in F.grammar(seen) if _about_vous(f.rule)]
    assert not found, "\n".join(str(f)[:300] for f in found[:10])
    # the checks can fail: the same reader on the page's own words, put in the third person
    wrong = {re.sub(r"\bVous (\w+)ez\b", r"Vous \1e", s) for s in seen}
    if wrong != seen:
        assert any(_about_vous(f.rule) for f in F.grammar(wrong))
