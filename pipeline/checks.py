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
from .messages import kind_fr, t


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
    return Finding(
        code,
        severity,
        message,
        attrs.get("file", ""),
        attrs.get("line", 1),
        attrs.get("column", 1),
        node,
    )


def _label(sg: StoryGraph, node: str) -> str:
    """How a node is named in a message: « carte Aventure 123 (green, scénario s1) »."""
    kind, _, key = node.partition(":")
    if kind == "adventure_card" and node in sg.records:
        rec = sg.records[node]
        key = f"{rec.data.get('number')} ({rec.data.get('version', 'green')}"
        key += f", scénario {rec.data['scenario']})" if rec.data.get("scenario") else ")"
    return f"{kind_fr(kind)} {key}"


def check_roots(sg: StoryGraph) -> list[Finding]:
    """The campaign names a start that exists.  Cost: O(1)."""
    camp = sg.campaign
    file, line, col = camp.data_pos
    field = "start_envelope" if camp.family == S.DILEMME else "intro"
    line, col = camp.field_pos.get(field, (line, col))
    value = camp.data.get(field)
    if value is None:
        what = t("camp.start_dilemme" if camp.family == S.DILEMME else "camp.start_citadelle")
        return [
            Finding(
                "CAMP001",
                "error",
                t("camp.no_start", id=camp.id, what=what),
                file,
                line,
                col,
                sg.root,
            )
        ]
    node = f"envelope:{value:02d}" if camp.family == S.DILEMME else f"scenario:{value}"
    if node not in sg.graph:
        return [
            Finding(
                "REF001",
                "error",
                t("ref.start", field=field, what=_label(sg, node)),
                file,
                line,
                col,
                sg.root,
            )
        ]
    out = []
    if camp.family == S.DILEMME:
        final = camp.data.get("grand_final")
        if final is not None and f"envelope:{final:02d}" not in sg.graph:
            line, col = camp.field_pos.get("grand_final", (line, col))
            what = _label(sg, f"envelope:{final:02d}")
            out.append(
                Finding(
                    "REF001",
                    "error",
                    t("ref.start", field="grand_final", what=what),
                    file,
                    line,
                    col,
                    sg.root,
                )
            )
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
            message = t("graph.unreachable", node=_label(sg, node), parents=shown)
        elif node in sg.mentioned:
            where = sg.mentioned[node]
            message = t("graph.unreachable_listed", node=_label(sg, node), where=where)
        else:
            orphan = t("graph.orphan", node=_label(sg, node))
            out.append(_finding(sg, "GRAPH003", "warning", node, orphan))
            continue
        out.append(_finding(sg, "GRAPH001", "error", node, message))
    return out


def _has_way_on(sg: StoryGraph, node: str) -> bool:
    data = sg.records[node].data
    kind = sg.records[node].kind
    if kind == "paragraph":
        ends = any(
            k in ("return_to_citadel", "adventure_ends") for e in data.get("effects", ()) for k in e
        )
        return bool(
            data.get("end")
            or data.get("choices")
            or data.get("actions")
            or ends
            or any(
                d.get("kind") in ("reads", "takes")
                for _, _, d in sg.graph.out_edges(node, data=True)
            )
        )
    if kind == "envelope":
        return bool(data.get("story") or data.get("cards") or data.get("effects"))
    if kind == "exploration_card":
        return bool(data.get("actions") or data.get("effects"))
    if kind == "scenario":
        return any(sg.graph.nodes[t].get("kind") == "epilogue" for t in sg.graph.successors(node))
    return True


_DEAD_END_KINDS = ("paragraph", "envelope", "exploration_card", "scenario")


def check_dead_ends(sg: StoryGraph) -> list[Finding]:
    """GRAPH002: a node that is not final and offers no way on.  Cost: O(nodes + edges)."""
    out = []
    for node, rec in sg.records.items():
        if rec.kind in _DEAD_END_KINDS and not _has_way_on(sg, node):
            fix = t(f"dead_end.{rec.kind}")
            out.append(
                _finding(
                    sg,
                    "GRAPH002",
                    "error",
                    node,
                    t("graph.dead_end", node=_label(sg, node), fix=fix),
                )
            )
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
            out.append(
                Finding(
                    "COND001",
                    "error",
                    t("cond.never", path=use.path, why=why),
                    use.file,
                    use.line,
                    use.column,
                    use.source,
                )
            )
    out.extend(_grand_final(sg))
    return out


