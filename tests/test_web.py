"""The browser session (``engine.web.Session``) in CPython: what the play page calls.

Whole games are played through the same JSON calls as the page, every screen rendered, so a
log entry without a French message or a screen that cannot be built fails here first.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from engine import web
from engine.citadelle import text_fr as CT
from engine.dilemme import text_fr as DT
from pipeline import check
from pipeline import compile as comp

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("dilemme", "citadelle")


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("bundles")
    report = check(ROOT / "content")
    return {g: comp.write(report.graphs[g], out).read_text(encoding="utf-8") for g in GAMES}


def _logged_keys(path: Path) -> set[str]:
    """Every constant key passed to ``_log(state, "…")`` in an engine module."""
    keys = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "_log"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
        ):
            keys.add(node.args[1].value)
    return keys


@pytest.mark.parametrize(
    ("game", "messages"), [("dilemme", DT.MESSAGES), ("citadelle", CT.MESSAGES)]
)
def test_every_logged_key_has_a_french_message(game, messages):
    keys = _logged_keys(ROOT / "engine" / game / "game.py")
    assert keys, "no _log call found: the test would prove nothing"
    assert sorted(keys - set(messages)) == []


def _play(session: web.Session, rng: random.Random, decisions: int) -> list[dict]:
    screens = []
    screen = json.loads(session.screen_json())
    for _ in range(decisions):
        if screen["over"] and screen["game"] == "dilemme" and not screen["campaign_over"]:
            # what the page's "Partie suivante de la campagne" button does
            st = session.state
            houses = [
                {"house": s["house"], "name": s["name"], "bot": s["bot"]} for s in st["seats"]
            ]
            setup = {"seed": rng.randrange(10**6), "houses": houses, "campaign": st["campaign"]}
            screen = json.loads(session.start_json(json.dumps(setup)))
            continue
        if screen["over"] or not screen["choices"]:
            break
        pick = rng.choice(screen["choices"])["action"]
        screen = json.loads(session.act_json(json.dumps(pick)))
        assert "error" not in screen, screen.get("error")
        screens.append(screen)
    return screens


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_long_games_render_every_screen_and_survive_save_and_load(bundles, game, seed):
    session = web.Session(game, bundles[game])
    session.start_json(json.dumps({"seed": seed}))
    screens = _play(session, random.Random(seed), 400)
    assert len(screens) >= 30
    assert any(s["log"] for s in screens)
    saved = session.save_json()
    other = web.Session(game, bundles[game])
    other.start_json(json.dumps({"seed": seed + 100}))
    resumed = json.loads(other.load_json(saved))
    assert "error" not in resumed
    assert other.state == session.state
    assert resumed["choices"] == json.loads(session.screen_json())["choices"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,  # fatal for Pyodide's stack, not a RecursionError there
        '{"format": "gamebook-save", "state": ' + '{"a": ' * 150 + "1" + "}" * 151,
    ],
)
def test_deeply_nested_files_are_refused_before_parsing(bundles, text):
    session = web.Session("dilemme", bundles["dilemme"])
    session.start_json(json.dumps({"seed": 4}))
    before = json.dumps(session.state, sort_keys=True)
    answer = json.loads(session.load_json(text))
    assert answer["error"].startswith("Ce fichier n'est pas une sauvegarde lisible")
    assert json.dumps(session.state, sort_keys=True) == before


def test_nesting_ignores_brackets_inside_strings():
    assert web._nesting('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert web._nesting('"\\"[[["') == 0
