"""The 7th Citadel as a pure state machine.

    state = new_game(bundle, characters=["A", "B"], seed="s")   # the introduction scenario
    legal_actions(bundle, state) -> [action, ...]
    state = apply(bundle, state, action)                        # a new state; input untouched
    view(bundle, state) -> what the players see (deck orders and face-down cards hidden)

Effects run through a continuation queue: a list of effects is applied one by one, and an
effect that needs the players (a dialogue, a mandatory action, cards to keep) pauses the
queue until they have answered.  Decisions where the rulebook is silent are in ``RULINGS``.
"""

from __future__ import annotations

from typing import Any

from ..core import IllegalAction, MalformedAction, Rng, copy_game, copy_state
from ..core.derived import derived
from . import rules as R

FORMAT_VERSION = 1  # 1 — first state format
MIN_COMPATIBLE = 1
#: append-only parts of the state, shared between successive states (see core.copy_game)
SHARED = {"log": True}

DEFAULT_RULES = {"table_columns": 7, "table_rows": 5, "move_cost": 1}
MAX_HP = 99
MAX_TURNS = 1500  # an adventure that runs this long ends in exhaustion (a defeat)
EXTRA_DRAW_MAX = 6

RULINGS = (
    "move: the move action of the character card costs rules.move_cost cards (1), difficulty 0.",
    "mid-draw recovery: when the deck runs out during a draw, the fewest series needed are "
    "recovered automatically (the player may recover more at any time beforehand).",
    "scenario start: discards are shuffled back into decks; hands, purses, blocked cards, quest "
    "items, flags and the Citadel sheet carry over; the board and the Past are cleared.",
    "epilogue: the first branch, in the booklet's order, whose conditions hold is read.",
    "out of space: everyone regroups on the active character's terrain, the other terrains are "
    "put back, and the table is centred on it again.",
    "damage is cancelled automatically by the cancellations the action's cards give.",
    "successes are counted at their best for the player (cards and conversions chosen optimally).",
)


# =========================================================================== lookups


def _rules(bundle: dict) -> dict[str, int]:
    return {**DEFAULT_RULES, **(bundle["campaign"].get("rules") or {})}


def _recs(bundle: dict, kind: str) -> dict[str, dict]:
    return bundle["records"].get(kind, {})


def _adv(bundle: dict, key: str) -> dict:
    return _recs(bundle, "adventure_card")[key]


def _by_number(bundle: dict) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for key, rec in _recs(bundle, "adventure_card").items():
        index.setdefault(str(rec["number"]), []).append(key)
    return index


def _versions(bundle: dict, number: str) -> list[str]:
    return derived(bundle, "versions_by_number", _by_number).get(str(number), [])


def _card_record(bundle: dict, ref: dict) -> dict:
    kind, key = ref["kind"], ref["key"]
    if kind == "adventure":
        return _adv(bundle, key)
    if kind == "exploration":
        return _recs(bundle, "exploration_card")[key]
    if kind == "action_card":
        return _recs(bundle, "action_card")[key]
    if kind == "paragraph":
        return _recs(bundle, "paragraph")[key]
    return {}


def _name(bundle: dict, ref: dict) -> str:
    rec = _card_record(bundle, ref)
    if ref["kind"] == "adventure":
        return rec.get("title") or f"carte {rec['number']}"
    if ref["kind"] == "paragraph":
        return f"§{ref['key']}"
    return rec.get("title") or str(ref["key"])


def _log(state: dict, key: str, /, **args: Any) -> None:
    state["log"].append({"key": key, "args": args})


# =========================================================================== setup


def new_game(
    bundle: dict,
    characters: list[str],
    seed: int | str,
    names: dict[str, str] | None = None,
    recovery: str = "normal",
) -> dict:
    """Start the adventure with the introduction scenario for 1 to 4 characters."""
    chars = _recs(bundle, "character")
    if not 1 <= len(characters) <= 4 or len(set(characters)) != len(characters):
        raise ValueError(f"1 to 4 different characters, got {characters}")
    unknown = [c for c in characters if c not in chars]
    if unknown:
        raise ValueError(f"unknown characters {unknown}; known: {sorted(chars)}")
    sheet = next(iter(_recs(bundle, "citadel").values()), {"scores": {}})
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
        "box": {},
        "explore_decks": {},
        "past": [],
        "banished": [],
        "board": {},
        "slots": {},
        "globals": [],
        "quest_items": [],
        "world_map": [],
        "citadel": {
            "scores": {
                k: sheet.get("scores", {}).get(k, 0)
                for k in ("influence", "knowledge", "production", "defense")
            },
            "tremor": sheet.get("tremor", 0),
            "buildings": {},
            "hope": 0,
            "destiny": [],
            "side_quests": {},
        },
        "flags": [],
        "objectives": [],
        "dice": {},
        "resolving": [],
        "queue": [],
        "pending": None,
        "action": None,
        "dialogue": None,
        "saved": False,
        "turns": 0,
        "phase": "play",
        "result": None,
        "epilogues": [],
        "log": [],
    }
    rng = Rng(state)
    for cid in characters:
        rec = chars[cid]
        deck = list(rec.get("starting_skills") or [])
        rng.shuffle(deck)
        state["characters"].append({
            "id": cid,
            "name": (names or {}).get(cid) or rec["name"],
            "hp": 0,
            "conscious": True,
            "at": None,
            "deck": deck,
            "discard": [],
            "hand": [],
            "blocked": [],
            "purse": [],
        })  # fmt: skip
    intro = bundle["campaign"].get("intro")
    _start_scenario(bundle, state, intro)
    return state


def _reset_box(bundle: dict, state: dict) -> None:
    state["box"] = {}
    for key, rec in _recs(bundle, "adventure_card").items():
        state["box"].setdefault(str(rec["number"]), []).append(key)
    held = set(state["quest_items"]) | set(state["world_map"])
    held |= {k for c in state["characters"] for k in c["purse"]}
    held |= {k for c in state["characters"] for k in c["blocked"]}
    for keys in state["box"].values():
        for k in list(keys):
            if k in held:
                keys.remove(k)
    rng = Rng(state)
    state["explore_decks"] = {}
    for key in sorted(_recs(bundle, "exploration_card"), key=lambda k: int(k)):
        zone = str(_recs(bundle, "exploration_card")[key]["zone"])
        state["explore_decks"].setdefault(zone, []).append(key)
    for deck in state["explore_decks"].values():
        rng.shuffle(deck)


def _start_scenario(bundle: dict, state: dict, scenario_id: str) -> None:
    scen = _recs(bundle, "scenario")[scenario_id]
    state["scenario"] = scenario_id
    state["menace"] = scen.get("menace")
    state["board"], state["slots"], state["globals"] = {}, {}, []
    state["past"], state["banished"], state["dice"], state["resolving"] = [], [], {}, []
    state["saved"] = False
    state["objectives"] = []
    state["scenario_turns"] = 0
    state["phase"] = "play"
    _reset_box(bundle, state)
    setup = scen.get("setup") or {}
    hp = (setup.get("hit_points") or {}).get(str(state["players"]), 10)
    rng = Rng(state)
    for c in state["characters"]:
        c["hp"] = hp
        c["conscious"] = True
        c["deck"].extend(c["discard"])
        c["discard"] = []
        rng.shuffle(c["deck"])
    if setup.get("tremor") is not None:
        state["citadel"]["tremor"] = setup["tremor"]
    for flag in setup.get("flags") or ():
        if flag not in state["flags"]:
            state["flags"].append(flag)
    _log(state, "scenario.start", title=scen["title"], text=scen.get("text", ""), id=scenario_id)
    ctx = {"character": 0, "source": None, "verb": None}
    effects: list[dict] = []
    for bid, ticks in state["citadel"]["buildings"].items():
        building = _recs(bundle, "building").get(bid, {})
        if ticks >= building.get("boxes", 99):
            effects.extend(building.get("on_scenario_start") or [])
    start = [str(n) for n in setup.get("start") or []]
    state["queue"] = []
    for i, number in enumerate(start):
        _take(bundle, state, number, ctx, start_terrain=(i == 0))
    if effects:
        state["queue"].append({"effects": effects, "ctx": ctx})
    _run(bundle, state)


# =========================================================================== board


def _terrain_at(state: dict, c: int) -> str | None:
    return state["characters"][c]["at"]


def _in_bounds(bundle: dict, key: str) -> bool:
    rules = _rules(bundle)
    x, y = R.coords(key)
    half_w, half_h = rules["table_columns"] // 2, rules["table_rows"] // 2
    return -half_w <= x <= half_w and -half_h <= y <= half_h


def _free(state: dict, key: str) -> bool:
    return key not in state["board"] and key not in state["slots"]


