"""One real edit re-checked without the whole campaign: dynamic dependency tracking.

The checks over a campaign's graph (graph building, ``pipeline.story.checks``, the games' hooks)
read
the records' ``data`` through a ``_Logged`` dict that notes, per record kind, which fields were
read (``*keys``: the set of fields; ``*``: everything).  That *read set* is stored with what
the checks found (``Cache.put_edit``), under a key made of the campaign's structure only (its
folder, its manifest, the paths of its files).

On the next check of that campaign, when its file models changed (``report.check`` missed the
per-campaign entry), every changed file's old model is compared with its new one: if they
define the same records (kind, key, file, position, parent), the same references, grants,
conditions and words, and every field that differs is outside the read set, then the global
findings and statistics are the stored ones verbatim (what the checks read is the same, so
what they compute is the same) and only the changed files' own findings (validation) are new.
Nothing else is loaded.  A campaign with a file that cannot be read or parsed
(``pipeline.story.fold``
reads the bytes), a changed line count or anything uncertain takes the full path.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .. import schema as S
from ..findings import BROKEN_REFERENCES, CAUSES, Finding
from .fold import RECORD_ERRORS, apply_behind, behind_of

#: above this many changed files, the full path is as quick
MAX_CHANGED = 16
ALL = "*"
KEYS = "*keys"


class _Logged(dict):
    """A record's ``data`` whose reads are noted in ``log`` (a set shared by a record kind)."""

    __slots__ = ("log",)
    log: set[Any]

    def __getitem__(self, k: Any) -> Any:
        self.log.add(k)
        return dict.__getitem__(self, k)

    def get(self, k: Any, default: Any = None) -> Any:
        self.log.add(k)
        return dict.get(self, k, default)

    def __contains__(self, k: Any) -> bool:
        self.log.add(k)
        return dict.__contains__(self, k)

    def __iter__(self) -> Any:
        self.log.add(KEYS)
        return dict.__iter__(self)

    def keys(self) -> Any:
        self.log.add(KEYS)
        return dict.keys(self)

    def __len__(self) -> int:
        self.log.add(KEYS)
        return dict.__len__(self)

    def __bool__(self) -> bool:
        self.log.add(KEYS)
        return dict.__len__(self) > 0

    def items(self) -> Any:
        self.log.add(ALL)
        return dict.items(self)

    def values(self) -> Any:
        self.log.add(ALL)
        return dict.values(self)

    def __eq__(self, other: object) -> bool:
        self.log.add(ALL)
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self.log.add(ALL)
        return dict.__ne__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self.log.add(ALL)
        return dict.__repr__(self)

    def copy(self) -> dict:
        self.log.add(ALL)
        return dict(dict.items(self))

    def __or__(self, other: Any) -> Any:
        self.log.add(ALL)
        return dict(dict.items(self)) | other

    def __ror__(self, other: Any) -> Any:
        self.log.add(ALL)
        return other | dict(dict.items(self))

    def __reduce_ex__(self, protocol: Any) -> Any:
        self.log.add(ALL)
        return (dict, (dict(dict.items(self)),))


def _mutator(name: str) -> Any:
    op = getattr(dict, name)

    def mutate(self: _Logged, *args: Any, **kwargs: Any) -> Any:
        self.log.add(ALL)
        return op(self, *args, **kwargs)

    mutate.__name__ = name
    return mutate


for _name in ("__setitem__", "__delitem__", "setdefault", "pop", "popitem", "update", "clear"):
    setattr(_Logged, _name, _mutator(_name))
_Logged.__ior__ = _mutator("__ior__")  # type: ignore[method-assign]


