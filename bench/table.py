"""The play table's measures (issue 26), in headless Chromium, into BENCHMARKS.md.

For every registered game, on a desktop (1280×800) and a phone (390×844, touch, device scale 3,
a mobile viewport), one quick game of ``--decisions`` decisions mixing the choices the way the
suite's table test makes them (``tests/e2e/test_play_table.py``'s ``decide``: a seeded pick
among the visible choices, now and then a folded group opened first, a form filled at random, a
number key pressed), and after each decision the suite's own reading of the screen
(``MEASURE``):

- **in view**: the share of decisions after which the turn bar, the last-step block and the
  first enabled choice are all inside the viewport (below the site's header, above the bottom
  edge) and not covered (a hand-over screen has no table: not counted);
- **fold**: how far below the fold the first choice is when the game opens (px, 0 when above);
- **click → screen**: from a click (the event's own time stamp) to the DOM mutation that shows
  the next screen (a MutationObserver in the page: the screen number of the table's marker, or
  ``#gb-root``'s children replaced), p95 and max; only clicks a new screen followed; on the
  phone the game goes on to ``--click-decisions`` decisions (120) so that the p95 is not the
  second slowest of 35 clicks (every decision is read for the other measures too);
- **choices**: the most choices one can see on a screen, buttons without a visible label, groups
  with the same label twice.

Hot seat (desktop): for every game with secrets, two people and a bot (the suite's
``start_hot_seat``), ``--decisions`` human decisions; on every screen, elements marked
``data-private`` for a seat other than the last one who confirmed holding the device, and, on
every hand-over screen, private elements and any secret text a seat was shown so far (its card
names, its objective: the suite's ``LOOK``) in the page's text.

axe-core (WCAG 2.2 AA, the target-size rule on): serious and critical nodes on the home page,
every rules page, the writers' guide, the format reference, every play page during a game (both
sizes) and at its end, every chronicle and the story map (the site is built with
``--authoring``).

Usage: ``python bench/table.py [--decisions 40] [--games a,b] [--end-cap 600] [--site DIR]
[--output BENCHMARKS.md] [--no-write]``.  Without ``--site`` the site is built (with
``--authoring``) into a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import platform
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from common import cpu_model, write_section  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the engine package before bench/engine.py

import browser  # noqa: E402  (bench/browser.py: Chromium, its arguments, the build)

from engine.core import registry  # noqa: E402

BEGIN = "<!-- BEGIN bench/table.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/table.py -->"
E2E = ROOT / "tests" / "e2e"
PROFILES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
}
GOAL_CLICK_MS = 50.0
MAX_VISIBLE = 16

# From a trusted click to the mutation that shows the next screen (installed before any script).
CLICKS = """
(() => {
  const times = (window.__clicks = []);
  let at = null;
  addEventListener("click", (e) => { if (e.isTrusted) at = e.timeStamp; }, true);
  const shown = () => { if (at !== null) { times.push(performance.now() - at); at = null; } };
  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("gb-root");
    if (!root) return;
    new MutationObserver((list) => {
      for (const m of list) {
        if (m.type === "childList" && m.target === root) return shown();
        if (m.type === "attributes" && m.attributeName === "data-screen") return shown();
      }
    }).observe(root, { childList: true, subtree: true, attributes: true,
                       attributeFilter: ["data-screen"] });
  });
})();
"""


def _load(name: str, path: Path) -> ModuleType:
    """A module of the suite, loaded by its path (the tests' helpers, not copies of them)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


kit = _load("gamebook_e2e_kit", E2E / "conftest.py")  # Game, serve_site, build_site, init scripts
table = _load("gamebook_e2e_table", E2E / "test_play_table.py")  # MEASURE, decide
hot = _load("gamebook_e2e_hot_seat", E2E / "test_hot_seat.py")  # LOOK, start_hot_seat, pick
a11y = _load("gamebook_e2e_a11y", E2E / "test_accessibility.py")  # violations (axe)
AXE = SimpleNamespace(root=ROOT)


def _context(pw_browser: Any, profile: str, seed: int) -> Any:
    ctx = pw_browser.new_context(service_workers="block", locale="fr-FR", **PROFILES[profile])
    ctx.set_default_timeout(kit.TIMEOUT_MS)
    ctx.add_init_script(kit.CATCH_ERRORS)
    ctx.add_init_script(kit.SEEDED_RANDOM % seed)
    ctx.add_init_script(CLICKS)
    return ctx


def _axe_nodes(page: Any) -> tuple[int, list[str]]:
    found = a11y.violations(page, AXE)
    return sum(len(v["nodes"]) for v in found), [f"{v['id']} ×{len(v['nodes'])}" for v in found]


pct = browser.pct


# --------------------------------------------------------------------------- the table


def play_table(pw_browser: Any, base: str, game_id: str, profile: str, args: Any) -> dict:
    """One quick game: every screen read as the suite reads it."""
    seed = 26_000 + sum(map(ord, game_id + profile))
    ctx = _context(pw_browser, profile, seed)
    rng = random.Random(f"table:{game_id}:{profile}")
    out: dict[str, Any] = {"decisions": 0, "in_view": 0, "counted": 0, "misses": [],
                           "max_visible": 0, "unlabelled": 0, "duplicates": 0,
                           "axe": {}}  # fmt: skip
    try:
        page = ctx.new_page()
        game = kit.Game(page, base, game_id).open()
        game.quick_start()
        m = page.evaluate(table.MEASURE)
        out["fold"] = max(0.0, m["first"][1] - m["H"]) if m["first"] else None
        page.evaluate("() => { window.__clicks.length = 0; }")  # the opening's own clicks
        read(out, m, "open")
        # the phone's click → screen p95 is read over more clicks than the 40 decisions (a
        # p95 of 35 clicks is the second slowest one); every decision counts for the rest
        total = max(args.decisions, args.click_decisions) if profile == "phone" else args.decisions
        for step in range(1, total + 1):
            how = table.decide(game, rng, step)
            out["decisions"] += 1
            read(out, page.evaluate(table.MEASURE), f"{step} ({how})")
        out["clicks"] = page.evaluate("() => window.__clicks.slice()")
        out["axe"]["during a game"] = _axe_nodes(page)
        if profile == "desktop":
            for _ in range(args.end_cap):  # to the end of the game, for its end screen
                if page.locator(".gb-choices .gb-over").count():
                    break
                game.decide(rng)
            if page.locator(".gb-choices .gb-over").count():
                out["axe"]["at its end"] = _axe_nodes(page)
                chronicle = f"chronique/{game_id}/index.html"
                if (args.site_dir / chronicle).is_file():
                    page.goto(base + chronicle, wait_until="load")
                    out["axe"]["chronicle"] = _axe_nodes(page)
            else:
                out["axe"]["at its end"] = (None, [f"no end within {args.end_cap} decisions"])
    finally:
        ctx.close()
    return out


def read(out: dict, m: dict, where: str) -> None:
    """One screen's reading (``table.MEASURE``) into the totals."""
    out["max_visible"] = max(out["max_visible"], m["visible"])
    out["unlabelled"] += len(m["unlabelled"])
    out["duplicates"] += sum(1 for g in m["groups"] if len(g) != len(set(g)))
    if where == "open" or m["handoff"]:
        return
    out["counted"] += 1
    gone = [k for k in ("turn", "last", "first") if not (table._inside(m, m[k]) and m[f"{k}Seen"])]
    out["in_view"] += not gone
    if gone and len(out["misses"]) < 3:
        out["misses"].append(f"{where}: {', '.join(gone)}")


# --------------------------------------------------------------------------- hot seat


def play_hot_seat(pw_browser: Any, base: str, game_id: str, args: Any) -> dict:
    """Two people and a bot on one device: what each screen holds of whose secrets."""
    seed = 2626 + sum(map(ord, game_id))
    ctx = _context(pw_browser, "desktop", seed)
    rng = random.Random(f"hot:{game_id}")
    out = {"screens": 0, "handovers": 0, "private_screens": 0, "wrong_marks": 0, "leaks": 0,
           "decisions": 0, "games": 1}  # fmt: skip
    try:
        page = ctx.new_page()
        game = kit.Game(page, base, game_id).open()
        low, high = registry.get(game_id).players
        seats = min(high, max(low, 3))
        hot.start_hot_seat(game, seats, f"banc-{game_id}")
        holder: int | None = None
        seen: dict[str, set[str]] = {"0": set(), "1": set()}
        for _ in range(20 * args.decisions):
            if out["decisions"] >= args.decisions:
                break
            look = page.evaluate(hot.LOOK)
            out["screens"] += 1
            if look["handover"] is not None:
                out["handovers"] += 1
                text = look["text"]
                leaked = look["marks"] or any(
                    re.search(rf"(?<!\w){re.escape(t)}(?!\w)", text)
                    for texts in seen.values()
                    for t in texts
                )
                out["leaks"] += bool(leaked)
                game.click_and_render(page.locator('[data-testid="handover-ready"]'))
                holder = look["handover"]
                continue
            wrong = {m for m in look["marks"] if holder is None or int(m) != holder}
            out["wrong_marks"] += bool(wrong)
            out["private_screens"] += bool(look["marks"])
            for s, texts in look["secrets"].items():
                seen.setdefault(s, set()).update(texts)
            if look["over"]:
                nxt = page.locator('[data-choice="next-game"]')
                if nxt.count():
                    game.click_and_render(nxt)
                else:
                    page.locator('[data-choice="new"]').click()
                    game.wait_ready()
                    out["games"] += 1
                    hot.start_hot_seat(game, seats, f"banc-{game_id}-{out['games']}")
                holder = None
                continue
            hot.pick(game, rng)
            out["decisions"] += 1
    finally:
        ctx.close()
    return out


# --------------------------------------------------------------------------- reading pages


def reading_pages(pw_browser: Any, base: str, site: Path) -> dict[str, tuple]:
    pages = ["index.html", *sorted(p.name for p in site.glob("regles-*.html"))]
    pages += ["guide-auteurs.html", "reference-format.html"]
    carte = site / "carte"
    if carte.is_dir():
        pages.append("carte/index.html")
        for family in sorted(p.name for p in carte.iterdir() if p.is_dir()):
            pages.append(f"carte/{family}/index.html")
            nodes = sorted(p for p in (carte / family).rglob("*.html") if p.name != "index.html")
            pages += [p.relative_to(site).as_posix() for p in nodes[:1]]
    out = {}
    ctx = _context(pw_browser, "desktop", 1)
    try:
        page = ctx.new_page()
        for rel in pages:
            page.goto(base + rel, wait_until="load")
            page.wait_for_load_state("networkidle")
            out[rel] = _axe_nodes(page)
    finally:
        ctx.close()
    return out


# --------------------------------------------------------------------------- the section


def ok(good: bool) -> str:
    return "✅" if good else "❌"


def section(data: dict) -> str:
    games = data["games"]
    title = data["titles"]
    verdicts: list[bool] = []
    lines = [
        BEGIN,
        "",
        "## The play table: the turn and the choices in view, hot seat, accessibility",
        "",
        f"- Machine: {data['machine']}; load average at the start {data['load']} (2 cores "
        "shared: other sessions were running)",
        f"- Date: {data['date']}; {data['browser']}; {data['decisions']} decisions per game and "
        f"size ({data['click_decisions']} on the phone, for the click p95); the whole run took "
        f"{data['seconds']:.0f} s; load average at the end {data['load_end']}",
        "",
        "| game | size | decisions | in view (goal 100 %) | first choice below the fold "
        "(goal 0 px) | click → screen p95 (goal ≤ 50 ms on the phone) | max | most choices "
        "in view (≤ 16) | unlabelled | same label twice |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    misses: list[str] = []
    for g in games:
        for profile in PROFILES:
            r = data["table"][g][profile]
            share = r["in_view"] / r["counted"] if r["counted"] else 1.0
            clicks = r.get("clicks", [])
            p95 = pct(clicks, 0.95)
            good_click = profile != "phone" or p95 <= GOAL_CLICK_MS
            good = [share == 1.0, r["fold"] == 0, good_click, r["max_visible"] <= MAX_VISIBLE,
                    r["unlabelled"] == 0, r["duplicates"] == 0]  # fmt: skip
            verdicts += good
            phone_mark = " " + ok(good[2]) if profile == "phone" else ""
            lines.append(
                f"| {title[g]} | {profile} | {r['decisions']} | {100 * share:.0f} % "
                f"({r['in_view']}/{r['counted']}) {ok(good[0])} | {r['fold']:.0f} px {ok(good[1])} "
                f"| {p95:.1f} ms ({len(clicks)} clicks){phone_mark} "
                f"| {max(clicks, default=float('nan')):.1f} ms | {r['max_visible']} {ok(good[3])} "
                f"| {r['unlabelled']} {ok(good[4])} | {r['duplicates']} {ok(good[5])} |"
            )
            misses += [f"{title[g]}, {profile}, after decision {m}" for m in r["misses"]]
    if misses:
        lines += ["", "Out of view (first three per game and size): " + "; ".join(misses) + "."]
    lines += [
        "",
        "Hot seat, two people and a bot on one device (desktop):",
        "",
        "| game | games | human decisions | screens | hand-overs | screens with private "
        "elements | marked private for another seat (goal 0) | secrets before the hand-over "
        "(goal 0) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for g, r in data["hot"].items():
        verdicts += [r["wrong_marks"] == 0, r["leaks"] == 0]
        lines.append(
            f"| {title[g]} | {r['games']} | {r['decisions']} | {r['screens']} | {r['handovers']} "
            f"| {r['private_screens']} | {r['wrong_marks']} {ok(r['wrong_marks'] == 0)} "
            f"| {r['leaks']} {ok(r['leaks'] == 0)} |"
        )
    lines += [
        "",
        "axe-core, WCAG 2.2 AA (target size included): serious and critical nodes (goal 0):",
        "",
        "| page | nodes | rules |",
        "|---|---:|---|",
    ]
    axe_rows = [(rel, n) for rel, n in data["pages"].items()]
    for g in games:
        for profile in PROFILES:
            for moment, n in data["table"][g][profile]["axe"].items():
                axe_rows.append((f"play/{g}/ ({profile}, {moment})", n))
    for where, (count, rules) in axe_rows:
        verdicts.append(count == 0)
        shown = "–" if count is None else str(count)
        lines.append(f"| `{where}` | {shown} {ok(count == 0)} | {', '.join(rules) or '–'} |")
    lines += [
        "",
        "How to read it: *in view* counts the screens after a decision (a hand-over screen has no "
        "table); *click → screen* runs from a click's time stamp to the MutationObserver callback "
        "that sees the new screen in the DOM (the Python call, the bots' moves, the DOM patch and "
        "the layout the page reads to bring the table into view; painting comes after); "
        "the phone is a mobile viewport with touch and a device "
        "scale of 3, clicked with a pointer. Reproduce with `python bench/table.py`.",
        "",
        f"Overall: **{'pass' if all(verdicts) else 'FAIL'}**.",
        "",
        END,
    ]
    return "\n".join(lines)


def measure(site: Path, args: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    args.site_dir = site
    server = kit.serve_site(site)
    games = [g for g in args.games.split(",") if g]
    secret = [g for g in games if registry.get(g).hidden_information]
    data: dict[str, Any] = {
        "games": games, "decisions": args.decisions, "table": {}, "hot": {},
        "click_decisions": max(args.decisions, args.click_decisions),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "machine": f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.system()}",
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "titles": {g: registry.get(g).title for g in games},
    }  # fmt: skip
    started = time.perf_counter()
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(
                executable_path=browser.CHROMIUM, headless=True, args=browser.CHROMIUM_ARGS
            )
            data["browser"] = f"Chromium {b.version}"
            for g in games:
                data["table"][g] = {}
                for profile in PROFILES:
                    print(f"table: {g} {profile}", file=sys.stderr)
                    data["table"][g][profile] = play_table(b, server.url, g, profile, args)
            for g in secret:
                print(f"hot seat: {g}", file=sys.stderr)
                data["hot"][g] = play_hot_seat(b, server.url, g, args)
            print("reading pages", file=sys.stderr)
            data["pages"] = reading_pages(b, server.url, site)
            b.close()
    finally:
        server.stop()
    data["seconds"] = time.perf_counter() - started
    data["load_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="The play table's measures in headless Chromium.")
    p.add_argument("--decisions", type=int, default=40, help="decisions per game and size")
    p.add_argument("--games", default=",".join(registry.ids()))
    p.add_argument(
        "--click-decisions",
        type=int,
        default=120,
        help="decisions on the phone, for the click → screen p95",
    )
    p.add_argument("--end-cap", type=int, default=600, help="decisions at most to a game's end")
    p.add_argument("--content", default=str(ROOT / "content"), help="content to build from")
    p.add_argument("--site", help="an already built site (built with --authoring for the map)")
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    if not browser.BROWSER.found:
        print(f"bench/table.py: {browser.BROWSER.missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="gb-bench-table-") as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            print("building the site (with the story map)…", file=sys.stderr)
            kit.build_site(Path(args.content), site, "--authoring")
        data = measure(site, args)
    text = section(data)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
