"""The Dilemme's screens, built from the shared widgets (``engine.core.widgets``).

What a house sees: the dilemma (question, Oui-Da then Nenni), its own Pouvoir, coins and
secret objective beside the vote, the kingdom board (resource tracks with their progression
arrows, Stability, Balance, the timeline), every house's public state, and the choices grouped
by what they are about — voting, passing, negotiating — with amounts chosen in a small form.
"""

from __future__ import annotations

from typing import Any

from ..core import french as fr
from ..core import widgets as W
from ..core.types import Group, Screen
from . import text_fr as T
from .game import _ability_sources, _rules

PHASE = {
    "setup": "Mise en place",
    "draft": "Objectifs secrets",
    "tokens": "Objectifs publics",
    "round": "Vote",
    "over": "Fin de la partie",
}
PENDING = {
    "draft": "Choix de l'Objectif secret",
    "keep_tokens": "Objectifs publics à garder",
    "vote": "Vote",
    "decide": "Égalité : le Modérateur tranche",
    "answer": "Négociation : réponse à une offre",
    "choose_leader": "Désignation du Meneur",
}


def _objective_text(bundle: dict, key: str | None) -> str | None:
    """What a secret objective scores, in words."""
    if not key:
        return None
    obj = bundle["records"].get("secret_objective", {}).get(key) or {}
    zones = ", ".join(f"cases {z['from']} à {z['to']}" for z in obj.get("zones") or [])
    points = "/".join(str(p) for p in obj.get("resource_points") or [])
    wealth = "/".join(str(p) for p in obj.get("wealth_points") or [])
    return T.ui("objective.scores", zones=zones, points=points, wealth=wealth)


def score_details(row: dict[str, Any]) -> list[str]:
    """Where a house's points come from, in words."""
    return [
        T.ui("score.resources", n=row["resources"]),
        T.ui("score.wealth", n=row["wealth"]),
        T.ui("score.public", n=row["public"]),
        T.ui("score.power", n=row["power"]),
        T.ui("score.campaign", prestige=row["prestige"], craving=row["craving"]),
    ]


def _tracks(bundle: dict, state: dict) -> dict:
    rules = _rules(bundle)
    rows = []
    for res, m in state["resources"].items():
        rows.append(
            W.track(
                T.RESOURCE_NAME[res],
                m["pos"],
                0,
                rules["resource_track"],
                direction="up" if m["dir"] > 0 else "down",
                marks=[{"at": m["pos"], "label": T.ui("legend.progression_mark")}]
                if m["marker"]
                else [],
            )
        )
    rows.append(
        W.track(
            T.ui("board.stability"),
            state["stability"],
            0,
            state.get("stability_track", rules["stability_track"]),
            note=T.ui("stability.note"),
        )
    )
    return W.tracks(
        rows,
        T.ui("board.kingdom"),
        legend=[T.ui("legend.arrow"), T.ui("legend.progression"), T.ui("legend.stability")],
    )


def _who(bundle: dict, s: dict) -> str:
    """A seat as the houses' table names it: a single person's « Vous » with the house it
    plays (« Vous (Maison Ferrandine) »)."""
    record = bundle["records"].get("house", {}).get(s["house"]) or {}
    return fr.you_as(s["name"], record.get("name", ""))


