"""The automatic policy (``gamebook play citadelle --auto``, simulations): plays every character
through ``legal_actions`` only.  It is deterministic — no randomness of its own: where it must
pick among equals it hashes the state's progress — so the same seed gives the same adventure.

What it does, in order: answer what is asked (preparation, draw, keep, dialogue); go home when a
character is hurt or the scenario has gone on long enough (walking the board to the terrain
whose action returns to the Citadel); reveal exploration cards; take actions that reach an
objective not yet reached or set a flag not yet set; recover when a deck runs low; otherwise
explore the board.
"""

from __future__ import annotations

from collections import deque

from .game import _action_spec, legal_actions

HURT = 4  # hit points at which a character wants to go home
LONG = 90  # turns in a scenario after which the group heads home


def _pick(state: dict, options: list[dict]) -> dict:
    salt = len(state["log"]) * 2654435761 + state["turns"] * 40503
    return options[salt % len(options)]


def _success(bundle: dict, state: dict, action: dict) -> list[dict]:
    spec, _ = _action_spec(bundle, state, action["source"], action["index"])
    if not spec:
        return []
    if spec.get("lines"):
        return [e for line in spec["lines"] for e in line.get("success") or []]
    return spec.get("success") or []


def _returns(bundle: dict, state: dict, action: dict) -> bool:
    return any("return_to_citadel" in e for e in _success(bundle, state, action))


def _progress(bundle: dict, state: dict, action: dict) -> bool:
    """Does success reach something new: an objective or a flag not yet set, a paragraph not yet
    read, a card still in the box, a quest, hope or a building box?"""
    read = set(state.get("read") or [])
    for effect in _success(bundle, state, action):
        ((name, value),) = effect.items()
        if name == "objective" and value not in state["objectives"]:
            return True
        if name == "flag" and value not in state["flags"]:
            return True
        if name == "read" and str(value) not in read:
            return True
        if name in ("take", "take_if_available") and state["box"].get(str(value)):
            return True
        if name in ("quest", "hope", "build"):
            return True
    return False


def _frontier(bundle: dict, state: dict) -> set[str]:
    """Terrains next to a face-down exploration card: where exploring goes on."""
    return {slot["from"] for slot in state["slots"].values()
            if not slot.get("revealed") and slot.get("exploration")}  # fmt: skip


def _step_towards(state: dict, start: str, goals: set[str]) -> str | None:
    """The first terrain on a shortest path from ``start`` to any of ``goals``."""
    from .rules import DIRECTIONS

    board = state["board"]
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goals and here != start:
            while previous[here] != start:
                here = previous[here]  # type: ignore[assignment]
            return here
        x, y = (int(v) for v in here.split(","))
        for dx, dy in DIRECTIONS.values():
            nxt = f"{x + dx},{y + dy}"
            if nxt in board and nxt not in previous:
                previous[nxt] = here
                queue.append(nxt)
    return None


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
    home = [a for a in acts if _returns(bundle, state, a)]
    hurt = any(c["conscious"] and c["hp"] <= HURT for c in state["characters"])
    if hurt or state.get("scenario_turns", 0) > LONG:
        if home:
            return home[0]
        goals = {a["source"].split(":")[1] for a in _all_home(bundle, state)}
        for a in actions:
            if a["type"] == "move":
                here = state["characters"][a["character"]]["at"]
                if a["to"] == _step_towards(state, here, goals):
                    return a
    reveals = [a for a in acts if a["source"].startswith("explore:")]
    if reveals:
        return reveals[0]
    for a in actions:
        if a["type"] == "recover":
            c = state["characters"][a["character"]]
            if len(c["deck"]) < 3 and c["hp"] > HURT + 2:
                return a
    searches = [a for a in actions if a["type"] == "search"]
    if searches:
        return searches[0]
    useful = [a for a in acts if not _returns(bundle, state, a) and _progress(bundle, state, a)]
    if useful:
        return _pick(state, useful)
    frontier = _frontier(bundle, state)
    for a in actions:
        if a["type"] == "move" and frontier:
            here = state["characters"][a["character"]]["at"]
            if a["to"] == _step_towards(state, here, frontier):
                return a
    local = [a for a in acts if not _returns(bundle, state, a)
             and not a["source"].startswith(("hand:", "purse:", "quest:", "global:"))]  # fmt: skip
    moves = [a for a in actions if a["type"] == "move"]
    options = local + moves if local else moves or acts or actions
    return _pick(state, options)


def _all_home(bundle: dict, state: dict) -> list[dict]:
    """Every terrain action on the board that returns to the Citadel (wherever it is)."""
    out = []
    for cell, spot in state["board"].items():
        from .game import _adv

        for i, action in enumerate(_adv(bundle, spot["terrain"]).get("actions") or []):
            if any("return_to_citadel" in e for e in action.get("success") or []):
                out.append({"source": f"terrain:{cell}", "index": i})
        for ev in spot["events"]:
            for i, action in enumerate(_adv(bundle, ev["key"]).get("actions") or []):
                if any("return_to_citadel" in e for e in action.get("success") or []):
                    out.append({"source": f"event:{cell}:{ev['key']}", "index": i})
    return out
