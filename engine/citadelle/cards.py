"""Where every card is: each card of the box is in exactly one place at any moment, and every
move of a card goes through ``move``, which refuses a card found in no place or in two.

A card is named by a reference ``{"kind", "key"}``: ``adventure`` (numbered cards, green or
gold backs), ``exploration`` (fog backs), ``action_card`` (blue backs: the skills).  Places:

==================  =================================================================
``box``             in the game box: the Deck d'Aventure (by number), the Deck
                    d'Exploration (by zone, top last), the skills nobody holds
``terrain:X,Y``     a Terrain of the Plateau;  ``event:X,Y`` a permanent event linked to it
``slot:X,Y``        an exploration place (a fog card, or the card that took its place)
``resolving``       a temporary event being resolved
``globals``         a global event beside the Plateau
``quest_items``     behind the « Objets de quête » divider;  ``world_map`` in the Mappemonde
``purse:C``         a purse card of character C;  ``purse_blocked:C`` blocked under C's card
``deck:C``          C's Deck d'Action (top last);  ``hand:C``, ``discard:C``, ``blocked:C``
``drawn``           revealed by the running action (or an action it interrupted)
``past``            the Past;  ``banished`` the « Cartes bannies » divider
==================  =================================================================

>>> bundle = {"records": {"adventure_card": {"7/green": {"number": 7, "type": "purse"}}}}
>>> state = new_places()
>>> state["characters"] = [{"id": "A", "purse": [], "purse_blocked": []}]
>>> state["box"] = {"7": ["7/green"]}
>>> move(bundle, state, {"kind": "adventure", "key": "7/green"}, "purse:A")
'box'
>>> places(bundle, state, {"kind": "adventure", "key": "7/green"})
['purse:A']
"""

from __future__ import annotations

from typing import Any

from . import records as rec


class CardError(RuntimeError):
    """A card found in no place or in two: the engine broke the conservation of cards."""


def new_places() -> dict[str, Any]:
    """The empty places of a state (``new_game`` fills the box)."""
    return {
        "box": {},
        "explore_decks": {},
        "skill_box": [],
        "board": {},
        "slots": {},
        "resolving": [],
        "globals": [],
        "quest_items": [],
        "world_map": [],
        "past": [],
        "banished": [],
        "action": None,
        "suspended": [],
        "dice": {},
    }


def adventure(key: str) -> dict:
    return {"kind": "adventure", "key": key}


def exploration(key: str) -> dict:
    return {"kind": "exploration", "key": key}


def action_card(key: str) -> dict:
    return {"kind": "action_card", "key": key}


def _char(state: dict, cid: str) -> dict:
    for ch in state["characters"]:
        if ch["id"] == cid:
            return ch
    raise CardError(f"no character {cid!r} at the table")


def _actions(state: dict) -> list[dict]:
    out = list(state.get("suspended") or [])
    if state.get("action"):
        out.append(state["action"])
    return out


# --------------------------------------------------------------------------- finding a card


def places(bundle: dict, state: dict, ref: dict) -> list[str]:
    """Every place holding the card ``ref`` (one, when the game is sound)."""
    kind, key = ref["kind"], ref["key"]
    out: list[str] = []
    if kind == "adventure":
        number = str(rec.adv(bundle, key)["number"])
        out += ["box"] * state["box"].get(number, []).count(key)
        for cell, spot in state["board"].items():
            if spot["terrain"] == key:
                out.append(f"terrain:{cell}")
            out += [f"event:{cell}"] * sum(1 for e in spot["events"] if e["key"] == key)
        for cell, slot in state["slots"].items():
            if slot.get("adventure") == key:
                out.append(f"slot:{cell}")
        for name in ("resolving", "globals", "quest_items", "world_map"):
            out += [name] * state[name].count(key)
        for ch in state["characters"]:
            out += [f"purse:{ch['id']}"] * ch["purse"].count(key)
            out += [f"purse_blocked:{ch['id']}"] * ch["purse_blocked"].count(key)
    elif kind == "exploration":
        zone = str(rec.exp(bundle, key)["zone"])
        out += ["box"] * state["explore_decks"].get(zone, []).count(key)
        for cell, slot in state["slots"].items():
            if slot.get("exploration") == key:
                out.append(f"slot:{cell}")
    elif kind == "action_card":
        out += ["box"] * state["skill_box"].count(key)
        for ch in state["characters"]:
            for pile in ("deck", "hand", "discard", "blocked"):
                out += [f"{pile}:{ch['id']}"] * ch[pile].count(key)
        for action in _actions(state):
            out += ["drawn"] * action["drawn"].count(key)
    else:
        raise CardError(f"unknown card kind {kind!r}")
    for name in ("past", "banished"):
        out += [name] * sum(1 for r in state[name] if r["kind"] == kind and r["key"] == key)
    return out


