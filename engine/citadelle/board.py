"""The Plateau and the exploration of the Terres Effondrées: Terrains placed like a puzzle,
exploration cards dealt face down in front of their arrows, the place a resolved exploration
card frees for the arrow's numbered card, figures moving from Terrain to Terrain, and the table
running out of room."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import Rng
from . import cards as K
from . import records as rec
from .steps import run

DIRECTIONS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


def cell(x: int, y: int) -> str:
    return f"{x},{y}"


def _coords(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


# cached by a call, not a decorator: mutmut leaves decorated functions unmutated
coords = lru_cache(maxsize=4096)(_coords)


def _neighbour(key: str, direction: str) -> str:
    """The cell next to ``key``: north is the top of a Terrain, as it is read.

    >>> neighbour("0,0", "north"), neighbour("0,0", "east")
    ('0,-1', '1,0')
    """
    x, y = coords(key)
    dx, dy = DIRECTIONS[direction]
    return cell(x + dx, y + dy)


neighbour = lru_cache(maxsize=16384)(_neighbour)


def _around(key: str) -> frozenset[str]:
    """The four cells whose side touches ``key`` (a pure function of the key, kept)."""
    return frozenset(neighbour(key, d) for d in DIRECTIONS)


around = lru_cache(maxsize=4096)(_around)


def log(state: dict, key: str, /, **args: Any) -> None:
    state["log"].append({"key": key, "args": args})


def in_bounds(bundle: dict, key: str) -> bool:
    """Is the cell on the table (``table_columns`` × ``table_rows`` around the first Terrain)?"""
    rules = rec.rules(bundle)
    x, y = coords(key)
    half_w, half_h = rules["table_columns"] // 2, rules["table_rows"] // 2
    return -half_w <= x <= half_w and -half_h <= y <= half_h


def free(state: dict, key: str) -> bool:
    return key not in state["board"] and key not in state["slots"]


def terrain_title(bundle: dict, state: dict, at: str | None) -> str:
    spot = state["board"].get(at or "")
    return rec.adv(bundle, spot["terrain"]).get("title", "") if spot else ""


# --------------------------------------------------------------------------- Terrains


def place_terrain(bundle: dict, state: dict, key: str, at: str) -> str:
    """Put a Terrain in play at ``at`` (or, the table being full, where room is made for it),
    then deal an exploration card in front of each of its arrows.  Returns its cell."""
    kept = None
    if not in_bounds(bundle, at):
        at, kept = out_of_space(bundle, state, at)
    K.move(bundle, state, K.adventure(key), f"terrain:{at}")
    log(state, "terrain.placed", title=rec.adv(bundle, key).get("title", ""), at=at)
    deal_arrows(bundle, state, at)
    if kept is not None:
        deal_arrows(bundle, state, kept)
    return at


def deal_arrows(bundle: dict, state: dict, at: str) -> None:
    """An exploration card face down in front of each free arrow of the Terrain at ``at``; an
    arrow with a number but no zone lets its numbered card come at once."""
    key = state["board"][at]["terrain"]
    for arrow in rec.adv(bundle, key).get("arrows") or ():
        target = neighbour(at, arrow["direction"])
        if not free(state, target) or not in_bounds(bundle, target):
            continue
        slot = {
            "exploration": None,
            "adventure": None,
            "revealed": False,
            "from": at,
            "card": arrow.get("card"),
            "zone": arrow.get("zone"),
        }
        state["slots"][target] = slot
        exp = draw_exploration(bundle, state, str(arrow["zone"])) if arrow.get("zone") else None
        if exp is not None:
            K.move(bundle, state, K.exploration(exp), f"slot:{target}")
        else:
            slot["revealed"] = True
            free_slot(bundle, state, target)


def draw_exploration(bundle: dict, state: dict, zone: str) -> str | None:
    """The top card of a zone's exploration deck; an empty deck first gets the Past back."""
    if not state["explore_decks"].get(zone):
        restore_past(bundle, state)
    deck = state["explore_decks"].get(zone) or []
    return deck[-1] if deck else None


def restore_past(bundle: dict, state: dict) -> None:
    """« Rangez toutes les cartes du Passé » : each one goes back to its deck."""
    if not state["past"]:
        return
    log(state, "past.restored", count=len(state["past"]))
    for ref in list(state["past"]):
        K.move(bundle, state, ref, "box")
    rng = Rng(state)
    for zone in sorted(state["explore_decks"]):
        rng.shuffle(state["explore_decks"][zone])


