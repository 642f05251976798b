"""Le Roi des 12 from the command line: bot games of every kind end and repeat for a seed;
bad setups are refused in French."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import gamebook

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("bots", [2, 4, 12, 16])
def test_bot_games_end_and_repeat(bots):
    first = gamebook("play", "roi", "--bots", str(bots), "--seed", "S")
    assert first.returncode == 0, first.stderr
    assert "Roi des 12" in first.stdout and "Traceback" not in first.stderr
    again = gamebook("play", "roi", "--bots", str(bots), "--seed", "S")
    assert again.stdout == first.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--bots", "17"),
        ("--bots", "1"),
        ("--bots", "3", "--cartes", "choix", "--selection", "dame"),
        ("--bots", "3", "--cartes", "toutes"),
    ],
)
def test_bad_setups_are_refused_in_french(args):
    proc = gamebook("play", "roi", *args)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr and proc.stderr.strip()
