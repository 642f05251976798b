"""The dilemma resolved (« Résolution du Dilemme »): the winning side's outcome read and
applied, signed by the leader, then the card on the timeline and the end of the round."""

from __future__ import annotations

from . import effects, timeline, voting
from .common import _log, _rec
from .steps import step


def _cleanup_and_outcome(bundle: dict, state: dict) -> None:
    """After the vote: the cleanup, the winning outcome effect by effect (signed by the
    leader), the card on the timeline, and the end of the round."""
    voting._cleanup(bundle, state)
    vote = state["vote"]
    side = vote["winner"]
    key = vote["card"]
    card = _rec(bundle, "dilemma", key) or {}
    outcome = card.get(side) or {}
    _log(state, "outcome", side=side, title=card.get("title", key), text=outcome.get("text", ""))
    state.pop("skull_now", None)
    effects._apply_effects(bundle, state, outcome.get("effects") or [], state["leader"])
    skull = bool(card.get("skull")) or bool(state.pop("skull_now", False))
    timeline._on_timeline(bundle, state, key, side, skull)
    timeline._end_round(bundle, state)


step("resolve")(_cleanup_and_outcome)
