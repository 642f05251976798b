"""Complots' screens, drawn from the view with the widgets of ``engine.core.widgets``.

A reaction window is a public screen (``seat`` is ``None``): it shows no secret, only the
current claim and the seats that may still speak up; when only one human sits at the table,
that human's own cards are shown beside it (nobody else looks at the device)."""

from __future__ import annotations

from ..core import widgets as W
from . import rules
from . import text_fr as T

U = T.UI


def _names(state: dict) -> list[str]:
    return [s["name"] for s in state["seats"]]


def _sole_human(state: dict) -> int | None:
    humans = [i for i, s in enumerate(state["seats"]) if not s.get("bot")]
    return humans[0] if len(humans) == 1 else None


def status(state: dict) -> str:
    names = _names(state)
    turn = state["turn_no"]
    if state["winner"] is not None:
        return U["status_over"].format(name=names[state["winner"]])
    steps = state["steps"]
    if not steps:
        return U["status_turn"].format(turn=turn, name=names[state["turn"]])
    st = steps[0]
    do = st["do"]
    if do == "doubt":
        c = state["claims"][st["claim"]]
        return U["status_doubt"].format(
            turn=turn, name=names[c["seat"]], char=T.char(c["character"])
        )
    if do == "counter":
        return U["status_counter"].format(turn=turn, name=names[state["ctx"]["actor"]])
    if do == "pick":
        return U["status_pick"]
    return U[f"status_{do}"].format(turn=turn, name=names[st["seat"]])


def now_text(state: dict, view: dict) -> str:
    """The current moment, in a few sentences (the page's story block)."""
    names = _names(state)
    steps = state["steps"]
    ctx = state["ctx"]
    lines = []
    if state["winner"] is not None:
        return f"{names[state['winner']]} est le dernier à cacher un personnage."
    if ctx is not None and state["claims"] and ctx.get("claim") is not None:
        lines.append(T.claim_text(state["claims"][ctx["claim"]], names) + ".")
    elif ctx is not None and ctx["act"] == "aide":
        lines.append(f"Tour {state['turn_no']} — {names[ctx['actor']]} demande l'Aide étrangère.")
    if ctx is not None and ctx.get("counter") is not None:
        lines.append(T.claim_text(state["claims"][ctx["counter"]], names) + ".")
    if steps:
        st = steps[0]
        if st["do"] in rules.WINDOWS:
            who = ", ".join(names[s] for s in st["waiting"])
            verb = "mettre en doute" if st["do"] == "doubt" else "contrer"
            lines.append(f"Peuvent encore {verb} : {who}.")
        elif st["do"] == "lose":
            lines.append(f"{names[st['seat']]} doit révéler un personnage.")
        elif st["do"] == "keep":
            lines.append(f"{names[st['seat']]} choisit les cartes à garder.")
        elif st["do"] == "show":
            lines.append(f"{names[st['seat']]} doit montrer une carte à {names[st['by']]}.")
        elif st["do"] == "judge":
            lines.append(f"{names[st['seat']]} décide du sort de la carte montrée.")
        elif st["do"] == "pick":
            lines.append("Chacun choisit son second personnage dans son paquet.")
    else:
        lines.append(f"Tour {state['turn_no']} — {names[state['turn']]} choisit une action.")
    return "\n\n".join(lines)


def _players_widget(state: dict, viewer: int | None) -> dict:
    names = _names(state)
    rows = []
    current = rules.to_act(state)
    for i, p in enumerate(state["players"]):
        hidden = len(p["hidden"]) or "—"
        revealed = ", ".join(T.short(c) for c in p["revealed"]) or "—"
        rows.append(
            W.row(
                [names[i], p["coins"], hidden, revealed],
                current=i in current and state["winner"] is None,
                you=i == viewer,
                out=not p["hidden"],
            )
        )
    cols = [U["col_name"], U["col_coins"], U["col_cards"], U["col_revealed"]]
    return W.players(cols, rows, U["players"])


def _card(table: rules.Table, cid: str, state: str = "up") -> dict:
    ch = table.characters.get(cid, {})
    return W.card(str(ch.get("name", cid)), str(ch.get("text", "")), state=state)


