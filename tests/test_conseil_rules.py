"""Le Conseil des 12: the rulebook's worked examples, and each character's edge cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.conseil import die as D
from engine.conseil import rules
from engine.conseil.solver import solve
from engine.core import registry
from engine.core.errors import IllegalAction
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundle():
    return bundle_for("conseil", ROOT / "content")


@pytest.fixture
def game(bundle):
    # built for each test: mutmut links the code a fixture runs to the first test that builds
    # it, so a game shared by the module would leave Rules.__init__ judged by one test only
    return registry.get("conseil")(bundle)


def table(game, names, *, die, dilemma, petitioner, hands, favor=3, pile=(8,), discards=None):
    """A game stopped at step 2 of a turn: the council of ``names``, the die on ``die``,
    ``dilemma`` on top of the pile, ``petitioner`` before the council, these hands."""
    setup = game.normalize_setup({"seed": "t", "seats": [{"name": n, "bot": False} for n in names]})
    s = game.new_game(setup)
    n = len(names)
    s.update(
        {
            "favor": favor,
            "die": die,
            "pile": [dilemma, *pile, rules.THRONE],
            "pets": [petitioner, "golem", "oracle", "chevalier", "alchimiste", "druidesse"],
            "hands": [sorted(h) for h in hands],
            "discards": [list(d) for d in discards or [[]] * n],
            "known": [sorted(h) for h in hands],
            "pub_discard": [[] for _ in range(n)],
            "chef": None,
            "phase": "start",
        }
    )
    held = {c for h in [*hands, *s["discards"]] for c in h}
    s["reserve"] = sorted(set(rules.CHARACTERS) - held)
    for seat in range(n):  # every other card of the seat lies under its discard pile
        mine = {*hands[seat], *s["discards"][seat], *s["reserve"]}
        s["discards"][seat] = sorted(set(rules.CHARACTERS) - mine) + s["discards"][seat]
        s["pub_discard"][seat] = list(s["discards"][seat])
    rules.settle(game.R, s)
    return s


def act(game, state, **action):
    """An action; a card chosen face down goes to the first seat still choosing."""
    if action["type"] in ("choose", "claim") and "seat" not in action:
        action = {"type": action.pop("type"), "seat": game.to_act(state)[0], **action}
    return game.apply(state, action)


def test_tour_effondree_two_automates_cancel_and_the_sorcier_saves_it(game):
    """Léa, Mia and Tom; the die shows 7; TOUR EFFONDRÉE asks 9, 10 or 11; LA DAME comes
    before the council.  Tom rings the bells (3 → 2 Faveur) and FESTIVAL shows.  Mia and Tom
    both play L'AUTOMATE: they cancel.  Léa's SORCIER turns the 7 to its neighbour 10."""
    start = ["puissante", "sorcier", "automate", "druidesse", "parasite"]
    s = table(game, ["Léa", "Mia", "Tom"], die=7, dilemma=5, petitioner="dame", hands=[start] * 3)
    assert s["phase"] == "bells" and s["petitioner"] == "dame"
    assert s["objectives"] == [[9, 10, 11]]
    s = act(game, s, type="bells", ring=True, two_turns=False)
    assert s["favor"] == 2 and s["rung"]
    assert game.view(s, 0)["next"] == 8  # FESTIVAL, which asks for a 3
    assert game.R.dilemmas[8]["title"] == "FESTIVAL" and game.R.dilemmas[8]["objectives"] == [[3]]
    # no one may choose the Quémandeur's character (no one holds LA DAME anyway)
    assert all(a["card"] != "dame" for a in game.legal_actions(s, 0))
    assert game.turn_kind(s) == "each" and game.to_act(s) == [0, 1, 2]
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="automate", remark="premier")
    s = act(game, s, type="choose", card="automate", remark=None)
    assert s["phase"] == "reveal" and game.turn_kind(s) == "collective"
    s = act(game, s, type="reveal", who=1)  # Mia first
    # Tom's AUTOMATE is revealed at once and both cancel; Léa's card, the last, follows
    assert [e["cancelled"] for e in s["table"]] == [True, True, False]
    assert s["die"] == 7 and s["revealed"] == [True, True, True]
    assert s["phase"] == "effect" and game.to_act(s) == [0]
    assert {"type": "effect", "face": 10} in game.legal_actions(s, 0)
    s = act(game, s, type="effect", face=10)
    assert s["die"] == 10
    assert s["resolved"][-1] == {"id": 5, "rung": True, "success": True}
    # the DAME's grievance is settled: everyone takes their own DAME into hand
    assert all("dame" in h for h in s["hands"]) and "dame" not in s["reserve"]
    assert s["favor"] == 3  # the success side: +1 Faveur
    assert s["pets_done"] == ["dame"]
    game.check_state(s)


def test_the_oracle_with_one_card_left(game):
    """Mia holds only L'ORACLE and LA PUISSANTE.  She plays the ORACLE: the die is rerolled;
    with one card left she discards LA PUISSANTE, takes back every card played before (the
    ORACLE too) and plays a second card from that new hand."""
    hands = [["sorcier", "druidesse", "automate"], ["oracle", "puissante"], ["sorcier", "parasite"]]
    discards = [[], ["automate", "sorcier", "druidesse"], []]
    s = table(
        game,
        ["Léa", "Mia", "Tom"],
        die=4,
        dilemma=13,
        petitioner="golem",
        hands=hands,
        discards=discards,
    )
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="oracle", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    assert s["phase"] == "oracle"
    assert s["discards"][1] == ["puissante"]  # the new discard pile, face up
    assert {"automate", "druidesse", "oracle", "sorcier"} <= set(s["hands"][1])
    # the table is told it is Mia who takes her cards back, LA PUISSANTE shown
    back = next(e for e in s["log"] if e["key"] == "hand.recover")
    assert (back["args"]["seat"], back["args"]["name"], back["args"]["top"]) == (
        1,
        "Mia",
        "puissante",
    )
    # replaying the ORACLE cancels it; the SORCIER cancels with Léa's, still face down
    s2 = act(game, s, type="oracle", card="sorcier")
    assert [e["card"] for e in s2["table"] if e["cancelled"]] == ["sorcier", "sorcier"]
    s3 = act(game, s, type="oracle", card="oracle")
    assert s3["table"][-1] == {"seat": 1, "card": "oracle", "cancelled": True}
    second = next(e for e in s3["log"] if e["key"] == "oracle.second")
    assert second["args"] == {"seat": 1, "name": "Mia"} and s3["pending"] is None
    game.check_state(s2)
    game.check_state(s3)


def test_lieux_mysterieux_two_objectives(game):
    """LIEUX MYSTÉRIEUX asks for a 3 during the turn and a 10 at the end (or the reverse);
    L'INVERSEUSE is the Quémandeur.  Tom's PUISSANTE turns the die twice to reach 3, Léa's
    AUTOMATE adds 2 (5), Mia's ALCHIMISTE doubles it: 10."""
    assert game.R.dilemmas[10]["title"] == "LIEUX MYSTÉRIEUX"
    hands = [
        ["automate", "sorcier", "druidesse"],
        ["alchimiste", "sorcier", "parasite"],
        ["puissante", "druidesse", "parasite"],
    ]
    s = table(game, ["Léa", "Mia", "Tom"], die=12, dilemma=10, petitioner="inverseuse", hands=hands)
    assert s["objectives"] == [[3], [10]]
    # two turns for a double objective only at two
    assert not any(a["two_turns"] for a in game.legal_actions(s, 0))
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="alchimiste", remark=None)
    s = act(game, s, type="choose", card="puissante", remark="premier")
    s = act(game, s, type="reveal", who=2)
    assert {"type": "effect", "face": 3} in game.legal_actions(s, 2)
    assert {"type": "effect", "face": 12} not in game.legal_actions(s, 2)  # never back home
    s = act(game, s, type="effect", face=3)
    assert s["met"] == [True, False]
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=5)
    s = act(game, s, type="effect", face=10)  # Mia's card is revealed last, on its own
    assert s["resolved"][-1]["success"]
    # a 10 at the end without a 3 on the way is not enough
    s = table(game, ["Léa", "Mia"], die=8, dilemma=10, petitioner="inverseuse", hands=hands[:2])
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=10)
    s = act(game, s, type="effect", face=8)
    assert s["resolved"][-1]["success"] is False


def test_two_turns_at_two_players(game):
    hands = [["automate", "sorcier", "druidesse"], ["alchimiste", "sorcier", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=10, petitioner="inverseuse", hands=hands)
    assert {"type": "bells", "ring": False, "two_turns": True} in game.legal_actions(s, 0)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=3)
    s = act(game, s, type="effect", face=1)  # the SORCIER leaves 3... to 1: no objective
    assert s["resolved"][-1]["success"] is False and s["favor"] == 2  # penalty at once
    s = table(game, ["Léa", "Mia"], die=1, dilemma=10, petitioner="inverseuse", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="druidesse", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)  # PARASITE on 1 stays on 1
    s = act(game, s, type="effect", face=2)  # DRUIDESSE: 2... not 3; try again from the start
    assert s["resolved"][-1]["success"] is False


def test_the_final_claim(game):
    """Mia and Tom reveal LE SORCIER, Léa LA PUISSANTE: the claim fails, 1 Faveur is lost,
    one remains: the council wins anyway and chooses LE SORCIER for the throne."""
    hands = [["puissante", "sorcier", "dame"], ["sorcier", "puissante", "dame"]] * 2
    s = table(game, ["Léa", "Mia", "Tom"], die=5, dilemma=5, petitioner="golem", hands=hands[:3])
    s["pile"] = [rules.THRONE]
    s["phase"] = "start"
    s["favor"] = 2
    rules.settle(game.R, s)
    assert s["phase"] == "throne" and game.to_act(s) == [0, 1, 2]
    assert game.legal_actions(s, 0)[0]["type"] == "claim"
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    assert s["favor"] == 1 and s["phase"] == "successor"
    s = act(game, s, type="successor", card="sorcier")
    out = game.outcome(s)
    assert out.winners == [0, 1, 2] and s["throne_char"] == "sorcier"
    # unanimous: the character takes the throne, no Faveur lost
    s = table(game, ["Léa", "Mia"], die=5, dilemma=5, petitioner="golem", hands=hands[:2])
    s["pile"], s["phase"] = [rules.THRONE], "start"
    rules.settle(game.R, s)
    s = act(game, s, type="claim", card="dame")
    s = act(game, s, type="claim", card="dame")
    assert s["phase"] == "over" and s["throne_char"] == "dame" and s["favor"] == 3


