"""Several devices at one table (issue 32), in CPython: the host's checks and the screens it
sends.  Whole games of every game with secrets, every human seat on its own device but the
host's, the other devices' actions carried as the messages the page sends:

- each device's screen holds nothing private to another seat, and no hand-over ever shows;
- a device whose seat need not act reads « En attente de … »;
- forged messages (another seat, a replay, too long, another table, malformed, out of turn)
  are refused in French and change nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import web
from engine.core import registry
from engine.core.devices import CODE_REFUSALS, MAX_MESSAGE_TEXT, REFUSALS
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
SECRET_GAMES = [g for g in registry.ids() if registry.get(g).hidden_information]
TOKEN = "t0ken"


@pytest.fixture(scope="module")
def bundles() -> dict[str, str]:
    return {g: json.dumps(bundle_for(g, ROOT / "content")) for g in registry.ids()}


def privates(screen: dict[str, Any]) -> set[int]:
    """Every seat something on this screen is private to."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("private"), int):
                found.add(value["private"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(screen.get("widgets"))
    walk(screen.get("groups"))
    for key in ("log_private", "recap_private"):
        if isinstance(screen.get(key), int):
            found.add(screen[key])
    return found


def host(bundles: dict[str, str], game: str, humans: int, seed: str = "7") -> web.WebSession:
    ws = web.WebSession(game, bundles[game])
    low, high = ws.game.seat_range()
    n = max(low, min(high, humans))
    seats = [{"name": f"P{i + 1}", "bot": False} for i in range(n)]
    out = json.loads(ws.start_json(json.dumps({"seed": seed, "seats": seats})))
    assert "error" not in out, out
    ws.devices_json(TOKEN, json.dumps(list(range(1, n))))
    return ws


def message(ws: web.WebSession, seat: int, seq: int, action: Any, **over: Any) -> str:
    msg = {"type": "act", "game": ws.game.id, "token": TOKEN, "seat": seat, "seq": seq}
    msg["action"] = action
    msg.update(over)
    return json.dumps(msg)


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_whole_game_each_device_sees_its_own_seat(bundles: dict[str, str], game: str) -> None:
    ws = host(bundles, game, 4)
    session = ws.session
    n = len(session.seats)
    rng = random.Random(game)
    seq = dict.fromkeys(range(n), 0)
    waited = changed = 0
    scrambler = Rng({"rng": Rng.seed_from("devices")})
    for steps in range(3000):
        if session.state is None or not ws.game.to_act(session.state):
            break
        mine = json.loads(ws.screen_json())
        assert mine["handoff"] is None  # one person on the host: never « Passez l'appareil »
        assert privates(mine) <= {0}
        screens = {s: json.loads(ws.guest_screen_json(s)) for s in range(1, n)}
        for seat, scr in screens.items():
            assert scr["handoff"] is None
            assert privates(scr) <= {seat}, (seat, privates(scr))
            if not scr["groups"] and not scr["over"]:
                assert scr["waiting"].startswith("En attente d"), scr["waiting"]
                waited += 1
        if steps % 7 == 0:
            # another seat's secrets changed, a device's screen is the same: it holds none
            state = session.state
            for owner in range(n):
                other = ws.game.scramble(state, owner, scrambler)
                session.state = other
                try:
                    for seat, scr in screens.items():
                        now = json.loads(ws.guest_screen_json(seat))
                        if seat != owner:
                            assert now == scr, f"seat {seat} sees a secret of seat {owner}"
                        elif now != scr:
                            changed += 1
                finally:
                    session.state = state
        movers = [s for s in range(n) if (mine if s == 0 else screens[s])["groups"]]
        assert movers, "somebody must be able to act"
        seat = rng.choice(movers)
        scr = mine if seat == 0 else screens[seat]
        choices = [c for g in scr["groups"] for c in g["choices"]]
        action = rng.choice(choices)["action"]
        if seat == 0:
            out = json.loads(ws.act_json(json.dumps(action)))
            assert "error" not in out, out
        else:
            seq[seat] += 1
            reply = json.loads(ws.receive_json(seat, message(ws, seat, seq[seat], action)))
            assert reply == {"ok": True, "seq": seq[seat]}, reply
    assert waited > 0
    assert changed > 0, "scramble never changed a screen: the check above proves nothing"


def test_forged_messages_are_refused(bundles: dict[str, str]) -> None:
    ws = host(bundles, "complots", 4)
    session = ws.session
    # play until a remote seat must act
    for _ in range(200):
        movers = [s for s in (1, 2, 3) if json.loads(ws.guest_screen_json(s))["groups"]]
        if movers:
            break
        choices = [c for g in json.loads(ws.screen_json())["groups"] for c in g["choices"]]
        ws.act_json(json.dumps(choices[0]["action"]))
    seat = movers[0]
    idle = next(s for s in (1, 2, 3) if s not in session.waiting()[0])
    action = json.loads(ws.guest_screen_json(seat))["groups"][0]["choices"][0]["action"]
    before = json.dumps(session.state, sort_keys=True)

    def refused(seat_: int, text: str) -> str:
        reply = json.loads(ws.receive_json(seat_, text))
        assert "ok" not in reply
        assert json.dumps(session.state, sort_keys=True) == before
        return reply["error"]

    # the channel of one seat speaking for another
    assert refused(idle, message(ws, seat, 1, action)) == REFUSALS["seat"]
    assert refused(idle, message(ws, idle, 1, action)) == REFUSALS["turn"]
    assert refused(seat, message(ws, seat, 1, action, token="other")) == REFUSALS["game"]
    assert refused(seat, message(ws, seat, 1, action, game="dilemme")) == REFUSALS["game"]
    big = message(ws, seat, 1, {**action, "pad": "x" * MAX_MESSAGE_TEXT})
    assert refused(seat, big) == REFUSALS["size"]
    assert refused(seat, "[" * 50 + "]" * 50) == REFUSALS["shape"]
    assert refused(seat, "{") == REFUSALS["shape"]
    assert refused(seat, message(ws, seat, True, action)) == REFUSALS["shape"]
    assert refused(seat, message(ws, seat, 1, {"forged": 1})) == REFUSALS["illegal"]
    assert refused(0, message(ws, 0, 1, action)) == REFUSALS["seat"]  # the host's own seat
    ok = json.loads(ws.receive_json(seat, message(ws, seat, 1, action)))
    assert ok == {"ok": True, "seq": 1}
    after = json.dumps(session.state, sort_keys=True)
    again = json.loads(ws.receive_json(seat, message(ws, seat, 1, action)))
    assert again["error"] == REFUSALS["replay"]
    assert json.dumps(session.state, sort_keys=True) == after
    # the game goes on: the host still draws its screen
    assert "error" not in json.loads(ws.screen_json())


def test_answer_codes(bundles: dict[str, str]) -> None:
    ws = host(bundles, "complots", 3)
    good = {"v": 1, "kind": "answer", "game": "complots", "token": TOKEN, "seat": 2, "sdp": "v=0"}
    assert json.loads(ws.check_answer_json(json.dumps(good), 2)) == {"seq": 0}
    cases = [
        ("not json", CODE_REFUSALS["unreadable"]),
        (json.dumps({**good, "kind": "offer"}), CODE_REFUSALS["kind"]),
        (json.dumps({**good, "game": "dilemme"}), CODE_REFUSALS["game"]),
        (json.dumps({**good, "token": "elsewhere"}), CODE_REFUSALS["game"]),
        (json.dumps(good), CODE_REFUSALS["seat"]),
    ]
    for text, why in cases:
        seat = 1 if text == json.dumps(good) else 2
        assert json.loads(ws.check_answer_json(text, seat)) == {"error": why}


def test_no_remote_seat_is_the_session_of_before(bundles: dict[str, str]) -> None:
    """With every seat back on the host, screens are those of a plain hot seat."""
    ws = host(bundles, "complots", 3)
    ws.devices_json(TOKEN, "[]")
    plain = web.WebSession("complots", bundles["complots"])
    seats = [{"name": f"P{i + 1}", "bot": False} for i in range(3)]
    plain.start_json(json.dumps({"seed": "7", "seats": seats}))
    assert json.loads(ws.screen_json()) == json.loads(plain.screen_json())
    assert json.loads(ws.screen_json())["handoff"] is not None


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_a_seat_given_to_a_bot_still_replays(bundles: dict[str, str], game: str) -> None:
    """A device that never came back: its seat to the computer; the save still loads."""
    ws = host(bundles, game, 3)
    rng = random.Random(game)
    for _ in range(12):
        scr = json.loads(ws.screen_json())
        choices = [c for g in scr["groups"] for c in g["choices"]]
        if not choices:
            break
        ws.act_json(json.dumps(rng.choice(choices)["action"]))
    ws.give_to_bot_json(2)
    assert 2 not in ws.session.remote and ws.session.is_bot(2)
    assert not json.loads(ws.guest_screen_json(2))["groups"]  # the computer plays it now
    saved = ws.save_json()
    again = web.WebSession(game, bundles[game])
    out = json.loads(again.load_json(saved))
    assert "error" not in out, out
    assert again.session.state == ws.session.state
    assert again.session.setup == ws.session.setup
