"""The Citadel's table, cards, effects and turns one function at a time, written from the
rulebook's situations (« Explorer les Terres Effondrées », « Pas la place de mettre une carte
en jeu », « Ranger », the effects and the turn) so that a one-line change to a rule fails here:
these are the tests that judge the mutants of ``board.py``, ``taking.py``, ``effects.py``,
``turn.py``, ``scenario.py``, ``citadel.py``, ``actions.py`` and ``cards.py``
(``engine/citadelle/mutation.toml``)."""

from __future__ import annotations

import copy

import pytest

from engine.citadelle import actions as A
from engine.citadelle import board as B
from engine.citadelle import cards as K
from engine.citadelle import citadel as CI
from engine.citadelle import effects as E
from engine.citadelle import records as rec
from engine.citadelle import scenario as S
from engine.citadelle import taking
from engine.citadelle import turn as T
from engine.citadelle.situation import consequence, place, play, situation
from engine.core import IllegalAction, MalformedAction
from pipeline.story.bundles import bundle_for


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def entries(state: dict, key: str) -> list[dict]:
    return [e["args"] for e in state["log"] if e["key"] == key]


# --------------------------------------------------------------------------- board.py


def test_north_is_the_top_of_a_terrain():
    """« le nord désigne toujours la partie supérieure d'une carte Terrain »."""
    assert [B.neighbour("2,3", d) for d in ("north", "south", "east", "west")] == [
        "2,2",
        "2,4",
        "3,3",
        "1,3",
    ]
    assert B.coords("-3,12") == (-3, 12) and B.cell(-1, 0) == "-1,0"


def test_the_table_has_room_for_seven_columns_and_five_rows(bundle):
    """Around the first Terrain, 3 cells each side across and 2 up and down."""
    inside = ["-3,0", "3,0", "0,-2", "0,2", "3,2", "-3,-2"]
    outside = ["-4,0", "4,0", "0,-3", "0,3", "4,3"]
    assert all(B.in_bounds(bundle, k) for k in inside)
    assert not any(B.in_bounds(bundle, k) for k in outside)


def test_the_first_terrains_deal_an_exploration_card_before_each_free_arrow(bundle):
    """The introduction: north and south of the gates, a zone I card face down; east, the
    arrow has no zone: its numbered card comes at once."""
    s = situation(bundle, ["A", "B"])
    assert s["board"]["0,0"]["terrain"].startswith("101")
    assert s["board"]["1,0"]["terrain"].startswith("102")
    north, south = s["slots"]["0,-1"], s["slots"]["0,1"]
    assert (north["card"], north["zone"], north["from"]) == ("106", "I", "0,0")
    assert (south["card"], south["zone"]) == ("107", "I")
    assert north["exploration"] and not north["revealed"]
    assert K.where(bundle, s, K.exploration(north["exploration"])) == "slot:0,-1"
    assert "1,0" not in s["slots"]


def test_a_resolved_exploration_card_frees_its_place_for_the_arrows_card(bundle):
    """Bruno's example: the exploration card leaves the Plateau for the Past; the arrow's
    numbered card (106, a Terrain) takes its place and deals zone I cards before its arrows."""
    s = situation(bundle, ["A"])
    exp = s["slots"]["0,-1"]["exploration"]
    assert B.leave(bundle, s, K.exploration(exp), "past") == "slot:0,-1"
    assert K.where(bundle, s, K.exploration(exp)) == "past"
    assert s["board"]["0,-1"]["terrain"].startswith("106")
    new = s["slots"]["0,-2"]
    assert (new["from"], new["card"], new["zone"]) == ("0,-1", "121", "I")
    assert new["exploration"] and K.where(bundle, s, K.exploration(new["exploration"])) == (
        "slot:0,-2"
    )


def test_an_empty_exploration_deck_gets_the_past_back(bundle):
    """« Si vous devez mettre en jeu une carte Exploration qui n'est pas disponible, vous
    devez immédiatement ranger toutes les cartes du Passé »."""
    s = situation(bundle, ["A"])
    zone_one = list(s["explore_decks"]["I"])
    for key in zone_one:
        K.move(bundle, s, K.exploration(key), "past")
    assert s["explore_decks"]["I"] == []
    drawn = B.draw_exploration(bundle, s, "I")
    assert drawn in zone_one and s["past"] == []
    assert sorted(s["explore_decks"]["I"]) == sorted(zone_one)
    assert entries(s, "past.restored") == [{"count": len(zone_one)}]
    B.restore_past(bundle, s)  # nothing in the Past: nothing to log
    assert len(entries(s, "past.restored")) == 1
    assert B.draw_exploration(bundle, s, "no such zone") is None


def test_figures_on_a_terrain_put_away_step_onto_the_nearest_terrain(bundle):
    s = situation(bundle, ["A", "B", "C"])
    s["characters"][1]["at"] = "2,0"
    s["characters"][2]["at"] = "1,0"
    B.leave(bundle, s, K.adventure(s["board"]["2,0"]["terrain"]), "box")
    assert "2,0" not in s["board"]
    assert [c["at"] for c in s["characters"]] == ["0,0", "1,0", "1,0"]
    B.leave(bundle, s, K.adventure(s["board"]["1,0"]["terrain"]), "box")
    assert [c["at"] for c in s["characters"]] == ["0,0", "0,0", "0,0"]


def test_equally_near_terrains_the_first_in_reading_order_takes_the_figures(bundle):
    s = situation(bundle, ["A"])
    s["characters"][0]["at"] = "1,0"
    B.leave_quietly(bundle, s, K.adventure(s["board"]["1,0"]["terrain"]), "box")
    assert s["characters"][0]["at"] == "1,0"  # quietly: nobody regroups
    B.regroup_orphans(s, "1,0")
    assert s["characters"][0]["at"] == "0,0"  # 0,0 and 2,0 are both 1 away
    s["board"].clear()
    s["characters"][0]["at"] = "5,5"
    B.regroup_orphans(s, "5,5")  # no Terrain left: the figure stays
    assert s["characters"][0]["at"] == "5,5"


def test_a_terrain_put_away_takes_its_linked_events_with_it(bundle):
    s = situation(bundle, ["A"])
    event = s["board"]["0,0"]["events"][0]["key"]
    B.leave(bundle, s, K.adventure(s["board"]["0,0"]["terrain"]), "past")
    assert K.where(bundle, s, K.adventure(event)) == "past"
    s = situation(bundle, ["A"])
    B.leave_quietly(bundle, s, K.adventure(s["board"]["0,0"]["terrain"]), "banished")
    assert K.where(bundle, s, K.adventure(event)) == "banished"


def test_a_terrain_without_an_arrow_goes_on_the_first_free_side():
    """North, east, south, west in turn; with every side taken, the nearest free cell."""
    state = {"board": {"0,0": {}, "1,0": {}}, "slots": {"0,-1": {}, "0,1": {}}}
    assert B.adjacent_free(state, "0,0") == "-1,0"
    state["board"]["-1,0"] = {}
    assert B.adjacent_free(state, "0,0") == "-2,-2"
    assert B.adjacent_free(state, "1,0") == "1,-1"
    assert B.free(state, "5,5") and not B.free(state, "0,1") and not B.free(state, "1,0")


def test_no_room_on_the_table_keeps_the_active_characters_terrain_at_the_centre(bundle):
    """« Pas la place de mettre une carte en jeu »: everyone regroups on one Terrain, the other
    Terrains and their permanent events are put away, and exploration cards are dealt again
    before the free arrows."""
    s = situation(bundle, ["A", "B", "C"], hp={"C": 0})
    s["characters"][0]["at"] = "2,0"
    gates, bridge, hamlet = (s["board"][k]["terrain"] for k in ("0,0", "1,0", "2,0"))
    event = s["board"]["0,0"]["events"][0]["key"]
    explorations = [slot["exploration"] for slot in s["slots"].values()]
    orchard = K.adventure(taking.choose_version(bundle, s, "106"))
    at = B.place_terrain(bundle, s, orchard["key"], "4,0")  # east of 3,0: off the table
    assert at == "2,0"  # as far east of the kept Terrain as it was wanted
    assert (
        s["board"]["0,0"]["terrain"] == hamlet and s["board"]["2,0"]["terrain"] == (orchard["key"])
    )
    for key in (gates, bridge, event):
        assert K.where(bundle, s, K.adventure(key)) == "box"
    for key in explorations:  # back in their decks (one may be dealt again)
        assert K.where(bundle, s, K.exploration(key)) in ("box", "slot:1,0", "slot:2,-1")
    assert [c["at"] for c in s["characters"][:2]] == ["0,0", "0,0"]
    assert set(s["slots"]) == {"1,0", "2,-1"}  # the hamlet's west arrow, the orchard's north
    assert s["slots"]["1,0"]["from"] == "0,0" and s["slots"]["2,-1"]["from"] == "2,0"
    assert entries(s, "table.full") == [{}]


def test_no_room_where_the_shifted_place_is_taken_goes_beside_the_kept_terrain(bundle):
    s = situation(bundle, ["A"])
    s["action"] = {"character": 0}
    assert B.out_of_space(bundle, s, "0,3") == ("0,-1", "0,0")  # 0,3 is off the table
    assert list(s["board"]) == ["0,0"] and s["slots"] == {}
    assert s["board"]["0,0"]["terrain"].startswith("101")


def test_moving_a_figure_records_where_it_arrives(bundle):
    s = situation(bundle, ["A"])
    B.move_figure(bundle, s, 0, "1,0")
    assert s["characters"][0]["at"] == "1,0" and s["arrivals"][-1] == "1,0"
    title = B.terrain_title(bundle, s, "1,0")
    assert title == "Le Pont de Mardoche"
    name = s["characters"][0]["name"]
    assert entries(s, "moved")[-1] == {"name": name, "title": title, "id": "A"}
    assert B.terrain_title(bundle, s, None) == "" and B.terrain_title(bundle, s, "9,9") == ""


def test_the_nearest_terrain_counts_steps_across_and_down():
    def nearest(gone: str, *left: str) -> str:
        state = {"board": {key: {} for key in left}, "characters": [{"at": gone}]}
        B.regroup_orphans(state, gone)
        return state["characters"][0]["at"]

    assert nearest("0,0", "1,0", "0,3") == "1,0"  # 1 step, not 3 down
    assert nearest("0,2", "1,2", "0,-1") == "1,2"  # 1 step, not 3 up


def test_every_cell_around_is_searched_for_room():
    """The first free cell of the square around: here only its far corner is left."""
    taken = {B.cell(x, y): {} for x in range(-2, 3) for y in range(-2, 3)}
    del taken["2,2"]
    assert B.adjacent_free({"board": taken, "slots": {}}, "0,0") == "2,2"
    del taken["-2,2"]
    assert B.adjacent_free({"board": {}, "slots": taken}, "0,0") == "-2,2"
    full = {B.cell(x, y): {} for x in range(-2, 3) for y in range(-2, 3)}
    assert B.adjacent_free({"board": full, "slots": {}}, "0,0") == "-3,-3"  # the next ring


def test_a_place_still_holding_a_card_lets_no_arrow_card_come(bundle):
    s = situation(bundle, ["A"])
    B.free_slot(bundle, s, "0,-1")  # its exploration card is still there
    assert "0,-1" in s["slots"] and "0,-1" not in s["board"]
    s["slots"]["-1,0"] = {"exploration": None, "adventure": "305/green", "card": "106"}
    B.free_slot(bundle, s, "-1,0")  # a permanent event holds it
    assert "-1,0" in s["slots"] and "-1,0" not in s["board"]
    B.free_slot(bundle, s, "5,5")  # no place there: nothing happens


def test_the_arrow_card_comes_to_the_active_character_of_the_action(bundle):
    """The active player takes the arrow's card: a purse card in front of the character whose
    action freed the place; a permanent event on the place, pointing to the arrow's Terrain."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    s["action"] = {"character": 1, "drawn": []}
    blank = {"exploration": None, "adventure": None, "revealed": True, "zone": None}
    s["slots"]["-1,0"] = {**blank, "from": "0,0", "card": "310"}
    B.free_slot(bundle, s, "-1,0")
    assert K.where(bundle, s, K.adventure("310/green")) == "purse:B"
    assert "-1,0" not in s["slots"]
    s["slots"]["0,1"] = {**blank, "from": "1,0", "card": "305"}
    B.free_slot(bundle, s, "0,1")
    assert s["slots"]["0,1"]["adventure"] == "305/green" and s["slots"]["0,1"]["from"] == "1,0"
    alone = situation(bundle, ["A"], scenario="forges_mortes")  # no action under way
    alone["slots"]["-1,0"] = {**blank, "from": "0,0", "card": "310"}
    B.free_slot(bundle, alone, "-1,0")
    assert alone["characters"][0]["purse"] == ["310/green"]


def test_no_room_regroups_on_the_terrain_of_the_actions_active_character(bundle):
    s = situation(bundle, ["A", "B"])
    s["action"] = {"character": 1, "drawn": []}
    s["characters"][1]["at"] = "2,0"
    hamlet = s["board"]["2,0"]["terrain"]
    assert B.out_of_space(bundle, s, "5,0") == ("3,0", "0,0")
    assert s["board"] == {"0,0": {"terrain": hamlet, "events": []}}


def test_no_room_shifts_the_wanted_place_across_and_down(bundle):
    s = situation(bundle, ["A"])
    orchard = place(bundle, s, 106, "1,-1")
    s["characters"][0]["at"] = "1,-1"
    assert B.out_of_space(bundle, s, "1,-3") == ("0,-2", "0,0")
    assert s["board"]["0,0"]["terrain"] == orchard


def test_no_room_puts_back_the_events_on_exploration_places(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    blank = {"exploration": None, "adventure": None, "revealed": True, "zone": None}
    s["slots"]["-1,0"] = {**blank, "from": "0,0", "card": None}
    K.move(bundle, s, K.adventure("305/green"), "slot:-1,0")
    B.out_of_space(bundle, s, "9,0")
    assert K.where(bundle, s, K.adventure("305/green")) == "box"


def test_no_room_with_no_terrain_left_starts_again_at_the_centre(bundle):
    s = situation(bundle, ["A"])
    for at in list(s["board"]):
        B.leave_quietly(bundle, s, K.adventure(s["board"][at]["terrain"]), "box")
    assert B.out_of_space(bundle, s, "9,0") == ("0,0", None)  # the figure's Terrain is gone
    s["characters"][0]["at"] = None
    assert B.out_of_space(bundle, s, "9,0") == ("0,0", None)
    assert s["characters"][0]["at"] == "0,0"


def test_no_exploration_card_before_an_arrow_off_the_table_or_onto_a_terrain(bundle):
    """Only « chaque emplacement adjacent libre désigné par une flèche »: at the top row a
    north arrow leaves the table (the other arrow is still dealt); at 0,1 the north arrow
    of 301 meets the gates."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    B.place_terrain(bundle, s, "301/green", "2,-2")
    assert "2,-3" not in s["slots"] and s["slots"]["3,-2"]["card"] == "302"
    B.place_terrain(bundle, s, "306/green", "-2,-2")  # north first: off the table
    assert "-2,-3" not in s["slots"] and s["slots"]["-3,-2"]["card"] == "308"
    s = situation(bundle, ["A"])
    K.move(bundle, s, K.exploration(s["slots"]["0,1"]["exploration"]), "box")
    del s["slots"]["0,1"]  # the gates' south place, emptied by hand
    B.place_terrain(bundle, s, "301/green", "0,1")
    assert s["board"]["0,0"]["terrain"] == "101/green" and "0,0" not in s["slots"]
    assert s["slots"]["1,1"]["from"] == "1,0"  # already taken: left as it was
    assert entries(s, "terrain.placed")[-1] == {"title": rec.adv(bundle, "301/green")["title"],
                                                "at": "0,1"}  # fmt: skip


