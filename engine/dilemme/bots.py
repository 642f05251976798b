"""Bots for Le Dilemme du Roi.  A bot only ever picks one of ``legal_actions``.

How a bot thinks, in short:
- it values a resource position by what its secret objective and public tokens would score
  there, and values each outcome of the dilemma by simulating its resource moves (with
  progression) and the chronicle stickers it would sign;
- it votes for the side it prefers, staking what the difference is worth (more when the race is
  close), passes for power when it does not care and the balance is rich, and takes the
  moderator token when it does not care and a tie looks likely;
- it accepts a deal when the coins are worth more than what complying costs it, and offers one
  when a single vote would swing a close race its way.

Each bot house has a temperament (``TEMPERAMENTS``, shown on the board), which bends those
weights so that houses can be told apart after a few dilemmas:
- « avisé » (the default) weighs everything as above;
- « cupide » counts coins double: sells its vote cheaply, never buys one, and passes for
  Pouvoir whenever the outcome matters little;
- « loyal » to the crown also weighs the kingdom's stability (the king abdicates at either end
  of its track): it backs the side that keeps stability near the centre, stakes more, and is
  hard to buy;
- « opportuniste » leans towards the side already ahead, grabs the moderator's token when it
  does not care, and both sells and buys votes readily.

Bots are deterministic: their only randomness is the game's seeded generator, through the
state, so the same seed gives the same game.
"""

from __future__ import annotations

from . import rules as R
from .game import SIDES, _rec, _rules, legal_actions

COIN_VALUE = 0.35  # objective points a coin is worth to a bot, roughly (wealth ranks)
POWER_VALUE = 0.45  # what a power token is worth (future votes, end-of-game majority)

#: how each temperament bends the weights: ``coins`` multiplies what a coin is worth when
#: selling a promise, ``buys`` whether it offers deals (and how far from a tie), ``crown`` how
#: much stability near the centre is worth, ``follow`` the pull of the side ahead, ``stake``
#: extra Pouvoir on a vote, ``moderator`` how close a race must be for it to take the token
TEMPERAMENTS: dict[str, dict[str, float]] = {
    "avise": {"coins": 1.0, "buys": 3, "crown": 0.0, "follow": 0.0, "stake": 0, "moderator": 2},
    "cupide": {"coins": 2.0, "buys": -1, "crown": 0.0, "follow": 0.0, "stake": 0, "moderator": 2},
    "loyal": {"coins": 0.5, "buys": 3, "crown": 0.6, "follow": 0.0, "stake": 1, "moderator": 1},
    "opportuniste": {
        "coins": 1.5, "buys": 5, "crown": 0.0, "follow": 0.8, "stake": 0, "moderator": 6},
}  # fmt: skip
DEFAULT = "avise"


def _temper(persona: str | None) -> dict[str, float]:
    return TEMPERAMENTS.get(persona or DEFAULT, TEMPERAMENTS[DEFAULT])


def _positions(state: dict) -> dict[str, int]:
    return {r: m["pos"] for r, m in state["resources"].items()}


def _value(bundle: dict, state: dict, seat: int, positions: dict[str, int]) -> float:
    """How many objective points this seat would score with the resources at ``positions``."""
    s = state["seats"][seat]
    points = float(R.public_objective_points(s["public"], positions))
    if s["objective"]:
        obj = _rec(bundle, "secret_objective", s["objective"])
        if obj:
            points += R.secret_objective_points(obj, positions, 4)[0]
    return points


def _simulate(
    bundle: dict, state: dict, effects: list[dict], drift: list[int] | None = None
) -> dict[str, int]:
    """Resource positions after ``effects``; ``drift`` (if given) collects stability moves."""
    rules = _rules(bundle)
    markers = {r: dict(m) for r, m in state["resources"].items()}

    def move(name: str, value: int) -> None:
        steps, direction = R.move_resource(markers[name], value, rules["resource_track"])
        if drift is not None:
            drift.append(steps * direction)

    for effect in effects:
        ((name, value),) = effect.items()
        if name in markers:
            move(name, value)
        elif name == "branch":
            for sub in value.get("then") or []:
                ((n2, v2),) = sub.items()
                if n2 in markers:
                    move(n2, v2)
    return {r: m["pos"] for r, m in markers.items()}


