"""The story map of the authoring build: one interactive, offline graph per campaign.

``write_storymaps(report, out_dir)`` writes, for each campaign of a checked ``Report``:

* ``out_dir/carte/<campaign>/index.html``: the map.  The layout is computed here, in Python,
  at build time (:func:`layout`); the page embeds nodes and edges as one compact JSON document
  that ``site/assets/storymap.js`` draws on a canvas (pan, zoom, search, legend);
* ``out_dir/carte/<campaign>/n/<slug>.html``: one page per node, with the node's text and
  fields, where it is written, its findings, and links to its predecessors and successors;
* ``out_dir/carte/index.html``: the list of the maps;
* ``out_dir/assets/storymap.{js,css}``, copied from ``site/assets/`` (an mkdocs build copies
  them there too).

These pages hold the card texts: only the authoring build writes them, never the public site.
Content text is escaped by jinja2's autoescape everywhere it reaches HTML, and the embedded JSON
has every ``<`` written ``\\u003c``, so a ``</script>`` in a card stays text.  Nothing is
fetched from another origin.

Cost: layout O((nodes + edges) · log) (one BFS, one barycentric pass, one sort per layer);
pages O(nodes + edges).
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import os
import re
import shutil
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import networkx as nx

from .. import schema as S
from ..content.model import normalise_key
from ..findings import Finding
from ..messages import kind_fr
from ..story.graph import StoryGraph, resolve
from ..story.report import Report

#: flags of a node in the map's JSON (``flags`` array)
UNREACHABLE, ERROR, WARNING, ROOT = 1, 2, 4, 8
#: reachable on the graph, never visited by the simulated games (only with coverage data)
NEVER = 16

#: the coverage heatmap's scale, light to dark: the share of the simulated games that visited
#: a node (``heat_step``), in one ultramarine hue no kind's colour is near (CIE ΔE ≥ 20 from every
#: ``Kind.colour`` and ``_PALETTE``; ``tests/test_storymap_coverage.py`` keeps it so)
HEAT: tuple[tuple[str, str], ...] = (
    ("#c5c3fd", "moins d'une partie sur quatre"),
    ("#6f6afb", "de 25 à 49 % des parties"),
    ("#1810f9", "de 50 à 74 % des parties"),
    ("#0a05b3", "de 75 à 99 % des parties"),
    ("#060363", "toutes les parties"),
)


def heat_step(visits: int, runs: int) -> int:
    """The step of ``HEAT`` of a node visited by ``visits`` of ``runs`` games (at least one):
    the map's script computes the same."""
    return min(len(HEAT) - 1, (len(HEAT) - 1) * visits // max(1, runs))


#: the campaign node's colour; a game gives each of its kinds a colour in its content schema
#: (``Kind.colour``), and a kind without one takes the next of ``_PALETTE``
_CAMPAIGN_COLOUR = "#3d2b1f"

_PALETTE = ("#1e88e5", "#fb8c00", "#43a047", "#8e24aa", "#00acc1", "#c0ca33", "#6d4c41")

#: the edges the pipeline itself makes, in French, for the node pages and the map's tooltips; a
#: game names the edges its content makes in its content schema (``ContentSchema.edges_fr``)
EDGE_FR = {
    "starts": "départ",
    "component": "composant en jeu",
}


def edge_labels(family: str) -> dict[str, str]:
    """Every edge kind of a ``family`` campaign's graph in French: the pipeline's and the
    game's own."""
    schema = S.SCHEMAS.get(family)
    return {**EDGE_FR, **(schema.edges_fr if schema is not None else {})}


#: fields shown as the node's title, first found wins
_TITLE_FIELDS = ("title", "name", "term")
#: fields shown as running text, in this order, before the other fields
_TEXT_FIELDS = ("back", "question", "text", "instructions", "condition", "ends", "motto", "quote")
#: a node page lists at most this many predecessors / successors
MAX_LINKS = 400
#: the map page's side panel lists at most this many flagged nodes
MAX_FLAGGED = 300

_TEMPLATES = Path(__file__).resolve().parent / "templates"
_ASSETS = Path(__file__).resolve().parents[2] / "site" / "assets"
ASSET_FILES = ("storymap.js", "storymap.css")


# --------------------------------------------------------------------------- layout


@dataclass
class Layout:
    """Grid positions of a graph's nodes: ``x`` is a column, ``y`` a row (integers).

    Reachable nodes are layered by breadth-first depth from the root, left to right; a layer
    taller than ``rows`` wraps onto several adjacent columns.  Nodes the root does not reach
    sit in a band of their own, right of the others, layered from their own sources.
    """

    nodes: list[str]
    x: list[int]
    y: list[int]
    #: depth from the root; -1 for unreachable nodes
    depth: list[int]
    #: one entry per layer: (first column, last column, depth, band) with band 0 (reachable)
    #: or 1 (unreachable; depth counted from the band's own sources)
    layers: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: height of the layout in rows
    rows: int = 1
    #: columns of the reachable band, then of the unreachable band (``None`` if empty)
    band: tuple[int, int] = (0, 0)
    unreachable_band: tuple[int, int] | None = None

    @property
    def reachable(self) -> set[str]:
        return {n for n, d in zip(self.nodes, self.depth, strict=True) if d >= 0}


def _bfs(
    succ: dict[str, list[str]], sources: Iterable[str], depth: dict[str, int], allowed: Any
) -> None:
    queue: deque[str] = deque()
    for s in sources:
        if s not in depth:
            depth[s] = 0
            queue.append(s)
    while queue:
        n = queue.popleft()
        d = depth[n] + 1
        for m in succ[n]:
            if m not in depth and (allowed is None or m in allowed):
                depth[m] = d
                queue.append(m)


def _max_rows(n: int) -> int:
    """How tall a layer may grow before it wraps: keeps the drawing roughly 16:10 once the
    columns (about twice as far apart as the rows) are counted."""
    return max(24, math.ceil(math.sqrt(n * 2.5)))


def layout(
    g: nx.DiGraph, root: str, order: dict[str, Any] | None = None, rows: int | None = None
) -> Layout:
    """Lay ``g`` out in layers by breadth-first depth from ``root``.

    Within a layer, nodes are sorted once by the barycentre of their already placed
    predecessors (one downward pass), ties and sources by ``order`` (a sort key per node, by
    default the node's position in ``g``).  ``rows`` caps a layer's height (default: about
    the square root of the node count).  O((nodes + edges) · log).
    """
    nodes = list(g)
    if order is None:
        order = {n: i for i, n in enumerate(nodes)}
    succ: dict[str, list[str]] = {}
    pred: dict[str, list[str]] = {n: [] for n in nodes}
    for n, nbrs in g.adjacency():
        succ[n] = list(nbrs)
        for m in nbrs:
            pred[m].append(n)

    depth: dict[str, int] = {}
    if root in succ:
        _bfs(succ, (root,), depth, None)
    reach_count = len(depth)
    cap = rows or _max_rows(max(reach_count, len(nodes) - reach_count, 1))

    # unreachable nodes: layered from those no other unreachable node leads to, then from
    # whatever is left (cycles nothing enters), in content order
    rest = [n for n in nodes if n not in depth]
    udepth: dict[str, int] = {}
    if rest:
        rest_set = set(rest)
        rest.sort(key=order.__getitem__)
        sources = [n for n in rest if not any(p in rest_set for p in pred[n])]
        _bfs(succ, sources, udepth, rest_set)
        for n in rest:
            if n not in udepth:
                _bfs(succ, (n,), udepth, rest_set)

    grouped: dict[int, list[str]] = defaultdict(list)
    for n, d in depth.items():
        grouped[d].append(n)
    ugrouped: dict[int, list[str]] = defaultdict(list)
    for n, d in udepth.items():
        ugrouped[d].append(n)

    def size(count: int) -> tuple[int, int]:
        """(columns, rows) of a layer of ``count`` nodes."""
        width = -(-count // cap)
        return width, -(-count // width)

    height = max(size(len(x))[1] for x in (*grouped.values(), *ugrouped.values(), [root]))
    pos_y: dict[str, float] = {}
    xs: dict[str, int] = {}
    ys: dict[str, int] = {}
    layers: list[tuple[int, int, int, int]] = []

    def place(by_depth: dict[int, list[str]], x0: int, band: int) -> None:
        x, prev = x0, 1
        for d in sorted(by_depth):
            layer = by_depth[d]

            def key(n: str) -> tuple[float, Any]:
                ps = [pos_y[p] for p in pred[n] if p in pos_y]
                return (sum(ps) / len(ps) if ps else math.inf, order[n])

            layer.sort(key=key)
            width, used = size(len(layer))
            if x > x0 and (width > 1 or prev > 1):
                x += 1  # a blank column beside a wrapped layer shows where it ends
            prev = width
            top = (height - used) // 2
            for i, n in enumerate(layer):
                # row-major, so the barycentric order runs top to bottom across the sub-columns
                row, sub = divmod(i, width)
                xs[n] = x + sub
                ys[n] = top + row
                pos_y[n] = top + row
            layers.append((x, x + width - 1, d, band))
            x += width

    band = (0, 0)
    if grouped:
        place(grouped, 0, 0)
        band = (0, layers[-1][1])
    ubandpos = None
    if ugrouped:
        start = band[1] + 3 if grouped else 0
        place(ugrouped, start, 1)
        ubandpos = (start, layers[-1][1])
    return Layout(
        nodes=nodes,
        x=[xs[n] for n in nodes],
        y=[ys[n] for n in nodes],
        depth=[depth.get(n, -1) for n in nodes],
        layers=layers,
        rows=height,
        band=band,
        unreachable_band=ubandpos,
    )


# --------------------------------------------------------------------------- names and slugs

_SLUG_BAD = re.compile(r"[^a-z0-9_]+")


def slugs(nodes: Iterable[str]) -> dict[str, str]:
    """A file name (without ``.html``) per node: lower case ASCII, unique even on
    case-insensitive file systems (``character:A`` and ``character:a`` differ)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for node in nodes:
        base = _SLUG_BAD.sub("-", node.lower()).strip("-")[:80] or "n"
        slug, i = base, 1
        while slug in used:
            i += 1
            slug = f"{base}-{i}"
        used.add(slug)
        out[node] = slug
    return out


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def node_title(sg: StoryGraph, node: str) -> str:
    """A short human title for a node (its title, name or term, else the start of its text)."""
    if node == sg.root:
        return str(sg.campaign.data.get("title") or sg.campaign.id)
    rec = sg.records.get(node)
    if rec is None:
        return ""
    for name in (*_TITLE_FIELDS, "question", "text"):
        value = rec.data.get(name)
        if isinstance(value, str) and value.strip():
            return _short(value, 90 if name in _TITLE_FIELDS else 60)
    return ""


def kind_label(kind: str) -> str:
    """A kind in French (« carte Aventure »)."""
    return kind_fr(kind)


def node_label(node: str) -> str:
    """« paragraphe 12 » for ``paragraph:12``."""
    kind, _, key = node.partition(":")
    return f"{kind_label(kind)} {key}"


def _colours(family: str, kinds: Iterable[str]) -> dict[str, str]:
    specs = S.KINDS.get(family, {})
    out: dict[str, str] = {}
    spare = 0
    for kind in kinds:
        spec = specs.get(kind)
        if kind == "campaign":
            out[kind] = _CAMPAIGN_COLOUR
        elif spec is not None and spec.colour:
            out[kind] = spec.colour
        else:
            out[kind] = _PALETTE[spare % len(_PALETTE)]
            spare += 1
    return out


# --------------------------------------------------------------------------- findings per node


def _findings_by_node(
    sg: StoryGraph, findings: list[Finding]
) -> tuple[dict[str, list[Finding]], list[Finding]]:
    """Each finding on its node; one without a node (a field error, a YAML error) goes to the
    record written at or before its line in its file.  Returns (per node, left over)."""
    g = sg.graph
    by_file: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for node, attrs in g.nodes(data=True):
        if attrs.get("file"):
            by_file[attrs["file"]].append((attrs.get("line", 1), attrs.get("column", 1), node))
    for entries in by_file.values():
        entries.sort()
    out: dict[str, list[Finding]] = defaultdict(list)
    loose: list[Finding] = []
    for f in findings:
        if f.node is not None and f.node in g:
            out[f.node].append(f)
            continue
        written = by_file.get(f.file)
        i = bisect.bisect_right(written, (f.line, f.column, "\uffff")) if written else 0
        if written and i:
            out[written[i - 1][2]].append(f)
        else:
            loose.append(f)
    return out, loose


# --------------------------------------------------------------------------- node data, readable


class _Viewer:
    """Turns a record's data into a small tree the node template renders (every leaf is text,
    escaped by the template).  Walks the schema beside the data to label fields in French and
    link references to their nodes' pages."""

    def __init__(self, sg: StoryGraph, slug: dict[str, str]) -> None:
        self.sg = sg
        self.family = sg.campaign.family
        self.slug = slug

    # leaves
    def text(self, value: Any, href: str | None = None) -> dict:
        if isinstance(value, bool):
            value = "oui" if value else "non"
        s = str(value)
        return {"t": "text", "v": s, "long": len(s) > 80 or "\n" in s, "href": href}

    def ref(self, spec: S.Ref, value: Any) -> dict:
        href = None
        if not (spec.allow_this and value == "this"):
            for kind in spec.kinds:
                k = S.KINDS[self.family].get(kind)
                key = normalise_key(k.id_format, value) if k else None
                targets = resolve(self.sg, (kind,), key) if key is not None else []
                if targets:
                    href = self.slug.get(targets[0])
                    break
        return self.text(value, f"{href}.html" if href else None)

    def condition(self, value: Any) -> str:
        if not isinstance(value, (tuple, list)):
            return str(value)
        specs = S.CONDITIONS[self.family]
        parts = []
        for atom in value:
            if not (isinstance(atom, (tuple, list)) and len(atom) == 2):
                parts.append(str(atom))
                continue
            name, v = atom
            if name == "any":
                parts.append("l'un de : (" + " ; ou ".join(self.condition((a,)) for a in v) + ")")
                continue
            if isinstance(v, (tuple, list)) and all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in v
            ):
                shown = ", ".join(f"{a} = {b}" for a, b in v)
            else:
                shown = str(v)
            fr = specs[name].fr if name in specs else ""
            parts.append(f"{name} : {shown}" + (f" ({fr})" if fr else ""))
        return " et ".join(parts)

    # the walk
    def value(self, value: Any, spec: S.Spec | None) -> dict:
        if isinstance(spec, S.Ref) and not isinstance(value, (dict, list, tuple)):
            return self.ref(spec, value)
        if isinstance(spec, S.Condition):
            return self.text(self.condition(value))
        if isinstance(spec, S.Effects) and isinstance(value, (list, tuple)):
            fields = S.EFFECTS[spec.family]
            items = []
            for eff in value:
                if isinstance(eff, dict):
                    items.append(self.mapping(eff, fields))
                else:
                    items.append(self.value(eff, None))
            return {"t": "list", "items": items}
        if isinstance(value, dict):
            if isinstance(spec, S.Record):
                return self.mapping(value, spec.fields)
            if isinstance(spec, S.MapOf):
                return self.mapping(value, {}, spec.value)
            return self.mapping(value, {})
        if isinstance(value, (list, tuple)):
            item = spec.item if isinstance(spec, S.ListOf) else None
            return {"t": "list", "items": [self.value(v, item) for v in value]}
        return self.text(value)

    def mapping(
        self, data: dict, fields: dict[str, S.Field], default: S.Spec | None = None
    ) -> dict:
        rows = []
        for name, v in data.items():
            if v is None:
                continue
            fld = fields.get(name)
            if name == "requires" and fld is None:
                spec: S.Spec | None = S.Condition(self.family)
            else:
                spec = fld.spec if fld else default
            hint = (fld.fr or fld.spec.fr) if fld else ""
            rows.append({"key": str(name), "hint": hint, "value": self.value(v, spec)})
        return {"t": "map", "rows": rows}

    def record(self, node: str) -> tuple[list[dict], list[dict]]:
        """(running texts, other fields) of a node: each ``{key, hint, value}``."""
        sg = self.sg
        if node == sg.root:
            data: dict = dict(sg.campaign.data)
            fields: dict[str, S.Field] = {}
        else:
            rec = sg.records.get(node)
            if rec is None:
                return [], []
            data = rec.data
            spec = S.KINDS[self.family].get(rec.kind)
            fields = spec.fields if spec else {}
        texts, rest = [], []
        for name in _TEXT_FIELDS:
            v = data.get(name)
            if isinstance(v, str) and v.strip():
                fld = fields.get(name)
                texts.append({"key": name, "hint": fld.fr if fld else "", "value": self.text(v)})
        shown = {r["key"] for r in texts}
        rows = self.mapping({k: v for k, v in data.items() if k not in shown}, fields)["rows"]
        rest.extend(rows)
        return texts, rest


# --------------------------------------------------------------------------- writing


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    """One environment per process: its templates are compiled once (``gamebook serve``
    writes the maps again at every save; a template edited meanwhile is reloaded by jinja)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<`` at all, so neither
    ``</script>`` nor ``<!--`` can appear in it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _edge_view(
    viewer: _Viewer,
    slug: dict[str, str],
    titles: dict[str, str],
    labels: dict[str, str],
    other: str,
    attrs: dict,
) -> dict:
    cond = attrs.get("condition")
    return {
        "href": f"{slug[other]}.html",
        "label": node_label(other),
        "title": titles[other],
        "kind": labels.get(attrs.get("kind", ""), attrs.get("kind", "")),
        "context": str(attrs["context"]) if attrs.get("context") else "",
        "condition": viewer.condition(cond) if cond else "",
        "count": attrs.get("count", 1),
    }


def campaign_data(
    sg: StoryGraph,
    lay: Layout,
    findings: dict[str, list[Finding]],
    coverage: dict | None = None,
) -> dict:
    """The map's JSON: parallel arrays over the nodes, edges as a flat list of index pairs.
    ``coverage``: ``gamebook simulate``'s JSON for this campaign (visits per node)."""
    g = sg.graph
    index = {n: i for i, n in enumerate(lay.nodes)}
    slug = slugs(lay.nodes)
    kind_names: list[str] = []
    kind_index: dict[str, int] = {}
    kinds, flags, titles = [], [], []
    visits = (coverage or {}).get("coverage", {}).get("visits", {})
    counted = {n for n in lay.nodes if sg.is_covered(n)} if coverage is not None else set()
    for n, d in zip(lay.nodes, lay.depth, strict=True):
        kind = g.nodes[n].get("kind", n.partition(":")[0])
        if kind not in kind_index:
            kind_index[kind] = len(kind_names)
            kind_names.append(kind)
        kinds.append(kind_index[kind])
        f = UNREACHABLE if d < 0 else 0
        for finding in findings.get(n, ()):
            f |= ERROR if finding.severity == "error" else WARNING
        if n == sg.root:
            f |= ROOT
        if d >= 0 and n in counted and n not in visits:
            f |= NEVER
        flags.append(f)
        titles.append(node_title(sg, n))
    edge_names: list[str] = []
    edge_index: dict[str, int] = {}
    edges: list[int] = []
    ekinds: list[int] = []
    econd: list[int] = []
    for a, b, attrs in g.edges(data=True):
        k = attrs.get("kind", "")
        if k not in edge_index:
            edge_index[k] = len(edge_names)
            edge_names.append(k)
        edges += (index[a], index[b])
        ekinds.append(edge_index[k])
        econd.append(1 if attrs.get("condition") else 0)
    colours = _colours(sg.campaign.family, kind_names)
    labels = edge_labels(sg.campaign.family)
    counts = {name: 0 for name in kind_names}
    for k in kinds:
        counts[kind_names[k]] += 1
    return {
        "version": 1,
        "campaign": {
            "id": sg.campaign.id,
            "family": sg.campaign.family,
            "title": str(sg.campaign.data.get("title") or sg.campaign.id),
        },
        "kinds": [
            {"id": k, "label": kind_label(k), "colour": colours[k], "count": counts[k]}
            for k in kind_names
        ],
        "edgeKinds": [{"id": k, "label": labels.get(k, k)} for k in edge_names],
        "ids": lay.nodes,
        "titles": titles,
        "slugs": [slug[n] for n in lay.nodes],
        "kind": kinds,
        "x": lay.x,
        "y": lay.y,
        "flags": flags,
        "edges": edges,
        "edgeKind": ekinds,
        "edgeCond": econd,
        "layers": [list(layer) for layer in lay.layers],
        "rows": lay.rows,
        "band": list(lay.band),
        "unreachableBand": list(lay.unreachable_band) if lay.unreachable_band else None,
        # visits per node from the simulated games (-1: a node coverage does not count,
        # ``StoryGraph.is_covered``), the heatmap's scale and the table sizes played, or null
        "coverage": None
        if coverage is None
        else {
            "runs": coverage.get("runs", 0),
            "visits": [visits.get(n, 0) if n in counted else -1 for n in lay.nodes],
            "heat": [{"colour": c, "label": label} for c, label in HEAT],
            "tables": coverage.get("coverage", {}).get("tables"),
        },
    }


def _copy_assets(out_dir: Path) -> list[Path]:
    written = []
    target = out_dir / "assets"
    for name in ASSET_FILES:
        src = _ASSETS / name
        if src.is_file():
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target / name)
            written.append(target / name)
    return written


