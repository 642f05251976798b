"""``gamebook serve``: the site, rebuilt while the writer works, and reloaded in the open pages.

- **Watch**: ``content/``, ``site/``, ``overrides/``, ``engine/`` and ``mkdocs.yml`` are
  polled a few times a second (no dependency; a few hundred files).
- **Rebuild only what changed**: a content change is checked, then only what content feeds
  is rewritten in place: the campaigns' bundles, ``manifest.json``, the opening text of the
  play pages, the story map (``--authoring``).  A change of the site's sources or of the
  engine rebuilds the whole site in a second folder, which is served once it is complete.
- **Reload**: every HTML page served gets a small script (``/__gamebook__/live.js``) that
  polls ``/__gamebook__/status.json`` and reloads the page when a new build is ready.
- **Findings overlay**: while the content has errors, the last good build keeps being served
  and every open page shows the findings (file, line, message) over it.  Content that has
  errors when ``serve`` starts is built all the same (or, if even that fails, a page says so),
  with the findings over it; once they are fixed the whole site is built again.

The service worker is replaced by one that removes itself: nothing is cached while writing.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import FileProblem, os_message
from ..findings import FindingJSON
from ..messages import count
from ..story import compile as comp
from ..story.report import Report, check
from .site import SiteHandler, _config_path, _digest, _service_worker, built_here, prepare_out
from .site import build as full_build

POLL_SECONDS = 0.2
WATCHED_ROOTS = ("content", "site", "overrides", "engine")
_OPENING = re.compile(r'(<div class="gb-opening">)(.*?)(</div>)', re.S)


def _with_opening(page: str, opening: str) -> str:
    """A play page with ``opening`` in place of its first opening's text."""
    return _OPENING.sub(lambda m: m.group(1) + "\n" + opening + "\n" + m.group(3), page, count=1)


LIVE_JS = r"""(function () {
  "use strict";
  var version = null, box = null;
  if (navigator.serviceWorker) {
    navigator.serviceWorker.getRegistrations().then(function (rs) {
      rs.forEach(function (r) { r.unregister(); });
    });
  }
  function overlay(s) {
    if (!s.findings.length) { if (box) { box.remove(); box = null; } return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "gb-live-overlay";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:1rem;right:1rem;bottom:1rem;max-height:45vh;" +
        "overflow:auto;z-index:99999;background:#fff4f4;color:#3b0d0d;border:2px solid #c62828;" +
        "border-radius:.4rem;padding:.6rem .9rem;font:14px/1.4 system-ui,sans-serif;" +
        "box-shadow:0 4px 18px rgba(0,0,0,.25)";
      document.body.appendChild(box);
    }
    box.replaceChildren();
    var h = document.createElement("strong");
    h.textContent = s.findings.length + " constat(s) dans le contenu : la page montre la " +
      "dernière version sans erreur.";
    box.appendChild(h);
    var ul = document.createElement("ul");
    ul.style.margin = ".4rem 0 0";
    s.findings.slice(0, 30).forEach(function (f) {
      var li = document.createElement("li");
      li.textContent = f.file + ":" + f.line + ":" + f.column + " " + f.severity + " " +
        f.code + " " + f.message;
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }
  function poll() {
    fetch("/__gamebook__/status.json", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (version === null) version = s.version;
        else if (s.version !== version) { location.reload(); return; }
        overlay(s);
        setTimeout(poll, 150);
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
"""

NO_SERVICE_WORKER = """// gamebook serve: no cache while writing; this worker removes itself
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", () => self.registration.unregister());
"""


@dataclass
class Live:
    """What the server shows: the folder of the last good build and the last check."""

    root: Path
    version: int = 1
    findings: list[FindingJSON] = field(default_factory=list)
    last: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {
                "version": self.version,
                "findings": self.findings,
                "last": self.last,
            }

    def published(self, root: Path | None = None, note: str = "") -> None:
        with self.lock:
            if root is not None:
                self.root = root
            self.version += 1
            self.findings = []
            self.last = note

    def broken(self, findings: list[FindingJSON]) -> None:
        with self.lock:
            self.findings = findings


