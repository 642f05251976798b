"""Le Dilemme du Roi: how each bot temperament scores against the others.

Every game seats four bot houses of the real campaign (``content/``), each the first game of a
new campaign with its own seed; the four temperaments (``engine/dilemme/bots.py``) take the four
seats in turn, so that each plays every seat and every house as often as the others.  For each
temperament: the share of games won (a shared win counts for each winner), the mean objective
points, the mean place, and how often it took a deal or the moderator's token — the habits that
tell them apart at the table.

Usage: ``python bench/game_dilemme.py [--games 1000] [--output BENCHMARKS.md] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402  (bench/ is on sys.path as a script)

from engine.core import playout, registry  # noqa: E402
from engine.dilemme import text_fr as T  # noqa: E402
from engine.dilemme.bots import TEMPERAMENTS  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/game_dilemme.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/game_dilemme.py -->"
SEATS = 4


def play(games: int) -> dict:
    game = registry.get("dilemme")(bundle_for("dilemme", ROOT / "content"))
    names = list(TEMPERAMENTS)
    houses = [o.value for o in game.fields()[0].options]
    played: Counter = Counter()
    wins: Counter = Counter()
    points: dict[str, list[int]] = defaultdict(list)
    places: dict[str, list[int]] = defaultdict(list)
    habits: dict[str, Counter] = defaultdict(Counter)
    start = time.perf_counter()
    for g in range(games):
        tempers = [names[(g + k) % len(names)] for k in range(SEATS)]
        chosen = [houses[(g * 3 + 2 * k) % len(houses)] for k in range(SEATS)]
        if len(set(chosen)) < SEATS:
            chosen = [houses[(g + k) % len(houses)] for k in range(SEATS)]
        setup = game.normalize_setup(
            {"seed": f"t{g}", "players": SEATS, "bots": SEATS, "persona": tempers,
             "seats": [{"house": h} for h in chosen]}
        )  # fmt: skip
        state = game.new_game(setup)
        bots = playout.bots(tempers.__getitem__, playout.seeded(f"t{g}"))
        for move in playout.play(game, state, bots, limit=20_000):
            seat, action = move.seat, move.action
            if action["type"] == "answer" and action["accept"]:
                habits[tempers[seat]]["deals sold"] += 1
            elif action["type"] == "offer":
                habits[tempers[seat]]["offers"] += 1
            elif action["type"] == "pass":
                habits[tempers[seat]][f"pass {action['for']}"] += 1
            elif action["type"] == "vote":
                habits[tempers[seat]]["votes"] += 1
                habits[tempers[seat]]["power staked"] += action["power"]
            state = move.after
        outcome = game.outcome(state)
        for row in outcome.ranking:
            t = tempers[row["seat"]]
            played[t] += 1
            points[t].append(row["score"])
            places[t].append(row["rank"])
        for seat in outcome.winners:
            wins[tempers[seat]] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "seconds": seconds,
        "rows": [
            {
                "temperament": t,
                "label": T.TEMPERAMENT[t],
                "seats": played[t],
                "win_share": wins[t] / played[t],
                "points": sum(points[t]) / len(points[t]),
                "place": sum(places[t]) / len(places[t]),
                "deals_sold": habits[t]["deals sold"] / played[t],
                "offers": habits[t]["offers"] / played[t],
                "moderator": habits[t]["pass moderator"] / played[t],
                "pass_power": habits[t]["pass power"] / played[t],
                "stake": habits[t]["power staked"] / max(1, habits[t]["votes"]),
            }
            for t in names
        ],
    }


def section(result: dict) -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
    except OSError:
        commit = "?"
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        BEGIN,
        "## Le Dilemme du Roi: bot temperaments against each other",
        "",
        f"Date (UTC): {now} · commit {commit} · Python {platform.python_version()} · "
        f"{cpu_model()} · {result['games']} seeded four-house games "
        f"({result['seconds']:.1f} s); each temperament sits at every seat in turn.",
        "",
        "| temperament | seats | wins (share) | objective points (mean) | place (mean) "
        "| deals sold / game | offers / game | moderator taken / game "
        "| passes for Pouvoir / game | Pouvoir per vote |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['label']} | {r['seats']} | {r['win_share']:.1%} | {r['points']:.1f} "
            f"| {r['place']:.2f} | {r['deals_sold']:.2f} | {r['offers']:.2f} "
            f"| {r['moderator']:.2f} | {r['pass_power']:.2f} | {r['stake']:.2f} |"
        )
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    result = play(args.games)
    text = section(result)
    print(text)
    if not args.no_write:
        write_section(args.output, text, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
