"""Complots' rules as a pure state machine, by the rulebook's sections.

A state is plain JSON.  The turn is a queue of *steps* (``state["steps"]``): a reaction
window (``doubt``: every other living player may challenge a claim; ``counter``: who may
counter an action), a private choice of one seat (``lose``: which card to reveal; ``keep``:
the cards kept after an exchange; ``show``/``judge``: the Inquisiteur's look), or a step the
engine plays at once (``pay``, ``effect``, ``end``).  ``apply`` takes one decision, then runs
the queue until the next decision; an empty queue means the player whose turn it is chooses
an action.

Choices where the rulebook is silent (all written on the rules page, all tested):

- the first player is drawn by lot (the seed);
- in a reaction window, the first to speak up wins; bots answer first, in table order from
  the claimant; humans answer on a shared screen;
- the Capitaine may only target an opponent who has at least one coin;
- the Assassin's 3 coins are paid once the claim stands (not doubted, or doubted and proven),
  before any counter: a caught bluffer pays nothing, a countered Assassin has paid;
- the Inquisiteur's look may not be countered; the target chooses the card it shows, only the
  Inquisiteur sees it; a discarded card goes back to the Court, shuffled, and the target draws;
- when the Treasury lacks coins, a player takes what is left;
- a loss with no choice (one hidden card, or two of the same character) is taken at once.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, MalformedAction, brief
from ..core.rng import Rng

FORMAT_VERSION = 1
#: 24 silver coins and 6 gold coins worth 5: the whole money of the game
COINS_TOTAL = 54
START_COINS = 2
ASSASSINAT_COST = 7
FORCED_AT = 10

WINDOWS = ("doubt", "counter")
#: log arguments that name a seat: the entry also carries the seat's name (``seat_name``)
SEAT_ARGS = ("seat", "target", "claimant", "doubter", "by", "actor", "first")
PRIVATE = ("lose", "keep", "show", "judge", "pick")


class Table:
    """The content of a bundle, read once: characters, counters, variants."""

    def __init__(self, bundle: dict[str, Any]) -> None:
        rec = bundle.get("records", {})
        self.characters: dict[str, dict] = dict(rec.get("character", {}))
        self.actions: dict[str, dict] = dict(rec.get("action", {}))
        variants = sorted(rec.get("variant", {}).values(), key=lambda v: not v.get("default"))
        self.variants: dict[str, dict] = {v["id"]: v for v in variants}
        self.default_variant = variants[0]["id"] if variants else ""
        #: action id -> counter record, and character -> its action id
        self.action_of: dict[str, str] = {}
        for a in self.actions.values():
            key = a.get("basic") or a.get("character")
            if key:
                self.action_of[str(key)] = a["id"]
        self.counters: dict[str, dict] = {}
        self.powers: dict[str, str] = {}  # character -> power, read once
        for c in rec.get("counter", {}).values():
            self.counters[str(c["action"])] = c

    def power(self, char: str) -> str:
        power = self.powers.get(char)
        if power is None:
            power = self.powers[char] = str(self.characters[char].get("power", "none"))
        return power

    def counter_for(self, act: str) -> dict | None:
        """The counter of a basic action (``aide``) or of a character's power."""
        action_id = self.action_of.get(act)
        return self.counters.get(action_id) if action_id else None

    def name(self, char: str) -> str:
        return str(self.characters.get(char, {}).get("name", char))

    def short(self, char: str) -> str:
        return str(self.characters.get(char, {}).get("short", char))


# --------------------------------------------------------------------------- setup


