"""The 7th Citadel: rules engine, automatic policy, screens and French text; registered as
``citadelle``."""

from .game import FORMAT_VERSION, MIN_COMPATIBLE, apply, legal_actions, new_game, view
from .plugin import Citadelle

GAME = Citadelle

__all__ = ["FORMAT_VERSION", "GAME", "MIN_COMPATIBLE", "apply", "legal_actions", "new_game", "view"]
