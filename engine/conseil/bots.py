"""Honest bots: each decides from its own hand and the public table only (the die, the
objective, the Quémandeur, the Faveur, the discard tops, what was played and said this turn,
what everyone has seen of the other hands).

They coordinate the way the rulebook allows, with general remarks:

- « Je peux le faire tout seul » — one of my cards settles the dilemma from the die as it is:
  I reveal first (« Il faut que je joue en premier » when that card is LA DAME);
- after someone said so, the others choose the card that best keeps a won die won (LE STOÏQUE,
  a late DAME...) and reveal after;
- « J'aurai besoin d'aide » — nobody can do it alone: I play the card that brings the die
  where most characters could finish, and reveal before the others.

In a silent council no one speaks: the bots follow an unspoken convention everyone can work
out from the public table (``silent_roles``) and reason as if those remarks had been made.

Once the cards are down, the bot that settles the order picks who reveals next, and a bot
that applies an effect picks its option, by how often the cards still face down could finish
the job: the others' cards are guessed from what everyone saw go in and out of their hands
(never from the hands themselves).
"""

from __future__ import annotations

import itertools
from typing import Any

from . import plan as P
from .content import CHARACTERS as P_CHARS
from .rules import REMARK_ORDER

#: the order in which a bot keeps cards for the final claim: a convention every bot shares
THRONE_PREF = (
    "puissante",
    "sorcier",
    "druidesse",
    "stoique",
    "automate",
    "parasite",
    "chevalier",
    "inverseuse",
    "golem",
    "alchimiste",
    "dame",
    "oracle",
)
#: the cards a bot would rather keep (it plays the others first when all else is equal)
KEEP = {c: i for i, c in enumerate(("puissante", "dame", "sorcier", "alchimiste", "druidesse"))}


def _objs(view: dict) -> P.Objs:
    return tuple(tuple(o) for o in view["objectives"])


def _met(view: dict) -> P.Met:
    return tuple(view["met"])


def decide(view: dict[str, Any], actions: list[dict]) -> dict:
    phase = view["phase"]
    fn = {
        "bells": _bells,
        "choose": _choose,
        "reveal": _reveal,
        "effect": _effect,
        "oracle": _oracle,
        "throne": _claim,
        "throne_rewards": _throne_rewards,
        "successor": _successor,
    }.get(phase)
    if fn is None:
        return actions[0]
    if view["silent"] and phase in ("choose", "reveal") and not view["table"]:
        view = {**view, "remarks": silent_roles(view), "has_chosen": [True] * len(view["remarks"])}
    return fn(view, actions)


def silent_roles(view: dict[str, Any]) -> list[str | None]:
    """A silent council's unspoken convention, worked out by everyone from the public table
    alone: the first seat (in seat order) known to hold a character that settles the dilemma
    from the die as it is plays it, first; if there is none, the first seat prepares the die
    and the others finish.  The bots then reason as if those remarks had been made."""
    objs, met, face = _objs(view), _met(view), view["die"]
    pet = view["petitioner"]
    n = len(view["remarks"])
    roles: list[str | None] = [None] * n
    for t in range(n):
        if any(c != pet and P.solo(c, face, objs, met, True) for c in view["known"][t]):
            roles[t] = "seul"
            return roles
    roles[0] = "aide"
    return roles


def _bells(view: dict, actions: list[dict]) -> dict:
    need = view["rule"].get("min_bells", 0)
    ring = view["favor"] >= 5 or (view["rings"] < need and view["favor"] >= 2)
    two = any(a["two_turns"] for a in actions)
    for a in actions:
        if a["ring"] == ring and a["two_turns"] == two:
            return a
    return actions[0]


def _likely(view: dict) -> tuple[str, ...]:
    """Characters the others are known to hold (what everyone saw go in and out of hands)."""
    me = view["seat"]
    out: set[str] = set()
    for s, known in enumerate(view["known"]):
        if s != me:
            out.update(known)
    out.discard(view["petitioner"])
    return tuple(sorted(out))


