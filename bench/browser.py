"""Benchmark the play pages in the real browser (Debian's Chromium, headless, Playwright).

Targets (issue 17, point 1: start faster than bare Pyodide):

* cold: the first choice (``[data-testid="quick-start"]``) clickable in ≤ 0.8 × the time the
  stock Pyodide page takes to be ready, measured in the same run;
* warm (service worker in control): the quick start clickable ≤ 1 s after navigation;
* the campaign's opening text readable ≤ 1 s after navigation;
* one action's round trip p95 ≤ 16 ms;
* a play page's total transfer ≤ 4.5 MB compressed (gzip).

What is measured, for each game's play page and for a bare Pyodide page written into the site
at bench time (``bench-pyodide.html``: it only loads the stock Pyodide of the npm package, as
the issue's baseline, so the site's start is compared with a bare Pyodide page):

* **cold**: a fresh profile per visit (new browser, empty caches), service worker blocked;
* **warm**: a persistent profile visited once first (service worker installed, HTTP and code
  caches filled), then every measured visit in a newly launched browser on that profile,
  service worker allowed, no request routing (routing would disable the HTTP cache and hide
  what the worker answers);
* times are read in the page, from navigation start (``performance.now()``): the opening text
  readable = the later of ``[data-testid="story"]`` holding text and the first contentful
  paint; the quick start clickable = the button in the DOM, enabled and laid out (a
  MutationObserver installed before any script runs); the bare page's Pyodide ready =
  ``loadPyodide()`` resolved;
* the action round trip: in the page, ``performance.now()`` around a choice button's
  ``click()`` plus a forced layout: the Python call (``session.act_json``, the bots' moves,
  the autosave) and the new screen in the DOM, laid out (painting not included); the choices
  are picked by a seeded generator, a new game is started when one ends;
* the transfer: every file the page requested on a cold visit (Playwright's response events),
  summed raw and gzip-compressed (Python's gzip, level 6, as static hosts serve them; a file
  already compressed, the runtime's ``.zst``, counts as it is).

Usage: ``python bench/browser.py [--runs 3] [--warm-runs 3] [--actions 200]
[--content DIR | --site DIR] [--output BENCHMARKS.md] [--no-write]``.  Without ``--site`` the
site is built from ``--content`` (default ``content/``) into a temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import functools
import gzip
import http.server
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from common import cpu_model, write_section  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the engine package before bench/engine.py

from pipeline import chromium  # noqa: E402
from pipeline.publish.site import SiteHandler  # noqa: E402

BROWSER = chromium.find()  # GAMEBOOK_CHROMIUM, Playwright's own browser, or one on the PATH
CHROMIUM = BROWSER.executable
CHROMIUM_ARGS = list(chromium.ARGS)
HOST = "127.0.0.1"
from engine.core import registry  # noqa: E402

GAMES = tuple(registry.ids())  # every registered game has a play page
BARE = "bench-pyodide.html"
STOCK = "bench-stock-pyodide"
MB = 1_000_000
TIMEOUT_MS = 120_000

BEGIN = "<!-- BEGIN bench/browser.py: this section is rewritten by `python bench/browser.py` -->"
END = "<!-- END bench/browser.py -->"

TARGET_COLD_RATIO = 0.8  # cold quick start ≤ 0.8 × the stock Pyodide page (same run)
TARGET_WARM_S = 1.0
TARGET_OPENING_S = 1.0
TARGET_P95_MS = 16.0
TARGET_TRANSFER = 4.5 * MB

# Installed before any script of the page runs: when the opening text is in the DOM, when it
# is first painted, when the quick start is clickable.
PROBE = """
(() => {
  const b = (window.__bench = {});
  const check = () => {
    const s = document.querySelector('[data-testid="story"]');
    if (b.story === undefined && s && s.textContent.trim()) b.story = performance.now();
    const q = document.querySelector('[data-testid="quick-start"]');
    const shown = q && !q.disabled && q.offsetParent !== null;
    if (b.shown === undefined && shown) b.shown = performance.now();
    // the quick start counts once a click starts the game at once (the page shows it before
    // Python is ready and a click then waits): the engine is loaded (#gb-app[data-ready])
    const app = document.getElementById("gb-app");
    const ready = !app || app.hasAttribute("data-ready");
    if (b.quick === undefined && shown && ready) b.quick = performance.now();
    if (b.story !== undefined && b.quick !== undefined) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  const what = { subtree: true, childList: true, characterData: true, attributes: true };
  observer.observe(document, what);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") b.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  window.addEventListener("error", (e) => { b.error = String(e.message); });
})();
"""

# The bare baseline: the stock Pyodide of the npm package (its standard library as sources,
# compressed), nothing else — copied into the site at bench time (``STOCK``).
BARE_PAGE = """<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Pyodide seul (banc d'essai)</title>
<link rel="icon" href="data:,"></head>
<body><p id="out">Chargement de Pyodide…</p>
<script type="module">
const base = new URL("bench-stock-pyodide/", location.href).href;
const { loadPyodide } = await import(base + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: base, packages: [] });
pyodide.runPython("1 + 1");
window.__bench.ready = performance.now();
document.getElementById("out").textContent = "Pyodide prêt.";
</script></body></html>
"""

# The one walk of the play pages (``bench/actions.py`` uses it too): plays until ``n`` engine
# actions were timed and returns their round trips (ms).  Choices are picked by a seeded
# generator among the visible ones; a choice that asks first is confirmed, and its round trip is
# the confirming click's (the one that sends the action); at the end of a game, the campaign's
# next game or a new quick start.  When a dev script set ``window.__gbProfile`` (see
# ``assets/play.js``), ``rows`` holds the page's split of each timed action (Python call, JSON
# parse, DOM build, autosave) and ``saves`` the autosaves written meanwhile.
ROUND_TRIPS = """
async (n) => {
  let seed = 20261121;
  const rand = (k) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; };
  let error = null;
  window.addEventListener("error", (e) => { error = String(e.message); });
  const root = document.getElementById("gb-root");
  const byText = (t) => [...root.querySelectorAll("button")].find((b) => b.textContent === t);
  const prof = window.__gbProfile;
  const saved = prof ? (prof.saves || []).length : 0;
  const times = [], errors = [], rows = [];
  let guard = 0;
  while (times.length < n && guard++ < 20 * n) {
    const quick = document.querySelector('[data-testid="quick-start"]');
    if (quick) { quick.click(); continue; }
    const buttons = [...root.querySelectorAll(".gb-choices [data-choice]")]
      .filter((b) => b.offsetParent !== null);
    const kinds = buttons.map((b) => b.dataset.choice);
    let button;
    if (kinds.includes("next-game")) button = buttons[kinds.indexOf("next-game")];
    else if (kinds.includes("handoff")) button = buttons[kinds.indexOf("handoff")];
    else {
      const real = buttons.filter((b) => /^[0-9]+$/.test(b.dataset.choice));
      if (!real.length) { (byText("Nouvelle partie") || byText("Menu")).click(); continue; }
      button = real[rand(real.length)];
    }
    error = null;
    const engine = /^[0-9]+$/.test(button.dataset.choice);
    const before = prof ? prof.length : 0;
    const savesBefore = prof ? (prof.saves || []).length : 0;
    let t0 = performance.now();
    button.click();
    const yes = root.querySelector(".gb-confirm .md-button--primary");
    if (yes) { t0 = performance.now(); yes.click(); }  // it asked first: the action is sent now
    await null;  // the microtasks the move queued (the autosave) run here
    void root.offsetHeight;  // the new screen laid out
    const t1 = performance.now();
    if (error) { errors.push(error); byText("Menu").click(); continue; }
    if (engine) {
      times.push(t1 - t0);
      if (prof && prof.length === before + 1) {
        const row = { ...prof[prof.length - 1], total: t1 - t0 };
        const saves = (prof.saves || []).slice(savesBefore);
        row.save = saves.reduce((a, r) => a + r.save_json + r.chronicle_json + r.storage, 0);
        row.layout = row.total - row.python - row.parse - row.render - row.save;
        rows.push(row);
      }
    }
    if (times.length % 20 === 0) await new Promise((r) => setTimeout(r, 0));
  }
  await new Promise((r) => setTimeout(r, 0));
  return { times, errors, rows, saves: prof ? (prof.saves || []).slice(saved) : [] };
}
"""


# --------------------------------------------------------------------------- the site


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(SiteHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer((HOST, 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://{HOST}:{httpd.server_address[1]}/"


@contextlib.contextmanager
def site_served(site_dir: str | None) -> Iterator[str]:
    """The base URL of a site on localhost: ``site_dir`` if given (already built), else this
    checkout's, built into a temporary folder (the dev tools' ``--site``)."""
    with tempfile.TemporaryDirectory(prefix="gb-bench-site-") as tmp:
        site = Path(site_dir) if site_dir else Path(tmp) / "site"
        if not site_dir:
            build(ROOT / "content", site)
        httpd, base = serve(site)
        try:
            yield base
        finally:
            httpd.shutdown()
            httpd.server_close()


def build(content: Path, out: Path) -> None:
    # this checkout's pipeline (run from ROOT), not whichever one the venv's script imports
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--content", str(content)]
    cmd += ["--out", str(out)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"gamebook build failed:\n{done.stderr}{done.stdout}")


def served_file(site: Path, url: str) -> Path | None:
    path = unquote(urlsplit(url).path).lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    f = site / path
    if not f.is_file():  # kept decoded by the service worker, fetched as its ``.zst``
        f = site / f"{path}.zst"
    return f if f.is_file() else None


# already compressed (the runtime's ``.zst`` files, ``pipeline/publish/packed.py``): hosts send them
# as
# they are, and gzip would only add its header
PRECOMPRESSED = (".zst",)


def gzip_size(f: Path, cache: dict[Path, int] = {}) -> int:  # noqa: B006 - a memo
    """What crosses the wire for ``f``: gzip level 6, or the file itself when that is smaller
    or the file is already compressed."""
    if f not in cache:
        data = f.read_bytes()
        size = len(data)
        if not f.name.endswith(PRECOMPRESSED):
            size = min(size, len(gzip.compress(data, compresslevel=6)))
        cache[f] = size
    return cache[f]


# --------------------------------------------------------------------------- visits


def launch(pw: Any, profile: Path, service_workers: str) -> Any:
    ctx = pw.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        service_workers=service_workers,
        viewport={"width": 1280, "height": 900},
        locale="fr-FR",
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    ctx.add_init_script(PROBE)
    return ctx


def wait_done(page: Any, bare: bool) -> dict:
    key = "ready" if bare else "quick"
    page.wait_for_function(
        f"() => window.__bench && (window.__bench.{key} !== undefined || window.__bench.error)"
    )
    if not bare:  # the first paint of the opening may be reported a moment later
        page.wait_for_function("() => window.__bench.fcp !== undefined", timeout=10_000)
    result = page.evaluate("() => window.__bench")
    if not bare:  # how Python started (site/assets/boot.js): "snapshot" or "normal"
        result["boot"] = page.evaluate("() => document.getElementById('gb-app').dataset.boot")
        result["marks"] = page.evaluate(
            "() => Object.fromEntries(performance.getEntriesByType('mark')"
            ".filter((m) => m.name.startsWith('gb:')).map((m) => [m.name.slice(3), m.startTime]))"
        )
    if result.get("error"):
        raise RuntimeError(f"{page.url}: {result['error']}")
    return result


def visit(ctx: Any, url: str, bare: bool, requests: list[str] | None = None) -> dict:
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    if requests is not None:
        page.on("response", lambda r: requests.append(r.url))
    page.goto(url, wait_until="commit")
    return wait_done(page, bare)


def cold(pw: Any, url: str, bare: bool, runs: int, requests: list[str]) -> list[dict]:
    out = []
    for i in range(runs):
        with tempfile.TemporaryDirectory(prefix="gb-bench-cold-") as profile:
            ctx = launch(pw, Path(profile), "block")
            try:
                out.append(visit(ctx, url, bare, requests if i == 0 else None))
                if i == 0:  # everything the page loads, not only what came before the button
                    ctx.pages[0].wait_for_load_state("networkidle")
            finally:
                ctx.close()
    return out


def warm(pw: Any, base: str, runs: int) -> tuple[dict[str, list[dict]], dict]:
    """Prime one profile (each page once, the worker in control), then measure each page in
    a newly launched browser on that profile."""
    # the play pages first: they register the worker, whose scope then covers the bare page
    targets = {**{g: f"{base}play/{g}/" for g in GAMES}, "bare": base + BARE}
    results: dict[str, list[dict]] = {k: [] for k in targets}
    precache: dict = {}
    with tempfile.TemporaryDirectory(prefix="gb-bench-warm-") as tmp:
        profile = Path(tmp)
        ctx = launch(pw, profile, "allow")
        try:
            for name, url in targets.items():
                visit(ctx, url, name == "bare")
                page = ctx.pages[0]
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                page.wait_for_load_state("networkidle")
                if name != "bare":  # the memory snapshot is stored when the page is idle
                    page.wait_for_function(
                        "() => { const d = document.getElementById('gb-app').dataset;"
                        " return d.snapshot === 'saved' || d.boot === 'snapshot'; }"
                    )
            precache = ctx.pages[0].evaluate(
                """async () => {
                  const out = {};
                  for (const name of await caches.keys()) {
                    out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
                  }
                  return out;
                }"""
            )
        finally:
            ctx.close()
        for _ in range(runs):
            for name, url in targets.items():
                ctx = launch(pw, profile, "allow")
                try:
                    results[name].append(visit(ctx, url, name == "bare"))
                finally:
                    ctx.close()
    return results, precache


def round_trips(pw: Any, url: str, actions: int, profile: bool = False) -> dict:
    """``actions`` round trips on a fresh page after a warm-up; ``profile``: the page also
    splits each one (``window.__gbProfile``, read by ``bench/actions.py``)."""
    with tempfile.TemporaryDirectory(prefix="gb-bench-act-") as tmp:
        ctx = launch(pw, Path(tmp), "block")
        if profile:
            ctx.add_init_script("window.__gbProfile = [];")
        try:
            visit(ctx, url, False)
            page = ctx.pages[0]
            page.locator('[data-testid="quick-start"]').click()
            page.evaluate(ROUND_TRIPS, 20)  # warm-up: the first calls import and compile
            return page.evaluate(ROUND_TRIPS, actions)
        finally:
            ctx.close()


# --------------------------------------------------------------------------- report


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] if s else float("nan")


def opening(r: dict) -> float:
    return max(r.get("story", 0.0), r.get("fcp", 0.0))


def boots(runs: list[dict]) -> str:
    """How Python started, when not normally: `` (snapshot ×3)``."""
    n = sum(r.get("boot") == "snapshot" for r in runs)
    return f" (snapshot ×{n})" if n else ""


def ok(flag: bool) -> str:
    return "pass" if flag else "FAIL"


def section(data: dict) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "?"  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "engine", "pipeline", "site"],
                           cwd=ROOT, capture_output=True, text=True).stdout.strip()  # fmt: skip
    s = lambda ms: f"{ms / 1000:.2f} s"  # noqa: E731
    lines = [
        BEGIN,
        "",
        "## Play pages in the browser",
        "",
        "Targets (issue 17): **cold quick start ≤ 0.8 × the stock Pyodide page** (same run); "
        "**warm quick start ≤ 1 s**; **opening text readable ≤ 1 s**; **one action's round "
        "trip p95 ≤ 16 ms**; **a play page's transfer ≤ 4.5 MB gzip**.",
        "",
        f"- Date (UTC): {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} · commit `{commit}"
        f"{'-dirty' if dirty else ''}` · Pyodide {data['pyodide']}",
        f"- Browser: {data['browser']}, headless, on {cpu_model()}, {os.cpu_count()} cores, "
        f"{platform.system()} {platform.release()}; site served by `http.server` on 127.0.0.1; "
        f"load average at start {data.get('load', '?')}",
        f"- Runs: cold {data['runs']} per page (a fresh profile each), warm {data['warm_runs']} "
        f"per page (a primed profile, a new browser each); medians shown, min–max in brackets",
        "",
        "| page | visit | opening text readable | quick start clickable | bare Pyodide ready | "
        "quick start ÷ bare | targets |",
        "|---|---|---:|---:|---:|---:|:---:|",
    ]
    verdicts = []
    for mode in ("cold", "warm"):
        bare = [r["ready"] for r in data[mode]["bare"]]
        lines.append(
            f"| bare Pyodide (`{BARE}`) | {mode} | – | – | {s(med(bare))} "
            f"[{s(min(bare))}–{s(max(bare))}] | – | – |"
        )
        for g in GAMES:
            runs = data[mode][g]
            quick = [r["quick"] for r in runs]
            opened = [opening(r) for r in runs]
            ratio = med(quick) / med(bare)
            why = []
            if mode == "cold" and ratio > TARGET_COLD_RATIO:
                why.append(f"over {TARGET_COLD_RATIO} × bare")
            if mode == "warm" and med(quick) > TARGET_WARM_S * 1000:
                why.append(f"over {TARGET_WARM_S:.0f} s")
            if med(opened) > TARGET_OPENING_S * 1000:
                why.append("opening over 1 s")
            verdicts.append(not why)
            lines.append(
                f"| {data['titles'][g]} | {mode} | {s(med(opened))} [{s(min(opened))}–"
                f"{s(max(opened))}] | {s(med(quick))} [{s(min(quick))}–{s(max(quick))}]"
                f"{boots(runs)} | "
                f"{s(med(bare))} | {ratio:.2f} × | {ok(not why)}"
                f"{' (' + ', '.join(why) + ')' if why else ''} |"
            )
    lines += [
        "",
        "| page | actions | round trip median | p95 | max | errors | p95 ≤ 16 ms | "
        "files | transfer raw | transfer gzip | ≤ 4.5 MB gzip |",
        "|---|---:|---:|---:|---:|---:|:---:|---:|---:|---:|:---:|",
    ]
    for g in GAMES:
        rt, tr = data["actions"][g], data["transfer"][g]
        times = rt["times"]
        p95 = pct(times, 0.95)
        verdicts += [p95 <= TARGET_P95_MS, tr["gzip"] <= TARGET_TRANSFER, not rt["errors"]]
        lines.append(
            f"| {data['titles'][g]} | {len(times)} | {med(times):.1f} ms | {p95:.1f} ms | "
            f"{max(times):.1f} ms | {len(rt['errors'])} | {ok(p95 <= TARGET_P95_MS)} | "
            f"{tr['files']} | {tr['raw'] / MB:.2f} MB | {tr['gzip'] / MB:.2f} MB | "
            f"{ok(tr['gzip'] <= TARGET_TRANSFER)} |"
        )
    # what a cold visit fetches, file by file (the pages that fetch it)
    lines += [
        "",
        "What the play pages fetch on a cold visit, heaviest first (gzip level 6):",
        "",
        "| file | raw | gzip | play pages |",
        "|---|---:|---:|---|",
    ]
    by_file: dict[str, list[str]] = {}
    for g in GAMES:
        for rel in data["transfer"][g]["list"]:
            by_file.setdefault(rel, []).append(g)
    sizes = data["sizes"]
    for rel in sorted(by_file, key=lambda r: (-sizes[r][1], r)):
        pages = by_file[rel]
        where = "all" if len(pages) == len(GAMES) else ", ".join(pages)
        lines.append(
            f"| `{rel}` | {sizes[rel][0] / 1000:.1f} kB | {sizes[rel][1] / 1000:.1f} kB | {where} |"
        )
    errors = sorted({e for g in GAMES for e in data["actions"][g]["errors"]})
    pre = data["precache"]
    lines += [
        "",
        f"Requests to other hosts during the cold visits: {data['foreign'] or 'none'}.",
        "",
        f"The service worker, installed on the first visit, precaches {pre['files']} files of "
        f"the whole site in the background: {pre['raw'] / MB:.1f} MB raw, {pre['gzip'] / MB:.1f} "
        "MB gzip (the play page's own files included), so that every page works offline.",
        "",
        *([f"Errors in the round-trip runs: {'; '.join(errors)}", ""] if errors else []),
        "How to read it:",
        "",
        "- *cold*: a fresh profile per visit (nothing cached), service worker blocked. *warm*: "
        "a profile that visited each page once (service worker in control, HTTP and code "
        "caches filled), measured in a newly launched browser, nothing routed.",
        "- Times are taken in the page from navigation start. *Opening text readable*: the "
        "later of the story block holding text and the first contentful paint. *Quick start "
        "clickable*: the button in the DOM, enabled and laid out. *Bare Pyodide ready*: "
        f"`loadPyodide()` resolved on `{BARE}`, a page written into the site at bench time "
        "that loads the stock Pyodide of the npm package (standard library as compressed "
        "sources) and nothing else; *quick start ÷ bare* is the "
        "ratio of the medians, same run: the cold one is the goal (≤ 0.8 ×).",
        "- *Round trip*: `performance.now()` around a choice button's `click()` and a forced "
        "layout, in the page: the Python call (the bots' moves included), the autosave and "
        "the new screen laid out; painting is not included. Choices picked by a seeded "
        "generator, a new game started when one ends; the first 20 actions warm up.",
        "- *Transfer*: every file the play page requested on a cold visit, raw and gzip "
        "(level 6, as static hosts compress; the runtime's `.zst` files, already compressed, "
        "count as they are); the service worker's precache is extra, above.",
        "",
        f"Overall: **{'pass' if all(verdicts) else 'FAIL'}**. Reproduce with "
        "`python bench/browser.py` (see `bench/README.md`).",
        "",
        END,
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def measure(site: Path, args: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    bare_page = site / BARE
    bare_page.write_text(BARE_PAGE, encoding="utf-8")
    stock = site / STOCK
    shutil.copytree(ROOT / "node_modules" / "pyodide", stock, dirs_exist_ok=True)
    httpd, base = serve(site)
    data: dict[str, Any] = {"runs": args.runs, "warm_runs": args.warm_runs,
                            "pyodide": manifest.get("pyodide_version", "?"),
                            "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}  # fmt: skip
    try:
        with sync_playwright() as pw:
            probe = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            data["browser"] = f"Chromium {probe.version}"
            probe.close()
            requests: dict[str, list[str]] = {g: [] for g in GAMES}
            data["cold"] = {"bare": cold(pw, base + BARE, True, args.runs, [])}
            data["titles"] = {}
            for g in GAMES:
                print(f"cold: {g}", file=sys.stderr)
                data["cold"][g] = cold(pw, f"{base}play/{g}/", False, args.runs, requests[g])
            print("warm", file=sys.stderr)
            data["warm"], precache = warm(pw, base, args.warm_runs)
            data["actions"] = {}
            for g in GAMES:
                print(f"round trips: {g}", file=sys.stderr)
                data["actions"][g] = round_trips(pw, f"{base}play/{g}/", args.actions)
    finally:
        httpd.shutdown()
        httpd.server_close()
        bare_page.unlink(missing_ok=True)
        shutil.rmtree(stock, ignore_errors=True)
    data["foreign"] = sorted(
        {u for g in GAMES for u in requests[g] if urlsplit(u).hostname != HOST}
    )
    data["transfer"] = {}
    data["sizes"] = {}
    for g in GAMES:
        files = {f for u in requests[g] if (f := served_file(site, u))}
        data["transfer"][g] = {
            "list": sorted(f.relative_to(site).as_posix() for f in files),
            "files": len(files),
            "raw": sum(f.stat().st_size for f in files),
            "gzip": sum(gzip_size(f) for f in files),
        }
        for f in files:
            data["sizes"][f.relative_to(site).as_posix()] = (f.stat().st_size, gzip_size(f))
        page = site / "play" / g / "index.html"
        title = page.read_text(encoding="utf-8").split("<title>", 1)[-1].split("</title>")[0]
        data["titles"][g] = title.split(" - ")[0].replace("Jouer — ", "").strip() or g
    cached = {f for urls in precache.values() for u in urls if (f := served_file(site, u))}
    data["precache"] = {
        "files": len(cached),
        "raw": sum(f.stat().st_size for f in cached),
        "gzip": sum(gzip_size(f) for f in cached),
    }
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark the play pages in headless Chromium.")
    p.add_argument("--runs", type=int, default=3, help="cold visits per page")
    p.add_argument("--warm-runs", type=int, default=3, help="warm visits per page")
    p.add_argument("--actions", type=int, default=200, help="actions timed per game")
    p.add_argument("--content", default=str(ROOT / "content"), help="content to build from")
    p.add_argument("--site", help="an already built site (skips the build)")
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    if not BROWSER.found:
        print(f"bench/browser.py: {BROWSER.missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="gb-bench-site-") as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            print("building the site…", file=sys.stderr)
            build(Path(args.content), site)
        data = measure(site, args)
    text = section(data)
    print(text)
    if not args.no_write:
        write_section(Path(args.output), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
