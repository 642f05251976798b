"""The automatic policy (``gamebook play citadelle --auto``, simulations, bots): it plays the
whole group from what the table shows (``game.view``: no deck order, no face-down card, the
box as how many copies of each number are left) and the legal actions.  Deterministic: where
it must pick among equals it takes the first.

What it does, in order: answer what is asked (who leads, what to select, how many cards to
draw, what to keep, what to say); go home when the objectives are reached, when the freshest
character has no more hit points than the longest way back costs, or when the scenario has
gone on long enough — the whole group walking to the card whose action returns to the Citadel;
otherwise aim at the objectives the scenario requires, then the optional ones: first the ways
the content names (``goal_map(deep=False)``: actions, reads and cards that lead there), the one
that costs the fewest cards first (``effort``), walking the freshest character to the Terrain
where such an action waits; then the land whose arrows name a card that leads there; then,
whichever is nearest, the flags and items those ways require (``goal_map``) or any unexplored
land; then what still has something to give (never an action whose reward is gone, nor one
failed ``TRIES`` times); the freshest character acts.  Every card drawn costs half a hit point
once the deck is spent (« Récupération »), so exploring what cannot lead to an objective is
left for last."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..core.derived import derived
from ..core.rng import Rng
from . import records as rec
from .actions import offers, spec_of, traits
from .board import DIRECTIONS, coords
from .effects import holds

HURT = 3  # hit points at which a character wants to go home

SAFE = 1  # hit points a character keeps, beyond the way home, after a failed try
LONG = 150  # actions in a scenario after which the group heads home
STARS_PER_CARD = 0.75  # what a drawn card brings on average, from the starting decks
TRIES = 3  # failures of one action after which the policy looks elsewhere


# --------------------------------------------------------------------------- what effects lead to


def _action_effects(action: dict) -> list[dict]:
    out = list(action.get("success") or [])
    for line in action.get("lines") or []:
        out += line.get("success") or []
    return out


def _any_outcome(action: dict) -> list[dict]:
    """What an action may bring, succeeded or failed (the curious group wants to see both)."""
    out = list(action.get("success") or []) + list(action.get("failure") or [])
    for line in action.get("lines") or []:
        out += list(line.get("success") or []) + list(line.get("failure") or [])
    return out


def _flat(effects: list[dict]) -> list[dict]:
    out: list[dict] = []
    for effect in effects:
        ((name, value),) = effect.items()
        out.append(effect)
        if name in ("branch", "roll"):
            out += _flat((value.get("then") or []) + (value.get("otherwise") or []))
    return out


def goal_map(bundle: dict, deep: bool = True) -> dict[str, frozenset[str]]:
    """For every paragraph (``p:N``) and card number (``c:N``): the objectives its effects can
    lead to through reads, takes, choices and actions (a fixed point over the content)."""
    if not deep:  # without the flags and items that steps require
        return derived(bundle, "goal_map_direct", lambda b: _compute_goal_map(b, False))
    return derived(bundle, "goal_map", _compute_goal_map)


def _atoms(cond: Any) -> list[tuple[str, Any]]:
    """The positive conditions of a ``requires``: flags to set and items to hold."""
    if not cond:
        return []
    atoms = cond if isinstance(cond, list) else [{k: v} for k, v in cond.items()]
    out = []
    for atom in atoms:
        for name, value in atom.items():
            if name == "any":
                for alt in value:
                    out += _atoms(alt)
            elif name in ("flag", "item"):
                out.append((name, value))
    return out


def _compute_goal_map(bundle: dict, deep: bool = True) -> dict[str, frozenset[str]]:
    """Nodes: ``p:N`` paragraphs, ``c:N`` numbered cards, ``x:N`` exploration cards,
    ``a:...`` one action or choice, ``f:F`` a flag.  A flag leads where the actions and
    choices that require it lead; an item (``requires: {item: N}``) where its card does."""
    recs = bundle["records"]
    edges: dict[str, set[str]] = {}
    direct: dict[str, set[str]] = {}

    def scan(node: str, effects: list[dict]) -> None:
        for effect in _flat(effects):
            ((name, value),) = effect.items()
            if name == "objective":
                direct.setdefault(node, set()).add(value)
            elif name == "read":
                edges.setdefault(node, set()).add(f"p:{value}")
            elif name in ("take", "take_if_available"):
                edges.setdefault(node, set()).add(f"c:{value}")
            elif name == "flag" and deep:
                edges.setdefault(node, set()).add(f"f:{value}")

    def step(owner: str, key: str, requires: Any, effects: list[dict]) -> None:
        """An action or a choice: the owner leads where it leads, and so do the flags and
        items it requires."""
        node = f"a:{owner}:{key}"
        scan(node, effects)
        edges.setdefault(owner, set()).add(node)
        for name, value in _atoms(requires) if deep else []:
            edges.setdefault(f"f:{value}" if name == "flag" else f"c:{value}", set()).add(node)

    def actions(owner: str, record: dict) -> None:
        for i, a in enumerate(record.get("actions") or []):
            step(owner, str(i), a.get("requires"), _action_effects(a))

    for n, para in recs.get("paragraph", {}).items():
        scan(f"p:{n}", list(para.get("effects") or []))
        actions(f"p:{n}", para)
        for i, choice in enumerate(para.get("choices") or []):
            effects = list(choice.get("effects") or [])
            if choice.get("read") is not None:
                effects.append({"read": choice["read"]})
            step(f"p:{n}", f"choice{i}", choice.get("requires"), effects)
    for card in recs.get("adventure_card", {}).values():
        node = f"c:{card['number']}"
        scan(node, list(card.get("effects") or []))
        actions(node, card)
        for arrow in card.get("arrows") or []:
            if arrow.get("card") is not None:
                edges.setdefault(node, set()).add(f"c:{arrow['card']}")
        for n in card.get("hidden_numbers") or []:
            edges.setdefault(node, set()).add(f"c:{n}")
    for card in recs.get("exploration_card", {}).values():
        node = f"x:{card['id']}"
        scan(node, list(card.get("effects") or []))
        actions(node, card)
    goals = {k: set(v) for k, v in direct.items()}
    changed = True
    while changed:
        changed = False
        for node, targets in edges.items():
            acc = goals.setdefault(node, set())
            before = len(acc)
            for target in targets:
                acc |= goals.get(target, set())
            changed |= len(acc) != before
    return {k: frozenset(v) for k, v in goals.items() if v}


def wanted(bundle: dict, view: dict, required: bool = False) -> set[str]:
    """The scenario's objectives not reached yet (``required``: the optional ones apart)."""
    scen = rec.scenario(bundle, view.get("scenario"))
    return {
        o["id"] for o in scen.get("objectives") or [] if not (required and o.get("optional"))
    } - set(view["objectives"])


