"""Export a story graph for Gephi (GraphML), Graphviz (DOT) or any tool (node-link JSON)."""

from __future__ import annotations

import io
import json

import networkx as nx

from .. import schema as S
from ..story.graph import StoryGraph


def _plain(sg: StoryGraph) -> nx.DiGraph:
    """A copy whose attributes are all strings or numbers (what GraphML and DOT accept)."""
    g = nx.DiGraph(name=sg.campaign.id)
    for node, attrs in sg.graph.nodes(data=True):
        g.add_node(node, **{k: v for k, v in attrs.items() if isinstance(v, (str, int))})
    for a, b, attrs in sg.graph.edges(data=True):
        out = {"kind": attrs.get("kind", "")}
        if attrs.get("condition"):
            out["condition"] = json.dumps(attrs["condition"], ensure_ascii=False)
        if attrs.get("context"):
            out["context"] = str(attrs["context"])
        g.add_edge(a, b, **out)
    return g


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(sg: StoryGraph) -> str:
    lines = [f"digraph {_dot_id(sg.campaign.id)} {{", "  rankdir=LR;", "  node [style=filled];"]
    kinds = S.KINDS.get(sg.campaign.family, {})
    for node, attrs in sg.graph.nodes(data=True):
        # the kind's colour on the story map, declared by its game (``Kind.colour``)
        spec = kinds.get(attrs.get("kind", ""))
        colour = (spec.colour if spec is not None else "") or "white"
        lines.append(f"  {_dot_id(node)} [fillcolor={_dot_id(colour)}];")
    for a, b, attrs in sg.graph.edges(data=True):
        label = attrs.get("kind", "")
        style = ",style=dashed" if attrs.get("condition") else ""
        lines.append(f"  {_dot_id(a)} -> {_dot_id(b)} [label={_dot_id(label)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(sg: StoryGraph, fmt: str) -> str:
    if fmt == "dot":
        return to_dot(sg)
    g = _plain(sg)
    if fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(g, buf, encoding="utf-8")
        return buf.getvalue().decode("utf-8")
    data = nx.node_link_data(g, edges="edges")
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
