"""The checks of ``checks.APART`` run in a forked child beside the others on a large graph: the
findings are those of a run in one process, in the same order, whatever the child does."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
from conftest import append, copy_base, replace

from pipeline.content.project import load
from pipeline.story import checks, graph

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402  (bench/ is not a package)

LOOP = """
  - id: 10
    text: Le garde vous renvoie vers l'archiviste.
    choices:
      - text: Aller voir l'archiviste.
        read: 11
  - id: 11
    text: L'archiviste vous renvoie vers le garde.
    choices:
      - text: Retourner voir le garde.
        read: 10
"""

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> list[graph.StoryGraph]:
    """Every shipped campaign's graph, a generated one (unreachable nodes, broken references)
    and one with findings of both sides: a loop (the child's) and an unreachable record."""
    gen = generate.generate(2000, data_dir=tmp_path_factory.mktemp("data"))
    looped = copy_base("citadelle", tmp_path_factory.mktemp("loop"))
    path = looped / "paragraphes.yaml"
    append(path, LOOP, indent=2)
    replace(
        path,
        "        read: 3\n",
        "        read: 3\n      - text: Suivre le garde.\n        read: 10\n",
    )
    append(path, "- id: 12\n  text: Une salle que rien n'ouvre.\n  end: true\n", indent=2)
    out = []
    for folder in (ROOT / "content", gen.folder, looped):
        campaigns, _ = load(folder)
        out += [graph.build(camp)[0] for camp in campaigns]
    return out


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    # every graph is « large », and the test runner's own threads do not count
    monkeypatch.setattr(checks, "APART_THRESHOLD", 0)
    monkeypatch.setattr(threading, "active_count", lambda: 1)


def test_apart_gives_the_findings_of_one_process_in_order(graphs, forking) -> None:
    for sg in graphs:
        assert checks.run(sg, apart=True) == checks.run(sg)
    # something to compare: findings from the child and from this process, in one run
    codes = [f.code for f in checks.run(graphs[-1], apart=True)]
    assert "GRAPH004" in codes and "GRAPH003" in codes, codes


def test_a_child_forks_once_per_run(graphs, forking, monkeypatch) -> None:
    forks: list[int] = []
    real = os.fork

    def spy() -> int:
        pid = real()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", spy)
    for sg in graphs:
        checks.run(sg, apart=True)
    assert len(forks) == len(graphs)


def test_a_failing_child_is_not_trusted(graphs, forking, monkeypatch) -> None:
    parent = os.getpid()
    real = checks.APART[0]

    def fails_in_the_child(sg: graph.StoryGraph) -> list:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return real(sg)

    monkeypatch.setattr(checks, "APART", (fails_in_the_child,))
    monkeypatch.setattr(
        checks, "CHECKS", [fails_in_the_child if c is real else c for c in checks.CHECKS]
    )
    for sg in graphs:
        alone = checks.run(sg)
        assert checks.run(sg, apart=True) == alone


def test_no_fork_with_a_memo_or_threads_or_a_small_graph(graphs, monkeypatch) -> None:
    forks: list[int] = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or (_ for _ in ()).throw(OSError()))
    sg = graphs[-1]
    checks.run(sg, apart=True)  # the threshold: 2,000 records is small
    monkeypatch.setattr(checks, "APART_THRESHOLD", 0)
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    checks.run(sg, apart=True)  # another thread: no fork
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    sg.memo = graph.Memo()
    try:
        checks.run(sg, apart=True)  # a memo: the checks record what they read, here
    finally:
        sg.memo = None
    assert forks == []
    # and a fork that fails leaves the checks to this process
    assert checks.run(sg, apart=True) == checks.run(sg)
    assert forks == [1]


def test_the_childs_findings_keep_their_place(graphs, forking, monkeypatch) -> None:
    from pipeline.findings import Finding

    def before(sg: graph.StoryGraph) -> list:
        return [Finding("GRAPH003", "warning", "avant", "a.yaml", 1, 1)]

    def after(sg: graph.StoryGraph) -> list:
        return [Finding("GRAPH003", "warning", "après", "b.yaml", 1, 1)]

    monkeypatch.setattr(checks, "CHECKS", [before, checks.check_loops, after])
    found = checks.run(graphs[-1], apart=True)
    assert [f.message[:5] for f in found][:: len(found) - 1] == ["avant", "après"]
    assert [f.code for f in found] == ["GRAPH003", "GRAPH004", "GRAPH003"]


def test_meanwhile_runs_once_while_the_child_runs(graphs, forking, monkeypatch) -> None:
    """``meanwhile`` is called once per run, after this process's checks and before the
    child's findings are collected; without a child, after every check."""
    events: list[str] = []
    real_fork = checks._fork

    def spy_fork(sg: graph.StoryGraph):
        child = real_fork(sg)
        assert child is not None

        def collect() -> list:
            events.append("collect")
            return child()

        return collect

    monkeypatch.setattr(checks, "_fork", spy_fork)
    sg = graphs[-1]
    alone = checks.run(sg)
    assert checks.run(sg, apart=True, meanwhile=lambda: events.append("meanwhile")) == alone
    assert events == ["meanwhile", "collect"]
    events.clear()
    assert checks.run(sg, meanwhile=lambda: events.append("meanwhile")) == alone
    assert events == ["meanwhile"]


def test_statistics_made_meanwhile_are_those_of_the_graph(tmp_path, forking) -> None:
    """A cold check computes each campaign's statistics while the child runs the loops check:
    the report's statistics are those ``checks.stats`` gives of its graphs afterwards."""
    from pipeline.story.report import check

    gen = generate.generate(2000, data_dir=tmp_path)
    for folder in (ROOT / "content", gen.folder):
        report = check(folder)
        assert set(report.known) == set(report.graphs)
        again = {cid: checks.stats(sg) for cid, sg in report.graphs.items()}
        assert report.known == again
        report.known.clear()
        fresh = report.stats()
        report.known.update(again)
        assert report.stats() == fresh
