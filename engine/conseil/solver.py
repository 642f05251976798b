"""The omniscient solver: seeing every hand, can the current dilemma be won, and how?

It tries every choice of one card per seat (never the Quémandeur's character), drops the
characters chosen twice (they cancel, and are revealed last), and searches every order and
every effect choice of the others, the council's RÉCOMPENSES (a nudge of one point, the
opposite face, a reroll) slipped in between any two reveals, and the ORACLE (its reroll, then
the second card its owner plays from hand, recovering the discard when one card is left).
Seeing everything includes the die's rolls: the state's seeded generator decides them, and
``rolls`` passes the faces it would give next; without them, a plan through a roll must win
whatever the die shows.  Used for the hint after a lost dilemma, for ``gamebook check --deep``
and for the benchmark (a table of all-seeing players)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from ..core.rng import Rng
from . import die as D
from . import plan as P
from . import text_fr as T

#: the RÉCOMPENSES that act on the die (the others never settle a dilemma)
DIE_REWARDS = ("nudge", "flip", "reroll")
#: what spending a RÉCOMPENSE costs a plan (it prefers keeping them)
REWARD_WORTH = 3


def solve(
    hands: list[list[str]],
    face: int,
    objectives: list[list[int]],
    met: list[bool] | None = None,
    petitioner: str | None = None,
    avoid: frozenset[str] = frozenset(),
    *,
    rewards: Sequence[str] = (),
    rolls: Sequence[int] | None = None,
    discards: list[list[str]] | None = None,
    held: list[list[str]] | None = None,
) -> dict[str, Any] | None:
    """A winning plan ``{"cards": [card by seat], "steps": [(seat, card, kind, choice)]}``;
    plans that keep the characters of ``avoid`` in hand come first, then plans that spend no
    RÉCOMPENSE.  ``rewards``: the kept RÉCOMPENSES' types; ``rolls``: the faces the die's next
    rolls give (``None``: unknown); ``discards``: each seat's discard pile; ``held``: the
    hands as they are, when ``hands`` only lists the cards a seat may choose (the ORACLE's
    second card comes from the whole hand).

    A step is a card's effect (``kind`` ``face``, ``objective`` or ``take``, as the effect
    action), a RÉCOMPENSE (``seat`` ``None``, ``card`` its type, ``kind`` ``reward``,
    ``choice`` the face it leaves), or the ORACLE: ``(seat, "oracle", "roll", face rolled)``
    then ``(seat, card, "second", None)`` and that card's effect unless it is cancelled."""
    if avoid:
        kept = [[c for c in h if c not in avoid] for h in hands]
        # a seat that can play something must play: keeping may not leave it nothing
        pairs = zip(kept, hands, strict=True)
        if all(set(k) - {petitioner} or not set(h) - {petitioner} for k, h in pairs):
            plan = solve(
                kept,
                face,
                objectives,
                met,
                petitioner,
                rewards=rewards,
                rolls=rolls,
                discards=discards,
                held=held or hands,
            )
            if plan is not None:
                return plan
    objs: P.Objs = tuple(tuple(o) for o in objectives)
    met_t: P.Met = tuple(met) if met else tuple(face in o for o in objs)
    met_t = P.met_after(objs, met_t, face)
    usable = tuple(sorted(r for r in rewards if r in DIE_REWARDS))
    rolls_t = tuple(rolls) if rolls is not None else None
    options: list[list[str | None]] = [[*sorted(set(h) - {petitioner})] or [None] for h in hands]
    known: dict[Any, tuple | None] = {}
    best: tuple[int, tuple, tuple] | None = None
    for spend in ((), usable) if usable else ((),):
        for combo in itertools.product(*options):
            counts = counts_of(combo)
            effective = frozenset(c for c, k in counts.items() if k == 1)
            if "oracle" in effective:
                seat = combo.index("oracle")
                whole = (held or hands)[seat]
                second = _second_hand(whole, (discards or [[]] * len(hands))[seat])
                others = frozenset(c for t, c in enumerate(combo) if t != seat and c is not None)
                key: Any = (effective, spend, second, others)
            else:
                second, others = (), frozenset()
                key = (effective, spend)
            if key not in known:
                if not spend and "oracle" not in effective:
                    known[key] = P.finish(effective, face, objs, met_t, True)
                else:
                    search = _Search(objs, rolls_t, second, others, petitioner)
                    known[key] = search.run(effective, face, met_t, spend)
            steps = known[key]
            if steps is None:
                continue
            cost = sum(WORTH.get(c, 1) for c in combo if c is not None)
            cost += REWARD_WORTH * sum(1 for st in steps if st[1] == "reward")
            if best is None or cost < best[0]:
                best = (cost, combo, steps)
        if best is not None:
            break
    if best is None:
        return None
    _, combo, steps = best
    owner = {c: s for s, c in enumerate(combo) if c is not None and counts_of(combo)[c] == 1}
    out: list[tuple[int | None, Any, Any, Any]] = []
    oracle_seat = owner.get("oracle")
    for card, kind, choice in steps:
        if kind == "reward":
            out.append((None, card, kind, choice))
        elif kind in ("roll", "second") or card not in owner or _after_second(out, card):
            out.append((oracle_seat, card, kind, choice))
        else:
            out.append((owner[card], card, kind, choice))
    return {"cards": list(combo), "steps": out}


