"""The terminal's hot seat (``pipeline.play.terminal``): a fresh seed when none is given (printed,
so
the game can be replayed), the screen cleared before each hand-over between two people — only
on a terminal, never in a pipe or a file — and a hand-over after a loaded save too."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import registry
from pipeline.play import terminal
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SEED_LINE = re.compile(r"Graine de cette partie : ([a-z0-9]{6}) \(« --seed \1 »")
HIDDEN = [g for g in registry.ids() if registry.get(g).hidden_information]


def gamebook(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "play", *args, "--content", str(CONTENT)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _game(game_id: str):
    return registry.get(game_id)(bundle_for(game_id, CONTENT))


def _run(game, setup: dict, script: Path, save: Path | None, out: io.StringIO) -> str:
    """Play until the game ends or the script does (then the terminal stops with a French
    message, as a player would see it)."""
    try:
        terminal.play(game, setup, script, save, out, interactive=False)
    except terminal.PlayError as exc:
        assert "script est terminé" in str(exc)
    return out.getvalue()


def _two_people(game) -> dict:
    low, high = game.seat_range()
    n = min(high, max(low, 3))
    return {"seed": "7", "players": n, "bots": n - 2}


def test_without_a_seed_each_game_draws_one_and_prints_it_and_it_replays():
    first, second = gamebook("roi", "--bots", "3"), gamebook("roi", "--bots", "3")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    seeds = [SEED_LINE.search(r.stdout) for r in (first, second)]
    assert all(seeds), first.stdout[:300]
    assert seeds[0].group(1) != seeds[1].group(1)  # 36**6 seeds: not the fixed "0" any more
    again = gamebook("roi", "--bots", "3", "--seed", seeds[0].group(1))
    assert again.returncode == 0, again.stderr
    assert "Graine de cette partie" not in again.stdout  # a seed given is not announced
    assert first.stdout.split("\n", 1)[1] == again.stdout  # the same game, word for word


@pytest.mark.parametrize("game_id", HIDDEN)
def test_the_screen_is_cleared_before_a_hand_over_only_on_a_terminal(game_id, tmp_path: Path):
    game = _game(game_id)
    script = tmp_path / "coups.txt"
    script.write_text("1\n" * 30, encoding="utf-8")
    plain = _run(game, _two_people(game), script, None, io.StringIO())
    tty = _run(game, _two_people(game), script, None, Tty())
    assert "\033" not in plain  # scripts and pipes keep their plain text
    assert tty.replace(terminal.CLEAR, "") == plain
    handovers = plain.count("*** Passez l'appareil à")
    assert handovers >= 2
    # every hand-over but the first (nothing secret was shown before it) clears the screen
    assert tty.count(terminal.CLEAR) == handovers - 1
    assert tty.index("*** Passez l'appareil à") < tty.index(terminal.CLEAR)
    for part in tty.split(terminal.CLEAR)[1:]:
        assert part.lstrip("\n").startswith("*** Passez l'appareil à")


@pytest.mark.parametrize("game_id", HIDDEN)
def test_a_loaded_save_hands_the_device_over_before_any_secret(game_id, tmp_path: Path):
    game = _game(game_id)
    save, script = tmp_path / "partie.json", tmp_path / "coups.txt"
    script.write_text("1\n" * 6, encoding="utf-8")
    _run(game, _two_people(game), script, save, io.StringIO())
    assert save.exists()
    script.write_text("1\n", encoding="utf-8")
    text = _run(game, {}, script, save, io.StringIO())
    assert "*** Passez l'appareil à" in text
    first_screen = text.find("== ")
    assert text.index("*** Passez l'appareil à") < first_screen


def test_one_person_and_bots_see_no_hand_over_and_no_clearing(tmp_path: Path):
    game = _game(HIDDEN[0])
    script = tmp_path / "coups.txt"
    script.write_text("1\n" * 20, encoding="utf-8")
    low, high = game.seat_range()
    n = min(high, max(low, 3))
    text = _run(game, {"seed": "3", "players": n, "bots": n - 1}, script, None, Tty())
    assert "Passez l'appareil" not in text and "\033" not in text
