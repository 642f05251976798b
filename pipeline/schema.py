"""The content format as the pipeline sees it: every registered game's content schema.

Each game declares its own format in ``engine/<game>/content.py`` with the specs of
``engine.core.schema``; this module gathers them by family (a campaign's ``family`` is its
game id) for ``pipeline.content.model`` (validation), ``pipeline.story.graph`` (references), the writers'
reference page and the JSON Schema.  No game is named here: a new game's kinds appear by
registering the game.
"""

from __future__ import annotations

import dataclasses

from engine.core import registry
from engine.core.schema import (
    LETTER,
    NUMBER,
    TEXT,
    Bool,
    Condition,
    ContentSchema,
    Edge,
    Effects,
    Enum,
    F,
    Field,
    Granted,
    IdFormat,
    Int,
    Issue,
    Kind,
    ListOf,
    MapOf,
    Record,
    Ref,
    Spec,
    Str,
    SubNodes,
)

__all__ = [
    "CAMPAIGN",
    "CONDITIONS",
    "EFFECTS",
    "FAMILIES",
    "IMPLICIT_EDGES",
    "KINDS",
    "LETTER",
    "NUMBER",
    "RENAMED_FROM",
    "ROOT_FIELDS",
    "SCHEMAS",
    "SECTIONS",
    "TEXT",
    "Bool",
    "Condition",
    "ContentSchema",
    "Edge",
    "Effects",
    "Enum",
    "F",
    "Field",
    "Granted",
    "IdFormat",
    "Int",
    "Issue",
    "Kind",
    "ListOf",
    "MapOf",
    "Record",
    "Ref",
    "Spec",
    "Str",
    "SubNodes",
    "campaign_record",
    "edge_kinds",
    "title_of",
    "under_parent",
]

#: family (game id) -> its content schema, for every registered game that has content
SCHEMAS: dict[str, ContentSchema] = {
    g.id: g.content for g in registry.games() if g.content is not None
}
_TITLES = {g.id: g.title for g in registry.games()}
FAMILIES: tuple[str, ...] = tuple(SCHEMAS)

#: a field every record with an ``id`` may have, whatever the game: the ids it had before, so
#: that a save made with an earlier version of the content is converted (``engine.core.migrate``)
RENAMED_FROM = "renamed_from"


def _with_renames(kind: Kind) -> Kind:
    if "id" not in kind.fields or RENAMED_FROM in kind.fields:
        return kind
    fld = F(
        ListOf(Str()),
        "anciens identifiants de cette fiche (renommée) : les parties en cours qui les "
        "nomment sont converties au nouveau nom",
    )
    return dataclasses.replace(kind, fields={**kind.fields, RENAMED_FROM: fld})


KINDS: dict[str, dict[str, Kind]] = {
    f: {k.name: _with_renames(k) for k in s.kinds} for f, s in SCHEMAS.items()
}
SECTIONS: dict[str, dict[str, Kind]] = {
    fam: {k.section: k for k in kinds.values() if k.section} for fam, kinds in KINDS.items()
}
EFFECTS: dict[str, dict[str, Field]] = {f: s.effects for f, s in SCHEMAS.items()}
CONDITIONS: dict[str, dict[str, Field]] = {f: s.conditions for f, s in SCHEMAS.items()}
#: the campaign field that names where play starts, per family
ROOT_FIELDS = {f: (s.start_field,) if s.start_field else () for f, s in SCHEMAS.items()}
#: edges the rules add without a written reference (see ``pipeline.story.graph._implicit_edges``)
IMPLICIT_EDGES = {
    f: {"starts", "component"} | set(s.implicit_edge_kinds) for f, s in SCHEMAS.items()
}

_CAMPAIGN_BASE = {
    "id": F(Str(), "identifiant de la campagne (dossier)", required=True),
    "family": F(Enum(FAMILIES), "le jeu de la campagne : " + ", ".join(FAMILIES), required=True),
    "title": F(Str(), "titre affiché", required=True),
    "text": F(Str(), "présentation"),
}


def _described(family: str, fields: dict[str, Field]) -> dict[str, Field]:
    title = _TITLES.get(family, family)
    return {k: Field(f.spec, f.required, f.default, f"{title} : {f.fr}") for k, f in fields.items()}


def campaign_record(family: str | None) -> Record:
    """The ``campaign:`` section of a campaign of ``family`` (every game's fields when the
    family is unknown, so that they are still checked for shape)."""
    if family in SCHEMAS:
        return Record({**_CAMPAIGN_BASE, **SCHEMAS[family].campaign_fields})
    return CAMPAIGN


def _all_campaign_fields() -> dict[str, Field]:
    out: dict[str, Field] = dict(_CAMPAIGN_BASE)
    for family, schema in SCHEMAS.items():
        for name, fld in _described(family, schema.campaign_fields).items():
            if name in out and name not in _CAMPAIGN_BASE:
                prev = out[name]
                out[name] = Field(prev.spec, prev.required, prev.default, f"{prev.fr} ; {fld.fr}")
            else:
                out.setdefault(name, fld)
    return out


#: every field a ``campaign:`` section may have, whatever the game (for the writers' reference)
CAMPAIGN = Record(_all_campaign_fields())


def title_of(family: str) -> str:
    return _TITLES.get(family, family)


def _spec_edges(spec: Spec, family: str, seen: set[int]) -> set[str]:
    if id(spec) in seen:
        return set()
    seen.add(id(spec))
    out: set[str] = set()
    edge = getattr(spec, "edge", None)
    if edge:
        out.add(edge)
    if isinstance(spec, ListOf):
        out |= _spec_edges(spec.item, family, seen)
    elif isinstance(spec, MapOf):
        out |= _spec_edges(spec.value, family, seen)
    elif isinstance(spec, Record):
        for fld in spec.fields.values():
            out |= _spec_edges(fld.spec, family, seen)
    elif isinstance(spec, Effects):
        for fld in EFFECTS[spec.family].values():
            out |= _spec_edges(fld.spec, family, seen)
    return out


def edge_kinds(family: str) -> set[str]:
    """Every kind of edge a campaign of ``family`` can have."""
    out = set(IMPLICIT_EDGES[family])
    seen: set[int] = set()
    for kind in KINDS[family].values():
        for fld in kind.fields.values():
            out |= _spec_edges(fld.spec, family, seen)
    return out


def under_parent(family: str, kind: str) -> bool:
    """Whether records of ``kind`` are nested in a parent and keyed under it (``SubNodes`` with
    ``prefix_parent``): a reference to one is written ``parent/child``."""
    return any(
        isinstance(f.spec, SubNodes) and f.spec.kind == kind and f.spec.prefix_parent
        for k in KINDS[family].values()
        for f in k.fields.values()
    )
