"""End-to-end fixtures: the built site, served on 127.0.0.1, played in Debian's Chromium.

- ``site`` (session): ``content/`` copied to a temporary folder, a hostile text injected into
  the Dilemme campaign (the opening story card and every dilemma of the starting envelope: a
  ``<script>`` and an ``<img onerror>``), then ``gamebook build --content … --out …``.
- ``server`` (session): ``http.server`` in a thread on a free 127.0.0.1 port (``.wasm`` as
  ``application/wasm``, ``.mjs`` as ``text/javascript``).  ``serve_site()`` starts another one
  that a test may stop (the offline test).
- ``browser`` (session): one headless Chromium for the whole run (Pyodide starts in seconds: the
  tests keep page loads few).
- ``page``: a fresh context with service workers blocked, so that ``context.route("**/*")``
  sees every request: any request to another host is aborted and recorded, console errors and
  page errors are recorded, and the test fails at teardown if either list is not empty.  A
  screenshot of the page is kept in ``tests/e2e/artifacts/`` whatever the outcome.
- ``Game``: drives a play page through the DOM contract only (``quick-start``, ``story``,
  ``data-choice`` buttons, ``save-export``, ``save-import``) and the visible French buttons.

The page draws each quick game's seed from ``Math.random``, seeded per test here, and the
tests pick among the choices with a seeded generator: every run plays the same games.
``GAMEBOOK_E2E_SEED=N`` plays other games (the seed is printed with a failure);
``GAMEBOOK_E2E_CONTENT=DIR`` builds from another content folder (default: ``content/``).
Every test of this folder is marked ``e2e`` (``pytest -m "not e2e"`` leaves them out) and is
skipped, saying why, without a Chromium (``pipeline.chromium``: ``GAMEBOOK_CHROMIUM``, Playwright's
own browser, or ``chromium`` on the PATH) or the ``playwright`` package.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from pipeline import chromium
from pipeline.publish.site import SiteHandler

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
BROWSER = chromium.find()  # GAMEBOOK_CHROMIUM, Playwright's own browser, or one on the PATH
CHROMIUM_ARGS = list(chromium.ARGS)
HOST = "127.0.0.1"
# Injected into the Dilemme campaign: shown as text, never run.
HOSTILE = '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=1">'
TIMEOUT_MS = 60_000  # Pyodide starts in ~3 s; a loaded 2-core machine may be much slower

try:  # without it (or without Chromium) every e2e test is skipped, saying why
    import playwright.sync_api  # noqa: F401

    PLAYWRIGHT = True
except ImportError:  # pragma: no cover
    PLAYWRIGHT = False

SKIP_REASON = (
    BROWSER.missing
    if not BROWSER.found
    else "playwright is not installed (pip install playwright; its own browser download is "
    "not needed)"
    if not PLAYWRIGHT
    else ""
)


def pytest_plugin_registered(plugin: Any, manager: Any) -> None:
    """pytest imports each conftest.py outside a package as the module ``conftest``, so loading
    this one replaced ``tests/conftest.py`` in ``sys.modules``, and the test modules that do
    ``from conftest import …`` would get this one.  Once this one is registered, put the
    parent back (the fixtures here are reached through pytest, never imported)."""
    if getattr(plugin, "__file__", None) != __file__:
        return
    parent = manager.get_plugin(str(Path(__file__).resolve().parent.parent / "conftest.py"))
    if parent is not None and sys.modules.get("conftest") is plugin:
        sys.modules["conftest"] = parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: end-to-end in headless Chromium against the built site (slow)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of this folder is ``e2e``, and skipped (saying why) without Chromium or
    Playwright; on CI (``CI`` set) their absence is an error, never a silent skip."""
    here = Path(__file__).resolve().parent
    if (
        SKIP_REASON
        and os.environ.get("CI")
        and any(here in Path(str(i.path)).parents for i in items)
    ):
        raise pytest.UsageError(f"CI must run the browser tests: {SKIP_REASON}")
    for item in items:
        if here in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)
            if SKIP_REASON:
                item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


# --------------------------------------------------------------------------- the site