def _candidates(view: dict, seat: int, solving: set[str]) -> list[str | None]:
    """The characters ``seat`` may have put face down, from what everyone saw of its hand (a
    seat that said it can do it alone holds one of the characters that can)."""
    table = {e["card"] for e in view["table"]}
    cands = [c for c in view["known"][seat] if c != view["petitioner"]]
    if view["remarks"][seat] in ("seul", "premier"):
        mine = [c for c in cands if c in solving]
        cands = [_solo_pick(mine)] if mine else cands
    elif (
        cands
        and not table
        and any(r in ("seul", "premier") for t, r in enumerate(view["remarks"]) if t != seat)
    ):
        cands = [_harmless_pick(view, cands, solving, seat)]
    return [c for c in cands if c not in table] or [None]


def _harmless_pick(view: dict, cands: list[str], solving: set[str], me: int) -> str:
    """What a helper plays once someone said they can do it alone: never the month's throne
    character, never the soloist's card (it would cancel it), the card that best keeps a won
    die won, the least valuable one."""
    objs, met = _objs(view), _met(view)
    keep = view["rule"].get("throne")
    soloists = set()
    for t, r in enumerate(view["remarks"]):
        if t != me and r in ("seul", "premier"):
            theirs = [c for c in view["known"][t] if c in solving]
            soloists.add(_solo_pick(theirs) if theirs else None)
    return max(
        cands,
        key=lambda c: (c != keep, c not in soloists, P.keep_share(c, objs, met), KEEP.get(c, 9), c),
    )


def _combos(lists: list[list], cap: int = 240) -> list[tuple]:
    """Every way to pick one item of each list (an evenly spread sample beyond ``cap``)."""
    total = 1
    for items in lists:
        total *= max(1, len(items))
    if total <= cap:
        return list(itertools.product(*lists))
    step = total / cap
    out = []
    for k in range(cap):
        i, combo = int(k * step), []
        for items in reversed(lists):
            i, r = divmod(i, len(items))
            combo.append(items[r])
        out.append(tuple(reversed(combo)))
    return out


def _effective(cards: tuple, played: set[str]) -> frozenset | None:
    """The characters that act: played once, not already on the table (else cancelled); the
    ORACLE's chance is not counted on (``None``)."""
    counts: dict[str, int] = {}
    for c in cards:
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    out = frozenset(c for c, k in counts.items() if k == 1 and c not in played)
    return None if "oracle" in out else out


def _chance(cards_by_combo: list[tuple], played: set[str], face: int, objs, met, first) -> float:
    if not cards_by_combo:
        return 0.0
    ok = 0
    for combo in cards_by_combo:
        eff = _effective(combo, played)
        if eff is not None and P.finish(eff, face, objs, met, first) is not None:
            ok += 1
    return ok / len(cards_by_combo)


def _solo_pick(mine: list[str]) -> str:
    """Which of its solving characters a soloist plays: the one it values least, LA DAME
    last (she only works first).  A convention every bot follows and can predict."""
    others = [c for c in mine if c != "dame"]
    return min(others, key=lambda c: (-KEEP.get(c, 9), c)) if others else "dame"


def _reach(card: str, objs: P.Objs, met: P.Met) -> int:
    """From how many faces the card settles the dilemma alone (played after another)."""
    return sum(1 for f in range(1, 13) if P.solo(card, f, objs, met, False))