def test_an_arrows_zone_deck_empty_gets_the_past_back_before_dealing(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    zone = list(s["explore_decks"]["II"])
    for key in zone:
        K.move(bundle, s, K.exploration(key), "past")
    B.place_terrain(bundle, s, "301/green", "-2,0")
    dealt = {s["slots"][k]["exploration"] for k in ("-1,0", "-2,-1")} - {None}
    assert len(dealt) == 2 and dealt <= set(zone)
    assert entries(s, "past.restored")[-1] == {"count": len(zone)}


# --------------------------------------------------------------------------- taking.py


def test_held_numbers_are_purses_blocked_cards_and_quest_items(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", purses={"A": [310]},
                  blocked={"B": [207]})  # fmt: skip
    K.move(bundle, s, K.adventure("325/green"), "quest_items")
    assert taking.held_numbers(bundle, s) == {"310", "207", "325"}


def test_green_before_gold_and_gold_only_when_no_green_is_left(bundle):
    """« Un joueur n'a le droit de prendre une carte à dos doré que si aucune carte à dos
    vert ayant le même numéro n'est disponible »."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    assert taking.choose_version(bundle, s, "310") == "310/green"
    K.move(bundle, s, K.adventure("310/green"), "purse:A")
    assert taking.choose_version(bundle, s, "310") == "310/gold"
    K.move(bundle, s, K.adventure("310/gold"), "past")
    assert taking.choose_version(bundle, s, "310") is None


def test_the_copy_of_the_scenario_being_played_comes_first(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise")
    assert taking.choose_version(bundle, s, "105") == "105/green@pluie_grise"
    other = situation(bundle, ["A"], scenario="forges_mortes")
    assert taking.choose_version(bundle, other, "105") == "105/green"
    linked = situation(bundle, ["A"], purses={"A": [110]})  # « ou possédez la carte »
    assert taking.choose_version(bundle, linked, "120") == "120/green+110"


def test_a_card_that_is_not_available_brings_the_past_back_unless_marked(bundle):
    """« SI AUCUNE CARTE N'EST DISPONIBLE »: ranger toutes les cartes du Passé, then take it;
    with the « rien à faire » icon (``take_if_available``), nothing happens."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    for key in ("310/green", "310/gold"):
        K.move(bundle, s, K.adventure(key), "past")
    ctx = {"character": 0, "verb": None}
    assert not taking.take(bundle, s, "310", ctx, if_available=True)
    assert entries(s, "card.unavailable") == [{"number": 310}]
    assert len(s["past"]) == 2 and s["characters"][0]["purse"] == []
    assert taking.take(bundle, s, "310", ctx)
    assert s["characters"][0]["purse"] == ["310/green"] and s["past"] == []
    assert K.where(bundle, s, K.adventure("310/gold")) == "box"


def test_each_type_of_card_goes_where_the_rulebook_puts_it(bundle):
    """Carte Bourse in front of the active player, Objet de quête behind its divider,
    Événement global beside the Plateau, Mappemonde aside, Événement temporaire resolved."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    ctx = {"character": 1, "verb": None}
    for key in ("310/green", "325/green", "203/green", "710/green", "304/green"):
        taking.reveal(bundle, s, key, ctx)
    where = {k: K.where(bundle, s, K.adventure(k)) for k in
             ("310/green", "325/green", "203/green", "710/green", "304/green")}  # fmt: skip
    assert where == {"310/green": "purse:B", "325/green": "quest_items",
                     "203/green": "globals", "710/green": "world_map",
                     "304/green": "resolving"}  # fmt: skip
    taken = entries(s, "card.taken")[-5]
    assert taken["number"] == 310 and taken["type"] == "purse" and taken["key"] == "310/green"
    assert taken["title"] == "Tisonnier de Veilleur"


def test_a_temporary_event_queues_its_mandatory_action_then_leaves(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    card = next(
        (k, i)
        for k in rec.recs(bundle, "adventure_card")
        if rec.adv(bundle, k)["type"] == "temporary_event"
        for i, a in enumerate(rec.adv(bundle, k).get("actions") or [])
        if a.get("mandatory")
    )
    key, index = card
    s["queue"] = []
    taking.reveal(bundle, s, key, {"character": 1, "verb": None})
    (frame,) = s["queue"]
    assert {"_act": {"source": f"temp:{key}", "index": index, "character": 1}} in frame["effects"]
    assert frame["effects"][-1] == {"_leave_temp": K.adventure(key)}
    assert frame["ctx"]["this"] == K.adventure(key) and frame["ctx"]["character"] == 1


def test_a_purse_card_found_together_is_given_by_the_participants(bundle):
    """« Un participant met cette carte en jeu devant lui »: with two conscious participants
    they choose who; alone, or with the other one fainted, the active player takes it."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    s["queue"] = []
    taking.reveal(bundle, s, "310/green", {"character": 0, "participants": [0, 1]})
    receive = {"_receive": {"key": "310/green", "participants": [0, 1]}}
    assert s["queue"][0]["effects"][0] == receive
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"B": 0})
    s["queue"] = []
    taking.reveal(bundle, s, "310/green", {"character": 0, "participants": [0, 1]})
    assert s["queue"] == []


def test_the_hope_card_adds_one_hope(bundle):
    s = situation(bundle, ["A"])
    hope = s["citadel"]["hope"]
    taking.reveal(bundle, s, "199/green", {"character": 0})
    assert s["citadel"]["hope"] == hope + 1
    assert entries(s, "hope")[-1] == {"amount": 1, "total": hope + 1}


def test_a_terrain_taken_without_an_arrow_goes_beside_the_active_character(bundle):
    """« lorsque vous mettez en jeu une nouvelle carte Terrain, vous n'y déplacez pas
    automatiquement votre figurine »."""
    s = situation(bundle, ["A", "B"])
    s["characters"][1]["at"] = "2,0"
    taking.reveal(bundle, s, "302/green", {"character": 1})
    assert s["board"]["2,-1"]["terrain"] == "302/green"
    assert [c["at"] for c in s["characters"]] == ["0,0", "2,0"]


def test_a_permanent_event_is_linked_to_the_active_characters_terrain(bundle):
    s = situation(bundle, ["A", "B"])
    s["characters"][1]["at"] = "1,0"
    taking.reveal(bundle, s, "305/green", {"character": 1, "verb": "search"})
    assert s["board"]["1,0"]["events"] == [{"key": "305/green", "blocked_verb": "search"}]
    assert s["arrivals"][-1] == "1,0"


