"""Le Roi des 12: do two bots mirror each other?  On the default table (three seats, every
seat the default bot, the first game's cards), over seeded all-bot games, the share of turns
where two bots play the same card against the share independent play predicts.

Two predictions: from each bot's own mixed strategy at that turn (``bots.strategy``, the
distribution it drew its card from; independent streams make the observed share match it), and
from each bot's overall distribution of cards over all its turns (what the issue compares).

    python bench/roi_mirror.py --games 300     # prints a Markdown table for BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.registry import get
from engine.core.session import Session
from engine.roi import bots
from engine.roi import rules as R
from pipeline.story.bundles import bundle_for


def _distinct(dists: list[dict[str, float]]) -> float:
    """The chance that independent draws from ``dists`` are all different cards."""
    total = 0.0
    for combo in itertools.product(*(d.items() for d in dists)):
        cards = [c for c, _ in combo]
        if len(set(cards)) == len(cards):
            p = 1.0
            for _, w in combo:
                p *= w
            total += p
    return total


def measure(games: int, seed: str = "miroir") -> dict[str, float]:
    game = get("roi")(bundle_for("roi"))
    seats = game.default_players
    turns = same = pairs_same = 0
    predicted_turn = pair_turn = 0.0
    pairs = list(itertools.combinations(range(seats), 2))
    played: list[Counter] = [Counter() for _ in range(seats)]
    for i in range(games):
        setup = game.normalize_setup({"seed": f"{seed}-{i}", "players": seats, "bots": seats})
        session = Session(game).start(setup)
        persona = [session.persona(s) for s in range(seats)]
        st = game.new_game(session.setup)
        cards: dict[int, str] = {}
        dists: dict[int, dict[str, float]] = {}
        for move in session.actions:
            action = move["action"]
            if action.get("type") == "play":
                seat = action["seat"]
                if hasattr(bots, "strategy"):
                    view = R.view(st, seat, with_log=False)
                    weights = bots.strategy(view, R.legal_actions(st, seat), persona[seat])
                    norm = sum(w for _, w in weights)
                    dists[seat] = {c: w / norm for c, w in weights}
                cards[seat] = action["card"]
                played[seat][action["card"]] += 1
                if len(cards) == seats:  # every seat has played: the turn is complete
                    turns += 1
                    same += len(set(cards.values())) < seats
                    pairs_same += sum(cards[a] == cards[b] for a, b in pairs)
                    if dists:
                        predicted_turn += 1 - _distinct([dists[s] for s in range(seats)])
                        pair_turn += sum(1 - _distinct([dists[a], dists[b]]) for a, b in pairs)
                    cards, dists = {}, {}
            st = game.apply(st, action)
    overall = [{c: n / sum(p.values()) for c, n in p.items()} for p in played]
    out = {
        "games": games,
        "turns": turns,
        "observed": same / turns,
        "predicted_overall": 1 - _distinct(overall),
        "pair_observed": pairs_same / (turns * len(pairs)),
        "pair_overall": sum(1 - _distinct([overall[a], overall[b]]) for a, b in pairs) / len(pairs),
    }
    if hasattr(bots, "strategy"):
        out["predicted_turn"] = predicted_turn / turns
        out["pair_turn"] = pair_turn / (turns * len(pairs))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", default="miroir")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    m = measure(args.games, args.seed)

    def pc(key: str) -> str:
        return f"{100 * m[key]:.1f} %" if key in m else "—"

    print(f"Roi, table par défaut (3 bots « Rusé »), {m['games']} parties, {m['turns']} tours.\n")
    print("| | au moins deux bots sur la même carte | une paire de bots donnée |")
    print("|---|---|---|")
    print(f"| observé | {pc('observed')} | {pc('pair_observed')} |")
    print(
        f"| jeu indépendant, stratégie de chaque bot à ce tour "
        f"| {pc('predicted_turn')} | {pc('pair_turn')} |"
    )
    print(
        f"| jeu indépendant, répartition des cartes de chaque bot sur toutes ses parties "
        f"| {pc('predicted_overall')} | {pc('pair_overall')} |"
    )
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
