"""French that agrees with its counts, for every registered game: no screen, button label or
chronicle line a player reads shows a placeholder plural or gender (« pièce(s) », « carte(s)
mélangée(s) », « manche(s) remportée(s) », « (e) »): counts and genders are known when the
sentence is written.  Seeded bot games played through the contract."""

from __future__ import annotations

import re

import pytest

from engine.core import registry
from engine.core.rng import Rng
from pipeline.bundles import bundle_for

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


@pytest.mark.parametrize("game_id", registry.ids())
def test_counts_and_genders_are_written_out(game_id: str) -> None:
    cls = registry.get(game_id)
    game = cls(bundle_for(game_id))
    low, high = game.seat_range()
    for seed in range(GAMES):
        n = min(high, max(low, 3 + seed))
        setup = game.normalize_setup({"seed": f"fr-{seed}", "players": n, "bots": n})
        state = game.new_game(setup)
        for step in range(STEPS):
            seats = game.to_act(state)
            if not seats:
                break
            seat = seats[0]
            actions = game.legal_actions(state, seat)
            where = f"{game_id}, seed {seed}, step {step}"
            check(strings(game.screen(state, seat, actions), []), where)
            check([game.describe(state, a, seat) for a in actions], where)
            rng = Rng({"rng": Rng.seed_from(f"fr-{seed}:{step}")})
            state = game.apply(state, game.choose(state, seat, rng))
        check(strings(game.chronicle(state) or [], []), f"{game_id}, seed {seed}, chronicle")
        if not game.to_act(state):  # the last screen, with its result
            check(strings(game.screen(state, None, []), []), f"{game_id}, seed {seed}, end")
