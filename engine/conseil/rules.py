"""The rules of Le Conseil des 12 as pure functions over a JSON state.

The turn, in the rulebook's order: the Quémandeur is revealed (``start``), the council may
ring the royal bells (``bells``), everyone chooses a character face down at once
(``choose``), the cards are revealed one after another in an order the council agrees on
(``reveal``; identical characters cancel, a card's owner settles its effect in ``effect`` or
``oracle``), the objective is checked and one side of the dilemma applied (``_check``).  The
last dilemma, REVENDIQUER LE TRÔNE, is played in ``throne`` and, when the claim splits,
``successor``.

Every card of a seat is in exactly one place: its hand, its discard pile (top last), the
card it has chosen this turn, or the common reserve (the characters no one has taken yet,
under the Aide de jeu).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import IllegalAction, MalformedAction
from ..core.rng import Rng
from ..core.state import copy_game, is_among
from . import die as D
from .content import CHARACTERS

FORMAT_VERSION = 1
SHARED = {"log": True}
FAVOR_MAX = 5
REMARKS = ("seul", "premier", "aide")
THRONE = "trone"
#: the council's order of play when several seats could go (ties broken by seat)
REMARK_ORDER = {"premier": 0, "seul": 1, "aide": 2, None: 3}


class Rules:
    """The rules over one content bundle (cards by id)."""

    def __init__(
        self,
        bundle: dict[str, Any],
        adviser: Callable[[Rules, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        rec = bundle.get("records", {})
        #: « Y avait-il une solution ? »: what answers the ``hint`` action (the solver, which
        #: the plug-in gives: the rules never call up into it)
        self.adviser = adviser
        self.characters = rec.get("character", {})
        self.petitioners = rec.get("petitioner", {})
        self.dilemmas = {int(k): v for k, v in rec.get("dilemma", {}).items()}
        self.throne = next(iter(rec.get("throne", {}).values()), {"failure": [{"favor": -1}]})
        self.scenarios = rec.get("scenario", {})
        self.tutorial = sorted(rec.get("tutorial", {}).values(), key=lambda t: t["id"])

    # ------------------------------------------------------------------ setup

    def crown(self, char: str) -> int:
        return int(self.petitioners.get(char, {}).get("crown", 1))

    def new_game(
        self,
        setup: dict[str, Any],
        chronicle: dict[str, Any] | None = None,
        arrange: Callable[[list[int]], list[int]] | None = None,
    ) -> dict:
        """The first state; ``arrange``: the dealt dilemmas -> the pile in the order they come
        (``start.py``: a game that begins with one dilemma)."""
        seats = [{"name": s["name"], "bot": s["bot"]} for s in setup["seats"]]
        n = len(seats)
        scenario = setup.get("scenario", "base") or "base"
        state: dict[str, Any] = {
            "game": "conseil",
            "format_version": FORMAT_VERSION,
            "seed": setup["seed"],
            "log": [],
            "rng": Rng.seed_from(f"{setup['seed']}:{(chronicle or {}).get('games', 0)}"),
            "seats": seats,
            "scenario": scenario,
            "rule": {},
            "silent": bool(setup.get("silent", False)),
            "chronicle": chronicle or {"games": 0, "reigns": [], "year": 1, "throne": None},
        }
        rng = Rng(state)
        rule: dict[str, Any] = {}
        if scenario not in ("base", "tutoriel"):
            sc = self.scenarios[scenario]
            rule = {k: sc[k] for k in ("throne", "min_bells", "claim", "no_favor_gain") if k in sc}
            if sc.get("silent"):
                state["silent"] = True
            pile_pets = list(sc["petitioners"])
            dilemmas = [int(d) for d in sc["dilemmas"]]
            face_up, face_down = self._split(pile_pets, rng)
            favor = sc.get("start_favor") or (4 if n == 4 else 3)
        elif scenario == "tutoriel":
            face_up = ["puissante", "sorcier", "druidesse", "automate", "parasite"]
            face_down = ["dame", "stoique"]
            dilemmas = [5, 8, 2, 13]
            favor = 4 if n == 4 else 3
        else:
            removed = state["chronicle"].get("throne")
            pool = [c for c in CHARACTERS if c in self.petitioners and c != removed]
            face_up, face_down = self._draw(pool, rng)
            by_level: dict[int, list[int]] = {1: [], 2: [], 3: []}
            for k, d in sorted(self.dilemmas.items()):
                by_level.setdefault(int(d.get("difficulty", 1)), []).append(k)
            dilemmas = []
            for level, count in ((1, 4), (2, 2), (3, 1)):
                pool_d = list(by_level[level])
                rng.shuffle(pool_d)
                dilemmas += pool_d[:count]
            favor = 4 if n == 4 else 3
        state["rule"] = rule
        pets = face_up + face_down
        face = rng.below(12) + 1
        if scenario != "tutoriel":
            rng.shuffle(pets)
            rng.shuffle(dilemmas)
            if arrange is not None:
                dilemmas = arrange(dilemmas)
        else:  # as in the rulebook's example: LA DAME first, the die on 7, TOUR EFFONDRÉE
            pets = ["dame", "stoique", "automate", "parasite", "puissante", "sorcier", "druidesse"]
            face = 7
        state.update(
            {
                "favor": favor,
                "die": face,
                "face_up": sorted(face_up),
                "pets": pets,
                "petitioner": None,
                "pets_done": [],
                "pile": [*dilemmas, THRONE],
                "dilemma": None,
                "objectives": [],
                "met": [],
                "rung": False,
                "rings": 0,
                "resolved": [],
                "rewards": [],
                "hands": [sorted(face_up) for _ in range(n)],
                "discards": [[] for _ in range(n)],
                "reserve": sorted(c for c in CHARACTERS if c not in face_up),
                "chosen": [None] * n,
                "remarks": [None] * n,
                "revealed": [False] * n,
                "table": [],
                "known": [sorted(face_up) for _ in range(n)],
                "pub_discard": [[] for _ in range(n)],
                "pending": None,
                "phase": "start",
                "two_turns": False,
                "turn_no": 0,
                "first_met": [],
                "spoke": False,
                "silent_boxes": 0,
                "lost_turn": None,
                "snapshot": None,
                "chef": rng.below(n) if n == 4 else None,
                "throne_char": None,
                "hint": None,
                "result": None,
                "step": 0,
            }
        )
        log(
            state,
            "game.start",
            names=[s["name"] for s in seats],
            favor=favor,
            die=state["die"],
            scenario=scenario,
        )
        log(state, "setup.face_up", chars=sorted(face_up), hidden=len(face_down))
        if state["chef"] is not None:
            log(state, "setup.chef", seat=state["chef"])
        settle(self, state)
        return state

    def _draw(self, pool: list[str], rng: Rng) -> tuple[list[str], list[str]]:
        """LA PUISSANTE face up (or one more crown-1 card in her place), four more face up of
        which at least one has crown 1, two face down."""
        pool = list(pool)
        face_up: list[str] = []
        if "puissante" in pool:
            face_up.append("puissante")
            pool.remove("puissante")
        else:
            ones = [c for c in pool if self.crown(c) == 1]
            pick = ones[rng.below(len(ones))]
            face_up.append(pick)
            pool.remove(pick)
        while True:
            rng.shuffle(pool)
            four = pool[:4]
            if any(self.crown(c) == 1 for c in four):
                break
        rest = pool[4:]
        return face_up + four, rest[:2]

    def _split(self, seven: list[str], rng: Rng) -> tuple[list[str], list[str]]:
        """A scenario's seven Quémandeurs: five face up drawn as in the normal setup."""
        return self._draw(seven, rng)