def _content_order(sg: StoryGraph) -> dict[str, tuple]:
    """Sources of a layer and ties sort as the content is written: file, line, column."""
    return {
        n: (a.get("file", ""), a.get("line", 0), a.get("column", 0), n)
        for n, a in sg.graph.nodes(data=True)
    }


def write_campaign(
    env: jinja2.Environment,
    sg: StoryGraph,
    findings: list[Finding],
    out: Path,
    coverage: dict | None = None,
) -> tuple[list[Path], dict]:
    """The map and node pages of one campaign under ``out`` (``carte/<campaign>``)."""
    g = sg.graph
    lay = layout(g, sg.root, _content_order(sg))
    per_node, loose = _findings_by_node(sg, findings)
    data = campaign_data(sg, lay, per_node, coverage)
    cov = coverage_summary(sg, data)
    slug = dict(zip(lay.nodes, data["slugs"], strict=True))
    titles = dict(zip(lay.nodes, data["titles"], strict=True))
    viewer = _Viewer(sg, slug)
    unreachable = {n for n, d in zip(lay.nodes, lay.depth, strict=True) if d < 0}
    starts = _starts_anywhere(sg)
    labels = edge_labels(sg.campaign.family)

    pages = out / "n"
    pages.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    node_tpl = env.get_template("storymap-node.html.j2")
    camp_title = data["campaign"]["title"]
    for n in lay.nodes:
        attrs = g.nodes[n]
        texts, rest = viewer.record(n)
        preds = [
            _edge_view(viewer, slug, titles, labels, p, g.edges[p, n])
            for p in _head(g.predecessors(n), MAX_LINKS)
        ]
        succs = [
            _edge_view(viewer, slug, titles, labels, s, g.edges[n, s])
            for s in _head(g.successors(n), MAX_LINKS)
        ]
        node_findings = sorted(
            per_node.get(n, ()), key=lambda f: (f.severity != "error", f.line, f.column, f.code)
        )
        html = node_tpl.render(
            assets="../../../assets/",
            map_href="../index.html#" + _hash(n),
            campaign=camp_title,
            node=n,
            label=node_label(n),
            kind=kind_label(attrs.get("kind", "")),
            title=titles[n],
            file=attrs.get("file", ""),
            line=attrs.get("line", 1),
            column=attrs.get("column", 1),
            unreachable=n in unreachable,
            root=n == sg.root,
            play_href=_play_href(sg, n) if starts and n not in unreachable else None,
            visits=cov["by_node"].get(n) if cov else None,
            runs=cov["runs"] if cov else 0,
            findings=node_findings,
            texts=texts,
            fields=rest,
            preds=preds,
            succs=succs,
            more_preds=max(0, g.in_degree(n) - MAX_LINKS),
            more_succs=max(0, g.out_degree(n) - MAX_LINKS),
        )
        path = pages / f"{slug[n]}.html"
        _write(path, html)
        written.append(path)

    flagged = [i for i, f in enumerate(data["flags"]) if f & (ERROR | WARNING) or f & UNREACHABLE]
    flagged.sort(key=lambda i: (not data["flags"][i] & ERROR, not data["flags"][i] & WARNING, i))
    errors = sum(1 for f in data["flags"] if f & ERROR)
    warnings = sum(1 for f in data["flags"] if f & WARNING and not f & ERROR)
    stats = {
        "id": sg.campaign.id,
        "title": camp_title,
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "unreachable": len(unreachable),
        "errors": errors,
        "warnings": warnings,
    }
    html = env.get_template("storymap.html.j2").render(
        page="map",
        assets="../../assets/",
        home="../index.html",
        campaign=data["campaign"],
        stats=stats,
        kinds=data["kinds"],
        flagged=[
            {
                "href": f"n/{data['slugs'][i]}.html",
                "label": node_label(data["ids"][i]),
                "title": data["titles"][i],
                "error": bool(data["flags"][i] & ERROR),
                "warning": bool(data["flags"][i] & WARNING),
                "unreachable": bool(data["flags"][i] & UNREACHABLE),
            }
            for i in flagged[:MAX_FLAGGED]
        ],
        more_flagged=max(0, len(flagged) - MAX_FLAGGED),
        loose=loose,
        coverage=cov,
        data_json=script_json(data),
    )
    index = out / "index.html"
    _write(index, html)
    return [index, *written], stats