def test_a_claim_that_costs_the_last_faveur_loses(game):
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = table(game, ["Léa", "Mia"], die=5, dilemma=5, petitioner="golem", hands=hands, favor=1)
    s["pile"], s["phase"] = [rules.THRONE], "start"
    rules.settle(game.R, s)
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "over" and not s["result"]["won"] and s["throne_char"] is None


def test_never_play_your_last_card(game):
    hands = [["sorcier"], ["sorcier", "parasite"]]
    discards = [["automate", "druidesse", "puissante", "parasite"], []]
    s = table(
        game, ["Léa", "Mia"], die=5, dilemma=13, petitioner="golem", hands=hands, discards=discards
    )
    s["phase"] = "setup_choose"
    rules.settle(game.R, s)
    assert s["discards"][0] == ["sorcier"]
    assert {"automate", "druidesse", "parasite", "puissante"} <= set(s["hands"][0])
    game.check_state(s)


def test_the_quemandeurs_character_can_never_be_chosen(game):
    hands = [["sorcier", "golem", "parasite"], ["sorcier", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=5, dilemma=13, petitioner="golem", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    with pytest.raises(IllegalAction):
        act(game, s, type="choose", card="golem", remark=None)


def test_revealing_the_quemandeur_through_the_oracle_loses_at_once(game):
    hands = [["oracle", "golem", "parasite"], ["sorcier", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=6, dilemma=13, petitioner="golem", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="oracle", remark=None)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="oracle", card="golem")
    assert s["resolved"][-1]["success"] is False
    assert s["table"][-1]["card"] == "golem" and "sorcier" in s["discards"][1]


def test_the_dame_only_works_first(game):
    hands = [["dame", "parasite"], ["druidesse", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=5, petitioner="golem", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="dame", remark="premier")
    s = act(game, s, type="choose", card="druidesse", remark=None)
    late = act(game, s, type="reveal", who=1)
    late = act(game, late, type="effect", face=2)
    assert late["die"] == 2 and late["resolved"][-1]["success"] is False  # the DAME did nothing
    s = act(game, s, type="reveal", who=0)
    assert sorted(a["face"] for a in game.legal_actions(s, 0)) == [9, 10, 11]
    s = act(game, s, type="effect", face=10)
    s = act(game, s, type="effect", face=11)
    assert s["resolved"][-1]["success"]


def test_chevalier_and_golem_replace_one_objective(game):
    hands = [["golem", "parasite"], ["chevalier", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=2, dilemma=10, petitioner="dame", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="golem", remark=None)
    s = act(game, s, type="choose", card="chevalier", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", objective=1)
    assert s["objectives"] == [[3], [9, 10, 11, 12]]
    s = act(game, s, type="effect", objective=1)  # the CHEVALIER overrides the GOLEM
    assert s["objectives"] == [[3], [1, 2, 3, 4]]
    assert s["resolved"][-1]["success"] is False  # 2 is not 3: one objective only


def test_the_stoique_takes_back_a_card(game):
    hands = [["stoique", "parasite"], ["druidesse", "parasite"]]
    s = table(
        game,
        ["Léa", "Mia"],
        die=8,
        dilemma=12,
        petitioner="dame",
        hands=hands,
        discards=[["puissante", "sorcier"], []],
    )
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="choose", card="druidesse", remark=None)
    s = act(game, s, type="reveal", who=0)
    assert {"type": "effect", "take": "puissante"} in game.legal_actions(s, 0)
    s = act(game, s, type="effect", take="puissante")
    assert "puissante" in s["hands"][0] and s["die"] == 8
    assert s["discards"][0][-2:] == ["sorcier", "stoique"]
    assert any(e["key"] == "effect.take_hidden" for e in s["log"])


# --------------------------------------------------------------------------- the die


def test_the_die_is_a_real_dodecahedron():
    for f in D.FACES:
        near = D.ADJACENT[f]
        assert len(set(near)) == 5 and f not in near and D.opposite(f) not in near
        for g in near:
            assert f in D.ADJACENT[g]
            assert D.opposite(g) in D.ADJACENT[D.opposite(f)]
            assert len(set(near) & set(D.ADJACENT[g])) == 2  # two shared neighbours
    assert 10 in D.ADJACENT[7]  # the rulebook's SORCIER example


@pytest.mark.parametrize(
    ("card", "face", "expected"),
    [
        ("alchimiste", 1, [2]),  # a 1 must be doubled
        ("alchimiste", 12, [6]),  # a 12 must be halved
        ("alchimiste", 7, [3, 12]),  # halved down, doubled up to 12 at most
        ("alchimiste", 5, [2, 10]),
        ("automate", 11, [12]),  # stops on 12
        ("automate", 7, [9, 10]),
        ("parasite", 2, [1]),  # stops on 1
        ("parasite", 9, [6, 7]),
        ("druidesse", 1, [1, 2]),  # stays on 1 going down
        ("druidesse", 12, [11, 12]),
        ("inverseuse", 12, [1]),
        ("inverseuse", 8, [5]),
        ("sorcier", 7, [2, 5, 9, 10, 12]),
    ],
)
def test_character_edge_cases(card, face, expected):
    assert D.die_options(card, face) == expected


def test_the_puissante_never_comes_back_home():
    for f in D.FACES:
        reach = D.die_options("puissante", f)
        assert f not in reach
        assert set(D.ADJACENT[f]) <= set(reach)  # two steps reach every neighbour too
        for g in reach:
            assert D.puissante_path(f, g) in D.ADJACENT[f]
            assert g in D.ADJACENT[D.puissante_path(f, g)]  # one step, then one more


def test_the_solver_finds_the_sorcier():
    hands = [["sorcier", "parasite"], ["automate", "parasite"], ["automate", "parasite"]]
    plan = solve(hands, 7, [[9, 10, 11]], petitioner="dame")
    assert plan is not None
    assert solve([["parasite"], ["parasite"]], 1, [[12]]) is None


def test_two_turns_succeed_with_a_different_objective_each_turn(game):
    hands = [
        ["automate", "sorcier", "druidesse", "parasite"],
        ["alchimiste", "sorcier", "parasite"],
    ]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=10, petitioner="inverseuse", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)  # the PARASITE leaves the 1 on 1
    s = act(game, s, type="effect", face=3)  # the AUTOMATE: 3, the first objective
    assert s["phase"] == "choose" and s["petitioner"] == "inverseuse"  # same Quémandeur
    assert s["resolved"] == [] and s["first_met"] == [0]
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="alchimiste", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=5)  # the SORCIER: 3 → 5
    s = act(game, s, type="effect", face=10)  # the ALCHIMISTE doubles: 10
    assert s["resolved"][-1] == {"id": 10, "rung": False, "success": True}
    game.check_state(s)


def test_a_seat_with_nothing_to_play_sits_the_turn_out(game):
    hands = [["golem"], ["sorcier", "parasite"]]
    s = table(
        game,
        ["Léa", "Mia"],
        die=5,
        dilemma=13,
        petitioner="golem",
        hands=hands,
        discards=[[], []],
    )
    s["discards"][0] = []  # only the Quémandeur's character, nothing played before
    s["reserve"] = sorted(set(s["reserve"]) | (set(rules.CHARACTERS) - {"golem"}))
    s["discards"][1] = sorted(set(rules.CHARACTERS) - set(s["reserve"]) - {"sorcier", "parasite"})
    s = act(game, s, type="bells", ring=False, two_turns=False)
    assert game.to_act(s) == [1]
    assert any(e["key"] == "hand.none" for e in s["log"])
    s = act(game, s, type="choose", card="sorcier", remark=None)
    assert s["phase"] == "effect"


def test_a_chevalier_then_a_golem_in_one_action_each_log_their_own_objective(game):
    """LE CHEVALIER, then LE GOLEM « même si le CHEVALIER l'a déjà fait », settled by one
    reveal: each log line shows the objective as that card left it, and the dilemma's own
    line keeps the card's printed objective."""
    hands = [["chevalier", "parasite"], ["golem", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=8, petitioner="dame", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="chevalier", remark=None)
    s = act(game, s, type="choose", card="golem", remark=None)
    before = len(s["log"])
    s = act(game, s, type="reveal", who=0)  # the GOLEM, last face down, follows by itself
    lines = [game.render_log(e) for e in s["log"][before:]]
    assert "LE CHEVALIER (Léa) : il faut désormais le dé sur 1/2/3/4." in lines
    assert "LE GOLEM (Mia) : il faut désormais le dé sur 9/10/11/12." in lines
    first = next(e for e in s["log"] if e["key"] == "turn.dilemma" and e["args"]["dilemma"] == 8)
    assert game.render_log(first) == "Dilemme « FESTIVAL » : il faut le dé sur 3."
    assert s["resolved"][-1] == {"id": 8, "rung": False, "success": False}


def _claim_table(game, hands, favor, rewards):
    names = ["Léa", "Mia", "Tom"][: len(hands)]
    s = table(game, names, die=5, dilemma=5, petitioner="golem", hands=hands, favor=favor)
    s["pile"], s["phase"] = [rules.THRONE], "start"
    s["rewards"] = [{"id": k, "type": t, "rung": False} for k, t in rewards]
    rules.settle(game.R, s)
    return s


def test_rewards_may_be_used_even_during_the_claim(game):
    """« Il n'y a pas de limite au nombre de cartes RÉCOMPENSE que vous pouvez posséder ou
    utiliser, même pendant la phase REVENDIQUER LE TRÔNE » : once every character is down, the
    council may spend its RÉCOMPENSES before the cards are shown together."""
    hands = [["puissante", "sorcier", "dame"], ["sorcier", "puissante", "dame"]] * 2
    s = _claim_table(game, hands[:3], 1, [(15, "favor"), (3, "nudge")])
    assert s["phase"] == "throne"
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "throne_rewards" and game.turn_kind(s) == "collective"
    legal = game.legal_actions(s, 0)
    assert {"type": "reward", "index": 0, "face": 0} in legal  # +1 Faveur
    assert {"type": "reward", "index": 1, "face": 4} in legal  # the nudge, useless here
    assert legal[-1] == {"type": "conclude"}
    assert game.describe(s, legal[-1], 0) == "Révéler les personnages posés"
    assert all(game.view(s, 1)["has_chosen"])  # the cards stay face down meanwhile
    s = act(game, s, type="reward", index=0, face=0)
    assert s["favor"] == 2 and s["phase"] == "throne_rewards"
    s = act(game, s, type="conclude")
    # LA PUISSANTE and two SORCIER: −1 Faveur, one is left: the council chooses its sovereign
    assert s["favor"] == 1 and s["phase"] == "successor"
    s = act(game, s, type="successor", card="sorcier")
    assert game.outcome(s).winners == [0, 1, 2]
    assert s["result"]["favor"] == 1 and [r["type"] for r in s["rewards"]] == ["nudge"]


def test_a_reward_kept_after_a_split_claim_is_offered_with_the_successor(game):
    """At 5 Faveur the « +1 Faveur » is not offered before the claim (the track stops at 5);
    after a split claim costs one, the council may still spend it before naming its
    sovereign.  With no RÉCOMPENSE, the claim shows as soon as the cards are down."""
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 5, [(15, "favor")])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "successor" and s["favor"] == 4
    assert {"type": "reward", "index": 0, "face": 0} in game.legal_actions(s, 0)
    s = act(game, s, type="reward", index=0, face=0)
    assert s["favor"] == 5 and s["phase"] == "successor"
    assert game.legal_actions(s, 0) == [
        {"type": "successor", "card": "puissante"},
        {"type": "successor", "card": "sorcier"},
    ]
    s = _claim_table(game, hands, 3, [])
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "over" and s["throne_char"] == "sorcier"


def test_the_bots_spend_a_kept_faveur_before_the_claim(game):
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 2, [(15, "favor")])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    from engine.core.rng import Rng

    a = game.choose(s, game.to_act(s)[0], Rng({"rng": 1}))
    assert a == {"type": "reward", "index": 0, "face": 0}


NUDGE = {"id": 3, "type": "nudge", "rung": False}


def _source_tarie(game, hands, rewards=(), rng=None):
    """SOURCE TARIE asks for a 7; the die shows 9; LA DAME is the Quémandeur."""
    s = table(game, ["Léa", "Mia"], die=9, dilemma=1, petitioner="dame", hands=hands)
    s["rewards"] = [dict(r) for r in rewards]
    if rng is not None:
        s["rng"] = rng
    s = act(game, s, type="bells", ring=False, two_turns=False)
    assert s["phase"] == "choose" and s["snapshot"]["rewards"] == [r["type"] for r in rewards]
    # the all-seeing solver of « Y avait-il une solution ? » also sees the discard piles (what
    # the ORACLE may bring back), as they lay when the cards were chosen
    assert s["snapshot"]["discards"] == s["discards"]
    assert s["snapshot"]["discards"] is not s["discards"]
    return s


def _source_tarie_lost(game, hands, first):
    """SOURCE TARIE lost with a nudge kept: Léa plays ``first``, Mia LE PARASITE; Mia's
    reveal moves the die to 7, Léa's to 12, and the council concludes."""
    s = _source_tarie(game, hands, [NUDGE])
    s = act(game, s, type="choose", card=first, remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="effect", face=7)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=12)
    return act(game, s, type="conclude")


