"""Bots for Le Roi des 12, from a seat's view only.

Every card choice is a guess at what the others will play.  The bots read only what the table
shows: each opponent's possible cards (the set less the cards it discarded this manche; a card
hidden under its die cannot be told apart), the dice on the table, the points so far.

- ``hasard``: any legal card;
- ``prudent``: the card with the best expected gain if every opponent plays any of its
  possible cards with equal chance;
- ``ruse``: the same, against each opponent as its temperament plays (public, shown at the
  table): a « au hasard » seat plays any card, a « prudent » one as ``prudent`` does, and the
  others (« rusé », or a person) reason as it does: it works out how likely each seat of its
  group plays each card when every reasoning seat answers the others' likely cards
  (``_table_strategies``, a few rounds from the *prudent* reading) and answers that.

``prudent`` and ``ruse`` do not simply play their best card: two bots reading the same table
would then play the same card and cancel each other turn after turn.  Each draws its card from
its own mixed strategy (``card_weights``: the better a card scores, the likelier), with its
seat's own random stream (``Game.seat_streams``).  Independent streams were not enough: two
« rusé » bots read the same table the same way, and a card that turns one's own die was valued
for the turns still to play as if it could not be cancelled, so both favoured the same card at
the start of a manche (71 % of first turns had two bots on one card).  A die-turning card's
later worth now counts only the chance that no other seat plays it too, and the « rusé »
reading lets every seat answer the others' likely cards, so the table spreads its cards.

A turn is scored with ``duel_points``: the rulebook's steps 2 to 5 for one group, a fast
copy of ``rules._duel`` with LE SORCIER choosing the best neighbouring face and L'ORACLE
averaged over four faces spread over the twelve.  Expected gain = own PV minus the best of the
others'; a card that turns one's own die also counts what its new face is worth for the turns
still to play.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
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
#: how sharply a bot prefers its best cards in its own mixed strategy (``card_weights``)
MIX = 3.0


def duel_points(faces: list[int], cards: list[str]) -> tuple[float, ...]:
    """PV each player of one group gains this turn (champion 2, dauphin 1), on average over
    L'ORACLE's rolls (``ORACLE_ROLLS``)."""
    return _turn(tuple(faces), _plan(tuple(cards)))[0]


# The cards' part of a turn (which are cancelled, what each live card does) does not depend on
# the dice: it is worked out once per tuple of cards (a « plan »).  Each seat's value is then a
# function of one face, the one its die shows after LES MARCHANDS (``rotate``): LES CHENAPANS
# turn it over, LE SORCIER picks the best neighbour of the face it then shows (where its choice
# ends up when the dice are turned over after it), L'INVERSEUSE turns it, a value card counts
# it — every step is the rulebook's, in ``rules._duel``'s order, composed into one table per
# seat (index: the face, 1 to 12).  L'ORACLE's seat counts the roll.

_FACES = range(dice.SIDES + 1)
#: LE SORCIER's best neighbouring face: the highest, or the lowest when LE CHEVALIER is live
_SORCIER_HIGH = tuple(max(dice.adjacent(face)) if face else 0 for face in _FACES)
_SORCIER_LOW = tuple(min(dice.adjacent(face)) if face else 0 for face in _FACES)

#: (values, low wins, LE PARIEUR) -> (PV of each seat, gain of each seat), one table per rule
_RANKS: tuple[dict, ...] = ({}, {}, {}, {})
_RANK_LIMIT = 1 << 17

#: (rotate, one table per seat, L'ORACLE's seat or -1, rule); the rule: 2 when low wins
#: (LE CHEVALIER) + 1 when first and second swap (LE PARIEUR)
_Plan = tuple
_PLANS: dict[tuple[str, ...], _Plan] = {}


def _plan(cards: tuple[str, ...]) -> _Plan:
    plan = _PLANS.get(cards)
    if plan is not None:
        return plan
    n = len(cards)
    live = [i for i in range(n) if cards.count(cards[i]) == 1]
    by: dict[str, int] = {cards[i]: i for i in live}
    if "dame" in by:
        live = [by["dame"]]
        by = {"dame": by["dame"]}
    low = "chevalier" in by
    flip = "chenapans" in by
    tables = tuple(
        _seat_table(flip, low, cards[i] if i in live and cards[i] in _OWN_EFFECT else None)
        for i in range(n)
    )
    plan = ("marchands" in by, tables, by.get("oracle", -1), 2 * low + ("parieur" in by))
    if len(_PLANS) > 1 << 16:
        _PLANS.clear()
    _PLANS[cards] = plan
    return plan


#: live cards that change their own seat's face or value
_OWN_EFFECT = frozenset({"sorcier", "inverseuse", *_VALUE})


@lru_cache(maxsize=128)
def _seat_table(flip: bool, low: bool, card: str | None) -> tuple[int, ...]:
    """A seat's value, face by face, when LES CHENAPANS turn the dice over (``flip``), low
    wins (``low``) and the seat's own live ``card`` changes its face or value."""
    f = [(13 - x if flip else x) if x else 0 for x in _FACES]
    if card == "sorcier":
        best = _SORCIER_LOW if low else _SORCIER_HIGH
        f = [best[x] if x else 0 for x in f]
    elif card == "inverseuse":
        f = [13 - x if x else 0 for x in f]
    elif card in _VALUE:
        f = [_VALUE[card](x) if x else 0 for x in f]
    return tuple(f)


