"""The end of a game: the ranking, and the reveal of every claim (true or bluff, who doubted
it, what it cost) with each player's successful bluffs."""

from __future__ import annotations

from ..core import french as fr
from ..core import widgets as W
from ..core.game import Outcome
from . import rules
from . import text_fr as T


def outcome(table: rules.Table, state: dict) -> Outcome:
    names = [s["name"] for s in state["seats"]]
    winner = state["winner"]
    turns = dict(zip(state["out"], state["out_turns"], strict=True))
    order = [winner, *reversed(state["out"])]
    ranking = []
    for rank, seat in enumerate(order, start=1):
        score = len(state["players"][seat]["hidden"])  # characters still hidden
        if seat == winner:
            hidden = fr.count(score, "personnage encore caché", "personnages encore cachés")
            details = [
                T.UI["rank_details_alive"],
                T.UI["rank_details_hidden"].format(hidden=hidden),
            ]
        else:
            details = [T.UI["rank_details_out"].format(turn=turns[seat])]
        ranking.append(
            {"seat": seat, "name": names[seat], "rank": rank, "score": score, "details": details}
        )
    who = T.name(names[winner])
    summary = f"{who} {who:remporte} la partie de Complots."
    return Outcome(
        winners=[winner],
        summary=summary,
        scores={r["seat"]: r["score"] for r in ranking},
        ranking=ranking,
        why=fr.tidy(
            T.UI["why_over.vous" if who.person == 2 else "why_over"].format(
                of_name=fr.de(names[winner])
            )
        ),
        widgets=widgets(state),
    )


def widgets(state: dict) -> list[dict]:
    names = [s["name"] for s in state["seats"]]
    lines = []
    bluffs: dict[int, int] = {}
    for c, true in zip(state["claims"], state["truth"], strict=True):
        truth = "vrai" if true else "bluff"
        line = f"{T.claim_text(c, names)} : {truth}"
        if c["doubted_by"] is not None:
            loser = T.name(names[c["loser"]] if c["loser"] is not None else "?")
            line += (
                f" ; mis en doute par {names[c['doubted_by']]}, {loser} {loser:perd} un personnage"
            )
        else:
            line += " ; personne n'a douté"
            if not true:
                bluffs[c["seat"]] = bluffs.get(c["seat"], 0) + 1
        lines.append(fr.tidy(line))
    out = [W.items(lines or ["Aucune annonce."], T.UI["reveal"], area="main", ordered=True)]
    rows = [f"{names[s]} : {n}" for s, n in sorted(bluffs.items())]
    out.append(W.items(rows or [T.UI["nobody_bluffed"]], T.UI["bluffs"], area="main"))
    return out
