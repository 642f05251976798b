"""The 7th Citadel: rules engine, automatic policy and French text."""

from .game import FORMAT_VERSION, MIN_COMPATIBLE, apply, legal_actions, new_game, view

__all__ = ["FORMAT_VERSION", "MIN_COMPATIBLE", "apply", "legal_actions", "new_game", "view"]
