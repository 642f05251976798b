"""Property tests: mutate valid files of the base fixtures, run ``gamebook check --format json``
in-process, and check the checker's promises.

Whatever a writer does to a file, the checker must not crash (exit 0 or 1, never the "internal
error" exit 2), must print JSON with the contract's keys, and every finding must carry a known
code and a real position.  Mutations that necessarily break something (a dangling reference,
malformed YAML, non-UTF-8 bytes, a duplicated record) must produce the matching code.

Crashes found this way have regression tests in ``test_findings.py``.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import (
    BASE,
    CAMPAIGNS,
    REPO_ROOT,
    dump_rt,
    load_rt,
    read,
    run_cli,
    write,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.core import registry
from pipeline.story.catalogue import CODES

#: 60 examples per property keeps the file under ~10 s; GAMEBOOK_FUZZ_EXAMPLES=2000 digs deeper
FUZZ = settings(
    max_examples=int(os.environ.get("GAMEBOOK_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def source(campaign: str) -> Path:
    """A game's base fixture, or its shipped campaign for a game that has none."""
    return BASE / campaign if (BASE / campaign).is_dir() else REPO_ROOT / "content" / campaign


#: every registered game that reads content, found in the registry
GAMES = [g.id for g in registry.games() if g.content is not None]
#: every (campaign, file) of the base fixtures and of the other games' shipped campaigns
FILES = [(c, p.name) for c in GAMES for p in sorted(source(c).glob("*.yaml"))]

KNOWN_BUG_KEYS: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- running and checking


def checked(folder: Path) -> dict:
    """Run the real command in-process and check the output contract; return the JSON."""
    code, out, err = run_cli(["check", str(folder), "--format", "json"])
    assert code in (0, 1), err
    assert "Traceback" not in out + err
    assert "erreur interne" not in err
    doc = json.loads(out)
    assert set(doc) == {"findings", "stats"}
    assert {"nodes", "edges", "reachable", "unreachable", "kinds"} <= set(doc["stats"])
    errors = False
    for f in doc["findings"]:
        # `cause` (README: only on a finding that follows from another one) is the one optional key
        keys = {"code", "severity", "message", "file", "line", "column", "node"}
        assert set(f) - {"cause"} == keys
        if "cause" in f:
            assert re.fullmatch(r"\S+:\d+:\d+ [A-Z]+\d{3}", f["cause"]), f
        assert f["code"] in CODES, f
        assert f["severity"] == CODES[f["code"]][0], f
        assert isinstance(f["message"], str) and f["message"], f
        assert isinstance(f["line"], int) and f["line"] >= 1, f
        assert isinstance(f["column"], int) and f["column"] >= 1, f
        path = folder / f["file"]
        assert path.is_file(), f
        # a position is inside the file (YAML errors at the very end point one line past it)
        assert f["line"] <= path.read_bytes().count(b"\n") + 2, f
        errors |= f["severity"] == "error"
    assert code == (1 if errors else 0)
    return doc


def found(doc: dict, code: str, file: str) -> list[dict]:
    return [f for f in doc["findings"] if f["code"] == code and f["file"] == file]


class Workdir:
    """A fresh copy of one base campaign per example (hypothesis reuses the test's fixtures
    across examples, so tmp_path would leak state between them)."""

    def __init__(self, campaign: str) -> None:
        self.campaign = campaign

    def __enter__(self) -> Path:
        self._tmp = tempfile.TemporaryDirectory(prefix="gamebook-fuzz-")
        target = Path(self._tmp.name) / self.campaign
        shutil.copytree(source(self.campaign), target)
        return target

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()


# --------------------------------------------------------------------------- structural mutations


def slots(node: Any, path: tuple = ()) -> Iterator[tuple[Any, Any, tuple]]:
    """Every (container, key-or-index, path) below ``node``."""
    if isinstance(node, dict):
        for k in list(node):
            yield node, k, (*path, k)
            yield from slots(node[k], (*path, k))
    elif isinstance(node, list):
        for i in range(len(node)):
            yield node, i, (*path, i)
            yield from slots(node[i], (*path, i))


def usable(path: tuple) -> bool:
    return not KNOWN_BUG_KEYS & {p for p in path if isinstance(p, str)}


def category(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return "other"


SAFE_TEXT = st.text(max_size=20)
VALUES = {
    "int": st.integers(min_value=-(10**6), max_value=10**6),
    "str": SAFE_TEXT,
    "list": st.lists(st.one_of(st.integers(-5, 1000), SAFE_TEXT), max_size=3),
    "dict": st.dictionaries(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8),
        st.one_of(st.integers(-5, 1000), SAFE_TEXT, st.none()),
        max_size=3,
    ),
    "none": st.none(),
    "bool": st.booleans(),
}


