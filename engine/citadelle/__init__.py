"""The 7th Citadel: rules engine, automatic policy, screens and French text; registered as
``citadelle``."""

from .plugin import Citadelle

GAME = Citadelle

__all__ = ["GAME"]
