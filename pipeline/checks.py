"""Checks over a story graph: plain functions ``StoryGraph -> list[Finding]``, registered in
``CHECKS``.  Each states its cost; all are linear in nodes + edges.

Reachability here is static: it follows every edge whatever its condition (an over-estimate of
what play can reach).  Rules-aware reachability is the simulator's job (``gamebook simulate``).
"""

from __future__ import annotations

from collections.abc import Callable

import networkx as nx

from . import schema as S
from .findings import Finding
from .graph import StoryGraph


def reachable(sg: StoryGraph) -> set[str]:
    """Nodes reachable from the campaign root (which links the start and the components).

    Cost: O(nodes + edges), one breadth-first search.  Cached on the graph.
    """
    cached = sg.graph.graph.get("_reachable")
    if cached is None:
        cached = nx.descendants(sg.graph, sg.root) | {sg.root}
        sg.graph.graph["_reachable"] = cached
    return cached


def _finding(sg: StoryGraph, code: str, severity: str, node: str, message: str) -> Finding:
    attrs = sg.graph.nodes[node]
    return Finding(code, severity, message, attrs.get("file", ""), attrs.get("line", 1),
                   attrs.get("column", 1), node)


def _label(sg: StoryGraph, node: str) -> str:
    kind, _, key = node.partition(":")
    if kind == "adventure_card":
        rec = sg.records[node]
        key = f"{rec.data.get('number')} ({rec.data.get('version', 'green')}"
        key += f", scenario {rec.data['scenario']})" if rec.data.get("scenario") else ")"
    return f"{kind} {key}"


def check_roots(sg: StoryGraph) -> list[Finding]:
    """The campaign names a start that exists.  Cost: O(1)."""
    camp = sg.campaign
    file, line, col = camp.data_pos
    field = "start_envelope" if camp.family == S.DILEMME else "intro"
    value = camp.data.get(field)
    if value is None:
        what = "the first envelope (start_envelope: 0)" if camp.family == S.DILEMME else \
            "the introduction scenario (intro: <scenario id>)"
        return [Finding("CAMP001", "error", f"campaign '{camp.id}' names no start: add {what}.",
                        file, line, col, sg.root)]
    node = f"envelope:{value:02d}" if camp.family == S.DILEMME else f"scenario:{value}"
    if node not in sg.graph:
        return [Finding("REF001", "error", f"campaign.{field} refers to {node.replace(':', ' ')}, "
                        "which does not exist. Define it or correct the start.", file, line, col,
                        sg.root)]
    out = []
    if camp.family == S.DILEMME:
        final = camp.data.get("grand_final")
        if final is not None and f"envelope:{final:02d}" not in sg.graph:
            out.append(Finding("REF001", "error", f"campaign.grand_final refers to envelope "
                               f"{final:02d}, which does not exist. Define it or correct the number.",
                               file, line, col, sg.root))
    return out


def check_unreachable(sg: StoryGraph) -> list[Finding]:
    """GRAPH001 / GRAPH003: story nodes no path reaches from the roots.  A node that something
    references is unreachable (error: the path to it is broken); a node nothing references is
    reported as never referenced (warning: likely a draft not wired in yet).
    Cost: O(nodes + edges)."""
    seen = reachable(sg)
    g = sg.graph
    out = []
    for node in g.nodes:
        if node in seen or not sg.is_story(node):
            continue
        parents = list(g.predecessors(node))
        if parents:
            shown = ", ".join(_label(sg, p) for p in sorted(parents)[:3])
            out.append(_finding(sg, "GRAPH001", "error", node,
                                f"{_label(sg, node)} can never be reached: it is only reached from "
                                f"{shown}, which no path from the campaign's start reaches. Link it "
                                "from reachable content or remove it."))
        else:
            out.append(_finding(sg, "GRAPH003", "warning", node,
                                f"{_label(sg, node)} is defined but nothing refers to it, so players "
                                "never see it. Reference it (an effect, a choice, an envelope) or "
                                "delete it."))
    return out


