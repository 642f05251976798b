"""Le Dilemme du Roi as a pure state machine.

    campaign = new_campaign(bundle)                      # before the first game: envelope 00
    state = new_game(bundle, campaign, seats, seed)      # one game of the campaign
    legal_actions(state) -> [action, ...]                # every legal action, for every seat
    state = apply(bundle, state, action)                 # a new state; the input is untouched
    view(bundle, state, seat) -> what that seat may see  # hidden information removed
    state["campaign"]                                    # the campaign after the game, to save

States and actions are plain JSON values.  Randomness comes only from ``state["rng"]``.
Actions are dicts with a ``type`` and the acting ``seat`` (an index into ``state["seats"]``).

Decisions where the rulebook is silent are listed in ``RULINGS`` and on the site's rules page.
"""

from __future__ import annotations

from typing import Any

from ..core import IllegalAction, MalformedAction, Rng, copy_game, copy_state
from . import rules as R

FORMAT_VERSION = 1  # 1 — first state format
MIN_COMPATIBLE = 1
#: append-only parts of the state, shared between successive states (see core.copy_game)
SHARED = {"log": True, "campaign": {"history": True}}

DEFAULT_RULES = {
    "resource_track": 14,
    "stability_track": 14,
    "timeline_slots": 10,
    "skull_slot_cards": 5,
    "house_power": 8,
    "house_coins": 10,
    "balance_power": 3,
    "secret_stickers_for_final": 6,
    "chronicle_slots": 4,
}

RULINGS = (
    "deck_empty: when a round starts with an empty Dilemma deck, the king dies (the chronicle "
    "has nothing left to tell).",
    "chronicle_slots: each resource line of the Chronicle holds 4 stickers.",
    "all_tied: when every player is tied, they all score as first, not last.",
    "ranks: players are ranked by competition (1, 1, 3), resources by position (dense).",
)

SIDES = ("oui_da", "nenni")


# =========================================================================== helpers


def _rules(bundle: dict) -> dict[str, int]:
    return {**DEFAULT_RULES, **(bundle["campaign"].get("rules") or {})}


def _rec(bundle: dict, kind: str, key: str) -> dict | None:
    return bundle["records"].get(kind, {}).get(str(key))


def _card(bundle: dict, key: str) -> tuple[str, dict]:
    """A card of the Dilemma deck or an envelope's content, with its kind."""
    for kind in ("dilemma", "immediate_card", "event_card", "story_card", "epilogue"):
        rec = _rec(bundle, kind, key)
        if rec is not None:
            return kind, rec
    raise KeyError(key)


def _log(state: dict, key: str, /, **args: Any) -> None:
    state["log"].append({"key": key, "args": args})


def _seat_of(state: dict, house: str) -> int | None:
    for i, seat in enumerate(state["seats"]):
        if seat["house"] == house:
            return i
    return None


def _prestige_order(campaign: dict, bundle: dict, houses: list[str]) -> list[str]:
    """Houses from the highest prestige to the lowest; ties go to the higher house number."""

    def key(h: str) -> tuple[int, int]:
        rec = _rec(bundle, "house", h) or {}
        return (campaign["houses"][h]["prestige"], rec.get("number", 0))

    return sorted(houses, key=key, reverse=True)


# =========================================================================== campaign


def new_campaign(bundle: dict, seed: int | str = 0) -> dict:
    """The campaign before its first game: envelope 00 is opened (its story card laid on its
    arc, unsigned; its dilemmas shuffled into the starting deck)."""
    rules = _rules(bundle)
    campaign: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "campaign": bundle["campaign"]["id"],
        "rng": Rng.seed_from(f"campaign:{seed}"),
        "game_no": 0,
        "houses": {
            h: {"prestige": 0, "craving": 0, "ticks": {}, "unlocked": [], "objectives": []}
            for h in bundle["records"].get("house", {})
        },
        "deck": [],
        "events": [],
        "arcs": {},
        "chronicle": {r: [None] * rules["chronicle_slots"] for r in R.RESOURCES},
        "secret_stickers": [],
        "opened": [],
        "epilogues": [],
        "cohesion": 0,
        "dissension": 0,
        "flags": [],
        "history": [],
        "finished": False,
        "winner": None,
        "final_scores": {},
    }
    start = bundle["campaign"].get("start_envelope", 0)
    holder = {"rng": campaign["rng"], "campaign": campaign, "log": [], "seats": []}
    _open_envelope(bundle, holder, f"{int(start):02d}", signer=None)
    campaign["rng"] = holder["rng"]
    return campaign