def free_slot(bundle: dict, state: dict, at: str) -> None:
    """An exploration place is free again: the arrow's numbered card takes it."""
    slot = state["slots"].get(at)
    if slot is None or slot.get("exploration") or slot.get("adventure"):
        return
    del state["slots"][at]
    if slot.get("card") is not None:
        ctx = {"character": (state.get("action") or {}).get("character", 0), "verb": None}
        run("take", bundle, state, str(slot["card"]), ctx, at=at, origin=slot.get("from"))


def adjacent_free(state: dict, here: str) -> str:
    """Where a Terrain taken without an arrow goes: next to ``here``, the first free side."""
    for direction in ("north", "east", "south", "west"):
        target = neighbour(here, direction)
        if free(state, target):
            return target
    x, y = coords(here)
    for radius in range(2, 12):
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                target = cell(x + dx, y + dy)
                if free(state, target):
                    return target
    raise K.CardError("no free cell on the table")  # pragma: no cover


# --------------------------------------------------------------------------- leaving play


def leave(bundle: dict, state: dict, ref: dict, to: str) -> str:
    """A card leaves its place for ``to`` (the Past, the box, the banished cards...).  A
    Terrain takes its linked events with it; a freed exploration place lets its arrow's card
    come; figures on a Terrain that is gone stand on the nearest Terrain left."""
    here = K.where(bundle, state, ref)
    kind, _, arg = here.partition(":")
    if kind == "terrain":
        for ev in list(state["board"][arg]["events"]):
            K.move(bundle, state, K.adventure(ev["key"]), to)
    K.move(bundle, state, ref, to)
    if kind == "slot":
        free_slot(bundle, state, arg)
    elif kind == "terrain":
        regroup_orphans(state, arg)
    return here


def regroup_orphans(state: dict, gone: str) -> None:
    """Figures left on a Terrain that has gone step onto the nearest one left."""
    if not state["board"]:
        return
    gx, gy = coords(gone)
    nearest = min(
        state["board"], key=lambda k: (abs(coords(k)[0] - gx) + abs(coords(k)[1] - gy), k)
    )
    for ch in state["characters"]:
        if ch["at"] == gone and gone not in state["board"]:
            ch["at"] = nearest


def out_of_space(bundle: dict, state: dict, wanted: str) -> tuple[str, str | None]:
    """No room left on the table: everyone regroups on the active character's Terrain, the
    other Terrains and their events are put back, and the table is centred on the one kept.
    Returns where the new card goes now, and the kept Terrain's cell (its arrows are dealt
    again once the new card is down)."""
    active = (state.get("action") or {}).get("character", 0)
    here = state["characters"][active]["at"] or next(iter(state["board"]), cell(0, 0))
    log(state, "table.full")
    dx, dy = coords(here)
    wx, wy = coords(wanted)
    for key, spot in list(state["board"].items()):
        if key != here:
            leave_quietly(bundle, state, K.adventure(spot["terrain"]), "box")
    for key, slot in list(state["slots"].items()):
        for field, kind in (("exploration", "exploration"), ("adventure", "adventure")):
            if slot.get(field):
                K.move(bundle, state, {"kind": kind, "key": slot[field]}, "box")
        del state["slots"][key]
    keep = state["board"].pop(here, None)
    centre = cell(0, 0)
    for c in state["characters"]:
        if c["conscious"]:
            c["at"] = centre
    if keep is None:
        return centre, None
    state["board"][centre] = keep  # the same cards, the table centred on them
    target = cell(wx - dx, wy - dy)
    if not in_bounds(bundle, target) or not free(state, target):
        target = adjacent_free(state, centre)
    return target, centre


def leave_quietly(bundle: dict, state: dict, ref: dict, to: str) -> None:
    """A Terrain and its events leave the Plateau (no arrow card comes, nobody regroups)."""
    here = K.where(bundle, state, ref)
    kind, _, arg = here.partition(":")
    if kind == "terrain":
        for ev in list(state["board"][arg]["events"]):
            K.move(bundle, state, K.adventure(ev["key"]), to)
    K.move(bundle, state, ref, to)


# --------------------------------------------------------------------------- figures


def move_figure(bundle: dict, state: dict, c: int, to: str) -> None:
    ch = state["characters"][c]
    ch["at"] = to
    state.setdefault("arrivals", []).append(to)
    log(state, "moved", name=ch["name"], title=terrain_title(bundle, state, to), id=ch["id"])
