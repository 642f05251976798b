"""An outcome's effects (« Résolution du Dilemme », « Effets d'issue »), left to right:
resources with progression and stability, chronicle stickers, envelopes, secret stickers,
cards in and out of the deck, events, gains, flags, achievements and conditional branches."""

from __future__ import annotations

from . import abilities, achievements
from . import rules as R
from .common import SIDES, _log, _rec, _rules, deck, events_in_play, shuffle_into_deck
from .steps import run


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
            run("open_envelope", bundle, state, f"{int(value):02d}", signer)
        elif name == "secret_sticker":
            _stick_secret(bundle, state, value, rules)
        elif name == "skull":
            state.setdefault("skull_now", bool(value))
        elif name == "shuffle_in":
            if value not in deck(state) and value not in state.get("kept_immediates", []):
                shuffle_into_deck(state, [value])
                _log(state, "deck.added", count=1)
        elif name == "remove_card":
            _remove_card(state, value)
        elif name == "event":
            run("start_event", bundle, state, value, signer)
        elif name == "end_event":
            _end_event(bundle, state, value)
        elif name == "gain":
            _gain_effect(state, value, signer)
        elif name == "flag":
            if value not in camp["flags"]:
                camp["flags"].append(value)
        elif name == "unflag":
            if value in camp["flags"]:
                camp["flags"].remove(value)
        elif name == "achievement":
            _achievement(bundle, state, value)
        elif name == "branch":
            chosen = (
                value["then"]
                if _holds(bundle, state, value["requires"])
                else value.get("otherwise") or []
            )
            _apply_effects(bundle, state, chosen, signer, nested)


def _stick_secret(bundle: dict, state: dict, letter: str, rules: dict) -> None:
    """``secret_sticker``: the campaign's sticker, once; enough of them open the grand final."""
    camp = state["campaign"]
    if letter not in camp["secret_stickers"]:
        camp["secret_stickers"].append(letter)
        rec = _rec(bundle, "secret_sticker", letter) or {}
        _log(
            state,
            "secret.stuck",
            letter=letter,
            text=rec.get("text", ""),
            count=len(camp["secret_stickers"]),
        )
        if len(camp["secret_stickers"]) >= rules["secret_stickers_for_final"]:
            state["final_pending"] = True


def _remove_card(state: dict, card: str) -> None:
    """``remove_card``: out of the deck and out of the kept immediate cards."""
    for pile in (deck(state), state.get("kept_immediates", [])):
        if card in pile:
            pile.remove(card)
            _log(state, "deck.removed", card=card)


def _end_event(bundle: dict, state: dict, event: str) -> None:
    """``end_event``: the event card leaves play if it is in play."""
    if event in events_in_play(state):
        events_in_play(state).remove(event)
        rec = _rec(bundle, "event_card", event) or {}
        _log(state, "event.end", title=rec.get("title", event))


def _achievement(bundle: dict, state: dict, value: str) -> None:
    """``achievement: house/id``: a narrative one is unlocked, any other ticked."""
    house, _, ach_id = value.partition("/")
    hrec = _rec(bundle, "house", house) or {}
    ach = next((a for a in hrec.get("achievements") or () if a["id"] == ach_id), None)
    if ach is not None:
        if ach.get("kind") == "narrative":
            achievements._unlock_narrative(bundle, state, value)
        else:
            achievements._tick(bundle, state, house, ach)


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
        abilities._apply_gains(state, t, gain, "effect")


def _move(bundle: dict, state: dict, res: str, amount: int, rules: dict, nested: bool) -> None:
    marker = state["resources"][res]
    before = marker["pos"]
    on = "resource_up" if amount > 0 else "resource_down"
    # a move of no square is neither a rise nor a fall: the events' rules wait for a real one
    extra = 0 if nested or amount == 0 else run("event_rules", bundle, state, on, res)
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
        abilities._trigger(bundle, state, signer, "signed")
