"""Complots' bots decide from their seat's view only: card counting, the history of claims.
A bot's choice never changes when another seat's hidden cards or the Court change; an
impossible claim (every copy in sight) is always doubted; the personalities differ."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_complots_rules import act, table_with

from engine.complots import bots as B
from engine.core import playout, registry
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
PERSONAS = ("malin", "prudent", "bluffeur", "agressif")


@pytest.fixture(scope="module")
def game():
    return registry.get("complots")(bundle_for("complots", ROOT / "content"))


def test_a_bot_never_reads_another_seats_cards(game):
    checked = 0
    for k in range(40):
        setup = game.normalize_setup({"seed": f"aveugle{k}", "players": 5, "bots": 5})
        state = game.new_game(setup)
        for i in range(300):
            seats = game.to_act(state)
            if not seats:
                break
            seat = seats[0]
            persona = PERSONAS[(seat + k) % 4]
            choice = game.choose(state, seat, Rng({"rng": i}), persona)
            for owner in [None, *[s for s in range(5) if s != seat]]:
                other = game.scramble(state, owner, Rng({"rng": Rng.seed_from(f"{k}:{i}")}))
                assert game.choose(other, seat, Rng({"rng": i}), persona) == choice
                checked += 1
            state = game.apply(state, choice)
    assert checked > 5000


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_bot_doubts_a_claim_it_can_count_out(game, persona):
    # seat 1 holds two Duchesses and the third is face up: seat 0 cannot have one
    s = table_with(game, [["capitaine", "comtesse"], ["duchesse", "duchesse"], ["assassin"]])
    s["players"][2]["revealed"] = ["duchesse"]
    s["court"].remove("duchesse")
    s = act(game, s, type="claim", seat=0, character="duchesse")
    view = game.view(s, 1)
    assert B.unseen(view, "duchesse") == 0
    assert game.choose(s, 1, Rng({"rng": 1}), persona)["type"] == "doubt"


def test_bots_counter_truthfully_when_they_can(game):
    s = table_with(
        game, [["assassin", "duchesse"], ["comtesse", "capitaine"], ["duchesse"]], [3, 2, 2]
    )
    s = act(game, s, type="claim", seat=0, character="assassin", target=1)
    s = act(game, s, type="pass", seat=1)
    s = act(game, s, type="pass", seat=2)
    for persona in PERSONAS:
        action = game.choose(s, 1, Rng({"rng": 5}), persona)
        assert action == {"type": "counter", "seat": 1, "character": "comtesse"}


def _counting(lineup: list[str], counts: dict[str, dict[str, int]]) -> playout.Policy:
    """The bots of ``lineup``, each move drawn from the journal's length, counting the doubt
    windows each temperament meets and the doubts it casts."""

    def policy(game: Any, state: dict, seat: int, k: int) -> Any:
        action = game.choose(state, seat, Rng({"rng": len(state["log"])}), lineup[seat])
        if state["steps"] and state["steps"][0]["do"] == "doubt":
            counts[lineup[seat]]["windows"] += 1
            counts[lineup[seat]]["doubts"] += action["type"] == "doubt"
        return action

    return policy


def test_the_personalities_bluff_and_doubt_differently(game):
    counts = {p: {"claims": 0, "bluffs": 0, "windows": 0, "doubts": 0} for p in PERSONAS}
    for k in range(60):
        lineup = [PERSONAS[(k + j) % 4] for j in range(4)]
        setup = game.normalize_setup({"seed": f"traits{k}", "players": 4, "bots": 4})
        state, _ = playout.play_out(game, game.new_game(setup), _counting(lineup, counts))
        for c, true in zip(state["claims"], state["truth"], strict=True):
            counts[lineup[c["seat"]]]["claims"] += 1
            counts[lineup[c["seat"]]]["bluffs"] += not true
    bluff = {p: c["bluffs"] / c["claims"] for p, c in counts.items()}
    doubt = {p: c["doubts"] / max(1, c["windows"]) for p, c in counts.items()}
    assert bluff["prudent"] < 0.1 < 0.25 < bluff["bluffeur"]
    assert bluff["prudent"] < bluff["malin"]
    assert doubt["agressif"] > 3 * max(doubt["prudent"], doubt["bluffeur"])
