"""The automatic policy (``engine.citadelle.auto``): the cheapest way to an objective, the land
worth exploring, hit points kept for the way home, the « curieux » temperament, and a win
share over seeded games of every scenario (the full table is ``bench/game_citadelle.py``'s)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.citadelle import game as G
from engine.citadelle.auto import choose, effort, safe
from engine.citadelle.situation import consequence, place, situation
from engine.citadelle.turn import legal_actions
from engine.core import Rng, registry
from pipeline.story.bundles import bundle_for

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from game_citadelle import play, scenarios


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def decide(bundle: dict, s: dict, rng: Rng | None = None) -> dict:
    return choose(bundle, G.view(bundle, s), legal_actions(bundle, s), rng)


def at_the_forge(bundle: dict, hp: dict | None = None, flags=("corvine_ecartee",)) -> dict:
    """Les Forges mortes: the Forge aux cendres east of the Seuil, Maëlis in front of the
    Creuset gris, Corvine already out of the way."""
    s = situation(bundle, ["A", "B"], scenario="forges_mortes", hp=hp or {})
    place(bundle, s, 412, "1,0")
    s["flags"] += list(flags)
    s["characters"][0]["at"] = "1,0"
    return s


def test_the_cheapest_way_to_an_objective_first(bundle):
    """With the bellows burst, the crucible cracks for one card against difficulty 2, where
    breaking it whole is two lines of difficulty 3: the policy takes the cheap way."""
    s = at_the_forge(bundle, flags=("corvine_ecartee", "soufflets_creves"))
    act = decide(bundle, s)
    assert act["title"] == "Fendre le creuset privé de vent"
    view = G.view(bundle, s)
    assert effort(bundle, view, "terrain:1,0", 3) < effort(bundle, view, "terrain:1,0", 2)


def test_a_worn_character_leaves_a_hard_try_to_a_fresh_one(bundle):
    """Maëlis (2 hit points) would faint if the first line of « Briser le Creuset gris »
    failed (2 damage): Tobiah (16) walks to the forge instead."""
    s = at_the_forge(bundle, hp={"A": 2})
    view = G.view(bundle, s)
    assert not safe(bundle, view, 0, "terrain:1,0", 2, bold=True)
    assert safe(bundle, view, 1, "terrain:1,0", 2, bold=True)
    assert decide(bundle, s) == {"type": "move", "character": 1, "to": "1,0"}
    fresh = at_the_forge(bundle, hp={"A": 9})
    assert decide(bundle, fresh)["title"] == "Briser le Creuset gris"


def test_only_land_that_leads_to_the_objective_is_explored_first(bundle):
    """Le Chemin des Cendreux: the Porte des Cendres lies beyond the Route grise (502, east),
    not the Rives de Maure (510, north): the group explores east."""
    s = situation(bundle, ["A", "B"], scenario="chemin_des_cendreux")
    assert decide(bundle, s)["source"] == "explore:1,0"


def test_the_curious_temperament_reads_on_and_never_ends_the_adventure(bundle):
    """Ossian's ember (paragraph 21): taking it ends the adventure; the curious policy always
    refuses, whatever its generator, and reads on."""
    s = consequence(bundle, situation(bundle, ["A"], scenario="forges_mortes"), {"read": 21})
    picks = {decide(bundle, s, Rng({"rng": k}))["index"] for k in range(12)}
    assert picks == {1}


def test_the_curious_temperament_examines_cards_and_follows_the_numbers_it_finds(bundle):
    """Le Cœur de Varn: three red figures are painted on the Dortoir des Veilleurs' iron door
    (307, hidden number 347).  The curious group looks at the card with the magnifier first,
    then, for some of its generators, takes the card of the number it found."""
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    place(bundle, s, 307, "0,0")
    first = decide(bundle, s, Rng({"rng": 1}))
    assert first["type"] == "examine" and first["card"] == "307/green"
    s = G.apply(bundle, s, first)
    picks = [decide(bundle, s, Rng({"rng": k})) for k in range(12)]
    assert {"type": "search", "character": 0, "number": 347} in picks


def test_the_curious_temperament_explores_land_whose_card_it_has_not_seen(bundle):
    """Les Portes de Varn (301) have arrows to the Bassins de scories (302) and the
    Passerelle des soufflets (306), both still in the box: for some generators the curious
    group turns one over."""
    s = situation(bundle, ["A"], scenario="coeur_de_varn", hp={"A": 18})
    picks = {decide(bundle, s, Rng({"rng": k}))["source"] for k in range(16)}
    assert any(p.startswith("explore:") for p in picks)


def test_the_temperaments_are_offered_and_the_first_is_the_default(bundle):
    game = registry.get("citadelle")(bundle)
    assert [o.value for o in game.personas] == ["methodique", "curieux"]
    setup = game.normalize_setup({"seed": 1, "players": 2, "bots": 2})
    assert {seat["persona"] for seat in setup["seats"]} == {"methodique"}
    curious = game.normalize_setup({"seed": 1, "players": 2, "bots": 2, "persona": "curieux"})
    state = game.new_game(curious)
    action = game.choose(state, 0, Rng({"rng": 3}), "curieux")
    assert action in game.legal_actions(state, 0)


@pytest.mark.parametrize("scenario", scenarios(bundle_for("citadelle")))
def test_the_policy_wins_at_least_half_of_twenty_seeded_games(bundle, scenario):
    games = [play(bundle, scenario, seed) for seed in range(1, 21)]
    assert sum(g["won"] for g in games) >= 10
