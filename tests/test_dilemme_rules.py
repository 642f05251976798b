"""Le Dilemme du Roi: the rulebook's own worked examples, on the pure rule functions."""

from __future__ import annotations

import pytest
from test_dilemme_engine import NAMES, make_bundle
from test_dilemme_rulebook import _sticker as sticker_record

from engine.dilemme import rules as R
from engine.dilemme import setup as SETUP
from engine.dilemme.abilities import _ability_sources
from engine.dilemme.achievements import _achievement_holds
from engine.dilemme.game import apply, legal_actions, new_campaign, new_game, view

TOP = 14


def test_progression_example_influence_and_morale():
    """An outcome moves Influence up 1 and Morale down 1.  Influence had a negative progression
    with a (black) progression marker: it goes up 1, flips white, loses the marker; stability
    up 1.  Morale had a negative progression without marker: down 1 plus 1, gains a black
    marker; stability down 2.  Moving down again it would fall 2 extra squares."""
    influence = {"pos": 7, "dir": -1, "marker": True}
    steps, direction = R.move_resource(influence, +1, TOP)
    assert influence == {"pos": 8, "dir": 1, "marker": False}
    assert (steps, direction) == (1, 1)

    morale = {"pos": 7, "dir": -1, "marker": False}
    steps, direction = R.move_resource(morale, -1, TOP)
    assert morale == {"pos": 5, "dir": -1, "marker": True}
    assert (steps, direction) == (2, -1)

    steps, _ = R.move_resource(morale, -1, TOP)
    assert morale["pos"] == 2 and steps == 3  # 1 + 2 extra with the marker


def test_stability_moves_the_full_amount_even_at_a_track_end():
    marker = {"pos": 13, "dir": 1, "marker": True}
    steps, direction = R.move_resource(marker, +2, TOP)
    assert marker["pos"] == TOP  # stopped at the end...
    assert (steps, direction) == (4, 1)  # ...but stability moves 2 + 2
    assert R.move_stability(7, steps, direction, TOP) == (11, False)
    assert R.move_stability(11, steps, direction, TOP) == (14, True)  # abdication at the top
    assert R.move_stability(2, 3, -1, TOP) == (0, True)


def test_chronicle_sticker_placement():
    assert R.chronicle_slot([None, None, None, None]) == 0
    assert R.chronicle_slot([{"ticks": 2}, None, {"ticks": 1}, None]) == 1
    # full line: over the sticker with the most ticks, the leftmost on a tie
    assert R.chronicle_slot([{"ticks": 1}, {"ticks": 3}, {"ticks": 2}, {"ticks": 3}]) == 1


def test_scoring_table_of_king_harald_v():
    """Chroniques du royaume, King Harald V: public, resources, wealth, power majority."""
    rows = {
        "Valentine": (-1, 10, 1, 2),
        "Martina": (1, 7, 3, 0),
        "Armin": (3, 3, 0, 1),
        "Charles": (-3, 12, 0, 0),
        "Théodore": (1, 7, 1, 1),
    }
    totals = {name: sum(parts) for name, parts in rows.items()}
    assert totals == {"Valentine": 12, "Martina": 11, "Armin": 7, "Charles": 9, "Théodore": 10}
    ranks = R.competition_ranks(totals)
    assert ranks == {"Valentine": 1, "Martina": 2, "Théodore": 3, "Charles": 4, "Armin": 5}
    died = R.prestige_and_craving(ranks, "died")
    assert died == {
        "Valentine": (3, 0),
        "Martina": (2, 0),
        "Théodore": (2, 1),
        "Charles": (2, 1),
        "Armin": (0, 2),  # last
    }
    bottom = R.prestige_and_craving(ranks, "bottom")
    assert bottom["Valentine"] == (0, 2) and bottom["Armin"] == (2, 0)


def test_last_place_rule_with_a_tie_for_fourth():
    ranks = R.competition_ranks({"a": 9, "b": 7, "c": 5, "d": 3, "e": 3})
    assert ranks == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 4}
    out = R.prestige_and_craving(ranks, "died")
    assert out["d"] == out["e"] == (0, 2)  # both last, not fourth


