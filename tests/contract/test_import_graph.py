"""No import circle inside a game package, inside ``engine/core`` or inside ``pipeline/``, and
the pipeline's stage packages importing only downwards (``STAGES``).

A circle hides control flow going upward (a rules module calling back into the module that
called it) and makes a module impossible to read or test alone.  This is a small script over
``ast`` of the repository's own modules: every ``import`` counts, the ones inside functions
too (a deferred import is still a dependency, only a hidden one).  A package's ``__init__`` is
a module like any other; ``from . import x`` depends on the submodule ``x``, not on the
package (the package is already being imported when its submodule runs).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(*tops: str) -> dict[str, Path]:
    """Every module of the packages ``tops`` (``engine``, ``pipeline``), by dotted name."""
    return {module_name(p): p for top in tops for p in sorted((ROOT / top).rglob("*.py"))}


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m in known and m != name}


def graph(*tops: str) -> dict[str, set[str]]:
    known = modules(*tops)
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def circles_inside(prefix: str, edges: dict[str, set[str]]) -> list[list[str]]:
    """Circles among the modules of one package (``engine.roi``), its subpackages included."""
    inside = {
        m: {t for t in targets if t == prefix or t.startswith(prefix + ".")}
        for m, targets in edges.items()
        if m == prefix or m.startswith(prefix + ".")
    }
    return circles(inside)


ENGINE = graph("engine")
PACKAGES = [f"engine.{game_id}" for game_id in registry.ids()] + ["engine.core"]


def test_the_script_finds_a_circle() -> None:
    edges = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}, "q.x": {"p.a"}}
    assert circles_inside("p", edges) == [["p.a", "p.b", "p.c"]]
    assert circles_inside("q", edges) == []
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_script_reads_imports_inside_functions(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .a import f\n")
    (package / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (package / "b.py").write_text("from pkg.a import f\n")
    known = {
        "pkg": package / "__init__.py",
        "pkg.a": package / "a.py",
        "pkg.b": package / "b.py",
    }
    found = {name: imports(name, path, known) for name, path in known.items()}
    assert found == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}
    assert circles(found) == [["pkg.a", "pkg.b"]]


def test_every_game_package_is_in_the_graph() -> None:
    for package in PACKAGES:
        assert package in ENGINE, package


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle_inside(package: str) -> None:
    assert circles_inside(package, ENGINE) == []


def test_no_import_circle_inside_the_pipeline() -> None:
    assert circles_inside("pipeline", graph("pipeline")) == []


#: The pipeline's stages, bottom to top, in the order the data flows: what writers wrote
#: (``content``), the story graph and what is said about it (``story``), then side by side the
#: three ways out of it (``publish``, ``play``, ``editor``), and the command line on top.  The
#: foundations every stage uses are ``pipeline``'s own modules, rank 0.  The package
#: ``pipeline`` itself stands with the command line: it hands callers the whole check
#: (``pipeline.check``, from ``pipeline.story.report``).
STAGES = {"content": 1, "story": 2, "publish": 3, "play": 3, "editor": 3, "cli": 4}
FOUNDATIONS = {
    "pipeline.findings",
    "pipeline.messages",
    "pipeline.schema",
    "pipeline.files",
    "pipeline.chromium",
}


def stage(module: str) -> tuple[str, int]:
    """The stage of a pipeline module and its rank (``("", 0)`` for a foundation)."""
    if module == "pipeline":
        return "pipeline", STAGES["cli"]
    part = module.split(".")[1]
    return (part, STAGES[part]) if part in STAGES else ("", 0)


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import that does not go down: to a higher stage, or to another stage of the
    same rank (``publish`` importing ``play``)."""
    found = []
    for module, targets in sorted(edges.items()):
        here, rank = stage(module)
        for target in sorted(targets):
            there, other = stage(target)
            if there != here and other >= rank:
                found.append((module, target))
    return found


PIPELINE = graph("pipeline")


def test_the_stage_check_finds_an_import_upward_or_sideways() -> None:
    edges = {
        "pipeline.content.a": {"pipeline.findings", "pipeline.story.b"},
        "pipeline.story.b": {"pipeline.content.a", "pipeline.story.c", "pipeline.messages"},
        "pipeline.story.c": set(),
        "pipeline.publish.d": {"pipeline.play.e", "pipeline.story.b"},
        "pipeline.play.e": set(),
        "pipeline.findings": {"pipeline.content.a", "pipeline.messages"},
        "pipeline.messages": set(),
        "pipeline.cli.f": {"pipeline.publish.d", "pipeline.findings"},
    }
    assert upward(edges) == [
        ("pipeline.content.a", "pipeline.story.b"),
        ("pipeline.findings", "pipeline.content.a"),
        ("pipeline.publish.d", "pipeline.play.e"),
    ]


def test_every_pipeline_module_is_in_a_stage_or_a_foundation() -> None:
    loose = [m for m in PIPELINE if m != "pipeline" and stage(m)[0] == "" and m not in FOUNDATIONS]
    assert loose == []
    for name in STAGES:
        assert f"pipeline.{name}" in PIPELINE, name


def test_the_pipeline_stages_import_only_downwards() -> None:
    assert upward(PIPELINE) == []
