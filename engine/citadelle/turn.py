"""The turn: what the group may do now (``legal_actions``) and doing it (``apply``).

A turn (« Tour de jeu ») begins when nothing is left to resolve: knocked-out characters first
banish one of their new cards, hands over their limit are trimmed, characters who arrived on
a Terrain with a mandatory action undertake it; then the group chooses who acts and how.
Some moves are allowed « à tout moment » (a Récupération, discarding a skill or a purse card)
and are offered during an action's preparation and draw and while a dialogue is read too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core import IllegalAction, MalformedAction, copy_game
from ..core.errors import brief
from . import actions as A
from . import board as B
from . import cards as K
from . import characters as C
from . import citadel, saving, scenario, taking
from . import dialogues as D
from . import effects as E
from . import records as rec
from .steps import step

#: append-only parts of the state, shared between successive states (see core.copy_game)
SHARED = {"log": True}
MAX_STEPS = 40_000  # decisions in one adventure before it ends in exhaustion
FREE_MOMENTS = ("turn", "prepare", "draw", "dialogue")

log = B.log


# --------------------------------------------------------------------------- a new turn


def next_turn(bundle: dict, state: dict) -> None:
    """Nothing is left to resolve: settle what must be settled, then let the group choose."""
    _drop_stale_dice(bundle, state)
    while state.get("interrupt"):
        pending = state["interrupt"].pop(0)
        c = pending["character"]
        # the hand may have emptied since: nothing left to banish
        if (
            pending["type"] == "banish"
            and c < len(state["characters"])
            and state["characters"][c]["hand"]
        ):
            state["pending"] = pending
            return
    for c, ch in enumerate(state["characters"]):
        if ch["conscious"] and len(ch["hand"]) > C.hand_size(bundle, state, ch):
            state["pending"] = {"type": "hand_limit", "character": c}
            return
    forced = _mandatory_here(bundle, state)
    if forced is not None:
        source, index, c = forced
        A.force(bundle, state, {"source": source, "index": index, "character": c})
        if state["pending"] is not None or state["queue"]:
            return
    if state["turns"] > scenario.MAX_TURNS or state.get("steps", 0) > MAX_STEPS:
        citadel.finish(bundle, state, "defeat", "exhaustion")
        return
    state["pending"] = {"type": "turn"}
    if not any(  # the turn's legal actions, listed only as far as the first that counts
        a["type"] in ("act", "move", "save", "search", "examine")
        for a in _each_turn_action(bundle, state)
    ):
        # nobody can undertake anything any more: the adventure ends rather than wait forever
        citadel.finish(bundle, state, "defeat", "stuck")


step("next_turn")(next_turn)


def _mandatory_here(bundle: dict, state: dict) -> tuple[str, int, int] | None:
    """A mandatory action to undertake now: on a Terrain where characters have just arrived,
    or on a permanent event just linked to it — once per arrival."""
    arrivals = state.get("arrivals") or []
    state["arrivals"] = []
    for c, ch in enumerate(state["characters"]):
        if not ch["conscious"] or ch["at"] is None or ch["at"] not in arrivals:
            continue
        for source, i in A.available(bundle, state, c):
            if not source.startswith(("terrain:", "event:")):
                continue
            spec, _ = A.spec_of(bundle, state, source, i)
            if spec and spec.get("mandatory"):
                return source, i, c
    return None


def _drop_stale_dice(bundle: dict, state: dict) -> None:
    """A die sits on a card: when the card has left play, the die goes back to the box."""
    for key in list(state["dice"]):
        card = state["dice"][key]["card"]
        ref = next(
            (
                r
                for r in (K.adventure(card), K.exploration(card), K.action_card(card))
                if _known(bundle, r)
            ),
            None,
        )
        if ref is None or K.where(bundle, state, ref) in ("box", "past", "banished"):
            del state["dice"][key]


def _known(bundle: dict, ref: dict) -> bool:
    table = {"adventure": "adventure_card", "exploration": "exploration_card"}.get(
        ref["kind"], "action_card"
    )
    return ref["key"] in rec.recs(bundle, table)


# --------------------------------------------------------------------------- legal actions


def legal_actions(bundle: dict, state: dict) -> list[dict]:
    """Every action the group may take now."""
    p = state["pending"]
    if p is None:
        return []
    t = p["type"]
    if t == "turn":
        return _turn_actions(bundle, state)
    if t == "active":
        return [{"type": "active", "character": c} for c in p["participants"]]
    if t == "prepare":
        out: list[dict[str, Any]] = [
            {"type": "select", "item": k} for k in A.selectable(bundle, state)
        ]
        return [*out, {"type": "prepared"}, *free_moves(bundle, state)]
    if t == "draw":
        low, high = A.cost(bundle, state)
        draws: list[dict[str, Any]] = [
            {"type": "draw", "count": n, "tremor": False} for n in range(low, high + 1)
        ]
        if A.can_tremor(bundle, state):
            tlow, thigh = A.cost(bundle, state, tremor=True)
            draws += [{"type": "draw", "count": n, "tremor": True} for n in range(tlow, thigh + 1)]
        return [*draws, *free_moves(bundle, state)]
    if t == "result":
        return [{"type": "count", "successes": n} for n in A.count_options(state)]
    if t == "keep":
        return [{"type": "keep", "card": k} for k in state["action"]["drawn"]] + [{"type": "kept"}]
    if t == "dialogue":
        return [*D.choices(bundle, state), *free_moves(bundle, state)]
    if t == "receive":
        out = [{"type": "receive", "character": c} for c in p["participants"]]
        if not rec.adv(bundle, p["key"]).get("undiscardable"):
            out.append({"type": "refuse"})
        return out
    if t == "hand_limit":
        ch = state["characters"][p["character"]]
        return [{"type": "discard", "character": p["character"], "card": k} for k in ch["hand"]]
    if t == "banish":
        ch = state["characters"][p["character"]]
        return [{"type": "banish", "character": p["character"], "card": k} for k in ch["hand"]]
    if t == "citadel":
        return _citadel_actions(bundle, state)
    return []


def _turn_actions(bundle: dict, state: dict) -> list[dict]:
    return list(_each_turn_action(bundle, state))


def _each_turn_action(bundle: dict, state: dict) -> Iterator[dict]:
    """The legal actions of a turn one by one (``next_turn`` stops at the first that counts)."""
    chars = state["characters"]
    for c, ch in enumerate(chars):
        if not ch["conscious"]:
            continue
        here = ch["at"]
        yield from [A.act_of(bundle, c, *offer) for offer in A.offers(bundle, state, c)]
        if here in state["board"] and C.weight(bundle, ch) <= C.carry(bundle, state, ch):
            for direction in ("north", "east", "south", "west"):
                target = B.neighbour(here, direction)
                if target in state["board"]:
                    yield {"type": "move", "character": c, "to": target}
        for key in taking.hiding_cards(bundle, state, c):
            if taking.unfound(bundle, state, key):
                yield {"type": "examine", "character": c, "card": key}
        for f in taking.found_here(bundle, state, c):
            yield {"type": "search", "character": c, "number": f["number"]}
        for key in ch["purse"] + ch["purse_blocked"]:
            if rec.adv(bundle, key).get("undiscardable"):
                continue
            for d, other in enumerate(chars):
                if d != c and other["conscious"] and other["at"] == here:
                    yield from (
                        {"type": "give", "character": c, "to": d, "item": key, "payer": who}
                        for who in ("giver", "receiver")
                    )
    yield from free_moves(bundle, state)
    if saving.can_save(state):
        yield {"type": "save"}
    if len(chars) > 1:
        yield from ({"type": "leave", "character": c} for c in range(len(chars)))


def free_moves(bundle: dict, state: dict) -> list[dict]:
    """Moves allowed at any time: a Récupération, discarding a skill from the hand, discarding
    a purse card (blocked or not; never one selected for the running action)."""
    action = state.get("action")
    selected = set(action["selected"]) if action else set()
    out: list[dict] = []
    for c, ch in enumerate(state["characters"]):
        if not ch["conscious"]:
            continue
        out.extend(
            {"type": "recover", "character": c, "cards": n} for n in C.recovery_options(state, c)
        )
        out.extend(
            {"type": "discard_skill", "character": c, "card": k}
            for k in ch["hand"]
            if k not in selected
        )
        out.extend(
            {"type": "drop", "character": c, "item": k}
            for k in ch["purse"] + ch["purse_blocked"]
            if k not in selected and not rec.adv(bundle, k).get("undiscardable")
        )
    return out


def _citadel_actions(bundle: dict, state: dict) -> list[dict]:
    out: list[dict] = [{"type": "depart"}]
    for entry in citadel.destiny_options(bundle, state):
        out.extend(
            {"type": "destiny", "entry": entry, "character": i}
            for i in range(len(state["characters"]))
        )
    if len(state["characters"]) > 1:
        out.extend({"type": "leave", "character": i} for i in range(len(state["characters"])))
    if len(state["characters"]) < 4:
        present = {ch["id"] for ch in state["characters"]}
        out.extend(
            {"type": "join", "id": cid}
            for cid in sorted(rec.recs(bundle, "character"))
            if cid not in present
        )
    return out


# --------------------------------------------------------------------------- apply

_SHAPES: dict[str, dict[str, type]] = {
    "act": {"character": int, "source": str, "index": int, "card": str, "title": str},
    "move": {"character": int, "to": str},
    "recover": {"character": int, "cards": int},
    "give": {"character": int, "to": int, "item": str, "payer": str},
    "drop": {"character": int, "item": str},
    "discard_skill": {"character": int, "card": str},
    "examine": {"character": int, "card": str},
    "search": {"character": int, "number": int},
    "save": {},
    "active": {"character": int},
    "select": {"item": str},
    "prepared": {},
    "draw": {"count": int, "tremor": bool},
    "count": {"successes": int},
    "keep": {"card": str},
    "kept": {},
    "choose": {"index": int},
    "close": {},
    "receive": {"character": int},
    "refuse": {},
    "discard": {"character": int, "card": str},
    "banish": {"character": int, "card": str},
    "depart": {},
    "destiny": {"entry": str, "character": int},
    "leave": {"character": int},
    "join": {"id": str},
}


def _where(state: dict) -> str:
    return f"scenario {state.get('scenario')}, turn {state.get('turns')}"


def check_shape(state: dict, action: Any) -> None:
    where = _where(state)
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or action["type"] not in _SHAPES
    ):
        raise MalformedAction(action, where, f"'type' must be one of {sorted(_SHAPES)}")
    shape = _SHAPES[action["type"]]
    extra = set(action) - set(shape) - {"type"}
    if extra:
        raise MalformedAction(action, where, f"unexpected field(s) {brief(sorted(extra))}")
    for name, typ in shape.items():
        value = action.get(name)
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise MalformedAction(action, where, f"'{name}' must be a {typ.__name__}")


#: (bundle, state, its mark, its legal actions): the last list a front end offered (``offer``)
#: legal actions as they were offered on one state: ``(state, mark, actions)`` (``offering``)
Offering = tuple[dict, tuple[Any, ...], list[dict]]


def offering(state: dict, actions: list[dict]) -> Offering:
    """``legal_actions(bundle, state)`` as just listed (and never changed afterwards), kept by
    the caller for an ``apply`` on this very state: its legality check need not list them
    again (the plug-in keeps the one its policy was offered)."""
    return (state, _mark(state), actions)


def _mark(state: dict) -> tuple[Any, ...]:
    """What tells a state apart from the one the legal actions were offered for, cheaply: a
    state is a value (``apply`` never changes its input), this only guards against a caller
    that reuses the same dict after playing on it or replacing what is pending."""
    return (state.get("steps"), len(state.get("log") or ()), id(state.get("pending")))


def _legal(bundle: dict, state: dict, offered: Offering | None) -> list[dict]:
    if offered is not None and offered[0] is state and offered[1] == _mark(state):
        return offered[2]
    return legal_actions(bundle, state)


def apply(bundle: dict, state: dict, action: Any, offered: Offering | None = None) -> dict:
    """The state after ``action``; never mutates ``state``.  Raises ``MalformedAction`` or
    ``IllegalAction`` (both ``ValueError``) naming the action and the turn."""
    check_shape(state, action)
    if action not in _legal(bundle, state, offered):
        p = state["pending"]
        why = "the adventure is over" if p is None else f"waiting for {p['type']}"
        raise IllegalAction(action, _where(state), why)
    state = copy_game(state, SHARED)
    state["steps"] = state.get("steps", 0) + 1
    state["mark"] = len(state["log"])  # the story block tells what follows this decision
    p = state["pending"]
    state["pending"] = None
    t = action["type"]
    if t in ("recover", "discard_skill", "drop"):
        _free_move(bundle, state, action, p)
    elif t == "act":
        if p["type"] == "dialogue":
            state["dialogue"] = None
        _start(bundle, state, action["character"], action["source"], action["index"])
    elif t == "move":
        _start(bundle, state, action["character"], "move", 0, target=action["to"])
    elif t == "give":
        payer = action["character"] if action["payer"] == "giver" else action["to"]
        C.give(bundle, state, action["character"], action["to"], action["item"], payer)
    elif t == "examine":
        taking.examine(bundle, state, action["character"], action["card"])
    elif t == "search":
        taking.search(bundle, state, action["character"], action["number"])
    elif t == "save":
        saving.save(bundle, state)
    elif t in _CITADEL_MOVES:
        if _citadel_move(bundle, state, action, p):
            return state
    elif t == "active":
        A.start(
            bundle,
            state,
            action["character"],
            p["source"],
            p["index"],
            p["participants"],
            mandatory=True,
        )
    elif t == "select":
        _select(bundle, state, action, p)
    elif t == "prepared":
        state["pending"] = {"type": "draw", "character": p["character"]}
    elif t == "draw":
        A.draw(bundle, state, action["count"], action["tremor"])
    elif t == "count":
        A.count(bundle, state, action["successes"])
    elif t == "keep":
        _keep(bundle, state, action, p)
    elif t == "kept":
        A.end(bundle, state)
    elif t == "choose":
        D.choose(bundle, state, p, action["index"])
    elif t == "close":
        D.close(state)
    elif t in ("receive", "refuse"):
        _receive(bundle, state, p, action)
    elif t == "discard":
        C.discard_skill(bundle, state, action["character"], action["card"])
    elif t == "banish":
        ch = state["characters"][action["character"]]
        K.move(bundle, state, K.action_card(action["card"]), "banished")
        log(
            state,
            "card.banish",
            title=rec.skill(bundle, action["card"]).get("title", ""),
            name=ch["name"],
        )
    if state["phase"] == "play" and state["pending"] is None:
        E.pump(bundle, state)
    return state


#: the moves of the Citadel's phase (and leaving for it): ``_citadel_move`` plays them
_CITADEL_MOVES = frozenset({"leave", "destiny", "join", "depart"})


def _citadel_move(bundle: dict, state: dict, action: dict, p: dict) -> bool:
    """A move of ``_CITADEL_MOVES``.  ``True``: the turn ends here (the Citadel waits for its
    next move, or a scenario has begun, or the campaign is over); ``False``: it goes on as
    after any action (only when a character leaves outside the Citadel)."""
    t = action["type"]
    if t == "leave":
        C.leave(bundle, state, action["character"])
        if p["type"] == "citadel":
            state["pending"] = {"type": "citadel"}
            return True
        return False
    if t == "destiny":
        citadel.buy_destiny(bundle, state, action["entry"], action["character"])
        state["pending"] = {"type": "citadel"}
        return True
    if t == "join":
        C.join(bundle, state, action["id"])
        state["pending"] = {"type": "citadel"}
        return True
    nxt = state.get("next_scenario")  # "depart"
    if nxt is None:
        citadel.finish(bundle, state, "victory", "menace_over")
        return True
    scenario.start_scenario(bundle, state, nxt)
    return True


def _keep(bundle: dict, state: dict, action: dict, p: dict) -> None:
    """A drawn card kept; the next to keep, or the action's end."""
    A.keep(bundle, state, action["card"])
    left = p["left"] - 1
    if left > 0 and state["action"]["drawn"]:
        state["pending"] = {**p, "left": left}
    else:
        A.end(bundle, state)