def _after_second(steps: list[tuple], card: str) -> bool:
    """Whether ``card``'s effect is the ORACLE's second card (just named by a ``second``)."""
    return bool(steps) and steps[-1][2] == "second" and steps[-1][1] == card


def _second_hand(hand: list[str], discard: list[str]) -> tuple[str, ...]:
    """The cards the ORACLE's owner may play second: the hand left, or, with one card left,
    the discard pile taken back with the ORACLE itself (« ne jouez jamais votre dernière
    carte »)."""
    rest = list(hand)
    if "oracle" in rest:
        rest.remove("oracle")
    if len(rest) <= 1:
        rest = [*discard, "oracle"]
    return tuple(sorted(set(rest)))


def upcoming_rolls(rng: int, count: int) -> tuple[int, ...]:
    """The faces the die's next ``count`` rolls give, from the state's generator ``rng``
    (the rules roll with ``Rng(state).below(12) + 1``)."""
    holder = {"rng": rng}
    draw = Rng(holder)
    return tuple(draw.below(12) + 1 for _ in range(count))


class _Search:
    """A depth-first search over one choice of cards, memoised on what is left to play."""

    def __init__(
        self,
        objs: P.Objs,
        rolls: tuple[int, ...] | None,
        second: tuple[str, ...],
        others: frozenset[str],
        petitioner: str | None,
    ) -> None:
        self.objs0 = objs
        self.rolls = rolls
        self.second = second
        self.others = others
        self.petitioner = petitioner
        self.memo: dict[tuple, tuple | None] = {}

    def run(self, cards: frozenset, face: int, met: P.Met, rewards: tuple) -> tuple | None:
        return self._go(cards, face, self.objs0, met, True, rewards, 0, frozenset())

    def _roll(self, k: int) -> tuple[int, ...] | None:
        """The faces roll number ``k`` may give: the one the generator gives, or all."""
        if self.rolls is None:
            return None
        return (self.rolls[k],) if k < len(self.rolls) else None

    def _go(
        self,
        cards: frozenset,
        face: int,
        objs: P.Objs,
        met: P.Met,
        first: bool,
        rewards: tuple,
        k: int,
        shown: frozenset,
    ) -> tuple | None:
        key = (cards, face, objs, met, first, rewards, k, shown)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = None  # no cycle: every step spends a card or a RÉCOMPENSE
        out = self._step(cards, face, objs, met, first, rewards, k, shown)
        self.memo[key] = out
        return out

    def _step(self, cards, face, objs, met, first, rewards, k, shown) -> tuple | None:
        if not cards and P.wins(objs, met, face):
            return ()
        for r in sorted(set(rewards)):
            rest = list(rewards)
            rest.remove(r)
            left = tuple(rest)
            if r == "reroll":
                tail = self._through_roll(
                    k,
                    lambda f, left=left: self._go(
                        cards, f, objs, P.met_after(objs, met, f), first, left, k + 1, shown
                    ),
                )
                if tail is not None:
                    return (("reroll", "reward", tail[0]), *tail[1])
                continue
            if r == "nudge":
                faces = sorted({max(1, face - 1), min(12, face + 1)} - {face})
            else:  # flip
                faces = [D.opposite(face)]
            for f in faces:
                tail = self._go(cards, f, objs, P.met_after(objs, met, f), first, left, k, shown)
                if tail is not None:
                    return ((r, "reward", f), *tail)
        for card in sorted(cards):
            rest = cards - {card}
            now = shown | {card}
            if card == "oracle":
                tail = self._through_roll(
                    k,
                    lambda f, rest=rest, now=now: self._second(
                        rest, f, objs, P.met_after(objs, met, f), rewards, k + 1, now
                    ),
                )
                if tail is not None:
                    return (("oracle", "roll", tail[0]), *tail[1])
                continue
            for kind, choice, f, o, m in P.outcomes(card, face, objs, met, first):
                tail = self._go(rest, f, o, m, False, rewards, k, now)
                if tail is not None:
                    return ((card, kind, choice), *tail)
        return None

    def _through_roll(self, k: int, then) -> tuple[int | None, tuple] | None:
        """``(face, tail)`` through roll ``k``: the known face's plan, or, the roll unknown, a
        plan from every face (``face`` ``None``, the tail left to the table)."""
        faces = self._roll(k)
        if faces is not None:
            tail = then(faces[0])
            return None if tail is None else (faces[0], tail)
        for f in D.FACES:
            if then(f) is None:
                return None
        return (None, ())

    def _second(self, cards, face, objs, met, rewards, k, shown) -> tuple | None:
        """The ORACLE's second card, from its owner's hand: cancelled when another seat chose
        it (that seat's card with it) or it was shown this turn."""
        for card in self.second:
            if card == self.petitioner:
                continue  # the dilemma would be lost at once
            step = (card, "second", None)
            if card in shown or card in self.others:
                rest = cards - {card}  # a twin face down is cancelled with it
                tail = self._go(rest, face, objs, met, False, rewards, k, shown | {card})
                if tail is not None:
                    return (step, *tail)
                continue
            for kind, choice, f, o, m in P.outcomes(card, face, objs, met, False):
                tail = self._go(cards, f, o, m, False, rewards, k, shown | {card})
                if tail is not None:
                    return (step, (card, kind, choice), *tail)
        return None


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