def _houses(bundle: dict, state: dict, view: dict, seat: int | None) -> dict:
    rows = []
    camp = state["campaign"]
    for i, (s, vs) in enumerate(zip(state["seats"], view["seats"], strict=True)):
        marks = []
        if i == state["leader"]:
            marks.append(T.ui("mark.leader"))
        if i == state["moderator"]:
            marks.append(T.ui("mark.moderator"))
        if s.get("bot") and s.get("persona") in T.TEMPERAMENT:
            houses = fr.temperament_of(T.TEMPERAMENT[s["persona"]], T.HOUSE_GENDER)
            marks.append(T.ui("mark.temperament", temperament=houses))
        hidden = T.ui("hidden")
        vote = _vote_label(state, i)
        public = ", ".join(
            f"{T.RESOURCE_NAME[r]} {'+' if pol == 'positive' else '−'}" for r, pol in s["public"]
        )
        row = W.row(
            [
                _who(bundle, s) + (" " + " ".join(marks) if marks else ""),
                hidden if vs["power"] is None else vs["power"],
                hidden if vs["coins"] is None else vs["coins"],
                vote or "—",
                public or "—",
                camp["houses"][s["house"]]["prestige"],
                camp["houses"][s["house"]]["craving"],
            ],
            current=(state.get("pending") or {}).get("seat") == i,
            you=seat == i,
        )
        # your own row shows your Pouvoir and coins, which are behind your screen
        rows.append(W.private(row, i) if seat == i else row)
    return W.players(
        [
            T.ui(f"col.{c}")
            for c in ("house", "power", "coins", "vote", "public", "prestige", "craving")
        ],
        rows,
        T.ui("board.houses"),
        legend=[
            T.ui("legend.leader"),
            T.ui("legend.moderator"),
            T.ui("legend.hidden"),
            *(
                [T.ui("legend.temperament")]
                if any(s.get("persona") for s in state["seats"])
                else []
            ),
        ],
    )


def _vote_label(state: dict, seat: int) -> str | None:
    vote = state.get("vote")
    if not vote:
        return None
    v = vote["votes"][seat]
    if v["kind"] is None:
        return None
    if v["kind"] in ("oui_da", "nenni"):
        return f"{T.SIDE[v['kind']]} ({v['power']})"
    return T.ui("vote.pass_power") if v["kind"] == "pass_power" else T.ui("vote.pass_moderator")


def _timeline(bundle: dict, state: dict) -> dict:
    rules = _rules(bundle)
    recs = bundle["records"]
    slots = rules["timeline_slots"]
    entries = []
    for i in range(max(slots, len(state["timeline"]))):
        t = state["timeline"][i] if i < len(state["timeline"]) else None
        skull = T.ui("timeline.skull") if i == slots - 1 else ""
        if t:
            title = recs["dilemma"].get(t["card"], {}).get("title", t["card"])
            entries.append(f"{i + 1}. {title} — {T.SIDE[t['side']]}{skull}")
        else:
            entries.append(f"{i + 1}. —{skull}")
    return W.items(entries, T.ui("board.timeline"), ordered=False)


def _chronicle_rows(bundle: dict, state: dict) -> dict:
    recs = bundle["records"]
    lines = []
    for res, line in state["campaign"]["chronicle"].items():
        parts = []
        for s in line:
            if s is None:
                parts.append("·")
            else:
                title = recs["chronicle_sticker"].get(str(s["id"]), {}).get("title", "")
                sign = "+" if s["polarity"] == "positive" else "−"
                parts.append(T.ui("chronicle.sticker", sign=sign, title=title, ticks=s["ticks"]))
        lines.append(f"{T.RESOURCE_NAME[res]} : " + " | ".join(parts))
    return W.items(lines, T.ui("board.chronicle"))


def _self(bundle: dict, state: dict, view: dict, seat: int, area: str = "self") -> dict:
    s = view["seats"][seat]
    facts = [
        W.fact(T.ui("self.power"), s["power"]),
        W.fact(T.ui("self.coins"), s["coins"]),
    ]
    if s.get("objective"):
        facts.append(
            W.fact(
                T.ui("self.objective"),
                T.OBJECTIVE.get(s["objective"], s["objective"]),
                _objective_text(bundle, s["objective"]),
            )
        )
    if s.get("public"):
        toks = ", ".join(
            f"{T.RESOURCE_NAME[r]} {'+' if pol == 'positive' else '−'}" for r, pol in s["public"]
        )
        facts.append(W.fact(T.ui("self.public"), toks, T.ui("self.public_note")))
    return W.facts(facts, T.ui("self.title", house=_who(bundle, s)), area=area)


