"""The Citadelle's screens, built from the shared widgets (``engine.core.widgets``).

The map as a grid of terrains with figures and face-up events; one block of choices per
character with its main verbs first and the rest folded; the group's other moments (preparing
a draw, drawing, keeping cards, a dialogue, the Citadel between scenarios) as one group each.
"""

from __future__ import annotations

from typing import Any

from ..core import widgets as W
from . import text_fr as T
from .game import _adv, _carry, _weight
from .rules import coords

PHASE = {
    "turn": "Tour de jeu",
    "prepare": "Préparation de l'action",
    "draw": "Pioche",
    "keep": "Cartes gardées en main",
    "dialogue": "Dialogue",
    "hand_limit": "Main trop pleine",
    "banish": "Bannir une carte",
    "citadel": "À la Citadelle",
}
MAIN_VERBS = ("act", "search")


def _title(bundle: dict, key: str) -> str:
    rec = _adv(bundle, key)
    return rec.get("title") or f"carte {rec.get('number', key)}"


def _grid(bundle: dict, state: dict) -> dict:
    recs = bundle["records"]
    cells = []
    for k, spot in sorted(state["board"].items()):
        x, y = coords(k)
        cells.append(
            W.cell(
                x,
                y,
                _title(bundle, spot["terrain"]),
                lines=[_title(bundle, e["key"]) for e in spot["events"]],
                figures=[c["name"] for c in state["characters"] if c["at"] == k],
            )
        )
    for k, slot in sorted(state["slots"].items()):
        x, y = coords(k)
        if slot.get("revealed") and slot.get("exploration"):
            title = recs["exploration_card"][slot["exploration"]].get("title", "")
            cells.append(W.cell(x, y, title))
        elif slot.get("adventure"):
            cells.append(W.cell(x, y, _title(bundle, slot["adventure"])))
        elif slot.get("exploration"):
            zone = recs["exploration_card"][slot["exploration"]]["zone"]
            cells.append(W.cell(x, y, T.ui("fog", zone=zone), fog=True))
    return W.grid(cells, T.ui("board.map"), legend=[T.ui("legend.fog")])


def _team(bundle: dict, state: dict) -> dict:
    recs = bundle["records"]
    rows = []
    active = (state.get("action") or {}).get("character")
    for i, c in enumerate(state["characters"]):
        hand = ", ".join(recs.get("action_card", {}).get(k, {}).get("title", k) for k in c["hand"])
        purse = ", ".join(_title(bundle, k) for k in c["purse"])
        where = (
            _title(bundle, state["board"][c["at"]]["terrain"]) if c["at"] in state["board"] else "—"
        )
        rows.append(
            W.row(
                [
                    c["name"] + ("" if c["conscious"] else T.ui("unconscious")),
                    where,
                    c["hp"],
                    len(c["deck"]),
                    len(c["discard"]),
                    hand or "—",
                    f"{purse or '—'} ({_weight(bundle, c)}/{_carry(bundle, state, c)})",
                ],
                current=active == i,
                out=not c["conscious"],
            )
        )
    cols = ("name", "where", "hp", "deck", "discard", "hand", "purse")
    return W.players([T.ui(f"col.{c}") for c in cols], rows, T.ui("board.team"))


def _citadel(bundle: dict, state: dict) -> dict:
    cit = state["citadel"]
    recs = bundle["records"]
    facts = [W.fact(T.SCORE[k], v) for k, v in cit["scores"].items()]
    facts.append(W.fact(T.ui("citadel.hope"), cit["hope"]))
    facts.append(W.fact(T.ui("citadel.tremor"), cit["tremor"]))
    for b, n in cit["buildings"].items():
        rec = recs.get("building", {}).get(b, {})
        facts.append(W.fact(rec.get("title", b), f"{n}/{rec.get('boxes', '?')}"))
    for q, st in cit["side_quests"].items():
        facts.append(
            W.fact(recs.get("side_quest", {}).get(q, {}).get("title", q), T.QUEST_STATE[st])
        )
    return W.facts(facts, T.ui("board.citadel"), area="board")