def _write(path: Path, text: str) -> None:
    """Write ``path`` unless it already holds ``text`` (``gamebook serve`` writes the maps again
    at every save: most pages are the same, and creating a file costs more than reading it)."""
    data = text.encode("utf-8")
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    path.write_bytes(data)


def _prune(root: Path, keep: set[Path]) -> None:
    """Remove under ``root`` every file not in ``keep`` and every folder left empty: the pages
    of renamed or deleted nodes (and campaigns) must not linger."""
    for dirpath, _dirnames, filenames in os.walk(root, topdown=False):
        here = Path(dirpath)
        for name in filenames:
            if here / name not in keep:
                (here / name).unlink()
        if here != root and not any(here.iterdir()):
            here.rmdir()


def coverage_summary(sg: StoryGraph, data: dict) -> dict | None:
    """What the map's side panel and node pages say of the simulated games: visits per node,
    the reachable story nodes no game visited, the story nodes the graph cannot reach."""
    cov = data.get("coverage")
    if cov is None:
        return None
    runs = max(1, cov["runs"])
    by_node = {
        n: v for n, v in zip(data["ids"], cov["visits"], strict=True) if v >= 0
    }  # story nodes only

    def row(i: int) -> dict:
        n = data["ids"][i]
        return {"href": f"n/{data['slugs'][i]}.html", "label": node_label(n),
                "title": data["titles"][i]}  # fmt: skip

    never = [row(i) for i, f in enumerate(data["flags"]) if f & NEVER]
    unreachable = [
        row(i)
        for i, f in enumerate(data["flags"])
        if f & UNREACHABLE and sg.is_covered(data["ids"][i])
    ]
    visited = sum(1 for v in by_node.values() if v > 0)
    return {
        "runs": cov["runs"],
        "by_node": {n: {"count": v, "percent": round(100 * v / runs)} for n, v in by_node.items()},
        "visited": visited,
        "story": len(by_node),
        "kinds": _coverage_by_kind(data),
        "tables": _tables_played(cov.get("tables")),
        "heat": cov["heat"],
        "never": never,
        "unreachable": unreachable,
    }


