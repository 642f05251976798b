"""Negotiating (« Négocier »): gifts of coins at any time of the vote, and offers that bind
once accepted — a vote, a pass, or the moderator's decision on a tie."""

from __future__ import annotations

from .common import SIDES, _log

OFFER_MAX_COINS = 5


ASKS = ("oui_da", "nenni", "pass", "decide_oui_da", "decide_nenni")


def _gifts(state: dict, giver: int) -> list[dict]:
    coins = state["seats"][giver]["coins"]
    return [
        {"type": "give", "seat": giver, "to": to, "coins": c}
        for to in range(len(state["seats"]))
        if to != giver
        for c in range(1, coins + 1)
    ]


def _offers(state: dict, seat: int, decide_only: bool = False) -> list[dict]:
    """Deals a seat may propose: on its turn, coins for a vote, a pass, or the moderator's
    decision on a tie; while the moderator decides a tie, anyone may bid for the decision.
    Accepted deals bind: the engine restricts the receiver's choices.  Several houses may pay
    for the same promise (the rulebook's example: Diana and Julius pay Théodore together)."""
    vote = state["vote"]
    coins = min(OFFER_MAX_COINS, state["seats"][seat]["coins"])
    out: list[dict] = []
    for to in range(len(state["seats"])):
        if to == seat or [seat, to] in vote["offers_made"]:
            continue
        asks: list[str] = []
        if vote["votes"][to]["kind"] is None and not decide_only:
            # whatever Pouvoir ``to`` has left: it is behind its screen (a house paid for a
            # vote it cannot cast passes, as the voting rules say)
            asks.append("pass")
            asks.extend(SIDES)
        if to == state["moderator"]:
            asks.extend(("decide_oui_da", "decide_nenni"))
        promised = vote["promises"].get(str(to))
        if promised is not None and promised.startswith("decide_") and to != state["moderator"]:
            promised = None  # a promise about a tie it no longer decides is void
        if promised is not None:
            asks = [a for a in asks if a == promised]
        out.extend(
            {"type": "offer", "seat": seat, "to": to, "coins": c, "ask": a}
            for a in asks
            for c in range(1, coins + 1)
        )
    return out


def _negotiate(state: dict, action: dict) -> None:
    """A gift, an offer, or the answer to an offer (the coins change hands on acceptance)."""
    t = action["type"]
    seat = action["seat"]
    s = state["seats"][seat]
    if t == "give":
        s["coins"] -= action["coins"]
        state["seats"][action["to"]]["coins"] += action["coins"]
        _log(
            state,
            "give",
            giver=s["name"],
            to=state["seats"][action["to"]]["name"],
            coins=action["coins"],
        )
    elif t == "offer":
        state["vote"]["offers_made"].append([seat, action["to"]])
        state["offer"] = {
            "from": seat,
            "to": action["to"],
            "coins": action["coins"],
            "ask": action["ask"],
            "resume": state["pending"],
        }
        state["pending"] = {"type": "answer", "seat": action["to"]}
        _log(
            state,
            "offer",
            giver=s["name"],
            to=state["seats"][action["to"]]["name"],
            coins=action["coins"],
            ask=action["ask"],
        )
    else:
        offer = state.pop("offer")
        if action["accept"]:
            state["seats"][offer["from"]]["coins"] -= offer["coins"]
            s["coins"] += offer["coins"]
            state["vote"]["promises"][str(seat)] = offer["ask"]
        _log(state, "answer", house=s["name"], accept=action["accept"])
        state["pending"] = offer["resume"]
