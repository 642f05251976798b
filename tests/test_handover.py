"""The hand-over is a guarantee of the session (``engine.core.session``), for every registered
game: with several people at one device, no screen drawn from a seat's view (its hand, its
objective, its choices) is shown to anyone but the last person who confirmed holding the
device.  Nobody holds it when a game starts, after a save is loaded, or after a public window
(anyone at the table may have pressed its button); a bot's turn between two people, the end of
a simultaneous choice and a private consequence of a public window are all covered by the same
rule.  A game with one person and bots never shows a hand-over.

These tests drive the session only through its screen API, as the front ends do, and keep
their own record of who confirmed holding the device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core import registry
from engine.core.game import Game
from engine.core.rng import Rng
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
GAMES = registry.ids()
DECISIONS = 120


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return registry.get(request.param)(bundle_for(request.param, ROOT / "content"))


def _two_people(game: Game, seed: str) -> dict[str, Any]:
    """Two people and, where the table has room, bots between them."""
    low, high = game.seat_range()
    n = min(high, max(low, 4))
    return {"seed": seed, "players": n, "bots": n - 2}


def _marks(scr: dict[str, Any]) -> set[int]:
    """Every seat a widget, a row of a widget, a choices group, the journal or the recap is
    marked private to."""
    out: set[int] = {scr[k] for k in ("log_private", "recap_private") if scr[k] is not None}
    for w in (*scr["widgets"], *scr["groups"]):
        if "private" in w:
            out.add(w["private"])
        for row in w.get("rows") or ():
            if isinstance(row, dict) and "private" in row:
                out.add(row["private"])
    return out


def _choices(scr: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for g in scr["groups"] for c in g["choices"]]


#: what ``_play`` counted, over all the games a test played
Seen = dict[str, int]


def _play(
    session: Session, rng: Rng, decisions: int, holder: int | None, seen: Seen | None = None
) -> tuple[int, int]:
    """Play ``decisions`` human decisions at random, checking every screen; returns how many
    hand-overs and how many secret screens were seen (``seen`` counts more)."""
    handoffs = secret = 0
    done = 0
    seen = {} if seen is None else seen
    after_public = False
    while done < decisions:
        scr = session.screen()
        if scr["handoff"]:
            if after_public:
                seen["after_public"] = seen.get("after_public", 0) + 1
            after_public = False
            handoffs += 1
            seat = scr["handoff"]["seat"]
            assert seat != holder, "a hand-over to the person who already holds the device"
            assert scr["widgets"] == [] and scr["groups"] == [] and scr["log"] == []
            assert scr["recap"] == [] and not _marks(scr)
            session.handed_over()
            session.handed_over()  # a double click changes nothing
            holder = seat
            assert session.screen()["handoff"] is None
            continue
        viewer = scr["seat"]
        humans = [s for s in range(len(session.seats)) if not session.is_bot(s)]
        if viewer is not None and session.game.hidden_information and len(humans) > 1:
            secret += 1
            assert viewer == holder, f"seat {viewer}'s screen shown to {holder}"
        marks = _marks(scr)
        if len(humans) > 1:
            assert marks <= ({holder} if viewer is not None else set()), (
                f"private information of {marks} on a screen held by {holder}"
            )
        if not session.game.hidden_information:
            assert not marks
        if any("private" in w for w in scr["widgets"]):
            seen["private_widgets"] = seen.get("private_widgets", 0) + 1
        if scr["log_private"] is not None:
            seen["private_log"] = seen.get("private_log", 0) + 1
        for g in scr["groups"]:
            # a group is its seat's secret exactly when it offers one of the game's private
            # actions (a card of the hand): « Revenu » or « Continuer » carry no mark
            kinds = {c["action"].get("type") for c in g["choices"] if isinstance(c["action"], dict)}
            private = session.game.private_actions
            if viewer is None or not session.game.hidden_information:
                assert "private" not in g, g["heading"]
            elif private is not None:
                assert ("private" in g) == bool(kinds & private), (g["heading"], kinds)
            key = "private_groups" if "private" in g else "public_groups"
            seen[key] = seen.get(key, 0) + 1
        after_public = False
        choices = _choices(scr)
        if scr["over"] and scr["sequel"] and session.next_game():
            seen["sequels"] = seen.get("sequels", 0) + 1
            holder = None  # pressed on the end screen, which anyone may read
            continue
        if scr["over"] or not choices:
            break
        session.act(choices[rng.below(len(choices))]["action"])
        done += 1
        if scr["turn_kind"] == "public":
            holder = None  # anyone may have pressed it
            after_public = True
            seen["public"] = seen.get("public", 0) + 1
    return handoffs, secret


def test_no_screen_shows_a_seats_secrets_to_anyone_but_its_confirmed_holder(game: Game):
    rng = Rng({"rng": Rng.seed_from(f"passe:{game.id}")})
    handoffs = secret = 0
    seen: Seen = {}
    for seed in ("1", "2", "3"):
        session = Session(game).start(_two_people(game, f"passe-{seed}"))
        h, s = _play(session, rng, DECISIONS, None, seen)
        handoffs, secret = handoffs + h, secret + s
    if game.hidden_information:
        assert handoffs > 0 and secret > 0
        assert seen.get("private_widgets"), "no widget of this game is ever marked private"
        if any(e.get("to") for e in session.state.get("log", [])):
            assert seen.get("private_log"), "a journal with private lines never marked"
        # a seat's secret choices are marked, and its public ones are not (a public choice
        # marked private hides nothing and blurs what the hand-over must keep back)
        assert seen.get("private_groups") and seen.get("public_groups"), seen
    else:
        assert handoffs == 0
    if seen.get("public") and game.hidden_information:
        # a public window (a doubt) is followed, sooner or later, by a seat's secret screen:
        # handed over, since anyone at the table may have pressed the window's button
        assert seen.get("after_public"), seen


def test_the_first_screen_of_a_game_with_secrets_is_a_hand_over(game: Game):
    session = Session(game).start(_two_people(game, "premier"))
    scr = session.screen()
    if not game.hidden_information:
        assert scr["handoff"] is None
        return
    if scr["seat"] is None and not scr["handoff"]:
        assert not _marks(scr)  # a public first screen: nobody's secrets
        return
    assert scr["handoff"] is not None
    assert scr["handoff"]["seat"] in session.humans()


def test_a_loaded_save_is_handed_over_before_any_secret(game: Game):
    session = Session(game).start(_two_people(game, "reprise"))
    _play(session, Rng({"rng": Rng.seed_from("reprise")}), 15, None)
    again = Session(game)
    again.load(session.save_text())
    h, _ = _play(again, Rng({"rng": Rng.seed_from("suite")}), 10, None)
    scr = again.screen()
    if game.hidden_information and (h or scr["seat"] is not None):
        assert h > 0 or scr["handoff"] is not None


def test_one_person_and_bots_never_see_a_hand_over(game: Game):
    low, high = game.seat_range()
    n = min(high, max(low, 3))
    session = Session(game).start({"seed": "seul", "players": n, "bots": n - 1})
    rng = Rng({"rng": Rng.seed_from("seul")})
    for _ in range(60):
        scr = session.screen()
        assert scr["handoff"] is None
        assert _marks(scr) <= {0}
        choices = _choices(scr)
        if scr["over"] or not choices:
            break
        session.act(choices[rng.below(len(choices))]["action"])


def test_undo_to_another_seats_turn_hands_the_device_over_again(game: Game):
    if not game.hidden_information:
        pytest.skip("no secrets: no hand-over")
    session = Session(game).start({**_two_people(game, "retour"), "bots": 0})
    rng = Rng({"rng": Rng.seed_from("retour")})
    for _ in range(80):
        scr = session.screen()
        if scr["handoff"]:
            session.handed_over()
            continue
        before = scr["seat"]
        choices = _choices(scr)
        if scr["over"] or not choices:
            return
        session.act(choices[rng.below(len(choices))]["action"])
        nxt = session.screen()
        if nxt["handoff"] and before is not None and nxt["handoff"]["seat"] != before:
            session.handed_over()
            assert session.undo()
            back = session.screen()
            assert back["handoff"] == {"seat": before, "name": scr["seat_name"]}
            return
    pytest.fail("no hand-over from one person to the other in 80 decisions")
