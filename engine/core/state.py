"""Game states are plain JSON values; these helpers copy and serialise them."""

from __future__ import annotations

import json
from typing import Any


def copy_state(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars) — several times faster than
    ``copy.deepcopy``, which matters: ``apply`` copies its input on every action."""
    if isinstance(value, dict):
        return {k: copy_state(v) if isinstance(v, (dict, list)) else v for k, v in value.items()}
    if isinstance(value, list):
        return [copy_state(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def copy_game(value: dict, shared: dict) -> dict:
    """``copy_state`` for a game state whose append-only parts are shared, not copied.

    ``shared`` maps a key either to ``True`` (a list whose items are never modified once
    appended — the log, a campaign's history: the list is copied, its items are shared) or to a
    nested ``shared`` mapping for a sub-dict.  Copying the whole log on every action made a
    long adventure quadratic.
    """
    out = {}
    for k, v in value.items():
        rule = shared.get(k)
        if rule is True:
            out[k] = list(v)
        elif isinstance(rule, dict) and isinstance(v, dict):
            out[k] = copy_game(v, rule)
        elif isinstance(v, (dict, list)):
            out[k] = copy_state(v)
        else:
            out[k] = v
    return out


def to_json(state: dict) -> str:
    return json.dumps(state, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> dict:
    return json.loads(text)