def _place_terrain(bundle: dict, state: dict, key: str, at: str) -> None:
    if not _in_bounds(bundle, at):
        at = _out_of_space(bundle, state, at)
    state["board"][at] = {"terrain": key, "events": []}
    _log(state, "terrain.placed", title=_name(bundle, {"kind": "adventure", "key": key}))
    for arrow in _adv(bundle, key).get("arrows") or ():
        target = R.neighbour(at, arrow["direction"])
        if not _free(state, target) or not _in_bounds(bundle, target):
            continue
        if arrow.get("zone") is not None:
            exp = _draw_exploration(bundle, state, str(arrow["zone"]))
            state["slots"][target] = {
                "exploration": exp, "revealed": False, "from": at, "card": arrow.get("card"),
            }  # fmt: skip
        elif arrow.get("card") is not None:
            state["slots"][target] = {"exploration": None, "revealed": True, "from": at,
                                      "card": arrow["card"]}  # fmt: skip
            _free_slot(bundle, state, target)


def _out_of_space(bundle: dict, state: dict, wanted: str) -> str:
    """The table is full: regroup on the active character's terrain, put the other terrains
    back and centre the table on it.  Returns where the new card goes now."""
    active = (state.get("action") or {}).get("character", 0)
    here = state["characters"][active]["at"] or next(iter(state["board"]), R.cell(0, 0))
    _log(state, "table.full")
    keep = state["board"].get(here)
    dx, dy = R.coords(here)
    wx, wy = R.coords(wanted)
    for key, spot in list(state["board"].items()):
        if key != here:
            _put_back(bundle, state, {"kind": "adventure", "key": spot["terrain"]})
            for ev in spot["events"]:
                _put_back(bundle, state, {"kind": "adventure", "key": ev["key"]})
    for slot in state["slots"].values():
        if slot.get("exploration"):
            _put_back(bundle, state, {"kind": "exploration", "key": slot["exploration"]})
        if slot.get("adventure"):
            _put_back(bundle, state, {"kind": "adventure", "key": slot["adventure"]})
    state["board"] = {}
    state["slots"] = {}
    for c in state["characters"]:
        if c["conscious"]:
            c["at"] = R.cell(0, 0)
    if keep:  # the kept terrain, re-centred, deals exploration cards on its free arrows again
        events = keep["events"]
        _place_terrain(bundle, state, keep["terrain"], R.cell(0, 0))
        state["board"][R.cell(0, 0)]["events"] = events
    return R.cell(wx - dx, wy - dy)


def _draw_exploration(bundle: dict, state: dict, zone: str) -> str | None:
    deck = state["explore_decks"].get(zone, [])
    if not deck:
        _restore_past(bundle, state)
        deck = state["explore_decks"].get(zone, [])
    return deck.pop() if deck else None


def _restore_past(bundle: dict, state: dict) -> None:
    """Put every card of the Past back where it came from."""
    if not state["past"]:
        return
    _log(state, "past.restored", count=len(state["past"]))
    rng = Rng(state)
    for ref in state["past"]:
        if ref["kind"] == "adventure":
            number = str(_adv(bundle, ref["key"])["number"])
            state["box"].setdefault(number, []).append(ref["key"])
        elif ref["kind"] == "exploration":
            zone = str(_recs(bundle, "exploration_card")[ref["key"]]["zone"])
            state["explore_decks"].setdefault(zone, []).append(ref["key"])
    state["past"] = []
    for deck in state["explore_decks"].values():
        rng.shuffle(deck)


def _free_slot(bundle: dict, state: dict, at: str) -> None:
    """An exploration place is free: the arrow's numbered card takes it."""
    slot = state["slots"].pop(at, None)
    if slot is None or slot.get("card") is None:
        return
    ctx = {
        "character": (state.get("action") or {}).get("character", 0),
        "source": None,
        "verb": None,
    }
    _take(bundle, state, str(slot["card"]), ctx, at=at, origin=slot.get("from"))


# =========================================================================== taking cards


def _held_numbers(bundle: dict, state: dict) -> set[str]:
    keys = set(state["quest_items"]) | {k for c in state["characters"] for k in c["purse"]}
    return {str(_adv(bundle, k)["number"]) for k in keys}


def _take(
    bundle: dict,
    state: dict,
    number: str,
    ctx: dict,
    if_available: bool = False,
    at: str | None = None,
    start_terrain: bool = False,
    hidden_from: str | None = None,
    origin: str | None = None,
) -> bool:
    available = state["box"].get(number, [])
    versions = [{**_adv(bundle, k), "key": k} for k in available]
    chosen = R.pick_version(versions, state["scenario"], _held_numbers(bundle, state))
    if chosen is None:
        if if_available:
            _log(state, "card.unavailable", number=number)
            return False
        _restore_past(bundle, state)
        available = state["box"].get(number, [])
        versions = [{**_adv(bundle, k), "key": k} for k in available]
        chosen = R.pick_version(versions, state["scenario"], _held_numbers(bundle, state))
        if chosen is None:
            _log(state, "card.unavailable", number=number)
            return False
    key = chosen["key"]
    rec = _adv(bundle, key)
    if hidden_from is not None and str(rec.get("back_source")) != hidden_from:
        _log(state, "hidden.wrong", number=number)
        return False
    available.remove(key)
    ref = {"kind": "adventure", "key": key}
    if rec.get("back"):
        _log(state, "card.back", number=rec["number"], text=rec["back"])
    _log(
        state,
        "card.taken",
        number=rec["number"],
        title=_name(bundle, ref),
        type=rec["type"],
        key=key,
    )
    c = ctx.get("character", 0)
    kind = rec["type"]
    frame_ctx = {**ctx, "this": {**ref, "where": None}}
    if rec.get("hope"):  # an « L'espoir renaît ! » card: one more to spend on the Destiny page
        state["citadel"]["hope"] += 1
        _log(state, "hope", amount=1, total=state["citadel"]["hope"])
    if kind == "terrain":
        if start_terrain or not state["board"]:
            spot = R.cell(0, 0)
        elif at is not None:
            spot = at
        else:
            spot = _adjacent_free(bundle, state, state["characters"][c]["at"] or R.cell(0, 0))
        _place_terrain(bundle, state, key, spot)
        if start_terrain:
            for ch in state["characters"]:
                ch["at"] = spot
            state.setdefault("arrivals", []).append(spot)
        frame_ctx["this"]["where"] = f"terrain:{spot}"
    elif kind == "permanent_event":
        here = state["characters"][c]["at"] or next(iter(state["board"]), None)
        if at is not None and at not in state["board"]:  # it fills an exploration place
            state["slots"][at] = {"exploration": None, "adventure": key, "revealed": True,
                                  "from": origin or here, "card": None}  # fmt: skip
            frame_ctx["this"]["where"] = f"slot:{at}"
        elif here is not None:
            state["board"][here]["events"].append({"key": key, "blocked_verb": ctx.get("verb")})
            frame_ctx["this"]["where"] = f"event:{here}:{key}"
            state.setdefault("arrivals", []).append(here)
    elif kind == "temporary_event":
        frame_ctx["this"]["where"] = f"temp:{key}"
        state["resolving"].append(key)
    elif kind == "global_event":
        state["globals"].append(key)
        frame_ctx["this"]["where"] = f"global:{key}"
    elif kind == "purse":
        state["characters"][c]["purse"].append(key)
        frame_ctx["this"]["where"] = f"purse:{c}:{key}"
    elif kind == "quest_item":
        state["quest_items"].append(key)
        frame_ctx["this"]["where"] = f"quest:{key}"
    else:
        state["world_map"].append(key)
    effects = list(rec.get("effects") or [])
    if kind == "temporary_event":
        mandatory = [i for i, a in enumerate(rec.get("actions") or []) if a.get("mandatory")]
        for i in mandatory:
            effects.append({"_act": {"source": f"temp:{key}", "index": i, "character": c}})
        effects.append({"_leave_temp": ref})
    if effects:
        state["queue"].append({"effects": effects, "ctx": frame_ctx})
    return True


def _adjacent_free(bundle: dict, state: dict, here: str) -> str:
    for direction in ("north", "east", "south", "west"):
        target = R.neighbour(here, direction)
        if _free(state, target):
            return target
    x, y = R.coords(here)
    for radius in range(2, 10):
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                target = R.cell(x + dx, y + dy)
                if _free(state, target):
                    return target
    return R.cell(x + 10, y)  # pragma: no cover


def _put_back(bundle: dict, state: dict, ref: dict) -> None:
    if ref["kind"] == "adventure":
        number = str(_adv(bundle, ref["key"])["number"])
        state["box"].setdefault(number, []).append(ref["key"])
    elif ref["kind"] == "exploration":
        zone = str(_recs(bundle, "exploration_card")[ref["key"]]["zone"])
        state["explore_decks"].setdefault(zone, []).insert(0, ref["key"])


def _remove_from_play(bundle: dict, state: dict, ref: dict, where: str | None) -> None:
    """Take a card off the board, the table, a purse or the quest items."""
    key = ref["key"]
    for spot_key, spot in state["board"].items():
        if spot["terrain"] == key and ref["kind"] == "adventure":
            del state["board"][spot_key]
            for c in state["characters"]:
                if c["at"] == spot_key:
                    c["at"] = next(iter(state["board"]), None)
            break
        for ev in spot["events"]:
            if ev["key"] == key:
                spot["events"].remove(ev)
                break
    for slot_key, slot in list(state["slots"].items()):
        if slot.get("exploration") == key or slot.get("adventure") == key:
            slot["exploration"] = None
            slot["adventure"] = None
            _free_slot(bundle, state, slot_key)
    if key in state["resolving"]:
        state["resolving"].remove(key)
    if key in state["globals"]:
        state["globals"].remove(key)
    if key in state["quest_items"]:
        state["quest_items"].remove(key)
    for c in state["characters"]:
        if key in c["purse"]:
            c["purse"].remove(key)
        if key in c["blocked"]:
            c["blocked"].remove(key)
    for dkey in [d for d in state["dice"] if d.startswith(f"{where}#")] if where else []:
        del state["dice"][dkey]


