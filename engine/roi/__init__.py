"""Le Roi des 12: simultaneous duels of dice and cards (2–4 players, tournament up to 16);
registered as ``roi``."""

from .plugin import Roi

GAME = Roi

__all__ = ["GAME"]