def new_game(table: Table, setup: dict[str, Any]) -> dict[str, Any]:
    seats = [
        {"name": s["name"], "bot": bool(s.get("bot")), "persona": s.get("persona")}
        for s in setup["seats"]
    ]
    n = len(seats)
    variant = setup.get("variant") or table.default_variant
    chars = list(table.variants[variant]["characters"])
    copies = 4 if n >= 7 else 3
    state: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "game": "complots",
        "seed": setup["seed"],
        "rng": Rng.seed_from(f"complots:{setup['seed']}"),
        "log": [],
        "variant": variant,
        "chars": chars,
        "copies": copies,
        "seats": seats,
        "players": [
            {"coins": START_COINS, "hidden": [], "revealed": [], "aside": [], "drawn": []}
            for _ in range(n)
        ],
        "court": [],
        "treasury": 0,
        "turn": 0,
        "turn_no": 1,
        "steps": [],
        "ctx": None,
        "claims": [],
        "truth": [],
        "out": [],
        "out_turns": [],
        "winner": None,
    }
    rng = Rng(state)
    first = rng.below(n)
    state["turn"] = first
    players = state["players"]
    if n == 2:
        # two packets of five, one for each player; the third shuffled: one card each, the
        # Court takes the last three
        for p in players:
            p["aside"] = list(chars)
        third = rng.shuffle(list(chars))
        for p in players:
            p["hidden"].append(third.pop())
        state["court"] = third
        players[first]["coins"] = 1
        state["steps"] = [{"do": "pick", "waiting": [0, 1]}]
    else:
        deck = rng.shuffle([c for c in chars for _ in range(copies)])
        for _ in range(2):
            for p in players:
                p["hidden"].append(deck.pop())
        state["court"] = deck
    state["treasury"] = COINS_TOTAL - sum(p["coins"] for p in players)
    _log(state, "setup", n=n, variant=variant, first=first, copies=copies)
    if n == 2:
        for s in range(2):
            _log(state, "pick_deal", to=[s], seat=s, card=players[s]["hidden"][0])
    else:
        for s in range(n):
            _log(state, "deal", to=[s], seat=s, cards=list(players[s]["hidden"]))
        _log(state, "turn", seat=first, turn=1)
    return state


# --------------------------------------------------------------------------- small helpers


def _log(state: dict, key: str, to: list[int] | None = None, **args: Any) -> None:
    seats = state["seats"]
    for k in SEAT_ARGS:
        v = args.get(k)
        if isinstance(v, int) and 0 <= v < len(seats):
            args[k + "_name"] = seats[v]["name"]
    entry: dict[str, Any] = {"key": key, "args": args}
    if to is not None:
        entry["to"] = to
    state["log"].append(entry)


def alive(state: dict, seat: int) -> bool:
    return bool(state["players"][seat]["hidden"])


def living(state: dict) -> list[int]:
    return [i for i, p in enumerate(state["players"]) if p["hidden"]]


def clockwise(state: dict, start: int, skip: int | None = None) -> list[int]:
    """Living seats in table order after ``start`` (``skip`` left out)."""
    players = state["players"]
    n = len(players)
    order = [(start + k) % n for k in range(1, n + 1)]
    return [s for s in order if s != skip and players[s]["hidden"]]


def _take(state: dict, seat: int, amount: int) -> int:
    got = min(amount, state["treasury"])
    state["treasury"] -= got
    state["players"][seat]["coins"] += got
    return got


def _pay(state: dict, seat: int, amount: int) -> None:
    p = state["players"][seat]
    p["coins"] -= amount
    state["treasury"] += amount


def _draw(state: dict, seat: int) -> str | None:
    if not state["court"]:
        return None
    card = state["court"].pop()
    state["players"][seat]["hidden"].append(card)
    return card


def _to_court(state: dict, cards: list[str]) -> None:
    state["court"].extend(cards)
    Rng(state).shuffle(state["court"])


# --------------------------------------------------------------------------- the turn


def to_act(state: dict) -> list[int]:
    if state["winner"] is not None:
        return []
    steps = state["steps"]
    if not steps:
        return [state["turn"]]
    st = steps[0]
    if st["do"] in WINDOWS or st["do"] == "pick":
        return list(st["waiting"])
    return [st["seat"]]