def test_secret_objective_moderation_example():
    """Valentine (Moderation) has 3 markers in her zone: 10 points; 3rd in coins: 1 point."""
    moderation = {
        "zones": [{"from": 5, "to": 9}],
        "resource_points": [6, 7, 10, 13, 14],
        "wealth_points": [5, 3, 1],
    }
    positions = {"influence": 6, "prosperity": 9, "morale": 12, "welfare": 2, "knowledge": 7}
    coins = {"Martina": 9, "Théodore": 6, "Valentine": 4}
    rank = R.competition_ranks(coins)["Valentine"]
    assert R.secret_objective_points(moderation, positions, rank) == (10, 1)


def test_public_objective_example():
    """Influence highest: its positive token is worth 3; Morale and Knowledge tie second: 1 each.
    Knowledge's negative token costs 1 (second lowest), Welfare's and Prosperity's (tied lowest)
    cost 3 each."""
    positions = {"influence": 11, "morale": 9, "knowledge": 9, "welfare": 4, "prosperity": 4}
    assert R.public_objective_points([["influence", "positive"]], positions) == 3
    assert R.public_objective_points([["morale", "positive"]], positions) == 1
    assert R.public_objective_points([["knowledge", "positive"]], positions) == 1
    assert R.public_objective_points([["knowledge", "negative"]], positions) == -1
    assert R.public_objective_points([["welfare", "negative"]], positions) == -3
    assert R.public_objective_points([["prosperity", "negative"]], positions) == -3


def test_power_majority_example():
    """Valentine has the most power (+2); Armin and Théodore tie second (+1 each)."""
    power = {"Valentine": 9, "Martina": 2, "Armin": 6, "Charles": 1, "Théodore": 6}
    assert R.power_majority_points(power) == {
        "Valentine": 2,
        "Martina": 0,
        "Armin": 1,
        "Charles": 0,
        "Théodore": 1,
    }


def _sticker(sid, polarity, signer, ticks):
    return {"id": sid, "polarity": polarity, "signer": signer, "ticks": ticks}


def test_succession_resources():
    """Influence: 2 positive and 1 negative sticker → up 1; Prosperity 1 and 1 → stays;
    Morale 2 negative → down 2."""
    chronicle = {
        "influence": [_sticker(1, "positive", "x", 1), _sticker(2, "negative", "y", 1),
                      _sticker(3, "positive", "z", 1), None],
        "prosperity": [_sticker(4, "positive", "x", 1), _sticker(5, "negative", "x", 1),
                       None, None],
        "morale": [_sticker(6, "negative", "x", 1), _sticker(7, "negative", "y", 1), None, None],
        "welfare": [None] * 4,
        "knowledge": [None] * 4,
    }  # fmt: skip
    moves = R.succession_resource_moves(chronicle)
    assert moves == {"influence": 1, "prosperity": 0, "morale": -2, "welfare": 0, "knowledge": 0}


def test_succession_power_tony_and_catherine():
    """Tony signed 3 positive stickers and 1 negative: +2 power; Catherine signed 2 negative: -2."""
    chronicle = {
        "influence": [_sticker(1, "positive", "Tony", 1), _sticker(2, "negative", "Catherine", 1)],
        "prosperity": [_sticker(3, "positive", "Tony", 1), _sticker(4, "negative", "Tony", 2)],
        "morale": [_sticker(5, "positive", "Tony", 1), _sticker(6, "negative", "Catherine", 1)],
        "welfare": [None, None],
        "knowledge": [None, None],
    }
    assert R.succession_power(chronicle, ["Tony", "Catherine"]) == {"Tony": 2, "Catherine": -2}


def test_public_objectives_laura_martina_valentine_noah():
    """Laura gets Influence's positive token (Charles, not playing, is ignored); Martina,
    Valentine and Noah each signed a negative Morale sticker: Martina's has 3 ticks, the other
    two 1 tick; Noah's is the rightmost, so Noah takes Morale's negative token."""
    chronicle = {
        "influence": [_sticker(1, "positive", "Laura", 2), _sticker(2, "positive", "Charles", 1),
                      None, None],
        "morale": [_sticker(3, "negative", "Martina", 3), _sticker(4, "negative", "Valentine", 1),
                   _sticker(5, "negative", "Noah", 1), None],
        "prosperity": [None] * 4,
        "welfare": [None] * 4,
        "knowledge": [None] * 4,
    }  # fmt: skip
    tokens = R.public_objective_tokens(chronicle, ["Laura", "Martina", "Valentine", "Noah"])
    assert tokens == {
        "Laura": [["influence", "positive"]],
        "Martina": [],
        "Valentine": [],
        "Noah": [["morale", "negative"]],
    }


