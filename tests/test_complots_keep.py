"""Complots: the cards a player keeps after an exchange are a set.  The same cards in another
order used to be refused (« not a legal action »), by ``apply`` and by the session."""

from __future__ import annotations

from pathlib import Path

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent


def test_keep_is_accepted_whatever_the_order_of_its_cards():
    game = registry.get("complots")(bundle_for("complots", ROOT / "content"))
    found = 0
    for seed in range(40):
        session = Session(game).start({"seed": f"garde:{seed}", "players": 3, "bots": 3})
        for entry in session.actions:
            action = entry.get("action") or {}
            if action.get("type") == "keep" and len(set(action["cards"])) > 1:
                found += 1
        if found:
            break
    assert found, "no exchange in forty games: this test would prove nothing"
    # replay up to a keep with its cards reversed, by apply and through the session
    state = game.new_game(session.setup)
    for entry in session.actions:
        action = entry["action"]
        if action.get("type") == "keep" and len(set(action["cards"])) > 1:
            other = {**action, "cards": action["cards"][::-1]}
            assert game.apply(state, other) == game.apply(state, action)
            human = Session(game)
            human.setup, human.state = session.setup, state
            human.setup = {**session.setup, "seats": [dict(s) for s in session.setup["seats"]]}
            human.setup["seats"][action["seat"]]["bot"] = False
            human.act(other)
            assert human.actions[0]["action"] == action
            return
        state = game.apply(state, action)
