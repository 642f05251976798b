"""Every class of malformed input gives one clear French finding at the writer's line, in the
three output formats, and never a traceback.

Each test adds or breaks one file of a clean base campaign (whichever game: the broken file's
fault does not depend on the game's schema), then reads the finding back from ``gamebook check``
as text, JSON and GitHub annotations.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest
from conftest import BASE, CAMPAIGNS, copy_base, pos_of, read, run_check, run_cli, write

from pipeline.content.load import MAX_DEPTH, parse
from pipeline.messages import clean_key, shown, t


@pytest.fixture(params=CAMPAIGNS)
def camp(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return copy_base(request.param, tmp_path)


def only_finding(folder: Path, file: str) -> dict:
    """The one finding about ``file``, identical in the three formats; returns its JSON."""
    code, out, err = run_cli(["check", str(folder), "--format", "json"])
    assert code == 1 and "Traceback" not in out + err, err
    doc = json.loads(out)
    mine = [f for f in doc["findings"] if f["file"] == file]
    assert len(mine) == 1, mine
    (f,) = mine
    # text: « folder/file:line:col: error CODE message »
    code, out, err = run_cli(["check", str(folder)])
    head = f"{folder.as_posix()}/{file}:{f['line']}:{f['column']}: {f['severity']} {f['code']} "
    lines = [x for x in out.splitlines() if x.startswith(f"{folder.as_posix()}/{file}:")]
    assert lines == [head + f["message"]], out
    # GitHub annotations
    code, out, err = run_cli(["check", str(folder), "--format", "github"])
    gh = [x for x in out.splitlines() if f"{file.replace(':', '%3A')},line=" in x]
    assert len(gh) == 1, out
    assert gh[0].startswith(f"::{f['severity']} ")
    assert f",line={f['line']},col={f['column']},title={f['code']}::" in gh[0]
    assert "Traceback" not in out + err
    return f


def where(f: dict) -> tuple[int, int]:
    return f["line"], f["column"]


# --------------------------------------------------------------------------- YAML syntax


def test_unclosed_quote_is_reported_where_it_opened(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, 'a:\n  b: "ouvert sans fin\n  c: 2\nd:\n  - e: 1\n')
    f = only_finding(camp, "zz_brouillon.yaml")
    assert f["code"] == "YAML001"
    assert where(f) == pos_of(path, '"ouvert')
    assert "guillemet ouvert ici n'est jamais fermé" in f["message"]
    assert "ligne 6, colonne 1" in f["message"]  # where reading broke: the end of the file


def test_unclosed_bracket_both_places(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a:\n  b: [1, 2\n  c: 3\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert where(f) == pos_of(path, "[1")
    broke = pos_of(path, ": 3")
    assert f"ligne {broke[0]}, colonne {broke[1]}" in f["message"]


def test_unclosed_brace(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a: {b: 1\nc: 2\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert where(f) == pos_of(path, "{b")
    assert "accolade" in f["message"]


def test_missing_colon_is_at_the_key(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a:\n  b: 1\n  texte sans deux-points\n  c: 2\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert where(f) == pos_of(path, "texte sans")
    assert "il manque le « : » après cette clé" in f["message"]


def test_misaligned_block_names_the_block(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a:\n  b: 1\n c: 2\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert f["line"] == 3
    assert "dans le bloc qui commence ligne 1" in f["message"]


def test_deep_nesting_is_one_finding_not_a_recursion_error(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert f["code"] == "YAML001" and f["line"] == 1
    assert f"plus de {MAX_DEPTH} niveaux" in f["message"]


def test_deep_block_nesting(camp: Path) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(2000)) + "  " * 2000 + "fin\n"
    write(camp / "zz_brouillon.yaml", text)
    f = only_finding(camp, "zz_brouillon.yaml")
    assert f["line"] == MAX_DEPTH + 1


def test_nesting_below_the_limit_reads_fine() -> None:
    _, findings = parse("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "f")
    assert findings == []


def test_control_character_is_named(camp: Path) -> None:
    path = camp / "zz_brouillon.yaml"
    write(path, "a: 1\nb: bon\x07jour\n")
    f = only_finding(camp, "zz_brouillon.yaml")
    assert where(f) == pos_of(path, "\x07")
    assert "U+0007" in f["message"]


# --------------------------------------------------------------------------- unreadable files


def test_dangling_link(camp: Path) -> None:
    (camp / "zz_lien.yaml").symlink_to("ailleurs/absent.yaml")
    f = only_finding(camp, "zz_lien.yaml")
    assert (f["code"], where(f)) == ("IO001", (1, 1))
    assert f["message"] == t("io.link_dangling", target="ailleurs/absent.yaml")


def test_looping_links(camp: Path) -> None:
    (camp / "zz_a.yaml").symlink_to("zz_b.yaml")
    (camp / "zz_b.yaml").symlink_to("zz_a.yaml")
    for name in ("zz_a.yaml", "zz_b.yaml"):
        f = only_finding(camp, name)
        assert f["code"] == "IO001" and f["message"] == t("io.link_loop")


def test_directory_named_like_a_content_file(camp: Path) -> None:
    (camp / "zz_dossier.yaml").mkdir()
    f = only_finding(camp, "zz_dossier.yaml")
    assert f["code"] == "IO001" and f["message"] == t("io.directory")


def test_permission_denied(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # root reads whatever the mode: fake the refusal the operating system gives a writer
    write(camp / "zz_secret.yaml", "a: 1\n")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "zz_secret.yaml":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    f = only_finding(camp, "zz_secret.yaml")
    assert f["code"] == "IO001" and f["message"] == t("io.permission")


@pytest.mark.parametrize(
    ("encoding", "guess"),
    [
        ("latin-1", "Latin-1 (ISO-8859-1) ou Windows-1252"),
        ("cp1252", "Windows-1252"),
        ("utf-16", "UTF-16"),
    ],
)
def test_other_encodings_are_named(camp: Path, encoding: str, guess: str) -> None:
    dash = "—" if encoding != "latin-1" else "-"  # Windows-1252 has the dash at 0x97
    text = f"a: 1\nb: « déjà vu » {dash} ça\n"
    (camp / "zz_ancien.yaml").write_bytes(text.encode(encoding))
    f = only_finding(camp, "zz_ancien.yaml")
    assert f["code"] == "YAML001"
    assert "n'est pas en UTF-8" in f["message"] and guess in f["message"]
    if encoding != "utf-16":
        assert where(f) == (2, 4)  # the « is the first byte UTF-8 cannot hold


# --------------------------------------------------------------------------- keys and values


def _first_field_line(path: Path) -> tuple[str, str]:
    """The first ``    key: value`` line inside a list item of ``path``, and its key."""
    for line in read(path).splitlines():
        m = re.match(r"^ {4}([a-z_]+): \S", line)
        if m:
            return line, m.group(1)
    raise AssertionError(path)


@pytest.mark.parametrize("char", ["\u00a0", "\u200b", "\u202f"])
def test_invisible_character_in_a_key_is_shown(camp: Path, char: str) -> None:
    files = sorted(p for p in camp.glob("*.yaml") if p.name != "campaign.yaml")
    path = next(p for p in files if re.search(r"(?m)^ {4}[a-z_]+: \S", read(p)))
    line, key = _first_field_line(path)
    bad = line.replace(f"{key}:", f"{key}{char}:", 1)
    write(path, read(path).replace(line + "\n", bad + "\n", 1))
    f = only_finding(camp, path.name)
    assert (f["code"], where(f)) == ("FIELD002", pos_of(path, bad.strip()))
    assert f"U+{ord(char):04X}" in f["message"] and f"« {key} »" in f["message"]


def test_look_alike_letter_in_a_key_is_shown(camp: Path) -> None:
    files = sorted(p for p in camp.glob("*.yaml") if p.name != "campaign.yaml")
    path = next(p for p in files if re.search(r"(?m)^ {4}[a-z_]*[eao][a-z_]*: \S", read(p)))
    line = next(x for x in read(path).splitlines() if re.match(r"^ {4}[a-z_]*[eao][a-z_]*: ", x))
    key = line.split(":")[0].strip()
    fake = key.translate(str.maketrans("eao", "еао"))  # Cyrillic look-alikes
    write(path, read(path).replace(line, line.replace(key, fake, 1), 1))
    f = only_finding(camp, path.name)
    assert f["code"] == "FIELD002" and "cyrillique" in f["message"], f


def test_shown_and_clean_key() -> None:
    assert shown("text\u00a0") == "text⟨U+00A0 (espace insécable)⟩"
    assert shown("déjà « vu »") == "déjà « vu »"  # French text is left alone
    assert "cyrillique" in shown("tеxt")
    assert shown("жук") == "жук"  # a whole Cyrillic word is not a look-alike
    assert clean_key("tеxt\u200b") == "text"


def test_huge_integers_stay_exact() -> None:
    n = "123456789012345678901234567890123456789012345"
    value, _ = parse(f"a: {n}\nb: -{n}\n", "f")
    assert value == {"a": int(n), "b": -int(n)}
    assert type(value["a"]) is int


def test_huge_integer_in_a_message_is_exact(camp: Path) -> None:
    n = "98765432109876543210987654321098765432100"
    path = camp / "campaign.yaml"
    text = read(path)
    write(path, text.replace("campaign:\n", f"campaign:\n  zz_nombre: {n}\n", 1))
    _, out, _ = run_cli(["check", str(camp), "--format", "json"])
    mine = [f for f in json.loads(out)["findings"] if f["file"] == "campaign.yaml"]
    assert any("zz_nombre" in f["message"] for f in mine)
    assert "e+" not in out


def test_fixtures_are_untouched_by_these_tests() -> None:
    assert not list(BASE.rglob("zz_*"))
    for name in CAMPAIGNS:
        assert run_check(BASE / name).findings == []