def _select(bundle: dict, state: dict, action: dict, p: dict) -> None:
    """An item chosen for the action under way; then more to prepare, or the draw."""
    state["action"]["selected"].append(action["item"])
    ch = state["characters"][p["character"]]
    log(
        state,
        "item.selected",
        name=ch["name"],
        title=rec.record(bundle, _ref(bundle, action["item"])).get("title", ""),
    )
    state["pending"] = {
        "type": "prepare" if A.selectable(bundle, state) else "draw",
        "character": p["character"],
    }


def _ref(bundle: dict, key: str) -> dict:
    return K.action_card(key) if key in rec.recs(bundle, "action_card") else K.adventure(key)


def _start(
    bundle: dict, state: dict, c: int, source: str, index: int, target: str | None = None
) -> None:
    spec, _ = A.spec_of(bundle, state, source, index)
    participants = None
    if spec and spec.get("group"):
        participants = [i for i, x in enumerate(state["characters"]) if x["conscious"]]
        participants.remove(c)
        participants.insert(0, c)
    A.start(bundle, state, c, source, index, participants, target=target)


def _free_move(bundle: dict, state: dict, action: dict, p: dict) -> None:
    c = action["character"]
    t = action["type"]
    if t == "recover":
        C.recover(bundle, state, c, action["cards"])
    elif t == "discard_skill":
        C.discard_skill(bundle, state, c, action["card"])
    else:
        C.drop(bundle, state, c, action["item"])
    if state["phase"] != "play":
        return
    running = state.get("action")
    if p["type"] in ("prepare", "draw") and running is not None:
        if not state["characters"][running["character"]]["conscious"]:
            log(state, "action.stopped", name=state["characters"][running["character"]]["name"])
            A.end(bundle, state)  # the active player fainted: the action stops here
            return
        if p["type"] == "prepare" and not A.selectable(bundle, state):
            p = {"type": "draw", "character": p["character"]}
    if p["type"] == "dialogue" and state["dialogue"] is None:
        return
    if p["type"] != "turn":
        state["pending"] = p


def _receive(bundle: dict, state: dict, p: dict, action: dict) -> None:
    key = p["key"]
    if action["type"] == "refuse":
        K.move(bundle, state, K.adventure(key), "past")
        log(state, "item.refused", title=rec.adv(bundle, key).get("title", ""))
        return
    ch = state["characters"][action["character"]]
    here = K.where(bundle, state, K.adventure(key))
    if here != f"purse:{ch['id']}":
        K.move(bundle, state, K.adventure(key), f"purse:{ch['id']}")
    log(state, "item.received", name=ch["name"], title=rec.adv(bundle, key).get("title", ""))
