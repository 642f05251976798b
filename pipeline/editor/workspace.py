"""Campaigns held in memory and re-checked edit by edit: what ``gamebook lsp`` answers from.

``gamebook check`` reads a folder from disk; an editor has unsaved texts and wants an answer
per keystroke.  A ``Workspace`` keeps, for each campaign folder it was asked about, every
file's validated model (``pipeline.content.model.FileModel``), the story graph and what the graph's
checks found, with the read set of those checks (``pipeline.story.incremental.Tracker``).  When
texts change, only the changed files are parsed and validated again; then:

- if every changed model is, for the checks, the same as before (``same_for_checks``: same
  records, references, grants, conditions and words, and every field that differs is one the
  checks never read) — a text typed, a title changed — the graph's findings are kept and only
  those files' own findings are new (a few milliseconds);
- if the models only moved down or up by whole lines (a line added or removed inside a text),
  the same holds once their positions are shifted back, and the kept findings of those files
  are shifted with them;
- if the models keep every record but their references changed (a choice added, removed or
  re-pointed, lines added or removed anywhere), the graph is patched where those references
  were (``incremental.patch``: the edges of the touched records only) and its checks run again,
  asking the game's per-node hooks only about the nodes whose data or edges changed;
- anything else (an id renamed, a record added, a file that does not parse) builds the graph
  again from the models in memory: no file is read again, none is copied.

The result is the same as a cold ``check`` of the folder with the texts written in it
(``tests/test_workspace.py`` compares them edit after edit).  A file whose text does not parse
keeps its last good model in ``Analysis.good`` for completion and hover.
"""

from __future__ import annotations

import dataclasses
import gc
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from ..content.load import parse_bytes, read_file
from ..content.model import FileModel, Record, validate
from ..content.project import (
    CAMPAIGN_FILE,
    Campaign,
    _absorb,
    _present,
    _yaml_files,
    manifest_model,
)
from ..findings import CAUSES, Finding
from ..story.fold import fold, fold_behind
from ..story.incremental import Built, Tracker, broken, patch, same_for_checks, search_levels


class _Stale(Exception):
    """A newer edit is waiting: the analysis under way stops (``Workspace.analyse``)."""


def campaign_folder(path: Path) -> Path | None:
    """The campaign folder a content file belongs to (the nearest ``campaign.yaml``)."""
    for folder in [path.parent, *path.parents]:
        if (folder / CAMPAIGN_FILE).is_file():
            return folder.resolve()
    return None


@dataclass
class Analysis:
    """One check of one campaign folder, as the editor's texts stood (immutable once made)."""

    folder: Path
    findings: list[Finding]
    graph: Any  # pipeline.story.graph.StoryGraph, or None when the manifest has no game
    campaign: Campaign | None
    #: each file's last model without a parse error (rel -> model)
    good: dict[str, FileModel] = field(default_factory=dict)
    #: how this analysis was made: "full", "kept" (same for the checks), "shifted" or
    #: "patched" (a structural edit: ``incremental.patch``)
    path: str = "full"
    #: the texts it was made from (rel -> text)
    texts: dict[str, str] = field(default_factory=dict)
    #: rel -> where its references are in ``campaign.refs`` (start, end): the campaign's
    #: references are its files' one after the other
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: rel -> line -> the references written there, made per file on first use
    _refs: dict[str, dict[int, list]] = field(default_factory=dict)
    #: key -> nodes: handed on from the analysis before when the records are the same
    _keys: dict[str, list[str]] | None = None
    _index: dict[str, Record] | None = None
    #: what the editor's requests derive from the records (``lsp.completions``' candidates),
    #: handed on with ``_keys``
    memo: dict = field(default_factory=dict)
    #: what the files' names are relative to (``analyse``'s ``root``; ``None``: ``folder``)
    base: Path | None = None

    def real(self, rel: str) -> Path:
        return (self.base or self.folder) / rel

    def findings_by_file(self) -> dict[Path, list[Finding]]:
        out: dict[Path, list[Finding]] = {}
        for f in self.findings:
            out.setdefault(self.real(f.file), []).append(f)
        return out

    def refs_at(self, rel: str, line: int) -> list:
        """The references written on one line of one file (that file's table made on first
        use: a hover reads one file, not the campaign's 200,000 references)."""
        table = self._refs.get(rel)
        if table is None:
            table = {}
            refs = self.campaign.refs if self.campaign else []
            span = self.spans.get(rel)
            mine = refs[span[0] : span[1]] if span else [r for r in refs if r.file == rel]
            for ref in mine:
                if ref.file == rel:
                    table.setdefault(ref.line, []).append(ref)
            self._refs[rel] = table
        return table.get(line, [])

    def warm(self) -> Analysis:
        """Build the look-up tables hover, definition and completion read (in the worker
        thread, so that the first hover after a check does not pay for them; after an edit
        that kept every record, they are the analysis before's)."""
        self.nodes_with_key("")
        g = self.graph.graph if self.graph is not None else None
        if g is not None and "_level" not in g.graph and g.graph.get("_reachable") is not None:
            # the levels a structural edit's patch keeps reachability by (``incremental._reach``):
            # made here, after the diagnostics, rather than by the next edit's check
            reached, level = search_levels(g._succ, self.graph.root)
            if reached == g.graph["_reachable"]:
                g.graph["_level"] = level
        return self

    @property
    def index(self) -> dict[str, Record]:
        """Every record the editor can name (node -> record): the graph's, plus the last good
        records of each file that does not parse now (a YAML error does not make a file's
        records vanish from completion and hover)."""
        if self._index is None:
            index = dict(self.graph.records) if self.graph else {}
            broken = {f.file for f in self.findings if f.code in _UNREAD}
            for rel in sorted(broken):
                model = self.good.get(rel)
                for rec in model.records if model else ():
                    index.setdefault(rec.node, rec)
            self._index = index
        return self._index

    def nodes_with_key(self, word: str) -> list[str]:
        """Nodes whose key is ``word`` (numbers by value: « 07 » is « 7 »)."""
        if self._keys is None:
            keys: dict[str, list[str]] = {}
            for node, rec in self.index.items():
                keys.setdefault(_norm(rec.key), []).append(node)
            self._keys = keys
        return self._keys.get(_norm(word), [])


