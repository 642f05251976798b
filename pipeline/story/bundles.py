"""The compiled bundle of a game's content, for the front ends that play it.

``gamebook play`` and ``gamebook simulate`` start from the compiled bundle, not from a fresh
check of every campaign: a bundle is cached in the user's cache directory (``XDG_CACHE_HOME``,
never the content folder), keyed by a hash of the campaign's files and of the pipeline's own
code, and reused while neither changes.  A cache file that cannot be read is ignored and
rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from engine.core import registry

from ..content.project import CAMPAIGN_FILE, _yaml_files
from ..findings import has_errors
from ..messages import of
from .report import check

_CODE = Path(__file__).resolve().parents[1]


class BundleUnavailable(Exception):
    """No playable bundle for that game (a French message for the player)."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamebook" / "bundles"


def _campaign_folder(content: Path, game_id: str) -> Path | None:
    """The campaign folder of ``game_id`` under ``content`` (or ``content`` itself)."""
    candidates = (
        [content]
        if (content / CAMPAIGN_FILE).is_file()
        else sorted(p.parent for p in content.glob(f"*/{CAMPAIGN_FILE}"))
    )
    for folder in candidates:
        try:
            text = (folder / CAMPAIGN_FILE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if _family_of(text) == game_id:
            return folder
    return None


def _family_of(text: str) -> str | None:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("family:"):
            return stripped.split(":", 1)[1].split("#", 1)[0].strip().strip("'\"")
    return None


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in [folder / CAMPAIGN_FILE, *_yaml_files(folder)]:
        h.update(path.relative_to(folder).as_posix().encode())
        h.update(path.read_bytes())
    for path in sorted([*_CODE.rglob("*.py"), *(_CODE.parent / "engine").rglob("content.py")]):
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


def bundle_for(game_id: str, content: Path = Path("content")) -> dict[str, Any]:
    """The bundle of ``game_id``'s campaign under ``content`` (cached; checked when built).
    A game that needs no content gets an empty bundle."""
    cls = registry.get(game_id)
    folder = _campaign_folder(content, game_id) if content.is_dir() else None
    if folder is None:
        if cls.content is None:
            return {
                "format_version": 1,
                "family": game_id,
                "campaign": {"id": game_id},
                "records": {},
                "version": "none",
            }
        raise BundleUnavailable(
            f"pas de campagne {of(cls.title)} (famille : {game_id}) dans {content}"
        )
    key = _digest(folder)
    cached = cache_dir() / f"{game_id}-{key}.json"
    try:
        return json.loads(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    from . import compile as comp  # the graph and networkx: only when a bundle is compiled

    report = check(folder)
    sg = report.graphs.get(next(iter(report.graphs), ""))
    if sg is None or sg.campaign.family != game_id:
        raise BundleUnavailable(f"pas de campagne {of(cls.title)} dans {folder}")
    if has_errors(report.findings_of(sg.campaign.id)):
        raise BundleUnavailable(
            f"la campagne « {sg.campaign.id} » a des erreurs : lancez « gamebook check {folder} »"
        )
    data = json.loads(json.dumps(comp.bundle(sg), ensure_ascii=False, default=list))
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, cached)
    except OSError:
        pass  # a cache that cannot be written only costs time
    return data
