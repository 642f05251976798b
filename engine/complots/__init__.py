"""Complots: the bluffing game for 2 to 8 players; registered as ``complots``."""

from .plugin import Complots

GAME = Complots

__all__ = ["GAME"]
