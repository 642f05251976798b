"""Le Roi des 12's screens, built from ``engine.core.widgets`` only.

- main: the reveal of the turn — every card at once, then one step at a time (cancellations,
  effects in order, values, points) while the table steps through it;
- self: your hand (the card you chose marked), your die and PV, your card under the die;
- board: the table (each player's die and value, card, hand, discard, cards under the die,
  PV this manche), the dice, the groups of a tournament, the seven characters in play.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..core import french as fr
from ..core import widgets as W
from ..core.game import Outcome
from ..core.types import Screen
from . import dice, rules
from . import text_fr as T
from .cards import TURNS_DIE


class Roi(Protocol):
    """What the screens read of the game (``plugin.Roi``): its cards and its log's text."""

    def card_names(self) -> dict[str, str]: ...

    def card_record(self, card: str) -> dict[str, Any]: ...

    def render_log(self, entry: dict[str, Any]) -> str: ...


def describe(game: Roi, state: dict, action: dict) -> str:
    names = game.card_names()
    t = action.get("type")
    if t == "play":
        return T.ui("action.play", card=names[action["card"]])
    if t == "bury":
        return T.ui("action.bury", card=names[action["card"]])
    if t == "take":
        return T.ui("action.take", token=action["token"])
    if t == "pivot":
        face, order = action["face"], action["order"]
        return T.ui(
            f"action.pivot.{order}",
            face=face,
            final=dice.opposite(face),
            flipped=dice.opposite(state["p"][action["seat"]]["die"]),
        )
    if t == "next":
        rev = state.get("reveal") or {}
        done = rev.get("shown", 0) >= len(rev.get("stages", []))
        return T.UI["action.continue" if done else "action.next"]
    if t == "all":
        return T.UI["action.all"]
    return str(t)


def _card(game: Roi, card: str, state: str = "up", badges: tuple[str, ...] = ()) -> dict:
    rec = game.card_record(card)
    marks = list(badges)
    if rec.get("timing") == "first":
        marks.append(T.UI["badge.first"])
    elif rec.get("timing") == "last":
        marks.append(T.UI["badge.last"])
    if card in TURNS_DIE:
        marks.append(T.UI["badge.turns"])
    return W.card(
        game.card_names()[card],
        rec.get("text", ""),
        subtitle=rec.get("flavour"),
        state=state,
        badges=marks,
    )


def _status(game: Roi, st: dict, seat: int | None) -> tuple[str, str | None, str | None]:
    pend: dict[str, Any] = st.get("pending") or {}
    manche, turn = st["manche"], st["turn"]
    if st.get("winner") is not None:
        who = ", ".join(rules.names(st, st["winner"]))
        return T.ui("status.over", who=who), None, None
    kind = pend["kind"] if pend else "choose"
    if kind == "choose":
        if seat is not None and seat in rules.to_act(st):
            return (
                T.ui("status.choose", manche=manche, turn=turn),
                T.UI["phase.choose"],
                T.UI["prompt.choose"],
            )
        return T.ui("status.choose.wait", manche=manche, turn=turn), T.UI["phase.choose"], None
    if kind == "pivot":
        who = rules.name(st, pend["seats"][0])
        flip = bool((rules.view(st, None)["duel"] or {}).get("flip_pending"))
        return (
            T.ui("status.pivot", who=who),
            T.UI["phase.pivot"],
            T.UI["prompt.pivot.flip" if flip else "prompt.pivot"],
        )
    if kind == "take":
        who = rules.name(st, pend["seats"][0])
        return (
            T.ui("status.take", who=who),
            T.UI["phase.take"],
            T.ui("prompt.take", victim=rules.name(st, pend["victim"])),
        )
    if kind == "bury":
        return T.ui("status.bury", manche=manche), T.UI["phase.bury"], T.UI["prompt.bury"]
    rev = st["reveal"]
    return (
        T.ui("status.ack", manche=rev["manche"], turn=rev["turn"]),
        T.UI["phase.ack"],
        T.ui("prompt.ack", shown=min(rev["shown"], len(rev["stages"])), total=len(rev["stages"])),
    )


def _reveal(game: Roi, st: dict) -> list[dict]:
    rev = st.get("reveal")
    if not rev:
        return []
    pend: dict[str, Any] = st.get("pending") or {}
    stepping = bool(pend) and pend["kind"] == "ack"
    if rev["manche"] != st["manche"] and not stepping:
        return []  # a new manche: the last turn of the previous one is in the log
    shown = rev["shown"] if stepping else len(rev["stages"])
    names = game.card_names()
    out: list[dict] = []
    played = [
        W.card(
            names[c],
            subtitle=rules.name(st, s),
            state="cancelled" if _cancelled(rev, s, st) else "revealed",
        )
        for s, c in _revealed(st)
    ]
    if played:
        out.append(W.cards(played, T.ui("w.reveal", turn=rev["turn"]), area="main"))
    for stage in rev["stages"][1:shown]:
        lines = [game.render_log(e) for e in stage["entries"]]
        out.append(
            W.text("\n\n".join(lines) or "—", T.stage_title(stage), tone="note", area="main")
        )
    return out