def _coverage_by_kind(data: dict) -> list[dict]:
    """What coverage counts, kind by kind: the counted nodes the graph reaches, and how many
    of them the simulated games visited (« carte Dilemme : 30 sur 36 »)."""
    out: dict[int, list[int]] = {}
    for k, v, f in zip(data["kind"], data["coverage"]["visits"], data["flags"], strict=True):
        if v < 0 or f & UNREACHABLE:
            continue
        entry = out.setdefault(k, [0, 0])
        entry[0] += v > 0
        entry[1] += 1
    return [
        {"label": data["kinds"][k]["label"], "visited": seen, "reachable": total}
        for k, (seen, total) in sorted(out.items(), key=lambda kv: data["kinds"][kv[0]]["label"])
    ]


def _tables_played(tables: dict | None) -> dict | None:
    """The table sizes the content allows and the games played at each (none: not known)."""
    if not tables:
        return None
    played = [{"size": int(k), "games": v} for k, v in tables["played"].items()]
    return {
        "min": tables["min"],
        "max": tables["max"],
        "played": [p for p in played if p["games"]],
        "never": [p["size"] for p in played if not p["games"]],
    }


def _starts_anywhere(sg: StoryGraph) -> bool:
    """Whether the campaign's game can begin at any story node (``Game.start_from``)."""
    from engine.core import registry
    from engine.core.game import Game

    try:
        cls = registry.get(sg.campaign.family)
    except registry.UnknownGame:
        return False
    return cls.start_from is not Game.start_from