def _turn(faces: tuple[int, ...], plan: _Plan) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(PV of each seat, gain of each seat) for one turn of a group."""
    rotate, tables, oracle, rule = plan
    if rotate:
        faces = faces[-1:] + faces[:-1]
    values = tuple(map(tuple.__getitem__, tables, faces))
    if oracle < 0:
        ranked = _RANKS[rule].get(values)
        return ranked if ranked is not None else _ranked(values, rule)
    key = (values[:oracle], values[oracle + 1 :], rule)
    ranked = _ORACLE.get(key)
    if ranked is None:
        ranked = _oracle_ranked(key)
    return ranked


#: ``Rng.below(1_000_000)`` draws again above this
_BELOW_LIMIT = (1 << 64) - ((1 << 64) % 1_000_000)

#: (values before L'ORACLE's seat, values after it, rule) -> ``_turn``'s answer
_ORACLE: dict[tuple, tuple[tuple[float, ...], tuple[float, ...]]] = {}


def _oracle_ranked(key: tuple) -> tuple[tuple[float, ...], tuple[float, ...]]:
    before, after, rule = key
    ranks = _RANKS[rule]
    total = [0.0] * (len(before) + 1 + len(after))
    for roll in ORACLE_ROLLS:
        values = (*before, roll, *after)
        ranked = ranks.get(values)
        if ranked is None:
            ranked = _ranked(values, rule)
        for i, p in enumerate(ranked[0]):
            total[i] += p / len(ORACLE_ROLLS)
    points = tuple(total)
    if len(_ORACLE) > _RANK_LIMIT:
        _ORACLE.clear()
    _ORACLE[key] = result = (points, _gains(points))
    return result


def _ranked(values: tuple[int, ...], rule: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Rank ``values`` (equal values drop out) under ``rule`` (see ``_Plan``)."""
    left = [v for v in values if values.count(v) == 1]
    first: int | None = None
    second: int | None = None
    if left:
        best = min if rule >= 2 else max
        top = best(left)
        first = values.index(top)
        if len(left) > 1:
            left.remove(top)
            second = values.index(best(left))
        if rule % 2:
            first, second = second, first
    key = (len(values), first, second)
    result = _RESULTS.get(key)
    if result is None:
        out = [0] * len(values)
        if first is not None:
            out[first] += 2
        if second is not None:
            out[second] += 1
        points = tuple(out)
        result = _RESULTS[key] = (points, _gains(points))
    ranks = _RANKS[rule]
    if len(ranks) > _RANK_LIMIT:
        ranks.clear()
    ranks[values] = result
    return result


#: (seats, champion, dauphin) -> (PV of each seat, gain of each seat)
_RESULTS: dict[tuple[int, int | None, int | None], tuple[tuple[int, ...], tuple[float, ...]]] = {}


def _gains(points: tuple[float, ...]) -> tuple[float, ...]:
    """Each seat's gain: its PV minus the best of the others' (its own PV when alone)."""
    if len(points) == 1:
        return (points[0] - 0,)
    top = max(points)
    if points.count(top) > 1:  # every seat has a best other at ``top``
        return tuple(p - top for p in points)
    second = max(p for p in points if p != top)
    return tuple(p - (second if p == top else top) for p in points)


#: faces -> cards -> each seat's gain (a turn is scored once, whoever weighs it)
_TABLES: dict[tuple[int, ...], dict[tuple[str, ...], tuple[float, ...]]] = {}
_TABLE_LIMIT = 1 << 17
_table_size = [0]