# --------------------------------------------------------------------------- helpers


def log(state: dict, key: str, to: list[int] | None = None, **args: Any) -> None:
    if isinstance(args.get("seat"), int):
        args["name"] = state["seats"][args["seat"]]["name"]
    if isinstance(args.get("seats"), list):
        args["names"] = [state["seats"][s]["name"] for s in args["seats"]]
    entry: dict[str, Any] = {"key": key, "args": args}
    if to is not None:
        entry["to"] = to
    state["log"].append(entry)


def _copy(objectives: list[list[int]]) -> list[list[int]]:
    """The objectives as they are now: a log entry must not follow later changes."""
    return [list(o) for o in objectives]


def n_seats(state: dict) -> int:
    return len(state["seats"])


def deciders(state: dict) -> list[int]:
    """Who answers for the council: the Chef du Conseil at four, else anyone (the first human
    of the table, or the first bot when all are bots)."""
    if state.get("chef") is not None:
        return [state["chef"]]
    return list(range(n_seats(state)))


def success_now(objectives: list[list[int]], met: list[bool], face: int) -> bool:
    """Whether the die on ``face`` settles the dilemma: with one objective, the face is one of
    its values; with two, one is met now and the other was met at some moment of the turn."""
    if len(objectives) == 1:
        return face in objectives[0]
    a, b = objectives
    return (face in a and met[1]) or (face in b and met[0])


