"""``gamebook simulate``: play whole campaigns with the real engine and compare what play reaches
with what the static graph says is reachable.

Any registered game, through the game contract only.  A run is one whole game and, for a
legacy campaign, the games that follow it (``Game.sequel``) until the campaign ends (or
``MAX_GAMES``).  Every seat is a bot; the seat counts and the bots' personas take turns from
run to run.  Run ``i`` uses the seed ``f"{seed}:{i}"``, so the report is the same whatever
``--jobs`` is: workers only split the runs, and results are merged in run order.

Chapters (``Game.chapter``: a campaign's scenarios).  The first runs play from the start and
keep the state in which they enter each new chapter (at most ``KEEP_RUNS`` runs keep them);
the last ``RESTART_SHARE`` of the runs begin at one of those states instead (the decks dealt
anew), each at the chapter the fewest runs have played so far, so that a campaign's last
chapters are played about as often as its first, with what the chapters before them really
gave (items, flags, what the campaign keeps).  A run that begins at a
chapter counts only what it visits and the scenarios it plays from there.  A game without
chapters plays every run from the start.

What a run *visits* is what the game says its states visited (``Game.visits``: envelopes
opened, dilemmas resolved, cards taken, paragraphs read, a card game's characters whose power
was used, the months played...), as story-graph nodes.  Coverage counts the nodes of the kinds
the game declares (``Kind.covered``, by default its story kinds), kind by kind, and the table
sizes played; a game may set part of each run's setup (``Game.simulation_setup``) so that its
runs between them reach what it counts.  An edge counts as covered when play visited both of
its ends.

Two kinds of disagreement become findings:
- SIM001 (warning): statically reachable, never visited in N runs — with the nearest visited
  predecessor and the condition of the edge that leads on from it;
- SIM002 (error): visited, yet statically unreachable — a checker bug or a missing edge.
"""

from __future__ import annotations

import contextlib
import gc
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

from engine.core import playout, registry
from engine.core.game import Game
from engine.core.rng import Rng
from engine.core.session import bot_prefix, bot_rng, bot_seat

from ..findings import Finding
from ..messages import declare, t
from . import checks
from . import compile as comp
from .graph import StoryGraph

SIM001 = declare(
    "SIM001",
    "warning",
    about="atteignable sur le graphe mais jamais atteint en jouant (simulation)",
    fix="Rendez le chemin plus accessible, ou expliquez pourquoi il est rare.",
    messages={
        "sim.never": "{node} n'a jamais été atteint en {runs} parties simulées.",
        "sim.never_edge": (
            "{node} n'a jamais été atteint en {runs} parties simulées : le plus proche élément "
            "atteint est {nearest}, d'où l'arête « {kind} » mène à {to}{why}. Rendez ce chemin "
            "plus accessible, ou expliquez dans le guide pourquoi cet élément est volontairement "
            "rare."
        ),
    },
)


SIM002 = declare(
    "SIM002",
    "error",
    about="atteint en jouant mais inatteignable sur le graphe (arête manquante)",
    fix="Signalez-le : il manque une arête au graphe du vérificateur.",
    messages={
        "sim.sim002": (
            "{node} a été atteint en jouant, mais le graphe statique le dit inatteignable : il "
            "manque une arête dans le graphe (un défaut du vérificateur ou une référence que le "
            "format ne décrit pas). Signalez-le."
        ),
    },
)


SIM003 = declare(
    "SIM003",
    "error",
    about="le moteur a échoué pendant une partie simulée",
    fix="Rejouez la partie avec le script enregistré, et signalez le défaut du moteur.",
    messages={
        "sim.sim003": (
            "le moteur a échoué pendant la partie simulée n°{run} (graine « {seed} ») : {error}. "
            "Rejouez-la avec le script enregistré pour la reproduire."
        ),
    },
)