def _choose(view: dict, actions: list[dict]) -> dict:
    objs, met, face = _objs(view), _met(view), view["die"]
    cards = sorted({a["card"] for a in actions})
    said = [r for s, r in enumerate(view["remarks"]) if s != view["seat"] and r]
    speak = not view["silent"]
    claimed = any(r in ("seul", "premier") for r in said)
    # the characters that settle it from the die as it is: what a soloist would play
    solving = {c for c in P_CHARS if c != view["petitioner"] and P.solo(c, face, objs, met, True)}

    def pick(card: str, remark: str | None) -> dict:
        remark = remark if speak else None
        return next(a for a in actions if a["card"] == card and a["remark"] == remark)

    keep = view["rule"].get("throne")

    if claimed:
        return pick(_harmless_pick(view, cards, solving, view["seat"]), None)
    return _choose_by_roles(view, actions, cards, solving, said, keep, pick)


def _choose_by_roles(view, actions, cards, solving, said, keep, pick) -> dict:
    """The remark conventions alone: a soloist, or someone who moves the die first and the
    others who finish with their most versatile card, avoiding the one the first probably
    chose."""
    objs, met, face = _objs(view), _met(view), view["die"]
    mine = [c for c in cards if c in solving]
    if mine:
        best = _solo_pick(mine)
        return pick(best, "premier" if best == "dame" else "seul")
    likely = _likely(view)
    pet = view["petitioner"]

    def setup_rank(c: str) -> tuple:
        outs = P.outcomes(c, face, objs, met, True)
        score = max((P.flex(f, o, m, likely) for _, _, f, o, m in outs), default=-1)
        return (c != keep, score, -KEEP.get(c, 9), c)

    hope = tuple(True for _ in met)  # the other objective will have been met

    def finish_rank(c: str) -> tuple:
        return (c != keep, _reach(c, objs, hope), -KEEP.get(c, 9), c)

    avoid: set[str] = set()
    for t, r in enumerate(view["remarks"]):
        if t == view["seat"] or not view["has_chosen"][t]:
            continue
        theirs = [c for c in view["known"][t] if c != pet]
        if not theirs:
            continue
        if r == "aide":
            avoid.add(max(theirs, key=setup_rank))
        elif r is None and "aide" in said:
            free = [c for c in theirs if c not in avoid] or theirs
            avoid.add(max(free, key=finish_rank))
    if "aide" in said:
        best = max(cards, key=lambda c: (c not in avoid, *finish_rank(c)))
        return pick(best, None)
    return pick(max(cards, key=setup_rank), "aide")


def _reveal(view: dict, actions: list[dict]) -> dict:
    objs, met, _face = _objs(view), _met(view), view["die"]
    reveals = [a for a in actions if a["type"] == "reveal"]
    rewards = [a for a in actions if a["type"] == "reward"]
    if not reveals:
        for a in rewards:
            if a["face"] and P.wins(objs, P.met_after(objs, met, a["face"]), a["face"]):
                return a
        if view["favor"] <= 2:
            for a in rewards:
                if view["rewards"][a["index"]]["type"] == "favor":
                    return a
        return next(a for a in actions if a["type"] == "conclude")
    remarks = view["remarks"]
    order = REMARK_ORDER
    solving = {
        c
        for c in P_CHARS
        if c != view["petitioner"] and P.solo(c, view["die"], objs, met, not view["table"])
    }
    left = [a["who"] for a in reveals]
    guesses = {t: _candidates(view, t, solving) for t in left}
    played = {e["card"] for e in view["table"]}
    first = not view["table"]

    def chance(t: int) -> float:
        rest = [u for u in left if u != t]
        worlds = _combos([guesses[t], *(guesses[u] for u in rest)], cap=120)
        ok = 0
        for combo in worlds:
            eff = _effective(combo, played)
            if eff is None:
                continue
            mine = combo[0]
            if mine not in eff:  # cancelled: no effect
                ok += P.finish(eff, view["die"], objs, met, first) is not None
                continue
            rest_eff = eff - {mine}
            ok += any(
                P.finish(rest_eff, f, o, m, False) is not None
                for _, _, f, o, m in P.outcomes(mine, view["die"], objs, met, first)
            )
        return ok / len(worlds) if worlds else 0.0

    return max(
        reveals, key=lambda a: (chance(a["who"]), -order.get(remarks[a["who"]], 3), -a["who"])
    )