def test_chronicle_ageing_never_exceeds_the_boxes():
    chronicle = {"influence": [_sticker("1", "positive", "a", 2), None]}
    R.age_chronicle(chronicle, {"1": 3})
    R.age_chronicle(chronicle, {"1": 3})
    assert chronicle["influence"][0]["ticks"] == 3


# --------------------------------------------------------------------------- the whole tables


def test_prestige_table_every_cell_at_five_players():
    """The rulebook's table, column by column, five players with distinct places."""
    ranks = {p: i + 1 for i, p in enumerate("abcde")}
    assert R.prestige_and_craving(ranks, "died") == {
        "a": (3, 0), "b": (2, 0), "c": (2, 1), "d": (2, 1), "e": (0, 2)}  # fmt: skip
    assert R.prestige_and_craving(ranks, "top") == {
        "a": (2, 0), "b": (2, 0), "c": (1, 0), "d": (1, 0), "e": (0, 2)}  # fmt: skip
    assert R.prestige_and_craving(ranks, "bottom") == {
        "a": (0, 2), "b": (0, 2), "c": (0, 1), "d": (0, 1), "e": (2, 0)}  # fmt: skip


def test_prestige_table_three_players_the_third_is_last():
    ranks = {"a": 1, "b": 2, "c": 3}
    assert R.prestige_and_craving(ranks, "died") == {"a": (3, 0), "b": (2, 0), "c": (0, 2)}
    assert R.prestige_and_craving(ranks, "top")["c"] == (0, 2)
    assert R.prestige_and_craving(ranks, "bottom")["c"] == (2, 0)


def test_prestige_table_ties_share_and_everyone_tied_is_last():
    ranks = R.competition_ranks({"a": 5, "b": 5, "c": 1, "d": 0})
    assert ranks == {"a": 1, "b": 1, "c": 3, "d": 4}
    assert R.prestige_and_craving(ranks, "died") == {
        "a": (3, 0), "b": (3, 0), "c": (2, 1), "d": (0, 2)}  # fmt: skip
    # everyone tied: nobody is behind them, so all are last (« personne derrière eux »)
    assert set(R.prestige_and_craving({"a": 1, "b": 1, "c": 1}, "bottom").values()) == {(2, 0)}
    assert set(R.prestige_and_craving({"a": 1, "b": 1, "c": 1}, "died").values()) == {(0, 2)}


def test_move_resource_with_an_events_extra_squares():
    m = {"pos": 7, "dir": -1, "marker": False}
    assert R.move_resource(m, 1, 14, extra=1) == (2, 1)  # flips: 1 + 1 extra, no progression
    assert m == {"pos": 9, "dir": 1, "marker": False}
    m = {"pos": 7, "dir": -1, "marker": False}
    assert R.move_resource(m, 1, 14, extra=-1) == (0, 1)  # one square fewer: it stays
    assert m == {"pos": 7, "dir": 1, "marker": False}
    m = {"pos": 7, "dir": 1, "marker": False}
    assert R.move_resource(m, 1, 14, extra=-2) == (1, 1)  # never below 0, then progression
    assert m == {"pos": 8, "dir": 1, "marker": True}
    m = {"pos": 7, "dir": 1, "marker": True}
    assert R.move_resource(m, 0, 14) == (0, 0) and m == {"pos": 7, "dir": 1, "marker": True}


def test_move_resource_down_to_zero_and_progression_twice():
    m = {"pos": 2, "dir": -1, "marker": True}
    assert R.move_resource(m, -2, 14) == (4, -1)
    assert m == {"pos": 0, "dir": -1, "marker": True}


