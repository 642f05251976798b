"""Start anywhere (``Game.start_from``): an adventure that begins at one story node, in a state
consistent with having reached it.

- a scenario, a Menace (its first scenario), an objective or an epilogue branch (its
  scenario): the adventure starts at that scenario's setup;
- a paragraph, a numbered adventure card or a side quest (the paragraph or card that marks
  it): the way to it is followed back through the content up to the scenario that reaches
  it: the choices and effects that ``read`` a paragraph or ``take`` a card, the arrows of a
  Terrain (the card an arrow reveals, the exploration cards of its zone), the hidden numbers
  of a card, and the cards a scenario's setup puts on the table.  That scenario starts; every
  condition met on the way is made true (a flag set, an objective reached, a quest in the
  right state, a card in a purse...); the adventure cards on the way come out of the box as
  the rules bring them (a Terrain beside the one before); then the paragraph is read, or the
  card is taken, with the real rules;
- an exploration card: the same way to the Terrain whose arrow explores its zone, and the
  card is the next one that zone deals (on top of its deck: a shuffle the rules allow).

``adventure_card:202`` (a number without its version) names the one version of that number,
and lists the versions when there are several.  Anything else (an action card, a building, a
character...) is part of the game from the start: there is nothing to begin at, and the French
message says so.
"""

from __future__ import annotations

import heapq
from typing import Any

from ..core.derived import derived
from . import cards as K
from . import effects as E
from . import records as rec
from . import taking
from .board import log
from .scenario import new_game

#: a step of a way: ``("scenario" | "adventure" | "paragraph" | "exploration", key)``; an
#: adventure step is a card's number (every version of it), the others a record's key
Step = tuple[str, str]


def _refs(value: Any, guard: list, out: list[tuple[Step, list]]) -> None:
    """Every ``read: N`` and ``take: N`` inside ``value``, with the conditions that guard it."""
    if isinstance(value, dict):
        if value.get("requires"):
            guard = [*guard, *value["requires"]]
        for name in ("read", "take", "take_if_available"):
            if name in value and not isinstance(value[name], (dict, list)):
                kind = "paragraph" if name == "read" else "adventure"
                out.append(((kind, str(value[name])), guard))
        quest = value.get("quest")  # an effect that marks a side quest (not a condition)
        if isinstance(quest, dict) and quest.get("id") is not None:
            out.append((("side_quest", str(quest["id"])), guard))
        if isinstance(value.get("side_quest"), str):  # underlined text: the quest begins
            out.append((("side_quest", value["side_quest"]), guard))
        for k, sub in value.items():
            if k in ("requires", "otherwise"):
                continue
            _refs(sub, guard, out)
        if "otherwise" in value:
            _refs(value["otherwise"], guard[: len(guard) - len(value.get("requires") or [])], out)
    elif isinstance(value, list):
        for sub in value:
            _refs(sub, guard, out)


def _successors(bundle: dict, step: Step, data: dict) -> list[tuple[Step, list]]:
    """What a record brings into play, with the conditions on the way."""
    kind, _ = step
    found: list[tuple[Step, list]] = []
    if kind == "scenario":
        setup = data.get("setup") or {}
        for number in [*(setup.get("start") or ()), *(setup.get("resume") or ())]:
            found.append((("adventure", str(number)), []))
        return found  # its epilogue is played once the scenario is over
    _refs({k: v for k, v in data.items() if k != "arrows"}, [], found)
    if kind == "adventure":
        for number in data.get("hidden_numbers") or ():
            found.append((("adventure", str(number)), []))
        for arrow in data.get("arrows") or ():
            if arrow.get("card") is not None:
                found.append((("adventure", str(arrow["card"])), []))
            if arrow.get("zone") is not None:
                zone = str(arrow["zone"])
                for key, exp in rec.recs(bundle, "exploration_card").items():
                    if str(exp.get("zone")) == zone:
                        found.append((("exploration", key), []))
    return found


def _predecessors(bundle: dict) -> dict[Step, list[tuple[Step, list]]]:
    """Each step -> the steps that bring it into play, with the conditions on that edge."""
    out: dict[Step, list[tuple[Step, list]]] = {}
    records: list[tuple[Step, dict]] = []
    for key, data in rec.recs(bundle, "scenario").items():
        records.append((("scenario", key), data))
    for key, data in rec.recs(bundle, "paragraph").items():
        records.append((("paragraph", key), data))
    for key, data in rec.recs(bundle, "exploration_card").items():
        records.append((("exploration", key), data))
    for data in rec.recs(bundle, "adventure_card").values():
        records.append((("adventure", str(data["number"])), data))
    for source, data in records:
        for target, guard in _successors(bundle, source, data):
            out.setdefault(target, []).append((source, guard))
    return out