def pick_slot(data: st.DataObject, doc: Any) -> tuple[Any, Any, tuple]:
    candidates = [s for s in slots(doc) if usable(s[2])]
    assume(candidates)
    return candidates[data.draw(st.integers(0, len(candidates) - 1), label="slot")]


@FUZZ
@given(target=st.sampled_from(FILES), data=st.data())
def test_delete_a_random_key(target: tuple[str, str], data: st.DataObject) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        doc = load_rt(path)
        dicts = [s for s in slots(doc) if isinstance(s[0], dict) and usable(s[2])]
        assume(dicts)
        parent, key, _ = dicts[data.draw(st.integers(0, len(dicts) - 1), label="key")]
        del parent[key]
        dump_rt(path, doc)
        checked(folder)


@FUZZ
@given(target=st.sampled_from(FILES), data=st.data())
def test_replace_a_value_with_another_type(target: tuple[str, str], data: st.DataObject) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        doc = load_rt(path)
        parent, key, _ = pick_slot(data, doc)
        old = category(parent[key])
        kind = data.draw(st.sampled_from([k for k in VALUES if k != old]), label="type")
        parent[key] = data.draw(VALUES[kind], label="value")
        dump_rt(path, doc)
        checked(folder)


@FUZZ
@given(target=st.sampled_from(FILES), data=st.data())
def test_delete_a_list_item(target: tuple[str, str], data: st.DataObject) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        doc = load_rt(path)
        items = [s for s in slots(doc) if isinstance(s[0], list) and usable(s[2])]
        assume(items)
        parent, index, _ = items[data.draw(st.integers(0, len(items) - 1), label="item")]
        del parent[index]
        dump_rt(path, doc)
        checked(folder)


# --------------------------------------------------------------------------- dangling references

#: where the base fixtures reference something, written so it can be replaced: the text
#: around ``{}`` is kept, ``{}`` gets an id that exists nowhere; the last item is the id format.
REFERENCES: list[tuple[str, str, str, str]] = [
    ("dilemme", "campaign.yaml", "start_envelope: {}", "envelope"),
    ("dilemme", "campaign.yaml", "grand_final: {}", "envelope"),
    ("dilemme", "enveloppes.yaml", "story: {}\n    cards: [D01", "str"),
    ("dilemme", "enveloppes.yaml", "cards: [{}]", "str"),
    ("dilemme", "cartes.yaml", "arc: {}\n    title: Le trône vide", "str"),
    ("dilemme", "cartes.yaml", "narrative_achievement: valombre/{}", "str"),
    ("dilemme", "cartes.yaml", "open_envelope: {}", "envelope"),
    ("dilemme", "cartes.yaml", "chronicle_sticker: {}", "int"),
    ("dilemme", "cartes.yaml", "secret_sticker: {}\n    nenni", "letter"),
    ("dilemme", "cartes.yaml", "event: {}", "str"),
    ("dilemme", "cartes.yaml", "shuffle_in: {}", "str"),
    ("dilemme", "autocollants.yaml", "arc: {}\n    text: La digue", "str"),
    ("dilemme", "maisons.yaml", "alignment: [moderation, {}]", "str"),
    ("citadelle", "campaign.yaml", "intro: {}", "str"),
    ("citadelle", "scenarios.yaml", "start: [{}]", "card"),
    ("citadelle", "scenarios.yaml", "requires: {{objective: {}}}", "str"),
    ("citadelle", "aventure.yaml", "card: {}", "card"),
    ("citadelle", "aventure.yaml", "- read: {}", "int"),
    ("citadelle", "aventure.yaml", "take: {}", "card"),
    ("citadelle", "aventure.yaml", "hidden_numbers: [{}]", "card"),
    ("citadelle", "paragraphes.yaml", "side_quest: {}", "str"),
    ("citadelle", "paragraphes.yaml", "quest: {{id: {}, state: active}}", "str"),
    ("citadelle", "paragraphes.yaml", "read: {}\n      - text: Montrer", "int"),
    ("citadelle", "paragraphes.yaml", "requires: {{item: {}}}", "card"),
]

DANGLING = {
    # ids chosen outside everything the base fixtures define
    "envelope": st.integers(21, 69).map(str),
    "int": st.integers(4, 99).map(str),
    "card": st.integers(300, 999).map(str),
    "letter": st.sampled_from("CDEFGHIJKL"),
    "str": st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True).map(lambda s: s + "_x9"),
}


def _original(campaign: str, name: str, pattern: str) -> str:
    """The text the pattern matches in the base fixture (what ``{}`` stands for)."""
    head, _, tail = pattern.replace("{{", "{").replace("}}", "}").partition("{}")
    text = read(BASE / campaign / name)
    start = text.index(head) + len(head)
    end = text.index(tail, start) if tail else text.index("\n", start)
    return text[text.index(head) : end + len(tail)]


