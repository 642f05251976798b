"""Le Dilemme du Roi: rules engine, bots and French text."""

from .game import (
    FORMAT_VERSION,
    MIN_COMPATIBLE,
    apply,
    legal_actions,
    new_campaign,
    new_game,
    view,
)

__all__ = [
    "FORMAT_VERSION",
    "MIN_COMPATIBLE",
    "apply",
    "legal_actions",
    "new_campaign",
    "new_game",
    "view",
]
