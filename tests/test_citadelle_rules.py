"""The 7th Citadel, rule by rule, with the rulebook's own examples: its calculations (successes,
half-stars, conversions, versions, Récupération) and the choices it leaves to the players,
set up with ``engine.citadelle.situation`` so that each test reads like the example."""

from __future__ import annotations

import signal

import pytest

from engine.citadelle import cards as K
from engine.citadelle import records as rec
from engine.citadelle import rules as R
from engine.citadelle.situation import consequence, find, place, play, situation
from engine.citadelle.turn import apply, legal_actions
from engine.core import IllegalAction
from pipeline.story.bundles import bundle_for

FLAIL = {"classes": ["might", "agility", "wits", "faith"], "count": 3, "into": "success", "max": 2}
SWORD = {"classes": ["might"], "count": 1, "into": "success", "max": 3}


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def card(stars=0, halves=(), classes=()):
    return {"result": {"stars": stars, "half_stars": list(halves), "classes": list(classes)}}


def last(state: dict, key: str) -> dict:
    return next(e["args"] for e in reversed(state["log"]) if e["key"] == key)


def kinds(state: dict, bundle: dict) -> set[str]:
    return {a["type"] for a in legal_actions(bundle, state)}


# --------------------------------------------------------------------------- Résultat


def test_bruno_lifts_the_rock_with_the_grain_flail():
    """3 cards drawn: a full star; a half-star with two class icons; a half-star with one.
    The halves pair (2 successes), the flail turns the 3 icons into 1 more: 3 successes."""
    drawn = [
        card(stars=1),
        card(halves=["left"], classes=["might", "wits"]),
        card(halves=["right"], classes=["agility"]),
    ]
    stars, counted = R.best_stars(drawn, None)
    assert stars == 2 and counted == [0, 1, 2]
    assert R.convert(R.class_icons(drawn), [FLAIL]) == (1, 0, [])


def test_bruno_fights_with_the_sword_chain_and_four_cards():
    """Chain, default cost 2: of 4 cards drawn only 2 count their stars (2 successes); the
    sword turns a might icon and a joker into 2 more: the die (4) falls below 1."""
    drawn = [
        card(stars=1),
        card(stars=1, classes=["joker"]),
        card(stars=1),
        card(halves=["left"], classes=["might"]),
    ]
    stars, counted = R.best_stars(drawn, limit=2)
    assert stars == 2 and len(counted) == 2
    assert R.convert(R.class_icons(drawn), [SWORD])[0] == 2
    assert 4 - (stars + 2) < 1


def test_a_chain_picks_the_cards_that_count_most():
    drawn = [card(stars=1), card(halves=["left"]), card(stars=2), card(halves=["right"])]
    assert R.best_stars(drawn, 1) == (2, [2])
    assert R.best_stars(drawn, 2) == (3, [0, 2])
    assert R.best_stars(drawn, 0) == (0, [])
    assert R.best_stars(drawn, 4)[0] == 4
    assert R.best_stars([card(halves=["left"]), card(halves=["right"])], 2) == (1, [0, 1])
    assert R.best_stars([], None) == (0, [])


@pytest.mark.parametrize(
    "order", [("right", "left"), ("left", "right")], ids=["right-first", "left-first"]
)
def test_half_stars_pair_by_orientation_whatever_the_draw_order(order):
    """A left half and a right half form a star, whichever card was drawn first (each card is
    laid beside the other the right way round); two halves of one side never do."""
    assert R.best_stars([card(halves=[order[0]]), card(halves=[order[1]])], None)[0] == 1
    assert R.best_stars([card(halves=["left"]), card(halves=["left"])], None)[0] == 0
    assert R.best_stars([card(halves=["left", "right"])], None)[0] == 0
    assert R.pairs([(1, 1), (1, 1)]) == 2 and R.pairs([(2, 0), (0, 1)]) == 1


@pytest.mark.parametrize("deck", [["a_epaule", "a_bouclier"], ["a_bouclier", "a_epaule"]])
def test_half_stars_pair_in_an_action_whatever_the_draw_order(bundle, deck):
    s = situation(bundle, ["A"], decks={"A": deck})
    s = play(bundle, s, {"title": "Fouiller les charrettes"}, {"type": "draw", "count": 2})
    assert last(s, "action.drawn")["stars"] == 1
    s = play(bundle, s, {"type": "count", "successes": 1})
    assert last(s, "action.result")["ok"]


def test_conversions_respect_max_and_cancel_damage():
    convs = [
        {"classes": ["might"], "count": 1, "into": "success", "max": 2},
        {"classes": ["might"], "count": 1, "into": "cancel_damage"},
    ]
    assert R.convert(["might"] * 5, convs) == (2, 3, [])
    assert R.convert(["faith", "joker"], [SWORD]) == (1, 0, ["faith"])
    assert R.convert(["might"] * 2, [FLAIL]) == (0, 0, ["might", "might"])
    assert R.convert(["wits"] * 7, [FLAIL]) == (2, 0, ["wits"])


def test_a_conversion_that_says_no_count_or_max_turns_each_icon_once():
    """A card's conversion written without « count » takes one icon per success, and without
    « max » as many as the icons drawn: the content format lets an author leave both out."""
    one_each = {"classes": ["might"], "into": "success"}
    assert R.convert(["might"] * 3, [one_each]) == (3, 0, [])
    assert R.convert(["might", "might", "faith"], [one_each]) == (2, 0, ["faith"])
    shield = {"classes": ["faith"], "into": "cancel_damage"}
    assert R.convert(["might", "faith", "faith"], [one_each, shield]) == (1, 2, [])
    # a conversion of zero icons converts nothing
    assert R.convert(["might"] * 2, [{**one_each, "count": 0}]) == (0, 0, ["might", "might"])


