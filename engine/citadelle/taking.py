"""« Prendre une carte numérotée » and « Trouver un numéro caché »: which copy of a numbered
card comes out of the Deck d'Aventure, what becomes of it once revealed (Terrain, permanent,
temporary or global event, purse card, quest item, Mappemonde), and the numbers hidden on
cards, found with the magnifier, that replace the card hiding them."""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import board as B
from . import cards as K
from . import records as rec
from . import rules as R
from .steps import step

log = B.log


def held_numbers(bundle: dict, state: dict) -> set[str]:
    """Numbers of the cards the group possesses (purses, blocked or not, and quest items)."""
    keys = set(state["quest_items"])
    for ch in state["characters"]:
        keys |= set(ch["purse"]) | set(ch["purse_blocked"])
    return {str(rec.adv(bundle, k)["number"]) for k in keys}


def choose_version(bundle: dict, state: dict, number: str) -> str | None:
    """The copy of card ``number`` to take from the box now: the one tied to this scenario or
    to a card the group holds first, green before gold, at random among equals."""
    available = state["box"].get(number, [])
    versions = [{**rec.adv(bundle, k), "key": k} for k in available]
    found = R.pick_version(versions, state["scenario"], held_numbers(bundle, state))
    if not found:
        return None
    return found[Rng(state).below(len(found))]["key"] if len(found) > 1 else found[0]["key"]


def take(
    bundle: dict,
    state: dict,
    number: str,
    ctx: dict,
    *,
    if_available: bool = False,
    at: str | None = None,
    origin: str | None = None,
    start_terrain: bool = False,
) -> bool:
    """Take card ``number`` from the Deck d'Aventure and put it where its type says.  With
    ``if_available`` nothing happens when no copy is in the box; otherwise the Past is put
    back first.  ``at``: the exploration place (or the hidden number's place) it fills."""
    key = choose_version(bundle, state, number)
    if key is None and not if_available:
        B.restore_past(bundle, state)
        key = choose_version(bundle, state, number)
    if key is None:
        log(state, "card.unavailable", number=int(number))
        return False
    reveal(bundle, state, key, ctx, at=at, origin=origin, start_terrain=start_terrain)
    return True


step("take")(take)


def reveal(
    bundle: dict,
    state: dict,
    key: str,
    ctx: dict,
    *,
    at: str | None = None,
    origin: str | None = None,
    start_terrain: bool = False,
) -> None:
    """The card ``key`` comes out of the box: its back is read, it is revealed and put in play
    as its type says; its effects are queued."""
    card = rec.adv(bundle, key)
    ref = K.adventure(key)
    c = ctx.get("character", 0)
    kind = card["type"]
    log(
        state,
        "card.taken",
        number=card["number"],
        title=card.get("title", ""),
        type=kind,
        key=key,
        back=card.get("back", ""),
        text=card.get("text", ""),
    )
    if card.get("hope"):  # an « L'espoir renaît ! » card: one more to spend on the Destiny page
        state["citadel"]["hope"] += 1
        log(state, "hope", amount=1, total=state["citadel"]["hope"])
    here = _active_terrain(state, c)
    if kind == "terrain":
        if start_terrain or not state["board"]:
            spot = B.cell(0, 0)
        elif at is not None:
            spot = at
        else:
            spot = B.adjacent_free(state, here or B.cell(0, 0))
        spot = B.place_terrain(bundle, state, key, spot)
        if start_terrain:
            for ch in state["characters"]:
                if ch["conscious"]:
                    ch["at"] = spot
            state.setdefault("arrivals", []).append(spot)
    elif kind == "permanent_event":
        if at is not None and at not in state["board"]:  # it takes an exploration place
            state["slots"][at] = {
                "exploration": None,
                "adventure": None,
                "revealed": True,
                "from": origin or here,
                "card": None,
                "zone": None,
            }
            K.move(bundle, state, ref, f"slot:{at}")
        elif here is not None:
            K.move(bundle, state, ref, f"event:{here}", verb=ctx.get("verb"))
            state.setdefault("arrivals", []).append(here)
        else:  # nobody stands anywhere (cannot happen in play): it waits in the Past
            K.move(bundle, state, ref, "past")
    elif kind == "temporary_event":
        K.move(bundle, state, ref, "resolving")
    elif kind == "global_event":
        K.move(bundle, state, ref, "globals")
    elif kind == "purse":
        K.move(bundle, state, ref, f"purse:{state['characters'][c]['id']}")
    elif kind == "quest_item":
        K.move(bundle, state, ref, "quest_items")
    else:
        K.move(bundle, state, ref, "world_map")
    effects: list[dict[str, Any]] = list(card.get("effects") or [])
    present = _participants(state, ctx)
    if kind == "purse" and len(present) > 1:
        # « un participant met cette carte en jeu devant lui » : the participants choose who
        # (alone, the active player takes it and may still discard it at any time)
        effects.insert(0, {"_receive": {"key": key, "participants": present}})
    if kind == "temporary_event":
        for i, action in enumerate(card.get("actions") or []):
            if action.get("mandatory"):
                effects.append({"_act": {"source": f"temp:{key}", "index": i, "character": c}})
        effects.append({"_leave_temp": ref})
    if effects:
        state["queue"].append({"effects": effects, "ctx": {**ctx, "this": ref}})


