"""« Progression des joueurs et feuillet Citadelle » and the end of a scenario: community
scores (0 to 25), buildings, the Destiny page and its « L'espoir renaît ! » cards, side quests,
objectives and flags; the return to the Citadel, the epilogue, the time between scenarios, and
the end of the adventure."""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import board as B
from . import cards as K
from . import effects as E
from . import records as rec
from . import rules as R
from .steps import effect, step

log = B.log


def new_sheet(bundle: dict) -> dict[str, Any]:
    sheet: dict[str, Any] = next(iter(rec.recs(bundle, "citadel").values()), {"scores": {}})
    return {
        "scores": {
            k: sheet.get("scores", {}).get(k, 0)
            for k in ("influence", "knowledge", "production", "defense")
        },
        "tremor": sheet.get("tremor", 0),
        "buildings": {},
        "hope": 0,
        "destiny": [],
        "side_quests": {},
    }


def sheet_effect(bundle: dict, state: dict, name: str, value: Any, c: int) -> None:
    """An effect on the Citadel sheet, the scenario's objectives or the group's flags."""
    cit = state["citadel"]
    if name == "score":
        for k, v in value.items():
            before = cit["scores"][k]
            cit["scores"][k] = R.clamp_score(before + v)
            log(
                state,
                "score",
                score=k,
                delta=cit["scores"][k] - before,
                asked=v,
                value=cit["scores"][k],
            )
    elif name == "flag":
        if value not in state["flags"]:
            state["flags"].append(value)
    elif name == "unflag":
        if value in state["flags"]:
            state["flags"].remove(value)
    elif name == "quest":
        quests = cit["side_quests"]
        if quests.get(value["id"]) != "done" and quests.get(value["id"]) != value["state"]:
            quests[value["id"]] = value["state"]
            title = rec.recs(bundle, "side_quest").get(value["id"], {}).get("title", "")
            log(state, "quest", title=title, state=value["state"], id=value["id"])
    elif name == "objective":
        if value not in state["objectives"]:
            state["objectives"].append(value)
            log(state, "objective", id=value, text=objective_text(bundle, value))
    elif name == "hope":
        cit["hope"] += value
        log(state, "hope", amount=value, total=cit["hope"])
    elif name == "build":
        build(bundle, state, value)
    elif name == "add_skill":
        add_skill(bundle, state, value, c)


def objective_text(bundle: dict, oid: str) -> str:
    for scen in rec.recs(bundle, "scenario").values():
        for o in scen.get("objectives") or []:
            if o["id"] == oid:
                return o["text"]
    return ""


def build(bundle: dict, state: dict, bid: str) -> None:
    """Tick one box of a building; ticking its last box builds it."""
    building = rec.recs(bundle, "building").get(bid)
    if building is None:
        return
    ticks = state["citadel"]["buildings"]
    if ticks.get(bid, 0) >= building["boxes"]:
        return
    ticks[bid] = ticks.get(bid, 0) + 1
    done = ticks[bid] >= building["boxes"]
    log(
        state,
        "building.built" if done else "building.ticked",
        title=building["title"],
        ticks=ticks[bid],
        boxes=building["boxes"],
    )


def add_skill(bundle: dict, state: dict, skill: str, c: int) -> None:
    """An advanced or reflex skill comes out of the box into a character's Deck d'Action (a
    skill someone already holds stays where it is)."""
    chars = state["characters"]
    if not chars:
        return
    ch = chars[c if c < len(chars) else 0]
    if K.where(bundle, state, K.action_card(skill)) != "box":
        log(state, "skill.unavailable", title=rec.skill(bundle, skill).get("title", ""))
        return
    K.move(bundle, state, K.action_card(skill), f"deck:{ch['id']}")
    Rng(state).shuffle(ch["deck"])
    log(state, "skill.added", name=ch["name"], title=rec.skill(bundle, skill).get("title", ""))


# --------------------------------------------------------------------------- end of scenario