def inject_hostile_text(content: Path) -> list[str]:
    """Put ``HOSTILE`` at the start of the opening story card's text and of the question of
    every dilemma of the starting envelope, whichever is drawn first.  Returns the ids."""
    from ruamel.yaml import YAML

    folder = content / "dilemme"
    files = sorted(folder.rglob("*.yaml"))
    yaml = YAML(typ="safe")
    start, envelopes = 0, []
    for f in files:
        data = yaml.load(f.read_text(encoding="utf-8")) or {}
        if isinstance(data.get("campaign"), dict):
            start = int(data["campaign"].get("start_envelope", 0))
        envelopes += data.get("envelopes") or []
    env = next(e for e in envelopes if int(e["id"]) == start)
    targets = [(env["story"], "text"), *((card, "question") for card in env["cards"])]
    for record, key in targets:
        pattern = re.compile(
            rf"^(?P<i>[ ]*)- id: {re.escape(str(record))}[ ]*\n"  # the record
            rf"(?:(?P=i)[ ]+.*\n|[ ]*\n)*?"  # its other fields
            rf"(?P=i)[ ]+{key}: >-?[ ]*\n(?P<body>[ ]+)",  # a folded block scalar
            re.M,
        )
        for f in files:
            text = f.read_text(encoding="utf-8")
            m = pattern.search(text)
            if m:
                at = m.end("body")
                f.write_text(text[:at] + HOSTILE + "\n" + m.group("body") + text[at:], "utf-8")
                break
        else:  # pragma: no cover - the content changed shape
            raise AssertionError(f"{key} of {record} (a folded `{key}: >-` block) not found")
    return [str(r) for r, _ in targets]


def build_site(content: Path, out: Path, *extra: str) -> None:
    # ``-m`` from the checkout: the code under test, even when another checkout is installed
    cmd = [
        sys.executable,
        "-m",
        "pipeline.cli",
        "build",
        "--content",
        str(content),
        "--out",
        str(out),
        *extra,
    ]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"gamebook build failed ({done.returncode}):\n{done.stderr}{done.stdout}")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if SKIP_REASON:
        pytest.skip(SKIP_REASON)
    base = tmp_path_factory.mktemp("e2e")
    content = base / "content"
    shutil.copytree(Path(os.environ.get("GAMEBOOK_E2E_CONTENT", ROOT / "content")), content)
    inject_hostile_text(content)
    out = base / "site"
    build_site(content, out)
    return out


@dataclass
class Server:
    root: Path
    httpd: http.server.ThreadingHTTPServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.thread.join(10)
        self.httpd.server_close()


