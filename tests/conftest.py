"""Shared helpers for the checker's tests.

The base fixtures (``tests/fixtures/base/dilemme`` and ``.../citadelle``) check clean.  A test
copies one into ``tmp_path``, breaks one file with the helpers below, runs the checker and
compares the finding with positions computed from the text it wrote (``pos_of``), never with
line numbers copied by hand.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from pipeline import Report, check
from pipeline.findings import Finding

# ``gamebook check`` keeps a cache in $XDG_CACHE_HOME/gamebook: the tests use their own, never
# the developer's (``pipeline.content.cache``)
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="gamebook-test-cache-")

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
BASE = FIXTURES / "base"
CAMPAIGNS = ("dilemme", "citadelle")


@pytest.fixture(scope="session", autouse=True)
def _cold_engine_caches() -> None:
    """Start every session with the engine's memoised functions empty.

    mutmut 3 runs each mutant in a process forked from one that has already run the tests, so a
    cache filled there (the boards' ``lru_cache`` of coordinates and neighbours) would answer for
    the mutated function and hide it from every test.  Clearing them at the session's start makes
    a mutant meet the tests as a fresh process would."""
    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


# --------------------------------------------------------------------------- copying fixtures


def copy_base(name: str, dest: Path) -> Path:
    """Copy the base campaign ``name`` to ``dest/name`` and return that folder."""
    target = dest / name
    shutil.copytree(BASE / name, target)
    return target


def copy_all(dest: Path) -> Path:
    """Copy both base campaigns under ``dest/content`` and return the content folder."""
    content = dest / "content"
    content.mkdir(parents=True)
    for name in CAMPAIGNS:
        copy_base(name, content)
    return content


@pytest.fixture
def dilemme(tmp_path: Path) -> Path:
    return copy_base("dilemme", tmp_path)


@pytest.fixture
def citadelle(tmp_path: Path) -> Path:
    return copy_base("citadelle", tmp_path)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return copy_all(tmp_path)


# --------------------------------------------------------------------------- editing files


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def replace(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path`` (fails if it is absent or repeated)."""
    text = read(path)
    n = text.count(old)
    assert n == 1, f"{old!r} occurs {n} times in {path.name}"
    write(path, text.replace(old, new))


def append(path: Path, block: str, indent: int = 0) -> None:
    """Append a YAML block (dedented, then indented by ``indent`` spaces: items added to the
    file's last list use ``indent=2``) at the end of ``path``."""
    text = read(path)
    if text and not text.endswith("\n"):
        text += "\n"
    block = textwrap.indent(textwrap.dedent(block).lstrip("\n"), " " * indent)
    write(path, text + block)


def new_file(folder: Path, name: str, block: str) -> Path:
    path = folder / name
    write(path, textwrap.dedent(block).lstrip("\n"))
    return path


def yaml_rt() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)  # the fixtures' layout: "  - id: ..."
    return y


def load_rt(path: Path) -> Any:
    return yaml_rt().load(read(path))


def dump_rt(path: Path, data: Any) -> None:
    buf = io.StringIO()
    yaml_rt().dump(data, buf)
    write(path, buf.getvalue())


def edit_yaml(path: Path, fn: Callable[[Any], None]) -> None:
    """Structural edit: load ``path`` round-trip, let ``fn`` change the data, write it back."""
    data = load_rt(path)
    fn(data)
    dump_rt(path, data)


# --------------------------------------------------------------------------- positions


def pos_of(path: Path, marker: str, nth: int | None = None, offset: int = 0) -> tuple[int, int]:
    """1-based ``(line, column)`` of ``marker`` in ``path`` (plus ``offset`` characters).

    ``marker`` must occur exactly once unless ``nth`` (1-based) picks one occurrence."""
    text = read(path)
    if nth is None:
        n = text.count(marker)
        assert n == 1, f"{marker!r} occurs {n} times in {path.name}"
        nth = 1
    i = -1
    for _ in range(nth):
        i = text.index(marker, i + 1)
    i += offset
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, column


def line_of(path: Path, marker: str, nth: int | None = None) -> int:
    return pos_of(path, marker, nth)[0]


def value_pos(path: Path, marker: str, nth: int | None = None) -> tuple[int, int]:
    """Where the value written right after ``marker`` starts (``marker`` ends with ``': '``
    or ``'['`` or similar)."""
    return pos_of(path, marker, nth, offset=len(marker))


# --------------------------------------------------------------------------- running the checker


def run_check(folder: Path) -> Report:
    return check(folder)


def codes(report: Report) -> set[str]:
    return {f.code for f in report.findings}


def with_code(report: Report, code: str) -> list[Finding]:
    return [f for f in report.findings if f.code == code]


def one(report: Report, code: str) -> Finding:
    """The only finding with ``code`` (fails, listing every finding, otherwise)."""
    found = with_code(report, code)
    assert len(found) == 1, "\n".join(
        f"{f.code} {f.file}:{f.line} {f.message}" for f in report.findings
    )
    return found[0]


def gamebook(*args: str) -> subprocess.CompletedProcess[str]:
    """``gamebook ARGS`` in a subprocess of this checkout (standard input closed), as a player
    runs it."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO_ROOT,
        env=env,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``pipeline.cli.main(argv)`` in-process; returns ``(exit code, stdout, stderr)``."""
    from pipeline import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def check_json(folder: Path) -> tuple[int, dict, str]:
    code, out, err = run_cli(["check", str(folder), "--format", "json"])
    return code, json.loads(out) if out.strip() else {}, err


def at(path: Path, marker: str, sub: str, nth: int | None = None) -> tuple[int, int]:
    """Where ``sub`` starts inside the (unique, or ``nth``) occurrence of ``marker``."""
    assert sub in marker
    return pos_of(path, marker, nth, offset=marker.index(sub))


def one_in_every_format(folder: Path, code: str, file: str, line: int, column: int) -> str:
    """``gamebook check folder`` reports exactly one finding, ``code`` at ``file:line:column``,
    in the text, json and github formats alike; returns its message."""
    rc, out, err = run_cli(["check", str(folder), "--format", "json"])
    found = json.loads(out)["findings"]
    assert rc == 1 and len(found) == 1, err + out
    f = found[0]
    assert (f["code"], f["file"], f["line"], f["column"]) == (code, file, line, column), f
    rc, out, _ = run_cli(["check", str(folder)])
    listed = [x for x in out.splitlines() if f" {code} " in x]
    assert rc == 1 and len(listed) == 1, out
    assert listed[0].startswith(f"{folder / file}:{line}:{column}: error {code} "), listed
    assert f["message"] in listed[0]
    rc, out, _ = run_cli(["check", str(folder), "--format", "github"])
    lines = [x for x in out.splitlines() if x.startswith("::")]
    assert rc == 1 and len(lines) == 1, out
    assert lines[0].startswith(f"::error file={folder / file},line={line},col={column},"), lines
    assert f"title={code}::" in lines[0]
    return f["message"]
