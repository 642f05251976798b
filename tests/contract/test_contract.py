"""The game contract, written once and run for every registered game (``engine.core.registry``).

A game is tested the day it is registered, with no test written for it: whole bot games end,
``apply`` never mutates and refuses anything that is not legal with the engine's own error,
states survive JSON, the same seed gives the same game, a seat's view and a seat's bot never
depend on another seat's secrets, and every screen offers every legal action exactly once.
(The Pyodide half of the contract — the same states in the browser's Python — is
``tests/test_pyodide.py``, which also iterates the registry.)
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import contract_games
import pytest

from engine.core import playout, registry
from engine.core import widgets as W
from engine.core.errors import IllegalAction, MalformedAction, SetupError
from engine.core.game import TURN_KINDS, Game
from engine.core.rng import Rng
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = contract_games.GAMES
#: a whole bot game (a legacy game's first game) must end within this many actions
MAX_ACTIONS = 20_000
SAMPLE_SEEDS = ("c1", "c2", "c3")
REFUSED = (MalformedAction, IllegalAction)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return registry.get(request.param)(bundle_for(request.param, ROOT / "content"))


def _play(game: Game, seed: str, players: int, every: int = 1, limit: int = MAX_ACTIONS):
    """A whole bot game; the states along the way (every ``every``-th) and the actions."""
    setup = game.normalize_setup({"seed": seed, "players": players, "bots": players})
    state = game.new_game(setup)
    states, actions = [state], []
    pick = Rng({"rng": Rng.seed_from(f"{seed}:pick")})

    def drawn_seat(game: Game, state: dict, seats: list[int], i: int) -> int:
        return seats[pick.below(len(seats))]

    def policy(game: Game, state: dict, seat: int, i: int) -> Any:
        if pick.below(5) == 0:  # now and then a move the bots would not make
            legal = game.legal_actions(state, seat)
            return legal[pick.below(len(legal))]
        bot = Rng({"rng": Rng.seed_from(f"{seed}:bot:{i}")})
        return game.choose(state, seat, bot, setup["seats"][seat].get("persona"))

    for move in playout.play(game, state, policy, seat=drawn_seat, limit=limit):
        state = move.after
        actions.append(move.action)
        if move.index % every == 0:
            states.append(state)
    return setup, state, states, actions


def _player_counts(game: Game) -> list[int]:
    low, high = game.seat_range()
    return sorted({low, min(max(game.default_players, low), high), high})


@pytest.fixture(scope="module")
def sampled(game: Game) -> list[dict]:
    """States from seeded bot games of every table size, a few dozen per game."""
    out = []
    for n in _player_counts(game):
        for seed in SAMPLE_SEEDS:
            _, _, states, _ = _play(game, f"{seed}:{n}", n)
            step = max(1, len(states) // 12)
            out.extend(states[::step])
    return out


def _waiting(game: Game, state: dict) -> list[int]:
    seats = game.to_act(state)
    return seats[:1] if seats and game.turn_kind(state) == "collective" else seats


def _some(seats: list[int], k: int = 4) -> list[int]:
    """At most ``k`` of ``seats``, spread from the first to the last: a sixteen-seat table is
    judged on a few seats per state, the others being alike (it keeps the suite's time flat)."""
    if len(seats) <= k:
        return list(seats)
    return [seats[round(i * (len(seats) - 1) / (k - 1))] for i in range(k)]


# --------------------------------------------------------------------------- declaration


def test_the_game_declares_itself(game: Game):
    info = game.info()
    json.dumps(info)
    assert info["id"] == type(game).__module__.split(".")[1]
    assert info["title"] and info["pitch"]
    low, high = game.players
    assert 1 <= low <= game.default_players <= high
    for f in game.fields():
        json.dumps(f.to_json())
        assert f.label, f.name


def test_a_bad_setup_is_refused_in_french(game: Game):
    _, high = game.seat_range()
    with pytest.raises(SetupError) as err:
        game.normalize_setup({"players": high + 1, "bots": high + 1})
    assert str(err.value) and "players" not in str(err.value)
    with pytest.raises(SetupError):
        game.normalize_setup({"seats": "tout le monde"})


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("seed", ["a", "b"])
def test_whole_bot_games_end_for_every_table_size(game: Game, seed: str):
    for n in _player_counts(game):
        _, state, _, actions = _play(game, f"end:{seed}:{n}", n, every=10**9)
        assert not game.to_act(state), f"{n} seats: still playing after {len(actions)} actions"
        outcome = game.outcome(state)
        assert outcome is not None and outcome.summary
        json.dumps(outcome.to_json())
        for r in outcome.ranking:
            assert {"rank", "name", "score"} <= set(r)


def test_same_seed_same_game_and_another_seed_another(game: Game):
    n = _player_counts(game)[0]
    _, _, first, _ = _play(game, "det", n)
    _, _, again, _ = _play(game, "det", n)
    _, _, other, _ = _play(game, "det-autre", n)
    assert [_canon(s) for s in first] == [_canon(s) for s in again]
    assert [_canon(s) for s in first] != [_canon(s) for s in other]


def test_every_log_entry_reads_in_french(game: Game, sampled: list[dict]):
    entries = {_canon(e): e for s in sampled for e in s.get("log", [])}
    assert entries, "the games logged nothing"
    for e in entries.values():
        line = game.render_log(e)
        assert isinstance(line, str) and line.strip(), e
        assert line != e.get("key"), f"no French text for {e.get('key')!r}"


# --------------------------------------------------------------------------- states and apply


def test_states_survive_json_and_apply_never_mutates(game: Game, sampled: list[dict]):
    for state in sampled:
        assert json.loads(json.dumps(state)) == state
        for seat in _some(_waiting(game, state)):
            for action in game.legal_actions(state, seat)[:6]:
                before = copy.deepcopy(state)
                after = game.apply(state, action)
                assert state == before, f"apply mutated its input ({action!r})"
                again = game.apply(json.loads(json.dumps(state)), action)
                assert _canon(after) == _canon(again)


def test_every_legal_action_is_accepted(game: Game, sampled: list[dict]):
    for state in sampled:
        for seat in _waiting(game, state):
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            if seat not in _some(_waiting(game, state)):
                continue
            for action in legal[:40]:
                game.apply(state, action)
                assert game.describe(state, action, seat).strip()


def _mangled(action: dict) -> list[Any]:
    """Actions that differ from a legal one by a field: missing, extra, of the wrong type,
    unhashable."""
    out: list[Any] = [
        None,
        3,
        "jouer",
        [action],
        {},
        {"type": ["pas", "un", "texte"]},
        {"type": {"a": 1}},
        {**action, "zz_extra": 1},
    ]
    for key, value in action.items():
        out.append({k: v for k, v in action.items() if k != key})
        out.append({**action, key: [value]})
        out.append({**action, key: {"x": value}})
        out.append({**action, key: None})
        out.append({**action, key: 10**12 if not isinstance(value, int) else "1"})
        if isinstance(value, int) and not isinstance(value, bool):
            out.append({**action, key: value + 97})
            out.append({**action, key: -1})
            out.append({**action, key: True})
    return out


def test_anything_not_legal_is_refused_with_the_engines_own_error(game: Game, sampled):
    previous: list[Any] = []
    for state in sampled[:: max(1, len(sampled) // 25)]:
        n = len(state.get("seats", [])) or 1
        legal_by_seat = {seat: game.legal_actions(state, seat) for seat in range(n)}

        def is_legal(action: Any, legal_by_seat: dict = legal_by_seat) -> bool:
            seat = action.get("seat") if isinstance(action, dict) else None
            if isinstance(seat, int) and not isinstance(seat, bool) and seat in legal_by_seat:
                return action in legal_by_seat[seat]  # legal for the seat it names
            return any(action in legal for legal in legal_by_seat.values())

        for seat in _waiting(game, state):
            for action in game.legal_actions(state, seat)[:3]:
                candidates = _mangled(action) if isinstance(action, dict) else [None, {}]
                if isinstance(action, dict) and "seat" in action:
                    others = [s for s in range(len(state["seats"])) if s != action["seat"]]
                    candidates += [{**action, "seat": s} for s in others]
                for bad in candidates + previous:
                    if is_legal(bad):
                        continue
                    try:
                        game.apply(state, bad)
                    except REFUSED:
                        continue
                    except Exception as exc:  # a TypeError/KeyError is a bug: say which
                        pytest.fail(f"{bad!r} raised {type(exc).__name__}: {exc}")
                    pytest.fail(f"{bad!r} was accepted although it is not legal")
        previous = [a for seat in _waiting(game, state) for a in game.legal_actions(state, seat)]
        previous = previous[:10]  # stale actions of the previous sampled state


# --------------------------------------------------------------------------- secrets


def test_views_hold_no_other_seats_secrets(game: Game, sampled: list[dict]):
    rng = Rng({"rng": Rng.seed_from("scramble")})
    changed = 0
    for state in sampled:
        n = len(game.seat_names(state)) or 1
        for owner in [None, *_some(list(range(n)), 5)]:
            other = game.scramble(state, owner, rng)
            if _canon(other) != _canon(state):
                changed += 1
            for viewer in [None, *range(n)]:
                if viewer == owner and owner is not None:
                    continue
                view = game.view(state, viewer)
                assert "rng" not in view
                assert _canon(view) == _canon(game.view(other, viewer)), (
                    f"seat {viewer}'s view changes with secrets of "
                    f"{'nobody' if owner is None else f'seat {owner}'}"
                )
    if game.hidden_information:
        assert changed, "scramble never changed a secret: this test would prove nothing"


def test_bots_decide_from_their_seats_view_only(game: Game, sampled: list[dict]):
    rng = Rng({"rng": Rng.seed_from("blind")})
    for state in sampled:
        n = len(game.seat_names(state)) or 1
        for seat in _some(_waiting(game, state)):
            for owner in [None, *_some([s for s in range(n) if s != seat])]:
                other = game.scramble(state, owner, rng)
                a = game.choose(state, seat, Rng({"rng": 7}))
                b = game.choose(other, seat, Rng({"rng": 7}))
                assert a == b, f"seat {seat}'s bot changed its mind with another seat's secrets"


# --------------------------------------------------------------------------- screens


def test_every_screen_offers_every_legal_action_exactly_once(game: Game, sampled: list[dict]):
    for state in sampled:
        seats = _waiting(game, state)
        if seats:
            assert game.turn_kind(state) in TURN_KINDS
        if seats and game.turn_kind(state) == "public":
            actions = [a for s in seats for a in game.legal_actions(state, s)]
            viewers: list[int | None] = [None]
        else:
            viewers = list(seats) or [None]
            actions = []
        for viewer in viewers:
            offered = actions if viewer is None else game.legal_actions(state, viewer)
            scr = game.screen(state, viewer, offered)
            W.validate(scr)
            assert scr["status"].strip()
            json.dumps(scr)
            got = sorted(c["index"] for g in scr["groups"] for c in g["choices"])
            assert got == list(range(len(offered))), "an action is missing or offered twice"


def test_a_session_with_a_human_saves_and_resumes_the_same_game(game: Game):
    session = Session(game).start(
        {"seed": "contrat", "players": game.default_players, "bots": game.default_players - 1}
    )
    pick = Rng({"rng": Rng.seed_from("human")})
    for _ in range(25):
        scr = session.screen()
        if scr["handoff"]:
            session.handed_over()
            continue
        choices = [c for g in scr["groups"] for c in g["choices"]]
        if scr["over"] or not choices:
            break
        session.act(choices[pick.below(len(choices))]["action"])
    again = Session(game)
    again.load(session.save_text())
    assert _canon(again.state) == _canon(session.state)
    assert again.screen()["groups"] == session.screen()["groups"]


def test_the_engine_never_writes_into_the_bundle_it_is_given(game: Game):
    before = _canon(game.bundle)
    n = _player_counts(game)[-1]
    _play(game, "lecture-seule", n)
    game.screen(game.new_game(game.normalize_setup({"players": n, "bots": n})), None, [])
    assert _canon(game.bundle) == before


# --------------------------------------------------------------------------- chapters


def test_a_chapter_entered_in_play_is_a_place_a_simulation_may_begin(game: Game):
    """``Game.chapter``: ``None`` or a story node (``kind:key``), the same through JSON.  The
    state in which play enters a new chapter — through JSON and with the secrets no seat knows
    dealt anew, as ``gamebook simulate`` begins a run there — plays on to the end with bots."""
    n = min(max(game.default_players, game.seat_range()[0]), game.seat_range()[1])
    _, _, states, _ = _play(game, "chapter", n)
    entries = []
    for before, after in itertools.pairwise(states):
        chapter = game.chapter(after)
        assert chapter is None or (isinstance(chapter, str) and ":" in chapter)
        assert chapter == game.chapter(json.loads(json.dumps(after)))
        if chapter is not None and chapter != game.chapter(before):
            entries.append(after)
    if not entries:
        assert all(game.chapter(s) is None for s in states), "a game with one chapter only"
        return
    state = game.scramble(json.loads(json.dumps(entries[-1])), None, Rng({"rng": 7}))
    for i in range(MAX_ACTIONS):
        seats = game.to_act(state)
        if not seats:
            break
        bot = Rng({"rng": Rng.seed_from(f"chapter:{i}")})
        state = game.apply(state, game.choose(state, seats[0], bot, None))
    assert not game.to_act(state) and game.outcome(state) is not None
