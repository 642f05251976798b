"""« Lire un dialogue »: a paragraph of the Livre des dialogues is read, its effects applied,
its mandatory actions done by everyone on the reader's Terrain, then the players pick one of
its choices, undertake one of its optional actions, or close the book."""

from __future__ import annotations

from typing import Any

from . import board as B
from . import effects as E
from . import records as rec
from .steps import effect

log = B.log


def open_paragraph(bundle: dict, state: dict, number: str, c: int, ctx: dict | None = None) -> None:
    para = rec.recs(bundle, "paragraph").get(number)
    if para is None:
        return
    ch = state["characters"][c] if c < len(state["characters"]) else {"name": "", "id": ""}
    state["dialogue"] = {"paragraph": number, "character": c}
    log(state, "dialogue", number=number, text=para["text"], name=ch["name"], id=ch["id"])
    if number not in state["read"]:
        state["read"].append(number)  # what the group has read (the lexicon of their adventure)
    this = {"kind": "paragraph", "key": number}
    participants = list((ctx or {}).get("participants") or [c])
    frame_ctx = {"character": c, "this": this, "verb": None, "participants": participants}
    effects = list(para.get("effects") or [])
    for i, action in enumerate(para.get("actions") or []):
        if action.get("mandatory"):
            effects.append({"_act": {"source": f"paragraph:{number}", "index": i, "character": c}})
    if para.get("choices") or any(not a.get("mandatory") for a in para.get("actions") or []):
        effects.append({"_dialogue_choice": number})
    else:
        effects.append({"_end_dialogue": True})
    E.push(state, effects, frame_ctx)


def choices(bundle: dict, state: dict) -> list[dict]:
    """The paragraph's choices whose condition holds, its optional actions, and « close the
    book » when the paragraph ends there or offers no choice (an optional action may always be
    declined)."""
    from . import actions

    p = state["pending"]
    para = rec.recs(bundle, "paragraph")[p["paragraph"]]
    c = p.get("character", 0)
    out: list[dict] = []
    for i, choice in enumerate(para.get("choices") or []):
        if not choice.get("requires") or E.holds(bundle, state, choice["requires"]):
            out.append({"type": "choose", "index": i})
    offered_choice = bool(out)
    source = f"paragraph:{p['paragraph']}"
    awake = state["characters"][c]["conscious"]  # a fainted reader undertakes nothing
    for i, action in enumerate(para.get("actions") or []):
        if action.get("mandatory") or not awake:
            continue
        if not action.get("requires") or E.holds(bundle, state, action["requires"]):
            out.append(actions.act(bundle, state, c, source, i))
    if para.get("end") or not offered_choice:
        out.append({"type": "close"})
    return out


def choose(bundle: dict, state: dict, p: dict, index: int) -> None:
    para = rec.recs(bundle, "paragraph")[p["paragraph"]]
    choice = para["choices"][index]
    c = state["dialogue"]["character"] if state["dialogue"] else 0
    log(state, "dialogue.choice", text=choice["text"], number=p["paragraph"])
    state["dialogue"] = None
    ctx = {"character": c, "verb": None, "this": {"kind": "paragraph", "key": p["paragraph"]}}
    effects = list(choice.get("effects") or [])
    if choice.get("read") is not None:
        effects.append({"read": choice["read"]})
    E.push(state, effects, ctx)


def close(state: dict) -> None:
    log(state, "dialogue.closed")
    state["dialogue"] = None


# --------------------------------------------------------------------------- the book's effects


def _read(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    open_paragraph(bundle, state, str(value), c, ctx)


effect("read")(_read)


def _end_dialogue(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    state["dialogue"] = None


effect("_end_dialogue")(_end_dialogue)


def _dialogue_choice(bundle: dict, state: dict, name: str, value: Any, ctx: dict, c: int) -> None:
    if state["dialogue"] is not None:
        state["pending"] = {
            "type": "dialogue",
            "paragraph": value,
            "character": state["dialogue"]["character"],
        }


effect("_dialogue_choice")(_dialogue_choice)