def turn_kind(state: dict) -> str:
    """``public`` for a window where several players may speak up (on one screen, no secret
    shown); ``each`` for a choice of one seat (its turn, a loss, an exchange, the target's
    counter) and for the two-player setup's secret picks."""
    steps = state["steps"]
    if steps and steps[0]["do"] in WINDOWS and not steps[0].get("private"):
        return "public"
    return "each"


def forced(state: dict, seat: int) -> bool:
    return state["players"][seat]["coins"] >= FORCED_AT


def legal_actions(table: Table, state: dict, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    steps = state["steps"]
    p = state["players"][seat]
    if not steps:
        return _turn_actions(table, state, seat)
    st = steps[0]
    do = st["do"]
    if do == "doubt":
        return [{"type": "doubt", "seat": seat}, {"type": "pass", "seat": seat}]
    if do == "counter":
        ctx = state["ctx"]
        counter = table.counter_for(ctx["character"] or ctx["act"])
        by = [c for c in (counter or {}).get("by", []) if c in state["chars"]]
        out: list[dict[str, Any]] = [{"type": "counter", "seat": seat, "character": c} for c in by]
        out.append({"type": "pass", "seat": seat})
        return out
    if do == "lose":
        return [{"type": "lose", "seat": seat, "character": c} for c in sorted(set(p["hidden"]))]
    if do == "keep":
        pool = sorted(p["hidden"] + p["drawn"])
        return [
            {"type": "keep", "seat": seat, "cards": list(k)}
            for k in _combos(pool, len(p["hidden"]))
        ]
    if do == "show":
        return [{"type": "show", "seat": seat, "character": c} for c in sorted(set(p["hidden"]))]
    if do == "judge":
        return [{"type": "spare", "seat": seat}, {"type": "discard", "seat": seat}]
    if do == "pick":
        return [{"type": "pick", "seat": seat, "character": c} for c in sorted(set(p["aside"]))]
    return []


def _combos(pool: list[str], k: int) -> list[tuple[str, ...]]:
    """Distinct sorted multisets of ``k`` cards from ``pool`` (sorted)."""
    out: set[tuple[str, ...]] = set()

    def rec(start: int, chosen: tuple[str, ...]) -> None:
        if len(chosen) == k:
            out.add(chosen)
            return
        for i in range(start, len(pool)):
            rec(i + 1, (*chosen, pool[i]))

    rec(0, ())
    return sorted(out)


def _turn_actions(table: Table, state: dict, seat: int) -> list[dict[str, Any]]:
    p = state["players"][seat]
    others = clockwise(state, seat, skip=seat)
    if forced(state, seat):
        return [{"type": "assassinat", "seat": seat, "target": t} for t in others]
    out: list[dict[str, Any]] = [{"type": "revenu", "seat": seat}, {"type": "aide", "seat": seat}]
    if p["coins"] >= ASSASSINAT_COST:
        out += [{"type": "assassinat", "seat": seat, "target": t} for t in others]
    for c in state["chars"]:
        power = table.power(c)
        ch = table.characters[c]
        if power == "none":
            continue
        if power in ("tax", "exchange"):
            out.append({"type": "claim", "seat": seat, "character": c})
        elif power == "assassinate":
            if p["coins"] >= int(ch.get("cost", 0)):
                out += [
                    {"type": "claim", "seat": seat, "character": c, "target": t} for t in others
                ]
        elif power == "steal":
            out += [
                {"type": "claim", "seat": seat, "character": c, "target": t}
                for t in others
                if state["players"][t]["coins"] > 0
            ]
        elif power == "inquire":
            out.append({"type": "claim", "seat": seat, "character": c, "mode": "exchange"})
            out += [
                {"type": "claim", "seat": seat, "character": c, "mode": "inspect", "target": t}
                for t in others
            ]
    return out


# --------------------------------------------------------------------------- apply


def _check_shape(action: Any, where: str) -> int:
    if not isinstance(action, dict):
        raise MalformedAction(action, where, "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise MalformedAction(action, where, "no action type")
    for key, value in action.items():
        t = type(value)
        if t is str or t is int or value is None:  # the usual values, at once
            continue
        if isinstance(value, (bool, float)):
            raise MalformedAction(action, where, f"{brief(key)} has the wrong type")
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise MalformedAction(action, where, f"{brief(key)} has the wrong type")
        if isinstance(value, dict):
            raise MalformedAction(action, where, f"{brief(key)} has the wrong type")
    seat = action.get("seat")
    if not isinstance(seat, int):
        raise MalformedAction(action, where, "an action names its seat")
    return seat


def canonical(action: Any) -> Any:
    """The action in the form ``legal_actions`` lists it: the cards a player keeps are a set,
    so the same cards in another order are the same action (listed sorted)."""
    if isinstance(action, dict) and action.get("type") == "keep":
        cards = action.get("cards")
        if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
            return {**action, "cards": sorted(cards)}
    return action


def apply(table: Table, state: dict, action: Any) -> dict:
    where = f"complots, turn {state.get('turn_no')}"
    seat = _check_shape(action, where)
    action = canonical(action)
    if action not in legal_actions(table, state, seat):
        raise IllegalAction(action, where, "not a legal action now")
    new = copy(state)
    _decide(table, new, seat, action)
    _run(table, new)
    return new


def copy(state: dict) -> dict:
    """A copy of a state for ``apply``: what a step changes is copied; the seats, the
    characters in play, the log entries and the claims (replaced, never changed in place) are
    shared."""
    new = dict(state)
    new["log"] = state["log"][:]
    new["players"] = [
        {
            "coins": p["coins"],
            "hidden": p["hidden"][:],
            "revealed": p["revealed"][:],
            "aside": p["aside"][:],
            "drawn": p["drawn"][:],
        }
        for p in state["players"]
    ]
    new["court"] = state["court"][:]
    new["steps"] = [
        {**s, "waiting": s["waiting"][:]} if "waiting" in s else dict(s) for s in state["steps"]
    ]
    new["ctx"] = dict(state["ctx"]) if state["ctx"] else None
    new["claims"] = state["claims"][:]
    new["truth"] = state["truth"][:]
    new["out"] = state["out"][:]
    new["out_turns"] = state["out_turns"][:]
    return new


def _decide(table: Table, state: dict, seat: int, action: dict) -> None:
    kind = action["type"]
    steps = state["steps"]
    p = state["players"][seat]
    if not steps:
        _start_action(table, state, seat, action)
        return
    st = steps[0]
    if kind == "pass":
        st["waiting"].remove(seat)  # a silent pass: the window's end is logged
        return
    if kind == "doubt":
        _doubt(table, state, seat, st["claim"])
        return
    if kind == "counter":
        steps.pop(0)
        ctx = state["ctx"]
        idx = _claim(state, seat, action["character"], "counter", target=ctx["actor"])
        ctx["counter"] = idx
        steps.insert(0, {"do": "doubt", "claim": idx, "waiting": clockwise(state, seat, seat)})
        return
    if kind == "lose":
        steps.pop(0)
        _lose(state, seat, action["character"], st.get("why", ""))
        return
    if kind == "keep":
        steps.pop(0)
        pool = p["hidden"] + p["drawn"]
        for c in action["cards"]:
            pool.remove(c)
        p["hidden"] = list(action["cards"])
        p["drawn"] = []
        _to_court(state, pool)
        _log(state, "kept", seat=seat, n=len(pool))
        _log(state, "kept_private", to=[seat], seat=seat, cards=list(action["cards"]))
        return
    if kind == "show":
        steps.pop(0)
        card = action["character"]
        by = st["by"]
        _log(state, "shown", seat=seat, by=by)
        _log(state, "shown_private", to=[seat, by], seat=seat, by=by, card=card)
        steps.insert(0, {"do": "judge", "seat": by, "target": seat, "card": card})
        return
    if kind in ("spare", "discard"):
        steps.pop(0)
        target, card = st["target"], st["card"]
        if kind == "discard" and card in state["players"][target]["hidden"]:
            state["players"][target]["hidden"].remove(card)
            _to_court(state, [card])
            new = _draw(state, target)
            _log(state, "discarded", seat=seat, target=target)
            _log(state, "redraw_private", to=[target], seat=target, card=new)
        else:
            _log(state, "spared", seat=seat, target=target)
        return
    if kind == "pick":
        p["aside"].remove(action["character"])
        p["hidden"].append(action["character"])
        st["waiting"].remove(seat)
        _log(state, "picked", seat=seat)
        _log(state, "picked_private", to=[seat], seat=seat, card=action["character"])
        if not st["waiting"]:
            steps.pop(0)
            _log(state, "turn", seat=state["turn"], turn=state["turn_no"])
        return
    raise AssertionError(kind)  # pragma: no cover - legal_actions lists no other kind


def _claim(state: dict, seat: int, char: str, role: str, target: int | None = None) -> int:
    """Record a claim (its truth is a secret until it is doubted or the game ends)."""
    state["claims"].append(
        {
            "turn": state["turn_no"],
            "seat": seat,
            "character": char,
            "role": role,
            "target": target,
            "doubted_by": None,
            "loser": None,
        }
    )
    state["truth"].append(char in state["players"][seat]["hidden"])
    _log(state, "claim_" + role, seat=seat, character=char, target=target)
    return len(state["claims"]) - 1


def _start_action(table: Table, state: dict, seat: int, action: dict) -> None:
    kind = action["type"]
    target = action.get("target")
    state["ctx"] = {
        "actor": seat,
        "act": kind,
        "character": action.get("character"),
        "target": target,
        "mode": action.get("mode"),
        "claim": None,
        "counter": None,
    }
    steps = state["steps"]
    if kind == "revenu":
        got = _take(state, seat, 1)
        _log(state, "revenu", seat=seat, n=got)
        steps.append({"do": "end"})
    elif kind == "aide":
        _log(state, "aide", seat=seat)
        steps += [_counter_window(table, state), {"do": "effect"}, {"do": "end"}]
    elif kind == "assassinat":
        _pay(state, seat, ASSASSINAT_COST)
        _log(state, "assassinat", seat=seat, target=target, n=ASSASSINAT_COST)
        steps += [{"do": "lose", "seat": target, "why": "assassinat"}, {"do": "end"}]
    else:
        char = action["character"]
        idx = _claim(state, seat, char, "action", target=target)
        state["ctx"]["claim"] = idx
        if action.get("mode") == "inspect":
            state["claims"][idx] = {**state["claims"][idx], "mode": "inspect"}
        steps.append({"do": "doubt", "claim": idx, "waiting": clockwise(state, seat, seat)})
        if int(table.characters[char].get("cost", 0)):
            steps.append({"do": "pay"})
        counter = table.counter_for(char)
        if counter:
            steps.append({"do": "counter_open"})
        steps += [{"do": "effect"}, {"do": "end"}]


def _counter_window(table: Table, state: dict) -> dict:
    ctx = state["ctx"]
    counter = table.counter_for(ctx["character"] or ctx["act"]) or {}
    if counter.get("only_target"):
        waiting = [ctx["target"]] if ctx["target"] is not None else []
    else:
        waiting = clockwise(state, ctx["actor"], ctx["actor"])
    step: dict[str, Any] = {"do": "counter", "waiting": [s for s in waiting if alive(state, s)]}
    if counter.get("only_target"):
        step["private"] = True  # one seat decides, looking at its own cards
    return step


def _fail_action(state: dict) -> None:
    """The action fails: only the pending losses and the end of the turn remain."""
    state["steps"][:] = [s for s in state["steps"] if s["do"] in ("lose", "end")]


def _doubt(table: Table, state: dict, doubter: int, idx: int) -> None:
    claim = dict(state["claims"][idx])  # claims are shared between states: copy on write
    state["claims"][idx] = claim
    claimant, char = claim["seat"], claim["character"]
    steps = state["steps"]
    steps.pop(0)  # the window closes: the first to speak up doubts
    claim["doubted_by"] = doubter
    hidden = state["players"][claimant]["hidden"]
    _log(state, "doubt", seat=doubter, claimant=claimant, character=char)
    if char in hidden:
        # proven: show it, shuffle it into the Court, draw another; the doubter loses a life
        hidden.remove(char)
        _to_court(state, [char])
        new = _draw(state, claimant)
        claim["loser"] = doubter
        _log(state, "proven", seat=claimant, character=char, doubter=doubter)
        _log(state, "redraw_private", to=[claimant], seat=claimant, card=new)
        steps.insert(0, {"do": "lose", "seat": doubter, "why": "doubt"})
        if claim["role"] == "counter":
            _fail_action(state)  # the counter stands: the action fails
    else:
        claim["loser"] = claimant
        _log(state, "caught", seat=claimant, character=char, doubter=doubter)
        if claim["role"] == "action":
            _fail_action(state)  # a caught bluff does nothing (the Assassin pays nothing)
        steps.insert(0, {"do": "lose", "seat": claimant, "why": "bluff"})


def _lose(state: dict, seat: int, char: str, why: str) -> None:
    p = state["players"][seat]
    p["hidden"].remove(char)
    p["revealed"].append(char)
    _log(state, "lose", seat=seat, character=char, why=why)
    if not p["hidden"]:
        coins = p["coins"]
        state["treasury"] += coins
        p["coins"] = 0
        if p["drawn"]:  # cannot happen in play: an exchange ends before any loss
            _to_court(state, p["drawn"])
            p["drawn"] = []
        state["out"].append(seat)
        state["out_turns"].append(state["turn_no"])
        _log(state, "eliminated", seat=seat, n=coins)
        left = living(state)
        if len(left) == 1:
            state["winner"] = left[0]
            state["steps"].clear()
            _log(state, "winner", seat=left[0])


def _run(table: Table, state: dict) -> None:
    """Play every step that needs no decision, until one does (or the game ends)."""
    steps = state["steps"]
    while state["winner"] is None:
        if not steps:
            return
        st = steps[0]
        do = st["do"]
        ctx = state["ctx"]
        if do in WINDOWS:
            players = state["players"]
            st["waiting"] = [s for s in st["waiting"] if players[s]["hidden"]]
            if st["waiting"]:
                return
            steps.pop(0)
            if do == "doubt":
                claim = state["claims"][st["claim"]]
                _log(state, "unchallenged", seat=claim["seat"], character=claim["character"])
                if claim["role"] == "counter":
                    _log(state, "countered", seat=claim["seat"], actor=ctx["actor"])
                    _fail_action(state)
            else:
                _log(state, "no_counter", actor=ctx["actor"])
            continue
        if do == "pick":
            return
        if do == "lose":
            p = state["players"][st["seat"]]
            options = set(p["hidden"])
            if not options:
                steps.pop(0)
                continue
            if len(options) == 1:
                steps.pop(0)
                _lose(state, st["seat"], p["hidden"][0], st.get("why", ""))
                continue
            return
        if do == "show":
            p = state["players"][st["seat"]]
            if not p["hidden"]:
                steps.pop(0)
                continue
            return
        if do in ("keep", "judge"):
            return
        steps.pop(0)
        if do == "end":
            _end_turn(state)
            return
        actor = ctx["actor"]
        if not alive(state, actor):
            _fail_action(state)
            continue
        if do == "pay":
            cost = int(table.characters[ctx["character"]].get("cost", 0))
            _pay(state, actor, cost)
            _log(state, "paid", seat=actor, n=cost)
        elif do == "counter_open":
            steps.insert(0, _counter_window(table, state))
        elif do == "effect":
            _effect(table, state)


def _effect(table: Table, state: dict) -> None:
    ctx = state["ctx"]
    actor, target, char = ctx["actor"], ctx["target"], ctx["character"]
    steps = state["steps"]
    if ctx["act"] == "aide":
        got = _take(state, actor, 2)
        _log(state, "aide_done", seat=actor, n=got)
        return
    ch = table.characters[char]
    power = table.power(char)
    if power == "tax":
        got = _take(state, actor, int(ch.get("gain", 0)))
        _log(state, "tax", seat=actor, character=char, n=got)
    elif power == "assassinate":
        if target is not None and alive(state, target):
            steps.insert(0, {"do": "lose", "seat": target, "why": "assassin"})
    elif power == "steal":
        if target is not None and alive(state, target):
            tp = state["players"][target]
            n = min(int(ch.get("gain", 0)), tp["coins"])
            tp["coins"] -= n
            state["players"][actor]["coins"] += n
            _log(state, "steal", seat=actor, target=target, n=n)
    elif power == "exchange" or (power == "inquire" and ctx["mode"] == "exchange"):
        p = state["players"][actor]
        for _ in range(int(ch.get("draw", 0))):
            if state["court"]:
                p["drawn"].append(state["court"].pop())
        _log(state, "exchange", seat=actor, n=len(p["drawn"]))
        _log(state, "drawn_private", to=[actor], seat=actor, cards=list(p["drawn"]))
        steps.insert(0, {"do": "keep", "seat": actor})
    elif power == "inquire" and target is not None and alive(state, target):
        steps.insert(0, {"do": "show", "seat": target, "by": actor})


def _end_turn(state: dict) -> None:
    nxt = clockwise(state, state["turn"])
    state["turn"] = nxt[0]
    state["turn_no"] += 1
    state["ctx"] = None
    _log(state, "turn", seat=state["turn"], turn=state["turn_no"])


# --------------------------------------------------------------------------- views


def known_truth(state: dict, seat: int | None) -> list[bool | None]:
    """Whether each claim was true, as ``seat`` knows it (``None``: unknown): once it was
    doubted, for one's own claims, or when the game is over."""
    if state["winner"] is not None:
        return list(state["truth"])
    return [
        t if (c["seat"] == seat or c["doubted_by"] is not None) else None
        for c, t in zip(state["claims"], state["truth"], strict=True)
    ]


def public_claims(state: dict, seat: int | None) -> list[dict]:
    """The history of claims as ``seat`` knows it, each with ``true`` when it is known."""
    return [
        {**c, "true": t} if t is not None else dict(c)
        for c, t in zip(state["claims"], known_truth(state, seat), strict=True)
    ]


def view(table: Table, state: dict, seat: int | None) -> dict:
    seats = state["seats"]
    players: list[dict[str, Any]] = [
        {
            "seat": i,
            "name": seats[i]["name"],
            "coins": p["coins"],
            "cards": len(p["hidden"]),
            "revealed": p["revealed"][:],
            "alive": bool(p["hidden"]),
            "aside": len(p["aside"]),
        }
        for i, p in enumerate(state["players"])
    ]
    if seat is not None and 0 <= seat < len(players):
        p, row = state["players"][seat], players[seat]
        row["hidden"] = sorted(p["hidden"])
        row["drawn"] = sorted(p["drawn"])
        row["aside_cards"] = sorted(p["aside"])
    steps = state["steps"]
    step = None
    if steps:
        st = steps[0]
        step = dict(st)
        if "card" in step:
            del step["card"]
            if st["do"] == "judge" and st["seat"] == seat:
                step["card"] = st["card"]
    return {
        "game": "complots",
        "seat": seat,
        "variant": state["variant"],
        "chars": list(state["chars"]),
        "copies": state["copies"],
        "players": players,
        "court": len(state["court"]),
        "treasury": state["treasury"],
        "turn": state["turn"],
        "turn_no": state["turn_no"],
        "ctx": dict(state["ctx"]) if state["ctx"] else None,
        "step": step,
        "to_act": to_act(state),
        "claims": list(state["claims"]),
        "truth": known_truth(state, seat),
        "out": list(state["out"]),
        "winner": state["winner"],
    }


# --------------------------------------------------------------------------- invariants


def card_total(state: dict) -> int:
    players = state["players"]
    return len(state["court"]) + sum(
        len(p["hidden"]) + len(p["revealed"]) + len(p["aside"]) + len(p["drawn"]) for p in players
    )


def coin_total(state: dict) -> int:
    return state["treasury"] + sum(p["coins"] for p in state["players"])


STATE_KEYS = {
    "format_version", "game", "seed", "rng", "log", "variant", "chars", "copies", "seats",
    "players", "court", "treasury", "turn", "turn_no", "steps", "ctx", "claims", "truth", "out",
    "out_turns", "winner",
}  # fmt: skip
STEP_KINDS = (*WINDOWS, *PRIVATE, "pay", "effect", "end", "counter_open")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_state(table: Table, state: dict) -> None:
    if not isinstance(state, dict) or state.get("game") != "complots":
        raise ValueError("not a Complots state")
    if set(state) != STATE_KEYS:
        raise ValueError(f"unexpected keys {sorted(set(state) ^ STATE_KEYS)}")
    if not _int(state["rng"]) or not 0 <= state["rng"] < 1 << 64:
        raise ValueError("bad generator")
    for key in ("treasury", "turn", "turn_no", "copies"):
        if not _int(state[key]):
            raise ValueError(f"bad {key}")
    n = len(state["players"])
    if not 2 <= n <= 8 or len(state["seats"]) != n or not 0 <= state["turn"] < n:
        raise ValueError("bad seats")
    if state["variant"] not in table.variants:
        raise ValueError("unknown variant")
    if state["chars"] != list(table.variants[state["variant"]]["characters"]):
        raise ValueError("characters in play differ from the variant")
    if state["winner"] is not None and (not _int(state["winner"]) or not 0 <= state["winner"] < n):
        raise ValueError("bad winner")
    for st in state["steps"]:
        if not isinstance(st, dict) or st.get("do") not in STEP_KINDS:
            raise ValueError("bad step")
        seats = st.get("waiting", [st.get("seat", 0)])
        if not all(_int(x) and 0 <= x < n for x in seats):
            raise ValueError("bad seat in a step")
    for c in state["claims"]:
        if not isinstance(c, dict) or c.get("character") not in state["chars"]:
            raise ValueError("bad claim")
    if not all(isinstance(t, bool) for t in state["truth"]):
        raise ValueError("bad claim truth")
    if not all(isinstance(c, str) for c in state["court"]):
        raise ValueError("bad Court")
    _check_conservation(state)


def _check_conservation(state: dict) -> None:
    """``check_state``'s second half: every card and coin accounted for, none unknown."""
    n = len(state["players"])
    expected = 5 * (3 if n <= 6 else 4)
    if card_total(state) != expected:
        raise ValueError(f"{card_total(state)} cards instead of {expected}")
    copies = 4 if n >= 7 else 3
    if state["copies"] != copies:
        raise ValueError(f"{state['copies']} copies of each character instead of {copies}")
    cards = list(state["court"])
    for p in state["players"]:
        cards += p["hidden"] + p["revealed"] + p["aside"] + p["drawn"]
    for c in state["chars"]:  # every character has its copies, no more, no fewer
        if cards.count(c) != copies:
            raise ValueError(f"{cards.count(c)} copies of {brief(c)} instead of {copies}")
    if coin_total(state) != COINS_TOTAL:
        raise ValueError(f"{coin_total(state)} coins instead of {COINS_TOTAL}")
    for p in state["players"]:
        if not _int(p["coins"]) or p["coins"] < 0:
            raise ValueError("bad coins")
        for c in p["hidden"] + p["revealed"] + p["aside"] + p["drawn"]:
            if c not in state["chars"]:
                raise ValueError(f"unknown card {brief(c)}")
    if len(state["truth"]) != len(state["claims"]):
        raise ValueError("claims and their truth differ in length")
    if state["treasury"] < 0:
        raise ValueError("negative treasury")
