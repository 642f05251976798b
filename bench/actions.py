"""Where one action's round trip goes on the play pages (a dev tool for issue 17's p95 goal).

For each game's play page, in headless Chromium: the very walk of ``bench/browser.py``
(``browser.ROUND_TRIPS``: a quick start, a warm-up, then ``--actions`` choices picked by the
same seeded generator); for each engine action the page's own profile (``window.__gbProfile``,
filled by ``assets/play.js`` only when a dev script sets it) splits the round trip into: the
Python call (``act_json``: the action, the bots' moves, the screen's JSON), ``JSON.parse``, the
DOM build (``render``), the autosave (``save``, in the move's microtask), and what is left
(``layout``: the forced style and layout).  Median, p95 and max of each.

Usage: ``python bench/actions.py [--actions 200] [--games a,b] [--site DIR] [--json OUT]``.
Nothing is written to BENCHMARKS.md: ``bench/browser.py`` measures the goal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import browser  # bench/ is on sys.path when run as a script
from browser import GAMES, pct, round_trips, site_served

COLUMNS = ("total", "python", "parse", "render", "save", "layout")
SAVE_COLUMNS = ("save_json", "chronicle_json", "storage")


def stats(name: str, vals: list[float]) -> str:
    mean = sum(vals) / len(vals)
    return f"{name:<15}{pct(vals, 0.5):9.2f}{pct(vals, 0.95):9.2f}{max(vals):9.2f}{mean:9.2f}"


def table(data: dict) -> str:
    rows, saves = data["rows"], data["saves"]
    out = [f"{'phase':<15}{'median':>9}{'p95':>9}{'max':>9}{'mean':>9}"]
    out += [stats(c, [r[c] for r in rows]) for c in COLUMNS]
    sizes = [r["size"] for r in rows]
    out.append(f"screen JSON: median {pct(sizes, 0.5)} chars, max {max(sizes)}")
    if saves:
        out.append(f"autosaves written: {len(saves)} (in the move's microtask: inside)")
        out += [stats(c, [r[c] for r in saves]) for c in SAVE_COLUMNS]
    for r in sorted(rows, key=lambda r: r["total"])[-3:]:
        out.append("slowest: " + ", ".join(f"{c} {r[c]:.1f}" for c in COLUMNS))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description="Split the play pages' action round trips.")
    p.add_argument("--actions", type=int, default=200)
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--site", help="an already built site (skips the build)")
    p.add_argument("--json", help="write the raw rows there")
    args = p.parse_args(argv)
    if not browser.BROWSER.found:
        print(f"bench/actions.py: {browser.BROWSER.missing}", file=sys.stderr)
        return 2
    raw = {}
    with site_served(args.site) as base, sync_playwright() as pw:
        for g in args.games.split(","):
            raw[g] = data = round_trips(pw, f"{base}play/{g}/", args.actions, profile=True)
            n = len(data["rows"])
            print(f"== {g} ({n} actions)\n{table(data)}\n", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(raw), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