def update_met(state: dict) -> None:
    for i, obj in enumerate(state["objectives"]):
        if state["die"] in obj:
            state["met"][i] = True


def playable(state: dict, seat: int) -> list[str]:
    hand = state["hands"][seat]
    pet = state["petitioner"]
    return sorted(c for c in set(hand) if c != pet)


def recover(state: dict, seat: int) -> None:
    """« Ne jouez jamais votre dernière carte » : the last card(s) in hand go to a new
    discard pile and every card played before comes back to hand."""
    hand, discard = state["hands"][seat], state["discards"][seat]
    state["hands"][seat] = sorted(discard)
    state["discards"][seat] = list(hand)
    # what the others know: the cards they saw go to the discard; the hand's last card shows
    state["known"][seat] = sorted(set(state["pub_discard"][seat]))
    state["pub_discard"][seat] = list(hand)
    log(state, "hand.recover", seat=seat, top=hand[-1] if hand else None, back=len(discard))


def needs_recovery(state: dict, seat: int) -> bool:
    return len(state["hands"][seat]) <= 1 or not playable(state, seat)


def gain_favor(state: dict, amount: int, why: str) -> None:
    before = state["favor"]
    state["favor"] = max(0, min(FAVOR_MAX, before + amount))
    if state["favor"] != before:
        log(state, "favor.moved", delta=state["favor"] - before, favor=state["favor"], why=why)


def lose_favor(state: dict, amount: int, why: str) -> None:
    """A loss of Faveur; a kept shield RÉCOMPENSE is spent first to cancel it."""
    shield = next((i for i, r in enumerate(state["rewards"]) if r["type"] == "shield"), None)
    if shield is not None:
        r = state["rewards"].pop(shield)
        log(state, "reward.shield", dilemma=r["id"], amount=amount)
        return
    spare = next((i for i, r in enumerate(state["rewards"]) if r["type"] == "favor"), None)
    if (
        spare is not None
        and state["favor"] - amount <= 0
        and not state["rule"].get("no_favor_gain")
    ):
        # the council spends its « +1 Faveur » reward rather than fall
        r = state["rewards"].pop(spare)
        gain_favor(state, 1, "reward")
        log(state, "reward.used", dilemma=r["id"], reward="favor", face=state["die"])
    gain_favor(state, -amount, why)


def set_die(state: dict, face: int) -> None:
    state["die"] = face
    update_met(state)


def roll(state: dict) -> int:
    return Rng(state).below(12) + 1


# --------------------------------------------------------------------------- the flow


def settle(R: Rules, state: dict) -> None:
    """Play every step that needs no decision, until someone must choose or the game ends."""
    for _ in range(1000):
        phase = state["phase"]
        if phase == "over":
            return
        if state["favor"] <= 0:
            _end(R, state, lost="favor")
            return
        if phase == "start":
            _start(R, state)
        elif phase == "bells":
            if len(bells_actions(state)) > 1:
                return
            state["phase"] = "setup_choose"
        elif phase == "setup_choose":
            _setup_choose(state)
        elif phase == "choose":
            if to_act(state):
                return
            log(state, "choose.done")
            state["phase"] = "reveal"
        elif phase == "reveal":
            left = [s for s in range(n_seats(state)) if not state["revealed"][s]]
            rewards = reward_actions(state)
            if not left and not rewards:
                _check(R, state)
            elif len(left) == 1 and not rewards:
                reveal(R, state, left[0])
            else:
                return
        elif phase in ("effect", "oracle", "aftermath", "successor"):
            if phase == "effect" and len(effect_actions(state)) == 1:
                apply_effect(R, state, effect_actions(state)[0])
            else:
                return
        elif phase == "throne_setup":
            _throne_setup(state)
        elif phase == "throne":
            if to_act(state):
                return
            # RÉCOMPENSES may be used « même pendant la phase REVENDIQUER LE TRÔNE »
            state["phase"] = "throne_rewards" if reward_actions(state) else "claim"
        elif phase == "throne_rewards":
            if reward_actions(state):
                return
            state["phase"] = "claim"
        elif phase == "claim":
            _claim(R, state)
        else:
            raise ValueError(f"unknown phase {phase}")


