"""Actions: « Tour de jeu » (the actions a character may undertake, who participates, who is
the active player), « Types d'actions » (simple, group, forbidden, multiple, mandatory) and the
« Séquence de résolution d'une action »: Préparation, Pioche, Résultat, Conséquence.

An action comes from a *source*: ``terrain:X,Y``, ``event:X,Y:KEY``, ``slot:X,Y`` (a face-up
card on an exploration place), ``explore:X,Y`` (« chercher un passage » on a face-down
exploration card), ``hand:C:SKILL``, ``purse:C:KEY``, ``quest:KEY``, ``global:KEY``,
``temp:KEY`` (a temporary event being resolved), ``paragraph:N`` or ``move`` (the character
card's « me déplacer »)."""

from __future__ import annotations

from typing import Any

from . import board as B
from . import cards as K
from . import characters as C
from . import effects as E
from . import records as rec
from . import rules as R
from .cards import temporary_in_play
from .characters import all_fainted
from .steps import effect

log = B.log
DICE = 4  # the box holds four dice
EXTRA_DRAW = 6  # cards a player may draw beyond the cost
EXPLORING = ("move", "find_passage")  # the actions the tremor makes cheaper


# --------------------------------------------------------------------------- sources


def card_of(state: dict, source: str) -> dict | None:
    """The card an action is printed on (``None``: the character card or a fog back)."""
    kind, _, rest = source.partition(":")
    if kind == "terrain":
        spot = state["board"].get(rest)
        return K.adventure(spot["terrain"]) if spot else None
    if kind == "event":
        return K.adventure(rest.rpartition(":")[2])
    if kind == "slot":
        slot = state["slots"].get(rest) or {}
        if slot.get("adventure"):
            return K.adventure(slot["adventure"])
        if slot.get("exploration") and slot.get("revealed"):
            return K.exploration(slot["exploration"])
        return None
    if kind == "hand":
        return K.action_card(rest.rpartition(":")[2])
    if kind == "purse":
        return K.adventure(rest.rpartition(":")[2])
    if kind in ("quest", "global", "temp"):
        return K.adventure(rest)
    if kind == "paragraph":
        return {"kind": "paragraph", "key": rest}
    return None


def spec_of(bundle: dict, state: dict, source: str, index: int) -> tuple[dict | None, dict | None]:
    """The action printed at ``source`` (its ``index``-th), and the card it is printed on."""
    kind = source.partition(":")[0]
    if kind == "move":
        return {"verb": "move", "cost": rec.rules(bundle)["move_cost"], "difficulty": 0}, None
    if kind == "explore":
        return {"verb": "find_passage", "cost": 0, "difficulty": 0}, None
    ref = card_of(state, source)
    if ref is None:
        return None, None
    printed = rec.record(bundle, ref).get("actions") or []
    if not 0 <= index < len(printed):
        return None, ref
    return printed[index], ref


def label_card(bundle: dict, ref: dict | None) -> str:
    """What a legal action says of its card: the number of an adventure card, the id of a
    face-up exploration card or a skill, the paragraph's number; nothing for a hidden card."""
    if ref is None:
        return ""
    if ref["kind"] == "adventure":
        return str(rec.adv(bundle, ref["key"])["number"])
    return str(ref["key"])


def act(bundle: dict, state: dict, c: int, source: str, index: int) -> dict:
    """The legal action « character ``c`` undertakes this action », with its card and title."""
    spec, ref = spec_of(bundle, state, source, index)
    return act_of(bundle, c, source, index, spec, ref)


def act_of(
    bundle: dict, c: int, source: str, index: int, spec: dict | None, ref: dict | None
) -> dict:
    """``act`` when the action printed at ``source`` and its card are known already."""
    return {
        "type": "act",
        "character": c,
        "source": source,
        "index": index,
        "card": label_card(bundle, ref),
        "title": (spec or {}).get("title") or "",
    }


def traits(bundle: dict, spec: dict) -> list[dict]:
    return [rec.recs(bundle, "creature_trait").get(t, {}) for t in spec.get("traits") or []]


# --------------------------------------------------------------------------- what may be done