def _omniscient_turn(game, s):
    """The all-seeing table plays the turn out; the dilemma's result."""
    from engine.conseil.solver import Omniscient
    from engine.core.rng import Rng

    seer, k = Omniscient(game), 0
    done = len(s["resolved"])
    while len(s["resolved"]) == done:
        seat = game.to_act(s)[0]
        s = game.apply(s, seer.action(s, seat, Rng({"rng": k})))
        k += 1
    return s["resolved"][-1]["success"]


def test_the_solver_counts_on_a_kept_reward():
    """The audit's case: a nudge kept as RÉCOMPENSE wins a dilemma no choice of cards wins."""
    hands = [["alchimiste", "sorcier"], ["dame", "parasite"]]
    assert solve(hands, 9, [[7]], petitioner="dame") is None
    plan = solve(hands, 9, [[7]], petitioner="dame", rewards=["nudge"])
    assert plan == {
        "cards": ["sorcier", "parasite"],
        "steps": [
            (None, "nudge", "reward", 8),
            (1, "parasite", "face", 5),
            (0, "sorcier", "face", 7),
        ],
    }
    # a shield or a +1 Faveur never moves the die
    assert solve(hands, 9, [[7]], petitioner="dame", rewards=["shield", "favor"]) is None
    # a plan spends no RÉCOMPENSE it does not need
    easy = solve([["stoique"], ["parasite"]], 9, [[7]], rewards=["nudge", "flip"])
    assert easy is not None and all(st[2] != "reward" for st in easy["steps"])


def test_the_solver_counts_on_the_oracle_and_the_rolls_it_sees():
    """L'ORACLE: the reroll (the state's generator decides it: an all-seeing table knows
    it), then a second card from its owner's hand, cancelled if another seat chose it."""
    hands = [["dame", "inverseuse", "oracle"], ["dame", "parasite"]]
    without = [["dame", "inverseuse"], ["dame", "parasite"]]
    assert solve(without, 3, [[2]], petitioner="golem") is None
    assert solve(hands, 3, [[2]], petitioner="golem") is None  # the old solver's answer
    plan = solve(hands, 3, [[2]], petitioner="golem", rolls=(8,))
    assert plan == {
        "cards": ["oracle", "parasite"],
        "steps": [
            (0, "oracle", "roll", 8),
            (0, "inverseuse", "second", None),
            (0, "inverseuse", "face", 5),
            (1, "parasite", "face", 2),
        ],
    }
    assert solve(hands, 3, [[2]], petitioner="golem", rolls=(1,)) is None  # another roll
    # a roll that lands on the objective needs no effect: the second card may cancel
    plan = solve(
        [["automate", "druidesse", "oracle"], ["dame", "druidesse"]],
        9,
        [[7]],
        petitioner="golem",
        rolls=(7,),
    )
    assert plan is not None and (0, "druidesse", "second", None) in plan["steps"]
    assert not any(st[0] == 0 and st[1] == "druidesse" and st[2] == "face" for st in plan["steps"])


def test_the_oracle_with_one_card_left_plays_its_second_card_from_the_discard():
    """« Si vous n'avez plus qu'une carte en main, défaussez-la. Puis, reprenez toutes vos
    autres cartes jouées précédemment » : the solver's second card may come from there."""
    hands = [["oracle", "stoique"], ["parasite"]]
    discards = [["inverseuse"], []]
    assert solve(hands, 3, [[2]], petitioner="dame", rolls=(8,)) is None
    plan = solve(hands, 3, [[2]], petitioner="dame", rolls=(8,), discards=discards)
    assert plan is not None and (0, "inverseuse", "second", None) in plan["steps"]


def test_the_all_seeing_table_wins_with_the_reward_the_solver_counts_on(game):
    hands = [["alchimiste", "sorcier"], ["dame", "parasite"]]
    assert _omniscient_turn(game, _source_tarie(game, hands, [NUDGE])) is True
    assert _omniscient_turn(game, _source_tarie(game, hands)) is False


def test_the_all_seeing_table_wins_with_the_oracle_as_the_generator_rolls(game):
    from engine.conseil.solver import upcoming_rolls

    seven = next(v for v in range(1000) if upcoming_rolls(v, 1) == (7,))
    hands = [["automate", "druidesse", "oracle"], ["dame", "druidesse"]]
    assert _omniscient_turn(game, _source_tarie(game, hands, rng=seven)) is True


def test_the_hint_names_no_card_still_in_a_hand_and_counts_the_rewards(game):
    """« Y avait-il une solution ? » after SOURCE TARIE is lost: the cards revealed this turn
    and the die are public, and named; a card still in a hand is told only by what it does
    (the council's etiquette); the RÉCOMPENSE kept is part of the answer."""
    hands = [["alchimiste", "sorcier"], ["dame", "parasite"]]
    s = _source_tarie_lost(game, hands, "sorcier")
    assert s["phase"] == "aftermath" and not s["resolved"][-1]["success"]
    s = act(game, s, type="hint")
    assert s["hint"] == (
        "Il y avait une solution : 2 cartes suffisaient ; révéler dans cet ordre "
        "la RÉCOMPENSE « un coup de pouce d'un point au dé » (dé sur 8), "
        "puis LE PARASITE de Mia (dé sur 5), puis LE SORCIER de Léa (dé sur 7)."
    )
    # the same plan when Léa played her ALCHIMISTE: her SORCIER is still in her hand
    s = _source_tarie_lost(game, hands, "alchimiste")
    s = act(game, s, type="hint")
    text = s["hint"]
    assert "SORCIER" not in text and "Léa" not in text
    assert text.endswith(
        "puis LE PARASITE de Mia (dé sur 5), puis une carte encore en main (dé sur 7)."
    )
    from engine.conseil.text_fr import CHAR

    shown = {(e["seat"], e["card"]) for e in s["table"]}
    hidden = {c for seat in (0, 1) for c in s["hands"][seat] if (seat, c) not in shown}
    assert "sorcier" in hidden  # no name of a card still in a hand, whoever reads it
    assert [c for c in hidden if CHAR[c] in text] == []
    assert game.render_log(s["log"][-1]) == text


def test_the_hint_is_read_before_the_next_dilemma_and_does_not_follow_it(game):
    hands = [["alchimiste", "sorcier"], ["dame", "parasite"]]
    s = _source_tarie_lost(game, hands, "alchimiste")
    assert game.legal_actions(s, 0) == [{"type": "continue"}, {"type": "hint"}]
    s = act(game, s, type="hint")
    # still the lost dilemma: the answer is on its screen, asked once
    assert s["phase"] == "aftermath" and s["dilemma"] == 1
    assert game.legal_actions(s, 0) == [{"type": "continue"}]
    notes = [
        w for w in game.screen(s, 0, game.legal_actions(s, 0))["widgets"] if w["type"] == "text"
    ]
    assert [w["text"] for w in notes] == [s["hint"]]
    s = act(game, s, type="continue")
    assert s["dilemma"] == 8 and s["hint"] is None and game.view(s, 0)["hint"] is None
    scr = game.screen(s, 0, game.legal_actions(s, 0))
    assert not [w for w in scr["widgets"] if w["type"] == "text"]


def test_the_claim_applies_no_effect_and_has_no_quemandeur(game):
    """« il n'y aura pas de carte Quémandeur … N'appliquez aucun des effets » : the last
    Quémandeur's character may be claimed, and the die does not move."""
    hands = [["automate", "golem"], ["automate", "golem"]]
    s = _claim_table(game, hands, 3, [])
    assert s["petitioner"] is None and s["phase"] == "throne"
    assert [a["card"] for a in game.legal_actions(s, 0)] == ["automate", "golem"]
    assert not any(a["type"] == "bells" for a in game.legal_actions(s, 0))
    s = act(game, s, type="claim", card="automate")
    s = act(game, s, type="claim", card="automate")
    assert s["die"] == 5 and s["throne_char"] == "automate" and s["objectives"] == []


def test_never_play_your_last_card_even_for_the_claim(game):
    """A member left with one card takes back the discard before claiming."""
    hands = [["sorcier"], ["sorcier", "dame"]]
    s = _claim_table(game, hands, 3, [])
    assert s["discards"][0][-1] == "sorcier" and "sorcier" not in s["hands"][0]
    assert [e["key"] for e in s["log"]].count("hand.recover") == 1
    assert [a["card"] for a in game.legal_actions(s, 0)] == sorted(set(s["hands"][0]))
    game.check_state(s)


