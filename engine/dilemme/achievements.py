"""House achievements (« Hauts faits, Maison », « Hauts faits, narratifs », « Hauts faits,
vérifier »): boxes ticked, achievements unlocked or closed, and the end-of-game tests."""

from __future__ import annotations

from . import abilities
from . import rules as R
from .common import _log, _rec, _seat_of


def _unlock_narrative(bundle: dict, state: dict, ref: str) -> None:
    house, _, ach_id = ref.partition("/")
    camp = state["campaign"]
    if house not in camp["houses"]:
        return
    hrec = _rec(bundle, "house", house) or {}
    ach = next((a for a in hrec.get("achievements") or () if a["id"] == ach_id), None)
    if ach is None:
        return
    # a mutually exclusive achievement already unlocked closes this one
    for other in ach.get("exclusive_with") or ():
        oh, _, oid = other.partition("/")
        if oid in camp["houses"].get(oh, {}).get("unlocked", []):
            _log(
                state,
                "achievement.closed",
                house=hrec.get("name", house),
                achievement=ach.get("condition", ach_id),
            )
            return
    _tick(bundle, state, house, ach, boxes=ach.get("boxes", 1))


def _tick(bundle: dict, state: dict, house: str, ach: dict, boxes: int = 1) -> None:
    h = state["campaign"]["houses"][house]
    if ach["id"] in h["unlocked"]:
        return
    h["ticks"][ach["id"]] = min(ach.get("boxes", 1), h["ticks"].get(ach["id"], 0) + boxes)
    name = (_rec(bundle, "house", house) or {}).get("name", house)
    if h["ticks"][ach["id"]] >= ach.get("boxes", 1):
        h["unlocked"].append(ach["id"])
        _log(state, "achievement.unlocked", house=name, achievement=ach.get("condition", ach["id"]))
        ability = ach.get("ability") or {}
        if ability.get("trigger") == "immediate":
            gains = ability.get("gains") or {}
            seat = _seat_of(state, house)
            if seat is not None:
                abilities._apply_gains(state, seat, gains, "achievement")
            else:
                h["prestige"] += gains.get("prestige", 0)
                h["craving"] += gains.get("craving", 0)
    else:
        _log(state, "achievement.ticked", house=name, achievement=ach.get("condition", ach["id"]))


def _achievement_holds(state: dict, seat: int, test: dict, rank: int, ending: str) -> bool:
    s = state["seats"][seat]
    pos = {r: m["pos"] for r, m in state["resources"].items()}
    for res, need in (test.get("resource_min") or {}).items():
        if pos[res] < need:
            return False
    for res, most in (test.get("resource_max") or {}).items():
        if pos[res] > most:
            return False
    if "resource_top" in test and R.dense_ranks(pos)[test["resource_top"]] != 1:
        return False
    if "resource_bottom" in test and R.dense_ranks(pos, False)[test["resource_bottom"]] != 1:
        return False
    if "stability" in test:
        centre = state.get("stability_track", 14) // 2
        st = state["stability"]
        want = test["stability"]
        if (
            (want == "top_half" and st <= centre)
            or (want == "bottom_half" and st >= centre)
            or (want == "centre" and st != centre)
        ):
            return False
    if s["coins"] < test.get("coins_min", 0) or s["power"] < test.get("power_min", 0):
        return False
    if s["public_points"] < test.get("public_points_min", -99):
        return False
    if rank > test.get("rank_max", 99):
        return False
    if "king" in test and (test["king"] == "died") != (ending == "died"):
        return False
    return s["signed"] >= test.get("signed_min", 0)
