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

from ..core.derived import derived
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


def _goal_map(bundle: dict) -> dict[str, frozenset[str]]:
    return derived(bundle, "goal_map", _compute_goal_map)


def _compute_goal_map(bundle: dict) -> dict[str, frozenset[str]]:
    """For every paragraph (``p:N``) and card number (``c:N``): the objectives its effects can
    lead to through reads, takes, choices and actions (a fixed point over the content).
    Computed once per bundle."""
    recs = bundle["records"]
    edges: dict[str, set[str]] = {}
    direct: dict[str, set[str]] = {}

    def scan(node: str, effects: list[dict]) -> None:
        for effect in effects:
            ((name, value),) = effect.items()
            if name == "objective":
                direct.setdefault(node, set()).add(value)
            elif name == "read":
                edges.setdefault(node, set()).add(f"p:{value}")
            elif name in ("take", "take_if_available"):
                edges.setdefault(node, set()).add(f"c:{value}")
            elif name in ("branch", "roll"):
                scan(node, (value.get("then") or []) + (value.get("otherwise") or []))

    def actions_effects(actions: list[dict]) -> list[dict]:
        out: list[dict] = []
        for a in actions or []:
            out += (a.get("success") or []) + (a.get("failure") or [])
            for line in a.get("lines") or []:
                out += (line.get("success") or []) + (line.get("failure") or [])
        return out

    for n, para in recs.get("paragraph", {}).items():
        effects = list(para.get("effects") or []) + actions_effects(para.get("actions"))
        for choice in para.get("choices") or []:
            effects += choice.get("effects") or []
            if choice.get("read") is not None:
                effects.append({"read": choice["read"]})
        scan(f"p:{n}", effects)
    for card in recs.get("adventure_card", {}).values():
        node = f"c:{card['number']}"
        scan(node, list(card.get("effects") or []) + actions_effects(card.get("actions")))
        for arrow in card.get("arrows") or []:
            if arrow.get("card") is not None:
                edges.setdefault(node, set()).add(f"c:{arrow['card']}")
    goals = {k: set(v) for k, v in direct.items()}
    changed = True
    while changed:  # propagate backwards until nothing changes
        changed = False
        for node, targets in edges.items():
            acc = goals.setdefault(node, set())
            before = len(acc)
            for target in targets:
                acc |= goals.get(target, set())
            changed |= len(acc) != before
    result = {k: frozenset(v) for k, v in goals.items() if v}
    return result


def _aims(bundle: dict, state: dict, effects: list[dict]) -> bool:
    """Do these effects lead to an objective of this scenario not yet reached?"""
    scenario = bundle["records"]["scenario"].get(state["scenario"] or "", {})
    wanted = {o["id"] for o in scenario.get("objectives") or []} - set(state["objectives"])
    if not wanted:
        return False
    goals = _goal_map(bundle)
    for effect in effects:
        ((name, value),) = effect.items()
        if name == "objective" and value in wanted:
            return True
        key = {"read": "p", "take": "c", "take_if_available": "c"}.get(name)
        if key and goals.get(f"{key}:{value}", frozenset()) & wanted:
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
        if not choices:
            return actions[0]
        para = bundle["records"]["paragraph"][p["paragraph"]]

        def effects(c: dict) -> list[dict]:
            choice = para["choices"][c["index"]]
            extra = [{"read": choice["read"]}] if choice.get("read") is not None else []
            return list(choice.get("effects") or []) + extra

        aims = [c for c in choices if _aims(bundle, state, effects(c))]
        return _pick(state, aims or choices)
    if t == "citadel":
        buys = [a for a in actions if a["type"] == "destiny"]
        return _pick(state, buys) if buys else {"type": "depart"}
    if t != "turn":
        return actions[0]

    acts = [a for a in actions if a["type"] == "act" and not a["join"]]
    home = [a for a in acts if _returns(bundle, state, a)]
    hurt = any(c["conscious"] and c["hp"] <= HURT for c in state["characters"])
    scenario = bundle["records"]["scenario"].get(state["scenario"] or "", {})
    goals = {o["id"] for o in scenario.get("objectives") or []}
    done = bool(goals) and goals <= set(state["objectives"])
    if hurt or done or state.get("scenario_turns", 0) > LONG:
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
    aiming = [a for a in acts if not _returns(bundle, state, a)
              and _aims(bundle, state, _success(bundle, state, a))]  # fmt: skip
    if aiming:
        return _pick(state, aiming)
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
