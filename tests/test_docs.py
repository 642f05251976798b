"""The writers' guide and the generated format reference cover the whole format, and the site
builds (strict) without a single request to another origin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pipeline import schema as S
from pipeline.publish import reference
from pipeline.story.catalogue import CODES

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
    from pipeline.publish.site import build

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
    packed = manifest.get("packed", {})  # shipped as Zstandard (pipeline.publish.packed)
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


# ---------------------------------------------------------------- the guide's examples, run

#: the guide's game sections and the family each one documents
GAME_SECTIONS = {
    "Le Dilemme du Roi": "dilemme",
    "The 7th Citadel": "citadelle",
    "Le Roi des 12": "roi",
    "Complots": "complots",
    "Le Conseil des 12": "conseil",
}
#: the codes found while a file is read and validated (the others need the whole campaign)
VALIDATION_CODES = ("YAML", "CAMP", "FIELD")
FINDING_LINE = re.compile(r"^\S+:\d+:\d+: (error|warning) ([A-Z]+\d+) (.*)$")


def _blocks(text: str) -> tuple[list[dict], list[str], dict | None]:
    """The fenced blocks (language, first line, body, the ``##`` section they sit in), the
    headings outside any block, and the block left open at the end (``None``)."""
    blocks: list[dict] = []
    headings: list[str] = []
    current: dict | None = None
    section = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^(\s*)```(\w*)\s*$", line)
        if current is None:
            if re.match(r"^#{1,6} ", line):
                headings.append(line)
                if line.startswith("## "):
                    section = line[3:]
            if fence:
                current = {"lang": fence.group(2), "line": number, "indent": len(fence.group(1)),
                           "body": [], "section": section}  # fmt: skip
        elif fence and not fence.group(2):
            blocks.append(current)
            current = None
        else:
            current["body"].append(line[current["indent"] :])
    return blocks, headings, current


def _guide_blocks() -> list[dict]:
    return _blocks(GUIDE.read_text(encoding="utf-8"))[0]


def test_guide_fences_are_closed_and_every_game_has_its_heading():
    """Issue 31: the Roi's example was never closed, so « Complots » and its tables vanished
    into a code block."""
    blocks, headings, left_open = _blocks(GUIDE.read_text(encoding="utf-8"))
    assert left_open is None
    for block in blocks:  # a heading inside a block: a fence closed too late
        inside = [t for t in block["body"] if re.match(r"^#{2,6} \S", t)]
        assert inside == [], (block["line"], inside)
    for title in GAME_SECTIONS:
        assert f"## {title}" in headings, title
    # the games come before the catalogue of findings, the Conseil with the others
    order = [h for h in headings if h.startswith("## ")]
    assert max(order.index(f"## {t}") for t in GAME_SECTIONS) < order.index(
        "## Ce que vérifie `gamebook check`"
    )


def test_guide_opening_names_the_five_games():
    from engine.core import registry

    opening = GUIDE.read_text(encoding="utf-8").split("\n## ", 1)[0]
    for game in registry.games():
        assert game.title in opening, game.title


def _expected(blocks: list[dict], index: int) -> list[tuple[str, str, str]]:
    """The findings the text shows right after example ``index``: (severity, code, message)."""
    out: list[tuple[str, str, str]] = []
    for block in blocks[index + 1 : index + 2]:
        if block["lang"] != "text":
            continue
        for line in block["body"]:
            m = FINDING_LINE.match(line)
            if m:
                out.append((m.group(1), m.group(2), m.group(3)))
    return out


def _hosts(family: str, keys: set[str]) -> list[list[str]]:
    """Where in a file of ``family`` a mapping with ``keys`` may stand: the paths (section
    names, field names and ``-`` for a list item) down to a record that has those fields."""
    from engine.core import schema as C

    out: list[list[str]] = []

    def walk(spec, path: list[str], depth: int) -> None:
        if depth > 6:
            return
        if isinstance(spec, C.ListOf):
            walk(spec.item, [*path, "-"], depth + 1)
        elif isinstance(spec, C.SubNodes):
            sub = S.KINDS[family][spec.kind]
            walk(C.Record(fields=sub.fields), [*path, "-"] if spec.many else path, depth + 1)
        elif isinstance(spec, C.Effects):
            for name, f in S.EFFECTS[family].items():
                walk(f.spec, [*path, "-", name], depth + 2)
        elif isinstance(spec, C.Record):
            if keys <= set(spec.fields):
                out.append(path)
            for name, f in spec.fields.items():
                walk(f.spec, [*path, name], depth + 1)

    for kind in S.KINDS[family].values():
        if kind.section:
            path = [kind.section] if kind.single else [kind.section, "-"]
            walk(C.Record(fields=kind.fields), path, 0)
    return out


def _wrap(text: str, path: list[str], head: str = "") -> str:
    """``text`` (a mapping) written at ``path`` inside a file; ``head``: a line the record of
    the section's list begins with (its id)."""
    lines = text.splitlines()
    for depth, step in reversed(list(enumerate(path))):
        if step == "-":
            first = head if depth == 1 and head and path[depth + 1 :] else ""
            lines = [f"- {first}".rstrip(), *("  " + line for line in lines)]
        else:
            lines = [f"{step}:", *("  " + line for line in lines)]
    return "\n".join(lines) + "\n"


def _validate(family: str, text: str) -> list[list[tuple[str, str, str]]]:
    """The findings of reading and validating ``text`` as one file of a ``family`` campaign:
    as a whole file, else in every place of a file where such records or such a part of a
    record may stand (one list of findings per place)."""
    from pipeline.content import load, model

    def run(source: str, rel: str = "exemple.yaml") -> list[tuple[str, str, str]]:
        value, found = load.parse(source, rel)
        if not found:
            found = model.validate(family, rel, value, allow_campaign=True).findings
        return [(f.severity, f.code, f.message) for f in found]

    doc, found = load.parse(text, "exemple.yaml")
    if found or doc is None:
        return [[(f.severity, f.code, f.message) for f in found]]
    sections = {k.section for k in S.KINDS[family].values() if k.section}
    if isinstance(doc, dict) and "campaign" in doc:  # what `gamebook check` says of it alone
        import tempfile

        from pipeline.story.report import check

        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "exemple").mkdir()
            (Path(tmp) / "exemple" / "campaign.yaml").write_text(text, encoding="utf-8")
            found = check(Path(tmp)).findings
        return [
            [(f.severity, f.code, f.message) for f in found if f.code.startswith(VALIDATION_CODES)]
        ]
    if isinstance(doc, dict) and set(doc) & sections:
        return [run(text)]
    if isinstance(doc, list):
        items = [item for item in doc if isinstance(item, dict)]
        keys = set().union(*items) if items else set()
        return [run(_wrap("-\n" + text if False else text, path[:-1]))
                for path in _hosts(family, keys) if path[-1:] == ["-"]] or [run(text)]  # fmt: skip
    if isinstance(doc, dict):  # a part of a record: in a record that has an id
        ids = ("exemple", "1", "12", "A")
        return [
            min((run(_wrap(text, path, f"id: {i}")) for i in ids), key=len)
            for path in _hosts(family, set(doc))
        ] or [run(text)]
    return [run(text)]