def _blocked_verbs(spot: dict) -> set[str]:
    """« Action ayant déjà été réalisée »: the icon on a linked event's positioning arrow."""
    return {ev["blocked_verb"] for ev in spot["events"] if ev.get("blocked_verb")}


def near(state: dict, here: str) -> list[str]:
    """Exploration places next to the Terrain ``here`` (a side touches it)."""
    sides = B.around(here)
    return sorted(key for key in state["slots"] if key in sides)


def available(bundle: dict, state: dict, c: int) -> list[tuple[str, int]]:
    """(source, index) of every action character ``c`` may undertake now (« Actions
    interdites » left out: a prerequisite the group cannot meet, a group action someone
    conscious cannot join, an action already done on this Terrain)."""
    return [(source, i) for source, i, _, _ in offers(bundle, state, c)]


def offers(bundle: dict, state: dict, c: int) -> list[tuple[str, int, dict, dict | None]]:
    """``available`` with what ``spec_of`` tells of each: (source, index, the action printed
    there, the card it is printed on) — read once, as the sources are listed."""
    ch = state["characters"][c]
    if not ch["conscious"] or ch["at"] not in state["board"]:
        return []
    here = ch["at"]
    spot = state["board"][here]
    out: list[tuple[str, int, dict, dict | None]] = []
    blocked = _blocked_verbs(spot)
    ref: dict | None = K.adventure(spot["terrain"])
    for i, a in enumerate(rec.adv(bundle, spot["terrain"]).get("actions") or []):
        if a["verb"] not in blocked:
            out.append((f"terrain:{here}", i, a, ref))
    for ev in spot["events"]:
        ref = K.adventure(ev["key"])
        for i, a in enumerate(rec.adv(bundle, ev["key"]).get("actions") or []):
            out.append((f"event:{here}:{ev['key']}", i, a, ref))
    for key in near(state, here):
        slot = state["slots"][key]
        if slot.get("exploration") and not slot["revealed"]:
            passage = {"verb": "find_passage", "cost": 0, "difficulty": 0}  # as spec_of says
            out.append((f"explore:{key}", 0, passage, None))
            continue
        ref = card_of(state, f"slot:{key}")
        if ref is not None:
            for i, a in enumerate(rec.record(bundle, ref).get("actions") or []):
                out.append((f"slot:{key}", i, a, ref))
    for card in ch["hand"]:
        ref = K.action_card(card)
        for i, a in enumerate(rec.skill(bundle, card).get("actions") or []):
            out.append((f"hand:{ch['id']}:{card}", i, a, ref))
    for key in ch["purse"]:
        ref = K.adventure(key)
        for i, a in enumerate(rec.adv(bundle, key).get("actions") or []):
            out.append((f"purse:{ch['id']}:{key}", i, a, ref))
    for name, prefix in (("quest_items", "quest"), ("globals", "global")):
        for key in state[name]:
            ref = K.adventure(key)
            for i, a in enumerate(rec.adv(bundle, key).get("actions") or []):
                out.append((f"{prefix}:{key}", i, a, ref))
    result = []
    for source, i, spec, ref in out:
        if spec is None:
            continue
        if spec.get("requires") and not E.holds(bundle, state, spec["requires"]):
            continue
        if spec.get("group") and any(
            x["conscious"] and x["at"] != here for x in state["characters"]
        ):
            continue
        result.append((source, i, spec, ref))
    return result


def present(state: dict, c: int) -> list[int]:
    """Conscious characters on ``c``'s Terrain, ``c`` first."""
    here = state["characters"][c]["at"]
    others = [
        i
        for i, x in enumerate(state["characters"])
        if i != c and x["conscious"] and here is not None and x["at"] == here
    ]
    return [c, *others]


# --------------------------------------------------------------------------- starting


