"""Start anywhere (``Game.start_from``): an adventure that begins at one story node, in a state
consistent with having reached it.

- a scenario, a Menace (its first scenario), an objective or an epilogue branch (its
  scenario): the adventure starts at that scenario's setup;
- a paragraph or a numbered adventure card: the way to it is followed back through the
  content (the choices and effects that ``read`` the paragraph or ``take`` the card, up to a
  scenario or a card with no predecessor) and every condition met on that way is made true (a
  flag set, an objective reached, a quest in the right state, a card in a purse...); then the
  scenario starts and the paragraph is read, or the card is taken, with the real rules.

Anything else (an action card, a building, a character...) is part of the game from the start:
there is nothing to begin at, and the French message says so.
"""

from __future__ import annotations

from typing import Any

from . import cards as K
from . import effects as E
from . import records as rec
from .board import log
from .scenario import new_game

_WALK_DEPTH = 30


def _refs(value: Any, guard: list, out: list[tuple[str, str, list]], where: str) -> None:
    """Every ``read: N`` and ``take: N`` inside ``value``, with the conditions that guard it."""
    if isinstance(value, dict):
        if value.get("requires"):
            guard = [*guard, *value["requires"]]
        for name in ("read", "take", "take_if_available"):
            if name in value and not isinstance(value[name], (dict, list)):
                kind = "paragraph" if name == "read" else "adventure"
                out.append((kind, str(value[name]), guard))
        for k, sub in value.items():
            if k in ("requires", "otherwise"):
                continue
            _refs(sub, guard, out, where)
        if "otherwise" in value:
            _refs(value["otherwise"], guard[: len(guard) - len(value.get("requires") or [])],
                  out, where)  # fmt: skip
    elif isinstance(value, list):
        for sub in value:
            _refs(sub, guard, out, where)


def _predecessors(bundle: dict) -> dict[tuple[str, str], list[tuple[str, str, list]]]:
    """``(kind, number)`` -> the records that reach it: ``(their kind, their key, guard)``."""
    out: dict[tuple[str, str], list[tuple[str, str, list]]] = {}
    for kind in ("paragraph", "adventure_card", "exploration_card", "scenario"):
        for key, data in rec.recs(bundle, kind).items():
            found: list[tuple[str, str, list]] = []
            _refs(data, [], found, key)
            for target_kind, number, guard in found:
                out.setdefault((target_kind, number), []).append((kind, key, guard))
    return out


def _way(bundle: dict, kind: str, number: str) -> tuple[list, str | None]:
    """The conditions on one way to ``(kind, number)`` and the scenario it belongs to."""
    preds = _predecessors(bundle)
    conditions: list = []
    scenario: str | None = None
    seen = {(kind, number)}
    for _ in range(_WALK_DEPTH):
        options = preds.get((kind, number)) or []
        if not options:
            break
        # a way with the fewest conditions, from a record not met yet
        options = sorted(options, key=lambda o: (len(o[2]), o[0], o[1]))
        nxt = next((o for o in options if _node_of(bundle, o) not in seen), None)
        if nxt is None:
            break
        src_kind, src_key, guard = nxt
        conditions.extend(guard)
        if src_kind == "scenario":
            scenario = src_key
            break
        data = rec.recs(bundle, src_kind)[src_key]
        if src_kind == "adventure_card" and data.get("scenario"):
            scenario = scenario or data["scenario"]
        kind, number = _node_of(bundle, nxt)
        seen.add((kind, number))
    return conditions, scenario


def _node_of(bundle: dict, pred: tuple[str, str, list]) -> tuple[str, str]:
    kind, key, _ = pred
    if kind == "adventure_card":
        return "adventure", str(rec.adv(bundle, key)["number"])
    if kind == "paragraph":
        return "paragraph", key
    return kind, key


def _satisfy(bundle: dict, state: dict, atom: dict) -> bool:
    """Make one condition atom true in ``state`` if the rules allow it; ``False`` otherwise."""
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
    if kind == "paragraph":
        if key not in rec.recs(bundle, "paragraph"):
            raise ValueError(f"le paragraphe {key} n'existe pas dans ce contenu")
        number, effect = key, {"read": key}
    elif kind == "adventure_card":
        if key not in rec.recs(bundle, "adventure_card"):
            raise ValueError(f"la carte Aventure « {key} » n'existe pas dans ce contenu")
        number = str(rec.adv(bundle, key)["number"])
        effect = {"take": number}
    elif kind == "exploration_card":
        raise ValueError(
            "une carte Exploration se révèle en explorant sa zone : commencez au scénario où "
            "l'on explore cette zone"
        )
    else:
        raise ValueError(
            f"« {node} » n'est pas un moment de l'histoire (c'est un élément de jeu présent dès "
            "le début) : lancez une partie normale"
        )
    conditions, scenario = _way(bundle, "paragraph" if kind == "paragraph" else "adventure",
                                number)  # fmt: skip
    if kind == "adventure_card" and rec.adv(bundle, key).get("scenario"):
        scenario = rec.adv(bundle, key)["scenario"]
    state = start(scenario)
    for atom in conditions:
        if not _satisfy(bundle, state, atom):
            shown = ", ".join(f"{k} : {v}" for k, v in atom.items())
            raise ValueError(f"la condition « {shown} » sur le chemin ne peut pas être réunie")
    # the turn that had begun gives way to the paragraph or the card, then play goes on
    state["pending"] = None
    ctx = {"character": 0, "verb": None, "this": None, "participants": [0]}
    E.push(state, [effect], ctx)
    E.pump(bundle, state)
    log(state, "start.from", node=node, conditions=len(conditions))
    return state
