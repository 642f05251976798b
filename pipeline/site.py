"""Build the static site with mkdocs and serve it.

The content is checked first (errors stop the build, as in CI), the bundles are compiled into
the site, then mkdocs-material renders ``site/`` into ``build/site`` (strict mode).
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
from pathlib import Path

from . import compile as comp
from .report import check


def _config_path(config: Path) -> Path:
    if config.is_file():
        return config
    here = Path(__file__).resolve().parent.parent / "mkdocs.yml"
    if here.is_file():
        return here
    raise FileNotFoundError(2, "mkdocs configuration not found", str(config))


def build(content: Path, out: Path, config: Path) -> int:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    report = check(content)
    if not report.ok:
        from .cli import _fmt_text

        print(_fmt_text(report), file=sys.stderr)
        from .messages import t

        print(f"gamebook build: {t('cli.build_blocked')}", file=sys.stderr)
        return 1
    cfg_path = _config_path(config)
    out = out.resolve()
    try:
        cfg = load_config(str(cfg_path), site_dir=str(out), strict=True)
        mkdocs_build(cfg)
    except MkDocsException as exc:
        print(f"gamebook build: {exc}", file=sys.stderr)
        return 1
    for sg in report.graphs.values():
        comp.write(sg, out / "bundles")
    print(f"gamebook build: site written to {out}")
    return 0


def serve(root: Path, host: str, port: int) -> int:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
    }
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        print(f"gamebook serve: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"gamebook serve: http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
