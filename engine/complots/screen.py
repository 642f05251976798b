"""Complots' screens, drawn from a view (``rules.view``) with the widgets of
``engine.core.widgets``: a screen can only show what that view holds.

A reaction window is a public screen (``seat`` is ``None``): it shows no secret, only the
current claim and the seats that may still speak up; when only one human sits at the table,
the plugin draws it from that human's view, so that its own cards stay beside the buttons
(nobody else looks at the device)."""

from __future__ import annotations

from ..core import french as fr
from ..core import widgets as W
from ..core.types import Choice, Group, Screen
from . import rules
from . import text_fr as T

U = T.UI


def _names(v: dict) -> list[str]:
    return [p["name"] for p in v["players"]]


def _seats(v: dict) -> list[fr.Name]:
    """The seats' names as subjects (« Vous » for a single person)."""
    return [T.name(p["name"]) for p in v["players"]]


def status(v: dict) -> str:
    names = _seats(v)
    turn = v["turn_no"]
    if v["winner"] is not None:
        return U["status_over"].format(name=names[v["winner"]])
    st = v["step"]
    if st is None:
        return U["status_turn"].format(turn=turn, name=names[v["turn"]])
    do = st["do"]
    if do == "doubt":
        c = v["claims"][st["claim"]]
        return U["status_doubt"].format(
            turn=turn, name=names[c["seat"]], char=T.char(c["character"])
        )
    if do == "counter":
        return U["status_counter"].format(turn=turn, name=names[v["ctx"]["actor"]])
    if do == "pick":
        return U["status_pick"]
    return U[f"status_{do}"].format(turn=turn, name=names[st["seat"]])


def now_text(v: dict) -> str:
    """The current moment, in a few sentences (the page's story block)."""
    names = _names(v)
    seats = _seats(v)
    st = v["step"]
    ctx = v["ctx"]
    if v["winner"] is not None:
        who = seats[v["winner"]]
        return f"{who} {who:garde} le dernier personnage caché."
    lines = []
    if ctx is not None and ctx.get("claim") is not None:
        lines.append(T.claim_text(v["claims"][ctx["claim"]], names) + ".")
    elif ctx is not None and ctx["act"] == "aide":
        who = seats[ctx["actor"]]
        lines.append(f"Tour {v['turn_no']} — {who} {who:demande} l'Aide étrangère.")
    if ctx is not None and ctx.get("counter") is not None:
        lines.append(T.claim_text(v["claims"][ctx["counter"]], names) + ".")
    if st is None:
        who = seats[v["turn"]]
        lines.append(f"Tour {v['turn_no']} — {who} {who:choisit} une action.")
    elif st["do"] in rules.WINDOWS:
        who = ", ".join(names[s] for s in st["waiting"])
        verb = "mettre en doute" if st["do"] == "doubt" else "contrer"
        lines.append(f"Peuvent encore {verb} : {who}.")
    elif st["do"] == "lose":
        who = seats[st["seat"]]
        lines.append(f"{who} {who:doit} révéler un personnage.")
    elif st["do"] == "keep":
        who = seats[st["seat"]]
        lines.append(f"{who} {who:choisit} les cartes à garder.")
    elif st["do"] == "show":
        who = seats[st["seat"]]
        lines.append(f"{who} {who:doit} montrer une carte à {names[st['by']]}.")
    elif st["do"] == "judge":
        who = seats[st["seat"]]
        lines.append(f"{who} {who:décide} du sort de la carte montrée.")
    elif st["do"] == "pick":
        lines.append("Chacun choisit son second personnage dans son paquet.")
    return "\n\n".join(lines)


def _players_widget(v: dict) -> dict:
    rows = []
    acting = set(v["to_act"])
    for p in v["players"]:
        revealed = ", ".join(T.short(c) for c in p["revealed"]) or "—"
        rows.append(
            W.row(
                [p["name"], p["coins"], p["cards"] or "—", revealed],
                current=p["seat"] in acting and v["winner"] is None,
                you=p["seat"] == v["seat"],
                out=not p["alive"],
            )
        )
    cols = [U["col_name"], U["col_coins"], U["col_cards"], U["col_revealed"]]
    return W.players(cols, rows, U["players"])


def _card(table: rules.Table, cid: str, state: str = "up") -> dict:
    ch = table.characters.get(cid, {})
    return W.card(str(ch.get("name", cid)), str(ch.get("text", "")), state=state)


