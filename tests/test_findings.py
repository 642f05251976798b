"""One deliberately broken fixture per finding code.

Each test copies a clean base campaign, breaks one thing, and checks the code, the severity,
the file (relative to the folder checked), the line and column — computed from the text the
test wrote — and the French sentence a writer reads.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import (
    BASE,
    CAMPAIGNS,
    REPO_ROOT,
    append,
    at,
    codes,
    copy_base,
    edit_yaml,
    line_of,
    new_file,
    one,
    pos_of,
    read,
    replace,
    run_check,
    value_pos,
    with_code,
    write,
)

from engine.citadelle.content import MESSAGES as CM
from engine.dilemme.content import MESSAGES as DM
from pipeline import schema as S
from pipeline.findings import Finding
from pipeline.messages import t
from pipeline.schema import KINDS
from pipeline.story.catalogue import CODES

YAML_HELP = (
    "Vérifiez l'indentation, les deux-points et les guillemets à cette ligne (une valeur qui "
    "contient « : » ou commence par un caractère spécial doit être entre guillemets)."
)


def assert_finding(f: Finding, code: str, file: str, pos: tuple[int, int]) -> None:
    assert f.code == code
    assert f.severity == CODES[code][0]
    assert (f.file, f.line, f.column) == (file, *pos), f


# --------------------------------------------------------------------------- the base fixtures


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_base_fixture_checks_clean(name: str) -> None:
    report = run_check(BASE / name)
    assert report.findings == []
    assert report.ok
    stats = report.stats()
    assert stats["nodes"] > 0 and stats["edges"] > 0
    assert stats["unreachable"] == 0


def test_base_citadelle_has_what_the_tests_rely_on() -> None:
    report = run_check(BASE / "citadelle")
    g = report.graphs["citadelle"].graph
    edge_kinds = {d["kind"] for _, _, d in g.edges(data=True)}
    # scenario with an epilogue, arrows to a zone and to a card, choices, side quest, hidden number
    assert {"ends", "explores", "reveals", "choice", "marks", "hidden_number"} <= edge_kinds
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert {"scenario", "epilogue", "side_quest", "paragraph", "exploration_card"} <= kinds


# --------------------------------------------------------------------------- IO001


def test_io001_campaign_yaml_that_is_a_directory(tmp_path: Path) -> None:
    content = tmp_path / "content"
    copy_base("dilemme", content)
    (content / "brouillon" / "campaign.yaml").mkdir(parents=True)
    report = run_check(content)
    f = one(report, "IO001")
    assert_finding(f, "IO001", "brouillon/campaign.yaml", (1, 1))
    assert f.message == t("io.directory")
    assert f.message.startswith("c'est un dossier, pas un fichier")
    assert codes(report) == {"IO001"}  # the other campaign still checks clean


@pytest.mark.skipif(
    sys.platform != "linux" or not Path("/proc/self/mem").is_file(), reason="needs Linux /proc"
)
def test_io001_read_error_even_as_root(citadelle: Path) -> None:
    # reading /proc/self/mem from offset 0 fails with EIO, whoever runs the tests
    (citadelle / "illisible.yaml").symlink_to("/proc/self/mem")
    report = run_check(citadelle)
    f = one(report, "IO001")
    assert_finding(f, "IO001", "illisible.yaml", (1, 1))
    assert f.message.startswith("impossible de lire le fichier : erreur d'entrée-sortie")
    assert codes(report) == {"IO001"}


def test_io001_unreadable_file_chmod(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: chmod 000 does not stop reading")
        report = run_check(citadelle)
    finally:
        path.chmod(0o644)
    f = one(report, "IO001")
    assert_finding(f, "IO001", "paragraphes.yaml", (1, 1))
    assert f.message == t("io.permission")


def test_io001_oserror_while_reading(citadelle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "aventure.yaml":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    report = run_check(citadelle)
    f = one(report, "IO001")
    assert_finding(f, "IO001", "aventure.yaml", (1, 1))
    assert f.message == t("io.permission")


# --------------------------------------------------------------------------- YAML001


def test_yaml001_unclosed_bracket(dilemme: Path) -> None:
    path = dilemme / "enveloppes.yaml"
    replace(path, "cards: [D01, D02, D03]", "cards: [D01, D02, D03")
    report = run_check(dilemme)
    f = one(report, "YAML001")
    # libyaml notices at the ':' of the next record, still inside the flow sequence: the
    # finding is where the bracket was opened and names where reading broke
    assert_finding(f, "YAML001", "enveloppes.yaml", pos_of(path, "[D01"))
    broke = pos_of(path, ": 12")
    assert f.message.startswith(
        "YAML mal formé : le crochet « [ » ouvert ici n'est pas fermé ; la lecture a échoué "
        f"ligne {broke[0]}, colonne {broke[1]} (une liste entre crochets n'est pas fermée par "
        "« ] »). Ajoutez le « ] » à la fin de la liste."
    )
    # what the envelopes would have defined is referenced elsewhere: one line, not many
    assert re.search(r"… et \d+ références vers ce fichier", f.message)


def test_yaml001_tab_indentation(dilemme: Path) -> None:
    path = dilemme / "enveloppes.yaml"
    replace(path, "envelopes:\n  - id: 00\n", "envelopes:\n\t- id: 00\n")
    report = run_check(dilemme)
    f = one(report, "YAML001")
    assert_finding(f, "YAML001", "enveloppes.yaml", pos_of(path, "\t"))
    assert f.message.split(" … et ")[0] == (
        "YAML mal formé : un caractère qui ne peut pas commencer une valeur (une tabulation ? "
        "indentez avec des espaces ; sinon mettez le texte entre guillemets). " + YAML_HELP
    )


def test_yaml001_bad_indentation(dilemme: Path) -> None:
    path = dilemme / "enveloppes.yaml"
    replace(path, "    story: H12\n", "   story: H12\n")
    report = run_check(dilemme)
    f = one(report, "YAML001")
    assert_finding(f, "YAML001", "enveloppes.yaml", pos_of(path, "story: H12"))
    block = line_of(path, "- id: 00")
    assert f.message.split(" … et ")[0] == t(
        "yaml.malformed_in", what="un élément de liste mal aligné", line=block
    )


def test_yaml001_unquoted_colon(citadelle: Path) -> None:
    path = citadelle / "exploration.yaml"
    replace(path, "title: Une bourrasque de cendre", "title: Bourrasque: la cendre")
    report = run_check(citadelle)
    f = one(report, "YAML001")
    assert_finding(f, "YAML001", "exploration.yaml", pos_of(path, ": la cendre"))
    assert "un « : » inattendu" in f.message


def test_yaml001_not_utf8(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    text = read(path).replace("soupire Aldous", "soupire Aldous (écrit en Latin-1)")
    path.write_bytes(text.encode("latin-1"))
    report = run_check(citadelle)
    f = one(report, "YAML001")
    first = next(i for i, c in enumerate(text) if not c.isascii())  # the first byte >= 0x80
    line = text[:first].count("\n") + 1
    column = first - text.rfind("\n", 0, first)
    assert_finding(f, "YAML001", "paragraphes.yaml", (line, column))
    byte = f"{text[first].encode('latin-1')[0]:02X}"
    assert f.message.split(" … et ")[0] == t(
        "yaml.utf8", byte=byte, guess="Latin-1 (ISO-8859-1) ou Windows-1252"
    )


def test_yaml001_two_documents(citadelle: Path) -> None:
    path = citadelle / "citadelle.yaml"
    append(path, "---\nside_quests: []\n")
    report = run_check(citadelle)
    f = one(report, "YAML001")
    assert_finding(f, "YAML001", "citadelle.yaml", pos_of(path, "---"))
    assert "plusieurs documents" in f.message


def test_yaml001_broken_file_hides_only_itself(citadelle: Path) -> None:
    """A malformed file is reported once; the rest of the campaign is still checked."""
    replace(citadelle / "exploration.yaml", "zone: I\n", "zone: [I\n")
    report = run_check(citadelle)
    assert [f.file for f in with_code(report, "YAML001")] == ["exploration.yaml"]
    # the zone's only card is gone, nothing else is affected
    assert codes(report) == {"YAML001"}


def test_yaml001_control_character_points_at_its_line(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "Aldous retourne à son puits.", "Aldous retourne\x07 à son puits.")
    report = run_check(citadelle)
    f = one(report, "YAML001")
    assert (f.file, f.line) == ("paragraphes.yaml", line_of(path, "\x07"))


# --------------------------------------------------------------------------- YAML002


def test_yaml002_same_key_twice(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(
        path,
        "    title: La tour des astronomes\n",
        "    title: La tour des astronomes\n    title: L'observatoire\n",
    )
    report = run_check(dilemme)
    f = one(report, "YAML002")
    assert_finding(f, "YAML002", "cartes.yaml", pos_of(path, "title: L'observatoire"))
    first = line_of(path, "title: La tour des astronomes")
    assert f.message == t("yaml.duplicate_key", key="title", first=first)


# --------------------------------------------------------------------------- CAMP001


def test_camp001_folder_of_yaml_without_campaign_yaml(tmp_path: Path) -> None:
    content = tmp_path / "content"
    copy_base("citadelle", content)
    (content / "brouillons").mkdir()
    new_file(content / "brouillons", "idees.yaml", "paragraphs: []\n")
    report = run_check(content)
    f = one(report, "CAMP001")
    assert_finding(f, "CAMP001", "brouillons/campaign.yaml", (1, 1))
    assert "le dossier « brouillons » contient des fichiers YAML mais pas de campaign.yaml" in (
        f.message
    )
    assert codes(report) == {"CAMP001"}


def test_camp001_campaign_yaml_without_family(dilemme: Path) -> None:
    replace(dilemme / "campaign.yaml", "  family: dilemme\n", "")
    report = run_check(dilemme)
    f = one(report, "CAMP001")
    assert_finding(f, "CAMP001", "campaign.yaml", (1, 1))
    assert f.message == t("camp.no_family", families=", ".join(S.FAMILIES))
    assert all(family in f.message for family in ("citadelle", "dilemme"))
    assert codes(report) == {"CAMP001"}


def test_camp001_unknown_family(dilemme: Path) -> None:
    replace(dilemme / "campaign.yaml", "  family: dilemme\n", "  family: dilemne\n")
    report = run_check(dilemme)
    f = one(report, "CAMP001")
    assert_finding(f, "CAMP001", "campaign.yaml", (1, 1))


def test_camp001_campaign_without_start(citadelle: Path) -> None:
    path = citadelle / "campaign.yaml"
    replace(path, "  intro: source_tarie\n", "")
    report = run_check(citadelle)
    f = one(report, "CAMP001")
    assert_finding(f, "CAMP001", "campaign.yaml", pos_of(path, "campaign:"))
    # what is unreachable without a start follows from it, and is counted in its message
    assert f.message.startswith(t("camp.no_start", id="citadelle", what=CM["start"]) + " … et ")
    assert all(g.cause == f.where() for g in report.findings if g.code.startswith("GRAPH"))


# --------------------------------------------------------------------------- CAMP002


def test_camp002_unknown_section(citadelle: Path) -> None:
    path = citadelle / "citadelle.yaml"
    append(
        path,
        """
        side_quest:
          - id: caravane
            title: La caravane perdue
        """,
    )
    report = run_check(citadelle)
    f = one(report, "CAMP002")
    assert_finding(f, "CAMP002", "citadelle.yaml", pos_of(path, "side_quest:\n"))
    assert f.message.startswith(
        "section « side_quest » inconnue pour une campagne citadelle. "
        "Vouliez-vous dire « side_quests » ? Sections connues : "
    )
    assert codes(report) == {"CAMP002"}


def test_camp002_top_level_list(citadelle: Path) -> None:
    new_file(
        citadelle,
        "liste.yaml",
        """
        - id: 9
          text: Un paragraphe sans section.
        """,
    )
    report = run_check(citadelle)
    f = one(report, "CAMP002")
    assert_finding(f, "CAMP002", "liste.yaml", (1, 1))
    assert "ce fichier commence par une liste" in f.message


def test_camp002_campaign_section_outside_campaign_yaml(dilemme: Path) -> None:
    path = dilemme / "maisons.yaml"
    append(path, "campaign:\n  id: autre\n")
    report = run_check(dilemme)
    f = one(report, "CAMP002")
    assert_finding(f, "CAMP002", "maisons.yaml", pos_of(path, "campaign:"))
    assert f.message == t("camp.misplaced")


# --------------------------------------------------------------------------- FIELD001


def test_field001_missing_required_field(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(path, "    question: Ouvrir les greniers royaux aux affamés ?\n", "")
    report = run_check(dilemme)
    f = one(report, "FIELD001")
    assert_finding(f, "FIELD001", "cartes.yaml", pos_of(path, "id: D02"))
    assert f.node == "dilemma:D02"
    what = KINDS["dilemme"]["dilemma"].fields["question"].fr
    assert f.message == t("field.missing", path="dilemmas[1]", name="question", what=what)
    assert codes(report) == {"FIELD001"}


def test_field001_missing_id(citadelle: Path) -> None:
    path = citadelle / "citadelle.yaml"
    append(path, "- title: La caravane perdue\n", indent=2)
    report = run_check(citadelle)
    f = one(report, "FIELD001")
    assert_finding(f, "FIELD001", "citadelle.yaml", pos_of(path, "title: La caravane perdue"))
    assert f.message == t("field.missing_id", path="side_quests[1]", kind="quête secondaire")


def test_field001_arrow_without_zone_or_card(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "      - direction: north\n        zone: I\n", "      - direction: north\n")
    report = run_check(citadelle)
    f = with_code(report, "FIELD001")[0]
    assert_finding(f, "FIELD001", "aventure.yaml", pos_of(path, "direction: north"))
    names = "« zone » ou « card »"
    assert f.message == t("field.one_of", path="adventure_cards[0].arrows[0]", names=names)


# --------------------------------------------------------------------------- FIELD002


def test_field002_wrong_type(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "        cost: 3\n", "        cost: trois\n")
    report = run_check(citadelle)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "aventure.yaml", at(path, "cost: trois", "trois"))
    assert f.node == "adventure_card:102/green"
    assert f.message == t(
        "field.expected",
        path="adventure_cards[1].actions[0].cost",
        expected=t("expect.int"),
        got="« trois »",
    )


def test_field002_bad_enum(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "    type: quest_item\n", "    type: quest_iten\n")
    report = run_check(citadelle)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "aventure.yaml", at(path, "type: quest_iten", "quest_iten"))
    assert f.message.startswith(
        "adventure_cards[2].type : « quest_iten » n'est pas permis ici ; valeurs possibles : "
        "terrain, "
    )
    assert f.message.endswith("Vouliez-vous dire « quest_item » ?")


def test_field002_bad_id(citadelle: Path) -> None:
    path = citadelle / "exploration.yaml"
    replace(path, "  - id: 1\n", "  - id: un\n")
    report = run_check(citadelle)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "exploration.yaml", value_pos(path, "id: "))
    expected = t("field.id_int")
    assert f.message == t(
        "field.bad_id", path="exploration_cards[0]", expected=expected, got="« un »"
    )
    assert codes(report) == {"FIELD002"}


def test_field002_list_length(dilemme: Path) -> None:
    path = dilemme / "maisons.yaml"
    replace(path, "alignment: [moderation, opulence]", "alignment: [moderation]")
    report = run_check(dilemme)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "maisons.yaml", value_pos(path, "alignment: "))
    assert f.message == (
        "houses[0].alignment : il faut une liste d'exactement 2 éléments, pas un seul élément."
    )


def test_field002_number_out_of_range(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(path, "        - welfare: 2\n", "        - welfare: 12\n")
    report = run_check(dilemme)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "cartes.yaml", at(path, "welfare: 12", "12"))
    expected = t("expect.int_range", lo=t("expect.int_lo", n=-10), hi=t("expect.int_hi", n=10))
    path_ = "dilemmas[1].oui_da.effects[0].welfare"
    assert f.message == t("field.expected", path=path_, expected=expected, got="« 12 »")


def test_field002_unknown_effect(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "      - hope: 1\n", "      - hopes: 1\n")
    report = run_check(citadelle)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "aventure.yaml", pos_of(path, "hopes: 1"))
    assert "effet « hopes » inconnu. Vouliez-vous dire « hope » ?" in f.message


def test_field002_section_not_a_list(citadelle: Path) -> None:
    path = citadelle / "exploration.yaml"
    write(path, "exploration_cards: aucune\n")
    report = run_check(citadelle)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "exploration.yaml", value_pos(path, "exploration_cards: "))
    assert "la section « exploration_cards » doit être une liste" in f.message


# --------------------------------------------------------------------------- FIELD003


def test_field003_unknown_field_is_a_warning(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(path, "    title: Le trône vide\n", "    title: Le trône vide\n    titre: Le trône\n")
    report = run_check(dilemme)
    f = one(report, "FIELD003")
    assert_finding(f, "FIELD003", "cartes.yaml", pos_of(path, "titre:"))
    assert f.severity == "warning"
    hint = t("hint", word="title")
    assert f.message == t("field.unknown", path="story_cards[0]", name="titre", hint=hint)
    assert "« titre »" in f.message and "« title »" in f.message
    assert codes(report) == {"FIELD003"}
    assert report.ok  # a warning alone does not fail the check


def test_a_misspelt_optional_field_is_an_error_read_as_that_field(dilemme: Path) -> None:
    """Issue 31: « signatur: true » was a warning while the card silently lost its signature."""
    path = dilemme / "cartes.yaml"
    replace(path, "    title: Le trône vide\n", "    title: Le trône vide\n    signatur: true\n")
    report = run_check(dilemme)
    f = one(report, "FIELD002")
    assert_finding(f, "FIELD002", "cartes.yaml", pos_of(path, "signatur:"))
    assert f.severity == "error" and f.node == "story_card:H00"
    what = KINDS["dilemme"]["story_card"].fields["signature"].fr
    assert f.message == (
        f"story_cards[0] : champ « signatur » inconnu : c'est sans doute le champ « signature » "
        f"({what}) ; il est lu ici comme « signature », au lieu d'être ignoré. Corrigez le nom "
        "du champ."
    )
    assert codes(report) == {"FIELD002"}
    card = next(r for r in report.campaigns[0].records if r.node == "story_card:H00")
    assert card.data["signature"] is True  # its value is not dropped


# --------------------------------------------------------------------------- REF001


def test_ref001_envelope(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(
        path, "        - knowledge: -1\n", "        - knowledge: -1\n        - open_envelope: 13\n"
    )
    report = run_check(dilemme)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "cartes.yaml", at(path, "open_envelope: 13", "13"))
    assert f.node == "outcome:D03/nenni"
    assert f.message == (
        "dilemmas[2].nenni.effects[1].open_envelope renvoie à enveloppe « 13 », introuvable. "
        "Ajoutez cet élément (section « envelopes ») ou corrigez la référence."
    )
    assert codes(report) == {"REF001"}


def test_ref001_paragraph(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "        read: 3\n", "        read: 4\n")
    report = run_check(citadelle)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "paragraphes.yaml", at(path, "read: 4", "4"))
    assert f.message == (
        "paragraphs[0].choices[1].read renvoie à paragraphe « 4 », introuvable. "
        "Ajoutez cet élément (section « paragraphs ») ou corrigez la référence."
    )


def test_ref001_adventure_card(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "        card: 102\n", "        card: 999\n")
    report = run_check(citadelle)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "aventure.yaml", value_pos(path, "card: "))
    assert f.node == "adventure_card:101/green"
    assert f.message == (
        "adventure_cards[0].arrows[1].card renvoie à carte Aventure « 999 », introuvable. "
        "Ajoutez cet élément (section « adventure_cards ») ou corrigez la référence."
    )
    # card 102 and what follows it are now cut off from the start
    assert "GRAPH003" in codes(report) or "GRAPH001" in codes(report)


def test_ref001_side_quest(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "    side_quest: puits_sorgue\n", "    side_quest: puits_sorge\n")
    report = run_check(citadelle)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "paragraphes.yaml", value_pos(path, "side_quest: "))
    assert f.message == (
        "paragraphs[0].side_quest renvoie à quête secondaire « puits_sorge », introuvable. "
        "Vouliez-vous dire « puits_sorgue » ? Ajoutez cet élément (section « side_quests ») ou "
        "corrigez la référence."
    )
    assert codes(report) == {"REF001"}


def test_ref001_arc(dilemme: Path) -> None:
    path = dilemme / "autocollants.yaml"
    replace(path, "    arc: riviere\n", "    arc: rivière\n")
    report = run_check(dilemme)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "autocollants.yaml", at(path, "arc: rivière", "rivière"))
    assert f.node == "secret_sticker:B"
    assert f.message == (
        "secret_stickers[1].arc renvoie à arc narratif « rivière », introuvable. "
        "Vouliez-vous dire « riviere » ? Ajoutez cet élément (section « arcs ») ou corrigez la "
        "référence."
    )
    assert codes(report) == {"REF001"}


def test_ref001_condition_item(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "requires: {item: 150}", "requires: {item: 151}")
    report = run_check(citadelle)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "paragraphes.yaml", value_pos(path, "{item: "))


def test_ref001_campaign_start(citadelle: Path) -> None:
    path = citadelle / "campaign.yaml"
    replace(path, "  intro: source_tarie\n", "  intro: source_tarrie\n")
    report = run_check(citadelle)
    f = one(report, "REF001")
    assert_finding(f, "REF001", "campaign.yaml", value_pos(path, "intro: "))
    assert f.message.startswith(
        "campaign.intro renvoie à scénario source_tarrie, qui n'existe pas. "
        "Définissez cet élément ou corrigez le départ. … et "
    )
    assert report.findings[0] is f


# --------------------------------------------------------------------------- ID001


def test_id001_same_id_in_two_files(dilemme: Path) -> None:
    first = dilemme / "cartes.yaml"
    second = new_file(
        dilemme,
        "doublons.yaml",  # sorted after cartes.yaml: read second
        """
        story_cards:
          - id: H12
            arc: riviere
            title: Les eaux montent encore
            text: Une seconde version de la même carte.
        """,
    )
    report = run_check(dilemme)
    f = one(report, "ID001")
    assert_finding(f, "ID001", "doublons.yaml", value_pos(second, "id: "))
    assert f.node == "story_card:H12"
    first_line = line_of(first, "id: H12")
    assert f.message == (
        f"l'identifiant « H12 » (carte Histoire) est utilisé deux fois : la première fois dans "
        f"cartes.yaml ligne {first_line}. Donnez un autre identifiant à cet élément, ou "
        "supprimez l'un des deux."
    )
    assert codes(report) == {"ID001"}


def test_id001_in_a_content_folder_names_the_campaign_path(content: Path) -> None:
    folder = content / "citadelle"
    new_file(
        folder,
        "zz_paragraphes.yaml",
        """
        paragraphs:
          - id: 3
            text: Un autre paragraphe 3.
            end: true
        """,
    )
    report = run_check(content)
    f = one(report, "ID001")
    assert_finding(
        f,
        "ID001",
        "citadelle/zz_paragraphes.yaml",
        value_pos(folder / "zz_paragraphes.yaml", "id: "),
    )
    line = line_of(folder / "paragraphes.yaml", "id: 3")
    assert f"la première fois dans citadelle/paragraphes.yaml ligne {line}." in f.message


def test_id001_adventure_card_same_number_and_version(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    append(
        path,
        """
          - number: 150
            type: purse
            title: Une autre manivelle
        """,
        indent=2,
    )
    report = run_check(citadelle)
    f = one(report, "ID001")
    assert_finding(f, "ID001", "aventure.yaml", at(path, "number: 150", "150", nth=2))


# --------------------------------------------------------------------------- GRAPH001 / GRAPH003


def test_graph001_unreachable(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    append(
        path,
        """
          - id: 4
            text: Un souvenir qu'aucun dialogue n'évoque.
            choices:
              - text: Continuer.
                read: 5
          - id: 5
            text: La suite de ce souvenir.
            end: true
        """,
        indent=2,
    )
    report = run_check(citadelle)
    f = one(report, "GRAPH001")
    assert_finding(f, "GRAPH001", "paragraphes.yaml", at(path, "id: 5", "5"))
    assert f.node == "paragraph:5"
    assert f.message == (
        "inatteignable : paragraphe 5. On n'y arrive que depuis paragraphe 4, que rien "
        "n'atteint depuis le départ de la campagne. Reliez cet élément à du contenu atteignable "
        "ou supprimez-le."
    )
    orphan = one(report, "GRAPH003")
    assert_finding(orphan, "GRAPH003", "paragraphes.yaml", at(path, "id: 4", "4"))
    assert report.stats()["unreachable"] == 2


def test_graph003_never_referenced_is_a_warning(dilemme: Path) -> None:
    path = dilemme / "cartes.yaml"
    replace(
        path,
        "event_cards:\n",
        "  - id: I02\n    title: Le colporteur\n    text: Un colporteur vend des almanachs.\n\n"
        "event_cards:\n",
    )
    report = run_check(dilemme)
    f = one(report, "GRAPH003")
    assert_finding(f, "GRAPH003", "cartes.yaml", at(path, "id: I02", "I02"))
    assert f.severity == "warning"
    assert f.message == t("graph.orphan", node="carte Immédiat I02")
    assert codes(report) == {"GRAPH003"}
    assert report.ok


# --------------------------------------------------------------------------- GRAPH002


def test_graph002_paragraph_without_way_on(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "retourne à son puits.\n    end: true\n", "retourne à son puits.\n")
    report = run_check(citadelle)
    f = one(report, "GRAPH002")
    assert_finding(f, "GRAPH002", "paragraphes.yaml", at(path, "id: 2\n", "2"))
    assert f.node == "paragraph:2"
    fix = CM["dead_end.paragraph"]
    assert f.message == t("graph.dead_end", node="paragraphe 2", fix=fix)
    assert codes(report) == {"GRAPH002"}


def test_graph002_empty_envelope(dilemme: Path) -> None:
    env = dilemme / "enveloppes.yaml"
    append(env, "- id: 20\n  title: Une enveloppe oubliée\n", indent=2)
    replace(
        dilemme / "cartes.yaml",
        "        - knowledge: -1\n",
        "        - knowledge: -1\n        - open_envelope: 20\n",
    )
    report = run_check(dilemme)
    f = one(report, "GRAPH002")
    assert_finding(f, "GRAPH002", "enveloppes.yaml", at(env, "id: 20", "20"))
    assert f.node == "envelope:20"
    assert f.message == t("graph.dead_end", node="enveloppe 20", fix=DM["dead_end.envelope"])
    assert codes(report) == {"GRAPH002"}


def test_graph002_exploration_card_without_action(citadelle: Path) -> None:
    path = citadelle / "exploration.yaml"
    edit_yaml(path, lambda data: data["exploration_cards"][0].pop("actions"))
    assert "actions" not in read(path)
    report = run_check(citadelle)
    f = one(report, "GRAPH002")
    assert_finding(f, "GRAPH002", "exploration.yaml", value_pos(path, "id: "))
    fix = CM["dead_end.exploration_card"]
    assert f.message == t("graph.dead_end", node="carte Exploration 1", fix=fix)
    assert codes(report) == {"GRAPH002"}


# --------------------------------------------------------------------------- COND001


def _cond(report, file: str) -> Finding:
    f = one(report, "COND001")
    assert f.file == file
    assert f.severity == "error"
    return f


def test_cond001_flag_never_set(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "{flag: portes_ouvertes}", "{flag: porte_ouverte}")
    report = run_check(citadelle)
    f = _cond(report, "paragraphes.yaml")
    assert (f.line, f.column) == value_pos(path, "{flag: ")
    why = t("cond.flag", value="porte_ouverte")
    assert f.message == t("cond.never", path="paragraphs[0].choices[0].requires.flag", why=why)
    assert codes(report) == {"COND001"}


def test_cond001_quest_state_never_reached(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "{flag: portes_ouvertes}", "{quest: {id: puits_sorgue, state: primed}}")
    report = run_check(citadelle)
    f = _cond(report, "paragraphes.yaml")
    assert (f.line, f.column) == value_pos(path, "{quest: ")
    why = t("cond.quest", id="puits_sorgue", state="primed")
    assert f.message == t("cond.never", path="paragraphs[0].choices[0].requires.quest", why=why)


def test_cond001_objective_never_marked(citadelle: Path) -> None:
    replace(citadelle / "paragraphes.yaml", "      - objective: pompe_reparee\n", "")
    report = run_check(citadelle)
    path = citadelle / "scenarios.yaml"
    f = _cond(report, "scenarios.yaml")
    assert (f.line, f.column) == value_pos(path, "{objective: ")
    assert f.node == "epilogue:source_tarie/victoire"
    why = t("cond.objective", value="pompe_reparee")
    path_ = "scenarios[0].epilogue[0].requires.objective"
    assert f.message == t("cond.never", path=path_, why=why)


def test_cond001_item_that_is_a_terrain(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "{item: 150}", "{item: 102}")
    report = run_check(citadelle)
    f = _cond(report, "paragraphes.yaml")
    assert (f.line, f.column) == value_pos(path, "{item: ")
    why = CM["cond.item_type"].format(value="102", type="terrain")
    assert f.message == t("cond.never", path="paragraphs[0].choices[1].requires.item", why=why)


def test_cond001_score_above_25(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "{flag: portes_ouvertes}", "{score: {defense: 30}}")
    report = run_check(citadelle)
    f = _cond(report, "paragraphes.yaml")
    assert (f.line, f.column) == value_pos(path, "{score: ")
    why = CM["cond.score"].format(name="defense", max=25, need=30)
    assert f.message == t("cond.never", path="paragraphs[0].choices[0].requires.score", why=why)


def test_cond001_grand_final_needs_more_secret_stickers(dilemme: Path) -> None:
    path = dilemme / "campaign.yaml"
    replace(path, "  rules:\n    secret_stickers_for_final: 2\n", "")
    report = run_check(dilemme)
    f = _cond(report, "campaign.yaml")
    assert (f.line, f.column) == value_pos(path, "grand_final: ")
    assert f.message == DM["cond.grand_final"].format(final="70", need=6, count=2)


def test_cond001_any_with_one_possible_alternative_is_fine(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(
        path,
        "{flag: portes_ouvertes}",
        "{any: [{flag: portes_ouvertes}, {flag: jamais_pose}]}",
    )
    assert run_check(citadelle).findings == []


def test_cond001_any_with_no_possible_alternative(citadelle: Path) -> None:
    path = citadelle / "paragraphes.yaml"
    replace(path, "{flag: portes_ouvertes}", "{any: [{flag: jamais_pose}, {item: 102}]}")
    report = run_check(citadelle)
    f = _cond(report, "paragraphes.yaml")
    assert (f.line, f.column) == value_pos(path, "{any: ")
    reasons = " / ".join(
        [
            t("cond.flag", value="jamais_pose"),
            CM["cond.item_type"].format(value="102", type="terrain"),
        ]
    )
    why = t("cond.any", reasons=reasons)
    assert f.message == t("cond.never", path="paragraphs[0].choices[0].requires.any", why=why)


# --------------------------------------------------------------------------- OBJ001


def test_obj001_too_few_secret_objectives_for_the_biggest_table(tmp_path: Path) -> None:
    """The shipped campaign seats five houses: with two of its six objectives gone, the set-up
    could not deal them (five drafted after one is put aside)."""
    import shutil

    folder = tmp_path / "content"
    shutil.copytree(REPO_ROOT / "content" / "dilemme", folder / "dilemme")
    path = folder / "dilemme" / "objectifs.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: opportunism")
    path.write_text(text[:start].rstrip() + "\n", encoding="utf-8")
    report = run_check(folder)
    f = one(report, "OBJ001")
    assert_finding(f, "OBJ001", "dilemme/objectifs.yaml", value_pos(path, "  - id: ", 1))
    has = t("objectives.some", n=4)
    assert f.message == t("objectives.few", has=has, houses=5, need=6, missing=2)


def test_obj001_counts_at_most_five_houses_and_none_below_three(dilemme: Path) -> None:
    """A table seats five houses at most: six objectives are enough for any campaign."""
    from engine.dilemme.content import _enough_objectives

    class View:
        def __init__(self, houses: int, objectives: int) -> None:
            self.rows = [(f"house:{i}", "house", {}) for i in range(houses)] + [
                (f"secret_objective:{i}", "secret_objective", {}) for i in range(objectives)
            ]

        def records(self):
            return self.rows

    assert _enough_objectives(View(7, 6)) == []  # type: ignore[arg-type]
    [issue] = _enough_objectives(View(7, 5))  # type: ignore[arg-type]
    assert "5 Maisons en demande 6" in issue.message and issue.node == "secret_objective:0"
    assert _enough_objectives(View(2, 0)) == []  # type: ignore[arg-type]
    [issue] = _enough_objectives(View(3, 0))  # type: ignore[arg-type]
    assert issue.node is None and issue.field == "title"
    assert "n'a aucun Objectif secret" in issue.message and "demande 4" in issue.message
    [issue] = _enough_objectives(View(3, 1))  # type: ignore[arg-type]
    assert "n'a qu'un Objectif secret" in issue.message and "Ajoutez-en 3" in issue.message


# --------------------------------------------------------------------------- HIDDEN001 / 002


def test_hidden001_two_digits(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "hidden_numbers: [205]", "hidden_numbers: [20]")
    report = run_check(citadelle)
    f = one(report, "HIDDEN001")
    assert_finding(f, "HIDDEN001", "aventure.yaml", value_pos(path, "hidden_numbers: ["))
    assert f.message == t("hidden.digits", path="adventure_cards[0].hidden_numbers[0]", raw="20")
    # there is no card 20 either, and card 205 is no longer found
    assert "REF001" in codes(report)


def test_hidden001_four_digits(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "hidden_numbers: [205]", "hidden_numbers: [0205]")
    report = run_check(citadelle)
    f = one(report, "HIDDEN001")
    assert_finding(f, "HIDDEN001", "aventure.yaml", value_pos(path, "hidden_numbers: ["))
    assert f.message == t("hidden.digits", path="adventure_cards[0].hidden_numbers[0]", raw="0205")
    assert codes(report) == {"HIDDEN001"}


def test_hidden002_target_without_back_source(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "    back_source: 101\n", "")
    report = run_check(citadelle)
    f = one(report, "HIDDEN002")
    assert_finding(f, "HIDDEN002", "aventure.yaml", value_pos(path, "hidden_numbers: ["))
    assert f.node == "adventure_card:101/green"
    assert f.message == t(
        "hidden.back",
        path="adventure_cards[0].hidden_numbers[0]",
        key="205",
        source="carte Aventure 101 (green)",
        got=t("hidden.back_none"),
        number=101,
    )
    assert codes(report) == {"HIDDEN002"}


def test_hidden002_target_with_a_wrong_back_source(citadelle: Path) -> None:
    path = citadelle / "aventure.yaml"
    replace(path, "    back_source: 101\n", "    back_source: 102\n")
    report = run_check(citadelle)
    f = one(report, "HIDDEN002")
    assert_finding(f, "HIDDEN002", "aventure.yaml", value_pos(path, "hidden_numbers: ["))
    assert f.message == t(
        "hidden.back",
        path="adventure_cards[0].hidden_numbers[0]",
        key="205",
        source="carte Aventure 101 (green)",
        got=t("hidden.back_other", back=102),
        number=101,
    )


# --------------------------------------------------------------------------- every code covered


def test_every_code_has_a_test_here() -> None:
    here = Path(__file__).parent
    # the simulation's codes are tested with the simulator, in test_simulate.py; the codes of
    # ``check --against`` with the saves they protect, in test_safe_updates.py
    files = (
        "test_findings.py",
        "test_simulate.py",
        "test_missing_checks.py",
        "test_safe_updates.py",
        "test_spelling.py",
    )
    source = "".join((here / name).read_text(encoding="utf-8") for name in files)
    for code in CODES:
        assert f"def test_{code.lower()}_" in source, code


# ------------------------------------------------------------- former bugs (regression tests)


def test_regression_quest_effect_without_state_is_a_finding(citadelle: Path) -> None:
    replace(
        citadelle / "paragraphes.yaml",
        "- quest: {id: puits_sorgue, state: done}",
        "- quest: {id: puits_sorgue}",
    )
    report = run_check(citadelle)
    assert "FIELD001" in codes(report)


def test_regression_quest_condition_without_state_is_a_finding(citadelle: Path) -> None:
    replace(
        citadelle / "paragraphes.yaml",
        "{flag: portes_ouvertes}",
        "{quest: {id: puits_sorgue}}",
    )
    report = run_check(citadelle)
    assert "FIELD001" in codes(report)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("  - id: 2\n", '  - id: "²"\n', {"FIELD002"}),  # not a paragraph number
        ("    title: Le hameau de Sorgue\n", "    title: ²\n", set()),  # fine as a title
        ("        cost: 3\n", "        cost: " + "9" * 5000 + "\n", {"FIELD002"}),  # too long
    ],
    ids=["quoted-superscript", "plain-superscript", "5000-digits"],
)
def test_regression_digits_int_rejects_are_findings(
    citadelle: Path, old: str, new: str, expected: set[str]
) -> None:
    """'²'.isdigit() is True but int('²') fails: such text is text, never a crash."""
    path = next(p for p in citadelle.glob("*.yaml") if old in read(p))
    replace(path, old, new)
    report = run_check(citadelle)
    assert expected <= codes(report)
    assert expected or not [f for f in report.findings if f.severity == "error"]


def test_regression_content_below_a_dot_folder_is_read(tmp_path: Path) -> None:
    folder = copy_base("citadelle", tmp_path / ".cache")
    report = run_check(folder)
    assert report.findings == []


# ------------------------------------------------------------------ the cause before what follows


def _renamed_dilemma(dilemme: Path, new: str, declare: bool) -> Path:
    path = dilemme / "cartes.yaml"
    renamed = f"  - id: {new}\n" + ("    renamed_from: [D12]\n" if declare else "")
    replace(path, "  - id: D12\n", renamed)
    return path


def test_a_broken_reference_comes_first_with_what_only_follows_from_it_folded(dilemme: Path):
    """Issue 31: after a rename, the reference to the old id is the cause; the renamed card,
    unreachable and unreferenced, and its outcomes only follow from it."""
    from pipeline.story.formats import text

    _renamed_dilemma(dilemme, "D12-digue", declare=False)
    report = run_check(dilemme)
    ref = one(report, "REF001")
    assert_finding(ref, "REF001", "enveloppes.yaml", pos_of(dilemme / "enveloppes.yaml", "D12]"))
    follows = [f for f in report.findings if f.cause is not None]
    assert {(f.code, f.node) for f in follows} == {
        ("GRAPH003", "dilemma:D12-digue"),
        ("GRAPH001", "outcome:D12-digue/oui_da"),
        ("GRAPH001", "outcome:D12-digue/nenni"),
        ("GRAPH001", "secret_sticker:B"),  # stuck only by the renamed card's outcome
    }
    assert all(f.cause == "enveloppes.yaml:9:13 REF001" for f in follows), follows
    assert report.findings[0] is ref  # the cause first, though its file sorts after
    kinds = "carte Dilemme ou carte Immédiat ou carte Événement ou carte Histoire ou épilogue"
    sections = (
        "section « dilemmas » ou section « immediate_cards » ou section « event_cards » ou "
        "section « story_cards » ou section « epilogues »"
    )
    assert ref.message == (
        f"envelopes[1].cards[0] renvoie à {kinds} « D12 », introuvable. Vouliez-vous dire "
        f"« D12-digue » ? Ajoutez cet élément ({sections}) ou corrigez la référence. … et 4 "
        "autres constats qui en découlent, à revoir une fois cette erreur corrigée."
    )
    lines = text(report).splitlines()
    assert " error REF001 " in lines[0]
    assert not any(" GRAPH001 " in line or " GRAPH003 " in line for line in lines)
    # JSON keeps every finding, each consequence with its cause
    shown = {f["code"]: f for f in report.to_json()["findings"] if "cause" in f}
    assert set(shown) == {"GRAPH001", "GRAPH003"}
    assert "cause" not in report.to_json()["findings"][0]


def test_a_broken_reference_suggests_the_id_renamed_from_it(dilemme: Path):
    """``renamed_from`` names the new id however far its spelling is from the old one."""
    _renamed_dilemma(dilemme, "la-digue-rompue", declare=True)
    report = run_check(dilemme)
    ref = one(report, "REF001")
    assert " Vouliez-vous dire « la-digue-rompue » ? " in ref.message
    assert {f.node for f in report.findings if f.cause} == {
        "dilemma:la-digue-rompue", "outcome:la-digue-rompue/oui_da",
        "outcome:la-digue-rompue/nenni", "secret_sticker:B",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("  start_envelope: 00\n", "  start_envelope: zero\n", "CAMP001"),  # dropped: no start
        ("  start_envelope: 00\n", "  start_envelope: 99\n", "REF001"),  # names nothing
        ("  start_envelope: 00\n", "  start_envelope:\n", "CAMP001"),  # left empty
    ],
    ids=["not-a-number", "to-nothing", "empty"],
)
def test_a_broken_start_comes_first_with_everything_unreachable_folded(
    dilemme: Path, old: str, new: str, code: str
):
    """Review of issue 31: with no start, nothing of the story is reachable; the start's
    finding leads, the unreachable records and the conditions follow from it (JSON keeps them,
    each with its cause, the text shows the start alone)."""
    from pipeline.story.formats import text

    path = dilemme / "campaign.yaml"
    replace(path, old, new)
    report = run_check(dilemme)
    start = one(report, code)
    assert start.file == "campaign.yaml" and start.node == "campaign:dilemme"
    follows = [f for f in report.findings if f.cause is not None]
    assert len(follows) > 10
    assert all(f.cause == start.where() for f in follows), follows
    assert {f.code for f in follows} >= {"GRAPH001", "GRAPH003"}
    assert not [f for f in report.findings if f.code.startswith("GRAPH") and f.cause is None]
    assert report.findings[0] is start
    more = t("fold.more_error", what=t("fold.others", n=len(follows)))
    assert start.message.endswith(more), start.message
    lines = text(report).splitlines()
    assert f" error {code} " in lines[0]
    assert not any(" GRAPH00" in line for line in lines)
    assert f" (dont {len(follows)} repliés sous leur cause) — " in lines[-1]


def test_a_broken_start_folds_in_the_citadel_too(citadelle: Path):
    path = citadelle / "campaign.yaml"
    replace(path, "  intro: source_tarie\n", "  intro: [source_tarie, autre]\n")
    report = run_check(citadelle)
    start = one(report, "CAMP001")
    assert report.findings[0] is start
    assert "FIELD002" in codes(report)  # the value's own mistake, at the same place
    follows = [f for f in report.findings if f.cause is not None]
    assert follows and all(f.cause == start.where() for f in follows)
    assert not [f for f in report.findings if f.code.startswith("GRAPH") and f.cause is None]


def test_the_start_fixed_again_the_folded_findings_are_gone(dilemme: Path):
    path = dilemme / "campaign.yaml"
    replace(path, "  start_envelope: 00\n", "  start_envelope: 99\n")
    assert any(f.cause for f in run_check(dilemme).findings)
    replace(path, "  start_envelope: 99\n", "  start_envelope: 00\n")
    assert run_check(dilemme).findings == []


def test_a_condition_on_a_card_only_a_broken_file_takes_is_folded_under_it(tmp_path: Path):
    """Review of issue 31: in the shipped Citadel, card 206 is taken only in a dialogue file;
    with that file broken, « la carte 206 n'est jamais atteignable » only follows from it."""
    root = Path(__file__).resolve().parent.parent
    folder = tmp_path / "citadelle"
    shutil.copytree(root / "content" / "citadelle", folder)
    path = folder / "dialogues-c1-pluie-grise.yaml"
    lines = read(path).splitlines(keepends=True)
    assert lines[16].startswith("        ")
    lines[16] = "\t" + lines[16][8:]
    path.write_text("".join(lines), encoding="utf-8")
    report = run_check(folder)
    assert [f.code for f in report.findings] == ["YAML001"], [f.message for f in report.findings]
    assert "découlent" in report.findings[0].message
