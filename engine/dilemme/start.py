"""Start anywhere (``Game.start_from``): a game of the campaign that begins at one story node,
in a campaign state consistent with having reached it.

The campaign is played forward from envelope 00 with the real rules: each step resolves one
dilemma of the deck on one side (its outcome's effects applied exactly as at the end of a
vote, branches and their conditions included) or one immediate card.  A breadth-first search
keeps only the steps that change the story (an envelope opened, a flag, a sticker, an event, an
achievement...), so it explores the campaign's branching, not the order of the votes.  When the
target is reached, the new game starts with the target's card at the bottom of the deck: the
first round is about it.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

from ..core import copy_state
from . import common as C
from . import effects as E
from . import text_fr as T

#: states the search may look at before it gives up
MAX_STATES = 4000


def _signature(state: dict) -> tuple:
    camp = state["campaign"]
    stuck = tuple(sorted(str(s["id"]) for line in camp["chronicle"].values() for s in line if s))
    return (
        tuple(sorted(camp["opened"])),
        tuple(sorted(camp["flags"])),
        tuple(sorted(camp["secret_stickers"])),
        stuck,
        tuple(sorted(C.deck(state))),
        tuple(sorted(C.events_in_play(state))),
        tuple(sorted(camp["epilogues"])),
        tuple(sorted(h for h, v in camp["houses"].items() if v["unlocked"] or v["ticks"])),
    )


def _final(bundle: dict) -> str:
    return f"{int(bundle['campaign'].get('grand_final', 70)):02d}"


def _reached(bundle: dict, state: dict, kind: str, key: str) -> bool:
    camp = state["campaign"]
    if kind == "envelope" and key == _final(bundle):  # opened by the sixth secret sticker
        return len(camp["secret_stickers"]) >= C._rules(bundle)["secret_stickers_for_final"]
    if kind == "envelope":
        return key in camp["opened"]
    if kind in ("dilemma", "immediate_card"):
        return key in C.deck(state)
    if kind == "outcome":
        return key.partition("/")[0] in C.deck(state)
    if kind in ("story_card", "epilogue"):
        return any(e["card"] == key for pile in camp["arcs"].values() for e in pile)
    if kind == "event_card":
        return key in C.events_in_play(state)
    if kind == "chronicle_sticker":
        return any(s and str(s["id"]) == key for line in camp["chronicle"].values() for s in line)
    if kind == "secret_sticker":
        return key in camp["secret_stickers"]
    if kind == "achievement":
        house, _, ach = key.partition("/")
        h = camp["houses"].get(house) or {}
        return ach in (h.get("unlocked") or []) or bool((h.get("ticks") or {}).get(ach))
    return False


_PRODUCES = {
    "open_envelope": "envelope",
    "shuffle_in": "card",
    "event": "event_card",
    "chronicle_sticker": "chronicle_sticker",
    "secret_sticker": "secret_sticker",
    "achievement": "achievement",
    "flag": "flag",
}


def _atom(kind: str, value: Any) -> str:
    if kind == "envelope":
        return f"envelope:{int(value):02d}"
    return f"{kind}:{value}"


def _walk(effects: list, guard: list[str], out: list[tuple[str, list[str]]]) -> None:
    """(what an effect produces, the atoms its branch conditions need), for every effect."""
    for effect in effects or ():
        ((name, value),) = effect.items()
        if name in _PRODUCES:
            out.append((_atom(_PRODUCES[name], value), guard))
        elif name == "branch":
            needs = list(guard)
            for atom in value.get("requires") or ():
                ((cname, cvalue),) = atom.items()
                if cname in ("flag", "envelope", "chronicle_sticker", "secret_sticker"):
                    needs.append(_atom(cname, cvalue))
            _walk(value.get("then") or [], needs, out)
            _walk(value.get("otherwise") or [], guard, out)


def _useful(bundle: dict, target: str) -> set[str]:
    """The dilemmas and immediate cards whose resolution may lead to ``target`` (an atom such
    as ``envelope:07``): a backward closure over what each card, outcome and envelope gives."""
    records = bundle["records"]
    producers: list[tuple[str, list[tuple[str, list[str]]]]] = []
    for key, rec in records.get("dilemma", {}).items():
        out: list[tuple[str, list[str]]] = []
        for side in C.SIDES:
            _walk((rec.get(side) or {}).get("effects") or [], [], out)
        producers.append((f"card:{key}", out))
    for key, rec in records.get("immediate_card", {}).items():
        out = []
        _walk(rec.get("effects") or [], [], out)
        producers.append((f"card:{key}", out))
    for key, rec in records.get("envelope", {}).items():
        out = []
        for card in [rec.get("story"), *(rec.get("cards") or ())]:
            if card is None:
                continue
            kind = C._card(bundle, card)[0]
            name = "card" if kind in ("dilemma", "immediate_card") else kind
            out.append((f"{name}:{card}", []))
        _walk(rec.get("effects") or [], [], out)
        producers.append((f"envelope:{int(key):02d}", out))
    goal = {target}
    if target == f"envelope:{_final(bundle)}":
        goal |= {f"secret_sticker:{k}" for k in records.get("secret_sticker", {})}
    grew = True
    while grew:
        grew = False
        for who, gives in producers:
            for atom, needs in gives:
                if atom in goal:
                    for extra in (who, *needs):
                        if extra not in goal:
                            goal.add(extra)
                            grew = True
    return {a.partition(":")[2] for a in goal if a.startswith("card:")}


#: what belongs to one game, not to the campaign: reset after each step of the search (the
#: outcomes it plays stand for earlier games; this game starts fresh)
_PER_GAME = ("resources", "stability", "abdicated", "king_dead", "final_pending", "balance")


def _new_game_table(start: dict, state: dict) -> None:
    for name in _PER_GAME:
        state[name] = copy_state(start[name])
    for seat, first in zip(state["seats"], start["seats"], strict=True):
        seat.update(copy_state(first))


def _steps(bundle: dict, state: dict, useful: set[str]) -> list[tuple[str, str, dict]]:
    """The next states: each useful dilemma of the deck resolved on each side, each useful
    immediate card."""
    out = []
    for card in sorted(set(C.deck(state)) & useful):
        kind, rec = C._card(bundle, card)
        if kind == "dilemma":
            for side in C.SIDES:
                nxt = copy_state(state)
                nxt["deck"].remove(card)
                effects = (rec.get(side) or {}).get("effects") or []
                E._apply_effects(bundle, nxt, effects, nxt["leader"])
                nxt.pop("skull_now", None)
                out.append((card, side, nxt))
        elif kind == "immediate_card":
            nxt = copy_state(state)
            nxt["deck"].remove(card)
            E._apply_effects(bundle, nxt, rec.get("effects") or [], nxt["leader"])
            out.append((card, "", nxt))
    return out


def _goal(kind: str, key: str) -> str:
    if kind in ("dilemma", "immediate_card"):
        return f"card:{key}"
    if kind == "outcome":
        return f"card:{key.partition('/')[0]}"
    return f"{kind}:{key}"


def _first_card(bundle: dict, kind: str, key: str) -> str | None:
    """The card the first round should be about once the target is reached."""
    if kind in ("dilemma", "immediate_card"):
        return key
    if kind == "outcome":
        return key.partition("/")[0]
    if kind == "envelope":
        env = C._rec(bundle, "envelope", key) or {}
        for card in env.get("cards") or ():
            if C._card(bundle, card)[0] in ("dilemma", "immediate_card"):
                return card
    return None


def start_from(bundle: dict, state: dict, node: str) -> dict:
    """``state`` (a new game, before its setup steps) moved to a campaign where ``node`` has
    been reached.  ``ValueError`` with a French message when the search finds no way."""
    kind, _, key = node.partition(":")
    records = bundle["records"]
    if kind == "campaign":
        return state
    if kind == "outcome":
        parent = key.partition("/")[0]
        if key.partition("/")[2] not in C.SIDES or parent not in records.get("dilemma", {}):
            raise ValueError(f"l'issue « {key} » n'existe pas dans ce contenu")
    elif kind == "envelope" and key.isdigit():
        key = f"{int(key):02d}"
        if key not in records.get("envelope", {}) and str(int(key)) not in records.get(
            "envelope", {}
        ):
            raise ValueError(f"l'enveloppe {int(key)} n'existe pas dans ce contenu")
    elif kind == "achievement":
        house, _, ach = key.partition("/")
        achs = (records.get("house", {}).get(house) or {}).get("achievements") or ()
        if not any(a.get("id") == ach for a in achs):
            raise ValueError(f"le haut fait « {key} » n'existe pas dans ce contenu")
    elif kind not in records:
        raise ValueError(
            f"« {node} » n'existe pas dans ce contenu : commencez à une enveloppe (envelope:…), "
            "un dilemme (dilemma:…), une issue (outcome:…/oui_da), une carte Histoire, un "
            "épilogue, une carte Événement ou Immédiate, un autocollant ou un haut fait, avec la "
            "clé que la carte de l'histoire leur donne"
        )
    elif key not in records[kind]:
        raise ValueError(f"« {node} » n'existe pas dans ce contenu")
    if kind not in (
        "envelope", "dilemma", "outcome", "immediate_card", "story_card", "epilogue",
        "event_card", "chronicle_sticker", "secret_sticker", "achievement",
    ):  # fmt: skip
        raise ValueError(
            f"« {node} » n'est pas un moment de l'histoire (c'est un élément de jeu présent dès "
            "le début) : lancez une partie normale"
        )
    final = records.get("envelope", {}).get(str(int(_final(bundle))), None) or records.get(
        "envelope", {}
    ).get(_final(bundle))
    if (
        kind in ("story_card", "epilogue")
        and final
        and key
        in (
            final.get("story"),
            *(final.get("cards") or ()),
        )
    ):
        kind, key = "envelope", _final(bundle)
    start = copy_state(state)
    found: dict | None = start if _reached(bundle, start, kind, key) else None
    path: list[tuple[str, str]] = []
    if found is None:
        final_goal = kind == "envelope" and key == _final(bundle)

        def rank(st: dict, depth: int) -> tuple[int, int, int]:
            # towards the grand final, more secret stickers first; otherwise breadth first
            ahead = len(st["campaign"]["secret_stickers"]) if final_goal else 0
            return (-ahead, depth, next(order))

        order = itertools.count()
        queue: list[tuple[tuple[int, int, int], dict, list[tuple[str, str]]]] = [
            (rank(start, 0), start, [])
        ]
        seen = {_signature(start)}
        useful = _useful(bundle, _goal(kind, key))
        looked = 0
        while queue and found is None and looked < MAX_STATES:
            _, current, steps = heapq.heappop(queue)
            for card, side, nxt in _steps(bundle, current, useful):
                looked += 1
                _new_game_table(start, nxt)
                sig = _signature(nxt)
                if sig in seen:
                    continue
                seen.add(sig)
                way = [*steps, (card, side)]
                if _reached(bundle, nxt, kind, key):
                    found, path = nxt, way
                    break
                heapq.heappush(queue, (rank(nxt, len(way)), nxt, way))
    if found is None:
        raise ValueError(
            f"aucune suite d'issues, depuis l'enveloppe de départ, ne mène à « {node} » "
            "(ses conditions ne peuvent pas être réunies, ou rien ne l'ouvre)"
        )
    out = found
    # the grand final opens at the end of this game: its first vote is the last
    out["final_pending"] = kind == "envelope" and key == _final(bundle)
    first = _first_card(bundle, kind, key)
    if first is not None and first in out["deck"]:
        out["deck"].remove(first)
        out["deck"].append(first)  # the bottom of the deck is drawn first
    # this game's own progress begins here: the campaign remembers what was opened
    out["campaign"]["deck"] = [c for c in out["campaign"]["deck"] if c in out["deck"]]
    titles = []
    for card, side in path:
        rec = C._card(bundle, card)[1]
        titles.append(f"{rec.get('title', card)}" + (f" ({T.SIDE[side]})" if side else ""))
    out["started_from"] = {"node": node, "path": [list(p) for p in path]}
    C._log(out, "start.from", node=node, steps=titles)
    return out
