"""Le Dilemme du Roi engine: the rulebook's vote example played action by action, the balance
sharing example, the contract (legal actions, errors, views) and properties over whole games."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, MalformedAction
from engine.dilemme.bots import choose
from engine.dilemme.game import apply, legal_actions, new_campaign, new_game, view

NAMES = ["Théodore", "Julius", "Armin", "Diana", "Frances"]  # clockwise, as in the example
RESOURCES = ["influence", "prosperity", "morale", "welfare", "knowledge"]


def make_bundle(dilemmas: int = 12) -> dict:
    """A small self-contained campaign: five houses, the six objectives, one envelope 00."""
    objectives = {
        key: {
            "id": key,
            "title": key,
            "zones": [{"from": lo, "to": hi}],
            "resource_points": [2, 4, 7, 10, 13],
            "wealth_points": [4, 2, 1],
        }
        for key, lo, hi in [
            ("extremism", 11, 14), ("opulence", 9, 14), ("moderation", 5, 9),
            ("rebellion", 0, 4), ("opportunism", 6, 11), ("avarice", 3, 10),
        ]
    }  # fmt: skip
    cards = {}
    for i in range(dilemmas):
        a, b = RESOURCES[i % 5], RESOURCES[(i + 2) % 5]
        cards[f"D{i}"] = {
            "id": f"D{i}",
            "title": f"Dilemme {i}",
            "question": "Le Conseil accepte-t-il ?",
            "preview": {"oui_da": "oui", "nenni": "non"},
            "oui_da": {"text": "Oui.", "effects": [{a: 2}, {b: -1}]},
            "nenni": {"text": "Non.", "effects": [{a: -1}, {b: 1}, {"chronicle_sticker": "1"}]},
        }
    return {
        "format_version": 1,
        "family": "dilemme",
        "campaign": {"id": "test", "family": "dilemme", "title": "t", "start_envelope": 0,
                     "grand_final": 70, "rules": {"resource_track": 14, "stability_track": 20}},
        "records": {
            "house": {
                n.lower(): {"id": n.lower(), "name": n, "number": i + 1, "achievements": []}
                for i, n in enumerate(NAMES)
            },
            "secret_objective": objectives,
            "dilemma": cards,
            "story_card": {"H0": {"id": "H0", "arc": "a", "title": "Le début", "text": "…"}},
            "arc": {"a": {"id": "a", "title": "Arc"}},
            "chronicle_sticker": {
                "1": {"id": 1, "resource": "morale", "polarity": "negative", "title": "t",
                      "text": "t", "boxes": 3},
            },
            "envelope": {"00": {"id": 0, "story": "H0", "cards": list(cards)}},
        },
    }  # fmt: skip


BUNDLE = make_bundle()


def start(seed: int = 1, n: int = 5) -> dict:
    camp = new_campaign(BUNDLE, seed)
    seats = [{"house": h.lower(), "bot": True} for h in NAMES[:n]]
    state = new_game(BUNDLE, camp, seats, seed)
    while state["phase"] in ("draft", "tokens"):
        state = apply(
            BUNDLE, state, legal_actions(BUNDLE, state, state["pending"]["seat"], False)[0]
        )
    assert state["phase"] == "vote"
    return state


def act(state: dict, seat: int, type_: str, **fields) -> dict:
    return apply(BUNDLE, state, {"type": type_, "seat": seat, **fields})


def test_vote_example_theodore_julius_armin_frances_diana():
    """The rulebook's example: a 6–6 tie, the moderator bought by Diana and Julius, the leader
    token to Julius as the winning side's biggest staker."""
    T, J, A, D, F = range(5)
    s = start()
    s["leader"], s["moderator"] = T, J
    s["vote"]["turn"] = T
    s["pending"] = {"type": "vote", "seat": T}
    for seat, power, coins in [(T, 8, 10), (J, 4, 10), (A, 2, 10), (D, 2, 10), (F, 4, 10)]:
        s["seats"][seat]["power"], s["seats"][seat]["coins"] = power, coins
    balance = s["balance"]

    s = act(s, T, "pass", **{"for": "moderator"})
    assert s["moderator"] == T
    s = act(s, J, "vote", side="oui_da", power=1)
    assert s["leader"] == J
    s = act(s, A, "vote", side="nenni", power=1)
    assert s["leader"] == J  # a tie does not take the token
    s = act(s, D, "vote", side="oui_da", power=1)
    s = act(s, F, "vote", side="nenni", power=4)
    assert s["leader"] == F
    # Théodore passed: on his later turn he can only do nothing
    assert [a["type"] for a in legal_actions(BUNDLE, s, T, gifts=False)] == ["stand"]
    s = act(s, T, "stand")
    s = act(s, J, "add", power=3)
    assert s["leader"] == F  # 4 against 4: Frances keeps it
    s = act(s, A, "add", power=1)
    s = act(s, D, "add", power=1)
    # Diana sits to the right of the leader Frances: the vote phase ends, 6 against 6
    assert s["pending"] == {"type": "decide", "seat": T, "all_pass": False}
    # Diana and Julius pay Théodore 5 coins to settle the tie for Oui-Da
    s = act(s, D, "offer", to=T, coins=3, ask="decide_oui_da")
    s = act(s, T, "answer", accept=True)
    s = act(s, J, "offer", to=T, coins=2, ask="decide_oui_da")
    s = act(s, T, "answer", accept=True)
    decisions = [a for a in legal_actions(BUNDLE, s, T, gifts=False) if a["type"] == "decide"]
    assert decisions == [{"type": "decide", "seat": T, "side": "oui_da"}]  # the deal binds
    s = act(s, T, "decide", side="oui_da")
    log = [e["key"] for e in s["log"]]
    assert "moderator.decides" in log
    chosen = [e for e in s["log"] if e["key"] == "leader.moves"][-1]["args"]
    assert chosen == {"house": "Julius", "power": 4}
    winners_power = 4 + 2
    assert s["seats"][T]["coins"] == 10 + 5 + 1  # the deal, and the pass coin
    assert s["seats"][F]["power"] == 4 and s["seats"][A]["power"] == 2  # losers take theirs back
    assert s["balance"] == balance + winners_power


