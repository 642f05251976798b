"""The one save format, shared by the terminal and the browser.

A save holds the game id, the content bundle's campaign and version, the setup (seed
included), the action log, and the state reached — so it can be replayed and checked::

    {"format": "gamebook-save", "version": 2, "game": "<id>", "campaign": "<id>",
     "bundle": "3f2a9c…", "setup": {...}, "start": null, "base": null,
     "actions": [{"seat": 0, "action":
     {...}}, {"sequel": true}, ...], "state": {...}, "progress": "manche 3", "names": [...]}

``base`` is the state the log starts from when it does not start from the setup: the state
``Game.start_from(start, setup)`` gives (``start``: the story node a writer began at).  It is
never trusted: loading rebuilds it from ``start`` and the setup and compares.  A first-format
save (no log) is loaded only by a game whose ``min_save_version`` allows it.

History of ``SAVE_VERSION``:
  1 — the browser kept the state and three undo states; the terminal the state and the seed.
  2 — setup, seed and action log, replayed and compared with the state on every load.
  3 — ``start``: the node a start-anywhere game began at, so that its ``base`` is rebuilt.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from typing import Any

SAVE_FORMAT = "gamebook-save"
SAVE_VERSION = 3
MIN_SAVE_VERSION = 1
#: versions whose files hold the fields of ``FIELDS`` (``start`` came with version 3)
LOGGED_VERSIONS = (2, 3)
MAX_SAVE_BYTES = 20_000_000
# Real saves nest about ten deep. Python's json recursion in Pyodide overflows the browser's
# own stack (a fatal error, not a RecursionError) between 5,000 and 10,000 levels.
MAX_SAVE_DEPTH = 100
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


#: what a player reads for a file that is no save at all
NOT_A_SAVE = (
    "Ce fichier n'est pas une sauvegarde de partie : choisissez un fichier enregistré par "
    "« Exporter la sauvegarde »."
)


class SaveError(ValueError):
    """A save the session refuses; the message is French, shown to the player as is."""


def nesting(text: str) -> int:
    """How deep the JSON text's arrays and objects nest (brackets inside strings ignored)."""
    depth = deepest = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"JSON extension {name} is not allowed")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def parse(text: Any) -> dict[str, Any]:
    """Parse a save file's text, strictly: plain JSON only (no NaN, no Infinity, no duplicate
    keys), bounded size and depth.  Raises ``SaveError``."""
    if isinstance(text, bytes):
        text = decode(text)
    if not isinstance(text, str) or len(text) > MAX_SAVE_BYTES:
        raise SaveError("Ce fichier est trop volumineux pour être une sauvegarde.")
    text = text.removeprefix("\ufeff")
    try:
        if nesting(text) > MAX_SAVE_DEPTH:
            raise ValueError("nested too deep")
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_pairs)
    except (ValueError, RecursionError) as exc:
        raise SaveError("Ce fichier n'est pas une sauvegarde lisible (JSON invalide).") from exc
    _finite(data)
    if not isinstance(data, dict):
        raise SaveError(NOT_A_SAVE)
    return data


def decode(data: bytes) -> str:
    """A save file's bytes as text: UTF-8, or what an editor re-encoded it to with a
    byte-order mark (UTF-8's, UTF-16's as Windows tools write).  Raises ``SaveError``."""
    if len(data) > 2 * MAX_SAVE_BYTES + 4:
        raise SaveError("Ce fichier est trop volumineux pour être une sauvegarde.")
    encoding = "utf-8"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"  # the mark says which byte order
    try:
        return data.decode(encoding).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise SaveError("Ce fichier n'est pas une sauvegarde lisible (pas en UTF-8).") from exc