class LiveHandler(SiteHandler):
    """The built site from the live folder, each HTML page with the reload script."""

    live: Live

    def __init__(self, *args: Any, live: Live, **kwargs: Any) -> None:
        self.live = live
        super().__init__(*args, directory=str(live.root), **kwargs)

    def end_headers(self) -> None:
        # what never changes under its name is cached (the pinned runtime, files named by
        # their hash): a reload does not download and compile Pyodide again; the rest never is
        path = self.path.split("?", 1)[0]
        immutable = path.startswith(("/pyodide/", "/engine/", "/bundles/", "/assets/vendor/"))
        self.send_header(
            "Cache-Control", "max-age=31536000, immutable" if immutable else "no-store"
        )
        super().end_headers()

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == "/__gamebook__/status.json":
            return self._send(json.dumps(self.live.status()).encode(), "application/json")
        if path == "/__gamebook__/live.js":
            return self._send(LIVE_JS.encode(), "text/javascript")
        if path.endswith("/sw.js") or path == "/sw.js":
            return self._send(NO_SERVICE_WORKER.encode(), "text/javascript")
        self.directory = str(self.live.root)
        target = Path(self.translate_path(path))
        if target.is_dir() and path.endswith("/"):
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            text = target.read_text(encoding="utf-8")
            tag = '<script src="/__gamebook__/live.js" defer></script>'
            text = text.replace("</body>", tag + "</body>", 1) if "</body>" in text else text + tag
            return self._send(text.encode(), "text/html; charset=utf-8")
        return super().do_GET()


def _finding_json(report: Report) -> list[FindingJSON]:
    base = report.content_dir
    out = []
    for f in report.findings:
        if f.severity == "error":
            d = f.to_json()
            d["file"] = (base / f.file).as_posix()
            out.append(d)
    return out


def update_content(
    report: Report, out: Path, authoring: bool, maps: dict[str, dict] | None = None
) -> list[str]:
    """Rewrite in ``out`` what the content feeds; returns the files written.  With
    ``authoring``, the story maps too: given ``maps`` (each campaign's line of the list of
    maps, as ``storymap.write_storymaps`` filled it) and a report of some campaigns only, only
    their maps are written again; else every map (and ``maps`` is filled)."""
    from .mkdocs_plugin import _opening

    written = []
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for sg in report.graphs.values():
        data = json.dumps(comp.bundle(sg), ensure_ascii=False, separators=(",", ":")).encode()
        name = f"bundles/{sg.campaign.family}-{_digest(data)}.json"
        if not (out / name).is_file():
            (out / name).write_bytes(data)
            written.append(name)
        manifest["bundles"][sg.campaign.family] = name
        page = out / "play" / sg.campaign.family / "index.html"
        if page.is_file():
            text = page.read_text(encoding="utf-8")
            new = _with_opening(text, _opening(sg))
            if new != text:
                page.write_text(new, encoding="utf-8")
                written.append(page.relative_to(out).as_posix())
    manifest.pop("version", None)
    manifest["version"] = _digest(json.dumps(manifest, sort_keys=True).encode())
    tmp = manifest_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    os.replace(tmp, manifest_path)
    written.append("manifest.json")
    _service_worker(out, manifest)
    if authoring:
        from .storymap import update_storymaps, write_storymaps

        if maps and len(report.graphs) < len(maps):
            update_storymaps(report, out, maps)
        else:
            write_storymaps(report, out, known=maps)
        written.append("carte/")
    return written