def _grand_final(sg: StoryGraph) -> list[Finding]:
    """Dilemme: the grand final opens at the Nth secret sticker; enough must be reachable."""
    camp = sg.campaign
    final = camp.data.get("grand_final")
    if camp.family != S.DILEMME or final is None:
        return []
    need = int((camp.data.get("rules") or {}).get("secret_stickers_for_final", 6))
    seen = reachable(sg)
    count = sum(1 for n in seen if n.startswith("secret_sticker:"))
    if count >= need:
        return []
    file, line, col = camp.data_pos
    line, col = camp.field_pos.get("grand_final", (line, col))
    msg = t("cond.grand_final", final=f"{final:02d}", need=need, count=count)
    return [Finding("COND001", "error", msg, file, line, col, sg.root)]


def _never(
    sg: StoryGraph,
    atom: str,
    value: object,
    granted: dict[str, set[str]],
    seen: set[str],
    rules: dict,
) -> str | None:
    """Why a condition atom can never hold, or ``None`` if it might."""
    if atom == "flag" and value not in granted["flag"]:
        return t("cond.flag", value=value)
    if atom == "objective" and value not in granted["objective"]:
        return t("cond.objective", value=value)
    if atom == "quest":
        q = dict(value)  # type: ignore[call-overload]
        if "id" not in q or "state" not in q:
            return None  # already reported as a missing field
        want = f"{q['id']}={q['state']}" if q["state"] != "active" else f"{q['id']}=*"
        if want not in granted["quest"]:
            return t("cond.quest", id=q["id"], state=q["state"])
    if atom == "item":
        nodes = list(sg.by_number.get(str(value), ()))
        items = [n for n in nodes if sg.records[n].data.get("type") in ("purse", "quest_item")]
        if nodes and not items:
            return t("cond.item_type", value=value, type=sg.records[nodes[0]].data.get("type"))
        if items and not any(n in seen for n in items):
            return t("cond.item_unreachable", value=value)
    if atom in ("envelope", "chronicle_sticker", "secret_sticker"):
        key = f"{int(value):02d}" if atom == "envelope" else value  # type: ignore[call-overload]
        node = f"{atom}:{key}"
        if node in sg.graph and node not in seen:
            return t("cond.node_unreachable", node=_label(sg, node))
    if atom == "secret_stickers":
        count = sum(1 for n in seen if n.startswith("secret_sticker:"))
        if int(value) > count:  # type: ignore[call-overload]
            return t("cond.stickers", value=value, count=count)
    if atom == "score":
        for name, need in dict(value).items():  # type: ignore[call-overload]
            if need > S.COMMUNITY_MAX:
                return t("cond.score", name=name, max=S.COMMUNITY_MAX, need=need)
    if atom == "resource":
        top = rules.get("resource_track")
        for name, need in dict(value).items():  # type: ignore[call-overload]
            if top is not None and not (0 <= need <= top):
                return t("cond.resource", name=name, top=top, need=need)
    if atom == "any":
        reasons = []
        for alt in value:  # type: ignore[attr-defined]
            name, val = alt
            why = _never(sg, name, val, granted, seen, rules)
            if why is None:
                return None
            reasons.append(why)
        return t("cond.any", reasons=" / ".join(reasons))
    return None


def check_hidden_numbers(sg: StoryGraph) -> list[Finding]:
    """HIDDEN001/HIDDEN002: a hidden number has three digits, and the back of every card it
    leads to names the card that hides it.  Cost: O(hidden numbers × versions)."""
    out = []
    for ref in sg.campaign.refs:
        if ref.edge != "hidden_number":
            continue
        raw = ref.context or ref.key
        if not (raw.isdigit() and len(raw) == 3 and raw[0] != "0"):
            out.append(
                Finding(
                    "HIDDEN001",
                    "error",
                    t("hidden.digits", path=ref.path, raw=raw),
                    ref.file,
                    ref.line,
                    ref.column,
                    ref.source,
                )
            )
            continue
        source = sg.records.get(ref.source)
        if source is None:
            continue
        src_number = source.data.get("number", source.data.get("id"))
        for target in sg.by_number.get(ref.key, ()):
            back = sg.records[target].data.get("back_source")
            if back != src_number:
                got = t("hidden.back_none") if back is None else t("hidden.back_other", back=back)
                msg = t(
                    "hidden.back",
                    path=ref.path,
                    key=ref.key,
                    source=_label(sg, ref.source),
                    got=got,
                    number=src_number,
                )
                out.append(
                    Finding("HIDDEN002", "error", msg, ref.file, ref.line, ref.column, ref.source)
                )
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