def _table(faces: tuple[int, ...]) -> dict[tuple[str, ...], tuple[float, ...]]:
    table = _TABLES.get(faces)
    if table is None:
        if _table_size[0] > _TABLE_LIMIT:
            _TABLES.clear()
            _table_size[0] = 0
        table = _TABLES[faces] = {}
    return table


def _clear_tables() -> None:
    _TABLES.clear()
    _PLANS.clear()
    for ranks in _RANKS:
        ranks.clear()
    _ORACLE.clear()
    _table_size[0] = 0


def _duel_points(faces: tuple[int, ...], cards: tuple[str, ...]) -> tuple[float, ...]:
    return _turn(faces, _plan(cards))[0]


#: the bench's cold start clears the scored turns as it cleared ``_duel_points``' cache
_duel_points.cache_clear = _clear_tables  # type: ignore[attr-defined]


def expected_gains(
    faces: list[int],
    me: int,
    mine: list[str],
    options: list[list[tuple[str, float]]],
    rng: Rng,
) -> dict[str, float]:
    """Expected gain of each of ``mine`` when the others (``options[i]``: cards with
    weights, empty for ``me``) choose independently."""
    return _expected_gains(tuple(faces), me, mine, options, lambda: rng)


def _expected_gains(
    faces: tuple[int, ...],
    me: int,
    mine: list[str] | tuple[str, ...],
    options: list[list[tuple[str, float]]] | list[tuple[tuple[str, float], ...]],
    make_rng: Callable[[], Rng],
) -> dict[str, float]:
    """``expected_gains``; ``make_rng`` is called only when the profiles are sampled."""
    others = [i for i in range(len(faces)) if i != me]
    lists = [options[i] for i in others]
    total = math.prod(len(x) for x in lists) if lists else 1
    # (the cards of the seats before me, of the seats after me, weight)
    profiles: list[tuple[tuple[str, ...], tuple[str, ...], float]] = []
    if total <= BUDGET:
        seat_cards = [[c for c, _ in opts] for opts in lists]
        seat_weights = [[w for _, w in opts] for opts in lists]
        combos = zip(itertools.product(*seat_cards), itertools.product(*seat_weights), strict=True)
        for picks, ws in combos:
            profiles.append((picks[:me], picks[me:], math.prod(ws)))
    else:
        draw = make_rng().next
        sums = [sum(w for _, w in opts) for opts in lists]
        # every weight 1: taking 1 from r (below the number of cards) is exact each time, so
        # the walk below stops at card ceil(r) (the first when r is 0)
        flat = [all(w == 1.0 for _, w in opts) for opts in lists]
        drawn: Counter[tuple[str, ...]] = Counter()
        for _ in range(SAMPLES):
            pick = []
            for opts, weight, uniform in zip(lists, sums, flat, strict=True):
                x = draw()  # ``Rng.below(1_000_000)``, its rejection step and all
                while x >= _BELOW_LIMIT:
                    x = draw()
                r = x % 1_000_000 / 1_000_000 * weight
                if uniform:
                    pick.append(opts[math.ceil(r) - 1 if r > 0 else 0][0])
                    continue
                chosen = opts[-1][0]
                for option, w in opts:
                    r -= w
                    if r <= 0:
                        chosen = option
                        break
                pick.append(chosen)
            drawn[tuple(pick)] += 1
        # a profile drawn k times weighs k: the gains are quarters, so the weighted mean is
        # the very mean of the samples, each scored once
        for picks, k in drawn.items():
            profiles.append((picks[:me], picks[me:], float(k)))
    table = _table(faces)
    find = table.get
    rotated = faces[-1:] + faces[:-1]
    weights = [w for _, _, w in profiles]
    # weights all 1 (uniform or sampled play): the gains are quarters, their sum is exact in
    # any order, and ``sum`` gives the loop's very result
    uniform = all(w == 1.0 for w in weights)
    mine_gain = itemgetter(me)
    out = {}
    for card in mine:
        mid = (card,)
        keys = [before + mid + after for before, after, _ in profiles]
        found: list[Any] = list(map(find, keys))  # gains, ``None`` where not in the table yet
        if None in found:
            for k, gains in enumerate(found):
                if gains is None:  # ``_turn``, inline
                    cards = keys[k]
                    rotate, by_face, oracle, rule = _PLANS.get(cards) or _plan(cards)
                    values = tuple(map(tuple.__getitem__, by_face, rotated if rotate else faces))
                    if oracle < 0:
                        ranked = _RANKS[rule].get(values) or _ranked(values, rule)
                    else:
                        key = (values[:oracle], values[oracle + 1 :], rule)
                        ranked = _ORACLE.get(key) or _oracle_ranked(key)
                    found[k] = table[cards] = ranked[1]
                    _table_size[0] += 1
        if uniform:
            out[card] = sum(map(mine_gain, found)) / float(len(found)) if found else 0.0
            continue
        acc = wsum = 0.0
        for gains, w in zip(found, weights, strict=True):
            acc += w * gains[me]
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
    gains = _expected_gains(
        faces,
        i,
        candidates[i],
        theirs,
        lambda: Rng({"rng": Rng.seed_more(_position_seed(faces, candidates), str(i))}),
    )
    top = max(gains.values())
    return tuple((c, UNIFORM_SHARE + math.exp(SOFT * (g - top))) for c, g in gains.items())


