"""``gamebook lsp`` under bursts of edits (issue 31): whatever the gaps between the keys (from
none to longer than the debounce), the last version of the text always gets its diagnostics,
and no older verdict comes after it.  Each version breaks the same reference with its own
unknown id, so a diagnostic tells which version it was made from."""

from __future__ import annotations

import queue
import random
import threading
import time

import pytest
from test_lsp import Client, campaign  # noqa: F401  (the fixture is used by name)

pytest.importorskip("pygls")

BURSTS = 4


def _version_of(diags: list[dict], tag: str) -> int | None:
    """The version a publication was made from: the number after ``tag`` in its REF001."""
    for d in diags:
        if d.get("code") != "REF001":
            continue
        msg = d["message"]
        at = msg.find(tag)
        if at >= 0:
            digits = ""
            for ch in msg[at + len(tag) :]:
                if not ch.isdigit():
                    break
                digits += ch
            if digits:
                return int(digits)
    return None


def test_the_last_edit_of_every_burst_gets_its_diagnostics(campaign):  # noqa: F811
    folder, _sg, ref = campaign
    path = folder / ref.file
    uri = path.resolve().as_uri()
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    line, col = lines[ref.line - 1], ref.column - 1
    tag = ref.key + "_v"

    def broken(version: int) -> str:
        out = list(lines)
        out[ref.line - 1] = line[:col] + line[col:].replace(ref.key, f"{tag}{version}", 1)
        return "".join(out)

    rng = random.Random(31)
    c = Client()
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        c.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        assert c.diagnostics(uri) == []
        version = 1
        for burst in range(BURSTS):
            for _ in range(rng.randint(1, 5)):
                version += 1
                # now and then the clean text: a verdict with no finding at all
                new = text if rng.random() < 0.2 else broken(version)
                c.notify(
                    "textDocument/didChange",
                    {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"text": new}],
                    },
                )
                time.sleep(rng.uniform(0, 0.2))
            version += 1
            last = version
            c.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": last},
                    "contentChanges": [{"text": broken(last)}],
                },
            )
            # the last version's verdict comes, and nothing older after it
            seen: int | None = None
            deadline = time.monotonic() + 10
            while seen != last:
                left = deadline - time.monotonic()
                assert left > 0, f"burst {burst}: no diagnostics for version {last}"
                try:
                    seen = _version_of(c.diagnostics(uri, timeout=left), tag)
                except queue.Empty:
                    pytest.fail(f"burst {burst}: no diagnostics for version {last}")
            while True:
                try:
                    later = c.diagnostics(uri, timeout=0.3)
                except queue.Empty:
                    break
                assert _version_of(later, tag) == last, f"burst {burst}: a stale verdict"
    finally:
        c.close()


def test_an_analysis_that_fails_still_gives_the_edit_its_verdict(campaign, capsys):  # noqa: F811
    """An exception in an incremental check (the worker thread's) is reported on stderr and
    the campaign is checked from scratch: the edit is not left without diagnostics."""
    import asyncio
    import types

    from lsprotocol import types as T

    from pipeline.editor.lsp import _Server

    folder, _sg, ref = campaign
    path = (folder / ref.file).resolve()
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    sent: list = []
    ls = types.SimpleNamespace(
        workspace=types.SimpleNamespace(
            text_documents={uri: types.SimpleNamespace(source=text.replace(ref.key, "zz_v9", 1))}
        ),
        text_document_publish_diagnostics=sent.append,
    )
    srv = _Server(ls, T)
    real = srv.workspace.analyse
    calls = []

    def flaky(f, texts, *stale):
        calls.append(f)
        if len(calls) == 1:
            raise RuntimeError("an incremental step gone wrong")
        return real(f, texts, *stale)

    srv.workspace.analyse = flaky  # type: ignore[method-assign]
    # in a thread of its own: a sync Playwright session left open by an earlier test in this
    # worker keeps an event loop running in the main thread, where asyncio.run refuses to start
    done = threading.Thread(target=asyncio.run, args=(srv.check_later(folder.resolve(), 0),))
    done.start()
    done.join(timeout=60)
    assert not done.is_alive(), "the check never finished"
    srv.worker.shutdown(wait=True)
    mine = [p for p in sent if p.uri == uri]
    assert len(calls) == 2 and mine, "the edit got no diagnostics"
    assert any(d.code == "REF001" and "zz_v9" in d.message for d in mine[-1].diagnostics)
    assert "an incremental step gone wrong" in capsys.readouterr().err
