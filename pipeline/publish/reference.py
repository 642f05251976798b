"""The format reference page, generated from ``pipeline.schema`` so it never drifts.

Rendered with jinja2 at site build time (``pipeline.publish.mkdocs_plugin``); nothing generated is
committed.  Every cell is escaped for Markdown tables and HTML: schema text never becomes markup.
"""

from __future__ import annotations

import html
from typing import Any

import jinja2

from .. import schema as S
from ..messages import kind_fr, template
from ..story.catalogue import CODE_MESSAGES, CODES, FIXES


def _cell(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def _type(spec: S.Spec) -> str:
    if isinstance(spec, S.SubNodes):
        return f"{kind_fr(spec.kind)} ({'liste' if spec.many else 'une table'})"
    if isinstance(spec, S.Ref):
        return "renvoi vers " + " ou ".join(kind_fr(k) for k in spec.kinds)
    return spec.type_fr


def _rows(fields: dict[str, S.Field], prefix: str = "") -> list[dict[str, Any]]:
    rows = []
    for name, fld in fields.items():
        spec = fld.spec
        rows.append(
            {
                "name": prefix + name,
                "required": fld.required,
                "type": _cell(_type(spec)),
                "fr": _cell(fld.fr or spec.fr),
                "edge": getattr(spec, "edge", None)
                or (getattr(getattr(spec, "item", None), "edge", None)),
                "spec": spec,
            }
        )
        inner = spec.item if isinstance(spec, S.ListOf) else spec
        if isinstance(inner, S.Record) and prefix.count(".") < 2:
            rows.extend(_rows(inner.fields, prefix + name + "."))
    return rows


def context() -> dict[str, Any]:
    families = []
    for family in S.FAMILIES:
        title = S.title_of(family)
        kinds = [
            {
                "name": k.name,
                "fr": kind_fr(k.name),
                "section": k.section,
                "about": _cell(k.fr),
                "rows": _rows(k.fields),
                "story": k.story,
            }
            for k in S.KINDS[family].values()
        ]
        families.append(
            {
                "id": family,
                "title": title,
                "kinds": kinds,
                "effects": _rows(S.EFFECTS[family]),
                "conditions": _rows(S.CONDITIONS[family]),
            }
        )
    codes = [
        {
            "code": c,
            "severity": s,
            "about": _cell(a),
            "fix": _cell(FIXES[c]),
            "messages": [template(m) for m in CODE_MESSAGES[c]],
        }
        for c, (s, a) in CODES.items()
    ]
    return {"families": families, "campaign": _rows(S.CAMPAIGN.fields), "codes": codes}


def render() -> str:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pipeline.publish", "templates"),
        autoescape=False,  # Markdown output; cells are escaped by _cell
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("reference.md.j2").render(**context())
