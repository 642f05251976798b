"""Complots' rules, from the rulebook's own examples (the two ways to lose two lives in one turn,
the two numbered examples) and from each choice the rules page writes down where the rulebook
is silent."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from engine.complots import rules
from engine.complots import text_fr as T
from engine.core import registry
from engine.core.errors import IllegalAction, MalformedAction
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return registry.get("complots")(bundle_for("complots", ROOT / "content"))


def table_with(game, hands, coins=None, turn=0, variant="ambassadeur", court=None):
    """A game whose hands are ``hands`` (one list per seat), the Court holding the rest."""
    n = len(hands)
    setup = game.normalize_setup({"seed": "t", "players": n, "bots": n, "variant": variant})
    state = game.new_game(setup)
    chars = state["chars"]
    copies = state["copies"]
    pool = [c for c in chars for _ in range(copies)]
    for i, hand in enumerate(hands):
        p = state["players"][i]
        p["hidden"], p["aside"], p["revealed"] = list(hand), [], []
        for c in hand:
            pool.remove(c)
    if court is not None:
        for c in court:
            pool.remove(c)
        state["court"] = pool + list(reversed(court))  # the named cards are drawn first
    else:
        state["court"] = pool
    for i, p in enumerate(state["players"]):
        p["coins"] = coins[i] if coins else 2
    state["treasury"] = rules.COINS_TOTAL - sum(p["coins"] for p in state["players"])
    state["steps"], state["turn"], state["turn_no"], state["log"] = [], turn, 1, []
    return state


def act(game, state, **action):
    return game.apply(state, action)


def hidden(state, seat):
    return sorted(state["players"][seat]["hidden"])


def cards_conserved(state):
    n = len(state["players"])
    return rules.card_total(state) == (15 if n <= 6 else 20)


# --------------------------------------------------------------------------- the rulebook's cases


def test_doubting_a_true_assassin_costs_both_lives(game):
    """Double loss, first case: Joueur2 doubts Joueur1's Assassin, Joueur1 shows it, Joueur2
    loses a life for the doubt, then the Assassin takes the second."""
    s = table_with(
        game,
        [["assassin", "duchesse"], ["capitaine", "comtesse"], ["duchesse", "ambassadeur"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    assert game.turn_kind(s) == "public" and game.to_act(s) == [1, 2]
    s = act(game, s, type="doubt", seat=1)
    assert "assassin" not in hidden(s, 0) or s["players"][0]["hidden"].count("assassin") >= 1
    assert len(s["players"][0]["hidden"]) == 2  # shown, shuffled back, a new card drawn
    assert s["truth"][0] and s["claims"][0]["loser"] == 1
    # Joueur2 chooses which card to reveal
    assert game.to_act(s) == [1] and game.turn_kind(s) == "each"
    s = act(game, s, type="lose", seat=1, character="capitaine")
    # the Assassin is paid; the target may still counter (with the Comtesse it keeps)
    assert s["players"][0]["coins"] == 0
    assert game.to_act(s) == [1]
    s = act(game, s, type="pass", seat=1)
    assert s["players"][1]["hidden"] == []
    assert s["players"][1]["revealed"] == ["capitaine", "comtesse"]
    assert 1 in s["out"] and cards_conserved(s)


def test_a_caught_countess_bluff_costs_both_lives(game):
    """Double loss, second case: nobody doubts the Assassin, Joueur2 counters with a Comtesse
    it does not have, Joueur1 doubts: one life for the bluff, one for the Assassin."""
    s = table_with(
        game,
        [["assassin", "duchesse"], ["capitaine", "ambassadeur"], ["duchesse", "comtesse"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert s["players"][0]["coins"] == 0  # the claim stands: the Assassin pays
    assert game.to_act(s) == [1]  # only the target may counter
    s = act(game, s, type="counter", seat=1, character="comtesse")
    assert game.turn_kind(s) == "public" and game.to_act(s) == [2, 0]
    s = act(game, s, type="doubt", seat=0)
    s = act(game, s, type="lose", seat=1, character="ambassadeur")
    assert s["players"][1]["hidden"] == [] and 1 in s["out"]
    assert s["claims"][1]["role"] == "counter" and not s["truth"][1]


def test_example_1_a_true_captain_doubted(game):
    """Exemple 1: Joueur1 claims the Capitaine, Joueur2 doubts, Joueur1 shows it (shuffles it
    into the Court, draws another), Joueur2 turns a card face up, then loses 2 coins."""
    s = table_with(
        game,
        [["capitaine", "duchesse"], ["assassin", "comtesse"], ["duchesse", "ambassadeur"]],
        coins=[2, 3, 2],
    )
    court_before = len(s["court"])
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="doubt", seat=1)
    assert len(s["court"]) == court_before and len(s["players"][0]["hidden"]) == 2
    s = act(game, s, type="lose", seat=1, character="assassin")
    s = act(game, s, type="pass", seat=1)  # Joueur2 does not counter
    assert s["players"][0]["coins"] == 4 and s["players"][1]["coins"] == 1
    assert s["players"][1]["revealed"] == ["assassin"]
    assert s["turn"] == 1 and cards_conserved(s)


def test_example_2_doubts_then_a_proven_counter(game):
    """Exemple 2: Joueur1 claims the Capitaine against Joueur2; Joueur3 doubts and loses a
    card; Joueur2 counters with the Ambassadeur; Joueur3 doubts again, loses its last card and
    is eliminated; the counter stands and Joueur1's action fails."""
    s = table_with(
        game,
        [["capitaine", "duchesse"], ["ambassadeur", "comtesse"], ["assassin", "duchesse"]],
        coins=[2, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    assert game.to_act(s) == [1, 2]
    s = act(game, s, type="doubt", seat=2)
    s = act(game, s, type="lose", seat=2, character="assassin")
    assert game.to_act(s) == [1]  # the target may counter
    s = act(game, s, type="counter", seat=1, character="ambassadeur")
    assert game.to_act(s) == [2, 0]  # anyone may doubt the counter
    s = act(game, s, type="doubt", seat=2)
    assert 2 in s["out"] and s["players"][2]["coins"] == 0
    assert s["treasury"] == rules.COINS_TOTAL - 4
    assert s["players"][0]["coins"] == 2 and s["players"][1]["coins"] == 2  # no theft
    assert s["truth"][1] and s["claims"][1]["loser"] == 2
    assert s["turn"] == 1 and cards_conserved(s)


# --------------------------------------------------------------------------- the rules around them


def test_a_caught_assassin_bluff_pays_nothing(game):
    s = table_with(
        game,
        [["duchesse", "duchesse"], ["capitaine", "comtesse"], ["assassin", "ambassadeur"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="doubt", seat=2)
    # both hidden cards are Duchesses: the loss is taken at once
    assert s["players"][0]["coins"] == 3 and s["players"][0]["revealed"] == ["duchesse"]
    assert s["players"][1]["revealed"] == [] and s["turn"] == 1


def test_a_countered_assassin_has_paid(game):
    s = table_with(
        game,
        [["assassin", "duchesse"], ["comtesse", "capitaine"], ["duchesse", "ambassadeur"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="counter", seat=1, character="comtesse")
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=0)
    assert s["players"][0]["coins"] == 0 and s["players"][1]["revealed"] == []
    assert s["turn"] == 1


def test_ten_coins_force_an_assassination(game):
    s = table_with(
        game,
        [["duchesse", "capitaine"], ["comtesse", "capitaine"], ["duchesse", "assassin"]],
        coins=[10, 2, 2],
    )
    legal = game.legal_actions(s, 0)
    assert {a["type"] for a in legal} == {"assassinat"}
    with pytest.raises(IllegalAction):
        act(game, s, type="revenu", seat=0)
    s = act(game, s, type="assassinat", seat=0, target=2)
    assert s["players"][0]["coins"] == 3
    s = act(game, s, type="lose", seat=2, character="duchesse")
    assert s["players"][2]["revealed"] == ["duchesse"] and s["turn"] == 1


def test_an_assassination_needs_seven_coins(game):
    s = table_with(game, [["duchesse", "capitaine"], ["comtesse", "capitaine"]], coins=[6, 2])
    assert not any(a["type"] == "assassinat" for a in game.legal_actions(s, 0))


def test_seven_to_nine_coins_allow_an_assassination_among_the_other_actions(game):
    for coins in (7, 9):
        s = table_with(
            game, [["duchesse", "capitaine"], ["comtesse", "capitaine"]], coins=[coins, 2]
        )
        legal = game.legal_actions(s, 0)
        assert {"type": "assassinat", "seat": 0, "target": 1} in legal
        assert {"type": "revenu", "seat": 0} in legal and {"type": "aide", "seat": 0} in legal
        assert {"type": "claim", "seat": 0, "character": "duchesse"} in legal


def test_a_revealed_character_has_lost_its_power(game):
    s = table_with(game, [["capitaine"], ["comtesse", "assassin"], ["duchesse", "ambassadeur"]])
    s["players"][0]["revealed"] = ["duchesse"]
    s["court"].remove("duchesse")
    s = act(game, s, type="claim", seat=0, character="duchesse")
    s = act(game, s, type="doubt", seat=1)
    assert 0 in s["out"] and s["players"][0]["coins"] == 0
    assert s["truth"][0] is False


def test_elimination_returns_coins_to_the_treasury(game):
    s = table_with(
        game,
        [["assassin", "duchesse"], ["capitaine"], ["duchesse", "ambassadeur"]],
        coins=[7, 5, 2],
    )
    s["players"][1]["revealed"] = ["comtesse"]
    s["court"].remove("comtesse")
    before = s["treasury"]
    s = act(game, s, type="assassinat", seat=0, target=1)
    assert 1 in s["out"] and s["players"][1]["coins"] == 0
    assert s["treasury"] == before + 7 + 5
    assert rules.coin_total(s) == rules.COINS_TOTAL


def test_the_captain_takes_one_coin_from_a_poor_player_and_never_targets_an_empty_purse(game):
    s = table_with(
        game,
        [["capitaine", "duchesse"], ["comtesse", "assassin"], ["duchesse", "ambassadeur"]],
        coins=[2, 1, 0],
    )
    targets = {
        a.get("target") for a in game.legal_actions(s, 0) if a.get("character") == "capitaine"
    }
    assert targets == {1}
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=1)
    assert s["players"][0]["coins"] == 3 and s["players"][1]["coins"] == 0


def test_anyone_may_counter_foreign_aid_with_a_duchess(game):
    s = table_with(
        game, [["capitaine", "assassin"], ["comtesse", "assassin"], ["capitaine", "ambassadeur"]]
    )
    s = act(game, s, type="aide", seat=0)
    assert game.turn_kind(s) == "public" and game.to_act(s) == [1, 2]
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="counter", seat=2, character="duchesse")  # a bluff
    s = act(game, s, type="pass", seat=0)
    s = act(game, s, type="pass", seat=1)
    assert s["players"][0]["coins"] == 2  # the counter stood, bluff or not
    assert s["turn"] == 1


def test_only_the_target_may_counter_a_targeted_power(game):
    s = table_with(
        game, [["capitaine", "assassin"], ["comtesse", "assassin"], ["capitaine", "ambassadeur"]]
    )
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert game.to_act(s) == [1] and game.turn_kind(s) == "each"  # the target, privately
    assert game.legal_actions(s, 2) == []
    kinds = {a.get("character") for a in game.legal_actions(s, 1) if a["type"] == "counter"}
    assert kinds == {"capitaine", "ambassadeur"}  # the Inquisiteur is not in this variant


def test_the_ambassador_exchanges_with_the_court(game):
    s = table_with(
        game,
        [["ambassadeur", "comtesse"], ["comtesse", "assassin"], ["capitaine", "duchesse"]],
        court=["duchesse", "assassin"],
    )
    s = act(game, s, type="claim", seat=0, character="ambassadeur")
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert game.to_act(s) == [0] and sorted(s["players"][0]["drawn"]) == ["assassin", "duchesse"]
    options = game.legal_actions(s, 0)
    assert {"type": "keep", "seat": 0, "cards": ["assassin", "duchesse"]} in options
    assert len(options) == 6  # pairs among four different cards
    court = len(s["court"])
    s = act(game, s, type="keep", seat=0, cards=["assassin", "duchesse"])
    assert hidden(s, 0) == ["assassin", "duchesse"] and len(s["court"]) == court + 2
    assert cards_conserved(s) and s["turn"] == 1


def test_the_inquisitor_looks_at_a_card_and_may_discard_it(game):
    s = table_with(
        game,
        [["inquisiteur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        variant="inquisiteur",
    )
    legal = game.legal_actions(s, 0)
    assert {"type": "claim", "seat": 0, "character": "inquisiteur", "mode": "exchange"} in legal
    s = act(game, s, type="claim", seat=0, character="inquisiteur", mode="inspect", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert game.to_act(s) == [1]  # the target chooses the card it shows
    s = act(game, s, type="show", seat=1, character="duchesse")
    assert game.view(s, 0)["step"]["card"] == "duchesse"
    assert "card" not in game.view(s, 2)["step"]
    private = [e for e in s["log"] if e["key"] == "shown_private"]
    assert private and private[0]["to"] == [1, 0]
    s = act(game, s, type="discard", seat=0)
    assert len(s["players"][1]["hidden"]) == 2 and cards_conserved(s)


def test_the_inquisitor_exchanges_one_card(game):
    s = table_with(
        game,
        [["inquisiteur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        variant="inquisiteur",
        court=["assassin"],
    )
    s = act(game, s, type="claim", seat=0, character="inquisiteur", mode="exchange")
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert s["players"][0]["drawn"] == ["assassin"]
    s = act(game, s, type="keep", seat=0, cards=["assassin", "comtesse"])
    assert hidden(s, 0) == ["assassin", "comtesse"] and cards_conserved(s)


def test_two_player_setup(game):
    setup = game.normalize_setup({"seed": "deux", "players": 2, "bots": 2})
    s = game.new_game(setup)
    first = s["turn"]
    assert s["players"][first]["coins"] == 1 and s["players"][1 - first]["coins"] == 2
    assert len(s["court"]) == 3
    assert all(len(p["hidden"]) == 1 and len(p["aside"]) == 5 for p in s["players"])
    assert sorted(game.to_act(s)) == [0, 1] and game.turn_kind(s) == "each"
    s = act(game, s, type="pick", seat=0, character="duchesse")
    assert game.to_act(s) == [1]
    s = act(game, s, type="pick", seat=1, character="assassin")
    assert game.to_act(s) == [first]
    assert all(len(p["hidden"]) == 2 and len(p["aside"]) == 4 for p in s["players"])
    assert rules.card_total(s) == 15 and rules.coin_total(s) == rules.COINS_TOTAL
    assert "aside_cards" not in game.view(s, 1)["players"][0]


def test_seven_players_play_with_twenty_cards(game):
    s = game.new_game(game.normalize_setup({"seed": "sept", "players": 7, "bots": 7}))
    assert rules.card_total(s) == 20 and len(s["court"]) == 6


def test_a_claims_truth_is_secret_until_doubted(game):
    s = table_with(
        game, [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine", "duchesse"]]
    )
    s = act(game, s, type="claim", seat=0, character="duchesse")
    assert game.view(s, 1)["truth"][0] is None and "true" not in game.view(s, 1)["claims"][0]
    assert game.view(s, 0)["truth"][0] is True


def test_bad_actions_are_refused_with_the_engines_errors(game):
    s = table_with(
        game, [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine", "duchesse"]]
    )
    for bad in (
        None,
        {"type": "revenu"},
        {"type": "revenu", "seat": True},
        {"type": "revenu", "seat": 1.0},
    ):
        with pytest.raises((MalformedAction, IllegalAction)):
            game.apply(s, bad)
    with pytest.raises(IllegalAction):
        act(game, s, type="revenu", seat=1)


def test_a_damaged_state_is_refused(game):
    s = game.new_game(game.normalize_setup({"seed": "abime", "players": 3, "bots": 3}))
    game.check_state(s)
    for bad in (
        {**s, "rng": "x"},
        {**s, "pending": {"seat": 99}},
        {**s, "treasury": s["treasury"] + 1},
        {**s, "court": s["court"][1:]},
        {**s, "variant": "marquise"},
        {**s, "steps": [{"do": "lose", "seat": 7}]},
    ):
        with pytest.raises((ValueError, KeyError, TypeError)):
            game.check_state(bad)


# --------------------------------------------------------------------------- the content's table


def test_the_table_reads_who_counters_what_from_the_content(game):
    """Section C: the Duchesse counters foreign aid, the Comtesse the Assassin (only its
    target), a Capitaine or an Ambassadeur/Inquisiteur the Capitaine; the Duchesse's tax and
    the Revenu cannot be countered."""
    table = rules.Table(game.bundle)
    assert table.counter_for("aide")["by"] == ["duchesse"]
    assert table.counter_for("assassin")["by"] == ["comtesse"]
    assert table.counter_for("assassin")["only_target"] is True
    assert set(table.counter_for("capitaine")["by"]) == {"capitaine", "ambassadeur", "inquisiteur"}
    assert table.counter_for("duchesse") is None and table.counter_for("revenu") is None
    assert table.power("duchesse") == "tax" and table.power("comtesse") == "none"
    assert table.name("assassin") == "L'Assassin" and table.short("assassin") == "Assassin"
    assert table.name("marquise") == "marquise" and table.short("marquise") == "marquise"


def test_without_a_variant_the_game_plays_the_advised_one(game):
    """The Ambassadeur is advised for the first games: a setup that names no variant plays it
    (the content marks it as the default)."""
    table = rules.Table(game.bundle)
    assert table.default_variant == "ambassadeur"
    assert list(table.variants) == ["ambassadeur", "inquisiteur"]
    seats = [{"name": f"J{i}", "bot": True} for i in range(3)]
    state = rules.new_game(table, {"seed": "x", "seats": seats})
    assert state["variant"] == "ambassadeur" and "inquisiteur" not in state["chars"]
    assert game.fields()[0].default == "ambassadeur"


def test_a_content_without_records_has_no_variant_and_is_refused(game):
    table = rules.Table({})
    assert table.characters == {} and table.variants == {} and table.counters == {}
    assert table.default_variant == "" and table.counter_for("aide") is None
    later = {
        "a": {"id": "a", "characters": []},
        "b": {"id": "b", "default": True, "characters": []},
    }
    assert rules.Table({"records": {"variant": later}}).default_variant == "b"
    empty = rules.Table({"records": {}})
    assert empty.default_variant == "" and empty.action_of == {}


# --------------------------------------------------------------------------- the end: the reveal


def _six_turn_game(game):
    """Turn 1: seat 0 bluffs a Capitaine against seat 1, nobody doubts it; turn 2: seat 1
    bluffs a Duchesse, seat 2 doubts and seat 1 loses its last card; turn 3: seat 2 claims its
    true Duchesse; turn 4: seat 0 bluffs the Capitaine again, against seat 2; turn 5: seat 2
    takes its income; turn 6: seat 0 assassinates seat 2's last card and wins."""
    s = table_with(game, [["assassin", "comtesse"], ["comtesse"], ["duchesse"]], coins=[5, 2, 2])
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=1)  # no counter
    assert s["players"][0]["coins"] == 7 and s["turn"] == 1
    s = act(game, s, type="claim", seat=1, character="duchesse")
    s = act(game, s, type="doubt", seat=2)
    assert 1 in s["out"] and s["turn"] == 2
    s = act(game, s, type="claim", seat=2, character="duchesse")
    s = act(game, s, type="pass", seat=0)
    s = act(game, s, type="claim", seat=0, character="capitaine", target=2)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=2)  # no counter
    assert s["players"][0]["coins"] == 9 and s["players"][2]["coins"] == 3
    s = act(game, s, type="revenu", seat=2)
    return act(game, s, type="assassinat", seat=0, target=2)


def test_the_last_survivor_wins_and_the_others_rank_by_when_they_fell(game):
    s = _six_turn_game(game)
    assert s["winner"] == 0 and s["out"] == [1, 2] and s["out_turns"] == [2, 6]
    assert game.to_act(s) == [] and s["steps"] == []
    assert _told(s)[-3:] == [
        ("lose", {"seat": 2, "character": "duchesse", "why": "assassinat"}, None),
        ("eliminated", {"seat": 2, "n": 4}, None),
        ("winner", {"seat": 0}, None),
    ]
    out = game.outcome(s)
    names = [seat["name"] for seat in s["seats"]]
    assert out.winners == [0] and names[0] in out.summary
    assert [r["seat"] for r in out.ranking] == [0, 2, 1]
    assert [r["rank"] for r in out.ranking] == [1, 2, 3]
    assert out.scores == {0: 2, 2: 0, 1: 0}  # the winner still hides its two characters
    assert out.ranking[1]["details"] == [T.UI["rank_details_out"].format(turn=6)]
    assert out.ranking[2]["details"] == [T.UI["rank_details_out"].format(turn=2)]
    hidden = T.UI["rank_details_hidden"].format(hidden="2 personnages encore cachés")
    assert out.ranking[0]["details"] == [T.UI["rank_details_alive"], hidden]
    assert out.ranking[0]["name"] == names[0] and names[0] in out.why


def test_the_reveal_tells_every_claim_and_the_bluffs_nobody_caught(game):
    s = _six_turn_game(game)
    names = [seat["name"] for seat in s["seats"]]
    reveal, bluffs = game.outcome(s).widgets
    assert reveal["title"] == T.UI["reveal"] and bluffs["title"] == T.UI["bluffs"]
    assert reveal["area"] == bluffs["area"] == "main" and reveal["ordered"] is True
    first, second, third, fourth = reveal["items"]
    assert first == T.claim_text(s["claims"][0], names) + " : bluff ; personne n'a douté"
    assert names[1] in first and "Tour 1" in first
    doubted = " : bluff ; mis en doute par " + names[2] + ", " + names[1] + " perd un personnage"
    assert second == T.claim_text(s["claims"][1], names) + doubted
    assert third == T.claim_text(s["claims"][2], names) + " : vrai ; personne n'a douté"
    assert fourth.startswith("Tour 4") and fourth.endswith(": bluff ; personne n'a douté")
    # two bluffs nobody doubted; the caught one and the true claim are not counted
    assert bluffs["items"] == [f"{names[0]} : 2"]


def test_the_reveal_of_a_game_without_claims(game):
    s = table_with(game, [["duchesse"], ["comtesse"]], coins=[7, 2])
    s = act(game, s, type="assassinat", seat=0, target=1)
    assert s["winner"] == 0
    out = game.outcome(s)
    hidden = T.UI["rank_details_hidden"].format(hidden="1 personnage encore caché")
    assert out.ranking[0]["details"][1] == hidden
    reveal, bluffs = out.widgets
    assert reveal["items"] == ["Aucune annonce."]
    assert bluffs["items"] == [T.UI["nobody_bluffed"]]


def test_an_eliminated_player_shows_its_cards_to_all(game):
    """Both characters face up: the player is out, its coins go back to the Treasury and its
    cards stay visible to everyone."""
    s = table_with(game, [["assassin", "duchesse"], ["comtesse"], ["capitaine"]], coins=[7, 3, 2])
    s = act(game, s, type="assassinat", seat=0, target=1)
    for seat in (None, 0, 2):
        row = game.view(s, seat)["players"][1]
        assert row["name"] == s["seats"][1]["name"] and row["alive"] is False
        assert row["revealed"] == ["comtesse"] and row["coins"] == 0 and row["cards"] == 0
    assert game.view(s, None)["players"][2]["alive"] is True


def test_once_the_game_is_over_every_claims_truth_is_public(game):
    s = _six_turn_game(game)
    claims = rules.public_claims(s, 2)
    assert [c["true"] for c in claims] == [False, False, True, False]
    assert claims[0]["seat"] == 0 and claims[1]["doubted_by"] == 2
    t = table_with(game, [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine"]])
    t = act(game, t, type="claim", seat=0, character="duchesse")
    assert "true" not in rules.public_claims(t, 1)[0]
    assert rules.public_claims(t, 0)[0]["true"] is True


# --------------------------------------------------------------------------- impossible states


def _forged(state, change):
    forged = copy.deepcopy(state)
    change(forged)
    return forged


def _played(game):
    """A three-player game after one doubted claim: claims, truths and a loss to check."""
    s = table_with(
        game, [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine", "duchesse"]]
    )
    s = act(game, s, type="claim", seat=0, character="duchesse")
    return act(game, s, type="doubt", seat=1)


def _move_coins(state, coins):
    """Seat 1 holds ``coins``, the Treasury the rest of the 54."""
    state["treasury"] += state["players"][1]["coins"] - coins
    state["players"][1]["coins"] = coins


def _more_seats(state, k):
    """``k`` more seats, each with an empty hand and no coin."""
    for i in range(k):
        state["seats"].append({"name": f"X{i}", "bot": True, "persona": None})
        state["players"].append(
            {"coins": 0, "hidden": [], "revealed": [], "aside": [], "drawn": []}
        )


def _set(key, value):
    return lambda s: s.__setitem__(key, value)


#: (what is broken, the part of the message that says so): the material of the rulebook
#: (54 coins, 15 cards of five characters, 20 at seven and eight, 2 to 8 players) and the
#: state's own bookkeeping
BROKEN = [
    (_set("game", "roi"), "not a Complots state"),
    (lambda s: s.pop("winner"), "unexpected keys ['winner']"),
    (lambda s: s.update(pending=None), "unexpected keys ['pending']"),
    (_set("rng", -1), "bad generator"),
    (_set("rng", 1 << 64), "bad generator"),
    (_set("rng", "7"), "bad generator"),
    (_set("treasury", True), "bad treasury"),
    (_set("turn", "0"), "bad turn"),
    (_set("turn_no", 1.0), "bad turn_no"),
    (_set("copies", None), "bad copies"),
    (_set("turn", 3), "bad seats"),
    (_set("turn", -1), "bad seats"),
    (lambda s: s["seats"].pop(), "bad seats"),
    (lambda s: _more_seats(s, 6), "bad seats"),
    (_set("variant", "marquise"), "unknown variant"),
    (lambda s: s["chars"].reverse(), "characters in play differ from the variant"),
    (_set("winner", 3), "bad winner"),
    (_set("winner", -1), "bad winner"),
    (_set("winner", "0"), "bad winner"),
    (_set("winner", False), "bad winner"),
    (lambda s: s["steps"].append("end"), "bad step"),
    (lambda s: s["steps"].append({"do": "dance"}), "bad step"),
    (lambda s: s["steps"].append({"do": "doubt", "waiting": [1, 3]}), "bad seat in a step"),
    (lambda s: s["steps"].append({"do": "lose", "seat": -1}), "bad seat in a step"),
    (lambda s: s["steps"].append({"do": "keep", "seat": True}), "bad seat in a step"),
    (lambda s: s["claims"][0].update(character="marquise"), "bad claim"),
    (lambda s: s["claims"].append(["duchesse"]), "bad claim"),
    (_set("truth", [1]), "bad claim truth"),
    (lambda s: s["truth"].append(True), "claims and their truth differ in length"),
    (lambda s: s["court"].append(3), "bad Court"),
    (lambda s: s["court"].pop(), "14 cards instead of 15"),
    (lambda s: s["court"].append("duchesse"), "16 cards instead of 15"),
    (_set("copies", 4), "4 copies of each character instead of 3"),
    (
        lambda s: s["court"].__setitem__(s["court"].index("assassin"), "capitaine"),
        "2 copies of 'assassin' instead of 3",
    ),
    (
        lambda s: s["players"][0].update(coins=s["players"][0]["coins"] + 1),
        "55 coins instead of 54",
    ),
    (lambda s: _move_coins(s, -1), "bad coins"),
    (lambda s: s["players"][1].update(coins=2.0), "bad coins"),
    (lambda s: _move_coins(s, s["players"][1]["coins"] + s["treasury"] + 1), "negative treasury"),
]


@pytest.mark.parametrize(("change", "fault"), BROKEN)
def test_an_impossible_state_is_refused_with_its_fault(game, change, fault):
    s = _played(game)
    game.check_state(s)
    with pytest.raises(ValueError, match=f"^{re.escape(fault)}$"):
        game.check_state(_forged(s, change))


def test_the_states_of_every_table_size_and_their_edges_are_accepted(game):
    for n in (2, 3, 6, 7, 8):
        s = game.new_game(game.normalize_setup({"seed": f"bord{n}", "players": n, "bots": n}))
        game.check_state(s)
        assert s["copies"] == (4 if n >= 7 else 3)
        last = n - 1
        for change in (
            _set("rng", 0),
            _set("rng", (1 << 64) - 1),
            _set("turn", last),
            _set("winner", last),
            _set("winner", 0),
            lambda s, last=last: s["steps"].append({"do": "doubt", "waiting": [0, last]}),
            lambda s: s["steps"].append({"do": "end"}),
            lambda s: _move_coins(s, s["players"][1]["coins"] + s["treasury"]),
        ):
            game.check_state(_forged(s, change))
    with pytest.raises(ValueError, match="not a Complots state"):
        game.check_state(["complots"])


def test_each_player_sees_its_own_cards_and_only_the_number_of_the_others(game):
    """Players may look at their own cards at any time, face down for the others; the money
    is always visible."""
    s = table_with(
        game,
        [["ambassadeur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        court=["assassin", "capitaine"],
        coins=[2, 4, 3],
    )
    v = game.view(s, 0)
    assert v["game"] == "complots" and v["variant"] == "ambassadeur" and v["step"] is None
    assert v["treasury"] == rules.COINS_TOTAL - 9 and v["court"] == len(s["court"])
    assert (v["turn"], v["turn_no"], v["to_act"], v["ctx"]) == (0, 1, [0], None)
    assert v["out"] == [] and v["winner"] is None
    assert v["players"][0]["hidden"] == ["ambassadeur", "comtesse"]
    assert v["players"][0]["drawn"] == [] and v["players"][0]["aside_cards"] == []
    assert [row["coins"] for row in v["players"]] == [2, 4, 3]
    assert all("hidden" not in row for row in v["players"][1:])
    last = game.view(s, 2)["players"]
    assert last[2]["hidden"] == ["capitaine", "duchesse"]
    assert all("hidden" not in row for row in last[:2])
    for watcher in (None, 3):  # nobody's view, or (the rules alone) a seat beyond the table
        rows = rules.view(game.table, s, watcher)["players"]
        assert all("hidden" not in row for row in rows)
    s = act(game, s, type="claim", seat=0, character="ambassadeur")
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert game.view(s, 0)["players"][0]["drawn"] == ["assassin", "capitaine"]
    assert game.view(s, 0)["step"] == {"do": "keep", "seat": 0}
    ctx = game.view(s, 1)["ctx"]
    assert ctx["actor"] == 0 and ctx["character"] == "ambassadeur" and ctx["act"] == "claim"
    assert "drawn" not in game.view(s, 1)["players"][0]


def test_in_the_two_player_game_each_sees_its_own_packet(game):
    s = game.new_game(game.normalize_setup({"seed": "paquet", "players": 2, "bots": 2}))
    for seat in (0, 1):
        rows = game.view(s, seat)["players"]
        assert rows[seat]["aside_cards"] == sorted(s["chars"]) and rows[seat]["aside"] == 5
        assert "aside_cards" not in rows[1 - seat]


def _entries(state, key):
    return [e["args"] for e in state["log"] if e["key"] == key]


def test_income_foreign_aid_and_the_duchess_take_from_the_treasury(game):
    """Revenu: one coin; Aide étrangère: two, when no Duchesse counters it; La Duchesse: three.
    When the Treasury runs short, the player takes what is left (the rules page's choice)."""
    hands = [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine", "ambassadeur"]]
    s = table_with(game, hands, coins=[2, 2, 2])
    s = act(game, s, type="revenu", seat=0)
    assert s["players"][0]["coins"] == 3 and _entries(s, "revenu")[-1]["n"] == 1
    s = act(game, s, type="aide", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=0)
    assert s["players"][1]["coins"] == 4 and s["treasury"] == rules.COINS_TOTAL - 9
    assert _entries(s, "aide_done") == [{"seat": 1, "n": 2, "seat_name": s["seats"][1]["name"]}]
    s = act(game, s, type="revenu", seat=2)
    s = act(game, s, type="claim", seat=0, character="duchesse")
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    assert s["players"][0]["coins"] == 6
    tax = _entries(s, "tax")
    assert [(t["seat"], t["character"], t["n"]) for t in tax] == [(0, "duchesse", 3)]
    short = table_with(game, hands, coins=[2, 2, 2])
    short["players"][1]["coins"] += short["treasury"] - 1
    short["treasury"] = 1
    short = act(game, short, type="aide", seat=0)
    short = act(game, short, type="pass", seat=1)
    short = act(game, short, type="pass", seat=2)
    assert short["players"][0]["coins"] == 3 and short["treasury"] == 0
    assert _entries(short, "aide_done")[-1]["n"] == 1


def test_the_assassins_target_loses_a_character_of_its_choice(game):
    s = table_with(
        game,
        [["assassin", "duchesse"], ["capitaine", "ambassadeur"], ["duchesse", "comtesse"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=1)  # no Comtesse
    assert game.to_act(s) == [1] and s["steps"][0] == {"do": "lose", "seat": 1, "why": "assassin"}
    s = act(game, s, type="lose", seat=1, character="ambassadeur")
    assert _entries(s, "lose")[-1]["why"] == "assassin"
    assert s["players"][1]["revealed"] == ["ambassadeur"] and s["turn"] == 1


def test_a_captain_steals_nothing_from_a_target_the_doubt_eliminated(game):
    """The target doubts a true Capitaine with its last card: it is out, its coins are back in
    the Treasury, and the theft takes nothing (no theft is told)."""
    s = table_with(
        game,
        [["capitaine", "duchesse"], ["assassin"], ["duchesse", "comtesse"]],
        coins=[2, 3, 2],
    )
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="doubt", seat=1)
    assert 1 in s["out"] and s["players"][0]["coins"] == 2 and s["turn"] == 2
    assert _entries(s, "steal") == []


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("revenu", "an action is a JSON object"),
        ({"seat": 0}, "no action type"),
        ({"type": 3, "seat": 0}, "no action type"),
        ({"type": "revenu", "seat": 0, "flag": True}, "'flag' has the wrong type"),
        ({"type": "revenu", "seat": 0, "x": 1.5}, "'x' has the wrong type"),
        ({"type": "keep", "seat": 0, "cards": ["duchesse", 2]}, "'cards' has the wrong type"),
        ({"type": "revenu", "seat": 0, "more": {"a": 1}}, "'more' has the wrong type"),
        ({"type": "revenu"}, "an action names its seat"),
        ({"type": "revenu", "seat": "0"}, "an action names its seat"),
        ({"type": "revenu", "seat": True}, "'seat' has the wrong type"),
    ],
)
def test_a_malformed_action_is_refused_before_the_rules_read_it(game, bad, why):
    s = table_with(game, [["duchesse", "comtesse"], ["comtesse", "assassin"]])
    with pytest.raises(MalformedAction) as caught:
        game.apply(s, bad)
    assert caught.value.why == why and caught.value.where == "complots, turn 1"
    assert caught.value.action is bad


def test_a_well_formed_action_the_rules_do_not_allow_is_illegal(game):
    s = table_with(game, [["duchesse", "comtesse"], ["comtesse", "assassin"]])
    for bad in (
        {"type": "revenu", "seat": 0, "note": None},
        {"type": "keep", "seat": 0, "cards": ["duchesse", "comtesse"]},
        {"type": "claim", "seat": 0, "character": "inquisiteur"},
    ):
        with pytest.raises(IllegalAction) as caught:
            game.apply(s, bad)
        assert caught.value.why == "not a legal action now"
        assert caught.value.action == rules.canonical(bad)
        assert caught.value.where == "complots, turn 1"
    assert rules.canonical({"type": "keep", "seat": 0, "cards": ["b", "a"]})["cards"] == ["a", "b"]
    assert rules.canonical({"type": "keep", "cards": ["b", 1]})["cards"] == ["b", 1]
    assert rules.canonical("keep") == "keep"


# --------------------------------------------------------------------------- what the table is told


def _told(state):
    """The log as (key, arguments without the seats' names, who alone is told); every seat
    named in an entry also carries its name."""
    out = []
    for e in state["log"]:
        args = dict(e["args"])
        for k in rules.SEAT_ARGS:
            if isinstance(args.get(k), int):
                assert args.pop(k + "_name") == state["seats"][args[k]]["name"]
        assert not any(k.endswith("_name") for k in args)
        out.append((e["key"], args, e.get("to")))
    return out


def test_an_exchange_shows_the_drawn_and_kept_cards_to_the_ambassador_alone(game):
    s = table_with(
        game,
        [["ambassadeur", "comtesse"], ["comtesse", "assassin"], ["capitaine", "duchesse"]],
        court=["duchesse", "assassin"],
    )
    s = act(game, s, type="claim", seat=0, character="ambassadeur")
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="keep", seat=0, cards=["assassin", "duchesse"])
    assert _told(s) == [
        ("claim_action", {"seat": 0, "character": "ambassadeur", "target": None}, None),
        ("unchallenged", {"seat": 0, "character": "ambassadeur"}, None),
        ("exchange", {"seat": 0, "n": 2}, None),
        ("drawn_private", {"seat": 0, "cards": ["duchesse", "assassin"]}, [0]),
        ("kept", {"seat": 0, "n": 2}, None),
        ("kept_private", {"seat": 0, "cards": ["assassin", "duchesse"]}, [0]),
        ("turn", {"seat": 1, "turn": 2}, None),
    ]


def test_example_2_as_the_table_is_told(game):
    s = table_with(
        game,
        [["capitaine", "duchesse"], ["ambassadeur", "comtesse"], ["assassin", "duchesse"]],
        coins=[2, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    s = act(game, s, type="doubt", seat=2)
    s = act(game, s, type="lose", seat=2, character="assassin")
    s = act(game, s, type="counter", seat=1, character="ambassadeur")
    s = act(game, s, type="doubt", seat=2)
    told = _told(s)
    drawn = [args["card"] for key, args, _ in told if key == "redraw_private"]
    assert drawn[0] in s["players"][0]["hidden"] and drawn[1] in s["players"][1]["hidden"]
    assert told == [
        ("claim_action", {"seat": 0, "character": "capitaine", "target": 1}, None),
        ("doubt", {"seat": 2, "claimant": 0, "character": "capitaine"}, None),
        ("proven", {"seat": 0, "character": "capitaine", "doubter": 2}, None),
        ("redraw_private", {"seat": 0, "card": drawn[0]}, [0]),
        ("lose", {"seat": 2, "character": "assassin", "why": "doubt"}, None),
        ("claim_counter", {"seat": 1, "character": "ambassadeur", "target": 0}, None),
        ("doubt", {"seat": 2, "claimant": 1, "character": "ambassadeur"}, None),
        ("proven", {"seat": 1, "character": "ambassadeur", "doubter": 2}, None),
        ("redraw_private", {"seat": 1, "card": drawn[1]}, [1]),
        ("lose", {"seat": 2, "character": "duchesse", "why": "doubt"}, None),
        ("eliminated", {"seat": 2, "n": 2}, None),
        ("turn", {"seat": 1, "turn": 2}, None),
    ]


def test_a_theft_and_a_look_as_the_table_is_told(game):
    s = table_with(
        game,
        [["capitaine", "comtesse"], ["comtesse", "assassin"], ["duchesse", "ambassadeur"]],
        coins=[2, 1, 0],
    )
    s = act(game, s, type="claim", seat=0, character="capitaine", target=1)
    for seat in (1, 2, 1):
        s = act(game, s, type="pass", seat=seat)
    assert _told(s) == [
        ("claim_action", {"seat": 0, "character": "capitaine", "target": 1}, None),
        ("unchallenged", {"seat": 0, "character": "capitaine"}, None),
        ("no_counter", {"actor": 0}, None),
        ("steal", {"seat": 0, "target": 1, "n": 1}, None),
        ("turn", {"seat": 1, "turn": 2}, None),
    ]
    s = table_with(
        game,
        [["inquisiteur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        variant="inquisiteur",
        court=["assassin"],
    )
    s = act(game, s, type="claim", seat=0, character="inquisiteur", mode="inspect", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="show", seat=1, character="duchesse")
    s = act(game, s, type="discard", seat=0)
    told = _told(s)
    new = told[5][1]["card"]
    assert sorted(s["players"][1]["hidden"]) == sorted(["assassin", new])
    assert told == [
        ("claim_action", {"seat": 0, "character": "inquisiteur", "target": 1}, None),
        ("unchallenged", {"seat": 0, "character": "inquisiteur"}, None),
        ("shown", {"seat": 1, "by": 0}, None),
        ("shown_private", {"seat": 1, "by": 0, "card": "duchesse"}, [1, 0]),
        ("discarded", {"seat": 0, "target": 1}, None),
        ("redraw_private", {"seat": 1, "card": new}, [1]),
        ("turn", {"seat": 1, "turn": 2}, None),
    ]


def test_a_countered_assassin_and_a_caught_bluff_as_the_table_is_told(game):
    s = table_with(
        game,
        [["assassin", "duchesse"], ["comtesse", "capitaine"], ["duchesse", "ambassadeur"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="counter", seat=1, character="comtesse")
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=0)
    s = act(game, s, type="claim", seat=1, character="duchesse")
    s = act(game, s, type="doubt", seat=0)
    assert _told(s) == [
        ("claim_action", {"seat": 0, "character": "assassin", "target": 1}, None),
        ("unchallenged", {"seat": 0, "character": "assassin"}, None),
        ("paid", {"seat": 0, "n": 3}, None),
        ("claim_counter", {"seat": 1, "character": "comtesse", "target": 0}, None),
        ("unchallenged", {"seat": 1, "character": "comtesse"}, None),
        ("countered", {"seat": 1, "actor": 0}, None),
        ("turn", {"seat": 1, "turn": 2}, None),
        ("claim_action", {"seat": 1, "character": "duchesse", "target": None}, None),
        ("doubt", {"seat": 0, "claimant": 1, "character": "duchesse"}, None),
        ("caught", {"seat": 1, "character": "duchesse", "doubter": 0}, None),
    ]
    assert s["steps"][0] == {"do": "lose", "seat": 1, "why": "bluff"}


def test_the_deal_is_told_to_each_player_alone(game):
    s = game.new_game(game.normalize_setup({"seed": "trois", "players": 3, "bots": 3}))
    first = s["turn"]
    assert _told(s) == [
        ("setup", {"n": 3, "variant": "ambassadeur", "first": first, "copies": 3}, None),
        *[("deal", {"seat": i, "cards": s["players"][i]["hidden"]}, [i]) for i in range(3)],
        ("turn", {"seat": first, "turn": 1}, None),
    ]
    s = game.new_game(game.normalize_setup({"seed": "deux", "players": 2, "bots": 2}))
    first, dealt = s["turn"], [p["hidden"][0] for p in s["players"]]
    s = act(game, s, type="pick", seat=0, character="duchesse")
    s = act(game, s, type="pick", seat=1, character="assassin")
    assert _told(s) == [
        ("setup", {"n": 2, "variant": "ambassadeur", "first": first, "copies": 3}, None),
        ("pick_deal", {"seat": 0, "card": dealt[0]}, [0]),
        ("pick_deal", {"seat": 1, "card": dealt[1]}, [1]),
        ("picked", {"seat": 0}, None),
        ("picked_private", {"seat": 0, "card": "duchesse"}, [0]),
        ("picked", {"seat": 1}, None),
        ("picked_private", {"seat": 1, "card": "assassin"}, [1]),
        ("turn", {"seat": first, "turn": 1}, None),
    ]


def test_income_aid_and_an_assassination_as_the_table_is_told(game):
    hands = [["duchesse", "comtesse"], ["comtesse", "assassin"], ["capitaine", "ambassadeur"]]
    s = table_with(game, hands, coins=[2, 2, 7])
    s = act(game, s, type="revenu", seat=0)
    s = act(game, s, type="aide", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="pass", seat=0)
    s = act(game, s, type="assassinat", seat=2, target=0)
    assert s["steps"][0] == {"do": "lose", "seat": 0, "why": "assassinat"}
    assert _told(s) == [
        ("revenu", {"seat": 0, "n": 1}, None),
        ("turn", {"seat": 1, "turn": 2}, None),
        ("aide", {"seat": 1}, None),
        ("no_counter", {"actor": 1}, None),
        ("aide_done", {"seat": 1, "n": 2}, None),
        ("turn", {"seat": 2, "turn": 3}, None),
        ("assassinat", {"seat": 2, "target": 0, "n": 7}, None),
    ]


def test_a_claim_is_recorded_with_its_turn_role_and_target_and_the_look_with_its_mode(game):
    s = table_with(
        game,
        [["inquisiteur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        variant="inquisiteur",
    )
    before = s
    s = act(game, s, type="claim", seat=0, character="inquisiteur", mode="inspect", target=1)
    assert s["claims"] == [
        {
            "turn": 1,
            "seat": 0,
            "character": "inquisiteur",
            "role": "action",
            "target": 1,
            "doubted_by": None,
            "loser": None,
            "mode": "inspect",
        }
    ]
    assert game.view(s, 2)["ctx"] == {
        "actor": 0,
        "act": "claim",
        "character": "inquisiteur",
        "target": 1,
        "mode": "inspect",
        "claim": 0,
        "counter": None,
    }
    waiting = list(s["steps"][0]["waiting"])
    after = act(game, s, type="pass", seat=1)
    assert s["steps"][0]["waiting"] == waiting == [1, 2]  # apply leaves its state as it was
    assert after["steps"][0]["waiting"] == [2] and before["claims"] == []
    t = act(game, before, type="claim", seat=0, character="inquisiteur", mode="exchange")
    assert "mode" not in t["claims"][0] and t["ctx"]["mode"] == "exchange"


def test_the_inquisitor_may_give_the_card_back(game):
    s = table_with(
        game,
        [["inquisiteur", "comtesse"], ["duchesse", "assassin"], ["capitaine", "duchesse"]],
        variant="inquisiteur",
    )
    s = act(game, s, type="claim", seat=0, character="inquisiteur", mode="inspect", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="show", seat=1, character="assassin")
    court = list(s["court"])
    s = act(game, s, type="spare", seat=0)
    assert hidden(s, 1) == ["assassin", "duchesse"] and s["court"] == court
    assert _told(s)[-2:] == [
        ("spared", {"seat": 0, "target": 1}, None),
        ("turn", {"seat": 1, "turn": 2}, None),
    ]


def test_a_counter_is_the_turns_context_until_it_is_resolved(game):
    s = table_with(
        game,
        [["assassin", "duchesse"], ["comtesse", "capitaine"], ["duchesse", "ambassadeur"]],
        coins=[3, 2, 2],
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    s = act(game, s, type="counter", seat=1, character="comtesse")
    ctx = game.view(s, 2)["ctx"]
    assert (ctx["claim"], ctx["counter"]) == (0, 1)
    assert s["claims"][1]["role"] == "counter" and s["claims"][1]["target"] == 0


def test_the_seats_keep_their_names_players_and_personas(game):
    setup = game.normalize_setup(
        {"seed": "places", "players": 3, "bots": 2, "persona": ["malin", "prudent", "malin"]}
    )
    s = game.new_game(setup)
    assert [seat["name"] for seat in s["seats"]] == [seat["name"] for seat in setup["seats"]]
    assert [seat["bot"] for seat in s["seats"]] == [bool(x.get("bot")) for x in setup["seats"]]
    assert [seat["persona"] for seat in s["seats"]] == [x.get("persona") for x in setup["seats"]]
    assert any(seat["bot"] for seat in s["seats"]) and not all(seat["bot"] for seat in s["seats"])
    assert any(seat["persona"] for seat in s["seats"])
