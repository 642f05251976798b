"""Game states are plain JSON values; these helpers copy and serialise them."""

from __future__ import annotations

import json
import marshal
from typing import Any

#: marshal's version 2 writes no back-references: a value met twice is copied twice, as
#: ``_copy_tree`` does (a copy never aliases two parts that the caller may change apart)
_TREE = 2


def copy_state(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars) — several times faster than
    ``copy.deepcopy``, which matters: ``apply`` copies its input on every action.  Done by
    ``marshal`` (C code, 2–4 × quicker than walking the value in Python, in CPython and in
    Pyodide); a value marshal cannot write (an object of another type) is walked instead."""
    if isinstance(value, (dict, list)):
        try:
            return marshal.loads(marshal.dumps(value, _TREE))
        except ValueError:
            return _copy_tree(value)
    return value


def _copy_tree(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_tree(v) if isinstance(v, (dict, list)) else v for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_tree(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def copy_game(value: dict, shared: dict) -> dict:
    """``copy_state`` for a game state whose append-only parts are shared, not copied.

    ``shared`` maps a key either to ``True`` (a list whose items are never modified once
    appended — the log, a campaign's history: the list is copied, its items are shared) or to a
    nested ``shared`` mapping for a sub-dict.  Copying the whole log on every action made a
    long adventure quadratic.
    """
    out = copy_state({k: v for k, v in value.items() if k not in shared})
    for k, rule in shared.items():
        if k not in value:
            continue
        v = value[k]
        if rule is True:
            out[k] = list(v)
        elif isinstance(rule, dict) and isinstance(v, dict):
            out[k] = copy_game(v, rule)
        else:
            out[k] = copy_state(v)
    return {k: out[k] for k in value}  # the keys in their order


def to_json(state: dict) -> str:
    return json.dumps(state, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> dict:
    return json.loads(text)


def same_json(a: Any, b: Any) -> bool:
    """``a == b`` as JSON values: ``1``, ``1.0`` and ``true`` are three values (Python's
    ``==`` makes them one, so ``{"n": True}`` passed for the legal ``{"n": 1}``).  Walks ``b``
    only as deep as ``a`` goes: ``a`` is the legal action, small."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def is_among(action: Any, legal: list[Any]) -> bool:
    """Whether ``action`` is one of ``legal``, type for type (``same_json``)."""
    return action in legal and any(same_json(a, action) for a in legal if a == action)