def _aims(
    bundle: dict,
    view: dict,
    effects: list[dict],
    want: set[str] | None = None,
    deep: bool = True,
) -> bool:
    """Do these effects lead to an objective of this scenario not yet reached (or one of
    ``want``)?"""
    want = wanted(bundle, view) if want is None else want
    if not want:
        return False
    goals = goal_map(bundle, deep)
    for effect in _flat(effects):
        ((name, value),) = effect.items()
        if name == "objective" and value in want:
            return True
        if name == "flag" and value in view["flags"]:
            continue  # already set: nothing new on that way
        if name == "read":
            fresh = str(value) not in set(view.get("read") or [])
            if fresh and goals.get(f"p:{value}", frozenset()) & want:
                return True  # not read yet: where it may lead is still open
            if _paragraph_aims(bundle, view, str(value), want, set(), deep):
                return True
            continue
        node = {"take": "c", "take_if_available": "c", "flag": "f"}.get(name)
        if node and goals.get(f"{node}:{value}", frozenset()) & want:
            if node == "c" and not view["box"].get(str(value)):
                continue  # the card is out of the box: that way is closed
            return True
    return False


def _paragraph_aims(
    bundle: dict, view: dict, n: str, want: set[str], seen: set[str], deep: bool = True
) -> bool:
    """Does reading paragraph ``n`` now lead to one of ``want``: its own effects, or one of
    the choices and actions it would offer as things stand (their conditions met)?"""
    if n in seen or len(seen) > 40:
        return False
    seen.add(n)
    para = rec.recs(bundle, "paragraph").get(n)
    if para is None:
        return False
    options: list[list[dict]] = [list(para.get("effects") or [])]
    for a in para.get("actions") or []:
        if not a.get("requires") or holds(bundle, view, a["requires"]):
            options.append(_action_effects(a))
    for choice in para.get("choices") or []:
        if not choice.get("requires") or holds(bundle, view, choice["requires"]):
            effects = list(choice.get("effects") or [])
            if choice.get("read") is not None:
                effects.append({"read": choice["read"]})
            options.append(effects)
    goals = goal_map(bundle, deep)
    for effects in options:
        for effect in _flat(effects):
            ((name, value),) = effect.items()
            if name == "objective" and value in want:
                return True
            if name == "read" and _paragraph_aims(bundle, view, str(value), want, seen, deep):
                return True
            node = None
            if name == "flag" and value not in view["flags"]:
                node = f"f:{value}"
            elif name in ("take", "take_if_available") and view["box"].get(str(value)):
                node = f"c:{value}"  # out of the box: that way is closed
            if node and goals.get(node, frozenset()) & want:
                return True
    return False


