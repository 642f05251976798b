"""The characters: « Points de vie, Inconscience et Récupération », « Cartes Compétence et
taille de main », « Cartes Bourse et poids transportable », and « Quitter ou rejoindre
l'aventure en cours »."""

from __future__ import annotations

from typing import Any

from ..core import Rng
from . import board as B
from . import cards as K
from . import records as rec
from . import rules as R
from .content import TEMPORARY
from .steps import run

MAX_HP = 99
log = B.log


def new_character(bundle: dict, state: dict, cid: str, name: str | None = None) -> dict:
    """A character joins the table: its starting skills come out of the box, shuffled."""
    record = rec.recs(bundle, "character")[cid]
    ch: dict[str, Any] = {
        "id": cid,
        "name": name or record["name"],
        "gender": record.get("gender") or "m",
        "hp": 0,
        "conscious": True,
        "at": None,
        "deck": [],
        "discard": [],
        "hand": [],
        "blocked": [],
        "purse": [],
        "purse_blocked": [],
    }
    state["characters"].append(ch)
    for skill in record.get("starting_skills") or []:
        if K.places(bundle, state, K.action_card(skill)) == ["box"]:
            K.move(bundle, state, K.action_card(skill), f"deck:{cid}")
    Rng(state).shuffle(ch["deck"])
    return ch


def index_of(state: dict, cid: str) -> int:
    return next(i for i, ch in enumerate(state["characters"]) if ch["id"] == cid)


# --------------------------------------------------------------------------- hit points


def lose_hp(bundle: dict, state: dict, c: int, amount: int, cause: str = "hp") -> None:
    """Lose hit points (``cause``: ``damage``, ``hp``, ``recovery``, ``gift``); at 0 the
    character falls unconscious."""
    ch = state["characters"][c]
    if not ch["conscious"] or amount <= 0:
        return
    ch["hp"] = max(0, ch["hp"] - amount)
    log(state, "hp.lost", name=ch["name"], id=ch["id"], amount=amount, hp=ch["hp"], cause=cause)
    if ch["hp"] == 0:
        unconscious(bundle, state, c)


def gain_hp(bundle: dict, state: dict, c: int, amount: int) -> None:
    """Gain hit points (99 at most); an unconscious character wakes up on the active
    player's Terrain."""
    ch = state["characters"][c]
    if amount <= 0:
        return
    ch["hp"] = min(MAX_HP, ch["hp"] + amount)
    log(state, "hp.gained", name=ch["name"], id=ch["id"], amount=amount, hp=ch["hp"])
    if not ch["conscious"] and ch["hp"] > 0:
        ch["conscious"] = True
        active = (state.get("action") or {}).get("character")
        where = None
        if active is not None and state["characters"][active]["conscious"]:
            where = state["characters"][active]["at"]
        where = where or next((x["at"] for x in state["characters"] if x["at"]), None)
        ch["at"] = where or next(iter(state["board"]), None)
        log(state, "conscious", name=ch["name"], id=ch["id"])


def unconscious(bundle: dict, state: dict, c: int) -> None:
    """« Inconscience »: the figure leaves the Plateau, TEMPORAIRE cards are put back, the hand
    is discarded, the discard shuffled into the deck, three cards drawn as the new hand, and
    one of them is banished (the players choose which, when the turn comes back)."""
    ch = state["characters"][c]
    ch["conscious"] = False
    ch["at"] = None
    log(state, "unconscious", name=ch["name"], id=ch["id"], g=ch["gender"])
    for pile in ("purse", "purse_blocked"):
        for key in list(ch[pile]):
            if TEMPORARY in (rec.adv(bundle, key).get("keywords") or []):
                K.move(bundle, state, K.adventure(key), "box")
                log(state, "card.put_back", title=rec.adv(bundle, key).get("title", ""))
    for card in list(ch["hand"]):
        K.move(bundle, state, K.action_card(card), f"discard:{ch['id']}")
    for card in list(ch["discard"]):
        K.move(bundle, state, K.action_card(card), f"deck:{ch['id']}")
    Rng(state).shuffle(ch["deck"])
    for card in list(ch["deck"][-3:])[::-1]:
        K.move(bundle, state, K.action_card(card), f"hand:{ch['id']}")
    if all(not x["conscious"] for x in state["characters"]):
        state["queue"] = []
        run("finish", bundle, state, "defeat", "all_unconscious")
        return
    if ch["hand"]:
        state.setdefault("interrupt", []).append({"type": "banish", "character": c})


# --------------------------------------------------------------------------- Récupération


def recovery_options(state: dict, c: int) -> list[int]:
    """How many cards character ``c`` may take back now: whole series, never more hit points
    than the character has, and the whole discard when its last series is short."""
    ch = state["characters"][c]
    mode = state["options"]["recovery"]
    step = R.recovery_step(mode)
    out = []
    n = 0
    while n < len(ch["discard"]):
        n = min(n + step, len(ch["discard"]))
        if R.recovery_cost(n, mode) > ch["hp"]:
            break
        out.append(n)
    return out