def test_a_shield_cancels_the_faveur_a_split_claim_costs(game):
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 1, [(11, "shield")])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["favor"] == 1 and s["rewards"] == [] and s["phase"] == "successor"
    assert "la perte de Faveur est annulée" in game.render_log(
        next(e for e in s["log"] if e["key"] == "reward.shield")
    )


def test_rewards_have_no_limit_two_nudges_in_one_turn(game):
    """« Il n'y a pas de limite au nombre de cartes RÉCOMPENSE que vous pouvez posséder ou
    utiliser » : two nudges move the die two points in one turn."""
    hands = [["stoique", "parasite"], ["stoique", "parasite"]]
    s = _source_tarie(game, hands, [NUDGE, {**NUDGE, "id": 10}])
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reward", index=0, face=10)
    s = act(game, s, type="reward", index=0, face=11)
    assert s["die"] == 11 and s["rewards"] == []
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="effect", face=8)  # LE STOÏQUE, last face down, follows by itself
    assert s["resolved"][-1]["success"] is False  # 8 is not 7; the nudges are spent anyway


def test_the_reign_counts_every_resolved_dilemma_rewards_included_and_rung_ones_double(game):
    """« Additionnez les valeurs de toutes les cartes Dilemme résolues » (a RÉCOMPENSE is a
    resolved card, kept or spent), doubled when placed right of the Faveur (bells rung);
    « ajoutez … les valeurs des 7 cartes Quémandeur … ainsi que le nombre de points de
    Faveur restants »."""
    s = _claim_table(game, [["sorcier"] * 1, ["sorcier"]], 2, [(3, "nudge")])
    s["resolved"] = [
        {"id": 3, "rung": True, "success": True},  # PONT BRANLANT, its nudge still kept
        {"id": 6, "rung": False, "success": True},  # CLOCHE FÊLÉE, its reroll spent
        {"id": 5, "rung": True, "success": False},  # failed: not resolved
    ]
    value = {k: game.R.dilemmas[k]["value"] for k in (3, 6)}
    crowns = sum(game.R.crown(c) for c in [*s["pets_done"], *s["pets"]])
    assert rules.score(game.R, s) == {
        "dilemmas": 2 * value[3] + value[6],
        "crowns": crowns,
        "favor": 2,
        "total": 2 * value[3] + value[6] + crowns + 2,
    }


@pytest.mark.parametrize(
    ("total", "band"),
    [
        *((t, 1) for t in (0, 23)),
        *((t, 2) for t in (24, 34)),
        *((t, 3) for t in (35, 60)),
        *((t, 4) for t in (61, 78)),
        *((t, 5) for t in (79, 109)),
        *((t, 6) for t in (110, 250)),
    ],
)
def test_the_reigns_verdict_bands(total, band):
    assert rules.verdict(total) == f"band.{band}"


def test_a_unanimous_silent_claim_checks_a_box(game):
    """« Cochez une case pour chaque dilemme à l'issue duquel vous êtes parvenus à ne pas du
    tout parler » : REVENDIQUER LE TRÔNE is a dilemma, won by unanimity, without a remark."""
    hands = [["sorcier", "dame"], ["sorcier", "dame"]]
    s = _claim_table(game, hands, 3, [])
    boxes = s["silent_boxes"]
    won = act(game, act(game, s, type="claim", card="sorcier"), type="claim", card="sorcier")
    assert won["silent_boxes"] == boxes + 1
    split = act(game, act(game, s, type="claim", card="sorcier"), type="claim", card="dame")
    assert split["silent_boxes"] == boxes


def test_a_remark_costs_the_dilemmas_box_and_a_silent_success_checks_one(game):
    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    for remark, boxes in ((None, 1), ("seul", 0)):
        s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=hands)
        s = act(game, s, type="bells", ring=False, two_turns=False)
        s = act(game, s, type="choose", card="sorcier", remark=remark)
        s = act(game, s, type="choose", card="stoique", remark=None)
        s = act(game, s, type="reveal", who=0)
        s = act(game, s, type="effect", face=10)
        assert s["resolved"][-1]["success"] and s["silent_boxes"] == boxes


def test_a_reward_used_before_the_first_reveal_leaves_la_dame_first(game):
    """LA DAME acts only as « la première carte jouée à l'étape 4 »: a RÉCOMPENSE is not a
    card played."""
    hands = [["dame", "stoique"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=9, dilemma=1, petitioner="golem", hands=hands)
    s["rewards"] = [dict(NUDGE)]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="dame", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reward", index=0, face=10)
    s = act(game, s, type="reveal", who=0)  # one objective value: her effect applies at once
    dame = next(e for e in s["log"] if e["key"] == "effect.die" and e["args"]["char"] == "dame")
    assert (dame["args"]["before"], dame["args"]["face"]) == (10, 7)


def test_rewards_are_offered_from_the_start_of_the_claim(game):
    """From the first moment of REVENDIQUER LE TRÔNE, whoever answers for the council may
    spend a RÉCOMPENSE; doing so does not take the place of the member's character."""
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 2, [(15, "favor")])
    assert s["phase"] == "throne" and game.to_act(s) == [0, 1]
    assert game.legal_actions(s, 1)[-1] == {"type": "reward", "index": 0, "face": 0}
    s = act(game, s, type="reward", index=0, face=0)
    assert s["favor"] == 3 and s["phase"] == "throne" and game.to_act(s) == [0, 1]
    assert all(a["type"] == "claim" for a in game.legal_actions(s, 0))
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "over" and s["result"]["favor"] == 3


def test_at_four_the_chef_du_conseil_alone_spends_the_rewards_of_the_claim(game):
    hands = [["puissante", "sorcier"]] * 4
    names = ["Léa", "Mia", "Tom", "Rita"]
    s = table(game, names, die=5, dilemma=5, petitioner="golem", hands=hands)
    s["pile"], s["phase"], s["chef"] = [rules.THRONE], "start", 2
    s["rewards"] = [{"id": 15, "type": "favor", "rung": False}]
    rules.settle(game.R, s)
    offered = [t for t in range(4) if any(a["type"] == "reward" for a in game.legal_actions(s, t))]
    assert offered == [2]


@pytest.mark.parametrize("card", ["chevalier", "golem", "dame", "oracle", "stoique"])
def test_a_card_that_does_not_turn_the_die_has_no_faces_to_offer(card):
    """Only the die cards turn the die; asking another card's faces is an error naming it."""
    assert card not in D.DIE_CARDS
    with pytest.raises(ValueError, match=f"^{card} does not turn the die$"):
        D.die_options(card, 7)


def test_the_claim_is_shown_at_once_and_every_card_goes_to_its_discard(game):
    """« Révélez simultanément votre carte Personnage. N'appliquez aucun des effets » : the
    council chooses together, every card is face up on the table, none cancelled (two identical
    characters do not cancel here: they are the aim), each one out of its hand, on top of its
    owner's discard pile."""
    hands = [["puissante", "sorcier", "dame"], ["sorcier", "puissante", "dame"]]
    s = table(game, ["Léa", "Mia"], die=5, dilemma=5, petitioner="golem", hands=hands)
    s["pile"], s["phase"] = [rules.THRONE], "start"
    rules.settle(game.R, s)
    assert game.turn_kind(s) == "each"
    s["known"][0] = ["puissante"]  # taken back from a discard pile: the others know it
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["revealed"] == [True, True]
    assert s["table"] == [
        {"seat": 0, "card": "puissante", "cancelled": False},
        {"seat": 1, "card": "sorcier", "cancelled": False},
    ]
    assert [h.count(c) for h, c in zip(s["hands"], ("puissante", "sorcier"), strict=True)] == [0, 0]
    assert [d[-1] for d in s["discards"]] == ["puissante", "sorcier"]
    assert s["known"][0] == []  # shown, it is no longer a known card of Léa's hand


# --------------------------------------------------------------------------- the journal


def told(game, state, since=0):
    """The journal's lines the table reads, from entry ``since`` on."""
    return [game.render_log(e) for e in state["log"][since:]]


def test_the_journal_tells_tour_effondree_as_the_rulebook_does(game):
    """The rulebook's first example, told line by line: the bells rung (−1 Faveur, the next
    dilemma shown), the cards put face down with each member's general remark, the two
    AUTOMATES cancelled, the SORCIER's 7 → 10, the success side (+1 Faveur), LA DAME taken
    into every hand, then the next Quémandeur and dilemma."""
    start = ["puissante", "sorcier", "automate", "druidesse", "parasite"]
    s = table(game, ["Léa", "Mia", "Tom"], die=7, dilemma=5, petitioner="dame", hands=[start] * 3)
    since = len(s["log"])
    s = act(game, s, type="bells", ring=True, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark="aide")
    s = act(game, s, type="choose", card="automate", remark="premier")
    s = act(game, s, type="choose", card="automate", remark="seul")
    # cards still face down: the council reveals one, nothing is checked yet
    assert game.legal_actions(s, 0) == [{"type": "reveal", "who": w} for w in (0, 1, 2)]
    s = act(game, s, type="reveal", who=1)
    # the two AUTOMATES are out, Léa's SORCIER revealed by itself: no card left face down
    assert game.view(s, 0)["has_chosen"] == [False, False, False]
    assert s["phase"] == "effect" and game.turn_kind(s) == "each"
    assert s["table"] == [
        {"seat": 1, "card": "automate", "cancelled": True},
        {"seat": 2, "card": "automate", "cancelled": True},
        {"seat": 0, "card": "sorcier", "cancelled": False},
    ]
    s = act(game, s, type="effect", face=10)
    # what the others know of each hand: the card played is gone from it, LA DAME came in
    for seat, played in enumerate(("sorcier", "automate", "automate")):
        assert s["known"][seat] == sorted({*start, "dame"} - {played})
    assert told(game, s, since) == [
        "Faveur -1 (cloches royales) : la Faveur est à 2.",
        "Les cloches royales sonnent (−1 Faveur) ; le dilemme suivant est « FESTIVAL ».",
        "Léa pose une carte face cachée.",
        "Léa : « J'aurai besoin d'aide. »",
        "Mia pose une carte face cachée.",
        "Mia : « Il faut que je joue en premier. »",
        "Tom pose une carte face cachée.",
        "Tom : « Je peux le faire tout seul. »",
        "Toutes les cartes sont posées.",
        "Mia révèle L'AUTOMATE.",
        "L'AUTOMATE est annulé : Mia et Tom l'ont joué ; aucun effet.",
        "Léa révèle LE SORCIER.",
        "LE SORCIER (Léa) : le dé passe de 7 à 10.",
        "Le dé est sur 10 : « TOUR EFFONDRÉE » est résolu !",
        "Faveur +1 (dilemme) : la Faveur est à 3.",
        "Chacun prend LA DAME en main.",
        "Le Quémandeur se présente : LE GOLEM.",
        "Dilemme « FESTIVAL » : il faut le dé sur 3.",
    ]
    # a new dilemma: the table cleared, nothing said yet, no bells rung for it
    assert s["phase"] == "bells" and s["table"] == [] and game.view(s, 0)["table"] == []
    # a new dilemma: nothing said yet, no bells rung for it
    assert s["rings"] == 1 and s["spoke"] is False and s["rung"] is False
    assert s["last"] == {"dilemma": 5, "success": True}
    # the next choice starts with no remark made
    s = act(game, s, type="bells", ring=False, two_turns=False)
    assert s["phase"] == "choose" and s["remarks"] == [None, None, None]


