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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from engine.core.errors import edit_distance
from engine.core.schema import GraphView
from engine.core.schema import Reference as WrittenReference

from .. import schema as S
from ..content.model import Record, Reference
from ..content.project import Campaign
from ..findings import Finding
from ..messages import declare, did_you_mean, kind_fr, t

REF001 = declare(
    "REF001",
    "error",
    about="renvoi vers quelque chose qui n'existe pas",
    fix="Corrigez l'identifiant, ou définissez l'élément visé.",
    messages={
        "ref.unknown": (
            "{path} renvoie à {kinds} « {key} », introuvable.{hint} Ajoutez cet élément "
            "({section}) ou corrigez la référence."
        ),
        "ref.start": (
            "campaign.{field} renvoie à {what}, qui n'existe pas. Définissez cet élément ou "
            "corrigez le départ."
        ),
    },
)


ID001 = declare(
    "ID001",
    "error",
    about="le même identifiant défini deux fois",
    fix="Donnez un autre identifiant à l'un des deux éléments, ou supprimez-en un.",
    messages={
        "id.duplicate": (
            "l'identifiant « {key} » ({kind}) est utilisé deux fois : la première fois dans {file} "
            "ligne {line}. Donnez un autre identifiant à cet élément, ou supprimez l'un des deux."
        ),
        "id.campaign_twice": (
            "l'identifiant de campagne « {key} » est déjà celui de la campagne de {file} ligne "
            "{line} : deux campagnes ne peuvent pas avoir le même identifiant (leurs pages et "
            "leurs sauvegardes se mélangeraient). Donnez-en un autre à l'une des deux."
        ),
    },
)