def test_move_stability_inside_and_at_both_ends():
    assert R.move_stability(7, 3, 1, 14) == (10, False)
    assert R.move_stability(7, 3, -1, 14) == (4, False)
    assert R.move_stability(1, 1, -1, 14) == (0, True)
    assert R.move_stability(13, 1, 1, 14) == (14, True)
    assert R.move_stability(13, 9, 1, 14) == (14, True)
    assert R.move_stability(1, 0, 0, 14) == (1, False)


def test_ranks_competition_and_dense():
    assert R.competition_ranks({"a": 3, "b": 3, "c": 2, "d": 2, "e": 1}) == {
        "a": 1, "b": 1, "c": 3, "d": 3, "e": 5}  # fmt: skip
    values = {"a": 9, "b": 7, "c": 7, "d": 2}
    assert R.dense_ranks(values) == {"a": 1, "b": 2, "c": 2, "d": 3}
    assert R.dense_ranks(values, highest_first=False) == {"a": 3, "b": 2, "c": 2, "d": 1}


def test_secret_objective_zero_markers_two_zones_and_the_podium():
    extremism = {
        "zones": [{"from": 0, "to": 2}, {"from": 12, "to": 14}],
        "resource_points": [3, 7, 11, 15, 18],
        "wealth_points": [3, 2, 1],
    }
    pos = {"influence": 0, "prosperity": 14, "morale": 2, "welfare": 12, "knowledge": 7}
    assert R.secret_objective_points(extremism, pos, 1) == (15, 3)
    assert R.secret_objective_points(extremism, pos, 2) == (15, 2)
    assert R.secret_objective_points(extremism, pos, 4) == (15, 0)
    centre = dict.fromkeys(pos, 7)
    assert R.secret_objective_points(extremism, centre, 3) == (0, 1)
    pos_all = dict.fromkeys(pos, 13)
    assert R.secret_objective_points(extremism, pos_all, 5) == (18, 0)
    one = {**centre, "knowledge": 3}
    assert R.secret_objective_points(extremism, one, 2) == (0, 2)  # 3 is outside both zones
    one = {**centre, "knowledge": 2}
    assert R.secret_objective_points(extremism, one, 2) == (3, 2)


def test_public_objectives_third_place_is_worth_nothing_and_tokens_add_up():
    pos = {"influence": 11, "morale": 9, "knowledge": 6, "welfare": 4, "prosperity": 2}
    assert R.public_objective_points([["knowledge", "positive"]], pos) == 0
    assert R.public_objective_points([["knowledge", "negative"]], pos) == 0
    tokens = [["influence", "positive"], ["morale", "positive"], ["welfare", "negative"],
              ["prosperity", "negative"]]  # fmt: skip
    assert R.public_objective_points(tokens, pos) == 3 + 1 - 1 - 3
    assert R.public_objective_points([], pos) == 0


def test_power_majority_third_and_all_tied():
    assert R.power_majority_points({"a": 3, "b": 2, "c": 1}) == {"a": 2, "b": 1, "c": 0}
    assert R.power_majority_points({"a": 0, "b": 0}) == {"a": 2, "b": 2}
    # « la deuxième quantité de Pouvoir la plus grande »: after a tie for the most, the next
    # quantity is still the second
    assert R.power_majority_points({"a": 5, "b": 5, "c": 4}) == {"a": 2, "b": 2, "c": 1}


def test_chronicle_slot_leftmost_empty_even_after_a_gap():
    assert R.chronicle_slot([{"ticks": 0}, {"ticks": 5}, None, None]) == 2
    assert R.chronicle_slot([{"ticks": 0}, {"ticks": 0}, {"ticks": 0}, {"ticks": 0}]) == 0
    assert R.chronicle_slot([{"ticks": 0}, {"ticks": 1}]) == 1


def test_succession_sums_each_line_and_ignores_absent_houses():
    chron = {
        "influence": [_sticker(1, "positive", "a", 0), _sticker(2, "positive", "z", 1), None],
        "morale": [_sticker(3, "negative", "a", 0), None, None],
        "welfare": [None, None, None],
    }
    assert R.succession_resource_moves(chron) == {"influence": 2, "morale": -1, "welfare": 0}
    assert R.succession_power(chron, ["a", "b"]) == {"a": 0, "b": 0}
    assert R.succession_power(chron, ["a", "z"]) == {"a": 0, "z": 1}
    R.age_chronicle(chron, {"1": 2, "2": 2})
    assert [s["ticks"] for s in chron["influence"] if s] == [1, 2]
    R.age_chronicle(chron, {"1": 2, "2": 2})
    assert [s["ticks"] for s in chron["influence"] if s] == [2, 2]
    assert chron["morale"][0]["ticks"] == 2  # default 3 boxes


