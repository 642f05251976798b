"""A save file too big to be a save is refused by its size, before the page reads a byte of it
(``site/assets/play.js``, ``importSave``): the game in progress is untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def test_a_file_too_big_is_refused_before_it_is_read(open_game, tmp_path: Path, rng) -> None:
    game = open_game("dilemme")
    game.quick_start()
    game.play(2, rng)
    before = game.snapshot()
    big = tmp_path / "enorme.json"
    with big.open("wb") as f:  # 41 MB on paper, nothing on the disk (and nothing to read)
        f.truncate(41_000_000)
    game.import_file(big)
    status = game.status()
    assert status.startswith("Import refusé : "), status
    assert "trop volumineux" in status and "au plus 40 Mo" in status, status
    assert game.snapshot() == before
