"""A round (« Manche, phases »): drawing the dilemma (Immediate cards resolve at once), the
Council's vote in turn from the leader, the leader token that follows the biggest stake, the end
of the phase to the leader's right, the resolution (the moderator settles ties and may be asked
to choose the leader), and the cleanup (« Nettoyage après le vote »)."""

from __future__ import annotations

from . import abilities, effects, scoring
from .common import SIDES, _card, _log
from .steps import run, step


def _start_round(bundle: dict, state: dict) -> None:
    """Draw from the bottom of the deck; immediate cards resolve and another card is drawn.

    An immediate card that makes the king abdicate does not end the game at once: the rulebook
    triggers the end of the game at the end of the round, phase F included, so the round goes
    on with the next card (stability frozen).  One that completes the secret stickers opens the
    grand final at once (« immédiatement » after the card that stuck the sixth)."""
    while True:
        if not state["deck"]:
            state["king_dead"] = True
            _log(state, "deck.empty")
            scoring._end_game(bundle, state)
            return
        key = state["deck"].pop()
        kind, card = _card(bundle, key)
        if kind == "immediate_card":
            _log(state, "immediate.drawn", title=card["title"], text=card["text"], card=key)
            effects._apply_effects(bundle, state, card.get("effects") or [], state["leader"])
            if card.get("keep"):
                state["kept_immediates"].append(key)
            if state["final_pending"]:
                scoring._end_game(bundle, state)
                return
            continue
        break
    state["round"] += 1
    n = len(state["seats"])
    state["vote"] = {
        "card": key,
        "votes": [{"kind": None, "power": 0, "coin": 0} for _ in range(n)],
        "turn": state["leader"],
        "moderator_taken": False,
        "winner": None,
        "promises": {},  # seat -> what it was paid to do ("oui_da", "nenni", "pass", "decide_*")
        "offers_made": [],  # [giver, receiver] pairs this round (one offer each)
    }
    state["phase"] = "vote"
    state["pending"] = {"type": "vote", "seat": state["leader"]}
    _log(state, "round.start", round=state["round"], title=card["title"])


step("start_round")(_start_round)


def _staked(vote: dict, seat: int) -> int:
    v = vote["votes"][seat]
    return v["power"] if v["kind"] in SIDES else 0


def _vote_turn(bundle: dict, state: dict, action: dict) -> None:
    """A turn of the vote: Oui-Da or Nenni with Pouvoir, a pass (for Pouvoir or to become the
    moderator), more Pouvoir on one's vote, or nothing."""
    t = action["type"]
    seat = action["seat"]
    s = state["seats"][seat]
    v = state["vote"]["votes"][seat]
    if t == "vote":
        v["kind"], v["power"] = action["side"], action["power"]
        s["power"] -= action["power"]
        _log(state, "vote.cast", house=s["name"], side=action["side"], power=action["power"])
    elif t == "add":
        v["power"] += action["power"]
        s["power"] -= action["power"]
        _log(state, "vote.add", house=s["name"], power=action["power"], total=v["power"])
    elif t == "pass":
        v["kind"] = "pass_" + action["for"]
        v["coin"] = 1
        if action["for"] == "moderator":
            state["vote"]["moderator_taken"] = True
            state["moderator"] = seat
            abilities._trigger(bundle, state, seat, "became_moderator")
        _log(state, "vote.pass", house=s["name"], why=action["for"])
    else:
        _log(state, "vote.stand", house=s["name"])
    _after_turn(bundle, state, seat)


def _after_turn(bundle: dict, state: dict, seat: int) -> None:
    vote = state["vote"]
    n = len(state["seats"])
    # the leader token moves at once to whoever has staked the most (not on a tie)
    stakes = [_staked(vote, i) for i in range(n)]
    top = max(stakes)
    if top > 0 and stakes.count(top) == 1:
        new = stakes.index(top)
        if new != state["leader"]:
            state["leader"] = new
            _log(state, "leader.moves", house=state["seats"][new]["name"], power=top)
    # the phase ends after the turn of the player to the leader's right
    if (seat + 1) % n == state["leader"]:
        _resolve_vote(bundle, state)
        return
    vote["turn"] = (seat + 1) % n
    state["pending"] = {"type": "vote", "seat": vote["turn"]}