#: findings that mean a file could not be read or parsed
_UNREAD = CAUSES


def _freeze() -> None:
    """Move every object alive now to the collector's permanent generation.

    What a workspace holds (a 100,000-node campaign: several million models, records and
    edges) lives until a later analysis replaces part of it, and it is acyclic: it is freed by
    reference counting (``tests/test_workspace.py`` checks that an analysis of each kind
    leaves no cyclic garbage).  Left to the cyclic collector, the objects an analysis made with
    collection off are all scanned by the first collection after it, promoted, scanned again
    by the older generations, and every later full collection — in the server's thread too,
    while a hover waits — rescans the whole campaign: at 100k nodes 1.5 s, 1.5 s then 3 s of
    pauses after each edit (load 4).  Frozen, they are never scanned."""
    gc.freeze()


def _norm(key: str) -> str:
    return str(int(key)) if key.isascii() and key.isdigit() and len(key) < 30 else key


class _Held:
    """What the workspace keeps of one campaign folder between two analyses."""

    def __init__(self, folder: Path, base: Path | None = None) -> None:
        self.folder = folder
        #: what the files' names are relative to (``folder`` itself unless ``analyse`` was
        #: given a ``root``), and the manifest's name
        self.base = base or folder
        self.prefix = _prefix(folder, self.base)
        self.manifest_name = self.prefix + CAMPAIGN_FILE
        #: rel -> what each file was analysed from: the editor's text, or the file's
        #: (mtime, size) on disk
        self.texts: dict[str, Any] = {}
        self.models: dict[str, FileModel] = {}
        self.good: dict[str, FileModel] = {}
        self.manifest: FileModel | None = None
        self.family: str | None = None
        self.found: list[Finding] = []  # the graph's and its checks' findings
        self.reads: dict[str, frozenset] = {}
        #: what building the graph gave, to patch it (``incremental.patch``)
        self.built: Built | None = None
        self.graph: Any = None
        self.campaign: Campaign | None = None
        self.spans: dict[str, tuple[int, int]] = {}
        self.last: Analysis | None = None