def force(bundle: dict, state: dict, spec: dict) -> None:
    """A mandatory action begins: everyone on the Terrain of the character who revealed it
    takes part, and the participants choose among them the active player."""
    c = spec.get("character", 0)
    chars = state["characters"]
    if c >= len(chars) or not chars[c]["conscious"]:
        conscious = [i for i, x in enumerate(chars) if x["conscious"]]
        if not conscious:
            return
        c = conscious[0]
    action, _ = spec_of(bundle, state, spec["source"], spec["index"])
    if action is None or (
        action.get("requires") and not E.holds(bundle, state, action["requires"])
    ):
        return
    if action.get("group"):
        participants = [i for i, x in enumerate(chars) if x["conscious"]]
    else:
        participants = present(state, c)
    if len(participants) > 1:
        state["pending"] = {
            "type": "active",
            "source": spec["source"],
            "index": spec["index"],
            "participants": participants,
        }
        return
    start(bundle, state, c, spec["source"], spec["index"], participants, mandatory=True)


def start(
    bundle: dict,
    state: dict,
    c: int,
    source: str,
    index: int,
    participants: list[int] | None = None,
    *,
    mandatory: bool = False,
    target: str | None = None,
) -> None:
    """Character ``c`` undertakes an action: its die is set if it is a multiple action, the
    cards it must use are selected, and the Préparation (or the Pioche) begins."""
    spec, ref = spec_of(bundle, state, source, index)
    assert spec is not None
    mandatory = mandatory or bool(spec.get("mandatory"))
    if participants is None:
        if spec.get("group"):
            participants = [i for i, x in enumerate(state["characters"]) if x["conscious"]]
            participants.remove(c)
            participants.insert(0, c)
        else:
            participants = [c]
    die_key = None
    if spec.get("lines") and ref is not None:
        die_key = f"{ref['key']}#{index}"
        if die_key not in state["dice"]:
            _place_die(bundle, state, die_key, ref, spec)
    if state.get("action") is not None:  # an action inside an action: the first one waits
        state["suspended"].append(state["action"])
    state["turns"] += 1  # « un autre tour de jeu commence » with each action
    state["scenario_turns"] += 1
    ch = state["characters"][c]
    state["action"] = {
        "character": c,
        "participants": participants,
        "source": source,
        "index": index,
        "verb": spec["verb"],
        "title": spec.get("title") or "",
        "this": ref,
        "die": die_key,
        "target": target,
        "mandatory": mandatory,
        "selected": [],
        "drawn": [],
        "keep": 0,
        "move_die": 0,
        "tremor": False,
    }
    log(
        state,
        "action.start",
        name=ch["name"],
        id=ch["id"],
        verb=spec["verb"],
        title=spec.get("title") or "",
        card=rec.record(bundle, ref).get("title", "") if ref else "",
        others=[state["characters"][p]["name"] for p in participants if p != c],
    )
    must = [
        k for k in ch["purse"] if rec.adv(bundle, k).get("must_select") and fits(bundle, k, spec)
    ]
    if source.startswith("purse:"):
        must.insert(0, source.rpartition(":")[2])
    state["action"]["selected"] = compatible(bundle, list(dict.fromkeys(must)))
    state["pending"] = {"type": "prepare" if selectable(bundle, state) else "draw", "character": c}


def _place_die(bundle: dict, state: dict, die_key: str, ref: dict, spec: dict) -> None:
    if len(state["dice"]) >= DICE:  # « si aucun dé n'est disponible », take one from a card
        taken = next(iter(state["dice"]))
        card = state["dice"].pop(taken)["card"]
        log(state, "die.taken", title=_title_of(bundle, card))
    extra = sum(t.get("difficulty", 0) for t in traits(bundle, spec))
    state["dice"][die_key] = {
        "line": 0,
        "value": spec["lines"][0]["difficulty"] + extra,
        "card": ref["key"],
    }


def _title_of(bundle: dict, key: str) -> str:
    for table in ("adventure_card", "exploration_card", "action_card"):
        if key in rec.recs(bundle, table):
            return rec.recs(bundle, table)[key].get("title", "")
    return ""


# --------------------------------------------------------------------------- Préparation


def fits(bundle: dict, key: str, spec: dict) -> bool:
    """The card's condition icon matches the action (no icon in it: any action)."""
    when = rec.adv(bundle, key).get("when") or []
    return not when or spec["verb"] in when