MAX_GAMES = 40  # a campaign of several games that has not reached its end by then stops
MAX_ACTIONS = 20_000
#: the mixed policy: the bots (or the automatic policy) play, except that a share of
#: decisions (``Game.simulation_wander``) is any legal action, drawn from the run's own seeded
#: generator
#: the share of the runs that begin where an earlier run entered a chapter
RESTART_SHARE = 0.5
#: how many of the first runs keep the states where they enter a chapter (memory stays flat)
KEEP_RUNS = 32


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
    results: list[dict] = field(default_factory=list)
    #: ``(chapter, state as JSON)`` where this run entered a chapter (kept by the first runs)
    chapters: list[tuple[str, str]] = field(default_factory=list)
    #: the chapters this run entered after its first (whether it kept their states or not)
    entered: list[str] = field(default_factory=list)
    #: the chapter this run began at (``None``: the start of the game)
    began_at: str | None = None


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
    #: story nodes the static graph cannot reach (the map shows them apart from never-visited)
    unreachable: list[str] = field(default_factory=list)
    #: runs that began at a chapter, by chapter
    restarts: dict[str, int] = field(default_factory=dict)
    edges_total: int = 0
    edges_covered: int = 0
    seconds: float = 0.0
    details: list[dict] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)
    #: the kind of each node coverage counts (``StoryGraph.is_covered``)
    kinds: dict[str, str] = field(default_factory=dict)
    #: the table sizes the content allows (``Game.seat_range``)
    seat_range: tuple[int, int] = (0, 0)

    def by_kind(self) -> dict[str, dict[str, int]]:
        """Per kind of counted node: how many are statically reachable, how many play visited."""
        out: dict[str, dict[str, int]] = {}
        for n in self.reachable:
            entry = out.setdefault(self.kinds.get(n, ""), {"reachable": 0, "visited": 0})
            entry["reachable"] += 1
            entry["visited"] += n in self.visits
        return dict(sorted(out.items()))

    def tables(self) -> dict[str, Any]:
        """The table sizes the content allows and how many games each was played at."""
        low, high = self.seat_range
        played = {str(n): 0 for n in range(low, high + 1)}
        for r in self.results:
            played[str(r["seats"])] = played.get(str(r["seats"]), 0) + 1
        return {"min": low, "max": high, "played": played}

    def play_stats(self) -> dict:
        """Win share per seat and per persona, and the mean length of a game in actions."""
        # [games played, games won] per seat and per temperament (a shared win counts a share)
        seats: dict[str, list[float]] = {}
        personas: dict[str, list[float]] = {}
        lengths = []
        for r in self.results:
            lengths.append(r["actions"])
            share = 1 / len(r["winners"]) if r["winners"] else 0
            for seat in range(r["seats"]):
                won = share if seat in r["winners"] else 0
                entry = seats.setdefault(str(seat), [0, 0])
                entry[0] += 1
                entry[1] += won
                persona = r["personas"][seat]
                if persona:
                    p = personas.setdefault(persona, [0, 0])
                    p[0] += 1
                    p[1] += won
        return {
            "games": len(self.results),
            "mean_actions": round(sum(lengths) / len(lengths), 1) if lengths else 0,
            "win_share_by_seat": {k: round(v[1] / v[0], 4) for k, v in sorted(seats.items())},
            "win_share_by_persona": {k: round(v[1] / v[0], 4) for k, v in sorted(personas.items())},
        }

    def to_json(self) -> dict:
        never = [n for n in self.reachable if n not in self.visits]
        return {
            "runs": self.runs,
            "completed": self.completed,
            "games": self.games,
            "scenarios": self.scenarios,
            "restarts": self.restarts,
            "play": self.play_stats(),
            "errors": self.errors,
            "coverage": {
                "reachable_static": len(self.reachable),
                "visited": sum(1 for n in self.reachable if n in self.visits),
                "never_visited": never,
                "ratio": round(1 - len(never) / max(1, len(self.reachable)), 4),
                "edges": {"total": self.edges_total, "covered": self.edges_covered},
                "details": self.details,
                # how many runs visited each story node (the story map's colours)
                "visits": {n: self.visits[n] for n in sorted(self.visits)},
                "unreachable": self.unreachable,
                # what coverage counts, kind by kind, and the table sizes played
                "by_kind": self.by_kind(),
                "tables": self.tables(),
            },
            "findings": [f.to_json() for f in self.findings],
            "seconds": round(self.seconds, 2),
        }