class Workspace:
    """Campaign folders held in memory.  ``analyse(folder, texts)`` is thread-safe (one analysis
    at a time); an ``Analysis`` once returned never changes."""

    def __init__(self) -> None:
        self._held: dict[Path, _Held] = {}
        self._lock = threading.Lock()
        self.counts = {"full": 0, "kept": 0, "shifted": 0, "patched": 0, "stopped": 0}
        self._stale: Callable[[], bool] | None = None

    def last(self, folder: Path) -> Analysis | None:
        held = self._held.get(folder.resolve())
        return held.last if held else None

    def folders(self) -> list[Path]:
        """The campaign folders held."""
        return list(self._held)

    def forget(self, folder: Path) -> None:
        """Drop what is held of ``folder``: its next analysis is a full one."""
        with self._lock:
            self._held.pop(folder.resolve(), None)

    @overload
    def analyse(
        self, folder: Path, texts: dict[Path, str], *, root: Path | None = None
    ) -> Analysis: ...

    @overload
    def analyse(
        self,
        folder: Path,
        texts: dict[Path, str],
        stale: Callable[[], bool],
        *,
        root: Path | None = None,
    ) -> Analysis | None: ...

    def analyse(
        self,
        folder: Path,
        texts: dict[Path, str],
        stale: Callable[[], bool] | None = None,
        *,
        root: Path | None = None,
    ) -> Analysis | None:
        """Check ``folder`` with the unsaved ``texts`` (real path -> text) in place of their
        files; the other files as they are on disk.

        ``stale``: asked between the steps of a structural edit's check (once the changed
        files are parsed, then before each check over the graph); when it says the texts
        are out of date (a newer edit is waiting), the work stops and ``None`` comes back,
        with the workspace as the last finished analysis left it.  A full analysis is never
        stopped.

        ``root``: a folder holding ``folder`` that the files are named from, as ``gamebook
        check`` of that folder names them (``livre/partie-1.yaml``; by default, from
        ``folder``)."""
        folder = folder.resolve()
        base = root.resolve() if root is not None else folder
        with self._lock:
            enabled = gc.isenabled()
            gc.disable()  # millions of small long-lived objects: see ``report.check``
            self._stale = stale
            try:
                return self._analyse(folder, texts, base)
            except _Stale:
                self.counts["stopped"] += 1
                return None
            finally:
                self._stale = None
                _freeze()
                if enabled:
                    gc.enable()

    def _check_stale(self) -> None:
        if self._stale is not None and self._stale():
            raise _Stale

    # ------------------------------------------------------------------ inside the lock

    def _analyse(self, folder: Path, texts: dict[Path, str], base: Path) -> Analysis:
        held = self._held.get(folder)
        if held is not None and held.base != base:
            held = None  # named from another root: nothing held applies
        prefix = _prefix(folder, base)
        manifest = prefix + CAMPAIGN_FILE
        # the editor's texts of files not on disk yet (a new file, unsaved) are content files
        # of the campaign as they would be once saved
        rels = [prefix + rel for rel in self._files(folder, list(texts))]
        overlay: dict[str, str] = {}
        for path, text in texts.items():
            try:
                rel = prefix + path.resolve().relative_to(folder).as_posix()
            except ValueError:
                continue
            if rel == manifest or rel in rels:
                overlay[rel] = text
        if held is None or held.manifest is None:
            held = self._held[folder] = _Held(folder, base)
            return self._full(held, rels, overlay)
        wanted = {manifest, *rels}
        if set(held.texts) != wanted:  # a file appeared or went away
            return self._full(held, rels, overlay)
        now = {rel: _version(base, rel, overlay) for rel in wanted}
        if now[manifest] != held.texts[manifest]:
            return self._full(held, rels, overlay)
        changed = sorted(rel for rel in wanted if now[rel] != held.texts[rel])
        if not changed and held.last is not None:
            return held.last
        new = {rel: self._model(held, rel, overlay.get(rel)) for rel in changed}
        self._check_stale()  # nothing of ``held`` changed yet
        shifts: dict[str, tuple[int, int]] = {}
        for rel, model in new.items():
            old = held.models[rel]
            if broken(model.findings) or broken(old.findings):
                return self._full(held, rels, overlay, new)
            if same_for_checks(old, model, held.reads):
                continue
            before, after = held.texts[rel], now[rel]
            shift = (
                _line_shift(before, after)
                if isinstance(before, str) and isinstance(after, str)
                else None
            )
            if shift is None or not same_for_checks(_shifted(old, *shift), model, held.reads):
                return self._patched(held, rels, overlay, new, now)
            shifts[rel] = shift
        # the checks cannot tell the new models from the old: keep what they found
        for rel, model in new.items():
            held.models[rel] = model
            held.texts[rel] = now[rel]
            held.good[rel] = model
        for rel, (after, delta) in shifts.items():
            held.found = [
                dataclasses.replace(f, line=f.line + delta)
                if f.file == rel and f.line > after
                else f
                for f in held.found
            ]
        camp = self._campaign(held, rels)
        if held.graph is not None:
            for rel in new:
                for rec in held.models[rel].records:
                    mine = held.graph.records.get(rec.node)
                    if mine is not None and mine.file == rel:
                        held.graph.records[rec.node] = rec
            held.graph.campaign = camp
        held.campaign = camp
        how = "shifted" if shifts else "kept"
        self.counts[how] += 1
        return self._finish(held, camp, how, overlay)

    def _files(self, folder: Path, unsaved: list[Path] | None = None) -> list[str]:
        """The content files of ``folder`` (names relative to it) in ``check``'s order: those
        on disk, and those of ``unsaved`` (the editor's buffers) that are not on disk yet but
        would be content files of the campaign once saved."""
        out = []
        nested: dict[Path, bool] = {}  # a folder below ``folder`` -> holds a campaign.yaml

        def inside_another(path: Path) -> bool:
            for p in path.parents:
                if p == folder or folder not in p.parents:
                    return False
                hit = nested.get(p)
                if hit is None:
                    hit = nested[p] = _present(p / CAMPAIGN_FILE)
                if hit:
                    return True
            return False

        paths = _yaml_files(folder)
        if unsaved:
            on_disk = set(paths)
            for path in unsaved:
                path = path.resolve()
                if path in on_disk or folder not in path.parents or _present(path):
                    continue
                parts = path.relative_to(folder).parts
                if path.suffix in (".yaml", ".yml") and not any(
                    part.startswith(".") for part in parts
                ):
                    paths.append(path)
            paths.sort()
        for path in paths:
            if path == folder / CAMPAIGN_FILE:
                continue
            if inside_another(path):
                continue  # a nested campaign folder is its own campaign
            out.append(path.relative_to(folder).as_posix())
        return out

    def _model(self, held: _Held, rel: str, text: str | None) -> FileModel:
        """One file validated, from the editor's text or from the disk."""
        assert held.family is not None
        if text is None:
            doc, found = read_file(held.base / rel, rel)
        else:
            doc, found = parse_bytes(text.encode("utf-8", "surrogatepass"), rel)
        model = validate(held.family, rel, doc, False)
        model.findings[:0] = found
        return model

    def _manifest(self, held: _Held, text: str | None) -> None:
        rel = held.manifest_name
        if text is None:
            doc, found = read_file(held.base / rel, rel)
        else:
            doc, found = parse_bytes(text.encode("utf-8", "surrogatepass"), rel)
        held.manifest, held.family = manifest_model(rel, doc, found)

    def _full(
        self,
        held: _Held,
        rels: list[str],
        overlay: dict[str, str],
        new: dict[str, FileModel] | None = None,
    ) -> Analysis:
        from ..story import checks, graph
        from ..story.graph import Memo

        old_family = held.family
        previous = held.texts
        self._manifest(held, overlay.get(held.manifest_name))
        held.texts = {held.manifest_name: _version(held.base, held.manifest_name, overlay)}
        self.counts["full"] += 1
        if held.family is None:
            held.models, held.graph, held.campaign, held.found = {}, None, None, []
            assert held.manifest is not None
            return self._store(
                held,
                Analysis(held.folder, list(held.manifest.findings), None, None, base=held.base),
            )
        models: dict[str, FileModel] = {}
        for rel in rels:
            version = _version(held.base, rel, overlay)
            same_game = held.family == old_family
            if new is not None and rel in new and same_game:
                models[rel] = new[rel]
            elif same_game and rel in held.models and previous.get(rel) == version:
                models[rel] = held.models[rel]
            else:
                models[rel] = self._model(held, rel, overlay.get(rel))
            held.texts[rel] = version
            if not any(f.code in _UNREAD for f in models[rel].findings):
                held.good[rel] = models[rel]
        held.good = {rel: m for rel, m in held.good.items() if rel in models}
        held.models = models
        camp = self._campaign(held, rels)
        tracker = Tracker(camp.records, "build", keep=True)
        try:
            sg, made = graph.build(camp)
            built = Built(made, list(sg.unknown), list(sg.meant), {})
            tracker.phase("checks")
            sg.memo = Memo()
            found = [*made, *checks.run(sg)]
        finally:
            reads = tracker.stop()
        built.reads = tracker.phases["build"]
        held.graph, held.found, held.reads, held.campaign = sg, found, reads, camp
        held.built = built
        return self._finish(held, camp, "full", overlay)

    def _patched(
        self,
        held: _Held,
        rels: list[str],
        overlay: dict[str, str],
        new: dict[str, FileModel],
        now: dict[str, Any],
    ) -> Analysis:
        """A structural edit (a choice added, removed or re-pointed): the graph patched
        where the references changed (``incremental.patch``), then its checks, which ask the
        game's per-node hooks again only about the nodes the edit touched."""
        from ..story import checks

        old = {rel: held.models[rel] for rel in new}
        models = {**held.models, **new}
        previous = held.models
        held.models = models
        camp = self._campaign(held, rels)
        done = patch(held.graph, held.built, old, new, camp) if held.graph is not None else None
        if done is None:
            held.models = previous
            return self._full(held, rels, overlay, new)
        sg, built = done
        tracker = Tracker(camp.records, keep=True)
        try:
            # the patched graph is new (the held one is never modified): stopping here only
            # needs the held models put back
            found = [*built.found, *checks.run(sg, between=self._check_stale)]
        except _Stale:
            held.models = previous
            raise
        finally:
            reads = tracker.stop()
        # what the build read is unchanged (the patch's condition); the checks' reads now,
        # and those before: the per-node hooks were asked only about the touched nodes, so
        # what they read of the others' kinds is known from the checks before only
        for table in (built.reads, held.reads):
            for kind, fields in table.items():
                reads[kind] = reads.get(kind, frozenset()) | fields
        for rel, model in new.items():
            held.texts[rel] = now[rel]
            held.good[rel] = model
        held.graph, held.found, held.reads, held.campaign = sg, found, reads, camp
        held.built = built
        self.counts["patched"] += 1
        return self._finish(held, camp, "patched", overlay)

    def _campaign(self, held: _Held, rels: list[str]) -> Campaign:
        manifest = held.manifest
        assert manifest is not None and held.family is not None
        data = manifest.campaign or {}
        camp = Campaign(
            id=str(data.get("id", held.folder.name)),
            family=held.family,
            folder=held.folder,
            data=data,
            data_pos=(manifest.file, *manifest.campaign_pos),
            field_pos=manifest.campaign_fields,
        )
        _absorb(camp, manifest)
        spans = {held.manifest_name: (0, len(camp.refs))}
        for rel in rels:
            start = len(camp.refs)
            _absorb(camp, held.models[rel])
            spans[rel] = (start, len(camp.refs))
        held.spans = spans
        return camp

    def _finish(self, held: _Held, camp: Campaign, path: str, overlay: dict[str, str]) -> Analysis:
        texts = {rel: text for rel, text in overlay.items()}
        mine = fold([*camp.findings, *held.found], held.folder, held.base, held.graph, texts)
        mine = fold_behind(mine, held.graph)
        mine.sort(key=Finding.sort_key)
        a = Analysis(held.folder, mine, held.graph, camp, dict(held.good), path, texts, held.spans)
        a.base = held.base
        if path != "full" and held.last is not None:
            # every record kept (kind, key, parent: ``same_for_checks``, ``patch``), and no
            # file that did not parse is another now: the same nodes under the same keys
            a._keys = held.last._keys
            a.memo = held.last.memo
        return self._store(held, a)

    @staticmethod
    def _store(held: _Held, a: Analysis) -> Analysis:
        held.last = a
        return a