def test_version_priority_of_cards_123_and_456():
    """123: one copy per scenario symbol and a generic one; playing a third scenario, only the
    generic one may be taken.  456: the copy of the scenario being played comes first."""
    v123 = [
        {"key": "123/green@a", "scenario": "a"},
        {"key": "123/green@b", "scenario": "b"},
        {"key": "123/green", "version": "green"},
    ]
    assert R.pick_version(v123, "c", set()) == [v123[2]]
    v456 = [{"key": "456/green", "version": "green"}, {"key": "456/green@c", "scenario": "c"}]
    assert R.pick_version(v456, "c", set()) == [v456[1]]
    gold = [{"key": "7/gold", "version": "gold"}, {"key": "7/green@x", "scenario": "x"}]
    assert R.pick_version(gold, "c", set()) == [gold[0]]  # no green one: the gold one
    linked = [{"key": "9/green", "version": "green"}, {"key": "9/green+5", "linked_card": 5}]
    assert R.pick_version(linked, "c", {"5"}) == [linked[1]]
    assert R.pick_version(linked, "c", set()) == [linked[0]]
    assert R.pick_version([{"key": "8/green@x", "scenario": "x"}], "c", set()) == []


def test_ludovics_zero_cost_passage_draws_nothing_and_succeeds(bundle):
    s = situation(bundle, ["A"])
    deck = len(s["characters"][0]["deck"])
    s = play(bundle, s, {"type": "act", "source": "explore:0,1"})
    assert find(legal_actions(bundle, s), type="draw", tremor=False, count=0)
    s = play(bundle, s, {"type": "draw", "count": 0, "tremor": False})
    assert len(s["characters"][0]["deck"]) == deck
    assert last(s, "action.result")["ok"] and last(s, "action.result")["successes"] == 0
    assert s["slots"]["0,1"]["revealed"] or "0,1" in s["board"]


# --------------------------------------------------------------------------- choices


def test_participants_choose_the_active_player_of_a_mandatory_action(bundle):
    """« Ludovic et Bruno décident que Bruno est le nouveau joueur actif »: the card revealed
    by one character, everyone on the Terrain takes part and they choose who leads."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    s = consequence(bundle, s, {"take": 407}, by=0)
    assert s["pending"]["type"] == "active"
    assert legal_actions(bundle, s) == [
        {"type": "active", "character": 0},
        {"type": "active", "character": 1},
    ]
    s = apply(bundle, s, {"type": "active", "character": 1})
    assert s["action"]["character"] == 1 and sorted(s["action"]["participants"]) == [0, 1]
    assert s["action"]["mandatory"]


def test_alone_on_the_terrain_the_revealer_leads_the_mandatory_action(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    place(bundle, s, 404, "0,1")
    s["characters"][1]["at"] = "0,1"
    s = consequence(bundle, s, {"take": 407}, by=0)
    assert s["pending"]["type"] in ("prepare", "draw")
    assert s["action"]["character"] == 0 and s["action"]["participants"] == [0]


def test_an_optional_dialogue_action_may_be_declined(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 66})
    offered = legal_actions(bundle, s)
    talk = find(offered, type="act", title="Gagner la confiance de Pell")
    assert {"type": "close"} in offered
    closed = apply(bundle, s, {"type": "close"})
    assert closed["dialogue"] is None and closed["pending"]["type"] == "turn"
    taken = apply(bundle, s, talk)
    assert taken["action"]["title"] == "Gagner la confiance de Pell"


def test_skills_may_be_discarded_at_any_time(bundle):
    s = situation(bundle, ["A"], hands={"A": ["a_estoc", "a_cri"]})
    drop = {"type": "discard_skill", "character": 0, "card": "a_cri"}
    assert drop in legal_actions(bundle, s)  # between actions
    s = play(bundle, s, {"title": "Fouiller les charrettes"})
    assert s["pending"]["type"] in ("prepare", "draw") and drop in legal_actions(bundle, s)
    s = apply(bundle, s, drop)
    assert "a_cri" in s["characters"][0]["discard"] and s["action"] is not None
    d = consequence(bundle, situation(bundle, ["A"], hands={"A": ["a_cri"]}), {"read": 66})
    assert drop in legal_actions(bundle, d)  # while a dialogue is read


def test_a_skill_cannot_be_given(bundle):
    s = situation(bundle, ["A", "B"], hands={"A": ["a_estoc"]})
    assert not [a for a in legal_actions(bundle, s) if a.get("item") == "a_estoc"]


def test_blocked_purse_cards_may_be_discarded_and_given_and_stay_blocked(bundle):
    """The Piolet (weight 2) blocked under Maëlis: she may throw it away, or give it to Tobiah
    on her Terrain (it stays blocked); the giver or the receiver discards 2 cards."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", blocked={"A": [210]})
    key = s["characters"][0]["purse_blocked"][0]
    actions = legal_actions(bundle, s)
    assert {"type": "drop", "character": 0, "item": key} in actions
    given = apply(bundle, s, {"type": "give", "character": 0, "to": 1, "item": key,
                              "payer": "receiver"})  # fmt: skip
    assert given["characters"][1]["purse_blocked"] == [key]
    assert key not in given["characters"][1]["purse"]
    assert len(given["characters"][1]["deck"]) == len(s["characters"][1]["deck"]) - 2
    assert len(given["characters"][0]["deck"]) == len(s["characters"][0]["deck"])
    dropped = apply(bundle, s, {"type": "drop", "character": 0, "item": key})
    assert K.where(bundle, dropped, K.adventure(key)) == "past"


def test_a_card_marked_undiscardable_is_neither_dropped_nor_given(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [209]})
    key = s["characters"][0]["purse"][0]
    assert rec.adv(bundle, key).get("undiscardable")
    assert not [a for a in legal_actions(bundle, s) if a.get("item") == key]


