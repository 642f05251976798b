"""The pairing codes of several devices (issue 32, ``site/assets/devices.js``) in Node: a
code round-trips, junk is refused, and the cut session description grows back whole
(``tests/js/device_codes.mjs``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "js" / "device_codes.mjs"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None and not os.environ.get("CI"), reason="Node is not installed")
def test_codes_round_trip_and_grow_back() -> None:
    assert NODE is not None, "Node is required on CI"
    done = subprocess.run([NODE, str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failures"] == []
    assert result["code"] < 400, result  # a version ≤ 13 QR code in byte mode
