"""The story map of the authoring build (``pipeline.publish.storymap``): pages, embedded JSON,
escaping
of content text, flags for unreachable nodes and findings, and the layout's speed at 100k."""

from __future__ import annotations

import html
import importlib.util
import json
import re
import sys
from pathlib import Path

import networkx as nx
import pytest
from conftest import append, copy_base, replace

from pipeline import check
from pipeline import schema as S
from pipeline.publish.storymap import (
    ERROR,
    ROOT,
    UNREACHABLE,
    WARNING,
    _colours,
    layout,
    script_json,
    slugs,
    write_storymaps,
)

REPO = Path(__file__).resolve().parent.parent
XSS = "<script>alert(1)</script>"
_DATA = re.compile(r'<script type="application/json" id="storymap-data">(.*?)</script>', re.DOTALL)


def map_json(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    found = _DATA.findall(text)
    assert len(found) == 1
    return json.loads(found[0])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """The dilemme fixture with a title holding a script, a broken reference (error on a
    reachable node) and an envelope nothing opens (warning), whose dilemma is unreachable."""
    tmp = tmp_path_factory.mktemp("storymap")
    camp = copy_base("dilemme", tmp / "content")
    replace(camp / "cartes.yaml", "title: Le pont de Valombre\n", f"title: Le pont {XSS}\n")
    replace(
        camp / "cartes.yaml",
        "        - chronicle_sticker: 3\n",
        "        - chronicle_sticker: 99\n",
    )
    append(
        camp / "enveloppes.yaml",
        """
        - id: 44
          title: L'enveloppe oubliée
          story: H12
          cards: [D44]
        """,
        indent=2,
    )
    replace(
        camp / "cartes.yaml",
        "dilemmas:\n",
        "dilemmas:\n"
        "  - id: D44\n"
        "    title: Le gué perdu </script><script>alert(2)</script>\n"
        "    question: Passer le gué ?\n"
        "    preview: {oui_da: On passe., nenni: On reste.}\n"
        "    oui_da:\n"
        "      text: On passe.\n"
        "    nenni:\n"
        "      text: On reste.\n",
    )
    report = check(camp.parent)
    codes = {f.code for f in report.findings}
    assert {"REF001", "GRAPH001", "GRAPH003"} <= codes, report.findings
    out = tmp / "site"
    return out, write_storymaps(report, out)


def test_pages_exist(built: tuple[Path, list[Path]]) -> None:
    out, files = built
    root = out / "carte" / "dilemme"
    assert (out / "carte" / "index.html") in files
    assert (root / "index.html").is_file()
    assert (out / "assets" / "storymap.js").is_file()
    assert (out / "assets" / "storymap.css").is_file()
    data = map_json(root / "index.html")
    assert len(data["ids"]) == len(data["slugs"]) == len(data["x"]) == len(data["flags"])
    for slug in data["slugs"]:
        assert (root / "n" / f"{slug}.html").is_file()
    assert len(list((root / "n").iterdir())) == len(data["ids"])
    # every path written exists, nothing is written twice
    assert len(set(files)) == len(files)
    assert all(p.is_file() for p in files)
    index = (out / "carte" / "index.html").read_text(encoding="utf-8")
    assert 'href="dilemme/index.html"' in index


def test_map_page_is_offline(built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    for page in (out / "carte").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, page
    js = (out / "assets" / "storymap.js").read_text(encoding="utf-8")
    for word in ("fetch(", "XMLHttpRequest", "http://", "https://", "innerHTML", "import("):
        assert word not in js, word


def test_json_parses_and_is_consistent(built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    data = map_json(out / "carte" / "dilemme" / "index.html")
    n = len(data["ids"])
    assert data["campaign"]["id"] == "dilemme"
    assert len(data["edges"]) == 2 * len(data["edgeKind"]) == 2 * len(data["edgeCond"])
    assert all(0 <= i < n for i in data["edges"])
    assert all(0 <= k < len(data["kinds"]) for k in data["kind"])
    # one node per grid cell, so a click finds exactly one node
    assert len(set(zip(data["x"], data["y"], strict=True))) == n
    assert max(data["y"]) < data["rows"]
    root = data["ids"].index("campaign:dilemme")
    assert data["flags"][root] & ROOT
    assert data["x"][root] == 0


def test_unreachable_and_findings_are_flagged(built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    data = map_json(out / "carte" / "dilemme" / "index.html")
    flags = dict(zip(data["ids"], data["flags"], strict=True))
    assert flags["envelope:44"] & UNREACHABLE and flags["envelope:44"] & WARNING
    assert flags["dilemma:D44"] & UNREACHABLE and flags["dilemma:D44"] & ERROR
    assert flags["outcome:D01/nenni"] & ERROR and not flags["outcome:D01/nenni"] & UNREACHABLE
    assert not flags["envelope:00"] & (UNREACHABLE | ERROR | WARNING)
    # unreachable nodes sit in their own band, right of every reachable one
    band = data["unreachableBand"]
    xs = dict(zip(data["ids"], data["x"], strict=True))
    reach_right = max(x for i, x in xs.items() if not flags[i] & UNREACHABLE)
    assert band and reach_right < band[0] <= xs["envelope:44"] <= band[1]
    assert xs["envelope:44"] < xs["dilemma:D44"]
    # the side panel lists them, errors first
    page = (out / "carte" / "dilemme" / "index.html").read_text(encoding="utf-8")
    assert page.index("carte Dilemme D44") < page.index("enveloppe 44")


def test_script_in_content_stays_text(built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    root = out / "carte" / "dilemme"
    page = (root / "index.html").read_text(encoding="utf-8")
    # the map: exactly the two script elements of the template, the title only as \u003c
    assert "alert(" in page
    assert page.count("<script") == 2
    assert page.count("</script>") == 2
    assert XSS not in page and "<script>alert" not in page
    data = map_json(root / "index.html")
    titles = dict(zip(data["ids"], data["titles"], strict=True))
    assert titles["dilemma:D01"] == f"Le pont {XSS}"
    assert titles["dilemma:D44"].startswith("Le gué perdu </script><script>alert(2)")
    # the node page: escaped text, no markup from the content
    slug = data["slugs"][data["ids"].index("dilemma:D01")]
    node = (root / "n" / f"{slug}.html").read_text(encoding="utf-8")
    assert html.escape(XSS, quote=False) in node
    assert "<script" not in node
    d44 = data["slugs"][data["ids"].index("dilemma:D44")]
    node = (root / "n" / f"{d44}.html").read_text(encoding="utf-8")
    assert "<script" not in node and "&lt;/script&gt;&lt;script&gt;alert(2)" in node
    # pages that only link to it show its title escaped too
    env = data["slugs"][data["ids"].index("envelope:00")]
    node = (root / "n" / f"{env}.html").read_text(encoding="utf-8")
    assert "<script" not in node and html.escape(XSS, quote=False) in node


def test_script_json_never_holds_a_less_than() -> None:
    text = script_json({"a": "</script><!-- x", "b": ["\u2028"]})
    assert "<" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- x", "b": ["\u2028"]}


def test_node_page_content(built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    root = out / "carte" / "dilemme"
    data = map_json(root / "index.html")
    slug = dict(zip(data["ids"], data["slugs"], strict=True))
    page = (root / "n" / f"{slug['outcome:D01/nenni']}.html").read_text(encoding="utf-8")
    assert "Les marchands font un long détour et maugréent." in page  # text
    assert "REF001" in page and "erreur" in page  # its finding
    assert "cartes.yaml:" in page  # where it is written
    assert f'href="{slug["dilemma:D01"]}.html"' in page  # predecessor
    assert "chronicle_sticker" in page and "99" in page  # effects, as a list
    assert 'href="../index.html#outcome:D01/nenni"' in page  # back to the map
    d01 = (root / "n" / f"{slug['dilemma:D01']}.html").read_text(encoding="utf-8")
    assert f'href="{slug["outcome:D01/oui_da"]}.html"' in d01  # successors
    assert "Faut-il reconstruire le pont emporté par les glaces ?" in d01
    env = (root / "n" / f"{slug['envelope:44']}.html").read_text(encoding="utf-8")
    assert "inatteignable" in env and "GRAPH003" in env and "avertissement" in env
    # a reference inside the fields links to its node's page
    assert f'<a href="{slug["dilemma:D44"]}.html">D44</a>' in env


def test_repo_content_builds(tmp_path: Path) -> None:
    report = check(REPO / "content")
    files = write_storymaps(report, tmp_path)
    for cid in report.graphs:
        data = map_json(tmp_path / "carte" / cid / "index.html")
        assert len(data["ids"]) == report.graphs[cid].graph.number_of_nodes()
    assert len(files) > sum(len(sg.graph) for sg in report.graphs.values())


def test_slugs_are_unique_ignoring_case() -> None:
    got = slugs(["character:A", "character:a", "outcome:D1/oui_da", "x:é/è"])
    assert len({s.lower() for s in got.values()}) == 4
    assert all(re.fullmatch(r"[a-z0-9_-]+", s) for s in got.values())


def test_layout_small_graph() -> None:
    g = nx.DiGraph()
    g.add_edges_from([("r", "a"), ("r", "b"), ("a", "c"), ("b", "c"), ("x", "y"), ("y", "x")])
    g.add_node("lonely")
    lay = layout(g, "r")
    pos = {n: (x, y) for n, x, y in zip(lay.nodes, lay.x, lay.y, strict=True)}
    depth = dict(zip(lay.nodes, lay.depth, strict=True))
    assert depth == {"r": 0, "a": 1, "b": 1, "c": 2, "x": -1, "y": -1, "lonely": -1}
    assert pos["r"][0] < pos["a"][0] == pos["b"][0] < pos["c"][0]
    assert lay.unreachable_band and lay.unreachable_band[0] > pos["c"][0]
    assert len(set(pos.values())) == len(pos)


# --------------------------------------------------------------------------- scale


def _bench_generate():
    path = REPO / "bench" / "generate.py"
    spec = importlib.util.spec_from_file_location("bench_generate", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_layout_of_the_bench_campaign(tmp_path: Path) -> None:
    # correctness at scale; its time at 100k nodes is measured by `nox -s bench` (bench/run.py)
    gen = _bench_generate().generate(10_000, tmp_path)
    report = check(gen.folder)
    sg = report.graphs["bench"]
    assert sg.graph.number_of_nodes() == 10_000
    lay = layout(sg.graph, sg.root)
    assert len(set(zip(lay.x, lay.y, strict=True))) == 10_000
    unreachable = {n for n, d in zip(lay.nodes, lay.depth, strict=True) if d < 0}
    assert set(gen.planted.unreachable) | set(gen.planted.unreferenced) <= unreachable
    # wide, not a ribbon: the drawing stays navigable
    width = max(lay.x) + 1
    assert lay.rows <= 1000 and width <= 2000


@pytest.mark.parametrize("family", sorted(S.KINDS))
def test_each_kind_has_its_own_colour(family: str) -> None:
    """A game names its kinds' colours in its own schema; on one map two kinds never share one."""
    kinds = S.KINDS[family]
    colours = _colours(family, ["campaign", *kinds])
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours.values()), colours
    assert len(set(colours.values())) == len(colours), colours
    assert all(colours[k] == spec.colour for k, spec in kinds.items() if spec.colour)
