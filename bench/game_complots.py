"""Complots' bots, measured: how strong each personality is, how often it bluffs and doubts,
and how long a whole game of bots takes.  Writes its section of BENCHMARKS.md.

- 1,000 seeded four-player games: the strongest personality (seat rotating) against three bots
  that pick uniformly among their legal actions (goal: wins ≥ 60 %; chance is 25 %);
- each personality against three of another (a table of win shares);
- per personality: the share of its claims that were bluffs, and the share of the claims it
  could doubt that it doubted (and how often its doubts were right);
- the median time of a whole six-bot game in CPython (goal: ≤ 20 ms).

    python bench/game_complots.py               # the full run, writes BENCHMARKS.md
    python bench/game_complots.py --games 200 --no-write
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402  (bench/ is on sys.path)

from engine.complots import bots as B  # noqa: E402
from engine.core import playout, registry  # noqa: E402
from engine.core.rng import Rng  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/game_complots.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/game_complots.py -->"
RANDOM = "aléatoire"
WIN_GOAL = 0.60
TIME_GOAL_MS = 20.0
MAX_ACTIONS = 20_000


def play(game, seed: str, personas: list[str], stats: dict | None = None) -> int:
    """One whole game; ``personas[seat]`` is a persona or ``RANDOM``.  Returns the winner.
    In a reaction window the first bot of ``to_act`` answers, as in the session."""
    n = len(personas)
    setup = game.normalize_setup(
        {
            "seed": seed,
            "players": n,
            "bots": n,
            "persona": [p if p != RANDOM else "prudent" for p in personas],
        }
    )
    state = game.new_game(setup)

    def policy(game: Any, state: dict, seat: int, k: int) -> Any:
        persona = personas[seat]
        rng = Rng({"rng": Rng.seed_from(f"{seed}:{k}")})
        if persona == RANDOM:
            action = B.uniform(game.legal_actions(state, seat), rng)
        else:
            action = game.choose(state, seat, rng, persona)
        if stats is not None:
            _count(state, seat, persona, action, stats)
        return action

    state, _ = playout.play_out(game, state, policy, limit=MAX_ACTIONS + 1)
    if game.to_act(state):
        raise RuntimeError(f"game {seed} ({personas}) did not end in {MAX_ACTIONS} actions")
    if stats is not None:
        for c, true in zip(state["claims"], state["truth"], strict=True):
            row = stats.setdefault(personas[c["seat"]], _row())
            row["claims"] += 1
            row["bluffs"] += 0 if true else 1
            if c["doubted_by"] is not None:
                d = stats.setdefault(personas[c["doubted_by"]], _row())
                d["doubts_right"] += 0 if true else 1
    return state["winner"]


def _row() -> dict:
    return {"claims": 0, "bluffs": 0, "windows": 0, "doubts": 0, "doubts_right": 0}


def _count(state: dict, seat: int, persona: str, action: dict, stats: dict) -> None:
    steps = state["steps"]
    if steps and steps[0]["do"] == "doubt":
        row = stats.setdefault(persona, _row())
        row["windows"] += 1
        row["doubts"] += action["type"] == "doubt"


def _share(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "–"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games against random bots")
    ap.add_argument("--table-games", type=int, default=200, help="games per table cell")
    ap.add_argument("--timed", type=int, default=300, help="six-bot games timed")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    args = ap.parse_args(argv)
    game = registry.get("complots")(bundle_for("complots", ROOT / "content"))
    personas = [o.value for o in game.personas]

    # each persona against three of every other (and against random bots)
    opponents = [*personas, RANDOM]
    table: dict[tuple[str, str], float] = {}
    stats: dict[str, dict] = {}
    for me in personas:
        for other in opponents:
            wins = 0
            for i in range(args.table_games):
                seat = i % 4
                lineup = [other] * 4
                lineup[seat] = me
                wins += play(game, f"table:{me}:{other}:{i}", lineup, stats) == seat
            table[(me, other)] = wins / args.table_games
    strongest = max(personas, key=lambda p: sum(table[(p, o)] for o in opponents))

    # the strongest against three uniform bots, 1,000 seeded games
    wins = 0
    for i in range(args.games):
        seat = i % 4
        lineup = [RANDOM] * 4
        lineup[seat] = strongest
        wins += play(game, f"random:{i}", lineup) == seat
    vs_random = wins / args.games

    # whole six-bot games, timed
    times, walls = [], []
    for i in range(args.timed):
        lineup = [personas[(i + k) % len(personas)] for k in range(6)]
        t0, w0 = time.process_time(), time.perf_counter()
        play(game, f"time:{i}", lineup)
        times.append((time.process_time() - t0) * 1000)
        walls.append((time.perf_counter() - w0) * 1000)
    median = statistics.median(times)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    wall = statistics.median(walls)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    labels = {o.value: o.label for o in game.personas}
    labels[RANDOM] = "aléatoire ×3"
    lines = [
        BEGIN,
        "",
        "## Complots: the bots",
        "",
        _stamp(),
        "",
        f"**{labels[strongest]}** (the strongest personality: best mean of its row below) "
        f"against three bots picking uniformly among their legal actions, {args.games} seeded "
        f"four-player games, its seat rotating: **{100 * vs_random:.1f} % wins** "
        f"(chance: 25 %; goal ≥ {100 * WIN_GOAL:.0f} %: "
        f"{'pass' if vs_random >= WIN_GOAL else 'FAIL'}).",
        "",
        f"Each personality (row) in one seat against three of another (column), "
        f"{args.table_games} games per cell, seat rotating: its share of wins (chance 25 %).",
        "",
        "| personality | " + " | ".join(labels[o] for o in opponents) + " |",
        "|---|" + "---:|" * len(opponents),
    ]
    for me in personas:
        cells = " | ".join(f"{100 * table[(me, o)]:.0f} %" for o in opponents)
        lines.append(f"| {labels[me]} | {cells} |")
    lines += [
        "",
        "Over the games of the table: the share of a personality's claims (actions and "
        "counters) that were bluffs, and the share of the claims it could doubt that it doubted "
        "(right: the doubted claim was a bluff).",
        "",
        "| personality | claims | bluffs | doubt windows | doubted | doubts right |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for p in [*personas, RANDOM]:
        r = stats.get(p, _row())
        lines.append(
            f"| {labels[p]} | {r['claims']} | {_share(r['bluffs'], r['claims'])} | "
            f"{r['windows']} | {_share(r['doubts'], r['windows'])} | "
            f"{_share(r['doubts_right'], r['doubts'])} |"
        )
    lines += [
        "",
        f"A whole six-bot game (personalities mixed), {args.timed} games, CPU time of the "
        f"process: median **{median:.1f} ms**, p95 {p95:.1f} ms (goal ≤ {TIME_GOAL_MS:.0f} ms "
        f"median: {'pass' if median <= TIME_GOAL_MS else 'FAIL'}); wall-clock median "
        f"{wall:.1f} ms with a load average of {load:.1f} on the machine's "
        f"{os.cpu_count()} cores (other jobs running: wall time counts their share).",
        "",
        "Reproduce with `python bench/game_complots.py`.",
        "",
        END,
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


def _stamp() -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = "?"
    return (
        f"Date (UTC): {now} · commit {commit} · Python {platform.python_version()} · {cpu_model()}"
    )


if __name__ == "__main__":
    sys.exit(main())