def _revealed(st: dict) -> list[tuple[int, str]]:
    """The cards of the turn shown in the reveal, read back from its first step's log."""
    rev = st["reveal"]
    out = []
    names = rules.names(st, list(range(len(st["seats"]))))
    for e in rev["stages"][0]["entries"] if rev["stages"] else []:
        if e["key"] == "turn.revealed":
            seat = names.index(e["args"]["who"]) if e["args"]["who"] in names else 0
            out.append((seat, e["args"]["card"]))
    return out


def _cancelled(rev: dict, seat: int, st: dict) -> bool:
    who = rules.name(st, seat)
    for stage in rev["stages"]:
        for e in stage["entries"]:
            if e["key"] in ("cancel.same",) and who in e["args"].get("players", []):
                return True
            if e["key"] == "cancel.dame" and who in e["args"].get("players", []):
                return True
    return False


def _hold_back(st: dict) -> dict[str, bool]:
    """While the table steps through a reveal, what it has not reached yet stays as it was:
    the dice before the effects, no values before the values, the PV before the points."""
    pend = st.get("pending")
    rev = st.get("reveal")
    if not pend or pend["kind"] != "ack" or not rev or "before" not in rev:
        return {"dice": False, "values": False, "pv": False}
    titles = [s["title"] for s in rev["stages"]]
    shown = rev["shown"]

    def reached(title: str, last: bool = False) -> bool:
        idx = [i for i, t in enumerate(titles) if t == title]
        return not idx or shown > (idx[-1] if last else idx[0])

    return {
        "dice": not reached("stage.effects"),
        "values": not reached("stage.values"),
        "pv": not reached("stage.points", last=True),
    }


def _table(game: Roi, st: dict, seat: int | None, view: dict) -> list[dict]:
    names = game.card_names()
    hold = _hold_back(st)
    rev = st.get("reveal") or {}
    before = rev.get("before", {})
    current = rev.get("manche") == st["manche"] and rev.get("turn") == st["turn"]
    revealed = dict(_revealed(st)) if current and st.get("res") else {}
    choosing = bool(st.get("pending")) and st["pending"]["kind"] == "choose"
    waiting = set(rules.to_act(st))
    group_of = {s: i + 1 for i, g in enumerate(st["groups"]) for s in g}
    cols = [T.UI["col.player"]]
    if st["tournament"]:
        cols.append(T.UI["col.group"])
    cols += [
        T.UI["col.die"],
        T.UI["col.value"],
        T.UI["col.card"],
        T.UI["col.hand"],
        T.UI["col.discard"],
        T.UI["col.under"],
        T.UI["col.pv"],
    ]
    rows = []
    for p in view["players"]:
        s = p["seat"]
        out = s not in st["active"]
        if choosing:
            if p.get("played"):
                card = names[p["played"]]
            else:
                card = T.UI["card.chose"] if p["chose"] else T.UI["card.thinking"]
        elif p.get("played"):
            card = names[p["played"]]
        else:  # a card cancelled out of a tournament is already in its owner's discard
            card = names[revealed[s]] if s in revealed else ""
        cells: list[Any] = [p["name"]]
        if st["tournament"]:
            cells.append(group_of.get(s, ""))
        value = p["value"] if p["value"] is not None and not hold["values"] else ""
        cells += [
            before["dice"][s] if hold["dice"] else p["die"],
            value,
            card,
            p["hand_count"],
            ", ".join(names[c] for c in p["discard"]),
            p["under_count"],
            before["pv"][s] if hold["pv"] else p["pv"],
        ]
        row = W.row(cells, current=s in waiting, you=s == seat, out=out)
        # your own row shows the card you chose face down before the reveal
        rows.append(W.private(row, s) if s == seat and choosing and p.get("played") else row)
    widgets = [W.players(cols, rows, T.UI["w.table"])]
    widgets.append(
        W.dice(
            [
                W.die(
                    before["dice"][s] if hold["dice"] else st["p"][s]["die"],
                    12,
                    label=rules.name(st, s),
                    shown=st["p"][s]["value"]
                    if st["p"][s]["value"] not in (None, st["p"][s]["die"]) and not hold["values"]
                    else None,
                )
                for s in st["active"]
            ],
            T.UI["w.dice"],
        )
    )
    if st["tournament"] and not st["playoff"]:
        widgets.append(
            W.items(
                [
                    T.ui("w.group", group=i + 1) + " : " + ", ".join(rules.names(st, g))
                    for i, g in enumerate(st["groups"])
                ],
                T.ui("w.groups", manche=st["manche"]),
            )
        )
    return widgets