def _dilemma(view: dict) -> dict | None:
    card = view.get("card")
    if not card:
        return None
    prev = card.get("preview") or {}
    body = "\n\n".join(
        (card["question"], f"Oui-Da : {prev.get('oui_da', '')}", f"Nenni : {prev.get('nenni', '')}")
    )
    return W.text(body, card["title"])


# --------------------------------------------------------------------------- choices


def _groups(bundle: dict, state: dict, seat: int | None, actions: list[dict]) -> list[Group]:
    names = [s["name"] for s in state["seats"]]
    by: dict[str, list[int]] = {}
    for i, a in enumerate(actions):
        by.setdefault(a["type"], []).append(i)
    groups: list[Group] = []
    if "draft" in by:
        groups.append(
            W.group(
                T.ui("group.draft"),
                [
                    W.choice(
                        i,
                        T.OBJECTIVE.get(actions[i]["objective"], actions[i]["objective"]),
                        help=_objective_text(bundle, actions[i]["objective"]),
                        tone="main",
                    )
                    for i in by["draft"]
                ],
                help=T.ui("group.draft_help"),
            )
        )
    if "keep_tokens" in by:
        groups.append(
            W.group(
                T.ui("group.tokens"),
                [W.choice(i, T.describe_action(actions[i], names)) for i in by["keep_tokens"]],
                help=T.ui("group.tokens_help"),
            )
        )
    if "vote" in by:
        sides = [
            {"value": s, "label": T.SIDE[s]}
            for s in ("oui_da", "nenni")
            if any(actions[i]["side"] == s for i in by["vote"])
        ]
        groups.append(
            W.form(
                T.ui("group.vote"),
                [
                    W.form_field("side", T.ui("field.side"), options=sides),
                    W.form_field("power", T.ui("field.power"), kind="stepper"),
                ],
                [
                    W.choice(
                        i,
                        T.describe_action(actions[i], names),
                        fields={"side": actions[i]["side"], "power": actions[i]["power"]},
                    )
                    for i in by["vote"]
                ],
                submit=T.ui("submit.vote"),
                help=T.ui("group.vote_help"),
            )
        )
    if "pass" in by:
        groups.append(
            W.group(
                T.ui("group.pass"),
                [
                    W.choice(
                        i,
                        T.describe_action(actions[i], names),
                        help=T.ui(f"help.pass.{actions[i]['for']}"),
                    )
                    for i in by["pass"]
                ],
            )
        )
    if "add" in by or "stand" in by:
        entries = []
        if "add" in by:
            groups.append(
                W.form(
                    T.ui("group.add"),
                    [W.form_field("power", T.ui("field.power"), kind="stepper")],
                    [
                        W.choice(
                            i,
                            T.describe_action(actions[i], names),
                            fields={"power": actions[i]["power"]},
                        )
                        for i in by["add"]
                    ],
                    submit=T.ui("submit.add"),
                    help=T.ui("group.add_help"),
                )
            )
        entries = [W.choice(i, T.describe_action(actions[i], names)) for i in by.get("stand", [])]
        if entries:
            groups.append(W.group(T.ui("group.stand"), entries))
    for kind in ("decide", "answer", "choose_leader"):
        if kind in by:
            groups.append(
                W.group(
                    T.ui(f"group.{kind}"),
                    [
                        W.choice(i, T.describe_action(actions[i], names), tone="main")
                        for i in by[kind]
                    ],
                    help=T.ui(f"group.{kind}_help"),
                )
            )
    if "use_ability" in by:
        texts = dict(_ability_sources(bundle, state, seat)) if seat is not None else {}
        groups.append(
            W.group(
                T.ui("group.ability"),
                [
                    W.choice(
                        i,
                        T.ui("action.ability", n=n + 1),
                        help=(texts.get(actions[i]["source"]) or {}).get("text"),
                    )
                    for n, i in enumerate(by["use_ability"])
                ],
                help=T.ui("group.ability_help"),
                folded=True,
            )
        )
    if "offer" in by:
        groups.append(_money_form("offer", actions, by["offer"], names))
    if "give" in by:
        groups.append(_money_form("give", actions, by["give"], names))
    return groups