def test_the_journal_tells_two_turns_at_two_players(game):
    """At two, a double objective over two turns before the same Quémandeur: a first
    objective reached ends the first turn, the second turn reaches the other, the dilemma is
    resolved and kept as a RÉCOMPENSE."""
    hands = [
        ["automate", "sorcier", "druidesse", "parasite"],
        ["alchimiste", "sorcier", "parasite"],
    ]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=10, petitioner="inverseuse", hands=hands)
    since, turn = len(s["log"]), game.view(s, 0)["turn_no"]
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="effect", face=3)
    assert s["chosen"] == [None, None] and s["two_turns"] and s["first_met"] == [0]
    # the second turn starts afresh: only the die still on 3 counts for it, not the 10 yet
    assert s["met"] == [True, False] and game.view(s, 0)["turn_no"] == turn + 1
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="alchimiste", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=5)
    s = act(game, s, type="effect", face=10)
    assert told(game, s, since) == [
        "Le Conseil prendra deux tours pour ce double objectif.",
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Mia révèle LE PARASITE.",
        "LE PARASITE (Mia) : le dé reste sur 1.",
        "Léa révèle L'AUTOMATE.",
        "L'AUTOMATE (Léa) : le dé passe de 1 à 3.",
        "Le dé est sur 3 : un premier objectif est atteint, un second tour suit.",
        "Second tour pour « LIEUX MYSTÉRIEUX », devant le même Quémandeur.",
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Léa révèle LE SORCIER.",
        "LE SORCIER (Léa) : le dé passe de 3 à 5.",
        "Mia révèle L'ALCHIMISTE.",
        "L'ALCHIMISTE (Mia) : le dé passe de 5 à 10.",
        "Le dé est sur 10 : « LIEUX MYSTÉRIEUX » est résolu !",
        "Faveur +1 (dilemme) : la Faveur est à 4.",
        "« LIEUX MYSTÉRIEUX » est gardé comme RÉCOMPENSE : un coup de pouce d'un point au dé.",
        "Chacun prend L'INVERSEUSE en main.",
        "Le Quémandeur se présente : LE GOLEM.",
        "Dilemme « FESTIVAL » : il faut le dé sur 3.",
    ]
    assert s["rewards"] == [{"id": 10, "type": "nudge", "rung": False}]
    assert s["two_turns"] is False and s["first_met"] == []
    assert game.view(s, 0)["turn_no"] == turn + 2


def test_the_journal_tells_a_split_claim_and_its_rewards(game):
    """REVENDIQUER LE TRÔNE split three ways with RÉCOMPENSES kept: a nudge spent before the
    cards show, the shield cancels the Faveur the split costs, the « +1 Faveur » spent before
    the council names its sovereign."""
    hands = [["puissante", "sorcier", "dame"], ["sorcier", "puissante", "dame"]] * 2
    s = _claim_table(game, hands[:3], 1, [(15, "favor"), (3, "nudge"), (11, "shield")])
    since = len(s["log"])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="reward", index=1, face=6)
    s = act(game, s, type="conclude")
    s = act(game, s, type="reward", index=0, face=0)
    s = act(game, s, type="successor", card="sorcier")
    assert told(game, s, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Tom pose une carte face cachée.",
        "RÉCOMPENSE « PONT BRANLANT » utilisée (un coup de pouce d'un point au dé) : le dé est "
        "sur 6.",
        "Révélation simultanée : LA PUISSANTE, LE SORCIER, LE SORCIER.",
        "Les voix se partagent.",
        "La RÉCOMPENSE de « RATS AU GRENIER » est défaussée : la perte de Faveur est annulée.",
        "Faveur +1 (RÉCOMPENSE) : la Faveur est à 2.",
        "RÉCOMPENSE « RÉCOLTE POURRIE » utilisée (+1 Faveur) : le dé est sur 6.",
        "Le Conseil choisit LE SORCIER pour régner.",
        "Le Conseil l'emporte ; sur le trône : LE SORCIER.",
    ]
    assert s["result"]["won"] and s["result"]["favor"] == 2 and s["rewards"] == []


def test_the_journal_tells_the_last_faveur_spent_then_lost(game):
    """NUÉE DE CORBEAUX failed at 1 Faveur: the kept « +1 Faveur » is spent rather than fall,
    the penalty (−1 Faveur, the die rerolled) applies; the next dilemma failed takes the last
    Faveur and the council is driven out (« si votre Faveur tombe à 0 … vous perdez
    immédiatement la partie »)."""
    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=18, petitioner="dame", hands=hands, favor=1)
    s["rewards"] = [{"id": 15, "type": "favor", "rung": False}]
    s["rng"] = 12345
    since = len(s["log"])
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=9)
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="conclude")
    assert told(game, s, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Léa révèle LE SORCIER.",
        "LE SORCIER (Léa) : le dé passe de 7 à 9.",
        "Mia révèle LE STOÏQUE.",
        "Mia reprend LE SORCIER, la carte du dessus de sa défausse.",
        "Le dé est sur 9 : « NUÉE DE CORBEAUX » est un échec.",
        "Faveur +1 (RÉCOMPENSE) : la Faveur est à 2.",
        "RÉCOMPENSE « RÉCOLTE POURRIE » utilisée (+1 Faveur) : le dé est sur 9.",
        "Faveur -1 (dilemme) : la Faveur est à 1.",
        "Le dé est relancé : 9.",
    ]
    assert s["phase"] == "aftermath" and s["favor"] == 1 and s["rewards"] == []
    # the SORCIER taken from the top is no longer seen on Mia's pile
    assert s["pub_discard"][1] == s["discards"][1] and s["discards"][1][-1] == "stoique"
    # « La carte Quémandeur actuelle est défaussée »: none before the council any more
    assert not game.view(s, 0)["petitioner"] and s["pets_done"][-1] == "dame"
    assert s["last"] == {"dilemma": 18, "success": False}
    s = act(game, s, type="continue")
    since = len(s["log"])
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=3)  # the PARASITE, from 3, can only leave a 1
    assert told(game, s, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Léa révèle LE SORCIER.",
        "LE SORCIER (Léa) : le dé passe de 9 à 3.",
        "Mia révèle LE PARASITE.",
        "LE PARASITE (Mia) : le dé passe de 3 à 1.",
        "Le dé est sur 1 : « FESTIVAL » est un échec.",
        "Faveur -1 (dilemme) : la Faveur est à 0.",
        "La Faveur tombe à 0 : le Conseil est chassé, le trône reste vacant.",
    ]
    assert s["phase"] == "over" and s["result"]["reason"] == "favor"


def test_the_journal_tells_the_oracle_with_one_card_left(game):
    """The ORACLE rerolls, its owner has one card left: it goes to a new discard pile, every
    card played before comes back, and the second card is played from that hand."""
    hands = [["sorcier", "druidesse", "automate"], ["oracle", "puissante"], ["sorcier", "parasite"]]
    discards = [[], ["automate", "sorcier", "druidesse"], []]
    names = ["Léa", "Mia", "Tom"]
    s = table(game, names, die=4, dilemma=13, petitioner="golem", hands=hands, discards=discards)
    s["rng"] = 777
    since = len(s["log"])
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="oracle", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    assert s["phase"] == "oracle" and game.turn_kind(s) == "each"
    s = act(game, s, type="oracle", card="druidesse")
    s = act(game, s, type="effect", face=6)
    assert told(game, s, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Tom pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Mia révèle L'ORACLE.",
        "Mia relance le dé : 7. L'ORACLE demande une seconde carte.",
        "Mia n'a plus qu'une carte jouable : LA PUISSANTE part en défausse et Mia reprend 5 "
        "cartes jouées.",
        "Mia joue une seconde carte pour l'ORACLE.",
        "Mia révèle LA DRUIDESSE.",
        "LA DRUIDESSE (Mia) : le dé passe de 7 à 6.",
    ]
    # the ORACLE came back with the cards played before (« y compris l'ORACLE »)
    assert s["die"] == 6 and s["discards"][1] == ["puissante", "druidesse"]
    assert "oracle" in s["hands"][1]
    game.check_state(s)


def test_the_journal_opens_a_game_at_four_with_its_chef_du_conseil(game):
    """A game at four: the council sits with 4 Faveur, the five face-up Quémandeurs are told
    and two face down, one member receives the Chef du Conseil card, then the first
    Quémandeur and dilemma."""
    seats = [{"name": n, "bot": False} for n in ["Léa", "Mia", "Tom", "Rita"]]
    s = game.new_game(game.normalize_setup({"seed": "journal", "seats": seats}))
    assert told(game, s) == [
        "— Le Conseil siège (partie normale) : Léa, Mia, Tom et Rita. Faveur 4, le dé montre 11. —",
        "Quémandeurs face visible : L'AUTOMATE, LA DAME, LE GOLEM, LA PUISSANTE, LE SORCIER ; "
        "face cachée : 2.",
        "Rita reçoit la carte Chef du Conseil.",
        "Le Quémandeur se présente : LA DAME.",
        "Dilemme « FORÊT QUI MARCHE » : il faut le dé sur 1/12.",
    ]
    assert s["chef"] == 3 and s["favor"] == 4 and s["turn_no"] == 1


# --------------------------------------------------------------------------- the game's ends


def _claimed(game, hands, month, *, rings=0, favor=3):
    """A month's REVENDIQUER LE TRÔNE, the cards in ``hands`` claimed, the bells rung
    ``rings`` times before."""
    s = _claim_table(game, [[c, "dame"] for c in hands], favor, [])
    s["scenario"], s["rule"], s["rings"] = month, _month_rule(game, month), rings
    for c in hands:
        s = act(game, s, type="claim", card=c)
    return s