def widgets(table: rules.Table, v: dict) -> list[dict]:
    names = _names(v)
    out = [W.text(now_text(v), U["now"], area="main")]
    me = v["seat"]
    st = v["step"]
    if me is not None:
        p = v["players"][me]
        hand = [_card(table, c) for c in p["hidden"]]
        hand += [_card(table, c, "revealed") for c in p["revealed"]]
        out.append(W.private(W.cards(hand, U["your_cards"], area="self", empty="—"), me))
        if p["drawn"]:
            drawn = W.cards([_card(table, c) for c in p["drawn"]], U["drawn"], area="self")
            out.append(W.private(drawn, me))
        if p["aside_cards"]:
            picking = st is not None and st["do"] == "pick" and me in st["waiting"]
            title = U["aside"] if picking else U["set_aside"]
            cards = [_card(table, c) for c in p["aside_cards"]]
            out.append(W.private(W.cards(cards, title, area="self"), me))
        if st is not None and st["do"] == "judge" and "card" in st:
            title = f"{U['g_judge']} ({names[st['target']]})"
            # the card shown to you alone
            out.append(W.private(W.cards([_card(table, st["card"])], title, area="main"), me))
    out.append(_players_widget(v))
    out.append(
        W.facts(
            [W.fact(U["court"], v["court"]), W.fact(U["treasury"], v["treasury"])],
            U["table"],
            area="board",
        )
    )
    lines = []
    for c, true in list(zip(v["claims"], v["truth"], strict=True))[-8:]:
        line = T.claim_text(c, names)
        if c["doubted_by"] is not None:
            verdict = "vrai" if true else "bluff"
            line += f" — mis en doute par {names[c['doubted_by']]} : {verdict}"
        lines.append(line)
    if lines:
        out.append(W.items(lines, U["claims"], area="board"))
    return out


def label(table: rules.Table, names: list[str], action: dict, several: bool) -> str:
    kind = action["type"]
    seat = action["seat"]
    if kind == "revenu":
        return U["revenu"]
    if kind == "aide":
        return U["aide"]
    if kind == "assassinat":
        return U["assassinat"].format(target=names[action["target"]])
    if kind == "claim":
        c = action["character"]
        ch = table.characters.get(c, {})
        power = table.power(c)
        tgt = names[action["target"]] if action.get("target") is not None else ""
        if power == "tax":
            return U["claim_tax"].format(char=T.char(c), n=ch.get("gain", 0))
        if power == "assassinate":
            return U["claim_assassin"].format(char=T.char(c), target=tgt, cost=ch.get("cost", 0))
        you = ".vous" if tgt == fr.YOU else ""
        if power == "steal":
            return U[f"claim_steal{you}"].format(char=T.char(c), target=tgt)
        if action.get("mode") == "inspect":
            return U[f"claim_inspect{you}"].format(char=T.char(c), target=tgt)
        return U["claim_exchange"].format(char=T.char(c))
    if kind in ("doubt", "pass"):
        return U[f"{kind}_who"].format(name=T.name(names[seat])) if several else U[kind]
    if kind == "counter":
        c = T.char(action["character"])
        if several:
            return U["counter_who"].format(name=T.name(names[seat]), char=c)
        return U["counter"].format(char=c)
    if kind == "lose":
        return U["lose"].format(char=T.char(action["character"]))
    if kind == "keep":
        return U["keep"].format(cards=T.cards_fr(action["cards"]))
    if kind == "show":
        return U["show"].format(char=T.char(action["character"]))
    if kind in ("spare", "discard"):
        return U[kind]
    if kind == "pick":
        return U["pick"].format(char=T.char(action["character"]))
    return str(kind)


def groups(table: rules.Table, v: dict, actions: list[dict]) -> list[Group]:
    names = _names(v)
    several = len({a["seat"] for a in actions}) > 1
    in_doubt = v["step"] is not None and v["step"]["do"] == "doubt"
    buckets: dict[str, list[Choice]] = {}
    order: list[str] = []
    for i, a in enumerate(actions):
        kind = a["type"]
        forced = v["players"][a["seat"]]["coins"] >= rules.FORCED_AT
        if kind in ("revenu", "aide") or (kind == "assassinat" and not forced):
            key = "actions"
        elif kind == "assassinat":
            key = "forced"
        elif kind == "claim":
            key = "claims"
        elif kind in ("doubt", "pass") and in_doubt:
            key = "doubt"
        elif kind in ("counter", "pass"):
            key = "counter"
        elif kind in ("spare", "discard"):
            key = "judge"
        else:
            key = kind
        if key not in buckets:
            buckets[key] = []
            order.append(key)
        tone = "danger" if kind in ("doubt", "assassinat", "discard") else None
        if kind in ("claim", "counter") or key == "actions":
            tone = tone or "main"
        buckets[key].append(W.choice(i, label(table, names, a, several), tone=tone))
    out: list[Group] = []
    for key in order:
        help_ = U.get(f"g_{key}_help")
        out.append(W.group(U[f"g_{key}"], W.unique_labels(buckets[key]), help=help_, key=key))
    return out


def screen(table: rules.Table, v: dict, actions: list) -> Screen:
    """The screen drawn from ``v``, the view of the seat that looks at it (``None``: nobody's
    secrets)."""
    return W.screen(status(v), widgets(table, v), groups(table, v, actions), phase="Complots")