def _chunks(text: str) -> list[str]:
    """The example as it is, and, when it shows alternatives one after another (blank lines,
    then the same key again at the margin), each alternative on its own."""
    parts = [p for p in re.split(r"\n\s*\n(?=\S)", text) if p.strip()]
    heads = [p.split(":", 1)[0] for p in parts]
    return parts if len(parts) > 1 and len(set(heads)) < len(heads) else [text]


def _clean(text: str) -> str:
    """The example as a file: its common indentation and its elisions (``...``) removed."""
    import textwrap

    lines = [line for line in text.splitlines() if line.strip() not in ("...", "…")]
    return textwrap.dedent("\n".join(lines)) + "\n"


def _example_cases() -> list[tuple[int, str]]:
    blocks = _guide_blocks()
    return [(i, b["section"]) for i, b in enumerate(blocks) if b["lang"] == "yaml"]


def test_every_yaml_example_of_the_guide_is_extracted():
    assert len(_example_cases()) >= 80


@pytest.mark.parametrize("index", [i for i, _ in _example_cases()])
def test_guide_yaml_example_loads_and_validates_or_gives_the_finding_it_shows(index):
    """Each ```yaml example loads and passes the validation of its game's format (for an
    example outside the games' sections, of one game at least), or gives exactly the finding
    the text after it shows.  A finding of the whole campaign (REF001, GRAPH…, COND001…) needs
    more than the example: the example itself must then validate."""
    blocks = _guide_blocks()
    block = blocks[index]
    text = _clean("\n".join(block["body"]))
    expected = [e for e in _expected(blocks, index) if e[1].startswith(VALIDATION_CODES)]
    family = GAME_SECTIONS.get(block["section"] or "")
    families = [family] if family else list(S.FAMILIES)
    if any("caractère invisible" in e[2] for e in expected):
        # the guide cannot print the control character it is about: put it back
        text = text.replace("La cloche sonne.", "La cloche\x07 sonne.")

    def plain(message: str) -> str:  # the example is an extract: its line numbers differ
        return re.sub(r"(ligne|colonne) \d+", r"\1 N", message)

    def same(got: list, want: list) -> bool:
        # a required field the extract leaves out is not the extract's finding
        shown = set(re.findall(r"^\s*-?\s*(\w+):", text, re.M))
        got = [
            g for g in got
            if g in want or not (g[1] == "FIELD001" and "champ obligatoire" in g[2]
                                 and not any(f"« {n} »" in g[2] for n in shown))
        ]  # fmt: skip
        # the text output may add what follows from a finding after « … » (pipeline.story.fold)
        return len(got) == len(want) and all(
            g[:2] == w[:2]
            and (plain(w[2]) == plain(g[2]) or plain(w[2]).startswith(plain(g[2]) + " … "))
            for g, w in zip(sorted(got), sorted(want), strict=True)
        )

    if text.startswith("# extrait d'un workflow"):  # not a content file: it must load
        assert yaml.safe_load(text) is not None
        return
    for chunk in _chunks(text) if not expected else [text]:
        results = {f: _validate(f, chunk) for f in families}
        assert any(same(got, expected) for tries in results.values() for got in tries), (
            block["line"], block["section"], expected, results
        )  # fmt: skip


