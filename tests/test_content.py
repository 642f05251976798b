"""The starter campaigns: clean, complete (every node and edge kind of their family), and they
compile into bundles the engine accepts — also after a JSON round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import load_bundle
from pipeline import check
from pipeline import schema as S
from pipeline.story import compile as comp

CONTENT = Path(__file__).resolve().parent.parent / "content"
CAMPAIGNS = {"dilemme": "dilemme", "citadelle": "citadelle"}


@pytest.fixture(scope="module")
def report():
    return check(CONTENT)


def test_content_checks_clean(report):
    assert [f"{f.file}:{f.line}: {f.code} {f.message}" for f in report.findings] == []
    assert report.ok


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_every_node_kind_is_used(report, campaign):
    family = CAMPAIGNS[campaign]
    kinds = set(report.stats()["campaigns"][campaign]["kinds"])
    assert set(S.KINDS[family]) - kinds == set()


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_every_edge_kind_is_used(report, campaign):
    family = CAMPAIGNS[campaign]
    used = set(report.stats()["campaigns"][campaign]["edge_kinds"])
    assert S.edge_kinds(family) - used == set()


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_everything_story_is_reachable(report, campaign):
    stats = report.stats()["campaigns"][campaign]
    assert stats["unreachable"] == 0
    assert stats["nodes"] > 20 and stats["edges"] > 20


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_bundle_round_trips_and_loads(report, campaign, tmp_path):
    sg = report.graphs[campaign]
    bundle = comp.bundle(sg)
    again = json.loads(json.dumps(bundle))
    assert again == bundle  # plain JSON values only: nothing lost in a round trip
    assert load_bundle(again)["family"] == CAMPAIGNS[campaign]
    path = comp.write(sg, tmp_path)
    assert load_bundle(path.read_text(encoding="utf-8"))["campaign"]["id"] == campaign


def test_bundle_folds_sub_records_into_parents(report):
    records = comp.bundle(report.graphs["dilemme"])["records"]
    dilemma = next(iter(records["dilemma"].values()))
    assert {"oui_da", "nenni"} <= set(dilemma)
    assert "text" in dilemma["oui_da"]
    scenario = next(iter(comp.bundle(report.graphs["citadelle"])["records"]["scenario"].values()))
    assert scenario["epilogue"] and "text" in scenario["epilogue"][0]


def test_bundle_spells_conditions_as_written(report):
    records = comp.bundle(report.graphs["citadelle"])["records"]
    found = []

    def walk(value):
        if isinstance(value, dict):
            if "requires" in value:
                found.append(value["requires"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(records)
    assert found, "the starter Citadelle campaign uses conditions"
    for cond in found:
        assert isinstance(cond, list)
        assert all(isinstance(atom, dict) and len(atom) == 1 for atom in cond)