def _snapshot(roots: list[Path]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for root in roots:
        if root.is_file():
            st = root.stat()
            out[str(root)] = (st.st_mtime_ns, st.st_size)
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            for name in filenames:
                if name.endswith((".pyc", "~", ".swp")) or name.startswith(".#"):
                    continue
                p = os.path.join(dirpath, name)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                out[p] = (st.st_mtime_ns, st.st_size)
    return out


class Watcher:
    def __init__(
        self, live: Live, content: Path, out: Path, config: Path, authoring: bool, quiet: bool
    ) -> None:
        self.live, self.content, self.out, self.config = live, content, out, config
        self.authoring, self.quiet = authoring, quiet
        base = config.resolve().parent
        self.code_roots = [base / r for r in WATCHED_ROOTS if r != "content"] + [config.resolve()]
        self.content_root = content.resolve()
        self.stop = threading.Event()
        self.builds = 0
        #: errors by checked folder (one campaign, or the whole content)
        self.broken_by: dict[str, list[FindingJSON]] = {}
        #: the site served was built from content with errors: rebuild it all once fixed
        self.built_broken = False
        #: with ``authoring``: each campaign's line of the list of story maps, once every map
        #: was written by this process (then an edit rewrites its campaign's map only)
        self.maps: dict[str, dict] = {}

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"gamebook serve : {text}", file=sys.stderr, flush=True)

    def prime(self, report: Report | None = None) -> None:
        """With ``authoring``: write every story map once (a page that holds its text already
        is left as it is) to learn each campaign's line of the list of maps, so that the
        first save already writes its campaign's map only.  Nothing is published.
        ``report``: a check of the whole content just made (else one is made)."""
        from .storymap import write_storymaps

        if not self.authoring or self.maps or self.broken_by:
            return
        if report is None:
            report = check(self.content, jobs=1)
        if report.ok:
            write_storymaps(report, self.live.root, known=self.maps)

    def run(self) -> None:
        content_seen = _snapshot([self.content_root])
        code_seen = _snapshot(self.code_roots)
        try:
            self.prime()
        except Exception:  # an optimisation: the first save then writes every map
            self.maps.clear()
        while not self.stop.wait(POLL_SECONDS):
            content_now = _snapshot([self.content_root])
            code_now = _snapshot(self.code_roots)
            try:
                if code_now != code_seen:
                    code_seen, content_seen = code_now, content_now
                    self.rebuild_all()
                elif content_now != content_seen:
                    changed = {
                        p
                        for p in set(content_now) | set(content_seen)
                        if content_now.get(p) != content_seen.get(p)
                    }
                    content_seen = content_now
                    self.rebuild_content(changed)
            except Exception:  # a watcher that dies silently would be worse than a message
                self.say("échec de la reconstruction :\n" + traceback.format_exc())

    def _campaigns(self, changed: set[str]) -> Path | None:
        """The one campaign folder all the changed files belong to (``None``: several, or a
        file outside any campaign: the whole content is checked)."""
        folders = set()
        for name in changed:
            path = Path(name)
            folder = next((p for p in path.parents if (p / "campaign.yaml").is_file()), None)
            if folder is None or (path.name == "campaign.yaml" and not path.exists()):
                return None
            folders.add(folder)
        return folders.pop() if len(folders) == 1 else None

    def rebuild_content(self, changed: set[str] | None = None) -> None:
        start = time.perf_counter()
        folder = self._campaigns(changed) if changed else None
        if str(self.content_root) in self.broken_by:  # errors found by a whole check
            folder = None
        if self.authoring and not self.maps:  # the list of maps needs every campaign's line
            folder = None
        # one campaign checked alone, its paths named as in a check of the whole content
        report = check(self.content, jobs=1, only=folder)
        key = str(folder or self.content_root)
        errors = _finding_json(report)
        with self.live.lock:
            if folder is None:
                self.broken_by.clear()
            self.broken_by[key] = errors
        every = [f for found in self.broken_by.values() for f in found]
        if every:
            self.live.broken(every)
            self.say(f"{len(every)} erreur(s) : la dernière version sans erreur reste servie")
            return
        if self.built_broken:
            self.rebuild_all()
            return
        update_content(report, self.live.root, self.authoring, self.maps)
        self.live.published(note="contenu")
        self.say(f"contenu reconstruit en {time.perf_counter() - start:.2f} s")

    def rebuild_all(self) -> None:
        start = time.perf_counter()
        report = check(self.content, jobs=1)
        if not report.ok:
            self.live.broken(_finding_json(report))
            self.say("erreurs dans le contenu : la dernière version sans erreur reste")
            return
        self.builds += 1
        target = self.out.with_name(f"{self.out.name}-live{self.builds % 2}")
        if target.exists() and built_here(target):  # an earlier rebuild's, only
            shutil.rmtree(target)
        with _quiet(self.quiet):
            code = full_build(self.content, target, self.config, self.authoring)
        if code != 0:
            self.say("la construction du site a échoué : la dernière version reste servie")
            return
        self.broken_by.clear()
        self.built_broken = False
        self.live.published(target, note="site")
        self.say(f"site reconstruit en {time.perf_counter() - start:.2f} s")


