"""The parallel load: this process reads a share of the files beside its worker processes, and
the campaigns come out as a serial load gives them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.content import project
from pipeline.content.model import flat, unflat
from pipeline.content.project import _shares, load

CONTENT = Path(__file__).resolve().parent.parent / "content"


def test_shares_split_by_bytes_largest_first(monkeypatch):
    monkeypatch.setattr(project, "OWN_SHARE", 1.0)
    sizes = {0: 100, 1: 60, 2: 50, 3: 40, 4: 10}
    mine, theirs = _shares([0, 1, 2, 3, 4], sizes, 2)
    assert mine == [0, 3] and theirs == [1, 2, 4]
    assert sorted(mine + theirs) == [0, 1, 2, 3, 4]
    # three workers beside this process: it takes about a third of what each of them does
    mine, theirs = _shares([0, 1, 2, 3, 4], sizes, 4)
    assert mine == [0] and theirs == [1, 2, 3, 4]


def test_own_share_weighs_this_process_lighter(monkeypatch):
    sizes = {0: 100, 1: 60, 2: 50, 3: 40, 4: 10}
    # this process does half of what a worker does: every file after the first goes to it
    monkeypatch.setattr(project, "OWN_SHARE", 0.5)
    assert _shares([0, 1, 2, 3, 4], sizes, 2) == ([0], [1, 2, 3, 4])
    monkeypatch.setattr(project, "OWN_SHARE", 0.85)
    assert _shares([0, 1, 2, 3, 4], sizes, 2) == ([0, 4], [1, 2, 3])


def test_flat_model_comes_back_equal(monkeypatch):
    models: list = []
    real = project._absorb

    def spy(camp, model):
        models.append(model)
        return real(camp, model)

    monkeypatch.setattr(project, "_absorb", spy)
    load(CONTENT, jobs=1)
    assert len(models) > 10
    assert any(m.campaign is not None for m in models)
    for model in models:
        back = unflat(flat(model))
        assert back == model
        for name in ("records", "refs", "grants", "conditions", "words"):
            assert [type(x) for x in getattr(back, name)] == [type(x) for x in getattr(model, name)]


def _view(campaigns: list[project.Campaign]) -> list[tuple]:
    return [
        (c.id, c.files, c.records, c.refs, c.grants, c.conditions, c.findings, c.words)
        for c in campaigns
    ]


@pytest.mark.parametrize("jobs", [2, 3])
def test_parallel_load_gives_what_a_serial_load_gives(monkeypatch, jobs):
    serial, stray = load(CONTENT, jobs=1)
    monkeypatch.setattr(project, "PARALLEL_THRESHOLD", 0)
    calls: list[int] = []
    real = project._shares

    def spy(order, sizes, workers):
        calls.append(workers)
        return real(order, sizes, workers)

    monkeypatch.setattr(project, "_shares", spy)
    parallel, stray2 = load(CONTENT, jobs=jobs)
    assert calls == [jobs]  # the parallel path ran
    assert _view(parallel) == _view(serial)
    assert stray2 == stray