def _money_form(kind: str, actions: list[dict], indexes: list[int], names: list[str]) -> Group:
    houses = sorted({actions[i]["to"] for i in indexes})
    fields = [
        W.form_field(
            "to", T.ui("field.to"), options=[{"value": str(h), "label": names[h]} for h in houses]
        ),
    ]
    if kind == "offer":
        asks = [a for a in T.ASK if any(actions[i]["ask"] == a for i in indexes)]
        fields.append(
            W.form_field(
                "ask", T.ui("field.ask"), options=[{"value": a, "label": T.ASK[a]} for a in asks]
            )
        )
    fields.append(W.form_field("coins", T.ui("field.coins"), kind="stepper"))
    entries = []
    for i in indexes:
        a = actions[i]
        values: dict[str, Any] = {"to": str(a["to"]), "coins": a["coins"]}
        if kind == "offer":
            values["ask"] = a["ask"]
        entries.append(W.choice(i, T.describe_action(a, names), fields=values))
    return W.form(
        T.ui(f"group.{kind}"),
        fields,
        entries,
        submit=T.ui(f"submit.{kind}"),
        help=T.ui(f"group.{kind}_help"),
        folded=True,
    )


def _votes_line(state: dict, votes: dict[str, tuple[str, int]]) -> str:
    """« Votes : » each house's vote and Pouvoir in seat order, or its pass, or nothing."""
    shown = []
    for s in state["seats"]:
        kind, power = votes.get(s["name"], ("", 0))
        house = _short(s["name"])
        if kind in T.SIDE:
            shown.append(T.ui("last.vote", house=house, side=T.SIDE[kind], power=power))
        elif kind.startswith("pass_"):
            shown.append(T.ui(f"last.{kind}", house=house))
        else:
            shown.append(T.ui("last.none", house=house))
    return T.ui("last.votes", votes=" · ".join(shown))


