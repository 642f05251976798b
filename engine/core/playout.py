"""The one play-out loop: seats act, one move at a time, until the game ends.

The session (the terminal and the page), the simulator, the bench, the tests and a game's own
deep checks all play a game forward the same way: ask who must act, pick one of them, let a
policy choose that seat's action, apply it.  What differs is data — which seat moves when
several must (the first, a seeded draw, a bot only), which policy decides (the game's bots
with a seeded generator per move, a uniform draw, an all-seeing table) and where to stop — so
those are the arguments, and this module is the only loop.

>>> from engine.core.game import Game
>>> class Count(Game):  # one seat counts to three
...     def to_act(self, state): return [] if state["n"] == 3 else [0]
...     def apply(self, state, action): return {"n": state["n"] + action}
>>> moves = list(play(Count({}), {"n": 0}, lambda game, state, seat, index: 1))
>>> [(m.index, m.seat, m.after["n"]) for m in moves]
[(0, 0, 1), (1, 0, 2), (2, 0, 3)]
>>> play_out(Count({}), {"n": 0}, lambda game, state, seat, index: 1, limit=2)
({'n': 2}, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .game import Game
from .rng import Rng

#: ``policy(game, state, seat, index) -> action``: ``index`` counts the moves played before
Policy = Callable[[Game, dict[str, Any], int, int], Any]
#: ``seat(game, state, seats, index) -> seat``: which of ``seats`` (those that must act) moves
#: now; ``None`` stops the play-out (a person must answer)
SeatPick = Callable[[Game, dict[str, Any], list[int], int], int | None]


@dataclass(frozen=True)
class Move:
    """One move of a play-out: the ``index``-th, by ``seat``, from ``before`` to ``after``."""

    index: int
    seat: int
    action: Any
    before: dict[str, Any]
    after: dict[str, Any]


def first_seat(game: Game, state: dict[str, Any], seats: list[int], index: int) -> int:
    """The first of the seats that must act."""
    return seats[0]


def play(
    game: Game,
    state: dict[str, Any],
    policy: Policy,
    *,
    seat: SeatPick = first_seat,
    limit: int | None = None,
) -> Iterator[Move]:
    """The moves from ``state`` until no seat must act, ``seat`` says stop, or ``limit``
    moves have been played.  Each move is applied before it is yielded: the consumer may read
    ``move.after`` and stop whenever it likes."""
    index = 0
    while limit is None or index < limit:
        seats = game.to_act(state)
        if not seats:
            return
        mover = seat(game, state, seats, index)
        if mover is None:
            return
        action = policy(game, state, mover, index)
        after = game.apply(state, action)
        yield Move(index, mover, action, state, after)
        state = after
        index += 1


def play_out(
    game: Game,
    state: dict[str, Any],
    policy: Policy,
    *,
    seat: SeatPick = first_seat,
    limit: int | None = None,
) -> tuple[dict[str, Any], int]:
    """``play`` to its end: the last state and the number of moves."""
    moves = 0
    for move in play(game, state, policy, seat=seat, limit=limit):
        state, moves = move.after, move.index + 1
    return state, moves


def bots(personas: Callable[[int], str | None], rng: Callable[[int, int], Rng]) -> Policy:
    """The game's own bots (``Game.choose``) for every seat: ``personas(seat)`` gives a seat's
    temperament, ``rng(index, seat)`` the generator of the ``index``-th move."""

    def policy(game: Game, state: dict[str, Any], seat: int, index: int) -> Any:
        return game.choose(state, seat, rng(index, seat), personas(seat))

    return policy


def seeded(prefix: str) -> Callable[[int, int], Rng]:
    """A generator per move drawn from ``f"{prefix}:{index}"`` (the tests' and the bench's
    seeded bots: ``seeded(f"{seed}:bot")`` gives ``Rng.seed_from(f"{seed}:bot:{index}")``)."""
    return lambda index, seat: Rng({"rng": Rng.seed_from(f"{prefix}:{index}")})