# =========================================================================== setup


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
        for ability in _active_abilities(bundle, state, i):
            if ability.get("trigger") == "game_start":
                _apply_gains(state, i, ability.get("gains") or {}, "ability")

    # leader and moderator by prestige
    order = _prestige_order(campaign, bundle, houses)
    state["leader"] = houses.index(order[0])
    state["moderator"] = houses.index(order[-1])
    _event_rules(bundle, state, "game_start", None)
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


# =========================================================================== abilities


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
        if "uses" in ability and camp.setdefault("ability_uses", {}).get(key, 0) >= ability["uses"]:
            continue
        if (
            "per_game" in ability
            and state.setdefault("ability_uses", {}).get(key, 0) >= ability["per_game"]
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


# =========================================================================== envelopes & effects


def _shuffle_into_deck(state: dict, cards: list[str]) -> None:
    deck = state["deck"] if "deck" in state else state["campaign"]["deck"]
    deck.extend(cards)
    Rng(state).shuffle(deck)


def _deck(state: dict) -> list[str]:
    return state["deck"] if "deck" in state else state["campaign"]["deck"]


def _events(state: dict) -> list[str]:
    return state["events"] if "events" in state else state["campaign"]["events"]


def _open_envelope(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    """Open an envelope: its story card onto its arc (signed by ``signer``, the leader), its
    dilemmas and immediate cards shuffled into the deck, its events put in play, then the
    special envelope's effects in order."""
    camp = state["campaign"]
    env = _rec(bundle, "envelope", key)
    if env is None or key in camp["opened"]:
        return
    camp["opened"].append(key)
    _log(
        state,
        "envelope.open",
        envelope=key,
        title=env.get("title", ""),
        special=env.get("special", False),
    )
    if env.get("story"):
        _lay_story_card(bundle, state, env["story"], signer)
    into_deck = []
    for card in env.get("cards") or ():
        kind, _ = _card(bundle, card)
        if kind in ("dilemma", "immediate_card"):
            into_deck.append(card)
        elif kind == "event_card":
            _start_event(bundle, state, card, signer)
        else:
            _lay_story_card(bundle, state, card, signer)
    if into_deck:
        _shuffle_into_deck(state, into_deck)
        _log(state, "deck.added", count=len(into_deck))
    if env.get("effects"):
        _apply_effects(bundle, state, env["effects"], signer)


def _lay_story_card(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    kind, card = _card(bundle, key)
    camp = state["campaign"]
    house = (
        state["seats"][signer]["house"] if signer is not None and card.get("signature") else None
    )
    camp["arcs"].setdefault(card["arc"], []).append({"card": key, "signer": house})
    _log(
        state,
        "story.laid",
        title=card["title"],
        arc=card["arc"],
        signer=state["seats"][signer]["name"] if house else None,
    )
    if house is not None:
        state["seats"][signer]["signed"] += 1
        _trigger(bundle, state, signer, "signed")
        for ability in card.get("abilities") or ():
            if ability.get("trigger") == "immediate":
                _apply_gains(state, signer, ability.get("gains") or {}, "story")
    if kind == "epilogue" and key not in camp["epilogues"]:
        _play_epilogue(bundle, state, key, card)


def _play_epilogue(bundle: dict, state: dict, key: str, card: dict) -> None:
    camp = state["campaign"]
    camp["epilogues"].append(key)
    camp["cohesion"] += card.get("cohesion", 0)
    camp["dissension"] += card.get("dissension", 0)
    # majority signer bonus: who signed most of this arc's cards (ties: all of them)
    counts: dict[str, int] = {}
    for entry in camp["arcs"].get(card["arc"], []):
        if entry.get("signer"):
            counts[entry["signer"]] = counts.get(entry["signer"], 0) + 1
    bonus = card.get("majority_signer_bonus") or {}
    if counts and bonus:
        top = max(counts.values())
        for house, n in counts.items():
            if n == top:
                seat = _seat_of(state, house)
                if seat is not None:
                    _apply_gains(state, seat, bonus, "majority")
                else:  # a house not in this game still gets its campaign points
                    h = camp["houses"][house]
                    h["prestige"] += bonus.get("prestige", 0)
                    h["craving"] += bonus.get("craving", 0)
    if card.get("narrative_achievement"):
        _unlock_narrative(bundle, state, card["narrative_achievement"])


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
                _apply_gains(state, seat, gains, "achievement")
            else:
                h["prestige"] += gains.get("prestige", 0)
                h["craving"] += gains.get("craving", 0)
    else:
        _log(state, "achievement.ticked", house=name, achievement=ach.get("condition", ach["id"]))


def _start_event(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    events = _events(state)
    if key in events:
        return
    events.append(key)
    rec = _rec(bundle, "event_card", key) or {}
    _log(state, "event.start", title=rec.get("title", key), card=key)
    if rec.get("effects"):
        _apply_effects(bundle, state, rec["effects"], signer)


def _event_rules(bundle: dict, state: dict, on: str, resource: str | None) -> int:
    """Apply the rules of the events in play for ``on``; returns the extra squares."""
    extra = 0
    for key in list(_events(state)):
        rec = _rec(bundle, "event_card", key) or {}
        for rule in rec.get("rules") or ():
            if rule["on"] != on or (resource and rule.get("resource") not in (None, resource)):
                continue
            extra += rule.get("extra", 0)
            if rule.get("effects") and "seats" in state and state["seats"]:
                _apply_effects(bundle, state, rule["effects"], state.get("leader"), nested=True)
    return extra


def _holds(bundle: dict, state: dict, cond: list[dict]) -> bool:
    camp = state["campaign"]
    for atom in cond:
        ((name, value),) = atom.items()
        if name == "any":
            if not any(_holds(bundle, state, [alt]) for alt in value):
                return False
        elif name == "flag":
            if value not in camp["flags"]:
                return False
        elif name == "not_flag":
            if value in camp["flags"]:
                return False
        elif name == "envelope":
            if f"{int(value):02d}" not in camp["opened"]:
                return False
        elif name == "chronicle_sticker":
            if not any(
                s and str(s["id"]) == str(value)
                for line in camp["chronicle"].values()
                for s in line
            ):
                return False
        elif name == "secret_sticker":
            if value not in camp["secret_stickers"]:
                return False
        elif name == "secret_stickers":
            if len(camp["secret_stickers"]) < value:
                return False
        elif name == "resource":
            for res, need in value.items():
                if state["resources"][res]["pos"] < need:
                    return False
    return True


def _apply_effects(
    bundle: dict, state: dict, effects: list[dict], signer: int | None, nested: bool = False
) -> None:
    """Apply an outcome's effects one by one, left to right."""
    rules = _rules(bundle)
    camp = state["campaign"]
    for effect in effects:
        ((name, value),) = effect.items()
        if name in R.RESOURCES:
            _move(bundle, state, name, value, rules, nested)
        elif name == "chronicle_sticker":
            _stick_chronicle(bundle, state, str(value), signer)
        elif name == "open_envelope":
            _open_envelope(bundle, state, f"{int(value):02d}", signer)
        elif name == "secret_sticker":
            if value not in camp["secret_stickers"]:
                camp["secret_stickers"].append(value)
                rec = _rec(bundle, "secret_sticker", value) or {}
                _log(
                    state,
                    "secret.stuck",
                    letter=value,
                    text=rec.get("text", ""),
                    count=len(camp["secret_stickers"]),
                )
                if len(camp["secret_stickers"]) >= rules["secret_stickers_for_final"]:
                    state["final_pending"] = True
        elif name == "skull":
            state.setdefault("skull_now", bool(value))
        elif name == "shuffle_in":
            if value not in _deck(state) and value not in state.get("kept_immediates", []):
                _shuffle_into_deck(state, [value])
                _log(state, "deck.added", count=1)
        elif name == "remove_card":
            for pile in (_deck(state), state.get("kept_immediates", [])):
                if value in pile:
                    pile.remove(value)
                    _log(state, "deck.removed", card=value)
        elif name == "event":
            _start_event(bundle, state, value, signer)
        elif name == "end_event":
            if value in _events(state):
                _events(state).remove(value)
                rec = _rec(bundle, "event_card", value) or {}
                _log(state, "event.end", title=rec.get("title", value))
        elif name == "gain":
            _gain_effect(state, value, signer)
        elif name == "flag":
            if value not in camp["flags"]:
                camp["flags"].append(value)
        elif name == "unflag":
            if value in camp["flags"]:
                camp["flags"].remove(value)
        elif name == "achievement":
            house, _, ach_id = value.partition("/")
            hrec = _rec(bundle, "house", house) or {}
            ach = next((a for a in hrec.get("achievements") or () if a["id"] == ach_id), None)
            if ach is not None:
                if ach.get("kind") == "narrative":
                    _unlock_narrative(bundle, state, value)
                else:
                    _tick(bundle, state, house, ach)
        elif name == "branch":
            chosen = (
                value["then"]
                if _holds(bundle, state, value["requires"])
                else value.get("otherwise") or []
            )
            _apply_effects(bundle, state, chosen, signer, nested)


def _gain_effect(state: dict, gain: dict, signer: int | None) -> None:
    if not state.get("seats"):
        return
    who = gain.get("who", "leader")
    vote = state.get("vote") or {}
    if who in ("leader", "signer"):
        targets = [state["leader"] if signer is None else signer]
    elif who == "moderator":
        targets = [state["moderator"]]
    elif who == "all":
        targets = list(range(len(state["seats"])))
    else:
        side = vote.get("winner")
        targets = [
            i
            for i, v in enumerate(vote.get("votes") or [])
            if v["kind"] in SIDES and ((v["kind"] == side) == (who == "winners"))
        ]
    for t in targets:
        _apply_gains(state, t, gain, "effect")


def _move(bundle: dict, state: dict, res: str, amount: int, rules: dict, nested: bool) -> None:
    marker = state["resources"][res]
    before = marker["pos"]
    on = "resource_up" if amount > 0 else "resource_down"
    extra = 0 if nested else _event_rules(bundle, state, on, res)
    steps, direction = R.move_resource(marker, amount, rules["resource_track"], extra)
    _log(
        state,
        "resource.moved",
        resource=res,
        before=before,
        after=marker["pos"],
        progression=marker["marker"],
    )
    if state["abdicated"] or steps == 0:
        return
    state["stability"], abdication = R.move_stability(
        state["stability"], steps, direction, rules["stability_track"]
    )
    if abdication:
        state["abdicated"] = True
        _log(state, "king.abdicates", stability=state["stability"])


def _stick_chronicle(bundle: dict, state: dict, key: str, signer: int | None) -> None:
    rec = _rec(bundle, "chronicle_sticker", key)
    if rec is None:
        return
    line = state["campaign"]["chronicle"][rec["resource"]]
    slot = R.chronicle_slot(line)
    house = state["seats"][signer]["house"] if signer is not None else None
    line[slot] = {"id": key, "polarity": rec["polarity"], "signer": house, "ticks": 0}
    _log(
        state,
        "chronicle.stuck",
        card=key,
        title=rec["title"],
        resource=rec["resource"],
        polarity=rec["polarity"],
        signer=state["seats"][signer]["name"] if house else None,
        slot=slot,
    )
    if signer is not None:
        state["seats"][signer]["signed"] += 1
        _trigger(bundle, state, signer, "signed")


# =========================================================================== rounds


def _start_round(bundle: dict, state: dict) -> None:
    """Draw from the bottom of the deck; immediate cards resolve and another card is drawn."""
    while True:
        if not state["deck"]:
            state["king_dead"] = True
            _log(state, "deck.empty")
            _end_game(bundle, state)
            return
        key = state["deck"].pop()
        kind, card = _card(bundle, key)
        if kind == "immediate_card":
            _log(state, "immediate.drawn", title=card["title"], text=card["text"], card=key)
            _apply_effects(bundle, state, card.get("effects") or [], state["leader"])
            if card.get("keep"):
                state["kept_immediates"].append(key)
            if state["abdicated"] or state["final_pending"]:
                _end_game(bundle, state)
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


def _staked(vote: dict, seat: int) -> int:
    v = vote["votes"][seat]
    return v["power"] if v["kind"] in SIDES else 0


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
    _cleanup_and_outcome(bundle, state)


def _cleanup_and_outcome(bundle: dict, state: dict) -> None:
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
            _trigger(bundle, state, i, "won_vote" if v["kind"] == side else "lost_vote", v["power"])
        elif v["kind"] == "pass_power":
            _trigger(bundle, state, i, "passed_for_power")
    # the outcome, effect by effect, signed by the leader
    key = vote["card"]
    card = _rec(bundle, "dilemma", key) or {}
    outcome = card.get(side) or {}
    _log(state, "outcome", side=side, title=card.get("title", key), text=outcome.get("text", ""))
    state.pop("skull_now", None)
    _apply_effects(bundle, state, outcome.get("effects") or [], state["leader"])
    skull = bool(card.get("skull")) or bool(state.pop("skull_now", False))
    # the timeline; the last slot is the skull slot
    rules = _rules(bundle)
    state["timeline"].append({"card": key, "side": side})
    if len(state["timeline"]) >= rules["timeline_slots"]:
        state["skull_cards"] += 1
        if skull or state["skull_cards"] >= rules["skull_slot_cards"]:
            state["king_dead"] = True
            _log(state, "king.dies", skull=skull)
    state["vote"] = None
    _event_rules(bundle, state, "round_end", None)
    if state["final_pending"] or state["abdicated"] or state["king_dead"]:
        _end_game(bundle, state)
        return
    _start_round(bundle, state)


# =========================================================================== end of game


def _end_game(bundle: dict, state: dict) -> None:
    rules = _rules(bundle)
    camp = state["campaign"]
    seats = state["seats"]
    positions = {r: m["pos"] for r, m in state["resources"].items()}
    coins = {i: s["coins"] for i, s in enumerate(seats)}
    power = {i: s["power"] for i, s in enumerate(seats)}
    wealth = R.competition_ranks(coins)
    majority = R.power_majority_points(power)
    scores = {}
    rows = []
    for i, s in enumerate(seats):
        obj = _rec(bundle, "secret_objective", s["objective"]) if s["objective"] else None
        res_pts, wealth_pts = (
            R.secret_objective_points(obj, positions, wealth[i]) if obj else (0, 0)
        )
        public = R.public_objective_points(s["public"], positions)
        s["public_points"] = public
        total = res_pts + wealth_pts + public + majority[i]
        scores[i] = total
        rows.append(
            {
                "house": s["house"],
                "name": s["name"],
                "objective": s["objective"],
                "public": public,
                "resources": res_pts,
                "wealth": wealth_pts,
                "power": majority[i],
                "total": total,
            }
        )
    ranks = R.competition_ranks(scores)
    if state["abdicated"]:
        ending = "top" if state["stability"] >= rules["stability_track"] // 2 else "bottom"
    else:
        ending = "died"
    gains = R.prestige_and_craving(ranks, ending)
    for i, row in enumerate(rows):
        row["rank"] = ranks[i]
        p, c = gains[i]
        row["prestige"], row["craving"] = p, c
        h = camp["houses"][seats[i]["house"]]
        h["prestige"] += p
        h["craving"] += c
    winner_rank = min(ranks.values())
    winners = [seats[i]["name"] for i, r in ranks.items() if r == winner_rank]
    _log(state, "game.end", ending=ending, winners=winners)
    # achievements and alignment
    for i, s in enumerate(seats):
        hrec = _rec(bundle, "house", s["house"]) or {}
        for ach in hrec.get("achievements") or ():
            if (
                ach.get("kind") == "mechanic"
                and _achievement_holds(state, i, ach.get("test") or {}, ranks[i], ending)
            ) or (ach.get("kind") == "alignment" and ach.get("objective") == s["objective"]):
                _tick(bundle, state, s["house"], ach)
        if s["objective"]:
            camp["houses"][s["house"]]["objectives"].append(s["objective"])
        _trigger(bundle, state, i, "game_end")
    # save: kept immediates back into the deck, events stay, resolved dilemmas are gone
    deck = state["deck"] + state["kept_immediates"]
    Rng(state).shuffle(deck)
    camp["deck"] = deck
    camp["events"] = list(state["events"])
    camp["history"].append(
        {
            "game": camp["game_no"],
            "ending": ending,
            "rows": rows,
            "timeline": state["timeline"],
            "stability": state["stability"],
            "resources": positions,
        }
    )
    state["result"] = {"ending": ending, "rows": rows, "winners": winners}
    if state["final_pending"] and not camp["finished"]:
        _grand_final(bundle, state)
    state["phase"] = "over"
    state["pending"] = None


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


def _grand_final(bundle: dict, state: dict) -> None:
    camp = state["campaign"]
    key = f"{int(bundle['campaign'].get('grand_final', 70)):02d}"
    holder_signer = state["leader"]
    _open_envelope(bundle, state, key, holder_signer)
    weights = bundle["campaign"].get("final_scoring") or {
        "cohesion": {"prestige": 2, "craving": 1},
        "dissension": {"prestige": 1, "craving": 2},
    }
    mood = "cohesion" if camp["cohesion"] >= camp["dissension"] else "dissension"
    w = weights[mood]
    finals = {
        h: v["prestige"] * w.get("prestige", 1) + v["craving"] * w.get("craving", 1)
        for h, v in camp["houses"].items()
    }
    best = max(finals.values()) if finals else 0
    ties = sorted(h for h, v in finals.items() if v == best)
    # ties: the house with the higher house number (the rulebook's prestige tie-break)
    ties.sort(key=lambda h: (_rec(bundle, "house", h) or {}).get("number", 0), reverse=True)
    camp["finished"] = True
    camp["winner"] = ties[0] if ties else None
    camp["final_scores"] = finals
    camp["mood"] = mood
    name = (_rec(bundle, "house", camp["winner"]) or {}).get("name", camp["winner"])
    _log(state, "campaign.winner", house=name, mood=mood, score=best)


# =========================================================================== actions


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
        out.extend(_offers(state, seat, decide_only=True))
    if p["type"] in ("vote", "decide"):
        out.extend(_usable(bundle, state, seat))
        if gifts:
            out.extend(_gifts(state, seat))
    return out


def _turn_actions(state: dict, seat: int, p: dict) -> list[dict]:
    """What the pending seat may do on its turn (offers included, gifts and abilities not)."""
    t = p["type"]
    if t == "draft":
        return [{"type": "draft", "seat": seat, "objective": o} for o in state["draft"]["pool"]]
    if t == "keep_tokens":
        return [
            {"type": "keep_tokens", "seat": seat, "tokens": c}
            for c in _token_options(state["seats"][seat])
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
            out.extend(_offers(state, seat))
        else:
            if mine["kind"] in SIDES:
                out.extend({"type": "add", "seat": seat, "power": n} for n in range(1, power + 1))
            out.append({"type": "stand", "seat": seat})
    return out


def _gifts(state: dict, giver: int) -> list[dict]:
    coins = state["seats"][giver]["coins"]
    return [
        {"type": "give", "seat": giver, "to": to, "coins": c}
        for to in range(len(state["seats"]))
        if to != giver
        for c in range(1, coins + 1)
    ]


def _token_options(seat: dict) -> list[list[list[str]]]:
    pos = [t for t in seat["public"] if t[1] == "positive"]
    neg = [t for t in seat["public"] if t[1] == "negative"]

    def pairs(items: list) -> list[list]:
        if len(items) <= 2:
            return [items]
        return [[items[i], items[j]] for i in range(len(items)) for j in range(i + 1, len(items))]

    return [a + b for a in pairs(pos) for b in pairs(neg)]


_FIELDS = {
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

OFFER_MAX_COINS = 5
ASKS = ("oui_da", "nenni", "pass", "decide_oui_da", "decide_nenni")


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
            asks.append("pass")
            if state["seats"][to]["power"] > 0:
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
        candidates = _usable(bundle, state, action["seat"]) if in_vote else []
        if action not in candidates:
            raise IllegalAction(action, _where(state), "no such ability to use now")
        return _use_ability(bundle, state, action)
    candidates = (
        _gifts(state, action["seat"])
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
        return state
    if t == "offer":
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
        return state
    if t == "answer":
        offer = state.pop("offer")
        if action["accept"]:
            state["seats"][offer["from"]]["coins"] -= offer["coins"]
            s["coins"] += offer["coins"]
            state["vote"]["promises"][str(seat)] = offer["ask"]
        _log(state, "answer", house=s["name"], accept=action["accept"])
        state["pending"] = offer["resume"]
        return state
    if t == "draft":
        s["objective"] = action["objective"]
        state["draft"]["pool"].remove(action["objective"])
        state["draft"]["index"] += 1
        _log(state, "draft.done", house=s["name"])
        _next_setup_step(state)
        if state["phase"] == "round":
            _start_round(bundle, state)
        return state
    if t == "keep_tokens":
        s["public"] = action["tokens"]
        state["token_choices"].pop(0)
        _next_setup_step(state)
        if state["phase"] == "round":
            _start_round(bundle, state)
        return state
    if t in ("vote", "pass", "add", "stand"):
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
                _trigger(bundle, state, seat, "became_moderator")
            _log(state, "vote.pass", house=s["name"], why=action["for"])
        else:
            _log(state, "vote.stand", house=s["name"])
        _after_turn(bundle, state, seat)
        return state
    if t == "decide":
        _log(state, "moderator.decides", house=s["name"], side=action["side"])
        _vote_decided(
            bundle, state, action["side"], all_pass=state["pending"].get("all_pass", False)
        )
        return state
    if t == "choose_leader":
        state["leader"] = action["leader"]
        _log(state, "leader.chosen", house=state["seats"][action["leader"]]["name"])
        _cleanup_and_outcome(bundle, state)
        return state
    raise AssertionError(t)  # pragma: no cover


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


# =========================================================================== views


def view(bundle: dict, state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator).  Other seats' secret objectives, the deck's
    order, the back of the dilemma being voted on and the draft pool of others are removed."""
    v = copy_state(state)
    v.pop("rng", None)
    over = state["phase"] == "over"
    for i, s in enumerate(v["seats"]):
        if i != seat and not over:
            # behind the house's screen: only its owner sees them until the game ends
            s["objective"] = None
            s["power"] = None
            s["coins"] = None
    v["deck"] = len(state["deck"])
    v["campaign"].pop("deck", None)
    v["campaign"].pop("rng", None)
    if v.get("draft"):
        pending = state["pending"] or {}
        if pending.get("seat") != seat:
            v["draft"]["pool"] = len(state["draft"]["pool"])
    if state.get("vote"):
        key = state["vote"]["card"]
        card = _rec(bundle, "dilemma", key) or {}
        v["card"] = {
            "id": key,
            "title": card.get("title", ""),
            "question": card.get("question", ""),
            "preview": card.get("preview", {}),
        }
    v["seat"] = seat
    return v
