"""Errors raised for actions.  Both are ``ValueError``s that name the action and the round."""

from __future__ import annotations

from typing import Any


class MalformedAction(ValueError):
    """The action is not even well formed (unknown type, missing or mistyped field)."""

    def __init__(self, action: Any, where: str, why: str) -> None:
        super().__init__(f"malformed action {action!r} in {where}: {why}")
        self.action, self.where, self.why = action, where, why


class IllegalAction(ValueError):
    """The action is well formed but the rules do not allow it now."""

    def __init__(self, action: Any, where: str, why: str) -> None:
        super().__init__(f"illegal action {action!r} in {where}: {why}")
        self.action, self.where, self.why = action, where, why


class SetupError(ValueError):
    """A setup the game cannot start from; the message is French, for the player."""
