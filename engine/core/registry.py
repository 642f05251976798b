"""The games the project knows, by id.  Everything outside a game's own package asks here.

A game is a subpackage of ``engine`` whose ``__init__`` exposes ``GAME`` (its ``Game``
subclass); the package name is the game id.  Discovery reads the engine's folder, so adding
``engine/<id>/`` is all it takes — in CPython and in Pyodide alike.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

from .errors import edit_distance
from .game import Game

_NOT_GAMES = {"core"}
_cache: dict[str, type[Game]] = {}
#: games registered from outside ``engine/`` for a while (``registered``): the test suite's
#: template game, which the contract suite runs beside the real ones
_guests: dict[str, type[Game]] = {}


class UnknownGame(KeyError):
    """No game has that id (the message lists the known ones, in French)."""

    def __str__(self) -> str:
        return str(self.args[0])


def _package_names() -> list[str]:
    import engine

    return sorted(
        {
            *(
                m.name
                for m in pkgutil.iter_modules(engine.__path__)
                if m.ispkg and m.name not in _NOT_GAMES
            ),
            *_guests,
        }
    )


def ids() -> list[str]:
    """Every registered game id, in a stable order (alphabetical by package name)."""
    return [g.id for g in games()]


def games() -> list[type[Game]]:
    out = []
    for name in _package_names():
        try:
            out.append(get(name))
        except UnknownGame:
            continue
    return out


def get(game_id: Any) -> type[Game]:
    """The ``Game`` class of ``game_id``; ``UnknownGame`` (French message) otherwise."""
    if not isinstance(game_id, str) or not game_id.isidentifier() or game_id in _NOT_GAMES:
        raise UnknownGame(_unknown(game_id))
    cls = _guests.get(game_id) or _cache.get(game_id)
    if cls is None:
        try:
            module = importlib.import_module(f"engine.{game_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.{game_id}":
                raise
            raise UnknownGame(_unknown(game_id)) from None
        cls = getattr(module, "GAME", None)
        if cls is None or not (isinstance(cls, type) and issubclass(cls, Game)):
            raise UnknownGame(_unknown(game_id))
        if cls.id != game_id:
            raise AssertionError(f"engine.{game_id}.GAME.id is {cls.id!r}")
        _cache[game_id] = cls
    return cls


def _unknown(game_id: Any) -> str:
    names = list(_package_names())
    word = str(game_id).lower()
    # the name closest in spelling, if a slip of two letters at most (no ``difflib``: the
    # site's pruned standard library has only what a game imports)
    near = sorted((edit_distance(word, n), n) for n in names)
    hint = f" Vouliez-vous dire « {near[0][1]} » ?" if near and near[0][0] <= 2 else ""
    return f"jeu inconnu « {game_id} » (jeux disponibles : {', '.join(names)}).{hint}"


@contextlib.contextmanager
def registered(*classes: type[Game]) -> Iterator[None]:
    """Register games that live outside ``engine/`` while the block runs (a template game in
    the test fixtures): they are listed and looked up exactly as the packages of ``engine/``
    are, then forgotten.  Each must be a ``Game`` with a fresh identifier as its id."""
    for cls in classes:
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise TypeError(f"not a game: {cls!r}")
        if not cls.id.isidentifier() or cls.id in _NOT_GAMES or cls.id in _package_names():
            raise ValueError(f"a game id must be a fresh identifier, not {cls.id!r}")
    _guests.update({cls.id: cls for cls in classes})
    try:
        yield
    finally:
        for cls in classes:
            _guests.pop(cls.id, None)
