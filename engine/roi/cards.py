"""What each character does, in one place per card.

Two families: cards that **turn the die** (its face changes and stays changed: LES MARCHANDS,
LES CHENAPANS, L'INVERSEUSE, LE SORCIER, L'ORACLE) and cards that change only the **value**
for this turn (L'ALCHIMISTE, L'AUTOMATE, LE PARASITE, LE GOLEM).  A value is always computed
from the face the die shows once every face change is done (our reading, written on the rules
page: the rulebook says LE GOLEM looks at the final face, and we read the others the same way),
so the order a player picks only matters between face changes (LE SORCIER after or before LES
CHENAPANS).  Three cards change the table's rules for the turn: LE CHEVALIER (low wins),
LE PARIEUR (first and second swap their gains) and LA DAME (every other card is void).
"""

from __future__ import annotations

from collections.abc import Callable

from .content import CARD_IDS

#: the first-game set, as the rulebook lists it
FIRST_GAME = ("chevalier", "sorcier", "oracle", "alchimiste", "automate", "parasite", "golem")

#: cards that change the face of a die (the symbol the random set needs at least twice)
TURNS_DIE = frozenset({"chenapans", "inverseuse", "marchands", "oracle", "sorcier"})

#: value changes, applied to the final face (``None``: the card leaves the value alone)
VALUE: dict[str, Callable[[int], int]] = {
    "alchimiste": lambda face: face * 2,
    "automate": lambda face: face + 7,
    "parasite": lambda face: face - 7,
    "golem": lambda face: 1 if face == 12 else 12,
}

#: rough strength of each card when a bot must give one up (higher: keep it)
KEEP = {
    "dame": 9,
    "chevalier": 9,
    "alchimiste": 8,
    "golem": 8,
    "automate": 7,
    "sorcier": 7,
    "parasite": 6,
    "oracle": 5,
    "inverseuse": 5,
    "parieur": 5,
    "marchands": 4,
    "chenapans": 4,
}

assert set(KEEP) == set(CARD_IDS)


def value_of(card: str | None, face: int) -> int:
    """The value a die counts for with ``card`` (``None`` or a cancelled card: the face).

    >>> value_of("alchimiste", 10), value_of("golem", 12), value_of("golem", 3)
    (20, 1, 12)
    """
    fn = VALUE.get(card or "")
    return fn(face) if fn else face