def test_a_permanent_event_from_an_exploration_place_takes_that_place(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    taking.reveal(bundle, s, "305/green", {"character": 0}, at="-1,0", origin="0,0")
    assert s["slots"]["-1,0"]["adventure"] == "305/green"
    assert s["slots"]["-1,0"]["from"] == "0,0" and s["slots"]["-1,0"]["revealed"]
    assert s["slots"]["-1,0"]["card"] is None


def test_the_magnifier_finds_the_number_hidden_on_the_terrain_where_the_figure_stands(bundle):
    """« Trouver un numéro caché »: Ludovic, on Terrain 154, finds 316, discards 154 and takes
    316, whose back names 154.  Here La Chapelle effondrée (105) hides 131."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    chapel = place(bundle, s, 105, "-1,0")
    assert taking.hiding_cards(bundle, s, 0) == []  # A is on 0,0, not on the chapel
    s["characters"][0]["at"] = "-1,0"
    assert taking.hiding_cards(bundle, s, 0) == [chapel]
    assert taking.unfound(bundle, s, chapel) == [131]
    taking.examine(bundle, s, 0, chapel)
    assert s["found"] == [{"number": 131, "source": chapel}]
    assert taking.unfound(bundle, s, chapel) == []
    found = entries(s, "hidden.found")[-1]
    assert found["numbers"] == [131] and found["id"] == "A"
    assert found["name"] == s["characters"][0]["name"]
    assert found["title"] == "La Chapelle effondrée"
    assert taking.found_here(bundle, s, 1) == []  # B does not stand there
    assert taking.found_here(bundle, s, 0) == [{"number": 131, "source": chapel}]
    taking.search(bundle, s, 0, 131)
    assert K.where(bundle, s, K.adventure(chapel)) == "past"
    assert s["board"]["-1,0"]["terrain"] == "131/green" and s["found"] == []
    assert s["characters"][0]["at"] == "-1,0" and s["arrivals"][-1] == "-1,0"
    assert entries(s, "card.discard")[-1] == {"title": "La Chapelle effondrée"}


def test_a_card_whose_back_names_another_card_is_put_back(bundle):
    """« Si ce n'est pas le cas, vous avez dû prendre la mauvaise carte et devez la
    ranger »."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    chapel = place(bundle, s, 105, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    s["found"] = [{"number": 147, "source": chapel}]  # 147's back names 121
    taking.search(bundle, s, 0, 147)
    assert entries(s, "hidden.wrong") == [{"number": 147}]
    assert K.where(bundle, s, K.adventure("147/green")) == "box"
    assert s["board"]["-1,0"]["terrain"] == chapel and s["found"] == []


def test_a_hidden_event_comes_out_of_its_terrain_which_stays(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    ground = place(bundle, s, 502, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    taking.examine(bundle, s, 0, ground)
    taking.search(bundle, s, 0, 587)
    assert s["board"]["-1,0"]["terrain"] == ground
    assert K.where(bundle, s, K.adventure("587/green")) == "resolving"


def test_a_found_number_is_taken_only_while_its_card_is_in_the_box(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes", purses={"A": [310]})
    chapel = place(bundle, s, 105, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    taking.examine(bundle, s, 0, chapel)
    assert taking.found_here(bundle, s, 0) == [{"number": 131, "source": chapel}]
    for key in rec.versions(bundle, 131):  # every copy of 131 in the Past
        K.move(bundle, s, K.adventure(key), "past")
    assert taking.found_here(bundle, s, 0) == []
    s["characters"][0]["hp"], s["characters"][0]["conscious"] = 0, False
    assert taking.hiding_cards(bundle, s, 0) == []


def test_a_hidden_permanent_event_is_linked_to_the_searchers_terrain(bundle):
    """The event found on 506 is put in play linked to the Terrain of the character who
    searched, its arrow showing « fouiller »: that action is not offered there again."""
    s = situation(bundle, ["A", "B"], scenario="chemin_des_cendreux")
    ground = place(bundle, s, 506, "-1,0")
    s["characters"][1]["at"] = "-1,0"
    taking.examine(bundle, s, 1, ground)
    taking.search(bundle, s, 1, 596)
    assert s["board"]["-1,0"]["terrain"] == ground
    assert {"key": "596/green", "blocked_verb": "search"} in s["board"]["-1,0"]["events"]


def test_a_number_hidden_on_an_event_replaces_the_event(bundle):
    """447, a permanent event, hides 448: the event is discarded and 448 resolved."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    event = place(bundle, s, 447, "0,0", event=True)
    taking.examine(bundle, s, 0, event)
    taking.search(bundle, s, 0, 448)
    assert K.where(bundle, s, K.adventure(event)) == "past"
    assert K.where(bundle, s, K.adventure("448/green")) == "resolving"


def test_equal_copies_are_taken_at_random_and_a_single_one_draws_nothing(bundle):
    """« Le joueur actif prend une des cartes à dos vert au hasard »: the shipped box has no
    two equal copies, so a second green 310 is added to a copy of the records."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    rng = s["rng"]
    assert taking.choose_version(bundle, s, "310") == "310/green" and s["rng"] == rng
    twin = {**bundle, "records": {**bundle["records"]}}
    cards = dict(rec.recs(bundle, "adventure_card"))
    cards["310/green~"] = {**cards["310/green"], "key": "310/green~"}
    twin["records"]["adventure_card"] = cards
    seen = set()
    for seed in range(12):
        s = situation(bundle, ["A"], scenario="forges_mortes", seed=seed)
        s["box"]["310"] = ["310/green", "310/green~", "310/gold"]
        seen.add(taking.choose_version(twin, s, "310"))
    assert seen == {"310/green", "310/green~"}


# --------------------------------------------------------------------------- effects.py


def test_conditions_flags_items_objectives_scores_and_group_size(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", purses={"B": [310]})
    s["flags"] = ["porte"]
    s["objectives"] = ["o1"]
    s["citadel"]["scores"]["defense"] = 4

    def holds(*atoms: dict) -> bool:
        return E.holds(bundle, s, list(atoms))

    assert holds() and holds({"flag": "porte"}) and not holds({"flag": "pont"})
    assert holds({"not_flag": "pont"}) and not holds({"not_flag": "porte"})
    assert holds({"item": 310}) and not holds({"item": 311})
    assert holds({"objective": "o1"}) and not holds({"objective": "o2"})
    assert holds({"score": {"defense": 4}}) and not holds({"score": {"defense": 5}})
    assert holds({"characters": 2}) and not holds({"characters": 3})
    assert not holds({"flag": "porte"}, {"flag": "pont"})  # all of them
    assert holds({"any": [{"flag": "pont"}, {"flag": "porte"}]})
    assert holds({"any": [{"flag": "pont"}, {"item": 310}]})
    assert not holds({"any": [{"flag": "pont"}, {"objective": "o2"}]})
    assert E.holds(bundle, s, {"flag": "porte", "objective": "o1"})  # a mapping: all of them
    assert not E.holds(bundle, s, {"flag": "porte", "objective": "o2"})


def test_a_side_quest_condition_active_means_begun_and_not_done(bundle):
    s = situation(bundle, ["A"])
    quests = s["citadel"]["side_quests"]
    active = {"quest": {"id": "q", "state": "active"}}
    primed = {"quest": {"id": "q", "state": "primed"}}
    assert not E.holds(bundle, s, [active]) and not E.holds(bundle, s, [primed])
    quests["q"] = "primed"
    assert E.holds(bundle, s, [active]) and E.holds(bundle, s, [primed])
    quests["q"] = "done"
    assert not E.holds(bundle, s, [active]) and not E.holds(bundle, s, [primed])
    assert E.holds(bundle, s, [{"quest": {"id": "q", "state": "done"}}])


def test_the_card_an_effect_names(bundle):
    s = situation(bundle, ["A"])
    gates = s["board"]["0,0"]["terrain"]
    assert E.resolve(bundle, s, "this", {"this": K.adventure(gates)}) == K.adventure(gates)
    assert E.resolve(bundle, s, "this", {}) is None
    assert E.resolve(bundle, s, "this", {"this": {"kind": "paragraph", "key": "66"}}) is None
    assert E.resolve(bundle, s, "a_estoc", {}) == K.action_card("a_estoc")
    assert E.resolve(bundle, s, 101, {}) == K.adventure(gates)  # the copy in play
    assert E.resolve(bundle, s, 310, {}) is None  # every copy in the box
    exp = s["slots"]["0,-1"]["exploration"]
    assert E.resolve(bundle, s, exp, {}) == K.exploration(exp)
    assert E.resolve(bundle, s, "nothing", {}) is None


def test_discarding_a_drawn_skill_sends_it_to_the_active_players_discard(bundle):
    """« Défausser une carte »: an Action card goes to the discard of its owner (a drawn one:
    of the active player); banished, it leaves the game; put back, into the box."""
    s = situation(bundle, ["A", "B"], hands={"B": ["a_estoc", "a_cri"]})
    s["action"] = {"character": 1, "drawn": []}
    K.move(bundle, s, K.action_card("a_bouclier"), "drawn")
    ctx = {"character": 1, "participants": [1]}
    for name, skill in (("discard", "a_bouclier"), ("banish", "a_estoc"), ("put_back", "a_cri")):
        E._leave_play(bundle, s, name, skill, ctx)
    assert K.where(bundle, s, K.action_card("a_bouclier")) == "discard:B"
    assert K.where(bundle, s, K.action_card("a_estoc")) == "banished"
    assert K.where(bundle, s, K.action_card("a_cri")) == "box"
    assert [e["key"] for e in s["log"][-3:]] == ["card.discard", "card.banish", "card.put_back"]
    E._leave_play(bundle, s, "discard", "a_estoc", ctx)  # already banished: stays there
    assert K.where(bundle, s, K.action_card("a_estoc")) == "banished"


def test_a_temporary_event_whose_participants_all_fainted_is_put_back(bundle):
    """« Si tous les participants à une action figurant sur une carte [temporaire] deviennent
    inconscients, cette carte est rangée »: its « défaussez » sends it to the box."""
    s = situation(bundle, ["A", "B"], hp={"A": 0}, scenario="forges_mortes")
    K.move(bundle, s, K.adventure("304/green"), "resolving")
    E._leave_play(bundle, s, "discard", "this", {"this": K.adventure("304/green"),
                                                 "participants": [0]})  # fmt: skip
    assert K.where(bundle, s, K.adventure("304/green")) == "box"
    K.move(bundle, s, K.adventure("304/green"), "resolving")
    E._leave_play(bundle, s, "discard", "this", {"this": K.adventure("304/green"),
                                                 "participants": [0, 1]})  # fmt: skip
    assert K.where(bundle, s, K.adventure("304/green")) == "past"


def test_apply_now_runs_branches_and_skips_the_turns_own_steps(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    s["queue"] = [{"effects": [{"damage": 5}], "ctx": {}}]
    branch = {"branch": {"requires": [], "then": [{"damage": 1}, {"flag": "x"}]}}
    E.apply_now(bundle, s, [branch, {"_finish_action": None}, {"damage": 2}], {"character": 0})
    assert s["characters"][0]["hp"] == 6 and "x" in s["flags"]
    assert s["queue"] == [{"effects": [{"damage": 5}], "ctx": {}}]


def test_effects_of_a_character_gone_fall_on_the_first_one(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 9, "B": 9})
    s = consequence(bundle, s, {"damage": 2}, by=5)
    assert [c["hp"] for c in s["characters"]] == [7, 9]
    s = consequence(bundle, s, {"damage": 3}, by=1)
    assert [c["hp"] for c in s["characters"]] == [7, 6]
    s = consequence(bundle, s, {"damage": 1}, by=2)
    assert [c["hp"] for c in s["characters"]] == [6, 6]


def test_a_cancelled_damage_is_told_with_what_it_cancelled(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    s = consequence(bundle, s, {"cancel_damage": 5}, {"damage": 3}, {"damage": 4})
    assert s["characters"][0]["hp"] == 9 - 2
    cancelled = entries(s, "damage.cancelled")
    assert [(e["amount"], e["of"]) for e in cancelled] == [(3, 3), (2, 4)]
    s = consequence(bundle, s, {"damage": 1})
    assert len(entries(s, "damage.cancelled")) == 2  # nothing cancelled: nothing told


def test_keep_and_die_effects_need_an_action_under_way(bundle):
    s = situation(bundle, ["A"])
    s["action"] = None
    E.apply_effect(bundle, s, {"add_to_hand": 1}, {"character": 0})
    E.apply_effect(bundle, s, {"move_die": 1}, {"character": 0})
    assert s["action"] is None
    s["action"] = {"character": 0, "keep": 1}
    E.apply_effect(bundle, s, {"add_to_hand": 2}, {"character": 0})
    E.apply_effect(bundle, s, {"move_die": 1}, {"character": 0})
    E.apply_effect(bundle, s, {"move_die": 1}, {"character": 0})
    assert s["action"]["keep"] == 3 and s["action"]["move_die"] == 2


def test_a_dialogue_choice_waits_for_the_reader(bundle):
    s = situation(bundle, ["A", "B"])
    s["dialogue"] = s["pending"] = None
    E.apply_effect(bundle, s, {"_dialogue_choice": "12"}, {"character": 0})
    assert s["pending"] is None
    s["dialogue"] = {"character": 1}
    E.apply_effect(bundle, s, {"_dialogue_choice": "12"}, {"character": 0})
    assert s["pending"] == {"type": "dialogue", "paragraph": "12", "character": 1}
    E.apply_effect(bundle, s, {"_end_dialogue": None}, {"character": 0})
    assert s["dialogue"] is None


def test_a_purse_card_waits_for_its_receiver_only_with_two_conscious_participants(bundle):
    s = situation(bundle, ["A", "B", "C"], hp={"C": 0}, purses={"A": [310]})
    key = s["characters"][0]["purse"][0]
    s["pending"] = None
    E.apply_effect(bundle, s, {"_receive": {"key": key, "participants": [0, 2]}}, {})
    assert s["pending"] is None
    E.apply_effect(bundle, s, {"_receive": {"key": key, "participants": [0, 1, 2]}}, {})
    assert s["pending"] == {"type": "receive", "key": key, "participants": [0, 1]}
    s["pending"] = None
    K.move(bundle, s, K.adventure(key), "past")  # discarded meanwhile: nothing to give
    E.apply_effect(bundle, s, {"_receive": {"key": key, "participants": [0, 1]}}, {})
    assert s["pending"] is None


def test_a_roll_names_the_card_it_is_written_on(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    gates = K.adventure(s["board"]["0,0"]["terrain"])
    E._roll(bundle, s, {"at_most": 6, "then": [{"damage": 1}]}, {"this": gates})
    roll = entries(s, "roll")[-1]
    assert roll["ok"] and roll["title"] == "Les Portes rouillées" and 1 <= roll["value"] <= 6
    assert s["queue"][-1]["effects"] == [{"damage": 1}]
    E._roll(bundle, s, {"at_most": 0, "then": [{"damage": 1}]}, {})
    assert not entries(s, "roll")[-1]["ok"] and entries(s, "roll")[-1]["title"] == ""


def test_a_roll_of_exactly_x_succeeds(bundle):
    """« X ou moins »: the die showing X is a success, X + 1 a failure; a die has 6 faces."""
    faces = set()
    for seed in range(40):
        s = situation(bundle, ["A"], seed=seed)
        probe = copy.deepcopy(s)
        E._roll(bundle, probe, {"at_most": 6, "then": []}, {})
        die = entries(probe, "roll")[-1]["value"]
        faces.add(die)
        exact, above = copy.deepcopy(s), copy.deepcopy(s)
        E._roll(bundle, exact, {"at_most": die, "then": [{"flag": "ok"}]}, {})
        E._roll(bundle, above, {"at_most": die - 1, "then": [{"flag": "ok"}]}, {})
        assert entries(exact, "roll")[-1] == {**entries(probe, "roll")[-1], "at_most": die}
        assert exact["queue"][-1]["effects"] == [{"flag": "ok"}]
        assert not entries(above, "roll")[-1]["ok"]
    assert faces == {1, 2, 3, 4, 5, 6}


def test_an_effect_without_a_character_falls_on_the_first_one(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 9, "B": 9})
    s["pending"] = None
    E.apply_effect(bundle, s, {"damage": 1}, {})
    E.apply_effect(bundle, s, {"damage": 2}, {"character": 2})  # one past the last
    assert [c["hp"] for c in s["characters"]] == [6, 9]


def test_apply_now_uses_the_content_and_never_the_turns_own_steps(bundle):
    s = situation(bundle, ["A"])
    s["dialogue"] = {"character": 0, "paragraph": "12"}
    E.apply_now(bundle, s, [{"_end_dialogue": None}, {"add_skill": "adv_riposte"}], {})
    assert s["dialogue"] == {"character": 0, "paragraph": "12"}
    assert "adv_riposte" in s["characters"][0]["deck"]


def test_discarding_a_skill_from_a_hand_sends_it_to_its_owners_discard(bundle):
    s = situation(bundle, ["A", "B"], hands={"B": ["a_estoc"]})
    s["action"] = {"character": 0, "drawn": []}
    E._leave_play(bundle, s, "discard", "a_estoc", {"character": 0})
    assert K.where(bundle, s, K.action_card("a_estoc")) == "discard:B"
    K.move(bundle, s, K.action_card("a_cri"), "drawn")
    s["action"]["drawn"] = ["a_cri"]
    E._leave_play(bundle, s, "banish", "a_cri", {"character": 0})
    assert K.where(bundle, s, K.action_card("a_cri")) == "banished"


def test_a_card_already_out_of_play_is_left_where_it_is(bundle):
    """« a card is never in two places »: discarding a card in the box or in the Past does
    nothing, and nothing is told."""
    s = situation(bundle, ["A"])
    exp = s["slots"]["0,-1"]["exploration"]
    B.leave(bundle, s, K.exploration(exp), "past")
    told = len(s["log"])
    E._leave_play(bundle, s, "discard", "adv_riposte", {"character": 0})  # in the box
    E._leave_play(bundle, s, "banish", exp, {"character": 0})  # in the Past
    assert K.where(bundle, s, K.action_card("adv_riposte")) == "box"
    assert K.where(bundle, s, K.exploration(exp)) == "past"
    K.move(bundle, s, K.action_card("a_cri"), "banished")
    E._leave_play(bundle, s, "put_back", "a_cri", {"character": 0})
    assert K.where(bundle, s, K.action_card("a_cri")) == "banished"
    assert not [e for e in s["log"][told:] if e["key"].startswith("card.")]


def test_an_effect_names_the_copy_still_in_play(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    K.move(bundle, s, K.adventure("304/green"), "past")
    K.move(bundle, s, K.adventure("304/gold"), "resolving")
    assert E.resolve(bundle, s, 304, {}) == K.adventure("304/gold")
    K.move(bundle, s, K.adventure("304/green"), "banished")
    assert E.resolve(bundle, s, 304, {}) == K.adventure("304/gold")


def test_take_brings_the_past_back_take_if_available_does_not(bundle):
    """The « rien à faire » icon: with every copy in the Past, nothing happens; without it,
    the Past is put back and the card taken."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    for key in ("310/green", "310/gold"):
        K.move(bundle, s, K.adventure(key), "past")
    s = consequence(bundle, s, {"take_if_available": 310})
    assert len(s["past"]) == 2 and s["characters"][0]["purse"] == []
    s = consequence(bundle, s, {"take": 310})
    assert s["past"] == [] and s["characters"][0]["purse"] == ["310/green"]


def test_cancelled_damage_adds_up_and_the_damage_is_told_as_damage(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    s = consequence(bundle, s, {"cancel_damage": 1}, {"cancel_damage": 2}, {"damage": 4})
    assert s["characters"][0]["hp"] == 8
    assert entries(s, "damage.cancelled")[-1] == {
        "name": s["characters"][0]["name"], "amount": 3, "of": 4}  # fmt: skip
    assert entries(s, "hp.lost")[-1]["cause"] == "damage"
    s = consequence(bundle, s, {"hit_points": -2})
    assert entries(s, "hp.lost")[-1]["cause"] == "hp"


def test_a_card_blocks_itself(bundle):
    """« Bloquez cette carte »: the purse card the effect is written on goes under the
    character card."""
    s = situation(bundle, ["A"], purses={"A": [110]})
    key = s["characters"][0]["purse"][0]
    s["pending"] = None
    E.apply_effect(bundle, s, {"block": "this"}, {"character": 0, "this": K.adventure(key)})
    assert s["characters"][0]["purse_blocked"] == [key]


def test_moving_succeeds_and_the_figure_stands_on_the_next_terrain(bundle):
    """« me déplacer » (cost 1, difficulty 0): once the card is drawn, the figure (and only
    it) is on the adjacent Terrain."""
    s = situation(bundle, ["A", "B"])
    s = play(bundle, s, {"type": "move", "character": 1, "to": "1,0"})
    s = play(bundle, s, {"type": "draw", "count": 1, "tremor": False})
    assert [c["at"] for c in s["characters"]] == ["0,0", "1,0"]
    assert entries(s, "moved")[-1]["id"] == "B" and s["action"] is None


def test_a_paragraph_read_in_an_action_keeps_its_participants(bundle):
    s = situation(bundle, ["A", "B"], scenario="coeur_de_varn")
    s["pending"], s["queue"] = None, []
    E.apply_effect(bundle, s, {"read": 66}, {"character": 1, "participants": [1, 0]})
    frame = s["queue"][-1]["ctx"]
    assert frame["participants"] == [1, 0] and frame["character"] == 1
    assert s["dialogue"] == {"paragraph": "66", "character": 1}


def test_the_adventure_ends_in_a_defeat(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    s = consequence(bundle, s, {"adventure_ends": True})
    assert s["result"]["result"] == "defeat" and s["queue"] == []


def test_a_branch_on_an_item_held_and_a_roll_on_a_card(bundle):
    s = situation(bundle, ["A"], purses={"A": [110]}, hp={"A": 9})
    branch = {"branch": {"requires": [{"item": 110}], "then": [{"damage": 1}],
                         "otherwise": [{"damage": 3}]}}  # fmt: skip
    assert consequence(bundle, s, branch)["characters"][0]["hp"] == 8
    s["pending"] = None
    gates = K.adventure(s["board"]["0,0"]["terrain"])
    E.apply_effect(bundle, s, {"roll": {"at_most": 6, "then": []}}, {"this": gates})
    assert entries(s, "roll")[-1]["title"] == "Les Portes rouillées"


@pytest.mark.parametrize("effect", [{"damage": 3}, {"hit_points": -3}])
def test_knocked_out_by_an_effect_while_carrying_a_purse_card(bundle, effect):
    s = situation(bundle, ["A", "B"], hp={"A": 2}, purses={"A": [310]})
    s = consequence(bundle, s, effect)
    a = s["characters"][0]
    assert not a["conscious"] and a["at"] is None and a["purse"] == ["310/green"]
    assert len(a["hand"]) == 3


def test_a_deck_run_out_by_an_effect_costs_the_last_hit_point(bundle):
    """« Si vous devez défausser davantage de cartes que n'en contient votre Deck d'Action,
    vous devez immédiatement effectuer une Récupération »: with 1 hit point left, it faints."""
    s = situation(bundle, ["A", "B"], hp={"A": 1}, purses={"A": [310]})
    a = s["characters"][0]
    for card in a["deck"][:-1]:
        K.move(bundle, s, K.action_card(card), "discard:A")
    s = consequence(bundle, s, {"discard_from_deck": 3})
    assert not s["characters"][0]["conscious"] and s["characters"][0]["hp"] == 0


# --------------------------------------------------------------------------- scenario.py


@pytest.mark.parametrize(
    ("characters", "options"),
    [
        ([], {}),
        (["A", "B", "C", "D", "A"], {}),
        (["A", "A"], {}),
        (["A", "Z"], {}),
        (["A"], {"recovery": "facile"}),
        (["A"], {"scenario": "nulle_part"}),
    ],
    ids=["none", "five", "twice", "unknown", "recovery", "scenario"],
)
def test_an_adventure_needs_one_to_four_different_characters(bundle, characters, options):
    with pytest.raises(ValueError):
        S.new_game(bundle, characters, 0, **options)


@pytest.mark.parametrize(("players", "hp"), [(1, 16), (2, 13), (3, 11), (4, 10)])
def test_each_character_starts_with_the_scenarios_hit_points(bundle, players, hp):
    """The introduction's table: 16, 13, 11 or 10 hit points for 1 to 4 characters."""
    s = S.new_game(bundle, ["A", "B", "C", "D"][:players], 0)
    assert [c["hp"] for c in s["characters"]] == [hp] * players
    assert all(c["conscious"] for c in s["characters"])
    assert entries(s, "scenario.start")[0]["hp"] == hp


def test_a_new_adventure_puts_everyone_on_the_first_terrain(bundle):
    s = S.new_game(bundle, ["A", "B"], 3)
    assert s["scenario"] == "portes_rouillees" and s["menace"] is None
    assert [c["at"] for c in s["characters"]] == ["0,0", "0,0"]
    assert s["board"]["0,0"]["terrain"] == "101/green"
    assert [e["key"] for e in s["board"]["0,0"]["events"]] == ["103/green"]
    assert "premiere_sortie" in s["flags"] and s["citadel"]["tremor"] == 0
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    assert s["options"] == {"recovery": "normal"} and s["players"] == 2
    assert s["box"]["304"] == ["304/gold", "304/green", "304/green@portes_rouillees"]
    assert all(rec.exp(bundle, k)["zone"] == z for z, d in s["explore_decks"].items() for k in d)
    K.check(bundle, s)
    again = S.new_game(bundle, ["A", "B"], 3)
    assert again["rng"] == s["rng"] and again["slots"] == s["slots"]
    assert S.new_game(bundle, ["A"], 0, names={"A": "Ysolde"})["characters"][0]["name"] == "Ysolde"


def test_a_menace_scenario_keeps_the_sheets_tremor_unless_it_sets_one(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise")
    assert s["citadel"]["tremor"] == 2 and s["menace"] == "cendres_de_varn"
    assert entries(s, "scenario.start")[-1]["tremor"] == 2
    assert "pluie_de_cendre" in s["flags"]


def test_the_next_scenario_puts_the_last_ones_table_back_and_keeps_hands_and_purses(bundle):
    """Between scenarios: the Plateau, the exploration places, events and the Past go back
    to the box; each discard is shuffled into its deck; hands, purses and quest items stay."""
    s = situation(bundle, ["A", "B"], hands={"A": ["a_estoc"]}, purses={"B": [110]},
                  discards={"A": ["a_cri", "a_charge"]}, hp={"B": 0})  # fmt: skip
    K.move(bundle, s, K.adventure("402/green"), "globals")
    K.move(bundle, s, K.adventure("304/green"), "resolving")
    K.move(bundle, s, K.adventure("310/green"), "past")
    K.move(bundle, s, K.adventure("325/green"), "quest_items")
    s["flags"].append("gardé")
    s["objectives"] = ["contact_sorgue"]
    s["tremor_used"], s["scenario_turns"], s["saved"] = 2, 40, True
    S.start_scenario(bundle, s, "pluie_grise")
    assert s["scenario"] == "pluie_grise" and s["objectives"] == []
    assert s["tremor_used"] == 0 and s["scenario_turns"] == 0 and not s["saved"]
    for key in ("101/green", "102/green", "104/green", "402/green", "304/green", "310/green"):
        assert K.where(bundle, s, K.adventure(key)) == "box", key
    assert s["past"] == [] and s["resolving"] == [] and s["globals"] == ["203/green"]
    a, b = s["characters"]
    assert a["discard"] == [] and {"a_cri", "a_charge"} <= set(a["deck"])
    assert a["hand"] == ["a_estoc"] and b["purse"][0].startswith("110")
    assert s["quest_items"] == ["325/green"] and "gardé" in s["flags"]
    assert [c["hp"] for c in s["characters"]] == [13, 13] and b["conscious"]
    assert s["board"]["0,0"]["terrain"].startswith("201") and a["at"] == b["at"] == "0,0"
    K.check(bundle, s)


def test_a_building_built_acts_at_the_start_of_every_scenario(bundle):
    """L'infirmerie, its 3 boxes ticked: 2 more hit points at the start; 2 boxes: nothing."""
    s = situation(bundle, ["A"])
    s["citadel"]["buildings"]["infirmerie"] = 2
    S.start_scenario(bundle, s, "pluie_grise")
    assert s["characters"][0]["hp"] == 15
    s["citadel"]["buildings"]["infirmerie"] = 3
    S.start_scenario(bundle, s, "pluie_grise")
    assert s["characters"][0]["hp"] == 17


def test_a_saved_scenario_resumes_with_its_booklets_cards():
    bundle = bundle_for("citadelle")
    assert S.resume_cards(bundle, "pluie_grise") == ["103"]
    assert S.resume_cards(bundle, "portes_rouillees") == []


# --------------------------------------------------------------------------- citadel.py


def test_the_sheet_starts_from_the_citadel_record(bundle):
    sheet = CI.new_sheet(bundle)
    assert sheet == {
        "scores": {"influence": 3, "knowledge": 2, "production": 4, "defense": 3},
        "tremor": 1, "buildings": {}, "hope": 0, "destiny": [], "side_quests": {},
    }  # fmt: skip
    assert CI.new_sheet({"records": {}})["scores"] == dict.fromkeys(
        ("influence", "knowledge", "production", "defense"), 0
    )


def test_a_score_tells_what_it_asked_and_what_it_moved(bundle):
    s = situation(bundle, ["A"])
    CI.sheet_effect(bundle, s, "score", {"defense": 30}, 0)
    assert entries(s, "score")[-1] == {"score": "defense", "delta": 22, "asked": 30, "value": 25}


def test_a_side_quest_is_told_once_per_state(bundle):
    s = situation(bundle, ["A"])
    for state in ("active", "active", "done", "active"):
        CI.sheet_effect(bundle, s, "quest", {"id": "puits_sorgue", "state": state}, 0)
    told = entries(s, "quest")
    assert [(e["state"], e["title"], e["id"]) for e in told] == [
        ("active", "L'eau de Sorgue", "puits_sorgue"),
        ("done", "L'eau de Sorgue", "puits_sorgue"),
    ]
    assert s["citadel"]["side_quests"] == {"puits_sorgue": "done"}


def test_an_objective_is_reached_once_and_told_with_its_text(bundle):
    s = situation(bundle, ["A"])
    CI.sheet_effect(bundle, s, "objective", "contact_sorgue", 0)
    CI.sheet_effect(bundle, s, "objective", "contact_sorgue", 0)
    assert s["objectives"] == ["contact_sorgue"] and len(entries(s, "objective")) == 1
    assert entries(s, "objective")[0]["text"] == CI.objective_text(bundle, "contact_sorgue") != ""
    assert CI.objective_text(bundle, "aucun") == ""


def test_hope_and_flags_on_the_sheet(bundle):
    s = situation(bundle, ["A"])
    CI.sheet_effect(bundle, s, "hope", 2, 0)
    assert entries(s, "hope")[-1] == {"amount": 2, "total": 2}
    CI.sheet_effect(bundle, s, "unflag", "absent", 0)  # not raised: nothing to lower
    CI.sheet_effect(bundle, s, "flag", "f", 0)
    CI.sheet_effect(bundle, s, "unflag", "f", 0)
    assert "f" not in s["flags"]


def test_a_building_ticks_box_by_box_and_is_built_with_its_last(bundle):
    s = situation(bundle, ["A"])
    for _ in range(4):
        CI.build(bundle, s, "infirmerie")
    CI.build(bundle, s, "nulle_part")
    assert s["citadel"]["buildings"] == {"infirmerie": 3}
    ticks = [(e["key"], e["args"]["ticks"], e["args"]["boxes"]) for e in s["log"]
             if e["key"].startswith("building.")]  # fmt: skip
    assert ticks == [("building.ticked", 1, 3), ("building.ticked", 2, 3), ("building.built", 3, 3)]


def test_a_skill_added_is_shuffled_into_that_characters_deck(bundle):
    s = situation(bundle, ["A", "B"])
    CI.add_skill(bundle, s, "adv_riposte", 1)
    assert "adv_riposte" in s["characters"][1]["deck"]
    assert entries(s, "skill.added")[-1]["name"] == s["characters"][1]["name"]
    CI.add_skill(bundle, s, "adv_riposte", 0)
    assert entries(s, "skill.unavailable")[-1]["title"]
    CI.add_skill(bundle, s, "adv_garde_haute", 7)  # no such character: the first one
    assert "adv_garde_haute" in s["characters"][0]["deck"]


@pytest.mark.parametrize(
    ("objectives", "branch"),
    [
        (["contact_sorgue", "vivres_rapportes"], "allies"),
        (["vivres_rapportes"], "greniers_pleins"),
        (["contact_sorgue"], "poignee_de_main"),
        ([], "isoles"),
    ],
)
def test_the_first_epilogue_whose_conditions_hold_is_read(bundle, objectives, branch):
    s = situation(bundle, ["A", "B"], hp={"B": 0})
    s["objectives"] = list(objectives)
    CI.end_scenario(bundle, s)
    assert s["epilogues"] == [{"scenario": "portes_rouillees", "branch": branch}]
    assert s["scenarios_played"] == ["portes_rouillees"] and s["next_scenario"] == "pluie_grise"
    assert s["phase"] == "citadel" and s["pending"] == {"type": "citadel"}
    assert [(c["conscious"], c["at"]) for c in s["characters"]] == [(True, None)] * 2
    assert [e["id"] for e in entries(s, "conscious")] == ["B"]
    assert CI.start_hp(bundle, s) == 13


def test_an_epilogue_that_ends_the_adventure(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s["objectives"] = ["captifs_liberes"]
    CI.end_scenario(bundle, s)
    assert s["phase"] == "over" and s["pending"] is None
    assert s["result"] == {"result": "defeat", "why": "epilogue", "scenarios": ["coeur_de_varn"]}
    assert CI.start_hp(bundle, s) is None
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s["objectives"] = ["coeur_eteint"]
    CI.end_scenario(bundle, s)
    assert s["result"]["result"] == "victory"
    assert entries(s, "adventure.over") == [{"result": "victory", "why": "epilogue"}]


def test_a_scenario_ending_mid_action_discards_the_revealed_cards(bundle):
    s = situation(bundle, ["A", "B"], hands={"A": ["a_estoc"], "B": ["a_cri"]})
    s["suspended"] = [{"character": 0, "drawn": []}]
    s["action"] = {"character": 1, "drawn": []}
    K.move(bundle, s, K.action_card("a_cri"), "drawn")
    s["suspended"][0]["drawn"].append("a_estoc")
    s["characters"][0]["hand"].remove("a_estoc")
    CI.end_scenario(bundle, s)
    assert s["action"] is None and s["suspended"] == []
    assert "a_cri" in s["characters"][1]["discard"]
    assert "a_estoc" in s["characters"][0]["discard"]
    K.check(bundle, s)


def test_the_destiny_page_spends_hope(bundle):
    s = situation(bundle, ["A", "B"])
    assert CI.destiny_options(bundle, s) == []
    s["citadel"]["hope"] = 2
    options = CI.destiny_options(bundle, s)
    assert "lecture_des_runes" in options and "lecons_des_anciens" not in options
    CI.buy_destiny(bundle, s, "lecture_des_runes", 1)
    assert s["citadel"]["hope"] == 0 and s["citadel"]["destiny"] == ["lecture_des_runes"]
    assert "adv_lecture_runes" in s["characters"][1]["deck"]
    told = entries(s, "destiny")[-1]
    assert told["cost"] == 2 and told["left"] == 0 and told["name"] == s["characters"][1]["name"]
    s["citadel"]["hope"] = 5
    assert "lecture_des_runes" not in CI.destiny_options(bundle, s)


# --------------------------------------------------------------------------- turn.py


def moves(bundle: dict, state: dict, c: int) -> set[str]:
    return {a["to"] for a in T.legal_actions(bundle, state) if a["type"] == "move"
            and a["character"] == c}  # fmt: skip


def test_a_figure_moves_to_an_adjacent_terrain_unless_overloaded(bundle):
    """« Déplacer sa figurine »: onto an adjacent Terrain (not an exploration place), if the
    weight carried does not exceed the weight the character can carry (Maëlis, alone: 8)."""
    s = situation(bundle, ["A"], purses={"A": [312, 310, 311]})  # 3 + 2 + 2 = 7
    assert moves(bundle, s, 0) == {"1,0"}
    s["characters"][0]["at"] = "1,0"
    assert moves(bundle, s, 0) == {"0,0", "2,0"}
    s = situation(bundle, ["A"], purses={"A": [312, 310, 311]}, blocked={"A": [313]})  # 9
    assert moves(bundle, s, 0) == set()
    s = situation(bundle, ["A"], purses={"A": [312, 310, 311, 315]})  # 8: just enough
    assert moves(bundle, s, 0) == {"1,0"}


def test_a_purse_card_is_given_only_to_a_conscious_character_on_the_same_terrain(bundle):
    s = situation(bundle, ["A", "B", "C"], purses={"A": [310]}, blocked={"A": [311]},
                  hp={"C": 0})  # fmt: skip
    gives = [a for a in T.legal_actions(bundle, s) if a["type"] == "give"]
    assert {(a["to"], a["item"], a["payer"]) for a in gives} == {
        (1, k, who) for k in ("310/green", "311/green") for who in ("giver", "receiver")
    }
    s["characters"][1]["at"] = "1,0"
    assert not [a for a in T.legal_actions(bundle, s) if a["type"] == "give"]


def test_an_undiscardable_purse_card_is_neither_given_nor_dropped(bundle):
    s = situation(bundle, ["A", "B"], purses={"A": [314]})
    kinds = {a["type"] for a in T.legal_actions(bundle, s) if a.get("item")}
    assert kinds == set()


def test_free_moves_of_every_conscious_character(bundle):
    """« À tout moment »: a Récupération, discarding a skill, discarding a purse card."""
    s = situation(bundle, ["A", "B"], hands={"A": ["a_estoc"], "B": ["a_cri"]},
                  purses={"A": [310]}, discards={"A": ["a_charge", "a_epaule"]},
                  hp={"B": 0})  # fmt: skip
    free = T.free_moves(bundle, s)
    assert {"type": "discard_skill", "character": 0, "card": "a_estoc"} in free
    assert {"type": "drop", "character": 0, "item": "310/green"} in free
    assert {"type": "recover", "character": 0, "cards": 2} in free
    assert not [m for m in free if m["character"] == 1]
    s["action"] = {"character": 0, "selected": ["310/green", "a_estoc"], "drawn": []}
    free = T.free_moves(bundle, s)
    assert not [m for m in free if m.get("card") == "a_estoc" or m.get("item") == "310/green"]


def test_the_turn_offers_leaving_only_to_a_group_and_saving_in_a_menace(bundle):
    s = situation(bundle, ["A"])
    kinds = {a["type"] for a in T.legal_actions(bundle, s)}
    assert "leave" not in kinds and "save" not in kinds
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    actions = T.legal_actions(bundle, s)
    assert {"type": "save"} in actions
    assert [a for a in actions if a["type"] == "leave"] == [
        {"type": "leave", "character": 0}, {"type": "leave", "character": 1}]  # fmt: skip


def test_an_unconscious_character_offers_nothing(bundle):
    s = situation(bundle, ["A", "B"], hp={"B": 0}, hands={"B": ["a_cri"]})
    assert not [a for a in T.legal_actions(bundle, s) if a.get("character") == 1
                and a["type"] != "leave"]  # fmt: skip


def test_the_citadel_offers_departure_destiny_leaving_and_joining(bundle):
    s = situation(bundle, ["A", "B", "C"])
    CI.end_scenario(bundle, s)
    s["citadel"]["hope"] = 1
    actions = T.legal_actions(bundle, s)
    assert actions[0] == {"type": "depart"}
    assert [a["id"] for a in actions if a["type"] == "join"] == ["D"]
    assert {(a["entry"], a["character"]) for a in actions if a["type"] == "destiny"} == {
        (e, c) for e in CI.destiny_options(bundle, s) for c in range(3)
    }
    assert len([a for a in actions if a["type"] == "leave"]) == 3
    s = T.apply(bundle, s, {"type": "join", "id": "D"})
    assert not [a for a in T.legal_actions(bundle, s) if a["type"] == "join"]
    s = T.apply(bundle, s, {"type": "leave", "character": 3})
    assert s["pending"] == {"type": "citadel"} and len(s["characters"]) == 3
    alone = situation(bundle, ["A"])
    CI.end_scenario(bundle, alone)
    assert not [a for a in T.legal_actions(bundle, alone) if a["type"] == "leave"]


def test_departing_from_the_citadel_starts_the_next_scenario_or_wins(bundle):
    s = situation(bundle, ["A"])
    CI.end_scenario(bundle, s)
    s = T.apply(bundle, s, {"type": "depart"})
    assert s["scenario"] == "pluie_grise" and s["phase"] == "play"
    s = situation(bundle, ["A"])
    CI.end_scenario(bundle, s)
    s["next_scenario"] = None
    s = T.apply(bundle, s, {"type": "depart"})
    assert s["result"]["result"] == "victory" and s["result"]["why"] == "menace_over"


def test_buying_a_destiny_entry_stays_at_the_citadel(bundle):
    s = situation(bundle, ["A", "B"])
    CI.end_scenario(bundle, s)
    s["citadel"]["hope"] = 2
    s = T.apply(bundle, s, {"type": "destiny", "entry": "lecture_des_runes", "character": 1})
    assert s["pending"] == {"type": "citadel"}
    assert "adv_lecture_runes" in s["characters"][1]["deck"]


@pytest.mark.parametrize(
    "action",
    [
        None,
        {"type": "fly"},
        {"type": "move", "character": 0, "to": "1,0", "speed": 3},
        {"type": "move", "character": "0", "to": "1,0"},
        {"type": "move", "character": True, "to": "1,0"},
        {"type": "draw", "count": 2, "tremor": 1},
    ],
)
def test_a_malformed_action_is_refused_naming_the_turn(bundle, action):
    s = situation(bundle, ["A"])
    with pytest.raises(MalformedAction) as err:
        T.apply(bundle, s, action)
    assert "scenario portes_rouillees, turn" in str(err.value)


def test_an_action_not_offered_is_illegal_and_says_what_is_awaited(bundle):
    s = situation(bundle, ["A"])
    with pytest.raises(IllegalAction, match="waiting for turn"):
        T.apply(bundle, s, {"type": "move", "character": 0, "to": "0,-1"})
    s["pending"] = None
    with pytest.raises(IllegalAction, match="the adventure is over"):
        T.apply(bundle, s, {"type": "save"})
    assert T.legal_actions(bundle, s) == []


def test_apply_leaves_the_state_it_was_given_untouched(bundle):
    s = situation(bundle, ["A"])
    before = copy.deepcopy(s)
    after = T.apply(bundle, s, {"type": "move", "character": 0, "to": "1,0"})
    assert s == before and after["steps"] == 1 and after["action"]["source"] == "move"
    assert after["mark"] == len(before["log"])


def test_a_knocked_out_character_banishes_a_card_of_its_hand_before_the_turn(bundle):
    s = situation(bundle, ["A", "B"], hands={"B": ["a_cri"]})
    s["interrupt"] = [{"type": "banish", "character": 0}, {"type": "banish", "character": 1}]
    s["pending"] = None
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "banish", "character": 1}  # A's hand is empty
    assert T.legal_actions(bundle, s) == [{"type": "banish", "character": 1, "card": "a_cri"}]
    s = T.apply(bundle, s, {"type": "banish", "character": 1, "card": "a_cri"})
    assert K.where(bundle, s, K.action_card("a_cri")) == "banished"
    assert entries(s, "card.banish")[-1]["name"] == s["characters"][1]["name"]
    assert s["pending"] == {"type": "turn"}


def test_a_hand_over_its_limit_is_trimmed_before_the_turn(bundle):
    """Maëlis with one companion keeps 3 cards in hand."""
    s = situation(bundle, ["B", "A"], hands={"A": ["a_estoc", "a_cri", "a_charge", "a_epaule"]})
    s["pending"] = None
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "hand_limit", "character": 1}
    s = T.apply(bundle, s, {"type": "discard", "character": 1, "card": "a_cri"})
    assert s["pending"] == {"type": "turn"} and "a_cri" in s["characters"][1]["discard"]
    s["characters"][1]["hp"], s["characters"][1]["conscious"] = 0, False
    K.move(bundle, s, K.action_card("a_cri"), "hand:A")
    s["pending"] = None
    T.next_turn(bundle, s)  # unconscious: its hand waits
    assert s["pending"]["type"] != "hand_limit"


def test_an_adventure_that_runs_too_long_ends_in_exhaustion(bundle):
    s = situation(bundle, ["A"])
    s["pending"], s["turns"] = None, S.MAX_TURNS + 1
    T.next_turn(bundle, s)
    assert s["result"]["why"] == "exhaustion"
    s = situation(bundle, ["A"])
    s["pending"], s["steps"] = None, T.MAX_STEPS + 1
    T.next_turn(bundle, s)
    assert s["result"]["why"] == "exhaustion"
    s = situation(bundle, ["A"])
    s["pending"], s["turns"], s["steps"] = None, S.MAX_TURNS, T.MAX_STEPS
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "turn"}


def test_a_die_on_a_card_gone_goes_back_to_the_box(bundle):
    s = situation(bundle, ["A"])
    gates = s["board"]["0,0"]["terrain"]
    s["dice"] = {"d1": {"card": gates}, "d2": {"card": "110/green"}, "d3": {"card": "zz"},
                 "d4": {"card": "a_estoc"}}  # fmt: skip
    T._drop_stale_dice(bundle, s)
    assert set(s["dice"]) == {"d1", "d4"}  # a_estoc is in a deck: still in play


def test_a_purse_card_refused_goes_to_the_past_received_to_the_chosen_one(bundle):
    s = situation(bundle, ["A", "B"], purses={"A": [310]})
    p = {"type": "receive", "key": "310/green", "participants": [0, 1]}
    T._receive(bundle, s, p, {"type": "receive", "character": 1})
    assert s["characters"][1]["purse"] == ["310/green"]
    assert entries(s, "item.received")[-1]["name"] == s["characters"][1]["name"]
    T._receive(bundle, s, p, {"type": "receive", "character": 1})  # already there
    assert s["characters"][1]["purse"] == ["310/green"]
    T._receive(bundle, s, p, {"type": "refuse"})
    assert K.where(bundle, s, K.adventure("310/green")) == "past"
    assert entries(s, "item.refused")[-1]["title"] == "Tisonnier de Veilleur"
    s["pending"] = p
    assert {"type": "refuse"} in T.legal_actions(bundle, s)
    s["pending"] = {**p, "key": "314/green"}
    assert {"type": "refuse"} not in T.legal_actions(bundle, s)


# --------------------------------------------------------------------------- cards.py


def agree(bundle: dict, state: dict) -> None:
    """``places`` (one card) and ``inventory`` (every card) say the same, and each card is in
    exactly one place."""
    inv = K.inventory(bundle, state)
    for ref in K.every_card(bundle):
        assert K.places(bundle, state, ref) == inv[(ref["kind"], ref["key"])], ref
    K.check(bundle, state)


def test_an_adventure_card_goes_through_every_place_and_is_always_in_one(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    blank = {"exploration": None, "adventure": None, "revealed": True, "zone": None}
    s["slots"]["-1,0"] = {**blank, "from": "0,0", "card": None}
    ref = K.adventure("305/green")
    tour = ["event:0,0", "slot:-1,0", "resolving", "globals", "quest_items", "world_map",
            "purse:B", "purse_blocked:A", "past", "banished", "terrain:0,2", "box"]  # fmt: skip
    here = "box"
    for to in tour:
        assert K.move(bundle, s, ref, to) == here
        assert K.where(bundle, s, ref) == to
        agree(bundle, s)
        here = to
    assert s["slots"]["-1,0"]["adventure"] is None and "0,2" not in s["board"]


def test_a_skill_goes_through_every_place_and_is_always_in_one(bundle):
    s = situation(bundle, ["A", "B"])
    s["action"] = {"character": 1, "drawn": [], "selected": []}
    ref = K.action_card("adv_riposte")
    here = "box"
    for to in ("deck:A", "hand:B", "discard:A", "blocked:B", "drawn", "past", "banished",
               "box"):  # fmt: skip
        assert K.move(bundle, s, ref, to) == here
        assert K.where(bundle, s, ref) == to
        agree(bundle, s)
        here = to
    s["suspended"] = [{"character": 0, "drawn": ["a_estoc"], "selected": []}]
    s["characters"][0]["deck"].remove("a_estoc")
    assert K.where(bundle, s, K.action_card("a_estoc")) == "drawn"
    agree(bundle, s)


def test_an_exploration_card_goes_back_under_or_on_its_deck(bundle):
    s = situation(bundle, ["A"])
    exp = s["slots"]["0,-1"]["exploration"]
    zone = s["explore_decks"][rec.exp(bundle, exp)["zone"]]
    assert K.move(bundle, s, K.exploration(exp), "box", bottom=True) == "slot:0,-1"
    assert zone[0] == exp and s["slots"]["0,-1"]["exploration"] is None
    K.move(bundle, s, K.exploration(exp), "past")
    K.move(bundle, s, K.exploration(exp), "box")
    assert zone[-1] == exp
    agree(bundle, s)


def test_a_skill_goes_under_or_on_a_deck(bundle):
    s = situation(bundle, ["A"])
    deck = s["characters"][0]["deck"]
    K.move(bundle, s, K.action_card("adv_riposte"), "deck:A", bottom=True)
    assert deck[0] == "adv_riposte"
    K.move(bundle, s, K.action_card("adv_garde_haute"), "deck:A")
    assert deck[-1] == "adv_garde_haute"
    K.move(bundle, s, K.action_card("adv_garde_haute"), "box")
    assert s["skill_box"] == sorted(s["skill_box"]) and "adv_garde_haute" in s["skill_box"]


def test_a_card_put_back_takes_its_place_in_the_box(bundle):
    """« Ranger »: green before gold with the same number, the generic copy before the one
    tied to a scenario."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    for key in ("304/green", "304/gold", "304/green@portes_rouillees"):
        K.move(bundle, s, K.adventure(key), "past")
    for key in ("304/gold", "304/green@portes_rouillees", "304/green"):
        K.move(bundle, s, K.adventure(key), "box")
    assert s["box"]["304"] == ["304/green", "304/green@portes_rouillees", "304/gold"]


def test_a_refused_move_leaves_the_card_where_it_was(bundle):
    s = situation(bundle, ["A"])
    ref = K.adventure("310/green")
    taken = ("terrain:0,0", "slot:0,-1")  # a Terrain there; an exploration card there
    for to in ("purse:Z", "event:5,5", "slot:5,5", "drawn", "nowhere", *taken):
        with pytest.raises(K.CardError):
            K.move(bundle, s, ref, to)
        assert K.where(bundle, s, ref) == "box"
    with pytest.raises(K.CardError):
        K.move(bundle, s, K.adventure(s["board"]["0,0"]["terrain"]), "box")  # its event
    agree(bundle, s)


def test_a_die_goes_back_to_the_box_with_its_card(bundle):
    """« Précisions »: a die on a card that leaves play leaves it too."""
    s = situation(bundle, ["A"])
    event = s["board"]["0,0"]["events"][0]["key"]
    K.move(bundle, s, K.adventure("310/green"), "purse:A")
    s["dice"] = {"d1": {"card": event}, "d2": {"card": "310/green"}, "d3": {"card": "x"}}
    K.move(bundle, s, K.adventure(event), "past")
    K.move(bundle, s, K.adventure("310/green"), "purse_blocked:A")
    assert set(s["dice"]) == {"d3"}
    s["dice"]["d4"] = {"card": "310/green"}
    K.move(bundle, s, K.adventure("310/green"), "past")  # blocked: no die there
    assert set(s["dice"]) == {"d3", "d4"}


def test_the_inventory_finds_a_card_twice_or_nowhere(bundle):
    s = situation(bundle, ["A"])
    s["characters"][0]["hand"].append(s["characters"][0]["deck"][-1])
    with pytest.raises(K.CardError, match="is in"):
        K.check(bundle, s)
    s = situation(bundle, ["A"])
    s["skill_box"].remove("adv_riposte")
    with pytest.raises(K.CardError, match="no place"):
        K.check(bundle, s)
    with pytest.raises(K.CardError, match="no place"):
        K.where(bundle, s, K.action_card("adv_riposte"))
    s = situation(bundle, ["A"])
    s["past"].append({"kind": "adventure", "key": "999/green"})
    with pytest.raises(K.CardError, match="not a card of the box"):
        K.check(bundle, s)
    with pytest.raises(K.CardError):
        K.places(bundle, s, {"kind": "token", "key": "x"})


# --------------------------------------------------------------------------- actions.py


def test_what_a_character_may_undertake_on_its_terrain(bundle):
    """The Terrain's actions, its linked events', « chercher un passage » on each face-down
    exploration card beside it; nothing for a figure off the Plateau or unconscious."""
    s = situation(bundle, ["A", "B"])
    assert A.available(bundle, s, 0) == [
        ("terrain:0,0", 0), ("event:0,0:103/green", 0), ("explore:0,-1", 0), ("explore:0,1", 0)
    ]  # fmt: skip
    assert A.near(s, "0,0") == ["0,-1", "0,1"] and A.near(s, "1,0") == ["1,1"]
    s["characters"][1]["at"] = None
    assert A.available(bundle, s, 1) == []
    s["characters"][0]["hp"], s["characters"][0]["conscious"] = 0, False
    assert A.available(bundle, s, 0) == []


def test_a_group_action_waits_for_every_conscious_character(bundle):
    """« Rentrer à la Citadelle » is a group action: not while someone conscious stands
    elsewhere; an unconscious one does not hold the group back."""
    s = situation(bundle, ["A", "B"])
    s["characters"][1]["at"] = "1,0"
    assert ("event:0,0:103/green", 0) not in A.available(bundle, s, 0)
    s["characters"][1]["hp"], s["characters"][1]["conscious"] = 0, False
    assert ("event:0,0:103/green", 0) in A.available(bundle, s, 0)


def test_an_action_already_done_here_is_not_offered_again(bundle):
    """« Règle d'or ! » of the permanent events: the action shown on the positioning arrow
    cannot be undertaken again from the Terrain it is linked to."""
    s = situation(bundle, ["A"])
    s["board"]["0,0"]["events"][0]["blocked_verb"] = "search"
    assert ("terrain:0,0", 0) not in A.available(bundle, s, 0)
    s["board"]["0,0"]["events"][0]["blocked_verb"] = "fight"
    assert ("terrain:0,0", 0) in A.available(bundle, s, 0)


def test_a_mandatory_action_is_led_by_the_participants_choice(bundle):
    s = situation(bundle, ["A", "B", "C"], hp={"C": 0})
    s["characters"][1]["at"] = "1,0"
    s["pending"] = None
    A.force(bundle, s, {"source": "terrain:0,0", "index": 0, "character": 0})
    assert s["action"]["participants"] == [0] and s["action"]["mandatory"]  # alone there
    s = situation(bundle, ["A", "B", "C"], hp={"A": 0})
    s["characters"][2]["at"] = "1,0"
    s["pending"] = None
    A.force(bundle, s, {"source": "terrain:0,0", "index": 0, "character": 0})
    assert s["action"]["character"] == 1  # the revealer fainted: the first conscious one
    s = situation(bundle, ["A", "B", "C"])
    s["characters"][2]["at"] = "1,0"
    A.force(bundle, s, {"source": "event:0,0:103/green", "index": 0, "character": 1})
    assert s["pending"] == {"type": "active", "source": "event:0,0:103/green", "index": 0,
                            "participants": [0, 1, 2]}  # fmt: skip
    assert A.present(s, 1) == [1, 0]


def test_each_action_is_a_new_turn_and_an_action_inside_one_waits(bundle):
    s = situation(bundle, ["A"])
    turns, scen = s["turns"], s["scenario_turns"]
    A.start(bundle, s, 0, "terrain:0,0", 0)
    first = s["action"]
    assert (first["verb"], first["title"], first["participants"]) == (
        "search", "Fouiller les charrettes", [0])  # fmt: skip
    assert s["pending"] == {"type": "draw", "character": 0}
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert s["suspended"] == [first] and s["action"]["target"] == "1,0"
    assert (s["turns"], s["scenario_turns"]) == (turns + 2, scen + 2)
    told = entries(s, "action.start")[-1]
    assert told["verb"] == "move" and told["card"] == "" and told["others"] == []


def test_the_cards_to_draw_are_the_cost_and_up_to_six_more(bundle):
    """« Pioche »: at least the cost; any number more (here up to 6), never more than the
    deck and the discard hold."""
    s = situation(bundle, ["A"])
    A.start(bundle, s, 0, "terrain:0,0", 0)  # cost 2
    assert A.cost(bundle, s) == (2, 8)
    ch = s["characters"][0]
    for card in ch["deck"][3:]:
        K.move(bundle, s, K.action_card(card), "box")
    K.move(bundle, s, K.action_card(ch["deck"][0]), "discard:A")
    assert A.cost(bundle, s) == (2, 3)
    for card in list(ch["deck"]) + list(ch["discard"]):
        K.move(bundle, s, K.action_card(card), "box")
    assert A.cost(bundle, s) == (2, 2)


def test_a_creatures_traits_add_to_the_cost_and_the_difficulty(bundle):
    """Le gardien de fonte (308): difficulty 1, Carapace +1 and Colossal +2: 4 successes."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    place(bundle, s, 308, "0,0")
    A.start(bundle, s, 0, "terrain:0,0", 0)
    assert A.need(bundle, s) == 4 and A.base_cost(bundle, s) == 3
    s = situation(bundle, ["A"], scenario="forges_mortes")
    place(bundle, s, 305, "0,0", event=True)  # Repousser les Veilleurs: Nuée, 1 card more
    src = next(src for src, _ in A.available(bundle, s, 0) if src.endswith("305/green"))
    A.start(bundle, s, 0, src, 0)
    spec, _ = A.spec_of(bundle, s, src, 0)
    assert A.base_cost(bundle, s) == spec["cost"] + 1


def test_the_tremor_is_for_exploring_only_while_levels_are_left(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")  # tremor 2
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert A.can_tremor(bundle, s) and A.cost(bundle, s, tremor=True)[0] == 0
    s["tremor_used"] = 2
    assert not A.can_tremor(bundle, s)
    s["tremor_used"] = 1
    s["action"]["verb"] = "search"
    assert not A.can_tremor(bundle, s)
    s["action"]["verb"] = "find_passage"
    assert A.can_tremor(bundle, s)


def test_a_multiple_action_needs_the_value_of_its_die(bundle):
    """La Caravane ensevelie: the die on the first line shows 2; a success moves it to the
    second line (3); counting successes lowers the die, which succeeds below 1."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    place(bundle, s, 205, "0,0", event=True)
    src = "event:0,0:205/green"
    A.start(bundle, s, 0, src, 1)
    die = s["action"]["die"]
    assert die == "205/green#1" and s["dice"][die] == {"line": 0, "value": 2, "card": "205/green"}
    assert A.need(bundle, s) == 2
    s["action"]["tally"] = {"total": 3, "need": 2, "cancels": 0}
    assert A.count_options(s) == [3, 0, 1]
    A.count(bundle, s, 1)
    assert s["dice"][die]["value"] == 1 and not s["action"]["ok"]
    A.count(bundle, s, 1)
    assert s["dice"][die]["value"] == 0 and s["action"]["ok"]
    A.finish(bundle, s)
    assert s["dice"][die] == {"line": 1, "value": 3, "card": "205/green"}


def test_a_simple_action_counts_all_its_successes_or_none(bundle):
    s = situation(bundle, ["A"])
    A.start(bundle, s, 0, "terrain:0,0", 0)
    s["action"]["tally"] = {"total": 3, "need": 1, "cancels": 0}
    assert A.count_options(s) == [3, 0]
    s["action"]["tally"] = {"total": 0, "need": 1, "cancels": 0}
    assert A.count_options(s) == [0]
    s["action"]["tally"] = {"total": 2, "need": 0, "cancels": 0}
    assert A.count_options(s) == [2]


def test_four_dice_at_most_the_oldest_is_taken_from_its_card(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise")
    place(bundle, s, 205, "0,0", event=True)
    s["dice"] = {f"x#{i}": {"line": 0, "value": 1, "card": "101/green"} for i in range(4)}
    A.start(bundle, s, 0, "event:0,0:205/green", 1)
    assert len(s["dice"]) == 4 and "x#0" not in s["dice"] and "205/green#1" in s["dice"]
    assert entries(s, "die.taken")[-1]["title"] == "Les Portes rouillées"


# --------------------------------------------------------------------------- actions.py: the
# action sequence (« Réaliser une action »): start, bonuses, tally, result, count_options,
# count, finish, end — the dice, the successes counted, the cards in force, the end of an action


def gardien(bundle: dict) -> dict:
    """Maëlis (A) before « Abattre le gardien de fonte » (308: fight, cost 3, difficulty 1,
    Carapace +1, Colossal +2): Coup d'estoc (spent when used), Bouclier levé and a reflex
    skill in hand; her deck gives Endurance (2 stars), a left and a right half-star, and the
    reflex skill Parade réflexe."""
    s = situation(
        bundle,
        ["A"],
        scenario="forges_mortes",
        hands={"A": ["a_estoc", "a_bouclier", "ref_instinct"]},
        decks={"A": ["x01", "x02", "x03", "ref_parade"]},
    )
    place(bundle, s, 308, "0,0")
    return play(bundle, s, {"type": "act", "source": "terrain:0,0", "index": 0})


def test_an_action_reveals_its_cards_and_counts_stars_halves_and_the_cards_in_force(bundle):
    """« Résultat »: one success per star, one per left and right half-star paired; class
    icons of the revealed cards and of the selected card turned by the cards in force
    (Bouclier levé in hand and the revealed reflex Parade réflexe: might into cancelled
    damage); Coup d'estoc selected gives 1 success; a reflex skill in hand gives nothing."""
    s = gardien(bundle)
    ch = s["characters"][0]
    told = entries(s, "action.start")[-1]
    assert told == {"name": ch["name"], "id": "A", "verb": "fight", "others": [],
                    "title": "Abattre le gardien de fonte", "card": "Les Citernes"}  # fmt: skip
    assert s["pending"] == {"type": "prepare", "character": 0}
    assert s["action"]["selected"] == [] and s["action"]["mandatory"] is False
    assert (s["action"]["keep"], s["action"]["move_die"], s["action"]["tremor"]) == (0, 0, False)
    assert s["action"]["this"] == K.adventure("308/green") and s["action"]["die"] is None
    s = play(bundle, s, {"type": "select", "item": "a_estoc"})
    assert s["pending"] == {"type": "draw", "character": 0}  # nothing else to select
    s = play(bundle, s, {"type": "draw", "count": 4, "tremor": False})
    drawn = ["x01", "x02", "x03", "ref_parade"]
    tally = {"stars": 2 + 1 + 1, "counted": drawn, "limit": None,
             "icons": ["might", "agility", "faith", "might", "might"],  # Coup d'estoc's last
             "converted": 0, "cancels": 3, "flat": 1, "total": 5, "need": 1 + 1 + 2}  # fmt: skip
    assert s["action"]["drawn"] == drawn and s["action"]["tally"] == tally
    assert s["pending"] == {"type": "result", "character": 0}
    assert entries(s, "action.drawn")[-1] == {
        "name": ch["name"], "cards": drawn, "multiple": False,
        "title": "Abattre le gardien de fonte", "verb": "fight", **tally}  # fmt: skip
    bonus = A.bonuses(bundle, s, drawn)
    skills = rec.recs(bundle, "action_card")
    assert bonus == [skills[k]["bonuses"] for k in ("a_estoc", "a_bouclier", "ref_parade")]
    # a reflex skill counts only revealed, never from the hand
    assert A.bonuses(bundle, s) == [skills[k]["bonuses"] for k in ("a_estoc", "a_bouclier")]


def test_counting_no_success_fails_and_the_spent_skill_goes_with_the_cards(bundle):
    """« il peut choisir de n'en comptabiliser aucun »: the action fails (3 damage, all three
    cancelled by the might icons), then the revealed cards and Coup d'estoc (« puis défaussez
    cette carte ») go to Maëlis's discard; the other skills stay in her hand."""
    s = gardien(bundle)
    defense = s["citadel"]["scores"]["defense"]
    s = play(bundle, s, {"type": "select", "item": "a_estoc"},
             {"type": "draw", "count": 4, "tremor": False})  # fmt: skip
    assert [a for a in T.legal_actions(bundle, s) if a["type"] == "count"] == [
        {"type": "count", "successes": 5}, {"type": "count", "successes": 0}]  # fmt: skip
    s = play(bundle, s, {"type": "count", "successes": 0})
    ch = s["characters"][0]
    assert entries(s, "action.result")[-1] == {
        "ok": False, "successes": 0, "total": 5, "need": 4, "die": None,
        "title": "Abattre le gardien de fonte", "verb": "fight"}  # fmt: skip
    assert entries(s, "damage.cancelled")[-1] == {"name": ch["name"], "amount": 3, "of": 3}
    assert ch["hp"] == 18 and "gardien_abattu" not in s["flags"]
    assert s["citadel"]["scores"]["defense"] == defense  # Colossal's Défense: on a success only
    assert entries(s, "skill.spent") == [{"title": "Coup d'estoc", "name": ch["name"]}]
    assert entries(s, "card.block") == []
    assert ch["discard"] == ["x01", "x02", "x03", "ref_parade", "a_estoc"]
    assert ch["hand"] == ["a_bouclier", "ref_instinct"] and ch["blocked"] == []
    assert s["action"] is None and s["pending"] == {"type": "turn"}


def test_counting_every_success_wins_the_fight_and_its_colossal_bonus(bundle):
    """Five successes for four: « Abattre le gardien de fonte » succeeds (its flag), and the
    Colossal trait's success adds 1 Défense; nothing is cancelled on a success."""
    s = gardien(bundle)
    defense = s["citadel"]["scores"]["defense"]
    s = play(bundle, s, {"type": "select", "item": "a_estoc"},
             {"type": "draw", "count": 4, "tremor": False},
             {"type": "count", "successes": 5})  # fmt: skip
    assert entries(s, "action.result")[-1]["ok"] is True
    assert entries(s, "action.result")[-1]["successes"] == 5
    assert "gardien_abattu" in s["flags"]
    assert s["citadel"]["scores"]["defense"] == defense + 1
    assert K.where(bundle, s, K.action_card("a_estoc")) == "discard:A"


def test_a_chain_counts_the_stars_of_as_many_cards_as_its_cost_plus_extra_cards(bundle):
    """« Fouiller les décombres de la nef » (105: search, cost 3 with a chain, difficulty 2):
    Fouille méthodique in hand lets one card more count (4) and gives 1 success; the chain
    limits only the stars: the wits icons of all six revealed cards count, and Déduction
    turns two of them into 1 success. Success: « ajouter à sa main » one revealed card."""
    s = situation(
        bundle,
        ["A"],
        hands={"A": ["adv_fouille", "c_deduction"]},
        decks={"A": ["x05", "x15", "x21", "x04", "x09", "x14"]},
    )
    place(bundle, s, 105, "0,0")
    s = play(bundle, s, {"type": "act", "source": "terrain:0,0", "index": 0},
             {"type": "draw", "count": 6, "tremor": False})  # fmt: skip
    t = s["action"]["tally"]
    assert (t["limit"], t["stars"], len(t["counted"])) == (4, 2 + 2 + 2 + 1, 4)
    assert {"x05", "x15", "x21"} <= set(t["counted"])
    assert (t["icons"], t["converted"], t["cancels"]) == (["wits"] * 3, 1, 0)
    assert (t["flat"], t["total"], t["need"]) == (1, 7 + 1 + 1, 2)
    s = play(bundle, s, {"type": "count", "successes": 9})
    # its first success brings Fenwick (112), whose mandatory « Marchander » comes first:
    # the search waits, then goes on to « ajouter à sa main » once Fenwick is done
    assert s["action"]["title"] == "Marchander"
    assert [a["title"] for a in s["suspended"]] == ["Fouiller les décombres de la nef"]
    s = play(bundle, s, {"type": "draw", "count": 1, "tremor": False}, {"type": "close"})
    assert s["action"]["title"] == "Fouiller les décombres de la nef" and s["suspended"] == []
    # Fenwick resolved goes to the Past (put back only if its participants had all fainted)
    assert K.where(bundle, s, K.adventure("112/green")) == "past"
    assert entries(s, "card.put_back") == []
    assert s["pending"] == {"type": "keep", "character": 0, "left": 1}
    ch = s["characters"][0]
    assert ch["discard"] == ["a_cri"]  # Marchander's revealed card
    s = play(bundle, s, {"type": "keep", "card": "x05"})
    ch = s["characters"][0]
    assert "x05" in ch["hand"] and sorted(ch["discard"]) == [
        "a_cri", "x04", "x09", "x14", "x15", "x21"]  # fmt: skip
    assert s["action"] is None and s["pending"] == {"type": "turn"}


def test_a_simple_action_offers_all_or_nothing_a_multiple_one_any_number_short(bundle):
    """Exactly the difficulty reached is a success the player may still refuse; a simple
    action then counts all or nothing, a multiple one any number below its die."""
    s = situation(bundle, ["A"])
    A.start(bundle, s, 0, "terrain:0,0", 0)
    s["action"]["tally"] = {"total": 2, "need": 2, "cancels": 0}
    assert A.count_options(s) == [2, 0]
    s = situation(bundle, ["A"], scenario="pluie_grise")
    place(bundle, s, 205, "0,0", event=True)
    A.start(bundle, s, 0, "event:0,0:205/green", 1)
    s["action"]["tally"] = {"total": 2, "need": 2, "cancels": 0}
    assert A.count_options(s) == [2, 0, 1]


def caravane(bundle: dict, deck: list[str], hp: int = 18) -> dict:
    """« Dégager les chariots un à un » (205, a multiple action: lines of 2, 3, 2)."""
    s = situation(bundle, ["A"], scenario="pluie_grise", decks={"A": deck}, hp={"A": hp})
    place(bundle, s, 205, "0,0", event=True)
    return s


def test_a_multiple_action_lowers_its_die_and_is_taken_up_again_where_it_stopped(bundle):
    """Too few successes counted lower the die and the line's failure applies (1 damage);
    undertaken again later, the die keeps its value; below 1 the line succeeds and the die
    moves on to the next line, showing its difficulty (3)."""
    s = caravane(bundle, ["x05", "x01", "x15", "x17"])
    act = {"type": "act", "source": "event:0,0:205/green", "index": 1}
    s = play(bundle, s, act, {"type": "draw", "count": 2, "tremor": False})
    die = "205/green#1"
    assert s["action"]["die"] == die and s["pending"] == {"type": "result", "character": 0}
    assert entries(s, "action.drawn")[-1]["multiple"] is True
    assert entries(s, "action.drawn")[-1]["title"] == "Dégager les chariots un à un"
    assert entries(s, "action.drawn")[-1]["verb"] == "pull_push_lift"
    s = play(bundle, s, {"type": "count", "successes": 1})
    told = entries(s, "action.result")[-1]
    assert (told["ok"], told["successes"], told["total"], told["need"], told["die"]) == (
        False, 1, 4, 2, 1)  # fmt: skip
    assert (told["title"], told["verb"]) == ("Dégager les chariots un à un", "pull_push_lift")
    assert s["characters"][0]["hp"] == 17 and s["action"] is None
    assert s["dice"][die] == {"line": 0, "value": 1, "card": "205/green"}
    s = play(bundle, s, act)
    assert s["dice"][die]["value"] == 1  # not placed again
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    assert s["action"]["tally"]["need"] == 1
    s = play(bundle, s, {"type": "count", "successes": 4})
    assert entries(s, "action.result")[-1]["die"] == 0
    assert s["dice"][die] == {"line": 1, "value": 3, "card": "205/green"}
    assert s["action"] is None and s["characters"][0]["hp"] == 17


@pytest.fixture
def mandatory_caravane(bundle, monkeypatch):
    """« Dégager les chariots un à un » printed in a red frame (a mandatory multiple action:
    no card of the box has one, the rule is the rulebook's)."""
    spec = rec.adv(bundle, "205/green")["actions"][1]
    monkeypatch.setitem(spec, "mandatory", True)
    return spec


def test_a_mandatory_multiple_action_is_undertaken_again_until_it_is_over(
    bundle, mandatory_caravane
):
    """« Si elle est obligatoire, vous devez l'entreprendre à nouveau sitôt l'étape de
    Conséquence résolue et ce, jusqu'à ce qu'elle soit terminée »: each line succeeded or
    failed, the same character undertakes it again, a new turn each time."""
    s = caravane(bundle, ["x05", "x01", "x15", "x17", "x02", "x03"])
    act = {"type": "act", "source": "event:0,0:205/green", "index": 1}
    s = play(bundle, s, act)
    turns = s["turns"]
    assert s["action"]["mandatory"] is True
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 4})  # fmt: skip
    assert s["dice"]["205/green#1"] == {"line": 1, "value": 3, "card": "205/green"}
    again = s["action"]
    assert (again["source"], again["index"], again["character"]) == ("event:0,0:205/green", 1, 0)
    assert again["mandatory"] and again["drawn"] == [] and s["suspended"] == []
    assert s["pending"] == {"type": "draw", "character": 0} and s["turns"] == turns + 1
    assert len(entries(s, "action.start")) == 2
    # the line fails, the die stays
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 1})  # fmt: skip
    assert s["dice"]["205/green#1"] == {"line": 1, "value": 2, "card": "205/green"}
    assert s["action"]["source"] == "event:0,0:205/green" and s["turns"] == turns + 2
    assert s["characters"][0]["discard"] == ["x05", "x01", "x02", "x15", "x17"]  # x02: the failure


def test_a_mandatory_multiple_action_stops_when_over_or_when_its_character_faints(
    bundle, mandatory_caravane
):
    s = caravane(bundle, ["x05", "x01"])
    s["dice"]["205/green#1"] = {"line": 2, "value": 1, "card": "205/green"}  # its last line
    s = play(bundle, s, {"type": "act", "source": "event:0,0:205/green", "index": 1},
             {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 4})  # fmt: skip
    assert "205/green#1" not in s["dice"] and "caravane_degagee" in s["flags"]
    assert s["action"] is None and len(entries(s, "action.start")) == 1
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", decks={"A": ["x05", "x01"]},
                  hp={"A": 1})  # fmt: skip
    place(bundle, s, 205, "0,0", event=True)
    s["characters"][1]["at"] = "1,0"  # Bruno stands elsewhere: Maëlis acts alone
    s = play(bundle, s, {"type": "act", "source": "event:0,0:205/green", "index": 1},
             {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 0})  # fmt: skip
    # the line's failure: 1 damage, she faints; the die stays for later
    assert not s["characters"][0]["conscious"] and "205/green#1" in s["dice"]
    assert s["action"] is None and len(entries(s, "action.start")) == 1


def test_the_cards_in_force_are_the_selected_ones_the_fitting_skills_and_revealed_reflexes(
    bundle,
):
    """« Appliquer les effets de ses cartes »: a purse card only once selected (and while it
    is still in front of the character), a skill in hand when its condition names the
    action (Épaule solide does not: no fight in it), a skill spent when used only once
    selected; a reflex skill only when revealed and fitting (Sursaut is for dodging), and a
    revealed skill that is not a reflex gives nothing."""
    s = situation(
        bundle,
        ["A"],
        scenario="forges_mortes",
        hands={"A": ["a_estoc", "a_bouclier", "a_epaule", "ref_instinct"]},
        purses={"A": [111]},
    )
    place(bundle, s, 308, "0,0")
    s = play(bundle, s, {"type": "act", "source": "terrain:0,0", "index": 0})
    skills = rec.recs(bundle, "action_card")
    sword = rec.adv(bundle, "111/green")["bonuses"]
    estoc, shield, parade = (skills[k]["bonuses"] for k in ("a_estoc", "a_bouclier", "ref_parade"))
    assert A.bonuses(bundle, s) == [shield]
    s = play(bundle, s, {"type": "select", "item": "a_estoc"})
    assert s["pending"] == {"type": "prepare", "character": 0}
    assert A.bonuses(bundle, s) == [estoc, shield]
    s = play(bundle, s, {"type": "select", "item": "111/green"})
    assert s["action"]["selected"] == ["a_estoc", "111/green"]
    assert A.bonuses(bundle, s) == [sword, estoc, shield]
    revealed = ["ref_sursaut", "adv_lame_sure", "ref_parade", "x01"]
    assert A.bonuses(bundle, s, revealed) == [sword, estoc, shield, parade]
    K.move(bundle, s, K.adventure("111/green"), "past")
    assert A.bonuses(bundle, s) == [estoc, shield]


def test_moving_is_an_action_with_no_title_and_no_card_told_as_such(bundle):
    """« Me déplacer » is printed on the character card: the log names no title and no card
    for it, at its start, its cards revealed and its result; a success moves the figure."""
    s = situation(bundle, ["A"], decks={"A": ["x05", "x01"]})
    s = play(bundle, s, {"type": "move", "character": 0, "to": "1,0"},
             {"type": "draw", "count": 1, "tremor": False})  # fmt: skip
    assert s["characters"][0]["at"] == "1,0" and s["action"] is None
    assert entries(s, "action.start")[-1]["title"] == ""
    assert (entries(s, "action.drawn")[-1]["title"], entries(s, "action.drawn")[-1]["verb"]) == (
        "", "move")  # fmt: skip
    assert entries(s, "action.result")[-1] == {
        "ok": True, "successes": 2, "total": 2, "need": 0, "die": None, "title": "",
        "verb": "move"}  # fmt: skip


def test_an_action_printed_on_a_purse_card_selects_that_card(bundle):
    """« Lorsque le joueur actif entreprend une action disponible sur une de ses cartes [sac],
    cette carte est automatiquement sélectionnée »."""
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": [226]})
    s = play(bundle, s, {"type": "act", "source": "purse:A:226/green", "index": 0})
    assert s["action"]["selected"] == ["226/green"]


def test_an_action_of_a_dialogue_names_no_card(bundle):
    """A mandatory action of the Livre des dialogues (23, « Maîtriser Ossian ») is printed on
    no card: its start names none."""
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": "23"})
    assert s["action"]["source"] == "paragraph:23" and s["action"]["mandatory"] is True
    assert entries(s, "action.start")[-1]["card"] == ""
    assert entries(s, "action.start")[-1]["title"] == "Maîtriser Ossian"


def test_the_selected_cards_own_effects_apply_once_the_action_is_over(bundle):
    """« [sélectionnée] »: Braise prisonnière (437, an ÉTAT that must be selected for a fight)
    costs 1 hit point, the Fiole d'eau de trempe (435) selected after Coup d'estoc banishes
    itself (« bannissez cette carte »: that card, not the Terrain fought on); the fight's
    failure (3 damage) comes on top."""
    s = situation(
        bundle,
        ["A"],
        scenario="forges_mortes",
        hands={"A": ["a_estoc"]},
        purses={"A": [437, 435]},
        decks={"A": ["x05", "x01", "x15"]},
    )
    place(bundle, s, 308, "0,0")
    s = play(bundle, s, {"type": "act", "source": "terrain:0,0", "index": 0})
    assert s["action"]["selected"] == ["437/green"]  # « DOIT impérativement la sélectionner »
    s = play(bundle, s, {"type": "select", "item": "a_estoc"},
             {"type": "select", "item": "435/green"},
             {"type": "draw", "count": 3, "tremor": False},
             {"type": "count", "successes": 0})  # fmt: skip
    ch = s["characters"][0]
    assert ch["hp"] == 18 - 3 - 1 and ch["purse"] == ["437/green"]
    assert K.where(bundle, s, K.adventure("435/green")) == "banished"
    assert K.where(bundle, s, K.adventure("308/green")) == "terrain:0,0"
    assert entries(s, "card.banish") == [{"title": "Fiole d'eau de trempe"}]


def meute(bundle: dict, deck: list[str], hp: int = 18) -> dict:
    """« Disperser la meute » (115, a permanent event: fight, cost 2, difficulty 2, Nuée: 1
    card more, Furtif: 1 damage more on a failure)."""
    s = situation(bundle, ["A"], decks={"A": deck}, hp={"A": hp})
    place(bundle, s, 115, "0,0", event=True)
    return play(bundle, s, {"type": "act", "source": "event:0,0:115/green", "index": 0},
                {"type": "draw", "count": 3, "tremor": False})  # fmt: skip


def test_a_creatures_trait_adds_its_failure_and_a_success_discards_the_event(bundle):
    s = meute(bundle, ["x05", "x01", "x15"])
    s = play(bundle, s, {"type": "count", "successes": 0})
    assert s["characters"][0]["hp"] == 18 - 1 - 1  # the failure's damage, Furtif's
    assert K.where(bundle, s, K.adventure("115/green")) == "event:0,0"
    s = meute(bundle, ["x05", "x01", "x15"])
    s = play(bundle, s, {"type": "count", "successes": 6})
    assert s["characters"][0]["hp"] == 18  # Furtif strikes only on a failure
    assert K.where(bundle, s, K.adventure("115/green")) == "past"  # « défaussez cette carte »


def test_an_event_found_by_an_action_forbids_that_action_on_its_terrain(bundle):
    """« Explorer la grotte » (224) failed brings « Se frayer un chemin » (240), linked to the
    Terrain with the action's icon on its arrow: the grotto cannot be searched again."""
    s = situation(bundle, ["A"], scenario="pluie_grise", decks={"A": ["x02", "x13"]})
    place(bundle, s, 224, "0,0")
    assert ("terrain:0,0", 1) in A.available(bundle, s, 0)
    s = play(bundle, s, {"type": "act", "source": "terrain:0,0", "index": 1},
             {"type": "draw", "count": 2, "tremor": False})  # fmt: skip
    # two left half-stars make no star: no success to count, the action fails at once
    assert entries(s, "action.result")[-1]["ok"] is False
    assert K.where(bundle, s, K.adventure("240/green")) == "event:0,0"
    assert [ev["blocked_verb"] for ev in s["board"]["0,0"]["events"]
            if ev["key"] == "240/green"] == ["search"]  # fmt: skip
    assert ("terrain:0,0", 1) not in A.available(bundle, s, 0)


def test_a_passage_found_reveals_a_temporary_event_fought_once_then_put_in_the_past(bundle):
    """« Chercher un passage » (cost 0, difficulty 0) turns the exploration card over: Rats
    des décombres (1001), a temporary event whose fight is mandatory; once fought, the card
    goes to the Past and the arrow's card (106) takes its place: it is revealed only once."""
    s = situation(bundle, ["A"], decks={"A": ["x05", "x01", "x15"]})
    K.move(bundle, s, K.exploration(s["slots"]["0,-1"]["exploration"]), "box")
    K.move(bundle, s, K.exploration("1001"), "slot:0,-1")
    s = play(bundle, s, {"type": "act", "source": "explore:0,-1", "index": 0},
             {"type": "draw", "count": 0, "tremor": False})  # fmt: skip
    assert (s["action"]["source"], s["action"]["mandatory"]) == ("slot:0,-1", True)
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 4})  # fmt: skip
    assert s["action"] is None and s["pending"] == {"type": "turn"}
    assert K.where(bundle, s, K.exploration("1001")) == "past"
    assert [e["id"] for e in entries(s, "exploration.revealed")] == ["1001"]
    assert s["board"]["0,-1"]["terrain"].startswith("106")


def test_a_temporary_event_whose_fighter_faints_goes_back_to_the_box(bundle):
    """« Si tous les participants à une action figurant sur une carte Événement temporaire
    deviennent inconscients, cette carte est rangée »: 304 (a mandatory dodge, 3 damage on a
    failure) knocks Maëlis out; Bruno, elsewhere, goes on; the card is put back, not in the
    Past."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"A": 3},
                  decks={"A": ["x02", "x13"]})  # fmt: skip
    s["characters"][1]["at"] = "1,0"
    s = consequence(bundle, s, {"take": 304})
    assert s["action"]["source"] == "temp:304/green" and s["action"]["participants"] == [0]
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    assert not s["characters"][0]["conscious"] and s["action"] is None
    assert K.where(bundle, s, K.adventure("304/green")) == "box"
    title = rec.adv(bundle, "304/green")["title"]
    assert entries(s, "card.put_back") == [{"title": title}]


def test_a_mandatory_multiple_action_goes_on_with_the_same_active_player(
    bundle, mandatory_caravane
):
    """Bruno undertook it (Maëlis stands elsewhere): Bruno undertakes it again."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", decks={"B": ["x05", "x01"]})
    place(bundle, s, 205, "0,0", event=True)
    s["characters"][0]["at"] = "1,0"
    s = play(bundle, s, {"type": "act", "character": 1, "source": "event:0,0:205/green"},
             {"type": "draw", "count": 2, "tremor": False},
             {"type": "count", "successes": 4})  # fmt: skip
    assert s["dice"]["205/green#1"]["line"] == 1
    assert s["action"]["character"] == 1 and s["pending"] == {"type": "draw", "character": 1}
    assert [e["id"] for e in entries(s, "action.start")] == ["B", "B"]


# --------------------------------------------------------------------------- saving.py, whole
# « Sauvegarder et reprendre la partie »: the skills in hand are discarded, every card of the
# Plateau but the Terrain under the figures goes to the Past, the Past goes back to the box,
# the saved Terrain is set down alone at the centre with every figure on it, exploration cards
# in front of its arrows, then the booklet's cards for a resumed game come back into play.


def test_a_save_away_from_the_centre_clears_the_plateau_and_resumes_there(bundle):
    from engine.citadelle import saving as SV

    s = situation(
        bundle, ["A", "B"], scenario="pluie_grise", hands={"A": ["a_cri"], "B": ["adv_riposte"]}
    )
    saved = place(bundle, s, 204, "1,0")
    place(bundle, s, "305/green", "1,0", event=True)
    place(bundle, s, "304/green", "0,0", event=True)
    for ch in s["characters"]:
        ch["at"] = "1,0"
    # a fog card already turned over: the adventure card that took its place
    cell = sorted(s["slots"])[0]
    K.move(bundle, s, {"kind": "exploration", "key": s["slots"][cell]["exploration"]}, "box")
    used = {"103", "104", "201", "204", "304", "305"}  # the cards of this situation
    card = next(
        k
        for k, v in rec.recs(bundle, "adventure_card").items()
        if v.get("type") == "permanent_event"
        and k.split("/")[0] not in used
        and K.where(bundle, s, K.adventure(k)) == "box"
    )
    K.move(bundle, s, K.adventure(card), f"slot:{cell}")
    slots = [
        {"kind": field, "key": slot[field]}
        for slot in s["slots"].values()
        for field in ("exploration", "adventure")
        if slot.get(field)
    ]
    hands = {ch["id"]: list(ch["hand"]) for ch in s["characters"]}
    plateau_events = [ev for spot in s["board"].values() for ev in spot["events"]]
    gone = [
        K.adventure(spot["terrain"]) for spot in s["board"].values() if spot["terrain"] != saved
    ]
    gone += [K.adventure(ev["key"]) for ev in plateau_events]
    assert len(gone) >= 5  # the first Terrain, another one, three events
    past = len(s["past"])  # the Past of the adventure so far goes back to the box too
    s["dice"] = {"1": {"card": saved}}  # a die left on the saved Terrain is taken off too
    s["arrivals"] = ["1,0"]
    s["found"] = ["204"]
    SV.save(bundle, s)
    # 1. the skills in hand are discarded
    for ch in s["characters"]:
        assert ch["hand"] == [] and set(hands[ch["id"]]) <= set(ch["discard"])
    # 2.-3. the Plateau's other cards (the saved Terrain's events too) went through the Past
    # back to the box; the booklet's card for a resumed game is in play again
    again = {k.split("/")[0] for k in S.resume_cards(bundle, "pluie_grise")}
    for ref in [*gone, *slots]:
        if ref["key"].split("/")[0] not in again:
            assert K.where(bundle, s, ref) == "box", ref
    assert s["past"] == []
    restored = [e["args"]["count"] for e in s["log"] if e["key"] == "past.restored"]
    assert restored == [past + len(gone) + len(slots)]
    # the saved Terrain alone at the centre, every figure on it, nothing pending of before
    assert s["board"]["0,0"]["terrain"] == saved
    assert {ev["key"].split("/")[0] for ev in s["board"]["0,0"]["events"]} == again
    assert [k for k in s["board"] if k != "0,0"] == []
    assert all(ch["at"] == "0,0" for ch in s["characters"])
    assert s["dice"] == {} and s["found"] == [] and s["saved"] is True
    assert "1,0" not in s["arrivals"]  # what was pending before the save is forgotten
    title = rec.adv(bundle, saved)["title"]
    assert entries(s, "game.saved") == [{"title": title}]
    assert entries(s, "game.resumed") == [{"title": title}]
    # exploration cards in front of its free arrows, and the booklet's card for a resumed game
    assert {k for k, slot in s["slots"].items() if slot.get("exploration")} == {
        B.neighbour("0,0", a["direction"])
        for a in rec.adv(bundle, saved).get("arrows") or ()
        if B.in_bounds(bundle, B.neighbour("0,0", a["direction"]))
    }
    for number in S.resume_cards(bundle, "pluie_grise"):
        versions = [k for k in rec.recs(bundle, "adventure_card") if k.split("/")[0] == number]
        assert any(K.where(bundle, s, K.adventure(k)) != "box" for k in versions), number
    K.check(bundle, s)


# --------------------------------------------------------------------------- dialogues.py, whole
# A paragraph read aloud: its choices whose condition holds, its optional actions (a
# mandatory one is undertaken at once), and « fermer le livre » when the paragraph ends there
# or offers no choice; a choice is told, closes the dialogue and leads where it says.


def _with_paragraph(bundle: dict, number: str, para: dict) -> dict:
    """The bundle with one more paragraph, as an author may write one."""
    twin = {**bundle, "records": {**bundle["records"]}}
    twin["records"]["paragraph"] = {**twin["records"]["paragraph"], number: para}
    return twin


ASK = {"verb": "fight", "title": "Tenir tête", "cost": 1, "difficulty": 1}


def test_a_paragraph_offers_what_its_conditions_allow_and_closes_only_where_it_may(bundle):
    from engine.citadelle import dialogues as D

    para = {
        "id": 990,
        "text": "Trois portes, deux gardes.",
        "choices": [
            {"text": "La porte de gauche", "read": "1"},
            {"text": "La porte scellée", "read": "2", "requires": {"flag": "sceau_brise"}},
            {"text": "La porte du fond", "read": "3", "requires": {"not_flag": "sceau_brise"}},
        ],
        "actions": [
            {**ASK, "mandatory": True},
            {**ASK, "title": "Interroger", "requires": {"flag": "sceau_brise"}},
            {**ASK, "title": "Fouiller"},
        ],
    }
    b = _with_paragraph(bundle, "990", para)
    s = situation(b, ["A", "B"])
    s["pending"] = {"paragraph": "990", "character": 1}
    offered = D.choices(b, s)
    src = "paragraph:990"
    assert offered == [
        {"type": "choose", "index": 0},
        {"type": "choose", "index": 2},
        A.act(b, s, 1, src, 2),
    ]
    assert offered[-1]["character"] == 1  # the reader undertakes it
    s["flags"].append("sceau_brise")
    assert D.choices(b, s) == [
        {"type": "choose", "index": 0},
        {"type": "choose", "index": 1},
        A.act(b, s, 1, src, 1),
        A.act(b, s, 1, src, 2),
    ]
    # the paragraph ends there: the book may be closed besides
    b2 = _with_paragraph(bundle, "990", {**para, "end": True})
    assert D.choices(b2, s)[-1] == {"type": "close"}
    # no choice holds: only its actions, and closing the book
    b3 = _with_paragraph(bundle, "990", {**para, "choices": para["choices"][1:2]})
    s["flags"].remove("sceau_brise")
    assert D.choices(b3, s) == [A.act(b3, s, 1, src, 2), {"type": "close"}]


def test_a_paragraph_read_by_a_character_and_a_choice_made(bundle):
    from engine.citadelle import dialogues as D

    para = {
        "id": 991,
        "text": "Le passeur attend.",
        "effects": [{"flag": "passeur_vu"}],
        "choices": [{"text": "Payer le passeur", "read": "1", "effects": [{"flag": "paye"}]}],
    }
    b = _with_paragraph(bundle, "991", para)
    s = situation(b, ["A", "B"])
    D.open_paragraph(b, s, "991", 1)
    ch = s["characters"][1]
    assert s["dialogue"] == {"paragraph": "991", "character": 1}
    assert entries(s, "dialogue")[-1] == {
        "number": "991",
        "text": "Le passeur attend.",
        "name": ch["name"],
        "id": ch["id"],
    }
    assert "991" in s["read"]
    D.open_paragraph(b, s, "991", 1)
    assert s["read"].count("991") == 1  # the lexicon holds it once
    D.choose(b, s, {"paragraph": "991"}, 0)
    assert entries(s, "dialogue.choice")[-1] == {"text": "Payer le passeur", "number": "991"}
    assert s["dialogue"] is None
    # a paragraph that does not exist opens nothing
    D.open_paragraph(b, s, "99999", 0)
    assert s["dialogue"] is None
    # read for a character no longer in the group: told with no name
    D.open_paragraph(b, s, "991", len(s["characters"]))
    assert entries(s, "dialogue")[-1] == {
        "number": "991",
        "text": "Le passeur attend.",
        "name": "",
        "id": "",
    }


def test_a_paragraph_with_only_a_mandatory_action_ends_the_dialogue_after_it(bundle):
    """Its action is undertaken at once; with no choice and nothing optional, the book
    closes afterwards instead of waiting for a choice."""
    from engine.citadelle import dialogues as D

    only = {"id": 992, "text": "Le pont cède.", "actions": [{**ASK, "mandatory": True}]}
    b = _with_paragraph(bundle, "992", only)
    s = situation(b, ["A"])
    D.open_paragraph(b, s, "992", 0)
    frame = s["queue"][-1]
    assert frame["effects"] == [
        {"_act": {"source": "paragraph:992", "index": 0, "character": 0}},
        {"_end_dialogue": True},
    ]
    optional = _with_paragraph(bundle, "992", {**only, "actions": [ASK]})
    s = situation(optional, ["A"])
    D.open_paragraph(optional, s, "992", 0)
    assert s["queue"][-1]["effects"] == [{"_dialogue_choice": "992"}]


# --- The Citadel sheet and the end of a scenario: what is told, kept and cleared ---------


def _with_record(bundle: dict, kind: str, key: str, record: dict) -> dict:
    """The bundle with one record of ``kind`` added or replaced, as an author may write it."""
    twin = {**bundle, "records": {**bundle["records"]}}
    twin["records"][kind] = {**twin["records"].get(kind, {}), key: record}
    return twin


def test_a_citadel_sheet_that_sets_no_tremor_starts_at_tremor_zero() -> None:
    """« Tremblement » left blank on the sheet (or no sheet at all) means level 0."""
    scores = {"influence": 1, "knowledge": 1, "production": 1, "defense": 1}
    sheet = CI.new_sheet({"records": {"citadel": {"citadelle": {"scores": scores}}}})
    assert sheet["tremor"] == 0 and sheet["scores"] == scores
    assert CI.new_sheet({"records": {}})["tremor"] == 0


def test_a_building_of_one_box_is_built_by_its_first_tick(bundle: dict) -> None:
    """A building with a single box to tick is built the first time it is ticked."""
    tower = {"id": "tour", "title": "La tour de guet", "boxes": 1, "text": "On voit loin."}
    b = _with_record(bundle, "building", "tour", tower)
    s = situation(b, ["A"])
    CI.build(b, s, "tour")
    assert s["citadel"]["buildings"] == {"tour": 1}
    assert entries(s, "building.built") == [{"title": "La tour de guet", "ticks": 1, "boxes": 1}]


def test_an_objective_reached_is_told_with_its_id(bundle: dict) -> None:
    """Reaching an objective tells which objective it is."""
    s = situation(bundle, ["A"])
    CI.sheet_effect(bundle, s, "objective", "contact_sorgue", 0)
    assert entries(s, "objective")[-1]["id"] == "contact_sorgue"


def test_a_skill_for_a_character_past_the_last_goes_to_the_first_and_is_told(
    bundle: dict,
) -> None:
    """A skill for a character not at the table goes to the first one, told by its title."""
    s = situation(bundle, ["A", "B"])
    CI.add_skill(bundle, s, "adv_riposte", 2)
    assert "adv_riposte" in s["characters"][0]["deck"]
    assert entries(s, "skill.added") == [{"name": s["characters"][0]["name"], "title": "Riposte"}]


def test_a_destiny_entry_bought_is_told_with_its_title(bundle: dict) -> None:
    """Buying a Destiny entry tells its title."""
    s = situation(bundle, ["A", "B"])
    s["citadel"]["hope"] = 2
    CI.buy_destiny(bundle, s, "lecture_des_runes", 0)
    assert entries(s, "destiny")[-1]["title"] == "Le lexique des soudeurs"


def _one_epilogue(bundle: dict, branch: dict) -> dict:
    """The bundle where « Les Portes rouillées » has this one epilogue branch."""
    scen = bundle["records"]["scenario"]["portes_rouillees"]
    return _with_record(bundle, "scenario", "portes_rouillees", {**scen, "epilogue": [branch]})


def test_no_epilogue_branch_that_holds_ends_the_adventure_in_defeat(bundle: dict) -> None:
    """When no branch of the epilogue applies, the scenario ends and the adventure is lost."""
    b = _one_epilogue(bundle, {"id": "seul", "requires": [{"objective": "x"}], "text": "..."})
    s = situation(b, ["A"])
    CI.end_scenario(b, s)
    assert entries(s, "scenario.end") == [{"title": "Les Portes rouillées"}]
    assert s["phase"] == "over" and s["pending"] is None and s["epilogues"] == []
    assert s["result"] == {
        "result": "defeat",
        "why": "no_epilogue",
        "scenarios": ["portes_rouillees"],
    }
    assert entries(s, "adventure.over") == [{"result": "defeat", "why": "no_epilogue"}]


def test_the_epilogue_read_is_told_and_its_effects_fall_on_the_first_character(
    bundle: dict,
) -> None:
    """An epilogue branch on an item the group holds is read (its text and the scenario's
    title are told), its effects fall on the first character, and the Citadel starts afresh:
    no book open, nothing queued or waiting, the fainted told awake by name."""
    text = "La lanterne éclaire le retour."
    branch = {
        "id": "lanterne",
        "requires": [{"item": 110}],
        "text": text,
        "effects": [{"add_skill": "adv_riposte"}],
        "next": "pluie_grise",
    }
    b = _one_epilogue(bundle, branch)
    s = situation(b, ["A", "B"], hp={"B": 0}, purses={"A": [110]})
    s["dialogue"] = {"paragraph": "1", "character": 0}
    s["queue"] = [{"effects": [{"hope": 1}], "ctx": {"character": 0}}]
    s["interrupt"] = [{"type": "banish", "character": 1}]
    CI.end_scenario(b, s)
    assert s["epilogues"] == [{"scenario": "portes_rouillees", "branch": "lanterne"}]
    assert entries(s, "epilogue") == [{"text": text, "title": "Les Portes rouillées"}]
    assert "adv_riposte" in s["characters"][0]["deck"]
    assert "adv_riposte" not in s["characters"][1]["deck"]
    assert s["dialogue"] is None and s["queue"] == [] and s["interrupt"] == []
    assert entries(s, "conscious") == [{"name": s["characters"][1]["name"], "id": "B"}]


# --- The turn's end of the adventure: nobody can undertake anything, too long, a banish owed --


def _alone_on(bundle: dict, terrain: int, *, scenario: str | None = None, at: str = "-2,0",
              flags: tuple[str, ...] = ()) -> dict:  # fmt: skip
    """Maëlis alone on ``terrain``, put at ``at``, a cell no other Terrain or exploration place
    touches (so she has nowhere to walk and no passage to look for), with ``flags`` raised;
    the turn about to begin."""
    s = situation(bundle, ["A"], scenario=scenario)
    place(bundle, s, terrain, at)
    s["characters"][0]["at"] = at
    s["flags"].extend(flags)
    s["pending"] = None
    return s


def _counting(bundle: dict, state: dict) -> list[dict]:
    """The legal actions that undertake something (not a Récupération, nor a card discarded)."""
    free = ("recover", "discard_skill", "drop")
    return [a for a in T.legal_actions(bundle, state) if a["type"] not in free]


def test_nobody_able_to_undertake_anything_ends_the_adventure_stuck(bundle):
    """La Galerie des moules already searched (« moules_fouilles »), no Terrain beside it, no
    menace to save against: Maëlis can neither act, move, examine, search nor save. The
    adventure ends in a defeat rather than wait for ever."""
    s = _alone_on(bundle, 320, flags=("moules_fouilles",))
    T.next_turn(bundle, s)
    assert s["phase"] == "over" and s["pending"] is None
    assert s["result"] == {"result": "defeat", "why": "stuck", "scenarios": []}
    assert entries(s, "adventure.over") == [{"result": "defeat", "why": "stuck"}]
    assert T.legal_actions(bundle, s) == []


def test_one_action_of_the_terrain_is_enough_to_go_on(bundle):
    """The gallery not searched yet: its search is the only thing Maëlis may undertake, and
    the turn waits for it."""
    s = _alone_on(bundle, 320)
    T.next_turn(bundle, s)
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"} and s["result"] is None
    assert [(a["type"], a["source"]) for a in _counting(bundle, s)] == [("act", "terrain:-2,0")]


def test_one_terrain_to_walk_to_is_enough_to_go_on(bundle):
    """The gallery searched, but the Crypte des gardiens (visited) lies west of it: walking
    there is the only thing left, and the turn waits for it."""
    s = _alone_on(bundle, 320, flags=("moules_fouilles", "crypte_visitee"))
    place(bundle, s, 131, "-3,0")
    T.next_turn(bundle, s)
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    assert _counting(bundle, s) == [{"type": "move", "character": 0, "to": "-3,0"}]


def test_saving_against_the_menace_is_enough_to_go_on(bundle):
    """In « Pluie grise », a menace scenario, the searched gallery leaves only the save."""
    s = _alone_on(bundle, 320, scenario="pluie_grise", at="2,-2", flags=("moules_fouilles",))
    T.next_turn(bundle, s)
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    assert _counting(bundle, s) == [{"type": "save"}]


def test_a_card_to_look_at_with_the_magnifier_is_enough_to_go_on(bundle):
    """Le Logis du maître searched (« logis_fouille »), its hidden number not found yet: the
    magnifier is the only thing left, and the turn waits for it."""
    s = _alone_on(bundle, 416, flags=("logis_fouille",))
    T.next_turn(bundle, s)
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    assert _counting(bundle, s) == [{"type": "examine", "character": 0, "card": "416/green"}]


def test_a_found_number_to_take_is_enough_to_go_on(bundle):
    """The number hidden on the Logis (446) found and its card still in the box: taking it is
    the only thing left, and the turn waits for it."""
    s = _alone_on(bundle, 416, flags=("logis_fouille",))
    s["found"] = [{"number": 446, "source": "416/green"}]
    T.next_turn(bundle, s)
    assert s["phase"] == "play" and s["pending"] == {"type": "turn"}
    assert _counting(bundle, s) == [{"type": "search", "character": 0, "number": 446}]


def test_an_adventure_that_runs_too_long_is_a_defeat(bundle):
    """Exhaustion, by turns or by decisions, is a defeat, told as such."""
    for field, limit in (("turns", S.MAX_TURNS), ("steps", T.MAX_STEPS)):
        s = situation(bundle, ["A"])
        s["pending"], s[field] = None, limit + 1
        T.next_turn(bundle, s)
        assert s["phase"] == "over" and s["pending"] is None
        assert s["result"] == {"result": "defeat", "why": "exhaustion", "scenarios": []}
        assert entries(s, "adventure.over") == [{"result": "defeat", "why": "exhaustion"}]


def test_a_banish_owed_by_a_character_no_longer_at_the_table_is_skipped(bundle):
    """A banish owed by a character past the last one at the table (it is gone) is dropped,
    and the one owed by the next character still comes."""
    s = situation(bundle, ["A", "B"], hands={"A": ["a_cri"]})
    s["interrupt"] = [{"type": "banish", "character": 2}, {"type": "banish", "character": 0}]
    s["pending"] = None
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "banish", "character": 0} and s["interrupt"] == []
    s["interrupt"] = [{"type": "banish", "character": 2}]
    s["pending"] = None
    T.next_turn(bundle, s)
    assert s["pending"] == {"type": "turn"}


