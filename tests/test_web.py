"""The browser session (``engine.web.WebSession``) in CPython: what the play page calls.

Whole games are played through the same JSON calls as the page, every screen rendered, for
every registered game, so a log entry without a French message or a screen that cannot be
built fails here first.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from engine import web
from engine.core import registry
from engine.core.save import nesting
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
GAMES = registry.ids()


@pytest.fixture(scope="module")
def bundles() -> dict[str, str]:
    return {g: json.dumps(bundle_for(g, ROOT / "content")) for g in GAMES}


def _logged_keys(folder: Path) -> set[str]:
    """Every constant key passed to ``log(state, "…")`` or ``_log(state, "…")`` in a game's
    modules."""
    keys = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("_log", "log")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                keys.add(node.args[1].value)
    return keys


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


@pytest.mark.parametrize("game", GAMES)
def test_every_logged_key_has_a_french_message(game):
    """Keys logged only on rare paths never show up in bot games: each must still be written
    in the game's string table (``engine/<game>/text_fr.py``)."""
    folder = ROOT / "engine" / game
    keys = _logged_keys(folder)
    assert keys, "no log call found: the test would prove nothing"
    assert sorted(keys - _string_constants(folder / "text_fr.py")) == []


def _choices(screen: dict) -> list[dict]:
    out = []
    for g in screen["groups"]:
        out.extend(g["choices"])
    return out


def _play(session: web.WebSession, rng: random.Random, decisions: int) -> list[dict]:
    screens = []
    screen = json.loads(session.screen_json())
    for _ in range(decisions):
        if screen["handoff"]:
            screen = json.loads(session.handed_json())
            continue
        if screen["over"] and screen["sequel"]:
            screen = json.loads(session.next_json())  # the page's "Partie suivante" button
            continue
        options = _choices(screen)
        if screen["over"] or not options:
            break
        pick = rng.choice(options)["action"]
        screen = json.loads(session.act_json(json.dumps(pick)))
        assert "error" not in screen, screen.get("error")
        screens.append(screen)
    return screens


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_long_games_render_every_screen_and_survive_save_and_load(bundles, game, seed):
    session = web.WebSession(game, bundles[game])
    info = json.loads(session.info_json())
    n = info["default_players"]
    session.start_json(json.dumps({"seed": seed, "players": n, "bots": n - 1}))
    screens = _play(session, random.Random(seed), 400)
    assert len(screens) >= 30 or screens[-1]["over"]
    assert any(s["log"] for s in screens)
    assert all(s["status"] for s in screens)
    saved = session.save_json()
    other = web.WebSession(game, bundles[game])
    other.start_json(json.dumps({"seed": seed + 100}))
    resumed = json.loads(other.load_json(saved))
    assert "error" not in resumed
    assert other.session.state == session.session.state
    assert resumed["groups"] == json.loads(session.screen_json())["groups"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,  # fatal for Pyodide's stack, not a RecursionError there
        '{"format": "gamebook-save", "state": ' + '{"a": ' * 150 + "1" + "}" * 151,
    ],
)
def test_deeply_nested_files_are_refused_before_parsing(bundles, text):
    session = web.WebSession("dilemme", bundles["dilemme"])
    session.start_json(json.dumps({"seed": 4}))
    before = json.dumps(session.session.state, sort_keys=True)
    answer = json.loads(session.load_json(text))
    assert answer["error"].startswith("Ce fichier n'est pas une sauvegarde lisible")
    assert json.dumps(session.session.state, sort_keys=True) == before


def test_nesting_ignores_brackets_inside_strings():
    assert nesting('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert nesting('"\\"[[["') == 0


def test_a_terminal_save_opens_in_the_browser_and_the_reverse(bundles, tmp_path):
    """One save format: what `gamebook play --save` writes, the page loads, and back."""
    from engine.core.session import Session
    from pipeline.play import terminal

    game = registry.get("dilemme")(json.loads(bundles["dilemme"]))
    session = Session(game).start({"seed": "9", "players": 4, "bots": 3})
    session.act(_choices(session.screen())[0]["action"])
    path = tmp_path / "partie.json"
    terminal.write_save(path, session.save_text())
    page = web.WebSession("dilemme", bundles["dilemme"])
    screen = json.loads(page.load_json(path.read_text(encoding="utf-8")))
    assert "error" not in screen
    assert page.session.state == session.state
    page.act_json(json.dumps(_choices(screen)[0]["action"]))
    back = Session(game)
    back.load(page.save_json())
    assert back.state == page.session.state


def test_an_edited_save_is_refused_and_the_game_left_untouched(bundles):
    page = web.WebSession("dilemme", bundles["dilemme"])
    page.start_json(json.dumps({"seed": 5, "players": 4, "bots": 3}))
    save = json.loads(page.save_json())
    save["state"]["seats"][0]["coins"] = 99
    other = web.WebSession("dilemme", bundles["dilemme"])
    other.start_json(json.dumps({"seed": 6, "players": 4, "bots": 3}))
    before = json.dumps(other.session.state, sort_keys=True)
    answer = json.loads(other.load_json(json.dumps(save)))
    assert "modifiée ou endommagée" in answer["error"]
    assert json.dumps(other.session.state, sort_keys=True) == before
