"""The campaign (« Avant votre première partie », « Le Grand final »): envelope 00 opened
before the first game, and the campaign's winner once the sixth secret sticker is stuck."""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import envelopes
from . import rules as R
from .common import FORMAT_VERSION, _log, _rec, _rules


def new_campaign(bundle: dict, seed: int | str = 0) -> dict:
    """The campaign before its first game: envelope 00 is opened (its story card laid on its
    arc, unsigned; its dilemmas shuffled into the starting deck)."""
    rules = _rules(bundle)
    campaign: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "campaign": bundle["campaign"]["id"],
        "rng": Rng.seed_from(f"campaign:{seed}"),
        "game_no": 0,
        "houses": {
            h: {"prestige": 0, "craving": 0, "ticks": {}, "unlocked": [], "objectives": []}
            for h in bundle["records"].get("house", {})
        },
        "deck": [],
        "events": [],
        "arcs": {},
        "chronicle": {r: [None] * rules["chronicle_slots"] for r in R.RESOURCES},
        "secret_stickers": [],
        "opened": [],
        "epilogues": [],
        "cohesion": 0,
        "dissension": 0,
        "flags": [],
        "history": [],
        "finished": False,
        "winner": None,
        "final_scores": {},
    }
    start = bundle["campaign"].get("start_envelope", 0)
    holder = {"rng": campaign["rng"], "campaign": campaign, "log": [], "seats": []}
    envelopes._open_envelope(bundle, holder, f"{int(start):02d}", signer=None)
    campaign["rng"] = holder["rng"]
    return campaign


def _grand_final(bundle: dict, state: dict) -> None:
    camp = state["campaign"]
    key = f"{int(bundle['campaign'].get('grand_final', 70)):02d}"
    holder_signer = state["leader"]
    envelopes._open_envelope(bundle, state, key, holder_signer)
    weights = bundle["campaign"].get("final_scoring") or {
        "cohesion": {"prestige": 2, "craving": 1},
        "dissension": {"prestige": 1, "craving": 2},
    }
    mood = "cohesion" if camp["cohesion"] >= camp["dissension"] else "dissension"
    w = weights[mood]
    finals = {
        h: v["prestige"] * w.get("prestige", 1) + v["craving"] * w.get("craving", 1)
        for h, v in camp["houses"].items()
    }
    best = max(finals.values()) if finals else 0
    ties = sorted(h for h, v in finals.items() if v == best)
    # ties: the house with the higher house number (the rulebook's prestige tie-break)
    ties.sort(key=lambda h: (_rec(bundle, "house", h) or {}).get("number", 0), reverse=True)
    camp["finished"] = True
    camp["winner"] = ties[0] if ties else None
    camp["final_scores"] = finals
    camp["mood"] = mood
    name = (_rec(bundle, "house", camp["winner"]) or {}).get("name", camp["winner"])
    _log(state, "campaign.winner", house=name, mood=mood, score=best)