def _story(bundle: dict, state: dict) -> dict | None:
    recs = bundle["records"]
    p = state.get("pending") or {}
    if p.get("type") == "dialogue":
        return W.text(recs["paragraph"][p["paragraph"]]["text"], T.ui("story.dialogue"))
    if p.get("type") == "citadel":
        return W.text(T.ui("story.citadel"), T.ui("board.citadel"))
    if state.get("phase") == "over" and state.get("result"):
        return W.text(
            T.render({"key": "adventure.over", "args": state["result"]}), T.ui("story.over")
        )
    scen = recs["scenario"].get(state.get("scenario") or "", {})
    if scen:
        return W.text(scen.get("text", ""), scen.get("title"))
    return None


def _groups(bundle: dict, state: dict, actions: list[dict]) -> list[dict]:
    p = state.get("pending") or {}
    chars = state["characters"]
    label = [T.describe(bundle, state, a) for a in actions]
    if p.get("type") != "turn":
        entries = W.unique_labels([W.choice(i, label[i]) for i in range(len(actions))])
        return [W.group(PHASE.get(p.get("type", ""), ""), entries)] if entries else []
    groups = []
    together = []
    for c, ch in enumerate(chars):
        main, moves, other = [], [], []
        for i, a in enumerate(actions):
            if a.get("character") != c:
                continue
            if a["type"] == "act" and a.get("join"):
                together.append(W.choice(i, label[i]))
            elif a["type"] in MAIN_VERBS:
                main.append(W.choice(i, label[i], tone="main"))
            elif a["type"] == "move":
                moves.append(W.choice(i, label[i]))
            else:
                other.append(W.choice(i, label[i]))
        where = (
            _title(bundle, state["board"][ch["at"]]["terrain"])
            if ch["at"] in state["board"]
            else ""
        )
        if main or moves:
            groups.append(
                W.group(
                    T.ui("group.character", name=ch["name"], where=where),
                    W.unique_labels(main + moves),
                )
            )
        if other:
            groups.append(
                W.group(T.ui("group.other", name=ch["name"]), W.unique_labels(other), folded=True)
            )
    if together:
        groups.append(W.group(T.ui("group.together"), W.unique_labels(together), folded=True))
    saves = [
        W.choice(i, label[i], confirm=T.ui("confirm.save"))
        for i, a in enumerate(actions)
        if a["type"] == "save"
    ]
    if saves:
        groups.append(W.group(T.ui("group.save"), saves, folded=True))
    return groups


def screen(bundle: dict, state: dict, actions: list[dict]) -> dict:
    p = state.get("pending") or {}
    recs = bundle["records"]
    scen = recs["scenario"].get(state.get("scenario") or "", {}).get("title", "")
    if state.get("phase") == "over":
        status = T.ui("status.over")
        phase = T.ui("status.over")
    else:
        phase = PHASE.get(p.get("type", ""), "")
        status = T.ui("status.turn", scenario=scen, phase=phase, turn=state.get("turns", 0))
    widgets = [w for w in (_story(bundle, state),) if w]
    widgets += [_grid(bundle, state), _team(bundle, state)]
    if state["quest_items"]:
        widgets.append(
            W.items([_title(bundle, k) for k in state["quest_items"]], T.ui("board.quest_items"))
        )
    if state["globals"]:
        widgets.append(
            W.items([_title(bundle, k) for k in state["globals"]], T.ui("board.globals"))
        )
    widgets.append(_citadel(bundle, state))
    return W.screen(status, widgets, _groups(bundle, state, actions), phase=phase)


def chronicle(bundle: dict, state: dict) -> list[dict]:
    """The adventure so far: each scenario's epilogue and the Citadel sheet."""
    recs = bundle["records"]
    out: list[dict] = []
    for e in state["epilogues"]:
        scen = recs["scenario"][e["scenario"]]
        branch = next((b for b in scen.get("epilogue") or [] if b["id"] == e["branch"]), {})
        out.append(W.text(branch.get("text", ""), scen["title"], area="main"))
    out.append(_citadel(bundle, state))
    return out


__all__: list[Any] = ["chronicle", "screen"]