def describe(plan: dict[str, Any], names: list[str], shown: set[tuple[int, str]]) -> str:
    """The plan in words that reveal no hand: a card is named, with its owner, only when its
    owner revealed it this turn (``shown``: ``(seat, card)``); the others are « une carte
    encore en main », told by what they do to the die or the objective.  The RÉCOMPENSES and
    the die are public."""

    def who(seat: int | None, card: str) -> str | None:
        if seat is not None and (seat, card) in shown:
            return f"{T.char(card)} de {names[seat]}"
        return None

    order: list[str] = []
    steps = list(plan["steps"])
    i = 0
    while i < len(steps):
        seat, card, kind, choice = steps[i]
        i += 1
        if kind == "reward":
            order.append(f"la RÉCOMPENSE « {T.REWARD[card]} » (dé sur {choice})")
            continue
        if kind == "roll":
            rolled = f"relance : {choice}" if choice else "relance"
            order.append(f"{who(seat, card) or 'une carte encore en main'} ({rolled})")
            continue
        name = who(seat, card)
        if kind == "second":
            effect = None
            if i < len(steps) and steps[i][2] not in ("reward", "roll", "second"):
                effect = _effect_words(*steps[i][1:])
                i += 1
            text = (
                f"une seconde carte de la même main ({effect})"
                if effect
                else ("une seconde carte de la même main, annulée")
            )
            order.append(text)
            continue
        effect = _effect_words(card, kind, choice)
        base = name or "une carte encore en main"
        order.append(f"{base} ({effect})" if effect else base)
    cards = sum(1 for st in steps if st[2] not in ("reward", "second"))
    text = "Il y avait une solution : "
    text += "une seule carte suffisait" if cards == 1 else f"{cards} cartes suffisaient"
    if not cards:
        text = "Il y avait une solution : le dé montrait déjà la bonne valeur"
    if len(order) > 1:
        text += " ; révéler dans cet ordre " + ", puis ".join(order)
    elif order:
        text += " — " + order[0]
    twins = counts_of(tuple(plan["cards"]))
    if any(k > 1 for k in twins.values()):
        text += " ; les autres cartes posées, identiques, s'annulaient"
    return text + "."