def _table_drift(game: str) -> list[tuple]:
    """Where a game guide's hand-written field tables disagree with its schema: a field left
    out (neither in the kind's table nor named in its section), a field the schema does not
    have, or « obligatoire » wrong; a section may ask for its table instead
    (``<!-- champs : KIND -->``, generated by ``pipeline.publish.guide``)."""
    from pipeline.publish import guide

    kinds = S.KINDS[game]
    out: list[tuple] = []
    text = guide.game_guide(game).read_text(encoding="utf-8")
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        named = [n for n in re.findall(r"`([a-z_]+)`", section.splitlines()[0]) if n in kinds]
        if not named or "<!-- champs :" in section:
            continue
        fields = {n: f for k in named for n, f in kinds[k].fields.items() if n != S.RENAMED_FROM}
        table = re.search(
            r"^\| Champ \| Obligatoire \|.*\n\|[-|]+\|\n((?:\|.*\n?)*)", section, re.M
        )
        rows: dict[str, str] = {}
        for line in table.group(1).splitlines() if table else []:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows |= {f: cells[1] for f in re.findall(r"`([a-z_.]+)`", cells[0])}
        quoted = set(re.findall(r"`([a-z_]+)`", section))
        for name, fld in fields.items():
            if name not in rows and name not in quoted:
                out.append((named, "absent", name))
            elif name in rows and rows[name].startswith("oui") != fld.required:
                out.append((named, "obligatoire ?", name, rows[name]))
        out += [(named, "inconnu", r) for r in rows if r.split(".")[0] not in fields]
    return out


@pytest.mark.parametrize("game", S.FAMILIES)
def test_each_game_guide_tables_agree_with_its_schema(game):
    from pipeline.publish import guide

    if not guide.game_guide(game).is_file():
        pytest.skip(f"{game}: pas de guide")
    assert _table_drift(game) == []


def test_a_generated_table_lists_every_field_required_and_allowed_values():
    from pipeline.publish import guide

    game = next(g for g in S.FAMILIES if "<!-- champs :" in guide.game_guide(g).read_text("utf-8"))
    kind = re.search(r"<!-- champs : ([a-z_]+) -->", guide.game_guide(game).read_text("utf-8"))[1]
    table = guide.fields_table(game, kind)
    for name, fld in S.KINDS[game][kind].fields.items():
        assert f"| `{name}` | {'oui' if fld.required else 'non'} |" in table, name
        if isinstance(fld.spec, S.Enum):
            assert all(f"`{v}`" in table for v in fld.spec.values), name
