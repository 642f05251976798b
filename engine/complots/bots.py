"""Complots' bots: they decide from their seat's view only — their own cards, coins, revealed
cards, the history of claims and doubts, and card counting (how many copies of a character
may still be hidden somewhere they cannot see).

A persona is a handful of numbers: how often it bluffs, how unlikely a claim must look before
it doubts, how it picks its victims.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from typing import Any

from ..core.rng import Rng


@dataclass(frozen=True)
class Persona:
    #: chance of bluffing a character it does not hold, when it would like to
    bluff: float
    #: doubt a claim whose estimated chance of being true is below this
    doubt_below: float
    #: chance of bluffing a counter (more when its life is at stake)
    counter_bluff: float
    #: prefers attacking (Assassin, Capitaine) to gathering coins
    aggressive: bool
    #: a small chance of doubting anyway, whatever the odds
    whim: float = 0.0
    #: reads the table: each seat's caught bluffs, how often the table doubts
    adaptive: bool = False


PERSONAS: dict[str, Persona] = {
    "prudent": Persona(bluff=0.04, doubt_below=0.12, counter_bluff=0.05, aggressive=False),
    "bluffeur": Persona(bluff=0.55, doubt_below=0.25, counter_bluff=0.45, aggressive=False),
    "agressif": Persona(
        bluff=0.25, doubt_below=0.45, counter_bluff=0.25, aggressive=True, whim=0.1
    ),
    "malin": Persona(
        bluff=0.3, doubt_below=0.45, counter_bluff=0.3, aggressive=True, adaptive=True
    ),
}

#: how much a bot wants to keep a character (it reveals the least wanted first)
VALUE = {
    "duchesse": 5,
    "assassin": 4,
    "capitaine": 3,
    "comtesse": 3,
    "ambassadeur": 2,
    "inquisiteur": 2,
}


def _value(c: str) -> int:
    return VALUE.get(c, 1)


# --------------------------------------------------------------------------- card counting


def unseen(view: dict, char: str) -> int:
    """Copies of ``char`` that may still be hidden somewhere this seat cannot see."""
    players = view["players"]
    me = players[view["seat"]]
    seen = 0
    for p in players:
        seen += p["revealed"].count(char)
    seen += me.get("hidden", []).count(char) + me.get("drawn", []).count(char)
    total = view["copies"]
    if len(players) == 2:
        total = 3
        seen += me.get("aside_cards", []).count(char)
    return max(0, total - seen)


def unseen_all(view: dict) -> dict[str, int]:
    """``unseen`` for every character in play, in one walk through what this seat sees."""
    players = view["players"]
    me = players[view["seat"]]
    seen: dict[str, int] = {}
    for p in players:
        for c in p["revealed"]:
            seen[c] = seen.get(c, 0) + 1
    mine = me.get("hidden", []) + me.get("drawn", [])
    total = view["copies"]
    if len(players) == 2:
        total = 3
        mine = mine + me.get("aside_cards", [])
    for c in mine:
        seen[c] = seen.get(c, 0) + 1
    return {c: max(0, total - seen.get(c, 0)) for c in view["chars"]}


def doubt_rate(view: dict) -> float:
    """How often the table has doubted a claim so far (one doubt in four to begin with)."""
    claims = view["claims"]
    doubted = sum(1 for c in claims if c["doubted_by"] is not None)
    return (doubted + 1) / (len(claims) + 4)


def chance_true(view: dict, seat: int, char: str, adaptive: bool) -> float:
    """The chance that a claim of ``char`` by ``seat`` is true.  From counting alone, the
    chance that ``seat`` hides at least one ``char``, nudged by the history: a character it
    claimed before and never lost is more likely; a character of which it just showed one is as
    likely as any card freshly drawn.  An adaptive bot also weighs it by the seat's record: a
    seat caught bluffing claims whatever it likes."""
    return _chance(view, seat, char, adaptive)


def _chance(view: dict, seat: int, char: str, adaptive: bool) -> float:
    """``chance_true``: the counting, then the history and (adaptive) the records, from one
    walk through the claims (a bot weighs every claim it hears)."""
    u = unseen(view, char)
    if u == 0:
        return 0.0
    me = view["seat"]
    players = view["players"]
    unknown = view["court"]
    for p in players:
        if p["seat"] != me:
            unknown += p["cards"] + p["aside"]
    h = players[seat]["cards"]
    if unknown <= 0 or h <= 0:
        return 0.0
    h = min(h, unknown)
    u = min(u, unknown)
    base = 1.0 - comb(unknown - u, h) / comb(unknown, h)
    # history: the seat's earlier claims of this very character, never caught; and who was
    # caught bluffing when doubted
    repeated = False
    others: set[str] = set()
    true = false = all_true = all_false = 0
    for c, t in zip(view["claims"], view["truth"], strict=True):
        mine = c["seat"] == seat
        if mine and t is not False:
            if c["character"] == char:
                repeated = True
            else:
                others.add(c["character"])
        if c["doubted_by"] is not None:
            if t:
                all_true += 1
                true += mine
            else:
                all_false += 1
                false += mine
    if repeated:
        base = base + (1 - base) * 0.25
    if len(others) >= h:  # claimed at least as many other characters as it holds cards
        base *= 0.7
    if not adaptive or base in (0.0, 1.0):
        return base
    prior = (all_false + 1.0) / (all_true + 2.0)  # how much the whole table bluffs
    beta = min(3.0, max(0.05, (false + prior) / (true + 1.0)))
    return base / (base + (1 - base) * beta)


# --------------------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Lore:
    """What the bots know of the content (public: the cards' own text), per bundle: each
    character's power, and for each power the characters that counter it."""

    powers: dict[str, str] = field(default_factory=dict)
    counters: dict[str, frozenset[str]] = field(default_factory=dict)

    def power(self, char: str) -> str:
        return self.powers.get(char, "none")


def decide(view: dict, actions: list[dict], rng: Rng, persona: str | None, lore: Lore) -> dict:
    p = PERSONAS.get(persona or "malin", PERSONAS["malin"])
    kind = actions[0]["type"]
    kinds = {a["type"] for a in actions}
    if kinds & {"revenu", "assassinat", "claim"}:
        return _turn(view, actions, rng, p, lore)
    if "doubt" in kinds:
        return _doubt(view, actions, rng, p, lore)
    if "counter" in kinds or (kinds == {"pass"}):
        return _counter(view, actions, rng, p, lore)
    if kind == "lose":
        return min(actions, key=lambda a: (_value(a["character"]), a["character"]))
    if kind == "show":
        return min(actions, key=lambda a: (_value(a["character"]), a["character"]))
    if kind == "keep":
        return max(actions, key=lambda a: (_keep_score(a["cards"]), a["cards"]))
    if kind == "pick":
        mine = view["players"][view["seat"]].get("hidden", [])
        return max(
            actions,
            key=lambda a: (
                _value(a["character"]) - (3 if a["character"] in mine else 0),
                a["character"],
            ),
        )
    if kinds == {"spare", "discard"}:
        card = (view.get("step") or {}).get("card", "")
        want = "discard" if _value(card) >= 3 else "spare"
        return next(a for a in actions if a["type"] == want)
    return actions[0]


def _keep_score(cards: list[str]) -> float:
    return sum(_value(c) for c in cards) + (1.5 if len(set(cards)) == len(cards) else 0)


def _threat(view: dict, seat: int) -> float:
    pl = view["players"][seat]
    return pl["cards"] * 10 + pl["coins"]


def _turn(view: dict, actions: list[dict], rng: Rng, p: Persona, lore: Lore) -> dict:
    me = view["seat"]
    mine = view["players"][me]
    hand = mine.get("hidden", [])
    coins = mine["coins"]
    by_type: dict[str, list[dict]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)

    def best_target(options: list[dict]) -> dict:
        return max(options, key=lambda a: (_threat(view, a["target"]), -a["target"]))

    if "assassinat" in by_type and (coins >= 10 or "revenu" not in by_type):
        return best_target(by_type["assassinat"])
    claims: dict[str, list[dict]] = {}
    for a in by_type.get("claim", []):
        claims.setdefault(a["character"], []).append(a)
    walls = blockers(view)

    counts = unseen_all(view)
    rates: list[float] = []  # doubt_rate(view), once it is needed

    def unseen_(char: str) -> int:
        n = counts.get(char)
        return unseen(view, char) if n is None else n

    def would_claim(char: str) -> bool:
        if char in hand:
            return True
        if p.bluff <= 0 or unseen_(char) == 0:
            return False
        # a bluff is less tempting when many copies are already out in the open
        odds = p.bluff * (0.4 + 0.6 * unseen_(char) / max(1, view["copies"]))
        if p.adaptive:  # and when the table doubts a lot
            if not rates:
                rates.append(doubt_rate(view))
            rate = rates[0]
            odds *= max(0.0, 1.0 - 3.0 * rate) if mine["cards"] > 1 else max(0.0, 1 - 5 * rate)
        return rng.below(1000) < odds * 1000

    # 1. kill when it can
    if "assassinat" in by_type:
        return best_target(by_type["assassinat"])
    assassin = [c for c in claims if lore.power(c) == "assassinate"]
    for c in assassin:
        targets = [a for a in claims[c] if not _walled(lore, walls, a["target"], "assassinate")]
        if not targets:
            continue
        if (p.aggressive or c in hand) and would_claim(c):
            return best_target(targets)
    # 2. money
    tax = [c for c in claims if lore.power(c) == "tax"]
    money = _money(view, claims, tax, lore, walls, hand, p, would_claim)
    if money is not None:
        return money
    # 3. a weak hand: exchange it
    swap = [c for c in claims if lore.power(c) in ("exchange", "inquire")]
    for c in swap:
        if c in hand and sum(_value(h) for h in hand) <= 2 * len(hand) + 1:
            opts = [a for a in claims[c] if a.get("mode") != "inspect"]
            if opts:
                return opts[0]
    # 4. the safe actions: foreign aid when no Duchesse seems to be around
    duchesses = sum(unseen_(c) for c in tax if _gain_like_duchesse(lore, c))
    if "aide" in by_type and duchesses <= 1:
        return by_type["aide"][0]
    return by_type.get("revenu", actions)[0]


def _money(
    view: dict,
    claims: dict[str, list[dict]],
    tax: list[str],
    lore: Lore,
    walls: dict[int, set[str]],
    hand: list[str],
    p: Persona,
    would_claim: Callable[[str], bool],
) -> dict | None:
    """``_turn``'s step 2: steal from the richest (an aggressive bot, when it would claim the
    thief), else tax, else steal with the thief in hand.  ``None``: no money move."""
    steal = [c for c in claims if lore.power(c) == "steal"]
    for c in steal:
        if p.aggressive and would_claim(c):
            rich = [a for a in claims[c] if _worth_stealing(lore, view, a["target"], walls)]
            if rich:
                return max(
                    rich, key=lambda a: (view["players"][a["target"]]["coins"], -a["target"])
                )
    for c in tax:
        if would_claim(c):
            return claims[c][0]
    for c in steal:
        if c in hand:
            rich = [a for a in claims[c] if _worth_stealing(lore, view, a["target"], walls)]
            if rich:
                return max(
                    rich, key=lambda a: (view["players"][a["target"]]["coins"], -a["target"])
                )
    return None


def _worth_stealing(lore: Lore, view: dict, target: int, walls: dict[int, set[str]]) -> bool:
    """A target with two coins or more that has never stopped one of my thefts."""
    return view["players"][target]["coins"] >= 2 and not _walled(lore, walls, target, "steal")


def blockers(view: dict) -> dict[int, set[str]]:
    """Seat -> the characters with which it countered this seat and was not caught lying (one
    walk through the claims for a whole turn's choice)."""
    me = view["seat"]
    out: dict[int, set[str]] = {}
    for c, t in zip(view["claims"], view["truth"], strict=True):
        if c["role"] == "counter" and c["target"] == me and t is not False:
            out.setdefault(c["seat"], set()).add(c["character"])
    return out


def _walled(lore: Lore, walls: dict[int, set[str]], target: int, power: str) -> bool:
    """Whether ``target`` once countered this seat's ``power`` and was not caught lying: bots
    that kept trying the same blocked move on the same target would never end the game."""
    chars = walls.get(target)
    return chars is not None and bool(chars) and not chars.isdisjoint(lore.counters.get(power, ()))


def _doubt(view: dict, actions: list[dict], rng: Rng, p: Persona, lore: Lore) -> dict:
    me = view["seat"]
    doubt = next(a for a in actions if a["type"] == "doubt")
    pass_ = next(a for a in actions if a["type"] == "pass")
    step = view.get("step") or {}
    claim = view["claims"][step["claim"]]
    char, claimant = claim["character"], claim["seat"]
    chance = chance_true(view, claimant, char, p.adaptive)
    if chance == 0.0:
        return doubt
    my_cards = view["players"][me]["cards"]
    ctx = view.get("ctx") or {}
    threshold = p.doubt_below
    targeted = claim["role"] == "action" and claim.get("target") == me
    # an Assassin aimed at my last card: doubting is the only way out
    if targeted and lore.power(char) == "assassinate" and my_cards == 1:
        has_comtesse = "comtesse" in view["players"][me].get("hidden", [])
        if not has_comtesse:
            threshold = max(threshold, 0.75)
    elif claim["role"] == "counter" and ctx.get("actor") == me:
        threshold += 0.05  # my own action is at stake
    elif claim["role"] == "action" and claim.get("target") not in (None, me):
        threshold *= 0.6  # somebody else's trouble
    if my_cards == 1:
        threshold *= 0.7
    if chance < threshold:
        return doubt
    if p.whim and rng.below(1000) < p.whim * 1000 * (1 - chance):
        return doubt
    return pass_


def _counter(view: dict, actions: list[dict], rng: Rng, p: Persona, lore: Lore) -> dict:
    me = view["seat"]
    hand = view["players"][me].get("hidden", [])
    pass_ = next(a for a in actions if a["type"] == "pass")
    counters = [a for a in actions if a["type"] == "counter"]
    true = [a for a in counters if a["character"] in hand]
    if true:
        return max(true, key=lambda a: (_value(a["character"]), a["character"]))
    if not counters:
        return pass_
    ctx = view.get("ctx") or {}
    at_stake = ctx.get("target") == me
    life = at_stake and ctx.get("character") and lore.power(ctx["character"]) == "assassinate"
    odds = p.counter_bluff * (2.0 if life else 1.0 if at_stake else 0.3)
    options = [a for a in counters if unseen(view, a["character"]) > 0]
    if options and rng.below(1000) < min(0.95, odds) * 1000:
        return max(options, key=lambda a: (unseen(view, a["character"]), a["character"]))
    return pass_


def _gain_like_duchesse(lore: Lore, char: str) -> bool:
    return lore.power(char) == "tax"


def uniform(actions: list[Any], rng: Rng) -> Any:
    """The baseline of the benchmark: a uniform pick among the legal actions."""
    return actions[rng.below(len(actions))]
