"""La Chronique: the end of a game (the reign's length and its verdict) and the story that
goes on from game to game (dynasty names, the year of the reign, the character on the throne
who leaves the next game's Quémandeurs)."""

from __future__ import annotations

from typing import Any

from ..core import registry
from ..core import widgets as W
from ..core.game import Outcome
from . import text_fr as T
from .rules import THRONE, verdict

#: reigns the chronicle sheet holds: after that many games, no further game follows
LINES = 10
ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    """« Ier » for a first game, then II, III, IV…"""
    if n == 1:
        return "Ier"
    out = ""
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        *ROMAN,
    ):
        while n >= value:
            out += letters
            n -= value
    return out


def reign(state: dict[str, Any]) -> dict[str, Any]:
    """This game's line of the chronicle."""
    chron = state["chronicle"]
    counts = dict(chron.get("counts", {}))
    names = []
    for s in state["seats"]:
        counts[s["name"]] = counts.get(s["name"], 0) + 1
        names.append(f"{s['name']} {roman(counts[s['name']])}")
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


def outcome(game: Any, state: dict[str, Any]) -> Outcome:
    res = state["result"]
    line = reign(state)
    n = len(state["seats"])
    details = [
        f"Dilemmes résolus : {res['dilemmas']} ans",
        f"Couronnes des Quémandeurs : {res['crowns']} ans",
        f"Faveur restante : {res['favor']} ans",
        T.BAND[line["verdict"]],
    ]
    if line["silent_boxes"]:
        boxes = line["silent_boxes"]
        word = "case cochée" if boxes <= 1 else "cases cochées"
        details.append(f"Conseil silencieux : {boxes} {word}")
    won = res["won"]
    why = game.render_log(state["log"][-1])
    throne = T.char(state["throne_char"]) if won else None
    summary = (
        f"Le Conseil l'emporte : {throne} monte sur le trône. Règne de {res['total']} ans."
        if won
        else f"Le Conseil a échoué ; le trône reste vacant. Règne de {res['total']} ans."
    )
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
    )


def widgets(state: dict[str, Any], titles: dict[Any, str] | None = None) -> list[dict]:
    lines = list(state.get("chronicle", {}).get("reigns", []))
    if state.get("phase") == "over":
        lines.append(reign(state))
    if not lines:
        return [W.text("La Chronique est encore vierge.", "La Chronique", tone="note")]
    rows = []
    for r in lines:
        month = "" if r["scenario"] in ("base", "tutoriel") else f" ({T.MONTH[r['scenario']]})"
        throne = f"sur le trône : {T.char(r['throne'])}" if r["throne"] else "trône vacant"
        text = f"An {r['year']}{month} — {', '.join(r['names'])} : règne de {r['score']} ans, "
        text += throne
        if r["obstacle"] and r["obstacle"] != THRONE:
            title = (titles or {}).get(r["obstacle"], f"dilemme n° {r['obstacle']}")
            text += f". Plus grand obstacle : {title}"
        text += f". {T.BAND[r['verdict']]}"
        if r["silent_boxes"]:
            text += f" Conseil silencieux : {'☑' * r['silent_boxes']}"
        rows.append(text)
    return [W.items(rows, "La Chronique", area="main", ordered=True)]