def way_to(bundle: dict, target: Step, scenario: str | None) -> tuple[str | None, list[Step], list]:
    """The shortest way from a scenario to ``target`` (fewest steps, then fewest conditions):
    the scenario, the steps after it (``target`` last) and the conditions met on the way.
    ``scenario``: only that scenario may begin the way (a card tied to one scenario).  No way
    at all: ``(None, [target], [])``."""
    preds = derived(bundle, "citadelle_predecessors", _predecessors)
    # Dijkstra backwards: (steps, conditions, step) -> the next step toward the target
    best: dict[Step, tuple[int, int]] = {target: (0, 0)}
    toward: dict[Step, tuple[Step, list]] = {}
    heap: list[tuple[int, int, Step]] = [(0, 0, target)]
    while heap:
        steps, conds, step = heapq.heappop(heap)
        if best.get(step) != (steps, conds):
            continue
        if step[0] == "scenario" and (scenario is None or step[1] == scenario):
            way: list[Step] = []
            conditions: list = []
            at = step
            while at != target:
                at, guard = toward[at]
                conditions.extend(guard)
                way.append(at)
            return step[1], way, conditions
        if step[0] == "scenario":
            continue  # another scenario's setup: not a way into this one
        for source, guard in sorted(preds.get(step, ()), key=lambda p: (len(p[1]), p[0])):
            cost = (steps + 1, conds + len(guard))
            if cost < best.get(source, (1 << 30, 0)):
                best[source] = cost
                toward[source] = (step, guard)
                heapq.heappush(heap, (*cost, source))
    return None, [target], []


def _way(bundle: dict, kind: str, number: str) -> tuple[list, str | None]:
    """The conditions on the way to ``(kind, number)`` (``paragraph`` or ``adventure``) and
    the scenario it begins in."""
    scenario, _, conditions = way_to(bundle, (kind, number), None)
    return conditions, scenario


def _satisfy(bundle: dict, state: dict, atom: dict) -> bool:
    """Make one condition atom true in ``state`` if the rules allow it; ``False`` otherwise."""
    if E.holds(bundle, state, [atom]):  # already true: nothing moves (a held item stays one)
        return True
    ((name, value),) = atom.items()
    if name == "any":
        return any(_satisfy(bundle, state, alt) for alt in value if E.holds(bundle, state, [alt])) \
            or any(_satisfy(bundle, state, alt) for alt in value)  # fmt: skip
    if name == "flag":
        if value not in state["flags"]:
            state["flags"].append(value)
    elif name == "not_flag":
        if value in state["flags"]:
            state["flags"].remove(value)
    elif name == "objective":
        if value not in state["objectives"]:
            state["objectives"].append(value)
    elif name == "quest":
        state["citadel"]["side_quests"][value["id"]] = value["state"]
    elif name == "score":
        for k, need in value.items():
            state["citadel"]["scores"][k] = max(state["citadel"]["scores"][k], need)
    elif name == "item":
        key = next(iter(state["box"].get(str(value)) or []), None)
        if key is not None:
            K.move(bundle, state, K.adventure(key), f"purse:{state['characters'][0]['id']}")
    return E.holds(bundle, state, [atom])


def _in_play(bundle: dict, state: dict, number: str) -> bool:
    """Some version of card ``number`` is out of the box (on the table, in a purse...)."""
    out = ("box", "past", "banished")
    return any(
        place not in out
        for key in rec.versions(bundle, number)
        for place in K.places(bundle, state, K.adventure(key))
    )


def _on_top(bundle: dict, state: dict, key: str) -> None:
    """The exploration card ``key`` is the next one its zone deals (a shuffle the rules allow):
    on top of its deck, unless it already lies face down in front of an arrow."""
    deck = state["explore_decks"].get(str(rec.exp(bundle, key)["zone"]))
    if deck is not None and key in deck:
        deck.remove(key)
        deck.append(key)


def adventure_key(bundle: dict, key: str) -> str:
    """The adventure card ``key`` names: itself, or for a bare number (``202``) its only
    version; ``ValueError`` (French) listing the versions when there are several."""
    cards = rec.recs(bundle, "adventure_card")
    if key in cards:
        return key
    versions = sorted(rec.versions(bundle, key)) if key.isdigit() else []
    if len(versions) == 1:
        return versions[0]
    if versions:
        shown = ", ".join(f"adventure_card:{v}" for v in versions)
        raise ValueError(f"la carte Aventure {key} existe en plusieurs versions : précisez {shown}")
    raise ValueError(f"la carte Aventure « {key} » n'existe pas dans ce contenu")


