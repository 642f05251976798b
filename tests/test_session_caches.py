"""What the session keeps from one screen to the next (``engine.core.session``), for every
registered game, played the way the play page plays it (one human, bots, a choice picked at
random, undo now and then, the campaign's next game or a new game at the end):

- the autosave's text, written item by item (``IncrementalDumps``), is exactly ``dumps`` of the
  save, after moves, undos, new games and a reload;
- a journal line rendered once is the line of its own entry: never the line of an entry dropped
  earlier whose ``id`` the new one happens to get (a bug that showed wrong journal lines).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from engine.core import registry
from engine.core.rng import Rng
from engine.core.save import IncrementalDumps, dumps
from engine.core.session import LOG_SHOWN, Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[1]
GAMES = registry.ids()
STEPS = 260


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Any:
    return registry.get(request.param)(bundle_for(request.param, ROOT / "content"))


def _start(session: Session, seed: str) -> None:
    n = session.game.default_players
    session.start({"seed": seed, "players": n, "bots": n - 1})


def _walk(game: Any, seed: str, steps: int = STEPS):
    """The session after each step of a page-like walk."""
    session = Session(game)
    _start(session, seed)
    pick = Rng({"rng": Rng.seed_from(f"{seed}:page")})
    games = 1
    for step in range(steps):
        scr = session.screen()
        yield session
        if scr["handoff"]:
            session.handed_over()
        elif scr["over"]:
            if not (scr["sequel"] and session.next_game()):
                games += 1
                _start(session, f"{seed}:{games}")
        elif step % 9 == 8 and scr["can_undo"]:
            session.undo()
        else:
            choices = [c for g in scr["groups"] for c in g["choices"]]
            session.act(choices[pick.below(len(choices))]["action"])


def _fresh_lines(session: Session, viewer: int | None) -> list[str]:
    assert session.state is not None
    log = session.state.get("log", [])
    return [session.game.render_log(e) for e in log if session._visible(e, viewer)]


def test_the_autosave_text_is_exactly_the_saves_json(game: Any) -> None:
    for step, session in enumerate(_walk(game, "autosave")):
        text = session.save_text()
        assert text == dumps(session.save()), f"step {step}"
        if step % 50 == 49:  # a reload: the resumed session writes the same text
            again = Session(game)
            again.load(text)
            assert again.save_text() == text


def test_every_journal_line_is_its_own_entrys(game: Any) -> None:
    for step, session in enumerate(_walk(game, "journal")):
        scr = session.screen()
        if scr["handoff"]:
            continue
        assert scr["log"] == _fresh_lines(session, scr["seat"])[-LOG_SHOWN:], f"step {step}"


def test_a_dropped_entrys_line_is_never_shown_for_a_new_one(game: Any) -> None:
    session = Session(game)
    _start(session, "ids")
    assert session.state is not None
    viewer = session.screen()["seat"]
    first = session.log_lines(viewer)
    # the journal replaced by entries made afresh, again and again: CPython hands a freed
    # dict's memory (and so its id) to the next dict made, which the old cache took for it
    for _ in range(20):
        entries = [dict(e) for e in session.state["log"]]
        entries.reverse()
        session.state = {**session.state, "log": entries}
        gc.collect()
        assert session.log_lines(viewer) == _fresh_lines(session, viewer)
    assert sorted(session.log_lines(viewer)) == sorted(first)


def test_the_incremental_text_follows_lists_that_shrink_grow_and_change() -> None:
    enc = IncrementalDumps()
    items = [{"n": i, "t": "é" * (i % 3)} for i in range(40)]
    save = {"b": 1, "actions": items, "state": {"log": list(items), "z": [1] * 20}, "a": "x"}
    assert enc(save) == dumps(save)
    save["actions"] = items[:25]  # an undo
    assert enc(save) == dumps(save)
    save["actions"] = [*items[:25], {"n": -1}, *items[30:]]  # another branch
    assert enc(save) == dumps(save)
    save["state"] = {"log": [{"k": 2}, *items], "z": [2] * 20, "y": {1: "int keys"}}
    assert enc(save) == dumps(save)


def test_the_new_items_of_a_call_are_encoded_together_and_kept_as_runs(monkeypatch) -> None:
    """A move that adds hundreds of items (the bots play a game to its end) costs one call of
    the encoder for them, not one each; the runs kept are cut where a later call changes an
    item, wherever that falls (inside a run, at its end, in an item changed in place)."""
    from engine.core import save as module

    calls: list[Any] = []
    encode = module._encode

    def counted(value: Any) -> str:
        calls.append(value)
        return encode(value)

    monkeypatch.setattr(module, "_encode", counted)
    enc = IncrementalDumps()
    items = [{"n": i, "t": "« é »" * (i % 3)} for i in range(300)]
    save = {"actions": items[:20], "state": {"log": []}}
    assert enc(save) == dumps(save)
    save = {"actions": items[:280], "state": {"log": []}}  # 260 new actions at once
    calls.clear()
    assert enc(save) == dumps(save)
    assert sum(isinstance(c, list) for c in calls) == 1, "the new items in one call"
    steps = [items[:290], items[:285], items[:150], [*items[:150], {"n": "x"}, *items[151:300]]]
    steps += [items[:10], items[:300], [*items[:299], {"n": 299, "t": "changed"}]]
    for actions in steps:  # grown, cut inside a run, an item replaced, cut at a run's end
        save = {"actions": actions, "state": {"log": list(actions)}}
        assert enc(save) == dumps(save)