def _finite(value: Any) -> None:
    """Refuse floats that are not finite (``1e999`` parses to infinity)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            raise SaveError("Ce fichier n'est pas une sauvegarde lisible (nombre invalide).")
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


#: keys a JavaScript reader of the file would take for its object machinery: no save has them
FORBIDDEN_KEYS = frozenset({"__proto__", "constructor", "prototype"})
#: the fields of a save of ``SAVE_VERSION`` and their JSON types (``None``: null allowed)
FIELDS: dict[str, tuple[type | None, ...]] = {
    "format": (str,),
    "version": (int,),
    "game": (str,),
    "campaign": (str, None),
    "bundle": (str, None),
    "setup": (dict, None),
    "start": (str, None),
    "base": (dict, None),
    "actions": (list,),
    "state": (dict,),
    "progress": (str,),
    "names": (list,),
    "migrated_from": (int,),
    "seed": (str, int, None),
}
REQUIRED = ("format", "version", "game", "actions", "state")


def _is(value: Any, types: tuple[type | None, ...]) -> bool:
    if value is None:
        return None in types
    if isinstance(value, bool):
        return bool in types
    return any(t is not None and isinstance(value, t) for t in types)


def check_keys(data: Any) -> None:
    """Refuse what no save holds at any depth: a key of ``FORBIDDEN_KEYS`` and text that is not
    Unicode (a lone surrogate written as ``\\ud800``)."""
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                if k in FORBIDDEN_KEYS:
                    raise SaveError(
                        "Cette sauvegarde est endommagée : elle contient une clé interdite "
                        f"(« {k} »)."
                    )
                _text(k)
                stack.append(x)
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            _text(v)


def _text(value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SaveError("Ce fichier n'est pas une sauvegarde lisible (texte invalide).") from exc


def check_schema(data: dict[str, Any]) -> None:
    """A save of ``SAVE_VERSION`` has exactly the fields of ``FIELDS``, of their types, and a log
    of entries ``{"seat": n, "action": …}`` or ``{"sequel": true}``."""
    unknown = sorted(k for k in data if k not in FIELDS)
    if unknown:
        raise SaveError(
            "Cette sauvegarde contient des champs inconnus (« "
            + "», « ".join(k[:40] for k in unknown[:3])
            + " ») : elle n'a pas été écrite par gamebook."
        )
    for key in REQUIRED:
        if key not in data:
            raise SaveError("Cette sauvegarde est incomplète.")
    for key, value in data.items():
        if not _is(value, FIELDS[key]):
            raise SaveError(f"Cette sauvegarde est endommagée (champ « {key} » invalide).")
    if not all(isinstance(n, str) for n in data.get("names") or []):
        raise SaveError("Cette sauvegarde est endommagée (champ « names » invalide).")
    for entry in data["actions"]:
        ok = isinstance(entry, dict) and (
            entry == {"sequel": True}
            or (
                set(entry) == {"seat", "action"}
                and _is(entry["seat"], (int,))
                and entry["seat"] >= 0
            )
        )
        if not ok:
            raise SaveError("Cette sauvegarde est incomplète (historique illisible).")


def same_shape(fresh: Any, saved: Any, where: str = "état") -> None:
    """Raise ``ValueError`` when ``saved`` has, where a freshly started game has a mapping, a
    list, a number or a text, a value of another kind (a deck that is a string).  Only keys
    both have are compared; ``null`` matches anything (an empty slot)."""
    stack = [(fresh, saved, where)]
    while stack:
        a, b, at = stack.pop()
        if a is None or b is None:
            continue
        kinds = [
            "bool" if isinstance(x, bool)
            else "number" if isinstance(x, (int, float))
            else type(x).__name__
            for x in (a, b)
        ]  # fmt: skip
        if kinds[0] != kinds[1]:
            raise ValueError(f"{at}: {kinds[1]} where a game has {kinds[0]}")
        if isinstance(a, dict):
            stack.extend((a[k], b[k], f"{at}.{k}") for k in a if k in b)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode


class IncrementalDumps:
    """``dumps`` of the same game's save again and again, as the game goes on (the browser's
    autosave writes it after every move): the long lists of the save and of its state (the
    action log, the journal) keep the text of the items they already held, so each call only
    encodes what is new.  The text is exactly ``dumps(save)``.

    An item is known by identity: a state is never modified once a move made it (``apply``
    copies), and a list's items that are the same objects as last time are the same values.
    The new items of a call are encoded together, in one call of the encoder (a move after
    which the bots play a game to its end adds hundreds of items: one call each cost more than
    encoding the whole save), and kept as one run of text.
    """

    #: lists shorter than this are encoded whole (nothing to gain)
    LONG = 16

    def __init__(self) -> None:
        # per list: its items last time, and the runs of text that encode them, each with
        # the number of items encoded up to its end
        self._lists: dict[tuple[str, ...], tuple[list[Any], list[tuple[int, str]]]] = {}

    def __call__(self, save: dict[str, Any]) -> str:
        return self._dict(save, ())

    def _dict(self, value: dict[str, Any], path: tuple[str, ...]) -> str:
        """The dict's text: encoded in one call, its long lists (and, near the top, its dicts)
        put in afterwards where a unique mark stood."""
        holes: dict[str, str] = {}
        if all(isinstance(k, str) for k in value):
            for key, item in value.items():
                if isinstance(item, list) and len(item) >= self.LONG:
                    holes[key] = self._list(item, (*path, key))
                elif isinstance(item, dict) and len(path) < 2:  # the save, its state, a part
                    holes[key] = self._dict(item, (*path, key))
        if not holes:
            return _encode(value)
        marks = {key: f"\x00gamebook-part-{i}\x00" for i, key in enumerate(holes)}
        text = _encode({**value, **marks})
        for key, mark in marks.items():
            spot = _encode(mark)
            if text.count(spot) != 1:  # the mark written in the game itself: no shortcut
                return dumps(value)
            text = text.replace(spot, holes[key])
        return text

    def _list(self, value: list[Any], path: tuple[str, ...]) -> str:
        items, runs = self._lists.get(path, ([], []))
        same, limit = 0, min(len(items), len(value))
        while same < limit and items[same] is value[same]:
            same += 1
        while runs and runs[-1][0] > same:  # a run that holds an item changed or dropped
            runs.pop()
        kept = runs[-1][0] if runs else 0
        if kept < len(value):  # the items after the runs kept, encoded in one call
            runs.append((len(value), _encode(value[kept:])[1:-1]))
        self._lists[path] = (list(value), runs)
        return "[" + ",".join(text for _, text in runs) + "]"


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a save of an older version to ``SAVE_VERSION`` (one step a version)."""
    if data.get("format") == SAVE_FORMAT and data.get("version") == SAVE_VERSION:
        return data
    if data.get("format") == SAVE_FORMAT and data.get("version") == 2:
        # the same fields, without ``start``: a base it holds cannot be rebuilt (refused)
        return {**data, "version": SAVE_VERSION, "start": data.get("start")}
    if data.get("format") == SAVE_FORMAT and data.get("version") == 1:
        # the browser's first format: the state, no log, and up to three earlier states (for
        # undo) that are dropped — but a history that is not states of this game is a sign of
        # a forged file
        history = data.get("history", [])
        if not isinstance(history, list) or not all(
            isinstance(h, dict) and h.get("game") == data.get("game") for h in history
        ):
            raise SaveError("Cette sauvegarde est endommagée.")
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": data.get("game"),
            "campaign": data.get("campaign"),
            "bundle": None,
            "setup": None,
            "base": data.get("state"),
            "actions": [],
            "state": data.get("state"),
            "migrated_from": 1,
        }
    if "format" not in data and data.get("format_version") == 1 and "state" in data:
        # the terminal's first format: {"format_version": 1, "game", "campaign_id", "seed"}
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": data.get("game"),
            "campaign": data.get("campaign_id"),
            "bundle": None,
            "setup": None,
            "seed": data.get("seed"),
            "base": data.get("state"),
            "actions": [],
            "state": data.get("state"),
            "migrated_from": 1,
        }
    version = data.get("version")
    if data.get("format") == SAVE_FORMAT and isinstance(version, int) and version > SAVE_VERSION:
        raise SaveError(
            "Cette sauvegarde vient d'une version plus récente du site : mettez le site "
            "(ou le programme) à jour pour la reprendre."
        )
    raise SaveError(NOT_A_SAVE)


def looks_like_save(data: Any) -> bool:
    """Whether ``data`` is a save of any version (a file that is not is never overwritten)."""
    if not isinstance(data, dict):
        return False
    return data.get("format") == SAVE_FORMAT or (
        "format" not in data and data.get("format_version") == 1 and "state" in data
    )