@dataclass
class StoryGraph:
    campaign: Campaign
    graph: nx.DiGraph
    root: str
    records: dict[str, Record]
    #: for kinds referenced through a field (``resolve_by``): kind -> value -> node ids (the
    #: versions of a numbered adventure card)
    by_field: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: node -> where something mentions it without leading to it (a Menace's later scenarios)
    mentioned: dict[str, str] = field(default_factory=dict)
    #: findings about a key that may be missing only because a file could not be read (a
    #: reference to nothing, a campaign field naming a node), with that key: ``pipeline.story.fold``
    unknown: list[tuple[Finding, str]] = field(default_factory=list)
    #: a game's findings about the campaign as a whole (a kind of record missing, too few of
    #: another): they count records, so a file that could not be read makes them
    #: untrustworthy: ``pipeline.story.fold`` folds them under that file's finding
    whole: list[Finding] = field(default_factory=list)
    #: a reference to nothing and the node it most likely meant, when that node was renamed
    #: (``renamed_from``) or is referenced by nothing else: what lies behind that node only
    #: follows from the broken reference (``pipeline.story.fold.fold_behind``)
    meant: list[tuple[Finding, str]] = field(default_factory=list)
    #: the finding that says the campaign's start is missing or names nothing (``checks.
    #: check_roots``): while it stands, what is unreachable only follows from it (``fold``)
    no_start: Finding | None = None
    #: the game's implicit edges as they were added (``ContentSchema.implicit_edges``), and
    #: whether that hook read the graph's edges (then an edit to a reference may change them)
    implicit: list = field(default_factory=list)
    implicit_reads_edges: bool = False
    #: what the workspace's checks remember per node of the games' per-node hooks (``Memo``)
    memo: Memo | None = None

    def is_story(self, node: str) -> bool:
        kind = self.graph.nodes[node].get("kind")
        spec = S.KINDS[self.campaign.family].get(kind)
        return bool(spec and spec.story)

    def is_covered(self, node: str) -> bool:
        """Whether simulation coverage counts this node (``Kind.covered``, else a story node)."""
        kind = self.graph.nodes[node].get("kind")
        spec = S.KINDS[self.campaign.family].get(kind)
        if spec is None:
            return False
        return spec.story if spec.covered is None else spec.covered

    def by(self, kind: str, value: str) -> list[str]:
        return self.by_field.get(kind, {}).get(value, [])

    @property
    def schema(self) -> S.ContentSchema:
        return S.SCHEMAS[self.campaign.family]

    def reachable_nodes(self) -> set[str]:
        """Nodes reachable from the campaign root (which links the start and the components).

        Cost: O(nodes + edges), one breadth-first search.  Cached on the graph.
        """
        cached = self.graph.graph.get("_reachable")
        if cached is None:
            succ = self.graph._succ  # a plain search over the adjacency: twice nx.descendants'
            cached = {self.root}
            stack = [self.root]
            while stack:
                for m in succ[stack.pop()]:
                    if m not in cached:
                        cached.add(m)
                        stack.append(m)
            self.graph.graph["_reachable"] = cached
        return cached

    def label(self, node: str) -> str:
        """How a node is named in a message: « carte Aventure 123 (green, scénario s1) »."""
        kind, _, key = node.partition(":")
        hook = self.schema.label
        if hook is not None and node in self.records:
            special = hook(kind, key, self.records[node].data)
            if special:
                key = special
        return f"{kind_fr(kind)} {key}"

    def view(self) -> View:
        return View(self)


class View(GraphView):
    """What a game's content hooks may read of a story graph (``engine.core.schema.GraphView``)."""

    def __init__(self, sg: StoryGraph) -> None:
        self.sg = sg
        self.campaign = {**sg.campaign.data, "id": sg.campaign.id}
        self.root = sg.root

    def records(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        return ((node, rec.kind, rec.data) for node, rec in self.sg.records.items())

    def data(self, node: str) -> dict | None:
        rec = self.sg.records.get(node)
        return rec.data if rec is not None else None

    def has(self, node: str) -> bool:
        return node in self.sg.graph

    def reachable(self) -> set[str]:
        return self.sg.reachable_nodes()

    def out_edge_kinds(self, node: str) -> list[str]:
        return [d.get("kind") for d in self.sg.graph._succ[node].values()]

    def successors(self, node: str) -> list[str]:
        return list(self.sg.graph.successors(node))

    def out_edges(self, node: str) -> list[tuple[str, str]]:
        return [(v, d.get("kind")) for v, d in self.sg.graph._succ[node].items()]

    def by(self, kind: str, value: str) -> list[str]:
        return self.sg.by(kind, value)

    def label(self, node: str) -> str:
        return self.sg.label(node)

    def references(self, edge: str) -> list[WrittenReference]:
        return [
            WrittenReference(
                r.source, r.key, r.kinds, r.edge, r.path, r.file, r.line, r.column, r.context
            )
            for r in self.sg.campaign.refs
            if r.edge == edge
        ]


class Probe(View):
    """A view that notes whether a hook read more than the node it was asked about (its own
    data and its own edges): ``local`` stays true otherwise.  ``edges`` notes any read of the
    graph's edges or of what is reachable."""

    def __init__(self, sg: StoryGraph) -> None:
        super().__init__(sg)
        self.current: str | None = None
        self.local = True
        self.edges = False

    def records(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        self.local = False
        return super().records()

    def data(self, node: str) -> dict | None:
        if node != self.current:
            self.local = False
        return super().data(node)

    def reachable(self) -> set[str]:
        self.local = False
        self.edges = True
        return super().reachable()

    def out_edge_kinds(self, node: str) -> list[str]:
        self.edges = True
        if node != self.current:
            self.local = False
        return super().out_edge_kinds(node)

    def successors(self, node: str) -> list[str]:
        self.edges = True
        if node != self.current:
            self.local = False
        return super().successors(node)

    def out_edges(self, node: str) -> list[tuple[str, str]]:
        self.edges = True
        if node != self.current:
            self.local = False
        return super().out_edges(node)

    def label(self, node: str) -> str:
        if node != self.current:
            self.local = False
        return super().label(node)


class Memo:
    """What one check found with a game's per-node hooks (``way_on``, ``leaves_loop`` over
    every record: ``select``), with whether every call read only its own node
    (``Probe.local``), and what the loop check derived from them.  The next check of a patched
    graph (``pipeline.story.incremental.patch``) reuses a local answer for every node outside
    ``dirty`` (the nodes whose data or edges changed): a local call whose inputs did not change
    gives the same answer."""

    def __init__(
        self,
        old: Memo | None = None,
        dirty: set[str] | frozenset[str] = frozenset(),
        removed: list[tuple[str, str]] | None = None,
    ) -> None:
        self.old: dict[str, Any] = old.new if old else {}
        self.dirty = dirty
        #: the edges the patch removed (``None``: a full check, nothing to compare with)
        self.removed = removed
        self.new: dict[str, Any] = {}


def select(
    sg: StoryGraph,
    name: str,
    candidate: Callable[[str], object],
    test: Callable[[GraphView, str], bool],
) -> set[str]:
    """The records for which ``candidate(node)`` and ``test(view, node)`` hold (``test`` asks
    a game's per-node hook).  With a memo (the workspace), the answer of the previous check is
    reused for every node outside ``memo.dirty`` when every call then read only its own node:
    only the dirty nodes are asked again.  Cost: O(records), or O(dirty nodes) reused."""
    memo = sg.memo
    if memo is None:
        view = sg.view()
        return {n for n in sg.records if candidate(n) and test(view, n)}
    probe = Probe(sg)
    old = memo.old.get(name)
    local = True
    if old is not None and old[1]:
        chosen = set(old[0])
        chosen.difference_update(memo.dirty)
        nodes = [n for n in memo.dirty if n in sg.records]
    else:
        chosen = set()
        nodes = list(sg.records)
    for n in nodes:
        if candidate(n):
            probe.current, probe.local = n, True
            if test(probe, n):
                chosen.add(n)
            local = local and probe.local
    memo.new[name] = (frozenset(chosen), local)
    return chosen


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
    kinds = S.KINDS[camp.family]
    resolved_by = {k.name: k.resolve_by for k in kinds.values() if k.resolve_by}
    by_field: dict[str, dict[str, list[str]]] = {name: defaultdict(list) for name in resolved_by}
    # nodes are written straight into the DiGraph's dicts, as ``add_node`` does (less a call,
    # a check and an update per node); the root is already there
    gnode, gsucc, gpred = g._node, g._succ, g._pred
    for rec in camp.records:
        node = f"{rec.kind}:{rec.key}"
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
        attrs = {"kind": rec.kind, "file": rec.file, "line": rec.line, "column": rec.column}
        if node in gnode:  # only the root can be there already
            gnode[node].update(attrs)
        else:
            gnode[node] = attrs
            gsucc[node] = {}
            gpred[node] = {}
        if rec.kind in resolved_by:
            by_field[rec.kind][str(rec.data.get(resolved_by[rec.kind]))].append(node)

    sg = StoryGraph(camp, g, root, records, {k: dict(v) for k, v in by_field.items()})
    unknown = sg.unknown
    keys_by_kind: dict[str, list[str]] = defaultdict(list)
    for rec in records.values():
        keys_by_kind[rec.kind].append(rec.key)

    # edges are written straight into the DiGraph's adjacency (what ``add_edge`` does, less a
    # call and a node check per edge: both ends are known nodes); ``_add_edge`` below is the
    # same thing through networkx's API
    succ, pred = g._succ, g._pred
    by_kinds = set(sg.by_field)
    broken: list[Reference] = []
    for ref in camp.refs:
        kinds_ = ref.kinds
        if len(kinds_) == 1 and kinds_[0] not in by_kinds:
            node = f"{kinds_[0]}:{ref.key}"
            targets = [node] if node in records else []
        else:
            targets = resolve(sg, kinds_, ref.key)
        if not targets:
            broken.append(ref)
            continue
        if ref.edge is None or ref.source not in gnode:
            for target in targets:
                sg.mentioned.setdefault(target, ref.path)
            continue
        source = ref.source
        out = succ[source]
        for target in targets:
            known = out.get(target)
            if known is not None:
                known["count"] += 1
                continue
            cond = ref.condition
            if len(kinds_) == 1 and kinds_[0] in by_kinds:
                # a version proper to one scenario is only taken in that scenario
                for name in kinds[kinds_[0]].id_format.guards:
                    value = records[target].data.get(name)
                    if value:
                        cond = (*(cond or ()), (name, value))
            data = {
                "count": 1,
                "kind": ref.edge,
                "condition": cond,
                "context": ref.context,
                "file": ref.file,
                "line": ref.line,
                "column": ref.column,
            }
            out[target] = data
            pred[target][source] = data
    if broken:  # once every edge is known: what is referenced by nothing else
        renamed = _renamed_to(records)
        for ref in broken:
            meant = _meant(sg, ref, renamed)
            finding = _unknown(ref, keys_by_kind, camp.family, meant)
            findings.append(finding)
            unknown.append((finding, ref.key))
            if meant is not None:
                sg.meant.append((finding, meant))
    clear = getattr(nx, "_clear_cache", None)
    if clear is not None:
        clear(g)

    _implicit_edges(sg)
    return sg, findings


def resolve(sg: StoryGraph, kinds: tuple[str, ...], key: str) -> list[str]:
    out: list[str] = []
    for kind in kinds:
        if kind in sg.by_field:
            out.extend(sg.by(kind, key))
        else:
            node = f"{kind}:{key}"
            if node in sg.records:
                out.append(node)
    return out


def _renamed_to(records: dict[str, Record]) -> dict[tuple[str, str], str]:
    """``(kind, old key)`` -> the node that declares it in ``renamed_from``."""
    out: dict[tuple[str, str], str] = {}
    for node, rec in records.items():
        for old in rec.data.get(S.RENAMED_FROM) or ():
            out.setdefault((rec.kind, str(old)), node)
    return out


def _meant(sg: StoryGraph, ref: Reference, renamed: dict[tuple[str, str], str]) -> str | None:
    """The node a reference to nothing most likely meant: the one renamed from its key, else
    the closest (by edit distance) of the nodes of its kinds that nothing references — an id
    that just disappeared from the references, as after a rename.  Cost: O(records of those
    kinds) per broken reference."""
    for kind in ref.kinds:
        if (kind, ref.key) in renamed:
            return renamed[(kind, ref.key)]
    if ref.key.isdigit():  # a number is not misspelt into another
        return None
    pred = sg.graph._pred
    best: tuple[int, str] | None = None
    for node, rec in sg.records.items():
        if rec.kind not in ref.kinds or pred.get(node) or node in sg.mentioned:
            continue
        key = rec.key
        d = edit_distance(ref.key, key)
        near = key.startswith(ref.key) or ref.key.startswith(key) or d * 2 <= len(ref.key)
        if near and (best is None or (d, node) < best):
            best = (d, node)
    return best[1] if best else None


def _unknown(
    ref: Reference, keys_by_kind: dict[str, list[str]], family: str, meant: str | None = None
) -> Finding:
    kinds = " ou ".join(kind_fr(k) for k in ref.kinds)
    shown = ref.key
    # a spelling suggestion helps with words, not with numbers (99084 is not "9984")
    hint = ""
    if meant is not None:
        hint = t("hint", word=meant.partition(":")[2])
    elif not shown.isdigit():
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
                article = "d'une" if parent.feminine else "d'un"
                return f"champ « {name} » {article} {kind_fr(parent.name)}"
    return kind_fr(kind)


def _implicit_edges(sg: StoryGraph) -> None:
    """Edges the rules make without a reference written in the content: the campaign's start,
    the game's own (``ContentSchema.implicit_edges``), and the components, which are in play
    from the start."""
    g, camp, root = sg.graph, sg.campaign, sg.root
    schema = sg.schema
    if schema.start_field and schema.start_node:
        value = camp.data.get(schema.start_field)
        if value is not None:
            try:
                start = schema.start_node(value)
            except (TypeError, ValueError):
                start = None
            if start is not None and start in g:
                g.add_edge(root, start, kind="starts", condition=None, count=1)
    if schema.implicit_edges is not None:
        probe = Probe(sg)
        for e in schema.implicit_edges(probe):
            if e.source in g and e.target in g:
                sg.implicit.append(e)
                _add_edge(
                    g, e.source, e.target, kind=e.kind, condition=e.condition, context=e.context
                )
        sg.implicit_reads_edges = probe.edges
    for node, rec in sg.records.items():
        if not S.KINDS[camp.family][rec.kind].story and rec.parent is None:
            _add_edge(g, root, node, kind="component", condition=None)
