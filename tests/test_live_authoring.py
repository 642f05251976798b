"""``gamebook serve --authoring`` after a save: only the edited campaign is checked and only its
story map written again (the other campaigns' pages are left as they are, an unchanged page is
not rewritten), and the maps are then exactly those a whole rewrite gives."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pipeline.publish.live import Live, Watcher
from pipeline.publish.storymap import update_storymaps, write_storymaps
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
TEXT = re.compile(r"^(?P<lead>[ ]+text: >-?[ ]*\n[ ]+)", re.M)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _stamps(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*.html")}


def _edit_citadel(content: Path) -> Path:
    """A card's text rewritten in the Citadel: its map changes."""
    path = content / "citadelle" / "aventure.yaml"
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^(\s+text: )(.*)$", r"\1Un texte réécrit. \2", text, count=1)
    assert n == 1
    path.write_text(text, encoding="utf-8")
    return path


def test_one_campaign_written_again_gives_the_whole_rewrite(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    known: dict[str, dict] = {}
    write_storymaps(check(content, jobs=1), out, known=known)
    assert set(known) == set(check(content, jobs=1).graphs)
    before = _stamps(out)
    _edit_citadel(content)
    partial = check(content, jobs=1, only=content / "citadelle")
    assert list(partial.graphs) == ["citadelle"]
    update_storymaps(partial, out, known)
    write_storymaps(check(content, jobs=1), fresh)
    assert _tree(out / "carte") == _tree(fresh / "carte")
    after = _stamps(out)
    untouched = [name for name in before if not name.startswith("carte/citadelle/")]
    assert untouched and all(after[name] == before[name] for name in untouched)
    rewritten = [n for n in before if n.startswith("carte/citadelle/") and after[n] != before[n]]
    citadel = [n for n in before if n.startswith("carte/citadelle/")]
    assert rewritten and len(rewritten) < len(citadel) / 2  # the pages that changed only


def test_a_page_of_a_node_gone_does_not_linger(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "citadelle", content / "citadelle")
    out = tmp_path / "out"
    known: dict[str, dict] = {}
    write_storymaps(check(content, jobs=1), out, known=known)
    stray = out / "carte" / "citadelle" / "n" / "paragraph-99999.html"
    stray.write_text("vieille page", encoding="utf-8")
    update_storymaps(check(content, jobs=1, only=content / "citadelle"), out, known)
    assert not stray.exists()
    (out / "carte" / "ancienne").mkdir()
    (out / "carte" / "ancienne" / "index.html").write_text("x", encoding="utf-8")
    write_storymaps(check(content, jobs=1), out)
    assert not (out / "carte" / "ancienne").exists()


def test_the_watcher_rewrites_the_edited_campaign_only(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    out = tmp_path / "site"
    write_storymaps(check(content, jobs=1), out)
    (out / "manifest.json").write_text('{"bundles": {}}', encoding="utf-8")
    (out / "bundles").mkdir()
    watcher = Watcher(Live(out), content, out, ROOT / "mkdocs.yml", True, True)
    # the first save: every map (the list of maps needs each campaign's line)
    path = _edit_citadel(content)
    watcher.rebuild_content({str(path)})
    assert set(watcher.maps) == set(check(content, jobs=1).graphs)
    before = _stamps(out)
    path = _edit_citadel(content)
    watcher.rebuild_content({str(path)})
    after = _stamps(out)
    assert all(after[n] == before[n] for n in before if not n.startswith("carte/citadelle/"))
    fresh = tmp_path / "fresh"
    write_storymaps(check(content, jobs=1), fresh)
    assert _tree(out / "carte") == _tree(fresh / "carte")
    assert watcher.live.version == 3 and watcher.live.findings == []


def test_the_watcher_primed_writes_the_first_save_s_campaign_only(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    out = tmp_path / "site"
    write_storymaps(check(content, jobs=1), out)
    (out / "manifest.json").write_text('{"bundles": {}}', encoding="utf-8")
    (out / "bundles").mkdir()
    watcher = Watcher(Live(out), content, out, ROOT / "mkdocs.yml", True, True)
    before = _stamps(out)
    watcher.prime()
    assert set(watcher.maps) == set(check(content, jobs=1).graphs)
    assert _stamps(out) == before  # the same pages: none written again
    path = _edit_citadel(content)
    watcher.rebuild_content({str(path)})
    after = _stamps(out)
    assert all(after[n] == before[n] for n in before if not n.startswith("carte/citadelle/"))
    fresh = tmp_path / "fresh"
    write_storymaps(check(content, jobs=1), fresh)
    assert _tree(out / "carte") == _tree(fresh / "carte")
