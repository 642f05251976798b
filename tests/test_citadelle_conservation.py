"""Conservation over whole adventures: after every action of many seeded games (the automatic
policy, random choices and a mix of both; one to four characters; saves, departures and
arrivals included), every card of the box is in exactly one place, every change of hit points
and of community scores is told by the journal, and ``apply`` never changes its input."""

from __future__ import annotations

import json
import random

import pytest

from engine.citadelle import cards as K
from engine.citadelle import game as G
from engine.citadelle.auto import choose
from pipeline.story.bundles import bundle_for

SCENARIOS = (None, "pluie_grise", "forges_mortes", "chemin_des_cendreux", "coeur_de_varn")
CHARACTERS = ("A", "B", "C", "D")
GAMES = 500
STEPS = 90  # actions per game (long enough to cross a scenario's end now and then)


def hit_points(before: dict, after: dict) -> None:
    """Every change of a character's hit points is in the journal of that action."""
    new = after["log"][len(before["log"]) :]
    expected = {c["id"]: c["hp"] for c in before["characters"]}
    for entry in new:
        key, a = entry["key"], entry.get("args") or {}
        if key == "scenario.start":
            expected = {cid: a["hp"] for cid in expected}
        elif key == "hp.lost":
            expected[a["id"]] = max(0, expected[a["id"]] - a["amount"])
        elif key == "hp.gained":
            expected[a["id"]] = min(99, expected[a["id"]] + a["amount"])
        elif key == "recovery":
            expected[a["id"]] = a["left"]
        elif key == "character.joins":
            expected[a["id"]] = 0
        elif key == "character.leaves":
            expected.pop(a["id"])
            for ch in before["characters"]:
                if ch["name"] in (a.get("share") or {}):
                    expected[ch["id"]] += a["share"][ch["name"]]
    actual = {c["id"]: c["hp"] for c in after["characters"]}
    assert actual == expected, (new, expected, actual)
    for c in after["characters"]:
        assert 0 <= c["hp"] <= 99
        if after["phase"] == "play":
            assert c["conscious"] == (c["hp"] > 0), c


def scores(before: dict, after: dict) -> None:
    """Community scores stay within 0–25 and move only as the journal says."""
    expected = dict(before["citadel"]["scores"])
    for entry in after["log"][len(before["log"]) :]:
        if entry["key"] == "score":
            expected[entry["args"]["score"]] = entry["args"]["value"]
    assert after["citadel"]["scores"] == expected
    assert all(0 <= v <= 25 for v in expected.values())


def _fingerprint(state: dict) -> tuple[str, int]:
    """The state as text, its append-only journal by length (copying it is apply's job)."""
    return json.dumps({**state, "log": None}, sort_keys=True), len(state["log"])


def play(bundle: dict, seed: int, policy: str) -> int:
    rnd = random.Random(seed)
    n = 1 + seed % 4
    chars = rnd.sample(CHARACTERS, n)
    scenario = SCENARIOS[seed % len(SCENARIOS)]
    state = G.new_game(
        bundle, chars, seed, scenario=scenario, recovery=("normal", "story", "survival")[seed % 3]
    )
    K.check(bundle, state)
    for _ in range(STEPS):
        actions = G.legal_actions(bundle, state)
        if not actions:
            break
        if policy == "auto" or (policy == "mixed" and rnd.random() < 0.7):
            action = choose(bundle, G.view(bundle, state), actions)
        else:
            action = rnd.choice(actions)
        frozen = _fingerprint(state)
        after = G.apply(bundle, state, action)
        assert _fingerprint(state) == frozen, "apply changed its input"
        K.check(bundle, after)
        hit_points(state, after)
        scores(state, after)
        state = after
    assert json.loads(json.dumps(state)) == state
    return len(state["log"])


@pytest.fixture(scope="module")
def citadelle_bundle() -> dict:
    return bundle_for("citadelle")


@pytest.mark.parametrize("policy", ["auto", "random", "mixed"])
def test_every_card_stays_in_one_place_over_many_games(citadelle_bundle, policy):
    games = GAMES // 3 + 1
    offset = {"auto": 0, "random": 10_000, "mixed": 20_000}[policy]
    for seed in range(offset, offset + games):
        play(citadelle_bundle, seed, policy)
