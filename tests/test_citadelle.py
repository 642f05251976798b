"""The 7th Citadel on its real campaign: whole adventures through the session, determinism,
what the view hides, the automatic policy's blindness to deck orders."""

from __future__ import annotations

import json

import pytest

from engine.citadelle import game as G
from engine.citadelle.auto import choose
from engine.core import IllegalAction, MalformedAction, Rng, registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def run(bundle: dict, seed: int, steps: int = 400, scenario: str | None = None) -> list[dict]:
    s = G.new_game(bundle, ["A", "B"], seed, scenario=scenario)
    states = [s]
    while s["pending"] is not None and len(states) < steps:
        s = G.apply(bundle, s, choose(bundle, G.view(bundle, s), G.legal_actions(bundle, s)))
        states.append(s)
    return states


def test_same_seed_same_adventure(bundle):
    assert run(bundle, 5, 200) == run(bundle, 5, 200)
    assert run(bundle, 5, 200)[-1] != run(bundle, 6, 200)[-1]


def test_the_view_hides_deck_orders_and_face_down_cards(bundle):
    s = run(bundle, 3, 30)[-1]
    v = G.view(bundle, s)
    assert "rng" not in v and "queue" not in v
    assert all(isinstance(c["deck"], int) for c in v["characters"])
    assert isinstance(v["past"], int) and isinstance(v["skill_box"], int)
    assert all(isinstance(n, int) for n in v["box"].values())
    hidden = [slot for slot in v["slots"].values() if not slot["revealed"]]
    assert hidden and all(slot["exploration"] is None and slot["zone"] for slot in hidden)


def test_the_policy_decides_the_same_whatever_the_deck_order(bundle):
    """Shuffling every deck (a secret no one knows) never changes what the policy does."""
    game = registry.get("citadelle")(bundle)
    for s in run(bundle, 8, 120)[::7]:
        if s["pending"] is None:
            continue
        action = game.choose(s, 0, Rng({"rng": 1}))
        other = game.scramble(s, None, Rng({"rng": 99}))
        assert game.choose(other, 0, Rng({"rng": 1})) == action


def test_states_round_trip_through_json(bundle):
    for s in run(bundle, 11, 150):
        assert json.loads(json.dumps(s)) == s


def test_bad_actions_are_refused_with_the_engines_errors(bundle):
    s = G.new_game(bundle, ["A"], 1)
    bad_actions = (
        None,
        [],
        {"type": "nope"},
        {"type": "draw", "count": "3", "tremor": False},
        {"type": "act"},
        {"type": "save", "extra": 1},
        {"type": "move", "character": True, "to": "0,0"},
    )
    for bad in bad_actions:
        with pytest.raises(MalformedAction):
            G.apply(bundle, s, bad)
    with pytest.raises(IllegalAction):
        G.apply(bundle, s, {"type": "move", "character": 0, "to": "9,9"})


def test_a_whole_bot_adventure_through_the_session(bundle):
    game = registry.get("citadelle")(bundle)
    session = Session(game).start({"seed": "2", "players": 3, "bots": 3})
    scr = session.screen()
    assert scr["over"] and scr["outcome"]["summary"]
    assert game.outcome(session.state) is not None


def test_the_view_shows_the_table_as_it_lies_and_nothing_else(bundle):
    """What the players see at the table, field by field: the box and the decks as how many
    cards are left (a box number with no card left is not shown), each character's deck as
    its size and everything else of theirs as it is, the journal as is, a face-down
    exploration card as its zone only (the back shows it), a revealed one whole; the view is a
    copy (changing it changes nothing of the game) and the game is left untouched."""
    s = run(bundle, 5, 60)[-1]  # a card explored, others still face down, some in the Past
    s = {**s, "box": {**s["box"], "999": []}}
    before = json.dumps(s, sort_keys=True)
    v = G.view(bundle, s, 1)
    assert json.dumps(s, sort_keys=True) == before
    assert set(v) == (set(s) - {"rng", "queue"}) | {"seat"} and v["seat"] == 1
    assert G.view(bundle, s)["seat"] is None
    assert (
        v["box"] == {n: len(keys) for n, keys in s["box"].items() if keys} and "999" not in v["box"]
    )
    assert v["explore_decks"] == {z: len(d) for z, d in s["explore_decks"].items()}
    assert (v["skill_box"], v["past"], v["banished"]) == (
        len(s["skill_box"]), len(s["past"]), len(s["banished"]))  # fmt: skip
    for seen, ch in zip(v["characters"], s["characters"], strict=True):
        assert seen == {**ch, "deck": len(ch["deck"])}
    assert v["log"] == s["log"]
    hidden = [k for k, slot in s["slots"].items() if not slot["revealed"] and slot["exploration"]]
    shown = [k for k, slot in s["slots"].items() if slot["revealed"]]
    assert hidden and shown
    for k in hidden:
        zone = bundle["records"]["exploration_card"][s["slots"][k]["exploration"]]["zone"]
        assert v["slots"][k] == {**s["slots"][k], "exploration": None, "zone": zone}
    for k in shown:
        assert v["slots"][k] == s["slots"][k]
    reduced = {"box", "explore_decks", "skill_box", "past", "banished", "characters", "slots"}
    for k in set(s) - reduced - {"rng", "queue"}:
        assert v[k] == s[k], k
    v["citadel"]["scores"]["influence"] = 99
    v["characters"][0]["hand"].append("x")
    v["slots"][hidden[0]]["zone"] = "?"
    assert json.dumps(s, sort_keys=True) == before
    for missing in ("box", "past", "characters"):
        with pytest.raises(KeyError, match=missing):
            G.view(bundle, {k: x for k, x in s.items() if k != missing})