def _self(game: Roi, st: dict, seat: int, view: dict) -> list[dict]:
    me = view["players"][seat]
    names = game.card_names()
    hand = [_card(game, c) for c in me["hand"]]
    hold = _hold_back(st)
    before = (st.get("reveal") or {}).get("before", {})
    if me.get("played") and st["pending"] and st["pending"]["kind"] == "choose":
        hand.append(_card(game, me["played"], state="selected"))
    out = [
        W.facts(
            [
                W.fact(T.UI["fact.die"], before["dice"][seat] if hold["dice"] else me["die"]),
                W.fact(T.UI["fact.pv"], before["pv"][seat] if hold["pv"] else me["pv"]),
                W.fact(T.UI["fact.under"], me["under_count"]),
            ]
        ),
        W.private(W.cards(hand, T.UI["w.you"], area="self"), seat),
    ]
    if me["under"]:
        out.append(
            W.private(
                W.cards(
                    [W.card(names[c], state="blocked") for c in me["under"]],
                    T.UI["w.under"],
                    area="self",
                ),
                seat,
            )
        )
    return out


def screen(game: Roi, st: dict, seat: int | None, actions: list[dict]) -> Screen:
    status, phase, prompt = _status(game, st, seat)
    view = rules.view(st, seat)
    widgets = _reveal(game, st)
    pend = st.get("pending")
    humans = sum(1 for x in st["seats"] if not x["bot"])
    # the reveal is a table moment: with several humans at the device, no hand is on show
    if seat is not None and not (pend and pend["kind"] == "ack" and humans > 1):
        widgets += _self(game, st, seat, view)
    widgets += _table(game, st, seat, view)
    if seat is None:
        widgets.append(
            W.cards([_card(game, c) for c in st["set"]], T.UI["w.cards_in_play"], area="board")
        )
    groups = []
    if actions:
        kind = actions[0]["type"]
        key = {"play": "choose", "next": "ack", "all": "ack"}.get(kind, kind)
        entries = []
        for i, a in enumerate(actions):
            help_text = None
            if a["type"] in ("play", "bury"):
                help_text = game.card_record(a["card"]).get("hint")
            entries.append(
                W.choice(
                    i,
                    describe(game, st, a),
                    help=help_text,
                    confirm=T.UI["confirm.bury"] if a["type"] == "bury" else None,
                    tone="main" if a["type"] in ("play", "next") else None,
                )
            )
        groups.append(W.group(T.UI[f"group.{key}"], W.unique_labels(entries), key=key))
    return W.screen(status, widgets, groups, phase=phase, prompt=prompt)


def outcome(game: Roi, st: dict) -> Outcome | None:
    winners = st.get("winner")
    if winners is None:
        return None
    names = rules.names(st, list(range(len(st["seats"]))))
    who = ", ".join(names[s] for s in winners)
    last = st["history"][-1] if st["history"] else {}
    ended = st["log"][-1] if st["log"] else {}
    lots = next((e for e in reversed(st["log"]) if e["key"] == "game.lots.why"), None)
    if ended.get("key") == "game.capped":
        why = T.ui("outcome.why.cap", manches=st["manche"])
    elif lots is not None:
        why = T.ui("outcome.why.lots", manches=lots["args"]["manches"])
    elif last.get("playoff"):
        why = T.UI["outcome.why.playoff"]
    else:
        why = T.UI["outcome.why"]
    crowned = fr.Name(who, T.gender(who) or "m")
    summary = T.ui("outcome.king", who=who, crowned=fr.agree("sacré", crowned))
    if st.get("throne"):
        summary += " " + T.ui("outcome.throne", throne=st["throne"], who=who)
    scores = {i: len(p["under"]) for i, p in enumerate(st["p"])}
    order = sorted(range(len(names)), key=lambda i: (i not in winners, -scores[i], i))
    ranking, rank, prev = [], 0, None
    for pos, i in enumerate(order):
        key = (i in winners, scores[i])
        if key != prev:
            rank, prev = pos + 1, key
        many = "_many" if scores[i] > 1 else ""
        details = [T.ui(f"outcome.detail.manches{many}", n=scores[i])]
        if i in winners and last.get("playoff"):
            details.append(T.UI["outcome.detail.playoff"])
        ranking.append(
            {"seat": i, "name": names[i], "rank": rank, "score": scores[i], "details": details}
        )
    return Outcome(winners=list(winners), summary=summary, scores=scores, ranking=ranking, why=why)
