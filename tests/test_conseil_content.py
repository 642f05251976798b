"""Le Conseil des 12's content checks: closed vocabularies fixed by the rules."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import REPO_ROOT, one_in_every_format, pos_of, replace

from engine.conseil import content as C


def shipped(tmp_path: Path) -> Path:
    folder = tmp_path / "conseil"
    shutil.copytree(REPO_ROOT / "content" / "conseil", folder)
    return folder


def test_tutorial_phases_are_the_engines() -> None:
    """Every phase the rules put the game in can show a tutorial card, and no other."""
    source = (REPO_ROOT / "engine" / "conseil" / "rules.py").read_text(encoding="utf-8")
    sides = re.findall(r"\"phase\"\]? ?[:=] (.+)", source)
    set_by_rules = {w for side in sides for w in re.findall(r"\"([a-z_]+)\"", side)}
    assert set_by_rules == set(C.PHASES)


def test_a_misspelt_tutorial_phase_is_one_finding_with_the_word_meant(tmp_path: Path) -> None:
    folder = shipped(tmp_path)
    path = folder / "tutoriel.yaml"
    replace(path, "    phase: reveal\n", "    phase: reveel\n")
    message = one_in_every_format(folder, "FIELD002", "tutoriel.yaml", *pos_of(path, "reveel"))
    assert "« reveel » n'est pas permis ici" in message
    assert "choose, reveal" in message and "Vouliez-vous dire « reveal » ?" in message


def test_an_empty_objective_is_one_finding_not_a_crash(tmp_path: Path) -> None:
    """Found by the fuzzer: the dilemma solver was asked about an objective with no value."""
    folder = shipped(tmp_path)
    path = folder / "dilemmes.yaml"
    replace(path, "    objectives: [[7]]\n", "    objectives: [[]]\n")
    message = one_in_every_format(folder, "FIELD002", "dilemmes.yaml", *pos_of(path, "[]]"))
    assert "il faut une liste de 1 à 12 éléments, pas une liste vide" in message
