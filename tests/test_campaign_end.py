"""The end of every campaign shows its standings as the headline, on the play page (the
outcome: its summary, then its widgets) and on the chronicle page (first), issue 29."""

from __future__ import annotations

import re

import pytest

from engine.core.registry import get
from engine.core.session import Session
from pipeline.story.bundles import bundle_for


def _campaign(game_id: str, **setup) -> tuple[object, Session, int]:
    game = get(game_id)(bundle_for(game_id))
    seats = setup.pop("players", game.default_players)
    s = Session(game).start(game.normalize_setup({"players": seats, "bots": seats, **setup}))
    games = 1
    while s.next_game():
        games += 1
    assert s.screen()["over"] and not s.screen()["sequel"], "the campaign is over"
    return game, s, games


@pytest.mark.parametrize("seed", ["4", "11"])
def test_the_dilemme_campaign_ends_on_its_standings(seed):
    game, s, games = _campaign("dilemme", seed=seed)
    scr = s.screen()
    out = scr["outcome"]
    assert out["summary"].startswith("La campagne est terminée")
    standings = out["widgets"][0]
    assert standings["type"] == "ranking" and standings["title"].startswith("Fin de la campagne")
    camp = s.state["campaign"]
    winner = game.bundle["records"]["house"][camp["winner"]]["name"]
    assert standings["rows"][0]["name"] == winner and winner in out["summary"]
    won = [int(re.match(r"(\d+) partie", r["details"][0]).group(1)) for r in standings["rows"]]
    assert sum(won) == games == len(camp["history"])
    house_of = {v["name"]: h for h, v in game.bundle["records"]["house"].items()}
    for r in standings["rows"]:
        assert r["score"] == camp["final_scores"][house_of[r["name"]]]
        assert r["details"][2].endswith(f"= {r['score']}")
    assert any(c.startswith("Chronique, ") for c in standings["carry"])
    # the play page: the standings come before the last game's result
    titles = [w.get("title") for w in scr["widgets"]]
    assert titles.index(standings["title"]) < titles.index(f"Résultat de la partie {games}")
    # the chronicle page opens on them
    assert game.chronicle(s.state)[0] == standings


def test_a_dilemme_game_before_the_campaign_ends_keeps_its_own_headline():
    game = get("dilemme")(bundle_for("dilemme"))
    s = Session(game).start(game.normalize_setup({"seed": "4", "players": 4, "bots": 4}))
    out = s.screen()["outcome"]
    assert "remporte" in out["summary"] and not out["widgets"]
    assert not game.chronicle(s.state)[0]["title"].startswith("Fin de la campagne")


@pytest.mark.parametrize("scenario", ["janvier", "base"])
def test_the_conseil_campaign_ends_on_its_standings(scenario):
    game, s, games = _campaign("conseil", seed="4", players=3, scenario=scenario)
    out = s.screen()["outcome"]
    assert out["summary"].startswith("La campagne est terminée : " + f"{games} parties")
    standings = out["widgets"][0]
    assert standings["title"] == "Fin de la campagne : le bilan du Conseil"
    row = standings["rows"][0]
    reigns = [*s.state["chronicle"]["reigns"]]
    assert row["score"] == sum(r["score"] for r in reigns) + s.state["result"]["total"]
    won = int(row["details"][0].split(" ")[0])
    assert won == sum(r["won"] for r in reigns) + bool(s.state["result"]["won"])
    if scenario == "janvier":
        assert s.state["scenario"] == "decembre" and "Décembre est gagné" in standings["why"]
    else:
        assert games == 10 and "pleine" in standings["why"]
    assert game.chronicle(s.state)[0] == standings


def test_a_conseil_month_won_before_decembre_is_no_campaign_end():
    game = get("conseil")(bundle_for("conseil"))
    s = Session(game).start(
        game.normalize_setup({"seed": "4", "players": 3, "bots": 3, "scenario": "janvier"})
    )
    assert s.screen()["sequel"] and not s.screen()["outcome"]["widgets"]


def test_the_citadel_adventure_ends_on_the_group_standing():
    game = get("citadelle")(bundle_for("citadelle"))
    s = Session(game).start(game.normalize_setup({"seed": "3", "players": 2, "bots": 2}))
    out = s.screen()["outcome"]
    assert out["why"] and out["summary"]
    (row,) = out["ranking"]
    assert row["score"] == len(s.state["scenarios_played"]) and row["details"]
    for c in s.state["characters"]:
        assert c["name"] in row["name"]
    first = game.chronicle(s.state)[0]
    assert first["title"] == "Fin de l'aventure : le bilan du groupe"
    assert first["rows"][0]["details"] == row["details"]