# =========================================================================== effects


def _run(bundle: dict, state: dict) -> None:
    _pump(bundle, state)


def _targets(state: dict, ctx: dict) -> list[int]:
    return [ctx.get("character", 0)]


def _effect(bundle: dict, state: dict, effect: dict, ctx: dict) -> None:
    ((name, value),) = effect.items()
    c = ctx.get("character", 0)
    ch = state["characters"][c]
    this = ctx.get("this")
    if name in ("take", "take_if_available"):
        _take(bundle, state, str(value), ctx, if_available=(name == "take_if_available"))
    elif name == "read":
        _open_dialogue(bundle, state, str(value), c)
    elif name == "damage":
        cancel = ctx.get("cancel", 0)
        blocked = min(cancel, value)
        ctx["cancel"] = cancel - blocked
        if value - blocked:
            _lose_hp(bundle, state, c, value - blocked)
        elif value:
            _log(state, "damage.cancelled", name=ch["name"], amount=value)
    elif name == "hit_points":
        if value >= 0:
            _gain_hp(bundle, state, c, value)
        else:
            _lose_hp(bundle, state, c, -value)
    elif name == "cancel_damage":
        ctx["cancel"] = ctx.get("cancel", 0) + value
    elif name == "add_to_hand":
        action = state.get("action")
        if action is not None:
            action["keep"] = action.get("keep", 0) + value
    elif name == "discard_from_deck":
        _discard_from_deck(bundle, state, c, value)
    elif name == "recover":
        rng = Rng(state)
        for _ in range(min(value, len(ch["discard"]))):
            card = ch["discard"].pop(rng.below(len(ch["discard"])))
            ch["deck"].append(card)
        rng.shuffle(ch["deck"])
    elif name in ("discard", "banish", "put_back"):
        if value == "this" and this and this.get("gone"):
            return  # already left play: a card is never in two places
        ref = _resolve_ref(bundle, state, value, this)
        if ref is None:
            return
        _remove_from_play(
            bundle, state, ref, this.get("where") if this and value == "this" else None
        )
        if ref["kind"] == "action_card":
            for other in state["characters"]:
                for pile in ("hand", "deck", "blocked"):
                    if ref["key"] in other[pile]:
                        other[pile].remove(ref["key"])
                        if name == "discard":
                            other["discard"].append(ref["key"])
            if name == "banish":
                state["banished"].append(ref)
        elif name == "discard":
            state["past"].append(ref)
        elif name == "banish":
            state["banished"].append(ref)
        else:
            _put_back(bundle, state, ref)
        if this and value == "this":
            this["gone"] = True
        _log(state, f"card.{name}", title=_name(bundle, ref))
    elif name in ("block", "unblock"):
        ref = _resolve_ref(bundle, state, value, this)
        if ref is not None:
            _block(bundle, state, c, ref, name == "block")
    elif name == "move_die":
        action = state.get("action")
        if action is not None:
            action["move_die"] = action.get("move_die", 0) + value
    elif name == "score":
        for k, v in value.items():
            scores = state["citadel"]["scores"]
            scores[k] = R.clamp_score(scores[k] + v)
            _log(state, "score", score=k, delta=v, value=scores[k])
    elif name == "flag":
        if value not in state["flags"]:
            state["flags"].append(value)
    elif name == "unflag":
        if value in state["flags"]:
            state["flags"].remove(value)
    elif name == "quest":
        quests = state["citadel"]["side_quests"]
        if quests.get(value["id"]) != "done":
            quests[value["id"]] = value["state"]
            title = _recs(bundle, "side_quest").get(value["id"], {}).get("title", value["id"])
            _log(state, "quest", title=title, state=value["state"], id=value["id"])
    elif name == "objective":
        if value not in state["objectives"]:
            state["objectives"].append(value)
            _log(state, "objective", id=value)
    elif name == "hope":
        state["citadel"]["hope"] += value
        _log(state, "hope", amount=value, total=state["citadel"]["hope"])
    elif name == "build":
        _build(bundle, state, value)
    elif name == "add_skill":
        ch["deck"].append(value)
        Rng(state).shuffle(ch["deck"])
        _log(
            state,
            "skill.added",
            name=ch["name"],
            title=_recs(bundle, "action_card").get(value, {}).get("title", value),
        )
    elif name == "return_to_citadel":
        state["queue"] = []
        _end_scenario(bundle, state)
    elif name == "adventure_ends":
        state["queue"] = []
        _finish(bundle, state, "defeat", "adventure_ends")
    elif name == "branch":
        chosen = (
            value["then"]
            if _holds(bundle, state, value["requires"])
            else value.get("otherwise") or []
        )
        if chosen:
            state["queue"].append({"effects": list(chosen), "ctx": ctx})
    elif name == "roll":
        die = Rng(state).below(6) + 1
        ok = die <= value["at_most"]
        _log(state, "roll", value=die)
        chosen = value["then"] if ok else value.get("otherwise") or []
        if chosen:
            state["queue"].append({"effects": list(chosen), "ctx": ctx})
    elif name == "_act":
        _force_action(bundle, state, value)
    elif name == "_leave_temp":
        if value["key"] in state["resolving"]:
            state["resolving"].remove(value["key"])
        if not (this or {}).get("gone"):
            state["past"].append(value)
            _log(state, "card.discard", title=_name(bundle, value))
    elif name == "_finish_action":
        _finish_action(bundle, state)
    elif name == "_end_dialogue":
        state["dialogue"] = None


def _apply_now(bundle: dict, state: dict, effects: list[dict], ctx: dict) -> None:
    """Apply effects at once, conditional ones included (at the Citadel, between scenarios,
    where nothing can pause for the players)."""
    saved = state["queue"]
    state["queue"] = [{"effects": list(effects), "ctx": ctx}]
    while state["queue"]:
        frame = state["queue"][-1]
        if not frame["effects"]:
            state["queue"].pop()
            continue
        effect = frame["effects"].pop(0)
        if next(iter(effect)).startswith("_"):
            continue
        _effect(bundle, state, effect, frame["ctx"])
    state["queue"] = saved


def _resolve_ref(bundle: dict, state: dict, value: Any, this: dict | None) -> dict | None:
    if value == "this":
        return {"kind": this["kind"], "key": this["key"]} if this else None
    key = str(value)
    if key in _recs(bundle, "action_card"):
        return {"kind": "action_card", "key": key}
    in_play = _in_play_keys(state)
    for k in _versions(bundle, key):
        if k in in_play:
            return {"kind": "adventure", "key": k}
    if key in _recs(bundle, "exploration_card"):
        return {"kind": "exploration", "key": key}
    return None


def _in_play_keys(state: dict) -> set[str]:
    keys = set(state["globals"]) | set(state["quest_items"])
    for spot in state["board"].values():
        keys.add(spot["terrain"])
        keys.update(ev["key"] for ev in spot["events"])
    for slot in state["slots"].values():
        if slot.get("adventure"):
            keys.add(slot["adventure"])
    for c in state["characters"]:
        keys.update(c["purse"])
        keys.update(c["blocked"])
    return keys


def _block(bundle: dict, state: dict, c: int, ref: dict, block: bool) -> None:
    ch = state["characters"][c]
    key = ref["key"]
    if block:
        for pile in ("hand", "purse", "deck"):
            if key in ch[pile]:
                ch[pile].remove(key)
                if pile == "purse":
                    ch["blocked"].append(key)  # still weighs; kept apart
                else:
                    ch["blocked"].append(key)
                _log(state, "card.block", title=_name(bundle, ref))
                return
    elif key in ch["blocked"]:
        ch["blocked"].remove(key)
        if ref["kind"] == "action_card":
            ch["deck"].append(key)
            Rng(state).shuffle(ch["deck"])
        else:
            ch["purse"].append(key)
        _log(state, "card.unblock", title=_name(bundle, ref))


def _build(bundle: dict, state: dict, bid: str) -> None:
    building = _recs(bundle, "building").get(bid)
    if building is None:
        return
    ticks = state["citadel"]["buildings"]
    if ticks.get(bid, 0) >= building["boxes"]:
        return
    ticks[bid] = ticks.get(bid, 0) + 1
    done = ticks[bid] >= building["boxes"]
    _log(
        state,
        "building.built" if done else "building.ticked",
        title=building["title"],
        ticks=ticks[bid],
        boxes=building["boxes"],
    )


