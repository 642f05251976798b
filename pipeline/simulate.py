"""``gamebook simulate``: play whole campaigns with the real engine and compare what play reaches
with what the static graph says is reachable.

A run is one whole campaign: for the Dilemme, game after game until the grand final (or
``MAX_GAMES``); for the Citadelle, the introduction and the whole menace.  Run ``i`` uses the
seed ``f"{seed}:{i}"``, so the report is the same whatever ``--jobs`` is: workers only split
the runs, and results are merged in run order.

What a run *visits* is read from the states it went through (envelopes opened, cards drawn,
dilemmas resolved and their outcome, stickers stuck; cards taken, exploration revealed,
paragraphs read, scenarios and epilogue branches...), mapped onto the story graph's nodes.
An edge counts as covered when play visited both of its ends.

Two kinds of disagreement become findings:
- SIM001 (warning): statically reachable, never visited in N runs — with the nearest visited
  predecessor and the condition of the edge that leads on from it;
- SIM002 (error): visited, yet statically unreachable — a checker bug or a missing edge.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import checks
from . import compile as comp
from .findings import Finding
from .graph import StoryGraph

MAX_GAMES = 40  # a Dilemme campaign that has not reached its grand final by then stops
MAX_ACTIONS = 20_000
#: the mixed policy: the bots (or the automatic policy) play, except that this share of
#: decisions is any legal action, drawn from the run's own seeded generator
EPSILON = 0.25


@dataclass
class RunResult:
    index: int
    seed: str
    visited: set[str]
    completed: bool
    games: int = 0
    scenarios: int = 0
    actions: int = 0
    error: dict | None = None


@dataclass
class SimulationReport:
    game: str
    runs: int
    completed: int
    games: int
    scenarios: int
    visits: dict[str, int]
    errors: list[dict]
    reachable: list[str]
    findings: list[Finding] = field(default_factory=list)
    edges_total: int = 0
    edges_covered: int = 0
    seconds: float = 0.0
    details: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        never = [n for n in self.reachable if n not in self.visits]
        return {
            "runs": self.runs,
            "completed": self.completed,
            "games": self.games,
            "scenarios": self.scenarios,
            "errors": self.errors,
            "coverage": {
                "reachable_static": len(self.reachable),
                "visited": sum(1 for n in self.reachable if n in self.visits),
                "never_visited": never,
                "ratio": round(1 - len(never) / max(1, len(self.reachable)), 4),
                "edges": {"total": self.edges_total, "covered": self.edges_covered},
                "details": self.details,
            },
            "findings": [f.to_json() for f in self.findings],
            "seconds": round(self.seconds, 2),
        }


# =========================================================================== one run


def _dilemme_run(bundle: dict, seed: str, policy: str, index: int) -> RunResult:
    from engine.dilemme import apply, legal_actions, new_campaign, new_game
    from engine.dilemme.bots import choose

    houses = sorted(
        bundle["records"]["house"], key=lambda h: bundle["records"]["house"][h]["number"]
    )
    n = 3 + index % 3  # 3, 4 and 5 houses in turn
    seats = [{"house": h, "bot": True} for h in houses[:n]]
    pick = random.Random(seed)
    visited: set[str] = set()
    script: list[dict] = []
    campaign = new_campaign(bundle, seed)
    games = actions = 0
    try:
        while not campaign["finished"] and games < MAX_GAMES:
            state = new_game(bundle, campaign, seats, seed)
            games += 1
            script.append({"new_game": games})
            while state["pending"] is not None:
                if policy == "random" or (policy == "mixed" and pick.random() < EPSILON):
                    options = [
                        a
                        for a in legal_actions(bundle, state, gifts=False)
                        if a["type"] not in ("offer", "use_ability")
                    ] or legal_actions(bundle, state)
                    action = pick.choice(options)
                else:
                    action = choose(bundle, state, state["pending"]["seat"])
                script.append(action)
                state = apply(bundle, state, action)
                actions += 1
            visited |= _dilemme_visits(bundle, state)
            campaign = state["campaign"]
        return RunResult(index, seed, visited, campaign["finished"], games=games, actions=actions)
    except Exception as exc:  # an engine error is a finding with its reproduction, not a crash
        return RunResult(index, seed, visited, False, games=games, actions=actions,
                         error={"run": index, "seed": seed, "error": f"{type(exc).__name__}: {exc}",
                                "script": script[-200:]})  # fmt: skip


def _dilemme_visits(bundle: dict, state: dict) -> set[str]:
    rec = bundle["records"]
    camp = state["campaign"]
    out = {f"envelope:{e}" for e in camp["opened"]}
    for pile in camp["arcs"].values():
        for entry in pile:
            kind = "epilogue" if entry["card"] in rec.get("epilogue", {}) else "story_card"
            out.add(f"{kind}:{entry['card']}")
    for game in camp["history"]:
        for t in game["timeline"]:
            out.add(f"dilemma:{t['card']}")
            out.add(f"outcome:{t['card']}/{t['side']}")
    out |= {f"secret_sticker:{s}" for s in camp["secret_stickers"]}
    for entry in state["log"]:
        args = entry.get("args") or {}
        if entry["key"] == "immediate.drawn" and "card" in args:
            out.add(f"immediate_card:{args['card']}")
        elif entry["key"] == "event.start" and "card" in args:
            out.add(f"event_card:{args['card']}")
        elif entry["key"] == "chronicle.stuck" and "card" in args:
            out.add(f"chronicle_sticker:{args['card']}")
    return out


def _citadelle_run(bundle: dict, seed: str, policy: str, index: int) -> RunResult:
    from engine.citadelle import apply, legal_actions, new_game
    from engine.citadelle.auto import choose

    chars = sorted(bundle["records"].get("character") or {})
    if not chars:
        raise ValueError("la campagne n'a aucun personnage (section characters) : rien à jouer")
    n = 1 + index % min(4, len(chars))
    pick = random.Random(seed)
    script: list[dict] = []
    state = new_game(bundle, chars[:n], seed)
    actions = 0
    try:
        while state["pending"] is not None and actions < MAX_ACTIONS:
            if policy == "random" or (policy == "mixed" and pick.random() < EPSILON):
                action = pick.choice(legal_actions(bundle, state))
            else:
                action = choose(bundle, state)
            script.append(action)
            state = apply(bundle, state, action)
            actions += 1
        visited = _citadelle_visits(bundle, state)
        return RunResult(index, seed, visited, state["phase"] == "over",
                         scenarios=len(state["scenarios_played"]), actions=actions)  # fmt: skip
    except Exception as exc:
        error = {"run": index, "seed": seed, "characters": n,
                 "error": f"{type(exc).__name__}: {exc}", "script": script}  # fmt: skip
        return RunResult(index, seed, _citadelle_visits(bundle, state), False, actions=actions,
                         error=error)  # fmt: skip


def _citadelle_visits(bundle: dict, state: dict) -> set[str]:
    out = {f"epilogue:{e['scenario']}/{e['branch']}" for e in state["epilogues"]}
    menaces = set()
    for entry in state["log"]:
        args = entry.get("args") or {}
        key = entry["key"]
        if key == "scenario.start" and "id" in args:
            out.add(f"scenario:{args['id']}")
            menace = bundle["records"]["scenario"][args["id"]].get("menace")
            if menace:
                menaces.add(f"menace:{menace}")
        elif key == "card.taken" and "key" in args:
            out.add(f"adventure_card:{args['key']}")
        elif key == "exploration.revealed" and "id" in args:
            out.add(f"exploration_card:{args['id']}")
        elif key == "dialogue":
            out.add(f"paragraph:{args['number']}")
        elif key == "quest" and "id" in args:
            out.add(f"side_quest:{args['id']}")
    return out | menaces


_RUNNERS = {"dilemme": _dilemme_run, "citadelle": _citadelle_run}
_WORKER: dict[str, Any] = {}


def _init(bundle_text: str, family: str, policy: str) -> None:
    _WORKER.update(bundle=json.loads(bundle_text), family=family, policy=policy)


def _work(job: tuple[int, str]) -> RunResult:
    index, seed = job
    return _RUNNERS[_WORKER["family"]](_WORKER["bundle"], seed, _WORKER["policy"], index)


# =========================================================================== the report


def simulate(
    sg: StoryGraph,
    runs: int,
    seed: str,
    policy: str = "mixed",
    jobs: int | None = None,
    progress: bool = False,
) -> SimulationReport:
    family = sg.campaign.family
    bundle_text = json.dumps(comp.bundle(sg), ensure_ascii=False)
    jobs_list = [(i, f"{seed}:{i}") for i in range(runs)]
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    start = time.perf_counter()
    results: list[RunResult] = []
    if workers > 1 and runs > 1:
        ctx = (
            multiprocessing.get_context("fork")
            if "fork" in multiprocessing.get_all_start_methods()
            else None
        )
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init,
                                 initargs=(bundle_text, family, policy)) as pool:  # fmt: skip
            for done, result in enumerate(
                pool.map(_work, jobs_list, chunksize=max(1, runs // (workers * 8))), 1
            ):
                results.append(result)
                _progress(progress, done, runs)
    else:
        _init(bundle_text, family, policy)
        for done, job in enumerate(jobs_list, 1):
            results.append(_work(job))
            _progress(progress, done, runs)
    if progress:
        print(file=sys.stderr)
    visits: dict[str, int] = {}
    for r in results:
        for node in r.visited:
            visits[node] = visits.get(node, 0) + 1
    reachable_all = checks.reachable(sg)
    story = [n for n in sg.graph.nodes if sg.is_story(n)]
    reachable = sorted(n for n in story if n in reachable_all)
    report = SimulationReport(
        game=sg.campaign.id,
        runs=runs,
        completed=sum(1 for r in results if r.completed),
        games=sum(r.games for r in results),
        scenarios=sum(r.scenarios for r in results),
        visits=visits,
        errors=[r.error for r in results if r.error],
        reachable=reachable,
        seconds=time.perf_counter() - start,
    )
    g = sg.graph
    report.edges_total = g.number_of_edges()
    report.edges_covered = sum(
        1 for a, b in g.edges if (a in visits or a == sg.root) and b in visits
    )
    for node in reachable:
        if node not in visits:
            detail = _blocked(sg, node, visits)
            report.details.append(detail)
            report.findings.append(
                _finding(sg, node, "SIM001", "warning", _never_message(detail, runs))
            )
    for node in sorted(visits):
        if node in g and node not in reachable_all:
            report.findings.append(_finding(
                sg, node, "SIM002", "error",
                f"{node} a été atteint en jouant, mais le graphe statique le dit inatteignable : "
                "il manque une arête dans le graphe (un défaut du vérificateur ou une référence "
                "que le format ne décrit pas). Signalez-le."))  # fmt: skip
    for error in report.errors:
        report.findings.append(Finding(
            "SIM003", "error",
            f"le moteur a échoué pendant la partie simulée n°{error['run']} "
            f"(graine « {error['seed']} ») : {error['error']}. Rejouez-la avec le script "
            "enregistré pour la reproduire.",
            sg.campaign.data_pos[0], 1, 1, sg.root))  # fmt: skip
    return report


def _progress(on: bool, done: int, total: int) -> None:
    if on:
        width = 30
        filled = width * done // total
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
            end="",
            file=sys.stderr,
            flush=True,
        )


def _blocked(sg: StoryGraph, node: str, visits: dict[str, int]) -> dict:
    """The nearest visited predecessor of a never-visited node, and the edge that leads on."""
    g = sg.graph
    seen = {node}
    queue = deque([(node, None)])
    while queue:
        current, _ = queue.popleft()
        for pred in g.predecessors(current):
            if pred in seen:
                continue
            attrs = g.edges[pred, current]
            step = {"from": pred, "to": current, "kind": attrs.get("kind"),
                    "condition": _condition_text(attrs.get("condition"))}  # fmt: skip
            if pred in visits or pred == sg.root:
                return {"node": node, "nearest_visited": pred, "edge": step}
            seen.add(pred)
            queue.append((pred, step))
    return {"node": node, "nearest_visited": None, "edge": None}


def _condition_text(cond: Any) -> str | None:
    if not cond:
        return None
    return json.dumps(comp.thaw_condition(cond), ensure_ascii=False)


def _never_message(detail: dict, runs: int) -> str:
    edge = detail.get("edge")
    if detail.get("nearest_visited") is None or edge is None:
        return f"{detail['node']} n'a jamais été atteint en {runs} parties simulées."
    why = f" sous la condition {edge['condition']}" if edge.get("condition") else ""
    return (
        f"{detail['node']} n'a jamais été atteint en {runs} parties simulées : le plus proche "
        f"élément atteint est {detail['nearest_visited']}, d'où l'arête « {edge['kind']} » "
        f"mène à {edge['to']}{why}. Rendez ce chemin plus accessible, ou expliquez dans le guide "
        "pourquoi cet élément est volontairement rare."
    )


def _finding(sg: StoryGraph, node: str, code: str, severity: str, message: str) -> Finding:
    attrs = sg.graph.nodes.get(node, {})
    return Finding(code, severity, message, attrs.get("file", ""), attrs.get("line", 1),
                   attrs.get("column", 1), node)  # fmt: skip


def write_failure_scripts(report: SimulationReport, out_dir: Path) -> list[Path]:
    """One replay file per failed run: JSON actions, one per line (`gamebook play --script`)."""
    paths = []
    out_dir.mkdir(parents=True, exist_ok=True)
    for error in report.errors:
        path = out_dir / f"echec-{report.game}-{error['run']}.txt"
        lines = [f"# graine {error['seed']} : {error['error']}"]
        lines += [json.dumps(a, ensure_ascii=False) for a in error["script"] if "new_game" not in a]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
