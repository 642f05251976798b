"""What a card can do from a given die and objective: the common ground of the honest bots and
the omniscient solver (neither reads the state; both reason on these small tuples)."""

from __future__ import annotations

from functools import lru_cache

from . import die as D

Objs = tuple[tuple[int, ...], ...]
Met = tuple[bool, ...]


def met_after(objs: Objs, met: Met, face: int) -> Met:
    return tuple(m or face in o for m, o in zip(met, objs, strict=True))


def wins(objs: Objs, met: Met, face: int) -> bool:
    if len(objs) == 1:
        return face in objs[0]
    return (face in objs[0] and met[1]) or (face in objs[1] and met[0])


@lru_cache(maxsize=200_000)
def outcomes(card: str, face: int, objs: Objs, met: Met, first: bool) -> tuple:
    """Every ``(choice, face, objs, met)`` the card may leave, ``choice`` being the effect
    action's value (a face, an objective index, or 0 for no effect).  The ORACLE's reroll is
    chance: it has no plan (empty)."""
    if card in D.DIE_CARDS:
        return tuple(
            ("face", v, v, objs, met_after(objs, met, v)) for v in D.die_options(card, face)
        )
    if card == "dame":
        if not first:
            return (("face", 0, face, objs, met),)
        values = sorted({v for o in objs for v in o if 1 <= v <= 12})
        return tuple(("face", v, v, objs, met_after(objs, met, v)) for v in values)
    if card in D.OBJECTIVE_CARDS:
        new = D.LOW if card == "chevalier" else D.HIGH
        out = []
        for i in range(len(objs)):
            o2 = tuple(new if j == i else o for j, o in enumerate(objs))
            m2 = tuple((face in new) if j == i else m for j, m in enumerate(met))
            out.append(("objective", i, face, o2, m2))
        return tuple(out)
    if card == "stoique":
        return (("take", None, face, objs, met),)
    return ()


@lru_cache(maxsize=200_000)
def solo(card: str, face: int, objs: Objs, met: Met, first: bool) -> bool:
    """Whether this one card, played alone, settles the dilemma."""
    return any(wins(o, m, f) for _, _, f, o, m in outcomes(card, face, objs, met, first))


@lru_cache(maxsize=200_000)
def finish(cards: frozenset, face: int, objs: Objs, met: Met, first: bool) -> tuple | None:
    """A way to play every card of ``cards`` (distinct characters, one each) in some order that
    ends on a win: ``((card, kind, choice), ...)``, or ``None``."""
    if not cards:
        return () if wins(objs, met, face) else None
    for card in sorted(cards):
        rest = cards - {card}
        for kind, choice, f, o, m in outcomes(card, face, objs, met, first):
            tail = finish(rest, f, o, m, False)
            if tail is not None:
                return ((card, kind, choice), *tail)
    return None


def keep_share(card: str, objs: Objs, met: Met) -> float:
    """How often the card can leave a won die won (played after the win: never first)."""
    faces = [f for f in D.FACES if wins(objs, met, f)]
    if not faces:
        return 0.0
    ok = sum(
        1
        for f in faces
        if any(wins(o, m, f2) for _, _, f2, o, m in outcomes(card, f, objs, met, False))
    )
    return ok / len(faces)


def flex(face: int, objs: Objs, met: Met, cards: tuple[str, ...]) -> int:
    """How many of ``cards`` could settle the dilemma from ``face`` on their own."""
    return sum(1 for c in cards if solo(c, face, objs, met, False))