def _play_href(sg: StoryGraph, node: str) -> str | None:
    """« Jouer depuis ici »: the game's play page, told where to begin (story nodes only)."""
    from urllib.parse import quote

    from engine.core import registry

    name = node.partition(":")[0]
    kind = S.KINDS.get(sg.campaign.family, {}).get(name)
    try:
        extra = registry.get(sg.campaign.family).start_kinds
    except registry.UnknownGame:
        extra = ()
    if kind is None or not (kind.story or name in extra):
        return None
    return f"../../../play/{sg.campaign.family}/?from={quote(node, safe=':/')}"


def _head(items: Iterable[str], n: int) -> list[str]:
    out: list[str] = []
    for item in items:
        if len(out) >= n:
            break
        out.append(item)
    return out


def _hash(node: str) -> str:
    from urllib.parse import quote

    return quote(node, safe=":/_-.")


def write_storymaps(
    report: Report,
    out_dir: Path,
    coverage: dict[str, dict] | None = None,
    known: dict[str, dict] | None = None,
) -> list[Path]:
    """Write the story map of every campaign in ``report`` under ``out_dir/carte/`` (replaced
    as a whole: no other page is left there) and its two assets under ``out_dir/assets/``.
    Returns the files written: the list of maps, the map pages, the node pages, the assets.
    ``coverage``: campaign id -> ``gamebook simulate``'s JSON, to colour the nodes by how often
    play visits them.  ``known`` (a dict) receives each campaign's line of the list of maps,
    for ``update_storymaps``.  A page that already holds what it would be written with is
    left as it is."""
    out_dir = Path(out_dir)
    root = out_dir / "carte"
    maps, nodes, lines = _write_maps(report, root, coverage)
    if known is not None:
        known.clear()
        known.update(lines)
    index = _write_index(root, list(lines.values()))
    _prune(root, {index, *maps, *nodes})
    return [index, *maps, *nodes, *_copy_assets(out_dir)]


