"""Hostile actions against every registered game: whatever a page, a guest device or a save
sends, ``apply`` answers with the engine's own ``MalformedAction``/``IllegalAction`` (never a
RecursionError, a ValueError of ``repr`` or a TypeError), and accepts only what is, value for
value and type for type, a legal action (``1.0`` and ``True`` are not the integer ``1``).

``GAMEBOOK_FUZZ_EXAMPLES`` (default 150 per game) digs deeper."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import contract_games
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import registry
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.game import Game
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = contract_games.GAMES
REFUSED = (MalformedAction, IllegalAction)
EXAMPLES = int(os.environ.get("GAMEBOOK_FUZZ_EXAMPLES", "150"))


def _deep(n: int, leaf: Any, mapping: bool) -> Any:
    value = leaf
    for _ in range(n):
        value = {"type": value} if mapping else [value]
    return value


HUGE = 10**4999 + 7
HOSTILE: list[Any] = [
    _deep(5000, 1, False),
    _deep(5000, "x", True),
    _deep(5000, {"seat": 0}, False),
    HUGE,
    -HUGE,
    10**30,
    -1,
    float("nan"),
    float("inf"),
    -0.0,
    0.5,
    1e308,
    True,
    False,
    None,
    "\ud800",
    "\udfff" * 3,
    "x" * 100_000,
    "",
    [],
    {},
    [None],
    {"__proto__": {"x": 1}},
    ["\ud800"],
]


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return registry.get(request.param)(bundle_for(request.param, ROOT / "content"))


@pytest.fixture(scope="module")
def states(game: Game) -> list[dict]:
    low, high = game.seat_range()
    n = min(max(game.default_players, low), high)
    state = game.new_game(game.normalize_setup({"seed": "fuzz", "players": n, "bots": n}))
    out = [state]
    for i in range(3000):
        seats = game.to_act(state)
        if not seats:
            break
        bot = Rng({"rng": Rng.seed_from(f"fuzz:{i}")})
        state = game.apply(state, game.choose(state, seats[i % len(seats)], bot))
        if i % 7 == 0:
            out.append(state)
    return out[:: max(1, len(out) // 20)]


def _as_text(value: Any) -> str | None:
    """The action as JSON with its types (``1.0``, ``true`` and ``1`` differ), or ``None``."""
    try:
        return json.dumps(value, sort_keys=True, allow_nan=True)
    except (ValueError, TypeError, RecursionError):
        return None


def _lookalikes(value: Any) -> list[Any]:
    """Values equal to ``value`` in Python that are not the same JSON value."""
    if isinstance(value, bool):
        return [int(value), float(value)]
    if isinstance(value, int):
        out: list[Any] = [float(value)]
        if value in (0, 1):
            out.append(bool(value))
        return out
    if isinstance(value, list) and value:
        return [[*value[:-1], x] for x in _lookalikes(value[-1])]
    return []


@st.composite
def hostile_actions(draw, legal: list[Any]) -> Any:
    base = draw(st.sampled_from(legal)) if legal else {"type": "x", "seat": 0}
    hostile = st.sampled_from(HOSTILE) | st.integers() | st.floats() | st.text(max_size=8)
    kind = draw(st.integers(0, 3))
    if kind == 0 or not isinstance(base, dict) or not base:
        return draw(hostile)
    key = draw(st.sampled_from(sorted(base)))
    if kind == 1:
        return {**base, key: draw(hostile)}
    if kind == 2:
        alike = _lookalikes(base[key])
        return {**base, key: draw(st.sampled_from(alike))} if alike else {**base, key: None}
    return {**base, draw(st.sampled_from(["zz", "seat", "type", key])): draw(hostile)}


def test_hostile_actions_meet_only_the_engines_errors(game: Game, states: list[dict]):
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(data=st.data())
    def check(data) -> None:
        state = data.draw(st.sampled_from(states))
        seats = game.to_act(state) or [0]
        seat = data.draw(st.sampled_from(seats))
        legal = game.legal_actions(state, seat)
        action = data.draw(hostile_actions(legal))
        try:
            game.apply(state, action)
        except REFUSED as exc:
            assert len(str(exc)) < 2000, "an error message as long as the action"
            return
        except Exception as exc:  # the page would show a traceback
            raise AssertionError(
                f"{type(exc).__name__} from a hostile action: {exc}"[:500]
            ) from exc
        text = _as_text(action)
        legal_texts = {_as_text(game.canonical_action(a)) for a in legal}
        legal_texts |= {
            _as_text(a) for s in range(len(game.seat_names(state)) or 1)
            for a in game.legal_actions(state, s)
        }  # fmt: skip
        canonical = _as_text(game.canonical_action(action))
        assert text in legal_texts or canonical in legal_texts, (
            f"accepted an action that is not a legal one: {(text or '?')[:300]}"
        )

    check()


def test_nan_is_never_a_legal_value(game: Game, states: list[dict]):
    for state in states:
        for seat in game.to_act(state):
            for a in game.legal_actions(state, seat):
                text = json.dumps(a)
                assert "NaN" not in text and not any(
                    isinstance(v, float) and math.isnan(v)
                    for v in (a.values() if isinstance(a, dict) else [])
                )


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        '{"type": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"type": "x", "seat": 1' + "0" * 5000 + "}",
        '{"type": "x", "seat": 1.0}',
        '{"type": "x", "seat": true}',
        '{"type": "\\ud800", "seat": 0}',
        '{"type": NaN}',
        "pas du JSON",
        '"' + "x" * 200_000 + '"',
    ],
    ids=lambda t: t[:24],
)
def test_the_page_refuses_a_hostile_action_with_a_message(game: Game, text: str):
    """What a guest device or a page sends reaches ``act_json`` as text: refused with the
    engine's message, the game untouched."""
    from engine import web

    page = web.WebSession(game.id, json.dumps(game.bundle))
    low = game.seat_range()[0]
    page.start_json(json.dumps({"seed": "page", "players": low, "bots": low - 1}))
    before = page.save_json()
    answer = json.loads(page.act_json(text))
    assert answer["error"].startswith("Action refusée"), answer["error"][:200]
    assert len(answer["error"]) < 2000
    assert page.save_json() == before
