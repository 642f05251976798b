"""Broken campaigns written the way a writer breaks them, for every registered game's shipped
content: each mistake gives exactly one French finding at the writer's line, in the text, json
and github formats alike.

The mistakes are found from the game's content format (``Game.content``), never from a game's
name: a misspelt reference, the same id twice, a required field left out, a word where a number
belongs, a number out of its range, a misspelt word of a closed list fixed by the rules, a
misspelt word of a vocabulary the content declares, a YAML line the parser cannot read.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, one_in_every_format, read, run_cli, write, yaml_rt

from engine.core import registry
from engine.core import schema as CS
from pipeline import check
from pipeline import schema as S

GAMES = [g.id for g in registry.games() if g.content is not None]


def shipped(game: str, tmp_path: Path) -> Path:
    folder = tmp_path / game
    shutil.copytree(REPO_ROOT / "content" / game, folder)
    return folder


def test_every_game_with_content_ships_a_clean_campaign() -> None:
    assert GAMES
    for game in GAMES:
        report = check(REPO_ROOT / "content" / game)
        assert [c.family for c in report.campaigns] == [game]
        assert report.findings == [], game


# --------------------------------------------------------------------------- the writer's records


class Item:
    """One record as written: its file, its section's kind, its YAML mapping (round-trip, with
    positions) and its index in the section."""

    def __init__(self, path: Path, kind: CS.Kind, data: Any, items: Any, index: int) -> None:
        self.path, self.kind, self.data, self.items, self.index = path, kind, data, items, index

    def value_pos(self, key: str) -> tuple[int, int]:
        """1-based line and column where the value of ``key`` is written."""
        line, col = self.data.lc.value(key)
        return line + 1, col + 1

    def plain(self, key: str, quoted: bool = False) -> str | None:
        """The value of ``key`` if it is written plainly on its own line (``key: value``;
        also ``key: "value"`` when ``quoted``)."""
        line, col = self.value_pos(key)
        text = read(self.path).splitlines()[line - 1]
        rest = text[col - 1 :].split(" #")[0].rstrip()
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            return None
        if quoted and rest in (f'"{value}"', f"'{value}'"):
            return rest
        return rest if rest == str(value) and rest[:1].isalnum() else None


def items(folder: Path, game: str) -> Iterator[Item]:
    sections = S.SECTIONS[game]
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml_rt().load(read(path))
        if not isinstance(doc, dict):
            continue
        for name, value in doc.items():
            kind = sections.get(name)
            if kind is None or not isinstance(value, list):
                continue
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    yield Item(path, kind, item, value, i)


def edit_at(path: Path, line: int, col: int, old: str, new: str) -> None:
    lines = read(path).split("\n")
    text = lines[line - 1]
    assert text[col - 1 : col - 1 + len(old)] == old, (text, old)
    lines[line - 1] = text[: col - 1] + new + text[col - 1 + len(old) :]
    write(path, "\n".join(lines))


def typo(word: str) -> str:
    """A one-letter slip: the last two letters swapped (or one letter dropped)."""
    if len(word) >= 4 and word[-1] != word[-2]:
        return word[:-2] + word[-1] + word[-2]
    return word[:-1] if len(word) > 2 else word + "z"


def first(folder: Path, game: str, want: Any) -> tuple[Item, str, Any]:
    """The first ``(item, field, spec)`` of the shipped content that ``want`` accepts."""
    for item in items(folder, game):
        for name, fld in item.kind.fields.items():
            if name in item.data and want(item, name, fld):
                return item, name, fld.spec
    pytest.skip(f"rien de tel dans le format de « {game} »")


# --------------------------------------------------------------------------- the mistakes


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_reference(game: str, tmp_path: Path) -> None:
    """REF001, with the id meant; a reference to a record that others also name, so that the
    misspelling strands nothing."""
    folder = shipped(game, tmp_path)
    refs = check(folder).campaigns[0].refs
    named = Counter((r.key, r.kinds) for r in refs)
    for ref in refs:
        if ref.key == "this" or named[(ref.key, ref.kinds)] < 2:
            continue
        path = folder / ref.file
        line = read(path).split("\n")[ref.line - 1]
        if line[ref.column - 1 : ref.column - 1 + len(ref.key)] != ref.key:
            continue
        wrong = "987" if ref.key.isdigit() else typo(ref.key)
        edit_at(path, ref.line, ref.column, ref.key, wrong)
        message = one_in_every_format(folder, "REF001", ref.file, ref.line, ref.column)
        assert f"« {wrong} »" in message
        if not ref.key.isdigit():
            assert f"Vouliez-vous dire « {ref.key} » ?" in message
        return
    pytest.skip(f"le format de « {game} » n'a pas de référence")


@pytest.mark.parametrize("game", GAMES)
def test_the_same_id_twice(game: str, tmp_path: Path) -> None:
    """ID001 at the copy, naming the first one's line: a record copied and pasted below itself."""
    folder = shipped(game, tmp_path)
    for item in items(folder, game):
        nested = any(isinstance(f.spec, CS.SubNodes) for f in item.kind.fields.values())
        if nested or item.index + 1 >= len(item.items) or "id" not in item.data:
            continue
        start = item.items.lc.item(item.index)[0]
        end = item.items.lc.item(item.index + 1)[0]
        lines = read(item.path).split("\n")
        write(item.path, "\n".join(lines[:end] + lines[start:end] + lines[end:]))
        id_line, id_col = item.value_pos("id")
        rel = item.path.name
        copy = id_line + end - start
        message = one_in_every_format(folder, "ID001", rel, copy, id_col)
        assert f"{rel} ligne {id_line}" in message
        return
    pytest.skip(f"aucune section à plusieurs éléments dans « {game} »")


