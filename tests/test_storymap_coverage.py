"""Coverage on the story map: nodes coloured by how often simulated games visit them;
never-visited reachable nodes and statically unreachable ones marked apart and listed; the
same data in ``gamebook simulate --format json``.  Every game counts something (the card
games: their cards, characters, months; the table sizes played), and the heatmap's scale has
a legend in colours apart from the kinds'."""

from __future__ import annotations

import html
import itertools
import json
import re
from pathlib import Path

import pytest
from conftest import copy_all, run_cli

from pipeline import schema as S
from pipeline.publish import storymap
from pipeline.story.report import check
from pipeline.story.simulate import simulate

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
            if sg.is_covered(n):
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


# --------------------------------------------------------------------------- what every game counts


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of a CSS hex colour (sRGB, D65)."""
    c = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (((v + 0.055) / 1.055) ** 2.4 if v > 0.04045 else v / 12.92 for v in c)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _delta_e(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


def test_heat_scale_stays_apart_from_every_kind_colour():
    kinds = {k.colour for family in S.KINDS.values() for k in family.values() if k.colour}
    kinds |= set(storymap._PALETTE) | {storymap._CAMPAIGN_COLOUR}
    heat = [c for c, _ in storymap.HEAT]
    for c in heat:
        nearest = min(kinds, key=lambda k: _delta_e(c, k))
        assert _delta_e(c, nearest) >= 20, (c, nearest)
    # light to dark, each step told apart from the next
    lightness = [_lab(c)[0] for c in heat]
    assert lightness == sorted(lightness, reverse=True)
    assert all(_delta_e(a, b) >= 15 for a, b in itertools.pairwise(heat))


def test_heat_steps_follow_the_share_of_games():
    assert [storymap.heat_step(v, 8) for v in (1, 2, 3, 4, 5, 6, 7, 8)] == [0, 1, 1, 2, 2, 3, 3, 4]
    assert storymap.heat_step(3, 3) == len(storymap.HEAT) - 1
    assert storymap.heat_step(1, 100) == 0


def test_map_page_has_the_scale_the_kinds_and_the_tables(built):
    _, coverage, out = built
    for folder in (out / "carte").iterdir():
        if not (folder / "index.html").exists():
            continue
        page = (folder / "index.html").read_text(encoding="utf-8")
        data = _data(folder / "index.html")
        scale = re.search(r'<ol class="sm-legend sm-scale" data-testid="heat-scale">(.*?)</ol>',
                          page, re.S)  # fmt: skip
        assert scale, data["campaign"]["id"]
        colours = re.findall(r"background: (#[0-9a-f]{6})", scale.group(1))
        assert colours == [c for c, _ in storymap.HEAT]
        for _, label in storymap.HEAT:
            assert label in html.unescape(scale.group(1))
        assert [h["colour"] for h in data["coverage"]["heat"]] == colours
        cov = coverage[data["campaign"]["id"]]["coverage"]
        assert 'data-testid="coverage-kinds"' in page
        assert f"{cov['visited']} élément" in page and f"sur {cov['reachable_static']} que" in page
        tables = cov["tables"]
        assert f"Tailles de table (de {tables['min']}" in page


@pytest.mark.parametrize("family", ["complots", "conseil", "roi"])
def test_card_games_count_what_they_exercised(family):
    """No more « 0 sur 0 »: each card game counts its cards (and the Conseil its months)."""
    report = check(CONTENT)
    sg = next(g for g in report.graphs.values() if g.campaign.family == family)
    cov = simulate(sg, runs=6, seed="c", jobs=1).to_json()["coverage"]
    counted = {k for k, spec in S.KINDS[family].items() if spec.covered}
    assert counted and set(cov["by_kind"]) == counted
    assert cov["reachable_static"] == sum(v["reachable"] for v in cov["by_kind"].values()) > 0
    assert 0 < cov["visited"] <= cov["reachable_static"]
    assert all(v["visited"] > 0 for v in cov["by_kind"].values() if v["reachable"] > 1), cov
    played = cov["tables"]["played"]
    assert sum(played.values()) > 0
    assert set(played) >= {str(n) for n in range(cov["tables"]["min"], cov["tables"]["max"] + 1)}


def test_conseil_runs_play_the_months_in_turn():
    report = check(CONTENT)
    sg = next(g for g in report.graphs.values() if g.campaign.family == "conseil")
    visits = simulate(sg, runs=4, seed="m", jobs=1).visits
    assert "scenario:janvier" in visits  # run 1
    assert "scenario:fevrier" in visits  # run 3 (and run 1's sequel when it won)


def test_complots_counts_actions_characters_counters_and_the_variant():
    from engine.complots.coverage import visits
    from engine.complots.rules import Table
    from pipeline.story import compile as comp

    report = check(CONTENT)
    sg = next(g for g in report.graphs.values() if g.campaign.family == "complots")
    table = Table(comp.bundle(sg))
    log = [
        {"key": "setup", "args": {"variant": "inquisiteur"}},
        {"key": "aide", "args": {"seat": 0}},
        {"key": "claim_counter", "args": {"seat": 1, "character": "duchesse"}},
        {"key": "claim_action", "args": {"seat": 1, "character": "capitaine", "target": 2}},
        {"key": "claim_counter", "args": {"seat": 2, "character": "ambassadeur"}},
        {"key": "revenu", "args": {"seat": 2, "n": 1}},
    ]
    assert visits(table, {"log": log}) == {
        "variant:inquisiteur",
        "action:aide",
        "character:duchesse",
        "counter:contre_aide",
        "action:pouvoir_capitaine",
        "character:capitaine",
        "character:ambassadeur",
        "counter:contre_capitaine",
        "action:revenu",
    }
    assert all(n in sg.graph for n in visits(table, {"log": log}))


def test_simulate_text_says_what_it_counted_and_the_tables():
    code, out, err = run_cli(
        ["simulate", "roi", "--content", str(CONTENT), "--runs", "3", "--jobs", "1"]
    )  # fmt: skip
    assert code in (0, 1), err
    assert "couverture par sorte : carte Personnage " in out
    assert (
        "tailles de table (de 2 à 16 joueurs) : 2 joueurs (1 partie), 3 joueurs (1 partie)" in out
    )
    assert "jamais jouées : 5, 6, 7" in out
