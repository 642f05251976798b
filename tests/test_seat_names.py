"""Opponents with names: a seat nobody named gets a name from its game's list, drawn from the
game number; a bot's temperament shows beside its name, agreeing with it; names are display
only (the same game is played whatever the seats are called)."""

from __future__ import annotations

import pytest

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

POOLED = [g for g in registry.ids() if registry.get(g).seat_names_pool]


def test_the_games_whose_seats_are_people_have_name_lists() -> None:
    assert len(POOLED) >= 3
    for gid in POOLED:
        cls = registry.get(gid)
        assert len(cls.seat_names_pool) >= cls.players[1], gid  # a name for every seat
        assert {g for _, g in cls.seat_names_pool} == {"f", "m"}, gid


@pytest.mark.parametrize("game_id", POOLED)
def test_unnamed_seats_get_distinct_names_from_the_game_number(game_id: str) -> None:
    game = registry.get(game_id)(bundle_for(game_id))
    _, high = game.seat_range()
    pool = {n for n, _ in game.seat_names_pool}
    # every seat played by the computer (a single person is « Vous »: the test below)
    table = {"players": high, "bots": high}
    names = [s["name"] for s in game.normalize_setup({"seed": "7", **table})["seats"]]
    assert len(set(names)) == high and set(names) <= pool
    again = [s["name"] for s in game.normalize_setup({"seed": "7", **table})["seats"]]
    other = [s["name"] for s in game.normalize_setup({"seed": "8", **table})["seats"]]
    assert again == names and other != names
    typed = game.normalize_setup({"seed": "7", "players": 2, "names": [names[1]]})["seats"]
    assert typed[0]["name"] == names[1] and typed[1]["name"] != names[1]
    assert not any(n.startswith(("Joueur", "Membre")) for n in names)


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_single_person_is_vous_and_several_keep_their_names(game_id: str) -> None:
    """One person at the table (the others played by the computer): their seat is « Vous »,
    the bots keep the names they have at an all-bot table; several people, or a typed name,
    keep names."""
    game = registry.get(game_id)(bundle_for(game_id))
    low, high = game.seat_range()
    n = max(low, 2) if high >= 2 else low
    one = [
        s["name"] for s in game.normalize_setup({"seed": "v", "players": n, "bots": n - 1})["seats"]
    ]
    bots = [
        s["name"] for s in game.normalize_setup({"seed": "v", "players": n, "bots": n})["seats"]
    ]
    assert one[0] == "Vous" and one[1:] == bots[1:] and "Vous" not in bots
    if n >= 2:
        two = game.normalize_setup({"seed": "v", "players": n, "bots": n - 2})["seats"]
        assert "Vous" not in [s["name"] for s in two]
    typed = game.normalize_setup({"seed": "v", "players": n, "bots": n - 1, "names": ["Zoé"]})
    assert typed["seats"][0]["name"] == "Zoé"


@pytest.mark.parametrize("game_id", [g for g in POOLED if registry.get(g).personas])
def test_a_bots_temperament_is_written_beside_its_name_and_agrees(game_id: str) -> None:
    game = registry.get(game_id)(bundle_for(game_id))
    n = min(game.seat_range()[1], 6)
    session = Session(game).start({"seed": "temp", "players": n, "bots": n - 1})
    table = next(w for w in session.screen()["widgets"] if w["type"] == "players")
    cells = [r["cells"][0] for r in table["rows"]]
    for seat in session.seats[1:]:
        word = game.temperament(seat)
        assert word and f"{seat['name']} ({word})" in cells
        masculine = next(o.label for o in game.personas if o.value == seat["persona"])
        if game.seat_gender(seat["name"]) == "m":
            assert word == masculine
    assert session.seats[0]["name"] in cells  # the person's own seat: no temperament
    assert not any("bot" in c for c in cells)


def test_names_do_not_change_how_a_game_is_played() -> None:
    game = registry.get("roi" if "roi" in POOLED else POOLED[0])
    game = game(bundle_for(game.id))
    drawn = Session(game).start({"seed": "noms", "players": 3, "bots": 3})
    named = Session(game).start(
        {"seed": "noms", "seats": [{"bot": True, "name": f"Place {i}"} for i in range(3)]}
    )
    assert drawn.actions == named.actions
