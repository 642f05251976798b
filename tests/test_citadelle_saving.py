"""« Sauvegarder et reprendre la partie »: what a save keeps and puts away, and that a saved
adventure can always be finished.  Each scenario of a Menace booklet is played by the automatic
policy, which saves at the first moment the rulebook allows, then plays on to the epilogue."""

from __future__ import annotations

import pytest

from engine.citadelle import board as B
from engine.citadelle import cards as K
from engine.citadelle import game as G
from engine.citadelle import records as rec
from engine.citadelle.auto import choose
from engine.citadelle.scenario import resume_cards
from engine.citadelle.situation import situation
from pipeline.story.bundles import bundle_for

MENACE = ("pluie_grise", "forges_mortes", "chemin_des_cendreux", "coeur_de_varn")
LIMIT = 3000


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def until_save(bundle: dict, state: dict) -> dict:
    """The policy plays until the group may save (the first chance)."""
    for _ in range(LIMIT):
        actions = G.legal_actions(bundle, state)
        if {"type": "save"} in actions:
            return state
        assert actions, "the scenario ended before any chance to save"
        state = G.apply(bundle, state, choose(bundle, G.view(bundle, state), actions))
    raise AssertionError("no chance to save")


def play_out(bundle: dict, state: dict, scenario: str) -> tuple[dict, int]:
    """The policy plays until this scenario is over (the Citadel, or the adventure's end)."""
    n = 0
    while state["pending"] is not None and state["scenario"] == scenario and n < LIMIT:
        if state["phase"] != "play":
            break
        actions = G.legal_actions(bundle, state)
        state = G.apply(bundle, state, choose(bundle, G.view(bundle, state), actions))
        n += 1
    return state, n


def home_cells(bundle: dict, state: dict) -> set[str]:
    """Terrains of the Plateau where an action leads back to the Citadel."""
    from engine.citadelle.auto import _home_cells

    return _home_cells(bundle, G.view(bundle, state))


@pytest.mark.parametrize("scenario", MENACE)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_save_at_the_first_chance_can_be_finished(bundle, scenario, seed):
    state = G.new_game(bundle, ["A", "B"], seed, scenario=scenario)
    state = until_save(bundle, state)
    before = state
    here = next(c["at"] for c in before["characters"] if c["conscious"])
    terrain = before["board"][here]["terrain"]
    state = G.apply(bundle, state, {"type": "save"})
    K.check(bundle, state)
    assert state["saved"] and {"type": "save"} not in G.legal_actions(bundle, state)
    # kept: hit points, decks, discards (plus the hands), blocked cards, purses, global events
    for old, new in zip(before["characters"], state["characters"], strict=True):
        assert new["hp"] == old["hp"]
        assert new["hand"] == []
        assert sorted(new["deck"]) == sorted(old["deck"])
        assert sorted(new["discard"]) == sorted(old["discard"] + old["hand"])
        assert new["blocked"] == old["blocked"]
        assert new["purse"] == old["purse"] and new["purse_blocked"] == old["purse_blocked"]
    assert state["globals"] == before["globals"]
    assert state["quest_items"] == before["quest_items"]
    # put away: the Past back in the box; the saved Terrain alone (with the booklet's cards)
    assert not set(map(str, before["past"])) & set(map(str, state["past"]))
    centre = B.cell(0, 0)
    assert state["board"][centre]["terrain"] == terrain
    assert all(c["at"] == centre for c in state["characters"] if c["conscious"])
    named = set(resume_cards(bundle, scenario))
    for spot in state["board"].values():
        named |= {str(a.get("card")) for a in rec.adv(bundle, spot["terrain"]).get("arrows") or []}
    others = {
        str(rec.number(bundle, s["terrain"])) for k, s in state["board"].items() if k != centre
    }
    assert others <= named, "a Terrain of before the save came back"
    # the way home is there: the saved adventure can be finished
    assert home_cells(bundle, state), "no way back to the Citadel after the save"
    state, _ = play_out(bundle, state, scenario)
    assert state["scenario"] != scenario or state["phase"] != "play"
    assert state["epilogues"] and state["epilogues"][-1]["scenario"] == scenario
    if state["result"]:
        assert state["result"]["why"] not in ("stuck", "exhaustion")


def test_saving_needs_every_conscious_figure_on_one_terrain(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    assert {"type": "save"} in G.legal_actions(bundle, s)
    s["characters"][1]["at"] = next(k for k in s["board"] if k != s["characters"][0]["at"])
    assert {"type": "save"} not in G.legal_actions(bundle, s)
    s["characters"][1]["conscious"] = False  # a fainted character does not count
    s["characters"][1]["hp"] = 0
    assert {"type": "save"} in G.legal_actions(bundle, s)


def test_no_save_in_the_introduction_nor_twice(bundle):
    s = situation(bundle, ["A"])
    assert s["menace"] is None and {"type": "save"} not in G.legal_actions(bundle, s)
    s = situation(bundle, ["A"], scenario="pluie_grise")
    s = G.apply(bundle, s, {"type": "save"})
    assert {"type": "save"} not in G.legal_actions(bundle, s)
