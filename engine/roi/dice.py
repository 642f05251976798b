"""The twelve-sided die: opposite faces add up to 13, each face touches five others.

Our die is a regular dodecahedron numbered so that 1 sits on top, 2 to 6 around it, 7 to 11
around 12 at the bottom, and every pair of opposite faces adds up to 13 (the rulebook's tip).
The rules only need two things from it: the opposite face (L'INVERSEUSE, LES CHENAPANS) and
the five faces next to the one on top (LE SORCIER).

>>> opposite(3), opposite(12)
(10, 1)
>>> adjacent(1)
(2, 3, 4, 5, 6)
"""

from __future__ import annotations

SIDES = 12

#: the five neighbours of each face (the set of the opposite face's neighbours is the set of
#: the opposites of this face's neighbours: turning the die over keeps the same shape)
ADJACENT: dict[int, tuple[int, ...]] = {
    1: (2, 3, 4, 5, 6),
    2: (1, 3, 6, 8, 9),
    3: (1, 2, 4, 7, 8),
    4: (1, 3, 5, 7, 11),
    5: (1, 4, 6, 10, 11),
    6: (1, 2, 5, 9, 10),
    7: (3, 4, 8, 11, 12),
    8: (2, 3, 7, 9, 12),
    9: (2, 6, 8, 10, 12),
    10: (5, 6, 9, 11, 12),
    11: (4, 5, 7, 10, 12),
    12: (7, 8, 9, 10, 11),
}


def opposite(face: int) -> int:
    return SIDES + 1 - face


def adjacent(face: int) -> tuple[int, ...]:
    return ADJACENT[face]