def serve_site(root: Path) -> Server:
    """A threaded static server on a free port of 127.0.0.1 (HTTP/1.0: one request per
    connection, so nothing is served once it is stopped)."""
    handler = functools.partial(SiteHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer((HOST, 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="e2e-http", daemon=True)
    thread.start()
    return Server(root, httpd, thread)


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[Server]:
    srv = serve_site(site)
    yield srv
    srv.stop()


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    if SKIP_REASON:
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_driver: Any) -> Iterator[Any]:
    b = playwright_driver.chromium.launch(
        executable_path=BROWSER.executable, headless=True, args=CHROMIUM_ARGS
    )
    yield b
    b.close()


@dataclass
class Guard:
    """What a page must never do: reach another host, log an error, throw."""

    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def route(self, route: Any) -> None:
        url = route.request.url
        if self.is_foreign(url):
            self.foreign.append(url)
            route.abort()
        else:
            route.continue_()

    @staticmethod
    def is_foreign(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme not in ("data", "blob", "about") and parts.hostname != HOST

    def on_request(self, request: Any) -> None:  # a second net, whatever route() saw
        if self.is_foreign(request.url) and request.url not in self.foreign:
            self.foreign.append(request.url)

    def on_console(self, message: Any) -> None:
        if message.type == "error":
            loc = message.location or {}
            self.errors.append(f"console: {message.text} ({loc.get('url', '')})")

    def on_page_error(self, error: Any) -> None:
        self.errors.append(f"page error: {error}")

    def watch_context(self, context: Any, route: bool = True) -> None:
        if route:
            context.route("**/*", self.route)
        context.on("request", self.on_request)
        context.on("weberror", lambda e: self.errors.append(f"web error: {e.error}"))

    def watch_page(self, page: Any) -> None:
        page.on("console", self.on_console)
        page.on("pageerror", self.on_page_error)
        page.on("websocket", lambda ws: self.on_request(ws))

    def check(self) -> None:
        assert self.foreign == [], f"requests to other hosts: {self.foreign}"
        assert self.errors == [], "errors in the page:\n" + "\n".join(self.errors)


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / (re.sub(r"[^\w.-]+", "_", name).strip("_") + ".png")


def artifact_name(request: pytest.FixtureRequest) -> str:
    """``test_play_dilemme-test_undo``: unique across the modules."""
    return f"{Path(str(request.node.path)).stem}-{request.node.name}"


def screenshot(page: Any, name: str) -> None:
    try:
        page.screenshot(path=str(artifact(name)), full_page=True, timeout=15_000)
    except Exception as exc:  # a screenshot never hides the real failure
        print(f"screenshot {name} failed: {exc}")


# A click handler that throws (Python exceptions come through as JS errors) must fail the
# test at once, not after a timeout waiting for a screen that never comes.
CATCH_ERRORS = """
window.addEventListener("error", (e) => {
  window.__e2eError = String((e.error && (e.error.stack || e.error.message)) || e.message);
});
window.addEventListener("unhandledrejection", (e) => {
  window.__e2eError = String((e.reason && (e.reason.stack || e.reason.message)) || e.reason);
});
"""


# The page draws each quick game's seed from Math.random: seeded here, every run plays the
# same games (GAMEBOOK_E2E_SEED=… plays others; the seed is printed with a failure).
SEEDED_RANDOM = """
(() => {
  let s = %d >>> 0;
  Math.random = () => {  // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
"""
BASE_SEED = os.environ.get("GAMEBOOK_E2E_SEED", "0")


def page_seed(request: pytest.FixtureRequest) -> int:
    seed = zlib.crc32(f"{BASE_SEED}:{request.node.nodeid}".encode())
    print(f"e2e seed: GAMEBOOK_E2E_SEED={BASE_SEED} → {seed} for {request.node.nodeid}")
    return seed


def prepare_context(context: Any, request: pytest.FixtureRequest) -> None:
    """Timeouts, errors caught as they happen, Math.random seeded."""
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(CATCH_ERRORS)
    context.add_init_script(SEEDED_RANDOM % page_seed(request))


def worker_page(browser: Any, request: pytest.FixtureRequest, **options: Any) -> tuple:
    """``(context, page, guard)``: a fresh context where the site's service worker may run
    (nothing routed: routing would hide what the worker answers), watched by a new ``Guard``."""
    guard = Guard()
    context = browser.new_context(service_workers="allow", locale="fr-FR", **options)
    prepare_context(context, request)
    guard.watch_context(context, route=False)
    page = context.new_page()
    guard.watch_page(page)
    return context, page, guard


@pytest.fixture
def guard() -> Guard:
    return Guard()


@pytest.fixture
def page(browser: Any, server: Server, guard: Guard, request: pytest.FixtureRequest):
    """A page in a fresh context (no service worker, every request routed), checked at
    teardown: no request to another host, no console error, no page error."""
    context = browser.new_context(
        service_workers="block",
        accept_downloads=True,
        locale="fr-FR",
        viewport={"width": 1280, "height": 900},
    )
    prepare_context(context, request)
    guard.watch_context(context)
    pg = context.new_page()
    guard.watch_page(pg)
    yield pg
    screenshot(pg, artifact_name(request))
    context.close()
    guard.check()


# --------------------------------------------------------------------------- driving a game

STALE = "data-e2e-stale"


class Game:
    """A play page driven like a player: buttons and file inputs only (reads localStorage to
    compare states exactly)."""

    def __init__(self, page: Any, base_url: str, game: str, path: str | None = None) -> None:
        self.page = page
        self.game = game
        self.url = base_url + (path or f"play/{game}/")
        self.decisions = 0

    # -- loading
    def open(self) -> Game:
        self.page.goto(self.url, wait_until="domcontentloaded")
        self.wait_ready()
        return self

    def reload(self) -> None:
        self.page.reload(wait_until="domcontentloaded")
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.locator('[data-testid="quick-start"]').wait_for(state="visible")

    # -- reading
    @property
    def story(self) -> str:
        return self.page.locator('[data-testid="story"]').text_content() or ""

    def choices(self) -> list[str]:
        return self.page.eval_on_selector_all(
            ".gb-choices [data-choice]",
            "els => els.map(e => e.getAttribute('aria-label') || e.textContent)",
        )

    def status(self) -> str:
        return self.page.locator("#gb-status").text_content() or ""

    def log_size(self) -> int:
        return self.page.locator(".gb-log li").count()

    def saved(self) -> dict:
        """The autosave of the current slot, as the page wrote it (the page saves in the
        animation frame after a new screen: one frame is awaited first)."""
        text = self.page.evaluate(
            """async game => {
              await new Promise((done) => requestAnimationFrame(() => done()));
              const slot = localStorage.getItem(`gamebook:${game}:slot`) || "A";
              return localStorage.getItem(`gamebook:${game}:${slot}`);
            }""",
            self.game,
        )
        assert text, "no autosave in localStorage"
        return json.loads(text)

    def snapshot(self) -> dict:
        return {"story": self.story, "choices": self.choices(), "state": self.saved()["state"]}

    # -- acting
    def _mark(self) -> None:
        self.page.evaluate(
            f"() => {{ const el = document.querySelector('#gb-root > *'); "
            f"if (el) el.setAttribute('{STALE}', ''); }}"
        )

    def _rendered(self) -> None:
        """Wait for the next screen, or fail at once with the error the page threw."""
        self.page.wait_for_function(
            f"() => {{ if (window.__e2eError) return true; "
            f"const el = document.querySelector('#gb-root > *'); "
            f"return el && !el.hasAttribute('{STALE}') && !el.matches('form.gb-setup'); }}"
        )
        self.raise_page_error()

    def raise_page_error(self) -> None:
        error = self.page.evaluate("() => window.__e2eError || null")
        if error:
            raise AssertionError(f"the page threw: {error}")

    def click_and_render(self, locator: Any) -> None:
        self._mark()
        locator.click()
        self._rendered()

    def quick_start(self) -> None:
        self.click_and_render(self.page.locator('[data-testid="quick-start"]'))

    def resume(self) -> None:
        self.click_and_render(self.page.get_by_role("button", name="Reprendre la partie"))

    def menu(self) -> None:
        self.page.get_by_role("button", name="Menu").click()
        self.wait_ready()

    def undo(self) -> None:
        self.click_and_render(self.page.get_by_role("button", name="Annuler la dernière action"))

    def decide(self, rng: random.Random) -> str:
        """One decision: a seeded random pick among the visible choices (always the first one
        would loop forever in some Citadelle positions); at the end of a game, the next game
        of the campaign (Dilemme) or a new quick game.  Returns what was clicked."""
        page = self.page
        setup = page.locator('[data-testid="quick-start"]')
        if setup.is_visible():
            self.quick_start()
        buttons = page.locator(".gb-choices [data-choice]:visible")
        n = buttons.count()
        assert n, f"no visible choice; story: {self.story!r}"
        kinds = [buttons.nth(i).get_attribute("data-choice") for i in range(n)]
        if "next-game" in kinds:
            pick = kinds.index("next-game")
        elif kinds == ["new"]:
            page.locator('[data-choice="new"]').click()
            self.wait_ready()
            self.quick_start()
            return self.decide(rng)
        else:
            pick = rng.choice([i for i, k in enumerate(kinds) if k != "new"])
        target = buttons.nth(pick)
        label = target.get_attribute("aria-label") or target.text_content() or ""
        self._mark()
        target.click()
        confirm = page.locator(".gb-confirm .md-button--primary")
        if confirm.count():  # a choice that asks first: the player confirms it
            confirm.click()
        self._rendered()
        self.decisions += 1
        return label

    def board(self) -> str:
        return self.page.locator(".gb-board").text_content() or ""

    def play(self, n: int, rng: random.Random) -> dict:
        """``n`` decisions; what the player saw after each (story, board, log length) and the
        autosaved state after each (a decision always moves the game on)."""
        run: dict[str, list] = {"stories": [self.story], "boards": [self.board()],
                                "logs": [self.log_size()], "labels": [], "states": []}  # fmt: skip
        for _ in range(n):
            run["labels"].append(self.decide(rng))
            run["stories"].append(self.story)
            run["boards"].append(self.board())
            run["logs"].append(self.log_size())
            run["states"].append(json.dumps(self.saved()["state"], sort_keys=True))
        return run

    def export(self) -> dict:
        with self.page.expect_download() as info:
            self.page.locator('[data-testid="save-export"]').click()
        download = info.value
        assert download.suggested_filename.endswith(".json")
        return json.loads(Path(download.path()).read_text(encoding="utf-8"))

    def import_file(self, path: Path) -> None:
        self.page.evaluate(
            "() => { const s = document.getElementById('gb-status'); if (s) s.textContent = ''; }"
        )
        self._mark()
        self.page.locator('[data-testid="save-import"]').set_input_files(str(path))
        self.page.wait_for_function(
            f"""() => {{
              const s = document.getElementById('gb-status');
              const el = document.querySelector('#gb-root > *');
              if (window.__e2eError || (s && s.textContent)) return true;
              return el && !el.hasAttribute('{STALE}');
            }}"""
        )
        self.raise_page_error()


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> random.Random:
    """The choices' picks, seeded per test like the page's Math.random."""
    return random.Random(f"{BASE_SEED}:{request.node.nodeid}")


# --------------------------------------------------------------------------- hostile saves

BIG = 50 * 1024 * 1024


def hostile_saves(valid: dict, dest: Path) -> list[tuple[Path, str]]:
    """Files a player might be handed: ``(path, fragment of the refusal message)``.  ``valid``
    is a real export of the page's game, so each file differs from it in one way only."""
    game, campaign, state = valid["game"], valid["campaign"], valid["state"]
    from engine.core import registry

    other = next(g for g in registry.ids() if g != game)
    head = {"format": "gamebook-save", "version": 1, "game": game, "campaign": campaign}
    poison = "<img src=x onerror=window.__pwned=1>"
    garbage_state = {
        "__proto__": {"polluted": "yes"},
        "constructor": {"prototype": {"polluted": "yes"}},
        "game": game,
        "format_version": 1,
        **{k: poison for k in state if k not in ("game", "format_version")},
    }
    cases: list[tuple[str, str, str]] = [
        ("not-json", "{ceci n'est pas du JSON", "pas une sauvegarde lisible"),
        ("deep", "[" * 200_000 + "]" * 200_000, "pas une sauvegarde lisible"),
        ("other-format", json.dumps({**head, "format": "autre-chose"}), "pas une sauvegarde"),
        ("future", json.dumps({**head, "version": 99}), "version plus récente"),
        ("other-game", json.dumps({**head, "game": other}), "pas de ce jeu"),
        ("other-campaign", json.dumps({**head, "campaign": "ailleurs"}), "autre campagne"),
        ("no-state", json.dumps({**head, "state": [1, 2, 3]}), "incomplète"),
        ("garbage-state", json.dumps({**head, "state": garbage_state}), "endommagée"),
        (
            "proto-in-history",
            json.dumps({**head, "state": state, "history": [{"__proto__": {"x": 1}}]}),
            "endommagée",
        ),
        (
            "bad-values",
            json.dumps({**head, "state": {**state, "rng": "x", "pending": {"seat": 99}}}),
            "endommagée",
        ),
        ("huge", "", "trop volumineux"),
    ]
    out = []
    for name, text, fragment in cases:
        path = dest / f"hostile-{name}.json"
        if name == "huge":
            with path.open("w", encoding="utf-8") as f:
                f.write(json.dumps(head)[:-1] + ', "state": "')
                f.write("A" * BIG)
                f.write('"}')
        else:
            path.write_text(text, encoding="utf-8")
        out.append((path, fragment))
    return out


# --------------------------------------------------------------------------- helpers as fixtures
# (test modules take these instead of importing conftest, which pytest may have imported
# under another name)


@pytest.fixture
def open_game(page: Any, server: Server):
    """``open_game("dilemme")``: the play page loaded in the guarded ``page``."""

    def _open(game: str) -> Game:
        return Game(page, server.url, game).open()

    return _open


@pytest.fixture
def hostile_files(tmp_path: Path) -> Iterator[Any]:
    """``hostile_files(export)``: the files of ``hostile_saves``, deleted after the test (one
    weighs 50 MB)."""
    made: list[Path] = []

    def _make(valid: dict) -> list[tuple[Path, str]]:
        files = hostile_saves(valid, tmp_path)
        made.extend(p for p, _ in files)
        return files

    yield _make
    for p in made:
        p.unlink(missing_ok=True)


@pytest.fixture
def hostile_text() -> str:
    return HOSTILE


@pytest.fixture
def shot():
    """``shot(page, name)``: one more screenshot into tests/e2e/artifacts/."""
    return screenshot


@pytest.fixture(scope="session")
def kit() -> Any:
    """The building blocks, for a test that sets up its own context (the offline test)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        Game=Game, Guard=Guard, serve_site=serve_site, screenshot=screenshot,
        artifact_name=artifact_name, prepare_context=prepare_context, build_site=build_site,
        worker_page=worker_page, root=ROOT,
    )  # fmt: skip