def compatible(bundle: dict, keys: list[str]) -> list[str]:
    """Keep cards with no MOT-CLEF in common, in order."""
    out: list[str] = []
    seen: set[str] = set()
    for k in keys:
        words = set(rec.adv(bundle, k).get("keywords") or [])
        if words & seen:
            continue
        out.append(k)
        seen |= words
    return out


def eligible(bundle: dict, state: dict) -> list[str]:
    """What the active player may select: purse cards whose condition fits the action (and
    that have something to give), and skills in hand that are spent when used."""
    action = state["action"]
    spec = {"verb": action["verb"]}
    ch = state["characters"][action["character"]]
    out = []
    for card in ch["hand"]:
        r = rec.skill(bundle, card)
        usable = r.get("spend") and r.get("bonuses") and r.get("skill") != "reflex"
        if usable and (not r.get("when") or action["verb"] in r["when"]):
            out.append(card)
    for key in ch["purse"]:
        r = rec.adv(bundle, key)
        if (r.get("bonuses") or r.get("on_selected")) and fits(bundle, key, spec):
            out.append(key)
    return out


def selectable(bundle: dict, state: dict) -> list[str]:
    """Eligible cards not selected yet and sharing no MOT-CLEF with a selected one."""
    chosen = set(state["action"]["selected"])

    def words(k: str) -> set[str]:
        if k in rec.recs(bundle, "adventure_card"):
            return set(rec.adv(bundle, k).get("keywords") or [])
        return set()

    taken = set().union(*(words(k) for k in chosen)) if chosen else set()
    return [k for k in eligible(bundle, state) if k not in chosen and not words(k) & taken]


# --------------------------------------------------------------------------- Pioche


def bonuses(bundle: dict, state: dict, revealed: list[str] | None = None) -> list[dict]:
    """Bonuses in force for the running action: selected purse cards, skills in the active
    player's hand whose condition fits (a skill spent when used only if selected), and reflex
    skills among the revealed cards."""
    action = state["action"]
    verb = action["verb"]
    ch = state["characters"][action["character"]]
    skills = rec.recs(bundle, "action_card")
    out = []
    for key in action["selected"]:
        if key in skills:
            continue
        b = rec.adv(bundle, key).get("bonuses")
        if b and key in ch["purse"]:
            out.append(b)
    for card in ch["hand"]:
        r = skills.get(card, {})
        if r.get("spend") and card not in action["selected"]:
            continue
        if (
            r.get("skill") != "reflex"
            and r.get("bonuses")
            and (not r.get("when") or verb in r["when"])
        ):
            out.append(r["bonuses"])
    for card in revealed or []:
        r = skills.get(card, {})
        if (
            r.get("skill") == "reflex"
            and r.get("bonuses")
            and (not r.get("when") or verb in r["when"])
        ):
            out.append(r["bonuses"])
    return out


def can_tremor(bundle: dict, state: dict) -> bool:
    """The tremor makes exploring cheaper: a few times a scenario (its level), one card less
    to draw for « me déplacer », « chercher un passage » or an action of an exploration card."""
    action = state["action"]
    left = state["citadel"]["tremor"] - state.get("tremor_used", 0)
    exploring = action["verb"] in EXPLORING or action["source"].startswith(("slot:", "explore:"))
    return left > 0 and exploring and base_cost(bundle, state) > 0


def base_cost(bundle: dict, state: dict) -> int:
    """The cost once the cards in force are counted, before the tremor."""
    action = state["action"]
    spec, _ = spec_of(bundle, state, action["source"], action["index"])
    base = (spec or {}).get("cost", 0) + sum(t.get("cost", 0) for t in traits(bundle, spec or {}))
    more = sum(b.get("extra_draw", 0) for b in bonuses(bundle, state))
    less = sum(b.get("cost_reduction", 0) for b in bonuses(bundle, state))
    return max(0, base + more - less)