class Tracker:
    """Wraps every record's ``data`` of a campaign while its checks run; ``stop`` puts the
    original dicts back and returns the read set (record kind -> fields read).

    ``keep=True`` (the language server's workspace, which holds its records from edit to
    edit): a record's ``data`` is wrapped once and stays wrapped, so that the next tracker only
    points each record's log at its own sets instead of copying every dict again (at 100,000
    records the copies and their undoing were a third of a structural edit).  Reads made
    between two trackers land in the last one's sets, already frozen into its result: they
    are never seen."""

    def __init__(self, records: list, phase: str = "all", keep: bool = False) -> None:
        self.reads: dict[str, set] = {}
        self.saved: list = []
        #: the records whose ``data`` is a ``_Logged`` while this tracker runs
        self.records: list = []
        #: each phase's read set (``phase``), once ``stop`` returned
        self.phases: dict[str, dict[str, frozenset]] = {}
        self._ended: dict[str, dict[str, set]] = {}
        self.current = phase
        reads, tracked = self.reads, self.records
        for rec in records:
            log = reads.get(rec.kind)
            if log is None:
                log = reads[rec.kind] = set()
            data = rec.data
            if keep and type(data) is _Logged:
                data.log = log
            else:
                wrapped = _Logged(data)
                wrapped.log = log
                if not keep:
                    self.saved.append((rec, data))
                rec.data = wrapped
            tracked.append(rec)

    def phase(self, name: str) -> None:
        """Note what is read from now on apart: the read set of the phase that ends is kept in
        ``phases`` (``stop`` still returns every read of every phase)."""
        self._ended[self.current] = self.reads
        reads = self.reads = {kind: set() for kind in self.reads}
        for rec in self.records:
            rec.data.log = reads[rec.kind]
        self.current = name

    def stop(self) -> dict[str, frozenset]:
        for rec, data in self.saved:
            rec.data = data
        self.saved = []
        self.records = []
        self._ended[self.current] = self.reads
        self.phases = {
            name: {kind: frozenset(log) for kind, log in reads.items()}
            for name, reads in self._ended.items()
        }
        union: dict[str, frozenset] = {}
        for reads in self.phases.values():
            for kind, log in reads.items():
                union[kind] = union.get(kind, frozenset()) | log
        return union


def structure_key(camp: Any, content_dir: Any, cache: Any, slots: list) -> str | None:
    """The key of a campaign's ``Entry``: its folder, manifest and file paths (not their
    models: an edit keeps the key)."""
    from ..content.keys import key

    manifest = cache.put_file(None, camp.manifest)
    if manifest is None:
        return None
    parts: list[bytes | str] = [cache.code, "edit", str(content_dir), camp.folder.as_posix()]
    parts.append(manifest)
    parts += [slot.task[1] for slot in slots]
    return key(*parts)


def _unread(f: Finding) -> bool:
    """A file that cannot be read or parsed, or a record with an error of its own."""
    return f.code in CAUSES or (f.code in RECORD_ERRORS and f.severity == "error")


def broken(findings: list[Finding]) -> bool:
    """A file that cannot be read or parsed, a record with an error of its own, or a reference
    to nothing: each makes ``pipeline.story.fold`` fold other findings under it, which needs the
    graph (the full path)."""
    return any(_unread(f) or f.code in BROKEN_REFERENCES for f in findings)


def only_references(findings: list[Finding]) -> bool:
    """Whether what makes ``findings`` ``broken`` is only references to nothing (no file
    that cannot be read, no record with an error of its own): folding them then needs only
    what lies behind those references (``Entry.behind``), not the graph."""
    return not any(_unread(f) for f in findings)


def attempt(camp: Any, content_dir: Any, cache: Any) -> tuple[list[Finding], dict] | None:
    """The campaign's findings (unfolded: there is no broken file) and statistics from its
    stored ``Entry`` and its changed files only, or ``None`` (take the full path)."""
    slots = camp.slots
    if camp.manifest is None or broken(camp.manifest.findings):
        return None
    skey = structure_key(camp, content_dir, cache, slots)
    if skey is None:
        return None
    entry = cache.get_edit(skey)
    if entry is None or len(entry.slots) != len(slots):
        return None
    if broken(entry.found) and (entry.behind is None or not only_references(entry.found)):
        return None  # stored for ``attempt_structural`` only: its findings must be folded
    if entry.manifest != camp.manifest.findings:
        return None
    changed = [
        i for i, slot in enumerate(slots) if slot.digest is None or slot.digest != entry.slots[i][2]
    ]
    if not changed or len(changed) > MAX_CHANGED:
        return None
    local = list(entry.local)
    models = {}
    for i in changed:
        slot = slots[i]
        rel, old_key, _ = entry.slots[i]
        if slot.digest is None or slot.task[1] != rel or slot.key is None:
            return None
        new = slot.model if slot.model is not None else cache.get_file(slot.key, rel)
        old = cache.get_file(old_key, rel)
        if new is None or old is None or not same_for_checks(old, new, entry.reads):
            return None
        local[i] = list(new.findings)
        models[i] = new
    # the stored result stays exact for the new models: remember it under the new key too
    for i, model in models.items():
        slots[i].model = model
    entry.slots = [(s.task[1], s.key, s.digest) for s in slots]
    entry.local = local
    cache.put_edit(skey, entry)
    cache.quick += 1
    # nothing the graph is built or checked from changed, nor is any file broken: folding
    # comes down to what lies behind the broken references, as the full check found it
    return apply_behind(entry.findings(), entry.behind or {}), entry.stats


