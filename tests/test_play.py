"""``gamebook play``: deterministic bot games, scripted humans, autosave and resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


def play(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "play", "dilemme", "--content", str(CONTENT), *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_five_bots_play_a_whole_game_the_same_way_for_the_same_seed():
    first = play("--bots", "5", "--seed", "7")
    again = play("--bots", "5", "--seed", "7")
    other = play("--bots", "5", "--seed", "8")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout
    assert "Partie 1 du Conseil" in first.stdout
    assert "Fin de la partie" in first.stdout
    # the ranking says where each house's points come from
    assert "1. " in first.stdout and "majorité de Pouvoir" in first.stdout
    assert "Traceback" not in first.stdout + first.stderr


def test_scripted_human_autosaves_and_resumes(tmp_path: Path):
    save = tmp_path / "partie.json"
    script = tmp_path / "court.txt"
    script.write_text("# choisir toujours la première option\n" + "1\n" * 3, encoding="utf-8")
    cut = play("--players", "3", "--bots", "2", "--seed", "3", "--script", str(script),
               "--save", str(save))  # fmt: skip
    assert cut.returncode == 2
    assert "le script est terminé" in cut.stderr
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["game"] == "dilemme" and data["state"]["phase"] != "over"
    steps_before = len(data["state"]["log"])

    script.write_text("1\n" * 400 + "n\n", encoding="utf-8")
    done = play("--script", str(script), "--save", str(save))
    assert done.returncode == 0, done.stderr
    final = json.loads(save.read_text(encoding="utf-8"))
    assert final["state"]["phase"] == "over"
    assert len(final["state"]["log"]) > steps_before
    assert final["state"]["campaign"]["game_no"] == 1


def test_a_file_that_is_not_a_save_is_never_overwritten(tmp_path: Path):
    notes = tmp_path / "notes.json"
    notes.write_text("mes notes de campagne, pas une sauvegarde", encoding="utf-8")
    result = play("--bots", "5", "--save", str(notes))
    assert result.returncode == 2
    assert "ne sera pas écrasé" in result.stderr
    assert notes.read_text(encoding="utf-8") == "mes notes de campagne, pas une sauvegarde"


def test_bad_script_line_is_reported(tmp_path: Path):
    script = tmp_path / "faux.txt"
    script.write_text("peut-être\n", encoding="utf-8")
    result = play("--players", "3", "--bots", "2", "--script", str(script))
    assert result.returncode == 2
    assert "choix invalide dans le script : 'peut-être'" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_game_and_bad_house_count():
    assert play("--players", "9").returncode == 2
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "play", "echecs", "--content", str(CONTENT)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and "jeu inconnu" in result.stderr


def play_citadelle(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "play", "citadelle", "--content", str(CONTENT),
         *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip


def test_citadelle_auto_plays_the_adventure_the_same_way_for_the_same_seed(tmp_path: Path):
    first = play_citadelle("--auto", "--characters", "2", "--seed", "4")
    again = play_citadelle("--auto", "--characters", "2", "--seed", "4")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert "Fin de l'aventure" in first.stdout
    assert "Traceback" not in first.stdout + first.stderr


def test_citadelle_script_and_resume(tmp_path: Path):
    save = tmp_path / "citadelle.json"
    script = tmp_path / "coups.txt"
    # act, draw (how many cards: 2), count the successes, then the next action's first choice
    script.write_text("1\n1\n2\n1\n1\n", encoding="utf-8")
    # the seed is fixed: with another deal the same lines may answer other questions
    cut = play_citadelle("--characters", "1", "--seed", "2", "--script", str(script),
                         "--save", str(save))  # fmt: skip
    assert cut.returncode == 2 and "le script est terminé" in cut.stderr
    state = json.loads(save.read_text(encoding="utf-8"))["state"]
    assert state["game"] == "citadelle" and state["pending"] is not None
    script.write_text("1\n1\n2\n", encoding="utf-8")
    again = play_citadelle("--script", str(script), "--save", str(save))
    assert again.returncode == 2  # resumed, played three more choices, stopped again
    assert len(json.loads(save.read_text(encoding="utf-8"))["state"]["log"]) > len(state["log"])


def test_a_save_an_editor_re_encoded_resumes(tmp_path: Path):
    """A save copied through a Windows editor (UTF-16 with its byte-order mark, or UTF-8 with
    one) is the same save: ``play --save`` resumes it, and writes it back as UTF-8."""
    save = tmp_path / "partie.json"
    script = tmp_path / "court.txt"
    script.write_text("1\n" * 3, encoding="utf-8")
    cut = play("--players", "3", "--bots", "2", "--seed", "3", "--script", str(script),
               "--save", str(save))  # fmt: skip
    assert cut.returncode == 2, cut.stderr
    text = save.read_text(encoding="utf-8")
    steps = len(json.loads(text)["state"]["log"])
    for encoded in (text.encode("utf-16"), b"\xef\xbb\xbf" + text.encode("utf-8")):
        save.write_bytes(encoded)
        script.write_text("1\n" * 6, encoding="utf-8")
        again = play("--script", str(script), "--save", str(save))
        assert "n'est pas une sauvegarde" not in again.stderr, again.stderr
        assert "Traceback" not in again.stderr
        after = json.loads(save.read_text(encoding="utf-8"))
        assert len(after["state"]["log"]) > steps
