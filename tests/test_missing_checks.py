"""The checks a writer's broken campaigns showed missing: a dialogue loop with no way out, a
word of a closed vocabulary (a zone) that nothing declares, the same campaign id twice."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import (
    append,
    copy_base,
    one,
    one_in_every_format,
    pos_of,
    read,
    replace,
    run_check,
    run_cli,
    write,
)

from pipeline import schema as S
from pipeline.story.catalogue import CODES


def test_new_codes_are_registered() -> None:
    assert CODES["GRAPH004"][0] == "error" and CODES["REF002"][0] == "error"


def test_loops_are_checked_only_for_games_that_say_what_leaves_one() -> None:
    assert any(s.leaves_loop is not None for s in S.SCHEMAS.values())


LOOP = """
  - id: 10
    text: Le garde vous renvoie vers l'archiviste.
    choices:
      - text: Aller voir l'archiviste.
        read: 11
  - id: 11
    text: L'archiviste vous renvoie vers le garde.
    choices:
      - text: Retourner voir le garde.
        read: 10
"""


def test_graph004_dialogue_loop_with_no_exit(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    append(path, LOOP, indent=2)
    replace(
        path,
        "        read: 3\n",
        "        read: 3\n      - text: Suivre le garde.\n        read: 10\n",
    )
    report = run_check(citadelle)
    f = one(report, "GRAPH004")
    assert (f.file, f.line, f.column) == (
        "paragraphes.yaml",
        *pos_of(path, "10\n    text: Le garde"),
    )
    assert f.message.startswith("boucle sans issue : paragraphe 10 et paragraphe 11 se renvoient")
    assert f"paragraphes.yaml ligne {pos_of(path, '11' + chr(10) + '    text: L')[0]}" in f.message
    assert report.findings and {x.code for x in report.findings} == {"GRAPH004"}
    # the same in JSON
    _, out, _ = run_cli(["check", str(citadelle), "--format", "json"])
    assert [x["code"] for x in json.loads(out)["findings"]] == ["GRAPH004"]


def test_a_loop_with_a_way_out_is_fine(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    append(path, LOOP + "      - text: Renoncer.\n        read: 2\n", indent=2)
    replace(
        path,
        "        read: 3\n",
        "        read: 3\n      - text: Suivre le garde.\n        read: 10\n",
    )
    assert run_check(citadelle).findings == []


def test_a_paragraph_that_only_reads_itself(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    append(
        path,
        "- id: 12\n  text: Encore.\n  choices:\n    - text: Encore.\n      read: 12\n",
        indent=2,
    )
    replace(
        path, "        read: 3\n", "        read: 3\n      - text: Insister.\n        read: 12\n"
    )
    f = one(run_check(citadelle), "GRAPH004")
    assert "ne renvoie qu'à lui-même" in f.message


def test_ref002_misspelt_zone_suggests_only_zones(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "        zone: I\n", "        zone: Il\n")
    report = run_check(citadelle)
    f = one(report, "REF002")
    assert (f.file, f.line, f.column) == ("aventure.yaml", *pos_of(path, "Il\n"))
    assert "la zone d'Exploration « Il » ne fait pas partie des valeurs déclarées" in f.message
    assert "Vouliez-vous dire « I » ?" in f.message and ") : I. Corrigez" in f.message
    # the zone's cards are now orphans: a true consequence, reported as such
    assert {x.code for x in report.findings} <= {"REF002", "GRAPH003"}


def test_same_campaign_id_in_two_folders_names_both(tmp_path: Path) -> None:
    content = tmp_path / "content"
    first = copy_base("citadelle", content)
    second = content / "citadelle-bis"
    shutil.copytree(first, second)
    report = run_check(content)
    f = one(report, "ID001")
    assert (f.file, f.line) == (
        "citadelle-bis/campaign.yaml",
        pos_of(second / "campaign.yaml", "id: citadelle")[0],
    )
    line = pos_of(first / "campaign.yaml", "id: citadelle")[0]
    assert f"citadelle/campaign.yaml ligne {line}" in f.message


def test_same_node_id_in_two_files_names_both(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    write(
        citadelle / "zz_autre.yaml", "paragraphs:\n  - id: 2\n    text: Doublon.\n    end: true\n"
    )
    f = one(run_check(citadelle), "ID001")
    assert f.file == "zz_autre.yaml"
    assert f"paragraphes.yaml ligne {pos_of(path, '- id: 2')[0]}" in f.message
    assert read(path)


def test_ref001_suggestions_only_among_the_expected_kind(citadelle: Path) -> None:
    """A misspelt objective is never « corrected » into a side quest's id (another kind)."""
    path = citadelle / "scenarios.yaml"
    replace(path, "requires: {objective: pompe_reparee}", "requires: {objective: puits_sorgu}")
    f = one(run_check(citadelle), "REF001")
    assert "« puits_sorgu »" in f.message and "puits_sorgue" not in f.message
    replace(path, "requires: {objective: puits_sorgu}", "requires: {objective: pompe_reparez}")
    f = one(run_check(citadelle), "REF001")
    assert "Vouliez-vous dire « pompe_reparee » ?" in f.message


def test_ref002_a_skill_names_a_character_that_does_not_exist(citadelle: Path) -> None:
    """A skill card's character is one of the Personnages' initials (or X: any one)."""
    path = citadelle / "personnages.yaml"
    replace(path, "character: A, title: Élan", "character: a, title: Élan")
    message = one_in_every_format(
        citadelle, "REF002", "personnages.yaml", *pos_of(path, "a, title")
    )
    assert message.startswith("action_cards[0].character : le personnage « a » ne fait pas partie")
    assert "Vouliez-vous dire « A » ?" in message
    assert (
        "(par le champ « id » d'un Personnage) : A" in message and "permis aussi ici : X" in message
    )


def test_x_is_any_character(citadelle: Path) -> None:
    path = citadelle / "personnages.yaml"
    replace(path, "character: A, title: Élan", "character: X, title: Élan")
    assert run_check(citadelle).findings == []


def _keywords(citadelle: Path, on_card: str) -> Path:
    """The campaign declares its MOTS-CLEFS; the manivelle (card 150) carries ``on_card``."""
    append(citadelle / "campaign.yaml", "keywords: [OUTIL, ARME]\n", indent=2)
    path = citadelle / "aventure.yaml"
    replace(
        path,
        "    title: La manivelle de bronze\n",
        f"    title: La manivelle de bronze\n    keywords: [{on_card}]\n",
    )
    return path


def test_ref002_a_misspelt_keyword(citadelle: Path) -> None:
    path = _keywords(citadelle, "TEMPORAIRE, OUTILS")
    message = one_in_every_format(citadelle, "REF002", "aventure.yaml", *pos_of(path, "OUTILS"))
    assert "le MOT-CLEF « OUTILS » ne fait pas partie des valeurs déclarées" in message
    assert "Vouliez-vous dire « OUTIL » ?" in message
    assert "(par le champ « keywords » de la campagne) : ARME, OUTIL" in message
    assert "permis aussi ici : TEMPORAIRE" in message


def test_declared_keywords_and_temporaire_are_fine(citadelle: Path) -> None:
    _keywords(citadelle, "TEMPORAIRE, OUTIL")
    assert run_check(citadelle).findings == []
