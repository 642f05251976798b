"""``gamebook lsp`` through the protocol, as an editor drives it, on what writers met in
review: an unsaved (even a new) file checked as part of its campaign, a refused rename
answered by an error response, completion inside YAML flow collections, the hover of an id
with several versions, and the rename of a numeric id."""

from __future__ import annotations

import queue
import shutil
from pathlib import Path

import pytest
from test_lsp import CONTENT, Client, _apply, campaign, client  # noqa: F401  (fixtures used by name)

from pipeline.story.graph import resolve
from pipeline.story.report import check

pytest.importorskip("pygls")


def _drain(c: Client, seconds: float = 1.0) -> dict[str, list[dict]]:
    """Every diagnostics notification that comes until the server is quiet: uri -> the last."""
    out: dict[str, list[dict]] = {}
    while True:
        try:
            msg = c.messages.get(timeout=seconds)
        except queue.Empty:
            return out
        if msg.get("method") == "textDocument/publishDiagnostics":
            out[msg["params"]["uri"]] = msg["params"]["diagnostics"]


def _open_text(c: Client, path: Path, text: str, version: int = 1) -> str:
    uri = path.resolve().as_uri()
    c.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "yaml", "version": version, "text": text}},
    )
    return uri


def _as_check(folder: Path, rel: str) -> list[tuple]:
    """What ``check`` finds in one file of ``folder``: (code, 0-based line), sorted."""
    report = check(folder)
    return sorted((f.code, f.line - 1) for f in report.findings if f.file == rel)


def _codes(diags: list[dict]) -> list[tuple]:
    return sorted((d["code"], d["range"]["start"]["line"]) for d in diags)


def test_a_new_unsaved_file_is_checked_with_its_campaign(client, campaign, tmp_path):  # noqa: F811
    """A file's records moved to a new buffer not on disk: the references of the other files
    to its ids resolve, its own to theirs too — what ``check`` says once it is saved."""
    folder, sg, ref = campaign
    target = sg.records[resolve(sg, ref.kinds, ref.key)[0]]
    assert target.file != ref.file
    old = folder / target.file
    text = old.read_text(encoding="utf-8")
    old.unlink()
    new = old.with_name("nouveau-" + old.name)
    # the file that refers to the moved ids, open: it first hears they are gone
    other = folder / ref.file
    other_uri = _open_text(client, other, other.read_text(encoding="utf-8"))
    assert any(d["code"] == "REF001" for d in client.diagnostics(other_uri))
    uri = _open_text(client, new, text)
    heard = _drain(client)
    assert not new.exists()  # still unsaved
    saved = tmp_path / "saved"
    shutil.copytree(folder, saved)
    (saved / new.name).write_text(text, encoding="utf-8")
    assert _codes(heard[other_uri]) == _as_check(saved, ref.file) == []
    assert _codes(heard.get(uri, [])) == _as_check(saved, new.name)
    # a broken reference typed in the new buffer: the checker's finding, at its line
    lines = text.split("\n")
    own = next(
        r for r in check(saved).campaigns[0].refs if r.file == new.name and r.key.isidentifier()
    )
    row = own.line - 1
    lines[row] = lines[row][: own.column - 1] + lines[row][own.column - 1 :].replace(
        own.key, own.key + "_inconnu", 1
    )
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "\n".join(lines)}],
        },
    )
    diags = client.diagnostics(uri)
    (saved / new.name).write_text("\n".join(lines), encoding="utf-8")
    assert _codes(diags) == _as_check(saved, new.name)
    assert ("REF001", row) in _codes(diags)


def _ask(c: Client, method: str, params: dict, timeout: float = 60) -> dict:
    """A request's whole answer: ``result`` or ``error``."""
    return c.answer(method, params, timeout)


