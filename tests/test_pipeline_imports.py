"""The pipeline's own import graph has no circle, imports inside functions included: each stage
imports only the stages before it (a small walk over ``ast``)."""

from __future__ import annotations

import ast
from pathlib import Path

PIPELINE = Path(__file__).resolve().parent.parent / "pipeline"


def _module(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path = PIPELINE) -> dict[str, set[str]]:
    """Module -> the modules of ``root``'s package it imports (anywhere in its body)."""
    paths = {_module(p, root): p for p in root.rglob("*.py")}
    out: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join([*base, node.module] if node.module else base)
                candidates = [target, *(f"{target}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                candidates = [a.name for a in node.names]
            else:
                continue
            # a package is imported before its modules anyway: only siblings make circles
            found |= {
                c for c in candidates if c in paths and c != name and not name.startswith(c + ".")
            }
        out[name] = found
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two modules or more (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, nexts = work[-1]
            for m in nexts:
                if m not in index:
                    index[m] = low[m] = len(index)
                    stack.append(m)
                    on.add(m)
                    work.append((m, iter(sorted(graph[m]))))
                    break
                if m in on:
                    low[node] = min(low[node], index[m])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        comp.append(m)
                        if m == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_the_walk_finds_a_circle_through_an_import_inside_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pipeline"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert circles(imports(pkg)) == [["pipeline.a", "pipeline.b"]]


def test_no_import_circle_in_the_pipeline() -> None:
    assert circles(imports()) == []
