"""The 7th Citadel's automatic policy plays the same scenarios, move for move, as before the
speed-ups of its turn, board and policy code.

The digest below was recorded from the code of commit debc096 (before them): six seeded
scenarios played to their end by the policy, one to four characters.  A change that makes the
policy or the rules play otherwise changes it; if that is meant, record the new digest and say
why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.core import registry
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
DIGEST = "93a8997f05faf7f4224e1de20d8481a40fb1cd23ee0534398ecf27bf1b168cb6"


def test_seeded_scenarios_are_played_as_before() -> None:
    game = registry.get("citadelle")(bundle_for("citadelle", ROOT / "content"))
    h = hashlib.sha256()
    for i in range(6):
        n = 1 + i % 4
        s = Session(game).start({"seed": f"digest-{i}", "players": n, "bots": n})
        assert s.state is not None and s.state.get("phase") == "over"
        h.update(json.dumps([s.actions, s.state], sort_keys=True).encode())
    assert h.hexdigest() == DIGEST
