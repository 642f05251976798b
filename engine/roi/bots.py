"""Bots for Le Roi des 12, from a seat's view only.

Every card choice is a guess at what the others will play.  The bots read only what the table
shows: each opponent's possible cards (the set less the cards it discarded this manche; a card
hidden under its die cannot be told apart), the dice on the table, the points so far.

- ``hasard``: any legal card;
- ``prudent``: the card with the best expected gain if every opponent plays any of its
  possible cards with equal chance;
- ``ruse``: the same, against opponents who are themselves assumed *prudent*: it first works
  out which cards each opponent is likely to play (their best cards for their own dice) and
  answers that.

A turn is scored with ``duel_points``: the rulebook's steps 2 to 5 for one group, a fast
copy of ``rules._duel`` with LE SORCIER choosing the best neighbouring face and L'ORACLE
averaged over four faces spread over the twelve.  Expected gain = own PV minus the best of the
others'; a card that turns one's own die also counts what its new face is worth for the turns
still to play.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache
from typing import Any

from ..core.rng import Rng
from . import dice
from .cards import KEEP, VALUE, value_of

_VALUE = VALUE

#: joint opponent choices scored per candidate card, at most (else sampled)
BUDGET = 49
SAMPLES = 24
#: L'ORACLE's roll, stratified: four faces spread over the twelve
ORACLE_ROLLS = (2, 5, 8, 11)
SOFT = 1.5
#: weight of every card besides the soft best response (opponents are not all sharp)
UNIFORM_SHARE = 1.0
#: worth of a better die for each turn still to play (the face stays)
FUTURE = 0.4  # how sharply a « prudent » opponent prefers its best cards


def duel_points(faces: list[int], cards: list[str]) -> tuple[float, ...]:
    """PV each player of one group gains this turn (champion 2, dauphin 1), on average over
    L'ORACLE's rolls (``ORACLE_ROLLS``)."""
    return _duel_points(tuple(faces), tuple(cards))


@lru_cache(maxsize=1 << 17)
def _duel_points(faces: tuple[int, ...], cards: tuple[str, ...]) -> tuple[float, ...]:
    n = len(faces)
    count = Counter(cards)
    live = [i for i in range(n) if count[cards[i]] == 1]
    by: dict[str, int] = {cards[i]: i for i in live}
    if "dame" in by:
        live = [by["dame"]]
        by = {"dame": by["dame"]}
    f = list(faces)
    if "marchands" in by:
        f = [f[(i - 1) % n] for i in range(n)]
    low = "chevalier" in by
    flip = "chenapans" in by
    if "sorcier" in by:
        s = by["sorcier"]
        finals = dice.adjacent(dice.opposite(f[s])) if flip else dice.adjacent(f[s])
        best = min(finals) if low else max(finals)
        f[s] = dice.opposite(best) if flip else best
    if flip:
        f = [13 - x for x in f]
    if "inverseuse" in by:
        s = by["inverseuse"]
        f[s] = 13 - f[s]
    if "oracle" in by:
        s = by["oracle"]
        total = [0.0] * n
        for roll in ORACLE_ROLLS:
            f[s] = roll
            for i, p in enumerate(_score(f, cards, live, by, low)):
                total[i] += p / len(ORACLE_ROLLS)
        return tuple(total)
    return tuple(_score(f, cards, live, by, low))


def _score(f: list[int], cards: tuple[str, ...], live: list[int], by: dict, low: bool) -> list:
    n = len(f)
    values = [
        _VALUE[cards[i]](f[i]) if i in live and cards[i] in _VALUE else f[i] for i in range(n)
    ]
    seen: dict[int, int] = {}
    for v in values:
        seen[v] = seen.get(v, 0) + 1
    left = [i for i in range(n) if seen[values[i]] == 1]
    left.sort(key=values.__getitem__, reverse=not low)
    out = [0] * n
    first = left[0] if left else None
    second = left[1] if len(left) > 1 else None
    if "parieur" in by:
        first, second = second, first
    if first is not None:
        out[first] += 2
    if second is not None:
        out[second] += 1
    return out


def _gain(points: tuple[float, ...], me: int) -> float:
    others = [p for i, p in enumerate(points) if i != me]
    return points[me] - (max(others) if others else 0)


def expected_gains(
    faces: list[int],
    me: int,
    mine: list[str],
    options: list[list[tuple[str, float]]],
    rng: Rng,
) -> dict[str, float]:
    """Expected gain of each of ``mine`` when the others (``options[i]``: cards with
    weights, empty for ``me``) choose independently."""
    others = [i for i in range(len(faces)) if i != me]
    lists = [options[i] for i in others]
    total = math.prod(len(x) for x in lists) if lists else 1
    if total <= BUDGET:
        profiles = []
        for combo in itertools.product(*lists):
            w = math.prod(c[1] for c in combo)
            profiles.append(([c[0] for c in combo], w))
    else:
        profiles = []
        for _ in range(SAMPLES):
            pick = []
            for opts in lists:
                r = rng.below(1_000_000) / 1_000_000 * sum(w for _, w in opts)
                chosen = opts[-1][0]
                for option, w in opts:
                    r -= w
                    if r <= 0:
                        chosen = option
                        break
                pick.append(chosen)
            profiles.append((pick, 1.0))
    out = {}
    for card in mine:
        acc = wsum = 0.0
        for picks, w in profiles:
            cards = [""] * len(faces)
            cards[me] = card
            for i, c in zip(others, picks, strict=True):
                cards[i] = c
            acc += w * _gain(duel_points(faces, cards), me)
            wsum += w
        out[card] = acc / wsum if wsum else 0.0
    return out


def _group_of(view: dict, seat: int) -> list[int]:
    for g in view["groups"]:
        if seat in g:
            return list(g)
    return [seat]


def _uniform(cards: list[str]) -> list[tuple[str, float]]:
    return [(c, 1.0) for c in cards]


@lru_cache(maxsize=4096)
def _prudent_model(
    faces: tuple[int, ...], candidates: tuple[tuple[str, ...], ...], i: int
) -> tuple[tuple[str, float], ...]:
    """How likely opponent ``i`` plays each of its cards if it reasons like a « prudent » bot
    about everyone else (a soft best response to uniform play)."""
    theirs: list[list[tuple[str, float]]] = [
        [] if j == i else _uniform(list(candidates[j])) for j in range(len(faces))
    ]
    rng = Rng({"rng": Rng.seed_from(f"{faces}{candidates}{i}")})
    gains = expected_gains(list(faces), i, list(candidates[i]), theirs, rng)
    top = max(gains.values())
    return tuple((c, UNIFORM_SHARE + math.exp(SOFT * (g - top))) for c, g in gains.items())


def choose_card(view: dict, actions: list[dict], rng: Rng, persona: str) -> dict:
    seat = view["seat"]
    group = _group_of(view, seat)
    players = view["players"]
    best = _best_card(
        tuple(players[s]["die"] for s in group),
        group.index(seat),
        tuple(a["card"] for a in actions),
        tuple(tuple(players[s]["candidates"]) for s in group),
        players[seat]["hand_count"],
        persona,
    )
    return next(a for a in actions if a["card"] == best)


@lru_cache(maxsize=1 << 14)
def _best_card(
    faces: tuple[int, ...],
    me: int,
    mine: tuple[str, ...],
    candidates: tuple[tuple[str, ...], ...],
    hand_left: int,
    persona: str,
) -> str:
    """The card to play: a pure function of what the table shows (its samples are drawn from
    a generator seeded by the position itself), so the same position gets the same answer."""
    rng = Rng({"rng": Rng.seed_from(f"{faces}{me}{mine}{candidates}{hand_left}{persona}")})
    options: list[list[tuple[str, float]]] = [
        [] if i == me else _uniform(list(candidates[i])) for i in range(len(faces))
    ]
    if persona == "ruse":
        for i in range(len(faces)):
            if i != me:
                options[i] = list(_prudent_model(faces, candidates, i))
    gains = expected_gains(list(faces), me, list(mine), options, rng)
    # a card's worth later in the manche: keep the strong ones for when they matter
    later = max(0, hand_left - 2)  # turns still to play after this one, at most
    for c in mine:
        after = _after(list(faces), me, c)
        gains[c] += FUTURE * later * (_standing(after, me) - _standing(list(faces), me))
    return max(mine, key=lambda c: (gains[c] - (0.02 * KEEP[c] if later else 0), c))


def _after(faces: list[int], me: int, card: str) -> list[int]:
    """The dice after ``card`` alone turned them (the faces stay for the next turns)."""
    f = list(faces)
    if card == "inverseuse":
        f[me] = dice.opposite(f[me])
    elif card == "sorcier":
        f[me] = max(dice.adjacent(f[me]))
    elif card == "oracle":
        f[me] = 6.5  # type: ignore[call-overload]
    elif card == "chenapans":
        f = [dice.opposite(x) for x in f]
    elif card == "marchands":
        f = [f[(i - 1) % len(f)] for i in range(len(f))]
    return f


def _standing(faces: list, me: int) -> float:
    """How a die stands against the others': +1 above them all, -1 below them all."""
    others = [x for i, x in enumerate(faces) if i != me]
    if not others:
        return 0.0
    return sum((faces[me] > x) - (faces[me] < x) for x in others) / len(others)


