"""Which story nodes a Dilemme campaign has visited (``gamebook simulate``'s coverage)."""

from __future__ import annotations


def visits(bundle: dict, state: dict) -> set[str]:
    rec = bundle["records"]
    camp = state["campaign"]
    out = {f"envelope:{e}" for e in camp["opened"]}
    for pile in camp["arcs"].values():
        for entry in pile:
            kind = "epilogue" if entry["card"] in rec.get("epilogue", {}) else "story_card"
            out.add(f"{kind}:{entry['card']}")
    for game in camp["history"]:
        for t in game["timeline"]:
            out.add(f"dilemma:{t['card']}")
            out.add(f"outcome:{t['card']}/{t['side']}")
    out |= {f"secret_sticker:{s}" for s in camp["secret_stickers"]}
    for entry in state["log"]:
        args = entry.get("args") or {}
        if entry["key"] == "immediate.drawn" and "card" in args:
            out.add(f"immediate_card:{args['card']}")
        elif entry["key"] == "event.start" and "card" in args:
            out.add(f"event_card:{args['card']}")
        elif entry["key"] == "chronicle.stuck" and "card" in args:
            out.add(f"chronicle_sticker:{args['card']}")
    return out
