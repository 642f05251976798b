"""``gamebook simulate``: planted faults the static checker cannot see, a missing edge caught in
play, determinism whatever the number of workers, and engine failures with a replay script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine.citadelle.game
from pipeline import check
from pipeline.story.simulate import simulate, write_failure_scripts

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "fixtures" / "base" / "citadelle"

#: a choice whose two conditions each look fine to the static checker, but that can never hold
#: together in play: the paragraph behind it is statically reachable, yet never reached
IMPOSSIBLE = """
      - text: Attendre que la pompe se répare toute seule.
        requires: [{flag: portes_ouvertes}, {not_flag: portes_ouvertes}]
        read: 4
  - id: 4
    text: L'eau remonte d'elle-même, comme par miracle.
    end: true
"""


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    folder = tmp_path / "citadelle"
    shutil.copytree(BASE, folder)
    path = folder / "paragraphes.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = "        read: 3\n"
    path.write_text(text.replace(anchor, anchor + IMPOSSIBLE.lstrip("\n"), 1), encoding="utf-8")
    return folder


def _graph(folder: Path):
    report = check(folder)
    return report, report.graphs["citadelle"]


def test_sim001_a_condition_that_never_holds_in_play_is_found_by_simulation_only(planted: Path):
    report, sg = _graph(planted)
    assert [f.code for f in report.findings] == []  # the static check sees nothing wrong
    sim = simulate(sg, runs=30, seed="plant", jobs=1)
    never = sim.to_json()["coverage"]["never_visited"]
    assert "paragraph:4" in never
    finding = next(f for f in sim.findings if f.node == "paragraph:4")
    assert finding.code == "SIM001" and finding.severity == "warning"
    assert finding.file == "paragraphes.yaml"
    detail = next(d for d in sim.details if d["node"] == "paragraph:4")
    assert detail["nearest_visited"] == "paragraph:1"
    assert "not_flag" in detail["edge"]["condition"]
    assert "paragraph:1" not in never and "paragraph:2" not in never


def test_sim002_an_edge_the_static_graph_misses_is_caught_in_play(monkeypatch, tmp_path: Path):
    folder = tmp_path / "citadelle"
    shutil.copytree(BASE, folder)
    _, sg = _graph(folder)
    # the checker "forgets" the edges to paragraph 2
    for src in list(sg.graph.predecessors("paragraph:2")):
        sg.graph.remove_edge(src, "paragraph:2")
    sg.graph.graph.pop("_reachable", None)
    sim = simulate(sg, runs=20, seed="edge", jobs=1)
    sim002 = [f for f in sim.findings if f.code == "SIM002"]
    assert [f.node for f in sim002] == ["paragraph:2"]
    assert sim002[0].severity == "error"


def test_same_seed_same_report_whatever_the_number_of_workers(planted: Path):
    _, sg = _graph(planted)
    serial = simulate(sg, runs=12, seed="jobs", jobs=1).to_json()
    parallel = simulate(sg, runs=12, seed="jobs", jobs=2).to_json()
    serial.pop("seconds")
    parallel.pop("seconds")
    assert serial == parallel


def test_sim003_an_engine_failure_is_reported_with_a_replay_script(
    monkeypatch, planted: Path, tmp_path: Path
):
    real = engine.citadelle.game.apply
    calls = {"n": 0}

    def flaky(bundle, state, action, *offered):  # the offered actions, as the plug-in kept them
        calls["n"] += 1
        if calls["n"] == 7:
            raise RuntimeError("panne simulée")
        return real(bundle, state, action, *offered)

    monkeypatch.setattr(engine.citadelle.game, "apply", flaky)
    _, sg = _graph(planted)
    sim = simulate(sg, runs=1, seed="crash", jobs=1)
    (error,) = sim.errors
    assert error["seed"] == "crash:0" and "panne simulée" in error["error"]
    assert len(error["script"]) == 7  # every action up to the one that failed
    assert any(f.code == "SIM003" and "crash:0" in f.message for f in sim.findings)
    (script,) = write_failure_scripts(sim, tmp_path / "echecs")
    monkeypatch.setattr(engine.citadelle.game, "apply", real)
    replay = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "play", "citadelle", "--content", str(planted),
         "--seed", "crash:0", "--players", str(len(error["setup"]["seats"])), "--bots", "0",
         "--script", str(script)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    # the recorded actions replay as written (the fault was simulated); then the script runs out
    assert "le script est terminé" in replay.stderr, replay.stderr
    assert "Action refusée" not in replay.stdout


def test_cli_json_contract(planted: Path):
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "simulate", "citadelle", "--content",
         str(planted.parent), "--runs", "4", "--seed", "1", "--format", "json", "--jobs", "1"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"runs", "completed", "errors", "coverage"} <= set(data)
    assert {"reachable_static", "visited", "never_visited"} <= set(data["coverage"])
    assert data["runs"] == 4 and isinstance(data["coverage"]["never_visited"], list)


def test_check_deep_merges_simulation_findings(planted: Path):
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "check", str(planted.parent), "--deep",
         "--deep-runs", "10", "--format", "json", "--jobs", "1"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    codes = {f["code"] for f in json.loads(result.stdout)["findings"]}
    assert "SIM001" in codes


def test_scenarios_played_are_counted_when_the_campaign_is_over():
    """A run ends when its campaign does (no state left): the scenarios it played still count
    (they were lost with the last state, and the report said « 0 scénario »)."""
    _, sg = _graph(ROOT / "content" / "citadelle")
    report = simulate(sg, runs=3, seed="scen", jobs=1)
    assert report.completed == report.runs
    assert report.scenarios >= report.runs  # every run plays at least its first scenario


def test_later_runs_begin_where_earlier_runs_entered_a_chapter():
    """The Citadel's scenarios are chapters: half the runs begin at one, and such a run counts
    only what it visits from there (never the introduction's nodes)."""
    _, sg = _graph(ROOT / "content" / "citadelle")
    report = simulate(sg, runs=8, seed="chap", jobs=1)
    assert sum(report.restarts.values()) == 4
    assert all(c.startswith("scenario:") for c in report.restarts)
    assert "scenario:portes_rouillees" not in report.restarts  # where every game begins
    assert report.visits["scenario:portes_rouillees"] == 4  # the first four runs only
    assert report.to_json()["restarts"] == report.restarts


def test_a_game_without_chapters_plays_every_run_from_the_start(monkeypatch):
    """``Game.chapter`` left at ``None``: no run begins anywhere but at the start."""
    from engine.citadelle.plugin import Citadelle

    monkeypatch.setattr(Citadelle, "chapter", lambda self, state: None)
    _, sg = _graph(ROOT / "content" / "citadelle")
    report = simulate(sg, runs=4, seed="chap", jobs=1)
    assert report.restarts == {}
    assert report.visits["scenario:portes_rouillees"] == 4


def test_a_run_begins_at_the_chapter_the_fewest_runs_have_played():
    """Four earlier runs: all entered chapter B, one went on to C (whose state it kept with
    B's); six later runs: C until it has been played as often as B, then in turn."""
    from pipeline.story.simulate import RunResult, _restarts

    def run(i: int, entered: list[str], kept: bool) -> RunResult:
        chapters = [(c, f"{c}{i}") for c in entered] if kept else []
        return RunResult(i, str(i), set(), True, chapters=chapters, entered=entered)

    earlier = [run(0, ["b", "c"], True), run(1, ["b"], True), run(2, ["b"], False),
               run(3, ["b"], False)]  # fmt: skip
    starts = _restarts(earlier, range(4, 10))
    assert [c for c, _ in starts] == ["c", "c", "c", "b", "c", "b"]
    assert [s for c, s in starts if c == "b"] == ["b0", "b1"]  # the kept states in turn
    assert _restarts([run(0, [], False)], range(1, 3)) == [None, None]


def test_the_mixed_policy_wanders_as_much_as_the_game_says(monkeypatch):
    """``Game.simulation_wander``: at 0 the mixed policy is the bots' play, move for move; above
    it, some moves are drawn at random."""
    from engine.citadelle.plugin import Citadelle

    _, sg = _graph(ROOT / "content" / "citadelle")

    def actions(policy: str, wander: float) -> list:
        monkeypatch.setattr(Citadelle, "simulation_wander", wander)
        report = simulate(sg, runs=1, seed="wander", policy=policy, jobs=1)
        return report.to_json()["play"]["mean_actions"], sorted(report.visits.items())

    assert actions("mixed", 0.0) == actions("bots", 0.25)
    assert actions("mixed", 0.1) != actions("mixed", 0.0)