def test_give_only_on_the_same_terrain(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [207]})
    place(bundle, s, 204, "0,1")
    s["characters"][1]["at"] = "0,1"
    assert not [a for a in legal_actions(bundle, s) if a["type"] == "give"]


def test_ludovic_recovers_eight_cards_for_four_hit_points(bundle):
    eight = ["a_estoc", "a_bouclier", "a_epaule", "a_cri", "a_charge", "a_sentinelle",
             "x01", "x02"]  # fmt: skip
    s = situation(bundle, ["A"], hp={"A": 10}, discards={"A": eight})
    deck = len(s["characters"][0]["deck"])
    s = apply(bundle, s, {"type": "recover", "character": 0, "cards": 8})
    ch = s["characters"][0]
    assert ch["hp"] == 6 and ch["discard"] == [] and len(ch["deck"]) == deck + 8
    assert R.recovery_cost(8) == 4 and R.recovery_cost(7) == 4 and R.recovery_cost(0) == 0


def test_recovery_never_costs_more_hit_points_than_left(bundle):
    eight = ["a_estoc", "a_bouclier", "a_epaule", "a_cri", "a_charge", "a_sentinelle",
             "x01", "x02"]  # fmt: skip
    s = situation(bundle, ["A"], hp={"A": 3}, discards={"A": eight})
    offered = sorted(a["cards"] for a in legal_actions(bundle, s) if a["type"] == "recover")
    assert offered == [2, 4, 6]
    s = situation(bundle, ["A"], hp={"A": 9}, discards={"A": eight[:5]})
    offered = sorted(a["cards"] for a in legal_actions(bundle, s) if a["type"] == "recover")
    assert offered == [2, 4, 5]  # a last short series is paid in full


def test_recovery_is_offered_at_every_moment_it_is_allowed(bundle):
    s = situation(bundle, ["A"], discards={"A": ["a_cri", "a_charge"]})
    recover = {"type": "recover", "character": 0, "cards": 2}
    assert recover in legal_actions(bundle, s)
    acting = play(bundle, s, {"title": "Fouiller les charrettes"})
    assert recover in legal_actions(bundle, acting)  # in the middle of an action
    reading = consequence(bundle, s, {"read": 66})
    assert recover in legal_actions(bundle, reading)  # while a dialogue is read


@pytest.mark.parametrize(
    ("mode", "cards", "hp"), [("normal", 6, 3), ("story", 6, 2), ("survival", 6, 4)]
)
def test_recovery_modes(bundle, mode, cards, hp):
    """Story: 1 hit point per 3 cards; survival: 2 per 3 cards."""
    six = ["a_estoc", "a_bouclier", "a_epaule", "a_cri", "a_charge", "a_sentinelle"]
    s = situation(bundle, ["A"], hp={"A": 10}, discards={"A": six}, recovery=mode)
    s = apply(bundle, s, {"type": "recover", "character": 0, "cards": cards})
    assert s["characters"][0]["hp"] == 10 - hp
    assert R.recovery_cost(9, "story") == 3 and R.recovery_cost(9, "survival") == 6


def test_the_recovery_modes_are_a_setup_choice(bundle):
    from engine.core import registry

    game = registry.get("citadelle")(bundle)
    field = next(f for f in game.fields() if f.name == "recovery")
    assert [o.value for o in field.options] == ["normal", "story", "survival"]
    setup = {"seed": 3, "recovery": "survival",
             "seats": [{"name": "Maëlis", "bot": False, "character": "A"}]}  # fmt: skip
    assert game.new_game(setup)["options"]["recovery"] == "survival"


def test_counting_fewer_successes_than_obtained(bundle):
    """« Il peut choisir de n'en comptabiliser aucun »: 4 stars drawn for a difficulty of 1."""
    s = situation(bundle, ["A"], decks={"A": ["x05", "x01"]})
    s = play(bundle, s, {"title": "Fouiller les charrettes"}, {"type": "draw", "count": 2})
    assert legal_actions(bundle, s) == [
        {"type": "count", "successes": 4},
        {"type": "count", "successes": 0},
    ]
    failed = apply(bundle, s, {"type": "count", "successes": 0})
    assert not last(failed, "action.result")["ok"]
    won = apply(bundle, s, {"type": "count", "successes": 4})
    assert last(won, "action.result")["ok"]


def test_too_few_successes_are_counted_without_asking(bundle):
    s = situation(bundle, ["A"], decks={"A": ["a_epaule", "x03"]})
    s = play(bundle, s, {"title": "Fouiller les charrettes"}, {"type": "draw", "count": 2})
    assert s["pending"]["type"] != "result" and not last(s, "action.result")["ok"]