def _last_round(state: dict) -> dict | None:
    """« Dernier tour »: the round just resolved, read back from the journal — each house's vote
    and Pouvoir, the result, the leader who signs, the tracks that moved (from → to), the coins
    that changed hands and the deals."""
    log = state["log"]
    end = next((i for i in range(len(log) - 1, -1, -1) if log[i]["key"] == "outcome"), None)
    if end is None:
        return None
    start = next((i for i in range(end, -1, -1) if log[i]["key"] == "round.start"), 0)
    stop = next(
        (i for i in range(end + 1, len(log)) if log[i]["key"] in ("round.start", "game.end")),
        len(log),
    )
    votes: dict[str, tuple[str, int]] = {}
    totals: dict = {}
    moves: dict[str, list[int]] = {}
    deals: list[dict[str, Any]] = []
    lines: list[str] = []
    decided = leader = None
    side = title = ""
    for entry in log[start:stop]:
        key, a = entry["key"], entry.get("args") or {}
        if key == "vote.cast":
            votes[a["house"]] = (a["side"], a["power"])
        elif key == "vote.add":
            votes[a["house"]] = (votes.get(a["house"], ("", 0))[0], a["total"])
        elif key == "vote.pass":
            votes[a["house"]] = ("pass_" + a["why"], 0)
        elif key == "vote.totals":
            totals = a
        elif key == "moderator.decides":
            decided = a["house"]
        elif key in ("leader.moves", "leader.chosen", "leader.moderator"):
            leader = a["house"]
        elif key == "outcome":
            side, title = a["side"], a.get("title", "")
        elif key == "resource.moved":
            moves.setdefault(a["resource"], [a["before"], a["after"]])[1] = a["after"]
        elif key == "offer":
            deals.append(dict(a))
        elif key == "answer" and deals and "answer" not in deals[-1]:
            deals[-1]["answer"] = a["accept"]
        elif key == "give":
            deals.append({**a, "gift": True})
        elif key == "balance.shared":
            lines.append(T.ui("last.balance", each=a["each"], houses=", ".join(a["houses"]),
                              left=a["left"]))  # fmt: skip
        elif key == "chronicle.stuck":
            lines.append(
                T.ui(
                    "last.sticker",
                    title=a["title"],
                    resource=T.RESOURCE_NAME.get(a["resource"], a["resource"]),
                    signer=a.get("signer") or "—",
                )
            )
    out = [_votes_line(state, votes)]
    if totals and side:
        oui, non = totals.get("oui_da", 0), totals.get("nenni", 0)
        if decided:
            out.append(T.ui("last.result_moderator", oui_da=oui, nenni=non, house=decided,
                            side=T.SIDE[side]))  # fmt: skip
        else:
            won, lost = (oui, non) if side == "oui_da" else (non, oui)  # the winner's first
            out.append(T.ui("last.result", side=T.SIDE[side], won=won, lost=lost))
    if leader:
        out.append(T.ui("last.leader", house=leader))
    if moves:
        out.append(
            T.ui(
                "last.tracks",
                moves=" ; ".join(
                    T.ui("last.move", resource=T.RESOURCE_NAME.get(r, r), before=b, after=e)
                    for r, (b, e) in moves.items()
                ),
            )
        )
    if deals:
        said = []
        for d in deals:
            giver, to = _short(d["giver"]), _short(d["to"])
            if d.get("gift"):
                said.append(T.ui("last.gift", giver=giver, coins=d["coins"], to=to))
            else:
                answer = T.ui("last.deal_yes" if d.get("answer") else "last.deal_no")
                said.append(T.ui("last.deal", giver=giver, coins=d["coins"], to=to,
                                 ask=T.ASK.get(d["ask"], d["ask"]), answer=answer))  # fmt: skip
        out.append(T.ui("last.deals", deals=" ; ".join(said)))
    # ``last``: this widget is what just happened (the browser draws it as the table's last step)
    return {**W.items(out + lines, T.ui("last.title", title=title), area="main"), "last": True}


def _short(house: str) -> str:
    """A house as the summary names it, without the word every house shares (« Ferrandine »
    for « Maison Ferrandine »): the round's lines stay short enough for a phone."""
    return house.removeprefix(T.HOUSE_WORD + " ") or house


# --------------------------------------------------------------------------- the screen