def end_scenario(bundle: dict, state: dict) -> None:
    """Back at the Citadel: the first epilogue branch, in the booklet's order, whose conditions
    hold is read and applied; then the Citadel (or the end of the adventure)."""
    scen = rec.scenario(bundle, state["scenario"])
    branch = next(
        (
            b
            for b in scen.get("epilogue") or []
            if not b.get("requires") or E.holds(bundle, state, b["requires"])
        ),
        None,
    )
    if state.get("action") is not None:
        _abandon_action(bundle, state)
    state["scenarios_played"].append(state["scenario"])
    log(state, "scenario.end", title=scen["title"])
    if branch is None:
        finish(bundle, state, "defeat", "no_epilogue")
        return
    state["epilogues"].append({"scenario": state["scenario"], "branch": branch["id"]})
    log(state, "epilogue", text=branch["text"], title=scen["title"])
    E.apply_now(
        bundle, state, branch.get("effects") or [], {"character": 0, "verb": None, "this": None}
    )
    if state["phase"] == "over":  # its effects ended the adventure (« adventure_ends »)
        return
    if branch.get("end"):
        finish(bundle, state, branch["end"], "epilogue")
        return
    state["next_scenario"] = branch.get("next")
    state["phase"] = "citadel"
    state["dialogue"] = None
    state["queue"] = []
    state["interrupt"] = []
    for ch in state["characters"]:
        if not ch["conscious"]:
            log(state, "conscious", name=ch["name"], id=ch["id"])
        ch["conscious"] = True
        ch["at"] = None
    state["pending"] = {"type": "citadel"}


def _abandon_action(bundle: dict, state: dict) -> None:
    """The scenario ends in the middle of an action (a card sends everyone home): its revealed
    cards go to the discard."""
    while state.get("action") is not None:
        action = state["action"]
        ch = state["characters"][action["character"]]
        for card in list(action["drawn"]):
            K.move(bundle, state, K.action_card(card), f"discard:{ch['id']}")
        state["action"] = state["suspended"].pop() if state["suspended"] else None


def finish(bundle: dict, state: dict, result: str, why: str) -> None:
    """The adventure is over: a victory against the Menace, or a defeat."""
    state["phase"] = "over"
    state["pending"] = None
    state["queue"] = []
    state["result"] = {"result": result, "why": why, "scenarios": list(state["scenarios_played"])}
    log(state, "adventure.over", result=result, why=why)


step("finish")(finish)


# --------------------------------------------------------------------------- the Citadel


def start_hp(bundle: dict, state: dict) -> int | None:
    """The hit points each character will receive at the next scenario (``None``: none)."""
    nxt = state.get("next_scenario")
    if not nxt:
        return None
    table = (rec.scenario(bundle, nxt).get("setup") or {}).get("hit_points") or {}
    return table.get(str(len(state["characters"])), 10)


def destiny_options(bundle: dict, state: dict) -> list[str]:
    hope = state["citadel"]["hope"]
    return [
        d
        for d, e in rec.recs(bundle, "destiny").items()
        if d not in state["citadel"]["destiny"] and e["cost"] <= hope
    ]


def buy_destiny(bundle: dict, state: dict, entry: str, c: int) -> None:
    record = rec.recs(bundle, "destiny")[entry]
    state["citadel"]["hope"] -= record["cost"]
    state["citadel"]["destiny"].append(entry)
    log(
        state,
        "destiny",
        title=record["title"],
        name=state["characters"][c]["name"],
        cost=record["cost"],
        left=state["citadel"]["hope"],
    )
    E.apply_now(
        bundle, state, record.get("effects") or [], {"character": c, "verb": None, "this": None}
    )


# --------------------------------------------------------------------------- the sheet's effects


def _sheet(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    sheet_effect(bundle, state, name, value, c)


effect("score", "flag", "unflag", "quest", "objective", "hope", "build", "add_skill")(_sheet)


def _return(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    state["queue"] = []
    end_scenario(bundle, state)


effect("return_to_citadel")(_return)


def _adventure_ends(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    state["queue"] = []
    finish(bundle, state, "defeat", "adventure_ends")


effect("adventure_ends")(_adventure_ends)
