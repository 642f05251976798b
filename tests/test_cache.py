"""The checker's cache (``pipeline.content.cache``): whatever a writer does between two checks, and
whatever happens to the cache itself, a cached check prints exactly what a cold one prints.

The property test applies random sequences of edits to a copy of a base campaign (changes,
broken YAML, deleted and added files, links, reverts to an earlier state) and corrupts the cache
at random; after every step it compares ``gamebook check`` with the cache to ``--no-cache``.
"""

from __future__ import annotations

import contextlib
import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import BASE, CAMPAIGNS, copy_base, read, run_cli, write
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.content import cache as cache_mod
from pipeline.content.cache import Cache, cache_dir, fingerprint
from pipeline.story.report import check

EDITS = settings(
    max_examples=int(os.environ.get("GAMEBOOK_CACHE_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

FRAGMENTS = [
    "\n",
    "# un commentaire\n",
    "zz: [\n",
    "  - id: 999\n    text: Ajouté.\n",
    "\tzz: 1\n",
    'zz: "ouvert\n',
    "paragraphs: 3\n",
]


@contextlib.contextmanager
def env_cache(root: Path) -> Iterator[None]:
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(root)
    try:
        yield
    finally:
        if old is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = old


def same_as_cold(folder: Path, fmt: str) -> None:
    warm = run_cli(["check", str(folder), "--format", fmt])
    cold = run_cli(["check", str(folder), "--format", fmt, "--no-cache"])
    assert warm == cold


def edit(folder: Path, rng: random.Random, originals: dict[str, bytes]) -> None:
    files = sorted(p for p in folder.rglob("*.yaml") if p.is_file() and not p.is_symlink())
    op = rng.choice(["append", "swap", "delete", "add", "revert", "link", "truncate", "nothing"])
    if op == "append" and files:
        path = rng.choice(files)
        write(path, read(path) + rng.choice(FRAGMENTS))
    elif op == "swap" and files:
        a, b = rng.choice(files), rng.choice(files)
        lines_a, lines_b = read(a).splitlines(keepends=True), read(b).splitlines(keepends=True)
        if lines_a and lines_b:
            lines_a[rng.randrange(len(lines_a))] = rng.choice(lines_b)
            write(a, "".join(lines_a))
    elif op == "delete" and len(files) > 1:
        path = rng.choice([p for p in files if p.name != "campaign.yaml"] or files)
        path.unlink()
    elif op == "add" and files:
        src = rng.choice(files)
        (folder / f"zz_{rng.randrange(100)}.yaml").write_bytes(src.read_bytes())
    elif op == "revert":
        name = rng.choice(sorted(originals))
        (folder / name).write_bytes(originals[name])
    elif op == "link":
        target = folder / f"zz_lien_{rng.randrange(3)}.yaml"
        if not os.path.lexists(target):
            target.symlink_to(rng.choice(["absent.yaml", *(p.name for p in files)]))
    elif op == "truncate" and files:
        path = rng.choice(files)
        raw = path.read_bytes()
        path.write_bytes(raw[: rng.randrange(len(raw) + 1)])


def corrupt(root: Path, rng: random.Random) -> None:
    entries = sorted(p for p in root.rglob("*") if p.is_file())
    for path in rng.sample(entries, k=min(len(entries), rng.randint(0, 3))):
        raw = path.read_bytes()
        how = rng.choice(["truncate", "flip", "garbage", "empty"])
        if how == "truncate":
            path.write_bytes(raw[: rng.randrange(len(raw) + 1)])
        elif how == "flip" and raw:
            i = rng.randrange(len(raw))
            path.write_bytes(raw[:i] + bytes([raw[i] ^ 0x5A]) + raw[i + 1 :])
        elif how == "garbage":
            path.write_bytes(os.urandom(rng.randint(1, 200)))
        else:
            path.write_bytes(b"")


@EDITS
@given(
    campaign=st.sampled_from(CAMPAIGNS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 6),
    fmt=st.sampled_from(["json", "text", "github"]),
)
def test_random_edit_sequences_cached_equals_cold(
    campaign: str, seed: int, steps: int, fmt: str
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gamebook-cache-") as tmp:
        root = Path(tmp) / "cache"
        folder = copy_base(campaign, Path(tmp))
        originals = {p.name: p.read_bytes() for p in folder.glob("*.yaml")}
        with env_cache(root):
            same_as_cold(folder, fmt)
            for _ in range(steps):
                edit(folder, rng, originals)
                if rng.random() < 0.3 and root.exists():
                    corrupt(root, rng)
                same_as_cold(folder, fmt)
                same_as_cold(folder, fmt)  # the second time from the run cache


@pytest.mark.parametrize("campaign", CAMPAIGNS)
def test_api_findings_with_cache_equal_cold(tmp_path: Path, campaign: str) -> None:
    folder = copy_base(campaign, tmp_path)
    cache = Cache(tmp_path / "cache")
    cold = check(folder).findings
    assert check(folder, cache=cache).findings == cold
    assert cache.hits == 0 and cache.misses > 0
    again = Cache(tmp_path / "cache")
    assert check(folder, cache=again).findings == cold
    assert again.misses == 0 and again.hits > 0


def test_cache_lives_in_xdg_cache_home_never_in_the_content(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    with env_cache(tmp_path / "xdg"):
        assert cache_dir() == tmp_path / "xdg" / "gamebook"
        run_cli(["check", str(folder)])
        assert any((tmp_path / "xdg" / "gamebook").rglob("*"))
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before


def test_relative_xdg_cache_home_is_ignored(tmp_path: Path) -> None:
    with env_cache(Path("relatif")):
        assert cache_dir() == Path.home() / ".cache" / "gamebook"


def test_corrupt_entries_are_ignored_and_rewritten(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[1], tmp_path)
    root = tmp_path / "cache"
    cold = check(folder).findings
    check(folder, cache=Cache(root))
    for path in (root / "files").rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes()[:-5] + b"xxxxx")
    again = Cache(root)
    assert check(folder, cache=again).findings == cold
    assert again.hits == 0  # nothing corrupt was trusted
    third = Cache(root)
    assert check(folder, cache=third).findings == cold
    assert third.misses == 0  # and everything was rewritten


def test_entries_of_another_checker_version_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    check(folder, cache=Cache(tmp_path / "cache"))
    monkeypatch.setattr(cache_mod, "_CODE", "une-autre-version")
    other = Cache(tmp_path / "cache")
    check(folder, cache=other)
    assert other.hits == 0


def test_unwritable_cache_only_costs_time(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    blocker = tmp_path / "fichier"
    blocker.write_text("pas un dossier")
    assert check(folder, cache=Cache(blocker / "cache")).findings == check(folder).findings


def test_fingerprint_sees_every_kind_of_change(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    seen = {fingerprint(folder)}
    name = sorted(p.name for p in folder.glob("*.yaml"))[-1]
    (folder / name).write_bytes((folder / name).read_bytes() + b"\n")
    seen.add(fingerprint(folder))
    (folder / "zz.yaml").symlink_to("absent.yaml")
    seen.add(fingerprint(folder))
    (folder / "zz.yaml").unlink()
    (folder / "zz.yaml").mkdir()
    seen.add(fingerprint(folder))
    (folder / "zz.yaml" / "a.yaml").write_text("a: 1\n")
    seen.add(fingerprint(folder))
    (folder / "zz.yaml" / "a.yaml").chmod(0o200)
    seen.add(fingerprint(folder))
    assert len(seen) == 6
    assert fingerprint(tmp_path / "absent") is None


def test_fixtures_untouched() -> None:
    assert not list(BASE.rglob("zz*"))


def test_prune_keeps_the_cache_bounded_and_the_recent_entries(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    cache = Cache(tmp_path / "cache")
    check(folder, cache=cache)
    entries = sorted(p for p in (tmp_path / "cache").rglob("*") if p.is_file())
    assert entries
    old = entries[0]
    os.utime(old, ns=(1, 1))  # the least recently used
    size = sum(p.stat().st_size for p in entries)
    assert cache.prune(max_bytes=size - 1) >= 1
    assert not old.exists()
    assert cache.prune(max_bytes=0) == len(entries) - 1
    assert check(folder, cache=Cache(tmp_path / "cache")).findings == check(folder).findings


def test_models_pickle_compactly_and_round_trip(tmp_path: Path) -> None:
    """File models travel through pickle (the cache, worker processes) as constructor and
    values: loaded back they are equal, field for field."""
    import pickle

    from pipeline.content.project import load

    folder = copy_base(CAMPAIGNS[0], tmp_path)
    campaigns, _ = load(folder, jobs=1)
    for camp in campaigns:
        for items in (camp.records, camp.refs, camp.grants, camp.conditions, camp.words):
            for item in items:
                back = pickle.loads(pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL))
                assert type(back) is type(item) and back == item
                assert b"__slots__" not in pickle.dumps(item)
    finding = check(folder).findings
    assert pickle.loads(pickle.dumps(finding)) == finding


# ------------------------------------------------------------------ per-campaign results


def writer_edit(content: Path, rng: random.Random, originals: dict[Path, bytes]) -> None:
    """An edit a writer makes: a comment or a blank line (bytes change, the model does not),
    a text rewritten, an id or a reference renamed, a line duplicated or removed, a file
    emptied, or any edit of ``edit`` in one of the campaigns."""
    files = sorted(p for p in content.rglob("*.yaml") if p.is_file() and not p.is_symlink())
    if not files:
        return
    path = rng.choice(files)
    lines = read(path).splitlines(keepends=True) or ["\n"]
    op = rng.choice(["comment", "blank", "text", "rename", "dup", "drop", "revert", "other"])
    i = rng.randrange(len(lines))
    if op == "comment":
        lines.insert(i if rng.random() < 0.5 else len(lines), "# une note\n")
    elif op == "blank":
        lines.append("\n")
    elif op == "text":
        found = [j for j, line in enumerate(lines) if "text:" in line or "title:" in line]
        if found:
            j = rng.choice(found)
            head, _, _ = lines[j].partition(":")
            lines[j] = f"{head}: {rng.choice(['Un autre texte.', 'Modifié', 'x'])}\n"
    elif op == "rename":
        found = [
            j
            for j, line in enumerate(lines)
            if any(k in line for k in ("id:", "number:", "read:", "take:", "card:", "zone:"))
        ]
        if found:
            j = rng.choice(found)
            head, _, _ = lines[j].partition(":")
            lines[j] = f"{head}: {rng.choice(['1', '102', '150', 'I', 'II', 'zz', '999'])}\n"
    elif op == "dup":
        lines.insert(i, lines[i])
    elif op == "drop":
        del lines[i]
    elif op == "revert":
        orig = rng.choice(sorted(originals))
        orig.write_bytes(originals[orig])
        return
    else:
        edit(path.parent, rng, {p.name: b for p, b in originals.items() if p.parent == path.parent})
        return
    write(path, "".join(lines))


@EDITS
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 8))
@example(seed=193, steps=8)  # a record's own error folds a whole-campaign count (cold did)
def test_campaign_results_from_the_cache_equal_cold(seed: int, steps: int) -> None:
    """``check(graphs=False)`` with a cache (what ``gamebook check`` runs) reuses a campaign's
    results when its models did not change: after any sequence of writer's edits to two
    campaigns, and a cache corrupted at random, its findings and statistics are a cold
    check's."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gamebook-cache-") as tmp:
        content = Path(tmp) / "content"
        for name in CAMPAIGNS:
            copy_base(name, content)
        originals = {p: p.read_bytes() for p in content.rglob("*.yaml")}
        root = Path(tmp) / "cache"
        for _ in range(steps + 1):
            cold = check(content)
            warm = check(content, cache=Cache(root), graphs=False)
            assert warm.findings == cold.findings
            assert warm.stats() == cold.stats()
            writer_edit(content, rng, originals)
            if rng.random() < 0.2 and root.exists():
                corrupt(root, rng)


def test_a_comment_reuses_the_campaign_results(tmp_path: Path) -> None:
    content = tmp_path / "content"
    for name in CAMPAIGNS:
        copy_base(name, content)
    root = tmp_path / "cache"
    check(content, cache=Cache(root), graphs=False)
    target = sorted((content / CAMPAIGNS[1]).glob("*.yaml"))[-1]
    write(target, read(target) + "# une note\n")
    cache = Cache(root)
    report = check(content, cache=cache, graphs=False)
    assert report.graphs == {}  # no graph built: both campaigns' results came from the cache
    assert report.findings == check(content).findings
    assert report.stats() == check(content).stats()
    # a real change: that campaign is checked again, the other one still comes from the cache
    write(target, read(target).replace("text:", "title: Ajouté\n    text:", 1))
    report = check(content, cache=Cache(root), graphs=False)
    assert list(report.graphs) == [CAMPAIGNS[1]]
    assert report.findings == check(content).findings


def test_unchanged_sees_a_change_without_reading(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    snapshot: list = []
    assert fingerprint(folder, snapshot) is not None
    assert cache_mod.unchanged(folder, snapshot)
    name = sorted(folder.glob("*.yaml"))[0]
    write(name, read(name) + "\n")
    assert not cache_mod.unchanged(folder, snapshot)