def _start(R: Rules, state: dict) -> None:
    """Step 1: the next Quémandeur comes before the council (a two-turn dilemma keeps its own)."""
    state["table"], state["pending"] = [], None
    if state["two_turns"] and state["first_met"]:
        state["turn_no"] += 1
        log(state, "turn.second", dilemma=state["dilemma"])
        state["met"] = [False] * len(state["objectives"])
        state["phase"] = "setup_choose"
        return
    if state["pile"][0] == THRONE:
        state["phase"] = "throne_setup"
        return
    state["turn_no"] += 1
    state["dilemma"] = state["pile"].pop(0)
    state["petitioner"] = state["pets"].pop(0)
    d = R.dilemmas[state["dilemma"]]
    state["objectives"] = [list(o) for o in d["objectives"]]
    state["met"] = [False] * len(state["objectives"])
    state["rung"] = False
    state["two_turns"] = False
    state["first_met"] = []
    state["spoke"] = False
    state["lost_turn"] = None
    log(state, "turn.petitioner", char=state["petitioner"])
    log(state, "turn.dilemma", dilemma=state["dilemma"], objectives=_copy(state["objectives"]))
    state["phase"] = "bells"


def bells_actions(state: dict) -> list[dict]:
    out = [{"type": "bells", "ring": False, "two_turns": False}]
    if state["favor"] >= 2 and state["scenario"] != "tutoriel":
        out.append({"type": "bells", "ring": True, "two_turns": False})
    if n_seats(state) == 2 and len(state["objectives"]) == 2:
        out += [{**a, "two_turns": True} for a in list(out)]
    return out


def _setup_choose(state: dict) -> None:
    n = n_seats(state)
    for s in range(n):
        if needs_recovery(state, s):
            recover(state, s)
    state["chosen"] = [None] * n
    state["remarks"] = [None] * n
    state["revealed"] = [not playable(state, s) for s in range(n)]
    for s in range(n):
        if state["revealed"][s]:
            log(state, "hand.none", seat=s)
    state["table"] = []
    update_met(state)
    state["snapshot"] = {
        "hands": [list(h) for h in state["hands"]],
        "die": state["die"],
        "objectives": [list(o) for o in state["objectives"]],
        "met": list(state["met"]),
        # what an all-seeing table also knows (the solver): the RÉCOMPENSES, the discard
        # piles and the generator that rolls the die
        "rewards": [r["type"] for r in state["rewards"]],
        "discards": [list(d) for d in state["discards"]],
        "rng": state["rng"],
    }
    state["phase"] = "choose"


def choose_actions(state: dict, seat: int) -> list[dict]:
    if state["chosen"][seat] is not None:
        return []
    remarks: list[str | None] = [None] if state["silent"] else [None, *REMARKS]
    return [
        {"type": "choose", "seat": seat, "card": c, "remark": r}
        for c in playable(state, seat)
        for r in remarks
    ]


def reveal_actions(state: dict) -> list[dict]:
    left = [s for s in range(n_seats(state)) if not state["revealed"][s]]
    out = [{"type": "reveal", "who": s} for s in left]
    out += reward_actions(state)
    if not left and out:
        out.append({"type": "conclude"})
    return out


def reward_actions(state: dict) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    face = state["die"]
    for i, r in enumerate(state["rewards"]):
        t = r["type"]
        if t in seen or t == "shield":
            continue
        seen.add(t)
        if t == "nudge":
            out += [
                {"type": "reward", "index": i, "face": v}
                for v in sorted({max(1, face - 1), min(12, face + 1)} - {face})
            ]
        elif t == "flip":
            out.append({"type": "reward", "index": i, "face": 13 - face})
        elif t == "reroll" or (
            t == "favor" and state["favor"] < FAVOR_MAX and not state["rule"].get("no_favor_gain")
        ):
            out.append({"type": "reward", "index": i, "face": 0})
    return out


def reveal(R: Rules, state: dict, seat: int) -> None:
    """Step 4 for one seat: its card is shown; identical cards cancel; the Quémandeur's
    character loses at once; otherwise its effect must be applied."""
    card = state["chosen"][seat]
    state["chosen"][seat] = None
    state["revealed"][seat] = True
    _play(R, state, seat, card)