def update_storymaps(report: Report, out_dir: Path, known: dict[str, dict]) -> list[Path]:
    """Write again the story maps of the campaigns in ``report`` only (checked alone after an
    edit), each campaign's folder replaced, the others' pages left as they are; the list of
    maps made from ``known`` (each campaign's line, as ``write_storymaps`` filled it) with the
    new lines.  Returns the files written, as ``write_storymaps``."""
    root = Path(out_dir) / "carte"
    maps, nodes, lines = _write_maps(report, root, None)
    keep: set[Path] = {*maps, *nodes}
    for line in lines.values():
        _prune(root / line["href"].partition("/")[0], keep)
    known.update(lines)
    index = _write_index(root, list(known.values()))
    return [index, *maps, *nodes]


def _write_maps(
    report: Report, root: Path, coverage: dict[str, dict] | None
) -> tuple[list[Path], list[Path], dict[str, dict]]:
    env = _env()
    root.mkdir(parents=True, exist_ok=True)
    maps: list[Path] = []
    nodes: list[Path] = []
    lines: dict[str, dict] = {}
    for cid, sg in report.graphs.items():
        folder = root / _SLUG_BAD.sub("-", cid.lower()).strip("-")
        written, stats = write_campaign(
            env, sg, report.findings_of(cid), folder, (coverage or {}).get(cid)
        )
        stats["href"] = f"{folder.name}/index.html"
        lines[cid] = stats
        maps.append(written[0])
        nodes.extend(written[1:])
    return maps, nodes, lines


def _write_index(root: Path, lines: list[dict]) -> Path:
    index = root / "index.html"
    html = (
        _env()
        .get_template("storymap.html.j2")
        .render(page="index", assets="../assets/", campaigns=lines)
    )
    _write(index, html)
    return index


__all__ = ["Layout", "layout", "script_json", "slugs", "update_storymaps", "write_storymaps"]
