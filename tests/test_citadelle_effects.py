"""Every effect kind the content uses changes the game the way the rulebook (« Conséquences
d'action et effets de jeu », « Symboles ») and the card say: one test per kind, set up with
``engine.citadelle.situation``.  ``test_every_effect_kind_of_the_content_is_tested`` keeps the
list honest: an effect kind new in the content fails it until it has its own test here."""

from __future__ import annotations

import pytest

from engine.citadelle import cards as K
from engine.citadelle import records as rec
from engine.citadelle.situation import consequence, find, place, play, situation
from engine.citadelle.turn import apply, legal_actions
from pipeline.story.bundles import bundle_for

#: the effect kinds tested below (one test each, named ``test_effect_<kind>``)
TESTED = {
    "add_skill", "add_to_hand", "adventure_ends", "banish", "block", "branch", "build",
    "cancel_damage", "damage", "discard", "discard_from_deck", "flag", "hit_points", "hope",
    "move_die", "objective", "put_back", "quest", "read", "recover", "return_to_citadel",
    "roll", "score", "take", "take_if_available", "unblock", "unflag",
}  # fmt: skip
CONTAINERS = ("effects", "success", "failure", "then", "otherwise", "on_selected")


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def last(state: dict, key: str) -> dict:
    return next(e["args"] for e in reversed(state["log"]) if e["key"] == key)


