"""Bad arguments, as a careless user types them: every case ends in a French message that says
what is wrong, a non-zero exit, no traceback, no « erreur interne », and every file around it
untouched (``pipeline/files.py``: outputs checked before any work, written atomically)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent
CONTENT = str(ROOT / "content")
CONFIG = str(ROOT / "mkdocs.yml")
# a short game with no human seat: complots, two bots
QUICK = ["play", "complots", "--bots", "2", "--seed", "1", "--content", CONTENT]


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """A case that blocks (a tube read, a device read to its end) fails instead of hanging."""

    def expired(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with deadline(120), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def snapshot(folder: Path) -> dict[str, object]:
    """Every entry under ``folder``: a link's target, a file's bytes, a folder, a tube."""
    seen: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            seen[rel] = ("link", os.readlink(path))
        elif path.is_fifo():
            seen[rel] = "fifo"
        elif path.is_dir():
            seen[rel] = "dir"
        else:
            seen[rel] = path.read_bytes()
    return seen


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding a user's files of every sort."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mes notes\n", encoding="utf-8")
    (tmp_path / "dossier").mkdir()
    (tmp_path / "dossier" / "photo.jpg").write_bytes(b"\xff\xd8 une photo")
    (tmp_path / "vide").mkdir()
    os.mkfifo(tmp_path / "tube")
    (tmp_path / "pas-utf8.txt").write_bytes(b"\xff\xfe\x00\x01")
    (tmp_path / "faux.json").write_text('{"records": ', encoding="utf-8")
    return tmp_path


SETTINGS_CASES = [
    # (argv, a fragment of the French message)
    (["play", "dilemme", "--players", "0"], "un nombre de 3 à 5"),
    (["play", "dilemme", "--players", str(10**30)], "un nombre de 3 à 5"),
    (["play", "dilemme", "--players", "-1"], "un nombre de 3 à 5"),
    (["play", "dilemme", "--players", "trois"], "nombre entier attendu"),
    (["play", "dilemme", "--players", "3", "--bots", "4"], "plus de bots que de places"),
    (["play", "dilemme", "--bots", "9"], "un nombre de 0 à 5"),
    (["play", "dilemme", "--bots", "1"], "se joue de 3 à 5"),
    (["play", "dilemme", "--bots", "-2"], "un nombre de 0 à 5"),
    (["play", "roi", "--players", str(10**30)], "un nombre de 2 à 16"),
    (["play", "complots", "--players", "1"], "un nombre de 2 à 8"),
    (["play", "conseil", "--players", "0"], "un nombre de 2 à 4"),
    (["play", "citadelle", "--players", "0"], "un nombre de 1 à 4"),
    (["play", "citadelle", "--characters", "9"], "se joue de 1 à 4"),
    (["play", "citadelle", "--characters", "-1"], "d'au moins 0"),
    (["play", "conseil", "--scenario", "nulle-part"], "choix impossible"),
    (["play", "nulle-part"], "nulle-part"),
    (["play", "dilemme", "--inconnue"], "arguments inconnus"),
    (["simulate", "dilemme", "--runs", "0"], "un nombre de 1 à"),
    (["simulate", "dilemme", "--runs", str(10**30)], "un nombre de 1 à"),
    (["simulate", "dilemme", "--jobs", "0"], "un nombre de 1 à"),
    (["simulate", "dilemme", "--players", "0"], "un nombre de 3 à 5"),
    (["check", "--jobs", "0"], "un nombre de 1 à"),
    (["check", "--jobs", "-3"], "un nombre de 1 à"),
    (["check", CONTENT, "--jobs", "257"], "un nombre de 1 à 256"),
    (["check", "--jobs", "beaucoup"], "nombre entier attendu"),
    (["check", "--deep-runs", "-1"], "un nombre de 1 à"),
    (["check", "--deep-runs", "0"], "un nombre de 1 à"),
    (["check", "--format", "xml"], "choix impossible"),
    (["check", "nulle-part"], "nulle-part"),
    (["compile", "--jobs", "0"], "un nombre de 1 à"),
    (["graph", "dilemme", "--jobs", "0"], "un nombre de 1 à"),
    (["graph", "nulle-part", "--content", CONTENT], "nulle-part"),
    (["schema", "nulle-part"], "nulle-part"),
    (["build", "--config", "manquant.yml"], "n'existe pas"),
    (["build", "--coverage", "-1"], "un nombre de 0 à"),
    (["serve", "--port", "70000"], "un nombre de 0 à 65535"),
    (["serve", "--config", "manquant.yml"], "n'existe pas"),
    (["play", "dilemme", "--bots", "5", "--save", "tube"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bots", "5", "--save", "/dev/zero"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bots", "5", "--save", "dossier"], "c'est un dossier"),
    (["play", "dilemme", "--bots", "5", "--save", "notes.txt/partie.json"], "pas un dossier"),
    (["play", "dilemme", "--bots", "5", "--save", "notes.txt"], "il ne sera pas écrasé"),
    (["play", "dilemme", "--bots", "5", "--script", "tube"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bots", "5", "--script", "/dev/zero"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bots", "5", "--script", "dossier"], "c'est un dossier"),
    (["play", "dilemme", "--bots", "5", "--script", "absent.txt"], "n'existe pas"),
    (["play", "dilemme", "--bots", "5", "--script", "pas-utf8.txt"], "UTF-8"),
    (["play", "dilemme", "--bundle", "tube"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bundle", "/dev/zero"], "pas un fichier ordinaire"),
    (["play", "dilemme", "--bundle", "absent.json"], "n'existe pas"),
    (["play", "dilemme", "--bundle", "faux.json"], "n'est pas un paquet compilé"),
    (["play", "dilemme", "--bundle", "notes.txt"], "n'est pas un paquet compilé"),
    (["simulate", "dilemme", "--runs", "1", "--save", "dossier"], "c'est un dossier"),
    (["simulate", "dilemme", "--runs", "1", "--save", "tube"], "pas un fichier ordinaire"),
    (["simulate", "dilemme", "--runs", "1", "--save", "notes.txt"], "il ne sera pas écrasé"),
    (["simulate", "dilemme", "--runs", "1", "--failures", "notes.txt"], "pas un dossier"),
    (["graph", "dilemme", "--out", "dossier"], "c'est un dossier"),
    (["graph", "dilemme", "--out", "tube"], "pas un fichier ordinaire"),
    (["graph", "dilemme", "--out", "/dev/null"], "pas un fichier ordinaire"),
    (["graph", "dilemme", "--out", "notes.txt/graphe.json"], "pas un dossier"),
    (["schema", "--out", "dossier"], "c'est un dossier"),
    (["schema", "--out", "tube"], "pas un fichier ordinaire"),
    (["schema", "--out", "notes.txt/schema.json"], "pas un dossier"),
    (["compile", CONTENT, "--out", "notes.txt"], "pas un dossier"),
    (["check", CONTENT, "--against", "tube"], "pas un fichier ordinaire"),
    (["check", CONTENT, "--against", "/dev/zero"], "pas un fichier ordinaire"),
    (["check", CONTENT, "--against", "faux.json"], "illisible"),
    (["build", "--out", "dossier"], "n'a pas été écrit par gamebook build"),
    (["build", "--out", "notes.txt"], "pas un dossier"),
    (["build", "--out", ".", "--force"], "que la construction effacerait"),
    (["build", "--out", "..", "--force"], "que la construction effacerait"),
    (["serve", "--out", "dossier"], "n'a pas été écrit par gamebook build"),
    (["play"], "le jeu (JEU) est obligatoire"),
    (["simulate"], "le jeu (JEU) est obligatoire"),
]


@pytest.mark.parametrize(("argv", "said"), SETTINGS_CASES, ids=lambda v: " ".join(v)[:60])
def test_a_bad_argument_is_refused_in_french_and_touches_nothing(place, argv, said) -> None:
    before = snapshot(place)
    argv = [a for a in argv]
    if argv[0] in ("play", "simulate") and len(argv) > 1 and "--content" not in argv:
        argv += ["--content", CONTENT]
    if argv[0] in ("build", "serve"):
        argv += ["--content", CONTENT] + ([] if "--config" in argv else ["--config", CONFIG])
    code, out, err = run(argv)
    assert code == 2, (code, err)
    assert said in err, err
    assert "Traceback" not in err + out
    assert "erreur interne" not in err
    assert snapshot(place) == before


def test_a_content_file_too_big_is_refused_before_it_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "contenu" / "dilemme"
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text(
        (ROOT / "content" / "dilemme" / "campaign.yaml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    with (folder / "enorme.yaml").open("wb") as f:  # 200 MB on paper, nothing on the disk
        f.truncate(200 * 1024 * 1024)
    code, out, err = run(["check", "--no-cache", str(tmp_path / "contenu")])
    assert code == 1
    assert "enorme.yaml" in out and "fichier trop gros (200 Mo" in out
    assert "Traceback" not in out + err


def test_the_save_is_checked_before_the_game_is_played(place) -> None:
    code, out, err = run([*QUICK, "--save", "notes.txt/partie.json"])
    assert code == 2 and "pas un dossier" in err
    assert out == ""  # not one move was played


def test_a_save_is_written_through_an_exclusive_temporary_file(place) -> None:
    # a user's own file with the name the old code used for its temporary file, and a link
    (place / "partie.json.tmp").write_text("à moi\n", encoding="utf-8")
    (place / "cible.txt").write_text("la cible\n", encoding="utf-8")
    (place / "lien.json.tmp").symlink_to("cible.txt")
    code, _, err = run([*QUICK, "--save", "partie.json"])
    assert code == 0, err
    assert (place / "partie.json.tmp").read_text(encoding="utf-8") == "à moi\n"
    assert (place / "cible.txt").read_text(encoding="utf-8") == "la cible\n"
    assert json.loads((place / "partie.json").read_text(encoding="utf-8"))["game"] == "complots"
    # no temporary file left behind
    assert sorted(p.name for p in place.iterdir() if p.name.endswith(".tmp")) == [
        "lien.json.tmp",
        "partie.json.tmp",
    ]


def test_a_symlinked_save_is_written_through_to_its_target(place) -> None:
    (place / "sauvegardes").mkdir()
    (place / "partie.json").symlink_to("sauvegardes/vraie.json")
    code, _, err = run([*QUICK, "--save", "partie.json"])
    assert code == 0, err
    assert (place / "partie.json").is_symlink()
    assert os.readlink(place / "partie.json") == "sauvegardes/vraie.json"
    saved = json.loads((place / "sauvegardes" / "vraie.json").read_text(encoding="utf-8"))
    assert saved["game"] == "complots"
    # resumed through the link: the finished game is read back, the link stays
    code, _, err = run([*QUICK, "--save", "partie.json"])
    assert code == 0, err
    assert (place / "partie.json").is_symlink()


def test_a_written_file_keeps_its_permissions(place) -> None:
    target = place / "graphe.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o640)
    code, _, err = run(["graph", "dilemme", "--content", CONTENT, "--out", "graphe.json"])
    assert code == 0, err
    assert json.loads(target.read_text(encoding="utf-8"))
    assert target.stat().st_mode & 0o777 == 0o640


def test_build_refuses_a_folder_it_did_not_build_unless_forced(place) -> None:
    from pipeline.files import FileProblem
    from pipeline.publish.site import MARKER, prepare_out

    with pytest.raises(FileProblem, match="--force"):
        prepare_out(place / "dossier")
    assert (place / "dossier" / "photo.jpg").is_file()
    prepare_out(place / "vide")  # empty: taken, and marked as the build's own
    assert (place / "vide" / MARKER).is_file()
    (place / "vide" / "index.html").write_text("<p>", encoding="utf-8")
    prepare_out(place / "vide")  # its own earlier build: taken again
    hidden = place / "depot"
    hidden.mkdir()
    (hidden / ".git").mkdir()  # only hidden entries, which mkdocs keeps: taken
    prepare_out(hidden)
    prepare_out(place / "dossier", force=True)  # --force: the user said so
    assert (place / "dossier" / MARKER).is_file()
    prepare_out(place / "neuf" / "site")  # a new folder is made by the build
    older = place / "ancien"  # a site built before the marker existed: its service worker
    older.mkdir()
    (older / "sw.js").write_text("// Generated by `gamebook build`: a cache-first…\n")
    prepare_out(older)
    from pipeline.publish.live import PLACEHOLDER

    stand_in = place / "provisoire"  # the page serve shows when it could not build the site
    stand_in.mkdir()
    (stand_in / "index.html").write_text(PLACEHOLDER, encoding="utf-8")
    prepare_out(stand_in)
    (place / "autre").mkdir()
    (place / "autre" / "sw.js").write_text("// another site's worker\n")
    with pytest.raises(FileProblem, match="--force"):
        prepare_out(place / "autre")
    with pytest.raises(FileProblem, match="effacerait"):
        prepare_out(place, force=True)  # the working folder itself, even forced
