"""Le Roi des 12: properties over many seeded games — every card in exactly one place, points
that only come from the turn's champions, dauphins and LA DAME, games that end."""

from __future__ import annotations

import pytest

from engine.core.rng import Rng
from engine.roi import rules as R

PERSONAS = ("ruse", "prudent", "hasard")


def _game(n: int, seed: int):
    from engine.core.registry import get
    from pipeline.story.bundles import bundle_for

    game = get("roi")(bundle_for("roi"))
    setup = game.normalize_setup(
        {
            "seed": f"prop-{seed}",
            "seats": [{"bot": True, "persona": PERSONAS[(seed + i) % 3]} for i in range(n)],
            "cartes": "hasard" if seed % 2 else "premiere",
        }
    )
    return game, setup


def _total(st: dict) -> int:
    return sum(sum(p["tokens"]) for p in st["p"])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 9, 16])
def test_cards_conserved_and_points_consistent(n):
    for seed in range(12 if n <= 4 else 4):
        game, setup = _game(n, seed)
        st = game.new_game(setup)
        pick = Rng({"rng": seed})
        per_turn = (len(st["groups"]) + 3) if st["tournament"] else 3
        steps = 0
        while game.to_act(st):
            seats = game.to_act(st)
            seat = seats[pick.below(len(seats))]
            before = st
            if pick.below(4) == 0:
                acts = game.legal_actions(st, seat)
                action = acts[pick.below(len(acts))]
            else:
                action = game.choose(st, seat, Rng({"rng": steps}), setup["seats"][seat]["persona"])
            st = game.apply(st, action)
            R.check_state(st)
            steps += 1
            assert steps < 5000
            if st["manche"] == before["manche"]:
                gained = _total(st) - _total(before)
                assert 0 <= gained <= per_turn
            else:
                assert all(p["tokens"] == [] for p in st["p"]) or st["winner"] is not None
            assert all(len(p["under"]) <= 2 for p in st["p"])
        out = game.outcome(st)
        assert out is not None and st["winner"]
        if not st["history"][-1]["playoff"] and st["manche"] < R.MAX_MANCHES:
            assert all(len(st["p"][w]["under"]) == 2 for w in st["winner"])
