"""The 7th Citadel, rule by rule, with the rulebook's own examples: its calculations (successes,
half-stars, conversions, versions, Récupération) and the choices it leaves to the players,
set up with ``engine.citadelle.situation`` so that each test reads like the example."""

from __future__ import annotations

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