@lru_cache(maxsize=64)
def _position_seed(faces: tuple[int, ...], candidates: tuple[tuple[str, ...], ...]) -> int:
    """``Rng.seed_from(f"{faces}{candidates}")``, hashed once for every opponent's model."""
    return Rng.seed_from(f"{faces}{candidates}")


def _seeded(text: str) -> Rng:
    """A generator seeded by the position itself (drawn only when the profiles are sampled)."""
    return Rng({"rng": Rng.seed_from(text)})


def strategy(view: dict, actions: list[dict], persona: str) -> tuple[tuple[str, float], ...]:
    """The bot's mixed strategy over the cards of ``actions``: ``(card, weight)`` pairs."""
    seat = view["seat"]
    group = _group_of(view, seat)
    players = view["players"]
    return card_weights(
        tuple(players[s]["die"] for s in group),
        group.index(seat),
        tuple(a["card"] for a in actions),
        tuple(tuple(players[s]["candidates"]) for s in group),
        players[seat]["hand_count"],
        persona,
        tuple(players[s].get("persona") for s in group),
    )


def choose_card(view: dict, actions: list[dict], rng: Rng, persona: str) -> dict:
    """A card drawn from the bot's own mixed strategy (``strategy``) with ``rng``, the seat's
    own stream: two bots in the same position decide independently, and the others cannot
    read a bot's card from the position alone."""
    weights = strategy(view, actions, persona)
    r = rng.below(1_000_000) / 1_000_000 * sum(w for _, w in weights)
    chosen = weights[-1][0]
    for card, w in weights:
        r -= w
        if r < 0:
            chosen = card
            break
    return next(a for a in actions if a["card"] == chosen)


#: rounds of the table's reasoning (``_table_strategies``) and how far each round moves
ROUNDS = 4
STEP = 0.5


def _round_rng(faces: tuple[int, ...], candidates: Any, label: str) -> Rng:
    """The generator of one seat's sampled profiles in one round of ``_table_strategies``: a
    fresh one at every call, so that the same table always reads the same way."""
    return Rng({"rng": _round_seed(faces, candidates, label)})


@lru_cache(maxsize=4096)
def _round_seed(faces: tuple[int, ...], candidates: Any, label: str) -> int:
    return Rng.seed_more(_position_seed(faces, candidates), label)


#: temperaments whose play does not depend on the others' (``_fixed_mix``)
_FIXED = frozenset({"hasard", "prudent"})


def _fixed_mix(
    faces: tuple[int, ...],
    candidates: tuple[tuple[str, ...], ...],
    hand_left: int,
    i: int,
    temperament: str,
) -> dict[str, float]:
    """How likely seat ``i`` plays each of its possible cards when its temperament does not
    read the others: « au hasard », any of them; « prudent », the « prudent » bot's own mixed
    strategy (``card_weights``) over them."""
    if temperament == "hasard":
        return dict(_uniform(list(candidates[i])))
    return dict(card_weights(faces, i, candidates[i], candidates, hand_left, temperament))


