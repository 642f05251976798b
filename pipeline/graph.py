"""Turn a campaign's records into its story graph (one ``networkx.DiGraph`` per campaign).

Nodes are ``kind:key`` strings (``envelope:00``, ``outcome:D12/oui_da``, ``paragraph:45``,
``adventure_card:123/green``) carrying ``kind``, ``file``, ``line``, ``column``.  Edges carry
``kind`` (``opens``, ``contains``, ``choice``, ``takes``, ``reads``, ``reveals``, ``explores``,
``hidden_number``, …), the ``condition`` that guards them (a tuple of atoms, or ``None``) and the
position of the reference that made them.  Duplicate ids and references to nothing are
reported here, since resolving references is what building the graph means.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import networkx as nx

from . import schema as S
from .findings import Finding
from .messages import did_you_mean, kind_fr, t
from .model import Record, Reference
from .project import Campaign


@dataclass
class StoryGraph:
    campaign: Campaign
    graph: nx.DiGraph
    root: str
    records: dict[str, Record]
    #: adventure card number -> node ids of its versions
    by_number: dict[str, list[str]] = field(default_factory=dict)
    #: exploration zone -> node ids
    by_zone: dict[str, list[str]] = field(default_factory=dict)
    #: node -> where something mentions it without leading to it (a Menace's later scenarios)
    mentioned: dict[str, str] = field(default_factory=dict)

    def is_story(self, node: str) -> bool:
        kind = self.graph.nodes[node].get("kind")
        spec = S.KINDS[self.campaign.family].get(kind)
        return bool(spec and spec.story)


def _add_edge(g: nx.DiGraph, src: str, dst: str, **attrs: object) -> None:
    if g.has_edge(src, dst):
        g.edges[src, dst]["count"] += 1
        return
    g.add_edge(src, dst, count=1, **attrs)


def build(camp: Campaign) -> tuple[StoryGraph, list[Finding]]:
    findings: list[Finding] = []
    g = nx.DiGraph(campaign=camp.id, family=camp.family)
    root = f"campaign:{camp.id}"
    file, line, col = camp.data_pos
    g.add_node(root, kind="campaign", file=file, line=line, column=col)
    records: dict[str, Record] = {}
    by_number: dict[str, list[str]] = defaultdict(list)
    by_zone: dict[str, list[str]] = defaultdict(list)
    for rec in camp.records:
        node = rec.node
        first = records.get(node)
        if first is not None:
            shown = rec.key
            findings.append(
                Finding(
                    "ID001",
                    "error",
                    t(
                        "id.duplicate",
                        kind=kind_fr(rec.kind),
                        key=shown,
                        file=first.file,
                        line=first.line,
                    ),
                    rec.file,
                    rec.line,
                    rec.column,
                    node,
                )
            )
            continue
        records[node] = rec
        g.add_node(node, kind=rec.kind, file=rec.file, line=rec.line, column=rec.column)
        if rec.kind == "adventure_card":
            by_number[str(rec.data.get("number"))].append(node)
        elif rec.kind == "exploration_card" and "zone" in rec.data:
            by_zone[str(rec.data["zone"])].append(node)

    sg = StoryGraph(camp, g, root, records, dict(by_number), dict(by_zone))
    keys_by_kind: dict[str, list[str]] = defaultdict(list)
    for rec in records.values():
        keys_by_kind[rec.kind].append(rec.key)

    for ref in camp.refs:
        targets = resolve(sg, ref.kinds, ref.key)
        if not targets:
            findings.append(_unknown(ref, keys_by_kind, camp.family))
            continue
        if ref.edge is None or ref.source not in g:
            for target in targets:
                sg.mentioned.setdefault(target, ref.path)
            continue
        for target in targets:
            cond = ref.condition
            scen = records[target].data.get("scenario") if target in records else None
            if ref.kinds == ("adventure_card",) and scen:
                cond = (*(cond or ()), ("scenario", scen))
            _add_edge(
                g,
                ref.source,
                target,
                kind=ref.edge,
                condition=cond,
                context=ref.context,
                file=ref.file,
                line=ref.line,
                column=ref.column,
            )

    _implicit_edges(sg)
    return sg, findings


def resolve(sg: StoryGraph, kinds: tuple[str, ...], key: str) -> list[str]:
    out: list[str] = []
    for kind in kinds:
        if kind == "adventure_card":
            out.extend(sg.by_number.get(key, ()))
        else:
            node = f"{kind}:{key}"
            if node in sg.records:
                out.append(node)
    return out


def _unknown(ref: Reference, keys_by_kind: dict[str, list[str]], family: str) -> Finding:
    kinds = " ou ".join(kind_fr(k) for k in ref.kinds)
    shown = ref.key
    # a spelling suggestion helps with words, not with numbers (99084 is not "9984")
    hint = ""
    if not shown.isdigit():
        pool = [k for kind in ref.kinds for k in keys_by_kind.get(kind, ())][:5000]
        hint = did_you_mean(shown, pool)
    sections = []
    for k in ref.kinds:
        sec = S.KINDS[family][k].section
        sections.append(f"section « {sec} »" if sec else _parent_field(family, k))
    section = " ou ".join(dict.fromkeys(sections))
    return Finding(
        "REF001",
        "error",
        t("ref.unknown", path=ref.path, kinds=kinds, key=shown, hint=hint, section=section),
        ref.file,
        ref.line,
        ref.column,
        ref.source,
    )


def _parent_field(family: str, kind: str) -> str:
    """Where a sub-record is written: « champ « achievements » d'une Maison »."""
    for parent in S.KINDS[family].values():
        for name, fld in parent.fields.items():
            if isinstance(fld.spec, S.SubNodes) and fld.spec.kind == kind:
                return f"champ « {name} » d'un(e) {kind_fr(parent.name)}"
    return kind_fr(kind)


