"""Le Dilemme du Roi: the rulebook's calculations as small pure functions.

Each takes plain data and returns plain data, so the rulebook's worked examples test them
directly (tests/test_dilemme_rules.py).  The section modules (``game.py`` lists them) string
them together.

Ranking conventions (the rulebook says "ties share the place"; we make it precise):
- players by coins and final places: *competition* ranking — two tied first are both 1st and
  the next is 3rd (the rulebook counts these places in players: « 3e (seulement à 4-5
  joueurs) »);
- players by power (the power majority): *dense* ranking — the rulebook rewards « la deuxième
  quantité de Pouvoir la plus grande », a quantity, so after a tie for the most the next
  quantity is still the second;
- resources on the track (public objectives, achievement tests): *dense* ranking by position —
  the rulebook's example has Knowledge both "second highest" and "second lowest" with five
  markers on three squares, which only dense ranking gives.
"""

from __future__ import annotations

from typing import Any

RESOURCES = ("influence", "prosperity", "morale", "welfare", "knowledge")


# --------------------------------------------------------------------------- tracks


def move_resource(
    marker: dict[str, Any], amount: int, track_top: int, extra: int = 0
) -> tuple[int, int]:
    """Move one resource marker by ``amount`` squares, with progression.

    ``marker`` is ``{"pos": int, "dir": +1|-1, "marker": bool}`` and is updated in place.
    ``extra`` (from an event's rule) adds squares to the move before progression.
    Returns ``(steps, direction)``: how far the stability marker must move and which way —
    the full amount, even when the resource stopped at an end of its track.

    >>> m = {"pos": 7, "dir": -1, "marker": False}
    >>> move_resource(m, -1, 14), m
    ((2, -1), {'pos': 5, 'dir': -1, 'marker': True})
    """
    if amount == 0:
        return 0, 0
    direction = 1 if amount > 0 else -1
    steps = max(0, abs(amount) + extra)
    if direction == marker["dir"]:
        steps += 2 if marker["marker"] else 1
        marker["marker"] = True
    else:  # a change of direction: flip the marker, lose the progression marker
        marker["dir"] = direction
        marker["marker"] = False
    marker["pos"] = min(track_top, max(0, marker["pos"] + direction * steps))
    return steps, direction


def move_stability(stability: int, steps: int, direction: int, track_top: int) -> tuple[int, bool]:
    """Move stability; returns ``(new position, abdication)`` — reaching either end of the
    track makes the king abdicate (the caller then freezes the marker)."""
    pos = min(track_top, max(0, stability + direction * steps))
    return pos, pos in (0, track_top)


# --------------------------------------------------------------------------- chronicle


def chronicle_slot(line: list[dict | None]) -> int:
    """Where a new chronicle sticker goes on its resource line: the leftmost empty slot, or
    over the sticker with the most ticks (the oldest), leftmost on ties.

    >>> chronicle_slot([{"ticks": 2}, None, None])
    1
    >>> chronicle_slot([{"ticks": 1}, {"ticks": 3}, {"ticks": 3}])
    1
    """
    for i, slot in enumerate(line):
        if slot is None:
            return i
    most = max(slot["ticks"] for slot in line if slot is not None)
    return next(i for i, slot in enumerate(line) if slot is not None and slot["ticks"] == most)


# --------------------------------------------------------------------------- ranking


def competition_ranks(values: dict[Any, int]) -> dict[Any, int]:
    """1 + how many have strictly more.  ``{"a": 5, "b": 5, "c": 2}`` → a 1, b 1, c 3."""
    return {k: 1 + sum(1 for other in values.values() if other > v) for k, v in values.items()}


def dense_ranks(values: dict[Any, int], highest_first: bool = True) -> dict[Any, int]:
    """Rank by distinct values: ``{"a": 9, "b": 7, "c": 7, "d": 2}`` → a 1, b 2, c 2, d 3."""
    distinct = sorted(set(values.values()), reverse=highest_first)
    place = {v: i + 1 for i, v in enumerate(distinct)}
    return {k: place[v] for k, v in values.items()}


# --------------------------------------------------------------------------- scoring


def secret_objective_points(
    objective: dict[str, Any], positions: dict[str, int], wealth_rank: int
) -> tuple[int, int]:
    """``(resource points, wealth points)`` of a secret objective card.

    Resource points count the markers standing in any of the card's zones; wealth points
    depend on the player's rank by coins (I, II, III; ties share the place)."""
    zones = objective["zones"]
    count = sum(1 for pos in positions.values() if any(z["from"] <= pos <= z["to"] for z in zones))
    resource = objective["resource_points"][count - 1] if count else 0
    wealth = objective["wealth_points"][wealth_rank - 1] if wealth_rank <= 3 else 0
    return resource, wealth


