"""``gamebook check --spelling``: French spelling of what players read (SPELL001 warnings),
with Hunspell's French dictionary and a project word list."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import CAMPAIGNS, copy_base, pos_of, read, run_cli, write

from engine.core import registry
from pipeline.story import spelling

ROOT = Path(__file__).resolve().parent.parent

#: CI installs Hunspell (.ci/run): there the spelling tests never skip
needs_hunspell = pytest.mark.skipif(
    (shutil.which("hunspell") is None or not Path("/usr/share/hunspell/fr_FR.dic").exists())
    and not os.environ.get("CI"),
    reason="Hunspell and its French dictionary (Debian: hunspell hunspell-fr) are not installed",
)


def spell(folder: Path) -> list[dict]:
    code, out, err = run_cli(["check", str(folder), "--format", "json", "--spelling"])
    assert code in (0, 1), err
    return [f for f in json.loads(out)["findings"] if f["code"] == "SPELL001"]


def a_text_line(folder: Path) -> tuple[Path, str]:
    """The first one-line ``text: ...`` of a content file (whatever the game)."""
    for path in sorted(folder.glob("*.yaml")):
        for line in read(path).splitlines():
            if re.match(r"^ +text: [A-Za-zÀ-ÿ«]", line) and not line.rstrip().endswith((">-", "|")):
                return path, line
    raise AssertionError(folder)


@needs_hunspell
@pytest.mark.parametrize("campaign", CAMPAIGNS)
def test_spell001_a_typo_is_a_warning_at_its_word(tmp_path: Path, campaign: str) -> None:
    folder = copy_base(campaign, tmp_path)
    assert spell(folder) == []  # the base fixtures spell well
    path, line = a_text_line(folder)
    write(path, read(path).replace(line, line + " Bonjuor", 1))
    (f,) = spell(folder)
    assert (f["file"], f["severity"]) == (path.name, "warning")
    assert (f["line"], f["column"]) == pos_of(path, "Bonjuor")
    assert "« Bonjuor » n'est pas dans le dictionnaire français" in f["message"]
    assert "« Bonjour »" in f["message"]  # Hunspell's suggestion


@needs_hunspell
def test_ligatures_and_rare_words_are_french(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    path, line = a_text_line(folder)
    extra = " Le cœur de ma sœur, l'œil du bœuf ; une escarcelle, un palefroi, l’aïeule."
    write(path, read(path).replace(line, line + extra, 1))
    assert spell(folder) == []


@needs_hunspell
def test_the_word_list_accepts_invented_names_with_elision(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    path, line = a_text_line(folder)
    write(
        path, read(path).replace(line, line + " La fille d'Ysmérande quitte Ysmérande-la-Haute.", 1)
    )
    assert {re.search(r"« (\S+) »", f["message"]).group(1) for f in spell(folder)} == {
        "d'Ysmérande",
        "Ysmérande-la-Haute",
    }
    write(folder / "mots.txt", read(folder / "mots.txt") + "Ysmérande\n")
    assert spell(folder) == []


@needs_hunspell
def test_a_word_in_a_folded_block_is_found_on_its_own_line(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[1], tmp_path)
    path, line = a_text_line(folder)
    indent = line[: len(line) - len(line.lstrip())]
    block = (
        f"{indent}text: >-\n{indent}  Une première ligne bien écrite,\n"
        f"{indent}  puis une fôte ici.\n"
    )
    write(path, read(path).replace(line + "\n", block, 1))
    (f,) = spell(folder)
    assert (f["line"], f["column"]) == pos_of(path, "fôte")


#: every registered game that reads content (``Game.content``), found in the registry
GAMES = [g.id for g in registry.games() if g.content is not None]


@needs_hunspell
def test_shipped_campaigns_pass() -> None:
    assert spell(ROOT / "content") == []


@needs_hunspell
@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_shipped_text_spells_well_and_a_typo_is_found(
    tmp_path: Path, game: str
) -> None:
    """CI runs the spelling check over every game's shipped content: it passes (with at most a
    short word list), and a typo slipped into one of its texts is one warning at its word."""
    folder = tmp_path / game
    shutil.copytree(ROOT / "content" / game, folder)
    words = folder / spelling.WORDLIST
    if words.exists():
        listed = [w for w in read(words).splitlines() if w.strip() and not w.startswith("#")]
        assert len(listed) <= 60, "la liste de mots d'un jeu reste courte"
    assert spell(folder) == []
    text = re.compile(r"^( +(?:- )?\w+: )([\"']?)([A-Za-zÀ-ÿ«][^\"'#:]* [^\"#:]*[^\"'#: ])\2$")
    for path in sorted(folder.glob("*.yaml")):
        lines = read(path).split("\n")
        for i, line in enumerate(lines):
            m = text.match(line)
            if m:
                lines[i] = f"{m[1]}{m[2]}{m[3]} Bonjuor{m[2]}"
                write(path, "\n".join(lines))
                (f,) = spell(folder)
                assert (f["file"], f["severity"]) == (path.name, "warning")
                assert (f["line"], f["column"]) == pos_of(path, "Bonjuor")
                assert "« Bonjuor » n'est pas dans le dictionnaire français" in f["message"]
                return
    raise AssertionError(f"aucun texte d'une ligne dans {game}")


def test_without_hunspell_the_command_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    monkeypatch.setattr(spelling.shutil, "which", lambda name: None)
    code, _, err = run_cli(["check", str(folder), "--spelling"])
    assert code == 2
    assert "apt-get install hunspell hunspell-fr" in err and "Traceback" not in err


def test_texts_are_strings_with_a_space() -> None:
    from pipeline.content.load import parse

    doc, _ = parse("a:\n  id: un_id\n  text: Deux mots\n  list: [x, y z]\n", "f")
    assert [(t, line, path) for t, line, _, path in spelling.texts(doc, doc.pos)] == [
        ("Deux mots", 3, "a.text"),
        ("y z", 4, "a.list[1]"),
    ]