def _gives(bundle: dict, view: dict, effects: list[dict]) -> bool:
    """Does success still give something: an objective or a flag not yet set, a paragraph not
    yet read, a card still in the box, a quest step, hope, a building box, a skill?"""
    read = set(view.get("read") or [])
    for effect in _flat(effects):
        ((name, value),) = effect.items()
        if name == "objective" and value not in view["objectives"]:
            return True
        if name == "flag" and value not in view["flags"]:
            return True
        if name == "read" and str(value) not in read:
            return True
        if name in ("take", "take_if_available") and view["box"].get(str(value)):
            return True
        if name == "quest" and view["citadel"]["side_quests"].get(value["id"]) != value["state"]:
            return True
        if name in ("hope", "build", "add_skill", "recover"):
            return True
    return False


def _returns(effects: list[dict]) -> bool:
    return any("return_to_citadel" in e for e in _flat(effects))


# --------------------------------------------------------------------------- the table


def _failures(view: dict) -> dict[str, int]:
    """How often each action title has failed in this scenario (read from the log)."""
    out: dict[str, int] = {}
    for entry in reversed(view["log"]):
        if entry["key"] == "scenario.start":
            break
        if entry["key"] == "action.result" and not entry["args"].get("ok"):
            key = entry["args"].get("title") or entry["args"].get("verb", "")
            out[key] = out.get(key, 0) + 1
    return out


def _step_towards(view: dict, start: str, goals: set[str]) -> str | None:
    """The first Terrain on a shortest path from ``start`` to any of ``goals``."""
    board = view["board"]
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goals and here != start:
            while previous[here] != start:
                here = previous[here]  # type: ignore[assignment]
            return here
        x, y = coords(here)
        for dx, dy in DIRECTIONS.values():
            nxt = f"{x + dx},{y + dy}"
            if nxt in board and nxt not in previous:
                previous[nxt] = here
                queue.append(nxt)
    return None


def _home_cells(bundle: dict, view: dict) -> set[str]:
    """Terrains where an action (on the Terrain or a linked event) returns to the Citadel."""
    out = set()
    for cell, spot in view["board"].items():
        for key in [spot["terrain"], *(e["key"] for e in spot["events"])]:
            if _card_returns(bundle, key):
                out.add(cell)
    return out


def _card_returns(bundle: dict, key: str) -> bool:
    """Does one of this adventure card's actions return to the Citadel once it succeeds?
    (a pure function of the content, kept per bundle)"""
    known = derived(bundle, "citadelle_card_returns", lambda _: {})
    if key not in known:
        actions = rec.adv(bundle, key).get("actions") or []
        known[key] = any(_returns(_action_effects(a)) for a in actions)
    return known[key]


def _leading(view: dict, bundle: dict | None = None, want: set[str] | None = None) -> set[str]:
    """Face-down exploration places (with ``want``: only those whose arrow names a card that
    leads straight to one of those objectives)."""
    direct = goal_map(bundle, deep=False) if bundle is not None and want else {}
    return {
        key
        for key, slot in view["slots"].items()
        if not slot.get("revealed")
        and (not direct or bool(direct.get(f"c:{slot.get('card')}", frozenset()) & (want or set())))
    }


def _frontier(view: dict, bundle: dict | None = None, want: set[str] | None = None) -> set[str]:
    """Terrains next to a face-down exploration card: where exploring goes on (with ``want``:
    only next to the places ``_leading`` keeps)."""
    out = set()
    for key in _leading(view, bundle, want):
        for d in DIRECTIONS.values():
            x, y = coords(key)
            near = f"{x + d[0]},{y + d[1]}"
            if near in view["board"]:
                out.add(near)
    return out


