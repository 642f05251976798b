"""Benchmark several devices at one table (issue 32) in headless Chromium: a host and three
guests of Complots, one browser context each, paired by their codes as a person would.

Targets: a guest's action round trip (guest → host → every guest) p95 ≤ 50 ms on one machine;
a guest closed and reopened back in its seat ≤ 5 s after its code is scanned, the game state
unchanged; at most two scans per guest; a QR payload a phone reads at arm's length (version
≤ 15 or so); no private leak.

What is measured:

* **round trip**: for each action a guest sends, from the moment its page sends it
  (``performance.timeOrigin + performance.now()``, one clock for every page of the machine) to
  the moment the last of the guests has drawn the host's next screen;
* **host's move**: from the host's click handled to the last guest's screen drawn (the host
  sends every guest its screen before drawing its own);
* **rejoin**: a guest's page closed, a new one opened, the host's new offer typed in: seconds
  from pressing « Rejoindre » to the play table drawn, with the code carried back to the host
  in between (what a person would do by scanning); the host's autosaved state compared before
  and after;
* **codes**: the length of every offer and answer code (base64url of the compressed JSON) and
  the QR version the page drew for it (``data-version``);
* **where the time goes**: the host's profile (``window.__gbProfile.remote``: the message
  judged and applied by Python, every guest's screen built and sent, its own screen drawn) and
  the last guest's (its message parsed, its screen drawn), one clock for every page;
* **a whole Roi des 12 game on six devices**: random choices among those in view, one call per
  decision and one wait per device on its screen counter, to the end screen on every device;
* **private leaks**: at every step, the elements of every page marked ``data-private`` for a
  seat other than that page's own (expected: none).

Usage: ``python bench/devices.py [--decisions 150] [--site DIR] [--output BENCHMARKS.md]
[--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import cpu_model, write_section  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from browser import build, serve  # noqa: E402  (bench/browser.py: the site built and served)

from pipeline import chromium  # noqa: E402

BROWSER = chromium.find()
GAME = "complots"
GUESTS = (1, 2, 3)
TIMEOUT_MS = 120_000
BEGIN = "<!-- bench:devices -->"
END = "<!-- /bench:devices -->"

LOOK = """seat => {
  const marks = [...document.querySelectorAll('[data-private]')]
    .map(e => Number(e.dataset.private));
  const mark = document.querySelector('#gb-root > .gb-screen');
  const choices = [...document.querySelectorAll('.gb-choices [data-choice]')]
    .filter(b => !b.disabled && b.getClientRects().length && b.dataset.choice !== 'new').length;
  return { leaks: marks.filter(m => m !== seat).length,
           screen: mark ? Number(mark.dataset.screen) : 0,
           choices, over: !!document.querySelector('[data-choice="new"]') };
}"""


def new_page(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(service_workers="block", locale="fr-FR")
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script("window.__gbProfile = [];")
    return context, context.new_page()


def pair(host: Any, page: Any, base: str, seat: int, codes: list[dict], game: str = GAME) -> float:
    offer = host.locator(f'[data-testid="pair-offer"][data-seat="{seat}"]')
    offer.wait_for(state="attached")
    code = offer.get_attribute("data-code")
    codes.append(
        {"kind": "offer", "chars": len(code), "version": offer.get_attribute("data-version")}
    )
    page.goto(f"{base}play/{game}/?invite", wait_until="domcontentloaded")
    page.locator('[data-testid="pair-offer-input"]').fill(code)
    start = time.monotonic()
    page.locator('[data-testid="pair-offer-submit"]').click()
    answer = page.locator('[data-testid="pair-answer"]')
    answer.wait_for(state="attached")
    reply = answer.get_attribute("data-code")
    codes.append(
        {"kind": "answer", "chars": len(reply), "version": answer.get_attribute("data-version")}
    )
    host.locator(f'[data-testid="pair-answer-input"][data-seat="{seat}"]').fill(reply)
    host.locator(f'[data-testid="pair-answer-submit"][data-seat="{seat}"]').click()
    page.locator('[data-testid="turn"]').wait_for()
    return time.monotonic() - start


def saved_state(host: Any) -> str:
    text = host.evaluate(
        """game => localStorage.getItem(
             `gamebook:${game}:${localStorage.getItem(`gamebook:${game}:slot`) || "A"}`)""",
        GAME,
    )
    return json.dumps(json.loads(text)["state"], sort_keys=True)


def measure(base: str, decisions: int) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {
        "codes": [],
        "round_trips_ms": [],
        "host_trips_ms": [],
        "parts": [],
        "leaks": 0,
        "steps": 0,
    }
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=BROWSER.executable, headless=True, args=list(chromium.ARGS)
        )
        hctx, host = new_page(browser)
        host.goto(f"{base}play/{GAME}/", wait_until="domcontentloaded")
        host.wait_for_function("() => document.getElementById('gb-app').dataset.ready === '1'")
        pages: dict[int, Any] = {0: host}
        contexts = [hctx]
        out["pairing_s"] = []
        out["games"] = 0

        def new_table() -> None:
            """A new game on the host, its guests paired (again)."""
            host.locator('[data-testid="devices-host"]').first.click()
            host.locator('[data-testid="devices-count"]').fill(str(len(GUESTS)))
            host.locator('[data-testid="devices-start"]').click()
            host.locator('[data-testid="turn"]').wait_for()
            for seat in GUESTS:
                if seat not in pages:
                    ctx, pages[seat] = new_page(browser)
                    contexts.append(ctx)
                out["pairing_s"].append(pair(host, pages[seat], base, seat, out["codes"]))
            out["games"] += 1

        new_table()
        rng = random.Random("bench-devices")
        for _ in range(decisions):
            looks = {s: p.evaluate(LOOK, s) for s, p in pages.items()}
            out["leaks"] += sum(lk["leaks"] for lk in looks.values())
            out["steps"] += 1
            if looks[0]["over"]:
                new_table()
                continue
            movers = [s for s, lk in looks.items() if lk["choices"]]
            seat = rng.choice(movers)
            page = pages[seat]
            buttons = page.locator(".gb-choices [data-choice]:visible")
            target = buttons.nth(rng.randrange(buttons.count()))
            before = {s: lk["screen"] for s, lk in looks.items()}
            target.click()
            confirm = page.locator(".gb-confirm .md-button--primary")
            if confirm.count():
                confirm.click()
            for s, p in pages.items():
                p.wait_for_function(
                    "n => Number(document.querySelector('#gb-root > .gb-screen')"
                    ".dataset.screen) > n",
                    arg=before[s],
                )
            if not seat:
                acted = host.evaluate("() => window.__gbProfile.at(-1)")
                drawn = [
                    p.evaluate(
                        "t => (window.__gbProfile.screens || []).find(e => e.at >= t).at",
                        acted["at"],
                    )
                    for s, p in pages.items()
                    if s
                ]
                out["host_trips_ms"].append(max(drawn) - acted["at"])
            else:
                sent = page.evaluate("() => window.__gbProfile.sent.at(-1).at")
                arrived = [
                    p.evaluate("t => (window.__gbProfile.screens || []).find(e => e.at >= t)", sent)
                    for s, p in pages.items()
                    if s
                ]
                last = max(arrived, key=lambda e: e["at"])
                out["round_trips_ms"].append(last["at"] - sent)
                hosted = host.evaluate("() => window.__gbProfile.remote.at(-1)")
                out["parts"].append(
                    {
                        "to_host": hosted["at"] - sent,
                        "receive": hosted["receive"],
                        "screens": hosted["screens"],
                        "size": hosted["size"],
                        "to_guest": last["got"] - (hosted["at"] + hosted["receive"]),
                        "parse": last["parse"],
                        "render": last["render"],
                        "host_render": hosted["render"],
                    }
                )
        if host.evaluate(LOOK, 0)["over"]:
            new_table()
        # a guest closed and reopened: back in its seat, nothing lost
        state = saved_state(host)
        pages[2].close()
        host.locator('[data-testid="pair-status"][data-seat="2"]').filter(
            has_text="déconnecté"
        ).wait_for()
        page = contexts[2].new_page()
        page.add_init_script("window.__gbProfile = [];")
        out["rejoin_s"] = pair(host, page, base, 2, out["codes"])
        out["rejoin_state_unchanged"] = saved_state(host) == state
        for ctx in contexts:
            ctx.close()
        out["roi"] = whole_roi_game(browser, base)
        browser.close()
    return out


# one decision on a device: a choice it can see, picked by `pick` in [0, 1), confirmed if the
# page asks
PRESS = """pick => {
  const buttons = [...document.querySelectorAll('.gb-choices [data-choice]')]
    .filter(b => !b.disabled && b.getClientRects().length && b.dataset.choice !== 'new');
  buttons[Math.floor(pick * buttons.length)].click();
  const yes = document.querySelector('.gb-confirm .md-button--primary');
  if (yes) yes.click();
}"""
# once a device drew a screen after number `n`: its private marks for other seats, whether it
# may act, whether the game is over
NEXT = """([n, seat]) => {
  const m = document.querySelector('#gb-root > .gb-screen');
  if (!m || Number(m.dataset.screen) <= n) return false;
  const leaks = [...document.querySelectorAll('[data-private]')]
    .filter(e => Number(e.dataset.private) !== seat).length;
  const choices = [...document.querySelectorAll('.gb-choices [data-choice]')]
    .filter(b => !b.disabled && b.getClientRects().length && b.dataset.choice !== 'new').length;
  return { screen: Number(m.dataset.screen), leaks, choices,
           over: !!document.querySelector('.gb-choices .gb-over') };
}"""


def whole_roi_game(browser: Any, base: str, guests: int = 5, limit: int = 2000) -> dict:
    """Le Roi des 12 on six devices (a host and five guests) from its first screen to its end
    screen, random choices among those in view: decisions, seconds, private leaks."""
    hctx, host = new_page(browser)
    contexts = [hctx]
    host.goto(f"{base}play/roi/", wait_until="domcontentloaded")
    host.wait_for_function("() => document.getElementById('gb-app').dataset.ready === '1'")
    host.locator('[data-testid="devices-host"]').first.click()
    host.locator('[data-testid="devices-count"]').fill(str(guests))
    host.locator('[data-testid="devices-start"]').click()
    host.locator('[data-testid="turn"]').wait_for()
    pages = {0: host}
    for seat in range(1, guests + 1):
        ctx, pages[seat] = new_page(browser)
        contexts.append(ctx)
        pair(host, pages[seat], base, seat, [], game="roi")
    rng = random.Random("bench-devices-roi")
    drawn = "() => Number(document.querySelector('#gb-root > .gb-screen').dataset.screen)"
    looks = {
        s: p.wait_for_function(NEXT, arg=[p.evaluate(drawn) - 1, s]).json_value()
        for s, p in pages.items()
    }
    decisions = leaks = 0
    start = time.monotonic()
    while not looks[0]["over"] and decisions < limit:
        movers = [s for s, lk in looks.items() if lk["choices"]]
        pages[rng.choice(movers)].evaluate(PRESS, rng.random())
        decisions += 1
        looks = {s: p.wait_for_function(NEXT, arg=[looks[s]["screen"], s]).json_value()
                 for s, p in pages.items()}  # fmt: skip
        leaks += sum(lk["leaks"] for lk in looks.values())
    took = time.monotonic() - start
    ended = all(lk["over"] for lk in looks.values())
    for ctx in contexts:
        ctx.close()
    return {"decisions": decisions, "seconds": took, "leaks": leaks, "ended": ended}


PARTS = ("to_host", "receive", "screens", "to_guest", "parse", "render", "host_render", "size")


def _spread(parts: list[dict], key: str) -> str:
    values = sorted(p[key] for p in parts)
    if not values:
        return "–"
    median, p95 = statistics.median(values), values[int(0.95 * (len(values) - 1))]
    if key == "size":
        return f"{median:,.0f} / {p95:,.0f}"
    return f"{median:.1f} / {p95:.1f}"


def _p95(values: list[float]) -> float:
    ranked = sorted(values)
    return ranked[int(0.95 * (len(ranked) - 1))] if ranked else float("nan")


def section(data: dict) -> str:
    trips = sorted(data["round_trips_ms"])
    p95 = trips[int(0.95 * (len(trips) - 1))] if trips else float("nan")
    offers = [c for c in data["codes"] if c["kind"] == "offer"]
    answers = [c for c in data["codes"] if c["kind"] == "answer"]
    load = os.getloadavg()
    lines = [
        BEGIN,
        "## Several devices (issue 32): `bench/devices.py`",
        "",
        f"{dt.date.today().isoformat()}, {cpu_model()} ({os.cpu_count()} cores), "
        f"{platform.system()}, "
        f"load {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; Chromium headless, one context per "
        f"device, {GAME} with a host and {len(GUESTS)} guests, {data['games']} games.",
        "",
        "| what | measured | target |",
        "|---|---|---|",
        f"| guest → host → every guest, p95 ({len(trips)} guest actions) | {p95:.1f} ms "
        f"(median {statistics.median(trips) if trips else float('nan'):.1f} ms) | ≤ 50 ms |",
        f"| host's move → every guest, p95 ({len(data['host_trips_ms'])} host actions) | "
        f"{_p95(data['host_trips_ms']):.1f} ms | |",
        f"| rejoin after the code is scanned | {data['rejoin_s']:.2f} s, state "
        f"{'unchanged' if data['rejoin_state_unchanged'] else 'CHANGED'} | ≤ 5 s, unchanged |",
        f"| first pairing, offer scanned → table drawn | {max(data['pairing_s']):.2f} s "
        "at most | |",
        f"| offer code | {max(c['chars'] for c in offers)} characters, QR version "
        f"{max(int(c['version'] or 0) for c in offers)} | version ≤ 15 or so |",
        f"| answer code | {max(c['chars'] for c in answers)} characters, QR version "
        f"{max(int(c['version'] or 0) for c in answers)} | version ≤ 15 or so |",
        "| scans per guest | 2 (the offer, then the answer) | ≤ 2 |",
        f"| private leaks ({data['steps']} steps × {len(GUESTS) + 1} pages) | "
        f"{data['leaks']} | 0 |",
        f"| a whole Roi des 12 game on six devices (a host, five guests), first screen to end "
        f"screen | {data['roi']['decisions']} decisions in {data['roi']['seconds']:.1f} s, "
        f"end screen on {'every device' if data['roi']['ended'] else 'SOME devices only'}, "
        f"{data['roi']['leaks']} private leaks | the end, 0 leaks |",
        "",
        "Where a round trip's time goes (median / p95, ms; the last guest to draw):",
        "",
        "| guest → host | host: Python judges and applies | host: every guest's screen built "
        "and sent | applied → the last guest got it (screens built, sent) | guest: parse "
        "| guest: draw | host: its own draw (after the sends) | bytes sent per action |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        "| " + " | ".join(_spread(data["parts"], k) for k in PARTS) + " |",
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark several devices at one table.")
    p.add_argument("--decisions", type=int, default=150)
    p.add_argument("--site", help="an already built site (skips the build)")
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    if not BROWSER.found:
        print(f"bench/devices.py: {BROWSER.missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="gb-bench-site-") as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            print("building the site…", file=sys.stderr)
            build(ROOT / "content", site)
        httpd, base = serve(site)
        try:
            data = measure(base, args.decisions)
        finally:
            httpd.shutdown()
            httpd.server_close()
    text = section(data)
    print(text)
    print(json.dumps(data), file=sys.stderr)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
