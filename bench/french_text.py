"""Every text a player reads, checked as French over hundreds of seeded games per game.

For each registered game, ``--games`` seeded games (every setting and table size in turn,
every other game with a single person at the table, « Vous »), the setup form's messages and
the refused imports' messages, read through ``pipeline.story.french_text``; prints and writes to
BENCHMARKS.md, per game, the number of games, of distinct sentences checked and of findings
(target: 0), with the first findings if any.

Usage: ``python bench/french_text.py [--games 200] [--game ID] [--no-write] [--output PATH]``.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import cpu_model, write_section  # noqa: E402

from pipeline.story import french_text as F  # noqa: E402

BEGIN = "<!-- BEGIN bench/french_text.py: this section is rewritten by this script -->"
END = "<!-- END bench/french_text.py -->"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="seeded games per game")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument(
        "--games-for", action="append", default=[], metavar="ID=N", help="N games for game ID"
    )
    ap.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args()
    every = F.games()
    allowed = F.allowed_words(ROOT)
    hunspell = F.hunspell_available()
    per_game = {k: int(v) for k, _, v in (x.partition("=") for x in args.games_for)}
    rows = []
    shown: list[str] = []
    for game in every:
        if args.game and game.id not in args.game:
            continue
        t = time.perf_counter()
        n = per_game.get(game.id, args.games)
        sentences = F.collect(game, n, every)
        found = F.findings(sentences, allowed)
        seconds = time.perf_counter() - t
        by_rule = collections.Counter(f.rule for f in found)
        rows.append((game.id, n, len(sentences), len(found), by_rule, seconds))
        print(
            f"{game.id}: {n} games, {len(sentences)} distinct sentences, "
            f"{len(found)} findings ({seconds:.0f} s)",
            flush=True,
        )
        for f in found[:10]:
            line = f"  {game.id}: {str(f)[:240]}"
            shown.append(line)
            print(line)
    lines = [
        BEGIN,
        "## French text: everything a player reads",
        "",
        f"`python bench/french_text.py {' '.join(sys.argv[1:])}` — {dt.date.today().isoformat()}, "
        f"{cpu_model()}; Hunspell French {'on' if hunspell else 'absent (grammar rules only)'}.",
        "Constructions always wrong in French (« de le », « 1 joueurs », « 3 carte », « que il »,",
        "« LA DAME est annulé », « Membre 1 Ier », « passe de 3 à 3 », « Vous joue », « à Vous »,",
        "« le 2 de vous »…), English words, raw ids, command lines and Hunspell's unknown words,",
        "over seeded games of every setting and table size (every other one with a single person",
        "at the table, whom the game calls « Vous »: only that person's screens are read, as",
        "nobody reads a bot's), the setup form's messages and the refused imports' messages;",
        "also a whole campaign played to its end with its chronicle page and, where a person can",
        "be out while the others play on (Complots), a person watching the rest of a game.",
        "",
        "| game | games | distinct sentences | findings | time |",
        "|---|---:|---:|---:|---:|",
    ]
    for gid, games, n, k, _, seconds in rows:
        lines.append(f"| {gid} | {games} | {n} | **{k}** | {seconds:.0f} s |")
    if shown:
        lines += ["", "First findings:", "", *[f"- {s.strip()}" for s in shown[:20]]]
    lines.append(END)
    if not args.no_write:
        write_section(args.output, "\n".join(lines) + "\n", BEGIN, END)
    return 1 if any(r[3] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
