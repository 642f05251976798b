"""Benchmark the rules engines: whole games played by bots, in CPython.

Target (issue: Le Dilemme du Roi engine): a whole five-bot game in ≤ 50 ms median, so that
thousands of simulated campaigns are cheap.  Games are played through the public contract
(``new_game`` / ``apply`` with the bots choosing from ``legal_actions``) on the real campaign
compiled from ``content/``.  Each game starts from the campaign as it stands before its first
game, with a different seed.

Usage: ``python bench/engine.py [--games 200] [--output BENCHMARKS.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import write_section  # noqa: E402  (bench/ is on sys.path as a script)

from engine.dilemme import apply, new_campaign, new_game  # noqa: E402
from engine.dilemme.bots import choose  # noqa: E402
from pipeline import check  # noqa: E402
from pipeline import compile as comp  # noqa: E402

BEGIN = "<!-- BEGIN bench/engine.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/engine.py -->"
TARGET_MS = 50.0
CITADELLE_TARGET_MS = 100.0


def dilemme_games(games: int) -> dict:
    report = check(ROOT / "content" / "dilemme")
    bundle = json.loads(json.dumps(comp.bundle(report.graphs["dilemme"])))
    campaign = new_campaign(bundle, "bench")
    houses = sorted(campaign["houses"], key=lambda h: bundle["records"]["house"][h]["number"])[:5]
    seats = [{"house": h, "bot": True} for h in houses]
    times, actions, rounds = [], [], []
    for g in range(games):
        start = time.perf_counter()
        state = new_game(bundle, campaign, seats, f"bench-{g}")
        n = 0
        while state["pending"] is not None:
            state = apply(bundle, state, choose(bundle, state, state["pending"]["seat"]))
            n += 1
        times.append((time.perf_counter() - start) * 1000)
        actions.append(n)
        rounds.append(state["round"])
    times.sort()
    return {
        "games": games,
        "median_ms": statistics.median(times),
        "p90_ms": times[int(0.9 * (len(times) - 1))],
        "max_ms": times[-1],
        "actions": statistics.median(actions),
        "rounds": statistics.median(rounds),
    }


def citadelle_scenarios(runs: int, policy: str = "random") -> dict:
    """One scenario (the introduction) played to its end by a seeded random policy, or by the
    automatic policy (which plays it through, usually back to the Citadel)."""
    import random

    from engine.citadelle import apply as capply
    from engine.citadelle import legal_actions as clegal
    from engine.citadelle import new_game as cnew
    from engine.citadelle.auto import choose as cauto

    report = check(ROOT / "content" / "citadelle")
    bundle = json.loads(json.dumps(comp.bundle(report.graphs["citadelle"])))
    characters = sorted(bundle["records"]["character"])[:2]
    times, actions = [], []
    for r in range(runs):
        pick = random.Random(r)
        start = time.perf_counter()
        state = cnew(bundle, characters, f"bench-{r}")
        n = 0
        while state["pending"] is not None and state["phase"] == "play" and n < 5000:
            if state["scenarios_played"]:
                break  # the introduction is over
            action = (
                pick.choice(clegal(bundle, state)) if policy == "random" else cauto(bundle, state)
            )
            state = capply(bundle, state, action)
            n += 1
        times.append((time.perf_counter() - start) * 1000)
        actions.append(n)
    times.sort()
    return {
        "games": runs,
        "median_ms": statistics.median(times),
        "p90_ms": times[int(0.9 * (len(times) - 1))],
        "max_ms": times[-1],
        "actions": statistics.median(actions),
        "rounds": 1,
    }


def section(result: dict, citadelle: dict | None = None, auto: dict | None = None) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "?"  # fmt: skip
    ok = "pass" if result["median_ms"] <= TARGET_MS else "FAIL"
    return "\n".join([
        BEGIN,
        "",
        "## Rules engines: whole games played by bots",
        "",
        f"Date (UTC): {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} · commit {commit} · "
        f"Python {platform.python_version()} · {platform.machine()}",
        "",
        "| game | games | median | p90 | max | actions (median) | rounds (median) | "
        f"target ≤ {TARGET_MS:.0f} ms median |",
        "|---|---:|---:|---:|---:|---:|---:|:---:|",
        f"| Le Dilemme du Roi, 5 bots | {result['games']} | {result['median_ms']:.1f} ms | "
        f"{result['p90_ms']:.1f} ms | {result['max_ms']:.1f} ms | {result['actions']:.0f} | "
        f"{result['rounds']:.0f} | {ok} |",
        *([
            f"| The 7th Citadel, one scenario, random policy | {citadelle['games']} | "
            f"{citadelle['median_ms']:.1f} ms | {citadelle['p90_ms']:.1f} ms | "
            f"{citadelle['max_ms']:.1f} ms | {citadelle['actions']:.0f} | – | "
            f"{'pass' if citadelle['median_ms'] <= CITADELLE_TARGET_MS else 'FAIL'} "
            f"(≤ {CITADELLE_TARGET_MS:.0f} ms) |",
        ] if citadelle else []),
        *([
            f"| The 7th Citadel, one scenario, automatic policy | {auto['games']} | "
            f"{auto['median_ms']:.1f} ms | {auto['p90_ms']:.1f} ms | "
            f"{auto['max_ms']:.1f} ms | {auto['actions']:.0f} | – | "
            f"{'pass' if auto['median_ms'] <= CITADELLE_TARGET_MS else 'FAIL'} "
            f"(≤ {CITADELLE_TARGET_MS:.0f} ms) |",
        ] if auto else []),
        "",
        END,
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark the rules engines with bot games.")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    result = dilemme_games(args.games)
    citadelle = citadelle_scenarios(args.games)
    auto = citadelle_scenarios(args.games, policy="auto")
    text = section(result, citadelle, auto)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
