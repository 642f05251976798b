"""Le Roi des 12's rules as a pure state machine, by the rulebook's sections.

- *Mise en place*: ``new_state`` (the set of seven, the dice rolled);
- *Tour de jeu*: ``play`` (step 1, secret and simultaneous), then ``resolve`` runs the other
  steps for each group (``_duel``: 2. cancel, 3. effects, 4. values, 5. points) — in a
  tournament, then for the group champions — then LA DAME's token, then 6. discard;
- *Fin de manche*: ``_end_manche`` (manche points, the winner's card under the die, a new
  manche or the end);
- *Tournoi*: the group table, groups rotated two places, the champions' step, the play-off.

A state is plain JSON.  ``apply`` copies it once and every helper below works on that copy.
Players' cards: ``hand`` + ``played`` + ``discard`` + ``under`` is always the game's set.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.errors import IllegalAction, MalformedAction, brief
from ..core.rng import Rng
from ..core.state import copy_game
from . import dice
from .cards import FIRST_GAME, TURNS_DIE, value_of
from .content import CARD_IDS

#: 1 — first format; 2 — a bot seat carries its temperament (``persona``), public
FORMAT_VERSION = 2
#: parts of a state ``apply`` does not copy: append-only lists (the log, the manches' record)
#: and the seats, never changed once the game is set up
SHARED = {"log": True, "history": True, "seats": True}
CHAMPION_PV = 2
DAUPHIN_PV = 1
MANCHE_PV = 8
WINS_TO_REIGN = 2
#: a safety net for the regular manches (rarely reached): after this many manches the player
#: with the most cards under the die reigns, or those tied for it play a play-off
MAX_MANCHES = 40
#: a play-off manche without a winner is played again (the rulebook's rule for a manche whose
#: points all cancel); after this many in a row, the claimants roll their dice for the throne
PLAYOFF_MAX = 10
DUEL_MAX = 4

#: the rulebook's table: players -> sizes of groups 1, 2, ...  (12: the choice is a setting)
GROUP_TABLE: dict[int, tuple[int, ...]] = {
    5: (2, 3),
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (3, 3, 3),
    10: (3, 3, 4),
    11: (3, 4, 4),
    12: (4, 4, 4),
    13: (3, 3, 3, 4),
    14: (3, 3, 4, 4),
    15: (3, 4, 4, 4),
    16: (4, 4, 4, 4),
}
TWELVE = {"4-4-4": (4, 4, 4), "3-3-3-3": (3, 3, 3, 3)}


def group_sizes(n: int, twelve: str = "4-4-4") -> tuple[int, ...]:
    """Group sizes for ``n`` players (one group of ``n`` for 2 to 4)."""
    if n <= DUEL_MAX:
        return (n,)
    if n == 12:
        return TWELVE[twelve]
    return GROUP_TABLE[n]


def groups_for(n: int, offset: int, sizes: tuple[int, ...]) -> list[list[int]]:
    """Seats around the table cut into groups, starting ``offset`` places along.

    >>> groups_for(5, 0, (2, 3)), groups_for(5, 2, (2, 3))
    ([[0, 1], [2, 3, 4]], [[2, 3], [4, 0, 1]])
    """
    order = [(offset + i) % n for i in range(n)]
    out, at = [], 0
    for size in sizes:
        out.append(order[at : at + size])
        at += size
    return out


# --------------------------------------------------------------------------- log


def log(st: dict, key: str, to: list[int] | None = None, **args: Any) -> None:
    """Append to the log.  During a reveal the table steps through, a public entry waits in
    its step and reaches the log once the table has seen the whole turn (so that no recap
    tells the end of the turn before the screen shows it)."""
    entry: dict[str, Any] = {"key": key, "args": args}
    if to is not None:
        entry["to"] = to
    rev = st.get("reveal")
    if to is None and rev is not None and rev.get("open") and rev["stages"]:
        rev["stages"][-1]["entries"].append(entry)
        if rev.get("defer"):
            return
    st["log"].append(entry)


def _flush_reveal(st: dict) -> None:
    rev = st.get("reveal")
    if rev and rev.get("defer"):
        for stg in rev["stages"]:
            st["log"].extend(stg["entries"])
        rev["defer"] = False


def stage(st: dict, title: str, **args: Any) -> None:
    """Open a new step of the reveal (the screen shows them one at a time)."""
    rev = st.get("reveal")
    if rev is not None and rev.get("open"):
        rev["stages"].append({"title": title, "args": args, "entries": []})


def name(st: dict, seat: int) -> str:
    return st["seats"][seat]["name"]


def names(st: dict, seats: list[int]) -> list[str]:
    return [name(st, s) for s in seats]


def pv(st: dict, seat: int) -> int:
    return sum(st["p"][seat]["tokens"])


# --------------------------------------------------------------------------- setup


def choose_set(mode: str, selection: list[str], rng: Rng) -> list[str]:
    """The seven cards every player holds: the first-game set, a random set (LE CHEVALIER and
    six more, at least two that turn the die) or LE CHEVALIER and six chosen cards."""
    if mode == "premiere":
        chosen = list(FIRST_GAME)
    elif mode == "choix":
        chosen = ["chevalier", *selection]
    else:
        others = [c for c in CARD_IDS if c != "chevalier"]
        rng.shuffle(others)
        drawn, rest = others[:6], others[6:]
        while sum(1 for c in drawn if c in TURNS_DIE) < 2:
            out = [c for c in drawn if c not in TURNS_DIE]
            inn = [c for c in rest if c in TURNS_DIE]
            a, b = rng.choice(out), rng.choice(inn)
            drawn[drawn.index(a)], rest[rest.index(b)] = b, a
        chosen = ["chevalier", *drawn]
    return [c for c in CARD_IDS if c in chosen]


def _seat(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as the table shows it: its name, a person or the computer, and a computer's
    temperament (public: every bot may play against it)."""
    out = {"name": seat["name"], "bot": bool(seat["bot"])}
    if seat["bot"] and seat.get("persona"):
        out["persona"] = seat["persona"]
    return out


