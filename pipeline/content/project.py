"""Find the campaigns under a content folder and load them, file by file.

A campaign is a folder holding ``campaign.yaml``; every other ``*.yaml``/``*.yml`` file below it
(at any depth) belongs to it.  ``CONTENT_DIR`` may be a folder of campaigns (``content/``) or
one campaign folder.  Files are parsed and validated in worker processes when there is enough
to do: parsing is the floor of ``gamebook check`` at scale and it splits cleanly by file.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import schema as S
from ..findings import Finding
from ..messages import t
from .load import parse_bytes, read_file, unreadable
from .model import (
    ConditionUse,
    FileModel,
    Grant,
    Record,
    Reference,
    Word,
    flat,
    unflat,
    validate,
)

CAMPAIGN_FILE = "campaign.yaml"
#: below this many bytes of YAML, starting worker processes costs more than it saves
PARALLEL_THRESHOLD = 2_000_000


@dataclass
class Campaign:
    id: str
    family: str
    folder: Path
    data: dict[str, Any]
    data_pos: tuple[str, int, int]
    field_pos: dict[str, tuple[int, int]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    refs: list[Reference] = field(default_factory=list)
    grants: list[Grant] = field(default_factory=list)
    conditions: list[ConditionUse] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    #: with ``load(lazy=True)``: the key of what the checks over this campaign find (``None``:
    #: not known), the manifest's model and the files not yet absorbed (``complete``)
    digest: str | None = None
    manifest: FileModel | None = None
    slots: list[_Slot] = field(default_factory=list)


class ContentError(Exception):
    """The content folder itself cannot be used (a usage problem: exit 2)."""


def _present(path: Path) -> bool:
    """``path`` has a directory entry (a dangling link too: it is reported, not skipped)."""
    return os.path.lexists(path)


def _yaml_files(folder: Path) -> list[Path]:
    """Every content file below ``folder``, including those that cannot be read (a dangling
    link, a folder named ``x.yaml``): ``read_file`` names what is wrong with them."""
    files = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")]
    # hidden files and folders *inside* the campaign are skipped, whatever the folder's own path
    return sorted(
        p for p in files if not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )


def discover(content_dir: Path) -> tuple[list[Path], list[Finding]]:
    """The campaign folders under ``content_dir`` and findings for stray YAML files."""
    if not content_dir.exists():
        raise ContentError(t("content.missing", path=content_dir))
    if not content_dir.is_dir():
        raise ContentError(t("content.not_dir", path=content_dir))
    if _present(content_dir / CAMPAIGN_FILE):
        return [content_dir], []
    folders = sorted(p for p in content_dir.iterdir() if p.is_dir() and _present(p / CAMPAIGN_FILE))
    findings = []
    for sub in sorted(
        p for p in content_dir.iterdir() if p.is_dir() and not p.name.startswith(".")
    ):
        if sub not in folders and _yaml_files(sub):
            rel = (sub / CAMPAIGN_FILE).relative_to(content_dir).as_posix()
            findings.append(
                Finding(
                    "CAMP001",
                    "error",
                    t("camp.no_manifest", folder=sub.name),
                    rel,
                    1,
                    1,
                )
            )
    if not folders and not findings:
        raise ContentError(t("content.empty", path=content_dir))
    return folders, findings


_CACHES: dict[str, Any] = {}

Task = tuple[str, str, str, bool, "str | None"]


def _cache(root: str) -> Any:
    """One ``Cache`` per process (worker processes make their own)."""
    from .cache import Cache

    if root not in _CACHES:
        _CACHES[root] = Cache(Path(root))
    return _CACHES[root]


def _raw(path: Path) -> bytes | None:
    if unreadable(path) is not None:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def _load_one(args: Task) -> tuple[FileModel, bytes | None, str | None]:
    """Read, parse and validate one file (and remember it in the cache, when there is one).
    Returns the model, its digest (with a cache) and the cache key of the bytes read (``None``
    for a file that could not be read)."""
    path, rel, family, allow_campaign, cache_root = args
    raw = _raw(Path(path)) if cache_root is not None else None
    # the cache key and the result come from the same bytes, even if the file changes meanwhile
    doc, findings = parse_bytes(raw, rel) if raw is not None else read_file(Path(path), rel)
    model = validate(family, rel, doc, allow_campaign)
    model.findings[:0] = findings
    if cache_root is None:
        return model, None, None
    cache = _cache(cache_root)
    key = cache.file_key(raw, rel, family, allow_campaign) if raw is not None else None
    return model, cache.put_file(key, model), key


def _load_to_file(args: tuple[Task, str]) -> str:
    """``_load_one`` in a worker process: its result is written to ``path``, returned."""
    task, path = args
    model, digest, key = _load_one(task)
    with open(path, "wb") as f:
        pickle.dump((flat(model), digest, key), f, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def _manifest(folder: Path, content_dir: Path) -> tuple[FileModel, str | None]:
    rel = (folder / CAMPAIGN_FILE).relative_to(content_dir).as_posix()
    doc, findings = read_file(folder / CAMPAIGN_FILE, rel)
    return manifest_model(rel, doc, findings)


def manifest_model(rel: str, doc: Any, findings: list[Finding]) -> tuple[FileModel, str | None]:
    """A parsed ``campaign.yaml`` validated for the game its ``family`` names (``None``: none;
    CAMP001 when it parsed but names no game)."""
    family = None
    if hasattr(doc, "get") and hasattr(doc.get("campaign"), "get"):
        fam = doc["campaign"].get("family")
        family = fam if fam in S.FAMILIES else None
    if family is None:
        model = FileModel(rel, findings=findings)
        if not findings:
            model.findings.append(
                Finding(
                    "CAMP001",
                    "error",
                    t("camp.no_family", families=", ".join(S.FAMILIES)),
                    rel,
                    1,
                    1,
                )
            )
        return model, None
    model = validate(family, rel, doc, allow_campaign=True)
    model.findings[:0] = findings
    return model, family


@dataclass
class _Slot:
    """One content file of a campaign loaded lazily: its model, or where to find it."""

    task: Task
    model: FileModel | None = None
    key: str | None = None  # cache key of the bytes read
    digest: bytes | None = None  # digest of the model


def load(
    content_dir: Path,
    jobs: int | None = None,
    cache: Any = None,
    lazy: bool = False,
    only: Path | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> tuple[list[Campaign], list[Finding]]:
    """Load every campaign under ``content_dir``.  Returns the campaigns that could be read
    and the findings that belong to no campaign.  With a ``pipeline.content.cache.Cache``, files
    whose
    bytes were already checked come from it (same result, see ``pipeline.content.cache``).

    ``lazy`` (with a cache): the models of files already in the cache are not loaded; each
    campaign gets its ``digest`` (the key of its checks' results in the cache), and
    ``complete(camp)`` loads the rest when the checks must run again.

    ``only`` (one campaign folder under ``content_dir``): that campaign alone, its paths as a
    check of the whole folder names them (``gamebook serve`` after an edit), no stray file.

    ``meanwhile``: run by this process once worker processes have started reading (the
    caller's own start-up, such as imports it needs next, overlaps the reading)."""
    cache_root: str | None = None
    if cache is not None:
        cache_root = str(cache.root)
        _CACHES[cache_root] = cache
    lazy = lazy and cache is not None
    folders, stray = discover(content_dir)
    if only is not None:
        folders = [f for f in folders if f.resolve() == only.resolve()]
        stray = []
    campaigns: list[Campaign] = []
    slots: list[_Slot] = []
    owners: list[Campaign] = []
    for folder in folders:
        manifest, family = _manifest(folder, content_dir)
        if family is None:
            stray.extend(manifest.findings)
            continue
        data = manifest.campaign or {}
        camp = Campaign(
            id=str(data.get("id", folder.name)),
            family=family,
            folder=folder,
            data=data,
            data_pos=(manifest.file, *manifest.campaign_pos),
            field_pos=manifest.campaign_fields,
        )
        _absorb(camp, manifest)
        if lazy:
            camp.manifest = manifest
        campaigns.append(camp)
        for path in _yaml_files(folder):
            if path == folder / CAMPAIGN_FILE:
                continue
            # a nested campaign folder is its own campaign
            if any(
                _present(parent / CAMPAIGN_FILE)
                for parent in path.parents
                if folder in parent.parents
            ):
                continue
            rel = path.relative_to(content_dir).as_posix()
            slots.append(_Slot((str(path), rel, family, False, cache_root)))
            owners.append(camp)
    todo = list(range(len(slots)))
    if cache is not None:
        # hits are read here: sending them through worker processes would pickle them twice
        todo = []
        for i, slot in enumerate(slots):
            file, rel, family, allow_campaign, _ = slot.task
            raw = _raw(Path(file))
            if raw is not None:
                slot.key = cache.file_key(raw, rel, family, allow_campaign)
                if lazy:
                    slot.digest = cache.get_sum(slot.key)
                    if slot.digest is not None:
                        continue
                else:
                    slot.model = cache.get_file(slot.key, rel)
                    if slot.model is not None:
                        continue
            todo.append(i)
    sizes = dict.fromkeys(todo, 0)
    for i in todo:
        with contextlib.suppress(OSError):
            sizes[i] = Path(slots[i].task[0]).stat().st_size
    size = sum(sizes.values())
    workers = jobs if jobs is not None else min(os.cpu_count() or 1, 4)
    if workers > 1 and size >= PARALLEL_THRESHOLD and len(todo) > 1:
        ctx = (
            multiprocessing.get_context("fork")
            if "fork" in multiprocessing.get_all_start_methods()
            else None
        )
        # this process reads a share itself (its models need no pickling, and it would only
        # wait), the other ``workers - 1`` processes the rest; small chunks, the largest
        # files first, so that they all finish together; results are put back in file order
        mine, theirs = _shares(sorted(todo, key=lambda i: -sizes[i]), sizes, workers)
        chunk = max(1, len(theirs) // (workers * 32))
        # each worker's result goes through a file of its own, not the executor's pipe: the
        # pipe is drained by a thread of this process, which needs the lock this process's own
        # reading holds, so a worker sending its result would wait for it, idle (measured at
        # 100k nodes: a worker spent a third of its time so); read back once ours are done
        spool = tempfile.mkdtemp(prefix="gamebook-load-")
        try:
            with ProcessPoolExecutor(max_workers=workers - 1, mp_context=ctx) as pool:
                done = pool.map(
                    _load_to_file,
                    [(slots[i].task, os.path.join(spool, str(i))) for i in theirs],
                    chunksize=chunk,
                )
                if meanwhile is not None:
                    meanwhile()
                for i in mine:
                    slots[i].model, slots[i].digest, slots[i].key = _load_one(slots[i].task)
                for i, spooled in zip(theirs, done, strict=True):
                    with open(spooled, "rb") as f:
                        form, digest, key = pickle.load(f)
                    slots[i].model, slots[i].digest, slots[i].key = unflat(form), digest, key
        finally:
            shutil.rmtree(spool, ignore_errors=True)
    else:
        for i in todo:
            slots[i].model, slots[i].digest, slots[i].key = _load_one(slots[i].task)
    for camp, slot in zip(owners, slots, strict=True):
        if lazy:
            camp.slots.append(slot)
        else:
            assert slot.model is not None
            _absorb(camp, slot.model)
    if lazy:
        for camp in campaigns:
            camp.digest = _digest(camp, content_dir, cache)
    return campaigns, stray


#: the share of a worker's bytes this process reads besides: it also unflattens what they
#: send and runs the caller's ``meanwhile``, which weigh a little more than their flattening
#: (measured at 100k nodes: with 0.85 both sides finish within a few per cent of each other)
OWN_SHARE = 0.85


def _shares(order: list[int], sizes: dict[int, int], workers: int) -> tuple[list[int], list[int]]:
    """Split the files (largest first) between this process and ``workers - 1`` worker
    processes by bytes: each file goes to the side with the least work per process so far."""
    mine: list[int] = []
    theirs: list[int] = []
    own = other = 0.0
    for i in order:
        if own / OWN_SHARE <= other / (workers - 1):
            mine.append(i)
            own += sizes[i]
        else:
            theirs.append(i)
            other += sizes[i]
    return mine, theirs


def _digest(camp: Campaign, content_dir: Path, cache: Any) -> str | None:
    """The key of what the checks over ``camp`` find: everything they read (every model's
    digest, which covers the bytes of a file that could not be parsed: ``pipeline.story.fold`` reads
    them; the manifest; the folder); ``None`` when a model cannot be digested."""
    from .keys import key

    manifest = cache.put_file(None, camp.manifest)
    if manifest is None:
        return None
    parts: list[bytes | str] = [
        cache.code,
        "campaign",
        str(content_dir),
        camp.folder.as_posix(),
        manifest,
    ]
    for slot in camp.slots:
        if slot.digest is None:
            return None
        parts += [slot.task[1], slot.digest]
    return key(*parts)


def complete(camp: Campaign) -> bool:
    """Load the models a lazy ``load`` left in the cache into ``camp``.  Returns whether every
    one came from the bytes its digest was taken from (``False``: an entry disappeared and the
    file was read again, maybe changed: the checks' results must not be stored under
    ``camp.digest``)."""
    same = True
    for slot in camp.slots:
        if slot.model is None:
            _, rel, _, _, cache_root = slot.task
            assert cache_root is not None and slot.key is not None
            slot.model = _cache(cache_root).get_file(slot.key, rel)
            if slot.model is None:
                slot.model, digest, _ = _load_one(slot.task)
                same = same and digest == slot.digest
        _absorb(camp, slot.model)
    camp.slots = []
    return same


def _absorb(camp: Campaign, model: FileModel) -> None:
    camp.files.append(model.file)
    camp.records.extend(model.records)
    camp.refs.extend(model.refs)
    camp.grants.extend(model.grants)
    camp.conditions.extend(model.conditions)
    camp.findings.extend(model.findings)
    camp.words.extend(model.words)
