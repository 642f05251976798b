"""« Conséquences d'action et effets de jeu »: every effect a card, a paragraph, an epilogue or
a building may have, and the conditions they test.

Effects run through a continuation queue (``state["queue"]``, a stack of frames ``{"effects",
"ctx"}``): ``pump`` applies them one by one, and an effect that needs the players (a dialogue,
a mandatory action, who receives an item) pauses the queue until they have answered.  The
context says who is the active player (``character``), the action under way (``verb``), the
card the effect is written on (``this``) and the damage its cards still cancel (``cancel``).
"""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import board as B
from . import cards as K
from . import characters as C
from . import records as rec
from . import taking
from .steps import HANDLERS, effect, run

log = B.log
PUMP_LIMIT = 200_000  # content that loops on itself stops with an error, never hangs


def push(state: dict, effects: list[dict], ctx: dict) -> None:
    if effects:
        state["queue"].append({"effects": list(effects), "ctx": ctx})


def pump(bundle: dict, state: dict) -> None:
    """Apply queued effects until one needs the players, the queue is empty (then the next
    turn begins), or the adventure is over."""
    guard = 0
    while state["pending"] is None and state["phase"] == "play":
        guard += 1
        if guard > PUMP_LIMIT:  # pragma: no cover - content that loops on itself
            raise RuntimeError("effects never settle: a card or paragraph loops on itself")
        if not state["queue"]:
            run("next_turn", bundle, state)
            continue
        frame = state["queue"][-1]
        if not frame["effects"]:
            state["queue"].pop()
            continue
        effect = frame["effects"].pop(0)
        apply_effect(bundle, state, effect, frame["ctx"])


def apply_now(bundle: dict, state: dict, effects: list[dict], ctx: dict) -> None:
    """Apply effects at once, branches and rolls included (at the Citadel, between scenarios,
    where nothing waits for the players)."""
    saved = state["queue"]
    state["queue"] = [{"effects": list(effects), "ctx": ctx}]
    while state["queue"]:
        frame = state["queue"][-1]
        if not frame["effects"]:
            state["queue"].pop()
            continue
        effect = frame["effects"].pop(0)
        if not next(iter(effect)).startswith("_"):
            apply_effect(bundle, state, effect, frame["ctx"])
    state["queue"] = saved


# --------------------------------------------------------------------------- one effect


def apply_effect(bundle: dict, state: dict, effect: dict, ctx: dict) -> None:
    """One effect, by the handler its name is registered under (``steps.HANDLERS``)."""
    ((name, value),) = effect.items()
    c = ctx.get("character", 0)
    if c >= len(state["characters"]):
        c = 0
    handler = HANDLERS.get(name)
    if handler is None:  # pragma: no cover - the content schema lists every effect
        raise ValueError(f"unknown effect {name!r}")
    handler(bundle, state, name, value, ctx, c)


# the effects on the characters, the cards and the board (the sections below this one)