def recover(bundle: dict, state: dict, c: int, cards: int, forced: bool = False) -> None:
    """Take ``cards`` at random from the discard, shuffle them into the deck, and lose the hit
    points their series cost (the last ones may leave the character unconscious)."""
    ch = state["characters"][c]
    mode = state["options"]["recovery"]
    cost = R.recovery_cost(cards, mode)
    rng = Rng(state)
    moved = 0
    for _ in range(min(cards, len(ch["discard"]))):
        card = ch["discard"][rng.below(len(ch["discard"]))]
        K.move(bundle, state, K.action_card(card), f"deck:{ch['id']}")
        moved += 1
    rng.shuffle(ch["deck"])
    log(
        state,
        "recovery",
        name=ch["name"],
        id=ch["id"],
        cards=moved,
        hp=cost,
        left=max(0, ch["hp"] - cost),
        forced=forced,
    )
    if cost > 0 and ch["conscious"]:
        ch["hp"] = max(0, ch["hp"] - cost)
        if ch["hp"] == 0:
            unconscious(bundle, state, c)


def free_recover(bundle: dict, state: dict, c: int, cards: int) -> None:
    """An effect lets the active player take cards back at random, at no cost."""
    ch = state["characters"][c]
    rng = Rng(state)
    moved = 0
    for _ in range(min(cards, len(ch["discard"]))):
        card = ch["discard"][rng.below(len(ch["discard"]))]
        K.move(bundle, state, K.action_card(card), f"deck:{ch['id']}")
        moved += 1
    rng.shuffle(ch["deck"])
    log(state, "recovered", name=ch["name"], id=ch["id"], cards=moved)