def attempt_structural(
    camp: Any, content_dir: Any, cache: Any
) -> tuple[list[Finding], dict, Any] | None:
    """The campaign's findings (folded), statistics and patched story graph after a
    structural edit (a choice added, removed or re-pointed): the graph a previous full check
    stored (``entry.State``) patched where the changed files' references changed (``patch``,
    as the language server's workspace does), then its checks, which ask the game's per-node
    hooks again only about the nodes the edit touched; ``None`` when there is no stored state
    or the patch cannot apply (take the full path).  The files compared are those whose model
    differs from the stored state's (the edits since that full check, up to ``MAX_CHANGED``
    files).  The campaign's ``Entry`` is updated, so that a text edited next is still
    re-checked from it."""
    from ..content.project import Campaign, _absorb
    from . import checks
    from .fold import fold

    slots = camp.slots
    if camp.manifest is None or broken(camp.manifest.findings):
        return None
    skey = structure_key(camp, content_dir, cache, slots)
    if skey is None:
        return None
    entry = cache.get_edit(skey)
    if entry is None or entry.base is None or entry.manifest != camp.manifest.findings:
        return None
    state = cache.get_state(entry.base)
    if state is None or len(state.models) != len(slots):
        return None
    sg, built = state.graph, state.built
    manifest = getattr(getattr(sg, "campaign", None), "manifest", None)
    if manifest is None or not isinstance(built, Built):
        return None
    models = list(state.models)
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    for i, slot in enumerate(slots):
        rel = slot.task[1]
        if models[i].file != rel:
            return None
        if slot.digest is not None and slot.digest == state.digests[i]:
            continue
        if slot.key is None or len(new) >= MAX_CHANGED:
            return None
        model = slot.model if slot.model is not None else cache.get_file(slot.key, rel)
        if model is None:
            return None
        old[rel], new[rel] = models[i], model
        models[i] = model
    if not new:
        return None
    # the campaign as the edit leaves it, its unchanged records those of the stored graph (the
    # manifest's too: the structure key covers it, so the stored one is the same)
    shell = Campaign(
        id=camp.id,
        family=camp.family,
        folder=camp.folder,
        data=camp.data,
        data_pos=camp.data_pos,
        field_pos=camp.field_pos,
    )
    _absorb(shell, manifest)
    for model in models:
        _absorb(shell, model)
    done = patch(sg, built, old, new, shell)
    if done is None:
        return None
    sg, built = done
    tracker = Tracker(shell.records)
    try:
        found = [*built.found, *checks.run(sg)]
    finally:
        reads = tracker.stop()
    # what the build read is unchanged (the patch's condition); the checks' reads now
    for kind, fields in built.reads.items():
        reads[kind] = reads.get(kind, frozenset()) | fields
    stats = patched_stats(state.stats, state.graph, sg) if state.stats else checks.stats(sg)
    mine = fold([*shell.findings, *found], camp.folder, content_dir, sg)
    behind = behind_of(sg)
    mine = apply_behind(mine, behind)
    if not any(broken(m.findings) for m in models):
        entry.slots = [(s.task[1], s.key, s.digest) for s in slots]
        entry.local = [list(m.findings) for m in models]
        entry.found = found
        entry.behind = behind
        entry.stats = stats
        entry.reads = reads
        cache.put_edit(skey, entry)
    cache.patched += 1
    return mine, stats, sg


def search_tree(sg: Any) -> tuple[set, dict]:
    """The nodes reachable from the root of ``sg`` and their levels (``search_levels``):
    what ``patch`` keeps beside the graph (``_reachable``, ``_level``)."""
    return search_levels(sg.graph._succ, sg.root)


