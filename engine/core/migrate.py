"""Saves made with an earlier version of a campaign's content: renamed records.

A writer who renames a card keeps its former id in the record (``renamed_from: [old]``, any
game).  The compiled bundle carries it; when a save made with another bundle is loaded, every
string in it that is exactly a former id (a card in a deck, a house in the setup, an
objective in an action...) and every mapping key that is one becomes the new id, before the
save is replayed.  Standard library only (runs in Pyodide), and no game named here.

Only text ids are converted: a former id made of digits only (a paragraph or envelope number)
could be any number of the state, and a former id that is still the id of another record is
ambiguous; both are left alone (``gamebook check --against`` says so to the writer).
"""

from __future__ import annotations

from typing import Any

RENAMED_FROM = "renamed_from"


def renames(bundle: dict[str, Any]) -> dict[str, str]:
    """Former id -> current id, for every record of the bundle that declares its former ids."""
    records = bundle.get("records") or {}
    current = {key for table in records.values() for key in table}
    out: dict[str, str] = {}
    clash: set[str] = set()
    for table in records.values():
        for key, data in table.items():
            for old in (data or {}).get(RENAMED_FROM) or ():
                old = str(old)
                if old.isdigit() or old in current or old == key:
                    continue
                if old in out and out[old] != key:
                    clash.add(old)
                out[old] = key
    for old in clash:
        del out[old]
    return out


def _convert(value: Any, table: dict[str, str], used: dict[str, str]) -> Any:
    if isinstance(value, str):
        new = table.get(value)
        if new is not None:
            used[value] = new
            return new
        return value
    if isinstance(value, list):
        return [_convert(v, table, used) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and k in table:
                used[k] = table[k]
                k = table[k]
            out[k] = _convert(v, table, used)
        return out
    return value


def migrate(data: dict[str, Any], bundle: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The save with former ids replaced by the current ones, and the renames it used.  A save
    of the current bundle (or a bundle without renames) comes back unchanged."""
    if data.get("bundle") == bundle.get("version"):
        return data, {}
    table = renames(bundle)
    if not table:
        return data, {}
    used: dict[str, str] = {}
    out = dict(data)
    for part in ("setup", "base", "actions", "state"):
        if part in out:
            out[part] = _convert(out[part], table, used)
    return (out, used) if used else (data, {})
