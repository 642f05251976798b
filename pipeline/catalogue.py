"""Every finding code, registered in one place.

A code is a record (``engine.core.schema.Code``: severity, what it means, how to fix it, its
French messages and its section of the writers' guide) declared beside the function that finds
it; a game declares its own in its content schema (``ContentSchema.codes``).  This module lists
them in the catalogue's order; the format reference, the writers' guide (``pipeline.guide``) and
the tests read them here.

Adding a check: write the function and its record side by side, then add the record below.
"""

from __future__ import annotations

from engine.core.schema import Code

from . import checks, graph, load, model, simulate, spelling, updates
from . import schema as S
from .messages import register

#: the pipeline's own codes, in the catalogue's order
PIPELINE: tuple[Code, ...] = (
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
LATER: tuple[Code, ...] = (
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
