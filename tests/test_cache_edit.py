"""One real edit re-checked from the stored result (``pipeline.story.incremental``): a field the
checks
over the graph never read (a node's text) changes only that file's own findings, and the result
is exactly a cold check's; a field they read (a choice, an id, a reference) takes the full path.

The property test applies random sequences of writer's edits aimed at fields (texts, titles,
references, ids, numbers, booleans) and compares the cached check with a cold one each time.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import shutil
import tempfile
from pathlib import Path

from conftest import CAMPAIGNS, copy_base, read, write
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_cache import EDITS, corrupt, writer_edit

from pipeline.content.cache import Cache
from pipeline.messages import t
from pipeline.story import incremental
from pipeline.story.report import check


def content_of(tmp: Path) -> Path:
    content = tmp / "content"
    for name in CAMPAIGNS:
        copy_base(name, content)
    return content


def rewrite(path: Path, field: str, value: str, nth: int = 0) -> None:
    """Rewrite the value of the ``nth`` line ``<indent>field: ...`` of ``path`` (one line)."""
    lines = read(path).splitlines(keepends=True)
    found = [j for j, line in enumerate(lines) if line.lstrip(" -").startswith(f"{field}:")]
    j = found[nth]
    head, _, _ = lines[j].partition(":")
    lines[j] = f"{head}: {value}\n"
    write(path, "".join(lines))


def same_as_cold(content: Path, root: Path) -> Cache:
    cache = Cache(root)
    warm = check(content, cache=cache, graphs=False)
    cold = check(content)
    assert warm.findings == cold.findings
    assert warm.stats() == cold.stats()
    return cache


def test_a_text_edit_takes_the_quick_path(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    root = tmp_path / "cache"
    same_as_cold(content, root)
    rewrite(content / "citadelle" / "aventure.yaml", "text", "Un texte tout neuf.")
    cache = same_as_cold(content, root)
    assert cache.quick == 1
    # again, from the per-campaign entry the quick path stored
    again = same_as_cold(content, root)
    assert again.quick == 0
    # and a second edit of the same file builds on the first
    rewrite(content / "citadelle" / "aventure.yaml", "text", "Encore un autre.", nth=1)
    assert same_as_cold(content, root).quick == 1


def test_a_text_edit_with_its_own_finding_is_exact(tmp_path: Path) -> None:
    """The edited file's own findings (validation) are recomputed: a text that is not a text
    any more is reported, at its line, and the finding goes away when it is fixed."""
    content = content_of(tmp_path)
    root = tmp_path / "cache"
    same_as_cold(content, root)
    path = content / "citadelle" / "aventure.yaml"
    original = read(path)
    rewrite(path, "text", "[1, 2]")
    same_as_cold(content, root)
    write(path, original)
    same_as_cold(content, root)


def test_a_field_the_checks_read_takes_the_full_path(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    root = tmp_path / "cache"
    same_as_cold(content, root)
    path = content / "citadelle" / "aventure.yaml"
    rewrite(path, "type", "lieu")  # the card type: read by the checks
    report_cache = same_as_cold(content, root)
    assert report_cache.quick == 0
    rewrite(content / "citadelle" / "paragraphes.yaml", "text", "Un autre choix.", nth=1)
    assert same_as_cold(content, root).quick == 0  # a choice's text: ``choices`` is read


def test_a_corrupt_stored_result_is_not_trusted(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    root = tmp_path / "cache"
    same_as_cold(content, root)
    for entry in (root / "edits").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-3] + b"xyz")
    rewrite(content / "citadelle" / "aventure.yaml", "text", "Un texte tout neuf.")
    assert same_as_cold(content, root).quick == 0


def test_records_get_their_plain_data_back(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    report = check(content, cache=Cache(tmp_path / "cache"), graphs=False)
    for camp in report.campaigns:
        for rec in camp.records:
            assert type(rec.data) is dict


def test_every_way_of_reading_is_noted() -> None:
    def logged() -> incremental._Logged:
        d = incremental._Logged({"a": 1, "b": [2]})
        d.log = set()
        return d

    reads = {
        "a": [lambda d: d["a"], lambda d: d.get("a"), lambda d: "a" in d],
        incremental.KEYS: [list, len, bool, lambda d: d.keys(), lambda d: sorted(d)],
        incremental.ALL: [
            lambda d: d.items(),
            lambda d: d.values(),
            lambda d: d == {},
            lambda d: d != {},
            repr,
            str,
            lambda d: d.copy(),
            lambda d: d | {},
            lambda d: {} | d,
            json.dumps,
            copy.deepcopy,
            lambda d: pickle.dumps(d),
            lambda d: d.setdefault("c", 3),
            lambda d: d.pop("a"),
            lambda d: d.update(c=3),
        ],
    }
    for expected, ways in reads.items():
        for way in ways:
            d = logged()
            way(d)
            assert expected in d.log or incremental.ALL in d.log, (expected, way)
    d = logged()
    assert dict(d) == {"a": 1, "b": [2]} and {**d} == {"a": 1, "b": [2]}
    assert d.log  # through the keys, not behind the log's back


def test_a_kept_tracker_notes_each_run_apart() -> None:
    """``Tracker(keep=True)`` (the language server's workspace): the records stay wrapped
    between runs, each run's read set holds what that run read and nothing read between two
    runs, and a kept record compares as the same as its plain data."""
    from types import SimpleNamespace

    recs = [SimpleNamespace(kind="k", data={"a": 1, "b": 2}), SimpleNamespace(kind="j", data={})]
    first = incremental.Tracker(recs, "build", keep=True)
    recs[0].data.get("a")
    first.phase("checks")
    _ = recs[0].data["b"]
    assert first.stop() == {"k": frozenset({"a", "b"}), "j": frozenset()}
    assert first.phases["build"]["k"] == {"a"} and first.phases["checks"]["k"] == {"b"}
    wrapped = recs[0].data
    assert type(wrapped) is incremental._Logged
    _ = wrapped["b"]  # between two runs: seen by neither
    assert incremental._same(wrapped, {"a": 1, "b": 2})
    assert not incremental._same(wrapped, {"a": 1, "b": 2.0})
    recs.append(SimpleNamespace(kind="k", data={"c": 3}))  # a record new to this run
    second = incremental.Tracker(recs, keep=True)
    assert recs[0].data is wrapped  # not copied again
    _ = recs[2].data["c"]
    assert second.stop() == {"k": frozenset({"c"}), "j": frozenset()}
    assert type(recs[2].data) is incremental._Logged


# ------------------------------------------------------------------ random field edits

VALUES = ["Un autre texte.", "x", "1", "2", "102", "true", "false", "1.0", "[]", "I", "zz", ""]


def field_edit(content: Path, rng: random.Random, originals: dict[Path, bytes]) -> None:
    """A writer's edit of one field's value, on one line (texts and titles mostly), or any
    edit of ``writer_edit``."""
    if rng.random() < 0.25:
        writer_edit(content, rng, originals)
        return
    files = sorted(p for p in content.rglob("*.yaml") if p.is_file() and not p.is_symlink())
    path = rng.choice(files)
    lines = read(path).splitlines(keepends=True)
    texts = [j for j, line in enumerate(lines) if line.lstrip(" -").startswith(("text:", "title:"))]
    fields = [
        j
        for j, line in enumerate(lines)
        if ":" in line and not line.lstrip().startswith("#") and not line.rstrip().endswith(":")
    ]
    pool = texts if texts and rng.random() < 0.6 else fields
    if not pool:
        return
    j = rng.choice(pool)
    head, _, _ = lines[j].partition(":")
    lines[j] = f"{head}: {rng.choice(VALUES)}\n"
    write(path, "".join(lines))


@EDITS
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 8))
@example(seed=423, steps=3)  # a record's own error folds a whole-campaign count (cold did)
def test_field_edits_from_the_stored_result_equal_cold(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gamebook-edit-") as tmp:
        content = content_of(Path(tmp))
        originals = {p: p.read_bytes() for p in content.rglob("*.yaml")}
        root = Path(tmp) / "cache"
        same_as_cold(content, root)
        for _ in range(steps):
            field_edit(content, rng, originals)
            if rng.random() < 0.1 and root.exists():
                corrupt(root, rng)
            same_as_cold(content, root)


CONTENT = Path(__file__).resolve().parent.parent / "content"


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 5))
def test_field_edits_of_every_game_equal_cold(seed: int, steps: int) -> None:
    """The same on the project's own content: every game's hooks run under the tracking."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gamebook-edit-") as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(CONTENT, content)
        originals = {p: p.read_bytes() for p in content.rglob("*.yaml")}
        root = Path(tmp) / "cache"
        same_as_cold(content, root)
        for _ in range(steps):
            field_edit(content, rng, originals)
            same_as_cold(content, root)


