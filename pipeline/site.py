"""Build the static site with mkdocs and serve it.

``build``: check the content (errors stop the build, as in CI), render ``site/`` with
mkdocs-material (strict), then add what the play pages need, all from this origin:

- ``pyodide/``: the runtime from the pinned npm package (``npm ci`` runs if it is missing), its
  standard library cut to what the games import, minified (sources without docstrings or
  comments) or precompiled to bytecode, stored uncompressed (``templates/precompile.mjs``, run
  in Node by ``_precompiled``); its lock file without packages (the pages load none);
- ``engine/engine-<game>-<hash>.min.zip``: what one game's play page loads of the rules engine
  (``pipeline.engine_archive``: top level, ``core`` and that game), prepared the same way
  (``.pyc.zip`` as bytecode, ``.zip`` the sources when Node is missing); ``engine-<hash>…``
  is the whole engine;
- ``bundles/<campaign>-<hash>.json``: the compiled campaigns;
- ``pyodide/pyodide.asm.wasm.zst``, ``pyodide/python_stdlib.zip.zst``: the two heaviest
  runtime files compressed with Zstandard in place of the files, decoded by the page and the
  service worker (``pipeline.packed``; ``assets/vendor/fzstd.js`` is the decoder);
- ``manifest.json``: which of those files the pages load (versioned names, so no cache serves
  a stale one);
- ``sw.js``: a cache-first service worker precaching all of it, so a page visited once plays
  with no network at all; its version is a hash of every file, and a new version waits until
  the page (``assets/theme.js``) has offered « Nouvelle version disponible » and saved the game;
- ``assets/vendor/iframe-worker-shim.js``: the polyfill mkdocs-material's offline plugin would
  otherwise fetch from a CDN.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

from . import compile as comp
from .engine_archive import build_archive
from .packed import DECODER, pack
from .report import check

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
NOT_PRECACHED = (".map",)


def _config_path(config: Path | None) -> Path:
    """The mkdocs configuration: the one given (it must exist), else ``mkdocs.yml`` here or
    the project's own."""
    from .files import problem
    from .messages import t

    if config is not None:
        if config.is_file():
            return config
        raise problem(config, t("cli.config_missing"))
    for here in (Path("mkdocs.yml"), Path(__file__).resolve().parent.parent / "mkdocs.yml"):
        if here.is_file():
            return here
    raise problem("mkdocs.yml", "configuration mkdocs introuvable", "donnez-la avec --config")


#: the file ``build`` leaves in the folder it writes: a folder without it, and not empty, is
#: never emptied (unless ``--force``); hidden, so mkdocs keeps it when it cleans the folder
MARKER = ".gamebook-site"


def prepare_out(out: Path, force: bool = False, keep: tuple[Path, ...] = ()) -> None:
    """Check, before any work, that building into ``out`` destroys nothing it did not make:
    ``out`` is new, empty (hidden files aside: mkdocs keeps them), or holds the marker of an
    earlier build; ``force`` empties any folder but one holding the content or the
    configuration (``keep``) or the working folder.  Then mark it as ours."""
    from .files import check_output_folder, problem, write_atomic
    from .messages import t

    check_output_folder(out)
    real = out.resolve()
    for precious in (*keep, Path.cwd()):
        inner = precious.resolve()
        if inner == real or real in inner.parents:
            raise problem(
                out,
                f"ce dossier contient « {precious} », que la construction effacerait",
                "choisissez un dossier de sortie à part (par défaut : build/site)",
            )
    ours = (out / MARKER).is_file()
    if (
        out.is_dir()
        and not force
        and not ours
        and any(not e.name.startswith(".") for e in os.scandir(out))
    ):
        raise problem(out, t("cli.out_not_ours", marker=MARKER))
    write_atomic(
        out / MARKER,
        "Dossier écrit par « gamebook build » : il le vide et le réécrit à chaque construction.\n",
    )