def public_objective_points(tokens: list[list[str]], positions: dict[str, int]) -> int:
    """Points of a player's public objective tokens ``[[resource, "positive"|"negative"]]``:
    +3/+1 when the resource is the highest/second highest, −3/−1 when the lowest/second lowest
    (dense ranking: tied resources give the same bonus)."""
    high = dense_ranks(positions, highest_first=True)
    low = dense_ranks(positions, highest_first=False)
    points = 0
    for resource, polarity in tokens:
        if polarity == "positive":
            points += {1: 3, 2: 1}.get(high[resource], 0)
        else:
            points -= {1: 3, 2: 1}.get(low[resource], 0)
    return points


def power_majority_points(power: dict[Any, int]) -> dict[Any, int]:
    """+2 to the greatest quantity of power behind the screen, +1 to the second greatest
    quantity; every player tied on a quantity scores its bonus (dense ranking: a tie for the
    most does not push the next quantity down to third).

    >>> power_majority_points({"a": 5, "b": 5, "c": 3, "d": 1})
    {'a': 2, 'b': 2, 'c': 1, 'd': 0}
    """
    ranks = dense_ranks(power)
    return {k: {1: 2, 2: 1}.get(r, 0) for k, r in ranks.items()}


#: (prestige, craving) by place; columns: the king died / abdicated with stability at the top /
#: abdicated with stability at the bottom.  "last" is whoever ends last, whatever the count.
PRESTIGE_TABLE: dict[str, dict[str, tuple[int, int]]] = {
    "died": {"1": (3, 0), "2": (2, 0), "3": (2, 1), "4": (2, 1), "last": (0, 2)},
    "top": {"1": (2, 0), "2": (2, 0), "3": (1, 0), "4": (1, 0), "last": (0, 2)},
    "bottom": {"1": (0, 2), "2": (0, 2), "3": (0, 1), "4": (0, 1), "last": (2, 0)},
}


def prestige_and_craving(ranks: dict[Any, int], ending: str) -> dict[Any, tuple[int, int]]:
    """Campaign points for each player from their place in this game.

    ``ending`` is ``died``, ``top`` or ``bottom``.  There is always a last place: everyone at
    the worst place, with nobody behind them, is "last" (two players tied for 4th of 5 are both
    last) — when everyone is tied, nobody is behind anyone, so all are last.

    >>> prestige_and_craving({"a": 1, "b": 1, "c": 1}, "died")
    {'a': (0, 2), 'b': (0, 2), 'c': (0, 2)}
    """
    worst = max(ranks.values())
    table = PRESTIGE_TABLE[ending]
    return {k: table["last" if r == worst else str(min(r, 4))] for k, r in ranks.items()}


# --------------------------------------------------------------------------- succession


def age_chronicle(chronicle: dict[str, list[dict | None]], boxes: dict[str, int]) -> None:
    """Tick one box of every chronicle sticker on the board (never past its boxes)."""
    for line in chronicle.values():
        for slot in line:
            if slot is not None:
                slot["ticks"] = min(boxes.get(str(slot["id"]), 3), slot["ticks"] + 1)


def succession_resource_moves(chronicle: dict[str, list[dict | None]]) -> dict[str, int]:
    """Each positive sticker of a line moves its resource up one, each negative one down."""
    return {
        res: sum(1 if s["polarity"] == "positive" else -1 for s in line if s is not None)
        for res, line in chronicle.items()
    }


def succession_power(chronicle: dict[str, list[dict | None]], houses: list[str]) -> dict[str, int]:
    """Power each house gains (+1 per positive sticker signed) or loses (−1 per negative)."""
    out = dict.fromkeys(houses, 0)
    for line in chronicle.values():
        for s in line:
            if s is not None and s.get("signer") in out:
                out[s["signer"]] += 1 if s["polarity"] == "positive" else -1
    return out


def public_objective_tokens(
    chronicle: dict[str, list[dict | None]], houses: list[str]
) -> dict[str, list[list[str]]]:
    """Who receives each public objective token: for each resource and polarity, the playing
    house that signed the most recent sticker (fewest ticks), the rightmost on ties.
    Stickers of houses not in this game are ignored."""
    out: dict[str, list[list[str]]] = {h: [] for h in houses}
    for res, line in chronicle.items():
        for polarity in ("positive", "negative"):
            best: tuple[int, int] | None = None
            winner = None
            for i, s in enumerate(line):
                if s is None or s["polarity"] != polarity or s.get("signer") not in out:
                    continue
                key = (-s["ticks"], i)  # fewer ticks first, then further right
                if best is None or key > best:
                    best, winner = key, s["signer"]
            if winner is not None:
                out[winner].append([res, polarity])
    return out
