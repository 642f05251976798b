"""The automatic policy (``gamebook play citadelle --auto``, simulations): plays every character
through ``legal_actions`` only.  It is deterministic — no randomness of its own: where it must
pick among equals it hashes the state's progress — so the same seed gives the same adventure.

It explores first (face-down exploration cards, then the actions of the terrain), draws enough
cards to have a fair chance without emptying the deck, recovers when the deck runs low, keeps
useful skills, goes back to the Citadel when hit points run low, and spends hope at the Citadel.
"""

from __future__ import annotations

from .game import _action_spec, legal_actions


def _pick(state: dict, options: list[dict]) -> dict:
    salt = len(state["log"]) * 2654435761 + state["turns"] * 40503
    return options[salt % len(options)]


def _returns(bundle: dict, state: dict, action: dict) -> bool:
    spec, _ = _action_spec(bundle, state, action["source"], action["index"])
    effects = (spec or {}).get("success") or []
    return any("return_to_citadel" in e for e in effects)


def choose(bundle: dict, state: dict) -> dict:
    actions = legal_actions(bundle, state)
    p = state["pending"]
    t = p["type"]
    if t == "prepare":
        selects = [a for a in actions if a["type"] == "select"]
        return selects[0] if selects else actions[-1]
    if t == "draw":
        action = state["action"]
        spec, _ = _action_spec(bundle, state, action["source"], action["index"])
        if action.get("die_key"):
            need = state["dice"][action["die_key"]]["value"]
        else:
            need = (spec or {}).get("difficulty", 0)
        counts = [a["count"] for a in actions]
        ch = state["characters"][action["character"]]
        want = max(counts[0], min(need + 1, counts[-1]))
        if ch["hp"] <= 3:  # every card may cost a hit point soon: draw the minimum
            want = counts[0]
        return {"type": "draw", "count": want}
    if t == "keep":
        keeps = [a for a in actions if a["type"] == "keep"]
        return keeps[0] if keeps else actions[-1]
    if t == "dialogue":
        choices = [a for a in actions if a["type"] == "choose"]
        return _pick(state, choices) if choices else actions[0]
    if t == "citadel":
        buys = [a for a in actions if a["type"] == "destiny" and a["character"] == 0]
        return buys[0] if buys else {"type": "depart"}
    if t != "turn":
        return actions[0]
    acts = [a for a in actions if a["type"] == "act" and not a["join"]]
    low_hp = any(c["conscious"] and c["hp"] <= 4 for c in state["characters"])
    home = [a for a in acts if _returns(bundle, state, a)]
    if home and (low_hp or state["turns"] > 120):
        return home[0]
    reveals = [a for a in acts if a["source"].startswith("explore:")]
    if reveals:
        return reveals[0]
    for a in actions:
        if a["type"] == "recover":
            c = state["characters"][a["character"]]
            if len(c["deck"]) < 3 and c["hp"] > 6:
                return a
    searches = [a for a in actions if a["type"] == "search"]
    if searches:
        return searches[0]
    local = [a for a in acts if not _returns(bundle, state, a)
             and not a["source"].startswith(("hand:", "purse:", "quest:", "global:"))]  # fmt: skip
    moves = [a for a in actions if a["type"] == "move"]
    options = local + moves if local else moves or acts or actions
    return _pick(state, options)