def _play(R: Rules, state: dict, seat: int, card: str) -> None:
    first = not state["table"]
    twins = [
        t
        for t in range(n_seats(state))
        if t != seat and not state["revealed"][t] and state["chosen"][t] == card
    ]
    earlier = any(e["card"] == card for e in state["table"])
    entry = {"seat": seat, "card": card, "cancelled": False}
    state["table"].append(entry)
    _forget(state, seat, card)
    log(state, "card.revealed", seat=seat, char=card)
    if twins or earlier:
        entry["cancelled"] = True
        _discard(state, seat, card)
        for t in twins:
            state["revealed"][t] = True
            state["chosen"][t] = None
            state["table"].append({"seat": t, "card": card, "cancelled": True})
            _forget(state, t, card)
            _discard(state, t, card)
        log(state, "card.cancelled", char=card, seats=[seat, *twins])
        state["phase"] = "reveal"
        return
    if card == state["petitioner"]:
        _discard(state, seat, card)
        log(state, "card.petitioner", seat=seat, char=card)
        for t in range(n_seats(state)):
            if not state["revealed"][t] and state["chosen"][t] is not None:
                state["revealed"][t] = True
                _forget(state, t, state["chosen"][t])
                _discard(state, t, state["chosen"][t])
                state["chosen"][t] = None
        state["lost_turn"] = "petitioner"
        state["phase"] = "reveal"
        _check(R, state)
        return
    state["pending"] = {"seat": seat, "card": card, "first": first}
    if card == "oracle":
        set_die(state, roll(state))
        log(state, "effect.roll", seat=seat, face=state["die"])
        _discard(state, seat, card)
        if len(state["hands"][seat]) <= 1:
            recover(state, seat)
        state["phase"] = "oracle"
        return
    state["phase"] = "effect"


def _forget(state: dict, seat: int, card: str) -> None:
    known = state["known"][seat]
    if card in known:
        known.remove(card)


def _discard(state: dict, seat: int, card: str) -> None:
    state["discards"][seat].append(card)
    state["pub_discard"][seat].append(card)


def effect_actions(state: dict) -> list[dict]:
    p = state["pending"]
    card, face = p["card"], state["die"]
    if card in D.DIE_CARDS:
        return [{"type": "effect", "face": v} for v in D.die_options(card, face)]
    if card == "dame":
        if not p["first"]:
            return [{"type": "effect", "face": 0}]
        values = sorted({v for o in state["objectives"] for v in o})
        return [{"type": "effect", "face": v} for v in values]
    if card in D.OBJECTIVE_CARDS:
        return [{"type": "effect", "objective": i} for i in range(len(state["objectives"]))]
    if card == "stoique":
        pile = state["discards"][p["seat"]]
        return [{"type": "effect", "take": c} for c in sorted(set(pile))] or [
            {"type": "effect", "take": ""}
        ]
    return [{"type": "effect", "face": 0}]


def apply_effect(R: Rules, state: dict, action: dict) -> None:
    p = state["pending"]
    seat, card = p["seat"], p["card"]
    if action.get("face"):
        before = state["die"]
        set_die(state, action["face"])
        log(state, "effect.die", seat=seat, char=card, before=before, face=action["face"])
    elif "objective" in action:
        i = action["objective"]
        state["objectives"][i] = list(D.LOW if card == "chevalier" else D.HIGH)
        state["met"][i] = state["die"] in state["objectives"][i]
        log(state, "effect.objective", seat=seat, char=card, objectives=_copy(state["objectives"]))
    elif action.get("take"):
        take = action["take"]
        pile = state["discards"][seat]
        top = pile[-1] == take
        idx = len(pile) - 1 - pile[::-1].index(take)
        pile.pop(idx)
        state["hands"][seat] = sorted([*state["hands"][seat], take])
        if top:
            pub = state["pub_discard"][seat]
            if pub and pub[-1] == take:
                pub.pop()
            state["known"][seat] = sorted({*state["known"][seat], take})
            log(state, "effect.take_top", seat=seat, char=take)
        else:
            log(state, "effect.take_hidden", seat=seat)
    else:
        log(state, "effect.none", seat=seat, char=card)
    if card != "oracle":
        _discard(state, seat, card)
    state["pending"] = None
    state["phase"] = "reveal"


