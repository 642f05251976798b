"""The save half of the game contract, written once over the registry: a genuine save always
resumes (setups normalize to a fixed point, readers never write into a state nor hand out its
parts), and a state is never trusted because a file holds it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import registry
from engine.core.errors import SetupError
from engine.core.game import Game
from pipeline.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.ids()


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return registry.get(request.param)(bundle_for(request.param, ROOT / "content"))


def _setups(game: Game) -> list[dict[str, Any]]:
    """One setup per value of every setup field (the others left to their defaults), per
    table size, plus the game's own examples."""
    low, high = game.seat_range()
    out: list[dict[str, Any]] = [{"players": n, "bots": b} for n in (low, high) for b in (0, n)]
    for f in game.fields():
        if f.kind == "choice":
            values: list[Any] = f.values()
        elif f.kind == "bool":
            values = [True, False, "oui", "non"]
        elif f.kind == "int":
            values = [v for v in (f.min, f.max, f.default) if v is not None]
        else:
            values = [f.default, "", "un texte libre"]
        for value in values:
            if f.per_seat:
                out.append({"players": high, "bots": high, "seats": None, f.name: value})
                out.append({"players": low, "bots": low, f.name: [value]})
            else:
                out.append({"players": low, "bots": 0, f.name: value})
    out.extend({"players": low, "bots": low, **e} for e in game.setup_examples)
    return [{k: v for k, v in s.items() if v is not None} for s in out]


def test_setup_normalization_is_a_fixed_point(game: Game):
    """``normalize(normalize(x)) == normalize(x)``, through JSON too (a save's setup is
    normalized again on every load): a genuine save's setup is never refused."""
    normalized = 0
    for setup in _setups(game):
        try:
            once = game.normalize_setup(copy.deepcopy(setup))
        except SetupError:
            continue  # a value that needs another field (the other sweeps reach it)
        normalized += 1
        again = game.normalize_setup(json.loads(json.dumps(once)))
        assert _canon(again) == _canon(once), f"{setup!r} normalizes to another setup again"
        assert _canon(game.normalize_setup(copy.deepcopy(again))) == _canon(once)
    assert normalized >= len(game.fields()) + 1, "the sweep normalized almost nothing"


def test_every_example_setup_is_a_valid_one(game: Game):
    for example in game.setup_examples:
        low = game.seat_range()[0]
        try:
            game.normalize_setup({"players": low, "bots": low, **example})
        except SetupError as exc:  # an example may be a wrong one: French, then
            assert str(exc) and not str(exc).startswith("Traceback")


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 100_000_000},
        {"players": 10**30, "bots": 10**30},
        {"bots": 100_000_000},
        {"players": 10**5000},
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"players": 3, "bots": -(10**5000)},
        {"seed": 10**5000},
        {"seed": [[[]]]},
    ],
    ids=lambda s: ",".join(
        f"{k}={str(v)[:12] if not isinstance(v, int) or abs(v) < 10**40 else 'huge'}"
        for k, v in s.items()
    ),
)
def test_a_setup_out_of_range_is_refused_before_anything_is_built(game: Game, setup):
    """A 4 KB save saying ``players: 100000000`` used to build every seat (5.9 GB)."""
    with pytest.raises(SetupError) as err:
        game.normalize_setup(setup)
    assert len(str(err.value)) < 300


def test_the_page_says_why_a_setup_is_refused(game: Game):
    from engine import web

    page = web.WebSession(game.id, json.dumps(game.bundle))
    for text in (
        json.dumps({"players": 100_000_000}),
        '{"players": 1' + "0" * 5000 + "}",
        "[" * 5000 + "]" * 5000,
        "{pas du JSON",
    ):
        answer = json.loads(page.start_json(text))
        assert answer.get("error"), text[:40]
        assert page.session.state is None
