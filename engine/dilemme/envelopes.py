"""Envelopes and story cards (« Enveloppe, ouverture », « Cartes Histoire », « Cartes
Épilogue », « Bonus de signataire majoritaire »): what an envelope holds goes to its place — the
deck, the events, the arcs — and an epilogue closes its arc."""

from __future__ import annotations

from . import abilities, achievements, effects, events
from .common import _card, _log, _rec, _seat_of, shuffle_into_deck
from .steps import step


def _open_envelope(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    """Open an envelope: its story card onto its arc (signed by ``signer``, the leader), its
    dilemmas and immediate cards shuffled into the deck, its events put in play, then the
    special envelope's effects in order."""
    camp = state["campaign"]
    env = _rec(bundle, "envelope", key)
    if env is None or key in camp["opened"]:
        return
    camp["opened"].append(key)
    _log(
        state,
        "envelope.open",
        envelope=key,
        title=env.get("title", ""),
        special=env.get("special", False),
    )
    if env.get("story"):
        _lay_story_card(bundle, state, env["story"], signer)
    into_deck = []
    for card in env.get("cards") or ():
        kind, _ = _card(bundle, card)
        if kind in ("dilemma", "immediate_card"):
            into_deck.append(card)
        elif kind == "event_card":
            events._start_event(bundle, state, card, signer)
        else:
            _lay_story_card(bundle, state, card, signer)
    if into_deck:
        shuffle_into_deck(state, into_deck)
        _log(state, "deck.added", count=len(into_deck))
    if env.get("effects"):
        effects._apply_effects(bundle, state, env["effects"], signer)


step("open_envelope")(_open_envelope)


def _lay_story_card(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    kind, card = _card(bundle, key)
    camp = state["campaign"]
    house = (
        state["seats"][signer]["house"] if signer is not None and card.get("signature") else None
    )
    camp["arcs"].setdefault(card["arc"], []).append({"card": key, "signer": house})
    _log(
        state,
        "story.laid",
        title=card["title"],
        arc=card["arc"],
        signer=state["seats"][signer]["name"] if house else None,
    )
    if house is not None and signer is not None:  # a signed card has a signer
        state["seats"][signer]["signed"] += 1
        abilities._trigger(bundle, state, signer, "signed")
        for ability in card.get("abilities") or ():
            if ability.get("trigger") == "immediate":
                abilities._apply_gains(state, signer, ability.get("gains") or {}, "story")
    if kind == "epilogue" and key not in camp["epilogues"]:
        _play_epilogue(bundle, state, key, card)


def _play_epilogue(bundle: dict, state: dict, key: str, card: dict) -> None:
    camp = state["campaign"]
    camp["epilogues"].append(key)
    camp["cohesion"] += card.get("cohesion", 0)
    camp["dissension"] += card.get("dissension", 0)
    # majority signer bonus: who signed most of this arc's cards (ties: all of them)
    counts: dict[str, int] = {}
    for entry in camp["arcs"].get(card["arc"], []):
        if entry.get("signer"):
            counts[entry["signer"]] = counts.get(entry["signer"], 0) + 1
    bonus = card.get("majority_signer_bonus") or {}
    if counts and bonus:
        top = max(counts.values())
        for house, n in counts.items():
            if n == top:
                seat = _seat_of(state, house)
                if seat is not None:
                    abilities._apply_gains(state, seat, bonus, "majority")
                else:  # a house not in this game still gets its campaign points
                    h = camp["houses"][house]
                    h["prestige"] += bonus.get("prestige", 0)
                    h["craving"] += bonus.get("craving", 0)
    if card.get("narrative_achievement"):
        achievements._unlock_narrative(bundle, state, card["narrative_achievement"])