def test_public_tokens_rightmost_wins_equal_ticks_and_fewest_ticks_first():
    chron = {
        "morale": [_sticker(1, "negative", "m", 3), _sticker(2, "negative", "v", 1),
                   _sticker(3, "negative", "n", 1), _sticker(4, "positive", "m", 2)],
    }  # fmt: skip
    out = R.public_objective_tokens(chron, ["m", "v", "n"])
    assert out == {"m": [["morale", "positive"]], "v": [], "n": [["morale", "negative"]]}
    out = R.public_objective_tokens(chron, ["m", "v"])
    assert out == {"m": [["morale", "positive"]], "v": [["morale", "negative"]]}
    chron["morale"][0]["ticks"] = 0  # now Martina's is the most recent
    assert R.public_objective_tokens(chron, ["m", "v", "n"])["m"] == [
        ["morale", "positive"], ["morale", "negative"]]  # fmt: skip


def test_chronicle_ageing_stops_at_three_boxes_by_default():
    chron = {"morale": [_sticker(9, "negative", "a", 0)]}
    for _ in range(5):
        R.age_chronicle(chron, {})
    assert chron["morale"][0]["ticks"] == 3


def test_every_step_has_exactly_one_handler():
    """The table of steps where one section of the rules hands over to another: a name
    registered once names its function, a second registration of the same name is refused
    (two sections claiming one step would make play depend on import order), and ``run``
    hands over with the arguments."""
    from engine.dilemme import game, steps  # noqa: F401 (game imports every section)

    def handler(*args):
        return ("ran", args)

    try:
        assert steps.step("_test_step")(handler) is handler
        assert steps.run("_test_step", 1, 2) == ("ran", (1, 2))
        with pytest.raises(AssertionError, match="_test_step"):
            steps.step("_test_step")(lambda: None)
        assert steps.STEPS["_test_step"] is handler
    finally:
        steps.STEPS.pop("_test_step", None)
    # every step the rules modules registered at import is still there
    names = {"start_round", "resolve", "open_envelope", "start_event", "event_rules"}
    assert names <= set(steps.STEPS)


# --- Set-up (« Mise en place »): what each house starts with, succession, the first steps ---

THREE = [{"house": h.lower()} for h in NAMES[:3]]  # Théodore, Julius, Armin


def _signed(b: dict, sid: str, signer: str, ticks: int = 0) -> dict:
    rec = b["records"]["chronicle_sticker"][sid]
    return {"id": sid, "polarity": rec["polarity"], "signer": signer, "ticks": ticks}


def test_up_to_two_public_tokens_of_each_polarity_are_kept_a_third_is_too_many():
    """« Jusqu'à 2 jetons positifs et jusqu'à 2 négatifs »: a third of one polarity is too many."""
    pos, neg = ["influence", "positive"], ["morale", "negative"]

    def excess(*tokens: list[str]) -> bool:
        return SETUP._token_excess({"public": list(tokens)})

    assert not excess(pos, pos)
    assert not excess(neg, neg)
    assert not excess(pos, pos, neg)
    assert not excess(pos, pos, neg, neg)
    assert excess(pos, pos, pos)
    assert excess(neg, neg, neg)
    assert excess(neg, neg, neg, pos)


def test_a_house_with_too_many_tokens_chooses_them_before_the_secret_objective_draft():
    """Too many public tokens: the set-up stops at the tokens step until the house has chosen."""
    b = make_bundle()
    for i, res in enumerate(("influence", "prosperity", "morale")):
        sticker_record(b, str(70 + i), res, "positive")
    camp = new_campaign(b, 1)
    for i, res in enumerate(("influence", "prosperity", "morale")):
        camp["chronicle"][res][0] = _signed(b, str(70 + i), "armin")
    s = new_game(b, camp, THREE, 1)
    assert s["phase"] == "tokens"
    assert s["pending"] == {"type": "keep_tokens", "seat": 2}
    s = apply(b, s, legal_actions(b, s, 2)[0])
    assert s["phase"] == "draft"