def _effect(view: dict, actions: list[dict]) -> dict:
    objs, met, face = _objs(view), _met(view), view["die"]
    pending = view["pending"]
    card = pending["card"]
    left = sum(1 for r in view["revealed"] if not r)
    if card == "stoique":
        return max(actions, key=lambda a: -THRONE_PREF.index(a["take"]) if a["take"] else -99)
    likely = _likely(view)
    outs = {
        (kind, choice): (f, o, m)
        for kind, choice, f, o, m in P.outcomes(card, face, objs, met, pending["first"])
    }

    solving = {c for c in P_CHARS if c != view["petitioner"]}
    unrevealed = [t for t, r in enumerate(view["revealed"]) if not r]
    played = {e["card"] for e in view["table"]}
    worlds = _combos([_candidates(view, t, solving) for t in unrevealed], cap=120)
    claimed = any(r in ("seul", "premier") for r in view["remarks"])

    def value(a: dict) -> tuple:
        key = ("objective", a["objective"]) if "objective" in a else ("face", a["face"])
        f, o, m = outs.get(key, (face, objs, met))
        won = P.wins(o, m, f)
        progress = sum(m) - sum(met)
        chance = _chance(worlds, played, f, o, m, False) if left else float(won)
        if claimed:  # a win in hand first: the helpers chose cards that keep it
            return (won, chance, progress, P.flex(f, o, m, likely) if left else 0, -abs(f - face))
        return (chance, won, progress, P.flex(f, o, m, likely) if left else 0, -abs(f - face))

    return max(actions, key=value)


def _oracle(view: dict, actions: list[dict]) -> dict:
    objs, met, face = _objs(view), _met(view), view["die"]
    played = {e["card"] for e in view["table"]}
    safe = [a for a in actions if a["card"] != view["petitioner"] and a["card"] not in played]
    pool = safe or actions
    for a in pool:
        if P.solo(a["card"], face, objs, met, False):
            return a
    return max(pool, key=lambda a: (P.keep_share(a["card"], objs, met), a["card"]))


def _claim(view: dict, actions: list[dict]) -> dict:
    actions = [a for a in actions if a["type"] == "claim"]  # the RÉCOMPENSES wait for later
    want = view["rule"].get("throne")
    cards = [a["card"] for a in actions]
    if want in cards:
        return next(a for a in actions if a["card"] == want)
    me = view["seat"]

    def score(c: str) -> tuple:
        held = sum(1 for s, k in enumerate(view["known"]) if s != me and c in k)
        return (held, -THRONE_PREF.index(c))

    best = max(cards, key=score)
    return next(a for a in actions if a["card"] == best)


def _favor_reward(view: dict, actions: list[dict]) -> dict | None:
    """The « +1 Faveur » RÉCOMPENSE, when it is offered (the Faveur below its top)."""
    for a in actions:
        if a["type"] == "reward" and view["rewards"][a["index"]]["type"] == "favor":
            return a
    return None


def _throne_rewards(view: dict, actions: list[dict]) -> dict:
    """Before the claim is shown: a « +1 Faveur » kept until now is worth a year of reign and
    a safer claim; the die's RÉCOMPENSES do nothing for a claim."""
    return _favor_reward(view, actions) or next(a for a in actions if a["type"] == "conclude")


def _successor(view: dict, actions: list[dict]) -> dict:
    spend = _favor_reward(view, actions)
    if spend is not None:
        return spend
    actions = [a for a in actions if a["type"] == "successor"]
    want = view["rule"].get("throne")
    counts: dict[str, int] = {}
    for e in view["table"]:
        counts[e["card"]] = counts.get(e["card"], 0) + 1
    return max(
        actions,
        key=lambda a: (a["card"] == want, counts.get(a["card"], 0), -THRONE_PREF.index(a["card"])),
    )
