"""Le Dilemme du Roi: rules engine, bots, screens and French text; registered as ``dilemme``."""

from .game import (
    FORMAT_VERSION,
    MIN_COMPATIBLE,
    apply,
    legal_actions,
    new_campaign,
    new_game,
    view,
)
from .plugin import Dilemme

GAME = Dilemme

__all__ = [
    "FORMAT_VERSION",
    "GAME",
    "MIN_COMPATIBLE",
    "apply",
    "legal_actions",
    "new_campaign",
    "new_game",
    "view",
]
