"""La Chronique: the end of a game (the reign's length and its verdict) and the story that
goes on from game to game (dynasty names, the year of the reign, the character on the throne
who leaves the next game's Quémandeurs)."""

from __future__ import annotations

from typing import Any

from ..core import french as fr
from ..core import registry
from ..core import widgets as W
from ..core.game import Outcome
from . import text_fr as T
from .content import MONTHS
from .rules import THRONE, verdict

#: reigns the chronicle sheet holds: after that many games, no further game follows
LINES = 10


def roman(n: int) -> str:
    """« Ier » for a first game, then II, III, IV…"""
    return fr.regnal(n)


def dynast(name: str, n: int) -> str:
    """A seat's name as the chronicle's dynasty writes it: « Aliénor Ire », « Bertrand II »;
    a name that ends with a number takes no regnal number (never « Membre 1 Ier »):
    « Membre 1 », then « Membre 1 (2e règne) ».

    >>> dynast("Aliénor", 1), dynast("Bertrand", 2), dynast("Membre 1", 1), dynast("Membre 1", 2)
    ('Aliénor Ire', 'Bertrand II', 'Membre 1', 'Membre 1 (2e règne)')

    « Vous », a single person, is no sovereign's name: « Vous », then « Vous (2e règne) ».

    >>> dynast("Vous", 1), dynast("Vous", 3)
    ('Vous', 'Vous (3e règne)')
    """
    if name[-1:].isdigit() or name == fr.YOU:
        return name if n == 1 else f"{name} ({fr.ordinal(n)} règne)"
    return f"{name} {fr.regnal(n, T.gender(name) or 'm')}"


def reign(state: dict[str, Any]) -> dict[str, Any]:
    """This game's line of the chronicle."""
    chron = state["chronicle"]
    counts = dict(chron.get("counts", {}))
    names = []
    for s in state["seats"]:
        counts[s["name"]] = counts.get(s["name"], 0) + 1
        names.append(dynast(s["name"], counts[s["name"]]))
    res = state["result"]
    failed = [r["id"] for r in state["resolved"] if not r["success"]]
    return {
        "names": names,
        "counts": counts,
        "won": res["won"],
        "score": res["total"],
        "verdict": verdict(res["total"]),
        "throne": state["throne_char"],
        "year": chron.get("year", 1),
        "scenario": state["scenario"],
        "obstacle": failed[-1] if failed else None,
        "silent_boxes": state.get("silent_boxes", 0),
    }


def carry(state: dict[str, Any]) -> dict[str, Any]:
    """The chronicle the next game starts from."""
    chron = state["chronicle"]
    line = reign(state)
    return {
        "games": chron.get("games", 0) + 1,
        "reigns": [*chron.get("reigns", []), line],
        "year": chron.get("year", 1) + line["score"],
        # the character who took the throne, after any game (a lost one leaves it vacant)
        "throne": line["throne"],
        "counts": line["counts"],
    }


def campaign_over(state: dict[str, Any]) -> bool:
    """Whether this finished game ends its campaign: « L'année troublée » once Décembre is
    won, any other chronicle once its sheet is full (``LINES`` reigns)."""
    if state.get("phase") != "over":
        return False
    if state["scenario"] in MONTHS:
        return bool(state["result"]["won"]) and state["scenario"] == MONTHS[-1]
    return state["chronicle"].get("games", 0) + 1 >= LINES


def standings(state: dict[str, Any]) -> dict:
    """The end of a campaign: the council's reigns, how many were won (the months of the
    year, with the ones played again), the dynasty's years, its longest reign and who sits
    on the throne; what the chronicle keeps."""
    lines = [*state["chronicle"].get("reigns", []), reign(state)]
    year = state["chronicle"].get("year", 1) + lines[-1]["score"]
    won = sum(1 for r in lines if r["won"])
    longest = max(lines, key=lambda r: r["score"])
    months = state["scenario"] in MONTHS
    details = [
        f"{fr.count(won, 'partie gagnée', 'parties gagnées')} sur {len(lines)}",
        f"Années de règne en tout : {fr.count(sum(r['score'] for r in lines), 'an')}",
        f"Plus long règne : {fr.count(longest['score'], 'an')}, à partir de l'an {longest['year']}",
        f"Sur le trône : {T.char(lines[-1]['throne'])}"
        if lines[-1]["throne"]
        else "Le trône est vacant",
    ]
    if months:
        replayed = len(lines) - len({r["scenario"] for r in lines})
        details.insert(1, f"Mois rejoués après un échec : {replayed}")
    why = (
        f"Décembre est gagné : l'année troublée s'achève en l'an {year}."
        if months
        else f"La feuille de la Chronique est pleine ({fr.count(len(lines), 'règne')})."
    )
    return W.ranking(
        [
            {
                "rank": 1,
                "name": "Le Conseil : " + ", ".join(lines[-1]["names"]),
                "score": sum(r["score"] for r in lines),
                "details": details,
            }
        ],
        "Fin de la campagne : le bilan du Conseil",
        why=why,
        carry=[
            "La Chronique garde chaque règne, son année, son verdict et le personnage monté "
            "sur le trône.",
            "Les membres du Conseil : "
            + fr.listing([str(seat["name"]) for seat in state["seats"]])
            + f" ({fr.count(len(lines), 'règne')} dans la Chronique).",
        ],
    )