def patched_stats(before: dict, old: Any, new: Any) -> dict:
    """``checks.stats`` of ``new``, a graph ``patch`` made from ``old`` (whose statistics are
    ``before``): the nodes are the same, the edges differ only out of the dirty nodes whose
    successors ``patch`` replaced.  Cost: O(nodes) for the unreachable count, O(edges of the
    touched nodes) for the rest."""
    g0, g1 = old.graph, new.graph
    edges = before["edges"]
    edge_kinds = dict(before["edge_kinds"])
    dirty = new.memo.dirty if new.memo is not None else g1._succ
    for node in dirty:
        a, b = g0._succ.get(node), g1._succ.get(node)
        if a is b:
            continue
        for data in (a or {}).values():
            kind = data.get("kind")
            edge_kinds[kind] -= 1
            edges -= 1
        for data in (b or {}).values():
            kind = data.get("kind")
            edge_kinds[kind] = edge_kinds.get(kind, 0) + 1
            edges += 1
    seen = new.reachable_nodes()
    specs = S.KINDS[new.campaign.family]
    kinds = before["kinds"]
    story = {kind for kind in kinds if (spec := specs.get(kind)) is not None and spec.story}
    unreachable = sum(
        1 for n, attrs in g1._node.items() if attrs.get("kind") in story and n not in seen
    )
    return {
        "nodes": before["nodes"],
        "edges": edges,
        "reachable": len(seen),
        "unreachable": unreachable,
        "kinds": dict(kinds),
        "edge_kinds": dict(sorted((k, n) for k, n in edge_kinds.items() if n)),
    }


