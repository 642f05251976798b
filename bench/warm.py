"""Where a warm start's time goes on the play pages (a dev tool for issue 17's ≤ 1 s goal).

The same warm visits as ``bench/browser.py`` (one profile primed by visiting the page once, the
service worker in control and the memory snapshot stored; then each measured visit in a newly
launched browser on that profile, nothing routed), but each visit is split into steps read in
the page, from navigation start:

* the navigation (``PerformanceNavigationTiming``: the worker's start, the response's end,
  ``DOMContentLoaded``);
* the page's own ``gb:`` marks (``assets/play.js``, ``assets/boot.js``);
* the wasm: when ``WebAssembly.instantiateStreaming`` / ``instantiate`` were called and
  resolved (wrapped by a script installed before the page's own, so nothing is changed);
* every file the page fetched (``PerformanceResourceTiming``: start, the worker's start,
  the response's end);
* the quick start clickable (as ``bench/browser.py`` counts it).

Usage: ``python bench/warm.py [--runs 5] [--games ID,ID] [--site DIR] [--compare DIR]
[--cpu N] [--json OUT]``: ``--compare`` measures a second built site interleaved with the first
(an A/B comparison under the same load); ``--cpu N`` profiles one more visit (V8's sampler) and
prints the N costliest functions.
Nothing is written to BENCHMARKS.md: ``bench/browser.py`` measures the goal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import browser  # bench/ is on sys.path when run as a script
from browser import GAMES, build, launch, serve, visit

# Times the wasm's compile and instantiation without touching the page's code.
WASM_PROBE = """
(() => {
  const t = (window.__wasm = {});
  for (const name of ["instantiateStreaming", "compileStreaming", "instantiate", "compile"]) {
    const real = WebAssembly[name];
    if (!real) continue;
    WebAssembly[name] = function (...args) {
      const start = performance.now();
      return real.apply(this, args).then((r) => {
        (t[name] ||= []).push({ start, end: performance.now() });
        return r;
      });
    };
  }
})();
"""

COLLECT = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const marks = Object.fromEntries(performance.getEntriesByType("mark")
    .filter((m) => m.name.startsWith("gb:")).map((m) => [m.name.slice(3), m.startTime]));
  const files = performance.getEntriesByType("resource").map((r) => ({
    name: r.name.replace(location.origin, ""), start: r.startTime, worker: r.workerStart,
    end: r.responseEnd, size: r.encodedBodySize, transfer: r.transferSize,
  }));
  return {
    nav: { worker: nav.workerStart, response: nav.responseEnd, dcl: nav.domContentLoadedEventEnd,
           load: nav.loadEventEnd },
    marks, files, wasm: window.__wasm, quick: window.__bench.quick, fcp: window.__bench.fcp,
    boot: document.getElementById("gb-app").dataset.boot,
  };
}
"""


def prime(pw: Any, profile: Path, url: str) -> None:
    ctx = launch(pw, profile, "allow")
    try:
        visit(ctx, url, False)
        page = ctx.pages[0]
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.wait_for_load_state("networkidle")
        page.wait_for_function(
            "() => { const d = document.getElementById('gb-app').dataset;"
            " return d.snapshot === 'saved' || d.boot === 'snapshot'; }"
        )
    finally:
        ctx.close()


def measure(pw: Any, urls: list[str], runs: int) -> list[list[dict]]:
    """``runs`` warm visits of each URL (one primed profile each), interleaved: when two
    builds are compared, both are measured under the same load."""
    out: list[list[dict]] = [[] for _ in urls]
    with tempfile.TemporaryDirectory(prefix="gb-bench-warm-") as tmp:
        profiles = [Path(tmp) / str(i) for i in range(len(urls))]
        for profile, url in zip(profiles, urls, strict=True):
            prime(pw, profile, url)
        for _ in range(runs):
            for i, (profile, url) in enumerate(zip(profiles, urls, strict=True)):
                ctx = launch(pw, profile, "allow")
                ctx.add_init_script(WASM_PROBE)
                try:
                    visit(ctx, url, False)
                    out[i].append(ctx.pages[0].evaluate(COLLECT))
                finally:
                    ctx.close()
    return out


