"""Benchmark the rules engines: whole games played by bots, in CPython, for every registered game.

Each game is played through the ``Game`` contract (``engine/core/game.py``): the bundle of its
shipped campaign (``content/<id>/``), ``new_game`` with the default number of seats, all bots,
then ``to_act`` / ``choose`` / ``apply`` until nobody is to act (a legacy game's first game).
One row per game and per bot temperament (``Game.personas``: every seat plays it), or one row
« bots » for a game with a single policy; and one row where every seat draws a legal action at
random (the cheapest player: what the rules alone cost).  No game is named here: the registry
says which there are.

Target (issue: the rules engines): a whole bot game in ≤ 50 ms median, so that thousands of
simulated campaigns are cheap; a game whose table is larger or whose rules are longer may need
more, the table shows where each stands.

Usage: ``python bench/engine.py [--games 100] [--seconds 20] [--output BENCHMARKS.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402  (bench/ is on sys.path as a script)

from engine.core import playout, registry  # noqa: E402
from engine.core.game import Game  # noqa: E402
from engine.core.rng import Rng  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/engine.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/engine.py -->"
TARGET_MS = 50.0
#: a game still going after this many actions counts as unfinished (and stops there)
MAX_ACTIONS = 20_000
RANDOM = "random"


def policies(game: Game) -> list[tuple[str, str | None]]:
    """``(label, persona)`` of each row: every temperament, or the bots, then random play."""
    rows: list[tuple[str, str | None]] = [(o.label, o.value) for o in game.personas]
    return (rows or [("bots", None)]) + [("actions tirées au sort", RANDOM)]


def play(game: Game, seed: str, persona: str | None) -> tuple[float, float, int, bool]:
    """One whole game: (wall milliseconds, CPU milliseconds, actions, finished)."""
    n = game.default_players
    setup: dict[str, Any] = {"seed": seed, "players": n, "bots": n}
    if persona not in (None, RANDOM):
        setup["persona"] = [persona] * n
    pick = random.Random(seed)
    start, cpu = time.perf_counter(), time.process_time()
    setup = game.normalize_setup(setup)
    state = game.new_game(setup)

    def mover(game: Game, state: dict, seats: list[int], index: int) -> int:
        return seats[0] if game.turn_kind(state) == "collective" else pick.choice(seats)

    def policy(game: Game, state: dict, seat: int, index: int) -> Any:
        if persona == RANDOM:
            return pick.choice(game.legal_actions(state, seat))
        rng = Rng({"rng": Rng.seed_from(f"{seed}:bot:{index}")})
        return game.choose(state, seat, rng, setup["seats"][seat].get("persona"))

    state, actions = playout.play_out(game, state, policy, seat=mover, limit=MAX_ACTIONS)
    ms = (time.perf_counter() - start) * 1000
    return ms, (time.process_time() - cpu) * 1000, actions, not game.to_act(state)


def measure(game: Game, persona: str | None, games: int, seconds: float) -> dict:
    """Up to ``games`` games, stopping after ``seconds`` (at least 5 games)."""
    times, cpus, actions, finished = [], [], [], 0
    began = time.perf_counter()
    for g in range(games):
        ms, cpu, n, done = play(game, f"bench-{g}", persona)
        times.append(ms)
        cpus.append(cpu)
        actions.append(n)
        finished += done
        if g >= 4 and time.perf_counter() - began > seconds:
            break
    times.sort()
    return {
        "games": len(times),
        "finished": finished,
        "median_ms": statistics.median(times),
        "cpu_ms": statistics.median(cpus),
        "p90_ms": times[int(0.9 * (len(times) - 1))],
        "max_ms": times[-1],
        "actions": statistics.median(actions),
    }


def rows(games: int, seconds: float) -> list[dict]:
    out = []
    for cls in registry.games():
        game = cls(bundle_for(cls.id, ROOT / "content"))
        for label, persona in policies(game):
            result = measure(game, persona, games, seconds)
            result.update(title=cls.title, seats=game.default_players, policy=label)
            print(f"{cls.title} · {label}: {result['median_ms']:.1f} ms", file=sys.stderr)
            out.append(result)
    return out


def section(results: list[dict]) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "?"  # fmt: skip
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        BEGIN,
        "",
        "## Rules engines: whole games played by bots",
        "",
        f"Date (UTC): {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} · commit {commit} · "
        f"Python {platform.python_version()} · {platform.machine()} · {cpu_model()} · "
        f"{os.cpu_count()} cores, load average {load}",
        "",
        "Every registered game, through the `Game` contract, on its shipped campaign, with its "
        "default number of seats, all bots (one row per temperament; « actions tirées au sort »: "
        "every seat draws a legal action at random). A game is played until nobody is to act "
        f"(at most {MAX_ACTIONS:,} actions: « finished » counts the games that ended). Wall "
        "times on a shared machine; the CPU median is this process's own time.",
        "",
        "| game | seats | policy | games | finished | median | p90 | max | CPU median | "
        f"actions (median) | CPU median ≤ {TARGET_MS:.0f} ms |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in results:
        ok = "pass" if r["cpu_ms"] <= TARGET_MS else "over"
        lines.append(
            f"| {r['title']} | {r['seats']} | {r['policy']} | {r['games']} | {r['finished']} | "
            f"{r['median_ms']:.1f} ms | {r['p90_ms']:.1f} ms | {r['max_ms']:.1f} ms | "
            f"{r['cpu_ms']:.1f} ms | {r['actions']:.0f} | {ok} |"
        )
    lines += ["", END]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark the rules engines with bot games.")
    p.add_argument("--games", type=int, default=100, help="games per row, at most")
    p.add_argument("--seconds", type=float, default=20.0, help="time per row, about")
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    text = section(rows(args.games, args.seconds))
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