def _month_rule(game, month):
    sc = game.R.scenarios[month]
    return {k: sc[k] for k in ("throne", "min_bells", "claim", "no_favor_gain") if k in sc}


def test_the_months_special_rules_decide_the_end(game):
    """Juillet: « faire sonner les cloches au moins 4 fois et choisir un successeur »;
    Décembre: choose a successor; Mai: LA PUISSANTE must take the throne.  A claim that
    fails them loses, each with its own reason; the result keeps the reason."""
    s = _claimed(game, ["sorcier", "sorcier"], "juillet", rings=3)
    assert s["result"]["won"] is False and s["result"]["reason"] == "bells_rule"
    assert s["throne_char"] is None
    assert told(game, s, len(s["log"]) - 1) == [
        "Les cloches n'ont pas assez sonné : partie perdue."
    ]
    s = _claimed(game, ["sorcier", "sorcier"], "juillet", rings=4)
    assert s["result"]["won"] is True and s["result"]["reason"] == "won"
    s = _claimed(game, ["sorcier", "puissante"], "decembre", favor=3)
    s = act(game, s, type="successor", card="sorcier")
    assert s["result"]["reason"] == "claim_rule" and s["throne_char"] is None
    assert told(game, s, len(s["log"]) - 1) == [
        "Le Conseil n'a pas su s'accorder sur un successeur : partie perdue."
    ]
    s = _claimed(game, ["sorcier", "sorcier"], "mai")
    assert s["result"]["reason"] == "throne_rule" and s["pending"] is None
    s = _claimed(game, ["puissante", "puissante"], "mai")
    assert s["result"]["won"] and s["throne_char"] == "puissante"
    # a new Juillet starts with no bell rung
    seats = [{"name": n, "bot": False} for n in ["Léa", "Mia"]]
    juillet = game.new_game(
        game.normalize_setup({"seed": "j", "seats": seats, "scenario": "juillet"})
    )
    assert juillet["rings"] == 0 and juillet["rule"] == _month_rule(game, "juillet")


def test_a_split_claim_costs_the_thrones_penalty(game):
    """The claim's failure side (« −1 Faveur ») read from the card: a card that costs two
    takes two; the sovereign is then chosen among the cards played."""
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    game.R.throne = {"failure": [{"favor": -2}]}
    s = _claim_table(game, hands, 3, [])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["favor"] == 1 and s["phase"] == "successor" and s["claimed"] is False
    s = _claim_table(game, hands, 2, [])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "over" and s["result"]["reason"] == "favor"


def test_the_reign_counts_the_quemandeurs_crowns_and_no_negative_faveur(game):
    """« Ajoutez à ce total les valeurs des 7 cartes Quémandeur utilisées » (the crowns
    printed on the cards, the one before the council included) « ainsi que le nombre de
    points de Faveur restants » (none when it fell to 0)."""
    crowns = {c: int(p["crown"]) for c, p in game.R.petitioners.items()}
    assert len(set(crowns.values())) > 1
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="golem", hands=[["sorcier"]] * 2)
    s["pets_done"], s["resolved"] = ["dame"], []
    seven = ["dame", "golem", *s["pets"]]
    assert len(seven) == 7 and s["petitioner"] == "golem"
    assert rules.score(game.R, s)["crowns"] == sum(crowns[c] for c in seven)
    assert [game.R.crown(c) for c in seven] == [crowns[c] for c in seven]
    s["favor"] = 0
    assert rules.score(game.R, s)["favor"] == 0
    assert game.R.crown("personne") == 1  # a character with no card: one year, as the least


def test_the_chef_du_conseil_passes_to_the_left_after_each_dilemma(game):
    """« Après chaque dilemme, il passe la carte à son voisin de gauche. »"""
    hands = [["sorcier", "parasite"]] * 4
    names = ["Léa", "Mia", "Tom", "Rita"]
    s = table(game, names, die=7, dilemma=5, petitioner="dame", hands=hands)
    s["chef"] = 3
    assert game.to_act(s) == [3]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    for _ in range(4):
        s = act(game, s, type="choose", card="parasite", remark=None)
    assert game.to_act(s) == [3]  # the Chef du Conseil decides who reveals first
    s = act(game, s, type="reveal", who=1)  # four PARASITES: all cancelled
    assert s["resolved"][-1]["success"] is False and s["chef"] == 0
    assert game.to_act(s) == [0] and game.legal_actions(s, 3) == []


def test_a_dilemma_that_gives_back_the_top_of_each_discard(game):
    """A dilemma's side may give every member back the top card of their discard pile (the
    content's « recover »): it comes back into hand, seen by all; an empty pile gives
    nothing."""
    game.R.dilemmas[13] = {**game.R.dilemmas[13], "success": [{"recover": True}]}
    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=4, dilemma=13, petitioner="dame", hands=hands)
    s["discards"][1], s["pub_discard"][1] = [], []
    s["reserve"] = sorted(set(rules.CHARACTERS) - {"sorcier", "parasite", "stoique"})
    s["reserve"] = [c for c in s["reserve"] if c not in s["discards"][0]]
    top = s["discards"][0][-1]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=6)
    assert s["resolved"][-1]["success"]
    # Léa's SORCIER went on top of her pile, then back; Mia's STOÏQUE likewise
    assert "sorcier" in s["hands"][0] and "stoique" in s["hands"][1]
    assert s["discards"][0][-1] == top and s["discards"][1] == []
    assert "sorcier" in s["known"][0] and "stoique" in s["known"][1]
    assert s["pub_discard"][1] == [] and s["pub_discard"][0][-1:] != ["sorcier"]


def test_rewards_offered_once_per_kind_never_the_shield_and_within_the_die(game):
    """The kept RÉCOMPENSES the council may spend: one offer per kind, the shield never (it
    acts by itself); the nudge moves the die one point without leaving 1–12; the flip turns
    it to its opposite face; « +1 Faveur » not at 5 Faveur."""
    s = table(game, ["Léa", "Mia"], die=1, dilemma=5, petitioner="dame", hands=[["sorcier"]] * 2)
    s["rewards"] = [
        {"id": 11, "type": "shield", "rung": False},
        {"id": 3, "type": "nudge", "rung": False},
        {"id": 17, "type": "nudge", "rung": False},
        {"id": 9, "type": "flip", "rung": False},
        {"id": 6, "type": "reroll", "rung": False},
        {"id": 15, "type": "favor", "rung": False},
    ]
    assert rules.reward_actions(s) == [
        {"type": "reward", "index": 1, "face": 2},
        {"type": "reward", "index": 3, "face": 12},
        {"type": "reward", "index": 4, "face": 0},
        {"type": "reward", "index": 5, "face": 0},
    ]
    s["die"], s["favor"] = 12, 5
    assert rules.reward_actions(s) == [
        {"type": "reward", "index": 1, "face": 11},
        {"type": "reward", "index": 3, "face": 1},
        {"type": "reward", "index": 4, "face": 0},
    ]
    s["die"] = 2
    assert [a["face"] for a in rules.reward_actions(s)] == [1, 3, 11, 0]
    s["die"], s["favor"], s["rule"] = 6, 2, {"no_favor_gain": True}  # Novembre
    assert [a["face"] for a in rules.reward_actions(s)] == [5, 7, 7, 0]


def test_faveur_moves_only_within_its_track_and_says_so_only_when_it_moves(game):
    """« La Faveur ne peut excéder 5 points »: at 5, a gain leaves it there and the journal
    says nothing; each move is told with its cause."""
    s = {"favor": 5, "log": [], "seats": [], "rewards": [], "rule": {}, "die": 3}
    rules.gain_favor(s, 1, "dilemma")
    assert s["favor"] == 5 and s["log"] == []
    rules.gain_favor(s, -2, "bells")
    assert s["favor"] == 3
    assert s["log"] == [{"key": "favor.moved", "args": {"delta": -2, "favor": 3, "why": "bells"}}]
    rules.lose_favor(s, 1, "throne")
    assert s["log"][-1]["args"] == {"delta": -1, "favor": 2, "why": "throne"}
    # the shield takes the loss, and says how much it cancelled
    s["rewards"] = [{"id": 11, "type": "shield", "rung": False}]
    rules.lose_favor(s, 2, "dilemma")
    assert s["favor"] == 2 and s["log"][-1] == {
        "key": "reward.shield",
        "args": {"dilemma": 11, "amount": 2},
    }
    # the « +1 Faveur » is spent only when the loss would take the last Faveur
    s["rewards"] = [{"id": 15, "type": "favor", "rung": False}]
    rules.lose_favor(s, 1, "dilemma")
    assert s["favor"] == 1 and len(s["rewards"]) == 1
    rules.lose_favor(s, 1, "dilemma")
    assert s["favor"] == 1 and s["rewards"] == []
    assert [e["key"] for e in s["log"][-3:]] == ["favor.moved", "reward.used", "favor.moved"]
    assert s["log"][-2]["args"] == {"dilemma": 15, "reward": "favor", "face": 3}
    # Novembre: the reward gives nothing, so it is not spent
    s["rewards"], s["rule"] = [{"id": 15, "type": "favor", "rung": False}], {"no_favor_gain": True}
    rules.lose_favor(s, 1, "dilemma")
    assert s["favor"] == 0 and len(s["rewards"]) == 1


def test_a_card_with_a_card_gone_missing_is_refused(game):
    """Every seat's twelve characters are each in one place (hand, discard, the card chosen,
    the card being settled, the common reserve); the Faveur is 0–5 and the die 1–12,
    integers."""
    hands = [["stoique", "parasite"], ["druidesse", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=8, dilemma=12, petitioner="dame", hands=hands)
    game.check_state(s)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="stoique", remark=None)
    game.check_state(s)  # LE STOÏQUE face down counts
    s = act(game, s, type="choose", card="druidesse", remark=None)
    s = act(game, s, type="reveal", who=1)
    assert s["phase"] == "effect" and s["pending"]["seat"] == 1
    game.check_state(s)  # LA DRUIDESSE being settled counts
    for bad in (
        {"hands": [s["hands"][0][1:], s["hands"][1]]},
        {"hands": [s["hands"][0], [*s["hands"][1], "druidesse"]]},
        {"pending": {**s["pending"], "seat": 0}},
        {"phase": "reveal"},
    ):
        with pytest.raises(ValueError, match=r"^seat [01]'s cards are \["):
            game.check_state({**s, **bad})
    for key, value, message in (
        ("favor", 3.5, "favor is not an integer"),
        ("favor", True, "favor is not an integer"),
        ("die", "7", "die is not an integer"),
        ("favor", 6, "Faveur 6"),
        ("favor", -1, "Faveur -1"),
        ("die", 13, "die 13"),
        ("die", 0, "die 0"),
    ):
        with pytest.raises(ValueError, match=f"^{message}$"):
            game.check_state({**s, key: value})
    for key, value in (("favor", 0), ("favor", 5), ("die", 1), ("die", 12)):
        game.check_state({**s, key: value})


