"""Setting up a situation, for rules tests (and anyone who wants to replay a rulebook example):
start an adventure in a given scenario, then give the characters the hands, purses, hit points
and deck order the example needs.  Every card moves through ``cards.move``: a situation keeps
each card in exactly one place, like a real game.

    >>> from pipeline.story.bundles import bundle_for
    >>> bundle = bundle_for("citadelle")
    >>> s = situation(bundle, ["A", "B"], scenario="pluie_grise",
    ...               hp={"A": 5}, hands={"A": ["a_estoc"]},
    ...               purses={"B": [210]}, decks={"A": ["a_bouclier", "x01"]})
    >>> act = find(legal_actions(bundle, s), title="Fouiller une ferme abandonnée", character=0)
    >>> act["card"], act["source"]
    ('201', 'terrain:0,0')

Legal actions name their card and title (``{"type": "act", "character": 0, "source":
"terrain:0,0", "index": 0, "card": "101", "title": "Fouiller les charrettes"}``), so ``find``
picks one the way the rulebook's example names it.
"""

from __future__ import annotations

from typing import Any

from ..core import copy_game
from . import board as B
from . import cards as K
from . import effects as E
from . import records as rec
from . import taking
from .scenario import new_game
from .turn import SHARED, apply, legal_actions

__all__ = ["consequence", "find", "place", "play", "situation"]


def _char(state: dict, cid: str) -> dict:
    return next(ch for ch in state["characters"] if ch["id"] == cid)


def _adventure_key(bundle: dict, state: dict, card: int | str) -> str:
    """A card number (the version the rules would take now) or an exact key (``"210/green"``)."""
    if isinstance(card, str) and card in rec.recs(bundle, "adventure_card"):
        return card
    key = taking.choose_version(bundle, state, str(card))
    if key is None:
        key = next(
            k for k in rec.versions(bundle, card) if K.where(bundle, state, K.adventure(k)) == "box"
        )
    return key


def situation(
    bundle: dict,
    characters: list[str] | tuple[str, ...] = ("A",),
    *,
    scenario: str | None = None,
    seed: int | str = 0,
    recovery: str = "normal",
    hp: dict[str, int] | None = None,
    hands: dict[str, list[str]] | None = None,
    purses: dict[str, list[int | str]] | None = None,
    blocked: dict[str, list[int | str]] | None = None,
    decks: dict[str, list[str]] | None = None,
    discards: dict[str, list[str]] | None = None,
) -> dict:
    """A new adventure in ``scenario`` (default: the introduction), at its first turn, then:

    - ``hp``: hit points by character id;
    - ``hands``: skills in hand (taken from wherever they are: deck, discard, the box);
    - ``purses`` / ``blocked``: purse cards (by number, or exact key) in front of a character,
      or blocked under its card;
    - ``decks``: skills on top of the Deck d'Action, **the first one drawn first**;
    - ``discards``: skills in the discard.
    """
    state = new_game(bundle, list(characters), seed, recovery=recovery, scenario=scenario)
    for cid, value in (hp or {}).items():
        ch = _char(state, cid)
        ch["hp"] = value
        ch["conscious"] = value > 0
    for cid, skills in (hands or {}).items():
        for skill in skills:
            K.move(bundle, state, K.action_card(skill), f"hand:{cid}")
    for cid, skills in (discards or {}).items():
        for skill in skills:
            K.move(bundle, state, K.action_card(skill), f"discard:{cid}")
    for cid, skills in (decks or {}).items():
        for skill in reversed(skills):  # the last moved is on top: drawn first
            K.move(bundle, state, K.action_card(skill), f"deck:{cid}")
    for pile, table in (("purse", purses), ("purse_blocked", blocked)):
        for cid, items in (table or {}).items():
            for card in items:
                key = _adventure_key(bundle, state, card)
                K.move(bundle, state, K.adventure(key), f"{pile}:{cid}")
    return state


def place(bundle: dict, state: dict, card: int | str, at: str, *, event: bool = False) -> str:
    """Put a Terrain at ``at`` (or, ``event``, a permanent event linked to the Terrain there)
    without taking it through its effects.  Returns the card's key."""
    key = _adventure_key(bundle, state, card)
    if event:
        K.move(bundle, state, K.adventure(key), f"event:{at}")
    else:
        if at in state["board"]:
            B.leave_quietly(bundle, state, K.adventure(state["board"][at]["terrain"]), "box")
        K.move(bundle, state, K.adventure(key), f"terrain:{at}")
    return key


def find(actions: list[dict], **fields: Any) -> dict:
    """The one legal action with these fields (``title="Fouiller les charrettes"``,
    ``type="draw", count=3``...); ``LookupError`` naming the candidates otherwise."""
    found = [a for a in actions if all(a.get(k) == v for k, v in fields.items())]
    if len(found) != 1:
        raise LookupError(f"{len(found)} legal actions match {fields}: {found or actions}")
    return found[0]


def play(bundle: dict, state: dict, *steps: dict[str, Any]) -> dict:
    """Apply each step: a full action, or the fields ``find`` needs to pick one."""
    for step in steps:
        actions = legal_actions(bundle, state)
        action = step if step in actions else find(actions, **step)
        state = apply(bundle, state, action)
    return state


def consequence(bundle: dict, state: dict, *effects: dict, by: int = 0) -> dict:
    """A new state where character ``by`` has just met these effects, as the consequence of
    an action on its Terrain (``{"take": 407}`` reveals card 407, ``{"read": 66}`` opens the
    Livre des dialogues at 66), resolved until the players must decide."""
    state = copy_game(state, SHARED)
    ctx = {"character": by, "verb": None, "this": None, "participants": [by]}
    state["pending"] = None
    E.push(state, list(effects), ctx)
    E.pump(bundle, state)
    return state
