"""Complots where players meet it: ``gamebook play complots`` (bots alone, the same text for the
same seed, one survivor, the reveal at the end), ``gamebook simulate complots``, and the
session's screens — one public screen for a reaction window, the hand-over screen for private
moments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import gamebook

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return registry.get("complots")(bundle_for("complots", ROOT / "content"))


@pytest.mark.parametrize("bots", [2, 4, 8])
def test_bots_alone_play_to_one_survivor_and_the_same_seed_prints_the_same(bots):
    first = gamebook("play", "complots", "--bots", str(bots), "--seed", "graine")
    assert first.returncode == 0, first.stderr
    again = gamebook("play", "complots", "--bots", str(bots), "--seed", "graine")
    assert again.stdout == first.stdout
    out = first.stdout
    assert out.count("remporte la partie") >= 1
    assert out.count("éliminé au tour") == bots - 1  # the ranking: every other seat is out
    assert "Ce que chacun cachait" in out and "Bluffs réussis" in out
    other = gamebook("play", "complots", "--bots", str(bots), "--seed", "autre")
    assert other.stdout != out


def test_a_bad_option_is_refused_in_french_without_a_traceback():
    proc = gamebook("play", "complots", "--bots", "9")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr + proc.stdout
    proc = gamebook("play", "complots", "--bots", "3", "--variant", "marquise")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr + proc.stdout


def test_simulate_500_games_without_an_engine_error():
    proc = gamebook("simulate", "complots", "--runs", "500", "--seed", "s", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["runs"] == 500 and doc["completed"] == 500 and doc["errors"] == []


def test_a_reaction_window_is_one_public_screen_for_every_human(game):
    """Two humans and two bots: a claim opens a window where both humans may speak up on one
    screen, with no hand-over and no secret; losing a card is private (hand-over first)."""
    session = Session(game).start(
        {"seed": "fenetre", "players": 4, "bots": 2, "names": ["Ana", "Bo", "Cy", "Di"]}
    )
    seen_public = seen_private = False
    for _ in range(400):
        scr = session.screen()
        if scr["over"]:
            break
        if scr["handoff"]:
            session.handed_over()
            continue
        choices = [c for g in scr["groups"] for c in g["choices"]]
        if scr["turn_kind"] == "public" and len(scr["to_act"]) == 2:
            seen_public = True
            assert scr["seat"] is None
            labels = [c["label"] for c in choices]
            assert any(lab.startswith("Ana") for lab in labels)
            assert any(lab.startswith("Bo") for lab in labels)
            assert not any(w.get("title") == "Vos personnages" for w in scr["widgets"])
            doubt = next(c for c in choices if c["action"]["type"] == "doubt")
            session.act(doubt["action"])
            continue
        if choices and choices[0]["action"]["type"] == "lose":
            seen_private = True
            assert scr["seat"] in (0, 1)
            assert any(w.get("title") == "Vos personnages" for w in scr["widgets"])
        # otherwise the first choice that is not a doubt keeps the game going
        pick = next((c for c in choices if c["action"]["type"] not in ("doubt",)), choices[0])
        session.act(pick["action"])
    assert seen_public and seen_private


def test_the_end_screen_reveals_every_claim(game):
    session = Session(game).start({"seed": "fin", "players": 3, "bots": 3})
    scr = session.screen()
    assert scr["over"]
    widgets = scr["outcome"]["widgets"]
    titles = [w["title"] for w in widgets]
    assert titles == ["Ce que chacun cachait", "Bluffs réussis"]
    claims = session.state["claims"]
    assert len(widgets[0]["items"]) == max(1, len(claims))
    for line, true in zip(widgets[0]["items"], session.state["truth"], strict=False):
        assert ("vrai" in line) == bool(true) and ("bluff" in line) == (not true)
