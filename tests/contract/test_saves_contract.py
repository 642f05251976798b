"""The save half of the game contract, written once over the registry: a genuine save always
resumes (setups normalize to a fixed point, readers never write into a state nor hand out its
parts), and a state is never trusted because a file holds it."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import contract_games
import pytest

from engine.core import registry
from engine.core.errors import SetupError
from engine.core.game import Game
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = contract_games.GAMES


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


# --------------------------------------------------------------------------- readers


def _played_states(game: Game, seed: str = "lecteurs", per_game: int = 14) -> list[dict]:
    """States along seeded bot games, the default table and the largest one."""
    from engine.core.rng import Rng

    low, high = game.seat_range()
    out: list[dict] = []
    for n in sorted({min(max(game.default_players, low), high), high}):
        setup = game.normalize_setup({"seed": f"{seed}:{n}", "players": n, "bots": n})
        state = game.new_game(setup)
        states = [state]
        for i in range(20_000):
            seats = game.to_act(state)
            if not seats:
                break
            bot = Rng({"rng": Rng.seed_from(f"{seed}:{i}")})
            state = game.apply(state, game.choose(state, seats[i % len(seats)], bot))
            states.append(state)
        step = max(1, len(states) // per_game)
        out.extend(states[::step])
        out.append(states[-1])
    return out


def _vandalize(value: Any, seen: set[int] | None = None) -> None:
    """Write into every mapping and list of ``value``, to the bottom."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for k in list(value):
            _vandalize(value[k], seen)
            value[k] = "tagué"
        value["zz_tag"] = ["tagué"]
    elif isinstance(value, list):
        for item in value:
            _vandalize(item, seen)
        value.append("tagué")
        value.reverse()


def test_readers_never_write_into_the_state_nor_hand_out_its_parts(game: Game):
    """``legal_actions``, ``view``, ``screen``, ``describe``, a bot's choice: the state is the
    same before and after each, and after everything each returned has been written into (a
    view that hands out the state's own list lets a page change the game)."""
    from engine.core.rng import Rng

    for state in _played_states(game):
        before = _canon(state)
        n = len(game.seat_names(state)) or 1
        for seat in [None, *range(n)][:6]:
            if seat is not None:
                actions = game.legal_actions(state, seat)
                assert _canon(state) == before, f"legal_actions({seat}) wrote into the state"
                for action in actions[:8]:
                    game.describe(state, action, seat)
                    assert _canon(state) == before, f"describe({action!r}) wrote into the state"
                if seat in game.to_act(state) and actions:
                    game.choose(state, seat, Rng({"rng": 5}))
                    assert _canon(state) == before, f"seat {seat}'s bot wrote into the state"
                    with contextlib.suppress(NotImplementedError):  # decided in ``choose``
                        game.decide(game.view(state, seat), actions, Rng({"rng": 5}), None)
                    assert _canon(state) == before, f"seat {seat}'s bot wrote into the state"
                _vandalize(actions)
                assert _canon(state) == before, "legal_actions hands out the state's parts"
            view = game.view(state, seat)
            assert _canon(state) == before, f"view({seat}) wrote into the state"
            _vandalize(view)
            assert _canon(state) == before, f"view({seat}) hands out the state's own parts"
            waiting = game.to_act(state)
            if (seat is None) != (not waiting) or (seat is not None and seat not in waiting):
                continue  # a screen is drawn for a seat that acts, or at the end for all
            offered = game.legal_actions(state, seat) if seat is not None else []
            scr = game.screen(state, seat, offered)
            assert _canon(state) == before, f"screen({seat}) wrote into the state"
            _vandalize(scr)
            assert _canon(state) == before, f"screen({seat}) hands out the state's own parts"


def test_an_action_equal_to_a_legal_one_in_another_order_is_the_same_action(game: Game):
    """Legal actions are in the game's canonical form; a list whose order carries no meaning
    (``canonical_action`` sorts it) given in another order is accepted as the legal one, by
    ``apply`` and by the session."""
    reordered = 0
    for state in _played_states(game, "ordre", 300):
        for seat in game.to_act(state)[:4]:
            for action in game.legal_actions(state, seat)[:12]:
                assert _canon(game.canonical_action(copy.deepcopy(action))) == _canon(action)
                if not isinstance(action, dict):
                    continue
                for key, value in action.items():
                    if not (isinstance(value, list) and len(set(map(_canon, value))) > 1):
                        continue
                    other = {**action, key: value[::-1]}
                    if _canon(game.canonical_action(other)) != _canon(action):
                        continue  # an order that means something
                    reordered += 1
                    assert _canon(game.apply(state, other)) == _canon(game.apply(state, action))
    if reordered == 0:
        pytest.skip(f"{game.id}: no legal action holds a list whose order is meaningless")


# --------------------------------------------------------------------------- secrets


def test_legal_actions_reveal_nothing_a_view_hides(game: Game):
    """A seat's legal actions are the same whatever another seat's secrets (its hand, its
    objective, its Pouvoir and coins behind a screen) and whatever no one knows (a deck's
    order): an offer list that depends on them shows the seat what its view hides."""
    from engine.core.rng import Rng

    rng = Rng({"rng": Rng.seed_from("secrets")})
    changed = 0
    for state in _played_states(game, "secrets", 20):
        n = len(game.seat_names(state)) or 1
        for owner in [None, *range(min(n, 6))]:
            other = game.scramble(state, owner, rng)
            if _canon(other) != _canon(state):
                changed += 1
            for seat in range(min(n, 6)):
                if seat == owner:
                    continue
                assert _canon(game.legal_actions(state, seat)) == _canon(
                    game.legal_actions(other, seat)
                ), (
                    f"seat {seat}'s legal actions change with the secrets of "
                    f"{'nobody' if owner is None else f'seat {owner}'}"
                )
    if game.hidden_information:
        assert changed, "scramble never changed a secret: this test would prove nothing"


@pytest.mark.parametrize("seat", [-1, -2, True, 1.0, "0", 10**30])
def test_a_seat_out_of_range_is_refused_by_every_reader(game: Game, seat):
    """``view(state, -1)`` read the last seat's hand (Python counts from the end)."""
    from engine.core.errors import SeatError

    low = game.seat_range()[0]
    state = game.new_game(game.normalize_setup({"players": low, "bots": low}))
    for bad in (seat, len(game.seat_names(state)) if seat == 10**30 else seat):
        with pytest.raises(SeatError):
            game.view(state, bad)
        with pytest.raises(SeatError):
            game.legal_actions(state, bad)
        with pytest.raises(SeatError):
            game.screen(state, bad, [])


def test_check_state_accepts_every_state_the_engine_makes(game: Game):
    """``check_state`` counts what the rules conserve; it never refuses a genuine state."""
    for state in _played_states(game, "invariants", 30):
        game.check_state(state)
        game.check_state(json.loads(json.dumps(state)))