def _story_target(bundle: dict, node: str, kind: str, key: str) -> tuple[Step, str | None, str]:
    """Where a start inside a scenario aims (the step ``way_to`` looks for), the scenario an
    adventure card belongs to (``None``: any) and the node's key (an adventure card's as its
    versions name it); ``ValueError`` (French) for a node that does not exist or is no moment
    of the story."""
    tied: str | None = None
    if kind == "paragraph":
        if key not in rec.recs(bundle, "paragraph"):
            raise ValueError(f"le paragraphe {key} n'existe pas dans ce contenu")
        target: Step = ("paragraph", key)
    elif kind == "adventure_card":
        key = adventure_key(bundle, key)
        target = ("adventure", str(rec.adv(bundle, key)["number"]))
        tied = rec.adv(bundle, key).get("scenario")
    elif kind == "side_quest":
        if key not in rec.recs(bundle, "side_quest"):
            raise ValueError(f"la quête secondaire « {key} » n'existe pas dans ce contenu")
        target = ("side_quest", key)
    elif kind == "exploration_card":
        if key not in rec.recs(bundle, "exploration_card"):
            raise ValueError(f"la carte Exploration {key} n'existe pas dans ce contenu")
        target = ("exploration", key)
    elif key in rec.recs(bundle, kind):
        raise ValueError(
            f"« {node} » n'est pas un moment de l'histoire (c'est un élément de jeu présent dès "
            "le début) : lancez une partie normale"
        )
    else:
        raise ValueError(
            f"« {node} » n'existe pas dans ce contenu : commencez à un scénario (scenario:…), "
            "un paragraphe (paragraph:12), une carte Aventure (adventure_card:202), une carte "
            "Exploration, une quête secondaire, une Menace, un objectif ou un épilogue, avec "
            "la clé que la carte de l'histoire leur donne"
        )
    return target, tied, key


def start_from(
    bundle: dict,
    node: str,
    characters: list[str],
    seed: str,
    names: dict[str, str],
    recovery: str,
) -> dict:
    """A new adventure that begins at ``node``; ``ValueError`` (French) when it cannot."""
    kind, _, key = node.partition(":")
    scenarios = rec.recs(bundle, "scenario")

    def start(scenario: str | None) -> dict:
        return new_game(bundle, characters, seed, names=names, recovery=recovery,
                        scenario=scenario)  # fmt: skip

    if kind == "campaign":
        return start(None)
    if kind == "scenario":
        if key not in scenarios:
            raise ValueError(f"le scénario « {key} » n'existe pas dans ce contenu")
        return start(key)
    if kind == "menace":
        menace = rec.recs(bundle, "menace").get(key)
        if menace is None or not menace.get("scenarios"):
            raise ValueError(f"la Menace « {key} » n'existe pas dans ce contenu")
        return start(menace["scenarios"][0])
    if kind in ("objective", "epilogue"):
        scen = key.partition("/")[0]
        if scen not in scenarios:
            raise ValueError(f"« {node} » n'existe pas dans ce contenu")
        return start(scen)
    target, tied, key = _story_target(bundle, node, kind, key)
    scenario, way, conditions = way_to(bundle, target, tied)
    if kind == "side_quest":  # begin at the paragraph or the card that marks it
        if len(way) < 2 or way[-2][0] not in ("paragraph", "adventure"):
            raise ValueError(f"rien dans ce contenu ne commence la quête secondaire « {key} »")
        way = way[:-1]
        kind, key = way[-1]
        if kind == "adventure":
            kind, key = "adventure_card", ""
    state = start(scenario or tied)
    for atom in conditions:
        if not _satisfy(bundle, state, atom):
            shown = ", ".join(f"{k} : {v}" for k, v in atom.items())
            raise ValueError(f"la condition « {shown} » sur le chemin ne peut pas être réunie")
    # the turn that had begun gives way to the cards on the way, then to the node itself
    state["pending"] = None
    ctx = {"character": 0, "verb": None, "this": None, "participants": [0]}
    for step_kind, number in way[:-1]:
        if step_kind == "adventure" and not _in_play(bundle, state, number):
            version = taking.choose_version(bundle, state, number)
            if version is not None:
                taking.reveal(bundle, state, version, ctx)
    # the queue is a stack: what the node does is queued last, so that it is played first,
    # and what the cards on the way do comes after it
    if kind == "paragraph":
        E.push(state, [{"read": key}], ctx)
    elif kind == "exploration_card":
        _on_top(bundle, state, key)
    elif not key:  # a card by its number only: the version the rules take now
        number = way[-1][1]
        if not _in_play(bundle, state, number):
            E.push(state, [{"take": number}], ctx)
    elif "box" in K.places(bundle, state, K.adventure(key)):
        taking.reveal(bundle, state, key, ctx)
    E.pump(bundle, state)
    log(state, "start.from", node=node, conditions=len(conditions))
    return state
