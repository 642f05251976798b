"""Special abilities (« Hauts faits de Maison », « Capacités spéciales, cartes Histoire »):
where a house's abilities come from, the at-will ones it may use now, the triggered ones, and
gains of coins, Pouvoir, Prestige and Convoitise."""

from __future__ import annotations

from ..core import copy_game
from .common import SHARED, _card, _log, _rec


def _ability_sources(bundle: dict, state: dict, seat: int) -> list[tuple[str, dict]]:
    """``(key, ability)`` for the abilities this seat's house benefits from: its unlocked
    achievements (``house/achievement``), and the story cards it signed that lie on top of
    their arc (``story:card#n``) — a covered story card's ability is off."""
    house = state["seats"][seat]["house"]
    camp = state["campaign"]
    out = []
    hrec = _rec(bundle, "house", house) or {}
    unlocked = set(camp["houses"][house]["unlocked"])
    for ach in hrec.get("achievements") or ():
        if ach["id"] in unlocked and ach.get("ability"):
            out.append((f"{house}/{ach['id']}", ach["ability"]))
    for pile in camp["arcs"].values():
        if pile and pile[-1].get("signer") == house:
            _, card = _card(bundle, pile[-1]["card"])
            for n, ability in enumerate(card.get("abilities") or ()):
                out.append((f"story:{pile[-1]['card']}#{n}", ability))
    return out


def _active_abilities(bundle: dict, state: dict, seat: int) -> list[dict]:
    return [ability for _, ability in _ability_sources(bundle, state, seat)]


def _usable(bundle: dict, state: dict, seat: int) -> list[dict]:
    """``use_ability`` actions: at-will abilities with uses left whose cost the seat can pay."""
    s = state["seats"][seat]
    camp = state["campaign"]
    out = []
    for key, ability in _ability_sources(bundle, state, seat):
        if ability.get("trigger") != "at_will":
            continue
        # read, never ``setdefault``: listing the actions must not write into the state
        if "uses" in ability and (camp.get("ability_uses") or {}).get(key, 0) >= ability["uses"]:
            continue
        if (
            "per_game" in ability
            and (state.get("ability_uses") or {}).get(key, 0) >= ability["per_game"]
        ):
            continue
        gains = ability.get("gains") or {}
        if s["coins"] + gains.get("coins", 0) < 0 or s["power"] + gains.get("power", 0) < 0:
            continue
        out.append({"type": "use_ability", "seat": seat, "source": key})
    return out


def _apply_gains(state: dict, seat: int, gains: dict, why: str) -> None:
    """Coins and power from the general reserve (or back to it), prestige and craving on the
    house's screen; nothing goes below 0.  The log tells what really changed."""
    s = state["seats"][seat]
    house = state["campaign"]["houses"][s["house"]]
    done = {}
    for key in ("coins", "power", "prestige", "craving"):
        holder = s if key in ("coins", "power") else house
        if gains.get(key):
            after = max(0, holder[key] + gains[key])
            if after != holder[key]:
                done[key] = after - holder[key]
            holder[key] = after
    if done:
        _log(state, "gain", house=s["name"], why=why, **done)


def _trigger(bundle: dict, state: dict, seat: int, event: str, power: int = 0) -> None:
    uses = state["campaign"].setdefault("ability_uses", {})
    for key, ability in _ability_sources(bundle, state, seat):
        if ability.get("trigger") == "condition" and ability.get("when") == event:
            if power < ability.get("power_min", 0):
                continue
            if "uses" in ability:  # check boxes: once all ticked, the ability is spent
                if uses.get(key, 0) >= ability["uses"]:
                    continue
                uses[key] = uses.get(key, 0) + 1
            _apply_gains(state, seat, ability.get("gains") or {}, "ability")


def _use_ability(bundle: dict, state: dict, action: dict) -> dict:
    state = copy_game(state, SHARED)
    seat, key = action["seat"], action["source"]
    ability = dict(_ability_sources(bundle, state, seat))[key]
    camp_uses = state["campaign"].setdefault("ability_uses", {})
    game_uses = state.setdefault("ability_uses", {})
    camp_uses[key] = camp_uses.get(key, 0) + 1
    game_uses[key] = game_uses.get(key, 0) + 1
    _log(state, "ability.used", house=state["seats"][seat]["name"], text=ability.get("text", ""))
    _apply_gains(state, seat, ability.get("gains") or {}, "ability")
    return state