def _take(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    taking.take(bundle, state, str(value), ctx, if_available=(name == "take_if_available"))


effect("take", "take_if_available")(_take)


def _damage(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    cancel = ctx.get("cancel", 0)
    blocked = min(cancel, value)
    ctx["cancel"] = cancel - blocked
    if blocked:
        ch = state["characters"][c]
        log(state, "damage.cancelled", name=ch["name"], amount=blocked, of=value)
    C.lose_hp(bundle, state, c, value - blocked, cause="damage")


effect("damage")(_damage)


def _hit_points(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    if value >= 0:
        C.gain_hp(bundle, state, c, value)
    else:
        C.lose_hp(bundle, state, c, -value)


effect("hit_points")(_hit_points)


def _cancel_damage(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    ctx["cancel"] = ctx.get("cancel", 0) + value


effect("cancel_damage")(_cancel_damage)


def _add_to_hand(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    if state.get("action") is not None:
        state["action"]["keep"] = state["action"].get("keep", 0) + value


effect("add_to_hand")(_add_to_hand)


def _discard_from_deck(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    C.discard_from_deck(bundle, state, c, value)


effect("discard_from_deck")(_discard_from_deck)


def _recover(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    C.free_recover(bundle, state, c, value)


effect("recover")(_recover)


def _leave(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    _leave_play(bundle, state, name, value, ctx)


effect("discard", "banish", "put_back")(_leave)


def _block(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    ref = resolve(bundle, state, value, ctx)
    if ref is not None:
        C.block(bundle, state, c, ref, name == "block")


effect("block", "unblock")(_block)


def _move_die(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    if state.get("action") is not None:
        state["action"]["move_die"] = state["action"].get("move_die", 0) + value


effect("move_die")(_move_die)


def _branch(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    chosen = value["then"] if holds(bundle, state, value["requires"]) else value.get("otherwise")
    push(state, chosen or [], ctx)


effect("branch")(_branch)


def _roll_effect(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    _roll(bundle, state, value, ctx)


effect("roll")(_roll_effect)


def _move_to(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    B.move_figure(bundle, state, ctx["character"], value)


effect("_move_to")(_move_to)


def _receive(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    present = [p for p in value["participants"] if state["characters"][p]["conscious"]]
    held = K.places(bundle, state, K.adventure(value["key"]))
    if len(present) > 1 and any(p.startswith("purse:") for p in held):
        state["pending"] = {"type": "receive", "key": value["key"], "participants": present}


effect("_receive")(_receive)


def _roll(bundle: dict, state: dict, value: dict, ctx: dict) -> None:
    die = Rng(state).below(6) + 1
    ok = die <= value["at_most"]
    this = ctx.get("this") or {}
    log(
        state,
        "roll",
        value=die,
        at_most=value["at_most"],
        ok=ok,
        title=rec.record(bundle, this).get("title", "") if this else "",
    )
    push(state, (value["then"] if ok else value.get("otherwise")) or [], ctx)


def _leave_play(bundle: dict, state: dict, name: str, value: Any, ctx: dict) -> None:
    """Discard (to the Past, or an Action card to its owner's discard), banish or put back a
    card in play.  A card already gone (in the Past, banished or back in the box) stays
    where it is: a card is never in two places."""
    ref = resolve(bundle, state, value, ctx)
    if ref is None:
        return
    here = K.where(bundle, state, ref)
    if here in ("box", "past", "banished"):
        return
    title = rec.record(bundle, ref).get("title", "")
    if (
        name == "discard"
        and C.all_fainted(state, ctx.get("participants"))
        and K.temporary_in_play(bundle, state, ref)
    ):
        name = "put_back"  # « tous les participants deviennent inconscients »: it is put back
    if ref["kind"] == "action_card":
        owner = here.partition(":")[2]
        to = {"discard": f"discard:{owner}", "banish": "banished", "put_back": "box"}[name]
        if here == "drawn":
            active = state["characters"][state["action"]["character"]]["id"]
            to = {"discard": f"discard:{active}"}.get(name, to)
        K.move(bundle, state, ref, to)
    else:
        to = {"discard": "past", "banish": "banished", "put_back": "box"}[name]
        B.leave(bundle, state, ref, to)
    log(state, f"card.{name}", title=title)


def resolve(bundle: dict, state: dict, value: Any, ctx: dict) -> dict | None:
    """The card an effect names: ``this`` (the card the effect is written on) or a number
    (the copy in play), a skill id, an exploration card id."""
    if value == "this":
        this = ctx.get("this")
        if not this or this.get("kind") not in rec.KINDS:
            return None
        return {"kind": this["kind"], "key": this["key"]}
    key = str(value)
    if key in rec.recs(bundle, "action_card"):
        return K.action_card(key)
    for k in rec.versions(bundle, key):
        if K.where(bundle, state, K.adventure(k)) not in ("box", "past", "banished"):
            return K.adventure(k)
    if key in rec.recs(bundle, "exploration_card"):
        return K.exploration(key)
    return None


# --------------------------------------------------------------------------- conditions


def holds(bundle: dict, state: dict, cond: list[dict] | dict) -> bool:
    """Do the conditions hold (all of them; ``any`` for alternatives)?"""
    atoms = cond if isinstance(cond, list) else [{k: v} for k, v in cond.items()]
    for atom in atoms:
        ((name, value),) = atom.items()
        if name == "any":
            if not any(holds(bundle, state, [alt]) for alt in value):
                return False
        elif name == "flag":
            if value not in state["flags"]:
                return False
        elif name == "not_flag":
            if value in state["flags"]:
                return False
        elif name == "item":
            if str(value) not in taking.held_numbers(bundle, state):
                return False
        elif name == "quest":
            current = state["citadel"]["side_quests"].get(value["id"])
            if value["state"] == "active":
                if current is None or current == "done":
                    return False
            elif current != value["state"]:
                return False
        elif name == "objective":
            if value not in state["objectives"]:
                return False
        elif name == "score":
            for k, need in value.items():
                if state["citadel"]["scores"][k] < need:
                    return False
        elif name == "characters" and len(state["characters"]) < value:
            return False
    return True