def kinds_in(node, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in CONTAINERS and isinstance(v, list):
                out |= {next(iter(e)) for e in v if isinstance(e, dict) and len(e) == 1}
            kinds_in(v, out)
    elif isinstance(node, list):
        for item in node:
            kinds_in(item, out)
    return out


def test_every_effect_kind_of_the_content_is_tested(bundle):
    used = kinds_in(bundle["records"], set())
    assert used - TESTED == set(), "an effect kind of the content has no test here"
    for kind in TESTED:
        assert f"test_effect_{kind}" in globals(), kind


# --------------------------------------------------------------------------- hit points, decks


def test_effect_damage(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    s = consequence(bundle, s, {"damage": 3})
    assert s["characters"][0]["hp"] == 6
    s = consequence(bundle, s, {"damage": 6})
    assert s["characters"][0]["hp"] == 0 and not s["characters"][0]["conscious"]


def test_effect_cancel_damage(bundle):
    """« Annulez jusqu'à X »: the damage that follows is reduced, once."""
    s = situation(bundle, ["A"], hp={"A": 9})
    s = consequence(bundle, s, {"cancel_damage": 2}, {"damage": 3}, {"damage": 3})
    assert s["characters"][0]["hp"] == 9 - 1 - 3
    assert last(s, "damage.cancelled")["amount"] == 2


def test_effect_hit_points(bundle):
    """« Vous perdez X points de vie » is not damage: nothing cancels it."""
    s = situation(bundle, ["A"], hp={"A": 5})
    s = consequence(bundle, s, {"hit_points": 2})
    assert s["characters"][0]["hp"] == 7
    s = consequence(bundle, s, {"cancel_damage": 5}, {"hit_points": -3})
    assert s["characters"][0]["hp"] == 4


def test_effect_discard_from_deck(bundle):
    s = situation(bundle, ["A"], decks={"A": ["a_cri", "a_estoc"]})
    deck = len(s["characters"][0]["deck"])
    s = consequence(bundle, s, {"discard_from_deck": 2})
    ch = s["characters"][0]
    assert len(ch["deck"]) == deck - 2 and sorted(ch["discard"]) == ["a_cri", "a_estoc"]


def test_effect_recover(bundle):
    """« Récupérez X cartes » from a card: back from the discard into the deck, no hit point."""
    s = situation(bundle, ["A"], hp={"A": 8}, discards={"A": ["a_cri", "a_charge", "a_estoc"]})
    deck = len(s["characters"][0]["deck"])
    s = consequence(bundle, s, {"recover": 2})
    ch = s["characters"][0]
    assert len(ch["deck"]) == deck + 2 and len(ch["discard"]) == 1 and ch["hp"] == 8


def test_effect_add_skill(bundle):
    s = situation(bundle, ["A", "B"])
    assert K.where(bundle, s, K.action_card("adv_riposte")) == "box"
    s = consequence(bundle, s, {"add_skill": "adv_riposte"}, by=1)
    assert "adv_riposte" in s["characters"][1]["deck"]
    again = consequence(bundle, s, {"add_skill": "adv_riposte"}, by=0)  # already held
    assert "adv_riposte" not in again["characters"][0]["deck"]
    K.check(bundle, again)


def test_effect_add_to_hand(bundle):
    """La Voûte s'effondre (304): dodging it lets the active player keep 1 revealed card in
    hand instead of discarding it."""
    s = situation(bundle, ["A"], scenario="pluie_grise", hp={"A": 9},
                  decks={"A": ["x01", "x03"]})  # fmt: skip
    s = consequence(bundle, s, {"take": 304})
    s = play(bundle, s, {"type": "draw", "count": 2, "tremor": False})
    if s["pending"]["type"] == "result":
        s = play(bundle, s, {"type": "count", "successes": max(
            a["successes"] for a in legal_actions(bundle, s))})  # fmt: skip
    assert last(s, "action.result")["ok"]
    assert s["pending"]["type"] == "keep" and s["pending"]["left"] == 1
    s = apply(bundle, s, {"type": "keep", "card": "x01"})
    assert "x01" in s["characters"][0]["hand"]
    assert "x03" in s["characters"][0]["discard"]


# --------------------------------------------------------------------------- cards


def test_effect_take(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise")
    s = consequence(bundle, s, {"take": 207})
    assert K.where(bundle, s, K.adventure("207/green")) == "purse:A"


def test_effect_take_if_available(bundle):
    """Taken when a copy is in the box; nothing happens (no Past put back) otherwise."""
    s = situation(bundle, ["A"], scenario="pluie_grise")
    s = consequence(bundle, s, {"take_if_available": 207})
    assert K.where(bundle, s, K.adventure("207/green")) == "purse:A"
    before = K.where(bundle, s, K.adventure("207/green"))
    s = consequence(bundle, s, {"take_if_available": 207})
    assert K.where(bundle, s, K.adventure("207/green")) == before
    K.check(bundle, s)


def test_effect_discard(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    key = place(bundle, s, 305, "0,0", event=True)
    s = consequence(bundle, s, {"discard": 305})
    assert K.where(bundle, s, K.adventure(key)) == "past"


def test_effect_banish(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": ["208/green"]})
    key = "208/green"
    s = consequence(bundle, s, {"banish": 208})
    assert K.where(bundle, s, K.adventure(key)) == "banished"
    assert key not in s["characters"][0]["purse"]


def test_effect_put_back(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    key = place(bundle, s, 305, "0,0", event=True)
    s = consequence(bundle, s, {"put_back": 305})
    assert K.where(bundle, s, K.adventure(key)) == "box"
    assert not [e for e in s["board"]["0,0"]["events"] if e["key"] == key]


def test_effect_block(bundle):
    """A blocked purse card leaves the purse for under the character card: no effect, still
    carried."""
    s = situation(bundle, ["A"], purses={"A": [110]})
    key = s["characters"][0]["purse"][0]
    s = consequence(bundle, s, {"block": "110"})
    assert s["characters"][0]["purse_blocked"] == [key] and s["characters"][0]["purse"] == []


def test_effect_unblock(bundle):
    s = situation(bundle, ["A"], blocked={"A": [110]})
    key = s["characters"][0]["purse_blocked"][0]
    s = consequence(bundle, s, {"unblock": "110"})
    assert s["characters"][0]["purse"] == [key] and s["characters"][0]["purse_blocked"] == []


# --------------------------------------------------------------------------- the story


def test_effect_read(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 66})
    assert s["pending"] == {"type": "dialogue", "paragraph": "66", "character": 0}
    assert "66" in s["read"]


def test_effect_flag(bundle):
    s = situation(bundle, ["A"])
    s = consequence(bundle, s, {"flag": "essai"}, {"flag": "essai"})
    assert s["flags"].count("essai") == 1


def test_effect_unflag(bundle):
    s = situation(bundle, ["A"])
    s = consequence(bundle, s, {"flag": "essai"}, {"unflag": "essai"})
    assert "essai" not in s["flags"]


def test_effect_objective(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    oid = rec.scenario(bundle, "forges_mortes")["objectives"][0]["id"]
    s = consequence(bundle, s, {"objective": oid})
    assert s["objectives"] == [oid]
    assert last(s, "objective")["text"]


def test_effect_branch(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    branch = {"branch": {"requires": [{"flag": "f"}], "then": [{"damage": 1}],
                         "otherwise": [{"damage": 3}]}}  # fmt: skip
    assert consequence(bundle, s, branch)["characters"][0]["hp"] == 6
    s = consequence(bundle, s, {"flag": "f"}, branch)
    assert s["characters"][0]["hp"] == 8


def test_effect_roll(bundle):
    """A die is rolled: on « X or less » the ``then`` effects, otherwise the others; each seed
    rolls once, and both ways happen over a few seeds."""
    seen = set()
    for seed in range(12):
        s = situation(bundle, ["A"], hp={"A": 9}, seed=seed)
        roll = {"roll": {"at_most": 3, "then": [{"damage": 1}], "otherwise": [{"damage": 2}]}}
        s = consequence(bundle, s, roll)
        die = last(s, "roll")
        assert s["characters"][0]["hp"] == (8 if die["value"] <= 3 else 7)
        seen.add(die["ok"])
    assert seen == {True, False}


def test_effect_adventure_ends(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    s = consequence(bundle, s, {"adventure_ends": True})
    assert s["phase"] != "play" and s["result"]["why"] == "adventure_ends"


def test_effect_return_to_citadel(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    s = consequence(bundle, s, {"return_to_citadel": True})
    assert s["scenario"] is None or s["phase"] != "play" or s["epilogues"]
    assert [e for e in s["epilogues"] if e["scenario"] == "forges_mortes"]


# --------------------------------------------------------------------------- the Citadel sheet


def test_effect_score(bundle):
    """Community scores move, never below 0 nor above 25."""
    s = situation(bundle, ["A"])
    before = dict(s["citadel"]["scores"])
    s = consequence(bundle, s, {"score": {"influence": 2, "defense": -1}})
    assert s["citadel"]["scores"]["influence"] == before["influence"] + 2
    assert s["citadel"]["scores"]["defense"] == max(0, before["defense"] - 1)
    s = consequence(bundle, s, {"score": {"knowledge": 99}}, {"score": {"production": -99}})
    assert s["citadel"]["scores"]["knowledge"] == 25 and s["citadel"]["scores"]["production"] == 0


def test_effect_hope(bundle):
    s = situation(bundle, ["A"])
    s = consequence(bundle, s, {"hope": 1}, {"hope": 2})
    assert s["citadel"]["hope"] == 3


def test_effect_build(bundle):
    """One box a time; the last box builds it; never more boxes than it has."""
    s = situation(bundle, ["A"])
    s = consequence(bundle, s, {"build": "taverne"})
    assert s["citadel"]["buildings"]["taverne"] == 1
    s = consequence(bundle, s, {"build": "taverne"}, {"build": "taverne"})
    assert s["citadel"]["buildings"]["taverne"] == 2
    assert last(s, "building.built")["title"]


def test_effect_quest(bundle):
    """A side quest moves on; a quest done stays done."""
    s = situation(bundle, ["A"])
    s = consequence(bundle, s, {"quest": {"id": "caravane_nilo", "state": "primed"}})
    assert s["citadel"]["side_quests"]["caravane_nilo"] == "primed"
    s = consequence(bundle, s, {"quest": {"id": "caravane_nilo", "state": "done"}},
                    {"quest": {"id": "caravane_nilo", "state": "primed"}})  # fmt: skip
    assert s["citadel"]["side_quests"]["caravane_nilo"] == "done"


# --------------------------------------------------------------------------- actions


def test_effect_move_die(bundle):
    """La Caravane ensevelie (205), « Dégager les chariots un à un »: a success on the first
    line moves the die to the second line, its face the new difficulty (3)."""
    s = situation(bundle, ["A"], scenario="pluie_grise", hp={"A": 9},
                  decks={"A": ["x01", "x07"]})  # fmt: skip
    place(bundle, s, 205, "0,0", event=True)
    s = play(bundle, s, {"title": "Dégager les chariots un à un"})
    while s["pending"]["type"] != "draw":
        s = play(bundle, s, {"type": "prepared"})
    s = play(bundle, s, {"type": "draw", "count": 2})
    if s["pending"]["type"] == "result":
        best = max(a["successes"] for a in legal_actions(bundle, s))
        s = play(bundle, s, {"type": "count", "successes": best})
    assert last(s, "action.result")["ok"]
    (die,) = s["dice"].values()
    assert die["line"] == 1 and die["value"] == 3


def test_the_tremor_makes_exploring_one_card_cheaper(bundle):
    """« Le tremblement »: a level 2 in Les Forges mortes, used twice at most, one card less
    to draw for an exploring action; never in the introduction."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    assert s["citadel"]["tremor"] == 2
    # the passage costs nothing; the exploration card it reveals (a mandatory action, cost 2)
    s = play(bundle, s, {"type": "act", "source": "explore:0,-1"},
             {"type": "draw", "count": 0, "tremor": False})  # fmt: skip
    assert s["action"]["source"] == "slot:0,-1" and s["pending"]["type"] == "draw"
    draws = [a for a in legal_actions(bundle, s) if a["type"] == "draw"]
    plain = min(a["count"] for a in draws if not a["tremor"])
    cheap = min(a["count"] for a in draws if a["tremor"])
    assert cheap == plain - 1
    s = apply(bundle, s, find(draws, count=cheap, tremor=True))
    assert s["tremor_used"] == 1
    intro = situation(bundle, ["A"])
    assert intro["citadel"]["tremor"] == 0


# ------------------------------------------------------------- scenario set-up and taking cards
# Functions judged: scenario.new_game, scenario.start_scenario (« Débuter une nouvelle
# aventure », the rules page's « Le début d'un scénario » and « Ce qui se garde d'un scénario à
# l'autre »); taking.reveal, taking.choose_version, taking.examine, taking.search,
# taking._active_terrain (« Prendre une carte numérotée », « Trouver un numéro caché »).

import copy as _copy  # noqa: E402

from engine.citadelle import board as B  # noqa: E402
from engine.citadelle import citadel as CI  # noqa: E402
from engine.citadelle import effects as E  # noqa: E402
from engine.citadelle import game as G  # noqa: E402
from engine.citadelle import scenario as S  # noqa: E402
from engine.citadelle import taking  # noqa: E402
from engine.citadelle.plugin import Citadelle  # noqa: E402


def _twin(bundle: dict, kind: str, key: str, change) -> dict:
    """A copy of the bundle where record ``key`` of ``kind`` is changed by ``change`` (an
    author's content may leave out what the shipped box always fills in)."""
    twin = {**bundle, "records": {**bundle["records"]}}
    table = dict(twin["records"][kind])
    table[key] = _copy.deepcopy(table[key])
    change(table[key])
    twin["records"][kind] = table
    return twin


def test_a_group_is_one_to_four_different_known_characters(bundle):
    """« de 1 à 4 joueurs »: the setup refuses another group and says why."""
    with pytest.raises(ValueError, match="1 to 4 different characters"):
        S.new_game(bundle, ["A", "B", "C", "D", "E"], 0)
    with pytest.raises(ValueError, match="1 to 4 different characters"):
        S.new_game(bundle, ["A", "A"], 0)
    with pytest.raises(ValueError, match=r"unknown characters \['Z'\]"):
        S.new_game(bundle, ["A", "Z"], 0)
    with pytest.raises(ValueError, match="unknown recovery mode 'hard'"):
        S.new_game(bundle, ["A"], 0, recovery="hard")
    with pytest.raises(ValueError, match="unknown scenario 'nulle_part'"):
        S.new_game(bundle, ["A"], 0, scenario="nulle_part")


def test_a_new_adventure_opens_the_introduction_at_its_first_turn(bundle):
    """« Débuter une nouvelle aventure »: the introduction « Un nouveau départ », the hit
    points its booklet gives two characters, every figure on its first Terrain, no tremor."""
    s = S.new_game(bundle, ["A", "B"], 0)
    Citadelle(bundle).check_state(s)  # a Citadel state, each card in one place
    assert s["format_version"] == G.FORMAT_VERSION and s["game"] == "citadelle"
    intro = bundle["campaign"]["intro"]
    scen = rec.scenario(bundle, intro)
    assert s["scenario"] == intro and s["menace"] is None and s["result"] is None
    assert s["turns"] == 0 and s["scenario_turns"] == 0 and s["phase"] == "play"
    hp = scen["setup"]["hit_points"]["2"]
    assert [(c["hp"], c["conscious"], c["at"]) for c in s["characters"]] == [(hp, True, "0,0")] * 2
    assert s["citadel"]["tremor"] == 0 and s["tremor_used"] == 0
    assert set(scen["setup"]["flags"]) <= set(s["flags"])
    assert last(s, "scenario.start") == {"title": scen["title"], "text": scen["text"],
                                          "id": intro, "hp": hp, "tremor": 0}  # fmt: skip


def test_a_new_scenario_keeps_the_cards_and_facts_and_clears_the_table(bundle):
    """« Ce qui se garde d'un scénario à l'autre »: hands, purses and the facts noted are
    kept; the Plateau, the exploration places, the Past, the dice, the objectives, what was
    found or under way are cleared; the Défausse is shuffled back into the Deck; everyone
    gets the new scenario's hit points, conscious, on its first Terrain."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"A": 3, "B": 0},
                  hands={"A": ["a_estoc"]}, purses={"B": [310]},
                  discards={"A": ["a_cri"]})  # fmt: skip
    taking.reveal(bundle, s, "305/green", {"character": 0}, at="-1,0", origin="0,0")
    K.move(bundle, s, K.adventure("304/green"), "past")
    s.update(
        dice={"310/green#0": {"value": 3, "card": "310/green", "line": 0}},  # a card kept
        found=[{"number": 131, "source": "105/green"}],
        arrivals=["1,0"], interrupt=[{"key": "x"}], dialogue={"paragraph": "66"},
        action={"character": 0}, suspended=[{"character": 1}], objectives=["o"],
        queue=[{"effects": [{"damage": 3}], "ctx": {"character": 0, "participants": [0]}}],
        saved=True, next_scenario="coeur_de_varn", scenario_turns=7, tremor_used=2,
        phase="citadel", pending={"type": "citadel"},
    )  # fmt: skip
    S.start_scenario(bundle, s, "coeur_de_varn")
    K.check(bundle, s)
    for key in ("305/green", "304/green"):
        assert K.where(bundle, s, K.adventure(key)) == "box"
    assert s["past"] == [] and "-1,0" not in s["slots"]
    hp = rec.scenario(bundle, "coeur_de_varn")["setup"]["hit_points"]["2"]
    assert [(c["hp"], c["conscious"], c["at"]) for c in s["characters"]] == [(hp, True, "0,0")] * 2
    a, b = s["characters"]
    assert a["hand"] == ["a_estoc"] and a["discard"] == [] and "a_cri" in a["deck"]
    assert b["purse"] == ["310/green"]
    assert "souffle_des_forges" in s["flags"]
    assert s["dice"] == {} and s["found"] == [] and s["interrupt"] == [] and s["objectives"] == []
    assert s["dialogue"] is None and s["action"] is None and s["suspended"] == []
    assert s["queue"] == [] and not s["saved"] and s.get("next_scenario") is None
    assert s["scenario_turns"] == 0 and s["tremor_used"] == 0 and s["phase"] == "play"
    assert s["scenario"] == "coeur_de_varn" and s["menace"] == "cendres_de_varn"
    assert s["citadel"]["tremor"] == 3 and "1,0" not in s["arrivals"]
    assert last(s, "scenario.start")["id"] == "coeur_de_varn"


def test_the_first_terrain_is_an_arrival_of_every_figure(bundle):
    """The figures have just arrived on the scenario's first Terrain: La Passerelle des
    soufflets (306) as first card, its mandatory action must be undertaken at once by all
    the characters standing there, who choose the active player among them."""

    def only_the_bridge(scen):
        scen["setup"]["start"] = ["306"]

    twin = _twin(bundle, "scenario", "coeur_de_varn", only_the_bridge)
    s = situation(twin, ["A", "B"], scenario="forges_mortes")
    S.start_scenario(twin, s, "coeur_de_varn")
    assert s["board"]["0,0"]["terrain"] == "306/green"
    assert s["pending"] == {"type": "active", "source": "terrain:0,0", "index": 0,
                            "participants": [0, 1]}  # fmt: skip


def test_a_scenario_without_a_table_gives_the_hit_points_the_citadel_announced(bundle):
    """A scenario of the writers' content may give no hit point table nor first cards: the
    characters receive what the Citadel announced for it, and no figure stands anywhere."""

    def bare(scen):
        scen["setup"] = {"tremor": 1}

    twin = _twin(bundle, "scenario", "coeur_de_varn", bare)
    s = situation(twin, ["A", "B"], scenario="forges_mortes")
    s["next_scenario"] = "coeur_de_varn"
    announced = CI.start_hp(twin, s)
    S.start_scenario(twin, s, "coeur_de_varn")
    Citadelle(twin).check_state(s)
    assert [c["hp"] for c in s["characters"]] == [announced, announced]
    assert [c["at"] for c in s["characters"]] == [None, None] and s["board"] == {}
    assert last(s, "scenario.start")["hp"] == announced


def test_a_menace_scenario_without_a_tremor_keeps_the_sheets_level(bundle):
    """The tremor is on the Citadel sheet, kept from one scenario to the next: a Menace
    scenario that sets none leaves it where it is."""

    def no_tremor(scen):
        del scen["setup"]["tremor"]

    twin = _twin(bundle, "scenario", "coeur_de_varn", no_tremor)
    s = situation(twin, ["A"], scenario="forges_mortes")
    s["citadel"]["tremor"] = 4
    S.start_scenario(twin, s, "coeur_de_varn")
    assert s["citadel"]["tremor"] == 4 and last(s, "scenario.start")["tremor"] == 4


def test_a_revealed_card_is_read_back_then_face(bundle):
    """« lit le texte informatif au dos et la révèle »: the log shows the back (none on a
    purse card without one) and the face."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    for key in ("587/green", "310/green"):
        card = rec.adv(bundle, key)
        taking.reveal(bundle, s, key, {"character": 0})
        assert last(s, "card.taken") == {"number": card["number"], "title": card["title"],
                                         "type": card["type"], "key": key,
                                         "back": card.get("back", ""),
                                         "text": card["text"]}  # fmt: skip
    assert last(s, "card.taken")["back"] == "" and rec.adv(bundle, "587/green")["back"]


def test_cards_without_a_title_or_text_show_none(bundle):
    """The writers' content may leave out a card's title or text: nothing is shown for it,
    when taken, looked at with the magnifier or discarded for its hidden number."""

    def untitled(card):
        del card["title"], card["text"]

    twin = _twin(bundle, "adventure_card", "310/green", untitled)
    twin = _twin(twin, "adventure_card", "105/green", untitled)
    s = situation(twin, ["A"], scenario="forges_mortes")
    taking.reveal(twin, s, "310/green", {"character": 0})
    assert last(s, "card.taken")["title"] == "" and last(s, "card.taken")["text"] == ""
    chapel = place(twin, s, "105/green", "-1,0")
    s["characters"][0]["at"] = "-1,0"
    taking.examine(twin, s, 0, chapel)
    assert last(s, "hidden.found")["title"] == ""
    taking.search(twin, s, 0, 131)
    assert last(s, "card.discard") == {"title": ""}


def test_each_hope_card_adds_one_to_the_hope_already_gained(bundle):
    s = situation(bundle, ["A"])
    s["citadel"]["hope"] = 2
    taking.reveal(bundle, s, "199/green", {"character": 0})
    assert s["citadel"]["hope"] == 3 and last(s, "hope") == {"amount": 1, "total": 3}


def test_the_first_terrain_of_an_empty_plateau_goes_at_its_centre(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    for spot in list(s["board"].values()):
        B.leave_quietly(bundle, s, K.adventure(spot["terrain"]), "box")
    for ch in s["characters"]:
        ch["at"] = None
    taking.reveal(bundle, s, "302/green", {"character": 0})
    assert s["board"]["0,0"]["terrain"] == "302/green"


def test_a_revealed_card_applies_its_effects(bundle):
    """L'Autel de cire (447), a permanent event: its effect notes the fact « autel_vu »."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    assert "autel_vu" not in s["flags"]
    s = consequence(bundle, s, {"take": 447})
    assert "autel_vu" in s["flags"]
    assert {"key": "447/green", "blocked_verb": None} in s["board"]["0,0"]["events"]


def test_an_event_found_by_a_fainted_character_goes_to_another_figures_terrain(bundle):
    """« Un participant met cette carte en jeu [...] vers la carte Terrain sur laquelle se
    trouve sa figurine »: the active character has fainted (off the Plateau), so the event is
    linked to the Terrain where the other figure stands; and for a character gone, to the
    first figure's Terrain."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"A": 0})
    place(bundle, s, 302, "1,0")
    s["characters"][0]["at"], s["characters"][1]["at"] = None, "1,0"
    taking.reveal(bundle, s, "305/green", {"character": 0})
    assert [e["key"] for e in s["board"]["1,0"]["events"]] == ["305/green"]
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    place(bundle, s, 302, "1,0")
    s["characters"][1]["at"] = "1,0"
    s = consequence(bundle, s, {"take": 305}, by=2)  # one past the last
    assert "305/green" in [e["key"] for e in s["board"]["0,0"]["events"]]


def test_a_card_taken_by_an_effect_naming_nobody_goes_to_the_first_character(bundle):
    """As for the cards a scenario or a building puts in play, a purse card taken by an
    effect that names no character goes in front of the first one."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    s["pending"] = None
    E.apply_effect(bundle, s, {"take": 310}, {})
    assert K.where(bundle, s, K.adventure("310/green")) == "purse:A"


def test_cards_put_in_play_before_any_terrain(bundle):
    """A writer's scenario whose first card is an event: no figure stands on a Terrain yet,
    so the event cannot be linked to one and waits in the Past; the first Terrain goes at the
    centre of the Plateau and the next one beside it."""

    def event_first(scen):
        scen["setup"]["start"] = ["403", "301", "302"]

    twin = _twin(bundle, "scenario", "coeur_de_varn", event_first)
    s = situation(twin, ["A"], scenario="forges_mortes")
    S.start_scenario(twin, s, "coeur_de_varn")
    K.check(twin, s)
    assert K.where(twin, s, K.adventure("403/green")) == "past"
    assert s["board"]["0,0"]["terrain"] == "301/green"
    (beside,) = [c for c, spot in s["board"].items() if spot["terrain"] == "302/green"]
    x, y = (int(n) for n in beside.split(","))
    assert abs(x) + abs(y) == 1


def test_a_hidden_temporary_event_whose_searcher_fainted_is_put_back(bundle):
    """« tous les participants deviennent inconscients »: A finds 587 hidden on 502 and must
    undertake its mandatory action alone; failing it, A faints: the card is put back in the
    box, not discarded in the Past."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp={"A": 1})
    ground = place(bundle, s, 502, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    s = play(bundle, s, {"type": "examine"}, {"type": "search", "number": 587})
    assert s["pending"] == {"type": "draw", "character": 0}
    s = play(bundle, s, {"type": "draw", "count": 1})
    if s["pending"]["type"] == "result":
        s = play(bundle, s, {"type": "count", "successes": 0})
    assert not s["characters"][0]["conscious"]
    assert K.where(bundle, s, K.adventure("587/green")) == "box"
    assert s["board"]["-1,0"]["terrain"] == ground


# --- The Plateau, the effect queue and who takes part: untitled cards, a full table, loops ---
# Hand-built records and states (what a writer's content may leave out or add): the board's
# exploration places and free cells, the effect queue's step limit, the participants whose
# fainting puts a temporary event back, and the order of a selected card's own effects.

from engine.citadelle import dialogues as D  # noqa: E402


def _untitled(card: dict) -> None:
    del card["title"]


def test_a_terrain_without_a_title_is_placed_and_reached_under_no_title(bundle: dict) -> None:
    """A Terrain of the writers' content may have no title: placing it and moving a figure
    onto it log an empty title."""
    twin = _twin(bundle, "adventure_card", "302/green", _untitled)
    s = situation(twin, ["A"])
    at = B.place_terrain(twin, s, "302/green", "-1,0")
    assert last(s, "terrain.placed") == {"title": "", "at": at}
    B.move_figure(twin, s, 0, at)
    assert last(s, "moved")["title"] == "" and s["characters"][0]["at"] == at


def test_a_card_without_a_title_is_discarded_and_rolled_for_under_no_title(bundle: dict) -> None:
    """An untitled card's discard and the die rolled for it log an empty title."""
    twin = _twin(bundle, "adventure_card", "305/green", _untitled)
    s = situation(twin, ["A"], scenario="forges_mortes")
    key = place(twin, s, 305, "0,0", event=True)
    E.apply_effect(twin, s, {"roll": {"at_most": 6, "then": []}}, {"this": K.adventure(key)})
    assert last(s, "roll")["title"] == "" and last(s, "roll")["ok"]
    s = consequence(twin, s, {"discard": 305})
    assert K.where(twin, s, K.adventure(key)) == "past"
    assert last(s, "card.discard") == {"title": ""}


def test_an_unknown_effect_is_refused_by_its_name(bundle: dict) -> None:
    """An effect no rule knows stops the game with an error naming it."""
    s = situation(bundle, ["A"])
    with pytest.raises(ValueError, match=r"^unknown effect 'tout_gagner'$"):
        E.apply_effect(bundle, s, {"tout_gagner": 1}, {"character": 0})


def test_the_effect_queue_stops_content_that_never_settles(
    bundle: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each effect applied is one step: content that settles within the step limit is
    applied whole, one step more stops with an error naming the loop."""
    monkeypatch.setattr(E, "PUMP_LIMIT", 3)
    s = consequence(bundle, situation(bundle, ["A"]),
                    {"flag": "a"}, {"flag": "b"}, {"adventure_ends": True})  # fmt: skip
    assert {"a", "b"} <= set(s["flags"]) and s["phase"] != "play"
    monkeypatch.setattr(E, "PUMP_LIMIT", 2)
    loops = r"^effects never settle: a card or paragraph loops on itself$"
    with pytest.raises(RuntimeError, match=loops):
        consequence(bundle, situation(bundle, ["A"]),
                    {"flag": "a"}, {"flag": "b"}, {"adventure_ends": True})  # fmt: skip


def test_a_table_with_no_free_cell_near_a_terrain_says_so() -> None:
    """A Terrain taken without an arrow goes on a free cell at most eleven cells away; with
    none free, the game stops and says the table has no free cell."""
    near = {B.cell(x, y): {} for x in range(-11, 12) for y in range(-11, 12)}
    state = {"board": {}, "slots": near}
    with pytest.raises(K.CardError, match=r"^no free cell on the table$"):
        B.adjacent_free(state, "0,0")
    del near["11,-11"]
    assert B.adjacent_free(state, "0,0") == "11,-11"


def test_room_made_on_a_full_table_never_covers_the_kept_terrain(bundle: dict) -> None:
    """When the table is full, the new Terrain never goes onto the kept Terrain's cell: if
    the shifted place is that cell, it goes on the kept Terrain's first free side."""
    s = situation(bundle, ["A"])
    assert s["characters"][0]["at"] == "0,0"
    target, kept = B.out_of_space(bundle, s, "0,0")
    assert kept == "0,0" and target == "0,-1" and list(s["board"]) == ["0,0"]


def test_a_dialogue_action_that_needs_an_item_is_offered_to_its_holders(bundle: dict) -> None:
    """A dialogue's optional action that requires an item is offered only while the group
    holds it."""

    def needs_lantern(para: dict) -> None:
        para["actions"][0]["requires"] = [{"item": 110}]

    twin = _twin(bundle, "paragraph", "66", needs_lantern)
    for purse, offered in (([110], True), ([], False)):
        s = consequence(twin, situation(twin, ["A"], purses={"A": purse}), {"read": 66})
        assert s["pending"]["type"] == "dialogue"
        acts = [a for a in D.choices(twin, s) if a["type"] == "act"]
        assert bool(acts) is offered


def _fells_its_finder(card: dict) -> None:
    card["actions"] = []
    card["effects"] = [{"damage": 99}, {"discard": "this"}]


def test_a_temporary_event_that_fells_the_one_it_came_to_is_put_back(bundle: dict) -> None:
    """« tous les participants deviennent inconscients »: a temporary event whose own effect
    fells the character it came to (found with the magnifier, dealt at a scenario's start, or
    brought back when a saved game resumes) is put back in the box, not into the Past."""
    twin = _twin(bundle, "adventure_card", "587/green", _fells_its_finder)
    s = situation(twin, ["A", "B"], scenario="forges_mortes")
    place(twin, s, 502, "-1,0")
    s["characters"][0]["at"] = "-1,0"
    s = play(twin, s, {"type": "examine"}, {"type": "search", "number": 587})
    assert [c["conscious"] for c in s["characters"]] == [False, True]
    assert K.where(twin, s, K.adventure("587/green")) == "box"

    def dealt(scen: dict) -> None:
        scen["setup"]["start"] = ["301", "423"]

    def brought_back(scen: dict) -> None:
        scen["setup"]["resume"] = ["423"]

    fells = _twin(bundle, "adventure_card", "423/green", _fells_its_finder)
    twin = _twin(fells, "scenario", "coeur_de_varn", dealt)
    s = situation(twin, ["A", "B"], scenario="forges_mortes")
    S.start_scenario(twin, s, "coeur_de_varn")
    assert [c["conscious"] for c in s["characters"]] == [False, True]
    assert K.where(twin, s, K.adventure("423/green")) == "box"
    twin = _twin(fells, "scenario", "coeur_de_varn", brought_back)
    s = situation(twin, ["A", "B"], scenario="coeur_de_varn")
    s = play(twin, s, {"type": "save"})
    assert s["saved"] and [c["conscious"] for c in s["characters"]] == [False, True]
    assert K.where(twin, s, K.adventure("423/green")) == "box"
    assert [e for e in s["log"] if e["key"] == "card.put_back"]


def test_an_exploration_place_holds_one_face_down_card_and_its_arrows_number(bundle: dict) -> None:
    """A card dealt in front of an arrow lies face down on its place, no adventure card on
    it yet; the place remembers the Terrain of the arrow, its number and its zone."""
    s = situation(bundle, ["A"])
    assert s["slots"]
    for at, slot in s["slots"].items():
        arrow = next(
            a
            for a in rec.adv(bundle, s["board"][slot["from"]]["terrain"])["arrows"]
            if B.neighbour(slot["from"], a["direction"]) == at
        )
        assert slot == {"exploration": slot["exploration"], "adventure": None,
                        "revealed": False, "from": slot["from"], "card": arrow.get("card"),
                        "zone": arrow.get("zone")}  # fmt: skip
        assert K.where(bundle, s, K.exploration(slot["exploration"])) == f"slot:{at}"


def test_a_number_no_card_bears_is_unavailable(bundle: dict) -> None:
    """Taking a number that no card of the box bears finds no card: it is unavailable."""
    s = situation(bundle, ["A"])
    assert taking.choose_version(bundle, s, "999") is None
    s = consequence(bundle, s, {"take": 999})
    assert last(s, "card.unavailable") == {"number": 999}


def test_a_free_move_during_a_dialogue_read_after_a_fainting_keeps_it_open(bundle: dict) -> None:
    """An action's failure fells the active player and opens a dialogue: another character's
    free move (dropping a purse card) leaves the dialogue open and the action's consequences
    under way; nothing stops the action."""

    def harsh(card: dict) -> None:
        card["actions"][0]["failure"] = [{"damage": 99}, {"read": "66"}]

    twin = _twin(bundle, "adventure_card", "101/green", harsh)
    s = situation(twin, ["A", "B"], purses={"B": [110]})
    s = play(twin, s, {"type": "act", "source": "terrain:0,0", "index": 0, "character": 0},
             {"type": "draw", "count": 2, "tremor": False})  # fmt: skip
    if s["pending"]["type"] == "result":
        s = play(twin, s, {"type": "count", "successes": 0})
    reading = {"type": "dialogue", "paragraph": "66", "character": 0}
    assert s["pending"] == reading and not s["characters"][0]["conscious"]
    s = play(twin, s, {"type": "drop", "character": 1, "item": "110/green"})
    assert s["pending"] == reading and s["dialogue"] == {"paragraph": "66", "character": 0}
    assert s["action"] is not None and last(s, "item.dropped")
    assert not [e for e in s["log"] if e["key"] == "action.stopped"]


def test_a_selected_cards_effect_comes_before_the_temporary_event_leaves(bundle: dict) -> None:
    """« [sélectionnée] »: the selected card's own effects come once the action is over,
    while the temporary event that imposed the action is still in play: a selected card that
    banishes La Voûte s'effondre (304) banishes it, rather than finding it in the Past."""

    def banishes_the_vault(card: dict) -> None:
        card["when"], card["keywords"] = [], []
        card["on_selected"] = [{"banish": 304}]

    twin = _twin(bundle, "adventure_card", "437/green", banishes_the_vault)
    s = situation(twin, ["A"], scenario="pluie_grise", hp={"A": 9}, purses={"A": [437]},
                  decks={"A": ["x01", "x03"]})  # fmt: skip
    s = consequence(twin, s, {"take": 304})
    assert "437/green" in s["action"]["selected"]
    while s["pending"]["type"] == "prepare":
        s = play(twin, s, {"type": "prepared"})
    s = play(twin, s, {"type": "draw", "count": 2, "tremor": False})
    if s["pending"]["type"] == "result":
        s = play(twin, s, {"type": "count", "successes": 0})
    assert K.where(twin, s, K.adventure("304/green")) == "banished"
    assert last(s, "card.banish")["title"] == "La Voûte s'effondre"


def test_a_reader_who_fainted_is_offered_no_action_of_the_paragraph(bundle: dict) -> None:
    """An unconscious character undertakes no action: when the failure that fells the active
    player opens the Livre des dialogues, its optional action is not offered to that reader;
    the book can still be closed."""

    def harsh(card: dict) -> None:
        card["actions"][0]["failure"] = [{"damage": 99}, {"read": "66"}]

    twin = _twin(bundle, "adventure_card", "101/green", harsh)
    s = situation(twin, ["A", "B"])
    s = play(twin, s, {"type": "act", "source": "terrain:0,0", "index": 0, "character": 0},
             {"type": "draw", "count": 2, "tremor": False})  # fmt: skip
    if s["pending"]["type"] == "result":
        s = play(twin, s, {"type": "count", "successes": 0})
    assert s["pending"] == {"type": "dialogue", "paragraph": "66", "character": 0}
    assert not s["characters"][0]["conscious"]
    offered = legal_actions(twin, s)
    assert offered and not [a for a in offered if a["type"] == "act"]
    awake = _copy.deepcopy(s)
    awake["characters"][0].update(conscious=True, hp=3)
    assert [a for a in legal_actions(twin, awake) if a["type"] == "act"]  # awake, it is offered