def test_a_temporary_event_whose_participants_all_faint_is_put_back(bundle):
    """Maëlis (1 hit point) alone faces the hammer-bearers: she fails, takes 2 damage and
    faints; the card goes back to the box, not to the Past (its own « discard » included)."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"A": 1},
                  decks={"A": ["a_epaule", "x03"]})  # fmt: skip
    place(bundle, s, 404, "0,1")
    s["characters"][1]["at"] = "0,1"  # Tobiah is elsewhere: not a participant
    s = consequence(bundle, s, {"take": 407}, by=0)
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    assert not s["characters"][0]["conscious"]
    assert K.where(bundle, s, K.adventure("407/green")) == "box"
    assert last(s, "card.put_back")["title"] == "Cendreux au marteau"
    K.check(bundle, s)


def test_a_temporary_event_survived_goes_to_the_past(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes", hp={"A": 9},
                  decks={"A": ["a_epaule", "x03"]})  # fmt: skip
    s = consequence(bundle, s, {"take": 407}, by=0)
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    assert s["characters"][0]["hp"] == 7
    assert K.where(bundle, s, K.adventure("407/green")) == "past"


def test_an_illegal_choice_is_refused(bundle):
    s = situation(bundle, ["A"])
    with pytest.raises(IllegalAction):
        apply(bundle, s, {"type": "recover", "character": 0, "cards": 2})


# ------------------------------------------------------------- h3: the turn and the cards
# Judges the survivors of turn.py (_free_move, apply, _mandatory_here, _select, _receive, _keep,
# legal_actions, _start, _ref, check_shape, _mark, _citadel_move, _each_turn_action,
# _drop_stale_dice, _legal, _where, _citadel_actions, _known, free_moves) and of cards.py
# (temporary_in_play, _remove, _box_order, _check_destination, places, new_places, _add, where,
# check, _char): every decision goes through apply and legal_actions, as a player makes it.

from engine.citadelle import board as B  # noqa: E402
from engine.citadelle import turn as T  # noqa: E402
from engine.core import MalformedAction  # noqa: E402

LANTERN, CROWBAR = "110/green", "114/green"  # both for « fouiller », no MOT-CLEF in common


def h3_searching(bundle, **kw):
    """Maëlis (with Tobiah) undertakes « Fouiller les charrettes », a lantern and a crowbar in
    her purse: the Préparation begins."""
    s = situation(bundle, ["A", "B"], purses={"A": [110, 114]}, **kw)
    return play(bundle, s, {"title": "Fouiller les charrettes", "character": 0})


def test_h3_preparation_offers_each_card_to_select_then_the_draw(bundle):
    """« Préparation »: the active player selects purse cards whose icon fits the action, one
    by one, then goes on to the draw; the free moves stay offered meanwhile."""
    s = h3_searching(bundle, hands={"A": ["a_cri"]})
    assert s["pending"] == {"type": "prepare", "character": 0}
    assert s["steps"] == 1  # one decision so far
    assert legal_actions(bundle, s) == [
        {"type": "select", "item": LANTERN},
        {"type": "select", "item": CROWBAR},
        {"type": "prepared"},
        {"type": "discard_skill", "character": 0, "card": "a_cri"},
        {"type": "drop", "character": 0, "item": LANTERN},
        {"type": "drop", "character": 0, "item": CROWBAR},
    ]
    s = apply(bundle, s, {"type": "select", "item": LANTERN})
    assert s["steps"] == 2 and s["action"]["selected"] == [LANTERN]
    assert last(s, "item.selected") == {"name": "Maëlis", "title": "Lanterne à huile"}
    assert s["pending"] == {"type": "prepare", "character": 0}  # the crowbar is left
    assert [a for a in legal_actions(bundle, s) if a["type"] in ("select", "prepared")] == [
        {"type": "select", "item": CROWBAR},
        {"type": "prepared"},
    ]
    drawing = apply(bundle, s, {"type": "prepared"})
    assert drawing["pending"] == {"type": "draw", "character": 0}
    both = apply(bundle, s, {"type": "select", "item": CROWBAR})
    assert both["pending"] == {"type": "draw", "character": 0}  # nothing left to select
    assert last(both, "item.selected")["title"] == "Pied-de-biche"


def test_h3_a_skill_selected_is_named_by_its_own_title(bundle):
    """Élan (spent when used) may be selected for a move: the log names the skill."""
    s = situation(bundle, ["A"], hands={"A": ["x_elan"]})
    s = play(bundle, s, {"type": "move", "character": 0, "to": "1,0"})
    assert [a for a in legal_actions(bundle, s) if a["type"] == "select"] == [
        {"type": "select", "item": "x_elan"}
    ]
    s = apply(bundle, s, {"type": "select", "item": "x_elan"})
    assert last(s, "item.selected") == {"name": "Maëlis", "title": "Élan"}
    assert s["action"]["selected"] == ["x_elan"] and s["pending"]["type"] == "draw"


def test_h3_free_moves_during_the_preparation_and_the_draw_keep_the_action(bundle):
    """A Récupération or a discard « à tout moment »: the action under way waits, unchanged;
    throwing away the last card there was to select leads straight to the draw."""
    s = h3_searching(bundle, discards={"A": ["a_charge", "a_estoc"]}, hands={"A": ["a_cri"]})
    s = apply(bundle, s, {"type": "select", "item": LANTERN})
    rec_ = apply(bundle, s, {"type": "recover", "character": 0, "cards": 2})
    assert rec_["pending"] == {"type": "prepare", "character": 0}
    assert rec_["characters"][0]["discard"] == [] and rec_["action"]["selected"] == [LANTERN]
    assert rec_["characters"][0]["hp"] == s["characters"][0]["hp"] - 1
    dropped = apply(bundle, s, {"type": "drop", "character": 0, "item": CROWBAR})
    assert dropped["pending"] == {"type": "draw", "character": 0}
    assert K.where(bundle, dropped, K.adventure(CROWBAR)) == "past"
    drawing = apply(bundle, s, {"type": "prepared"})
    d = apply(bundle, drawing, {"type": "discard_skill", "character": 0, "card": "a_cri"})
    assert d["pending"] == {"type": "draw", "character": 0} and d["action"] is not None
    assert "a_cri" in d["characters"][0]["discard"]
    turn = situation(bundle, ["A"], hands={"A": ["a_cri"]})
    turn = apply(bundle, turn, {"type": "discard_skill", "character": 0, "card": "a_cri"})
    assert turn["pending"] == {"type": "turn"} and turn["action"] is None


def test_h3_a_recovery_that_knocks_out_the_active_player_stops_the_action(bundle):
    """Maëlis, 1 hit point left, recovers 2 cards in the middle of her draw: she faints, the
    action stops (told), and as a knocked-out character she must banish a card."""
    s = situation(bundle, ["A", "B"], hp={"A": 1}, discards={"A": ["a_charge", "a_estoc"]})
    s = play(bundle, s, {"title": "Fouiller les charrettes", "character": 0})
    assert s["pending"] == {"type": "draw", "character": 0}
    s = apply(bundle, s, {"type": "recover", "character": 0, "cards": 2})
    assert not s["characters"][0]["conscious"] and s["action"] is None
    assert last(s, "action.stopped") == {"name": "Maëlis"}
    assert s["pending"] == {"type": "banish", "character": 0}


def test_h3_free_moves_while_reading_keep_the_dialogue_open(bundle):
    s = consequence(bundle, situation(bundle, ["A"], hands={"A": ["a_cri"]}), {"read": 66})
    reading = s["pending"]
    s = apply(bundle, s, {"type": "discard_skill", "character": 0, "card": "a_cri"})
    assert s["pending"] == reading and s["dialogue"] == {"paragraph": "66", "character": 0}
    assert find(legal_actions(bundle, s), type="act", title="Gagner la confiance de Pell")


def test_h3_undertaking_a_dialogues_action_closes_the_dialogue(bundle):
    s = consequence(bundle, situation(bundle, ["A"], scenario="coeur_de_varn"), {"read": 66})
    talk = find(legal_actions(bundle, s), type="act", title="Gagner la confiance de Pell")
    s = apply(bundle, s, talk)
    assert s["dialogue"] is None and s["action"]["title"] == "Gagner la confiance de Pell"
    s = situation(bundle, ["A"])  # from the turn: no dialogue to close, none opened
    s = play(bundle, s, {"title": "Fouiller les charrettes"})
    assert s["dialogue"] is None


def test_h3_the_giver_may_pay_the_weight_of_the_purse_card(bundle):
    """Giving the Piolet (weight 2): the giver discards 2 cards of its Deck d'Action."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [210]})
    key = next(k for k in s["characters"][0]["purse"] if k.startswith("210/"))
    given = apply(bundle, s, {"type": "give", "character": 0, "to": 1, "item": key,
                              "payer": "giver"})  # fmt: skip
    assert key in given["characters"][1]["purse"]
    assert len(given["characters"][0]["deck"]) == len(s["characters"][0]["deck"]) - 2
    assert len(given["characters"][1]["deck"]) == len(s["characters"][1]["deck"])


