"""Actions: what each seat may do now (``legal_actions``), their shape, and ``apply`` — pure,
refusing anything else with ``MalformedAction``/``IllegalAction``."""

from __future__ import annotations

from typing import Any

from ..core import IllegalAction, MalformedAction, copy_game
from . import abilities, negotiation, setup, voting
from .common import SHARED, SIDES


def _where(state: dict) -> str:
    return f"game {state['campaign']['game_no']}, round {state['round']}, phase {state['phase']}"


def legal_actions(
    bundle: dict, state: dict, seat: int | None = None, gifts: bool = True
) -> list[dict]:
    """Every legal action of ``seat`` now (``None``: of every seat, seat by seat;
    ``gifts=False``: without the gifts of coins).  Every action listed for a seat names that
    seat.  During the vote and a tie, any house may give coins and use its at-will abilities;
    while the moderator settles a tie, the other houses may bid for the decision; everything
    else belongs to the pending seat."""
    p = state["pending"]
    if p is None:
        return []
    if seat is None:
        seats = range(len(state["seats"]))
        return [a for s in seats for a in legal_actions(bundle, state, s, gifts)]
    out: list[dict] = []
    if seat == p["seat"]:
        out.extend(_turn_actions(state, seat, p))
    elif p["type"] == "decide":
        out.extend(negotiation._offers(state, seat, decide_only=True))
    if p["type"] in ("vote", "decide"):
        out.extend(abilities._usable(bundle, state, seat))
        if gifts:
            out.extend(negotiation._gifts(state, seat))
    return out


def _turn_actions(state: dict, seat: int, p: dict) -> list[dict]:
    """What the pending seat may do on its turn (offers included, gifts and abilities not)."""
    t = p["type"]
    if t == "draft":
        return [{"type": "draft", "seat": seat, "objective": o} for o in state["draft"]["pool"]]
    if t == "keep_tokens":
        return [
            {"type": "keep_tokens", "seat": seat, "tokens": c}
            for c in setup._token_options(state["seats"][seat])
        ]
    if t == "decide":
        promise = state["vote"]["promises"].get(str(seat)) or ""
        # only a promise about this decision binds (a vote promise does not)
        promised = promise.removeprefix("decide_") if promise.startswith("decide_") else ""
        return [{"type": "decide", "seat": seat, "side": s} for s in SIDES if promised in ("", s)]
    if t == "answer":
        return [{"type": "answer", "seat": seat, "accept": a} for a in (True, False)]
    if t == "choose_leader":
        return [{"type": "choose_leader", "seat": seat, "leader": i} for i in p["among"]]
    out: list[dict] = []
    if t == "vote":
        vote = state["vote"]
        mine = vote["votes"][seat]
        power = state["seats"][seat]["power"]
        if mine["kind"] is None:
            promise = vote["promises"].get(str(seat))
            if promise is not None and promise.startswith("decide_"):
                promise = None  # a promise about a tie does not bind this vote
            for side in SIDES:
                if promise in (None, side):
                    out.extend(
                        {"type": "vote", "seat": seat, "side": side, "power": n}
                        for n in range(1, power + 1)
                    )
            if promise in (None, "pass") or (promise in SIDES and power == 0):
                out.append({"type": "pass", "seat": seat, "for": "power"})
                if not vote["moderator_taken"]:
                    out.append({"type": "pass", "seat": seat, "for": "moderator"})
            out.extend(negotiation._offers(state, seat))
        else:
            if mine["kind"] in SIDES:
                out.extend({"type": "add", "seat": seat, "power": n} for n in range(1, power + 1))
            out.append({"type": "stand", "seat": seat})
    return out


_FIELDS: dict[str, dict[str, type]] = {
    "draft": {"objective": str},
    "keep_tokens": {"tokens": list},
    "vote": {"side": str, "power": int},
    "pass": {"for": str},
    "add": {"power": int},
    "stand": {},
    "give": {"to": int, "coins": int},
    "decide": {"side": str},
    "choose_leader": {"leader": int},
    "offer": {"to": int, "coins": int, "ask": str},
    "answer": {"accept": bool},
    "use_ability": {"source": str},
}


def _check_shape(state: dict, action: Any) -> None:
    where = _where(state)
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or (action["type"] not in _FIELDS)
    ):
        raise MalformedAction(action, where, f"'type' must be one of {sorted(_FIELDS)}")
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < len(state["seats"]):
        raise MalformedAction(action, where, "'seat' must be a seat number")
    for name, typ in _FIELDS[action["type"]].items():
        value = action.get(name)
        if not isinstance(value, typ) or (typ is not bool and isinstance(value, bool)):
            raise MalformedAction(action, where, f"'{name}' must be a {typ.__name__}")


def apply(bundle: dict, state: dict, action: dict) -> dict:
    """The state after ``action``.  Never mutates ``state``.  Raises ``MalformedAction`` or
    ``IllegalAction`` (both ``ValueError``) naming the action and the round."""
    _check_shape(state, action)
    gift = action["type"] == "give"
    if action["type"] == "use_ability":
        in_vote = (state["pending"] or {}).get("type") in ("vote", "decide")
        candidates = abilities._usable(bundle, state, action["seat"]) if in_vote else []
        if action not in candidates:
            raise IllegalAction(action, _where(state), "no such ability to use now")
        return abilities._use_ability(bundle, state, action)
    candidates = (
        negotiation._gifts(state, action["seat"])
        if gift and (state["pending"] or {}).get("type") in ("vote", "decide")
        else []
        if gift
        else legal_actions(bundle, state, action["seat"], gifts=False)
    )
    if action not in candidates:
        p = state["pending"]
        why = "the game is over" if p is None else f"waiting for {p['type']} by seat {p['seat']}"
        raise IllegalAction(action, _where(state), why)
    state = copy_game(state, SHARED)
    t = action["type"]
    if t in ("give", "offer", "answer"):
        negotiation._negotiate(state, action)
    elif t in ("draft", "keep_tokens"):
        setup._setup_choice(bundle, state, action)
    elif t in ("vote", "pass", "add", "stand"):
        voting._vote_turn(bundle, state, action)
    elif t == "decide":
        voting._decide(bundle, state, action)
    elif t == "choose_leader":
        voting._choose_leader(bundle, state, action)
    else:  # pragma: no cover
        raise AssertionError(t)
    return state