def _first_build(content: Path, out: Path, config: Path, authoring: bool, broken: bool) -> int:
    """The site served first.  Content with errors is built all the same, so that the pages
    open with the findings over them; when even that fails, a page that says so stands in
    for the site until the content is fixed."""
    if not broken:
        return full_build(content, out, config, authoring)
    try:
        with _quiet(True):
            code = full_build(content, out, config, authoring, allow_errors=True)
    except FileProblem:  # the output folder: the writer must hear it
        raise
    except Exception:  # content too broken to build: the findings say why
        code = 1
    if code != 0:
        if out.exists():  # ``serve`` made sure it is the build's own (``prepare_out``)
            shutil.rmtree(out)
        out.mkdir(parents=True)
        (out / "index.html").write_text(PLACEHOLDER, encoding="utf-8")  # (``built_here``)
    return 0


PLACEHOLDER = """<!doctype html>
<!-- Generated by `gamebook serve` -->
<html lang="fr"><head><meta charset="utf-8"><title>gamebook serve</title></head>
<body><h1>Le contenu a des erreurs</h1>
<p>Le site sera construit dès qu'elles seront corrigées ; la liste ci-dessous se met à jour à
chaque enregistrement.</p></body></html>
"""


class _quiet:
    def __init__(self, on: bool) -> None:
        self.on = on

    def __enter__(self) -> None:
        if self.on:
            self._old = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = open(os.devnull, "w")

    def __exit__(self, *exc: object) -> None:
        if self.on:
            sys.stdout.close()
            sys.stdout, sys.stderr = self._old


def serve(
    content: Path,
    out: Path,
    config: Path | None,
    host: str,
    port: int,
    authoring: bool = False,
    watch: bool = True,
    quiet: bool = False,
    force: bool = False,
) -> int:
    """Build, serve on ``host:port``, and (``watch``) rebuild and reload as files change."""
    config = _config_path(config)
    prepare_out(out, force, keep=(content, config))  # before anything is built or removed
    report = check(content)
    errors = _finding_json(report)
    if errors:  # the writer sees them in the pages, and they go away once fixed
        print(
            f"gamebook serve : {count('cli.serve_errors', len(errors))}",
            file=sys.stderr,
            flush=True,
        )
    code = _first_build(content, out, config, authoring, bool(errors))
    if code != 0:
        return code
    live = Live(out.resolve())
    if errors:
        live.broken(errors)
    handler = functools.partial(LiveHandler, live=live)
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        print(
            f"gamebook serve : impossible d'écouter sur {host}:{port} ({os_message(exc)}) ; "
            "choisissez un autre --port",
            file=sys.stderr,
        )
        return 2
    server.daemon_threads = True
    watcher = Watcher(live, content, out, config, authoring, quiet)
    if errors:  # a whole check until they are fixed, then the whole site is built again
        watcher.broken_by[str(watcher.content_root)] = errors
        watcher.built_broken = True
    if watch:
        # before the first page is served: the first save then waits for nothing
        with contextlib.suppress(Exception):  # an optimisation (``Watcher.run`` tries again)
            watcher.prime(report)
        threading.Thread(target=watcher.run, name="gamebook-watch", daemon=True).start()
    print(
        f"gamebook serve : http://{host}:{server.server_address[1]}/ "
        + (
            "(les pages se rechargent à chaque modification ; Ctrl+C pour arrêter)" if watch else ""
        ),
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop.set()
        server.server_close()
    return 0


__all__ = ["LIVE_JS", "Live", "LiveHandler", "Watcher", "serve", "update_content"]