def choose_pivot(view: dict, actions: list[dict]) -> dict:
    """LE SORCIER: the face that scores best against the dice as they stand."""
    seat = view["seat"]
    duel = view["duel"] or {}
    seats = duel.get("seats") or [seat]
    live = {int(s) for s in duel.get("live", [])}
    cards = duel.get("cards", {})
    low = any(cards.get(str(s)) == "chevalier" for s in live)
    flip = bool(duel.get("flip_pending"))
    players = view["players"]

    def score(a: dict) -> tuple:
        final = a["face"] if a["order"] != "before_flip" else dice.opposite(a["face"])
        values = []
        for s in seats:
            if s == seat:
                values.append(final)
                continue
            face = players[s]["die"]
            if flip:
                face = dice.opposite(face)
            card = cards.get(str(s)) if s in live else None
            values.append(value_of(card, face))
        vc = Counter(values)
        left = sorted(
            (i for i in range(len(values)) if vc[values[i]] == 1),
            key=lambda i: values[i],
            reverse=not low,
        )
        me = seats.index(seat)
        rank = left.index(me) if me in left else 9
        return (-rank, -final if low else final, a["order"])

    return max(actions, key=score)


def decide(view: dict[str, Any], actions: list[dict], rng: Rng, persona: str | None) -> dict:
    persona = persona or "ruse"
    kind = actions[0]["type"]
    if kind in ("next", "all"):
        return actions[0]
    if persona == "hasard":
        return actions[rng.below(len(actions))]
    if kind == "play":
        return choose_card(view, actions, rng, persona)
    if kind == "pivot":
        return choose_pivot(view, actions)
    if kind == "take":
        return max(actions, key=lambda a: a["token"])
    if kind == "bury":
        return min(actions, key=lambda a: (KEEP[a["card"]], a["card"]))
    return actions[0]