def widgets(table: rules.Table, state: dict, view: dict, viewer: int | None) -> list[dict]:
    names = _names(state)
    out = [W.text(now_text(state, view), U["now"], area="main")]
    me = viewer if viewer is not None else _sole_human(state)
    if me is not None:
        p = state["players"][me]
        hand = [_card(table, c) for c in sorted(p["hidden"])]
        hand += [_card(table, c, "revealed") for c in p["revealed"]]
        out.append(W.cards(hand, U["your_cards"], area="self", empty="—"))
        if p["drawn"]:
            out.append(W.cards([_card(table, c) for c in p["drawn"]], U["drawn"], area="self"))
        if p["aside"]:
            picking = bool(state["steps"]) and state["steps"][0]["do"] == "pick"
            title = U["aside"] if picking and me in state["steps"][0]["waiting"] else U["set_aside"]
            out.append(W.cards([_card(table, c) for c in p["aside"]], title, area="self"))
        steps = state["steps"]
        if steps and steps[0]["do"] == "judge" and steps[0]["seat"] == me:
            st = steps[0]
            out.append(
                W.cards(
                    [_card(table, st["card"])],
                    f"{U['g_judge']} ({names[st['target']]})",
                    area="main",
                )
            )
    out.append(_players_widget(state, me))
    out.append(
        W.facts(
            [W.fact(U["court"], len(state["court"])), W.fact(U["treasury"], state["treasury"])],
            U["table"],
            area="board",
        )
    )
    claims = rules.public_claims(state, me)[-8:]
    if claims:
        lines = []
        for c in claims:
            line = T.claim_text(c, names)
            if c["doubted_by"] is not None:
                verdict = "vrai" if c.get("true") else "bluff"
                line += f" — mis en doute par {names[c['doubted_by']]} : {verdict}"
            lines.append(line)
        out.append(W.items(lines, U["claims"], area="board"))
    return out


def label(table: rules.Table, state: dict, action: dict, several: bool) -> str:
    names = _names(state)
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
            return U["claim_tax"].format(char=T.short(c), n=ch.get("gain", 0))
        if power == "assassinate":
            return U["claim_assassin"].format(char=T.short(c), target=tgt, cost=ch.get("cost", 0))
        if power == "steal":
            return U["claim_steal"].format(char=T.short(c), target=tgt)
        if action.get("mode") == "inspect":
            return U["claim_inspect"].format(char=T.short(c), target=tgt)
        return U["claim_exchange"].format(char=T.short(c))
    if kind in ("doubt", "pass"):
        return U[f"{kind}_who"].format(name=names[seat]) if several else U[kind]
    if kind == "counter":
        c = T.short(action["character"])
        return (
            U["counter_who"].format(name=names[seat], char=c)
            if several
            else U["counter"].format(char=c)
        )
    if kind == "lose":
        return U["lose"].format(char=T.short(action["character"]))
    if kind == "keep":
        return U["keep"].format(cards=T.cards_fr(action["cards"]))
    if kind == "show":
        return U["show"].format(char=T.short(action["character"]))
    if kind in ("spare", "discard"):
        return U[kind]
    if kind == "pick":
        return U["pick"].format(char=T.short(action["character"]))
    return str(kind)


def groups(table: rules.Table, state: dict, actions: list[dict]) -> list[dict]:
    several = len({a["seat"] for a in actions}) > 1
    buckets: dict[str, list[dict]] = {}
    order: list[str] = []
    for i, a in enumerate(actions):
        kind = a["type"]
        if kind in ("revenu", "aide") or (
            kind == "assassinat" and not rules.forced(state, a["seat"])
        ):
            key = "actions"
        elif kind == "assassinat":
            key = "forced"
        elif kind == "claim":
            key = "claims"
        elif kind in ("doubt", "pass") and state["steps"] and state["steps"][0]["do"] == "doubt":
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
        buckets[key].append(W.choice(i, label(table, state, a, several), tone=tone))
    out = []
    for key in order:
        help_ = U.get(f"g_{key}_help")
        out.append(W.group(U[f"g_{key}"], W.unique_labels(buckets[key]), help=help_, key=key))
    return out


def screen(table: rules.Table, state: dict, view: dict, viewer: int | None, actions: list) -> dict:
    scr = W.screen(
        status(state),
        widgets(table, state, view, viewer),
        groups(table, state, actions),
        phase="Complots",
    )
    return scr