def test_h3_examining_then_searching_through_the_turn(bundle):
    """« Trouver un numéro caché », as the players do it: examine La Chapelle effondrée, then
    take the number found (131) in its place."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    chapel = place(bundle, s, 105, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    examine = {"type": "examine", "character": 0, "card": chapel}
    assert examine in legal_actions(bundle, s)
    s = apply(bundle, s, examine)
    assert s["found"] == [{"number": 131, "source": chapel}]
    assert examine not in legal_actions(bundle, s)
    search = {"type": "search", "character": 0, "number": 131}
    assert [a for a in legal_actions(bundle, s) if a["type"] == "search"] == [search]
    s = apply(bundle, s, search)
    assert s["board"]["-1,0"]["terrain"] == "131/green"
    assert K.where(bundle, s, K.adventure(chapel)) == "past"


def test_h3_a_purse_card_received_or_refused_through_the_turn(bundle):
    """Two participants find the Tisonnier together: one of them takes it, or nobody does and
    it goes to the Past; either way the log names the card."""
    s = situation(bundle, ["A", "B"], purses={"A": [310, 311]})
    s["pending"] = {"type": "receive", "key": "310/green", "participants": [0, 1]}
    assert legal_actions(bundle, s) == [
        {"type": "receive", "character": 0},
        {"type": "receive", "character": 1},
        {"type": "refuse"},
    ]
    to_b = apply(bundle, s, {"type": "receive", "character": 1})
    assert to_b["characters"][1]["purse"] == ["310/green"] and to_b["pending"] == {"type": "turn"}
    assert last(to_b, "item.received") == {"name": "Tobiah", "title": "Tisonnier de Veilleur"}
    kept = apply(bundle, s, {"type": "receive", "character": 0})  # already before her
    assert kept["characters"][0]["purse"] == ["310/green", "311/green"]
    assert last(kept, "item.received") == {"name": "Maëlis", "title": "Tisonnier de Veilleur"}
    refused = apply(bundle, s, {"type": "refuse"})
    assert K.where(bundle, refused, K.adventure("310/green")) == "past"
    assert last(refused, "item.refused") == {"title": "Tisonnier de Veilleur"}


def test_h3_a_banished_card_is_named_in_the_log(bundle):
    s = situation(bundle, ["A"], hands={"A": ["a_cri"]})
    s["pending"] = {"type": "banish", "character": 0}
    s = apply(bundle, s, {"type": "banish", "character": 0, "card": "a_cri"})
    assert last(s, "card.banish") == {"title": "Voix des remparts", "name": "Maëlis"}
    assert K.where(bundle, s, K.action_card("a_cri")) == "banished"


def test_h3_keeping_revealed_cards_one_by_one(bundle):
    """La Voûte s'effondre (304) lets the active player keep a revealed card in hand; with two
    cards to keep, a first one kept leaves one more to choose; « kept » stops there."""
    s = situation(bundle, ["A"], scenario="pluie_grise", hp={"A": 9},
                  decks={"A": ["x01", "x03"]})  # fmt: skip
    s = consequence(bundle, s, {"take": 304})
    s["action"]["keep"] = 2  # two cards to keep (the effect adds up)
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    if s["pending"]["type"] == "result":
        best = max(a["successes"] for a in legal_actions(bundle, s))
        s = play(bundle, s, {"type": "count", "successes": best})
    assert s["pending"] == {"type": "keep", "character": 0, "left": 2}
    assert legal_actions(bundle, s) == [
        {"type": "keep", "card": "x01"},
        {"type": "keep", "card": "x03"},
        {"type": "kept"},
    ]
    one = apply(bundle, s, {"type": "keep", "card": "x01"})
    assert one["pending"] == {"type": "keep", "character": 0, "left": 1}
    assert legal_actions(bundle, one) == [{"type": "keep", "card": "x03"}, {"type": "kept"}]
    two = apply(bundle, one, {"type": "keep", "card": "x03"})
    assert {"x01", "x03"} <= set(two["characters"][0]["hand"]) and two["action"] is None
    assert two["pending"] == {"type": "turn"}
    none = apply(bundle, s, {"type": "kept"})
    assert {"x01", "x03"} <= set(none["characters"][0]["discard"]) and none["action"] is None
    assert none["pending"] == {"type": "turn"}
    stop = apply(bundle, one, {"type": "kept"})
    assert "x03" in stop["characters"][0]["discard"] and "x01" in stop["characters"][0]["hand"]


def test_h3_the_draw_offers_the_cost_and_up_to_six_more_and_the_tremor(bundle):
    """Fouiller les charrettes costs 2: draw 2 to 8.  Exploring with tremor levels left: the
    same counts, and the cheaper counts with the tremor."""
    s = situation(bundle, ["A"])
    s = play(bundle, s, {"title": "Fouiller les charrettes"})
    assert legal_actions(bundle, s) == [
        {"type": "draw", "count": n, "tremor": False} for n in range(2, 9)
    ]
    e = situation(bundle, ["A"], scenario="pluie_grise")
    e = play(bundle, e, {"type": "move", "character": 0})
    plain = [a["count"] for a in legal_actions(bundle, e) if a.get("tremor") is False]
    shaken = [a["count"] for a in legal_actions(bundle, e) if a.get("tremor") is True]
    low = plain[0]
    assert plain == list(range(low, low + 7))
    assert shaken and shaken == list(range(shaken[0], shaken[0] + 7)) and shaken[0] < low


def test_h3_a_character_arriving_on_a_terrain_with_a_mandatory_action_undertakes_it(bundle):
    """Le Gué des lavandières (125): « Passer le gué » is mandatory for whoever arrives there,
    once per arrival; nobody already standing there, nobody unconscious, undertakes it."""
    s = situation(bundle, ["A", "B"])
    place(bundle, s, 125, "1,0")
    B.move_figure(bundle, s, 1, "1,0")  # Tobiah arrives; Maëlis stays on the gates
    s["pending"] = None
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "draw", "character": 1}
    assert s["action"]["title"] == "Passer le gué" and s["action"]["source"] == "terrain:1,0"
    assert s["action"]["participants"] == [1] and s["arrivals"] == []
    again = situation(bundle, ["A", "B"])
    place(bundle, again, 125, "1,0")
    again["characters"][1]["at"] = "1,0"  # there since before: no new arrival
    again["pending"] = None
    T.next_turn(bundle, again)
    assert again["pending"] == {"type": "turn"} and again["action"] is None
    fainted = situation(bundle, ["A", "B"], hp={"B": 0})
    place(bundle, fainted, 125, "1,0")
    B.move_figure(bundle, fainted, 1, "1,0")
    fainted["pending"] = None
    T.next_turn(bundle, fainted)
    assert fainted["pending"] == {"type": "turn"} and fainted["action"] is None


def test_h3_a_group_action_is_led_by_whoever_undertakes_it(bundle):
    """« Rentrer à la Citadelle » (group): every conscious character takes part, the one who
    undertook it first; an action of one character has that one alone."""
    s = situation(bundle, ["A", "B"])
    group = play(bundle, s, {"title": "Rentrer à la Citadelle", "character": 1})
    assert group["action"]["participants"] == [1, 0] and group["action"]["character"] == 1
    alone = play(bundle, s, {"title": "Fouiller les charrettes", "character": 1})
    assert alone["action"]["participants"] == [1]


def test_h3_an_unconscious_first_character_holds_nobody_back(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 0}, hands={"B": ["a_cri"]})
    actions = legal_actions(bundle, s)
    assert find(actions, type="act", title="Fouiller les charrettes", character=1)
    assert {"type": "discard_skill", "character": 1, "card": "a_cri"} in actions
    assert {"type": "move", "character": 1, "to": "1,0"} in actions


def test_h3_leaving_during_an_adventure_goes_on_with_the_turn(bundle):
    s = situation(bundle, ["A", "B"])
    s = apply(bundle, s, {"type": "leave", "character": 1})
    assert [c["id"] for c in s["characters"]] == ["A"] and s["pending"] == {"type": "turn"}


def test_h3_the_citadel_offers_leaving_to_two_and_joining_below_four(bundle):
    from engine.citadelle import citadel as CI

    two = situation(bundle, ["A", "B"])
    CI.end_scenario(bundle, two)
    actions = legal_actions(bundle, two)
    assert [a for a in actions if a["type"] == "leave"] == [
        {"type": "leave", "character": 0},
        {"type": "leave", "character": 1},
    ]
    assert [a["id"] for a in actions if a["type"] == "join"] == ["C", "D"]
    four = situation(bundle, ["A", "B", "C", "D"])
    CI.end_scenario(bundle, four)
    assert not [a for a in legal_actions(bundle, four) if a["type"] == "join"]
    three = situation(bundle, ["A", "B", "C"])
    CI.end_scenario(bundle, three)
    s = apply(bundle, three, {"type": "join", "id": "D"})
    assert s["pending"] == {"type": "citadel"} and len(s["characters"]) == 4
    s = apply(bundle, s, {"type": "leave", "character": 0})
    assert s["pending"] == {"type": "citadel"} and len(s["characters"]) == 3
    s = apply(bundle, s, {"type": "depart"})
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    won = situation(bundle, ["A"])
    CI.end_scenario(bundle, won)
    won["next_scenario"] = None
    won = apply(bundle, won, {"type": "depart"})
    assert won["result"]["result"] == "victory" and won["pending"] is None


def test_h3_a_refused_action_names_itself_the_turn_and_why(bundle):
    s = situation(bundle, ["A"])
    where = f"scenario portes_rouillees, turn {s['turns']}"
    wrong = {"type": "move", "character": 0, "to": "0,-1"}
    with pytest.raises(IllegalAction) as err:
        apply(bundle, s, wrong)
    assert (err.value.action, err.value.where, err.value.why) == (wrong, where, "waiting for turn")
    over = {**s, "pending": None}
    with pytest.raises(IllegalAction) as err:
        apply(bundle, over, {"type": "save"})
    assert err.value.why == "the adventure is over"
    cases = [
        ({"type": "fly"}, "'type' must be one of"),
        ({"type": "move", "character": 0, "to": "1,0", "speed": 3}, "unexpected field(s) "),
        ({"type": "move", "character": "0", "to": "1,0"}, "'character' must be a int"),
    ]
    for action, why in cases:
        with pytest.raises(MalformedAction) as err:
            apply(bundle, s, action)
        assert err.value.action == action and err.value.where == where
        assert err.value.why.startswith(why)
        assert "speed" in err.value.why or "speed" not in action


def test_h3_an_offering_is_trusted_only_for_the_very_state_it_was_listed_for(bundle):
    """The plug-in keeps the legal actions it offered; they stand only while the state is the
    one they were listed for."""
    s = situation(bundle, ["A", "B"])
    move = {"type": "move", "character": 0, "to": "1,0"}
    offered = T.offering(s, legal_actions(bundle, s))
    assert apply(bundle, s, move, offered)["action"]["source"] == "move"
    other = {**s, "characters": [{**s["characters"][0], "hp": 0, "conscious": False},
                                 s["characters"][1]]}  # fmt: skip
    with pytest.raises(IllegalAction):  # the same marks, another state: listed again
        apply(bundle, other, move, offered)
    s["pending"] = {"type": "banish", "character": 1}  # what is pending replaced in place
    with pytest.raises(IllegalAction):
        apply(bundle, s, move, offered)


# cards.py


def test_h3_a_temporary_event_in_play(bundle):
    """Being resolved: an adventure card among the cards resolving, or a temporary event of
    the exploration decks on its place; nothing else (a skill, a Terrain, a permanent one)."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    gates = s["board"]["0,0"]["terrain"]
    assert not K.temporary_in_play(bundle, s, K.adventure(gates))
    K.move(bundle, s, K.adventure("407/green"), "resolving")
    assert K.temporary_in_play(bundle, s, K.adventure("407/green"))
    assert not K.temporary_in_play(bundle, s, K.action_card("a_cri"))
    slot = next(c for c, p in s["slots"].items() if p.get("exploration"))
    exp = s["slots"][slot]["exploration"]
    kind = rec.exp(bundle, exp)["type"]
    assert K.temporary_in_play(bundle, s, K.exploration(exp)) == (kind == "temporary_event")
    K.move(bundle, s, K.exploration(exp), "past")
    assert not K.temporary_in_play(bundle, s, K.exploration(exp))
    zone = str(rec.exp(bundle, exp)["zone"])
    for wanted, expected in (("temporary_event", True), ("permanent_event", False)):
        key = next(k for k in s["explore_decks"][zone] if rec.exp(bundle, k)["type"] == wanted)
        K.move(bundle, s, K.exploration(key), f"slot:{slot}")
        assert K.temporary_in_play(bundle, s, K.exploration(key)) is expected
        K.move(bundle, s, K.exploration(key), "past")
    K.move(bundle, s, K.adventure("310/green"), f"slot:{slot}")
    assert not K.temporary_in_play(bundle, s, K.adventure("310/green"))


