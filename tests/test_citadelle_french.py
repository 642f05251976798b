"""The 7th Citadel reads as French: over many seeded games (the automatic policy and random
choices, one to four characters, every scenario), no screen, menu label or journal line shows
a placeholder (« (e) », « carte(s) », « point(s) »), the same words twice around a dash, a raw
id (a skill's id, a card's key, « §3 », « Carte 104 », « Personnage A »), a glossary asterisk or
doubled guillemets; and one event is told once (no line told twice in a row by the same
decision)."""

from __future__ import annotations

import random
import re

import pytest
from test_french_counts import PLACEHOLDER, strings

from engine.core import registry
from pipeline.story.bundles import bundle_for

GAMES = 40
STEPS = 120
SCENARIOS = (None, "pluie_grise", "forges_mortes", "chemin_des_cendreux", "coeur_de_varn")

BAD = {
    "placeholder": PLACEHOLDER,
    "skill id": re.compile(r"\b(?:[abcd]|adv|ref|x)_[a-zé_]+\b|\bx\d\d\b"),
    "card key": re.compile(r"\b\d+/(?:green|gold)|@[a-z_]+|\+\d+\b/"),
    "paragraph sign": re.compile(r"§\s*\d"),
    "raw card number": re.compile(r"\bCarte \d+\b"),
    "seat placeholder": re.compile(r"\bPersonnage [A-D]\b"),
    "glossary asterisk": re.compile(r"\w\*"),
    "doubled guillemets": re.compile(r"«\s*«|»\s*»"),
    # an untitled action named by its verb, then the verb again: « chercher un passage —
    # chercher un passage · coût 0 »
    "said twice": re.compile(r"(\b\w[\w' ]{5,}\w) — \1\b"),
    "english": re.compile(r"\b(?:None|True|False|null|undefined)\b"),
}


@pytest.fixture(scope="module")
def game():
    bundle = bundle_for("citadelle")
    return registry.get("citadelle")(bundle)


def texts(game, state, actions) -> list[str]:
    return strings(game.screen(state, None, actions), [])


def check(lines: list[str], where: str) -> None:
    for line in lines:
        for name, pattern in BAD.items():
            found = pattern.search(line)
            assert not found, f"{name} {found.group(0)!r} in {line!r} ({where})"


@pytest.mark.parametrize("seed", range(GAMES))
def test_screens_and_journal_read_as_french(game, seed):
    from engine.citadelle import game as G

    rnd = random.Random(seed)
    n = 1 + seed % 4
    chars = rnd.sample(["A", "B", "C", "D"], n)
    state = G.new_game(game.bundle, chars, seed, scenario=SCENARIOS[seed % len(SCENARIOS)])
    state["table"] = n
    for step in range(STEPS):
        actions = G.legal_actions(game.bundle, state)
        if not actions:
            break
        check(texts(game, state, actions), f"seed {seed}, step {step}")
        for action in actions:
            check([game.describe(state, action, None)], f"seed {seed}, step {step}")
        if seed % 2 or rnd.random() < 0.7:
            action = game.choose(state, 0, None)
        else:
            action = rnd.choice(actions)
        before = len(state["log"])
        state = G.apply(game.bundle, state, action)
        told = [game.render_log(e) for e in state["log"][before:]]
        check(told, f"seed {seed}, step {step}, journal")
        repeated = [line for i, line in enumerate(told) if line and i and told[i - 1] == line]
        assert not repeated, f"told twice: {repeated} (seed {seed}, step {step})"