def cost(bundle: dict, state: dict, tremor: bool = False) -> tuple[int, int]:
    """(fewest cards to draw, most) for the running action: the cost (never below 0) and up
    to ``EXTRA_DRAW`` more, never more than the deck and the discard hold together (the
    rulebook sets no limit: « Nos décisions »)."""
    action = state["action"]
    low = max(0, base_cost(bundle, state) - (1 if tremor else 0))
    ch = state["characters"][action["character"]]
    return low, max(low, min(low + EXTRA_DRAW, len(ch["deck"]) + len(ch["discard"])))


def draw(bundle: dict, state: dict, count: int, tremor: bool = False) -> None:
    """Draw ``count`` cards, face down; a deck that runs out is recovered in the middle of the
    draw (the action goes on while the character is conscious)."""
    action = state["action"]
    c = action["character"]
    ch = state["characters"][c]
    if tremor:
        state["tremor_used"] = state.get("tremor_used", 0) + 1
        action["tremor"] = True
        log(state, "tremor", left=state["citadel"]["tremor"] - state["tremor_used"])
    drawn = 0
    while drawn < count:
        if not ch["deck"] and not C.auto_recover(bundle, state, c, count - drawn):
            break
        if not ch["deck"]:
            break
        K.move(bundle, state, K.action_card(ch["deck"][-1]), "drawn")
        drawn += 1
    if not ch["conscious"]:  # fainted while recovering: the action stops here
        log(state, "action.stopped", name=ch["name"], id=ch["id"])
        end(bundle, state)
        E.pump(bundle, state)
        return
    result(bundle, state)


# --------------------------------------------------------------------------- Résultat


def need(bundle: dict, state: dict) -> int:
    """Successes the action needs: its difficulty, or the value of its die."""
    action = state["action"]
    spec, _ = spec_of(bundle, state, action["source"], action["index"])
    if action["die"]:
        return state["dice"][action["die"]]["value"]
    return (spec or {}).get("difficulty", 0) + sum(
        t.get("difficulty", 0) for t in traits(bundle, spec or {})
    )


def tally(bundle: dict, state: dict) -> dict[str, Any]:
    """How the revealed cards make successes: stars and half-stars of the counted cards (a
    chain limits them to the default cost, plus « cartes supplémentaires »), class icons
    turned into successes or cancelled damage, flat successes of the cards in force."""
    action = state["action"]
    spec, _ = spec_of(bundle, state, action["source"], action["index"])
    spec = spec or {}
    skills = rec.recs(bundle, "action_card")
    drawn = [skills.get(k, {}) for k in action["drawn"]]
    bonus = bonuses(bundle, state, action["drawn"])
    limit = None
    if spec.get("chain"):
        limit = spec.get("cost", 0) + sum(b.get("extra_cards", 0) for b in bonus)
    stars, counted = R.best_stars(drawn, limit)
    icons = R.class_icons(drawn)
    for key in action["selected"]:
        r = (
            rec.adv(bundle, key)
            if key in rec.recs(bundle, "adventure_card")
            else skills.get(key, {})
        )
        icons.extend((r.get("result") or {}).get("classes") or [])
    conversions = [b["convert"] for b in bonus if b.get("convert")]
    converted, cancels, _ = R.convert(icons, conversions)
    flat = sum(b.get("successes", 0) for b in bonus)
    return {
        "stars": stars,
        "counted": [action["drawn"][i] for i in counted],
        "limit": limit,
        "icons": icons,
        "converted": converted,
        "cancels": cancels,
        "flat": flat,
        "total": stars + converted + flat,
        "need": need(bundle, state),
    }


def result(bundle: dict, state: dict) -> None:
    """Reveal the cards and count the successes: when the action can succeed, the players
    may still count fewer (« il peut choisir de n'en comptabiliser aucun »)."""
    action = state["action"]
    t = tally(bundle, state)
    action["tally"] = t
    log(
        state,
        "action.drawn",
        name=state["characters"][action["character"]]["name"],
        cards=list(action["drawn"]),
        multiple=bool(action["die"]),
        title=action["title"],
        verb=action["verb"],
        **t,
    )
    if t["total"] >= t["need"] > 0:
        state["pending"] = {"type": "result", "character": action["character"]}
        return
    count(bundle, state, t["total"])