TREE_DEPTH = 4

# With --cpu: every "gb:" mark also runs a function named after it for a millisecond, so that
# the profile shows where each mark fell (a window between two marks can then be looked at).
MARK_PROBE = """
(() => {
  const real = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    const out = real(name, ...rest);
    if (String(name).startsWith("gb:")) {
      const fn = "gbmark_" + String(name).slice(3).replace(/[^a-z0-9]/gi, "_");
      const busy = "const t = performance.now(); while (performance.now() - t < 1);";
      new Function(`return function ${fn}() { ${busy} }`)()();
    }
    return out;
  };
})();
"""


def cpu_profile(pw: Any, url: str, top: int, window: tuple[str, str] | None = None) -> str:
    """One more warm visit under V8's sampling profiler: the functions that took the most
    time, self and inclusive, and a top-down tree (the main thread only: the service worker
    runs elsewhere); only between two ``gb:`` marks when ``window`` names them."""
    with tempfile.TemporaryDirectory(prefix="gb-bench-warm-") as tmp:
        profile = Path(tmp)
        prime(pw, profile, url)
        ctx = launch(pw, profile, "allow")
        ctx.add_init_script(MARK_PROBE)
        try:
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            cdp.send("Profiler.start")
            visit(ctx, url, False)
            prof = cdp.send("Profiler.stop")["profile"]
        finally:
            ctx.close()
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    kids: dict[int, list[int]] = {n["id"]: n.get("children", []) for n in prof["nodes"]}
    deltas = prof["timeDeltas"]

    def label(n: dict) -> str:
        f = n["callFrame"]
        where = f"{f['url'].rsplit('/', 1)[-1]}:{f['lineNumber']}"
        return f"{f['functionName'] or '(anonymous)'} {where}"

    def stack(sample: int) -> list[str]:
        out, cur = [], sample
        while cur is not None:
            out.append(label(nodes[cur]))
            cur = parent.get(cur)
        return out

    times, t = [], 0
    for d in deltas:
        t += d
        times.append(t / 1000)  # ms from the profile's start
    marks: dict[str, float] = {}
    for i, sample in enumerate(prof["samples"]):
        for name in stack(sample):
            if name.startswith("gbmark_"):
                marks.setdefault(name.split()[0][len("gbmark_") :], times[i])
    lo, hi = (marks.get(window[0], 0.0), marks.get(window[1], 1e12)) if window else (0.0, 1e12)
    weight = []
    for i in range(len(prof["samples"])):
        dt = (deltas[i + 1] if i + 1 < len(deltas) else 0) / 1000
        weight.append(dt if lo <= times[i] < hi else 0.0)
    self_ms: dict[str, float] = {}
    incl_ms: dict[str, float] = {}
    node_ms = {n["id"]: 0.0 for n in prof["nodes"]}
    for i, sample in enumerate(prof["samples"]):
        dt = weight[i]
        node_ms[sample] += dt
        names = stack(sample)
        self_ms[names[0]] = self_ms.get(names[0], 0) + dt
        for name in set(names):
            incl_ms[name] = incl_ms.get(name, 0) + dt

    def total(nid: int) -> float:
        return node_ms[nid] + sum(total(c) for c in kids[nid])

    tree: list[str] = []

    def walk(ids: list[int], depth: int) -> None:
        merged: dict[str, list[int]] = {}
        for nid in ids:
            merged.setdefault(label(nodes[nid]), []).append(nid)
        ranked = sorted(merged.items(), key=lambda kv: -sum(total(n) for n in kv[1]))
        for name, group in ranked:
            ms = sum(total(n) for n in group)
            if ms < 3:
                continue
            tree.append(f"{ms:9.1f}  {'  ' * depth}{name}")
            if depth < TREE_DEPTH:
                walk([c for n in group for c in kids[n]], depth + 1)

    walk([n["id"] for n in prof["nodes"] if n["callFrame"]["functionName"] == "(root)"], 0)
    seen = ", ".join(f"{k} {v - marks.get('start', 0):.0f}" for k, v in marks.items())
    span = f"between gb:{window[0]} and gb:{window[1]}, {hi - lo:.0f} ms" if window else "all"
    out = [f"marks (ms after gb:start, under the profiler): {seen}", f"window: {span}"]
    out += ["top-down (ms):", *tree, "self time (ms):"]
    out += [f"{v:9.1f}  {k}" for k, v in sorted(self_ms.items(), key=lambda kv: -kv[1])[:top]]
    out.append("inclusive time (ms):")
    out += [f"{v:9.1f}  {k}" for k, v in sorted(incl_ms.items(), key=lambda kv: -kv[1])[:top]]
    return "\n".join(out)


