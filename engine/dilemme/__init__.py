"""Le Dilemme du Roi: rules engine, bots, screens and French text; registered as ``dilemme``."""

from .plugin import Dilemme

GAME = Dilemme

__all__ = ["GAME"]
