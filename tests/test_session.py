"""The session every front end shares (``engine.core.session``), on a small game written for
these tests: a secret pick by every seat (a simultaneous hidden choice), then a public window
where any seat may shout (like a challenge).  It checks what the contract promises whatever the
game: bots answer first, humans are handed the device one at a time when secrets are at stake,
a public window shows no secret, undo, saves that replay and refuse edits, and the old save
formats still open."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import widgets as W
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.game import Game, Outcome
from engine.core.rng import Rng
from engine.core.save import SaveError
from engine.core.session import Session
from engine.core.state import copy_state


class Secret(Game):
    """Each round every seat picks 1–3 in secret; then anyone may shout.  Two rounds; the
    highest total wins."""

    id = "secret"
    title = "Le Secret"
    pitch = "Un jeu de test."
    players = (2, 4)
    default_players = 3
    oldest_save_version = 1
    hidden_information = True

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return {
            "format_version": 1,
            "game": "secret",
            "rng": Rng.seed_from(setup["seed"]),
            "seats": [{"name": s["name"], "bot": s["bot"]} for s in setup["seats"]],
            "round": 1,
            "phase": "pick",
            "picks": [None] * len(setup["seats"]),
            "answered": [],
            "totals": [0] * len(setup["seats"]),
            "log": [{"key": "start", "args": {}}],
        }

    def to_act(self, state):
        if state["phase"] == "pick":
            return [i for i, p in enumerate(state["picks"]) if p is None]
        if state["phase"] == "react":
            return [i for i in range(len(state["seats"])) if i not in state["answered"]]
        return []

    def turn_kind(self, state):
        return "public" if state["phase"] == "react" else "each"

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "pick":
            return [{"type": "pick", "seat": seat, "n": n} for n in (1, 2, 3)]
        return [{"type": "ok", "seat": seat}, {"type": "shout", "seat": seat}]

    def apply(self, state, action):
        if not isinstance(action, dict):
            raise MalformedAction(action, "secret", "not a dict")
        if action not in self.legal_actions(state, action.get("seat")):
            raise IllegalAction(action, "secret", "not legal")
        state = copy_state(state)
        seat = action["seat"]
        if action["type"] == "pick":
            state["picks"][seat] = action["n"]
            state["log"].append({"key": "picked", "args": {"seat": seat}})
            state["log"].append({"key": "mine", "args": {"n": action["n"]}, "to": [seat]})
            if None not in state["picks"]:
                state["phase"] = "react"
            return state
        state["answered"].append(seat)
        if action["type"] == "shout" or len(state["answered"]) == len(state["seats"]):
            state["log"].append({"key": "reveal", "args": {"picks": list(state["picks"])}})
            for i, p in enumerate(state["picks"]):
                state["totals"][i] += p
            state["picks"] = [None] * len(state["seats"])
            state["answered"] = []
            state["round"] += 1
            state["phase"] = "pick" if state["round"] <= 2 else "over"
        return state

    def view(self, state, seat):
        v = copy_state(state)
        v.pop("rng")
        v["picks"] = [p if i == seat else (p is not None) for i, p in enumerate(state["picks"])]
        return v

    def outcome(self, state):
        if state["phase"] != "over":
            return None
        best = max(state["totals"])
        winners = [i for i, t in enumerate(state["totals"]) if t == best]
        return Outcome(winners, "Fin.", scores=dict(enumerate(state["totals"])))

    def decide(self, view, actions, rng, persona):
        return actions[-1] if actions[0]["type"] == "pick" else actions[0]

    def describe(self, state, action, seat):
        return f"{action['type']} {action.get('n', '')}".strip()

    def render_log(self, entry):
        return f"{entry['key']} {json.dumps(entry['args'], sort_keys=True)}"

    def screen(self, state, seat, actions):
        mine = state["picks"][seat] if seat is not None else None
        widgets = [W.text(f"tour {state['round']}, mon choix : {mine}")]
        groups = []
        for s in sorted({a["seat"] for a in actions}):
            entries = [
                W.choice(i, f"{state['seats'][s]['name']} : {self.describe(state, a, s)}")
                for i, a in enumerate(actions)
                if a["seat"] == s
            ]
            groups.append(W.group(state["seats"][s]["name"], entries))
        return W.screen(f"tour {state['round']}", widgets, groups)

    def scramble(self, state, seat, rng):
        out = copy_state(state)
        if seat is not None and out["picks"][seat] is not None:
            out["picks"][seat] = 1 + (out["picks"][seat] % 3)
        return out


def _choices(scr: dict) -> list[dict]:
    return [c for g in scr["groups"] for c in g["choices"]]


def test_bots_answer_first_and_a_lone_human_is_never_handed_the_device():
    s = Session(Secret({})).start({"seed": "1", "players": 3, "bots": 2})
    scr = s.screen()
    assert scr["handoff"] is None and scr["seat"] == 0 and scr["to_act"] == [0]
    assert len(s.actions) == 2  # both bots picked already
    s.act({"type": "pick", "seat": 0, "n": 2})
    # the public window: the bots said « ok » at once, only the human remains
    scr = s.screen()
    assert scr["turn_kind"] == "public" and scr["to_act"] == [0]


def test_two_humans_are_handed_the_device_and_no_secret_leaks_before():
    s = Session(Secret({})).start({"seed": "2", "players": 2, "bots": 0})
    first = s.screen()
    # nobody holds the device yet: the first screen of seat 0 is handed over too (it used to
    # show seat 0's secrets at once to whoever had the device)
    assert first["handoff"] == {"seat": 0, "name": "Joueur 1"} and first["widgets"] == []
    s.handed_over()
    first = s.screen()
    assert first["handoff"] is None and first["seat"] == 0
    s.act({"type": "pick", "seat": 0, "n": 3})
    scr = s.screen()
    assert scr["handoff"] == {"seat": 1, "name": "Joueur 2"}
    assert scr["widgets"] == [] and scr["groups"] == [] and scr["log"] == []
    assert "3" not in json.dumps(scr)  # seat 0's pick is nowhere on the hand-over screen
    s.handed_over()
    scr = s.screen()
    assert scr["seat"] == 1 and "mon choix : None" in json.dumps(scr["widgets"])
    assert not any("mine" in line for line in scr["log"])  # seat 0's private log entry


def test_a_public_window_shows_every_human_seat_on_one_screen_without_secrets():
    s = Session(Secret({})).start({"seed": "3", "players": 3, "bots": 0})
    for seat, n in ((0, 1), (1, 2), (2, 3)):
        if s.screen()["handoff"]:
            s.handed_over()
        s.act({"type": "pick", "seat": seat, "n": n})
    scr = s.screen()
    assert scr["handoff"] is None and scr["seat"] is None
    assert [g["heading"] for g in scr["groups"]] == ["Joueur 1", "Joueur 2", "Joueur 3"]
    assert "mon choix : None" in json.dumps(scr["widgets"])
    s.act({"type": "shout", "seat": 2})
    assert any('"picks": [1, 2, 3]' in line for line in s.log_lines(None))


def test_an_action_no_waiting_seat_may_take_is_refused_and_nothing_changes():
    s = Session(Secret({})).start({"seed": "4", "players": 2, "bots": 0})
    before = json.dumps(s.state, sort_keys=True)
    bads = (
        {"type": "ok", "seat": 0},
        {"type": "pick", "seat": 0, "n": 9},
        {"type": "pick", "seat": 5, "n": 1},
        {"type": ["pick"]},
        7,
    )
    for bad in bads:
        with pytest.raises((IllegalAction, MalformedAction)):
            s.act(bad)
    assert json.dumps(s.state, sort_keys=True) == before


def test_undo_goes_back_before_the_last_human_action_and_the_bots_after_it():
    s = Session(Secret({})).start({"seed": "5", "players": 2, "bots": 1})
    start = json.dumps(s.state, sort_keys=True)
    s.act({"type": "pick", "seat": 0, "n": 1})
    s.act({"type": "ok", "seat": 0})  # the bot then picks in round 2
    assert s.state["round"] == 2 and s.undo()
    assert s.state["phase"] == "react"
    assert s.undo() and json.dumps(s.state, sort_keys=True) == start
    assert not s.undo()


def test_a_save_replays_and_an_edited_save_is_refused():
    game = Secret({})
    s = Session(game).start({"seed": "6", "players": 3, "bots": 1})
    s.act({"type": "pick", "seat": 0, "n": 2})
    s.handed_over()
    s.act({"type": "pick", "seat": 1, "n": 3})
    text = s.save_text()
    again = Session(game)
    again.load(text)
    assert again.state == s.state and again.actions == s.actions
    forged = json.loads(text)
    forged["state"]["picks"] = [3, 3, 3]
    with pytest.raises(SaveError, match="modifiée ou endommagée"):
        Session(game).load(json.dumps(forged))
    forged = json.loads(text)
    forged["actions"][0]["action"]["n"] = 7
    with pytest.raises(SaveError, match="ne se rejoue pas"):
        Session(game).load(json.dumps(forged))


def test_a_refused_load_leaves_the_game_in_progress_untouched():
    game = Secret({})
    s = Session(game).start({"seed": "7", "players": 2, "bots": 1})
    s.act({"type": "pick", "seat": 0, "n": 2})
    before = (json.dumps(s.state, sort_keys=True), list(s.actions))
    for text in (
        "{",
        '{"format": "gamebook-save", "version": 2, "game": "autre"}',
        '{"format": "gamebook-save", "version": 3}',
        "NaN",
        '{"a": 1e999}',
    ):
        with pytest.raises(SaveError):
            s.load(text)
        assert (json.dumps(s.state, sort_keys=True), s.actions) == before


@pytest.mark.parametrize(
    "old",
    [
        # the browser's first format
        lambda st: {
            "format": "gamebook-save",
            "version": 1,
            "game": "secret",
            "campaign": None,
            "state": st,
            "history": [],
        },
        # the terminal's first format
        lambda st: {
            "format_version": 1,
            "game": "secret",
            "campaign_id": None,
            "seed": "x",
            "state": st,
        },
    ],
)
def test_saves_of_the_first_format_still_open(old):
    game = Secret({})
    s = Session(game).start({"seed": "8", "players": 2, "bots": 0})
    s.act({"type": "pick", "seat": 0, "n": 1})
    again = Session(game)
    again.load(json.dumps(old(s.state)))
    assert again.state == s.state
    assert "ancienne version" in again.notice
    again.handed_over()
    again.act({"type": "pick", "seat": 1, "n": 2})  # and the game goes on
    resumed = Session(game)
    resumed.load(again.save_text())  # saved in the new format, with the old state as its base
    assert resumed.state == again.state


def test_a_game_added_after_the_first_format_refuses_it():
    class Newer(Secret):
        oldest_save_version = 2

    s = Session(Newer({})).start({"seed": "8", "players": 2, "bots": 0})
    old = {"format": "gamebook-save", "version": 1, "game": "secret", "state": s.state}
    with pytest.raises(SaveError, match="jamais écrit"):
        Session(Newer({})).load(json.dumps({**old, "history": []}))


def test_same_seed_same_session_whatever_happens_in_between():
    runs = []
    for _ in range(2):
        s = Session(Secret({})).start({"seed": "9", "players": 4, "bots": 4})
        runs.append((json.dumps(s.state, sort_keys=True), s.actions))
    assert runs[0] == runs[1]
    assert Session(Secret({})).start({"seed": "9", "players": 4, "bots": 4}).screen()["over"]


def test_after_a_public_window_the_next_secret_screen_is_handed_over_even_to_its_clicker():
    # Complots: right after « Jules doute », « Jules perd un personnage » showed Jules's cards
    # at once, to whoever held the device: a public window's button may be pressed by anyone
    s = Session(Secret({})).start({"seed": "10", "players": 2, "bots": 0})
    for seat in (0, 1):
        assert s.screen()["handoff"] == {"seat": seat, "name": f"Joueur {seat + 1}"}
        s.handed_over()
        s.act({"type": "pick", "seat": seat, "n": 2})
    scr = s.screen()
    assert scr["turn_kind"] == "public" and scr["handoff"] is None and scr["seat"] is None
    s.act({"type": "shout", "seat": 0})
    scr = s.screen()
    assert scr["handoff"] == {"seat": 0, "name": "Joueur 1"} and scr["widgets"] == []
    s.handed_over()
    s.handed_over()  # a second confirmation (a double click) changes nothing
    assert s.screen()["seat"] == 0 and s.screen()["handoff"] is None


def test_a_loaded_save_with_two_people_is_handed_over_first():
    game = Secret({})
    s = Session(game).start({"seed": "11", "players": 3, "bots": 1})
    s.handed_over()
    s.act({"type": "pick", "seat": 0, "n": 1})
    s.handed_over()
    assert s.screen()["seat"] == 1
    again = Session(game)
    again.load(s.save_text())
    assert again.screen()["handoff"] == {"seat": 1, "name": "Joueur 2"}
    lone = Session(game).start({"seed": "11", "players": 3, "bots": 2})
    resumed = Session(game)
    resumed.load(lone.save_text())
    assert resumed.screen()["handoff"] is None  # one person and bots: never


def test_a_game_with_seat_streams_seeds_each_bot_of_a_simultaneous_choice_with_its_seat():
    """``Game.seat_streams``: in a simultaneous choice (several seats, ``each``) a bot's seed
    mixes in its seat; a lone seat, a public window, or a game without it keeps the seed of the
    moves alone."""
    from engine.core.session import bot_rng, bot_seat

    class Streams(Secret):
        seat_streams = True

    plain, streams = Secret({}), Streams({})
    seats = [{"name": n, "bot": True} for n in ("A", "B", "C")]
    st = streams.new_game({"seed": "s", "seats": seats})
    assert bot_seat(streams, st, 1) == 1 and bot_seat(plain, st, 1) is None
    st = streams.apply(
        streams.apply(st, {"type": "pick", "seat": 0, "n": 1}), {"type": "pick", "seat": 1, "n": 1}
    )
    assert streams.to_act(st) == [2] and bot_seat(streams, st, 2) is None  # one seat left
    st = streams.apply(st, {"type": "pick", "seat": 2, "n": 1})
    assert streams.turn_kind(st) == "public" and bot_seat(streams, st, 0) is None
    assert bot_rng(5, 9, None).next() == bot_rng(5, 9).next()
    assert len({bot_rng(5, 9, s).next() for s in (None, 0, 1, 2)}) == 4
    # a session draws each bot's pick from its own seat's stream
    drawn: list[tuple[int, int]] = []

    class Drawing(Streams):
        def decide(self, view, actions, rng, persona):
            drawn.append((actions[0]["seat"], rng.next()))
            return super().decide(view, actions, rng, persona)

    session = Session(Drawing({})).start({"seed": "s", "seats": seats})
    from engine.core.session import bot_prefix

    first = drawn[:3]
    assert [s for s, _ in first] == [0, 1, 2]
    want = [bot_rng(bot_prefix(session.setup["seed"]), k, s if k < 2 else None).next()
            for k, s in enumerate((0, 1, 2))]  # fmt: skip
    assert [x for _, x in first] == want