def ensure_vendor(root: Path) -> Path:
    """``node_modules`` with the pinned Pyodide and the other packages of ``package.json``'s
    ``dependencies``; installs them with npm when one is missing."""
    modules = root / "node_modules"
    try:
        wanted = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    except (OSError, ValueError, KeyError):
        wanted = {}
    missing = [name for name in wanted if not (modules / name / "package.json").is_file()]
    if missing or not (modules / "pyodide" / "pyodide.mjs").is_file():
        npm = shutil.which("npm")
        if npm is None:
            from .files import FileProblem

            raise FileProblem(
                "npm est nécessaire pour installer Pyodide dans node_modules : installez Node.js "
                "(npm ci installe ensuite les paquets de package.json)."
            )
        lock = (root / "package-lock.json").is_file()
        cmd = [npm, "ci" if lock else "install", "--no-audit", "--no-fund", "--loglevel=error"]
        subprocess.run(cmd, cwd=root, check=True)
    return modules


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _vendor(root: Path, out: Path, report) -> dict:
    modules = ensure_vendor(root)
    pyodide_out = out / "pyodide"
    pyodide_out.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, pyodide_out / name)
    vendor = out / "assets" / "vendor"
    vendor.mkdir(parents=True, exist_ok=True)
    shutil.copy2(modules / "iframe-worker" / "shim" / "index.js", vendor / "iframe-worker-shim.js")
    bundles = {}
    (out / "bundles").mkdir(parents=True, exist_ok=True)
    for sg in report.graphs.values():
        data = json.dumps(comp.bundle(sg), ensure_ascii=False, separators=(",", ":")).encode()
        name = f"bundles/{sg.campaign.family}-{_digest(data)}.json"
        (out / name).write_bytes(data)
        bundles[sg.campaign.family] = name
    _lock_without_packages(modules / "pyodide" / "pyodide-lock.json", pyodide_out)
    archives = {None: build_archive(out / "engine")}
    for game in sorted(bundles):
        archives[game] = build_archive(out / "engine", game=game)
    archives = _precompiled(modules / "pyodide", out, archives, bundles)
    pyodide_version = json.loads((modules / "pyodide" / "package.json").read_text())["version"]
    manifest = {
        "engine": archives.pop(None).relative_to(out).as_posix(),
        # what a play page loads: the engine's top level, its core and that one game
        "engines": {g: path.relative_to(out).as_posix() for g, path in sorted(archives.items())},
        "bundles": bundles,
        "pyodide": "pyodide/",
        "pyodide_version": pyodide_version,
        # the runtime's own files (the standard library is cut and compiled at build time): the
        # play pages key their memory snapshots by the version, which covers these bytes too
        "runtime": _digest(
            b"".join(_digest((pyodide_out / n).read_bytes()).encode() for n in PYODIDE_FILES)
        ),
    }
    # the heaviest runtime files as Zstandard, decoded by the page and the service worker
    # (pipeline.packed; the "runtime" digest above is of the decoded bytes)
    packed = pack(out, modules)
    if packed:
        manifest["packed"] = packed
        manifest["decoder"] = DECODER
    manifest["version"] = _digest(json.dumps(manifest, sort_keys=True).encode())
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


PRECOMPILE = Path(__file__).resolve().parent / "templates" / "precompile.mjs"


def _lock_without_packages(lock: Path, out: Path) -> None:
    """``pyodide-lock.json`` with its ``info`` and no package: the play pages load none
    (``packages: []``, ``engine`` is standard library only), and Pyodide fetches the lock file
    at every start (the stock one weighs 120 kB)."""
    data = json.loads(lock.read_text(encoding="utf-8"))
    data["packages"] = {}
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    (out / "pyodide-lock.json").write_text(text, encoding="utf-8")


# "bytecode" (the default): .pyc files, nothing compiled in the browser; "minify": sources
# without docstrings or comments, a third of the bytecode's compressed weight but compiled at
# every start (see bench/README.md).
FORMS = ("minify", "bytecode")


