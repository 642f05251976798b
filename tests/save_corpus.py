"""Crafted save files, built from one real save of a game: each differs from it in one way a
forger or a damaged disk would.  Shared by the CPython test (``tests/test_save_corpus.py``) and
the Chromium one (``tests/e2e/test_crafted_saves.py``).

``crafted(valid_text, other_game)`` returns ``[(name, text or bytes)]``; every one must be
refused with a French message and leave the game in progress untouched.  ``reencoded(valid_text)``
returns the same save as an editor may write it back (a byte-order mark, UTF-16): every one must
load as the save itself.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

Path = tuple[Any, ...]


def _paths(value: Any, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield at, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*at, i))


def _set(root: Any, at: Path, value: Any) -> None:
    for k in at[:-1]:
        root = root[k]
    root[at[-1]] = value


def first(state: Any, test: Callable[[Any], bool], stable: Any = None) -> Path | None:
    """The first path whose value passes ``test`` (and, given ``stable``, a state freshly
    started, where that path holds a value too: the parts of a state a game always has)."""
    for p, v in _paths(state):
        if p and test(v) and (stable is None or _has(stable, p)):
            return p
    return None


def _has(root: Any, at: Path) -> bool:
    for k in at:
        inside = (isinstance(root, dict) and k in root) or (
            isinstance(root, list) and isinstance(k, int) and k < len(root)
        )
        if inside:
            root = root[k]
        else:
            return False
    return root is not None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _state_edits(state: dict, stable: Any = None) -> dict[str, dict]:
    """Impossible states: a negative amount, the same card twice, a card that does not exist,
    a deck that is a string, a mapping that is a number, a prototype key."""
    out = {}

    def _first(state: Any, test: Callable[[Any], bool]) -> Path | None:
        return first(state, test, stable)

    p = _first(state, lambda v: _is_int(v) and v > 0)
    if p:
        s = copy.deepcopy(state)
        _set(s, p, -abs(_get(state, p)) - 5)
        out["negative-value"] = s
    p = _first(state, lambda v: isinstance(v, list) and v and isinstance(v[0], (str, int)))
    if p:
        s = copy.deepcopy(state)
        lst = _get(s, p)
        lst.append(lst[0])
        out["same-card-twice"] = s
    p = _first(state, lambda v: isinstance(v, list) and v and isinstance(v[0], str))
    if p:
        s = copy.deepcopy(state)
        _get(s, p)[0] = "carte-qui-n-existe-pas"
        out["unknown-id"] = s
    p = _first(state, lambda v: isinstance(v, list))
    if p:
        s = copy.deepcopy(state)
        _set(s, p, "deck")
        out["list-is-a-string"] = s
    p = _first(state, lambda v: isinstance(v, dict) and v)
    if p:
        s = copy.deepcopy(state)
        _set(s, p, 7)
        out["mapping-is-a-number"] = s
    s = copy.deepcopy(state)
    s["__proto__"] = {"polluted": "yes"}
    out["proto-in-state"] = s
    return out


def _get(root: Any, at: Path) -> Any:
    for k in at:
        root = root[k]
    return root


def crafted(
    valid_text: str, other_game: str, fresh: dict | None = None
) -> list[tuple[str, str | bytes]]:
    """``fresh``: the state the save's setup starts from (the edits of a first-format save,
    which has no log to replay, then touch the parts of a state every game has)."""
    valid = json.loads(valid_text)
    game = valid["game"]
    dump = json.dumps
    cases: list[tuple[str, str | bytes]] = []
    deep = "[" * 150 + "]" * 150  # deeper than any save, far from a stack overflow

    def edit(name: str, change: Callable[[dict], Any]) -> None:
        data = copy.deepcopy(valid)
        change(data)
        cases.append((name, dump(data)))

    # not JSON, or JSON extensions, or sizes and encodings no save has
    cases += [
        ("empty", ""),
        ("not-json", "{ceci n'est pas du JSON"),
        ("truncated", valid_text[: len(valid_text) // 2]),
        ("nan-literal", valid_text.replace('"format":', '"x":NaN,"format":', 1)),
        ("infinity-literal", valid_text.replace('"format":', '"x":Infinity,"format":', 1)),
        ("minus-infinity", valid_text.replace('"format":', '"x":-Infinity,"format":', 1)),
        ("overflowing-number", valid_text.replace('"format":', '"x":1e999,"format":', 1)),
        ("duplicate-key", valid_text.replace('"format":', '"game":"x","format":', 1)),
        ("top-level-array", "[" + valid_text + "]"),
        ("top-level-string", dump(valid_text)),
        ("null", "null"),
        ("deep", "[" * 100_000 + "]" * 100_000),
        ("deep-in-state", dump({**valid, "deep": "DEEP"}).replace('"DEEP"', deep, 1)),
        ("huge", '{"format":"gamebook-save","pad":"' + "A" * 21_000_000 + '"}'),
        (
            "latin-1",
            valid_text.replace('"format":', '"x":"é","format":', 1).encode("latin-1", "replace"),
        ),
        ("utf-16-without-mark", valid_text.encode("utf-16-le")),
        ("utf-32", valid_text.encode("utf-32")),
        ("lone-surrogate", valid_text.replace('"format":', '"x":"\\ud800","format":', 1)),
        ("comments", "// sauvegarde\n" + valid_text),
    ]
    assert all(text != valid_text for _, text in cases), "a crafted file equals the save"
    # the envelope
    edit("other-game", lambda d: d.update(game=other_game))
    edit("unknown-game", lambda d: d.update(game="jeu-inconnu"))
    edit("game-is-a-number", lambda d: d.update(game=3))
    edit("other-campaign", lambda d: d.update(campaign="ailleurs"))
    edit("future-version", lambda d: d.update(version=99))
    edit("version-is-a-string", lambda d: d.update(version="2"))
    edit("proto-at-top", lambda d: d.update({"__proto__": {"polluted": "yes"}}))
    edit("constructor-at-top", lambda d: d.update(constructor={"prototype": {"polluted": "yes"}}))
    edit("unknown-key", lambda d: d.update(surprise=1))
    edit("progress-is-a-list", lambda d: d.update(progress=["<img src=x onerror=alert(1)>"]))
    edit("names-are-numbers", lambda d: d.update(names=[1, 2]))
    # the setup
    edit("players-100-million", lambda d: d.update(setup={"seed": "x", "players": 100_000_000}))
    cases.append(
        (
            "players-5000-digits",
            dump({**valid, "setup": {"seed": "x", "players": 7}})
            .replace('"players":7', '"players":' + "9" * 5000, 1)
            .replace('"players": 7', '"players": ' + "9" * 5000, 1),
        )
    )
    edit("setup-is-a-string", lambda d: d.update(setup="partie"))
    edit("setup-missing", lambda d: d.pop("setup"))
    edit("seed-changed", lambda d: d["setup"].update(seed=str(d["setup"].get("seed")) + "x"))
    edit("seats-is-a-string", lambda d: d["setup"].update(seats="deux"))
    edit("no-seats", lambda d: d["setup"].update(seats=[]))
    edit("too-many-seats", lambda d: d["setup"].update(seats=d["setup"]["seats"] * 20))
    edit("proto-in-setup", lambda d: d["setup"].update({"__proto__": {"polluted": "yes"}}))
    # the action log
    edit("log-is-a-string", lambda d: d.update(actions="tout"))
    edit("log-missing", lambda d: d.pop("actions"))
    edit("log-entry-is-a-number", lambda d: d["actions"].append(5))
    edit("log-entry-without-seat", lambda d: d["actions"].append({"action": {}}))
    edit("log-seat-is-a-bool", lambda d: d["actions"].insert(0, {"seat": True, "action": {}}))
    edit("log-seat-negative", lambda d: d["actions"].insert(0, {"seat": -1, "action": {}}))
    edit("log-seat-too-high", lambda d: d["actions"].insert(0, {"seat": 99, "action": {}}))
    edit("log-action-is-a-string", lambda d: d["actions"].insert(0, {"seat": 0, "action": "x"}))
    edit("log-proto", lambda d: d["actions"].insert(0, {"seat": 0, "__proto__": {"x": 1}}))
    edit("log-sequel-too-early", lambda d: d["actions"].insert(0, {"sequel": True}))
    if valid["actions"]:
        edit("log-last-twice", lambda d: d["actions"].append(copy.deepcopy(d["actions"][-1])))
        edit("log-first-dropped", lambda d: d["actions"].pop(0))
    # the state reached, edited (the log no longer leads to it)
    for name, state in _state_edits(valid["state"]).items():
        edit(f"state-{name}", lambda d, s=state: d.update(state=s))
    edit("state-is-a-list", lambda d: d.update(state=[1, 2, 3]))
    edit("state-missing", lambda d: d.pop("state"))
    # a state to start from, forged: never trusted, whatever it holds
    for name, state in {"genuine": valid["state"], **_state_edits(valid["state"])}.items():
        edit(f"base-{name}", lambda d, s=state: d.update(base=s, actions=[], state=s))
        edit(
            f"base-{name}-version-2",
            lambda d, s=state: d.update(version=2, base=s, actions=[], state=s),
        )
        edit(
            f"base-{name}-from-a-start",
            lambda d, s=state: d.update(start="campaign:x", base=s, actions=[], state=s),
        )
    edit("start-without-base", lambda d: d.update(start="campaign:x"))
    for claimed in (2, 3, 0, -1):  # a base said to come from another format
        edit(
            f"base-migrated-from-{claimed}",
            lambda d, c=claimed: d.update(migrated_from=c, base=d["state"], actions=[]),
        )
    edit("start-is-a-number", lambda d: d.update(start=3, base=d["state"], actions=[]))
    # a first-format save (no log): the state is all there is, and it is impossible
    head = {"format": "gamebook-save", "version": 1, "game": game, "campaign": valid["campaign"]}
    for name, state in _state_edits(valid["state"], fresh).items():
        cases.append((f"v1-{name}", dump({**head, "state": state, "history": []})))
    cases.append(("v1-history-forged", dump({**head, "state": valid["state"], "history": [1]})))
    cases.append(("v1-genuine-state", dump({**head, "state": valid["state"], "history": []})))
    terminal = {"format_version": 1, "game": game, "campaign_id": valid["campaign"], "seed": "x"}
    cases.append(("v1-terminal-genuine-state", dump({**terminal, "state": valid["state"]})))
    cases.append(("v1-state-is-a-string", dump({**head, "state": "x", "history": []})))
    return cases


def reencoded(valid_text: str) -> list[tuple[str, bytes]]:
    """The genuine save as editors write it back: each must load as the save itself."""
    return [
        ("utf-8-with-mark", valid_text.encode("utf-8-sig")),
        ("utf-16-with-mark", valid_text.encode("utf-16")),
        ("utf-16-le-with-mark", b"\xff\xfe" + valid_text.encode("utf-16-le")),
        ("utf-16-be-with-mark", b"\xfe\xff" + valid_text.encode("utf-16-be")),
    ]
