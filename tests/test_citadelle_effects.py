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
