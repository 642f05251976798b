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

from ..core import copy_game
from . import records as rec
from .scenario import FORMAT_VERSION, MIN_COMPATIBLE, new_game
from .turn import SHARED, legal_actions
from .turn import apply as _apply

__all__ = [
    "FORMAT_VERSION",
    "MIN_COMPATIBLE",
    "SHARED",
    "apply",
    "legal_actions",
    "new_game",
    "view",
]


def apply(bundle: dict, state: dict, action: dict) -> dict:
    """The state after ``action`` (``turn.apply``); the front ends call it through here."""
    return _apply(bundle, state, action)


def view(bundle: dict, state: dict, seat: int | None = None) -> dict:
    """What the players see: the decks' order and the face-down cards are hidden; the box,
    the Past and the banished cards are reduced to what the table shows (how many of each
    number are left in the box)."""
    v = copy_game(state, SHARED)
    v.pop("rng", None)
    v.pop("queue", None)
    v["box"] = {n: len(keys) for n, keys in state["box"].items() if keys}
    v["explore_decks"] = {z: len(d) for z, d in state["explore_decks"].items()}
    v["skill_box"] = len(state["skill_box"])
    v["past"] = len(state["past"])
    v["banished"] = len(state["banished"])
    for ch in v["characters"]:
        ch["deck"] = len(ch["deck"])
    for slot in v["slots"].values():
        if not slot.get("revealed") and slot.get("exploration"):
            slot["zone"] = rec.exp(bundle, slot["exploration"])["zone"]
            slot["exploration"] = None
    v["seat"] = seat
    return v