def same_for_checks(old: Any, new: Any, reads: dict[str, frozenset]) -> bool:
    """Whether the checks over the graph cannot tell ``old`` from ``new`` (two models of one
    file), given what they read."""
    if broken(old.findings) or broken(new.findings):
        return False
    if old.file != new.file or len(old.records) != len(new.records):
        return False
    # compared as pickles: ``1``, ``1.0`` and ``True`` are equal but not the same to a check
    if not _same(
        (old.refs, old.grants, old.conditions, old.words, old.campaign, old.campaign_pos),
        (new.refs, new.grants, new.conditions, new.words, new.campaign, new.campaign_pos),
    ):
        return False
    for a, b in zip(old.records, new.records, strict=True):
        if (a.kind, a.key, a.file, a.line, a.column, a.parent) != (
            b.kind,
            b.key,
            b.file,
            b.line,
            b.column,
            b.parent,
        ):
            return False
        if a.data is b.data or _same(a.data, b.data):
            continue
        read = reads.get(a.kind)
        if read is None or ALL in read:
            return False
        if list(a.data) != list(b.data) and KEYS in read:
            return False
        for k in a.data.keys() | b.data.keys():
            # a field present on one side only: its presence is read through ``in``/``get``
            if k in read and (
                k not in a.data or k not in b.data or not _same(a.data[k], b.data[k])
            ):
                return False
    return True


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``1``, ``1.0`` and ``True`` are equal
    but not the same to a check; ``0.0`` and ``-0.0`` neither)."""
    return a == b and _strict(a, b)


_PLAIN = (str, int, bool, type(None), bytes)


def _strict(a: Any, b: Any) -> bool:
    t, u = type(a), type(b)
    # a record's data the workspace keeps tracked (``Tracker(keep=True)``) is a plain dict
    if t is _Logged:
        t = dict
    if u is _Logged:
        u = dict
    if t is not u:
        return False
    if t in _PLAIN:
        return True
    if t is list or t is tuple:
        return all(map(_strict, a, b))
    if t is dict:
        keys = list(a)
        return (
            keys == list(b) and all(map(_strict, keys, b)) and all(_strict(a[k], b[k]) for k in a)
        )
    if t is float:
        return repr(a) == repr(b)
    reduce = getattr(t, "__reduce__", None)
    if t.__module__ == "pipeline.content.model" and reduce is not object.__reduce__:
        # a model's slots dataclass, pickled as constructor and field values
        return _strict(a.__reduce__()[1], b.__reduce__()[1])
    return False  # anything else: not known to be the same


# --------------------------------------------------------------------------- structural edits


@dataclass
class Built:
    """What building a campaign's graph gave before its checks ran: the workspace keeps it
    beside the graph to patch both (``patch``)."""

    found: list[Finding]  # the build's findings (ID001, REF001)
    unknown: list  # ``StoryGraph.unknown`` once built
    meant: list  # ``StoryGraph.meant`` once built
    reads: dict[str, frozenset]  # what the build read of each kind of record


def _mentions(model: Any, nodes: Any) -> list:
    return [
        (r.source, r.kinds, r.key, r.path)
        for r in model.refs
        if r.edge is None or r.source not in nodes
    ]


def _changed_fields(a: Any, b: Any) -> set | None:
    """The fields of two versions of one record whose values differ (``None``: the list of
    fields itself differs in order only, which a read of every key can tell)."""
    if a.data is b.data or _same(a.data, b.data):
        return set()
    out = {k for k in a.data.keys() | b.data.keys() if k not in a.data or k not in b.data}
    out |= {k for k in a.data.keys() & b.data.keys() if not _same(a.data[k], b.data[k])}
    if not out:
        return None
    return out


@dataclass
class _Edit:
    """What comparing an edit's files found (``_compare_files``): the records it keeps (node ->
    its new version), the nodes whose data changed, the sources whose edges are made again, and
    whether a mention was added, removed or moved (then ``mentioned`` is made again)."""

    moved: dict[str, Any] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    remention: bool = False


def _keeps_records(before: Any, after: Any, records: dict, reads: dict, edit: _Edit) -> bool:
    """Whether ``after`` defines the records of ``before`` (kind, key, parent, in order), each
    the one the graph holds, with no field changed that the build read; notes each record
    in ``edit`` (and as dirty when its data changed)."""
    if len(before.records) != len(after.records):
        return False
    for a, b in zip(before.records, after.records, strict=True):
        if (a.kind, a.key, a.parent) != (b.kind, b.key, b.parent):
            return False
        node = b.node
        if node not in records or records[node] is not a:
            return False  # defined twice, or not the record the graph holds
        fields = _changed_fields(a, b)
        read = reads.get(a.kind, frozenset())
        if fields is None:
            if KEYS in read or ALL in read:
                return False
        elif fields:
            if ALL in read or (KEYS in read and list(a.data) != list(b.data)):
                return False
            if fields & read:
                return False
            edit.dirty.add(node)
        edit.moved[node] = b
    return True


def _note_sources(sg: Any, rel: str, before: Any, after: Any, edit: _Edit) -> bool:
    """Whether every edge the file ``rel`` makes, before and after the edit, leaves one of its
    own records other than the root; notes those records in ``edit.sources``."""
    records, nodes = sg.records, sg.graph._node
    for ref in (*before.refs, *after.refs):
        if ref.edge is None or ref.source not in nodes:
            continue
        rec = records.get(ref.source)
        if ref.source == sg.root or rec is None or rec.file != rel:
            return False
        edit.sources.add(ref.source)
    return True


def _compare_files(sg: Any, reads: dict, old: dict[str, Any], new: dict[str, Any]) -> _Edit | None:
    """Checking the edit keeps every record: each changed file reads, parses and validates
    before and after, keeps its records and the campaign's own fields, and its edges leave its
    own records; ``None`` when one does not (``patch`` then gives up)."""
    edit = _Edit()
    nodes = sg.graph._node
    for rel, before in old.items():
        after = new[rel]
        if broken(before.findings) or broken(after.findings) or before.file != after.file:
            return None
        if not _keeps_records(before, after, sg.records, reads, edit):
            return None
        if not _same((before.campaign, before.campaign_pos), (after.campaign, after.campaign_pos)):
            return None
        if _mentions(before, nodes) != _mentions(after, nodes):
            edit.remention = True
        if not _note_sources(sg, rel, before, after, edit):
            return None
    return edit


def _targets(shell: Any, by_kinds: set, ref: Any) -> list[str]:
    """The nodes a reference leads to in the edited campaign (``shell``)."""
    from . import graph as G

    kinds_ = ref.kinds
    if len(kinds_) == 1 and kinds_[0] not in by_kinds:
        target = f"{kinds_[0]}:{ref.key}"
        return [target] if target in shell.records else []
    return G.resolve(shell, kinds_, ref.key)


def _condition(shell: Any, by_kinds: set, ref: Any, target: str, read_now: set[str]) -> Any:
    """A reference's condition on its edge to ``target``: a reference through a field
    (``resolve_by``) also needs the scenario of the version it reaches, read as
    ``graph.build`` reads it (so a later edit of that field is not kept: ``read_now``)."""
    cond = ref.condition
    kinds_ = ref.kinds
    if len(kinds_) == 1 and kinds_[0] in by_kinds:
        read_now.add(kinds_[0])
        # a version proper to one of the kind's guards (``IdFormat.guards``) is only taken there
        for name in S.KINDS[shell.campaign.family][kinds_[0]].id_format.guards:
            value = shell.records[target].data.get(name)
            if value:
                cond = (*(cond or ()), (name, value))
    return cond


def _source_edges(
    shell: Any, by_kinds: set, refs: list, implicit: list, read_now: set[str]
) -> dict[str, dict]:
    """Making a touched source's edges as ``graph.build`` makes them: its references in order
    (a second one to the same target counts), then the game's implicit edges."""
    out: dict[str, dict] = {}
    for ref in refs:
        if ref.edge is None:
            continue  # a mention: no edge (``_mentioned``)
        for target in _targets(shell, by_kinds, ref):  # none: a reference to nothing
            known = out.get(target)
            if known is not None:
                known["count"] += 1
                continue
            out[target] = {
                "count": 1,
                "kind": ref.edge,
                "condition": _condition(shell, by_kinds, ref, target, read_now),
                "context": ref.context,
                "file": ref.file,
                "line": ref.line,
                "column": ref.column,
            }
    for e in implicit:
        known = out.get(e.target)
        if known is not None:
            known["count"] += 1
        else:
            out[e.target] = {
                "count": 1,
                "kind": e.kind,
                "condition": e.condition,
                "context": e.context,
            }
    return out


