"""Event cards (« Cartes Événement »): put in play once, and their rules applied when their
moment comes (a resource moving, the start of a game, the end of a round)."""

from __future__ import annotations

from . import effects
from .common import _log, _rec, events_in_play
from .steps import step


def _start_event(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    events = events_in_play(state)
    if key in events:
        return
    events.append(key)
    rec = _rec(bundle, "event_card", key) or {}
    _log(state, "event.start", title=rec.get("title", key), card=key)
    if rec.get("effects"):
        effects._apply_effects(bundle, state, rec["effects"], signer)


step("start_event")(_start_event)


def _event_rules(bundle: dict, state: dict, on: str, resource: str | None) -> int:
    """Apply the rules of the events in play for ``on``; returns the extra squares."""
    extra = 0
    for key in list(events_in_play(state)):
        rec = _rec(bundle, "event_card", key) or {}
        for rule in rec.get("rules") or ():
            if rule["on"] != on or (resource and rule.get("resource") not in (None, resource)):
                continue
            extra += rule.get("extra", 0)
            if rule.get("effects") and "seats" in state and state["seats"]:
                effects._apply_effects(
                    bundle, state, rule["effects"], state.get("leader"), nested=True
                )
    return extra


step("event_rules")(_event_rules)
