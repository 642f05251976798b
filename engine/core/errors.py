"""Errors raised for actions.  Both are ``ValueError``s that name the action and the round.

The action in the message is ``brief(action)``: its ``repr`` when it is small, cut short in
depth, width and length otherwise (an action nested 5,000 deep or carrying a 5,000-digit
integer made ``repr`` itself fail with RecursionError or ValueError)."""

from __future__ import annotations

from typing import Any

#: how deep, how many items per list or mapping, how many characters of a text ``brief`` shows
BRIEF_DEPTH, BRIEF_ITEMS, BRIEF_TEXT = 4, 8, 60


def brief(value: Any, depth: int = BRIEF_DEPTH) -> str:
    """``repr(value)`` for a small JSON-like value; a bounded sketch of a large one.

    >>> brief({"type": "keep", "cards": ["duc"]})
    "{'type': 'keep', 'cards': ['duc']}"
    >>> brief([[[[[[1]]]]]])
    '[[[[…]]]]'
    """
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if -(10**30) < value < 10**30:
            return repr(value)
        return f"<entier de {len(hex(value)) * 6 // 5} chiffres environ>"
    if isinstance(value, str):
        shown = repr(value[:BRIEF_TEXT])
        return shown + "…" if len(value) > BRIEF_TEXT else shown
    if isinstance(value, (dict, list, tuple)):
        if depth <= 0:
            return "…"
        if isinstance(value, dict):
            items = [f"{brief(k, 1)}: {brief(v, depth - 1)}" for k, v in _first(value.items())]
            opening, closing = "{", "}"
        else:
            items = [brief(v, depth - 1) for v in _first(value)]
            opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        if len(value) > BRIEF_ITEMS:
            items.append("…")
        return opening + ", ".join(items) + closing
    return f"<{type(value).__name__}>"


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), for the « Vouliez-vous
    dire » of a misspelt name; short strings (ids, game names)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def _first(items: Any) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if len(out) == BRIEF_ITEMS:
            break
        out.append(item)
    return out


class MalformedAction(ValueError):
    """The action is not even well formed (unknown type, missing or mistyped field)."""

    def __init__(self, action: Any, where: str, why: str) -> None:
        super().__init__(f"malformed action {brief(action)} in {where}: {why}")
        self.action, self.where, self.why = action, where, why


class IllegalAction(ValueError):
    """The action is well formed but the rules do not allow it now."""

    def __init__(self, action: Any, where: str, why: str) -> None:
        super().__init__(f"illegal action {brief(action)} in {where}: {why}")
        self.action, self.where, self.why = action, where, why


class SetupError(ValueError):
    """A setup the game cannot start from; the message is French, for the player."""


class SeatError(ValueError):
    """A reader (``view``, ``legal_actions``, ``screen``) asked about a seat the game has not."""