def _holds(bundle: dict, state: dict, cond: list[dict]) -> bool:
    for atom in cond:
        ((name, value),) = atom.items()
        if name == "any":
            if not any(_holds(bundle, state, [alt]) for alt in value):
                return False
        elif name == "flag":
            if value not in state["flags"]:
                return False
        elif name == "not_flag":
            if value in state["flags"]:
                return False
        elif name == "item":
            if str(value) not in _held_numbers(bundle, state):
                return False
        elif name == "quest":
            current = state["citadel"]["side_quests"].get(value["id"])
            if value["state"] == "active":
                if current is None or current == "done":
                    return False
            elif current != value["state"]:
                return False
        elif name == "objective":
            if value not in state["objectives"]:
                return False
        elif name == "score":
            for k, need in value.items():
                if state["citadel"]["scores"][k] < need:
                    return False
        elif name == "characters" and state["players"] < value:
            return False
        del name
    return True


# =========================================================================== hit points


def _lose_hp(bundle: dict, state: dict, c: int, amount: int) -> None:
    ch = state["characters"][c]
    if not ch["conscious"] or amount <= 0:
        return
    ch["hp"] = max(0, ch["hp"] - amount)
    _log(state, "hp.lost", name=ch["name"], amount=amount, hp=ch["hp"])
    if ch["hp"] == 0:
        _unconscious(bundle, state, c)


def _gain_hp(bundle: dict, state: dict, c: int, amount: int) -> None:
    ch = state["characters"][c]
    if amount <= 0:
        return
    ch["hp"] = min(MAX_HP, ch["hp"] + amount)
    _log(state, "hp.gained", name=ch["name"], amount=amount, hp=ch["hp"])
    if not ch["conscious"] and ch["hp"] > 0:
        ch["conscious"] = True
        active = (state.get("action") or {}).get("character", c)
        ch["at"] = state["characters"][active]["at"] or next(iter(state["board"]), None)
        _log(state, "conscious", name=ch["name"])


def _unconscious(bundle: dict, state: dict, c: int) -> None:
    """The full procedure: off the board, TEMPORAIRE items put back, hand discarded, discard
    shuffled into the deck, three cards drawn as the new hand and one of them banished."""
    ch = state["characters"][c]
    ch["conscious"] = False
    ch["at"] = None
    _log(state, "unconscious", name=ch["name"])
    for key in list(ch["purse"]) + list(ch["blocked"]):
        rec = _recs(bundle, "adventure_card").get(key)
        if rec and "TEMPORAIRE" in (rec.get("keywords") or []):
            for pile in ("purse", "blocked"):
                if key in ch[pile]:
                    ch[pile].remove(key)
            _put_back(bundle, state, {"kind": "adventure", "key": key})
    ch["discard"].extend(ch["hand"])
    ch["hand"] = []
    ch["deck"].extend(ch["discard"])
    ch["discard"] = []
    Rng(state).shuffle(ch["deck"])
    ch["hand"] = [ch["deck"].pop() for _ in range(min(3, len(ch["deck"])))]
    if all(not x["conscious"] for x in state["characters"]):
        state["queue"] = []
        _finish(bundle, state, "defeat", "all_unconscious")
        return
    if ch["hand"]:
        state["interrupt"] = state.get("interrupt") or []
        state["interrupt"].append({"type": "banish", "character": c})


def _discard_from_deck(bundle: dict, state: dict, c: int, count: int) -> None:
    ch = state["characters"][c]
    for done in range(count):
        if not ch["deck"] and not _auto_recover(bundle, state, c, count - done):
            return
        if ch["deck"]:
            ch["discard"].append(ch["deck"].pop())


def _recover(bundle: dict, state: dict, c: int, cards: int) -> None:
    ch = state["characters"][c]
    mode = state["options"]["recovery"]
    cost = R.recovery_cost(cards, mode)
    rng = Rng(state)
    moved = 0
    for _ in range(min(cards, len(ch["discard"]))):
        ch["deck"].append(ch["discard"].pop(rng.below(len(ch["discard"]))))
        moved += 1
    rng.shuffle(ch["deck"])
    _log(state, "recovery", name=ch["name"], cards=moved, hp=cost)
    _lose_hp(bundle, state, c, cost)