def test_a_malformed_or_illegal_action_is_refused_saying_why(game):
    """The engine refuses what is not an action, an unknown type, missing or extra fields,
    and what the rules do not allow now, naming the action, the phase and the reason."""
    from engine.core.errors import MalformedAction

    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=hands)
    cases = [
        ("bells", "an action is an object with a text « type »"),
        ({"type": 3}, "an action is an object with a text « type »"),
        ({"type": "sonner"}, "unknown action type"),
        ({"type": "bells", "ring": True}, "expected the fields ['ring', 'two_turns', 'type']"),
    ]
    for action, why in cases:
        with pytest.raises(MalformedAction) as err:
            game.apply(s, action)
        assert (err.value.action, err.value.where, err.value.why) == (
            action,
            "conseil, phase bells",
            why,
        )
    action = {"type": "reveal", "who": 0}
    with pytest.raises(IllegalAction) as err:
        game.apply(s, action)
    assert (err.value.action, err.value.where, err.value.why) == (
        action,
        "conseil, phase bells",
        "not a legal action now",
    )
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=2)  # Mia's card, the last, follows by itself
    while s["phase"] != "aftermath":
        s = game.apply(s, game.legal_actions(s, game.to_act(s)[0])[0])
    game.R.adviser = None
    with pytest.raises(IllegalAction) as err:
        game.apply(s, {"type": "hint"})
    assert (err.value.action, err.value.where, err.value.why) == (
        {"type": "hint"},
        "hint",
        "no adviser for these rules",
    )


def test_two_turns_count_the_objective_each_turn_reached_even_one_replaced(game):
    """« Le dilemme n'est considéré comme résolu qu'à condition d'avoir accompli un objectif
    différent à chaque tour »: the 3 reached on the first turn, the second turn's GOLEM
    replaces that objective (9/10/11/12) and L'INVERSEUSE turns the 3 to 10: the 10 is a
    different objective from the first turn's, the dilemma is resolved."""
    hands = [["automate", "golem", "sorcier"], ["parasite", "inverseuse", "sorcier"]]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=10, petitioner="dame", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="effect", face=3)
    assert s["first_met"] == [0] and s["resolved"] == []
    s = act(game, s, type="choose", card="golem", remark=None)
    s = act(game, s, type="choose", card="inverseuse", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", objective=0)
    golem = next(e for e in s["log"] if e["key"] == "effect.objective")
    assert golem["args"]["objectives"] == [[9, 10, 11, 12], [10]]
    assert s["die"] == 10  # the INVERSEUSE, last face down, followed by itself
    assert s["resolved"][-1] == {"id": 10, "rung": False, "success": True}


def test_the_quemandeur_revealed_loses_even_with_the_die_on_its_value(game):
    """« Le dilemme est immédiatement perdu, et tous les joueurs défaussent leurs cartes »,
    whatever the die shows: every value asked, the ORACLE's second card LE GOLEM (the
    Quémandeur) still loses; Mia's card face down goes to her discard pile unplayed."""
    hands = [["oracle", "golem", "parasite"], ["sorcier", "parasite", "druidesse"]]
    s = table(game, ["Léa", "Mia"], die=6, dilemma=13, petitioner="golem", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s["objectives"] = [list(range(1, 13))]
    s = act(game, s, type="choose", card="oracle", remark=None)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="reveal", who=0)
    since = len(s["log"])
    s = act(game, s, type="oracle", card="golem")
    assert told(game, s, since)[:3] == [
        "Léa joue une seconde carte pour l'ORACLE.",
        "Léa révèle LE GOLEM.",
        "Léa a révélé LE GOLEM, le Quémandeur : le dilemme est perdu !",
    ]
    assert s["resolved"][-1]["success"] is False and s["lost_turn"] == "petitioner"
    assert s["revealed"] == [True, True] and s["discards"][1][-1] == "sorcier"
    assert "sorcier" not in s["known"][1] and s["chosen"] == [None, None]
    game.check_state(s)


def test_a_dilemma_lost_to_the_quemandeur_leaves_the_next_one_to_play(game):
    """« Si un joueur révèle le personnage de la carte Quémandeur, le dilemme est
    immédiatement perdu »: that dilemma only; the next one is won as usual."""
    hands = [["oracle", "golem", "parasite", "sorcier"], ["sorcier", "parasite", "druidesse"]]
    s = table(game, ["Léa", "Mia"], die=6, dilemma=13, petitioner="golem", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="oracle", remark=None)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="oracle", card="golem")
    assert s["resolved"][-1]["success"] is False and s["phase"] == "aftermath"
    s = act(game, s, type="continue")
    # FESTIVAL asks for a 3; the die was rolled by the ORACLE
    assert s["dilemma"] == 8 and s["lost_turn"] is None
    s["die"] = 1
    if s["phase"] == "bells":
        s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)  # the PARASITE leaves the 1 on 1
    s = act(game, s, type="effect", face=3)
    assert s["resolved"][-1] == {"id": 8, "rung": False, "success": True}


def test_two_turns_each_count_only_what_they_reached(game):
    """Two turns for LIEUX MYSTÉRIEUX (a 3 and a 10): the first turn passes through 10 and
    ends on 3; the second ends on 3 again without touching 10: the 10 of the first turn does
    not count for the second, and the same objective twice resolves nothing."""
    hands = [["automate", "parasite", "sorcier"], ["inverseuse", "automate", "sorcier"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=10, petitioner="dame", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="inverseuse", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=10)  # the AUTOMATE: 7 → 10; the INVERSEUSE: 3
    assert s["first_met"] == [0] and s["resolved"] == [] and s["die"] == 3
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="reveal", who=0)  # the PARASITE: 3 → 1
    s = act(game, s, type="effect", face=3)  # the AUTOMATE: 1 → 3, the first objective again
    assert s["resolved"][-1] == {"id": 10, "rung": False, "success": False}


def test_the_last_reward_spent_during_the_claim_shows_the_cards_at_once(game):
    """Once every character is down and the council spends its last RÉCOMPENSE, nothing is
    left to decide: the cards are shown together."""
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 3, [(3, "nudge")])
    s = act(game, s, type="claim", card="sorcier")
    s = act(game, s, type="claim", card="sorcier")
    assert s["phase"] == "throne_rewards"
    s = act(game, s, type="reward", index=0, face=4)
    assert s["phase"] == "over" and s["throne_char"] == "sorcier"


def test_a_state_in_an_unknown_phase_is_refused(game):
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=[["sorcier"]] * 2)
    with pytest.raises(ValueError, match=r"^unknown phase nulle part$"):
        rules.settle(game.R, {**s, "phase": "nulle part"})


def test_the_journal_tells_a_unanimous_claim_and_a_split_one(game):
    """REVENDIQUER LE TRÔNE: the cards shown together; unanimous, the character takes the
    throne and the dilemma, won without a word, checks one more box of the silent council;
    split, the claim costs its Faveur and the council names its sovereign."""
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 3, [])
    s["silent_boxes"] = 2
    since = len(s["log"])
    won = act(game, act(game, s, type="claim", card="sorcier"), type="claim", card="sorcier")
    assert told(game, won, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Révélation simultanée : LE SORCIER, LE SORCIER.",
        "Unanimité : LE SORCIER monte sur le trône !",
        "Le Conseil l'emporte ; sur le trône : LE SORCIER.",
    ]
    assert won["silent_boxes"] == 3 and won["throne_char"] == "sorcier"
    game.check_state(won)
    split = act(game, act(game, s, type="claim", card="puissante"), type="claim", card="sorcier")
    assert told(game, split, since)[2:] == [
        "Révélation simultanée : LA PUISSANTE, LE SORCIER.",
        "Les voix se partagent.",
        "Faveur -1 (revendication) : la Faveur est à 2.",
    ]
    assert split["silent_boxes"] == 2 and split["phase"] == "successor"
    game.check_state(split)


def test_a_silent_council_checks_a_box_for_each_dilemma_won_without_a_word(game):
    """« Cochez une case pour chaque dilemme à l'issue duquel vous êtes parvenus à ne pas du
    tout parler »: boxes add up, one per silent success."""
    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=hands)
    s["silent_boxes"], s["silent"] = 2, True
    # one objective: no second turn to offer, even at two
    assert not any(a["two_turns"] for a in game.legal_actions(s, 0))
    s = act(game, s, type="bells", ring=False, two_turns=False)
    # the silent council: no remark to make
    assert {a["remark"] for a in game.legal_actions(s, 0)} == {None}
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=10)
    assert s["resolved"][-1]["success"] and s["silent_boxes"] == 3


def test_without_a_claim_card_a_split_claim_costs_one_faveur(game, bundle):
    """The claim's failure side comes from its card; content without it (or a card that says
    nothing of it) costs what the rulebook's example shows: 1 Faveur.  Only the Faveur part
    of that side applies: no effect is applied during the claim."""
    (card,) = bundle["records"]["throne"].values()
    assert game.R.throne == card and card["failure"] == [{"favor": -1}]
    records = {k: v for k, v in bundle["records"].items() if k != "throne"}
    assert rules.Rules({**bundle, "records": records}).throne == {"failure": [{"favor": -1}]}
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    for card in ({"title": "REVENDIQUER LE TRÔNE"}, {"failure": [{"reroll": True}, {"favor": -1}]}):
        game.R.throne = card
        s = _claim_table(game, hands, 3, [])
        s = act(game, s, type="claim", card="puissante")
        s = act(game, s, type="claim", card="sorcier")
        assert s["favor"] == 2 and s["die"] == 5 and s["phase"] == "successor"