def outcome_values(
    bundle: dict, state: dict, seat: int, persona: str | None = None
) -> dict[str, float]:
    """What each side of the current dilemma is worth to ``seat`` (and its temperament)."""
    card = _rec(bundle, "dilemma", state["vote"]["card"]) or {}
    crown = _temper(persona)["crown"]
    track = state.get("stability_track", 14)
    out = {}
    for side in SIDES:
        effects = (card.get(side) or {}).get("effects") or []
        drift: list[int] = []
        value = _value(bundle, state, seat, _simulate(bundle, state, effects, drift))
        if crown:
            # the crown's friend: stability near the centre, never at an end of its track
            after = min(track, max(0, state["stability"] + sum(drift)))
            value -= crown * abs(after - track // 2)
            if after in (0, track):
                value -= 10 * crown
        for effect in effects:
            ((name, v),) = effect.items()
            if name == "chronicle_sticker":
                sticker = _rec(bundle, "chronicle_sticker", str(v)) or {}
                # the signer gains (or loses) a power each later game: worth leading for
                sign = 1 if sticker.get("polarity") == "positive" else -1
                if state["leader"] == seat:
                    value += 0.8 * sign
            elif name == "gain" and v.get("who") in ("all", "winners"):
                value += 0.3 * (v.get("coins", 0) + v.get("power", 0))
        out[side] = value
    return out


def _totals(state: dict) -> dict[str, int]:
    t = dict.fromkeys(SIDES, 0)
    for v in state["vote"]["votes"]:
        if v["kind"] in SIDES:
            t[v["kind"]] += v["power"]
    return t


def _power(state: dict, seat: int) -> int:
    """A house's Pouvoir as this bot knows it: its own exactly; another's is behind its screen,
    so the bot guesses the table's average of what is visible (3 when nothing is)."""
    known = state["seats"][seat]["power"]
    if known is not None:
        return known
    return 3


def _undecided_power(state: dict, seat: int) -> int:
    return sum(
        _power(state, i)
        for i, v in enumerate(state["vote"]["votes"])
        if i != seat and v["kind"] is None
    )


def choose(
    bundle: dict,
    state: dict,
    seat: int,
    actions: list[dict] | None = None,
    persona: str | None = None,
) -> dict:
    """The bot's action for ``seat`` (which must be the pending seat), by its temperament."""
    if actions is None:
        actions = legal_actions(bundle, state, seat, gifts=False)
    # an at-will ability that buys power is worth it when the bot is about to stake heavily
    uses = [a for a in actions if a["type"] == "use_ability"]
    actions = [a for a in actions if a["type"] != "use_ability"]
    if uses and state["pending"]["type"] == "vote" and _wants_power(bundle, state, seat, persona):
        return uses[0]
    kinds = {a["type"] for a in actions}
    if "draft" in kinds:
        return max(actions, key=lambda a: _objective_worth(bundle, state, a["objective"]))
    if "keep_tokens" in kinds:
        pos = _positions(state)
        return max(actions, key=lambda a: R.public_objective_points(a["tokens"], pos))
    if "answer" in kinds:
        return _answer(bundle, state, seat, actions, persona)
    if "decide" in kinds:
        values = outcome_values(bundle, state, seat, persona)
        return max(actions, key=lambda a: values[a["side"]])
    if "choose_leader" in kinds:
        # keep the signature for yourself, else give it to the house with the least prestige
        def key(a: dict) -> tuple[int, int]:
            house = state["seats"][a["leader"]]["house"]
            return (a["leader"] == seat, -state["campaign"]["houses"][house]["prestige"])

        return max(actions, key=key)
    return _vote(bundle, state, seat, actions, persona)


def _wants_power(bundle: dict, state: dict, seat: int, persona: str | None = None) -> bool:
    """Short of power for a vote that matters: the preferred side trails by more than we hold."""
    if state["vote"]["votes"][seat]["kind"] not in (None, *SIDES):
        return False
    values = outcome_values(bundle, state, seat, persona)
    prefer = max(SIDES, key=lambda s: values[s])
    other = "nenni" if prefer == "oui_da" else "oui_da"
    totals = _totals(state)
    gap = totals[other] - totals[prefer] + 1
    diff = values[prefer] - values[other]
    return diff >= 3 and gap > state["seats"][seat]["power"] and state["seats"][seat]["coins"] >= 5


def _objective_worth(bundle: dict, state: dict, key: str) -> float:
    obj = _rec(bundle, "secret_objective", key) or {}
    pos = _positions(state)
    resource = R.secret_objective_points(obj, pos, 4)[0] if obj else 0
    # markers drift: a zone near the centre is easier to hold; add the best wealth prize
    wealth = (obj.get("wealth_points") or [0])[0]
    width = sum(z["to"] - z["from"] + 1 for z in obj.get("zones") or [])
    return resource + 0.6 * wealth + 0.3 * width


def _answer(
    bundle: dict, state: dict, seat: int, actions: list[dict], persona: str | None = None
) -> dict:
    offer = state["offer"]
    ask = offer["ask"]
    cost = 0.0
    if ask in SIDES or ask.startswith("decide_"):
        side = ask.removeprefix("decide_")
        values = outcome_values(bundle, state, seat, persona)
        cost = max(0.0, max(values.values()) - values[side])
        if ask in SIDES:
            cost += POWER_VALUE  # at least one power goes on the vote
    accept = offer["coins"] * COIN_VALUE * 2 * _temper(persona)["coins"] >= cost
    return next(a for a in actions if a["accept"] == accept)


def _vote(
    bundle: dict, state: dict, seat: int, actions: list[dict], persona: str | None = None
) -> dict:
    temper = _temper(persona)
    vote = state["vote"]
    mine = vote["votes"][seat]
    values = outcome_values(bundle, state, seat, persona)
    if temper["follow"] and mine["kind"] is None:
        ahead = _totals(state)
        if ahead["oui_da"] != ahead["nenni"]:  # the side ahead looks like the winning one
            values[max(SIDES, key=lambda s: ahead[s])] += temper["follow"]
    prefer = max(SIDES, key=lambda s: values[s])
    other = "nenni" if prefer == "oui_da" else "oui_da"
    diff = values[prefer] - values[other]
    totals = _totals(state)
    power = state["seats"][seat]["power"]
    by_type: dict[str, list[dict]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)

    if mine["kind"] is None:
        # first turn: a deal that swings a close race is worth a few coins
        gap = totals[other] - totals[prefer]
        already = any(giver == seat for giver, _ in vote["offers_made"])
        offers = [
            a
            for a in by_type.get("offer", [])
            if not already
            and a["ask"] == prefer
            and a["coins"] <= 3
            and diff >= 2
            and 0 <= gap <= temper["buys"]
        ]
        if offers:
            target = max(offers, key=lambda a: (-a["coins"], _power(state, a["to"])))
            if state["seats"][seat]["coins"] >= 6:
                return min((a for a in offers if a["to"] == target["to"]), key=lambda a: a["coins"])
        votes = [a for a in by_type.get("vote", []) if a["side"] == prefer]
        n_pass = sum(1 for v in vote["votes"] if v["kind"] == "pass_power") + 1
        share = state["balance"] // n_pass
        greedy = temper["coins"] > 1.5 and share >= 1 and diff < 2  # the balance pays better
        # a small preference is still worth a token vote unless the balance pays better
        if votes and not greedy and (diff >= 1 or (diff >= 0.3 and share < 2)):
            # stake enough to lead if the difference is worth it, else a token amount
            need = max(1, totals[other] - totals[prefer] + 1)
            worth = int(diff / POWER_VALUE)
            stake = min(
                power,
                max(1, min(worth, need + (1 if _undecided_power(state, seat) else 0)))
                + int(temper["stake"]),
            )
            return min(votes, key=lambda a: abs(a["power"] - stake))
        passes = {a["for"]: a for a in by_type.get("pass", [])}
        if (
            "moderator" in passes
            and abs(totals["oui_da"] - totals["nenni"]) <= temper["moderator"]
            and (state["moderator"] != seat)
        ):
            return passes["moderator"]
        if "power" in passes and state["balance"] // n_pass >= 1:
            return passes["power"]
        if votes and diff > 0:
            return min(votes, key=lambda a: a["power"])
        if passes:
            return passes.get("power") or next(iter(passes.values()))
        return actions[0]
    # later turns: add power only when our side is behind and it is worth it
    if mine["kind"] in SIDES:
        side = mine["kind"]
        against = "nenni" if side == "oui_da" else "oui_da"
        gap = totals[against] - totals[side]
        side_value = values[side] - values[against]
        adds = by_type.get("add", [])
        if adds and gap >= 0 and side_value >= (gap + 1) * POWER_VALUE:
            want = gap + 1
            if want <= power:
                return min(adds, key=lambda a: abs(a["power"] - want))
    return by_type.get("stand", actions)[0]
