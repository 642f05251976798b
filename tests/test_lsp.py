"""``gamebook lsp`` driven through the Language Server Protocol (JSON-RPC over stdio, as an
editor does): diagnostics from the checker while typing, go to definition on a reference,
completion of ids, hover with the record's title and text.  Generic over the registry: the
reference and the record come from the campaign's own story graph."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pipeline.story.graph import resolve
from pipeline.story.report import check

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC over the server's pipes."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline.cli", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(os.environ.get("GAMEBOOK_LSP_LOG", os.devnull), "w"),  # noqa: SIM115
            cwd=ROOT,
            env=env,
        )
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send(self, payload: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def answer(self, method: str, params: dict, timeout: float = 60) -> dict:
        """A request's whole answer: ``result`` or ``error``."""
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        while True:
            msg = self.messages.get(timeout=timeout)
            if msg.get("id") == rid and "method" not in msg:
                return msg

    def request(self, method: str, params: dict, timeout: float = 60) -> dict:
        msg = self.answer(method, params, timeout)
        assert "error" not in msg, msg
        return msg.get("result")

    def diagnostics(self, uri: str, timeout: float = 60) -> list[dict]:
        while True:
            msg = self.messages.get(timeout=timeout)
            if msg.get("method") == "textDocument/publishDiagnostics" and (
                msg["params"]["uri"] == uri
            ):
                return msg["params"]["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=10)
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def campaign(tmp_path):
    """A copy of the first campaign, its story graph, and a reference written in it."""
    folder = next(p.parent for p in sorted(CONTENT.glob("*/campaign.yaml")))
    dest = tmp_path / folder.name
    shutil.copytree(folder, dest)
    report = check(dest)
    sg = next(iter(report.graphs.values()))
    camp = report.campaigns[0]
    ref = next(r for r in camp.refs if r.key.isidentifier() and resolve(sg, r.kinds, r.key)
               and r.file != "campaign.yaml")  # fmt: skip
    return dest, sg, ref


@pytest.fixture
def client():
    c = Client()
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    c.notify("initialized", {})
    yield c
    c.close()


def test_diagnostics_definition_completion_hover(client, campaign):
    folder, sg, ref = campaign
    path = folder / ref.file
    uri = path.resolve().as_uri()
    text = path.read_text(encoding="utf-8")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    assert client.diagnostics(uri) == []  # the shipped campaign is clean

    # go to definition on the reference: the record it names
    pos = {"line": ref.line - 1, "character": ref.column - 1 + 1}
    loc = client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos})
    target = resolve(sg, ref.kinds, ref.key)[0]
    rec = sg.records[target]
    assert loc["uri"] == (folder / rec.file).resolve().as_uri()
    assert loc["range"]["start"]["line"] == rec.line - 1

    # hover: its kind, id and title
    hov = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
    value = hov["contents"]["value"]
    assert f"`{rec.key}`" in value
    title = rec.data.get("title") or rec.data.get("name") or ""
    assert str(title) in value

    # completion offers the ids valid at that field only, each one the checker accepts there
    comp = client.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": pos}
    )
    labels = [i["label"] for i in comp["items"]]
    assert rec.key in labels and len(labels) == len(set(labels))
    assert all(resolve(sg, ref.kinds, label) for label in labels), labels
    first = ref.key[:1].lower()
    ranked = [label.lower().startswith(first) for label in labels]
    assert ranked == sorted(ranked, reverse=True)  # those that start with what is typed first

    # typing a broken reference: a diagnostic from the checker, before any save
    lines = text.splitlines(keepends=True)
    line = lines[ref.line - 1]
    col = ref.column - 1
    lines[ref.line - 1] = line[:col] + line[col:].replace(ref.key, ref.key + "_inconnu", 1)
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "".join(lines)}],
        },
    )
    diags = client.diagnostics(uri)
    ref001 = [
        d for d in diags if d["code"] == "REF001" and d["range"]["start"]["line"] == ref.line - 1
    ]
    assert ref001
    # the diagnostic covers the whole token, not one character
    span = ref001[0]["range"]
    written = lines[ref.line - 1][span["start"]["character"] : span["end"]["character"]]
    assert written == ref.key + "_inconnu"
    assert path.read_text(encoding="utf-8") == text  # the file on disk is untouched


def _open(client: Client, path: Path) -> tuple[str, str]:
    uri = path.resolve().as_uri()
    text = path.read_text(encoding="utf-8")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    )
    client.diagnostics(uri)
    return uri, text


def _apply(text: str, edits: list[dict]) -> str:
    """A WorkspaceEdit's text edits applied to one file (from the bottom up)."""
    lines = text.split("\n")
    for e in sorted(
        edits,
        key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
        reverse=True,
    ):
        start, end = e["range"]["start"], e["range"]["end"]
        assert start["line"] == end["line"]
        row = lines[start["line"]] if start["line"] < len(lines) else ""
        new = row[: start["character"]] + e["newText"] + row[end["character"] :]
        if start["line"] < len(lines):
            lines[start["line"]] = new
        else:
            lines.append(new)
    return "\n".join(lines)


