"""Structural edits in the language server's workspace (``pipeline.story.incremental.patch``): a
choice added, removed or re-pointed, a reference to nothing, a guard added, lines moved, two
files at once — after each, the workspace patched its graph instead of building it again,
and its findings are exactly those of a cold ``gamebook check`` of the same texts."""

from __future__ import annotations

import gc
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from pipeline.editor.workspace import Workspace
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402  (bench/ is not a package)

CAMPAIGNS = sorted(p.parent for p in (ROOT / "content").glob("*/campaign.yaml"))
_READ = re.compile(r"^( +)- text: [^\n]*\n\1  read: (\d+)\n", re.M)


def _row(f) -> tuple:
    return (f.code, f.severity, f.message, f.file, f.line, f.column, f.node, f.cause)


def _cold(folder: Path, texts: dict[Path, str], tmp: Path) -> list[tuple]:
    copy = tmp / "cold" / folder.name
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(folder, copy)
    for path, text in texts.items():
        (copy / path.relative_to(folder)).write_text(text, encoding="utf-8")
    return [_row(f) for f in check(copy, jobs=1).findings]


def _edits(text: str, rng: random.Random, numbers: list[int]) -> list[tuple[str, str]]:
    """Structural edits of one generated file: (what, new text)."""
    choices = list(_READ.finditer(text))
    assert len(choices) > 10
    out = []
    m = rng.choice(choices)
    indent = m.group(1)
    new = f"{indent}- text: Un choix de plus\n{indent}  read: {rng.choice(numbers)}\n"
    out.append(("added", text[: m.start()] + new + text[m.start() :]))
    m = rng.choice(choices)
    out.append(("removed", text[: m.start()] + text[m.end() :]))
    m = rng.choice(choices)
    out.append(("re-pointed", text[: m.start(2)] + str(rng.choice(numbers)) + text[m.end(2) :]))
    m = rng.choice(choices)
    out.append(("to nothing", text[: m.start(2)] + "987654" + text[m.end(2) :]))
    m = rng.choice(choices)
    guard = f"{indent}  requires:\n{indent}    flag: jamais_pose\n"
    out.append(("guarded", text[: m.end()] + guard + text[m.end() :]))
    # every choice of one paragraph gone: a dead end, what only it led to unreachable
    block = re.search(r"(?m)^    choices:\n((?: {6}.*\n)+)", text[len(text) // 3 :])
    assert block is not None
    start = len(text) // 3 + block.start()
    out.append(("emptied", text[:start] + text[len(text) // 3 + block.end() :]))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_structural_edits_patch_the_graph_and_give_the_cold_findings(
    seed: int, tmp_path: Path
) -> None:
    gen = generate.generate(3000, data_dir=tmp_path / "data")
    work = tmp_path / "work"
    shutil.copytree(gen.folder, work)
    files = sorted((work / "livre").glob("*.yaml"))
    rng = random.Random(seed)
    ws = Workspace()
    first = ws.analyse(work, {})
    assert first.path == "full"
    numbers = sorted(int(n.partition(":")[2]) for n in first.graph.records if "paragraph:" in n)
    target = rng.choice(files)
    original = target.read_text(encoding="utf-8")
    texts: dict[Path, str] = {}
    for what, text in _edits(original, rng, numbers):
        texts = {target: text}
        a = ws.analyse(work, texts)
        assert a.path == "patched", what
        assert [_row(f) for f in a.findings] == _cold(work, texts, tmp_path), what
        # edits pile up: the next one patches the graph this one patched
    other = next(f for f in files if f != target)
    both = {target: texts[target], other: _edits(other.read_text("utf-8"), rng, numbers)[0][1]}
    a = ws.analyse(work, both)
    assert a.path == "patched"
    assert [_row(f) for f in a.findings] == _cold(work, both, tmp_path)
    # back to the files on disk: the cold findings of the generated campaign
    a = ws.analyse(work, {})
    assert a.path == "patched"
    assert [_row(f) for f in a.findings] == [_row(f) for f in first.findings]
    assert ws.counts["full"] == 1


def test_a_text_edit_that_moves_lines_is_not_a_new_graph(tmp_path: Path) -> None:
    gen = generate.generate(1000, data_dir=tmp_path / "data")
    work = tmp_path / "work"
    shutil.copytree(gen.folder, work)
    target = sorted((work / "livre").glob("*.yaml"))[0]
    text = target.read_text(encoding="utf-8")
    ws = Workspace()
    ws.analyse(work, {})
    # a one-line text made a block of three lines, and a comment further down
    m = re.search(r"(?m)^    text: (.*)\n", text)
    assert m is not None
    block = f"    text: |\n      {m.group(1)}\n      Et une ligne de plus.\n"
    edited = text[: m.start()] + block + text[m.end() :]
    edited = edited.replace("\nparagraphs:\n", "\n# les paragraphes\nparagraphs:\n", 1)
    a = ws.analyse(work, {target: edited})
    assert a.path in ("kept", "shifted", "patched")
    assert [_row(f) for f in a.findings] == _cold(work, {target: edited}, tmp_path)


@pytest.mark.parametrize("folder", CAMPAIGNS, ids=[p.name for p in CAMPAIGNS])
def test_a_reference_moved_in_a_shipped_campaign(folder: Path, tmp_path: Path) -> None:
    """A reference re-pointed to another record of its kinds: whichever path the workspace
    takes, the cold findings."""
    work = tmp_path / folder.name
    shutil.copytree(folder, work)
    ws = Workspace()
    first = ws.analyse(work, {})
    camp = first.campaign
    if camp is None or first.graph is None:
        pytest.skip("no game")
    refs = [r for r in camp.refs if r.file != "campaign.yaml" and r.edge is not None]
    rng = random.Random(folder.name)
    for ref in rng.sample(refs, min(3, len(refs))):
        others = sorted(
            rec.key
            for rec in first.graph.records.values()
            if rec.kind in ref.kinds and rec.key != ref.key
        )
        path = work / ref.file
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        line = lines[ref.line - 1]
        col = ref.column - 1
        if not others or ref.key not in line[col:]:
            continue
        lines[ref.line - 1] = line[:col] + line[col:].replace(ref.key, rng.choice(others), 1)
        texts = {path: "".join(lines)}
        a = ws.analyse(work, texts)
        assert [_row(f) for f in a.findings] == _cold(work, texts, tmp_path)


def test_a_long_run_of_random_structural_edits(tmp_path: Path) -> None:
    """Twenty edits in a row, each on the texts the previous one left (the graph patched
    again and again, its search trees and remembered answers reused): the cold findings
    after every one."""
    gen = generate.generate(2000, data_dir=tmp_path / "data")
    work = tmp_path / "work"
    shutil.copytree(gen.folder, work)
    files = sorted((work / "livre").glob("*.yaml"))
    texts = {f: f.read_text(encoding="utf-8") for f in files}
    ws = Workspace()
    first = ws.analyse(work, {}).warm()
    assert "_level" in first.graph.graph.graph
    numbers = sorted(int(n.partition(":")[2]) for n in first.graph.records if "paragraph:" in n)
    rng = random.Random(31)
    paths = []
    for _ in range(20):
        f = rng.choice(files)
        what, text = rng.choice(_edits(texts[f], rng, numbers)[:4])
        texts[f] = text
        a = ws.analyse(work, texts)
        paths.append(a.path)
        assert [_row(x) for x in a.findings] == _cold(work, texts, tmp_path), what
        a.warm()  # as the server does: the graph's levels made, the next patch keeps them
    # an edit may happen to change nothing the checks read (re-pointed to the same paragraph)
    assert "full" not in paths, paths
    assert paths.count("patched") >= 15, paths


def _one_edit_per_path(tmp_path: Path) -> tuple[Path, Path, list[tuple[str, str]]]:
    """A generated campaign, one of its files, and edits of it that take each path of the
    workspace in turn: (the path expected, the file's new text)."""
    gen = generate.generate(1000, data_dir=tmp_path / "data")
    work = tmp_path / "work"
    shutil.copytree(gen.folder, work)
    target = sorted((work / "livre").glob("*.yaml"))[0]
    text = target.read_text(encoding="utf-8")
    m = re.search(r"(?m)^    text: (.*)\n", text)
    read = _READ.search(text)
    ident = re.search(r"(?m)^  - id: (\d+)$", text)
    assert m is not None and read is not None and ident is not None
    typed = text[: m.end(1)] + " encore" + text[m.end(1) :]
    moved = text[: read.start(2)] + str(int(read.group(2)) + 1) + text[read.end(2) :]
    renamed = text[: ident.start(1)] + "987654" + text[ident.end(1) :]
    again = _READ.search(renamed)
    assert again is not None
    moved_too = renamed[: again.start(2)] + str(int(again.group(2)) + 2) + renamed[again.end(2) :]
    return (
        work,
        target,
        [
            ("kept", typed),
            ("shifted", "# une note\n" + typed),
            ("patched", moved),
            ("full", renamed),
            ("patched", moved_too),
            ("full", text),
        ],
    )


def test_the_look_up_tables_follow_every_edit(tmp_path: Path) -> None:
    """What hover and definition read (the references on a line, the nodes of a key) is,
    after each edit, what the new campaign says, though the tables are handed on from one
    analysis to the next and made per file."""
    work, target, edits = _one_edit_per_path(tmp_path)
    ws = Workspace()
    ws.analyse(work, {}).warm()
    for path, new in [("full", ""), *edits]:
        a = ws.analyse(work, {target: new} if new else {})
        assert a.path == path
        camp = a.campaign
        assert camp is not None
        by_line: dict[tuple[str, int], list] = {}
        for ref in camp.refs:
            by_line.setdefault((ref.file, ref.line), []).append(ref)
        for (rel, line), refs in by_line.items():
            assert a.refs_at(rel, line) == refs
        assert a.refs_at(target.relative_to(work).as_posix(), 10**6) == []
        keys: dict[str, list[str]] = {}
        for node, rec in a.index.items():
            keys.setdefault(str(int(rec.key)) if rec.key.isdigit() else rec.key, []).append(node)
        for key, nodes in keys.items():
            assert a.nodes_with_key(key) == nodes
        a.warm()


def test_an_analysis_leaves_no_cyclic_garbage(tmp_path: Path, monkeypatch) -> None:
    """The workspace freezes what it holds out of the cyclic collector's reach
    (``workspace._freeze``): sound only while every analysis, whichever its path, leaves
    nothing that reference counting alone cannot free."""
    import pipeline.editor.workspace as W

    monkeypatch.setattr(W, "_freeze", lambda: None)
    work, target, edits = _one_edit_per_path(tmp_path)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        Workspace().analyse(work, {}).warm()  # what the first use imports and caches
        gc.collect()
        ws = Workspace()
        ws.analyse(work, {})
        assert gc.collect() == 0
        for path, new in edits:
            a = ws.analyse(work, {target: new})
            assert a.path == path
            a.warm()
            assert gc.collect() == 0, path
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("seed", range(6))
def test_reachability_kept_by_levels_is_a_search_from_the_root(seed: int) -> None:
    """``incremental._reach`` after random edge changes on random graphs (chains with
    branches and loops, some nodes reached by one edge only): the set a search from the root
    finds, and levels that keep their promise (every reached node but the root has a reached
    predecessor one level or more below)."""
    from pipeline.story.incremental import _reach

    rng = random.Random(seed)
    n = 400
    nodes = [f"n{i}" for i in range(n)]
    succ: dict[str, dict] = {v: {} for v in nodes}
    for i, v in enumerate(nodes[1:], 1):
        succ[nodes[rng.randrange(max(0, i - 5), i)]][v] = {}  # each node from one a bit before
    for _ in range(n // 2):
        succ[rng.choice(nodes)][rng.choice(nodes)] = {}
    root = nodes[0]

    def pred_of(succ: dict) -> dict:
        pred: dict[str, dict] = {v: {} for v in succ}
        for s, outs in succ.items():
            for t in outs:
                pred[t][s] = {}
        return pred

    def search(succ: dict) -> set:
        out, stack = {root}, [root]
        while stack:
            for m in succ[stack.pop()]:
                if m not in out:
                    out.add(m)
                    stack.append(m)
        return out

    seen, level = search(succ), None
    for _ in range(60):
        sources = set(rng.sample(nodes, rng.choice((1, 1, 2, 3))))
        removed = []
        succ = dict(succ)
        for s in sources:
            outs = dict(succ[s])
            for t in list(outs):
                if rng.random() < 0.6:
                    del outs[t]
                    removed.append((s, t))
            for _ in range(rng.choice((0, 1, 1, 2))):
                t = rng.choice(nodes)
                if t != s:
                    outs[t] = {}
            succ[s] = outs
        removed = [(s, t) for s, t in removed if t not in succ[s]]
        pred = pred_of(succ)
        seen, level = _reach(seen, level, removed, succ, pred, sources, root)
        assert seen == search(succ)
        assert set(level) == seen and level[root] == 0
        for v in seen - {root}:
            assert any(p in seen and level[p] < level[v] for p in pred[v]), v


def test_a_patched_check_forgets_nothing_the_checks_read(tmp_path: Path) -> None:
    """After a structural edit the per-node hooks are asked about the touched nodes only: the
    fields they read of the other records (``choices``, ``end``...) still count as read, or a
    later edit of one of them would be taken for a text typed and keep stale findings."""
    work, target, edits = _one_edit_per_path(tmp_path)
    ws = Workspace()
    ws.analyse(work, {})
    held = ws._held[work.resolve()]
    before = dict(held.reads)
    moved = next(text for path, text in edits if path == "patched")
    assert ws.analyse(work, {target: moved}).path == "patched"
    for kind, fields in before.items():
        assert fields <= held.reads.get(kind, frozenset()), kind


@pytest.mark.parametrize("stop_at", [1, 2, 5])
def test_a_check_stopped_for_a_newer_edit_leaves_the_workspace_as_it_was(
    stop_at: int, tmp_path: Path
) -> None:
    """The language server stops a structural edit's check when a newer edit waits (once
    the files are parsed, or between two checks over the graph): nothing of it is kept, and
    the next analysis, of the newer texts, gives the cold findings."""
    gen = generate.generate(1000, data_dir=tmp_path / "data")
    work = tmp_path / "work"
    shutil.copytree(gen.folder, work)
    ws = Workspace()
    first = ws.analyse(work, {})
    numbers = sorted(int(n.partition(":")[2]) for n in first.graph.records if "paragraph:" in n)
    target = sorted((work / "livre").glob("*.yaml"))[0]
    edits = _edits(target.read_text(encoding="utf-8"), random.Random(7), numbers)
    asked = 0

    def stale() -> bool:
        nonlocal asked
        asked += 1
        return asked >= stop_at

    stopped = {target: edits[0][1]}
    assert ws.analyse(work, stopped, stale) is None
    assert ws.counts["stopped"] == 1 and ws.last(work) is first
    newer = {target: edits[2][1]}
    a = ws.analyse(work, newer, lambda: False)
    assert a is not None and a.path == "patched"
    assert [_row(f) for f in a.findings] == _cold(work, newer, tmp_path)
    # and back to the stopped texts, checked whole this time
    b = ws.analyse(work, stopped)
    assert b.path == "patched"
    assert [_row(f) for f in b.findings] == _cold(work, stopped, tmp_path)