def _participants(state: dict, ctx: dict) -> list[int]:
    chars = state["characters"]
    found = [p for p in ctx.get("participants") or [] if p < len(chars) and chars[p]["conscious"]]
    return found or [ctx.get("character", 0)]


def _active_terrain(state: dict, c: int) -> str | None:
    chars = state["characters"]
    if c < len(chars) and chars[c]["at"] is not None:
        return chars[c]["at"]
    return next((ch["at"] for ch in chars if ch["at"] is not None), None)


# --------------------------------------------------------------------------- hidden numbers


def hiding_cards(bundle: dict, state: dict, c: int) -> list[str]:
    """Cards character ``c`` may look at with the magnifier: the Terrain where the figure
    stands and its linked events, the character's own purse cards, the quest items."""
    ch = state["characters"][c]
    if not ch["conscious"] or ch["at"] not in state["board"]:
        return []
    spot = state["board"][ch["at"]]
    keys = [spot["terrain"], *(ev["key"] for ev in spot["events"])]
    keys += list(ch["purse"]) + list(state["quest_items"]) + list(state["resolving"])
    return [k for k in keys if rec.adv(bundle, k).get("hidden_numbers")]


def unfound(bundle: dict, state: dict, key: str) -> list[int]:
    found = {f["number"] for f in state.get("found") or [] if f["source"] == key}
    return [int(n) for n in rec.adv(bundle, key).get("hidden_numbers") or [] if int(n) not in found]


def examine(bundle: dict, state: dict, c: int, key: str) -> None:
    """Look at a card with the magnifier: the numbers hidden on it are found."""
    ch = state["characters"][c]
    numbers = unfound(bundle, state, key)
    for n in numbers:
        state.setdefault("found", []).append({"number": n, "source": key})
    log(
        state,
        "hidden.found",
        name=ch["name"],
        id=ch["id"],
        title=rec.adv(bundle, key).get("title", ""),
        numbers=numbers,
    )


def found_here(bundle: dict, state: dict, c: int) -> list[dict]:
    """Found hidden numbers character ``c`` may take now: on a card it can reach, and whose
    card is still in the box."""
    reach = set(hiding_cards(bundle, state, c))
    out = []
    for f in state.get("found") or []:
        if f["source"] in reach and state["box"].get(str(f["number"])) and f not in out:
            out.append(f)
    return out


def search(bundle: dict, state: dict, c: int, number: int) -> None:
    """Take the card of a found hidden number.  Its back must name the card that hid it;
    then the hiding card is discarded and the new card takes its place.  A card whose back
    names another card is put back."""
    source = next(f["source"] for f in found_here(bundle, state, c) if f["number"] == number)
    src_number = str(rec.adv(bundle, source)["number"])
    key = choose_version(bundle, state, str(number))
    state["found"] = [f for f in state["found"] if f["number"] != number]
    if key is None or str(rec.adv(bundle, key).get("back_source")) != src_number:
        log(state, "hidden.wrong", number=number)
        return
    ctx = {"character": c, "verb": "search", "participants": [c]}
    here = K.where(bundle, state, K.adventure(source))
    place, _, at = here.partition(":")
    new_type = rec.adv(bundle, key)["type"]
    if place == "terrain" and new_type != "terrain":
        # a hidden event or item comes out of the Terrain; the ground under the players stays
        reveal(bundle, state, key, ctx)
        return
    B.leave_quietly(bundle, state, K.adventure(source), "past")
    log(state, "card.discard", title=rec.adv(bundle, source).get("title", ""))
    if place == "terrain":
        reveal(bundle, state, key, ctx, at=at)
        state.setdefault("arrivals", []).append(at)
    else:
        reveal(bundle, state, key, ctx)