# =========================================================================== one run


def _setup(game: Game, seed: str, index: int, seats: int | None = None) -> dict[str, Any]:
    """Run ``index``'s table: the seat counts in turn (or ``seats``), every seat a bot,
    personas in turn, and what the game sets for that run (``Game.simulation_setup``)."""
    low, high = game.seat_range()
    n = seats or low + index % (high - low + 1)
    setup: dict[str, Any] = {**game.simulation_setup(index), "seed": seed, "players": n, "bots": n}
    if game.personas:
        names = [o.value for o in game.personas]
        setup["persona"] = [names[(index + k) % len(names)] for k in range(n)]
    return setup


def play_run(
    game: Game,
    seed: str,
    policy: str,
    index: int,
    keep: bool = False,
    start: tuple[str, str] | None = None,
) -> RunResult:
    """One whole run: a game (and the games of its campaign that follow it).  ``keep``: keep
    the states where play enters a new chapter; ``start``: ``(chapter, state as JSON)`` to
    begin at instead of a new game (what was visited before it is not this run's)."""
    pick = random.Random(seed)
    visited: set[str] = set()
    script: list[Any] = []
    games = actions = scenarios = 0
    winners: list[dict[str, Any]] = []
    state: dict[str, Any] | None = None
    setup: dict[str, Any] = {}
    kept: list[tuple[str, str]] = []
    entered: list[str] = []
    before: set[str] = set()
    already = 0
    try:
        if start is None:
            setup = game.normalize_setup(_setup(game, seed, index))
            state = game.new_game(setup)
        else:
            # what no seat knows (the decks' order) dealt anew for this run
            state = game.scramble(json.loads(start[1]), None, Rng({"rng": Rng.seed_from(seed)}))
            before, already = game.visits(state), _scenarios(state)
            # as many seats as the kept game; the personas take turns from run to run
            seats = len(game.seat_names(state))
            setup = game.normalize_setup(_setup(game, seed, index, seats))
        chapter = game.chapter(state)
        wander = game.simulation_wander
        prefix = bot_prefix(seed)  # the bots' seeds, as in a session (hashed once a run)

        def mover(game: Game, state: dict[str, Any], seats: list[int], index: int) -> int:
            return seats[0] if game.turn_kind(state) == "collective" else pick.choice(seats)

        def choose(game: Game, state: dict[str, Any], seat: int, index: int) -> Any:
            if policy == "random" or (policy == "mixed" and pick.random() < wander):
                action = pick.choice(game.legal_actions(state, seat))
            else:
                rng = bot_rng(prefix, actions, bot_seat(game, state, seat))
                action = game.choose(state, seat, rng, setup["seats"][seat].get("persona"))
            # kept before it is applied: a move that fails is the reproduction's last line
            script.append({"seat": seat, "action": action})
            return action

        while state is not None and games < MAX_GAMES:
            games += 1
            count = 0
            for move in playout.play(game, state, choose, seat=mover, limit=MAX_ACTIONS):
                state = move.after
                actions += 1
                count += 1
                now = game.chapter(state)
                if now != chapter:
                    if now is not None:
                        entered.append(now)
                        if keep:
                            kept.append((now, json.dumps(state, ensure_ascii=False)))
                    chapter = now
            visited |= game.visits(state)
            scenarios = max(scenarios, _scenarios(state))  # the campaign's record, game by game
            outcome = game.outcome(state)
            if outcome is None:
                break
            winners.append(
                {
                    "winners": outcome.winners,
                    "personas": [s.get("persona") for s in setup["seats"]],
                    "seats": len(setup["seats"]),
                    "actions": count,
                }
            )
            nxt = game.sequel(state)
            if nxt is not None:
                script.append({"sequel": True})
            state = nxt
        done = state is None or not game.to_act(state)
        return RunResult(
            index,
            seed,
            visited - before,
            done,
            games=games,
            actions=actions,
            scenarios=max(scenarios, _scenarios(state)) - already,
            results=winners,
            chapters=kept,
            entered=entered,
            began_at=start[0] if start else None,
        )
    except Exception as exc:  # an engine error is a finding with its reproduction, not a crash
        if state is not None:
            with contextlib.suppress(Exception):
                visited |= game.visits(state)
        return RunResult(
            index,
            seed,
            visited - before,
            False,
            games=games,
            actions=actions,
            results=winners,
            began_at=start[0] if start else None,
            error={
                "run": index,
                "seed": seed,
                "chapter": start[0] if start else None,
                "setup": setup,
                "error": f"{type(exc).__name__}: {exc}",
                "script": script[-400:],
            },
        )


