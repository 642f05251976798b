"""Le Dilemme du Roi: ``legal_actions`` lists exactly what ``apply`` accepts, seat by seat, and
anything else is refused with the engine's own error (``MalformedAction``/``IllegalAction``).

Defects fixed here, each with the test that failed before the fix:
- a seat given as a boolean (``"seat": False``) was taken for seat 0;
- ``legal_actions(state, seat)`` listed other seats' gifts and abilities (during a tie, the
  moderator's list held every house's gifts), and ``legal_actions(state)`` left out the other
  houses' bids to the moderator.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine.core import IllegalAction, MalformedAction
from engine.dilemme import game as G
from engine.dilemme.bots import choose
from engine.dilemme.game import apply, legal_actions
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = bundle_for("dilemme", ROOT / "content")
REFUSED = (MalformedAction, IllegalAction)


def _game(seed: int, n: int, rnd: float = 0.25, limit: int = 2_000):
    """States of a seeded game: bots, with a random legal move now and then."""
    from engine.dilemme.game import new_campaign, new_game

    houses = sorted(BUNDLE["records"]["house"])[:n]
    camp = new_campaign(BUNDLE, seed)
    s = new_game(BUNDLE, camp, [{"house": h, "bot": True} for h in houses], seed)
    pick = random.Random(seed)
    for _ in range(limit):
        if s["pending"] is None:
            return
        yield s
        seat = s["pending"]["seat"]
        if pick.random() < rnd:
            action = pick.choice(legal_actions(BUNDLE, s, seat))
        else:
            action = choose(BUNDLE, s, seat)
        s = apply(BUNDLE, s, action)


def _tie(seed: int = 0) -> dict:
    """A state where the moderator settles a tie (all houses passed)."""
    for s in _game(seed, 4, rnd=0):
        if s["pending"]["type"] == "vote" and s["vote"]["votes"][s["pending"]["seat"]]["kind"]:
            continue
        if s["pending"]["type"] == "vote":
            seat = s["pending"]["seat"]
            while s["pending"]["type"] == "vote":
                seat = s["pending"]["seat"]
                s = apply(BUNDLE, s, {"type": "pass", "seat": seat, "for": "power"})
            assert s["pending"]["type"] == "decide"
            return s
    raise AssertionError("no vote")


def test_a_boolean_seat_is_malformed():
    for want in (0, 1):  # False and True compare equal to 0 and 1 in Python
        s = next(s for s in _game(1, 3) if s["pending"] == {"type": "vote", "seat": want})
        assert {"type": "pass", "seat": want, "for": "power"} in legal_actions(BUNDLE, s, want)
        with pytest.raises(MalformedAction, match="'seat' must be a seat number"):
            apply(BUNDLE, s, {"type": "pass", "seat": bool(want), "for": "power"})


def test_in_a_tie_each_seat_gets_its_own_actions_only():
    s = _tie()
    moderator = s["pending"]["seat"]
    n = len(s["seats"])
    for seat in range(n):
        mine = legal_actions(BUNDLE, s, seat)
        assert mine and all(a["seat"] == seat for a in mine), seat
        types = {a["type"] for a in mine}
        if seat == moderator:
            assert {"decide", "give"} <= types and "offer" not in types
        else:
            assert types >= {"offer", "give"} and "decide" not in types
            assert {a["to"] for a in mine if a["type"] == "offer"} == {moderator}
    everyone = legal_actions(BUNDLE, s)
    assert everyone == [a for seat in range(n) for a in legal_actions(BUNDLE, s, seat)]
    bids = [a for a in everyone if a["type"] == "offer"]
    assert {a["seat"] for a in bids} == set(range(n)) - {moderator}


def test_during_a_vote_only_the_seat_asked_is_listed():
    s = next(s for s in _game(2, 5) if s["pending"]["type"] == "vote")
    for seat in range(5):
        assert all(a["seat"] == seat for a in legal_actions(BUNDLE, s, seat))


def _universe(s: dict) -> list[dict]:
    """Every well-formed action worth trying on this state, legal or not."""
    n = len(s["seats"])
    out: list[dict] = []
    for seat in range(n):
        for to in range(n):
            for c in range(7):
                out += [
                    {"type": "offer", "seat": seat, "to": to, "coins": c, "ask": ask}
                    for ask in G.ASKS
                ]
                out.append({"type": "give", "seat": seat, "to": to, "coins": c})
            out.append({"type": "choose_leader", "seat": seat, "leader": to})
        for side in G.SIDES:
            out.append({"type": "decide", "seat": seat, "side": side})
            out += [{"type": "vote", "seat": seat, "side": side, "power": p} for p in range(11)]
        out += [{"type": "add", "seat": seat, "power": p} for p in range(11)]
        out += [{"type": "pass", "seat": seat, "for": f} for f in ("power", "moderator")]
        out += [{"type": "answer", "seat": seat, "accept": a} for a in (True, False)]
        out.append({"type": "stand", "seat": seat})
    return out


@pytest.mark.parametrize(
    "seed,n", [(0, 3)] if os.environ.get("MUTANT_UNDER_TEST") else [(0, 3), (1, 4), (2, 5)]
)
def test_legal_actions_are_exactly_what_apply_accepts(seed, n):
    """On states of seeded games (ties included), every well-formed action is accepted iff it
    is listed for the seat it names."""
    ties = 0
    for k, s in enumerate(_game(seed, n)):
        if s["pending"]["type"] not in ("vote", "decide", "answer", "choose_leader"):
            continue
        if k % 3 and s["pending"]["type"] != "decide":
            continue
        ties += s["pending"]["type"] == "decide"
        legal = {seat: legal_actions(BUNDLE, s, seat) for seat in range(n)}
        for action in _universe(s):
            listed = action in legal[action["seat"]]
            try:
                apply(BUNDLE, s, action)
            except REFUSED:
                assert not listed, action
            else:
                assert listed, action
    if seed == 0:
        s = _tie()
        legal = {seat: legal_actions(BUNDLE, s, seat) for seat in range(4)}
        for action in _universe(s):
            try:
                apply(BUNDLE, s, action)
                assert action in legal[action["seat"]], action
            except REFUSED:
                assert action not in legal[action["seat"]], action


VALUES = (None, 0, 1, -1, 97, 10**12, True, False, 1.5, "", "x", "oui_da", "pass", "decide_nenni",
          [], [0], {}, {"a": 1}, ("t",))  # fmt: skip


def _malformed(rng: random.Random, action: dict) -> object:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice([None, 3, "vote", [action], (), set()])
    bad = dict(action)
    key = rng.choice([*action, "type", "seat", "zz"])
    if roll < 0.3:
        bad.pop(key, None)
    else:
        bad[key] = rng.choice(VALUES)
    if rng.random() < 0.2:  # and a second change
        bad[rng.choice([*bad, "extra"])] = rng.choice(VALUES)
    return bad


@pytest.mark.parametrize("seed", range(2 if os.environ.get("MUTANT_UNDER_TEST") else 6))
def test_fuzz_malformed_and_stale_actions_are_refused_with_the_engines_errors(seed):
    """Thousands of mangled and stale actions over seeded games of 3 to 5 houses: each one is
    either legal for the seat it names, or refused with MalformedAction/IllegalAction."""
    rng = random.Random(seed)
    n = 3 + seed % 3
    stale: list[dict] = []
    tried = 0
    for s in _game(seed, n):
        legal = {seat: legal_actions(BUNDLE, s, seat) for seat in range(n)}
        pool = [a for acts in legal.values() for a in acts[:30]]
        for _ in range(12):
            if stale and rng.random() < 0.2:
                bad = rng.choice(stale)  # an action of an earlier state
            else:
                bad = _malformed(rng, rng.choice(pool))
            seat = bad.get("seat") if isinstance(bad, dict) else None
            if type(seat) is int and seat in legal and bad in legal[seat]:
                continue
            tried += 1
            try:
                apply(BUNDLE, s, bad)
            except REFUSED:
                continue
            pytest.fail(f"{bad!r} accepted although not legal (pending {s['pending']})")
        stale = pool[:20]
    assert tried > 300


@pytest.mark.parametrize(
    "field,value",
    [("type", ["vote"]), ("type", {"a": 1}), ("side", {"a": 1}), ("power", [1]), ("seat", [0]),
     ("for", {"x": "power"}), ("to", [1]), ("ask", ["oui_da"]), ("tokens", {"a": 1})],
)  # fmt: skip
def test_unhashable_values_are_malformed_not_a_type_error(field, value):
    s = next(s for s in _game(3, 3) if s["pending"]["type"] == "vote")
    seat = s["pending"]["seat"]
    action = {"type": "vote", "seat": seat, "side": "oui_da", "power": 1, field: value}
    with pytest.raises(REFUSED):
        apply(BUNDLE, s, action)


def test_a_refused_action_is_named_with_the_round_and_the_reason():
    """Each refusal names the action, where the game stands and why: an unknown type, a seat
    the table does not have (seats are numbered from 0), a field of the wrong type, an
    ability that cannot be used now."""
    from test_dilemme_engine import BUNDLE as SMALL
    from test_dilemme_engine import start

    s = start(n=3)
    where = f"game 1, round {s['round']}, phase vote"
    refused = [
        ({"type": "dance", "seat": 0}, "'type' must be one of"),
        ({"type": "stand", "seat": 3}, "'seat' must be a seat number"),
        ({"type": "vote", "seat": 0, "side": "oui_da", "power": "2"}, "'power' must be a int"),
    ]
    for action, why in refused:
        with pytest.raises(MalformedAction) as err:
            apply(SMALL, s, action)
        assert str(err.value).startswith(f"malformed action {action!r} in {where}: {why}")
    use = {"type": "use_ability", "seat": 1, "source": "julius/rien"}
    with pytest.raises(IllegalAction) as err:
        apply(SMALL, s, use)
    assert str(err.value).endswith(f"{use!r} in {where}: no such ability to use now")


def test_an_action_out_of_turn_is_refused_saying_whose_turn_it_is_or_that_the_game_is_over():
    from test_dilemme_engine import BUNDLE as SMALL
    from test_dilemme_engine import start

    s = start(n=3)
    seat = s["pending"]["seat"]
    other = {"type": "stand", "seat": (seat + 1) % 3}
    with pytest.raises(IllegalAction) as err:
        apply(SMALL, s, other)
    assert str(err.value).endswith(f"{other!r} in game 1, round 1, phase vote: "
                                   f"waiting for vote by seat {seat}")  # fmt: skip
    s = {**s, "pending": None, "phase": "over"}
    with pytest.raises(IllegalAction) as err:
        apply(SMALL, s, other)
    assert str(err.value).endswith("phase over: the game is over")
