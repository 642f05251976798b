"""French that agrees with its counts, for every registered game: no screen, button label or
chronicle line a player reads shows a placeholder plural or gender (« pièce(s) », « carte(s)
mélangée(s) », « manche(s) remportée(s) », « (e) »): counts and genders are known when the
sentence is written.  Seeded bot games played through the contract."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import playout, registry
from engine.core.game import Game
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

PLACEHOLDER = re.compile(r"\w\((?:e|s|es|x|ne)\)|\(e\)|\(s\)")
SKIP = {"kind", "area", "tone", "action", "actions", "id", "key", "ref", "icon", "image", "style"}
GAMES = 3
STEPS = 150


def strings(value, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in SKIP:
                strings(v, out)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)
    return out


def check(lines: list[str], where: str) -> None:
    for line in lines:
        found = PLACEHOLDER.search(line)
        assert not found, f"placeholder {found.group(0)!r} in {line!r} ({where})"


def _read_then_choose(game_id: str, seed: int) -> playout.Policy:
    """The bots' move, once the screen and the labels of the seat to act have been checked."""

    def policy(game: Game, state: dict, seat: int, step: int) -> Any:
        actions = game.legal_actions(state, seat)
        where = f"{game_id}, seed {seed}, step {step}"
        check(strings(game.screen(state, seat, actions), []), where)
        check([game.describe(state, a, seat) for a in actions], where)
        return game.choose(state, seat, Rng({"rng": Rng.seed_from(f"fr-{seed}:{step}")}))

    return policy


@pytest.mark.parametrize("game_id", registry.ids())
def test_counts_and_genders_are_written_out(game_id: str) -> None:
    cls = registry.get(game_id)
    game = cls(bundle_for(game_id))
    low, high = game.seat_range()
    for seed in range(GAMES):
        n = min(high, max(low, 3 + seed))
        setup = game.normalize_setup({"seed": f"fr-{seed}", "players": n, "bots": n})
        state = game.new_game(setup)

        state, _ = playout.play_out(game, state, _read_then_choose(game_id, seed), limit=STEPS)
        check(strings(game.chronicle(state) or [], []), f"{game_id}, seed {seed}, chronicle")
        if not game.to_act(state):  # the last screen, with its result
            check(strings(game.screen(state, None, []), []), f"{game_id}, seed {seed}, end")
