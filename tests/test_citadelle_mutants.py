"""The Citadel's table, cards, effects and turns one function at a time, written from the
rulebook's situations (« Explorer les Terres Effondrées », « Pas la place de mettre une carte
en jeu », « Ranger », the effects and the turn) so that a one-line change to a rule fails here:
these are the tests that judge the mutants of ``board.py``, ``taking.py``, ``effects.py``,
``turn.py``, ``scenario.py``, ``citadel.py``, ``actions.py`` and ``cards.py``
(``engine/citadelle/mutation.toml``)."""

from __future__ import annotations

import pytest

from engine.citadelle import board as B
from engine.citadelle import cards as K
from engine.citadelle.situation import situation
from pipeline.bundles import bundle_for


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