def test_reference_table_matches_the_fixtures() -> None:
    for campaign, name, pattern, _ in REFERENCES:
        head = pattern.replace("{{", "{").replace("}}", "}").partition("{}")[0]
        assert read(BASE / campaign / name).count(head) >= 1, pattern
        assert read(BASE / campaign / name).count(_original(campaign, name, pattern)) == 1


@FUZZ
@given(site=st.sampled_from(REFERENCES), data=st.data())
def test_dangling_reference_is_ref001_at_its_line(
    site: tuple[str, str, str, str], data: st.DataObject
) -> None:
    campaign, name, pattern, fmt = site
    value = data.draw(DANGLING[fmt], label="dangling id")
    with Workdir(campaign) as folder:
        path = folder / name
        old = _original(campaign, name, pattern)
        new = pattern.format(value)
        text = read(path)
        write(path, text.replace(old, new))
        line = text[: text.index(old)].count("\n") + 1
        doc = checked(folder)
        refs = found(doc, "REF001", name)
        assert any(f["line"] == line and value in f["message"] for f in refs), doc["findings"]


# --------------------------------------------------------------------------- broken YAML

#: fragments that are malformed wherever a whole line of them is inserted
BROKEN = [
    "zz: [a, b\n",  # unbalanced bracket
    "zz: }\n",  # stray closing brace
    "\tzz: 1\n",  # tab indentation
    " zz: 1\n   yy: 2\n",  # inconsistent indentation
    "zz:\n  - a\n - b\n",  # misaligned list item
    "zz: a: b\n",  # unquoted ': '
]


@FUZZ
@given(target=st.sampled_from(FILES), fragment=st.sampled_from(BROKEN), data=st.data())
def test_broken_yaml_is_yaml001_in_that_file(
    target: tuple[str, str], fragment: str, data: st.DataObject
) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        lines = read(path).splitlines(keepends=True)
        at = data.draw(st.integers(0, len(lines)), label="line")
        write(path, "".join(lines[:at]) + fragment + "".join(lines[at:]))
        doc = checked(folder)
        (f,) = found(doc, "YAML001", name)
        assert f["line"] >= at + 1  # never before the inserted text
        if name == "campaign.yaml":
            assert doc["findings"] == [f]  # nothing else can be checked


@FUZZ
@given(
    target=st.sampled_from(FILES),
    junk=st.binary(max_size=8).map(lambda b: b + b"\xff"),
    data=st.data(),
)
def test_non_utf8_bytes_are_yaml001_at_their_line(
    target: tuple[str, str], junk: bytes, data: st.DataObject
) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        raw = path.read_bytes()
        # insert at a line start so that no UTF-8 character of the fixture is split
        starts = [0] + [i + 1 for i, b in enumerate(raw) if b == 0x0A]
        offset = data.draw(st.sampled_from(starts), label="offset")
        path.write_bytes(raw[:offset] + junk + raw[offset:])
        doc = checked(folder)
        (f,) = found(doc, "YAML001", name)
        line = raw[:offset].count(b"\n") + 1
        assert line <= f["line"] <= line + junk.count(b"\n")
        assert "UTF-8" in f["message"]


@FUZZ
@given(target=st.sampled_from(FILES), data=st.data())
def test_truncated_file(target: tuple[str, str], data: st.DataObject) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        raw = path.read_bytes()
        cut = data.draw(st.integers(0, len(raw)), label="cut")
        path.write_bytes(raw[:cut])  # may split a UTF-8 character: that is a finding too
        checked(folder)


@FUZZ
@given(
    target=st.sampled_from(FILES),
    junk=st.text(max_size=40),
    data=st.data(),
)
def test_random_text_inserted(target: tuple[str, str], junk: str, data: st.DataObject) -> None:
    campaign, name = target
    with Workdir(campaign) as folder:
        path = folder / name
        text = read(path)
        offset = data.draw(st.integers(0, len(text)), label="offset")
        mutated = text[:offset] + junk + text[offset:]
        write(path, mutated)
        checked(folder)


# --------------------------------------------------------------------------- duplicated records


def records(campaign: str) -> list[tuple[str, str, int]]:
    """(file, section, index) of every record in a list section of the base campaign."""
    out = []
    for path in sorted((BASE / campaign).glob("*.yaml")):
        doc = load_rt(path)
        for section, items in doc.items():
            if isinstance(items, list):
                out.extend((path.name, section, i) for i in range(len(items)))
    return out


RECORDS = [(c, *r) for c in CAMPAIGNS for r in records(c)]