def _remade_edges(
    sg: Any, shell: Any, old: dict[str, Any], new: dict[str, Any], edit: _Edit, read_now: set[str]
) -> tuple[Any, dict, list]:
    """The graph with each touched source's edges made again (``_source_edges``), sharing
    every untouched node's dicts with ``sg.graph``; with its successors and the edges that
    went away.  A source whose edges changed is dirty."""
    g = sg.graph
    g2 = type(g)()
    g2.graph.update((k, v) for k, v in g.graph.items() if k not in ("_reachable", "_level"))
    node2, succ2, pred2 = dict(g._node), dict(g._succ), dict(g._pred)
    for node, rec in edit.moved.items():
        attrs = node2[node]
        if (attrs["file"], attrs["line"], attrs["column"]) != (rec.file, rec.line, rec.column):
            node2[node] = {**attrs, "file": rec.file, "line": rec.line, "column": rec.column}
    by_kinds = set(sg.by_field)
    mine: dict[str, list] = {s: [] for s in edit.sources}
    for rel in old:
        for ref in new[rel].refs:
            if ref.source in mine:
                mine[ref.source].append(ref)
    implicit: dict[str, list] = {}
    for e in sg.implicit:
        if e.source in mine:
            implicit.setdefault(e.source, []).append(e)
    removed: list = []
    copied: set[str] = set()

    def pred_of(target: str) -> dict:
        if target not in copied:
            pred2[target] = dict(pred2[target])
            copied.add(target)
        return pred2[target]

    for source in sorted(edit.sources):
        out = _source_edges(shell, by_kinds, mine[source], implicit.get(source, []), read_now)
        before_out = g._succ[source]
        if before_out == out:
            succ2[source] = before_out  # the same edges: nothing to re-ask about this node
            continue
        edit.dirty.add(source)
        for target in before_out:
            if target not in out:
                del pred_of(target)[source]
                removed.append((source, target))
        for target, data in out.items():
            pred_of(target)[source] = data
        succ2[source] = out
    g2._node, g2._succ, g2._pred = node2, succ2, pred2
    return g2, succ2, removed


