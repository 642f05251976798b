"""Every finding code, registered in one place.

A code is a record (``engine.core.schema.Code``: severity, what it means, how to fix it, its
French messages and its section of the writers' guide) declared beside the function that finds
it; a game declares its own in its content schema (``ContentSchema.codes``).  This module lists
them in the catalogue's order; the format reference, the writers' guide (``pipeline.publish.guide``)
and
the tests read them here.

Adding a check: write the function and its record side by side, its guide section in the
Markdown file beside the module (``checks.py``: ``checks.md``, under the heading
``### `CODE` — …``), then add the record below.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from engine.core.schema import Code

from .. import schema as S
from ..content import load, model
from ..messages import register
from . import checks, graph, simulate, spelling, updates

_HEADING = re.compile(r"^### `(?P<code>[A-Z]+\d+)` — ", re.M)


def guide_sections(path: Path) -> dict[str, str]:
    """The ``### `CODE` — …`` sections of a Markdown file, by code (a heading inside a fenced
    block is text, not a heading)."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,3} ", line):
            m = _HEADING.match(line)
            current = out.setdefault(m["code"], []) if m else None
        if current is not None:
            current.append(line)
    return {code: "".join(lines).rstrip() + "\n" for code, lines in out.items()}


def _guided(*records: Code) -> tuple[Code, ...]:
    """Each record with its guide section, from the Markdown file beside its module."""
    out = []
    for record in records:
        if not record.guide:
            module = next(
                m
                for m in (load, model, graph, checks, spelling, simulate, updates)
                if getattr(m, record.code, None) is record
            )
            page = Path(module.__file__ or "").with_suffix(".md")
            record = dataclasses.replace(record, guide=guide_sections(page)[record.code])
        out.append(record)
    return tuple(out)


#: the pipeline's own codes, in the catalogue's order
PIPELINE: tuple[Code, ...] = _guided(
    load.IO001,
    load.YAML001,
    load.YAML002,
    model.CAMP001,
    model.CAMP002,
    model.FIELD001,
    model.FIELD002,
    model.FIELD003,
    graph.REF001,
    checks.REF002,
    graph.ID001,
    checks.GRAPH001,
    checks.GRAPH002,
    checks.GRAPH003,
    checks.GRAPH004,
    checks.COND001,
)
#: the codes found by playing or against a published version, after the games' own codes
LATER: tuple[Code, ...] = _guided(
    spelling.SPELL001,
    simulate.SIM001,
    simulate.SIM002,
    simulate.SIM003,
    updates.SAVE001,
    updates.SAVE002,
)


def _games() -> tuple[Code, ...]:
    out: dict[str, Code] = {}
    for schema in S.SCHEMAS.values():
        for record in schema.codes:
            if out.setdefault(record.code, record) is not record:
                raise ValueError(f"finding code {record.code} declared by two games")
            register(record)
    return tuple(out.values())


#: every code: the pipeline's, each game's own, then the ones found by playing
RECORDS: dict[str, Code] = {r.code: r for r in (*PIPELINE, *_games(), *LATER)}
#: code -> (severity, what it means)
CODES: dict[str, tuple[str, str]] = {c: (r.severity, r.about) for c, r in RECORDS.items()}
#: code -> how to fix it, in one sentence
FIXES: dict[str, str] = {c: r.fix for c, r in RECORDS.items()}
#: code -> the keys of its messages (``pipeline.messages.t``)
CODE_MESSAGES: dict[str, tuple[str, ...]] = {c: tuple(r.messages) for c, r in RECORDS.items()}