def _scenarios(state: dict[str, Any] | None) -> int:
    return len((state or {}).get("scenarios_played") or [])


_WORKER: dict[str, Any] = {}


def _init(bundle_text: str, family: str, policy: str) -> None:
    _WORKER.update(game=registry.get(family)(json.loads(bundle_text)), policy=policy)
    # what is loaded by now (modules, the bundle, the game) lives as long as the worker: out
    # of the collector's full passes, which the games' own objects trigger every few runs
    gc.freeze()


def _work(job: tuple[int, str, bool, tuple[str, str] | None]) -> RunResult:
    index, seed, keep, start = job
    return play_run(_WORKER["game"], seed, _WORKER["policy"], index, keep, start)


def _play(
    jobs_list: list[tuple[int, str, bool, tuple[str, str] | None]],
    workers: int,
    bundle_text: str,
    family: str,
    policy: str,
    done: int,
    total: int,
    progress: bool,
) -> list[RunResult]:
    """Play these runs (in parallel when ``workers`` > 1); results in run order."""
    results: list[RunResult] = []
    if workers > 1 and len(jobs_list) > 1:
        ctx = (
            multiprocessing.get_context("fork")
            if "fork" in multiprocessing.get_all_start_methods()
            else None
        )
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init, initargs=(bundle_text, family, policy)
        ) as pool:
            chunk = max(1, len(jobs_list) // (workers * 8))
            for result in pool.map(_work, jobs_list, chunksize=chunk):
                results.append(result)
                _progress(progress, done + len(results), total)
    else:
        _init(bundle_text, family, policy)
        try:
            for job in jobs_list:
                results.append(_work(job))
                _progress(progress, done + len(results), total)
        finally:
            gc.unfreeze()
    return results


def _restarts(earlier: list[RunResult], runs: range) -> list[tuple[str, str] | None]:
    """Where each of ``runs`` begins: each time, the chapter the fewest runs have played so far
    (the earlier runs that entered it, and the runs already sent there; among equals, the one
    play entered first), and within a chapter the kept states in turn; ``None`` (the start of
    the game) when no run kept a chapter."""
    by_chapter: dict[str, list[str]] = {}
    for r in earlier:
        for chapter, text in r.chapters:
            by_chapter.setdefault(chapter, []).append(text)
    if not by_chapter:
        return [None for _ in runs]
    played = dict.fromkeys(by_chapter, 0)
    for r in earlier:
        for chapter in set(r.entered):
            if chapter in played:
                played[chapter] += 1
    order = list(by_chapter)
    sent = dict.fromkeys(by_chapter, 0)
    out: list[tuple[str, str] | None] = []
    for _ in runs:
        chapter = min(order, key=lambda c: (played[c] + sent[c], order.index(c)))
        states = by_chapter[chapter]
        out.append((chapter, states[sent[chapter] % len(states)]))
        sent[chapter] += 1
    return out


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
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    start = time.perf_counter()
    # the first runs play from the start (the first ``KEEP_RUNS`` keep where they enter a
    # chapter); the others begin at those chapters
    first = runs - int(runs * RESTART_SHARE) if runs > 1 else runs
    jobs_list: list[tuple[int, str, bool, tuple[str, str] | None]] = [
        (i, f"{seed}:{i}", i < KEEP_RUNS and first < runs, None) for i in range(first)
    ]
    args = (workers, bundle_text, family, policy)
    results = _play(jobs_list, *args, 0, runs, progress)
    later = range(first, runs)
    starts = _restarts(results, later)
    for r in results:
        r.chapters = []  # memory: the kept states are no longer needed
    jobs_list = [(i, f"{seed}:{i}", False, s) for i, s in zip(later, starts, strict=True)]
    results += _play(jobs_list, *args, first, runs, progress)
    if progress:
        print(file=sys.stderr)
    visits: dict[str, int] = {}
    for r in results:
        for node in r.visited:
            visits[node] = visits.get(node, 0) + 1
    reachable_all = checks.reachable(sg)
    story = [n for n in sg.graph.nodes if sg.is_covered(n)]
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
        unreachable=sorted(n for n in story if n not in reachable_all),
        seconds=time.perf_counter() - start,
        results=[x for r in results for x in r.results],
        kinds={n: str(sg.graph.nodes[n].get("kind", "")) for n in story},
        seat_range=registry.get(family)(json.loads(bundle_text)).seat_range(),
    )
    for r in results:
        if r.began_at:
            report.restarts[r.began_at] = report.restarts.get(r.began_at, 0) + 1
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
            report.findings.append(
                _finding(
                    sg,
                    node,
                    "SIM002",
                    "error",
                    t("sim.sim002", node=node),
                )
            )
    for error in report.errors:
        report.findings.append(
            Finding(
                "SIM003",
                "error",
                t("sim.sim003", run=error["run"], seed=error["seed"], error=error["error"]),
                sg.campaign.data_pos[0],
                1,
                1,
                sg.root,
            )
        )
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
    queue: deque[tuple[str, dict[str, Any] | None]] = deque([(node, None)])
    while queue:
        current, _ = queue.popleft()
        for pred in g.predecessors(current):
            if pred in seen:
                continue
            attrs = g.edges[pred, current]
            step = {
                "from": pred,
                "to": current,
                "kind": attrs.get("kind"),
                "condition": _condition_text(attrs.get("condition")),
            }
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
        return t("sim.never", node=detail["node"], runs=runs)
    why = t("sim.never_cond", condition=edge["condition"]) if edge.get("condition") else ""
    return t(
        "sim.never_edge",
        node=detail["node"],
        runs=runs,
        nearest=detail["nearest_visited"],
        kind=edge["kind"],
        to=edge["to"],
        why=why,
    )


def _finding(sg: StoryGraph, node: str, code: str, severity: str, message: str) -> Finding:
    attrs = sg.graph.nodes.get(node, {})
    return Finding(
        code,
        severity,
        message,
        attrs.get("file", ""),
        attrs.get("line", 1),
        attrs.get("column", 1),
        node,
    )


def write_failure_scripts(report: SimulationReport, out_dir: Path) -> list[Path]:
    """One replay file per failed run: JSON actions, one per line (`gamebook play --script`)."""
    from ..files import write_atomic

    paths = []
    for error in report.errors:
        path = out_dir / f"echec-{report.game}-{error['run']}.txt"
        lines = [f"# graine {error['seed']} : {error['error']}"]
        lines += [
            json.dumps(a["action"], ensure_ascii=False) for a in error["script"] if "action" in a
        ]
        write_atomic(path, "\n".join(lines) + "\n")
        paths.append(path)
    return paths
