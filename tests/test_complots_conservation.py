"""Property tests over many seeded bot games of every table size and both variants: coins in
hands + Treasury stay 54, cards in hands + Court + revealed (+ the two-player game's set-aside
packets) stay 15 (20 at seven and eight), and every game ends with one survivor."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine.complots import rules
from engine.core import playout, registry
from engine.core.game import Game
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
PERSONAS = ("prudent", "bluffeur", "agressif", "malin")
#: under mutation testing (mutmut sets MUTANT_UNDER_TEST) a quarter of the games, both variants
#: still at every table size: each surviving mutant replays them all
GAMES = 6 if os.environ.get("MUTANT_UNDER_TEST") else 24


@pytest.fixture(scope="module")
def game():
    return registry.get("complots")(bundle_for("complots", ROOT / "content"))


def play(game, seed: str, n: int, variant: str, wild: int = 6):
    """A whole game; now and then (one move in ``wild``) a uniformly random legal move."""
    setup = game.normalize_setup(
        {
            "seed": seed,
            "players": n,
            "bots": n,
            "variant": variant,
            "persona": [PERSONAS[(i + len(seed)) % len(PERSONAS)] for i in range(n)],
        }
    )
    state = game.new_game(setup)
    pick = Rng({"rng": Rng.seed_from(seed + ":pick")})

    def drawn_seat(game: Game, state: dict, seats: list[int], i: int) -> int:
        return seats[pick.below(len(seats))]

    def policy(game: Game, state: dict, seat: int, i: int) -> Any:
        if pick.below(wild) == 0:
            legal = game.legal_actions(state, seat)
            return legal[pick.below(len(legal))]
        bot = Rng({"rng": Rng.seed_from(f"{seed}:{i}")})
        return game.choose(state, seat, bot, setup["seats"][seat]["persona"])

    moves = playout.play(game, state, policy, seat=drawn_seat, limit=5000)
    return [state, *(move.after for move in moves)]


@pytest.mark.parametrize("n", range(2, 9))
def test_coins_and_cards_are_conserved_and_one_player_survives(game, n):
    for k in range(GAMES):
        variant = ("ambassadeur", "inquisiteur")[k % 2]
        states = play(game, f"cons:{n}:{k}", n, variant)
        expected_cards = 15 if n <= 6 else 20
        for s in states:
            assert rules.coin_total(s) == rules.COINS_TOTAL
            assert rules.card_total(s) == expected_cards
            assert all(p["coins"] >= 0 for p in s["players"]) and s["treasury"] >= 0
            game.check_state(s)
        last = states[-1]
        assert not game.to_act(last), f"{n} players, game {k}: not over"
        assert len(rules.living(last)) == 1 and last["winner"] == rules.living(last)[0]
        for seat in last["out"]:
            assert last["players"][seat]["coins"] == 0
            assert len(last["players"][seat]["revealed"]) == 2


def test_the_same_seed_plays_the_same_game(game):
    a = play(game, "same", 5, "ambassadeur")
    b = play(game, "same", 5, "ambassadeur")
    assert a[-1] == b[-1]
