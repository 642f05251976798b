"""Compile a checked campaign into the versioned JSON bundle the engine reads."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from engine.bundle import BUNDLE_FORMAT_VERSION, BUNDLE_MIN_COMPATIBLE

from .. import schema as S
from .graph import StoryGraph


def _sub_field(
    family: str, parent_kind: str, child_kind: str, child_key: str
) -> tuple[str, bool] | None:
    """The parent's field that holds a child.  A single child (a dilemma's ``oui_da`` or
    ``nenni``) is named by its key's last part, since one kind may fill several fields."""
    fields = S.KINDS[family][parent_kind].fields
    suffix = child_key.rsplit("/", 1)[-1]
    single = fields.get(suffix)
    if single is not None and isinstance(single.spec, S.SubNodes) and not single.spec.many:
        return suffix, False
    for name, fld in fields.items():
        if isinstance(fld.spec, S.SubNodes) and fld.spec.kind == child_kind and fld.spec.many:
            return name, True
    return None


_MAPPING_ATOMS = ("quest", "score", "resource")


def thaw_condition(cond: tuple) -> list[dict[str, Any]]:
    """Conditions travel through the pipeline as hashable tuples; the bundle spells them as the
    writer did: ``[{"flag": "x"}, {"quest": {"id": "q", "state": "done"}}, {"any": [...]}]``."""
    out: list[dict[str, Any]] = []
    for name, value in cond:
        if name == "any":
            out.append({"any": thaw_condition(value)})
        elif name in _MAPPING_ATOMS:
            out.append({name: dict(value)})
        else:
            out.append({name: value})
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: thaw_condition(v) if k == "requires" else _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def bundle(sg: StoryGraph) -> dict[str, Any]:
    """Records by kind and key; sub-records (outcomes, epilogue branches, achievements,
    objectives) are folded back into their parents, in file order."""
    family = sg.campaign.family
    records: dict[str, dict[str, Any]] = {}
    children = [(r, r.parent) for r in sg.records.values() if r.parent]
    for rec in sg.records.values():
        if rec.parent is None:
            data = dict(rec.data)
            if S.KINDS[family][rec.kind].resolve_by:  # versions share a number: keep each key
                data["key"] = rec.key
            records.setdefault(rec.kind, {})[rec.key] = data
    for rec, parent_node in children:
        pkind, _, pkey = parent_node.partition(":")
        parent = records.get(pkind, {}).get(pkey)
        where = _sub_field(family, pkind, rec.kind, rec.key)
        if parent is None or where is None:
            continue
        name, many = where
        data = dict(rec.data)
        if many:
            parent.setdefault(name, []).append(data)
        else:
            parent[name] = data
    out = {
        "format_version": BUNDLE_FORMAT_VERSION,
        "min_compatible": BUNDLE_MIN_COMPATIBLE,
        "family": family,
        "campaign": sg.campaign.data,
        "records": _plain({k: records[k] for k in sorted(records)}),
    }
    text = json.dumps(out, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=list)
    # the content's version: a save records it, so a save made before a content change is
    # recognised (and replayed on the new content) rather than silently mixed
    out["version"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return out


def write(sg: StoryGraph, out_dir: Path) -> Path:
    from ..files import write_atomic

    path = out_dir / f"{sg.campaign.id}.json"
    write_atomic(
        path, json.dumps(bundle(sg), ensure_ascii=False, separators=(",", ":"), default=list)
    )
    return path