def test_same_is_equality_with_types() -> None:
    same = incremental._same
    assert same({"a": [1, "x", None]}, {"a": [1, "x", None]})
    assert same(["ab" * 3, ("k",)], ["".join(["ab"] * 3), ("k",)])  # shared or not
    assert not same([1], [True]) and not same([1], [1.0]) and not same(0.0, -0.0)
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})  # the order a check may iterate in
    assert not same(object(), object())


def test_an_edit_beside_a_broken_reference_keeps_its_consequences_folded(tmp_path: Path) -> None:
    """A reference to nothing folds what lies behind the id it meant (``fold_behind``): a
    text edited elsewhere changes nothing the graph is made of, so the stored entry folds the
    findings as the full check did (``Entry.behind``), and the result is a cold check's."""
    content = content_of(tmp_path)
    cards = content / "dilemme" / "cartes.yaml"
    write(cards, read(cards).replace("  - id: D12\n", "  - id: D12-digue\n", 1))
    root = tmp_path / "cache"
    same_as_cold(content, root)
    rewrite(cards, "text", "Un texte tout neuf.")
    cache = same_as_cold(content, root)
    assert cache.quick == 1  # the stored result, folded without the graph
    cold = check(content).findings
    behind = [f for f in cold if f.cause]
    assert behind  # something is folded, and the quick path folded it the same way
    cause = next(f for f in cold if f.where() == behind[0].cause)
    n = sum(1 for f in behind if f.cause == behind[0].cause)
    what = t("fold.others", n=n) if n > 1 else t("fold.other")
    assert cause.message.endswith(t("fold.more_error", what=what))
    # a second text edit, from the entry the quick path stored
    rewrite(cards, "text", "Un autre texte.", nth=1)
    assert same_as_cold(content, root).quick == 1


def test_a_stored_fold_that_names_a_stranger_is_not_trusted(tmp_path: Path) -> None:
    """``Entry.behind`` must name the entry's own findings: one that does not is a miss."""
    content = content_of(tmp_path)
    cards = content / "dilemme" / "cartes.yaml"
    write(cards, read(cards).replace("  - id: D12\n", "  - id: D12-digue\n", 1))
    root = tmp_path / "cache"
    same_as_cold(content, root)
    store = Cache(root)
    spoiled = 0
    for path in (root / "edits").rglob("*"):
        entry = store.get_edit(path.name) if path.is_file() else None
        if entry is not None and entry.behind:
            node = next(iter(entry.behind))
            entry.behind[node] = copy.copy(entry.behind[node])  # equal, but not one of found
            store.put_edit(path.name, entry)
            assert store.get_edit(path.name) is None
            spoiled += 1
    assert spoiled
    rewrite(cards, "text", "Un texte tout neuf.")
    assert same_as_cold(content, root).quick == 0
