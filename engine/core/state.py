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


def to_json(state: dict) -> str:
    return json.dumps(state, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> dict:
    return json.loads(text)