def test_a_new_game_holds_every_field_of_the_table_and_the_draft_is_put_away_after_it():
    """A new game is saved with every field of the table (no vote nor result yet, no stray one);
    once every house has drafted, the unused objectives go back unseen (no draft left)."""
    b = make_bundle()
    s = new_game(b, new_campaign(b, 1), THREE, 1)
    fields = {
        "format_version", "game", "rng", "campaign", "seats", "resources", "stability",
        "stability_track", "abdicated", "king_dead", "balance", "deck", "timeline",
        "skull_cards", "events", "kept_immediates", "leader", "moderator", "round", "phase",
        "pending", "vote", "draft", "final_pending", "log", "result",
    }  # fmt: skip
    assert set(s) == fields
    assert s["vote"] is None and s["result"] is None and s["phase"] == "draft"
    while s["phase"] == "draft":
        s = apply(b, s, legal_actions(b, s, s["pending"]["seat"])[0])
    assert s["phase"] == "vote" and set(s) == fields
    assert s["draft"] is None
    assert view(b, s, 0)["draft"] is None


def _story(b: dict, key: str, arc: str, abilities: list[dict]) -> None:
    b["records"]["story_card"][key] = {
        "id": key, "arc": arc, "title": key, "text": "…", "signature": True,
        "abilities": abilities,
    }  # fmt: skip


def test_game_start_abilities_of_unlocked_achievements_and_signed_story_cards_on_top():
    """At the set-up a house gains what its unlocked achievements' and its signed, uncovered
    story cards' game-start abilities give; no other trigger, no one else's card."""
    b = make_bundle()
    b["records"]["house"]["théodore"]["achievements"] = [
        {"id": "a1", "kind": "narrative", "condition": "c1", "boxes": 1,
         "ability": {"trigger": "game_start", "text": "2 pièces", "gains": {"coins": 2}}},
        {"id": "a2", "kind": "narrative", "condition": "c2", "boxes": 1,
         "ability": {"trigger": "at_will", "text": "5 Pouvoir", "gains": {"power": 5}}},
    ]  # fmt: skip
    start = {"trigger": "game_start", "text": "t"}
    _story(b, "H1", "a", [{**start, "gains": {"power": 1}}])
    _story(b, "H2", "b", [{**start, "gains": {"coins": 3}}])
    _story(b, "H3", "b", [{**start, "gains": {"coins": 4}}])
    camp = new_campaign(b, 1)
    camp["houses"]["théodore"]["unlocked"] = ["a1", "a2"]
    camp["arcs"]["a"].append({"card": "H1", "signer": "julius"})  # on top of H0
    camp["arcs"]["b"] = [{"card": "H2", "signer": "armin"}, {"card": "H3", "signer": None}]
    s = new_game(b, camp, THREE, 1)
    assert [(x["coins"], x["power"]) for x in s["seats"]] == [(12, 8), (10, 9), (10, 8)]
    gains = [e for e in s["log"] if e["key"] == "gain"]
    assert gains == [
        {"key": "gain", "args": {"house": "Théodore", "why": "ability", "coins": 2}},
        {"key": "gain", "args": {"house": "Julius", "why": "ability", "power": 1}},
    ]
    sources = [[k for k, _ in _ability_sources(b, s, i)] for i in range(3)]
    assert sources == [["théodore/a1", "théodore/a2"], ["story:H1#0"], []]


def test_an_event_in_play_applies_its_game_start_rule_at_the_set_up():
    """An Event in play whose rule acts at the start of the game applies it once the tokens are
    given (here the moderator takes a coin); its other rules wait."""
    b = make_bundle()
    b["records"]["event_card"] = {
        "E1": {"id": "E1", "title": "Disette", "text": "…", "rules": [
            {"on": "game_start", "effects": [{"gain": {"who": "moderator", "coins": 1}}]},
            {"on": "round_end", "effects": [{"gain": {"who": "all", "coins": 5}}]},
        ]},
    }  # fmt: skip
    camp = new_campaign(b, 1)
    camp["events"] = ["E1"]
    s = new_game(b, camp, THREE, 1)
    assert s["moderator"] == 0  # Théodore: everyone at 0 prestige, the lowest house number
    assert [x["coins"] for x in s["seats"]] == [11, 10, 10]