def _effect_words(card: str, kind: str, choice: Any) -> str | None:
    if kind == "face" and choice:
        return f"dé sur {choice}"
    if kind == "objective":
        values = "/".join(str(v) for v in (D.LOW if card == "chevalier" else D.HIGH))
        return f"l'objectif {choice + 1} devient {values}"
    if kind == "take":
        return "reprend une carte de sa défausse"
    return None


def hint(R: Any, state: dict[str, Any]) -> dict[str, str]:
    """« Y avait-il une solution ? » after a lost dilemma: the solver on the hands, the die,
    the RÉCOMPENSES and the rolls of the turn's start, told without naming a card still in a
    hand."""
    snap = state.get("snapshot") or {}
    names = [s["name"] for s in state["seats"]]
    if not snap.get("objectives"):
        return {"text": "Pas de solution à chercher pour ce dilemme."}
    pet = state["pets_done"][-1] if state["pets_done"] else None
    plan = solve(
        snap["hands"], snap["die"], snap["objectives"], snap.get("met"), pet, **_sight(snap)
    )
    if plan is None:
        return {"text": "Même en voyant toutes les mains, ce dilemme ne pouvait pas être résolu."}
    shown = {(e["seat"], e["card"]) for e in state.get("table", [])}
    return {"text": describe(plan, names, shown)}


def _sight(snap: dict[str, Any]) -> dict[str, Any]:
    """What an all-seeing table knows besides the hands: the RÉCOMPENSES kept, the discard
    piles (the ORACLE's recovery) and the die's next rolls."""
    rewards = list(snap.get("rewards", []))
    rolls = None
    if snap.get("rng") is not None:
        rolls = upcoming_rolls(snap["rng"], len(snap["hands"]) + len(rewards) + 1)
    return {"rewards": rewards, "rolls": rolls, "discards": snap.get("discards")}


def winnable_faces(objectives: list[list[int]], hands: list[list[str]]) -> list[int]:
    """The die faces from which these hands can settle these objectives."""
    return [f for f in range(1, 13) if solve(hands, f, objectives) is not None]