def auto_recover(bundle: dict, state: dict, c: int, needed: int) -> bool:
    """The deck ran out in the middle of a draw or a discard: recover the fewest series that
    cover what is missing (never more hit points than the character has, so the last series
    may leave it unconscious).  True when the character is still conscious."""
    ch = state["characters"][c]
    if not ch["discard"] or not ch["conscious"]:
        return False
    mode = state["options"]["recovery"]
    step = R.recovery_step(mode)
    cards = min(len(ch["discard"]), -(-needed // step) * step)
    affordable = (ch["hp"] // R.hp_per_series(mode)) * step
    cards = max(min(cards, affordable), min(step, len(ch["discard"])))
    recover(bundle, state, c, cards, forced=True)
    return ch["conscious"]


def discard_from_deck(bundle: dict, state: dict, c: int, count: int, quiet: bool = False) -> int:
    """Discard ``count`` cards from the top of the deck (a Récupération when it runs out);
    how many were discarded."""
    ch = state["characters"][c]
    done = 0
    while done < count:
        if not ch["deck"] and not auto_recover(bundle, state, c, count - done):
            break
        if not ch["deck"]:
            break
        K.move(bundle, state, K.action_card(ch["deck"][-1]), f"discard:{ch['id']}")
        done += 1
    if done and not quiet:
        last = state["log"][-1] if len(state["log"]) > state.get("mark", 0) else None
        if last and last["key"] == "deck.discarded" and last["args"]["id"] == ch["id"]:
            # one more discard by the same decision: one line, the total (a new entry: the
            # journal's entries are shared with earlier states and never changed)
            args = {**last["args"], "count": last["args"]["count"] + done}
            state["log"][-1] = {**last, "args": args}
        else:
            log(state, "deck.discarded", name=ch["name"], id=ch["id"], count=done)
    return done


# --------------------------------------------------------------------------- hand and purse


def hand_size(bundle: dict, state: dict, ch: dict) -> int:
    sizes = rec.recs(bundle, "character")[ch["id"]].get("hand_size") or {}
    return sizes.get(str(len(state["characters"])), 99)


def weight(bundle: dict, ch: dict) -> int:
    """Weight carried: every purse card, blocked ones included."""
    return sum(rec.adv(bundle, k).get("weight", 0) for k in ch["purse"] + ch["purse_blocked"])


def carry(bundle: dict, state: dict, ch: dict) -> int:
    limits = rec.recs(bundle, "character")[ch["id"]].get("carry_weight") or {}
    return limits.get(str(len(state["characters"])), 99)


def block(bundle: dict, state: dict, c: int, ref: dict, blocked: bool) -> None:
    """Block a card (under the character card: no effect, a purse card still weighs) or
    unblock it (a skill is shuffled into the deck, a purse card is back in play)."""
    ch = state["characters"][c]
    owner = ch
    here = K.places(bundle, state, ref)
    for other in state["characters"]:
        mine = [p for p in here if p.endswith(f":{other['id']}")]
        if mine:
            owner = other
    title = rec.record(bundle, ref).get("title", "")
    if ref["kind"] == "action_card":
        src = [p for p in here if p.split(":")[0] in ("hand", "deck", "discard")]
        if blocked and src:
            K.move(bundle, state, ref, f"blocked:{owner['id']}")
            log(state, "card.block", title=title, name=owner["name"])
        elif not blocked and f"blocked:{owner['id']}" in here:
            K.move(bundle, state, ref, f"deck:{owner['id']}")
            Rng(state).shuffle(owner["deck"])
            log(state, "card.unblock", title=title, name=owner["name"])
    elif ref["kind"] == "adventure":
        if blocked and f"purse:{owner['id']}" in here:
            K.move(bundle, state, ref, f"purse_blocked:{owner['id']}")
            log(state, "card.block", title=title, name=owner["name"])
        elif not blocked and f"purse_blocked:{owner['id']}" in here:
            K.move(bundle, state, ref, f"purse:{owner['id']}")
            log(state, "card.unblock", title=title, name=owner["name"])


def give(bundle: dict, state: dict, c: int, to: int, key: str, payer: int) -> None:
    """A purse card changes hands on one Terrain (blocked, it stays blocked); the giver or the
    receiver discards as many cards from the top of the deck as the item weighs."""
    giver, receiver = state["characters"][c], state["characters"][to]
    pile = "purse" if key in giver["purse"] else "purse_blocked"
    K.move(bundle, state, K.adventure(key), f"{pile}:{receiver['id']}")
    cost = rec.adv(bundle, key).get("weight", 0)
    who = state["characters"][payer]
    done = discard_from_deck(bundle, state, payer, cost, quiet=True)
    log(
        state,
        "item.given",
        giver=giver["name"],
        to=receiver["name"],
        title=rec.adv(bundle, key).get("title", ""),
        payer=who["name"],
        count=done,
        blocked=pile == "purse_blocked",
    )


def drop(bundle: dict, state: dict, c: int, key: str) -> None:
    """Discard a purse card (blocked or not) into the Past."""
    ch = state["characters"][c]
    K.move(bundle, state, K.adventure(key), "past")
    log(state, "item.dropped", name=ch["name"], title=rec.adv(bundle, key).get("title", ""))


def discard_skill(bundle: dict, state: dict, c: int, card: str) -> None:
    """Discard a skill from the hand into the character's discard (allowed at any time)."""
    ch = state["characters"][c]
    K.move(bundle, state, K.action_card(card), f"discard:{ch['id']}")
    log(state, "skill.discarded", name=ch["name"], title=rec.skill(bundle, card).get("title", ""))


# --------------------------------------------------------------------------- leaving, joining


def leave(bundle: dict, state: dict, c: int) -> None:
    """A character leaves the adventure for good.  Its own character skills (its initial or
    X), its hand, deck and discard, and its undiscardable purse cards are put away; its
    advanced and reflex skills go to the others, who discard them; its other purse cards go
    to the others (blocked ones stay blocked); its hit points are shared among the conscious
    characters left (in the scenario; at the Citadel the next scenario gives new ones)."""
    ch = state["characters"][c]
    others = [i for i in range(len(state["characters"])) if i != c]
    conscious = [i for i in others if state["characters"][i]["conscious"]] or others
    skills = [*ch["hand"], *ch["deck"], *ch["discard"], *ch["blocked"]]
    n = 0
    given = []
    for card in skills:
        kind = rec.skill(bundle, card).get("skill")
        if kind in ("advanced", "reflex") and others:
            who = state["characters"][others[n % len(others)]]
            pile = "blocked" if card in ch["blocked"] else "discard"
            K.move(bundle, state, K.action_card(card), f"{pile}:{who['id']}")
            given.append(rec.skill(bundle, card).get("title", ""))
            n += 1
        else:
            K.move(bundle, state, K.action_card(card), "box")
    for pile in ("purse", "purse_blocked"):
        for key in list(ch[pile]):
            if rec.adv(bundle, key).get("undiscardable") or not others:
                K.move(bundle, state, K.adventure(key), "box")
                continue
            who = state["characters"][others[n % len(others)]]
            K.move(bundle, state, K.adventure(key), f"{pile}:{who['id']}")
            given.append(rec.adv(bundle, key).get("title", ""))
            n += 1
    share = {}
    if state["phase"] == "play" and conscious and ch["hp"]:
        each, extra = divmod(ch["hp"], len(conscious))
        for k, i in enumerate(conscious):
            gain = each + (1 if k < extra else 0)
            other = state["characters"][i]
            other["hp"] = min(MAX_HP, other["hp"] + gain)
            if gain:
                share[other["name"]] = gain
    state["characters"].pop(c)
    state["players"] = len(state["characters"])
    log(state, "character.leaves", name=ch["name"], id=ch["id"], given=given, share=share)


def join(bundle: dict, state: dict, cid: str, name: str | None = None) -> None:
    """A character joins the adventure at the Citadel, with its starting Deck d'Action."""
    ch = new_character(bundle, state, cid, name)
    state["players"] = len(state["characters"])
    log(state, "character.joins", name=ch["name"], id=cid)


def all_fainted(state: dict, participants: list[int] | None) -> bool:
    """Every participant of an action is unconscious (``None``/empty: no action)."""
    if not participants:
        return False
    chars = state["characters"]
    return all(not chars[p]["conscious"] for p in participants if p < len(chars))
