"""The 7th Citadel: the rulebook's calculations as small pure functions (successes,
half-stars, class-icon conversions, which version of a card to take, what a Récupération
costs).  Tested with the rulebook's own worked examples (tests/test_citadelle_rules.py)."""

from __future__ import annotations

from typing import Any

CLASSES = ("might", "agility", "wits", "faith")


# --------------------------------------------------------------------------- successes


def _zone(card: dict[str, Any]) -> tuple[int, int, int]:
    """(full stars, left halves, right halves) of a card's result zone."""
    result = card.get("result") or {}
    halves = list(result.get("half_stars") or [])
    return int(result.get("stars", 0)), halves.count("left"), halves.count("right")


def pairs(halves: list[tuple[int, int]]) -> int:
    """Full stars the half-stars of these cards form: a left half joins a right half of
    another card, whatever the order the cards were drawn in (each card is laid beside the
    other the right way round).  ``halves``: (left, right) halves per card.

    >>> pairs([(0, 1), (1, 0)]), pairs([(1, 1)]), pairs([(1, 1), (1, 1), (1, 1)])
    (1, 0, 3)
    """
    lefts = sum(h[0] for h in halves)
    rights = sum(h[1] for h in halves)
    most = max((h[0] + h[1] for h in halves), default=0)
    return max(0, min(lefts, rights, lefts + rights - most))


def best_stars(cards: list[dict[str, Any]], limit: int | None) -> tuple[int, list[int]]:
    """The most successes the revealed ``cards`` give from their result zones: one per full
    star and one per left half-star matched with a right half-star (``pairs``).  With a chain
    limit, only ``limit`` cards of the player's choice count.  Returns ``(successes, indices of
    the counted cards)``.

    >>> halves = [{"result": {"half_stars": ["right"]}}, {"result": {"half_stars": ["left"]}}]
    >>> best_stars(halves, None)
    (1, [0, 1])
    """
    zones = [_zone(c) for c in cards]
    n = len(zones)
    if limit is None or limit >= n:
        chosen = list(range(n))
        return sum(z[0] for z in zones) + pairs([(z[1], z[2]) for z in zones]), chosen
    k = max(0, limit)
    best: tuple[int, list[int]] = (0, [])
    for cap in sorted({z[1] + z[2] for z in zones}):
        # cards whose halves (together) are at most ``cap``: then min(L, R, L + R - cap)
        # never overstates what they form, and is exact when ``cap`` is their largest
        table: dict[tuple[int, int, int], tuple[int, list[int]]] = {(0, 0, 0): (0, [])}
        for i, (stars, left, right) in enumerate(zones):
            if left + right > cap:
                continue
            nxt = dict(table)
            for (used, ls, rs), (score, picked) in table.items():
                if used >= k:
                    continue
                key = (used + 1, ls + left, rs + right)
                cand = (score + stars, [*picked, i])
                if key not in nxt or cand[0] > nxt[key][0]:
                    nxt[key] = cand
            table = nxt
        for (_, ls, rs), (score, picked) in table.items():
            value = score + max(0, min(ls, rs, ls + rs - cap))
            if value > best[0] or (value == best[0] and len(picked) < len(best[1])):
                best = (value, picked)
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
        parent: dict[int, tuple[int, int, int] | None] = {0: None}
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
        while (step := parent[v]) is not None:
            a, b, d = step
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
    unused = []
    for cls in icons:
        if left.get(cls, 0) > 0:
            left[cls] -= 1
            unused.append(cls)
    return best[0], best[1], unused


# --------------------------------------------------------------------------- cards


def pick_version(
    versions: list[dict[str, Any]], scenario: str | None, held: set[str]
) -> list[dict[str, Any]]:
    """The copies of a numbered card that may be taken now, among the available ``versions``
    (the player takes one of them at random):

    - a version tied to a scenario (or to a card) is taken first when the scenario is being
      played (or a character holds that card), and never otherwise;
    - among the rest, green before gold.

    >>> pick_version([{"key": "9/gold", "version": "gold"}, {"key": "9/green"}], "s", set())
    [{'key': '9/green'}]
    """
    specific = [
        v
        for v in versions
        if (v.get("scenario") and v["scenario"] == scenario)
        or (v.get("linked_card") is not None and str(v["linked_card"]) in held)
    ]
    generic = [v for v in versions if not v.get("scenario") and v.get("linked_card") is None]
    for pool in (specific, generic):
        for colour in ("green", "gold"):
            found = [v for v in pool if v.get("version", "green") == colour]
            if found:
                return found
    return []


def recovery_step(mode: str = "normal") -> int:
    """Cards per series of a Récupération: 2, or 3 in the story and survival modes."""
    return 2 if mode == "normal" else 3


def hp_per_series(mode: str = "normal") -> int:
    """Hit points one series costs: 1, or 2 in the survival mode."""
    return 2 if mode == "survival" else 1


def recovery_cost(cards: int, mode: str = "normal") -> int:
    """Hit points lost to take ``cards`` from the discard back into the deck (a series begun
    is paid in full).

    >>> recovery_cost(8), recovery_cost(9, "story"), recovery_cost(9, "survival")
    (4, 3, 6)
    """
    step = recovery_step(mode)
    return hp_per_series(mode) * -(-cards // step)


def clamp_score(value: int) -> int:
    return max(0, min(25, value))
