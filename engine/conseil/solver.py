"""The omniscient solver: seeing every hand, can the current dilemma be won, and how?

It tries every choice of one card per seat (never the Quémandeur's character), drops the
characters chosen twice (they cancel, and are revealed last), and searches every order and
every effect choice of the others (``plan.finish``).  The ORACLE's reroll is chance: a plan
never counts on it.  Used for the hint after a lost dilemma, for ``gamebook check --deep``
and for the benchmark (a table of all-seeing players)."""

from __future__ import annotations

import itertools
from typing import Any

from . import plan as P
from . import text_fr as T


def solve(
    hands: list[list[str]],
    face: int,
    objectives: list[list[int]],
    met: list[bool] | None = None,
    petitioner: str | None = None,
    avoid: frozenset[str] = frozenset(),
) -> dict[str, Any] | None:
    """A winning plan ``{"cards": [card by seat], "steps": [(seat, card, kind, choice)]}``;
    plans that keep the characters of ``avoid`` in hand come first."""
    if avoid:
        kept = [[c for c in h if c not in avoid] for h in hands]
        if all(kept):
            plan = solve(kept, face, objectives, met, petitioner)
            if plan is not None:
                return plan
    objs: P.Objs = tuple(tuple(o) for o in objectives)
    met_t: P.Met = tuple(met) if met else tuple(face in o for o in objs)
    met_t = P.met_after(objs, met_t, face)
    options = [sorted(set(h) - {petitioner}) or [None] for h in hands]
    known: dict[frozenset, tuple | None] = {}
    best: tuple[int, tuple, tuple] | None = None
    for combo in itertools.product(*options):
        counts: dict[str, int] = {}
        for c in combo:
            if c is not None:
                counts[c] = counts.get(c, 0) + 1
        effective = frozenset(c for c, k in counts.items() if k == 1)
        if "oracle" in effective:
            continue
        if effective not in known:
            known[effective] = P.finish(effective, face, objs, met_t, True)
        steps = known[effective]
        if steps is None:
            continue
        cost = sum(WORTH.get(c, 1) for c in combo if c is not None)
        if best is None or cost < best[0]:
            best = (cost, combo, steps)
    if best is None:
        return None
    _, combo, steps = best
    owner = {c: s for s, c in enumerate(combo) if c is not None and counts_of(combo)[c] == 1}
    return {
        "cards": list(combo),
        "steps": [(owner[c], c, kind, choice) for c, kind, choice in steps],
    }


#: what a card is worth keeping: a plan spends the cheapest cards it can
WORTH = {
    "puissante": 6,
    "dame": 5,
    "sorcier": 4,
    "alchimiste": 4,
    "oracle": 3,
    "druidesse": 3,
    "inverseuse": 3,
    "automate": 2,
    "parasite": 2,
    "golem": 2,
    "chevalier": 2,
    "stoique": 2,
}


def counts_of(combo: tuple) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in combo:
        if c is not None:
            out[c] = out.get(c, 0) + 1
    return out


def describe(plan: dict[str, Any], names: list[str]) -> str:
    played = ", ".join(
        f"{names[s]} pose {T.char(c)}" for s, c in enumerate(plan["cards"]) if c is not None
    )
    order = []
    for seat, card, kind, choice in plan["steps"]:
        if kind == "face" and choice:
            order.append(f"{T.char(card)} de {names[seat]} (dé sur {choice})")
        elif kind == "objective":
            order.append(f"{T.char(card)} de {names[seat]} (objectif {choice + 1} remplacé)")
        else:
            order.append(f"{T.char(card)} de {names[seat]}")
    text = f"Il y avait une solution : {played}"
    if order:
        text += " ; révéler dans cet ordre : " + ", puis ".join(order)
    return text + "."


def hint(R: Any, state: dict[str, Any]) -> dict[str, str]:
    snap = state.get("snapshot") or {}
    names = [s["name"] for s in state["seats"]]
    if not snap.get("objectives"):
        return {"text": "Pas de solution à chercher pour ce dilemme."}
    pet = state["pets_done"][-1] if state["pets_done"] else None
    plan = solve(snap["hands"], snap["die"], snap["objectives"], snap.get("met"), pet)
    if plan is None:
        return {"text": "Même en voyant toutes les mains, ce dilemme ne pouvait pas être résolu."}
    return {"text": describe(plan, names)}


def winnable_faces(objectives: list[list[int]], hands: list[list[str]]) -> list[int]:
    """The die faces from which these hands can settle these objectives."""
    return [f for f in range(1, 13) if solve(hands, f, objectives) is not None]


class Omniscient:
    """A table of all-seeing players: each turn they play the solver's plan (the benchmark's
    upper line).  Bells, rewards and what no plan covers are left to the honest bots."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.plan: dict[str, Any] | None = None
        self.key: tuple | None = None

    def action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        from . import bots

        legal = self.game.legal_actions(state, seat)
        phase = state["phase"]
        if phase == "choose":
            key = (
                state["turn_no"],
                len(state["log"]) - sum(c is not None for c in state["chosen"]),
            )
            if self.key is None or self.key[0] != state["turn_no"] or not any(state["chosen"]):
                snap = state["snapshot"]
                self.plan = solve(
                    snap["hands"],
                    snap["die"],
                    snap["objectives"],
                    snap["met"],
                    state["petitioner"],
                    self._keep(state),
                )
                self.key = key
            if self.plan is not None:
                card = self.plan["cards"][seat]
                for a in legal:
                    if a["card"] == card and a["remark"] is None:
                        return a
        elif phase == "reveal" and self.plan is not None:
            order = [s for s, *_ in self.plan["steps"]]
            for s in order:
                a = {"type": "reveal", "who": s}
                if a in legal:
                    return a
            reveals = [a for a in legal if a["type"] == "reveal"]
            if reveals:
                return reveals[0]
        elif phase == "effect" and self.plan is not None:
            p = state["pending"]
            for s, card, kind, choice in self.plan["steps"]:
                if s == p["seat"] and card == p["card"]:
                    want = {"type": "effect", kind: choice}
                    if want in legal:
                        return want
        elif phase == "throne":
            hands = state["snapshot"]["hands"]
            common = set(rules_chars())
            for h in hands:
                common &= set(h)
            want = state["rule"].get("throne")
            if want and want not in common:
                # whoever holds the month's character plays it; the council will choose it
                common = {want} if want in hands[seat] else common
            pref = [want] if want else []
            for c in [*pref, *bots.THRONE_PREF]:
                if c in common:
                    return next(a for a in legal if a["card"] == c)
        return self.game.choose(state, seat, rng)

    @staticmethod
    def _keep(state: dict[str, Any]) -> frozenset[str]:
        """The character the table keeps for the final claim: the month's, or the first one
        every hand holds."""
        from .bots import THRONE_PREF

        want = state["rule"].get("throne")
        if want:
            return frozenset({want})
        common = set(rules_chars())
        for h in state["hands"]:
            common &= set(h)
        best = next((c for c in THRONE_PREF if c in common and c != state["petitioner"]), None)
        return frozenset({best}) if best else frozenset()


def rules_chars() -> tuple[str, ...]:
    from .content import CHARACTERS

    return CHARACTERS