def test_the_journal_tells_a_dame_too_late_a_hidden_take_and_a_seat_sitting_out(game):
    """LA DAME revealed second does nothing (« n'est appliqué que si elle est la première
    carte jouée »); LE STOÏQUE takes back a card from under the top of the pile, in secret;
    in Novembre a success brings no Faveur; a member with nothing playable sits the turn
    out; then REVENDIQUER LE TRÔNE begins."""
    hands = [["stoique", "parasite"], ["dame", "parasite"]]
    s = table(
        game,
        ["Léa", "Mia"],
        die=8,
        dilemma=12,
        petitioner="golem",
        hands=hands,
        discards=[["puissante", "sorcier"], []],
    )
    s["rule"], s["pile"] = {"no_favor_gain": True}, [rules.THRONE]
    since = len(s["log"])
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="choose", card="dame", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", take="puissante")  # LA DAME, second, follows by itself
    game.check_state(s)  # LA PUISSANTE, under the top, came back; the rest of the pile stays
    assert told(game, s, since) == [
        "Léa pose une carte face cachée.",
        "Mia pose une carte face cachée.",
        "Toutes les cartes sont posées.",
        "Léa révèle LE STOÏQUE.",
        "Léa reprend en secret une carte de sa défausse.",
        "Mia révèle LA DAME.",
        "LA DAME (Mia) reste sans effet.",
        "Le dé est sur 8 : « LUNE ROUSSE » est résolu !",
        "Ce mois-ci, la réussite ne rapporte aucune Faveur.",
        "Chacun prend LE GOLEM en main.",
        "Dernier dilemme : REVENDIQUER LE TRÔNE. Chacun pose un personnage.",
    ]
    assert s["favor"] == 3 and s["phase"] == "throne" and s["dilemma"] == rules.THRONE
    assert s["objectives"] == [] and s["met"] == [] and s["table"] == []
    # a member whose only card is the Quémandeur's sits the turn out, and it is said
    s = table(
        game,
        ["Léa", "Mia"],
        die=5,
        dilemma=13,
        petitioner="golem",
        hands=[["golem"], ["sorcier", "parasite"]],
    )
    s["discards"][0] = []
    s["reserve"] = sorted(set(s["reserve"]) | (set(rules.CHARACTERS) - {"golem"}))
    s["discards"][1] = sorted(set(rules.CHARACTERS) - set(s["reserve"]) - {"sorcier", "parasite"})
    since = len(s["log"])
    s = act(game, s, type="bells", ring=False, two_turns=False)
    assert told(game, s, since) == [
        "Léa n'a plus qu'une carte jouable : LE GOLEM part en défausse et Léa reprend 0 carte "
        "jouée.",
        "Léa n'a aucune carte jouable et ne pose rien ce tour-ci.",
    ]


def test_the_claim_starts_afresh_after_the_last_dilemma(game):
    """After the seventh dilemma, REVENDIQUER LE TRÔNE starts with nothing on the table, no
    remark and no objective; a split claim offers the throne to the characters just claimed,
    not to the cards of the dilemma before."""
    hands = [["sorcier", "golem", "puissante"], ["stoique", "golem", "puissante"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=hands, pile=())
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark="seul")
    s = act(game, s, type="choose", card="stoique", remark="aide")
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=10)
    assert s["resolved"][-1]["success"] and s["phase"] == "throne"
    view = game.view(s, 0)
    assert view["table"] == [] and view["remarks"] == [None, None]
    assert view["objectives"] == [] and view["met"] == [] and view["has_chosen"] == [False, False]
    s = act(game, s, type="claim", card="golem")
    s = act(game, s, type="claim", card="puissante")
    assert game.legal_actions(s, 0) == [
        {"type": "successor", "card": "golem"},
        {"type": "successor", "card": "puissante"},
    ]


def test_an_objective_replaced_under_the_die_is_reached_at_once(game):
    """LE GOLEM turns LIEUX MYSTÉRIEUX's 10 into 9/10/11/12 with the die on 10: that objective
    is reached there and then; L'INVERSEUSE then turns the 10 into the other objective, 3: both
    reached, the dilemma is resolved."""
    hands = [["golem", "sorcier"], ["inverseuse", "sorcier"]]
    s = table(game, ["Léa", "Mia"], die=10, dilemma=10, petitioner="dame", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="golem", remark=None)
    s = act(game, s, type="choose", card="inverseuse", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", objective=1)  # the INVERSEUSE follows by itself: 10 → 3
    assert s["resolved"][-1] == {"id": 10, "rung": False, "success": True}


def test_a_faveur_won_leaves_the_shield_kept(game):
    """The shield cancels a loss of Faveur (« annuler une perte de Faveur »): a dilemma won
    for +1 Faveur gains it and keeps the shield for later."""
    hands = [["sorcier", "parasite"], ["stoique", "parasite"]]
    s = table(game, ["Léa", "Mia"], die=7, dilemma=5, petitioner="dame", hands=hands)
    s["rewards"] = [{"id": 11, "type": "shield", "rung": False}]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="sorcier", remark=None)
    s = act(game, s, type="choose", card="stoique", remark=None)
    s = act(game, s, type="reveal", who=0)
    s = act(game, s, type="effect", face=10)
    assert s["resolved"][-1]["success"] and s["favor"] == 4
    assert s["rewards"] == [{"id": 11, "type": "shield", "rung": False}]


def test_the_adviser_is_asked_with_the_rules_of_the_game(bundle):
    """« Y avait-il une solution ? »: the adviser hears the rules the table plays by (its
    dilemmas, its throne) beside the state, and its text is what the table reads."""
    heard = []

    def adviser(R, state):
        heard.append((R, state["phase"]))
        return {"text": "Un conseil."}

    game = registry.get("conseil")(bundle)
    R = game.R
    R.adviser = adviser
    s = _source_tarie_lost(game, [["alchimiste", "sorcier"], ["dame", "parasite"]], "sorcier")
    assert s["phase"] == "aftermath" and not s["resolved"][-1]["success"]
    s = act(game, s, type="hint")
    assert heard and heard[0][0] is R and s["hint"] == "Un conseil."


def test_two_turns_the_second_may_settle_the_dilemma_as_a_normal_turn(game):
    """At two players in two turns, the second turn also wins the ordinary way: one objective
    met at some moment of the turn and the other on the final face, even when that final face
    is the first turn's objective again (4 → 9 → 4 here)."""
    hands = [
        ["automate", "inverseuse", "druidesse", "sorcier"],
        ["alchimiste", "parasite", "sorcier"],
    ]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=31, petitioner="stoique", hands=hands)
    s = act(game, s, type="bells", ring=False, two_turns=True)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)  # the PARASITE leaves the 1 on 1
    s = act(game, s, type="effect", face=4)  # the AUTOMATE: 4, the first objective
    assert s["first_met"] == [0] and s["resolved"] == []
    s = act(game, s, type="choose", card="inverseuse", remark=None)
    s = act(game, s, type="choose", card="alchimiste", remark=None)
    s = act(game, s, type="reveal", who=0)  # the INVERSEUSE: 4 → 9, the second objective
    assert s["die"] == 9
    s = act(game, s, type="effect", face=4)  # the ALCHIMISTE halves: 4, the first again
    assert s["resolved"][-1] == {"id": 31, "rung": False, "success": True}
    game.check_state(s)


def _failed_turn(game, *, failure, shield=True):
    """A turn of SERMENT ROMPU (4 and 9) that ends on 3, its failure side replaced by
    ``failure``, the council keeping a shield RÉCOMPENSE."""
    hands = [["automate", "druidesse", "sorcier"], ["parasite", "druidesse", "sorcier"]]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=31, petitioner="stoique", hands=hands)
    game.R.dilemmas = {**game.R.dilemmas, 31: {**game.R.dilemmas[31], "failure": failure}}
    if shield:
        s["rewards"] = [{"id": 35, "type": "shield", "rung": False}]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)  # the PARASITE leaves the 1 on 1
    return act(game, s, type="effect", face=3)  # the AUTOMATE: 3, neither objective


def test_a_dilemma_side_of_zero_faveur_moves_nothing_and_keeps_the_shield(game):
    """A side that gives 0 Faveur (the content format allows it) is no loss: the kept shield
    RÉCOMPENSE stays for a real loss, and the Faveur does not move."""
    s = _failed_turn(game, failure=[{"favor": 0}])
    assert s["resolved"][-1]["success"] is False
    assert s["favor"] == 3 and [r["type"] for r in s["rewards"]] == ["shield"]
    assert not [e for e in s["log"] if e["key"].startswith(("favor.", "reward."))]
    s = _failed_turn(registry.get("conseil")(game.bundle), failure=[{"favor": -1}])
    assert s["favor"] == 3 and s["rewards"] == []  # a real loss spends the shield


def test_no_faveur_gain_says_nothing_of_a_side_of_zero_faveur(game):
    """Under « no Faveur gain » a won dilemma whose side gives 0 Faveur says no gain was
    refused: there was none to refuse."""
    hands = [["automate", "druidesse", "sorcier"], ["parasite", "druidesse", "sorcier"]]
    s = table(game, ["Léa", "Mia"], die=1, dilemma=3, petitioner="stoique", hands=hands)
    game.R.dilemmas = {**game.R.dilemmas, 3: {**game.R.dilemmas[3], "success": [{"favor": 0}]}}
    s["rule"] = {**s["rule"], "no_favor_gain": True}
    s["objectives"] = [[3]]
    s = act(game, s, type="bells", ring=False, two_turns=False)
    s = act(game, s, type="choose", card="automate", remark=None)
    s = act(game, s, type="choose", card="parasite", remark=None)
    s = act(game, s, type="reveal", who=1)
    s = act(game, s, type="effect", face=3)
    assert s["resolved"][-1]["success"] is True
    assert not [e for e in s["log"] if e["key"].startswith("favor.")]


def test_a_split_claim_whose_throne_costs_no_faveur_keeps_the_shield(game):
    """A throne card whose failure costs 0 Faveur (the format allows it): a split claim loses
    nothing, so the kept shield RÉCOMPENSE is not spent."""
    game.R.throne = {**game.R.throne, "failure": [{"favor": 0}]}
    hands = [["puissante", "sorcier"], ["sorcier", "puissante"]]
    s = _claim_table(game, hands, 2, [(35, "shield")])
    s = act(game, s, type="claim", card="puissante")
    s = act(game, s, type="claim", card="sorcier")
    if s["phase"] == "throne_rewards":
        s = act(game, s, type="conclude")
    assert s["phase"] == "successor" and s["favor"] == 2
    assert [r["type"] for r in s["rewards"]] == ["shield"]


def test_the_dilemma_that_costs_the_last_faveur_is_the_last_one_told(game):
    """When a failed dilemma takes the council's last Faveur, the game ends and that dilemma
    is the last one on record (not the one before it)."""
    s = _failed_turn(game, failure=[{"favor": -3}], shield=False)
    assert s["phase"] == "over" and s["result"]["reason"] == "favor"
    assert s["last"] == {"dilemma": 31, "success": False}
    assert game.view(s, 0)["last"] == {"dilemma": 31, "success": False}


def test_a_dilemma_that_takes_the_last_faveur_ends_the_game_at_once(game):
    """At 0 Faveur the council has lost: the game ends on the dilemma that took the last one,
    without a next dilemma being set up."""
    s = _failed_turn(game, failure=[{"favor": -3}], shield=False)
    assert s["favor"] == 0 and s["resolved"][-1]["success"] is False
    assert s["phase"] == "over" and s["last"]["dilemma"] == 31
    assert game.legal_actions(s, 0) == [] and game.legal_actions(s, 1) == []