def _reveals_at(action: dict, places: set[str]) -> bool:
    """Does this reveal explore one of ``places`` (``explore:X``), or finish an exploration
    card already turned (``slot:X``)?"""
    kind, _, place = action["source"].partition(":")
    return kind == "slot" or place in places


def _distances(view: dict, start: str) -> dict[str, int]:
    """Steps from ``start`` to every Terrain it reaches (shared: read it, never change it)."""
    return _distances_on(tuple(view["board"]), start)


@lru_cache(maxsize=2048)
def _distances_on(cells: tuple[str, ...], start: str) -> dict[str, int]:
    """``_distances`` on a Plateau of these Terrains: a pure function of them, kept."""
    board = frozenset(cells)
    out = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        x, y = coords(here)
        for dx, dy in DIRECTIONS.values():
            nxt = f"{x + dx},{y + dy}"
            if nxt in board and nxt not in out:
                out[nxt] = out[here] + 1
                queue.append(nxt)
    return out


def _walk(
    view: dict, actions: list[dict], goals: set[str], costs: dict[str, int] | None = None
) -> dict | None:
    """A step towards one of ``goals``: the one nearest to the freshest character (the
    group's leader): a step counts as much as two cards the goal's action costs
    (``costs``: a step is a card drawn, and a turn);
    every character walks there, the freshest first, so that the group gathers where it is
    going and may undertake group actions."""
    chars = view["characters"]
    conscious = [i for i, c in enumerate(chars) if c["conscious"] and c["at"] in view["board"]]
    if not goals or not conscious:
        return None
    leader = max(conscious, key=lambda i: (chars[i]["hp"], -i))
    far = _distances(view, chars[leader]["at"])
    reachable = [g for g in goals if g in far]
    if not reachable:
        return None
    costs = costs or {}
    target = min(reachable, key=lambda g: (far[g] + costs.get(g, 0) // 2, g))
    steps = [
        a
        for a in actions
        if a["type"] == "move"
        and chars[a["character"]]["at"] != target
        and a["to"] == _step_towards(view, chars[a["character"]]["at"], {target})
    ]
    if not steps:
        return None
    return max(steps, key=lambda a: (chars[a["character"]]["hp"], -steps.index(a)))


def _cell_options(
    bundle: dict, view: dict, c: int, cell: str
) -> list[tuple[str, int, dict, dict | None]]:
    """The actions character ``c`` could undertake with the whole group on ``cell`` (each with
    the action printed there and its card, as ``offers`` reads them)."""
    chars = view["characters"]
    was = [ch["at"] for ch in chars]
    for ch in chars:
        if ch["conscious"]:
            ch["at"] = cell
    try:
        return offers(bundle, view, c)
    finally:
        for ch, at in zip(chars, was, strict=True):
            ch["at"] = at


def _targets(
    bundle: dict,
    view: dict,
    c: int,
    failed: dict[str, int],
    want: set[str],
    deep: bool = True,
    bold: bool = False,
) -> tuple[dict[str, int], set[str]]:
    """Terrains where an action leads to one of the objectives ``want`` (with the cards the
    cheapest of them costs: ``effort``), and Terrains where an
    action still has something to give (or an exploration card waits), for character ``c``
    (only actions it can survive: ``safe``)."""
    aims: dict[str, int] = {}
    gives: set[str] = set()
    for cell in view["board"]:
        for source, i, spec, _ in _cell_options(bundle, view, c, cell):
            if source.startswith(("hand:", "purse:", "quest:", "global:")):
                continue
            effects = _action_effects(spec or {})
            if _returns(effects) or failed.get((spec or {}).get("title") or "", 0) >= TRIES:
                continue
            if not safe(bundle, view, c, source, i, bold=bold):
                continue
            if want and _aims(bundle, view, effects, want, deep):
                cost = effort(bundle, view, source, i)
                aims[cell] = min(aims.get(cell, cost), cost)
            elif source.startswith(("explore:", "slot:")) or _gives(bundle, view, effects):
                gives.add(cell)
    return aims, gives


# --------------------------------------------------------------------------- decisions


def choose(bundle: dict, view: dict, actions: list[dict], curious: Rng | None = None) -> dict:
    """The policy's action.  ``curious`` (the « curieux » temperament, a seeded generator):
    at the Citadel, any entry of the Destinée it can afford; in a dialogue, any answer that
    opens a paragraph not read yet; on every other turn, a look with the magnifier at any card
    that hides numbers and now and then the card of a number found, then any action here that
    still reveals something (a paragraph, a card in the box, land whose arrow names a card in
    the box); otherwise the same policy."""
    p = view["pending"]
    t = p["type"]
    if curious is not None and t == "citadel":  # any page of the Destinée it can afford
        buys = [a for a in actions if a["type"] == "destiny"]
        return curious.choice(buys) if buys else {"type": "depart"}
    if curious is not None and t in ("turn", "dialogue"):
        pick = _curious(bundle, view, actions, curious)
        if pick is not None:
            return pick
    if t == "turn":
        return _turn(bundle, view, actions)
    if t == "active":  # the one with the most hit points leads
        chars = view["characters"]
        return max(actions, key=lambda a: (chars[a["character"]]["hp"], -a["character"]))
    if t == "prepare":
        selects = [a for a in actions if a["type"] == "select"]
        return selects[0] if selects else {"type": "prepared"}
    if t == "draw":
        return _draw(bundle, view, actions)
    if t == "result":
        return max(actions, key=lambda a: a["successes"])
    if t == "keep":
        keeps = [a for a in actions if a["type"] == "keep"]
        ch = view["characters"][view["action"]["character"]]
        limit = (rec.recs(bundle, "character")[ch["id"]].get("hand_size") or {}).get(
            str(len(view["characters"])), 3
        )
        if keeps and len(ch["hand"]) < limit:
            return max(keeps, key=lambda a: _worth(bundle, a["card"]))
        return {"type": "kept"}
    if t == "dialogue":
        return _dialogue(bundle, view, actions)
    if t == "receive":
        chars = view["characters"]
        gets = [a for a in actions if a["type"] == "receive"]
        return max(gets, key=lambda a: (chars[a["character"]]["hp"], -a["character"]))
    if t in ("hand_limit", "banish"):
        return min(actions, key=lambda a: (_worth(bundle, a["card"]), a["card"]))
    if t == "citadel":
        buys = [a for a in actions if a["type"] == "destiny"]
        return buys[0] if buys else {"type": "depart"}
    return actions[0]


def _worth(bundle: dict, card: str) -> float:
    r = rec.skill(bundle, card)
    zone = r.get("result") or {}
    return (
        zone.get("stars", 0)
        + 0.5 * len(zone.get("half_stars") or [])
        + 0.2 * len(zone.get("classes") or [])
        + (1 if r.get("bonuses") else 0)
    )


def _draw(bundle: dict, view: dict, actions: list[dict]) -> dict:
    action = view["action"]
    need = action.get("need", 0)
    spec, _ = spec_of(bundle, view, action["source"], action["index"])
    if action.get("die"):
        need = view["dice"][action["die"]]["value"]
    else:
        need = (spec or {}).get("difficulty", 0)
    draws = [a for a in actions if a["type"] == "draw"]
    tremor = [a for a in draws if a["tremor"]]
    pool = tremor or draws
    counts = sorted({a["count"] for a in pool})
    ch = view["characters"][action["character"]]
    low = counts[0]
    # every card drawn counts its stars (with a chain, only the default cost's cards do)
    want = max(low, -(-need * 4 // 3) + (1 if need >= 3 else 0)) if need else low
    if spec and spec.get("chain"):
        want = min(want, low + 1)
    want = min(want, max(low, ch["deck"]))  # never spend hit points on a longer draw
    if ch["hp"] <= 3:
        want = low
    want = max(low, min(want, counts[-1]))
    return next(a for a in pool if a["count"] == want)


def _news(bundle: dict, view: dict, effects: list[dict]) -> bool:
    """Do these effects show something not seen yet: a paragraph not read, a card still in
    the box?  (Never an end of the adventure.)"""
    read = set(view.get("read") or [])
    flat = _flat(effects)
    if any("adventure_ends" in e for e in flat):
        return False
    for effect in flat:
        ((name, value),) = effect.items()
        if name == "read" and str(value) not in read:
            return True
        if name in ("take", "take_if_available") and view["box"].get(str(value)):
            return True
    return False


def _curious(bundle: dict, view: dict, actions: list[dict], rng: Rng) -> dict | None:
    if view["pending"]["type"] == "dialogue":
        para = rec.recs(bundle, "paragraph")[view["pending"]["paragraph"]]
        news = []
        for a in actions:
            if a["type"] == "choose":
                choice = para["choices"][a["index"]]
                extra = [{"read": choice["read"]}] if choice.get("read") is not None else []
                if _news(bundle, view, list(choice.get("effects") or []) + extra):
                    news.append(a)
            elif a["type"] == "act":
                spec = (para.get("actions") or [])[a["index"]]
                if _news(bundle, view, _any_outcome(spec)):
                    news.append(a)
        return rng.choice(news) if news else None
    # a curious group looks at every card with the magnifier, and follows the numbers it finds
    for a in actions:
        if a["type"] == "examine" or (a["type"] == "search" and view["box"].get(str(a["number"]))):
            return a
    if rng.below(3) == 0:
        return None
    news = []
    for a in actions:
        if a["type"] != "act" or a["source"].startswith(("hand:", "purse:", "quest:", "global:")):
            continue
        if a["source"].startswith("explore:"):
            if _unseen_arrow(view, a["source"]) and safe(
                bundle, view, a["character"], a["source"], a["index"]
            ):
                news.append(a)  # the arrow names a card still in the box
            continue
        spec, _ = spec_of(bundle, view, a["source"], a["index"])
        effects = _action_effects(spec or {})
        if (
            _news(bundle, view, _any_outcome(spec or {}))
            and not _returns(effects)
            and safe(bundle, view, a["character"], a["source"], a["index"])
        ):
            news.append(a)
    if news:
        return rng.choice(news)
    if _worn_out(bundle, view):
        return None
    chars = view["characters"]
    leader = max(
        (i for i, c in enumerate(chars) if c["conscious"]),
        key=lambda i: (chars[i]["hp"], -i),
        default=0,
    )
    cells = set()
    for cell in view["board"]:
        for source, i, spec, _ in _cell_options(bundle, view, leader, cell):
            if source.startswith(("hand:", "purse:", "quest:", "global:")):
                continue
            if source.startswith("explore:"):
                news_here = _unseen_arrow(view, source)
            else:
                news_here = _news(bundle, view, _any_outcome(spec or {}))
            if news_here and safe(bundle, view, leader, source, i):
                cells.add(cell)
                break
    return _walk(view, actions, cells)


def _unseen_arrow(view: dict, source: str) -> bool:
    """Does this face-down exploration place's arrow name a card still in the box?"""
    slot = view["slots"].get(source.partition(":")[2]) or {}
    card = slot.get("card")
    return card is not None and bool(view["box"].get(str(card)))


def _dialogue(bundle: dict, view: dict, actions: list[dict]) -> dict:
    para = rec.recs(bundle, "paragraph")[view["pending"]["paragraph"]]
    read = set(view.get("read") or [])
    choices = [a for a in actions if a["type"] == "choose"]
    acts = [a for a in actions if a["type"] == "act"]

    def effects(a: dict) -> list[dict]:
        if a["type"] == "act":
            spec = (para.get("actions") or [])[a["index"]]
            return _action_effects(spec)
        choice = para["choices"][a["index"]]
        extra = [{"read": choice["read"]}] if choice.get("read") is not None else []
        return list(choice.get("effects") or []) + extra

    for pool in (acts + choices,):
        aims = [a for a in pool if _aims(bundle, view, effects(a))]
        if aims:
            return aims[0]
    fresh = [
        a for a in choices if any(str(e.get("read")) not in read for e in effects(a) if "read" in e)
    ]
    gives = [a for a in acts + choices if _gives(bundle, view, effects(a))]
    for pool in (gives, fresh, choices):
        if pool:
            return pool[0]
    close = [a for a in actions if a["type"] == "close"]
    return close[0] if close else actions[0]


def _turn(bundle: dict, view: dict, actions: list[dict]) -> dict:
    chars = view["characters"]
    acts = [a for a in actions if a["type"] == "act"]

    def effects(a: dict) -> list[dict]:
        spec, _ = spec_of(bundle, view, a["source"], a["index"])
        return _action_effects(spec or {})

    failed = _failures(view)

    def fresh(a: dict) -> bool:
        return failed.get(a["title"] or "", 0) < TRIES

    home = [a for a in acts if _returns(effects(a))]
    hurt = _worn_out(bundle, view)
    done = not wanted(bundle, view) and bool(
        rec.scenario(bundle, view["scenario"]).get("objectives")
    )
    if hurt or done or view.get("scenario_turns", 0) > LONG:
        if home:
            return home[0]
        step = _walk(view, actions, _home_cells(bundle, view))
        if step:
            return step
    for a in actions:  # someone overloaded cannot walk: lighten the purse
        if a["type"] == "drop":
            ch = chars[a["character"]]
            if _overloaded(bundle, view, ch):
                return a
    searches = [a for a in actions if a["type"] == "search"]
    for a in searches:
        if goal_map(bundle).get(f"c:{a['number']}", frozenset()) & wanted(bundle, view):
            return a
    bold = [
        a
        for a in acts
        if not _returns(effects(a))
        and fresh(a)
        and safe(bundle, view, a["character"], a["source"], a["index"], bold=True)
    ]
    mine = [a for a in bold if safe(bundle, view, a["character"], a["source"], a["index"])]
    must = wanted(bundle, view, required=True)
    leader = max(
        (i for i, c in enumerate(chars) if c["conscious"]),
        key=lambda i: (chars[i]["hp"], -i),
        default=0,
    )
    reveals = [a for a in mine if a["source"].startswith(("explore:", "slot:"))]
    examine = [a for a in actions if a["type"] == "examine"]
    wants = (must, wanted(bundle, view) - must)
    chosen = _pursue(
        bundle, view, actions, effects, wants, bold, mine, reveals, examine, leader, failed
    )
    if chosen is not None:
        return chosen
    if examine:
        return examine[0]
    _, gives = _targets(bundle, view, leader, failed, set())
    if reveals:
        return _best(view, reveals)
    useful = [a for a in mine if _gives(bundle, view, effects(a)) and not failed.get(a["title"])]
    if useful:
        return _best(view, useful)
    if searches:
        return searches[0]
    step = _walk(view, actions, gives | _frontier(view))
    if step:
        return step
    if home:
        return home[0]
    step = _walk(view, actions, _home_cells(bundle, view))
    if step:
        return step
    moves = [a for a in actions if a["type"] == "move"]
    if moves:
        return moves[len(view["log"]) % len(moves)]
    others = [
        a for a in acts if not a["source"].startswith(("hand:", "purse:", "quest:", "global:"))
    ]
    return (others or acts or actions)[0]


def _pursue(
    bundle: dict,
    view: dict,
    actions: list[dict],
    effects: Callable[[dict], list[dict]],
    wants: tuple[set[str], set[str]],
    bold: list[dict],
    mine: list[dict],
    reveals: list[dict],
    examine: list[dict],
    leader: int,
    failed: dict[str, int],
) -> dict | None:
    """``_turn``'s aim at the objectives: first those the scenario requires (``wants[0]``, the
    bold actions allowed), then the optional ones.  ``None``: nothing leads to any."""
    must = wants[0]
    for want in wants:
        if not want:
            continue
        # the ways the content names (the cheapest first), then the land whose arrows name a
        # card that leads there, then the flags and items those ways require or any
        # unexplored land, whichever is nearest
        for deep in (False, True):
            aiming = [
                a
                for a in (bold if want is must else mine)
                if _aims(bundle, view, effects(a), want, deep)
            ]
            if aiming:
                return _easiest(bundle, view, aiming)
            if examine:
                return examine[0]
            aims, _ = _targets(bundle, view, leader, failed, want, deep, want is must)
            if deep and want is must:
                if reveals:
                    return _best(view, reveals)
                aims = {**dict.fromkeys(_frontier(view), 0), **aims}
            step = _walk(view, actions, set(aims), aims)
            if step:
                return step
            if want is must and not deep:
                ahead = _frontier(view, bundle, want)
                here = [a for a in reveals if _reveals_at(a, _leading(view, bundle, want))]
                if here:
                    return _best(view, here)
                step = _walk(view, actions, ahead)
                if step:
                    return step
    return None


def _worn_out(bundle: dict, view: dict) -> bool:
    """Time to head home: the freshest character has no more hit points than the longest way
    back across the Plateau costs (a card a step, a hit point every two cards), with a margin
    of ``HURT``.  The Plateau only grows while exploring: walking home never makes the group
    change its mind."""
    chars = view["characters"]
    conscious = [c for c in chars if c["conscious"]]
    if not conscious:
        return False
    best = max(c["hp"] for c in conscious)
    homes = _home_cells(bundle, view)
    far = 0
    for home in homes:
        far = max(far, *_distances(view, home).values())
    return best <= HURT + (far + 1) // 2


def effort(bundle: dict, view: dict, source: str, index: int) -> int:
    """About how many cards an action costs until it succeeds: for each line still ahead of
    its die (a simple action has one), the cost or the cards its difficulty needs on average,
    whichever is more."""
    spec, ref = spec_of(bundle, view, source, index)
    spec = spec or {}
    more = traits(bundle, spec)
    cost = spec.get("cost", 0) + sum(t.get("cost", 0) for t in more)
    harder = sum(t.get("difficulty", 0) for t in more)
    lines = spec.get("lines")
    if lines:
        die = view["dice"].get(f"{ref['key']}#{index}") if ref else None
        needs = [line["difficulty"] + harder for line in lines[die["line"] if die else 0 :]]
        if die:
            needs[0] = die["value"]
    else:
        needs = [spec.get("difficulty", 0) + harder]
    return sum(max(cost, -(-n * 4 // 3)) for n in needs)


def _one_try(bundle: dict, view: dict, source: str, index: int) -> tuple[int, int]:
    """Cards drawn for one try of an action (its current line) and the damage its failure
    deals."""
    spec, ref = spec_of(bundle, view, source, index)
    spec = spec or {}
    more = traits(bundle, spec)
    cost = spec.get("cost", 0) + sum(t.get("cost", 0) for t in more)
    need = spec.get("difficulty", 0) + sum(t.get("difficulty", 0) for t in more)
    failure = spec.get("failure") or []
    if spec.get("lines"):
        die = view["dice"].get(f"{ref['key']}#{index}") if ref else None
        line = spec["lines"][die["line"] if die else 0]
        need = die["value"] if die else line["difficulty"]
        failure = line.get("failure") or []
    damage = sum(v for e in _flat(list(failure)) for k, v in e.items() if k == "damage")
    damage += sum(-v for e in _flat(list(failure)) for k, v in e.items() if k == "hit_points")
    return max(cost, -(-need * 4 // 3)), max(0, damage)


def safe(bundle: dict, view: dict, c: int, source: str, index: int, bold: bool = False) -> bool:
    """Can character ``c`` try this action and, if it fails, still walk home?  The cards its
    deck lacks cost half a hit point each (« Récupération »), then the failure's damage; what
    is left must pay the way back from its Terrain (``HURT`` and a hit point every two
    steps).  ``bold``, for what the scenario requires: only never to faint in the try."""
    ch = view["characters"][c]
    cards, damage = _one_try(bundle, view, source, index)
    recovery = -(-max(0, cards - ch["deck"]) // 2)
    if bold:
        return ch["hp"] - recovery - damage > 0
    homes = _home_cells(bundle, view)
    far = min((d.get(ch["at"], 0) for d in (_distances(view, h) for h in homes)), default=0)
    return ch["hp"] - recovery - damage > SAFE + (far + 1) // 2


def _easiest(bundle: dict, view: dict, options: list[dict]) -> dict:
    """The option that costs the fewest cards; among equals, the freshest character acts."""
    chars = view["characters"]
    return min(
        options,
        key=lambda a: (
            effort(bundle, view, a["source"], a["index"]),
            -chars[a["character"]]["hp"],
            options.index(a),
        ),
    )


def _best(view: dict, options: list[dict]) -> dict:
    """Among equals, the character with the most hit points acts."""
    chars = view["characters"]
    return max(options, key=lambda a: (chars[a["character"]]["hp"], -options.index(a)))


def _overloaded(bundle: dict, view: dict, ch: dict) -> bool:
    weight = sum(rec.adv(bundle, k).get("weight", 0) for k in ch["purse"] + ch["purse_blocked"])
    carry = (rec.recs(bundle, "character")[ch["id"]].get("carry_weight") or {}).get(
        str(len(view["characters"])), 99
    )
    return weight > carry


__all__: list[Any] = ["choose", "goal_map"]
