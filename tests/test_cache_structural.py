"""Structural edits re-checked by ``gamebook check`` from its cache on disk
(``pipeline.story.incremental.attempt_structural``): a full check stores the campaign's models and
story graph; after a choice added, removed, re-pointed, pointed to nothing or guarded, the next
check patches that graph (as the language server's workspace does) instead of building it, and
its findings and statistics are exactly those of a cold check of the same files."""

from __future__ import annotations

import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from pipeline.content.cache import Cache
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
import generate  # noqa: E402  (bench/ is not a package)
from test_workspace_structural import _edits  # noqa: E402

CAMPAIGNS = sorted(p.parent for p in (ROOT / "content").glob("*/campaign.yaml"))


def _same_as_cold(content: Path, root: Path) -> Cache:
    """``gamebook check`` with its cache (as the command runs it), compared with a cold one."""
    cache = Cache(root)
    warm = check(content, jobs=1, cache=cache, graphs=False)
    cold = check(content, jobs=1)
    assert warm.findings == cold.findings
    assert warm.stats() == cold.stats()
    return cache


def _generated(tmp: Path, size: int) -> tuple[Path, list[Path], list[int]]:
    gen = generate.generate(size, data_dir=tmp / "data")
    work = tmp / "work"
    shutil.copytree(gen.folder, work)
    files = sorted((work / "livre").glob("*.yaml"))
    sg = check(work, jobs=1).graphs
    numbers = sorted(
        int(n.partition(":")[2]) for g in sg.values() for n in g.records if "paragraph:" in n
    )
    return work, files, numbers


@pytest.mark.parametrize("seed", [1, 2])
def test_each_structural_edit_patches_the_stored_graph(seed: int, tmp_path: Path) -> None:
    work, files, numbers = _generated(tmp_path, 3000)
    root = tmp_path / "cache"
    first = _same_as_cold(work, root)
    assert first.patched == 0
    assert any((root / "states").rglob("*")), "the full check stored its graph"
    rng = random.Random(seed)
    target = rng.choice(files)
    original = target.read_text(encoding="utf-8")
    for what, text in _edits(original, rng, numbers):
        target.write_text(text, encoding="utf-8")
        assert _same_as_cold(work, root).patched == 1, what
        # unchanged since: the per-campaign entry the patched check stored
        again = _same_as_cold(work, root)
        assert again.patched == 0 and again.quick == 0, what
    # a second file edited as well: both patched from the stored full check
    other = next(f for f in files if f != target)
    other_original = other.read_text(encoding="utf-8")
    other.write_text(_edits(other.read_text("utf-8"), rng, numbers)[0][1], encoding="utf-8")
    assert _same_as_cold(work, root).patched == 1
    # a text edited next: not the full path (the quick one when no reference is broken, else
    # the patch again)
    text = target.read_text(encoding="utf-8")
    m = re.search(r"(?m)^    text: .*$", text)
    assert m is not None
    target.write_text(text[: m.start()] + "    text: Réécrit." + text[m.end() :], "utf-8")
    after = _same_as_cold(work, root)
    assert after.quick + after.patched == 1
    # back to the files as generated: the full check's own stored result
    target.write_text(original, encoding="utf-8")
    other.write_text(other_original, encoding="utf-8")
    back = _same_as_cold(work, root)
    assert back.patched == 0 and back.quick == 0


def test_a_run_of_random_structural_edits_on_disk(tmp_path: Path) -> None:
    """Edits piling up in several files, each checked from the cache: the cold findings after
    every one, and most of them patched."""
    work, files, numbers = _generated(tmp_path, 2000)
    root = tmp_path / "cache"
    _same_as_cold(work, root)
    rng = random.Random(31)
    patched = 0
    for _ in range(8):
        f = rng.choice(files)
        _, text = rng.choice(_edits(f.read_text("utf-8"), rng, numbers)[:4])
        f.write_text(text, encoding="utf-8")
        patched += _same_as_cold(work, root).patched
    assert patched >= 6


def test_a_corrupt_stored_graph_is_not_trusted(tmp_path: Path) -> None:
    work, files, numbers = _generated(tmp_path, 1000)
    root = tmp_path / "cache"
    _same_as_cold(work, root)
    for entry in (root / "states").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    _, text = _edits(files[0].read_text("utf-8"), random.Random(3), numbers)[0]
    files[0].write_text(text, encoding="utf-8")
    assert _same_as_cold(work, root).patched == 0


def test_a_record_added_takes_the_full_path(tmp_path: Path) -> None:
    work, files, _ = _generated(tmp_path, 1000)
    root = tmp_path / "cache"
    _same_as_cold(work, root)
    text = files[0].read_text("utf-8")
    m = re.search(r"(?m)^  - number: (\d+)\n", text)
    assert m is not None
    block = "  - number: 999999\n    text: Un paragraphe de plus.\n    end: victory\n"
    files[0].write_text(text[: m.start()] + block + text[m.start() :], "utf-8")
    assert _same_as_cold(work, root).patched == 0


@pytest.mark.parametrize("folder", CAMPAIGNS, ids=[p.name for p in CAMPAIGNS])
def test_a_reference_moved_in_a_shipped_campaign(folder: Path, tmp_path: Path) -> None:
    """Every game's hooks: a reference re-pointed to another record of its kinds, checked
    from the cache, whichever path it takes, gives the cold findings."""
    work = tmp_path / folder.name
    shutil.copytree(folder, work)
    root = tmp_path / "cache"
    _same_as_cold(work, root)
    report = check(work, jobs=1)
    graphs = list(report.graphs.values())
    if not graphs:
        pytest.skip("no game")
    sg = graphs[0]
    refs = [r for r in sg.campaign.refs if r.file != "campaign.yaml" and r.edge is not None]
    rng = random.Random(folder.name)
    for ref in rng.sample(refs, min(3, len(refs))):
        others = sorted(
            rec.key for rec in sg.records.values() if rec.kind in ref.kinds and rec.key != ref.key
        )
        path = work / ref.file
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        line = lines[ref.line - 1]
        col = ref.column - 1
        if not others or ref.key not in line[col:]:
            continue
        lines[ref.line - 1] = line[:col] + line[col:].replace(ref.key, rng.choice(others), 1)
        path.write_text("".join(lines), encoding="utf-8")
        _same_as_cold(work, root)
