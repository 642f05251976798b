"""The timeline and the king's death (« Frise du temps », « Fin de la manche »): the tenth
slot is the skull; the king dies on a skull card there, or when it holds too many cards; the
game ends on the king's death, his abdication or the grand final."""

from __future__ import annotations

from . import events, scoring
from .common import _log, _rules
from .steps import run


def _on_timeline(bundle: dict, state: dict, key: str, side: str, skull: bool) -> None:
    """The resolved dilemma goes on the timeline; the last slot is the skull slot: a skull
    card there, or one card too many, and the king dies — unless he has abdicated this round
    (phase F looks for his death only when he has not abdicated)."""
    rules = _rules(bundle)
    state["timeline"].append({"card": key, "side": side})
    if len(state["timeline"]) >= rules["timeline_slots"]:
        state["skull_cards"] += 1
        if state["abdicated"]:
            return
        if skull or state["skull_cards"] >= rules["skull_slot_cards"]:
            state["king_dead"] = True
            _log(state, "king.dies", skull=skull)


def _end_round(bundle: dict, state: dict) -> None:
    """Events' end-of-round rules, then the game ends (the king dead or abdicated, or the
    grand final due) or the next round starts."""
    state["vote"] = None
    events._event_rules(bundle, state, "round_end", None)
    if state["final_pending"] or state["abdicated"] or state["king_dead"]:
        scoring._end_game(bundle, state)
        return
    run("start_round", bundle, state)
