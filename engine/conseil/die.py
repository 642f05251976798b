"""The twelve-sided die and what each character card does to it.

The die is a real dodecahedron: opposite faces sum to 13 and every face touches five others.
The layout used (documented in ``site/regles-conseil.md``): face 1 on top, ringed by 2, 4, 6,
3, 5 in turn; 12 at the bottom, ringed by their opposites.  The rulebook's own example (the
SORCIER turns a 7 into a 10) holds: 7 and 10 touch.
"""

from __future__ import annotations

#: the five faces touching each face
ADJACENT: dict[int, tuple[int, ...]] = {
    1: (2, 3, 4, 5, 6),
    2: (1, 4, 5, 7, 10),
    3: (1, 5, 6, 9, 11),
    4: (1, 2, 6, 8, 10),
    5: (1, 2, 3, 7, 9),
    6: (1, 3, 4, 8, 11),
    7: (2, 5, 9, 10, 12),
    8: (4, 6, 10, 11, 12),
    9: (3, 5, 7, 11, 12),
    10: (2, 4, 7, 8, 12),
    11: (3, 6, 8, 9, 12),
    12: (7, 8, 9, 10, 11),
}
FACES = tuple(range(1, 13))
LOW = (1, 2, 3, 4)  # the CHEVALIER's objective
HIGH = (9, 10, 11, 12)  # the GOLEM's objective

#: characters whose effect turns the die (the others change the objective or nothing)
DIE_CARDS = (
    "alchimiste",
    "automate",
    "druidesse",
    "inverseuse",
    "parasite",
    "puissante",
    "sorcier",
)
OBJECTIVE_CARDS = ("chevalier", "golem")


def opposite(face: int) -> int:
    return 13 - face


def _clamp(v: int) -> int:
    return max(1, min(12, v))


def die_options(card: str, face: int) -> list[int]:
    """The faces a die-turning card may leave the die on, from ``face`` (sorted, distinct)."""
    if card == "alchimiste":
        if face == 1:
            out = {2}
        elif face == 12:
            out = {6}
        else:
            out = {_clamp(face * 2), face // 2}
    elif card == "automate":
        out = {_clamp(face + 2), _clamp(face + 3)}
    elif card == "parasite":
        out = {_clamp(face - 2), _clamp(face - 3)}
    elif card == "druidesse":
        out = {_clamp(face + 1), _clamp(face - 1)}
    elif card == "inverseuse":
        out = {opposite(face)}
    elif card == "sorcier":
        out = set(ADJACENT[face])
    elif card == "puissante":
        out = {b for a in ADJACENT[face] for b in ADJACENT[a] if b != face}
    else:
        raise ValueError(f"{card} does not turn the die")
    return sorted(out)


def puissante_path(start: int, end: int) -> int:
    """A face the PUISSANTE passes through on her way from ``start`` to ``end``."""
    return next(a for a in ADJACENT[start] if end in ADJACENT[a])