def outcome(game: Any, state: dict[str, Any]) -> Outcome:
    res = state["result"]
    line = reign(state)
    n = len(state["seats"])
    details = [
        f"Dilemmes résolus : {fr.count(res['dilemmas'], 'an')}",
        f"Couronnes des Quémandeurs : {fr.count(res['crowns'], 'an')}",
        f"Faveur restante : {fr.count(res['favor'], 'an')}",
        T.BAND[line["verdict"]],
    ]
    if line["silent_boxes"]:
        boxes = line["silent_boxes"]
        word = "case cochée" if boxes <= 1 else "cases cochées"
        details.append(f"Conseil silencieux : {boxes} {word}")
    won = res["won"]
    why = game.render_log(state["log"][-1])
    throne = T.char(state["throne_char"]) if won else None
    years = fr.count(res["total"], "an")
    summary = (
        f"Le Conseil l'emporte : {throne} monte sur le trône. Règne de {years}."
        if won
        else f"Le Conseil a échoué ; le trône reste vacant. Règne de {years}."
    )
    widgets = []
    if campaign_over(state):  # the campaign's end is the headline, its standings first
        lines = len(state["chronicle"].get("reigns", [])) + 1
        total = sum(r["score"] for r in state["chronicle"].get("reigns", [])) + res["total"]
        summary = (
            f"La campagne est terminée : {fr.count(lines, 'partie')}, "
            f"{fr.count(total, 'an')} de règne en tout."
        )
        widgets = [standings(state)]
    links = []
    if not won and "roi" in registry.ids():
        links.append(
            {
                "game": "roi",
                "label": "Une partie du Roi des 12 pour occuper le trône vacant",
                "setup": {},
            }
        )
    return Outcome(
        winners=list(range(n)) if won else [],
        summary=summary,
        scores={s: res["total"] for s in range(n)},
        # one council, one reign: a single line for the whole table
        ranking=[
            {
                "seat": None,
                "name": "Le Conseil : " + ", ".join(line["names"]),
                "rank": 1,
                "score": res["total"],
                "details": details,
            }
        ],
        why=why,
        links=links,
        widgets=widgets,
    )


def widgets(state: dict[str, Any], titles: dict[Any, str] | None = None) -> list[dict]:
    lines = list(state.get("chronicle", {}).get("reigns", []))
    if state.get("phase") == "over":
        lines.append(reign(state))
    if not lines:
        return [W.text("La Chronique est encore vierge.", "La Chronique", tone="note")]
    first = [standings(state)] if campaign_over(state) else []
    rows = []
    for r in lines:
        month = "" if r["scenario"] in ("base", "tutoriel") else f" ({T.MONTH[r['scenario']]})"
        throne = f"sur le trône : {T.char(r['throne'])}" if r["throne"] else "trône vacant"
        years = fr.count(r["score"], "an")
        text = f"An {r['year']}{month} — {', '.join(r['names'])} : règne de {years}, "
        text += throne
        if r["obstacle"] and r["obstacle"] != THRONE:
            title = (titles or {}).get(r["obstacle"], f"dilemme n° {r['obstacle']}")
            text += f". Plus grand obstacle : {title}"
        text += f". {T.BAND[r['verdict']]}"
        if r["silent_boxes"]:
            text += f" Conseil silencieux : {'☑' * r['silent_boxes']}"
        rows.append(text)
    return [*first, W.items(rows, "La Chronique", area="main", ordered=True)]