def where(bundle: dict, state: dict, ref: dict) -> str:
    """The one place of a card; ``CardError`` when it is in none or in several."""
    found = places(bundle, state, ref)
    if len(found) != 1:
        raise CardError(f"{ref['kind']} {ref['key']} is in {found or 'no place'}")
    return found[0]


# --------------------------------------------------------------------------- moving a card


def _remove(bundle: dict, state: dict, ref: dict, place: str) -> None:
    kind, key = ref["kind"], ref["key"]
    name, _, arg = place.partition(":")
    if name == "box":
        if kind == "adventure":
            state["box"][str(rec.adv(bundle, key)["number"])].remove(key)
        elif kind == "exploration":
            state["explore_decks"][str(rec.exp(bundle, key)["zone"])].remove(key)
        else:
            state["skill_box"].remove(key)
    elif name == "terrain":
        spot = state["board"][arg]
        if spot["events"]:
            raise CardError(f"terrain {key} leaves {arg} with its events still linked")
        del state["board"][arg]
    elif name == "event":
        events = state["board"][arg]["events"]
        events.remove(next(e for e in events if e["key"] == key))
    elif name == "slot":
        slot = state["slots"][arg]
        slot["adventure" if kind == "adventure" else "exploration"] = None
    elif name in ("resolving", "globals", "quest_items", "world_map", "skill_box"):
        state[name].remove(key)
    elif name in ("purse", "purse_blocked", "deck", "hand", "discard", "blocked"):
        _char(state, arg)[name].remove(key)
    elif name == "drawn":
        next(a for a in reversed(_actions(state)) if key in a["drawn"])["drawn"].remove(key)
    elif name in ("past", "banished"):
        pile = state[name]
        pile.remove(next(r for r in pile if r["kind"] == kind and r["key"] == key))
    else:  # pragma: no cover - every place is listed above
        raise CardError(f"unknown place {place!r}")
    if name in ("terrain", "event", "slot", "resolving", "globals", "quest_items", "purse"):
        # a die sitting on a card goes back to the box with it (« Précisions », Résultat)
        for dkey in [d for d, die in state["dice"].items() if die.get("card") == key]:
            del state["dice"][dkey]


def _box_order(bundle: dict, key: str) -> tuple[int, int, str]:
    """Green before gold, then the generic version before the specific ones (« Ranger »)."""
    r = rec.adv(bundle, key)
    specific = bool(r.get("scenario") or r.get("linked_card") is not None)
    return (0 if r.get("version", "green") == "green" else 1, int(specific), key)


def _add(bundle: dict, state: dict, ref: dict, place: str, bottom: bool, verb: str | None) -> None:
    kind, key = ref["kind"], ref["key"]
    name, _, arg = place.partition(":")
    if name == "box":
        if kind == "adventure":
            pile = state["box"].setdefault(str(rec.adv(bundle, key)["number"]), [])
            pile.append(key)
            pile.sort(key=lambda k: _box_order(bundle, k))
        elif kind == "exploration":
            deck = state["explore_decks"].setdefault(str(rec.exp(bundle, key)["zone"]), [])
            deck.insert(0, key) if bottom else deck.append(key)
        else:
            state["skill_box"].append(key)
            state["skill_box"].sort()
    elif name == "terrain":
        state["board"][arg] = {"terrain": key, "events": []}
    elif name == "event":
        state["board"][arg]["events"].append({"key": key, "blocked_verb": verb})
    elif name == "slot":
        slot = state["slots"][arg]
        slot["adventure" if kind == "adventure" else "exploration"] = key
    elif name in ("resolving", "globals", "quest_items", "world_map"):
        state[name].append(key)
    elif name in ("purse", "purse_blocked", "hand", "discard", "blocked"):
        _char(state, arg)[name].append(key)
    elif name == "deck":
        deck = _char(state, arg)["deck"]
        deck.insert(0, key) if bottom else deck.append(key)
    elif name == "drawn":
        state["action"]["drawn"].append(key)
    elif name in ("past", "banished"):
        state[name].append({"kind": kind, "key": key})
    else:
        raise CardError(f"unknown place {place!r}")


_CHARACTER_PILES = ("purse", "purse_blocked", "deck", "hand", "discard", "blocked")
_TABLE_PILES = ("box", "resolving", "globals", "quest_items", "world_map", "drawn", "past")


