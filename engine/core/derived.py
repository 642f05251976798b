"""Data derived from a bundle (an index, a precomputed map), computed once per bundle and kept
beside it — never written into the bundle, which the engine only reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
# id(bundle) -> (the bundle itself, so that its id is never reused while cached; name -> value)
_DERIVED: dict[int, tuple[dict, dict[str, Any]]] = {}
_MAX_BUNDLES = 16


def derived(bundle: dict, name: str, compute: Callable[[dict], T]) -> T:
    """``compute(bundle)``, once per bundle and name.

    >>> b = {"records": {}}
    >>> calls = []
    >>> derived(b, "n", lambda x: calls.append(1) or 42), derived(b, "n", lambda x: 0), calls
    (42, 42, [1])
    >>> "n" in b
    False
    """
    entry = _DERIVED.get(id(bundle))
    if entry is None or entry[0] is not bundle:
        if len(_DERIVED) >= _MAX_BUNDLES:
            _DERIVED.clear()
        entry = (bundle, {})
        _DERIVED[id(bundle)] = entry
    values = entry[1]
    if name not in values:
        values[name] = compute(bundle)
    return values[name]
