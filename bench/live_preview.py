"""Benchmark ``gamebook serve``'s live preview: one content file saved → the change visible in
the page open in the browser (Debian's Chromium, headless, Playwright).

Target (issue: the writers' loop): **≤ 2 s** from saving the file to the new text on screen,
on the shipped campaigns.

For each campaign, the play page is opened on ``gamebook serve`` (a copy of ``content/``);
then, ``--runs`` times, a new word is written into the campaign's presentation text
(``campaign.yaml``, the opening the play page shows), once the page's engine has booted, and
the clock runs from the file's write
until the page, reloaded by the server's script, shows that word.  The time includes the
watcher's polling, the check of the whole content, the rewrite of what the content feeds, the
page's poll for a new build, the reload, and the paint of the opening text.

Usage: ``python bench/live_preview.py [--runs 5] [--output BENCHMARKS.md] [--no-write]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import cpu_model, write_section  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
BEGIN = (
    "<!-- BEGIN bench/live_preview.py: this section is rewritten by "
    "`python bench/live_preview.py` -->"
)
END = "<!-- END bench/live_preview.py -->"
GOAL = 2.0
TEXT = re.compile(r"^(?P<lead>[ ]+text: >-?[ ]*\n[ ]+)", re.M)


def _start_server(
    content: Path, out: Path, authoring: bool = False
) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(content), "--out",
         str(out), "--port", "0", *(["--authoring"] if authoring else [])],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"(http://[\d.]+:\d+/)", line)
        if m:
            return proc, m.group(1)
    raise RuntimeError("gamebook serve did not start")


#: each new document notes when its opening text is in place and painted (epoch ms)
MARK = """
document.addEventListener("DOMContentLoaded", () => {
  requestAnimationFrame(() => {
    const el = document.querySelector(".gb-opening");
    window.__opening = { at: performance.timeOrigin + performance.now(),
                         text: el ? el.textContent : "" };
  });
});
"""


def _visible(page, word: str, written: float, limit: float = 30.0) -> float:
    """Seconds from ``written`` (epoch) until a page showing ``word`` in its opening text was
    painted (the page reloads meanwhile; the time is read in the page)."""
    start = time.time()
    while time.time() - start < limit:
        try:
            mark = page.evaluate("() => window.__opening || null")
            if mark and word in mark["text"]:
                return mark["at"] / 1000 - written
        except Exception:  # the page is reloading
            pass
        time.sleep(0.02)
    raise TimeoutError(word)


def measure(runs: int, authoring: bool = False) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(ROOT / "content", content)
        proc, url = _start_server(content, Path(tmp) / "site", authoring)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
                page = browser.new_page()
                page.add_init_script(MARK)
                for camp in sorted(content.glob("*/campaign.yaml")):
                    family = re.search(r"^\s*family:\s*(\S+)", camp.read_text(), re.M).group(1)
                    page.goto(f"{url}play/{family}/", wait_until="domcontentloaded")
                    page.wait_for_selector('[data-testid="quick-start"]', timeout=120_000)
                    times = []
                    for i in range(runs):
                        word = f"Repère{i}x{int(time.time() * 1000) % 100000}"
                        text = camp.read_text(encoding="utf-8")
                        new, n = TEXT.subn(lambda m, w=word: m.group("lead") + w + " ", text, 1)
                        assert n, f"{camp}: no folded `text: >-` to edit"
                        written = time.time()
                        camp.write_text(new, encoding="utf-8")
                        times.append(_visible(page, word, written))
                        # a writer reads the page before the next edit: the engine has booted
                        page.wait_for_selector('[data-testid="quick-start"]', timeout=120_000)
                    rows.append({"campaign": family, "times": times, "load": os.getloadavg()[0]})
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return rows


AUTHORING_BEGIN = (
    "<!-- BEGIN bench/live_preview.py --authoring: this section is rewritten by "
    "`python bench/live_preview.py --authoring` -->"
)
AUTHORING_END = "<!-- END bench/live_preview.py --authoring -->"


def report(rows: list[dict], runs: int, authoring: bool = False) -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()  # fmt: skip
    except OSError:
        commit = "?"
    command = "gamebook serve --authoring" if authoring else "gamebook serve"
    lines = [
        AUTHORING_BEGIN if authoring else BEGIN,
        "",
        "## Live preview"
        + (" with the story maps (`--authoring`)" if authoring else "")
        + ": a content file saved → visible in the open page",
        "",
        f"Target: **≤ {GOAL:g} s** from the file's write to the new text on screen "
        f"(`{command}`, Chromium headless, the campaign's play page).",
        "",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}",
        f"- Date: {now} · commit `{commit}` · Python {platform.python_version()}",
        f"- {runs} edit(s) per campaign of the campaign's presentation text (`campaign.yaml`)",
        "",
        "| campaign | median | max | ≤ 2 s | load average |",
        "|---|---:|---:|:---:|---:|",
    ]
    for r in rows:
        med, top = statistics.median(r["times"]), max(r["times"])
        lines.append(f"| {r['campaign']} | {med:.2f} s | {top:.2f} s | "
                     f"{'pass' if top <= GOAL else 'FAIL'} | {r.get('load', 0):.1f} |")  # fmt: skip
    maps = (
        "; with `--authoring`, the edited campaign alone is checked and its story map written "
        "again (only its pages whose text changed; the first save writes every map once, "
        "for the list of maps)"
        if authoring
        else ""
    )
    lines += [
        "",
        "What the time holds: the watcher's poll (0.2 s), `gamebook check` of the edited "
        "campaign, the rewrite of what content feeds (bundles, manifest, play-page openings"
        + maps
        + "), the page's poll for a new build (0.15 s), its reload and the paint of the "
        "opening text. Each "
        "edit is made once the page's engine has booted (as a writer reads the page before "
        "editing again): while Pyodide starts, the page's main thread is busy and the reload "
        "waits for it (3 s on an idle machine).",
        "",
        "Reproduce with `python bench/live_preview.py"
        + (" --authoring" if authoring else "")
        + "`.",
        "",
        AUTHORING_END if authoring else END,
    ]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--authoring", action="store_true", help="serve --authoring (story maps)")
    args = p.parse_args()
    rows = measure(args.runs, args.authoring)
    text = report(rows, args.runs, args.authoring)
    print(text)
    if not args.no_write:
        begin, end = (AUTHORING_BEGIN, AUTHORING_END) if args.authoring else (BEGIN, END)
        write_section(Path(args.output), text, begin, end)
    return 0 if all(max(r["times"]) <= GOAL for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