def test_h3_the_box_keeps_green_before_gold_and_the_generic_copy_first(bundle):
    """« Ranger »: in the Deck d'Aventure, green before gold, the generic version before the
    specific ones (a scenario's symbol, or a card linked to another)."""
    s = situation(bundle, ["A"])
    for number, specific in ((304, "304/green@portes_rouillees"), (120, "120/green+110")):
        keys = [f"{number}/gold", specific, f"{number}/green"]
        for key in keys:
            K.move(bundle, s, K.adventure(key), "past")
        for key in keys:  # put back gold first, then the specific, then the generic
            K.move(bundle, s, K.adventure(key), "box")
        assert s["box"][str(number)] == [f"{number}/green", specific, f"{number}/gold"]


@pytest.mark.parametrize("where", ["terrain", "slot", "resolving", "globals", "quest_items"])
def test_h3_a_die_leaves_with_its_card_from_every_place_in_play(bundle, where):
    """« Précisions », Résultat: a die placed on a card goes back to the box with it."""
    s = situation(bundle, ["A"])
    if where == "terrain":
        key, at = s["board"]["1,0"]["terrain"], "terrain:1,0"
    elif where == "slot":
        key, at = "310/green", "slot:0,-1"
        K.move(bundle, s, K.exploration(s["slots"]["0,-1"]["exploration"]), "past")
        K.move(bundle, s, K.adventure(key), at)
    else:
        key, at = "310/green", where
        K.move(bundle, s, K.adventure(key), at)
    assert K.where(bundle, s, K.adventure(key)) == at
    s["dice"] = {"d": {"card": key, "line": 0, "value": 3}, "e": {"card": "a_cri"}}
    K.move(bundle, s, K.adventure(key), "past")
    assert set(s["dice"]) == {"e"}


