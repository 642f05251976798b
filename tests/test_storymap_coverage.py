"""Coverage on the story map: nodes coloured by how often simulated games visit them;
never-visited reachable nodes and statically unreachable ones marked apart and listed; the
same data in ``gamebook simulate --format json``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import copy_all, run_cli

from pipeline import schema as S
from pipeline import storymap
from pipeline.report import check
from pipeline.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    report = check(CONTENT)
    coverage = {
        cid: simulate(sg, runs=3, seed="t", jobs=1).to_json() for cid, sg in report.graphs.items()
    }
    out = tmp_path_factory.mktemp("carte")
    storymap.write_storymaps(report, out, coverage)
    return report, coverage, out


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="storymap-data">(.*?)</script>', text, re.S)
    assert m
    return json.loads(m.group(1))


def test_map_data_carries_visits_and_marks_never_visited_apart_from_unreachable(built):
    report, coverage, out = built
    for cid, sg in report.graphs.items():
        folder = next(p for p in (out / "carte").iterdir() if (p / "index.html").exists()
                      and _data(p / "index.html")["campaign"]["id"] == cid)  # fmt: skip
        data = _data(folder / "index.html")
        visits = coverage[cid]["coverage"]["visits"]
        assert data["coverage"]["runs"] == 3
        assert len(data["coverage"]["visits"]) == len(data["ids"])
        never = set(coverage[cid]["coverage"]["never_visited"])
        unreachable = set(coverage[cid]["coverage"]["unreachable"])
        for n, v, f in zip(data["ids"], data["coverage"]["visits"], data["flags"], strict=True):
            if sg.is_story(n):
                assert v == visits.get(n, 0)
                assert bool(f & storymap.NEVER) == (n in never), n
                assert bool(f & storymap.UNREACHABLE) == (n in unreachable), n
                assert not (f & storymap.NEVER and f & storymap.UNREACHABLE)
            else:
                assert v == -1 and not f & storymap.NEVER
        page = (folder / "index.html").read_text(encoding="utf-8")
        assert 'data-testid="coverage"' in page and 'id="storymap-colour"' in page
        assert f"Jamais visités ({len(never)})" in page
        assert f"Inatteignables ({len(unreachable)})" in page


def test_node_pages_say_how_often_play_visits_them(built):
    _, _, out = built
    pages = list((out / "carte").glob("*/n/*.html"))
    texts = [p.read_text(encoding="utf-8") for p in pages]
    assert any("Visité dans" in t for t in texts)
    assert all('data-testid="visits"' in t or "Visité" not in t for t in texts)


def test_unreachable_story_nodes_are_listed_apart(tmp_path):
    """An envelope nothing opens: statically unreachable, never visited — in its own list."""
    content = copy_all(tmp_path / "content")
    report = check(content)
    sg = next(iter(report.graphs.values()))
    cov = simulate(sg, runs=2, seed="u", jobs=1).to_json()
    assert set(cov["coverage"]["unreachable"]).isdisjoint(cov["coverage"]["never_visited"])
    storymap.write_storymaps(report, tmp_path / "out", {sg.campaign.id: cov})


@pytest.mark.parametrize("family", S.FAMILIES)
def test_simulate_json_has_the_map_data(family):
    code, out, err = run_cli(
        ["simulate", family, "--content", str(CONTENT), "--runs", "2", "--jobs", "1",
         "--format", "json"]
    )  # fmt: skip
    assert code in (0, 1), err
    data = json.loads(out)
    cov = data["coverage"]
    assert isinstance(cov["visits"], dict)
    assert all(isinstance(v, int) for v in cov["visits"].values())
    assert isinstance(cov["unreachable"], list) and isinstance(cov["never_visited"], list)
    assert all(0 < v <= data["runs"] for v in cov["visits"].values())
