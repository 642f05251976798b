"""No game is named outside its own package: a sixth game is ``engine/<id>/``, ``content/<id>/``
and its rules page, and nothing else changes.

The words are every registered game's id (the template games' too) and every content kind a
game declares (``envelope``, ``adventure_card``...), as whole words of the string literals in
the shared code: the engine's core, the session's web face, the page's scripts and the
pipeline.  Docstrings and comments may cite a game
as an example; code may not branch on one.  A kind named like a word of the contract itself
(``action``, ``outcome``: the names in ``engine/core/game.py``) cannot be told apart from it and
is left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from engine.core import registry

ROOT = Path(__file__).resolve().parents[2]
ENGINE_SHARED = [ROOT / "engine" / "core", ROOT / "engine" / "web.py"]
SCRIPTS = ROOT / "site" / "assets"
#: a JavaScript string literal: quotes, apostrophes or backquotes, escapes allowed
JS_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")


def contract_words() -> set[str]:
    """The words of the contract's own names (``legal_actions`` gives ``legal``, ``actions``)."""
    tree = ast.parse((ROOT / "engine" / "core" / "game.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return {word.lower() for name in names for word in name.split("_") if word}


def game_words() -> dict[str, str]:
    """Each word that names a game, with the game it belongs to."""
    own = contract_words()
    words: dict[str, str] = {}
    for game in registry.games():
        words[game.id] = game.id
        for kind in game.content.kinds if game.content is not None else ():
            if kind.name not in own:
                words[kind.name] = game.id
    return words


def python_strings(path: Path) -> Iterator[tuple[int, str]]:
    """The string literals of a module with their lines, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def script_strings(path: Path) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "*", "/*")):
            continue  # a comment
        for _, body in JS_STRING.findall(line):
            yield number, body


def findings(paths: list[Path], words: dict[str, str], root: Path = ROOT) -> list[str]:
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len)[::-1]) + r")\b")
    out = []
    for top in paths:
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in files:
            if path.suffix == ".py":
                strings = python_strings(path)
            elif path.suffix == ".js" and "vendor" not in path.relative_to(root).parts:
                strings = script_strings(path)
            else:
                continue
            for line, text in strings:
                for match in pattern.finditer(text):
                    word = match.group(1)
                    where = path.relative_to(root)
                    out.append(f"{where}:{line}: « {word} » ({words[word]}) in {text[:50]!r}")
    return out


def test_the_words_are_found(tmp_path: Path) -> None:
    shared = tmp_path / "shared.py"
    shared.write_text('"""A docstring may cite envelope."""\nKIND = "envelope"\nOTHER = "kind"\n')
    script = tmp_path / "page.js"
    script.write_text('// a comment on an envelope\nconst k = "story envelope";\n')
    words = {"envelope": "dilemme"}
    found = [f.partition(": ")[0] for f in findings([tmp_path], words, root=tmp_path)]
    assert found == ["page.js:2", "shared.py:2"]


def test_every_game_and_its_kinds_are_words() -> None:
    words = game_words()
    assert set(registry.ids()) <= set(words)
    assert "morpion" in words  # the contract suite's template game is registered now
    assert "action" not in words and "outcome" not in words  # the contract's own words


def test_no_game_named_in_the_engine_core_or_the_web_face() -> None:
    assert findings(ENGINE_SHARED, game_words()) == []


def test_no_game_named_in_the_page_scripts() -> None:
    assert findings([SCRIPTS], game_words()) == []


def test_no_game_named_in_the_pipeline() -> None:
    assert findings([ROOT / "pipeline"], game_words()) == []