def oracle_actions(state: dict) -> list[dict]:
    seat = state["pending"]["seat"]
    return [{"type": "oracle", "card": c} for c in sorted(set(state["hands"][seat]))]


def apply_oracle(R: Rules, state: dict, card: str) -> None:
    seat = state["pending"]["seat"]
    state["hands"][seat].remove(card)
    state["pending"] = None
    state["phase"] = "reveal"
    log(state, "oracle.second", seat=seat)
    _play(R, state, seat, card)


def _check(R: Rules, state: dict) -> None:
    """Step 5: the objective is checked, the dilemma turned over, one side applied."""
    d = R.dilemmas[state["dilemma"]]
    face = state["die"]
    ok = not state["lost_turn"] and success_now(state["objectives"], state["met"], face)
    if any(state["remarks"]):
        state["spoke"] = True
    # two turns at two players: the first turn only needs one objective, the second another
    if state["two_turns"] and not state["lost_turn"]:
        hit = [i for i, o in enumerate(state["objectives"]) if face in o]
        if not state["first_met"]:
            if hit:
                state["first_met"] = hit
                state["chosen"] = [None] * n_seats(state)
                log(state, "check.first_turn", face=face)
                state["phase"] = "start"
                return
            ok = False
        else:
            ok = ok or any(i != j for i in state["first_met"] for j in hit)
    for s in range(n_seats(state)):
        state["chosen"][s] = None
    log(state, "check.success" if ok else "check.failure", dilemma=state["dilemma"], face=face)
    side = d.get("success" if ok else "failure") or []
    for eff in side:
        for key, value in eff.items():
            if key == "favor":
                if not value:
                    continue  # a Faveur of 0 (the format allows it) moves nothing, spends no shield
                if value > 0 and ok and state["rule"].get("no_favor_gain"):
                    log(state, "favor.none")
                elif value > 0:
                    gain_favor(state, value, "dilemma")
                else:
                    lose_favor(state, -value, "dilemma")
            elif key == "reroll" and value:
                set_die(state, roll(state))
                log(state, "die.rolled", face=state["die"])
            elif key == "recover" and value:
                for s in range(n_seats(state)):
                    if state["discards"][s]:
                        c = state["discards"][s].pop()
                        state["hands"][s] = sorted([*state["hands"][s], c])
                        if state["pub_discard"][s]:
                            state["pub_discard"][s].pop()
                        state["known"][s] = sorted({*state["known"][s], c})
    state["resolved"].append({"id": state["dilemma"], "rung": state["rung"], "success": ok})
    if ok and d.get("reward"):
        state["rewards"].append(
            {"id": state["dilemma"], "type": d["reward"], "rung": state["rung"]}
        )
        log(state, "reward.kept", dilemma=state["dilemma"], reward=d["reward"])
    if ok and not state["spoke"]:
        state["silent_boxes"] += 1
    pet = state["petitioner"]
    if ok and pet in state["reserve"]:
        state["reserve"].remove(pet)
        for s in range(n_seats(state)):
            state["hands"][s] = sorted([*state["hands"][s], pet])
            state["known"][s] = sorted({*state["known"][s], pet})
        log(state, "petitioner.taken", char=pet)
    state["pets_done"].append(pet)
    state["petitioner"] = None
    state["two_turns"] = False
    state["first_met"] = []
    if state.get("chef") is not None:
        state["chef"] = (state["chef"] + 1) % n_seats(state)
    state["last"] = {"dilemma": state["dilemma"], "success": ok}
    if state["favor"] <= 0:
        _end(R, state, lost="favor")
        return
    state["phase"] = "start" if ok else "aftermath"


def _throne_setup(state: dict) -> None:
    n = n_seats(state)
    state["dilemma"] = THRONE
    state["petitioner"] = None
    state["objectives"], state["met"] = [], []
    state["table"] = []
    for s in range(n):
        if needs_recovery(state, s):
            recover(state, s)
    state["chosen"] = [None] * n
    state["remarks"] = [None] * n
    state["revealed"] = [False] * n
    state["snapshot"] = {"hands": [list(h) for h in state["hands"]]}
    log(state, "throne.start")
    state["phase"] = "throne"


def claim_actions(state: dict, seat: int) -> list[dict]:
    """A character to claim the throne for, and, for whoever answers for the council, its
    RÉCOMPENSES (usable « même pendant la phase REVENDIQUER LE TRÔNE »)."""
    if state["chosen"][seat] is not None:
        return []
    out = [{"type": "claim", "seat": seat, "card": c} for c in playable(state, seat)]
    return out + (reward_actions(state) if seat in deciders(state) else [])