def test_h3_a_move_to_a_place_that_cannot_take_the_card_is_refused_with_the_reason(bundle):
    s = situation(bundle, ["A"])
    card = K.adventure("310/green")
    refusals = [
        ("event:5,5", "no Terrain at 5,5 to link an event to"),
        ("terrain:0,0", "a Terrain already stands at 0,0"),
        ("slot:4,4", "no exploration place at 4,4"),
        ("slot:0,-1", "the exploration place 0,-1 is taken"),
        ("drawn", "no action is drawing cards"),
        ("attic", "unknown place 'attic'"),
        ("purse:Z", "no character 'Z' at the table"),
    ]
    for to, why in refusals:
        with pytest.raises(K.CardError) as err:
            K.move(bundle, s, card, to)
        assert str(err.value) == why
        assert K.where(bundle, s, card) == "box"
    K.move(bundle, s, K.exploration(s["slots"]["0,-1"]["exploration"]), "past")
    K.move(bundle, s, K.adventure("311/green"), "slot:0,-1")  # an adventure card holds it
    with pytest.raises(K.CardError, match="is taken"):
        K.move(bundle, s, card, "slot:0,-1")
    with pytest.raises(K.CardError) as err:
        K.places(bundle, s, {"kind": "token", "key": "x"})
    assert str(err.value) == "unknown card kind 'token'"
    with pytest.raises(K.CardError) as err:
        K.move(bundle, s, K.adventure(s["board"]["0,0"]["terrain"]), "past")
    assert str(err.value).endswith("leaves 0,0 with its events still linked")


