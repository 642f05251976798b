"""The service worker ``gamebook build`` generates (``pipeline/publish/templates/sw.js``), run in
Node
against an in-memory Cache Storage (``tests/js/service_worker.mjs``): two sites of one origin
(``/a/`` and ``/b/``) keep each their own caches, an update deletes only its own site's old
versions, only the files of its list are stored, and the play page's memory snapshots
(``site/assets/boot.js``) are dropped per site and bound to their version by a digest."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline.publish.site import MARKER, _service_worker

SCRIPT = Path(__file__).resolve().parent / "js" / "service_worker.mjs"
NODE = shutil.which("node")


def built(out: Path, page: str) -> Path:
    """A small site as the build leaves it, and its generated worker."""
    (out / "play" / "dilemme").mkdir(parents=True)
    (out / "index.html").write_text(page, encoding="utf-8")
    (out / "play" / "dilemme" / "index.html").write_text("<p>jouer</p>", encoding="utf-8")
    (out / "manifest.json").write_text('{"version": "abc"}', encoding="utf-8")
    (out / MARKER).write_text("marque", encoding="utf-8")
    _service_worker(out, {"version": "abc"})
    return out / "sw.js"


def test_the_worker_lists_the_site_s_files_only(tmp_path: Path) -> None:
    sw = built(tmp_path, "<p>accueil</p>").read_text(encoding="utf-8")
    files = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert sorted(files) == [
        "",
        "index.html",
        "manifest.json",
        "play/dilemme/",
        "play/dilemme/index.html",
    ]
    assert "gamebook-${new URL(SCOPE).pathname}@" in sw  # named by its scope


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_two_sites_of_one_origin_keep_their_own_caches(tmp_path: Path) -> None:
    old = built(tmp_path / "v1", "<p>accueil</p>")
    new = built(tmp_path / "v2", "<p>accueil, nouvelle version</p>")
    done = subprocess.run(
        [NODE, "--no-warnings", str(SCRIPT), str(old), str(new)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"failures": []}