def _claim(R: Rules, state: dict) -> None:
    """REVENDIQUER LE TRÔNE: every card shown at once, no effect applied."""
    cards = list(state["chosen"])
    for s, c in enumerate(cards):
        state["revealed"][s] = True
        state["table"].append({"seat": s, "card": c, "cancelled": False})
        _forget(state, s, c)
        _discard(state, s, c)
        state["chosen"][s] = None
    log(state, "throne.revealed", cards=cards)
    if len(set(cards)) == 1:
        state["throne_char"] = cards[0]
        state["claimed"] = True
        # the last dilemma won too, and no remark can be made during it: one more box
        state["silent_boxes"] += 1
        log(state, "throne.success", char=cards[0])
        _end(R, state)
        return
    state["claimed"] = False
    log(state, "throne.failure")
    for eff in R.throne.get("failure") or [{"favor": -1}]:
        if "favor" in eff and eff["favor"] < 0:
            lose_favor(state, -eff["favor"], "throne")
    if state["favor"] <= 0:
        _end(R, state, lost="favor")
        return
    state["phase"] = "successor"


def successor_actions(state: dict) -> list[dict]:
    cards = sorted({e["card"] for e in state["table"]})
    return [{"type": "successor", "card": c} for c in cards] + reward_actions(state)


def _end(R: Rules, state: dict, lost: str | None = None) -> None:
    rule = state["rule"]
    if lost is None:
        if rule.get("throne") and state["throne_char"] != rule["throne"]:
            lost = "throne_rule"
        elif state["rings"] < rule.get("min_bells", 0):
            lost = "bells_rule"
        elif rule.get("claim") and not state.get("claimed"):
            lost = "claim_rule"
    won = lost is None
    if not won:
        state["throne_char"] = None
    state["result"] = {"won": won, "reason": lost or "won", **score(R, state)}
    state["phase"] = "over"
    state["pending"] = None
    log(state, "game.won" if won else f"game.lost.{lost}", char=state["throne_char"])


def score(R: Rules, state: dict) -> dict[str, Any]:
    """La durée du règne: the resolved dilemmas' values (doubled when the bells rang), the
    seven Quémandeurs' crowns, and the Faveur left."""
    dil = 0
    for r in state["resolved"]:
        if r["success"] and r["id"] in R.dilemmas:
            dil += int(R.dilemmas[r["id"]]["value"]) * (2 if r["rung"] else 1)
    pets = [*state["pets_done"], *([state["petitioner"]] if state["petitioner"] else [])]
    pets += state["pets"]
    crowns = sum(R.crown(c) for c in pets)
    favor = max(0, state["favor"])
    return {"dilemmas": dil, "crowns": crowns, "favor": favor, "total": dil + crowns + favor}


BANDS = ((23, "band.1"), (34, "band.2"), (60, "band.3"), (78, "band.4"), (109, "band.5"))


def verdict(total: int) -> str:
    for top, key in BANDS:
        if total <= top:
            return key
    return "band.6"


# --------------------------------------------------------------------------- the contract


def to_act(state: dict) -> list[int]:
    phase = state["phase"]
    if phase in ("choose", "throne"):
        return [
            s
            for s, (c, r) in enumerate(zip(state["chosen"], state["revealed"], strict=True))
            if c is None and not r
        ]
    if phase in ("bells", "reveal", "aftermath", "successor", "throne_rewards"):
        return deciders(state)
    if phase in ("effect", "oracle"):
        return [state["pending"]["seat"]]
    return []


def turn_kind(state: dict) -> str:
    return "each" if state["phase"] in ("choose", "throne", "effect", "oracle") else "collective"


