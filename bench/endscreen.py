"""One end-of-game action replayed again and again on a play page (a dev tool for issue 17's
p95 goal: the slowest round trips are the actions after which the bots play the game to its end).

For each game's play page, in headless Chromium: ``Math.random`` is seeded (``--seed``: the
quick start's seed, and so the game, is the same from run to run), a quick game is played with
seeded random choices until one action ends it (the end screen: ``.gb-choices .gb-over``); the
autosave written just before that action is kept.  Then ``--reps`` times: that save is put back
in its slot, resumed (Menu, then the resume button), and the same choice clicked, timed like
``bench/browser.py``'s round trip (the move, its autosave microtask, a forced layout) and split
by the page's own profile (``window.__gbProfile``) into the Python call, ``JSON.parse``, the DOM
patch, the autosave (``save_json``, ``chronicle_json``, the ``localStorage`` writes) and the
forced style and layout; ``frame`` is the next animation frame's own work (from its callback to
the task after it: what a deferral into the frame would hide).  The first reps warm up.

Before/after comparisons of the page's code on the very same screen, without the quick start's
random seed in the way.  Usage: ``python bench/endscreen.py [--games a,b] [--reps 25]
[--seed S] [--site DIR]``.  Nothing is written to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import browser  # bench/ is on sys.path when run as a script
from browser import GAMES, launch, pct, site_served, visit

WARM = 3
COLUMNS = ("total", "python", "parse", "render", "save_json", "chronicle_json", "storage")
COLUMNS += ("layout", "frame")

# Math.random seeded before any script of the page runs (the quick start draws its seed there)
SEEDED = """
(() => {
  let h = 1779033703;
  for (const c of %s) h = Math.imul(h ^ c.charCodeAt(0), 3432918353) >>> 0;
  Math.random = () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  window.__gbProfile = [];
})();
"""

# Plays on until an action ends the game: the autosave before it and the choice clicked.
FIND = """
async (limit) => {
  const app = document.getElementById("gb-app");
  const store = `gamebook:${app.dataset.game}`;
  const root = document.getElementById("gb-root");
  for (let i = 0; i < limit; i++) {
    const buttons = [...root.querySelectorAll(".gb-choices [data-choice]")]
      .filter((b) => b.offsetParent !== null);
    const kinds = buttons.map((b) => b.dataset.choice);
    if (kinds.includes("handoff")) { buttons[kinds.indexOf("handoff")].click(); continue; }
    const real = buttons.filter((b) => /^[0-9]+$/.test(b.dataset.choice));
    if (!real.length) return null;
    const button = real[Math.floor(Math.random() * real.length)];
    const slot = localStorage.getItem(`${store}:slot`) || "A";
    const before = localStorage.getItem(`${store}:${slot}`);
    button.click();
    const yes = root.querySelector(".gb-confirm .md-button--primary");
    if (yes) yes.click();
    await null;
    if (root.querySelector(".gb-choices .gb-over") && before) {
      return { before, slot, choice: button.dataset.choice, confirm: !!yes };
    }
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 0));
  }
  return null;
}
"""

REPLAY = """
async ({ before, slot, choice, confirm }) => {
  const app = document.getElementById("gb-app");
  const store = `gamebook:${app.dataset.game}`;
  const root = document.getElementById("gb-root");
  const byText = (t) => [...root.querySelectorAll("button")].find((b) => b.textContent === t);
  localStorage.setItem(`${store}:${slot}`, before);
  localStorage.setItem(`${store}:slot`, slot);
  byText("Menu").click();
  document.querySelector('[data-testid="resume"]').click();
  void root.offsetHeight;
  await new Promise((r) => setTimeout(r, 30));
  const prof = window.__gbProfile;
  const saves = (prof.saves || []).length;
  const button = root.querySelector(`.gb-choices [data-choice="${choice}"]`);
  if (!button) return { error: `no choice ${choice} after the resume` };
  let t0 = performance.now();
  button.click();
  const yes = root.querySelector(".gb-confirm .md-button--primary");
  if (confirm && yes) { t0 = performance.now(); yes.click(); }
  await null;  // the autosave's microtask
  const t1 = performance.now();
  void root.offsetHeight;
  const t2 = performance.now();
  const frame = await new Promise((done) => requestAnimationFrame(() => {
    const a = performance.now();
    setTimeout(() => done(performance.now() - a), 0);
  }));
  const row = { ...prof[prof.length - 1], total: t2 - t0, layout: t2 - t1, frame };
  const written = prof.saves.slice(saves);
  for (const k of ["save_json", "chronicle_json", "storage"]) {
    row[k] = written.reduce((a, s) => a + s[k], 0);
  }
  row.save_size = written.length ? written[written.length - 1].save_size : 0;
  row.over = !!root.querySelector(".gb-choices .gb-over");
  row.elements = root.getElementsByTagName("*").length;
  return row;
}
"""


def replay(pw, url: str, reps: int, seed: str, limit: int) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="gb-bench-end-") as tmp:
        ctx = launch(pw, Path(tmp), "block")
        ctx.add_init_script(SEEDED % repr(seed).replace("'", '"'))
        try:
            visit(ctx, url, False)
            page = ctx.pages[0]
            page.locator('[data-testid="quick-start"]').click()
            page.locator("#gb-root .gb-choices").wait_for()
            found = page.evaluate(FIND, limit)
            if not found:
                raise RuntimeError(f"{url}: no end of game within {limit} actions")
            rows = [page.evaluate(REPLAY, found) for _ in range(reps + WARM)]
        finally:
            ctx.close()
    for r in rows:
        if r.get("error"):
            raise RuntimeError(f"{url}: {r['error']}")
        if not r["over"]:
            raise RuntimeError(f"{url}: the replayed action did not end the game")
    return rows[WARM:]


def table(rows: list[dict]) -> str:
    out = [f"{'phase':<15}{'median':>9}{'p95':>9}{'max':>9}"]
    for c in COLUMNS:
        vals = [r[c] for r in rows]
        out.append(f"{c:<15}{statistics.median(vals):9.2f}{pct(vals, 0.95):9.2f}{max(vals):9.2f}")
    r = rows[-1]
    out.append(f"screen JSON {r['size']} chars, save {r['save_size']} chars, "
               f"{r['elements']} elements in #gb-root")  # fmt: skip
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description="Replay one end-of-game action on the play pages.")
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--reps", type=int, default=25)
    p.add_argument("--seed", default="fin de partie")
    p.add_argument("--limit", type=int, default=3000, help="actions played to find an end")
    p.add_argument("--site", help="an already built site (skips the build)")
    args = p.parse_args(argv)
    if not browser.BROWSER.found:
        print(f"bench/endscreen.py: {browser.BROWSER.missing}", file=sys.stderr)
        return 2
    with site_served(args.site) as base, sync_playwright() as pw:
        for g in args.games.split(","):
            rows = replay(pw, f"{base}play/{g}/", args.reps, args.seed, args.limit)
            print(f"== {g} (one end-of-game action, {len(rows)} replays)")
            print(table(rows) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