@pytest.mark.parametrize("game", GAMES)
def test_a_required_field_left_out(game: str, tmp_path: Path) -> None:
    """FIELD001 naming the field, at the record that lacks it."""
    folder = shipped(game, tmp_path)

    def want(item: Item, name: str, fld: CS.Field) -> bool:
        return (
            name != "id"
            and fld.required
            and isinstance(fld.spec, CS.Str)
            and bool(item.plain(name, quoted=True))
        )

    item, name, _ = first(folder, game, want)
    line = item.value_pos(name)[0]
    lines = read(item.path).split("\n")
    write(item.path, "\n".join(lines[: line - 1] + lines[line:]))
    rel = item.path.name
    _, out, _ = run_cli(["check", str(folder), "--format", "json"])
    (f,) = json.loads(out)["findings"]
    assert f["code"] == "FIELD001" and f["file"] == rel, f
    start = item.items.lc.item(item.index)[0] + 1
    assert start <= f["line"] < line, (f, start, line)
    message = one_in_every_format(folder, "FIELD001", rel, f["line"], f["column"])
    assert f"champ obligatoire « {name} » absent" in message


def _int_field(item: Item, name: str, fld: CS.Field) -> bool:
    return (
        name not in ("id", item.kind.resolve_by)
        and isinstance(fld.spec, CS.Int)
        and (fld.spec.max is not None or fld.spec.min is not None)
        and bool(item.plain(name))
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_word_where_a_number_belongs(game: str, tmp_path: Path) -> None:
    folder = shipped(game, tmp_path)
    item, name, _ = first(folder, game, _int_field)
    line, col = item.value_pos(name)
    edit_at(item.path, line, col, str(item.data[name]), "beaucoup")
    message = one_in_every_format(folder, "FIELD002", item.path.name, line, col)
    assert "il faut un nombre entier, pas « beaucoup »" in message


@pytest.mark.parametrize("game", GAMES)
def test_a_number_out_of_its_range(game: str, tmp_path: Path) -> None:
    folder = shipped(game, tmp_path)
    item, name, spec = first(folder, game, _int_field)
    line, col = item.value_pos(name)
    wrong = spec.max + 1 if spec.max is not None else spec.min - 1
    edit_at(item.path, line, col, str(item.data[name]), str(wrong))
    message = one_in_every_format(folder, "FIELD002", item.path.name, line, col)
    assert f"« {wrong} »" in message and "nombre entier" in message


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_word_of_a_list_fixed_by_the_rules(game: str, tmp_path: Path) -> None:
    """FIELD002 listing the allowed words and suggesting the one meant."""
    folder = shipped(game, tmp_path)

    def want(item: Item, name: str, fld: CS.Field) -> bool:
        value = item.plain(name)
        return name != "id" and isinstance(fld.spec, CS.Enum) and bool(value) and len(value) > 3

    item, name, spec = first(folder, game, want)
    line, col = item.value_pos(name)
    word = item.data[name]
    edit_at(item.path, line, col, word, typo(word))
    message = one_in_every_format(folder, "FIELD002", item.path.name, line, col)
    assert f"« {typo(word)} » n'est pas permis ici" in message
    assert "valeurs possibles : " + ", ".join(spec.values) in message
    assert f"Vouliez-vous dire « {word} » ?" in message


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_word_of_a_declared_vocabulary(game: str, tmp_path: Path) -> None:
    """REF002, suggesting a declared word (a zone, a character's initial, a MOT-CLEF)."""
    folder = shipped(game, tmp_path)
    words = check(folder).campaigns[0].words
    declared = {(w.vocab, w.value) for w in words if w.declares}
    for w in words:
        if w.declares or (w.vocab, w.value) not in declared:
            continue
        path = folder / w.file
        line = read(path).split("\n")[w.line - 1]
        if line[w.column - 1 : w.column - 1 + len(w.value)] != w.value:
            continue
        wrong = w.value.lower() if w.value.isupper() else w.value + "x"
        edit_at(path, w.line, w.column, w.value, wrong)
        message = one_in_every_format(folder, "REF002", w.file, w.line, w.column)
        assert f"« {wrong} » ne fait pas partie des valeurs déclarées" in message
        assert f"Vouliez-vous dire « {w.value} » ?" in message
        return
    pytest.skip(f"aucun vocabulaire déclaré par le contenu de « {game} »")


@pytest.mark.parametrize("game", GAMES)
def test_a_line_yaml_cannot_read(game: str, tmp_path: Path) -> None:
    """A colon in an unquoted text: YAML001 at that line, and what the file's records would
    have answered (references, counts) folded under it."""
    folder = shipped(game, tmp_path)
    pattern = re.compile(r"^ +(?:- )?\w+: [A-Za-zÀ-ÿ][^:#\"\n]* [^:#\"\n]*$")
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "campaign.yaml":
            continue
        lines = read(path).split("\n")
        for i, text in enumerate(lines):
            if pattern.match(text):
                lines[i] = text + " : voilà"
                write(path, "\n".join(lines))
                _, out, _ = run_cli(["check", str(folder), "--format", "json"])
                (f,) = json.loads(out)["findings"]
                assert (f["code"], f["file"], f["line"]) == ("YAML001", path.name, i + 1), f
                one_in_every_format(folder, "YAML001", path.name, i + 1, f["column"])
                return
    pytest.skip(f"aucun texte d'une ligne dans « {game} »")


@pytest.mark.parametrize("game", GAMES)
def test_a_quote_left_open(game: str, tmp_path: Path) -> None:
    """A text whose closing quote is missing: YAML001 at the line where the quote was opened."""
    folder = shipped(game, tmp_path)
    pattern = re.compile(r'^ +(?:- )?\w+: "[^"\\]* [^"\\]*"$')
    for path in sorted(folder.glob("*.yaml")):
        lines = read(path).split("\n")
        for i, text in enumerate(lines):
            if pattern.match(text):
                lines[i] = text[:-1]
                write(path, "\n".join(lines))
                _, out, _ = run_cli(["check", str(folder), "--format", "json"])
                (f,) = json.loads(out)["findings"]
                assert (f["code"], f["file"], f["line"]) == ("YAML001", path.name, i + 1), f
                col = text.index('"') + 1
                message = one_in_every_format(folder, "YAML001", path.name, i + 1, f["column"])
                assert f["column"] == col and "guillemet" in message, message
                return
    pytest.skip(f"aucun texte entre guillemets dans « {game} »")


def _required_text(item: Item, name: str, fld: CS.Field) -> bool:
    return (
        name != "id"
        and fld.required
        and isinstance(fld.spec, CS.Str)
        and bool(item.plain(name, quoted=True))
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_required_field_s_name_misspelt(game: str, tmp_path: Path) -> None:
    """« txet: » for « text: »: one FIELD001 at the key, read as the field it must be."""
    folder = shipped(game, tmp_path)
    item, name, _ = first(folder, game, _required_text)
    line, col = item.data.lc.key(name)
    wrong = typo(name)
    edit_at(item.path, line + 1, col + 1, f"{name}:", f"{wrong}:")
    message = one_in_every_format(folder, "FIELD001", item.path.name, line + 1, col + 1)
    assert (
        f"champ « {wrong} » inconnu : c'est sans doute le champ obligatoire « {name} »" in message
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_id_s_name_misspelt(game: str, tmp_path: Path) -> None:
    """« di: » for « id: »: one finding; the record keeps its id, so nothing that names it
    breaks."""
    folder = shipped(game, tmp_path)
    for item in items(folder, game):
        if "id" in item.data and not item.kind.single:
            line, col = item.data.lc.key("id")
            edit_at(item.path, line + 1, col + 1, "id:", "di:")
            message = one_in_every_format(folder, "FIELD001", item.path.name, line + 1, col + 1)
            assert "« di » inconnu : c'est sans doute le champ obligatoire « id »" in message
            return
    pytest.skip(f"aucun élément à identifiant dans « {game} »")


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_id_from_a_list_fixed_by_the_rules(game: str, tmp_path: Path) -> None:
    """An id that must be one of the rules' own words (a character of the box), misspelt: one
    FIELD002 with the word meant; the game's counts (« personnage sans carte ») that follow
    from it are folded under it."""
    folder = shipped(game, tmp_path)
    for item in items(folder, game):
        spec = item.kind.fields["id"].spec if "id" in item.kind.fields else None
        word = item.plain("id") if isinstance(spec, CS.Enum) and "id" in item.data else None
        if word and len(word) > 3:
            line, col = item.value_pos("id")
            edit_at(item.path, line, col, word, typo(word))
            message = one_in_every_format(folder, "FIELD002", item.path.name, line, col)
            assert f"Vouliez-vous dire « {word} » ?" in message
            return
    pytest.skip(f"aucun identifiant pris dans une liste fixée par la règle dans « {game} »")


@pytest.mark.parametrize("game", GAMES)
def test_a_list_one_item_short(game: str, tmp_path: Path) -> None:
    """A list that must have a fixed length, one item short, in French that reads as French."""
    folder = shipped(game, tmp_path)
    for item in items(folder, game):
        for name, fld in item.kind.fields.items():
            spec = fld.spec
            value = item.data.get(name)
            if not (isinstance(spec, CS.ListOf) and spec.min_len > 1 and isinstance(value, list)):
                continue
            if len(value) != spec.min_len or not hasattr(value, "fa") or not value.fa.flow_style():
                continue
            line, col = item.value_pos(name)
            text = read(item.path).split("\n")[line - 1][col - 1 :]
            first_item = f"[{value[0]}, "
            if not text.startswith(first_item):
                continue
            edit_at(item.path, line, col, first_item, "[")
            message = one_in_every_format(folder, "FIELD002", item.path.name, line, col)
            assert f"il faut une liste d'exactement {spec.min_len} éléments" in message or (
                f"il faut une liste d'au moins {spec.min_len} éléments" in message
            )
            return
    pytest.skip(f"aucune liste de longueur fixée dans « {game} »")