def count_options(state: dict) -> list[int]:
    """The numbers of successes the active player may count: all of them, or few enough to
    fail (any number below the need, for a multiple action's die; none, for a simple one)."""
    t = state["action"]["tally"]
    out = [t["total"]]
    if t["total"] >= t["need"] > 0:
        out += list(range(t["need"])) if state["action"]["die"] else [0]
    return out


def count(bundle: dict, state: dict, successes: int) -> None:
    """Compare the successes counted with the difficulty, then apply the consequences."""
    action = state["action"]
    spec, ref = spec_of(bundle, state, action["source"], action["index"])
    spec = spec or {}
    t = action.get("tally") or {"need": need(bundle, state), "cancels": 0, "total": successes}
    if action["die"]:
        die = state["dice"][action["die"]]
        die["value"] = max(0, die["value"] - successes)
        ok = die["value"] < 1
        line = spec["lines"][die["line"]]
        effects = list(line.get("success" if ok else "failure") or [])
    else:
        ok = successes >= t["need"]
        effects = list(spec.get("success" if ok else "failure") or [])
    for trait in traits(bundle, spec):
        effects.extend(trait.get("on_success" if ok else "on_failure") or [])
    action.update({"successes": successes, "ok": ok})
    log(
        state,
        "action.result",
        ok=ok,
        successes=successes,
        total=t["total"],
        need=t["need"],
        die=state["dice"][action["die"]]["value"] if action["die"] else None,
        title=action["title"],
        verb=action["verb"],
    )
    if action["verb"] == "move" and ok and action.get("target"):
        effects.insert(0, {"_move_to": action["target"]})
    if action["source"].startswith("explore:") and ok:
        effects.insert(0, {"_reveal": action["source"].partition(":")[2]})
    ctx = {
        "character": action["character"],
        "verb": action["verb"],
        "this": ref,
        "cancel": t.get("cancels", 0),
        "participants": list(action["participants"]),
    }
    state["queue"].append({"effects": [*effects, {"_finish_action": True}], "ctx": ctx})
    # [sélectionnée]: each selected card's own effects, once the action is over
    c = action["character"]
    for key in action["selected"]:
        if key not in rec.recs(bundle, "adventure_card"):
            continue
        own = rec.adv(bundle, key).get("on_selected") or []
        if own:
            frame = {"effects": list(own), "ctx": {**ctx, "this": K.adventure(key), "character": c}}
            state["queue"].insert(len(state["queue"]) - 1, frame)


# --------------------------------------------------------------------------- Conséquence


def finish(bundle: dict, state: dict) -> None:
    """The consequences are applied: a multiple action's die moves on (or leaves the card),
    then the revealed cards may join the hand (« ajouter à sa main »)."""
    action = state.get("action")
    if action is None:
        return
    spec, _ = spec_of(bundle, state, action["source"], action["index"])
    die = state["dice"].get(action["die"]) if action["die"] else None
    if die is not None and spec is not None and action.get("ok"):
        line = die["line"] + max(1, action.get("move_die", 0))
        if line < len(spec["lines"]):
            extra = sum(t.get("difficulty", 0) for t in traits(bundle, spec))
            die["line"], die["value"] = line, spec["lines"][line]["difficulty"] + extra
        else:
            del state["dice"][action["die"]]
    ch = state["characters"][action["character"]]
    if action.get("keep") and action["drawn"] and ch["conscious"]:
        state["pending"] = {
            "type": "keep",
            "character": action["character"],
            "left": min(action["keep"], len(action["drawn"])),
        }
        return
    end(bundle, state)


