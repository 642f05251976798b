"""Findings: what the checker tells a writer.  Plain values with a stable code."""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning")

#: Every finding code, its severity and what it means (the writers' guide documents each).
CODES: dict[str, tuple[str, str]] = {
    "IO001": ("error", "file or folder cannot be read"),
    "YAML001": ("error", "malformed YAML"),
    "YAML002": ("error", "the same key twice in one mapping"),
    "CAMP001": ("error", "campaign.yaml missing or invalid"),
    "CAMP002": ("error", "unknown section in a content file"),
    "FIELD001": ("error", "missing required field"),
    "FIELD002": ("error", "field has the wrong type or an invalid value"),
    "FIELD003": ("warning", "unknown field (ignored)"),
    "REF001": ("error", "reference to something that does not exist"),
    "ID001": ("error", "the same id is defined twice"),
    "GRAPH001": ("error", "unreachable from the campaign's start"),
    "GRAPH002": ("error", "dead end: no way on and not marked as an end"),
    "GRAPH003": ("warning", "defined but never referenced"),
    "COND001": ("error", "condition that can never hold"),
    "HIDDEN001": ("error", "hidden number is not three digits"),
    "HIDDEN002": ("error", "the hidden number's target does not name its source on its back"),
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    node: str | None = None

    def to_json(self) -> dict:
        return asdict(self)

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.code, self.message)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