def _resolve_vote(bundle: dict, state: dict) -> None:
    vote = state["vote"]
    totals = dict.fromkeys(SIDES, 0)
    for v in vote["votes"]:
        if v["kind"] in SIDES:
            totals[v["kind"]] += v["power"]
    _log(state, "vote.totals", oui_da=totals["oui_da"], nenni=totals["nenni"])
    if totals["oui_da"] == totals["nenni"]:
        all_pass = totals["oui_da"] == 0
        state["phase"] = "decide"
        state["pending"] = {"type": "decide", "seat": state["moderator"], "all_pass": all_pass}
        return
    _vote_decided(bundle, state, "oui_da" if totals["oui_da"] > totals["nenni"] else "nenni")


def _decide(bundle: dict, state: dict, action: dict) -> None:
    """The moderator settles a tie."""
    s = state["seats"][action["seat"]]
    _log(state, "moderator.decides", house=s["name"], side=action["side"])
    _vote_decided(bundle, state, action["side"], all_pass=state["pending"].get("all_pass", False))


def _vote_decided(bundle: dict, state: dict, side: str, all_pass: bool = False) -> None:
    vote = state["vote"]
    vote["winner"] = side
    if all_pass:
        state["leader"] = state["moderator"]
        _log(state, "leader.moderator", house=state["seats"][state["moderator"]]["name"])
    elif vote["votes"][state["leader"]]["kind"] != side:
        stakes = {i: v["power"] for i, v in enumerate(vote["votes"]) if v["kind"] == side}
        top = max(stakes.values())
        tied = [i for i, p in stakes.items() if p == top]
        if len(tied) > 1:
            state["phase"] = "leader"
            state["pending"] = {"type": "choose_leader", "seat": state["moderator"], "among": tied}
            return
        state["leader"] = tied[0]
        _log(state, "leader.moves", house=state["seats"][tied[0]]["name"], power=top)
    run("resolve", bundle, state)


def _choose_leader(bundle: dict, state: dict, action: dict) -> None:
    """The moderator gives the leader token to one of the tied winners."""
    state["leader"] = action["leader"]
    _log(state, "leader.chosen", house=state["seats"][action["leader"]]["name"])
    run("resolve", bundle, state)


def _cleanup(bundle: dict, state: dict) -> None:
    """Pass coins to the reserves, the balance shared among those who passed for Pouvoir (the
    rest stays), winners' Pouvoir onto the balance, losers' back behind their screens."""
    vote = state["vote"]
    side = vote["winner"]
    seats = state["seats"]
    # pass coins to reserves
    for i, v in enumerate(vote["votes"]):
        seats[i]["coins"] += v["coin"]
        v["coin"] = 0
    # the balance's power shared evenly among those who passed for power
    passers = [i for i, v in enumerate(vote["votes"]) if v["kind"] == "pass_power"]
    if passers and state["balance"]:
        share = state["balance"] // len(passers)
        for i in passers:
            seats[i]["power"] += share
        state["balance"] -= share * len(passers)
        if share:
            _log(
                state,
                "balance.shared",
                each=share,
                houses=[seats[i]["name"] for i in passers],
                left=state["balance"],
            )
    # winners' power to the balance, losers' power back behind their screens
    for i, v in enumerate(vote["votes"]):
        if v["kind"] == side:
            state["balance"] += v["power"]
        elif v["kind"] in SIDES:
            seats[i]["power"] += v["power"]
    for i, v in enumerate(vote["votes"]):
        if v["kind"] in SIDES:
            abilities._trigger(
                bundle, state, i, "won_vote" if v["kind"] == side else "lost_vote", v["power"]
            )
        elif v["kind"] == "pass_power":
            abilities._trigger(bundle, state, i, "passed_for_power")