def _auto_recover(bundle: dict, state: dict, c: int, needed: int) -> bool:
    """The deck ran out mid-draw: recover the fewest series that cover what is missing."""
    ch = state["characters"][c]
    if not ch["discard"] or not ch["conscious"]:
        return False
    step = R.recovery_step(state["options"]["recovery"])
    series = -(-needed // step)
    cards = min(len(ch["discard"]), series * step)
    hp_per = 1 if state["options"]["recovery"] != "survival" else 2
    max_cards = (ch["hp"] // hp_per) * step
    cards = min(cards, max(step, max_cards))
    _recover(bundle, state, c, cards)
    return ch["conscious"]


# =========================================================================== dialogues


def _open_dialogue(bundle: dict, state: dict, number: str, c: int) -> None:
    para = _recs(bundle, "paragraph").get(number)
    if para is None:
        return
    state["dialogue"] = {"paragraph": number, "character": c}
    _log(state, "dialogue", number=number, text=para["text"])
    if number not in state.setdefault("read", []):
        state["read"].append(number)  # what the group has read (the lexicon of their adventure)
    this = {"kind": "paragraph", "key": number, "where": f"paragraph:{number}"}
    ctx = {"character": c, "this": this, "verb": None}
    effects = list(para.get("effects") or [])
    for i, action in enumerate(para.get("actions") or []):
        if action.get("mandatory"):
            effects.append({"_act": {"source": f"paragraph:{number}", "index": i, "character": c}})
    if para.get("choices") or any(not a.get("mandatory") for a in para.get("actions") or []):
        effects.append({"_dialogue_choice": number})
    else:
        effects.append({"_end_dialogue": True})
    state["queue"].append({"effects": effects, "ctx": ctx})


# =========================================================================== actions


def _action_spec(bundle: dict, state: dict, source: str, index: int) -> tuple[dict | None, dict]:
    """The action record behind a source, and the card it sits on."""
    kind, _, rest = source.partition(":")
    if kind == "move":
        spec = {"verb": "move", "cost": _rules(bundle)["move_cost"], "difficulty": 0}
        return spec, {"kind": "none", "key": "", "where": "move"}
    if kind == "explore":
        spec = {"verb": "find_passage", "cost": 0, "difficulty": 0}
        return spec, {"kind": "none", "key": "", "where": source}
    if kind == "terrain":
        key = state["board"].get(rest, {}).get("terrain")
        ref = {"kind": "adventure", "key": key, "where": source}
    elif kind == "event":
        _cell, _, key = rest.partition(":")
        ref = {"kind": "adventure", "key": key, "where": source}
    elif kind == "slot":
        slot = state["slots"].get(rest) or {}
        if slot.get("adventure"):
            ref = {"kind": "adventure", "key": slot["adventure"], "where": source}
        else:
            ref = {"kind": "exploration", "key": slot.get("exploration"), "where": source}
    elif kind == "hand":
        _, _, card = rest.partition(":")
        ref = {"kind": "action_card", "key": card, "where": source}
    elif kind == "purse":
        _, _, key = rest.partition(":")
        ref = {"kind": "adventure", "key": key, "where": source}
    elif kind in ("quest", "global", "temp"):
        is_exp = kind == "temp" and rest in _recs(bundle, "exploration_card")
        ref = {"kind": "exploration" if is_exp else "adventure", "key": rest, "where": source}
    elif kind == "paragraph":
        ref = {"kind": "paragraph", "key": rest, "where": source}
    else:
        return None, {}
    if ref["key"] is None:
        return None, ref
    actions = _card_record(bundle, ref).get("actions") or []
    if not 0 <= index < len(actions):
        return None, ref
    return actions[index], ref


def _available_actions(bundle: dict, state: dict, c: int) -> list[tuple[str, int]]:
    """(source, index) of the actions character ``c`` may start now."""
    ch = state["characters"][c]
    if not ch["conscious"] or ch["at"] is None:
        return []
    here = ch["at"]
    spot = state["board"].get(here)
    out: list[tuple[str, int]] = []
    blocked_verbs = {
        ev["blocked_verb"] for ev in (spot or {}).get("events", []) if ev.get("blocked_verb")
    }
    if spot:
        for i, a in enumerate(_adv(bundle, spot["terrain"]).get("actions") or []):
            if a["verb"] not in blocked_verbs:
                out.append((f"terrain:{here}", i))
        for ev in spot["events"]:
            for i, _ in enumerate(_adv(bundle, ev["key"]).get("actions") or []):
                out.append((f"event:{here}:{ev['key']}", i))
    for key, slot in state["slots"].items():
        if slot.get("from") != here:
            continue
        if not slot["revealed"] and slot.get("exploration"):
            out.append((f"explore:{key}", 0))
        elif slot.get("exploration") or slot.get("adventure"):
            ref = (
                {"kind": "adventure", "key": slot["adventure"]}
                if slot.get("adventure")
                else {"kind": "exploration", "key": slot["exploration"]}
            )
            for i, _ in enumerate(_card_record(bundle, ref).get("actions") or []):
                out.append((f"slot:{key}", i))
    for card in ch["hand"]:
        for i, _ in enumerate(_recs(bundle, "action_card").get(card, {}).get("actions") or []):
            out.append((f"hand:{c}:{card}", i))
    for key in ch["purse"]:
        for i, _ in enumerate(_adv(bundle, key).get("actions") or []):
            out.append((f"purse:{c}:{key}", i))
    for key in state["quest_items"]:
        for i, _ in enumerate(_adv(bundle, key).get("actions") or []):
            out.append((f"quest:{key}", i))
    for key in state["globals"]:
        for i, _ in enumerate(_adv(bundle, key).get("actions") or []):
            out.append((f"global:{key}", i))
    result = []
    for source, i in out:
        spec, _ = _action_spec(bundle, state, source, i)
        if spec is None:
            continue
        if spec.get("requires") and not _holds(bundle, state, spec["requires"]):
            continue
        if spec.get("group") and any(
            x["conscious"] and x["at"] != here for x in state["characters"]
        ):
            continue
        result.append((source, i))
    return result


def _mandatory_here(bundle: dict, state: dict) -> tuple[str, int, int] | None:
    """A mandatory action to do now: on a terrain where characters have just arrived, or on an
    event just linked to the terrain where they stand.  Done once per arrival."""
    arrivals = state.get("arrivals") or []
    state["arrivals"] = []
    for c, ch in enumerate(state["characters"]):
        if not ch["conscious"] or ch["at"] is None or ch["at"] not in arrivals:
            continue
        for source, i in _available_actions(bundle, state, c):
            if not source.startswith(("terrain:", "event:", "slot:")):
                continue
            spec, _ = _action_spec(bundle, state, source, i)
            if spec and spec.get("mandatory"):
                return source, i, c
    return None


def _start_action(
    bundle: dict,
    state: dict,
    c: int,
    source: str,
    index: int,
    join: bool,
    forced: bool = False,
    target: str | None = None,
) -> None:
    spec, ref = _action_spec(bundle, state, source, index)
    assert spec is not None
    here = state["characters"][c]["at"]
    mandatory = bool(spec.get("mandatory")) or forced
    participants = [c]
    if join or mandatory or spec.get("group"):
        participants += [i for i, x in enumerate(state["characters"])
                         if i != c and x["conscious"] and x["at"] == here]  # fmt: skip
    traits = [_recs(bundle, "creature_trait").get(t, {}) for t in spec.get("traits") or []]
    die_key = f"{source}#{index}"
    lines = spec.get("lines")
    if lines:
        die = state["dice"].get(die_key)
        if die is None:
            die = {
                "line": 0,
                "value": lines[0]["difficulty"] + sum(t.get("difficulty", 0) for t in traits),
                "card": _source_card(state, source),
            }
            state["dice"][die_key] = die
    if state.get("action") is not None:  # an action inside an action: the first one waits
        state.setdefault("suspended", []).append(state["action"])
    state["action"] = {
        "character": c,
        "participants": participants,
        "source": source,
        "index": index,
        "verb": spec["verb"],
        "this": ref,
        "die_key": die_key if lines else None,
        "target": target,
        "mandatory": mandatory,
        "selected": [],
        "drawn": [],
        "keep": 0,
    }
    _log(
        state,
        "action.start",
        name=state["characters"][c]["name"],
        verb=spec["verb"],
        title=spec.get("title") or "",
    )
    eligible = _eligible_purse(bundle, state, c)
    adv = _recs(bundle, "adventure_card")
    must = [k for k in eligible if (adv.get(k) or {}).get("must_select")]
    if source.startswith("purse:"):
        must.append(source.split(":")[2])
    state["action"]["selected"] = _compatible(bundle, list(dict.fromkeys(must)))
    optional = [k for k in eligible if k not in state["action"]["selected"]]
    if optional:
        state["pending"] = {"type": "prepare", "character": c}
    else:
        state["pending"] = {"type": "draw", "character": c}


def _compatible(bundle: dict, keys: list[str]) -> list[str]:
    """Keep cards with no keyword in common, in order."""
    out, seen = [], set()
    for k in keys:
        rec = _recs(bundle, "adventure_card").get(k)
        words = set((rec or {}).get("keywords") or [])
        if words & seen:
            continue
        out.append(k)
        seen |= words
    return out


def _eligible_purse(bundle: dict, state: dict, c: int) -> list[str]:
    """What the active character may select in preparation: purse cards whose condition fits
    the action, and skills in hand that are spent when used (the others always help)."""
    verb = state["action"]["verb"] if state.get("action") else None
    out = []
    cards = _recs(bundle, "action_card")
    for card in state["characters"][c]["hand"]:
        rec = cards.get(card, {})
        if (
            rec.get("spend")
            and rec.get("bonuses")
            and rec.get("skill") != "reflex"
            and (not rec.get("when") or verb in rec["when"])
        ):
            out.append(card)
    for key in state["characters"][c]["purse"]:
        rec = _adv(bundle, key)
        when = rec.get("when") or []
        if key in out:
            continue
        if rec.get("bonuses") is None and not rec.get("on_selected"):
            continue
        if when and verb not in when:
            continue
        out.append(key)
    return out


def _force_action(bundle: dict, state: dict, spec: dict) -> None:
    c = spec.get("character", 0)
    if not state["characters"][c]["conscious"]:
        conscious = [i for i, x in enumerate(state["characters"]) if x["conscious"]]
        if not conscious:
            return
        c = conscious[0]
    action, _ = _action_spec(bundle, state, spec["source"], spec["index"])
    if action is None or (action.get("requires") and not _holds(bundle, state, action["requires"])):
        return
    _start_action(bundle, state, c, spec["source"], spec["index"], join=True, forced=True)


def _cost(bundle: dict, state: dict) -> tuple[int, int]:
    """(minimum cards to draw, maximum) for the running action."""
    action = state["action"]
    spec, _ = _action_spec(bundle, state, action["source"], action["index"])
    traits = [_recs(bundle, "creature_trait").get(t, {}) for t in spec.get("traits") or []]
    base = spec.get("cost", 0) + sum(t.get("cost", 0) for t in traits)
    reduction = increase = 0
    for bonus in _bonuses(bundle, state):
        reduction += bonus.get("cost_reduction", 0)
        increase += bonus.get("extra_draw", 0)
    low = max(0, base + increase - reduction)
    ch = state["characters"][action["character"]]
    available = len(ch["deck"]) + len(ch["discard"])
    high = max(low, min(low + EXTRA_DRAW_MAX, available))
    return low, high


def _bonuses(bundle: dict, state: dict, revealed: list[str] | None = None) -> list[dict]:
    """Bonuses in force for the running action: selected purse cards, skills in the active
    character's hand whose condition matches, and reflex skills among the revealed cards."""
    action = state["action"]
    verb = action["verb"]
    ch = state["characters"][action["character"]]
    out = []
    cards = _recs(bundle, "action_card")
    for key in action["selected"]:
        if key in cards:
            continue  # a spent skill: counted with the hand below
        if _adv(bundle, key).get("bonuses"):
            out.append(_adv(bundle, key)["bonuses"])
    for card in ch["hand"]:
        rec = cards.get(card, {})
        if rec.get("spend") and card not in action["selected"]:
            continue  # not chosen for this action: kept for later
        if (
            rec.get("skill") != "reflex"
            and rec.get("bonuses")
            and (not rec.get("when") or verb in rec["when"])
        ):
            out.append(rec["bonuses"])
    for card in revealed or []:
        rec = cards.get(card, {})
        if (
            rec.get("skill") == "reflex"
            and rec.get("bonuses")
            and (not rec.get("when") or verb in rec["when"])
        ):
            out.append(rec["bonuses"])
    return out


def _draw(bundle: dict, state: dict, count: int) -> None:
    action = state["action"]
    c = action["character"]
    ch = state["characters"][c]
    drawn = []
    while len(drawn) < count:
        if not ch["deck"] and not _auto_recover(bundle, state, c, count - len(drawn)):
            break
        if not ch["deck"]:
            break
        drawn.append(ch["deck"].pop())
    action["drawn"] = drawn
    if not ch["conscious"]:
        # the character fainted while recovering: the action stops here
        ch["discard"].extend(d for d in drawn if d not in ch["hand"])
        state["action"] = state["suspended"].pop() if state.get("suspended") else None
        state["pending"] = None
        return
    _resolve(bundle, state)


def _resolve(bundle: dict, state: dict) -> None:
    """Result, compare and consequences."""
    action = state["action"]
    spec, _ = _action_spec(bundle, state, action["source"], action["index"])
    cards = _recs(bundle, "action_card")
    drawn = [cards.get(k, {}) for k in action["drawn"]]
    bonuses = _bonuses(bundle, state, action["drawn"])
    limit = None
    if spec.get("chain"):
        limit = spec.get("cost", 0) + sum(b.get("extra_cards", 0) for b in bonuses)
    stars, counted = R.best_stars(drawn, limit)
    icons = R.class_icons(drawn)
    for key in action["selected"]:
        rec = (
            _recs(bundle, "adventure_card").get(key) or _recs(bundle, "action_card").get(key) or {}
        )
        icons.extend((rec.get("result") or {}).get("classes") or [])
    conversions = [b["convert"] for b in bonuses if b.get("convert")]
    conv_successes, cancels, _ = R.convert(icons, conversions)
    flat = sum(b.get("successes", 0) for b in bonuses)
    successes = stars + conv_successes + flat
    traits = [_recs(bundle, "creature_trait").get(t, {}) for t in spec.get("traits") or []]
    if action["die_key"]:
        die = state["dice"][action["die_key"]]
        die["value"] -= successes
        ok = die["value"] < 1
        line = spec["lines"][die["line"]]
        effects = list(line.get("success" if ok else "failure") or [])
        detail = {"die": max(die["value"], 0)}
    else:
        difficulty = spec.get("difficulty", 0) + sum(t.get("difficulty", 0) for t in traits)
        ok = successes >= difficulty
        effects = list(spec.get("success" if ok else "failure") or [])
        detail = {"difficulty": difficulty}
    for t in traits:
        effects.extend(t.get("on_success" if ok else "on_failure") or [])
    action.update({"successes": successes, "ok": ok, "cancel": cancels})
    _log(
        state,
        "action.result",
        successes=successes,
        ok=ok,
        drawn=len(drawn),
        counted=len(counted),
        **detail,
    )
    if action["verb"] == "move" and ok and action.get("target"):
        effects.insert(0, {"_move_to": action["target"]})
    if action["source"].startswith("explore:") and ok:
        effects.insert(0, {"_reveal": action["source"].split(":", 1)[1]})
    effects.append({"_finish_action": True})
    ctx = {
        "character": action["character"],
        "verb": action["verb"],
        "this": action["this"],
        "cancel": cancels,
        "participants": action["participants"],
    }
    state["queue"].append({"effects": effects, "ctx": ctx})
    # [sélectionnée]: each selected card's own effects, about itself ("this"), after the action
    for key in action["selected"]:
        if key not in _recs(bundle, "adventure_card"):
            continue
        own = _adv(bundle, key).get("on_selected") or []
        if own:
            c = action["character"]
            this = {"kind": "adventure", "key": key, "where": f"purse:{c}:{key}"}
            state["queue"].insert(-1, {"effects": list(own), "ctx": {**ctx, "this": this}})
    state["pending"] = None


def _finish_action(bundle: dict, state: dict) -> None:
    action = state["action"]
    if action is None:
        return
    spec, _ = _action_spec(bundle, state, action["source"], action["index"])
    c = action["character"]
    ch = state["characters"][c]
    # the die of a multiple action moves on, or the action is over
    if action["die_key"] and action["die_key"] in state["dice"] and spec is not None:
        die = state["dice"][action["die_key"]]
        if action.get("ok"):
            line = die["line"] + max(1, action.get("move_die", 0))
            if line < len(spec["lines"]):
                traits = [
                    _recs(bundle, "creature_trait").get(t, {}) for t in spec.get("traits") or []
                ]
                extra = sum(t.get("difficulty", 0) for t in traits)
                die["line"], die["value"] = line, spec["lines"][line]["difficulty"] + extra
            else:
                del state["dice"][action["die_key"]]
    keep = action.get("keep", 0)
    skills = [k for k in action["drawn"]]
    if keep and skills and ch["conscious"]:
        state["pending"] = {"type": "keep", "character": c, "left": min(keep, len(skills))}
        return
    _end_action(bundle, state)


def _end_action(bundle: dict, state: dict) -> None:
    action = state["action"]
    ch = state["characters"][action["character"]]
    ch["discard"].extend(action["drawn"])
    cards = _recs(bundle, "action_card")
    for card in action["selected"]:
        spend = cards.get(card, {}).get("spend")
        if spend and card in ch["hand"]:
            ch["hand"].remove(card)
            (ch["discard"] if spend == "discard" else ch["blocked"]).append(card)
            _log(
                state,
                "card.block" if spend == "block" else "card.discard",
                title=cards[card].get("title", card),
            )
    again = (
        action["mandatory"]
        and action["die_key"]
        and action["die_key"] in state["dice"]
        and ch["conscious"]
    )
    state["action"] = state["suspended"].pop() if state.get("suspended") else None
    state["pending"] = None
    if again:  # a mandatory multiple action goes on until it is over
        state["queue"].append(
            {
                "effects": [
                    {
                        "_act": {
                            "source": action["source"],
                            "index": action["index"],
                            "character": action["character"],
                        }
                    }
                ],
                "ctx": {"character": action["character"]},
            }
        )


# =========================================================================== turns


def _drop_stale_dice(bundle: dict, state: dict) -> None:
    """A die sits on a card: when the card is gone (or replaced), so is the die."""
    for key in list(state["dice"]):
        source, _, index = key.rpartition("#")
        spec, _ = _action_spec(bundle, state, source, int(index))
        card = state["dice"][key].get("card")
        if spec is None or not spec.get("lines") or card != _source_card(state, source):
            del state["dice"][key]


def _source_card(state: dict, source: str) -> str | None:
    kind, _, rest = source.partition(":")
    if kind == "terrain":
        return (state["board"].get(rest) or {}).get("terrain")
    if kind == "slot":
        slot = state["slots"].get(rest) or {}
        return slot.get("adventure") or slot.get("exploration")
    return rest.rpartition(":")[2] or None


def _next_turn(bundle: dict, state: dict) -> None:
    _drop_stale_dice(bundle, state)
    state["scenario_turns"] = state.get("scenario_turns", 0) + 1
    while state.get("interrupt"):
        pending = state["interrupt"].pop(0)
        # The hand may have emptied since the interrupt was queued: nothing left to banish.
        if pending["type"] == "banish" and not state["characters"][pending["character"]]["hand"]:
            continue
        state["pending"] = pending
        return
    for c, ch in enumerate(state["characters"]):
        limit = (_recs(bundle, "character")[ch["id"]].get("hand_size") or {}).get(
            str(state["players"]), 99
        )
        if ch["conscious"] and len(ch["hand"]) > limit:
            state["pending"] = {"type": "hand_limit", "character": c}
            return
    state["turns"] += 1
    forced = _mandatory_here(bundle, state)
    if forced is not None:
        source, index, c = forced
        _start_action(bundle, state, c, source, index, join=True, forced=True)
        return
    if state["turns"] > MAX_TURNS:
        _finish(bundle, state, "defeat", "exhaustion")
        return
    state["pending"] = {"type": "turn"}
    if not legal_actions(bundle, state):
        # nobody can do anything any more (no action, no move, nothing to recover): the
        # adventure ends here rather than waiting forever
        _finish(bundle, state, "defeat", "stuck")


def _weight(bundle: dict, ch: dict) -> int:
    return sum(_adv(bundle, k).get("weight", 0) for k in ch["purse"] + ch["blocked"]
               if k in _recs(bundle, "adventure_card"))  # fmt: skip


def _carry(bundle: dict, state: dict, ch: dict) -> int:
    rec = _recs(bundle, "character")[ch["id"]]
    return (rec.get("carry_weight") or {}).get(str(state["players"]), 99)


def _can_save(state: dict) -> bool:
    conscious = [c for c in state["characters"] if c["conscious"]]
    return (
        not state["saved"]
        and state["menace"] is not None
        and state["dialogue"] is None
        and state["action"] is None
        and len({c["at"] for c in conscious}) == 1
    )


def _save_game(bundle: dict, state: dict) -> None:
    """The rulebook's save: hands discarded, the board back to the terrain where everyone
    stands, then resumed at once (the Past put back, exploration cards dealt again)."""
    here = next(c["at"] for c in state["characters"] if c["conscious"])
    for ch in state["characters"]:
        ch["discard"].extend(ch["hand"])
        ch["hand"] = []
    for key, spot in list(state["board"].items()):
        for ev in spot["events"]:
            state["past"].append({"kind": "adventure", "key": ev["key"]})
        spot["events"] = []
        if key != here:
            state["past"].append({"kind": "adventure", "key": spot["terrain"]})
            del state["board"][key]
    for slot in state["slots"].values():
        if slot.get("exploration"):
            state["past"].append({"kind": "exploration", "key": slot["exploration"]})
        if slot.get("adventure"):
            state["past"].append({"kind": "adventure", "key": slot["adventure"]})
    state["slots"] = {}
    for g in state["globals"]:
        state["past"].append({"kind": "adventure", "key": g})
    state["globals"] = []
    state["dice"] = {}
    _restore_past(bundle, state)
    terrain = state["board"][here]["terrain"]
    del state["board"][here]
    # re-centre on the saved terrain and deal its arrows again
    _place_terrain(bundle, state, terrain, R.cell(0, 0))
    for ch in state["characters"]:
        if ch["conscious"]:
            ch["at"] = R.cell(0, 0)
    state["saved"] = True
    _log(state, "game.saved")


# =========================================================================== scenarios


def _end_scenario(bundle: dict, state: dict) -> None:
    scen = _recs(bundle, "scenario")[state["scenario"]]
    branch = None
    for b in scen.get("epilogue") or []:
        if not b.get("requires") or _holds(bundle, state, b["requires"]):
            branch = b
            break
    state["scenarios_played"].append(state["scenario"])
    _log(state, "scenario.end", title=scen["title"])
    if branch is None:
        _finish(bundle, state, "defeat", "no_epilogue")
        return
    state["epilogues"].append({"scenario": state["scenario"], "branch": branch["id"]})
    _log(state, "epilogue", text=branch["text"])
    ctx = {"character": 0, "verb": None, "this": None}
    _apply_now(bundle, state, branch.get("effects") or [], ctx)
    if branch.get("end"):
        _finish(bundle, state, branch["end"], "epilogue")
        return
    state["next_scenario"] = branch.get("next")
    state["phase"] = "citadel"
    state["action"] = None
    state["dialogue"] = None
    state["queue"] = []
    for ch in state["characters"]:
        ch["conscious"] = True
        ch["at"] = None
    state["pending"] = {"type": "citadel"}


def _finish(bundle: dict, state: dict, result: str, why: str) -> None:
    state["phase"] = "over"
    state["pending"] = None
    state["queue"] = []
    state["result"] = {"result": result, "why": why, "scenarios": state["scenarios_played"]}
    _log(state, "adventure.over", result=result, why=why)


# =========================================================================== legal actions


def legal_actions(bundle: dict, state: dict) -> list[dict]:
    p = state["pending"]
    if p is None:
        return []
    t = p["type"]
    if t == "turn":
        out: list[dict] = []
        for c, ch in enumerate(state["characters"]):
            if not ch["conscious"]:
                continue
            here = ch["at"]
            others = any(i != c and x["conscious"] and x["at"] == here
                         for i, x in enumerate(state["characters"]))  # fmt: skip
            for source, i in _available_actions(bundle, state, c):
                out.append(
                    {"type": "act", "character": c, "source": source, "index": i, "join": False}
                )
                if others:
                    out.append(
                        {"type": "act", "character": c, "source": source, "index": i, "join": True}
                    )
            if here and _weight(bundle, ch) <= _carry(bundle, state, ch):
                for direction in ("north", "east", "south", "west"):
                    target = R.neighbour(here, direction)
                    if target in state["board"]:
                        out.append({"type": "move", "character": c, "to": target})
            step = R.recovery_step(state["options"]["recovery"])
            hp_per = 2 if state["options"]["recovery"] == "survival" else 1
            series_max = min(len(ch["discard"]) // step, ch["hp"] // hp_per)
            out.extend({"type": "recover", "character": c, "cards": s * step}
                       for s in range(1, series_max + 1))  # fmt: skip
            for key in ch["purse"]:
                if _adv(bundle, key).get("undiscardable"):
                    continue
                for d, other in enumerate(state["characters"]):
                    if d != c and other["conscious"] and other["at"] == here:
                        out.extend(
                            {"type": "give", "character": c, "to": d, "item": key, "payer": who}
                            for who in ("giver", "receiver")
                        )
                out.append({"type": "drop", "character": c, "item": key})
            for number in _hidden_here(bundle, state, here, c):
                out.append({"type": "search", "character": c, "number": number})
        if _can_save(state):
            out.append({"type": "save"})
        return out
    c = p.get("character", 0)
    if t == "prepare":
        action = state["action"]
        chosen = set(action["selected"])
        adv = _recs(bundle, "adventure_card")

        def words(k: str) -> set[str]:
            return set((adv.get(k) or {}).get("keywords") or [])

        taken = {w for k in chosen for w in words(k)}
        out = [
            {"type": "select", "item": k}
            for k in _eligible_purse(bundle, state, c)
            if k not in chosen and not (words(k) & taken)
        ]
        return [*out, {"type": "prepared"}]
    if t == "draw":
        low, high = _cost(bundle, state)
        return [{"type": "draw", "count": n} for n in range(low, high + 1)]
    if t == "keep":
        return [{"type": "keep", "card": k} for k in state["action"]["drawn"]] + [{"type": "kept"}]
    if t == "dialogue":
        para = _recs(bundle, "paragraph")[p["paragraph"]]
        out = []
        for i, choice in enumerate(para.get("choices") or []):
            if not choice.get("requires") or _holds(bundle, state, choice["requires"]):
                out.append({"type": "choose", "index": i})
        for i, action in enumerate(para.get("actions") or []):
            if not action.get("mandatory") and (
                not action.get("requires") or _holds(bundle, state, action["requires"])
            ):
                out.append({"type": "act", "character": c, "source": f"paragraph:{p['paragraph']}",
                            "index": i, "join": False})  # fmt: skip
        if para.get("end") or not out:
            out.append({"type": "close"})
        return out
    if t == "hand_limit":
        return [
            {"type": "discard", "character": c, "card": k} for k in state["characters"][c]["hand"]
        ]
    if t == "banish":
        return [
            {"type": "banish", "character": c, "card": k} for k in state["characters"][c]["hand"]
        ]
    if t == "citadel":
        out = [{"type": "depart"}]
        hope = state["citadel"]["hope"]
        for did, entry in _recs(bundle, "destiny").items():
            if did not in state["citadel"]["destiny"] and entry["cost"] <= hope:
                out.extend({"type": "destiny", "entry": did, "character": i}
                           for i in range(len(state["characters"])))  # fmt: skip
        if len(state["characters"]) > 1:
            out.extend({"type": "leave", "character": i} for i in range(len(state["characters"])))
        if len(state["characters"]) < 4:
            present = {ch["id"] for ch in state["characters"]}
            out.extend({"type": "join", "id": cid} for cid in sorted(_recs(bundle, "character"))
                       if cid not in present)  # fmt: skip
        return out
    return []


def _hidden_here(bundle: dict, state: dict, here: str | None, c: int) -> list[int]:
    """Hidden numbers printed on the cards of character ``c``'s terrain (the terrain itself
    and its linked events) and on ``c``'s own purse cards (``_search`` looks in the same
    places); the player must still find them on the card."""
    if here is None or here not in state["board"]:
        return []
    spot = state["board"][here]
    keys = [spot["terrain"], *(ev["key"] for ev in spot["events"])]
    keys += list(state["characters"][c]["purse"])
    numbers: list[int] = []
    for key in keys:
        for n in _adv(bundle, key).get("hidden_numbers") or []:
            if state["box"].get(str(n)) and int(n) not in numbers:
                numbers.append(int(n))
    return numbers


# =========================================================================== apply

_SHAPES: dict[str, dict[str, type]] = {
    "act": {"character": int, "source": str, "index": int, "join": bool},
    "move": {"character": int, "to": str},
    "recover": {"character": int, "cards": int},
    "give": {"character": int, "to": int, "item": str, "payer": str},
    "drop": {"character": int, "item": str},
    "search": {"character": int, "number": int},
    "save": {},
    "select": {"item": str},
    "prepared": {},
    "draw": {"count": int},
    "keep": {"card": str},
    "kept": {},
    "choose": {"index": int},
    "close": {},
    "discard": {"character": int, "card": str},
    "banish": {"character": int, "card": str},
    "depart": {},
    "destiny": {"entry": str, "character": int},
    "leave": {"character": int},
    "join": {"id": str},
}


def _where(state: dict) -> str:
    return f"scenario {state['scenario']}, turn {state['turns']}"


def apply(bundle: dict, state: dict, action: dict) -> dict:
    """The state after ``action``; never mutates ``state``.  Raises ``MalformedAction`` or
    ``IllegalAction`` (both ``ValueError``) naming the action and the turn."""
    where = _where(state)
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or (action["type"] not in _SHAPES)
    ):
        raise MalformedAction(action, where, f"'type' must be one of {sorted(_SHAPES)}")
    for name, typ in _SHAPES[action["type"]].items():
        value = action.get(name)
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise MalformedAction(action, where, f"'{name}' must be a {typ.__name__}")
    if action not in legal_actions(bundle, state):
        p = state["pending"]
        why = "the adventure is over" if p is None else f"waiting for {p['type']}"
        if action["type"] == "search":
            why = "no card here hides that number"
        raise IllegalAction(action, where, why)
    state = copy_game(state, SHARED)
    t = action["type"]
    p = state["pending"]
    state["pending"] = None
    if t == "act":
        if p["type"] == "dialogue":
            state["dialogue"] = None
        _start_action(
            bundle, state, action["character"], action["source"], action["index"], action["join"]
        )
    elif t == "move":
        _start_action(bundle, state, action["character"], "move", 0, False, target=action["to"])
    elif t == "recover":
        _recover(bundle, state, action["character"], action["cards"])
    elif t == "give":
        giver, receiver = (
            state["characters"][action["character"]],
            state["characters"][action["to"]],
        )
        giver["purse"].remove(action["item"])
        receiver["purse"].append(action["item"])
        payer = action["character"] if action["payer"] == "giver" else action["to"]
        _log(
            state,
            "item.given",
            giver=giver["name"],
            to=receiver["name"],
            title=_name(bundle, {"kind": "adventure", "key": action["item"]}),
        )
        _discard_from_deck(bundle, state, payer, _adv(bundle, action["item"]).get("weight", 0))
    elif t == "drop":
        state["characters"][action["character"]]["purse"].remove(action["item"])
        state["past"].append({"kind": "adventure", "key": action["item"]})
        _log(
            state, "card.discard", title=_name(bundle, {"kind": "adventure", "key": action["item"]})
        )
    elif t == "search":
        _search(bundle, state, action["character"], action["number"])
    elif t == "save":
        _save_game(bundle, state)
    elif t == "select":
        state["action"]["selected"].append(action["item"])
        state["pending"] = {"type": "prepare", "character": p["character"]}
        if len(legal_actions(bundle, state)) == 1:
            state["pending"] = {"type": "draw", "character": p["character"]}
    elif t == "prepared":
        state["pending"] = {"type": "draw", "character": p["character"]}
    elif t == "draw":
        _draw(bundle, state, action["count"])
    elif t == "keep":
        ch = state["characters"][p["character"]]
        state["action"]["drawn"].remove(action["card"])
        ch["hand"].append(action["card"])
        left = p["left"] - 1
        if left > 0 and state["action"]["drawn"]:
            state["pending"] = {"type": "keep", "character": p["character"], "left": left}
        else:
            _end_action(bundle, state)
    elif t == "kept":
        _end_action(bundle, state)
    elif t == "choose":
        para = _recs(bundle, "paragraph")[p["paragraph"]]
        choice = para["choices"][action["index"]]
        c = state["dialogue"]["character"] if state["dialogue"] else 0
        _log(state, "dialogue.choice", text=choice["text"])
        state["dialogue"] = None
        ctx = {
            "character": c,
            "verb": None,
            "this": {
                "kind": "paragraph",
                "key": p["paragraph"],
                "where": f"paragraph:{p['paragraph']}",
            },
        }
        effects = list(choice.get("effects") or [])
        if choice.get("read") is not None:
            effects.append({"read": choice["read"]})
        if effects:
            state["queue"].append({"effects": effects, "ctx": ctx})
    elif t == "close":
        state["dialogue"] = None
    elif t in ("discard", "banish"):
        ch = state["characters"][action["character"]]
        ch["hand"].remove(action["card"])
        if t == "discard":
            ch["discard"].append(action["card"])
        else:
            state["banished"].append({"kind": "action_card", "key": action["card"]})
            _log(
                state,
                "card.banish",
                title=_recs(bundle, "action_card").get(action["card"], {}).get("title", ""),
            )
    elif t == "destiny":
        entry = _recs(bundle, "destiny")[action["entry"]]
        state["citadel"]["hope"] -= entry["cost"]
        state["citadel"]["destiny"].append(action["entry"])
        _log(state, "destiny", title=entry["title"])
        ctx = {"character": action["character"], "verb": None, "this": None}
        _apply_now(bundle, state, entry.get("effects") or [], ctx)
        state["pending"] = {"type": "citadel"}
        return state
    elif t == "leave":
        _leave(bundle, state, action["character"])
        state["pending"] = {"type": "citadel"}
        return state
    elif t == "join":
        rec = _recs(bundle, "character")[action["id"]]
        deck = list(rec.get("starting_skills") or [])
        Rng(state).shuffle(deck)
        state["characters"].append(
            {"id": action["id"], "name": rec["name"], "hp": 0, "conscious": True, "at": None,
             "deck": deck, "discard": [], "hand": [], "blocked": [], "purse": []}
        )  # fmt: skip
        state["players"] = len(state["characters"])
        _log(state, "character.joins", name=rec["name"])
        state["pending"] = {"type": "citadel"}
        return state
    elif t == "depart":
        nxt = state.pop("next_scenario", None)
        if nxt is None:
            _finish(bundle, state, "victory", "menace_over")
            return state
        _start_scenario(bundle, state, nxt)
        return state
    if state["phase"] == "play" and state["pending"] is None:
        _pump(bundle, state)
    return state


def _search(bundle: dict, state: dict, c: int, number: int) -> None:
    """A hidden number found on the character's terrain (or a linked event): take the card of
    that number; if its back names the card that hid the number, that card is discarded and
    the new one takes its place; otherwise the new card is put back."""
    here = state["characters"][c]["at"]
    spot = state["board"][here]
    purse = list(state["characters"][c]["purse"])
    source = next(
        k for k in [spot["terrain"], *(e["key"] for e in spot["events"]), *purse]
        if number in [int(n) for n in _adv(bundle, k).get("hidden_numbers") or []]
    )  # fmt: skip
    src_number = str(_adv(bundle, source)["number"])
    _log(state, "hidden.found", number=number)
    versions = [{**_adv(bundle, k), "key": k} for k in state["box"].get(str(number), [])]
    chosen = R.pick_version(versions, state["scenario"], _held_numbers(bundle, state))
    if chosen is None or str(chosen.get("back_source")) != src_number:
        _log(state, "hidden.wrong", number=number)
        return
    ref = {"kind": "adventure", "key": source}
    ctx = {"character": c, "verb": "search", "source": None}
    if source in purse:  # the item that hid the number is discarded, the new card replaces it
        state["characters"][c]["purse"].remove(source)
        state["past"].append(ref)
        _log(state, "card.discard", title=_name(bundle, ref))
        _take(bundle, state, str(number), ctx)
    elif spot["terrain"] == source and chosen.get("type") != "terrain":
        # a hidden event or item joins the terrain; the ground under the players stays
        _take(bundle, state, str(number), ctx)
    elif spot["terrain"] == source:
        events = spot["events"]
        del state["board"][here]
        state["past"].append(ref)
        for ev in events:
            state["past"].append({"kind": "adventure", "key": ev["key"]})
        _log(state, "card.discard", title=_name(bundle, ref))
        _take(bundle, state, str(number), ctx, at=here)
    else:
        spot["events"] = [e for e in spot["events"] if e["key"] != source]
        state["past"].append(ref)
        _log(state, "card.discard", title=_name(bundle, ref))
        _take(bundle, state, str(number), ctx)


def _pump(bundle: dict, state: dict) -> None:
    """Apply queued effects until one needs the players, the queue is empty (then the next
    turn is set up), or the adventure is over."""
    guard = 0
    while state["pending"] is None and state["phase"] == "play":
        guard += 1
        if guard > 200_000:  # pragma: no cover - content that loops on itself
            raise RuntimeError("effects never settle: a card or paragraph loops on itself")
        if not state["queue"]:
            _next_turn(bundle, state)
            continue
        frame = state["queue"][-1]
        if not frame["effects"]:
            state["queue"].pop()
            continue
        effect = frame["effects"].pop(0)
        ((name, value),) = effect.items()
        if name == "_dialogue_choice":
            if state["dialogue"] is not None:
                state["pending"] = {"type": "dialogue", "paragraph": value,
                                    "character": state["dialogue"]["character"]}  # fmt: skip
        elif name == "_reveal":
            _reveal(bundle, state, value, frame["ctx"])
        elif name == "_move_to":
            c = frame["ctx"]["character"]
            state["characters"][c]["at"] = value
            state.setdefault("arrivals", []).append(value)
            title = _name(bundle, {"kind": "adventure", "key": state["board"][value]["terrain"]})
            _log(state, "moved", name=state["characters"][c]["name"], title=title)
        else:
            _effect(bundle, state, effect, frame["ctx"])


def _reveal(bundle: dict, state: dict, at: str, ctx: dict) -> None:
    slot = state["slots"].get(at)
    if slot is None or slot.get("exploration") is None:
        return
    slot["revealed"] = True
    key = slot["exploration"]
    rec = _recs(bundle, "exploration_card")[key]
    ref = {"kind": "exploration", "key": key, "where": f"slot:{at}"}
    _log(
        state,
        "exploration.revealed",
        title=rec.get("title") or key,
        text=rec.get("text", ""),
        id=key,
    )
    c = ctx.get("character", 0)
    effects = list(rec.get("effects") or [])
    kind = rec["type"]
    fctx = {**ctx, "this": ref}
    if kind == "temporary_event":
        for i, a in enumerate(rec.get("actions") or []):
            if a.get("mandatory"):
                effects.append({"_act": {"source": f"slot:{at}", "index": i, "character": c}})
        effects.append({"discard": "this"})
    elif kind in ("global_event", "purse"):
        # the Deck d'Exploration's globals and items act once, then the place is free
        effects.append({"discard": "this"})
    if effects:
        state["queue"].append({"effects": effects, "ctx": fctx})


def _leave(bundle: dict, state: dict, c: int) -> None:
    ch = state["characters"].pop(c)
    share = ch["hp"] // max(1, len(state["characters"]))
    for other in state["characters"]:
        other["hp"] = min(MAX_HP, other["hp"] + share)
    state["players"] = len(state["characters"])
    _log(state, "character.leaves", name=ch["name"])


# =========================================================================== views


def view(bundle: dict, state: dict, seat: int | None = None) -> dict:
    """What the players see: the decks' contents and order, face-down exploration cards, the
    box and the Past are reduced to counts."""
    v = copy_state(state)
    v.pop("rng", None)
    v.pop("queue", None)
    v["box"] = sum(len(keys) for keys in state["box"].values())
    v["explore_decks"] = {z: len(d) for z, d in state["explore_decks"].items()}
    v["past"] = len(state["past"])
    for ch in v["characters"]:
        ch["deck"] = len(ch["deck"])
    for slot in v["slots"].values():
        if not slot.get("revealed") and slot.get("exploration"):
            zone = _recs(bundle, "exploration_card")[slot["exploration"]]["zone"]
            slot["exploration"] = None
            slot["zone"] = zone
    v["seat"] = seat
    return v
