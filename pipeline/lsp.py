"""``gamebook lsp``: a language server (LSP, over standard input and output) for the content
files, on pygls.  In the editor, what ``gamebook check`` says in the terminal:

- **diagnostics**: the checker's findings for the campaign of the open file, recomputed on
  every change from the editor's unsaved text (the campaign is checked in a scratch copy);
- **go to definition** on a reference (an envelope number, a card or paragraph id...): the
  record it names;
- **completion** of ids: every record of the campaign, with its kind and title;
- **hover** on a reference or an id: the record's kind, title and text.

Generic over the registry: the kinds, references and titles come from the games' content
schemas through the checker.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from .findings import Finding
from .graph import StoryGraph, resolve
from .messages import kind_fr
from .project import CAMPAIGN_FILE
from .report import Report, check

#: characters of an id or a reference as written (``D-digue``, ``140``, ``maison/haut_fait``)
_ID = re.compile(r"[\w\-/@+.]+")
_TEXT_FIELDS = ("title", "name", "question", "text")


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def campaign_folder(path: Path) -> Path | None:
    """The campaign folder a content file belongs to (the nearest ``campaign.yaml``)."""
    for folder in [path.parent, *path.parents]:
        if (folder / CAMPAIGN_FILE).is_file():
            return folder
    return None


@dataclass
class Analysis:
    """The last check of one campaign folder, and where its files really are."""

    folder: Path
    report: Report
    #: findings by real file path
    findings: dict[Path, list[Finding]] = field(default_factory=dict)

    @property
    def graph(self) -> StoryGraph | None:
        return next(iter(self.report.graphs.values()), None)

    def real(self, rel: str) -> Path:
        return (self.folder / rel).resolve()


def analyse(folder: Path, overlay: dict[Path, str]) -> Analysis:
    """Check ``folder`` as the editor sees it: its files, with the unsaved texts of
    ``overlay`` (real path -> text) in their place."""
    folder = folder.resolve()
    with tempfile.TemporaryDirectory(prefix="gamebook-lsp-") as tmp:
        scratch = Path(tmp) / folder.name
        shutil.copytree(folder, scratch, ignore=shutil.ignore_patterns(".*"))
        for path, text in overlay.items():
            try:
                rel = path.resolve().relative_to(folder)
            except ValueError:
                continue
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            (scratch / rel).write_text(text, encoding="utf-8")
        report = check(scratch, jobs=1)
    out = Analysis(folder, report)
    for f in report.findings:
        out.findings.setdefault(out.real(f.file), []).append(f)
    return out


def _token(line: str, col: int) -> tuple[str, int, int] | None:
    """The id-like word of ``line`` around 0-based ``col``: (text, start, end)."""
    for m in _ID.finditer(line):
        if m.start() <= col <= m.end():
            return m.group().strip("."), m.start(), m.end()
    return None


def _record_text(data: dict[str, Any]) -> tuple[str, str]:
    title = next((str(data[k]) for k in _TEXT_FIELDS[:3] if data.get(k)), "")
    text = str(data.get("text") or data.get("question") or "")
    return title, text


def target_at(a: Analysis, path: Path, line: int, col: int, text: str) -> str | None:
    """The node a reference (or a record's own id) at 1-based ``line``, 0-based ``col``
    names."""
    sg = a.graph
    if sg is None:
        return None
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    tok = _token(lines[line - 1], col)
    if tok is None:
        return None
    word, start, _ = tok
    rel = path.resolve().relative_to(a.folder).as_posix()
    camp = next(iter(a.report.campaigns), None)
    # a reference written here: the checker knows its kinds
    for ref in camp.refs if camp else ():
        # the value starts at the word (or at the quote just before it)
        if ref.file == rel and ref.line == line and start - 1 <= ref.column - 1 <= start:
            found = resolve(sg, ref.kinds, ref.key)
            if found:
                return found[0]
    # otherwise any record with that id (its own id line, a flow list written by hand...)
    for node, rec in sg.records.items():
        if rec.key == word or (rec.key.lstrip("0") == word.lstrip("0") and word.isdigit()):
            return node
    return None


def describe(a: Analysis, node: str) -> str:
    sg = a.graph
    rec = sg.records.get(node) if sg else None
    if rec is None:
        return f"`{node}`"
    title, text = _record_text(rec.data)
    head = f"**{kind_fr(rec.kind)}** `{rec.key}`" + (f" — {title}" if title else "")
    if len(text) > 600:
        text = text[:600].rstrip() + "…"
    return head + (f"\n\n{text}" if text else "") + f"\n\n_{rec.file}:{rec.line}_"


def completions(a: Analysis) -> list[tuple[str, str, str]]:
    """(id, kind and title, documentation) of every record of the campaign."""
    sg = a.graph
    out = []
    for rec in sg.records.values() if sg else ():
        title, text = _record_text(rec.data)
        if "/" in rec.key and rec.parent:  # sub-records are reached through their parent
            continue
        out.append((rec.key, f"{kind_fr(rec.kind)}" + (f" — {title}" if title else ""), text))
    return sorted(out)


def server():  # pragma: no cover - exercised through the protocol in tests/test_lsp.py
    """The pygls server (imported here: pygls is only needed for ``gamebook lsp``)."""
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    ls = LanguageServer("gamebook", "1")
    analyses: dict[Path, Analysis] = {}

    def overlay(folder: Path) -> dict[Path, str]:
        out = {}
        for uri, doc in ls.workspace.text_documents.items():
            path = path_of(uri)
            if folder in path.resolve().parents:
                out[path.resolve()] = doc.source
        return out

    def refresh(uri: str) -> Analysis | None:
        folder = campaign_folder(path_of(uri))
        if folder is None:
            return None
        folder = folder.resolve()
        previous = analyses.get(folder)
        a = analyse(folder, overlay(folder))
        analyses[folder] = a
        files = set(a.findings) | (set(previous.findings) if previous else set())
        for path in files | {path_of(uri).resolve()}:
            diags = [
                T.Diagnostic(
                    range=T.Range(
                        start=T.Position(line=max(0, f.line - 1), character=max(0, f.column - 1)),
                        end=T.Position(line=max(0, f.line - 1), character=max(0, f.column - 1) + 1),
                    ),
                    message=f.message,
                    severity=T.DiagnosticSeverity.Error
                    if f.severity == "error"
                    else T.DiagnosticSeverity.Warning,
                    code=f.code,
                    source="gamebook check",
                )
                for f in a.findings.get(path, [])
            ]
            ls.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=uri_of(path), diagnostics=diags)
            )
        return a

    def current(uri: str) -> Analysis | None:
        folder = campaign_folder(path_of(uri))
        if folder is None:
            return None
        return analyses.get(folder.resolve()) or refresh(uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: T.DidOpenTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: T.DidChangeTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: T.DidSaveTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    def node_at(params: Any) -> tuple[Analysis, str] | None:
        uri = params.text_document.uri
        a = current(uri)
        if a is None:
            return None
        doc = ls.workspace.get_text_document(uri)
        node = target_at(
            a, path_of(uri), params.position.line + 1, params.position.character, doc.source
        )
        return (a, node) if node else None

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(params: T.DefinitionParams) -> T.Location | None:
        found = node_at(params)
        if found is None:
            return None
        a, node = found
        rec = a.graph.records[node] if a.graph else None
        if rec is None:
            return None
        pos = T.Position(line=rec.line - 1, character=max(0, rec.column - 1))
        return T.Location(uri=uri_of(a.real(rec.file)), range=T.Range(start=pos, end=pos))

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(params: T.HoverParams) -> T.Hover | None:
        found = node_at(params)
        if found is None:
            return None
        a, node = found
        return T.Hover(
            contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=describe(a, node))
        )

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION)
    def completion(params: T.CompletionParams) -> T.CompletionList:
        a = current(params.text_document.uri)
        items = [
            T.CompletionItem(
                label=key,
                kind=T.CompletionItemKind.Reference,
                detail=detail,
                documentation=doc[:400] or None,
            )
            for key, detail, doc in (completions(a) if a else [])
        ]
        return T.CompletionList(is_incomplete=False, items=items)

    return ls