def _prefix(folder: Path, base: Path) -> str:
    """What the names of ``folder``'s files begin with when they are named from ``base``."""
    return "" if folder == base else folder.relative_to(base).as_posix() + "/"


def _version(folder: Path, rel: str, overlay: dict[str, str]) -> Any:
    """What a file is analysed from: the editor's text, else its (mtime, size) on disk."""
    text = overlay.get(rel)
    if text is not None:
        return text
    try:
        st = (folder / rel).stat()
    except OSError:
        return ("missing",)
    return ("disk", st.st_mtime_ns, st.st_size, st.st_ino)


def _line_shift(old: str, new: str) -> tuple[int, int] | None:
    """(last line before the edit, lines added) when ``new`` is ``old`` with lines inserted or
    removed in one place; ``None`` when the change is anything else."""
    a, b = old.split("\n"), new.split("\n")
    delta = len(b) - len(a)
    if delta == 0:
        return None
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end = 0
    while end < limit - start and a[-1 - end] == b[-1 - end]:
        end += 1
    # lines start+1 .. len(a)-end (1-based) were replaced by the new ones: what is below moves
    return len(a) - end, delta


def _shifted(model: FileModel, after: int, delta: int) -> FileModel:
    """``model`` with every position below line ``after`` moved by ``delta`` lines."""

    def move(item: Any) -> Any:
        if item.line > after:
            return dataclasses.replace(item, line=item.line + delta)
        return item

    return dataclasses.replace(
        model,
        records=[move(r) for r in model.records],
        refs=[move(r) for r in model.refs],
        conditions=[move(c) for c in model.conditions],
        words=[move(w) for w in model.words],
        findings=[move(f) for f in model.findings],
    )
