"""« Débuter une nouvelle aventure » and the start of each scenario: the box filled, the
characters' Decks d'Action, the scenario's hit points, tremor and flags, its opening cards,
and the buildings that act at the start of every scenario."""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import board as B
from . import cards as K
from . import characters as C
from . import citadel, taking
from . import effects as E
from . import records as rec

FORMAT_VERSION = 2  # 1 — first state format; 2 — every card in one place (cards.py)
MIN_COMPATIBLE = 2
MAX_TURNS = 1500  # an adventure that runs this long ends in exhaustion (a defeat)

log = B.log


def new_game(
    bundle: dict,
    characters: list[str],
    seed: int | str,
    names: dict[str, str] | None = None,
    recovery: str = "normal",
    scenario: str | None = None,
) -> dict:
    """A new adventure for 1 to 4 characters, from the introduction (or from ``scenario``)."""
    chars = rec.recs(bundle, "character")
    if not 1 <= len(characters) <= 4 or len(set(characters)) != len(characters):
        raise ValueError(f"1 to 4 different characters, got {characters}")
    unknown = [c for c in characters if c not in chars]
    if unknown:
        raise ValueError(f"unknown characters {unknown}; known: {sorted(chars)}")
    if recovery not in ("normal", "story", "survival"):
        raise ValueError(f"unknown recovery mode {recovery!r}")
    start = scenario or bundle["campaign"].get("intro")
    if start not in rec.recs(bundle, "scenario"):
        raise ValueError(f"unknown scenario {start!r}")
    state: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "game": "citadelle",
        "rng": Rng.seed_from(f"citadelle:{seed}"),
        "options": {"recovery": recovery},
        "players": len(characters),
        "characters": [],
        "scenario": None,
        "menace": None,
        "scenarios_played": [],
        **K.new_places(),
        "citadel": citadel.new_sheet(bundle),
        "flags": [],
        "objectives": [],
        "queue": [],
        "pending": None,
        "dialogue": None,
        "interrupt": [],
        "arrivals": [],
        "found": [],
        "read": [],
        "saved": False,
        "turns": 0,
        "scenario_turns": 0,
        "tremor_used": 0,
        "phase": "play",
        "result": None,
        "epilogues": [],
        "log": [],
    }
    for key in sorted(rec.recs(bundle, "adventure_card"), key=lambda k: (rec.number(bundle, k), k)):
        state["box"].setdefault(str(rec.number(bundle, key)), []).append(key)
    for key in sorted(rec.recs(bundle, "exploration_card"), key=int):
        zone = str(rec.exp(bundle, key)["zone"])
        state["explore_decks"].setdefault(zone, []).append(key)
    state["skill_box"] = sorted(rec.recs(bundle, "action_card"))
    for cid in characters:
        C.new_character(bundle, state, cid, (names or {}).get(cid))
    start_scenario(bundle, state, start)
    return state


def start_scenario(bundle: dict, state: dict, scenario_id: str) -> None:
    """Set a scenario up: what the last one left on the table and in the Past goes back to the
    box, the characters receive the scenario's hit points and shuffle their discard into their
    deck (hands, purses, blocked cards, quest items carry over), then its cards come out."""
    scen = rec.scenario(bundle, scenario_id)
    for spot in list(state["board"].values()):
        B.leave_quietly(bundle, state, K.adventure(spot["terrain"]), "box")
    for slot in list(state["slots"].values()):
        for field, kind in (("exploration", "exploration"), ("adventure", "adventure")):
            if slot.get(field):
                K.move(bundle, state, {"kind": kind, "key": slot[field]}, "box")
    state["slots"] = {}
    for name in ("globals", "resolving"):
        for key in list(state[name]):
            K.move(bundle, state, K.adventure(key), "box")
    for ref in list(state["past"]):
        K.move(bundle, state, ref, "box")
    rng = Rng(state)
    for zone in sorted(state["explore_decks"]):
        rng.shuffle(state["explore_decks"][zone])
    state.update(
        scenario=scenario_id,
        menace=scen.get("menace"),
        dice={},
        found=[],
        arrivals=[],
        interrupt=[],
        saved=False,
        objectives=[],
        scenario_turns=0,
        tremor_used=0,
        phase="play",
        dialogue=None,
        action=None,
        suspended=[],
        queue=[],
        pending=None,
    )
    state.pop("next_scenario", None)
    setup = scen.get("setup") or {}
    hp = (setup.get("hit_points") or {}).get(str(len(state["characters"])), 10)
    for ch in state["characters"]:
        ch["hp"] = hp
        ch["conscious"] = True
        ch["at"] = None
        for card in list(ch["discard"]):
            K.move(bundle, state, K.action_card(card), f"deck:{ch['id']}")
        rng.shuffle(ch["deck"])
    tremor = setup.get("tremor")
    if tremor is None:  # the introduction has no tremor; a Menace keeps the sheet's level
        tremor = state["citadel"]["tremor"] if scen.get("menace") else 0
    state["citadel"]["tremor"] = tremor
    for flag in setup.get("flags") or ():
        if flag not in state["flags"]:
            state["flags"].append(flag)
    log(
        state,
        "scenario.start",
        title=scen["title"],
        text=scen.get("text", ""),
        id=scenario_id,
        hp=hp,
        tremor=tremor,
    )
    ctx = {"character": 0, "verb": None, "this": None, "participants": [0]}
    effects: list[dict] = []
    for bid, ticks in state["citadel"]["buildings"].items():
        building = rec.recs(bundle, "building").get(bid, {})
        if ticks >= building.get("boxes", 99):
            effects.extend(building.get("on_scenario_start") or [])
    for i, number in enumerate(str(n) for n in setup.get("start") or []):
        taking.take(bundle, state, number, ctx, start_terrain=(i == 0))
    E.push(state, effects, ctx)
    E.pump(bundle, state)


def resume_cards(bundle: dict, scenario_id: str) -> list[str]:
    """The numbers the booklet puts back in play when a saved game of this scenario resumes."""
    setup = rec.scenario(bundle, scenario_id).get("setup") or {}
    return [str(n) for n in setup.get("resume") or []]
