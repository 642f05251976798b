"""The language server's in-memory campaigns (``pipeline.editor.workspace``): after every edit, the
findings are those of a cold ``gamebook check`` of the folder with the same texts written in
it, whichever path the workspace took (kept, shifted or full)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.editor.workspace import Workspace
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS = sorted(p.parent for p in (ROOT / "content").glob("*/campaign.yaml"))


def _cold(folder: Path, texts: dict[Path, str], tmp: Path) -> list[tuple]:
    copy = tmp / "cold" / folder.name
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(folder, copy)
    for path, text in texts.items():
        (copy / path.relative_to(folder)).write_text(text, encoding="utf-8")
    return [_row(f) for f in check(copy, jobs=1).findings]


def _row(f) -> tuple:
    return (f.code, f.severity, f.message, f.file, f.line, f.column, f.node)


def _content_file(folder: Path) -> Path:
    """The campaign's largest content file other than the manifest."""
    files = [p for p in folder.rglob("*.yaml") if p.name != "campaign.yaml"]
    return max(files, key=lambda p: p.stat().st_size)


def _text_line(lines: list[str]) -> int:
    """A line holding a plain French text value (``text: …`` on one line)."""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(("text: ", "title: ", "hint: ", "flavour: ")) and len(stripped) > 12:
            value = stripped.split(":", 1)[1].strip()
            if value[:1] not in "|>[{&*!" and "#" not in value:
                return i
    raise AssertionError("no one-line text in the file")


@pytest.mark.parametrize("folder", CAMPAIGNS, ids=[p.name for p in CAMPAIGNS])
def test_every_edit_gives_the_cold_findings(folder: Path, tmp_path: Path) -> None:
    work = tmp_path / "work" / folder.name
    shutil.copytree(folder, work)
    target = _content_file(work)
    original = target.read_text(encoding="utf-8")
    lines = original.splitlines(keepends=True)
    i = _text_line(lines)
    ws = Workspace()

    def step(text: str, expect_path: str | None = None) -> None:
        texts = {target: text}
        a = ws.analyse(work, texts)
        assert [_row(f) for f in a.findings] == _cold(work, texts, tmp_path)
        if expect_path is not None:
            assert a.path == expect_path

    step(original, "full")
    # a word typed in a text: the checks never read it
    retyped = lines.copy()
    value = retyped[i].rstrip("\n").rstrip()
    quote = value[-1] if value[-1] in "\"'" else ""
    retyped[i] = value[: len(value) - len(quote)] + " encore" + quote + "\n"
    step("".join(retyped))
    # a comment line added above everything: every position moves down by one
    step("# une note de l'autrice\n" + "".join(retyped), "shifted")
    # a line of YAML that does not parse: the file's records stay for completion and hover
    known = {rec.node for rec in ws.last(work).index.values() if rec.file == target.name}
    broken = lines.copy()
    broken[i] = broken[i].rstrip("\n") + ' : "\n'
    step("".join(broken), "full")
    a = ws.last(work)
    assert any(f.code == "YAML001" for f in a.findings)
    assert known and known <= set(a.index)
    # back to the file as it was
    step(original, "full")


def test_a_structural_edit_rebuilds_from_memory(tmp_path: Path) -> None:
    folder = CAMPAIGNS[0]
    work = tmp_path / folder.name
    shutil.copytree(folder, work)
    ws = Workspace()
    first = ws.analyse(work, {})
    camp = first.campaign
    assert camp is not None
    ref = next(r for r in camp.refs if r.file != "campaign.yaml" and r.key.isidentifier())
    path = work / ref.file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    line = lines[ref.line - 1]
    col = ref.column - 1
    lines[ref.line - 1] = line[:col] + line[col:].replace(ref.key, ref.key + "_inconnu", 1)
    texts = {path: "".join(lines)}
    a = ws.analyse(work, texts)
    assert a.path == "full"
    assert any(f.code == "REF001" and f.line == ref.line for f in a.findings)
    assert [_row(f) for f in a.findings] == _cold(work, texts, tmp_path)
    assert path.read_text(encoding="utf-8") != texts[path]  # nothing written to the disk