def test_the_end_of_the_adventure_leaves_nothing_queued_and_no_stray_field(bundle):
    """However the adventure ends (everyone fainted, a card that ends it, the last epilogue),
    nothing is left queued and the state has exactly the fields of a new one, as its save
    and its screen expect."""
    fields = set(situation(bundle, ["A"]))
    s = consequence(bundle, situation(bundle, ["A"]), {"damage": 99}, {"hope": 1})
    assert s["result"]["why"] == "all_unconscious" and s["queue"] == [] and set(s) == fields
    s = consequence(bundle, situation(bundle, ["A"]), {"adventure_ends": True}, {"hope": 1})
    assert s["result"]["why"] == "adventure_ends" and s["queue"] == [] and set(s) == fields
    b = _one_epilogue(bundle, {"id": "fin", "text": "...", "end": "victory"})
    s = consequence(b, situation(b, ["A"]), {"return_to_citadel": True}, {"hope": 1})
    assert s["result"]["result"] == "victory" and s["queue"] == [] and set(s) == fields
    assert s["citadel"]["hope"] == 0


def test_the_return_to_the_citadel_leaves_nothing_queued_and_no_stray_field(bundle):
    """Back at the Citadel after « Les Portes rouillées », the effects written after the return
    are dropped and the state has the fields it had, plus the next scenario's name."""
    s = situation(bundle, ["A"])
    fields = set(s)
    s = consequence(bundle, s, {"return_to_citadel": True}, {"hope": 1})
    assert s["phase"] == "citadel" and s["pending"] == {"type": "citadel"}
    assert s["queue"] == [] and s["citadel"]["hope"] == 0
    assert set(s) - fields <= {"next_scenario"} and fields <= set(s)


def test_an_epilogue_that_ends_the_adventure_ends_it(bundle):
    """An epilogue branch may end the whole adventure by its effects (« adventure_ends »)
    rather than by its `end`: the adventure is then over, not back at the Citadel."""
    b = _one_epilogue(bundle, {"id": "chute", "text": "...", "effects": [{"adventure_ends": True}],
                               "next": "portes_rouillees"})  # fmt: skip
    s = situation(b, ["A"])
    fields = set(s)
    s = consequence(b, s, {"return_to_citadel": True})
    assert s["phase"] == "over" and s["pending"] is None and s["queue"] == []
    assert s["result"]["result"] == "defeat" and s["result"]["why"] == "adventure_ends"
    assert entries(s, "epilogue") and "next_scenario" not in s and set(s) == fields
