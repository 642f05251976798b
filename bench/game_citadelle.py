"""The 7th Citadel's automatic policy at work: seeded games of the introduction and of each
scenario of the Menace booklet, each started at that scenario with two characters and played
by the policy until the group is back at the Citadel.  A game is **won** when every objective
the scenario requires (the optional ones apart) is reached when its epilogue is read; the
table gives the win share, the epilogue reached most often and the actions per game.

    python bench/game_citadelle.py [--games 200] [--output BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402  (bench/ is on sys.path)

from engine.citadelle import game as G  # noqa: E402
from engine.citadelle import records as rec  # noqa: E402
from engine.citadelle.auto import choose  # noqa: E402
from pipeline.story.bundles import bundle_for  # noqa: E402

BEGIN = "<!-- BEGIN bench/game_citadelle.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/game_citadelle.py -->"
CHARACTERS = (("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"))
LIMIT = 3000  # decisions: a scenario never needs this many


def scenarios(bundle: dict) -> list[str]:
    """The introduction, then the Menace booklet's scenarios in campaign order."""
    out = [bundle["campaign"]["intro"]]
    while True:
        nxt = {
            b.get("next")
            for b in rec.scenario(bundle, out[-1]).get("epilogue") or []
            if b.get("next")
        }
        nxt -= set(out)
        if not nxt:
            return out
        out.append(sorted(nxt)[0])


def required(bundle: dict, scenario: str) -> set[str]:
    return {
        o["id"]
        for o in rec.scenario(bundle, scenario).get("objectives") or []
        if not o.get("optional")
    }


def play(bundle: dict, scenario: str, seed: int) -> dict:
    """One scenario played by the policy; what became of it."""
    chars = list(CHARACTERS[seed % len(CHARACTERS)])
    state = G.new_game(bundle, chars, seed, scenario=scenario)
    actions = 0
    while state["pending"] is not None and actions < LIMIT:
        if state["phase"] != "play" or state["scenario"] != scenario:
            break
        legal = G.legal_actions(bundle, state)
        state = G.apply(bundle, state, choose(bundle, G.view(bundle, state), legal))
        actions += 1
    reached = set(state["objectives"])
    epilogue = next(
        (e["branch"] for e in reversed(state["epilogues"]) if e["scenario"] == scenario), None
    )
    return {
        "won": epilogue is not None and required(bundle, scenario) <= reached,
        "epilogue": epilogue or (state["result"] or {}).get("why", "—"),
        "actions": actions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    bundle = bundle_for("citadelle")
    rows = []
    load_start = os.getloadavg()[0]
    started = time.perf_counter()
    for scen in scenarios(bundle):
        games = [play(bundle, scen, seed) for seed in range(1, args.games + 1)]
        wins = sum(g["won"] for g in games)
        counts = [g["actions"] for g in games]
        epilogue, times = Counter(g["epilogue"] for g in games).most_common(1)[0]
        rows.append(
            f"| {rec.scenario(bundle, scen)['title']} | {args.games} | {wins} "
            f"| {100 * wins / args.games:.0f} % | {statistics.mean(counts):.0f} "
            f"| {statistics.median(counts):.0f} | {max(counts)} | {epilogue} ({times}) |"
        )
        print(rows[-1], flush=True)
    elapsed = time.perf_counter() - started
    load_end = os.getloadavg()[0]
    today = datetime.date.today().isoformat()
    text = "\n".join(
        [
            BEGIN,
            "",
            "## The 7th Citadel: the automatic policy",
            "",
            f"{today}, {cpu_model()}, Python {sys.version.split()[0]}; "
            f"`python bench/game_citadelle.py --games {args.games}` ({elapsed:.0f} s; load "
            f"average {load_start:.1f} at the start, {load_end:.1f} at the end, on 2 cores "
            "shared with other runs).",
            "",
            "Each game starts at the scenario with two characters (Maëlis and Tobiah, Yseult and",
            "Frère Galdric, ... by seed) and the policy plays every decision until the group is",
            "back at the Citadel. **Won**: every objective the scenario requires (optional ones",
            "apart) reached when its epilogue is read. Goal: at least half of the games won.",
            "",
            "| Scenario | Games | Won | Share | Actions (mean) | (median) | (max) "
            "| Most frequent epilogue |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
            *rows,
            "",
            END,
        ]
    )
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
