"""Findings: what the checker tells a writer.  Plain values with a stable code.

Each code is a record (``engine.core.schema.Code``) declared beside the function that finds it;
``pipeline.story.catalogue`` registers them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

SEVERITIES = ("error", "warning")
#: a file that cannot be read or parsed: what it would have defined is missing everywhere else
CAUSES = frozenset(("IO001", "YAML001"))
#: a reference to nothing: what lies behind what it meant is unreachable because of it
BROKEN_REFERENCES = frozenset(("REF001",))
#: what ``Finding.sort_key`` puts right after ``CAUSES``: what many other findings follow from
LEADING = BROKEN_REFERENCES | {"CAMP001"}


class FindingJSON(TypedDict):
    """A finding as ``gamebook check --format json``, the live preview and the simulator's
    report write it (``Finding.to_json``)."""

    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    node: str | None
    cause: NotRequired[str]


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    node: str | None = None
    #: the finding this one only follows from (``file:line:column CODE``): the text output
    #: folds it under that one (``pipeline.story.fold.fold_behind``); JSON keeps it, with this field
    cause: str | None = None

    def to_json(self) -> FindingJSON:
        out: FindingJSON = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "node": self.node,
        }
        if self.cause is not None:
            out["cause"] = self.cause
        return out

    def __reduce__(self) -> tuple:
        # constructor and values: much faster to unpickle than the default for slots
        return (
            Finding,
            (
                self.code,
                self.severity,
                self.message,
                self.file,
                self.line,
                self.column,
                self.node,
                self.cause,
            ),
        )

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column} {self.code}"

    def sort_key(self) -> tuple:
        """Causes before consequences: a file that cannot be read or parsed comes before
        everything else, then the references to nothing and a campaign that cannot start
        (``CAMP001``), then findings in file order."""
        rank = 0 if self.code in CAUSES else 1 if self.code in LEADING else 2
        return (rank, self.file, self.line, self.column, self.code, self.message)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
