"""Setting up a game (« Mise en place », « Effets de succession à la mise en place »): the
tracks, Pouvoir and coins, succession from the chronicle, public objective tokens (and which to
keep when there are too many), leader and moderator by prestige, the secret objective draft."""

from __future__ import annotations

from typing import Any

from ..core import Rng, copy_state
from . import abilities, events, voting
from . import rules as R
from .common import FORMAT_VERSION, _log, _prestige_order, _rec, _rules


def new_game(
    bundle: dict,
    campaign: dict,
    seats: list[dict[str, Any]],
    seed: int | str,
) -> dict:
    """Set up a game: ``seats`` in clockwise order, each ``{"house": id, "name": str,
    "bot": bool}``; 3 to 5 houses of the campaign."""
    if not 3 <= len(seats) <= 5:
        raise ValueError(f"a game needs 3 to 5 houses, got {len(seats)}")
    houses = [s["house"] for s in seats]
    unknown = [h for h in houses if h not in campaign["houses"]]
    if unknown or len(set(houses)) != len(houses):
        raise ValueError(f"unknown or repeated houses: {houses}")
    if campaign.get("finished"):
        raise ValueError("this campaign is over: the grand final has been played")
    rules = _rules(bundle)
    campaign = copy_state(campaign)
    campaign["game_no"] += 1
    state: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "game": "dilemme",
        "rng": Rng.seed_from(f"{seed}:{campaign['game_no']}"),
        "campaign": campaign,
        "seats": [
            {
                "house": s["house"],
                "name": s.get("name")
                or (_rec(bundle, "house", s["house"]) or {}).get("name", s["house"]),
                "bot": bool(s.get("bot")),
                "persona": s.get("persona") if s.get("bot") else None,
                "power": rules["house_power"],
                "coins": rules["house_coins"],
                "objective": None,
                "public": [],
                "signed": 0,
                "public_points": 0,
            }
            for s in seats
        ],
        "resources": {},
        "stability": rules["stability_track"] // 2,
        "stability_track": rules["stability_track"],
        "abdicated": False,
        "king_dead": False,
        "balance": rules["balance_power"],
        "deck": list(campaign["deck"]),
        "timeline": [],
        "skull_cards": 0,
        "events": list(campaign["events"]),
        "kept_immediates": [],
        "leader": 0,
        "moderator": 0,
        "round": 0,
        "phase": "setup",
        "pending": None,
        "vote": None,
        "draft": None,
        "final_pending": False,
        "log": [],
        "result": None,
    }
    rng = Rng(state)
    centre = rules["resource_track"] // 2
    for res in R.RESOURCES:
        state["resources"][res] = {"pos": centre, "dir": 1 if rng.coin() else -1, "marker": False}
    _log(state, "game.start", game=campaign["game_no"], houses=[s["name"] for s in state["seats"]])

    # succession: chronicle ageing, resources, power, public objectives
    boxes = {
        k: v.get("boxes", 3) for k, v in bundle["records"].get("chronicle_sticker", {}).items()
    }
    if any(slot for line in campaign["chronicle"].values() for slot in line):
        R.age_chronicle(campaign["chronicle"], boxes)
        for res, delta in R.succession_resource_moves(campaign["chronicle"]).items():
            marker = state["resources"][res]
            marker["pos"] = min(rules["resource_track"], max(0, marker["pos"] + delta))
            if delta:
                _log(state, "succession.resource", resource=res, delta=delta)
        for house, delta in R.succession_power(campaign["chronicle"], houses).items():
            seat = state["seats"][houses.index(house)]
            seat["power"] = max(0, seat["power"] + delta)
            if delta:
                _log(state, "succession.power", house=seat["name"], delta=delta)
        tokens = R.public_objective_tokens(campaign["chronicle"], houses)
        for house, toks in tokens.items():
            state["seats"][houses.index(house)]["public"] = toks

    # abilities of unlocked achievements and of the story cards on top of their arcs
    for i in range(len(state["seats"])):
        for ability in abilities._active_abilities(bundle, state, i):
            if ability.get("trigger") == "game_start":
                abilities._apply_gains(state, i, ability.get("gains") or {}, "ability")

    # leader and moderator by prestige
    order = _prestige_order(campaign, bundle, houses)
    state["leader"] = houses.index(order[0])
    state["moderator"] = houses.index(order[-1])
    events._event_rules(bundle, state, "game_start", None)
    _log(
        state,
        "setup.tokens",
        leader=state["seats"][state["leader"]]["name"],
        moderator=state["seats"][state["moderator"]]["name"],
    )

    # secret objectives: one removed at random, then drafted from the lowest prestige up
    pool = sorted(bundle["records"].get("secret_objective", {}))
    rng.shuffle(pool)
    pool.pop()
    state["draft"] = {"pool": pool, "order": [houses.index(h) for h in reversed(order)], "index": 0}
    rng.shuffle(state["deck"])
    # too many public tokens: the player keeps two of each polarity
    for i, seat in enumerate(state["seats"]):
        if _token_excess(seat):
            state.setdefault("token_choices", []).append(i)
    _next_setup_step(state)
    return state


def _token_excess(seat: dict) -> bool:
    pos = sum(1 for t in seat["public"] if t[1] == "positive")
    neg = len(seat["public"]) - pos
    return pos > 2 or neg > 2


def _token_options(seat: dict) -> list[list[list[str]]]:
    pos = [t for t in seat["public"] if t[1] == "positive"]
    neg = [t for t in seat["public"] if t[1] == "negative"]

    def pairs(items: list) -> list[list]:
        if len(items) <= 2:
            return [items]
        return [[items[i], items[j]] for i in range(len(items)) for j in range(i + 1, len(items))]

    return [a + b for a in pairs(pos) for b in pairs(neg)]


def _next_setup_step(state: dict) -> None:
    if state.get("token_choices"):
        state["phase"] = "tokens"
        state["pending"] = {"type": "keep_tokens", "seat": state["token_choices"][0]}
        return
    draft = state["draft"]
    if draft is not None and draft["index"] < len(draft["order"]):
        state["phase"] = "draft"
        state["pending"] = {"type": "draft", "seat": draft["order"][draft["index"]]}
        return
    state["draft"] = None
    state["phase"] = "round"
    state["pending"] = None


def _setup_choice(bundle: dict, state: dict, action: dict) -> None:
    """A secret objective drafted, or the public objective tokens kept."""
    s = state["seats"][action["seat"]]
    if action["type"] == "draft":
        s["objective"] = action["objective"]
        state["draft"]["pool"].remove(action["objective"])
        state["draft"]["index"] += 1
        _log(state, "draft.done", house=s["name"])
    else:
        s["public"] = action["tokens"]
        state["token_choices"].pop(0)
    _next_setup_step(state)
    if state["phase"] == "round":
        voting._start_round(bundle, state)
