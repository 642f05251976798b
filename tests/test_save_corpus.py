"""The crafted-save corpus (``tests/save_corpus.py``) against every registered game, in CPython:
each file is refused with a ``SaveError`` whose message is French, nothing else is raised, and
the game in progress is left exactly as it was — both through ``Session.load`` and through the
browser's ``WebSession.load_json`` (the page shows the message, never a traceback)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from save_corpus import crafted, reencoded

from engine import web
from engine.core import registry
from engine.core.save import SaveError
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
GAMES = registry.ids()
FRENCH = ("Ce ", "Cette ", "Impossible", "Le ", "La ")


def _played(game_id: str) -> web.WebSession:
    """A game with a few human moves and the bots' answers."""
    session = web.WebSession(game_id, json.dumps(bundle_for(game_id, ROOT / "content")))
    session.start_json(json.dumps({"seed": "corpus"}))
    pick = random.Random(game_id)
    for _ in range(6):
        s = session.session
        seats, _ = s.waiting()
        if not seats:
            break
        legal = s.game.legal_actions(s.state, seats[0])
        session.act_json(json.dumps(pick.choice(legal)))
        s.handed_over()
    return session


@pytest.fixture(scope="module", params=GAMES)
def played(request) -> web.WebSession:
    return _played(request.param)


def test_every_crafted_save_is_refused_in_french(played: web.WebSession) -> None:
    game_id = played.game.id
    other = next((g for g in GAMES if g != game_id), "autre")
    valid = played.save_json()
    before = (valid, played.screen_json())
    accepted, wrong = [], []
    fresh = played.game.new_game(played.session.setup)
    for name, text in crafted(valid, other, fresh):
        try:
            Session(played.game).load(text)
        except SaveError as exc:
            if not str(exc).startswith(FRENCH):
                wrong.append(f"{name}: {exc}")
        except Exception as exc:  # a traceback on the page
            wrong.append(f"{name}: {type(exc).__name__}: {exc}")
        else:
            accepted.append(name)
        page_text = text if isinstance(text, str) else text.decode("utf-8", "replace")
        answer = json.loads(played.load_json(page_text))
        if "error" not in answer:
            accepted.append(f"{name} (page)")
            played.load_json(valid)
            continue
        assert (played.save_json(), played.screen_json()) == before, name
    assert accepted == [], f"{game_id}: crafted saves accepted: {accepted}"
    assert wrong == [], f"{game_id}: " + "\n".join(wrong)


def test_the_real_save_still_loads(played: web.WebSession) -> None:
    again = Session(played.game)
    again.load(played.save_json())
    assert again.state == played.session.state


def test_a_save_an_editor_reencoded_still_loads(played: web.WebSession) -> None:
    """A UTF-8 byte-order mark, UTF-16 with its mark (as Windows tools write): the same save."""
    valid = played.save_json()
    for name, data in reencoded(valid):
        again = Session(played.game)
        again.load(data)
        assert again.state == played.session.state, name
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8")
        assert "error" not in json.loads(played.load_json(text)), name


def test_a_save_from_a_newer_engine_says_so(played: web.WebSession) -> None:
    data = json.loads(played.save_json())
    data["state"]["format_version"] = played.game.state_version + 1
    try:
        Session(played.game).load(json.dumps(data))
    except SaveError as exc:
        assert "plus récente" in str(exc), str(exc)
    else:
        raise AssertionError("a newer state was loaded")
    data["version"] = 99
    with pytest.raises(SaveError, match="plus récente"):
        Session(played.game).load(json.dumps(data))
