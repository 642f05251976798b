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
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import schema as S
from .findings import Finding
from .load import read_file
from .messages import t
from .model import ConditionUse, FileModel, Grant, Record, Reference, Word, validate

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


def _load_one(args: tuple[str, str, str, bool]) -> FileModel:
    path, rel, family, allow_campaign = args
    doc, findings = read_file(Path(path), rel)
    model = validate(family, rel, doc, allow_campaign)
    model.findings[:0] = findings
    return model


def _manifest(folder: Path, content_dir: Path) -> tuple[FileModel, str | None]:
    rel = (folder / CAMPAIGN_FILE).relative_to(content_dir).as_posix()
    doc, findings = read_file(folder / CAMPAIGN_FILE, rel)
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


def load(content_dir: Path, jobs: int | None = None) -> tuple[list[Campaign], list[Finding]]:
    """Load every campaign under ``content_dir``.  Returns the campaigns that could be read
    and the findings that belong to no campaign."""
    folders, stray = discover(content_dir)
    campaigns: list[Campaign] = []
    tasks: list[tuple[str, str, str, bool]] = []
    owners: list[Campaign] = []
    size = 0
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
            tasks.append((str(path), rel, family, False))
            owners.append(camp)
            with contextlib.suppress(OSError):
                size += path.stat().st_size
    workers = jobs if jobs is not None else min(os.cpu_count() or 1, 4)
    if workers > 1 and size >= PARALLEL_THRESHOLD and len(tasks) > 1:
        ctx = (
            multiprocessing.get_context("fork")
            if "fork" in multiprocessing.get_all_start_methods()
            else None
        )
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            results = list(
                pool.map(_load_one, tasks, chunksize=max(1, len(tasks) // (workers * 4)))
            )
    else:
        results = [_load_one(t) for t in tasks]
    for camp, model in zip(owners, results, strict=True):
        _absorb(camp, model)
    return campaigns, stray


def _absorb(camp: Campaign, model: FileModel) -> None:
    camp.files.append(model.file)
    camp.records.extend(model.records)
    camp.refs.extend(model.refs)
    camp.grants.extend(model.grants)
    camp.conditions.extend(model.conditions)
    camp.findings.extend(model.findings)
    camp.words.extend(model.words)
