"""What a seat may see (« paravent »): other houses' secrets, the deck's order and the back of
the dilemma are removed."""

from __future__ import annotations

from ..core.state import copy_game
from .common import SHARED, _rec


def view(bundle: dict, state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator).  Other seats' secret objectives, the deck's
    order, the back of the dilemma being voted on and the draft pool of others are removed."""
    v = copy_game(state, SHARED)  # the log's entries are shared, never modified (as in apply)
    v.pop("rng", None)
    over = state["phase"] == "over"
    for i, s in enumerate(v["seats"]):
        if i != seat and not over:
            # behind the house's screen: only its owner sees them until the game ends
            s["objective"] = None
            s["power"] = None
            s["coins"] = None
    v["deck"] = len(state["deck"])
    v["campaign"].pop("deck", None)
    v["campaign"].pop("rng", None)
    if v.get("draft"):
        pending = state["pending"] or {}
        if pending.get("seat") != seat:
            v["draft"]["pool"] = len(state["draft"]["pool"])
    if state.get("vote"):
        key = state["vote"]["card"]
        card = _rec(bundle, "dilemma", key) or {}
        v["card"] = {
            "id": key,
            "title": card.get("title", ""),
            "question": card.get("question", ""),
            "preview": card.get("preview", {}),
        }
    v["seat"] = seat
    return v