def legal_actions(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "bells":
        return bells_actions(state)
    if phase == "choose":
        return choose_actions(state, seat)
    if phase == "throne":
        return claim_actions(state, seat)
    if phase == "reveal":
        return reveal_actions(state)
    if phase == "throne_rewards":
        return [*reward_actions(state), {"type": "conclude"}]
    if phase == "effect":
        return effect_actions(state)
    if phase == "oracle":
        return oracle_actions(state)
    if phase == "aftermath":
        # the hint is asked once, and read before the next dilemma comes
        return [{"type": "continue"}] + ([] if state.get("hint") else [{"type": "hint"}])
    if phase == "successor":
        return successor_actions(state)
    return []


ACTION_KEYS = {
    "bells": {"type", "ring", "two_turns"},
    "choose": {"type", "seat", "card", "remark"},
    "claim": {"type", "seat", "card"},
    "reveal": {"type", "who"},
    "reward": {"type", "index", "face"},
    "conclude": {"type"},
    "effect": None,
    "oracle": {"type", "card"},
    "continue": {"type"},
    "hint": {"type"},
    "successor": {"type", "card"},
}


def _seat_of(state: dict, action: dict) -> int | None:
    """The seat an action belongs to: the one waiting for it."""
    for s in to_act(state):
        if is_among(action, legal_actions(state, s)):  # ``True`` is not ``1`` here
            return s
    return None


def apply(R: Rules, state: dict, action: Any) -> dict:
    where = f"conseil, phase {state.get('phase')}"
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction(action, where, "an action is an object with a text « type »")
    keys = ACTION_KEYS.get(action["type"])
    if action["type"] not in ACTION_KEYS:
        raise MalformedAction(action, where, "unknown action type")
    if keys is not None and set(action) != keys:
        raise MalformedAction(action, where, f"expected the fields {sorted(keys)}")
    seat = _seat_of(state, action)
    if seat is None:
        raise IllegalAction(action, where, "not a legal action now")
    out = copy_game(state, SHARED)
    out["step"] += 1
    t = action["type"]
    if t == "bells":
        if action["ring"]:
            out["rung"] = True
            out["rings"] += 1
            gain_favor(out, -1, "bells")
            nxt = out["pile"][0] if out["pile"] else None
            log(out, "bells.rung", next=nxt)
        if action["two_turns"]:
            out["two_turns"] = True
            log(out, "bells.two_turns")
        out["phase"] = "setup_choose"
    elif t in ("choose", "claim"):
        card = action["card"]
        out["hands"][seat].remove(card)
        out["chosen"][seat] = card
        remark = action.get("remark")
        out["remarks"][seat] = remark
        log(out, "choose.card", seat=seat)
        if remark:
            out["spoke"] = True
            log(out, f"remark.{remark}", seat=seat)
    elif t == "reveal":
        reveal(R, out, action["who"])
    elif t == "reward":
        r = out["rewards"].pop(action["index"])
        if r["type"] == "reroll":
            set_die(out, roll(out))
        elif r["type"] == "favor":
            gain_favor(out, 1, "reward")
        else:
            set_die(out, action["face"])
        log(out, "reward.used", dilemma=r["id"], reward=r["type"], face=out["die"])
    elif t == "conclude" and out["phase"] == "throne_rewards":
        out["phase"] = "claim"
    elif t == "conclude":
        _check(R, out)
    elif t == "effect":
        apply_effect(R, out, action)
    elif t == "oracle":
        apply_oracle(R, out, action["card"])
    elif t == "continue":
        out["hint"] = None
        out["phase"] = "start"
    elif t == "hint":
        if R.adviser is None:
            raise IllegalAction(action, "hint", "no adviser for these rules")
        told = R.adviser(R, out)
        out["hint"] = told["text"]
        log(out, "hint", **told)
    elif t == "successor":
        out["throne_char"] = action["card"]
        log(out, "throne.chosen", char=action["card"])
        _end(R, out)
    settle(R, out)
    return out


def check_state(state: dict) -> None:
    """Every seat's twelve characters each in exactly one place."""
    for s in range(n_seats(state)):
        cards = [*state["hands"][s], *state["discards"][s], *state["reserve"]]
        if state["chosen"][s] is not None:
            cards.append(state["chosen"][s])
        p = state.get("pending")
        if p and p["seat"] == s and state["phase"] == "effect":
            cards.append(p["card"])
        if sorted(cards) != sorted(CHARACTERS):
            raise ValueError(f"seat {s}'s cards are {sorted(cards)}")
    for key in ("favor", "die"):  # integers, not 3.5 nor true
        if not isinstance(state[key], int) or isinstance(state[key], bool):
            raise ValueError(f"{key} is not an integer")
    if not 0 <= state["favor"] <= FAVOR_MAX:
        raise ValueError(f"Faveur {state['favor']}")
    if not 1 <= state["die"] <= 12:
        raise ValueError(f"die {state['die']}")
