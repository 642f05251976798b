"""Which story nodes a Citadelle adventure has visited (``gamebook simulate``'s coverage)."""

from __future__ import annotations


def visits(bundle: dict, state: dict) -> set[str]:
    out = {f"epilogue:{e['scenario']}/{e['branch']}" for e in state["epilogues"]}
    menaces = set()
    for entry in state["log"]:
        args = entry.get("args") or {}
        key = entry["key"]
        if key == "scenario.start" and "id" in args:
            out.add(f"scenario:{args['id']}")
            menace = bundle["records"]["scenario"][args["id"]].get("menace")
            if menace:
                menaces.add(f"menace:{menace}")
        elif key == "card.taken" and "key" in args:
            out.add(f"adventure_card:{args['key']}")
        elif key == "exploration.revealed" and "id" in args:
            out.add(f"exploration_card:{args['id']}")
        elif key == "dialogue":
            out.add(f"paragraph:{args['number']}")
        elif key == "quest" and "id" in args:
            out.add(f"side_quest:{args['id']}")
    return out | menaces
