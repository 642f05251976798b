"""A person whose last character is lost watches the rest of the game (issue 29): the bots
stop after each step, « Coup suivant » shows the next move, « Voir la fin » the end, and the
reveal follows; the watch buttons are never logged."""

from __future__ import annotations

import random

import pytest

from engine.core.registry import get
from engine.core.session import WATCH_END, WATCH_NEXT, Session
from pipeline.story.bundles import bundle_for


@pytest.fixture(scope="module")
def game():
    return get("complots")(bundle_for("complots"))


def _out_session(game, seed: int) -> Session | None:
    """One person and three bots, the person choosing at random until they are out."""
    s = Session(game).start(game.normalize_setup({"seed": str(seed), "players": 4, "bots": 3}))
    r = random.Random(seed)
    while not s.watching and s.waiting()[0]:
        scr = s.screen()
        s.act(r.choice([c["action"] for g in scr["groups"] for c in g["choices"]]))
    return s if s.watching else None


def _first_out(game) -> Session:
    for seed in range(40):
        s = _out_session(game, seed)
        if s is not None:
            return s
    raise AssertionError("no seed puts the person out before the end")


def test_the_person_out_watches_move_by_move(game):
    s = _first_out(game)
    person = s.humans()[0]
    assert person in game.out_seats(s.state) and game.to_act(s.state)
    scr = s.screen()
    assert not scr["over"] and s.names()[person] in scr["prompt"] and "hors jeu" in scr["prompt"]
    watch = [g for g in scr["groups"] if g.get("key") == "watch"]
    assert len(watch) == 1
    labels = [c["label"] for c in watch[0]["choices"]]
    assert labels == ["Coup suivant", "Voir la fin"]
    assert [c["action"] for c in watch[0]["choices"]] == [WATCH_NEXT, WATCH_END]
    steps = 0
    while s.watching:
        before_log = len(s.log_lines(person))
        moves = len(s.actions)
        s.act(dict(WATCH_NEXT))
        steps += 1
        assert len(s.actions) > moves, "each step plays at least one move"
        assert len(s.log_lines(person)) > before_log or not game.to_act(s.state)
        assert s.screen()["recap"], "the screen says what just happened"
        assert all("watch" not in (a.get("action") or {}) for a in s.actions)
    assert steps > 1
    end = s.screen()
    assert end["over"] and end["outcome"]["widgets"], "the reveal follows"
    assert not any(g.get("key") == "watch" for g in end["groups"])


def test_voir_la_fin_plays_to_the_end_as_the_bots_would(game):
    s = _first_out(game)
    seed = s.setup["seed"]
    s.act(dict(WATCH_END))
    assert s.screen()["over"] and not s.watching
    # the same game watched step by step ends the same way: watching changes no move
    t = _out_session(game, int(seed))
    assert t is not None
    while t.watching:
        t.act(dict(WATCH_NEXT))
    assert t.actions == s.actions and t.state == s.state


def test_a_save_made_while_watching_resumes_watching(game):
    s = _first_out(game)
    s.act(dict(WATCH_NEXT))
    data = s.save()
    t = Session(game)
    t.load(data)
    assert t.watching and t.state == s.state and t.actions == s.actions


def test_the_watch_buttons_are_refused_when_nobody_watches(game):
    from engine.core.errors import IllegalAction, MalformedAction

    s = Session(game).start(game.normalize_setup({"seed": "1", "players": 4, "bots": 3}))
    assert not s.watching
    with pytest.raises((IllegalAction, MalformedAction)):
        s.act(dict(WATCH_NEXT))


def test_an_all_bot_game_plays_to_its_end_at_once(game):
    s = Session(game).start(game.normalize_setup({"seed": "2", "players": 4, "bots": 4}))
    assert s.screen()["over"] and not s.watching