def _has_way_on(sg: StoryGraph, node: str) -> bool:
    data = sg.records[node].data
    kind = sg.records[node].kind
    if kind == "paragraph":
        ends = any(k in ("return_to_citadel", "adventure_ends") for e in data.get("effects", ()) for k in e)
        return bool(data.get("end") or data.get("choices") or data.get("actions") or ends
                    or any(d.get("kind") in ("reads", "takes") for _, _, d in sg.graph.out_edges(node, data=True)))
    if kind == "envelope":
        return bool(data.get("story") or data.get("cards") or data.get("effects"))
    if kind == "exploration_card":
        return bool(data.get("actions") or data.get("effects"))
    if kind == "scenario":
        return any(sg.graph.nodes[t].get("kind") == "epilogue" for t in sg.graph.successors(node))
    return True


_DEAD_END_FIX = {
    "paragraph": "add choices, a 'read' effect or an action, or mark it 'end: true' if the "
                 "dialogue really stops here",
    "envelope": "put a story card and dilemmas in it ('story:' and 'cards:'), or effects for a "
                "special envelope",
    "exploration_card": "give it an action or effects so players can resolve it and free the "
                        "place behind it",
    "scenario": "give it at least one epilogue branch",
}


def check_dead_ends(sg: StoryGraph) -> list[Finding]:
    """GRAPH002: a node that is not final and offers no way on.  Cost: O(nodes + edges)."""
    out = []
    for node, rec in sg.records.items():
        if rec.kind in _DEAD_END_FIX and not _has_way_on(sg, node):
            out.append(_finding(sg, "GRAPH002", "error", node,
                                f"{_label(sg, node)} is a dead end: {_DEAD_END_FIX[rec.kind]}."))
    return out


def _granted(sg: StoryGraph) -> dict[str, set[str]]:
    seen = reachable(sg)
    granted: dict[str, set[str]] = {"flag": set(), "quest": set(), "objective": set()}
    for grant in sg.campaign.grants:
        if grant.source in seen:
            granted[grant.what].add(grant.value)
            if grant.what == "quest":
                granted["quest"].add(grant.value.split("=")[0] + "=*")
    for node, rec in sg.records.items():
        if rec.kind == "scenario" and node in seen:
            granted["flag"].update((rec.data.get("setup") or {}).get("flags") or ())
    return granted


def check_conditions(sg: StoryGraph) -> list[Finding]:
    """COND001: a condition, in reachable content, that nothing reachable can make true.
    Cost: O(nodes + edges + conditions)."""
    seen = reachable(sg)
    granted = _granted(sg)
    rules = sg.campaign.data.get("rules") or {}
    out = []
    for use in sg.campaign.conditions:
        if use.source not in seen and use.source != "campaign:":
            continue
        why = _never(sg, use.atom, use.value, granted, seen, rules)
        if why:
            out.append(Finding("COND001", "error", f"{use.path}: this condition can never hold: "
                               f"{why}", use.file, use.line, use.column, use.source))
    return out


