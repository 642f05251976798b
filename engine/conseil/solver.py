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
) -> dict[str, Any] | None:
    """A winning plan ``{"cards": [card by seat], "steps": [(seat, card, kind, choice)]}``."""
    objs: P.Objs = tuple(tuple(o) for o in objectives)
    met_t: P.Met = tuple(met) if met else tuple(face in o for o in objs)
    met_t = P.met_after(objs, met_t, face)
    options = [sorted(set(h) - {petitioner}) or [None] for h in hands]
    tried: set[frozenset] = set()
    for combo in itertools.product(*options):
        counts: dict[str, int] = {}
        for c in combo:
            if c is not None:
                counts[c] = counts.get(c, 0) + 1
        effective = frozenset(c for c, k in counts.items() if k == 1)
        if "oracle" in effective or effective in tried:
            continue
        tried.add(effective)
        steps = P.finish(effective, face, objs, met_t, True)
        if steps is not None:
            owner = {c: s for s, c in enumerate(combo) if c in effective}
            return {
                "cards": list(combo),
                "steps": [(owner[c], c, kind, choice) for c, kind, choice in steps],
            }
    return None


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
