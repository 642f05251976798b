"""Every game's end says why it ended, who won and where each point came from (issue 29):
the ``outcome`` of seeded all-bot games of every game, as the shared end screen draws it (the
summary as the headline, the ranking under ``why``, each row's details)."""

from __future__ import annotations

import re

import pytest

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for


@pytest.mark.parametrize("game_id", registry.ids())
@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_the_end_says_why_who_and_where_the_points_came_from(game_id, seed):
    game = registry.get(game_id)(bundle_for(game_id))
    n = game.default_players
    s = Session(game).start(game.normalize_setup({"seed": seed, "players": n, "bots": n}))
    out = s.screen()["outcome"]
    assert out is not None
    # why: a whole sentence
    assert re.match(r"[A-ZÀ-Ý«]", out["why"]) and out["why"].rstrip("»").endswith((".", "!"))
    # who: the summary names every winner (a cooperative table: its members in the ranking)
    names = s.names()
    for w in out["winners"]:
        assert names[w] in out["summary"] or any(
            names[w] in r["name"] for r in out["ranking"] if r.get("seat") is None
        )
    # where the points came from: a ranking whose every row says it
    assert out["ranking"]
    for row in out["ranking"]:
        assert row["details"] and all(d.strip() for d in row["details"])
        assert isinstance(row["score"], int)


def test_the_complots_why_elides_before_a_vowel():
    game = registry.get("complots")(bundle_for("complots"))
    names = ["Amaury", "Oriane", "Aymeric", "Isaure"]
    setup = {"seed": "1", "seats": [{"bot": True, "name": n} for n in names]}
    out = Session(game).start(game.normalize_setup(setup)).screen()["outcome"]
    assert "celle d'" in out["why"] and " de A" not in out["why"] and " de O" not in out["why"]