def test_balance_of_five_shared_by_two_passers():
    """Rita and David pass for power with 5 on the balance: 2 each, 1 stays."""
    s = start()
    s["balance"] = 5
    n = len(s["seats"])
    leader = s["leader"]
    order = [(leader + k) % n for k in range(n)]
    before = {i: s["seats"][i]["power"] for i in range(n)}
    s = act(s, order[0], "vote", side="oui_da", power=1)
    s = act(s, order[1], "pass", **{"for": "power"})
    s = act(s, order[2], "pass", **{"for": "power"})
    s = act(s, order[3], "vote", side="oui_da", power=1)
    s = act(s, order[4], "vote", side="nenni", power=1)
    assert s["seats"][order[1]]["power"] == before[order[1]] + 2
    assert s["seats"][order[2]]["power"] == before[order[2]] + 2
    assert s["balance"] == 1 + 2  # the odd one stays, then the winners' 2 power join it


def test_all_pass_moderator_decides_and_leads():
    s = start()
    n = len(s["seats"])
    for k in range(n):
        seat = (s["leader"] + k) % n if k == 0 else s["pending"]["seat"]
        s = act(s, seat, "pass", **{"for": "power"})
    assert s["pending"]["type"] == "decide" and s["pending"]["all_pass"]
    moderator = s["moderator"]
    s = act(s, moderator, "decide", side="nenni")
    assert s["leader"] == moderator


def test_illegal_and_malformed_actions_name_the_action_and_round():
    s = start()
    other = (s["pending"]["seat"] + 1) % 5
    with pytest.raises(IllegalAction) as err:
        act(s, other, "vote", side="oui_da", power=1)
    assert "illegal action" in str(err.value) and "round 1" in str(err.value)
    with pytest.raises(MalformedAction, match="'type' must be one of"):
        apply(BUNDLE, s, {"type": "fly", "seat": 0})
    with pytest.raises(MalformedAction, match="'power' must be a int"):
        act(s, s["pending"]["seat"], "vote", side="oui_da", power="3")
    assert isinstance(IllegalAction("a", "b", "c"), ValueError)


def test_view_hides_other_objectives_the_deck_and_the_back_of_the_card():
    s = start()
    v = view(BUNDLE, s, 0)
    assert v["seats"][0]["objective"] is not None
    assert all(seat["objective"] is None for seat in v["seats"][1:])
    assert isinstance(v["deck"], int) and "rng" not in v
    assert set(v["card"]) == {"id", "title", "question", "preview"}
    json.dumps(v)


def test_view_keeps_what_is_behind_each_house_screen_until_the_game_ends():
    """« Placez 8 jetons Pouvoir et 10 pièces derrière votre paravent »: a house sees its own
    power, coins and secret objective, no other house's (a spectator sees none); once the game
    is over every screen is lifted.  The card on the table shows its front, never its back."""
    s = start()
    before = json.dumps(s, sort_keys=True)
    for seat in (0, 2, None):
        v = view(BUNDLE, s, seat)
        assert v["seat"] == seat
        for i, (mine, real) in enumerate(zip(v["seats"], s["seats"], strict=True)):
            shown = [mine["objective"], mine["power"], mine["coins"]]
            if i == seat:
                assert shown == [real["objective"], real["power"], real["coins"]]
                assert None not in shown
            else:
                assert shown == [None, None, None]
        assert v["deck"] == len(s["deck"]) > 0
        assert "deck" not in v["campaign"] and "rng" not in v["campaign"]
        card = BUNDLE["records"]["dilemma"][s["vote"]["card"]]
        assert v["card"] == {
            "id": s["vote"]["card"],
            "title": card["title"],
            "question": card["question"],
            "preview": card["preview"],
        }
    assert json.dumps(s, sort_keys=True) == before  # the state itself is untouched
    s["phase"] = "over"
    v = view(BUNDLE, s, None)
    assert [(x["objective"], x["power"], x["coins"]) for x in v["seats"]] == [
        (x["objective"], x["power"], x["coins"]) for x in s["seats"]
    ]