def _check_destination(state: dict, place: str) -> None:
    name, _, arg = place.partition(":")
    if name in _CHARACTER_PILES:
        _char(state, arg)
    elif name == "event" and arg not in state["board"]:
        raise CardError(f"no Terrain at {arg} to link an event to")
    elif name == "terrain" and arg in state["board"]:
        raise CardError(f"a Terrain already stands at {arg}")
    elif name == "slot" and arg not in state["slots"]:
        raise CardError(f"no exploration place at {arg}")
    elif name == "slot" and (
        state["slots"][arg].get("adventure") or state["slots"][arg].get("exploration")
    ):
        raise CardError(f"the exploration place {arg} is taken")
    elif name == "drawn" and not state.get("action"):
        raise CardError("no action is drawing cards")
    elif name not in (*_TABLE_PILES, "banished", "terrain", "event", "slot", *_CHARACTER_PILES):
        raise CardError(f"unknown place {place!r}")


def move(
    bundle: dict,
    state: dict,
    ref: dict,
    to: str,
    *,
    bottom: bool = False,
    verb: str | None = None,
) -> str:
    """Move a card from its one place to ``to`` and return where it was.  ``bottom``: under a
    deck rather than on top; ``verb``: for ``event:X,Y``, the action that put the event in play
    (the rulebook's blocked action)."""
    here = where(bundle, state, {"kind": ref["kind"], "key": ref["key"]})
    _check_destination(state, to)  # a refused move leaves the card where it was
    _remove(bundle, state, ref, here)
    _add(bundle, state, ref, to, bottom, verb)
    return here


# --------------------------------------------------------------------------- the whole box


def every_card(bundle: dict) -> list[dict]:
    """Every card the bundle's box holds."""
    out = [adventure(k) for k in rec.recs(bundle, "adventure_card")]
    out += [exploration(k) for k in rec.recs(bundle, "exploration_card")]
    out += [action_card(k) for k in rec.recs(bundle, "action_card")]
    return out


def inventory(bundle: dict, state: dict) -> dict[tuple[str, str], list[str]]:
    """Every card of the box and the places it is in (one pass over every place)."""
    out: dict[tuple[str, str], list[str]] = {(r["kind"], r["key"]): [] for r in every_card(bundle)}

    def put(kind: str, key: str, place: str) -> None:
        out.setdefault((kind, key), []).append(place)

    for keys in state["box"].values():
        for k in keys:
            put("adventure", k, "box")
    for keys in state["explore_decks"].values():
        for k in keys:
            put("exploration", k, "box")
    for k in state["skill_box"]:
        put("action_card", k, "box")
    for cell, spot in state["board"].items():
        put("adventure", spot["terrain"], f"terrain:{cell}")
        for e in spot["events"]:
            put("adventure", e["key"], f"event:{cell}")
    for cell, slot in state["slots"].items():
        if slot.get("adventure"):
            put("adventure", slot["adventure"], f"slot:{cell}")
        if slot.get("exploration"):
            put("exploration", slot["exploration"], f"slot:{cell}")
    for name in ("resolving", "globals", "quest_items", "world_map"):
        for k in state[name]:
            put("adventure", k, name)
    for ch in state["characters"]:
        for pile in ("purse", "purse_blocked"):
            for k in ch[pile]:
                put("adventure", k, f"{pile}:{ch['id']}")
        for pile in ("deck", "hand", "discard", "blocked"):
            for k in ch[pile]:
                put("action_card", k, f"{pile}:{ch['id']}")
    for action in _actions(state):
        for k in action["drawn"]:
            put("action_card", k, "drawn")
    for name in ("past", "banished"):
        for r in state[name]:
            put(r["kind"], r["key"], name)
    return out


def check(bundle: dict, state: dict) -> None:
    """``CardError`` naming the first card found in no place or in two places (or a card the
    box never held)."""
    box = {(r["kind"], r["key"]) for r in every_card(bundle)}
    for (kind, key), found in inventory(bundle, state).items():
        if (kind, key) not in box:
            raise CardError(f"{kind} {key} is not a card of the box")
        if len(found) != 1:
            raise CardError(f"{kind} {key} is in {found or 'no place'}")


def temporary_in_play(bundle: dict, state: dict, ref: dict) -> bool:
    """Is ``ref`` a temporary event being resolved (an adventure card, or a face-up
    exploration card on its place)?"""
    if ref["kind"] not in ("adventure", "exploration"):
        return False
    here = where(bundle, state, ref)
    return (ref["kind"] == "adventure" and here == "resolving") or (
        ref["kind"] == "exploration"
        and here.startswith("slot:")
        and rec.exp(bundle, ref["key"])["type"] == "temporary_event"
    )