def _build_findings(
    built: Built, shell: Any, camp: Any, old: dict[str, Any], new: dict[str, Any]
) -> tuple[list, list, list] | None:
    """The build's findings again: those of the unchanged files kept, those of the changed
    files (references to nothing) made again; ``None`` when one names no number (its message
    and its meaning then depend on the whole graph)."""
    from . import graph as G

    changed = set(old)
    found = [f for f in built.found if f.file not in changed]
    unknown = [(f, k) for f, k in built.unknown if f.file not in changed]
    meant = [(f, n) for f, n in built.meant if f.file not in changed]
    broken_refs: list = []
    for rel in old:
        for ref in new[rel].refs:
            if not G.resolve(shell, ref.kinds, ref.key):
                if not ref.key.isdigit():
                    return None
                broken_refs.append(ref)
    if broken_refs:
        renamed = G._renamed_to(shell.records)
        for ref in broken_refs:
            meant_node = G._meant(shell, ref, renamed)
            finding = G._unknown(ref, {}, camp.family, meant_node)
            found.append(finding)
            unknown.append((finding, ref.key))
            if meant_node is not None:
                meant.append((finding, meant_node))
    return found, unknown, meant


def _mentioned(sg: Any, shell: Any, camp: Any, remention: bool) -> dict[str, str]:
    """The mentions: ``sg``'s when none moved, else made as ``graph.build`` makes them (the
    first mention of each node, in order)."""
    from . import graph as G

    if not remention:
        return sg.mentioned
    nodes = sg.graph._node
    mentioned: dict[str, str] = {}
    for ref in camp.refs:
        if ref.edge is None or ref.source not in nodes:
            for target in G.resolve(shell, ref.kinds, ref.key):
                mentioned.setdefault(target, ref.path)
    return mentioned


def patch(
    sg: Any, built: Built | None, old: dict[str, Any], new: dict[str, Any], camp: Any
) -> tuple[Any, Built] | None:
    """The story graph of ``camp`` (the campaign with the files ``new`` in place of ``old``,
    path -> model), made from ``sg`` by re-doing only the edges of the records whose
    references changed: the same graph a cold ``graph.build(camp)`` makes, with its nodes,
    edges, reachable set and the build's findings; ``None`` when the edit may change
    anything else (then build it again).

    The edit may add, remove or re-point references (mentions too: references that make no
    edge), and change fields the build did not read (``built.reads``); it must keep every
    record (kind, key, parent, in order; positions may move) and the campaign's own fields, and
    every reference to nothing must be a number (its message then names no other node).  The new
    graph shares every untouched node's dicts with ``sg``, which is never modified.  Its
    ``memo`` marks as dirty the nodes whose data or edges changed: the per-node hooks of the
    checks are asked again about those only.  Cost: O(changed files + nodes of the graph's
    top-level dicts), plus one search when an edge into reachable content went away."""
    from . import graph as G

    if sg.implicit_reads_edges or built is None:
        return None
    if any(f.code == "ID001" for f in built.found):
        return None
    if not all(key.isdigit() for _, key in built.unknown):
        return None
    edit = _compare_files(sg, built.reads, old, new)
    if edit is None:
        return None
    new_records = dict(sg.records)
    new_records.update(edit.moved)
    shell = G.StoryGraph(camp, sg.graph, sg.root, new_records, sg.by_field)
    read_now: set[str] = set()  # kinds whose guards (``IdFormat.guards``) the new edges read
    g2, succ2, removed = _remade_edges(sg, shell, old, new, edit, read_now)
    clear = getattr(G.nx, "_clear_cache", None)
    if clear is not None:
        clear(g2)
    findings = _build_findings(built, shell, camp, old, new)
    if findings is None:
        return None
    found, unknown, meant = findings
    sg2 = G.StoryGraph(
        camp,
        g2,
        sg.root,
        new_records,
        sg.by_field,
        _mentioned(sg, shell, camp, edit.remention),
        unknown=list(unknown),
        meant=list(meant),
        implicit=sg.implicit,
        memo=G.Memo(sg.memo, frozenset(edit.dirty), removed),
    )
    seen = sg.graph.graph.get("_reachable")
    if seen is not None:
        level = sg.graph.graph.get("_level")
        g2.graph["_reachable"], g2.graph["_level"] = _reach(
            seen, level, removed, succ2, g2._pred, edit.sources, sg.root
        )
    reads = dict(built.reads)
    for kind in read_now:
        guards = frozenset(S.KINDS[camp.family][kind].id_format.guards)
        reads[kind] = reads.get(kind, frozenset()) | guards
    return sg2, Built(found, unknown, meant, reads)