class Omniscient:
    """A table of all-seeing players: each turn they play the solver's plan (the benchmark's
    upper line), RÉCOMPENSES and the ORACLE included.  Bells, the claim and what no plan
    covers are left to the honest bots."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.plan: dict[str, Any] | None = None
        self.key: tuple | None = None

    def action(self, state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
        legal = self.game.legal_actions(state, seat)
        phase = state["phase"]
        chosen: dict[str, Any] | None = None
        if phase == "choose":
            chosen = self._choose(state, seat, legal)
        elif phase == "reveal" and self.plan is not None:
            chosen = self._reveal(state, legal)
        elif phase == "effect" and self.plan is not None:
            p = state["pending"]
            for s, card, kind, choice in self.plan["steps"]:
                if s == p["seat"] and card == p["card"] and kind in ("face", "objective"):
                    want = {"type": "effect", kind: choice}
                    if want in legal:
                        return want
        elif phase == "oracle" and self.plan is not None:
            p = state["pending"]
            for s, card, kind, _ in self.plan["steps"]:
                if s == p["seat"] and kind == "second":
                    want = {"type": "oracle", "card": card}
                    if want in legal:
                        return want
        elif phase == "throne":
            chosen = self._throne(state, seat, legal)
        if chosen is not None:
            return chosen
        return self.game.choose(state, seat, rng)

    def _choose(
        self, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The card the plan gives ``seat``, the plan solved again at each new turn."""
        key = (
            state["turn_no"],
            len(state["log"]) - sum(c is not None for c in state["chosen"]),
        )
        if self.key is None or self.key[0] != state["turn_no"] or not any(state["chosen"]):
            snap = state["snapshot"]
            keep = self._keep(state)
            args = (snap["die"], snap["objectives"], snap["met"], state["petitioner"])
            self.plan = None
            forced = _park(snap["hands"], keep, state["petitioner"])
            if forced is not None:
                self.plan = solve(forced, *args, keep, held=snap["hands"], **_sight(snap))
            if self.plan is None:
                self.plan = solve(snap["hands"], *args, keep, **_sight(snap))
            self.key = key
        if self.plan is not None:
            card = self.plan["cards"][seat]
            for a in legal:
                if a["card"] == card and a["remark"] is None:
                    return a
        return None

    def _reveal(self, state: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The plan's next reveal or reward, else any reveal, else the conclusion."""
        step = self._next(state)
        if step is not None:
            s, card, kind, choice = step
            if kind == "reward":
                for a in legal:
                    if a["type"] == "reward" and _reward_is(state, a, card, choice):
                        return a
            else:
                a = {"type": "reveal", "who": s}
                if a in legal:
                    return a
        reveals = [a for a in legal if a["type"] == "reveal"]
        if reveals:
            return reveals[0]
        if step is None and {"type": "conclude"} in legal:
            return {"type": "conclude"}
        return None

    def _throne(
        self, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The claim of a character every hand holds (the month's first, if it is one)."""
        from . import bots

        hands = state["snapshot"]["hands"]
        common = set(rules_chars())
        for h in hands:
            common &= set(h)
        want = state["rule"].get("throne")
        if want and want not in common:
            # whoever holds the month's character plays it; the council will choose it
            common = {want} if want in hands[seat] else common
        pref = [want] if want else []
        claims = [a for a in legal if a["type"] == "claim"]
        for c in [*pref, *bots.THRONE_PREF]:
            if c in common:
                return next(a for a in claims if a["card"] == c)
        return None

    def _next(self, state: dict[str, Any]) -> tuple | None:
        """The plan's next step in the reveal phase: what the table did so far (cards that
        acted, die RÉCOMPENSES spent) is counted off the plan's steps."""
        assert self.plan is not None
        acted = sum(1 for e in state["table"] if not e["cancelled"])
        snap = state["snapshot"]
        spent = sum(1 for r in snap.get("rewards", []) if r in DIE_REWARDS)
        spent -= sum(1 for r in state["rewards"] if r["type"] in DIE_REWARDS)
        for step in self.plan["steps"]:
            kind = step[2]
            if kind == "second":
                continue
            if kind == "reward":
                if spent > 0:
                    spent -= 1
                    continue
                return step
            if acted > 0:
                acted -= 1
                continue
            return step
        return None

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


def _park(
    hands: list[list[str]], keep: frozenset[str], petitioner: str | None
) -> list[list[str]] | None:
    """Hands that play a kept character now where keeping it would lose it: a seat left with
    two cards must play one, and the last one goes to the discard pile when it next recovers
    (« ne jouez jamais votre dernière carte »), while a card played now comes back with the
    discard.  ``None`` when no seat is in that case."""
    out, changed = [], False
    for hand in hands:
        mine = [c for c in hand if c in keep and c != petitioner]
        if len(hand) == 2 and mine:
            out.append(mine)
            changed = True
        else:
            out.append(list(hand))
    return out if changed else None


def _reward_is(state: dict[str, Any], action: dict[str, Any], kind: str, face: Any) -> bool:
    """Whether a reward action spends a RÉCOMPENSE of type ``kind`` to the plan's face."""
    if state["rewards"][action["index"]]["type"] != kind:
        return False
    return kind == "reroll" or action["face"] == face


def rules_chars() -> tuple[str, ...]:
    from .content import CHARACTERS

    return CHARACTERS