@lru_cache(maxsize=4096)
def _table_strategies(
    faces: tuple[int, ...],
    candidates: tuple[tuple[str, ...], ...],
    hand_left: int,
    temperaments: tuple[str | None, ...] = (),
) -> tuple[tuple[tuple[str, float], ...], ...]:
    """How likely each seat of the group plays each of its possible cards.  Each seat's
    temperament is public (``temperaments``, one per seat; none for a person or when not
    given): a « au hasard » seat plays any of its cards, a « prudent » one its own mixed
    strategy (``_fixed_mix``), and every other seat reasons as a « rusé » bot does: from the
    « prudent » reading (a soft best response to uniform play), each round every reasoning
    seat answers the others' current mixes with its own mixed strategy (``MIX``), and moves
    ``STEP`` of the way to it.  Two reasoning seats in the same position thus learn that the
    other favours the same card, and a card both would play (and cancel) loses weight for
    both: the table spreads its cards as opponents who read each other would.  A pure
    function of what the table shows."""
    n = len(faces)
    kinds = temperaments or (None,) * n
    fixed = [kinds[i] in _FIXED for i in range(n)]
    mixes = [
        _fixed_mix(faces, candidates, hand_left, i, str(kinds[i]))
        if fixed[i]
        else dict(_prudent_model(faces, candidates, i))
        for i in range(n)
    ]
    for m in mixes:
        total = sum(m.values())
        for c in m:
            m[c] /= total
    reasoning = [i for i in range(n) if not fixed[i]]
    # one reasoning seat answers fixed mixes: its own mix changes nobody's answer
    for r in range(ROUNDS if len(reasoning) > 1 else 0):
        answers = {}
        for i in reasoning:
            options = [[] if j == i else list(mixes[j].items()) for j in range(n)]
            scores = _expected_gains(
                faces,
                i,
                candidates[i],
                options,
                functools.partial(_round_rng, faces, candidates, f"{i}/{r}"),
            )
            _add_later(scores, faces, i, hand_left, options)
            top = max(scores.values())
            weights = {c: math.exp(MIX * (g - top)) for c, g in scores.items()}
            total = sum(weights.values())
            answers[i] = {c: w / total for c, w in weights.items()}
        for i in reasoning:
            mixes[i] = {c: (1 - STEP) * mixes[i][c] + STEP * answers[i][c] for c in mixes[i]}
    return tuple(
        tuple(_uniform(list(candidates[i])) if kinds[i] == "hasard" else m.items())
        for i, m in enumerate(mixes)
    )


@lru_cache(maxsize=1 << 14)
def card_weights(
    faces: tuple[int, ...],
    me: int,
    mine: tuple[str, ...],
    candidates: tuple[tuple[str, ...], ...],
    hand_left: int,
    persona: str,
    temperaments: tuple[str | None, ...] = (),
) -> tuple[tuple[str, float], ...]:
    """The bot's mixed strategy: each card of ``mine`` with its weight, ``exp(MIX * (score -
    best))`` — the best card weighs 1, a card a point of gain worse ``exp(-MIX)``.  A pure
    function of what the table shows (its samples are drawn from a generator seeded by the
    position itself), the seats' public temperaments included (``_table_strategies``)."""
    scores = _card_scores(faces, me, mine, candidates, hand_left, persona, temperaments)
    top = max(scores.values())
    return tuple((c, math.exp(MIX * (scores[c] - top))) for c in mine)


def _card_scores(
    faces: tuple[int, ...],
    me: int,
    mine: tuple[str, ...],
    candidates: tuple[tuple[str, ...], ...],
    hand_left: int,
    persona: str,
    temperaments: tuple[str | None, ...] = (),
) -> dict[str, float]:
    """Each card's score: its expected gain, plus what it does to one's die for the turns
    still to play, less a little for spending a strong card early."""
    options: list[list[tuple[str, float]]] = [
        [] if i == me else _uniform(list(candidates[i])) for i in range(len(faces))
    ]
    if persona == "ruse":
        options = [
            [] if i == me else list(p)
            for i, p in enumerate(_table_strategies(faces, candidates, hand_left, temperaments))
        ]
    gains = _expected_gains(
        faces,
        me,
        mine,
        options,
        lambda: _seeded(f"{faces}{me}{mine}{candidates}{hand_left}{persona}"),
    )
    _add_later(gains, faces, me, hand_left, options)
    return gains


def _add_later(
    gains: dict[str, float],
    faces: tuple[int, ...],
    me: int,
    hand_left: int,
    options: list[list[tuple[str, float]]],
) -> None:
    """A card's worth later in the manche: what it does to one's die for the turns still to
    play — only if it is not cancelled, i.e. if no other seat plays it too (``options``: the
    others' cards with weights) — less a little for spending a strong card early."""
    later = max(0, hand_left - 2)  # turns still to play after this one, at most
    if not later:
        return
    now = _standing(list(faces), me)
    shares = [(dict(opts), sum(w for _, w in opts)) for opts in options if opts]
    for c in gains:
        live = 1.0
        for weights, total in shares:
            live *= 1 - weights.get(c, 0.0) / total
        after = _after(list(faces), me, c)
        gains[c] += FUTURE * later * live * (_standing(after, me) - now)
        gains[c] -= 0.02 * KEEP[c]


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