def _id_key(section: str) -> str:
    return "number" if section == "adventure_cards" else "id"


@FUZZ
@given(record=st.sampled_from(RECORDS), same_file=st.booleans())
def test_duplicated_record_is_id001(record: tuple[str, str, str, int], same_file: bool) -> None:
    campaign, name, section, index = record
    key = _id_key(section)
    with Workdir(campaign) as folder:
        path = folder / name
        doc = load_rt(path)
        twin = copy.deepcopy(doc[section][index])
        if same_file:
            doc[section].append(twin)
            dump_rt(path, doc)
            target, target_name = path, name
        else:
            target_name = "zz_copie.yaml"  # read after every other file
            target = folder / target_name
            dump_rt(target, {section: [twin]})
        first_line = load_rt(path)[section][index].lc.value(key)[0] + 1
        copy_pos = load_rt(target)[section][-1].lc.value(key)
        doc_out = checked(folder)
        ids = found(doc_out, "ID001", target_name)
        assert any(
            (f["line"], f["column"]) == (copy_pos[0] + 1, copy_pos[1] + 1)
            and f"la première fois dans {name} ligne {first_line}." in f["message"]
            for f in ids
        ), doc_out["findings"]


# --------------------------------------------------------------------------- a malformed corpus

#: pieces a writer's broken file is made of: YAML syntax, invisible and look-alike characters,
#: huge numbers, deep nesting, anchors, bytes that are not UTF-8
PIECES = [
    "\n",
    "  ",
    "    ",
    "\t",
    "- ",
    ": ",
    ":",
    "[",
    "]",
    "{",
    "}",
    ",",
    '"',
    "'",
    "#",
    "&a ",
    "*a",
    "<<: *a",
    "---\n",
    "...\n",
    "? ",
    "| ",
    "> ",
    "!!str ",
    "!!int ",
    "!x ",
    "%YAML 1.2\n",
    "id",
    "text",
    "choices",
    "read",
    "effects",
    "flag",
    "quest",
    "requires",
    "any",
    "zone",
    "paragraphs",
    "envelopes",
    "cards",
    "campaign",
    "id: 1",
    "text: x",
    "- id: ",
    "\u00a0",
    "\u200b",
    "\u202f",
    "\ufeff",
    "\u0435",
    "\u03bf",
    "é",
    "«",
    "»",
    "\x07",
    "\x00",
    "9" * 60,
    "-" + "7" * 45,
    "0x1F",
    "1e400",
    ".inf",
    "~",
    "null",
    "true",
    "00",
    "007",
    "[" * 150,
    "]" * 150,
    "{a: " * 120,
]


def _corpus_file(pieces: list[str], raw: bytes) -> bytes:
    return "".join(pieces).encode("utf-8", "surrogatepass") + raw


@FUZZ
@given(
    campaign=st.sampled_from(CAMPAIGNS),
    pieces=st.lists(st.sampled_from(PIECES), max_size=60),
    raw=st.binary(max_size=6),
    mode=st.sampled_from(["new", "replace", "append", "link", "loop", "dir"]),
    data=st.data(),
)
def test_malformed_corpus_never_crashes(
    campaign: str, pieces: list[str], raw: bytes, mode: str, data: st.DataObject
) -> None:
    """Any file a writer could produce, and any way a file can fail to open: 0 tracebacks, in
    the three output formats."""
    with Workdir(campaign) as folder:
        names = sorted(p.name for p in folder.glob("*.yaml"))
        name = data.draw(st.sampled_from(names), label="file")
        body = _corpus_file(pieces, raw)
        if mode == "new":
            (folder / "zz_fuzz.yaml").write_bytes(body)
        elif mode == "replace":
            (folder / name).write_bytes(body)
        elif mode == "append":
            (folder / name).write_bytes((folder / name).read_bytes() + body)
        elif mode == "link":
            (folder / "zz_fuzz.yaml").symlink_to("absent/" + name)
        elif mode == "loop":
            (folder / "zz_a.yaml").symlink_to("zz_b.yaml")
            (folder / "zz_b.yaml").symlink_to("zz_a.yaml")
        else:
            (folder / "zz_fuzz.yaml").mkdir()
            ((folder / "zz_fuzz.yaml") / "x.yaml").write_bytes(body)
        for fmt in ("json", "text", "github"):
            code, out, err = run_cli(["check", str(folder), "--format", fmt])
            assert code in (0, 1), err
            assert "Traceback" not in out + err and "erreur interne" not in err
        doc = json.loads(run_cli(["check", str(folder), "--format", "json"])[1])
        for f in doc["findings"]:
            assert f["code"] in CODES and f["line"] >= 1 and f["column"] >= 1, f
            assert "(e)" not in f["message"] and "(s)" not in f["message"], f
