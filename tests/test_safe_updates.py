"""Safe content updates: a save records its bundle's version; a record renamed with
``renamed_from`` is converted when an older save is loaded; a save that cannot be converted is
refused intact with a French explanation; ``gamebook check --against`` lists what a change
breaks.  Generic over the registry: the renamed record is the one the first seat picked at
setup (a house, a character...)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from engine.core import registry
from engine.core.migrate import migrate, renames
from engine.core.save import SaveError
from engine.core.session import Session
from pipeline import schema as S
from pipeline.story import compile as comp
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SUFFIX = "_nouveau"


def seat_record(cls, bundle: dict) -> tuple[str, str]:
    """(setup field, value) of the first per-seat choice whose values are record ids; a game
    whose seats choose no record (every seat plays the same deck) has nothing to rename here."""
    game = cls(bundle)
    setup = game.normalize_setup({"seed": "1"})
    ids = {k for table in bundle["records"].values() for k in table}
    for f in game.fields():
        if f.per_seat and f.kind == "choice":
            value = setup["seats"][0].get(f.name)
            if value in ids:
                return f.name, value
    pytest.skip(f"{cls.id}: no seat chooses a record at setup")


def rename(folder: Path, old: str, family: str, declare: bool = True) -> None:
    """Rename the record ``old`` (and every reference to it) in the campaign of ``family``."""
    new = old + SUFFIX
    word = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])")
    camp = next(
        p.parent
        for p in folder.glob("*/campaign.yaml")
        if re.search(rf"^\s*family:\s*{family}\s*$", p.read_text(encoding="utf-8"), re.M)
    )
    for path in camp.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        changed = word.sub(new, text)
        if declare:
            changed = re.sub(
                rf"^(\s*)(- )?id: {re.escape(new)}\s*$",
                lambda m: (
                    f"{m.group(0)}\n{m.group(1)}{'  ' if m.group(2) else ''}renamed_from: [{old}]"
                ),
                changed,
                flags=re.M,
            )
        if changed != text:
            path.write_text(changed, encoding="utf-8")


def bundle_of(folder: Path, family: str) -> dict:
    report = check(folder)
    assert report.ok, [f.message for f in report.findings if f.severity == "error"][:3]
    sg = next(sg for sg in report.graphs.values() if sg.campaign.family == family)
    return json.loads(json.dumps(comp.bundle(sg), default=list))


GAMES = [g for g in registry.games() if g.content is not None and g.id in S.FAMILIES]


@pytest.fixture(scope="module")
def published():
    return {g.id: bundle_of(CONTENT, g.id) for g in GAMES}


def _played(cls, bundle: dict, steps: int = 6) -> str:
    g = cls(bundle)
    n = cls.default_players
    s = Session(g).start({"seed": "7", "players": n, "bots": n - 1})
    for _ in range(steps):
        seats = [x for x in g.to_act(s.state) if not s.is_bot(x)]
        if not seats:
            break
        s.act(g.legal_actions(s.state, seats[0])[0])
    return s.save_text()


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.id)
def test_a_renamed_record_is_converted_when_an_older_save_is_loaded(cls, published, tmp_path):
    old_bundle = published[cls.id]
    field, value = seat_record(cls, old_bundle)
    text = _played(cls, old_bundle)
    assert json.loads(text)["bundle"] == old_bundle["version"]  # the save records its version

    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    rename(folder, value, cls.id)
    new_bundle = bundle_of(folder, cls.id)
    assert renames(new_bundle) == {value: value + SUFFIX}

    session = Session(cls(new_bundle))
    session.load(text)
    assert session.setup["seats"][0][field] == value + SUFFIX
    assert "convertie" in session.notice and value in session.notice
    assert f'"{value}"' not in json.dumps(session.save()["setup"])


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.id)
def test_an_undeclared_rename_keeps_the_save_and_explains_in_french(cls, published, tmp_path):
    old_bundle = published[cls.id]
    _, value = seat_record(cls, old_bundle)
    text = _played(cls, old_bundle)
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    rename(folder, value, cls.id, declare=False)
    session = Session(cls(bundle_of(folder, cls.id)))
    with pytest.raises(SaveError) as err:
        session.load(text)
    message = str(err.value)
    assert "version précédente du contenu" in message and "nouvelle partie" in message
    assert "Traceback" not in message and session.state is None  # nothing half-loaded


def test_migrate_leaves_current_saves_and_ambiguous_names_alone():
    bundle = {
        "version": "v2",
        "records": {
            "a": {"x_new": {"renamed_from": ["x"]}, "y": {"renamed_from": ["12", "y"]}},
            "b": {"z": {"renamed_from": ["y"]}},
        },
    }
    assert renames(bundle) == {"x": "x_new"}  # digits, own id and a live id are skipped
    save = {"bundle": "v1", "setup": {"k": "x"}, "state": {"x": ["x", "xx", 12]}, "actions": []}
    out, used = migrate(save, bundle)
    assert out["state"] == {"x_new": ["x_new", "xx", 12]} and used == {"x": "x_new"}
    assert migrate({**save, "bundle": "v2"}, bundle) == ({**save, "bundle": "v2"}, {})


def test_save001_check_against_lists_what_breaks_saves(tmp_path, published):
    pub = tmp_path / "pub"
    pub.mkdir()
    for cls in GAMES:
        (pub / f"{cls.id}.json").write_text(json.dumps(published[cls.id]), encoding="utf-8")
    cls = GAMES[0]
    _, value = seat_record(cls, published[cls.id])

    folder = tmp_path / "declared"
    shutil.copytree(CONTENT, folder)
    rename(folder, value, cls.id)
    code, out, err = run_cli(["check", str(folder), "--against", str(pub)])
    assert code == 0, out + err
    assert f"{value} →" in out or f":{value} →" in out
    assert "pourront être reprises" in out
    assert "0 retirée, 1 renommée." in out and "(s)" not in out  # counts agree with their noun

    folder = tmp_path / "undeclared"
    shutil.copytree(CONTENT, folder)
    rename(folder, value, cls.id, declare=False)
    code, out, err = run_cli(["check", str(folder), "--against", str(pub), "--format", "json"])
    assert code == 1
    found = [f for f in json.loads(out)["findings"] if f["code"] == "SAVE001"]
    assert (
        found and found[0]["node"].endswith(f":{value}") and "renamed_from" in found[0]["message"]
    )
    # it stands on the record that took its place, and names it (not campaign.yaml:1:1)
    assert f"« {value}{SUFFIX} »" in found[0]["message"]
    assert found[0]["file"] != "campaign.yaml" or found[0]["line"] > 1

    code, out, err = run_cli(["check", str(CONTENT), "--against", str(tmp_path / "rien")])
    assert code == 2 and "Traceback" not in err


def test_play_can_finish_a_game_on_the_published_bundle(tmp_path, published):
    cls = GAMES[0]
    path = tmp_path / "ancien.json"
    path.write_text(json.dumps(published[cls.id]), encoding="utf-8")
    n = cls.default_players
    code, _, err = run_cli(["play", cls.id, "--bundle", str(path), "--bots", str(n), "--seed", "2"])
    assert code == 0, err
    code, _, err = run_cli(["play", cls.id, "--bundle", str(tmp_path / "absent.json")])
    assert code == 2 and "paquet illisible" in err


def test_save002_a_former_name_that_cannot_convert_saves_is_a_warning(tmp_path, published):
    pub = tmp_path / "pub.json"
    cls = GAMES[0]
    pub.write_text(json.dumps(published[cls.id]), encoding="utf-8")
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    _, value = seat_record(cls, published[cls.id])
    rename(folder, value, cls.id)
    for path in folder.rglob("*.yaml"):  # the former name is digits only: not convertible
        text = path.read_text(encoding="utf-8")
        if f"renamed_from: [{value}]" in text:
            path.write_text(text.replace(f"renamed_from: [{value}]", "renamed_from: [12]"))
    code, out, _ = run_cli(["check", str(folder), "--against", str(pub), "--format", "json"])
    found = [f for f in json.loads(out)["findings"] if f["code"] == "SAVE002"]
    assert found and found[0]["severity"] == "warning" and "chiffres" in found[0]["message"]
    assert code == 1  # the record itself is now removed without a usable former name


def test_save001_advises_no_renamed_from_for_a_numeric_id(published):
    """A numbered record gone since the published version: ``renamed_from`` cannot convert a
    number in a save, so the finding says to put it back rather than to declare it."""
    import copy

    from pipeline.story.updates import compare

    report = check(CONTENT)
    for sg in report.graphs.values():
        family = sg.campaign.family
        current = published[family]
        old = copy.deepcopy(current)
        kind = next(
            (k for k, recs in old["records"].items() if any(str(key).isdigit() for key in recs)),
            None,
        )
        if kind is None:
            continue
        sample = next(key for key in old["records"][kind] if str(key).isdigit())
        gone = str(max(int(k) for k in old["records"][kind] if str(k).isdigit()) + 1000)
        old["records"][kind][gone] = old["records"][kind][sample]
        found = [f for f in compare(old, sg, current).findings if f.code == "SAVE001"]
        assert found and all(": [" not in f.message and "remettez" in f.message for f in found)
        assert any(f"« {gone} »" in f.message for f in found)
        return
    pytest.skip("no game has numbered records")
