"""The 7th Citadel as a pure state machine: the public functions, by the rulebook's sections.

    state = new_game(bundle, characters=["A", "B"], seed="s")   # the introduction scenario
    legal_actions(bundle, state) -> [action, ...]
    state = apply(bundle, state, action)                        # a new state; input untouched
    view(bundle, state) -> what the players see (deck orders and face-down cards hidden)

Where the rules live: ``scenario`` (setup), ``board`` (the Plateau, exploration),
``taking`` (numbered cards, hidden numbers), ``actions`` (an action's four steps), ``effects``
(consequences and conditions), ``characters`` (hit points, unconsciousness, Récupération,
hand and purse), ``dialogues``, ``citadel`` (the sheet, epilogues), ``saving``, ``turn`` (legal
actions and ``apply``), ``cards`` (where every card is).  Choices where the rulebook is silent
are listed on the rules page (site/regles-citadelle.md, « Nos choix »).
"""

from __future__ import annotations

from ..core import copy_state
from . import records as rec
from .scenario import FORMAT_VERSION, MIN_COMPATIBLE, new_game
from .turn import SHARED, Offering, legal_actions
from .turn import apply as _apply

#: parts of a state the view shows as counts, or not at all, or shares (never deep-copied)
_REDUCED = frozenset({"rng", "queue", "box", "explore_decks", "skill_box", "past", "banished",
                      "characters", *SHARED})  # fmt: skip

__all__ = [
    "FORMAT_VERSION",
    "MIN_COMPATIBLE",
    "SHARED",
    "apply",
    "legal_actions",
    "new_game",
    "view",
]


def apply(bundle: dict, state: dict, action: dict, offered: Offering | None = None) -> dict:
    """The state after ``action`` (``turn.apply``); the front ends call it through here."""
    return _apply(bundle, state, action, offered)


def view(bundle: dict, state: dict, seat: int | None = None) -> dict:
    """What the players see: the decks' order and the face-down cards are hidden; the box,
    the Past and the banished cards are reduced to what the table shows (how many of each
    number are left in the box)."""
    # what is reduced to counts is never copied (the box, the decks, the Past): only the rest
    shown, chars = copy_state(  # one copy of the rest, the characters' decks left out
        [
            {k: x for k, x in state.items() if k not in _REDUCED},
            [{f: y for f, y in ch.items() if f != "deck"} for ch in state["characters"]],
        ]
    )
    v: dict = {}
    for k, x in state.items():
        if k in ("rng", "queue"):
            continue
        if k == "box":
            v[k] = {n: len(keys) for n, keys in x.items() if keys}
        elif k == "explore_decks":
            v[k] = {z: len(d) for z, d in x.items()}
        elif k in ("skill_box", "past", "banished"):
            v[k] = len(x)
        elif k == "characters":
            v[k] = [
                {f: len(ch["deck"]) if f == "deck" else copied[f] for f in ch}
                for ch, copied in zip(x, chars, strict=True)
            ]
        elif k in SHARED:
            v[k] = list(x)  # an append-only list: its items are shared (``copy_game``)
        else:
            v[k] = shown[k]
    for k in ("box", "explore_decks", "skill_box", "past", "banished", "characters"):
        if k not in state:
            raise KeyError(k)
    for slot in v["slots"].values():
        if not slot.get("revealed") and slot.get("exploration"):
            slot["zone"] = rec.exp(bundle, slot["exploration"])["zone"]
            slot["exploration"] = None
    v["seat"] = seat
    return v