def _id_line(path: Path, key: str) -> tuple[int, int]:
    """(0-based line, column inside the id) of the ``id: key`` line of a record."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip().lstrip("- ")
        if stripped.startswith("id:") and stripped[3:].strip().strip("\"'") == key:
            return i, line.index(key, line.index("id:")) + 1
    raise AssertionError(key)


def test_a_refused_rename_is_an_error_response_in_french(campaign, monkeypatch, tmp_path):  # noqa: F811
    folder, sg, _ = campaign
    log = tmp_path / "lsp.log"
    monkeypatch.setenv("GAMEBOOK_LSP_LOG", str(log))
    c = Client()
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        # two records of one kind with ids of their own, in one file
        recs = [
            r
            for r in sg.records.values()
            if not r.parent and "id" in r.data and r.key.isidentifier()
        ]
        rec, other = next((r, o) for r in recs for o in recs if o.kind == r.kind and o.key != r.key)
        path = folder / rec.file
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8")
        _open_text(c, path, text)
        c.diagnostics(uri)
        row, col = _id_line(path, rec.key)
        at = {"textDocument": {"uri": uri}, "position": {"line": row, "character": col}}
        blank = next(i for i, line in enumerate(text.split("\n")) if not line.strip())
        nowhere = {"textDocument": {"uri": uri}, "position": {"line": blank, "character": 0}}
        refusals = [
            ("textDocument/rename", {**at, "newName": "deux mots"}, "deux mots"),
            ("textDocument/rename", {**at, "newName": "a:b"}, "a:b"),
            ("textDocument/rename", {**at, "newName": other.key}, other.key),
            ("textDocument/rename", {**at, "newName": rec.key}, rec.key),
            ("textDocument/rename", {**nowhere, "newName": "x"}, "curseur"),
            ("textDocument/prepareRename", nowhere, "curseur"),
        ]
        for method, params, said in refusals:
            answer = _ask(c, method, params)
            assert "result" not in answer, (method, params, answer)
            error = answer["error"]
            assert error["code"] == -32803, error
            assert said in error["message"], error
            assert "Error" not in error["message"] and "Traceback" not in error["message"]
            assert "data" not in error or not error["data"], error
        # the server still answers, and the refusals left no traceback in its log
        ok = c.request("textDocument/prepareRename", at)
        assert ok["start"]["line"] == row
        assert c.request("textDocument/hover", at) is not None
        assert path.read_text(encoding="utf-8") == text
    finally:
        c.close()
    assert "Traceback" not in log.read_text(encoding="utf-8")


def _labels(c: Client, uri: str, text: str, version: int, row: int, col: int) -> list[str]:
    c.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )
    comp = c.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": row, "character": col}},
    )
    return [i["label"] for i in comp["items"]]


def test_completion_inside_flow_collections(client, tmp_path):  # noqa: F811
    """``choices: [{read: |}]``, ``{read: |, text: x}`` and ``[a, |]``, on one line or wrapped
    over several: the list block style gets at the same field."""
    folder = tmp_path / "citadelle"
    shutil.copytree(CONTENT / "citadelle", folder)
    path = folder / "dialogues.yaml"
    text = path.read_text(encoding="utf-8").rstrip("\n")
    uri = _open_text(client, path, text)
    client.diagnostics(uri)
    block = text + "\n  - id: 999\n    text: x\n    choices:\n      - text: y\n        read: "
    rows = block.split("\n")
    want = _labels(client, uri, block, 2, len(rows) - 1, len(rows[-1]))
    assert want
    version = 3
    for tail in (
        "choices: [{read: }]",
        "choices: [{read: , text: x}]",
        "choices: [{text: 'a, b', read: }]",
    ):
        edited = text + "\n  - id: 999\n    text: x\n    " + tail
        last = edited.split("\n")[-1]
        col = last.index("read: ") + len("read: ")
        got = _labels(client, uri, edited, version, len(edited.split("\n")) - 1, col)
        version += 1
        assert got == want, tail
    # a collection written over several lines (the way a long one is wrapped)
    for tail in (
        "choices: [\n      {text: y,\n       read: }]",
        "choices: [{text: 'a, [b',\n        read: }]",
    ):
        edited = text + "\n  - id: 999\n    text: x\n    " + tail
        rows = edited.split("\n")
        col = rows[-1].index("read: ") + len("read: ")
        got = _labels(client, uri, edited, version, len(rows) - 1, col)
        version += 1
        assert got == want, tail
    # in a key's place, nothing
    edited = text + "\n  - id: 999\n    text: x\n    choices: [{rea}]"
    last = edited.split("\n")[-1]
    assert (
        _labels(client, uri, edited, version, len(edited.split("\n")) - 1, last.index("rea") + 3)
        == []
    )
    # a sequence of ids: the scenarios of a menace, in flow and in block style
    menace = folder / "menace.yaml"
    mtext = menace.read_text(encoding="utf-8")
    muri = _open_text(client, menace, mtext)
    client.diagnostics(muri)
    mlines = mtext.split("\n")
    row = next(i for i, line in enumerate(mlines) if line.strip().startswith("scenarios: ["))
    flow = mlines[row]
    col = flow.index(",") + 2
    got = _labels(client, muri, mtext, 2, row, col)
    indent = flow[: flow.index("scenarios")]
    blocked = [*mlines[:row], indent + "scenarios:", indent + "  - ", *mlines[row + 1 :]]
    want = _labels(client, muri, "\n".join(blocked), 3, row + 1, len(indent) + 4)
    assert want and got == want
    first = flow[flow.index("[") + 1 : flow.index(",")].strip()
    wrapped = [
        *mlines[:row],
        indent + "scenarios: [",
        indent + "    " + first + ",",
        indent + "    ",
        indent + "  ]",
        *mlines[row + 1 :],
    ]
    got = _labels(client, muri, "\n".join(wrapped), 4, row + 2, len(indent) + 4)
    assert got == want


def test_hover_shows_every_version_of_an_id(client, tmp_path):  # noqa: F811
    """A reference to a card with several versions: the hover shows each of them, and go to
    definition lists each of them."""
    folder = tmp_path / "citadelle"
    shutil.copytree(CONTENT / "citadelle", folder)
    report = check(folder)
    sg = next(iter(report.graphs.values()))
    ref, nodes = next(
        (r, found)
        for r in report.campaigns[0].refs
        if len(found := resolve(sg, r.kinds, r.key)) >= 2
    )
    path = folder / ref.file
    uri = _open_text(client, path, path.read_text(encoding="utf-8"))
    client.diagnostics(uri)
    pos = {"line": ref.line - 1, "character": ref.column}
    hov = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
    value = hov["contents"]["value"]
    for node in nodes:
        rec = sg.records[node]
        assert f"`{rec.key}`" in value and f"_{rec.file}:{rec.line}_" in value, (node, value)
    # go to definition offers each of them too (the editor lists them), not the first only
    locs = client.request(
        "textDocument/definition", {"textDocument": {"uri": uri}, "position": pos}
    )
    assert isinstance(locs, list) and len(locs) == len(nodes)
    want = {
        ((folder / sg.records[n].file).resolve().as_uri(), sg.records[n].line - 1) for n in nodes
    }
    assert {(loc["uri"], loc["range"]["start"]["line"]) for loc in locs} == want


def test_renaming_a_numeric_id_warns_and_writes_no_renamed_from(client, tmp_path):  # noqa: F811
    folder = tmp_path / "citadelle"
    shutil.copytree(CONTENT / "citadelle", folder)
    report = check(folder)
    sg = next(iter(report.graphs.values()))
    taken = {r.key for r in sg.records.values()}
    rec = next(
        r
        for r in sg.records.values()
        if r.kind == "paragraph" and not r.parent and "id" in r.data and r.key.isdigit()
    )
    new = next(str(n) for n in range(900, 9999) if str(n) not in taken)
    path = folder / rec.file
    uri = _open_text(client, path, path.read_text(encoding="utf-8"))
    client.diagnostics(uri)
    row, col = _id_line(path, rec.key)
    client.next_id += 1
    rid = client.next_id
    client.send(
        {
            "id": rid,
            "method": "textDocument/rename",
            "params": {
                "textDocument": {"uri": uri},
                "position": {"line": row, "character": col},
                "newName": new,
            },
        }
    )
    shown = []
    while True:
        msg = client.messages.get(timeout=60)
        if msg.get("method") == "window/showMessage":
            shown.append(msg["params"])
        if msg.get("id") == rid and "method" not in msg:
            answer = msg
            break
    assert "error" not in answer, answer
    edits = [e for es in answer["result"]["changes"].values() for e in es]
    assert not any("renamed_from" in e["newText"] for e in edits)
    assert any(
        m["type"] == 2 and "sauvegardes" in m["message"] and rec.key in m["message"] for m in shown
    ), shown
    for file_uri, es in answer["result"]["changes"].items():
        target = Path(file_uri.removeprefix("file://"))
        target.write_text(_apply(target.read_text(encoding="utf-8"), es), encoding="utf-8")
    after = check(folder)
    assert [f for f in after.findings if f.severity == "error"] == []


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("x:\n  scenarios: [a,\n    b, c,\n    ", "scenarios"),  # a wrapped list of ids
        ("x:\n  requires: {item: 209,\n     flag: ", "flag"),  # a wrapped mapping's value
        ("x:\n  requires: {item: 209,\n     fl", None),  # a key's place: nothing
        ("x:\n  choices: [\n    {text: y, read: 3},\n    ", "choices"),
        ("x:\n  requires: {any: [\n    a,\n    ", "any"),  # nested, the inner one open
        ("x:\n  scenarios: [a,\n    b]\n  read: ", "read"),  # closed above: block style
        ("x:\n  text: >\n    Il dit [sic\n  read: ", "read"),  # a bracket in prose is none
    ],
)
def test_field_at_a_flow_collection_over_several_lines(text, field):
    from pipeline.editor.lsp import field_at

    rows = text.split("\n")
    assert field_at(text, len(rows) - 1, len(rows[-1])) == field