def migrate_state(
    st: dict[str, Any], default_persona: str, setup: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A state of format 1 (its seats without temperaments) in format 2: every bot seat with
    the temperament the save's ``setup`` gave it, else ``default_persona`` (what a setup gives
    when it names none)."""
    if st.get("format_version") == 1:
        given = setup.get("seats") if isinstance(setup, dict) else None
        for i, seat in enumerate(st.get("seats", [])):
            if isinstance(seat, dict) and seat.get("bot"):
                mine = given[i] if isinstance(given, list) and i < len(given) else None
                persona = mine.get("persona") if isinstance(mine, dict) else None
                seat.setdefault("persona", persona if isinstance(persona, str) else default_persona)
        st["format_version"] = 2
    return st


def new_state(setup: dict[str, Any]) -> dict[str, Any]:
    seats = [_seat(s) for s in setup["seats"]]
    n = len(seats)
    st: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "game": "roi",
        "seed": setup["seed"],
        "rng": Rng.seed_from(f"{setup['seed']}:roi"),
        "log": [],
        "seats": seats,
        "tournament": n > DUEL_MAX,
        "sizes": list(group_sizes(n, setup.get("groupes12", "4-4-4"))),
        "step_by_step": bool(setup.get("pas_a_pas", True)) and not all(s["bot"] for s in seats),
        "throne": setup.get("throne", ""),
        "p": [],
        "manche": 0,
        "turn": 0,
        "offset": 0,
        "active": list(range(n)),
        "groups": [],
        "playoff": False,
        "pending": None,
        "res": None,
        "reveal": None,
        "winner": None,
        "history": [],
    }
    rng = Rng(st)
    selection = [c for c in setup.get("selection", []) if c in CARD_IDS]
    st["set"] = choose_set(setup.get("cartes", "premiere"), selection, rng)
    for _ in seats:
        st["p"].append(
            {
                "die": 1,
                "hand": list(st["set"]),
                "played": None,
                "discard": [],
                "under": [],
                "tokens": [],
                "value": None,
            }
        )
    log(st, "game.start", players=names(st, list(range(n))), cards=list(st["set"]))
    if st["tournament"]:
        log(st, "game.tournament", sizes="/".join(str(s) for s in st["sizes"]))
    _new_manche(st, rotate=False)
    return st


def _new_manche(st: dict, rotate: bool = True) -> None:
    rng = Rng(st)
    st["manche"] += 1
    st["turn"] = 1
    n = len(st["seats"])
    if st["playoff"]:
        st["groups"] = [list(st["active"])]
    else:
        if rotate and st["tournament"]:
            st["offset"] = (st["offset"] + 2) % n
        st["groups"] = groups_for(n, st["offset"], tuple(st["sizes"]))
    for p in st["p"]:
        p["tokens"] = []
        p["value"] = None
    for s in st["active"]:
        st["p"][s]["die"] = 1 + rng.below(dice.SIDES)
    log(st, "manche.playoff" if st["playoff"] else "manche.start", manche=st["manche"])
    if st["tournament"] and not st["playoff"]:
        for i, g in enumerate(st["groups"]):
            log(st, "manche.group", group=i + 1, players=names(st, g))
    log(
        st,
        "manche.dice",
        dice=[f"{name(st, s)} {st['p'][s]['die']}" for s in st["active"]],
    )
    st["pending"] = {"kind": "choose"}
    st["res"] = None


# --------------------------------------------------------------------------- whose turn


def to_act(st: dict) -> list[int]:
    pend = st.get("pending")
    if not pend:
        return []
    if pend["kind"] == "choose":
        return [s for s in st["active"] if st["p"][s]["played"] is None]
    if pend["kind"] == "ack":
        return [i for i, s in enumerate(st["seats"]) if not s["bot"]]
    return list(pend["seats"])


def turn_kind(st: dict) -> str:
    pend = st.get("pending")
    return "collective" if pend and pend["kind"] == "ack" else "each"


def _duel_now(st: dict) -> dict:
    return st["res"]["queue"][0]


def legal_actions(st: dict, seat: int) -> list[dict[str, Any]]:
    pend = st.get("pending")
    if not pend or seat not in to_act(st):
        return []
    p = st["p"][seat]
    kind = pend["kind"]
    if kind == "choose":
        return [{"type": "play", "seat": seat, "card": c} for c in p["hand"]]
    if kind == "bury":
        return [{"type": "bury", "seat": seat, "card": c} for c in p["hand"]]
    if kind == "take":
        kinds = sorted(set(st["p"][pend["victim"]]["tokens"]), reverse=True)
        return [{"type": "take", "seat": seat, "token": t} for t in kinds]
    if kind == "pivot":
        duel = _duel_now(st)
        face = p["die"]
        if duel.get("flip_pending"):
            out = [
                {"type": "pivot", "seat": seat, "face": f, "order": "before_flip"}
                for f in dice.adjacent(face)
            ]
            out += [
                {"type": "pivot", "seat": seat, "face": f, "order": "after_flip"}
                for f in dice.adjacent(dice.opposite(face))
            ]
            return out
        return [
            {"type": "pivot", "seat": seat, "face": f, "order": "alone"}
            for f in dice.adjacent(face)
        ]
    if kind == "ack":
        rev = st["reveal"]
        out = [{"type": "next"}]
        if rev["shown"] < len(rev["stages"]) - 1:
            out.append({"type": "all"})
        return out
    return []


# --------------------------------------------------------------------------- apply

ACTION_TYPES = ("play", "bury", "take", "pivot", "next", "all")


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(type(a[k]) is type(b[k]) and a[k] == b[k] for k in a)


def check_action(st: dict, action: Any) -> int | None:
    """The seat acting (``None`` for the table's shared « next »), or the engine's error."""
    where = f"roi, manche {st.get('manche')}, tour {st.get('turn')}"
    if not isinstance(action, dict):
        raise MalformedAction(action, where, "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedAction(action, where, f"unknown action type {brief(kind, 1)}")
    if kind in ("next", "all"):
        seats = to_act(st) if turn_kind(st) == "collective" else []
        if not any(_same(action, a) for s in seats[:1] for a in legal_actions(st, s)):
            raise IllegalAction(action, where, "nothing to step through now")
        return None
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise MalformedAction(action, where, "« seat » must be a seat number")
    if not 0 <= seat < len(st["seats"]):
        raise IllegalAction(action, where, f"no seat {brief(seat)}")
    if not any(_same(action, a) for a in legal_actions(st, seat)):
        raise IllegalAction(action, where, "not a legal action of a seat that must act now")
    return seat


def apply(st_in: dict, action: Any) -> dict:
    check_action(st_in, action)
    kind = action["type"]
    #: the seat acting, as ``check_action`` checked it (« next » and « all » have none)
    seat: int = action.get("seat", -1)
    rev = st_in.get("reveal")
    closed = not (rev and rev.get("open"))
    if kind == "play" and closed and len(to_act(st_in)) > 1:
        # not the turn's last card: only this player's hand and choice and the log change
        # (the reveal, closed, takes no entry), the rest is shared, not copied
        st = dict(st_in)
        st["log"] = list(st_in["log"])
        players = st["p"] = list(st_in["p"])
        players[seat] = {**players[seat], "hand": list(players[seat]["hand"])}
    elif kind in ("play", "bury") and closed:
        # a closed reveal is only read until the next turn's replaces it: shared, not copied
        st = copy_game({**st_in, "reveal": None}, SHARED)
        st["reveal"] = rev
    else:
        st = copy_game(st_in, SHARED)
    if kind == "play":
        p = st["p"][seat]
        p["hand"].remove(action["card"])
        p["played"] = action["card"]
        log(st, "turn.chosen", who=name(st, seat))
        log(st, "turn.chosen.own", to=[seat], card=action["card"])
        if not to_act(st):
            st["pending"] = None
            _start_resolution(st)
            resolve(st)
    elif kind == "pivot":
        _pivot(st, seat, action["face"], action["order"])
        resolve(st)
    elif kind == "take":
        _take(st, seat, st["pending"]["victim"], action["token"])
        st["pending"] = None
        resolve(st)
    elif kind == "bury":
        p = st["p"][seat]
        p["hand"].remove(action["card"])
        p["under"].append(action["card"])
        log(st, "manche.buried", who=name(st, seat), count=len(p["under"]))
        log(st, "manche.buried.own", to=[seat], card=action["card"])
        st["pending"]["seats"].remove(seat)
        if not st["pending"]["seats"]:
            st["pending"] = None
            _after_bury(st)
    elif kind == "next":
        rev = st["reveal"]
        if rev["shown"] >= len(rev["stages"]):
            _flush_reveal(st)
            st["pending"] = None
            st["res"]["queue"].pop(0)
            resolve(st)
        else:
            rev["shown"] += 1
    elif kind == "all":
        st["reveal"]["shown"] = len(st["reveal"]["stages"])
    return st


# --------------------------------------------------------------------------- the turn


def _start_resolution(st: dict) -> None:
    st["reveal"] = {
        "manche": st["manche"],
        "turn": st["turn"],
        "stages": [],
        "shown": 1,
        "open": True,
        "defer": st["step_by_step"],
        # the table before the turn: the screen shows it until the reveal reaches each step
        "before": {
            "dice": [p["die"] for p in st["p"]],
            "pv": [sum(p["tokens"]) for p in st["p"]],
        },
    }
    stage(st, "stage.reveal")
    for s in st["active"]:
        log(st, "turn.revealed", who=name(st, s), card=st["p"][s]["played"])
    kind = "single" if not st["tournament"] or st["playoff"] else "group"
    queue: list[dict[str, Any]] = [
        {"task": "duel", "kind": kind, "seats": list(g), "group": i + 1, "stage": "start"}
        for i, g in enumerate(st["groups"])
    ]
    if kind == "group":
        queue.append({"task": "champions"})
    queue.append({"task": "steals"})
    if st["step_by_step"]:
        queue.append({"task": "ack"})
    queue.append({"task": "end_turn"})
    st["res"] = {"queue": queue, "champions": [], "steals": []}


def resolve(st: dict) -> None:
    """Run the turn's remaining steps until a player must decide or the turn is over."""
    while st["res"] and st["res"]["queue"] and not st.get("pending"):
        task = st["res"]["queue"][0]
        t = task["task"]
        if t == "duel":
            if not _duel(st, task):
                return
        elif t == "champions":
            champs = st["res"]["champions"]
            stage(st, "stage.champions")
            if not champs:
                log(st, "champions.none")
                st["res"]["queue"].pop(0)
                continue
            log(st, "champions.meet", players=names(st, champs))
            st["res"]["queue"][0] = {
                "task": "duel",
                "kind": "champions",
                "seats": champs,
                "group": 0,
                "stage": "start",
            }
            continue
        elif t == "steals":
            if not _steals(st):
                return
        elif t == "ack":
            st["reveal"]["open"] = False
            st["pending"] = {"kind": "ack"}
            return
        elif t == "end_turn":
            st["res"]["queue"].pop(0)
            _end_turn(st)
            return
        st["res"]["queue"].pop(0)


def _label(duel: dict) -> dict[str, Any]:
    return {"group": duel["group"]} if duel["kind"] == "group" else {}


def _duel_start(st: dict, d: dict) -> bool:
    """Steps 2 and 3 up to the Sorcier: the cancelled cards, the Dame, then the effects that
    come before a pivot.  ``False``: the Sorcier's player must decide."""
    P = st["p"]
    seats = d["seats"]
    cards = {str(s): P[s]["played"] for s in seats}
    count = Counter(cards.values())
    cancelled = [s for s in seats if count[cards[str(s)]] >= 2]
    live = [s for s in seats if s not in cancelled]
    title = {"group": "stage.cancel.group", "champions": "stage.cancel.champions"}
    stage(st, title.get(d["kind"], "stage.cancel"), **_label(d))
    for card in sorted({cards[str(s)] for s in cancelled}):
        who = [s for s in cancelled if cards[str(s)] == card]
        log(st, "cancel.same", card=card, players=names(st, who), kept=d["kind"] == "group")
    if d["kind"] == "single":  # out of a tournament, cancelled cards go at once
        for s in cancelled:
            P[s]["discard"].append(P[s]["played"])
            P[s]["played"] = None
    voided: list[int] = []
    dame = [s for s in live if cards[str(s)] == "dame"]
    if dame:
        voided = [s for s in live if s != dame[0]]
        live = dame
        log(st, "cancel.dame", who=name(st, dame[0]), players=names(st, voided))
    if not cancelled and not voided:
        log(st, "cancel.none")
    d.update(cards=cards, live=live, cancelled=cancelled, voided=voided)
    by_card = {cards[str(s)]: s for s in live}
    stage(st, "stage.effects", **_label(d))
    if "marchands" in by_card:
        faces = [P[s]["die"] for s in seats]
        for i in range(len(seats)):
            P[seats[(i + 1) % len(seats)]]["die"] = faces[i]
        log(
            st,
            "effect.marchands",
            who=name(st, by_card["marchands"]),
            dice=[f"{name(st, s)} {P[s]['die']}" for s in seats],
        )
    d["flip_pending"] = "chenapans" in by_card
    d["stage"] = "rest"
    if "sorcier" in by_card:
        d["stage"] = "pivot"
        st["pending"] = {"kind": "pivot", "seats": [by_card["sorcier"]]}
        return False
    return True


def _duel(st: dict, d: dict) -> bool:
    """Steps 2 to 5 for one group (or the champions).  ``False``: a player must decide."""
    P = st["p"]
    seats = d["seats"]
    if d["stage"] == "start" and not _duel_start(st, d):
        return False
    if d["stage"] == "pivot":
        return False
    by_card = {d["cards"][str(s)]: s for s in d["live"]}
    if d["flip_pending"]:
        for s in seats:
            P[s]["die"] = dice.opposite(P[s]["die"])
        d["flip_pending"] = False
        log(
            st,
            "effect.chenapans",
            who=name(st, by_card["chenapans"]),
            dice=[f"{name(st, s)} {P[s]['die']}" for s in seats],
        )
    if "inverseuse" in by_card:
        s = by_card["inverseuse"]
        before = P[s]["die"]
        P[s]["die"] = dice.opposite(before)
        log(st, "effect.inverseuse", who=name(st, s), before=before, after=P[s]["die"])
    if "oracle" in by_card:
        s = by_card["oracle"]
        before = P[s]["die"]
        P[s]["die"] = 1 + Rng(st).below(dice.SIDES)
        log(st, "effect.oracle", who=name(st, s), before=before, after=P[s]["die"])
    for card in ("alchimiste", "automate", "parasite", "golem"):
        if card in by_card:
            s = by_card[card]
            log(
                st,
                f"effect.{card}",
                who=name(st, s),
                face=P[s]["die"],
                value=value_of(card, P[s]["die"]),
            )
    for card in ("chevalier", "parieur", "dame"):
        if card in by_card:
            log(st, f"effect.{card}", who=name(st, by_card[card]))
    if not by_card or (set(by_card) == {"dame"} and not d["voided"]):
        log(st, "effect.none")
    # step 4: values
    stage(st, "stage.values", **_label(d))
    values = {}
    for s in seats:
        played = d["cards"][str(s)] if s in d["live"] else None
        values[s] = value_of(played, P[s]["die"])
        P[s]["value"] = values[s]
    count = Counter(values.values())
    tied = [s for s in seats if count[values[s]] >= 2]
    remaining = [s for s in seats if count[values[s]] == 1]
    log(st, "values.all", values=[f"{name(st, s)} {values[s]}" for s in seats])
    for v in sorted({values[s] for s in tied}):
        log(st, "values.tied", value=v, players=names(st, [s for s in tied if values[s] == v]))
    low = "chevalier" in by_card
    swap = "parieur" in by_card
    order = sorted(remaining, key=lambda s: values[s], reverse=not low)
    first = order[0] if order else None
    second = order[1] if len(order) > 1 else None
    champion, dauphin = (second, first) if swap else (first, second)
    # step 5: points
    stage(st, "stage.points", **_label(d))
    if d["kind"] == "group":
        if champion is not None:
            st["res"]["champions"].append(champion)
            log(st, "points.group_champion", who=name(st, champion), group=d["group"])
        if dauphin is not None:
            _award(st, dauphin, DAUPHIN_PV, "points.dauphin")
    else:
        if champion is not None:
            _award(
                st,
                champion,
                CHAMPION_PV,
                "points.champions" if d["kind"] == "champions" else "points.champion",
            )
        if dauphin is not None:
            _award(st, dauphin, DAUPHIN_PV, "points.dauphin")
    if champion is None and dauphin is None:
        log(st, "points.none")
    elif low or swap:
        log(st, "points.why", low=low, swap=swap)
    dames = [s for s in seats if d["cards"][str(s)] == "dame"]
    if len(dames) >= 2:
        lo = min(values[s] for s in dames)
        hi = max(values[s] for s in dames)
        lows = [s for s in dames if values[s] == lo]
        highs = [s for s in dames if values[s] == hi]
        if len(lows) == 1 and len(highs) == 1 and lows != highs:
            st["res"]["steals"].append([lows[0], highs[0]])
        else:
            log(st, "dame.tie")
    d["stage"] = "done"
    return True


def _award(st: dict, seat: int, points: int, key: str) -> None:
    st["p"][seat]["tokens"].append(points)
    log(st, key, who=name(st, seat), points=points, total=pv(st, seat))


def _pivot(st: dict, seat: int, face: int, order: str) -> None:
    d = _duel_now(st)
    P = st["p"]
    if order == "after_flip":
        for s in d["seats"]:
            P[s]["die"] = dice.opposite(P[s]["die"])
        d["flip_pending"] = False
        by_card = {d["cards"][str(s)]: s for s in d["live"]}
        log(
            st,
            "effect.chenapans",
            who=name(st, by_card["chenapans"]),
            dice=[f"{name(st, s)} {P[s]['die']}" for s in d["seats"]],
        )
    before = P[seat]["die"]
    P[seat]["die"] = face
    log(st, "effect.sorcier", who=name(st, seat), before=before, after=face)
    d["stage"] = "rest"
    st["pending"] = None


def _steals(st: dict) -> bool:
    """LA DAME's token, after the points: ``False`` while a player chooses which token."""
    steals = st["res"]["steals"]
    while steals:
        taker, victim = steals[0]
        kinds = sorted(set(st["p"][victim]["tokens"]), reverse=True)
        if len(kinds) > 1:
            steals.pop(0)
            st["pending"] = {"kind": "take", "seats": [taker], "victim": victim}
            return False
        steals.pop(0)
        if not kinds:
            log(st, "dame.nothing", who=name(st, taker), victim=name(st, victim))
        else:
            _take(st, taker, victim, kinds[0])
    return True


def _take(st: dict, taker: int, victim: int, token: int) -> None:
    st["p"][victim]["tokens"].remove(token)
    st["p"][taker]["tokens"].append(token)
    log(st, "dame.take", who=name(st, taker), victim=name(st, victim), points=token)


def _end_turn(st: dict) -> None:
    """Step 6: every played card to its owner's discard; the manche may end."""
    if st.get("reveal"):
        st["reveal"]["open"] = False
    for s in st["active"]:
        p = st["p"][s]
        if p["played"] is not None:
            p["discard"].append(p["played"])
        p["played"] = None
    st["res"] = None
    short = [s for s in st["active"] if len(st["p"][s]["hand"]) <= 1]
    rich = [s for s in st["active"] if pv(st, s) >= MANCHE_PV]
    if short or rich:
        log(
            st,
            "manche.over.cards" if short else "manche.over.points",
            players=names(st, short or rich),
        )
        _end_manche(st)
        return
    st["turn"] += 1
    st["pending"] = {"kind": "choose"}


def manche_winner(points: dict[int, int]) -> tuple[int | None, list[int]]:
    """The manche's winner among ``points`` (seat -> PV) after equal totals cancel, and the
    seats whose points cancelled.

    >>> manche_winner({0: 3, 1: 6, 2: 6})
    (0, [1, 2])
    >>> manche_winner({0: 4, 1: 4})
    (None, [0, 1])
    """
    count = Counter(points.values())
    cancelled = [s for s in points if count[points[s]] >= 2]
    left = [s for s in points if count[points[s]] == 1]
    if not left:
        return None, cancelled
    return max(left, key=lambda s: points[s]), cancelled


def _end_manche(st: dict) -> None:
    for s in st["active"]:
        p = st["p"][s]
        p["hand"] = [c for c in st["set"] if c in p["hand"] or c in p["discard"]]
        p["discard"] = []
    winners = []
    record = {"manche": st["manche"], "playoff": st["playoff"], "winners": []}
    for i, g in enumerate(st["groups"]):
        points = {s: pv(st, s) for s in g}
        log(
            st,
            "manche.points",
            points=[f"{name(st, s)} {points[s]}" for s in g],
            group=i + 1 if len(st["groups"]) > 1 else 0,
        )
        win, cancelled = manche_winner(points)
        for v in sorted({points[s] for s in cancelled}):
            log(
                st,
                "manche.cancelled",
                points=v,
                players=names(st, [s for s in cancelled if points[s] == v]),
            )
        if win is None:
            log(st, "manche.nowinner", group=i + 1 if len(st["groups"]) > 1 else 0)
        else:
            winners.append(win)
            log(
                st,
                "manche.winner",
                who=name(st, win),
                points=points[win],
                group=i + 1 if len(st["groups"]) > 1 else 0,
            )
    record["winners"] = winners
    st["history"].append(record)
    if st["playoff"]:
        if winners:
            _crown(st, winners[:1])
        else:
            _next_manche(st)
        return
    if winners:
        st["pending"] = {"kind": "bury", "seats": list(winners)}
        log(st, "manche.bury", players=names(st, winners))
        return
    _after_bury(st)


def _after_bury(st: dict) -> None:
    crowned = [s for s in st["active"] if len(st["p"][s]["under"]) >= WINS_TO_REIGN]
    if len(crowned) == 1:
        _crown(st, crowned)
    elif crowned:
        log(st, "game.playoff", players=names(st, crowned))
        st["playoff"] = True
        st["active"] = crowned
        _next_manche(st)
    else:
        _next_manche(st)


def _next_manche(st: dict) -> None:
    """A new manche — unless a safety net ends the game, always with one king: at
    ``MAX_MANCHES`` regular manches the leader reigns (leaders tied on cards under the die play a
    play-off); after ``PLAYOFF_MAX`` play-off manches in a row without a winner, the claimants
    roll for the throne (``_roll_for_the_throne``)."""
    if st["playoff"]:
        tied = 0
        for record in reversed(st["history"]):
            if not record["playoff"] or record["winners"]:
                break
            tied += 1
        if tied >= PLAYOFF_MAX:
            _roll_for_the_throne(st, tied)
            return
    elif st["manche"] >= MAX_MANCHES:
        best = max(len(st["p"][s]["under"]) for s in st["active"])
        leaders = [s for s in st["active"] if len(st["p"][s]["under"]) == best]
        if len(leaders) == 1:
            _crown(st, leaders, cap=True)
            return
        log(st, "game.capped.playoff", manches=st["manche"], players=names(st, leaders))
        st["playoff"] = True
        st["active"] = leaders
    _new_manche(st)


def _roll_for_the_throne(st: dict, tied: int) -> None:
    """Our ruling where the rulebook is silent (a play-off that never ends): each claimant
    rolls the die, the highest reigns; those tied for the highest roll again."""
    rng = Rng(st)
    claimants = list(st["active"])
    log(st, "game.lots.why", manches=tied, players=names(st, claimants))
    while len(claimants) > 1:
        rolls = {s: 1 + rng.below(dice.SIDES) for s in claimants}
        log(st, "game.lots", dice=[f"{name(st, s)} {rolls[s]}" for s in claimants])
        top = max(rolls.values())
        claimants = [s for s in claimants if rolls[s] == top]
    _crown(st, claimants)


def _crown(st: dict, seats: list[int], cap: bool = False) -> None:
    assert len(seats) == 1, seats  # the rulebook has one king
    st["winner"] = list(seats)
    st["pending"] = None
    st["res"] = None
    log(
        st,
        "game.capped" if cap else "game.king",
        players=names(st, seats),
        throne=st.get("throne", ""),
    )


# --------------------------------------------------------------------------- views


def view(st: dict, seat: int | None, with_log: bool = True) -> dict[str, Any]:
    """What ``seat`` may know: its own hand, card under the die and secret choice; of the
    others, what the table shows (dice, discards, tokens, how many cards in hand and under).
    ``with_log=False``: the same without the log (the bots do not read it)."""
    choosing = bool(st.get("pending")) and st["pending"]["kind"] == "choose"
    players = []
    for i, p in enumerate(st["p"]):
        own = seat == i
        row: dict[str, Any] = {
            "seat": i,
            "name": st["seats"][i]["name"],
            "persona": st["seats"][i].get("persona"),
            "die": p["die"],
            "value": p["value"],
            "tokens": sorted(p["tokens"], reverse=True),
            "pv": sum(p["tokens"]),
            "discard": list(p["discard"]),
            "hand_count": len(p["hand"]),
            "under_count": len(p["under"]),
            "chose": p["played"] is not None,
            # what the table knows this player may still play: the set, less its discard
            "candidates": [
                c
                for c in st["set"]
                if c not in p["discard"] and (not p["played"] or choosing or c != p["played"])
            ],
        }
        if own:
            row["hand"] = list(p["hand"])
            row["under"] = list(p["under"])
        if own or not choosing:
            row["played"] = p["played"]
        players.append(row)
    return {
        "game": "roi",
        "seat": seat,
        "set": list(st["set"]),
        "tournament": st["tournament"],
        "playoff": st["playoff"],
        "manche": st["manche"],
        "turn": st["turn"],
        "active": list(st["active"]),
        "groups": [list(g) for g in st["groups"]],
        "pending": st["pending"],
        "duel": _duel_view(st),
        "reveal": st["reveal"],
        "winner": st["winner"],
        "history": st["history"],
        "players": players,
        "log": [e for e in st["log"] if "to" not in e or (seat is not None and seat in e["to"])]
        if with_log
        else [],
    }


def _duel_view(st: dict) -> dict[str, Any] | None:
    """The group (or champions) being resolved, when a player decides in its middle."""
    res = st.get("res")
    if not res or not res["queue"] or res["queue"][0]["task"] != "duel":
        return None
    d = res["queue"][0]
    if "live" not in d:
        return None
    return {k: d[k] for k in ("kind", "seats", "group", "cards", "live", "flip_pending")}


def scramble(st: dict, seat: int | None, rng: Rng) -> dict[str, Any]:
    out = copy_game(st, SHARED)
    if seat is None:
        out["rng"] = rng.next()
        return out
    p = out["p"][seat]
    choosing = bool(out.get("pending")) and out["pending"]["kind"] == "choose"
    if choosing and p["played"] and p["hand"]:
        i = rng.below(len(p["hand"]))
        p["hand"][i], p["played"] = p["played"], p["hand"][i]
    if p["under"] and p["hand"]:
        i, j = rng.below(len(p["hand"])), rng.below(len(p["under"]))
        p["hand"][i], p["under"][j] = p["under"][j], p["hand"][i]
    return out


def check_state(st: dict) -> None:
    if st.get("game") != "roi":
        raise ValueError("not a Roi des 12 state")
    full = sorted(st["set"])
    for i, p in enumerate(st["p"]):
        cards = p["hand"] + p["discard"] + p["under"] + ([p["played"]] if p["played"] else [])
        if sorted(cards) != full:
            raise ValueError(f"seat {i}: cards {sorted(cards)} are not the set {full}")
        if not isinstance(p["die"], int) or isinstance(p["die"], bool):
            raise ValueError(f"seat {i}: the die is not an integer")
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in p["tokens"]):
            raise ValueError(f"seat {i}: a token is not an integer")
        if not 1 <= p["die"] <= dice.SIDES:
            raise ValueError(f"seat {i}: die shows {p['die']}")
        if any(t not in (1, 2) for t in p["tokens"]):
            raise ValueError(f"seat {i}: tokens {p['tokens']}")