def screen(bundle: dict, state: dict, view: dict, seat: int | None, actions: list[dict]) -> Screen:
    pending = state.get("pending")
    names = [s["name"] for s in state["seats"]]
    # Above the choices, in this order, so that the last three sit right above the buttons on
    # a phone too: the dilemma being voted on (or an offer to answer), « Dernier tour », and
    # your own Pouvoir, coins and objective.  At the end: « Dernier tour », then the result
    # (why it ended, the ranking) right above the next-game buttons; your house goes aside.
    widgets: list[dict] = []
    over = state["phase"] == "over" and state.get("result")
    if over:
        phase = PHASE["over"]
        status = T.ui("status.over", game=state["campaign"]["game_no"])
    else:
        phase = PENDING.get((pending or {}).get("type", ""), PHASE.get(state["phase"], ""))
        who = names[pending["seat"]] if pending else ""
        status = T.ui("status.turn", house=who, phase=phase, round=state.get("round", 0))
    dilemma = _dilemma(view)
    if dilemma and not over:
        widgets.append(dilemma)
    if state.get("offer") and pending and pending["type"] == "answer":
        o = state["offer"]
        widgets.append(
            W.text(
                T.ui("offer.text", giver=names[o["from"]], coins=o["coins"], ask=T.ASK[o["ask"]]),
                T.ui("offer.title"),
                tone="note",
            )
        )
    last = _last_round(state)
    if last:
        widgets.append(last)
    if over and state["campaign"].get("finished"):
        widgets.append(standings(bundle, state))  # the campaign's end before its last game's
    if over:
        widgets.append(_ranking(bundle, state))
    if seat is not None:
        mine = _self(bundle, state, view, seat, area="self" if over else "main")
        widgets.append(W.private(mine, seat))
    widgets.append(_tracks(bundle, state))
    rules = _rules(bundle)
    widgets.append(
        W.facts(
            [
                W.fact(T.ui("board.balance"), state["balance"], T.ui("balance.note")),
                W.fact(T.ui("board.deck"), len(state["deck"])),
                W.fact(
                    T.ui("board.skulls"),
                    state.get("skull_cards", 0),
                    T.ui("skulls.note", n=rules["skull_slot_cards"]),
                ),
            ],
            T.ui("board.table"),
            area="board",
        )
    )
    widgets.append(_houses(bundle, state, view, seat))
    widgets.append(_timeline(bundle, state))
    recs = bundle["records"]
    if state["events"]:
        widgets.append(
            W.items(
                [recs["event_card"].get(e, {}).get("title", e) for e in state["events"]],
                T.ui("board.events"),
            )
        )
    widgets.append(_chronicle_rows(bundle, state))
    prompt = None
    if pending and seat == pending["seat"]:
        key = f"prompt.{pending['type']}"
        kinds = {a.get("type") for a in actions if isinstance(a, dict)}
        if key == "prompt.vote" and "stand" in kinds:  # the vote comes round again
            key = "prompt.vote.add" if "add" in kinds else "prompt.vote.passed"
        prompt = T.ui(key, house=names[pending["seat"]])
    return W.screen(
        status,
        widgets,
        _groups(bundle, state, seat, actions),
        phase=phase,
        prompt=prompt,
        recap=False,  # « Dernier tour » says what the round did; the journal keeps every line
    )


def _ranking(bundle: dict, state: dict) -> dict:
    result = state["result"]
    camp = state["campaign"]
    rows = [
        {"rank": r["rank"], "name": r["name"], "score": r["total"], "details": score_details(r)}
        for r in sorted(result["rows"], key=lambda r: (r["rank"], r["name"]))
    ]
    carry = [T.ui("carry.prestige"), T.ui("carry.chronicle")]
    if camp.get("finished"):
        winner = bundle["records"].get("house", {}).get(camp.get("winner") or "", {})
        carry = [T.ui("carry.finished", house=winner.get("name", camp.get("winner")))]
    return W.ranking(
        rows,
        T.ui("ranking.title", game=camp["game_no"]),
        why=T.ENDING[result["ending"]].capitalize() + ".",
        carry=carry,
    )