def rows(visit: dict) -> dict[str, float]:
    """One visit's times (ms from navigation start), by step."""
    r: dict[str, float] = {}
    nav = visit["nav"]
    r["nav: worker start"] = nav["worker"]
    r["nav: response end"] = nav["response"]
    r["nav: DOMContentLoaded"] = nav["dcl"]
    for k, v in visit["marks"].items():
        r[f"mark {k}"] = v
    for name, calls in (visit.get("wasm") or {}).items():
        for i, c in enumerate(calls):
            r[f"wasm {name}#{i} start"] = c["start"]
            r[f"wasm {name}#{i} end"] = c["end"]
    for f in visit["files"]:
        short = f["name"].rsplit("/", 1)[-1] or f["name"]
        r[f"file {short} start"] = f["start"]
        r[f"file {short} end"] = f["end"]
    r["fcp"] = visit.get("fcp") or 0.0
    r["quick start clickable"] = visit["quick"]
    return r


def table(visits: list[dict]) -> str:
    all_rows = [rows(v) for v in visits]
    keys = sorted({k for r in all_rows for k in r}, key=lambda k: statistics.median(
        [r[k] for r in all_rows if k in r]))  # fmt: skip
    out = [f"{'step (ms from navigation start)':<58}{'median':>9}{'min':>9}{'max':>9}"]
    for k in keys:
        vals = [r[k] for r in all_rows if k in r]
        out.append(f"{k:<58}{statistics.median(vals):9.1f}{min(vals):9.1f}{max(vals):9.1f}")
    boots = [v["boot"] for v in visits]
    out.append(f"boots: {', '.join(boots)}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description="Split the play pages' warm start.")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--site", help="an already built site (skips the build)")
    p.add_argument("--compare", help="another built site, measured interleaved with the first")
    p.add_argument("--json", help="write the raw visits there")
    p.add_argument("--cpu", type=int, default=0, help="then profile one visit: top N functions")
    p.add_argument(
        "--window", help="with --cpu: only between two marks, e.g. snapshot-unpacked,pyodide"
    )
    args = p.parse_args(argv)
    if not browser.BROWSER.found:
        print(f"bench/warm.py: {browser.BROWSER.missing}", file=sys.stderr)
        return 2
    raw = {}
    with tempfile.TemporaryDirectory(prefix="gb-bench-site-") as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            build(browser.ROOT / "content", site)
        servers = [serve(site)] + ([serve(Path(args.compare))] if args.compare else [])
        names = [str(site)] + ([args.compare] if args.compare else [])
        try:
            with sync_playwright() as pw:
                for g in args.games.split(","):
                    urls = [f"{base}play/{g}/" for _, base in servers]
                    results = measure(pw, urls, args.runs)
                    both = dict(zip(names, results, strict=True))
                    raw[g] = results[0] if len(results) == 1 else both
                    for name, visits in zip(names, results, strict=True):
                        print(f"== {g}, {name} ({len(visits)} warm visits)\n{table(visits)}\n")
                    if args.cpu:
                        window = tuple(args.window.split(",", 1)) if args.window else None
                        print(cpu_profile(pw, urls[0], args.cpu, window), flush=True)
        finally:
            for httpd, _ in servers:
                httpd.shutdown()
                httpd.server_close()
    if args.json:
        Path(args.json).write_text(json.dumps(raw), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
