"""Hostile markup planted in every text field of a copy of ``content/``, guided by each game's
content schema (``engine/<game>/content.py``): every ``Str`` field that holds prose (not an
identifier: its value has a space) gets the payload in front of its text, in the records of
every kind, their sub-records and the campaign section.  Effects, conditions and references
are left alone, so the copy still passes ``gamebook check``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core import registry
from engine.core.schema import ContentSchema, Field, ListOf, Record, Str, SubNodes

# Everything a page must show as text and never run: a script, an event handler, a
# ``javascript:`` link (HTML and Markdown), an iframe, an SVG script, quotes and a YAML
# document marker that would break pasted front matter.
PAYLOAD = (
    "<script>window.__pwned=1</script>"
    '<img src=x onerror="window.__pwned=1">'
    '<a href="javascript:window.__pwned=1">lien</a>'
    '<iframe src="javascript:window.__pwned=1"></iframe>'
    '<svg onload="window.__pwned=1"><script>window.__pwned=1</script></svg>'
    '[clic](javascript:window.__pwned=1) {: onclick="window.__pwned=1" } '
    "\"guillemets\" 'apostrophe' --- "
)
# what a page must show literally wherever planted text appears
LITERAL = "<script>window.__pwned=1</script>"


def _prose(value: Any) -> bool:
    return isinstance(value, str) and " " in value.strip()


def _walk(value: Any, spec: Any, schema: ContentSchema, count: list[int]) -> Any:
    if isinstance(spec, Str):
        if _prose(value):
            count[0] += 1
            return PAYLOAD + value
        return value
    if isinstance(spec, ListOf) and isinstance(value, list):
        return [_walk(v, spec.item, schema, count) for v in value]
    if isinstance(spec, Record) and isinstance(value, dict):
        return _record(value, spec.fields, schema, count)
    if isinstance(spec, SubNodes):
        fields = schema.kind(spec.kind).fields
        if isinstance(value, list):
            return [_record(v, fields, schema, count) if isinstance(v, dict) else v for v in value]
        if isinstance(value, dict):
            return _record(value, fields, schema, count)
    return value  # effects, conditions, references, numbers: untouched


def _record(data: dict, fields: dict[str, Field], schema: ContentSchema, count: list[int]) -> dict:
    return {
        k: (_walk(v, fields[k].spec, schema, count) if k in fields and k != "id" else v)
        for k, v in data.items()
    }


def plant(content: Path) -> int:
    """Poison every campaign under ``content`` in place; returns how many fields were planted."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    yaml.width = 1_000_000
    count = [0]
    for folder in sorted(p for p in content.iterdir() if p.is_dir()):
        files = sorted(folder.rglob("*.yaml"))
        docs = {f: yaml.load(f.read_text(encoding="utf-8")) or {} for f in files}
        family = next(
            (
                d["campaign"].get("family")
                for d in docs.values()
                if isinstance(d.get("campaign"), dict)
            ),
            None,
        )
        games = {g.id: g for g in registry.games()}
        schema = games[family].content if family in games else None
        if schema is None:
            continue
        sections = {k.section: k for k in schema.kinds if k.section}
        campaign_fields = {"title": Field(Str()), "text": Field(Str()), **schema.campaign_fields}
        for f, doc in docs.items():
            out = {}
            for section, value in doc.items():
                if section == "campaign" and isinstance(value, dict):
                    out[section] = _record(value, campaign_fields, schema, count)
                elif section in sections:
                    spec = SubNodes(kind=sections[section].name)
                    out[section] = _walk(value, spec, schema, count)
                else:
                    out[section] = value
            with f.open("w", encoding="utf-8") as stream:
                yaml.dump(out, stream)
    return count[0]
