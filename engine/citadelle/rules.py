"""The 7th Citadel: the rulebook's calculations as small pure functions.

Tested with the rulebook's own worked examples (tests/test_citadelle_rules.py).
"""

from __future__ import annotations

from typing import Any

DIRECTIONS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
CLASSES = ("might", "agility", "wits", "faith")


def cell(x: int, y: int) -> str:
    return f"{x},{y}"


def coords(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


def neighbour(key: str, direction: str) -> str:
    x, y = coords(key)
    dx, dy = DIRECTIONS[direction]
    return cell(x + dx, y + dy)


# --------------------------------------------------------------------------- successes


def _zone(card: dict[str, Any]) -> tuple[int, list[str]]:
    result = card.get("result") or {}
    return int(result.get("stars", 0)), list(result.get("half_stars") or [])


def best_stars(cards: list[dict[str, Any]], limit: int | None) -> tuple[int, list[int]]:
    """The most successes the revealed ``cards`` give from their result zones: full stars, plus
    one per left half-star followed (in reading order) by a right half-star.  With a chain
    limit, only ``limit`` cards of the player's choice count.  Returns ``(successes, indices of
    the counted cards)``.

    >>> halves = [{"result": {"half_stars": ["left"]}}, {"result": {"half_stars": ["right"]}}]
    >>> best_stars(halves, None)
    (1, [0, 1])
    """
    n = len(cards)
    k = n if limit is None else max(0, min(limit, n))
    zones = [_zone(c) for c in cards]
    # dp over cards: (cards used, unmatched left halves) -> (best score, chosen indices)
    states: dict[tuple[int, int], tuple[int, list[int]]] = {(0, 0): (0, [])}
    for i, (stars, halves) in enumerate(zones):
        nxt = dict(states)
        for (used, lefts), (score, chosen) in states.items():
            if used >= k:
                continue
            gained, open_lefts = stars, lefts
            for half in halves:
                if half == "left":
                    open_lefts += 1
                elif open_lefts:
                    open_lefts -= 1
                    gained += 1
            key = (used + 1, min(open_lefts, 8))
            cand = (score + gained, [*chosen, i])
            if key not in nxt or cand[0] > nxt[key][0]:
                nxt[key] = cand
        states = nxt
    best = max(states.values(), key=lambda v: (v[0], -len(v[1])))
    return best


def class_icons(cards: list[dict[str, Any]]) -> list[str]:
    icons: list[str] = []
    for c in cards:
        icons.extend((c.get("result") or {}).get("classes") or [])
    return icons


def _feasible(counts: dict[str, int], demands: list[tuple[set[str], int]]) -> dict | None:
    """Can ``counts`` icons (a joker stands for any class) cover every ``(allowed classes,
    how many)`` demand?  A tiny max-flow (Edmonds–Karp) from icon classes to demands.
    Returns how many icons of each class each demand uses, or ``None``."""
    classes = [k for k, n in counts.items() if n > 0]
    need = sum(d for _, d in demands)
    if need > sum(counts.values()):
        return None
    # nodes: source 0, classes 1..C, demands C+1..C+D, sink C+D+1
    n_c, n_d = len(classes), len(demands)
    sink = n_c + n_d + 1
    cap: dict[tuple[int, int], int] = {}
    for i, k in enumerate(classes, 1):
        cap[(0, i)] = counts[k]
        for j, (allowed, _) in enumerate(demands, n_c + 1):
            if k == "joker" or k in allowed:
                cap[(i, j)] = counts[k]
    for j, (_, d) in enumerate(demands, n_c + 1):
        cap[(j, sink)] = d
    flow: dict[tuple[int, int], int] = {}
    total = 0
    while True:
        parent = {0: None}
        queue = [0]
        while queue and sink not in parent:
            u = queue.pop(0)
            for (a, b), c in cap.items():
                if a == u and b not in parent and c - flow.get((a, b), 0) > 0:
                    parent[b] = (a, b, 1)
                    queue.append(b)
                if b == u and a not in parent and flow.get((a, b), 0) > 0:
                    parent[a] = (a, b, -1)
                    queue.append(a)
        if sink not in parent:
            break
        path, v = [], sink
        while parent[v] is not None:
            a, b, d = parent[v]
            path.append((a, b, d))
            v = a if d == 1 else b
        push = min(
            cap[(a, b)] - flow.get((a, b), 0) if d == 1 else flow.get((a, b), 0) for a, b, d in path
        )
        for a, b, d in path:
            flow[(a, b)] = flow.get((a, b), 0) + push * d
        total += push
    if total < need:
        return None
    return {(classes[a - 1], b - n_c - 1): f for (a, b), f in flow.items() if 1 <= a <= n_c and f}


def convert(icons: list[str], conversions: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """Turn class icons into successes or cancelled damage with the conversions of the cards in
    play (``{"classes": [...], "count": n, "into": "success"|"cancel_damage", "max": m}``).  Each
    icon serves once; a joker stands for any class.  The best use for the player is found:
    the most successes, then the most cancelled damage.  Returns ``(successes, cancels,
    unused icons)``.

    >>> either = {"classes": ["might", "agility"], "count": 1, "into": "success", "max": 1}
    >>> convert(["might", "agility"], [either, {"classes": ["might"], "into": "success"}])
    (2, 0, [])
    """
    from itertools import product

    counts: dict[str, int] = {}
    for icon in icons:
        counts[icon] = counts.get(icon, 0) + 1
    total = len(icons)
    convs = [c for c in conversions if c.get("count", 1) >= 1]
    ranges = [range(min(c.get("max", 99), total // c.get("count", 1)) + 1) for c in convs]
    best: tuple[int, int] = (0, 0)
    best_use: dict = {}
    for uses in product(*ranges):
        successes = sum(
            u for u, c in zip(uses, convs, strict=True) if c.get("into") != "cancel_damage"
        )
        cancels = sum(
            u for u, c in zip(uses, convs, strict=True) if c.get("into") == "cancel_damage"
        )
        if (successes, cancels) <= best:
            continue
        demands = [
            (set(c.get("classes") or []), u * c.get("count", 1))
            for u, c in zip(uses, convs, strict=True)
        ]
        plan = _feasible(counts, demands)
        if plan is not None:
            best, best_use = (successes, cancels), plan
    left = dict(counts)
    for (cls, _), used in best_use.items():
        left[cls] -= used
    unused = [
        cls for cls in icons if left.get(cls, 0) > 0 and not left.__setitem__(cls, left[cls] - 1)
    ]
    return best[0], best[1], unused


# --------------------------------------------------------------------------- cards


def pick_version(
    versions: list[dict[str, Any]], scenario: str | None, held: set[str]
) -> dict[str, Any] | None:
    """Which copy of a numbered card to take among the available ``versions``:

    - a version tied to a scenario (or to a card) is taken first when the scenario is being
      played (or a character holds that card), and never otherwise;
    - among the rest, green before gold.
    """
    specific = [
        v for v in versions
        if (v.get("scenario") and v["scenario"] == scenario)
        or (v.get("linked_card") is not None and str(v["linked_card"]) in held)
    ]  # fmt: skip
    generic = [v for v in versions if not v.get("scenario") and v.get("linked_card") is None]
    for pool in (specific, generic):
        for colour in ("green", "gold"):
            for v in pool:
                if v.get("version", "green") == colour:
                    return v
    return None


def recovery_cost(cards: int, mode: str = "normal") -> int:
    """Hit points lost to take ``cards`` from the discard back into the deck.

    >>> recovery_cost(8)
    4
    """
    if mode == "story":
        return -(-cards // 3)
    if mode == "survival":
        return 2 * -(-cards // 3)
    return -(-cards // 2)


def recovery_step(mode: str = "normal") -> int:
    """Cards per series of a recovery (2 normally, 3 in the story and survival variants)."""
    return 2 if mode == "normal" else 3


def clamp_score(value: int) -> int:
    return max(0, min(25, value))