def standings(bundle: dict, state: dict) -> dict:
    """The end of a campaign: the houses by their Grand final score, each with the games it
    won, its Prestige and Convoitise, how the final score adds up, its Hauts faits; why it
    ended and what the chronicle keeps."""
    camp = state["campaign"]
    recs = bundle["records"]
    houses = recs.get("house", {})
    history = camp.get("history", [])
    played = {s["house"] for s in state["seats"]} | {r["house"] for g in history for r in g["rows"]}
    weights = bundle["campaign"].get("final_scoring") or {
        "cohesion": {"prestige": 2, "craving": 1},
        "dissension": {"prestige": 1, "craving": 2},
    }
    mood = camp.get("mood") or "cohesion"
    w = weights.get(mood, {})
    finals = camp.get("final_scores") or {}
    games = len(history)
    won = {
        h: sum(1 for g in history for r in g["rows"] if r["house"] == h and r["rank"] == 1)
        for h in played
    }
    winner = camp.get("winner")
    order = sorted(
        (h for h in camp["houses"] if h in played),
        key=lambda h: (h != winner, -finals.get(h, 0), houses.get(h, {}).get("name", h)),
    )
    rows = []
    rank = 0
    last: int | None = None
    for i, h in enumerate(order):
        v = camp["houses"][h]
        score = finals.get(h, 0)
        if score != last or h == winner:
            rank, last = i + 1, score
        rows.append(
            {
                "rank": rank,
                "name": houses.get(h, {}).get("name", h),
                "score": score,
                "details": [
                    T.ui(
                        "standings.won",
                        won=fr.count(won.get(h, 0), "partie gagnée", "parties gagnées"),
                        games=games,
                    ),
                    T.ui("standings.track", prestige=v["prestige"], craving=v["craving"]),
                    T.ui(
                        "standings.final",
                        wp=w.get("prestige", 1),
                        wc=w.get("craving", 1),
                        score=score,
                    ),
                    T.ui(
                        "standings.unlocked",
                        unlocked=fr.count(
                            len(v["unlocked"]), "Haut fait débloqué", "Hauts faits débloqués"
                        ),
                    ),
                ],
            }
        )
    carry = [T.ui("standings.kept")]
    for arc, pile in camp["arcs"].items():
        title = recs.get("arc", {}).get(arc, {}).get("title", arc)
        carry.append(T.ui("standings.arc", arc=title, cards=fr.count(len(pile), "carte", "cartes")))
    return W.ranking(
        rows,
        T.ui("standings.title"),
        why=T.ui(
            "standings.why",
            games=fr.count(games, "partie"),
            mood="la Cohésion" if mood == "cohesion" else "la Dissension",
            house=houses.get(winner or "", {}).get("name", winner),
        ),
        carry=carry,
    )


def chronicle(bundle: dict, state: dict) -> list[dict]:
    """The campaign so far: games played, arcs, houses' prestige and craving; once the
    campaign is over its standings come first."""
    camp = state["campaign"]
    recs = bundle["records"]
    out: list[dict] = [standings(bundle, state)] if camp.get("finished") else []
    played = {s["house"] for s in state["seats"]} | {
        r["house"] for g in camp["history"] for r in g["rows"]
    }
    for g in camp["history"]:
        rows = [
            {
                "rank": r["rank"],
                "name": r["name"],
                "score": r["total"],
                "details": score_details(r),
            }
            for r in sorted(g["rows"], key=lambda r: (r["rank"], r["name"]))
        ]
        out.append(
            W.ranking(
                rows,
                T.ui("ranking.title", game=g["game"]),
                why=T.ENDING[g["ending"]].capitalize() + ".",
            )
        )
    for arc, pile in camp["arcs"].items():
        titles = []
        for e in pile:
            rec = (
                recs.get("story_card", {}).get(e["card"])
                or recs.get("epilogue", {}).get(e["card"])
                or {}
            )
            signer = recs.get("house", {}).get(e.get("signer") or "", {}).get("name")
            titles.append(rec.get("title", e["card"]) + (f" ({signer})" if signer else ""))
        out.append(W.items(titles, recs.get("arc", {}).get(arc, {}).get("title", arc), area="main"))
    rows = []
    for h, v in camp["houses"].items():
        if h not in played:
            continue
        rows.append(
            W.row([recs["house"][h]["name"], v["prestige"], v["craving"], len(v["unlocked"])])
        )
    out.append(
        W.players(
            [T.ui("col.house"), T.ui("col.prestige"), T.ui("col.craving"), T.ui("col.unlocked")],
            rows,
            T.ui("chronicle.houses"),
            area="main",
        )
    )
    if camp.get("finished"):
        winner = recs.get("house", {}).get(camp.get("winner") or "", {}).get("name")
        out.append(W.text(T.ui("carry.finished", house=winner), T.ui("chronicle.final")))
    return out