def end(bundle: dict, state: dict) -> None:
    """The revealed cards go to the discard; skills used are discarded or blocked; a
    temporary event whose participants all fainted is put back; a mandatory multiple action
    goes on until it is over."""
    action = state["action"]
    ch = state["characters"][action["character"]]
    for card in list(action["drawn"]):
        K.move(bundle, state, K.action_card(card), f"discard:{ch['id']}")
    skills = rec.recs(bundle, "action_card")
    for card in action["selected"]:
        spend = skills.get(card, {}).get("spend")
        if spend and card in ch["hand"]:
            K.move(
                bundle,
                state,
                K.action_card(card),
                f"{'discard' if spend == 'discard' else 'blocked'}:{ch['id']}",
            )
            log(
                state,
                "card.block" if spend == "block" else "skill.spent",
                title=skills[card].get("title", ""),
                name=ch["name"],
            )
    if all_fainted(state, action["participants"]) and action["mandatory"]:
        _put_back_temporary(bundle, state, action)
    again = (
        action["mandatory"]
        and action["die"]
        and action["die"] in state["dice"]
        and ch["conscious"]
        and _in_play(bundle, state, action.get("this"))
    )
    state["action"] = state["suspended"].pop() if state["suspended"] else None
    state["pending"] = None
    if again:  # « vous devez l'entreprendre à nouveau sitôt l'étape de Conséquence résolue »
        E.push(
            state,
            [
                {
                    "_act": {
                        "source": action["source"],
                        "index": action["index"],
                        "character": action["character"],
                    }
                }
            ],
            {"character": action["character"]},
        )


def _in_play(bundle: dict, state: dict, ref: dict | None) -> bool:
    if ref is None:
        return False
    if ref["kind"] == "paragraph":
        return True
    return K.where(bundle, state, ref) not in ("box", "past", "banished")


def _put_back_temporary(bundle: dict, state: dict, action: dict) -> None:
    """« Si tous les participants à une action figurant sur une carte Événement temporaire
    deviennent inconscients, cette carte est rangée. »"""
    ref = action.get("this")
    if ref is not None and temporary_in_play(bundle, state, ref):
        B.leave(bundle, state, ref, "box")
        log(state, "card.put_back", title=rec.record(bundle, ref).get("title", ""))


def leave_temporary(bundle: dict, state: dict, ref: dict) -> None:
    """A temporary event has been resolved: into the Past, unless its own effects already
    sent it elsewhere (banished, put back, discarded)."""
    here = K.where(bundle, state, ref)
    if here == "resolving" or (ref["kind"] == "exploration" and here.startswith("slot:")):
        B.leave(bundle, state, ref, "past")
        log(state, "card.discard", title=rec.record(bundle, ref).get("title", ""))


def keep(bundle: dict, state: dict, card: str) -> None:
    action = state["action"]
    ch = state["characters"][action["character"]]
    K.move(bundle, state, K.action_card(card), f"hand:{ch['id']}")
    log(state, "skill.kept", name=ch["name"], title=rec.skill(bundle, card).get("title", ""))


# --------------------------------------------------------------------------- exploration


def reveal_exploration(bundle: dict, state: dict, at: str, ctx: dict) -> None:
    """« Chercher un passage » succeeded: the exploration card is turned over and resolved."""
    slot = state["slots"].get(at)
    if slot is None or slot.get("exploration") is None:
        return
    slot["revealed"] = True
    key = slot["exploration"]
    card = rec.exp(bundle, key)
    ref = K.exploration(key)
    log(
        state,
        "exploration.revealed",
        title=card.get("title", ""),
        text=card.get("text", ""),
        id=key,
        type=card["type"],
    )
    c = ctx.get("character", 0)
    effects = list(card.get("effects") or [])
    if card["type"] == "temporary_event":
        for i, a in enumerate(card.get("actions") or []):
            if a.get("mandatory"):
                effects.append({"_act": {"source": f"slot:{at}", "index": i, "character": c}})
        effects.append({"_leave_temp": ref})
    elif card["type"] in ("global_event", "purse"):
        # the exploration deck's globals and finds act once, then the place is free
        effects.append({"_leave_temp": ref})
    E.push(state, effects, {**ctx, "this": ref})


# --------------------------------------------------------------------------- the action's frames


def _act_frame(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    force(bundle, state, value)


effect("_act")(_act_frame)


def _leave_temp_frame(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    leave_temporary(bundle, state, value)


effect("_leave_temp")(_leave_temp_frame)


def _finish_frame(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    finish(bundle, state)


effect("_finish_action")(_finish_frame)


def _reveal_frame(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    reveal_exploration(bundle, state, value, ctx)


effect("_reveal")(_reveal_frame)
