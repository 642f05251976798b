"""Le Conseil des 12: how often honest bots win, next to a table of all-seeing players.

The honest bots decide from their own hand and the public table (and the rulebook's general
remarks); the omniscient table plays, each turn, the solver's plan computed from every hand,
the RÉCOMPENSES and the die's coming rolls.
The gap between the two is what the council's silence costs.  Base games at two, three and
four players, and each month of « L'année troublée » at three players.

Usage: ``python bench/game_conseil.py [--games 200] [--output BENCHMARKS.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402

from engine.conseil.content import MONTHS  # noqa: E402
from engine.conseil.solver import Omniscient  # noqa: E402
from engine.core import playout, registry  # noqa: E402
from engine.core.rng import Rng  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/game_conseil.py: this section is rewritten by this script -->"
END = "<!-- END bench/game_conseil.py -->"


def play(game, players: int, scenario: str, seed: str, omniscient: bool) -> tuple[bool, int]:
    setup = game.normalize_setup(
        {"seed": seed, "players": players, "bots": players, "scenario": scenario}
    )
    state = game.new_game(setup)
    table = Omniscient(game)

    def policy(game: Any, state: dict, seat: int, k: int) -> Any:
        rng = Rng({"rng": Rng.seed_from(f"{seed}:{k}")})
        return table.action(state, seat, rng) if omniscient else game.choose(state, seat, rng)

    state, _ = playout.play_out(game, state, policy)
    return bool(game.outcome(state).winners), state["result"]["total"]


def measure(game, players: int, scenario: str, games: int) -> dict:
    out = {}
    for who in ("bots", "solver"):
        wins, scores = 0, []
        for g in range(games):
            won, total = play(game, players, scenario, f"bench-{scenario}-{g}", who == "solver")
            wins += won
            scores.append(total)
        out[who] = (wins / games, sum(scores) / games)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args(argv)
    game = registry.get("conseil")(bundle_for("conseil", ROOT / "content"))
    start = time.perf_counter()
    rows = []
    for n in (2, 3, 4):
        rows.append((f"partie normale, {n} joueurs", measure(game, n, "base", args.games)))
    for month in MONTHS:
        rows.append((f"{month}, 3 joueurs", measure(game, 3, month, args.games)))
    elapsed = time.perf_counter() - start
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        BEGIN,
        "## Le Conseil des 12: honest bots against the omniscient solver",
        "",
        f"Date (UTC): {now} · commit {commit} · Python {platform.python_version()} · "
        f"{cpu_model()} · {args.games} games per line · {elapsed:.0f} s in all",
        "",
        "Honest bots see their own hand and the public table and speak only the rulebook's "
        "general remarks; the solver's table sees every hand and plays a winning plan whenever "
        "one exists, with the kept RÉCOMPENSES and the ORACLE (it sees the die's rolls: the "
        "game's seeded generator decides them).  Bells, the claim and the « +1 Faveur » follow "
        "the honest policy for both.  The gap is the price of silence.",
        "",
        "| game | bots win | solver wins | gap | bots' mean reign | solver's mean reign |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, r in rows:
        b, s = r["bots"], r["solver"]
        lines.append(
            f"| {label} | {b[0]:.0%} | {s[0]:.0%} | {s[0] - b[0]:+.0%} | {b[1]:.1f} | {s[1]:.1f} |"
        )
    lines += ["", END]
    write_section(args.output, "\n".join(lines), BEGIN, END)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