def test_succession_moves_stop_at_the_track_ends_from_the_centre_of_an_odd_track():
    """The markers start on the centre square (on a 0–5 track, square 2 = 5 // 2); the
    succession moves them, never past square 0 nor the last square."""
    b = make_bundle()
    b["campaign"]["rules"]["resource_track"] = 5
    lines = {"morale": "negative", "influence": "positive"}
    camp = new_campaign(b, 1)
    for res, polarity in lines.items():
        for i in range(4):
            sid = f"{9 if polarity == 'negative' else 8}{i}"
            sticker_record(b, sid, res, polarity)
            camp["chronicle"][res][i] = _signed(b, sid, "frances")  # not playing
    s = new_game(b, camp, THREE, 1)
    pos = {r: m["pos"] for r, m in s["resources"].items()}
    assert pos == {"influence": 5, "prosperity": 2, "morale": 0, "welfare": 2, "knowledge": 2}
    assert all(type(p) is int for p in pos.values())


def test_succession_ages_each_sticker_up_to_its_own_number_of_boxes():
    """Each chronicle sticker ages one box per game, up to the boxes printed on it (here 5)."""
    b = make_bundle()
    sticker_record(b, "81", "welfare", "positive")
    b["records"]["chronicle_sticker"]["81"]["boxes"] = 5
    camp = new_campaign(b, 1)
    camp["chronicle"]["welfare"][0] = _signed(b, "81", "julius", ticks=3)
    s = new_game(b, camp, THREE, 1)
    assert s["campaign"]["chronicle"]["welfare"][0]["ticks"] == 4
    s = new_game(b, s["campaign"], THREE, 1)
    s = new_game(b, s["campaign"], THREE, 1)
    assert s["campaign"]["chronicle"]["welfare"][0]["ticks"] == 5


def test_a_campaign_without_chronicle_stickers_still_sets_up_a_game():
    """A campaign may have no chronicle sticker at all: its games set up all the same."""
    b = make_bundle()
    del b["records"]["chronicle_sticker"]
    for card in b["records"]["dilemma"].values():
        card["nenni"]["effects"] = [
            e for e in card["nenni"]["effects"] if "chronicle_sticker" not in e
        ]
    s = new_game(b, new_campaign(b, 1), THREE, 1)
    assert s["phase"] == "draft" and s["pending"]["type"] == "draft"


def test_the_journal_opens_with_the_game_and_who_takes_the_leader_and_moderator_tokens():
    """The journal starts with the game's number and its houses, then who takes the Meneur
    token (highest prestige) and who the Modérateur token (lowest)."""
    b = make_bundle()
    camp = new_campaign(b, 1)
    camp["houses"]["julius"]["prestige"] = 4
    s = new_game(b, camp, THREE, 1)
    assert s["log"] == [
        {"key": "game.start", "args": {"game": 1, "houses": ["Théodore", "Julius", "Armin"]}},
        {"key": "setup.tokens", "args": {"leader": "Julius", "moderator": "Théodore"}},
    ]


def test_the_centre_of_an_odd_stability_track_is_where_its_marker_starts():
    """« Au centre de la piste Stabilité »: on a 0–15 track the marker starts on square 7, the
    centre; 8 is in the top half and 6 in the bottom half."""
    b = make_bundle()
    b["campaign"]["rules"]["stability_track"] = 15
    s = new_game(b, new_campaign(b, 1), THREE, 1)
    assert s["stability"] == 7

    def holds(where: str, stability: int) -> bool:
        s["stability"] = stability
        return _achievement_holds(s, 0, {"stability": where}, 1, "died")

    assert holds("centre", 7) and not holds("centre", 8) and not holds("centre", 6)
    assert holds("top_half", 8) and not holds("top_half", 7)
    assert holds("bottom_half", 6) and not holds("bottom_half", 7)
