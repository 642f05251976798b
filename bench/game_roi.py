"""Le Roi des 12: how strong the bots are, and how fast a 16-player tournament runs.

- **Bot table**: three-player games, one seat played by a bot persona, the two others by
  uniformly random legal play (persona ``hasard``); the persona's seat moves round the table
  with the seed.  Goal for the strongest level (``ruse``): wins ≥ 55 % over 1,000 seeds
  (chance: 33 %).  A shared throne (the safety cap) counts as no win.
- **Tournament time**: a whole 16-player all-bot tournament (every seat ``ruse``), wall time
  of each of ``--tournaments`` seeds, in CPython, each in a fresh process-level bot cache
  (the first game's time is the cold one).  Goal ≤ 1 s.

``python bench/game_roi.py`` writes its section of BENCHMARKS.md; ``--no-write`` prints it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))

from common import cpu_model, write_section  # noqa: E402

from engine.core.registry import get  # noqa: E402
from engine.core.session import Session  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/game_roi.py: this section is rewritten by `python bench/game_roi.py` -->"
END = "<!-- END bench/game_roi.py -->"


def _game():
    return get("roi")(bundle_for("roi", ROOT / "content"))


def duel_rate(persona: str, seeds: int) -> tuple[int, int, float]:
    game = _game()
    wins = 0
    t0 = time.perf_counter()
    for i in range(seeds):
        seat = i % 3
        personas = ["hasard"] * 3
        personas[seat] = persona
        setup = {
            "seed": f"bench-{i}",
            "seats": [{"bot": True, "persona": p} for p in personas],
        }
        session = Session(game).start(setup)
        if game.outcome(session.state).winners == [seat]:
            wins += 1
    return wins, seeds, time.perf_counter() - t0


def tournament_times(runs: int, persona: str) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each whole tournament."""
    game = _game()
    out = []
    for i in range(runs):
        from engine.roi import bots

        bots._duel_points.cache_clear()
        bots._prudent_model.cache_clear()
        bots._table_strategies.cache_clear()
        bots.card_weights.cache_clear()
        setup = {"seed": f"tournoi-{i}", "players": 16, "bots": 16, "persona": persona}
        t0, c0 = time.perf_counter(), time.process_time()
        session = Session(game).start(setup)
        out.append((time.perf_counter() - t0, time.process_time() - c0))
        assert game.outcome(session.state) is not None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--tournaments", type=int, default=20)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--only-tournament", action="store_true", help="skip the bot table")
    ap.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    args = ap.parse_args(argv)
    rows = []
    levels = (("ruse", "Rusé"), ("prudent", "Prudent"), ("hasard", "Au hasard"))
    for persona, label in () if args.only_tournament else levels:
        wins, n, secs = duel_rate(persona, args.seeds)
        goal = "pass" if wins / n >= 0.55 else "fail"
        rows.append(
            f"| {label} (`{persona}`) | {n} | {wins} | {100 * wins / n:.1f} % | "
            f"{secs:.1f} s | {goal if persona == 'ruse' else '—'} |"
        )
        print(rows[-1], flush=True)
    times = {p: tournament_times(args.tournaments, p) for p in ("ruse", "prudent")}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        BEGIN,
        "",
        "## Le Roi des 12: bots and the 16-player tournament",
        "",
        f"Date (UTC): {when} · commit {commit} · Python {platform.python_version()} · "
        f"{cpu_model()}",
        "",
        f"Three-player games, one bot against two uniformly random players, {args.seeds} seeds "
        "(its seat moves round the table). Goal for the strongest level: wins ≥ 55 % "
        "(chance 33 %).",
        "",
        "| bot level | games | wins | win rate | wall time | goal ≥ 55 % |",
        "|---|---:|---:|---:|---:|:---:|",
        *rows,
        "",
        f"A whole 16-player all-bot tournament (groups 4/4/4/4), {args.tournaments} seeds, "
        "CPython, bot caches emptied before each: goal ≤ 1 s. The machine is shared (load "
        f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores during this run): the "
        "process's CPU time is the engine's own cost, the wall time what this run waited.",
        "",
        "| bots | CPU median | CPU worst | wall median | wall worst | goal ≤ 1 s (CPU) |",
        "|---|---:|---:|---:|---:|:---:|",
    ]
    for p, ts in times.items():
        wall = [t[0] for t in ts]
        cpu = [t[1] for t in ts]
        lines.append(
            f"| all `{p}` | {statistics.median(cpu):.2f} s | {max(cpu):.2f} s | "
            f"{statistics.median(wall):.2f} s | {max(wall):.2f} s | "
            f"{'pass' if max(cpu) <= 1 else 'fail'} |"
        )
    lines += ["", "Reproduce with `python bench/game_roi.py`.", "", END]
    text = "\n".join(lines)
    if args.no_write:
        print(text)
    else:
        write_section(args.output, text, BEGIN, END)
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
