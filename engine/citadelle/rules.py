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


def convert(icons: list[str], conversions: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """Turn class icons into successes or cancelled damage with the conversions of the cards in
    play (``{"classes": [...], "count": n, "into": "success"|"cancel_damage", "max": m}``).  Each
    icon serves once; a joker stands for any class.  Returns ``(successes, cancels, unused)``.
    Conversions needing fewer icons are applied first (they give the most per icon)."""
    pool = list(icons)
    successes = cancels = 0
    for conv in sorted(conversions, key=lambda c: c.get("count", 1)):
        wanted = set(conv.get("classes") or [])
        need = conv.get("count", 1)
        uses = 0
        limit = conv.get("max", 99)
        while uses < limit:
            exact = [i for i in pool if i in wanted and i != "joker"]
            usable = exact + [i for i in pool if i == "joker"]  # jokers last: keep them flexible
            if len(usable) < need:
                break
            for icon in usable[:need]:
                pool.remove(icon)
            uses += 1
            if conv.get("into") == "cancel_damage":
                cancels += 1
            else:
                successes += 1
    return successes, cancels, pool


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