def _totals(state: dict) -> tuple[int, int]:
    power = state["balance"] + sum(seat["power"] for seat in state["seats"])
    coins = sum(seat["coins"] for seat in state["seats"])
    if state.get("vote"):
        power += sum(v["power"] for v in state["vote"]["votes"] if v["kind"] in ("oui_da", "nenni"))
        coins += sum(v["coin"] for v in state["vote"]["votes"])
    return power, coins


@settings(
    max_examples=4 if os.environ.get("MUTANT_UNDER_TEST") else 25,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 5), pick_seed=st.integers(0, 2**32))
def test_whole_games_keep_the_invariants(seed, n, pick_seed):
    """Random legal play: every state round-trips through JSON, the input is never mutated,
    markers stay on their tracks, and power and coins only change where a rule says so."""
    picks = random.Random(pick_seed)
    s = start(seed, n)
    steps = 0
    while s["pending"] is not None and steps < 400:
        actions = legal_actions(BUNDLE, s)
        gifts = [a for a in actions if a["type"] == "give"]
        others = [a for a in actions if a["type"] != "give"]
        action = picks.choice(gifts if gifts and picks.random() < 0.1 else others)
        frozen = json.dumps(s, sort_keys=True)
        before_power, before_coins = _totals(s)
        log_len = len(s["log"])
        nxt = apply(BUNDLE, s, action)
        assert json.dumps(s, sort_keys=True) == frozen  # apply never mutates its input
        assert json.loads(json.dumps(nxt)) == nxt
        for marker in nxt["resources"].values():
            assert 0 <= marker["pos"] <= 14
        assert 0 <= nxt["stability"] <= 20
        new_keys = {e["key"] for e in nxt["log"][log_len:]}
        rule_moves = {"gain", "round.start", "game.end", "outcome"} & new_keys
        if not rule_moves and nxt["phase"] != "over":
            power, coins = _totals(nxt)
            passes = sum(1 for e in nxt["log"][log_len:] if e["key"] == "vote.pass")
            assert power == before_power
            assert coins == before_coins + passes
        s = nxt
        steps += 1
    assert all(seat["power"] >= 0 and seat["coins"] >= 0 for seat in s["seats"])


def test_same_seed_same_game():
    def play(seed: int) -> list[dict]:
        s = start(seed)
        states = [s]
        while s["pending"] is not None:
            s = apply(BUNDLE, s, choose(BUNDLE, s, s["pending"]["seat"]))
            states.append(s)
        return states

    assert play(11) == play(11)
    assert play(11)[-1]["log"] != play(12)[-1]["log"]


def test_campaign_carries_over_between_games():
    s = start(3)
    while s["pending"] is not None:
        s = apply(BUNDLE, s, choose(BUNDLE, s, s["pending"]["seat"]))
    camp = s["campaign"]
    assert camp["game_no"] == 1 and camp["history"][0]["rows"]
    resolved = {entry["card"] for entry in s["timeline"]}
    assert not resolved & set(camp["deck"])  # resolved dilemmas leave the campaign for good
    seats = [{"house": seat["house"], "bot": True} for seat in s["seats"]]
    nxt = new_game(BUNDLE, camp, seats, 4)
    assert nxt["campaign"]["game_no"] == 2
    assert sorted(nxt["deck"]) == sorted(camp["deck"])


def test_at_will_ability_once_per_game_and_checkbox_uses():
    bundle = make_bundle()
    bundle["records"]["house"]["julius"]["achievements"] = [
        {
            "id": "tresor",
            "kind": "mechanic",
            "condition": "…",
            "boxes": 1,
            "ability": {"trigger": "at_will", "per_game": 1, "uses": 2, "text": "3 → 2",
                        "gains": {"coins": -3, "power": 2}},
        }
    ]  # fmt: skip
    camp = new_campaign(bundle, 1)
    camp["houses"]["julius"]["unlocked"] = ["tresor"]
    seats = [{"house": h.lower(), "bot": True} for h in NAMES]
    s = new_game(bundle, camp, seats, 1)
    while s["phase"] == "draft":
        s = apply(bundle, s, legal_actions(bundle, s, s["pending"]["seat"], False)[0])
    use = {"type": "use_ability", "seat": 1, "source": "julius/tresor"}
    assert use in legal_actions(bundle, s, 1)  # any time during the vote, not only on its turn
    coins, power = s["seats"][1]["coins"], s["seats"][1]["power"]
    s = apply(bundle, s, use)
    assert (s["seats"][1]["coins"], s["seats"][1]["power"]) == (coins - 3, power + 2)
    assert use not in legal_actions(bundle, s, 1)  # once per game
    with pytest.raises(IllegalAction, match="no such ability"):
        apply(bundle, s, use)
    assert s["campaign"]["ability_uses"] == {"julius/tresor": 1}
