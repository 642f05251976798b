"""What the Citadel's shortcuts for speed must never change: the view is the same value as a
whole copy reduced to counts, the turn's actions read through ``offers`` are what ``spec_of``
says, and the legal actions kept for ``apply`` never let an illegal action through."""

from __future__ import annotations

import json

import pytest

from engine.citadelle import actions as A
from engine.citadelle import game as G
from engine.citadelle import records as rec
from engine.citadelle.auto import choose
from engine.citadelle.turn import SHARED
from engine.core import IllegalAction, Rng, copy_game, registry
from pipeline.story.bundles import bundle_for


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


@pytest.fixture(scope="module")
def states(bundle) -> list[dict]:
    s = G.new_game(bundle, ["A", "B"], 4)
    out = [s]
    while s["pending"] is not None and len(out) < 250:
        s = G.apply(bundle, s, choose(bundle, G.view(bundle, s), G.legal_actions(bundle, s)))
        out.append(s)
    return out


def whole_copy_view(bundle: dict, state: dict, seat: int | None = None) -> dict:
    """The view as it was first written: the whole state copied, then reduced."""
    v = copy_game(state, SHARED)
    v.pop("rng", None)
    v.pop("queue", None)
    v["box"] = {n: len(keys) for n, keys in state["box"].items() if keys}
    v["explore_decks"] = {z: len(d) for z, d in state["explore_decks"].items()}
    v["skill_box"] = len(state["skill_box"])
    v["past"] = len(state["past"])
    v["banished"] = len(state["banished"])
    for ch in v["characters"]:
        ch["deck"] = len(ch["deck"])
    for slot in v["slots"].values():
        if not slot.get("revealed") and slot.get("exploration"):
            slot["zone"] = rec.exp(bundle, slot["exploration"])["zone"]
            slot["exploration"] = None
    v["seat"] = seat
    return v


def test_the_view_is_the_whole_copy_reduced_keys_in_order(bundle, states):
    for s in states[::5]:
        assert json.dumps(G.view(bundle, s, 0)) == json.dumps(whole_copy_view(bundle, s, 0))


def test_changing_the_view_changes_nothing_in_the_state(bundle, states):
    s = states[40]
    before = json.dumps(s)
    v = G.view(bundle, s)
    for ch in v["characters"]:
        ch["hand"].append("x")
        ch["at"] = "99,99"
    for spot in v["board"].values():
        spot["events"].append({"key": "x"})
    v["log"].append({"key": "x", "args": {}})
    assert json.dumps(s) == before


def test_offers_read_what_spec_of_reads(bundle, states):
    seen = 0
    for s in states:
        for c in range(len(s["characters"])):
            for source, i, spec, ref in A.offers(bundle, s, c):
                assert A.spec_of(bundle, s, source, i) == (spec, ref)
                assert A.act_of(bundle, c, source, i, spec, ref) == A.act(bundle, s, c, source, i)
                seen += 1
            assert A.available(bundle, s, c) == [(x, i) for x, i, _, _ in A.offers(bundle, s, c)]
    assert seen > 100


def test_the_actions_kept_for_apply_let_no_illegal_action_through(bundle, states):
    game = registry.get("citadelle")(bundle)
    s = next(x for x in states if x["pending"] and x["pending"]["type"] == "turn")
    listed = game.legal_actions(s, 0)
    acts = [a for a in listed if a["type"] == "act"]
    assert acts
    forged = acts[0]
    forged["index"] = 99  # the caller changes what it was given: still illegal
    with pytest.raises(IllegalAction):
        game.apply(s, forged)
    chosen = game.choose(s, 0, Rng({"rng": 1}))
    chosen["character"] = 7  # a changed choice is checked against the real list
    with pytest.raises(IllegalAction):
        game.apply(s, chosen)
    game.choose(s, 0, Rng({"rng": 1}))
    other = json.loads(json.dumps(s))  # an equal state, another dict: listed anew
    assert game.apply(other, game.choose(s, 0, Rng({"rng": 1}))) == game.apply(
        s, game.choose(s, 0, Rng({"rng": 1}))
    )
