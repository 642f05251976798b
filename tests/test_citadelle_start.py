"""The 7th Citadel started anywhere (``engine/citadelle/start.py``): the scenario of the node,
the conditions on the way to it made true, then the paragraph read or the card taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.citadelle.plugin import Citadelle
from engine.citadelle.start import _way
from engine.core.errors import SetupError
from pipeline.story.bundles import bundle_for

CONTENT = Path(__file__).resolve().parent.parent / "content"


@pytest.fixture(scope="module")
def game():
    return Citadelle(bundle_for("citadelle", CONTENT))


@pytest.fixture(scope="module")
def setup(game):
    return game.normalize_setup({"players": 2, "bots": 2, "seed": "1"})


def test_every_paragraph_opens_with_the_conditions_of_its_way(game, setup):
    checked = 0
    for number in game.bundle["records"]["paragraph"]:
        state = game.start_from(f"paragraph:{number}", setup)
        assert state["read"][-1] == number or number in state["read"]
        conditions, _ = _way(game.bundle, "paragraph", number)
        for atom in conditions:  # flags set on the way are still there
            if "flag" in atom:
                assert atom["flag"] in state["flags"], (number, atom)
        checked += bool(conditions)
    assert checked  # some paragraphs are behind a condition


def test_a_scenario_starts_at_its_setup(game, setup):
    for key in game.bundle["records"]["scenario"]:
        state = game.start_from(f"scenario:{key}", setup)
        assert state["scenario"] == key


def test_an_adventure_card_is_taken(game, setup):
    key = sorted(game.bundle["records"]["adventure_card"])[5]
    number = str(game.bundle["records"]["adventure_card"][key]["number"])
    state = game.start_from(f"adventure_card:{key}", setup)
    taken = [e["args"].get("key") for e in state["log"] if e["key"] == "card.taken"]
    assert any(str(k).partition("/")[0] == number for k in taken)


def test_components_are_refused_in_french(game, setup):
    with pytest.raises(SetupError, match="pas un moment de l'histoire"):
        game.start_from("building:" + sorted(game.bundle["records"]["building"])[0], setup)
    with pytest.raises(SetupError, match="carte Exploration"):  # one that does not exist
        game.start_from("exploration_card:9999", setup)


def test_an_exploration_card_is_the_next_its_zone_deals(game, setup):
    """Issue 31: an exploration card is a node a writer starts at too (it was refused)."""
    first = sorted(game.bundle["records"]["exploration_card"])[0]
    state = game.start_from(f"exploration_card:{first}", setup)
    zone = str(game.bundle["records"]["exploration_card"][first]["zone"])
    deck = state["explore_decks"].get(zone) or []
    assert (deck and deck[-1] == first) or first not in deck


def test_a_condition_already_true_moves_nothing(game, setup):
    """An item the party already holds is not taken a second time from the box (the way to a
    node may ask for the same item twice, or for one the scenario's setup gives)."""
    import copy
    import json

    from engine.citadelle import taking
    from engine.citadelle.start import _satisfy

    state = game.new_game(setup)
    numbers = {str(c["number"]) for c in game.bundle["records"]["adventure_card"].values()}
    tried = 0
    for number in sorted(numbers):
        if not state["box"].get(number):
            continue
        first = copy.deepcopy(state)
        assert _satisfy(game.bundle, first, {"item": number})
        assert number in taking.held_numbers(game.bundle, first)
        again = copy.deepcopy(first)
        assert _satisfy(game.bundle, again, {"item": number})
        assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True), number
        tried += 1
        if tried == 20:
            break
    assert tried
