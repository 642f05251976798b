"""Le Conseil des 12: rules, bots, solver, screens and French text; registered as ``conseil``."""

from .plugin import Conseil

GAME = Conseil

__all__ = ["GAME"]
