"""Machinery shared by every game: seeded randomness, state copies, action errors."""

from .errors import IllegalAction, MalformedAction
from .rng import Rng
from .state import copy_game, copy_state, from_json, to_json

__all__ = [
    "IllegalAction",
    "MalformedAction",
    "Rng",
    "copy_game",
    "copy_state",
    "from_json",
    "to_json",
]