def test_completion_outside_a_reference_offers_nothing(client, campaign):
    folder, _, ref = campaign
    path = folder / ref.file
    uri, text = _open(client, path)
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("text:"))
    col = lines[row].index("text:") + len("text: ") + 1
    comp = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": row, "character": col}},
    )
    assert comp["items"] == []


def test_rename_updates_every_reference_and_records_the_old_id(client, campaign):
    folder, sg, _ = campaign
    camp = check(folder).campaigns[0]
    # a record referenced from at least two places, with an ``id:`` of its own
    counts: dict[str, list] = {}
    for r in camp.refs:
        for node in resolve(sg, r.kinds, r.key):
            counts.setdefault(node, []).append(r)
    node = next(
        n
        for n, refs in sorted(counts.items(), key=lambda kv: -len(kv[1]))
        if len(refs) >= 2
        and sg.records.get(n) is not None
        and not sg.records[n].parent
        and sg.records[n].key.isidentifier()
        and "id" in sg.records[n].data
    )
    rec = sg.records[node]
    path = folder / rec.file
    uri, text = _open(client, path)
    lines = text.split("\n")
    row = next(
        i
        for i in range(rec.line - 1, len(lines))
        if lines[i].strip().lstrip("- ").startswith("id:")
    )
    col = lines[row].index(rec.key) + 1
    result = client.request(
        "textDocument/rename",
        {
            "textDocument": {"uri": uri},
            "position": {"line": row, "character": col},
            "newName": rec.key + "_bis",
        },
    )
    changes = result["changes"]
    edited = 0
    for file_uri, edits in changes.items():
        target = Path(file_uri.removeprefix("file://"))
        target.write_text(_apply(target.read_text(encoding="utf-8"), edits), encoding="utf-8")
        edited += len(edits)
    assert edited >= len(counts[node]) + 2  # every reference, the id, renamed_from
    after = check(folder)
    assert [f for f in after.findings if f.severity == "error"] == []
    new_sg = next(iter(after.graphs.values()))
    renamed = new_sg.records[f"{rec.kind}:{rec.key}_bis"]
    assert renamed.data.get("renamed_from") == [rec.key]
    assert f"{rec.kind}:{rec.key}" not in new_sg.records


def test_completion_ranks_the_valid_ids_and_check_accepts_each(tmp_path):
    """At a choice's ``read:`` of a generated campaign: only paragraphs, those that start
    with what is typed first, in each group the edited file's records nearest the cursor
    first, at most the limit — and each one offered, written there, is accepted by the
    checker (no broken reference)."""
    import re

    from pipeline.editor.lsp import completions, kinds_at
    from pipeline.editor.workspace import Workspace

    sys.path.insert(0, str(ROOT / "bench"))
    import generate

    work = tmp_path / "work"
    shutil.copytree(generate.generate(3000, data_dir=tmp_path / "data").folder, work)
    target = sorted((work / "livre").glob("*.yaml"))[1]
    rel = target.relative_to(work).as_posix()
    text = target.read_text(encoding="utf-8")
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if re.search(r"\bread: \d+$", line))
    col = len(lines[row])
    ws = Workspace()
    a = ws.analyse(work, {})
    kinds = kinds_at(a, text, row, col)
    assert kinds == frozenset({"paragraph"})
    for typed in ("", "1", "12"):
        found, more = completions(a, kinds, typed, (rel, row + 1), 50)
        assert len(found) == 50 and more
        labels = [item[0] for item in found]
        assert len(labels) == len(set(labels))
        assert all(a.index[f"paragraph:{label}"].kind == "paragraph" for label in labels)
        starts = [label.startswith(typed) for label in labels]
        assert starts == sorted(starts, reverse=True)
        recs = [a.index[f"paragraph:{label}"] for label in labels]
        prefix = [r for r, s in zip(recs, starts, strict=True) if s]
        mine = [r.file == rel for r in prefix]
        assert mine == sorted(mine, reverse=True) and any(mine)
        gaps = [abs(r.line - (row + 1)) for r in prefix if r.file == rel]
        assert gaps == sorted(gaps)
    # the first offered, the nearest of another file's, the last: written at the cursor,
    # the checker accepts them
    found, more = completions(a, kinds, "", (rel, row + 1))
    assert not more and len(found) == sum(1 for n in a.index if n.startswith("paragraph:"))
    others = [item[0] for item in found if a.index[f"paragraph:{item[0]}"].file != rel]
    for label in {found[0][0], others[0], found[-1][0]}:
        edited = lines.copy()
        edited[row] = re.sub(r"\d+$", label, edited[row])
        b = ws.analyse(work, {target: "\n".join(edited)})
        assert not [f for f in b.findings if f.file == rel and f.line == row + 1], label