def _implicit_edges(sg: StoryGraph) -> None:
    """Edges the rules make without a reference written in the content."""
    g, camp, root = sg.graph, sg.campaign, sg.root
    data = camp.data
    if camp.family == S.DILEMME:
        start = data.get("start_envelope")
        if start is not None and f"envelope:{start:02d}" in g:
            g.add_edge(root, f"envelope:{start:02d}", kind="starts", condition=None, count=1)
        final = data.get("grand_final")
        need = int((data.get("rules") or {}).get("secret_stickers_for_final", 6))
        if final is not None and f"envelope:{final:02d}" in g:
            for node, rec in sg.records.items():
                if rec.kind == "secret_sticker":
                    _add_edge(
                        g,
                        node,
                        f"envelope:{final:02d}",
                        kind="opens",
                        condition=(("secret_stickers", need),),
                        context="grand_final",
                    )
    else:
        intro = data.get("intro")
        if intro is not None and f"scenario:{intro}" in g:
            g.add_edge(root, f"scenario:{intro}", kind="starts", condition=None, count=1)
        for node, rec in sg.records.items():
            if rec.kind == "menace":
                _add_edge(g, root, node, kind="contains", condition=None)
                # only the first scenario of a menace is a root; the rest follow epilogues
                first = (rec.data.get("scenarios") or [None])[0]
                if first is not None and f"scenario:{first}" in g:
                    _add_edge(g, node, f"scenario:{first}", kind="contains", condition=None)
            elif rec.kind == "adventure_card":
                for arrow in rec.data.get("arrows") or ():
                    zone = arrow.get("zone")
                    for target in sg.by_zone.get(str(zone), ()) if zone is not None else ():
                        _add_edge(
                            g,
                            node,
                            target,
                            kind="explores",
                            condition=None,
                            context=arrow.get("direction"),
                        )
    # components (houses, characters, action cards, the Citadel sheet...) are in play from the start
    for node, rec in sg.records.items():
        if not S.KINDS[camp.family][rec.kind].story and rec.parent is None:
            _add_edge(g, root, node, kind="component", condition=None)
