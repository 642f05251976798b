"""Complots' bots play the same games, move for move, as before their speed-ups.

The digest below was recorded from the code of commit debc096 (before the bots read the history
of claims once per decision, and before the session's and the view's shortcuts): 48 seeded
all-bot games, two to eight seats, every persona.  A change that makes a bot decide otherwise,
or the rules play otherwise, changes it; if that is meant, record the new digest and say why in
the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
DIGEST = "a0104d9b71e068cd41d5695de5c02b3d76affc69133f5e6b5283bd759d0f9b78"
PERSONAS = ["prudent", "bluffeur", "agressif", "malin"]


def test_seeded_games_are_played_as_before() -> None:
    game = registry.get("complots")(bundle_for("complots", ROOT / "content"))
    h = hashlib.sha256()
    for i in range(48):
        n = 2 + i % 7
        seats = [{"bot": True, "persona": PERSONAS[(i + k) % 4], "name": f"s{k}"} for k in range(n)]
        s = Session(game).start({"seed": f"digest-{i}", "seats": seats})
        assert s.state is not None and s.state["winner"] is not None
        h.update(json.dumps([s.actions, s.state], sort_keys=True).encode())
    assert h.hexdigest() == DIGEST
