"""``gamebook check --deep`` for Le Conseil des 12: each month can be won.

The plug-in registers ``months_winnable`` as its content's deep check, with the game class it
plays: this module reads no plug-in (the content format stays below the rules)."""

from __future__ import annotations

from typing import Any

from ..core import playout
from ..core.rng import Rng
from ..core.schema import GraphView, Issue
from .solver import Omniscient

#: games an all-seeing table plays in each month before the month is called unwinnable
DEEP_GAMES = 4


def months_winnable(game_class: Any, g: GraphView) -> list[Issue]:
    """A table of all-seeing players (the solver) wins each month at least once in a few
    games; a finding otherwise."""
    records: dict[str, dict] = {}
    for node, kind, data in g.records():
        records.setdefault(kind, {})[node.split(":", 1)[1]] = data
    game = game_class({"records": records})
    out: list[Issue] = []
    for month in sorted(records.get("scenario", {})):
        won = False
        for k in range(DEEP_GAMES):
            seed = f"deep-{month}-{k}"
            setup = game.normalize_setup({"seed": seed, "players": 3, "bots": 3, "scenario": month})
            state, _ = playout.play_out(
                game, game.new_game(setup), _all_seeing(Omniscient(game), seed), limit=2000
            )
            if state.get("result", {}) and state["result"]["won"]:
                won = True
                break
        if not won:
            out.append(
                Issue(
                    "SIM001",
                    "warning",
                    f"le mois « {month} » n'a été gagné dans aucune des {DEEP_GAMES} parties "
                    "jouées par une table qui voit toutes les mains",
                    node=f"scenario:{month}",
                )
            )
    return out


def _all_seeing(table: Omniscient, seed: str) -> playout.Policy:
    """The all-seeing table's move, from a generator per move of this game."""
    return lambda game, state, seat, step: table.action(state, seat, _rng(seed, step))


def _rng(seed: str, step: int) -> Rng:
    return Rng({"rng": Rng.seed_from(f"{seed}:{step}")})
