"""Shared by every section: the campaign's rules (track lengths, starting amounts), our
rulings where the rulebook is silent, the records of the bundle, the journal, and the prestige
order that gives the leader, the moderator and the draft order."""

from __future__ import annotations

from typing import Any

from ..core.rng import Rng

FORMAT_VERSION = 1  # 1 — first state format


MIN_COMPATIBLE = 1


#: append-only parts of the state, shared between successive states (see core.copy_game)
SHARED = {"log": True, "campaign": {"history": True}}


DEFAULT_RULES = {
    "resource_track": 14,
    "stability_track": 14,
    "timeline_slots": 10,
    "skull_slot_cards": 5,
    "house_power": 8,
    "house_coins": 10,
    "balance_power": 3,
    "secret_stickers_for_final": 6,
    "chronicle_slots": 4,
}


RULINGS = (
    "deck_empty: when a round starts with an empty Dilemma deck, the king dies (the chronicle "
    "has nothing left to tell).",
    "chronicle_slots: each resource line of the Chronicle holds 4 stickers.",
    "all_tied: when every player is tied, nobody is behind them: they all score as last (the "
    "rulebook: there is always a last place).",
    "ranks: players are ranked by competition (1, 1, 3) for coins and final places, by "
    "quantity (dense: 1, 1, 2) for the power majority; resources by position (dense).",
)


SIDES = ("oui_da", "nenni")


def _rules(bundle: dict) -> dict[str, int]:
    return {**DEFAULT_RULES, **(bundle["campaign"].get("rules") or {})}


def _rec(bundle: dict, kind: str, key: str) -> dict | None:
    return bundle["records"].get(kind, {}).get(str(key))


def _card(bundle: dict, key: str) -> tuple[str, dict]:
    """A card of the Dilemma deck or an envelope's content, with its kind."""
    for kind in ("dilemma", "immediate_card", "event_card", "story_card", "epilogue"):
        rec = _rec(bundle, kind, key)
        if rec is not None:
            return kind, rec
    raise KeyError(key)


def _log(state: dict, key: str, /, **args: Any) -> None:
    state["log"].append({"key": key, "args": args})


def deck(state: dict) -> list[str]:
    """The Dilemma deck: a game's, or the campaign's between games."""
    return state["deck"] if "deck" in state else state["campaign"]["deck"]


def events_in_play(state: dict) -> list[str]:
    """The events in play: a game's, or the campaign's between games."""
    return state["events"] if "events" in state else state["campaign"]["events"]


def shuffle_into_deck(state: dict, cards: list[str]) -> None:
    """``cards`` into the Dilemma deck, then the deck shuffled."""
    pile = deck(state)
    pile.extend(cards)
    Rng(state).shuffle(pile)


def _seat_of(state: dict, house: str) -> int | None:
    for i, seat in enumerate(state["seats"]):
        if seat["house"] == house:
            return i
    return None


def _prestige_order(campaign: dict, bundle: dict, houses: list[str]) -> list[str]:
    """Houses from the highest prestige to the lowest; ties go to the higher house number."""

    def key(h: str) -> tuple[int, int]:
        rec = _rec(bundle, "house", h) or {}
        return (campaign["houses"][h]["prestige"], rec.get("number", 0))

    return sorted(houses, key=key, reverse=True)
