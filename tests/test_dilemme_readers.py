"""Listing the Dilemme's actions reads the state and writes nothing into it: an at-will ability
with uses left used to ``setdefault`` its counters into the state it was asked about, so an
earlier state changed later and a genuine save could fail its own replay."""

from __future__ import annotations

import json

from test_dilemme_engine import NAMES, make_bundle

from engine.dilemme.game import apply, legal_actions, new_campaign, new_game


def test_listing_an_at_will_ability_writes_no_counter_into_the_state():
    bundle = make_bundle()
    bundle["records"]["house"]["julius"]["achievements"] = [
        {
            "id": "tresor",
            "kind": "mechanic",
            "condition": "…",
            "boxes": 1,
            "ability": {"trigger": "at_will", "per_game": 1, "uses": 2, "text": "3 → 2",
                        "gains": {"coins": -3, "power": 2}},
        }
    ]  # fmt: skip
    camp = new_campaign(bundle, 1)
    camp["houses"]["julius"]["unlocked"] = ["tresor"]
    seats = [{"house": h.lower(), "bot": True} for h in NAMES]
    s = new_game(bundle, camp, seats, 1)
    while s["phase"] == "draft":
        s = apply(bundle, s, legal_actions(bundle, s, s["pending"]["seat"], False)[0])
    s.pop("ability_uses", None)
    s["campaign"].pop("ability_uses", None)
    before = json.dumps(s, sort_keys=True)
    use = {"type": "use_ability", "seat": 1, "source": "julius/tresor"}
    assert use in legal_actions(bundle, s, 1)
    assert json.dumps(s, sort_keys=True) == before
