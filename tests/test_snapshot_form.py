"""The form a play page stores its Python memory snapshot in (``site/assets/boot.js``: only the
runs of non-zero pages, so that a warm start reads 12 MB from Cache Storage instead of 31):
every memory comes back byte for byte, and a damaged form is refused before Pyodide sees it.
Run in Node (``tests/js/snapshot_form.mjs``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "js" / "snapshot_form.mjs"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_packed_snapshots_round_trip_and_damage_is_refused() -> None:
    done = subprocess.run(
        [NODE, "--no-warnings", str(SCRIPT)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failures"] == []
    assert result["cases"] >= 50