def _reach(
    seen: set,
    level: dict | None,
    removed: list,
    succ: dict,
    pred: dict,
    sources: set,
    root: str,
) -> tuple[set, dict]:
    """The nodes reachable from ``root`` once the edges of ``sources`` changed (``removed``:
    the edges that went away), with their levels (``_level``): the root is at 0 and every
    other reached node has a predecessor reached at a lower level, its support — so each one
    is reached through its supports, down to the root.

    First what the new edges open (a node they reach sooner is moved down to that level: no
    support is lost by it).  Then only the nodes a removed edge may cut off are looked at:
    those that lost an edge from a lower level and have no other support, then, level by
    level, the nodes whose supports were all among those (``orphans``).  What reaches an
    orphan from outside reaches it again; what does not is unreachable now.  Without levels
    (a graph just built), or when the orphans are many (``_MAX_ORPHANS``: the search would
    cost as much), one search from the root."""
    if level is None:
        return search_levels(succ, root)
    out = set(seen)
    level = dict(level)
    grown: dict[str, int] = {}
    for s in sources:
        if s in out:
            up = level[s] + 1
            for t in succ[s]:
                if t not in out:
                    if grown.get(t, up) >= up:
                        grown[t] = up
                elif level[t] > up:
                    level[t] = up
    if grown:
        out, level = _search(succ, level, list(grown), grown, out)
    work = [t for s, t in removed if s in out and t in out and level[s] < level[t]]
    orphans: set[str] = set()
    budget = max(_MAX_ORPHANS, len(out) // 50)  # past it, the search is cheaper
    while work:
        budget -= 1
        if budget < 0:
            return search_levels(succ, root)
        u = work.pop()
        if u in orphans:
            continue
        lv = level[u]
        if any(p in out and p not in orphans and level[p] < lv for p in pred[u]):
            continue  # still supported
        # a predecessor above it that the root reaches without it: it moves up under that one
        above = next(
            (
                p
                for p in pred[u]
                if p in out and p not in orphans and _path_up(p, u, pred, level, out, orphans)
            ),
            None,
        )
        if above is not None:
            level[u] = level[above] + 1
        else:
            orphans.add(u)
        work.extend(v for v in succ[u] if v in out and lv < level[v] and v not in orphans)
    if orphans:
        out -= orphans
        for u in orphans:
            del level[u]
        # an orphan with a predecessor still reached is reached again, and what it reaches
        seeds = {}
        for u in orphans:
            lows = [level[p] for p in pred[u] if p in out]
            if lows:
                seeds[u] = min(lows) + 1
        out, level = _search(succ, level, list(seeds), seeds, out)
    return out, level


#: nodes ``_reach`` looks at past which it searches from the root instead (or 2 % of them)
_MAX_ORPHANS = 200


def _path_up(node: str, avoid: str, pred: dict, level: dict, out: set, orphans: set) -> bool:
    """Whether a path of edges from the root reaches ``node`` without ``avoid`` or an orphan:
    walked down from ``node`` by predecessors of ever lower levels (so it ends)."""
    while level[node] > 0:
        lv = level[node]
        node = next(
            (
                p
                for p in pred[node]
                if p in out and p != avoid and p not in orphans and level[p] < lv
            ),
            "",
        )
        if not node:
            return False
    return True


def search_levels(succ: dict, root: str) -> tuple[set, dict]:
    """The nodes reachable from ``root`` and their levels, as ``_reach`` keeps them."""
    return _search(succ, {root: 0}, [root])


def _search(
    succ: dict,
    level: dict,
    start: list,
    start_levels: dict | None = None,
    out: set | None = None,
) -> tuple[set, dict]:
    """``out`` (reached nodes) and ``level`` grown by a search from ``start`` (not in
    ``out``; at ``start_levels``, else at their level in ``level``): each node found is one
    level above the node it was found from."""
    out = set(level) if out is None else out
    if start_levels:
        level.update(start_levels)
    out.update(start)
    queue = deque(start)  # breadth first: low levels, so most nodes have several supports
    while queue:
        n = queue.popleft()
        up = level[n] + 1
        for m in succ[n]:
            if m not in out:
                out.add(m)
                level[m] = up
                queue.append(m)
    return out, level