def test_h3_a_card_in_no_place_is_reported(bundle):
    s = situation(bundle, ["A"])
    skill = s["skill_box"].pop(0)
    with pytest.raises(K.CardError) as err:
        K.where(bundle, s, K.action_card(skill))
    assert str(err.value) == f"action_card {skill} is in no place"
    with pytest.raises(K.CardError) as err:
        K.check(bundle, s)
    assert str(err.value) == f"action_card {skill} is in no place"


def test_h3_a_new_game_starts_with_every_place_empty():
    assert K.new_places() == {
        "box": {}, "explore_decks": {}, "skill_box": [], "board": {}, "slots": {},
        "resolving": [], "globals": [], "quest_items": [], "world_map": [], "past": [],
        "banished": [], "action": None, "suspended": [], "dice": {},
    }  # fmt: skip


def test_h3_a_die_stays_on_a_card_in_play_and_leaves_with_a_card_gone(bundle):
    """A die on an exploration card still on its place stays; on a card gone to the Past or
    banished, it goes back to the box."""
    s = situation(bundle, ["A"])
    exp = s["slots"]["0,-1"]["exploration"]
    K.move(bundle, s, K.adventure("310/green"), "past")
    K.move(bundle, s, K.adventure("311/green"), "banished")
    s["dice"] = {"on_place": {"card": exp}, "past": {"card": "310/green"},
                 "banished": {"card": "311/green"}}  # fmt: skip
    T._drop_stale_dice(bundle, s)
    assert set(s["dice"]) == {"on_place"}


def test_h3_a_permanent_event_with_a_mandatory_action_binds_who_arrives(bundle):
    """The turn's rule covers a mandatory action printed on a permanent event linked to the
    Terrain as well as on the Terrain (here « Rentrer à la Citadelle » made mandatory)."""
    import copy

    b = copy.deepcopy(bundle)
    rec.adv(b, "103/green")["actions"][0]["mandatory"] = True
    s = situation(b, ["A"])
    s["characters"][0]["at"] = "1,0"
    B.move_figure(b, s, 0, "0,0")
    s["pending"] = None
    T.next_turn(b, s)
    assert s["action"] is not None and s["action"]["title"] == "Rentrer à la Citadelle"
    assert s["action"]["source"] == "event:0,0:103/green"


def test_h3_a_recovery_at_the_turn_that_knocks_out_asks_for_a_banishment(bundle):
    """A knocked-out character draws a new hand and banishes one of its cards before the next
    turn; a TEMPORAIRE card of its purse goes back to the box, the others stay."""
    s = situation(bundle, ["A", "B"], hp={"A": 1}, purses={"A": [117, 110]},
                  discards={"A": ["a_charge", "a_estoc"]})  # fmt: skip
    s = apply(bundle, s, {"type": "recover", "character": 0, "cards": 2})
    assert not s["characters"][0]["conscious"]
    assert s["pending"] == {"type": "banish", "character": 0}
    assert K.where(bundle, s, K.adventure("117/green")) == "box"
    assert s["characters"][0]["purse"] == ["110/green"]


# --------------------------------------------------- edge cases of the rules (mutation survivors)


def test_h3_a_chain_as_long_as_the_draw_counts_every_card():
    assert R.best_stars([card(stars=1), card()], 2) == (1, [0, 1])
    assert R.best_stars([card()], 1) == (0, [0])


def test_h3_a_chain_finds_the_best_pair_among_cards_drawn_late():
    drawn = [card(), card(), card(stars=2, halves=["left"]), card(stars=1, halves=["left"])]
    assert R.best_stars(drawn, 2) == (3, [2, 3])


def test_h3_a_chain_counts_the_fewest_cards_that_give_the_most_successes():
    drawn = [
        card(),
        card(halves=["left"]),
        card(halves=["left"]),
        card(stars=1, halves=["left", "left"]),
    ]
    assert R.best_stars(drawn, 2) == (1, [3])


def test_h3_the_icon_cover_search_ends_when_no_cover_exists():
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError

    counts = {"wits": 3, "joker": 2, "agility": 2}
    demands = [
        ({"agility", "wits"}, 1),
        ({"agility", "wits"}, 1),
        ({"faith", "wits", "might"}, 2),
        ({"might"}, 3),
    ]
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 3.0)  # far above the search (ms), safe under load
    try:
        plan, finished = R._feasible(counts, demands), True
    except TimeoutError:
        plan, finished = None, False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert finished, "the search for a cover of the demands never ended"
    assert plan is None


def test_h3_a_recovery_series_is_two_cards_by_default():
    assert R.recovery_step() == 2
    assert R.hp_per_series() == 1
