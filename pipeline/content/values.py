"""The values a YAML file is read into, and how a plain scalar is resolved: what both readers
(libyaml's events in ``load``, the quick reader in ``quick``) build.

Positions are 1-based ``(line, column)`` tuples.
"""

from __future__ import annotations

import re
from typing import Any

Pos = tuple[int, int]

#: longest integer kept as an ``int`` (Python refuses to convert longer digit strings)
MAX_DIGITS = 4000
#: deepest nesting of lists and tables accepted: the validator and every later pass walk
#: values recursively, so a depth bound here means no ``RecursionError`` anywhere after
MAX_DEPTH = 100

_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


class YMap(dict):
    """A mapping from a YAML file: ``pos`` is where it starts, ``kpos[key]`` where each value
    starts, ``keypos[key]`` where each key starts."""

    __slots__ = ("keypos", "kpos", "pos")
    pos: Pos
    kpos: dict[Any, Pos]
    keypos: dict[Any, Pos]


class YList(list):
    """A sequence from a YAML file: ``pos`` is where it starts, ``ipos[i]`` each item."""

    __slots__ = ("ipos", "pos")
    pos: Pos
    ipos: list[Pos]


def _plain(value: str) -> Any:
    """Resolve a plain (unquoted) scalar with YAML 1.2 core rules.  Digits with leading zeros
    stay text ("00", "07": envelope numbers keep the writer's digits)."""
    if value in _NULLS:
        return None
    first = value[0]
    if first in "tTfF" and value in _BOOLS:
        return _BOOLS[value]
    if first.isdigit() or first in "-+.":
        digits = value.lstrip("-+")
        if is_int_text(digits):
            if len(digits) > 1 and digits[0] == "0":
                return value
            return int(value)
        if value.startswith(("0x", "0o")):
            try:
                return int(value, 0)
            except ValueError:
                return value
        if _FLOAT.match(value) and not digits.isdigit():
            return float(value)
        if value in (".inf", "+.inf", "-.inf", ".nan"):
            return float(value.replace(".", ""))
    return value


def is_int_text(text: str) -> bool:
    """ASCII digits only ("²".isdigit() is True; int() refuses it), within what Python turns
    into an int (4,300 digits): an integer of any realistic length stays exact."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


#: plain scalars that start with an ASCII letter are text, unless one of these words
_WORDS: dict[str, Any] = {**dict.fromkeys(n for n in _NULLS if n and n != "~"), **_BOOLS}
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def resolve(text: str) -> Any:
    """A plain scalar's value: text that starts with an ASCII letter stays text (unless a null
    or a yes/no word), anything else as ``_plain`` says."""
    return _WORDS.get(text, text) if text[:1] in _LETTERS else _plain(text)


def _key_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null"
    return str(value)
