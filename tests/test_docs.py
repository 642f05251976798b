"""The writers' guide and the generated format reference cover the whole format, and the site
builds (strict) without a single request to another origin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline import reference
from pipeline import schema as S
from pipeline.findings import CODES

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "site" / "guide-auteurs.md"


def _names() -> set[str]:
    names: set[str] = set(CODES)
    for family in S.FAMILIES:
        names |= set(S.EFFECTS[family]) | set(S.CONDITIONS[family])
        for kind in S.KINDS[family].values():
            names.add(kind.name)
            if kind.section:
                names.add(kind.section)
            names |= set(kind.fields)
    names |= set(S.CAMPAIGN.fields)
    return names


def test_guide_documents_every_kind_field_effect_condition_and_code():
    text = GUIDE.read_text(encoding="utf-8")
    quoted = set(re.findall(r"`([^`\n]+)`", text))
    missing = sorted(n for n in _names() if n not in quoted and f"{n}:" not in text)
    assert missing == []


def test_guide_shows_an_example_message_for_every_code():
    text = GUIDE.read_text(encoding="utf-8")
    for code in CODES:
        assert re.search(rf":\d+:\d+: (error|warning) {code} ", text), code


def test_reference_lists_every_field_of_every_kind():
    page = reference.render()
    for family in S.FAMILIES:
        for kind in S.KINDS[family].values():
            assert f"`{kind.name}`" in page
            for name in kind.fields:
                assert f"| `{name}` |" in page, (kind.name, name)
        for name in S.EFFECTS[family]:
            assert f"| `{name}` |" in page
    for code in CODES:
        assert f"| `{code}` |" in page


def test_reference_escapes_markup():
    assert reference._cell("<script>alert(1)</script> | x") == (
        "&lt;script&gt;alert(1)&lt;/script&gt; \\| x"
    )


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    from pipeline.site import build

    out = tmp_path_factory.mktemp("site")
    assert build(ROOT / "content", out, ROOT / "mkdocs.yml") == 0
    return out


def test_site_has_the_pages_the_runtime_and_the_bundles(built_site):
    import json

    pages = ["index.html", "guide-auteurs.html", "reference-format.html", "regles-dilemme.html",
             "play/dilemme/index.html", "play/citadelle/index.html",
             "chronique/dilemme/index.html", "chronique/citadelle/index.html"]  # fmt: skip
    for page in pages:
        assert (built_site / page).is_file(), page
    manifest = json.loads((built_site / "manifest.json").read_text(encoding="utf-8"))
    assert {"dilemme", "citadelle"} <= set(manifest["bundles"])  # and every other game's
    for rel in [manifest["engine"], *manifest["bundles"].values()]:
        assert (built_site / rel).is_file(), rel
    packed = manifest.get("packed", {})  # shipped as Zstandard (pipeline.packed)
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        rel = f"pyodide/{name}"
        assert (built_site / (packed[rel]["zst"] if rel in packed else rel)).is_file(), name
    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    # the worker precaches the engine and the manifest; its version digests every precached file
    assert manifest["engine"] in sw and '"manifest.json"' in sw
    html = (built_site / "reference-format.html").read_text(encoding="utf-8")
    assert 'lang="fr"' in html


def test_play_page_shows_the_opening_text_before_the_engine_runs(built_site):
    html = (built_site / "play" / "dilemme" / "index.html").read_text(encoding="utf-8")
    story = html.split('data-testid="story"', 1)[1].split("</div>", 1)[0]
    assert len(story) > 200  # the campaign's opening, readable before Pyodide is ready
    assert "<script" not in story


def test_site_loads_nothing_from_another_origin(built_site):
    foreign = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""")
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        hits = [m.group(0) for m in foreign.finditer(text)]
        assert hits == [], page
    for css in built_site.rglob("*.css"):
        assert "fonts.googleapis" not in css.read_text(encoding="utf-8"), css


def test_play_pages_start_python_from_their_head(built_site):
    """Python's start (assets/boot.js, an async module) is asked for before the theme's styles
    and scripts, with what it needs named in the head (issue 17: warm start ≤ 1 s)."""
    import re

    from engine.core import registry

    for game in registry.ids():
        html = (built_site / "play" / game / "index.html").read_text(encoding="utf-8")
        head = html.split("</head>", 1)[0]
        meta = re.search(r'<meta name="gb-play" data-game="([a-z_]+)" data-root="([^"]+)">', head)
        assert meta and meta.group(1) == game, game
        boot = head.find('<script type="module" async src="../../assets/boot.js">')
        assert boot != -1, game
        assert boot < head.find('rel="stylesheet"') and boot < head.find("<script src="), game
        assert head.find('rel="preload" href="../../manifest.json"') < boot, game
        # the snapshot's read begins in the head's own script, before any file arrives
        assert -1 < head.find("window.gbEarly") < head.find('rel="stylesheet"'), game
    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    # an exact match first: matching while ignoring the query reads every entry
    assert "store.match(request)" in sw and "url).search" in sw