def _never(sg: StoryGraph, atom: str, value: object, granted: dict[str, set[str]],
           seen: set[str], rules: dict) -> str | None:
    """Why a condition atom can never hold, or ``None`` if it might."""
    if atom == "flag" and value not in granted["flag"]:
        return (f"no reachable effect sets flag '{value}'. Add '- flag: {value}' to an effect "
                "players can reach, or fix the flag's spelling.")
    if atom == "objective" and value not in granted["objective"]:
        return (f"no reachable effect marks objective '{value}' as reached. Add "
                f"'- objective: {value}' where players achieve it.")
    if atom == "quest":
        q = dict(value)  # type: ignore[arg-type]
        want = f"{q['id']}={q['state']}" if q["state"] != "active" else f"{q['id']}=*"
        if want not in granted["quest"]:
            return (f"no reachable effect puts side quest '{q['id']}' in state '{q['state']}'. Add "
                    f"'- quest: {{id: {q['id']}, state: {q['state']}}}' to reachable content.")
    if atom == "item":
        nodes = [n for n in sg.by_number.get(str(value), ())]
        items = [n for n in nodes if sg.records[n].data.get("type") in ("purse", "quest_item")]
        if nodes and not items:
            return (f"card {value} is a {sg.records[nodes[0]].data.get('type')}, which no one can "
                    "hold; an item must be a purse or quest_item card.")
        if items and not any(n in seen for n in items):
            return f"card {value} is never reachable, so nobody can hold it. Make it reachable first."
    if atom in ("envelope", "chronicle_sticker", "secret_sticker"):
        key = f"{int(value):02d}" if atom == "envelope" else value  # type: ignore[call-overload]
        node = f"{atom}:{key}"
        if node in sg.graph and node not in seen:
            return f"{atom} {key} is never reachable. Make it reachable first."
    if atom == "secret_stickers":
        count = sum(1 for n in seen if n.startswith("secret_sticker:"))
        if int(value) > count:  # type: ignore[call-overload]
            return f"it needs {value} secret stickers but only {count} can ever be stuck."
    if atom == "score":
        for name, need in dict(value).items():  # type: ignore[call-overload]
            if need > S.COMMUNITY_MAX:
                return f"community score '{name}' never exceeds {S.COMMUNITY_MAX} (asked: {need})."
    if atom == "resource":
        top = rules.get("resource_track")
        for name, need in dict(value).items():  # type: ignore[call-overload]
            if top is not None and not (0 <= need <= top):
                return f"the {name} track runs from 0 to {top} (asked: {need})."
    if atom == "any":
        reasons = []
        for alt in value:  # type: ignore[attr-defined]
            name, val = alt
            why = _never(sg, name, val, granted, seen, rules)
            if why is None:
                return None
            reasons.append(why)
        return "none of its alternatives can: " + " / ".join(reasons)
    return None


def check_hidden_numbers(sg: StoryGraph) -> list[Finding]:
    """HIDDEN001/HIDDEN002: a hidden number has three digits, and the back of every card it
    leads to names the card that hides it.  Cost: O(hidden numbers × versions)."""
    out = []
    for ref in sg.campaign.refs:
        if ref.edge != "hidden_number":
            continue
        raw = ref.context or ref.key
        if not (raw.isdigit() and len(raw) == 3):
            out.append(Finding("HIDDEN001", "error", f"{ref.path}: hidden number '{raw}' must have "
                               "exactly three digits (100 to 999): players look for a three-digit "
                               "number on the card.", ref.file, ref.line, ref.column, ref.source))
            continue
        source = sg.records.get(ref.source)
        if source is None:
            continue
        src_number = source.data.get("number", source.data.get("id"))
        for target in sg.by_number.get(ref.key, ()):
            back = sg.records[target].data.get("back_source")
            if back != src_number:
                got = "names no source" if back is None else f"names card {back}"
                out.append(Finding("HIDDEN002", "error", f"{ref.path}: card {ref.key} is found "
                                   f"through a hidden number on {_label(sg, ref.source)}, but its "
                                   f"back {got}. Set 'back_source: {src_number}' on card "
                                   f"{ref.key}.", ref.file, ref.line, ref.column, ref.source))
    return out


CHECKS: list[Callable[[StoryGraph], list[Finding]]] = [
    check_roots,
    check_unreachable,
    check_dead_ends,
    check_conditions,
    check_hidden_numbers,
]


def run(sg: StoryGraph) -> list[Finding]:
    out: list[Finding] = []
    for check in CHECKS:
        out.extend(check(sg))
    return out


def stats(sg: StoryGraph) -> dict:
    seen = reachable(sg)
    kinds: dict[str, int] = {}
    for _, kind in sg.graph.nodes(data="kind"):
        kinds[kind] = kinds.get(kind, 0) + 1
    story = [n for n in sg.graph.nodes if sg.is_story(n)]
    edge_kinds: dict[str, int] = {}
    for _, _, kind in sg.graph.edges(data="kind"):
        edge_kinds[kind] = edge_kinds.get(kind, 0) + 1
    return {
        "nodes": sg.graph.number_of_nodes(),
        "edges": sg.graph.number_of_edges(),
        "reachable": len(seen),
        "unreachable": sum(1 for n in story if n not in seen),
        "kinds": dict(sorted(kinds.items())),
        "edge_kinds": dict(sorted(edge_kinds.items())),
    }
