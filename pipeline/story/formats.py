"""How a check report is printed: plain text for a terminal, annotations for GitHub Actions.
Shared by ``gamebook check`` and the site build (which refuses to publish broken content)."""

from __future__ import annotations

from ..messages import count, t
from .report import Report


def text(report: Report) -> str:
    lines = []
    for f in report.findings:
        if f.cause is not None:  # folded under its cause, which counts it
            continue
        where = f"{report.content_dir.as_posix().rstrip('/')}/{f.file}" if f.file else "?"
        lines.append(f"{where}:{f.line}:{f.column}: {f.severity} {f.code} {f.message}")
    errors = sum(1 for f in report.findings if f.severity == "error")
    warnings = len(report.findings) - errors
    folded = sum(1 for f in report.findings if f.cause is not None)
    s = report.stats()
    per = ", ".join(
        t(
            "cli.summary_campaign",
            id=cid,
            nodes=count("cli.nodes", c["nodes"]),
            edges=count("cli.edges", c["edges"]),
            unreachable=count("cli.unreachable", c["unreachable"]),
        )
        for cid, c in s["campaigns"].items()
    )
    lines.append(
        t(
            "cli.summary",
            errors=count("cli.errors", errors),
            warnings=count("cli.warnings", warnings)
            + (count("cli.folded", folded) if folded else ""),
            campaigns=per or t("cli.no_campaign"),
        )
    )
    return "\n".join(lines)


def _escape_gh(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def github(report: Report) -> str:
    lines = []
    base = report.content_dir.as_posix().rstrip("/")
    for f in report.findings:
        level = "error" if f.severity == "error" else "warning"
        path = _escape_gh(f"{base}/{f.file}", prop=True)
        lines.append(
            f"::{level} file={path},line={f.line},col={f.column},title={f.code}::"
            f"{_escape_gh(f.message)}"
        )
    return "\n".join(lines)
