"""One real edit re-checked without the whole campaign: dynamic dependency tracking.

The checks over a campaign's graph (graph building, ``pipeline.checks``, the games' hooks) read
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
Nothing else is loaded.  A campaign with a file that cannot be read or parsed (``pipeline.fold``
reads the bytes), a changed line count or anything uncertain takes the full path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .findings import BROKEN_REFERENCES, CAUSES, Finding
from .fold import RECORD_ERRORS

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

    __hash__ = None  # type: ignore[assignment]

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
    original dicts back and returns the read set (record kind -> fields read)."""

    def __init__(self, records: list) -> None:
        self.reads: dict[str, set] = {}
        self.saved = []
        for rec in records:
            log = self.reads.get(rec.kind)
            if log is None:
                log = self.reads[rec.kind] = set()
            wrapped = _Logged(rec.data)
            wrapped.log = log
            self.saved.append((rec, rec.data))
            rec.data = wrapped

    def stop(self) -> dict[str, frozenset]:
        for rec, data in self.saved:
            rec.data = data
        self.saved = []
        return {kind: frozenset(log) for kind, log in self.reads.items()}


@dataclass
class Entry:
    """What a full check of a campaign found, split so that one file's part can be replaced."""

    slots: list[tuple[str, str, bytes]]  # (path in the content folder, file key, model digest)
    manifest: list[Finding]  # the manifest's own findings
    local: list[list[Finding]]  # each file's own findings (validation), in slot order
    found: list[Finding]  # what the graph and its checks found
    stats: dict
    reads: dict[str, frozenset] = field(default_factory=dict)

    def findings(self) -> list[Finding]:
        out = list(self.manifest)
        for mine in self.local:
            out.extend(mine)
        out.extend(self.found)
        return out


def structure_key(camp: Any, content_dir: Any, cache: Any, slots: list) -> str | None:
    """The key of a campaign's ``Entry``: its folder, manifest and file paths (not their
    models: an edit keeps the key)."""
    from .keys import key

    manifest = cache.put_file(None, camp.manifest)
    if manifest is None:
        return None
    parts: list[bytes | str] = [cache.code, "edit", str(content_dir), camp.folder.as_posix()]
    parts.append(manifest)
    parts += [slot.task[1] for slot in slots]
    return key(*parts)


def broken(findings: list[Finding]) -> bool:
    """A file that cannot be read or parsed, a record with an error of its own, or a reference
    to nothing: each makes ``pipeline.fold`` fold other findings under it, which needs the
    graph (the full path)."""
    return any(
        f.code in CAUSES
        or f.code in BROKEN_REFERENCES
        or (f.code in RECORD_ERRORS and f.severity == "error")
        for f in findings
    )


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
    entry.slots = [(s.task[1], s.key, s.digest) for s in slots]  # type: ignore[misc]
    entry.local = local
    cache.put_edit(skey, entry)
    cache.quick += 1
    return entry.findings(), entry.stats


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
    t = type(a)
    if t is not type(b):
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
    if t.__module__ == "pipeline.model" and reduce is not object.__reduce__:
        # a model's slots dataclass, pickled as constructor and field values
        return _strict(a.__reduce__()[1], b.__reduce__()[1])
    return False  # anything else: not known to be the same