def _precompiled(
    pyodide: Path, out: Path, archives: dict[str | None, Path], bundles: dict[str, str]
) -> dict[str | None, Path]:
    """The standard library and the engine archives in the form the page loads, made in the
    shipped Pyodide's own Python, stored uncompressed; the standard library cut to the modules
    the engine and Pyodide import while every game is played (``templates/precompile.mjs``,
    run in Node).  ``GAMEBOOK_PYTHON=bytecode`` (default) ships ``.pyc`` files,
    ``GAMEBOOK_PYTHON=minify`` sources without docstrings and comments.  Cached in the
    user's cache by the inputs' hash.  Without Node, or with ``GAMEBOOK_PRECOMPILE=0``, or if
    anything fails,
    the sources are kept whole (heavier, same games): the archives returned are the ones the
    pages load."""
    from .bundles import cache_dir

    node = shutil.which("node")
    form = os.environ.get("GAMEBOOK_PYTHON", "bytecode")
    if form not in FORMS:
        print(f"gamebook build: GAMEBOOK_PYTHON={form!r} ignoré (au choix : {', '.join(FORMS)})",
              file=sys.stderr)  # fmt: skip
        form = "bytecode"
    if os.environ.get("GAMEBOOK_PRECOMPILE", "1") == "0" or node is None:
        return archives
    stdlib = out / "pyodide" / "python_stdlib.zip"
    engines = sorted(archives.items(), key=lambda kv: kv[0] or "")
    key = hashlib.sha256(form.encode())
    inputs = [PRECOMPILE, stdlib, *(p for _, p in engines)]
    for path in [*inputs, *(out / b for b in sorted(bundles.values()))]:
        key.update(hashlib.sha256(path.read_bytes()).digest())
    folder = cache_dir() / "precompiled" / key.hexdigest()[:20]
    names = {game: f"engine-{game or 'all'}.zip" for game, _ in engines}
    outs = [folder / "python_stdlib.zip", *(folder / n for n in names.values())]
    if not all(f.is_file() for f in outs):
        folder.mkdir(parents=True, exist_ok=True)
        job = {
            "pyodide": str(pyodide),
            "engine": str(archives[None]),
            "games": [[g, str(out / b)] for g, b in sorted(bundles.items())],
            "archives": [
                {"in": str(stdlib), "out": str(folder / "std.tmp"), "prune": True, "mode": form},
                *(
                    {"in": str(p), "out": str(folder / f"{names[g]}.tmp"), "mode": form}
                    for g, p in engines
                ),
            ],
        }
        (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
        try:
            subprocess.run(
                [node, str(PRECOMPILE), str(folder / "job.json")],
                check=True, capture_output=True, text=True, timeout=600,
            )  # fmt: skip
        except (OSError, subprocess.SubprocessError) as exc:
            detail = getattr(exc, "stderr", "") or str(exc)
            print(
                f"gamebook build: Python non précompilé, sources gardées ({detail[-300:]})",
                file=sys.stderr,
            )
            return archives
        os.replace(folder / "std.tmp", folder / "python_stdlib.zip")
        for n in names.values():
            os.replace(folder / (n + ".tmp"), folder / n)
    shutil.copy2(folder / "python_stdlib.zip", stdlib)
    suffix = ".pyc.zip" if form == "bytecode" else ".min.zip"
    result: dict[str | None, Path] = {}
    for game, source in engines:
        data = (folder / names[game]).read_bytes()
        stem = "engine" if game is None else f"engine-{game}"
        made = source.with_name(f"{stem}-{hashlib.sha256(data).hexdigest()[:12]}{suffix}")
        made.write_bytes(data)
        source.unlink()
        result[game] = made
    return result


SERVICE_WORKER = Path(__file__).resolve().parent / "templates" / "sw.js"


def _service_worker(out: Path, manifest: dict) -> None:
    packed = manifest.get("packed", {})
    packed_files = {e["zst"] for e in packed.values()}
    files = []
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.name in ("sw.js", MARKER) or path.suffix in NOT_PRECACHED:
            continue
        rel = path.relative_to(out).as_posix()
        if rel.startswith("carte/"):  # the authoring story map stays out of the players' cache
            continue
        if rel in packed_files:  # the worker stores these decoded, under the original names
            continue
        files.append(rel)
        if rel.endswith("index.html"):  # linked as …/index.html, typed as …/
            files.append(rel[: -len("index.html")])
    # the version is every precached file's bytes: a change of pages only is a new version too
    digest = hashlib.sha256()
    for rel in files:
        path = out / rel
        if path.is_file():
            digest.update(rel.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    for rel, entry in sorted(packed.items()):
        digest.update(rel.encode() + b"\0" + entry["sha256"].encode())
    version = digest.hexdigest()[:16]
    template = SERVICE_WORKER.read_text(encoding="utf-8")
    text = template % {
        "version": version,
        "manifest": manifest["version"],
        "files": json.dumps(files, indent=0),
        "packed": json.dumps(dict(sorted(packed.items()))),
        "decoder": json.dumps(manifest.get("decoder", "")),
    }
    (out / "sw.js").write_text(text, encoding="utf-8")


def build(
    content: Path,
    out: Path,
    config: Path | None,
    authoring: bool = False,
    coverage_runs: int = 0,
    force: bool = False,
) -> int:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    cfg_path = _config_path(config)  # every argument checked before the content is read
    prepare_out(out, force, keep=(content, cfg_path))
    report = check(content)
    if not report.ok:
        from .formats import text as report_text
        from .messages import t

        print(report_text(report), file=sys.stderr)
        print(f"gamebook build: {t('cli.build_blocked')}", file=sys.stderr)
        return 1
    out = out.resolve()
    os.environ["GAMEBOOK_CONTENT"] = str(content.resolve())
    try:
        cfg = load_config(str(cfg_path), site_dir=str(out), strict=True)
        mkdocs_build(cfg)
    except MkDocsException as exc:
        print(f"gamebook build: {exc}", file=sys.stderr)
        return 1
    manifest = _vendor(cfg_path.parent, out, report)
    if authoring:
        from .storymap import write_storymaps

        write_storymaps(report, out, _coverage(report, coverage_runs))
    _service_worker(out, manifest)
    print(f"gamebook build: site écrit dans {out}")
    return 0


def _coverage(report, runs: int) -> dict[str, dict] | None:
    """``gamebook simulate``'s JSON for every campaign (the story map's colours), or ``None``."""
    if runs <= 0:
        return None
    from .simulate import simulate

    return {
        cid: simulate(sg, runs=runs, seed="carte").to_json() for cid, sg in report.graphs.items()
    }


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types Pyodide needs (``.wasm``, ``.mjs``), quietly; the e2e tests
    and the browser benchmark serve the built site with it too."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: a player does not need the access log


def serve(root: Path, host: str, port: int) -> int:
    from .files import os_message

    handler = functools.partial(SiteHandler, directory=str(root))
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        print(
            f"gamebook serve: impossible d'écouter sur {host}:{port} ({os_message(exc)}) ; "
            "choisissez un autre --port",
            file=sys.stderr,
        )
        return 2
    print(f"gamebook serve: http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
