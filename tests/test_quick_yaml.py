"""The quick reader (``pipeline.content.quick``) against libyaml's path (``load._build``).

Whatever the quick reader accepts, libyaml must read without an error into the very same
values, types and positions; whatever it is unsure of, it leaves (``None``).  Checked on every
shipped content file, on the generated benchmark campaign, on hand-picked constructs either
side of the subset's edge, and on random documents (well formed, then damaged)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.content import load, quick

ROOT = Path(__file__).resolve().parent.parent


def libyaml(text: str) -> tuple[Any, list] | None:
    """What libyaml's path builds, or ``None`` if it refuses the text."""
    try:
        return load._build(load._Parser(text))
    except Exception:
        return None


def differ(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two read values differ (type, value, position, key order), or ``None``."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r} / {type(b).__name__} {b!r}"
    if isinstance(a, load.YMap):
        if a.pos != b.pos or list(a) != list(b):
            return f"{path}: {a.pos} {list(a)} / {b.pos} {list(b)}"
        for k in a:
            if (a.kpos[k], a.keypos[k]) != (b.kpos[k], b.keypos[k]):
                return f"{path}.{k}: {a.kpos[k]} {a.keypos[k]} / {b.kpos[k]} {b.keypos[k]}"
            found = differ(a[k], b[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(a, load.YList):
        if a.pos != b.pos or a.ipos != b.ipos or len(a) != len(b):
            return f"{path}: {a.pos} {a.ipos} / {b.pos} {b.ipos}"
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            found = differ(x, y, f"{path}[{n}]")
            if found:
                return found
        return None
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return None
    return None if a == b else f"{path}: {a!r} / {b!r}"


def agree(text: str) -> bool:
    """The quick reader's answer is libyaml's; ``True`` if it read the text itself."""
    got = quick.read(text)
    if got is None:
        return False
    ref = libyaml(text)
    assert ref is not None, f"the quick reader accepts what libyaml refuses:\n{text}"
    assert ref[1] == got[1] == []
    found = differ(ref[0], got[0])
    assert found is None, f"{found}\n{text}"
    return True


def shipped() -> list[Path]:
    return sorted((ROOT / "content").rglob("*.yaml"))


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_shipped_file_reads_the_same(path: Path) -> None:
    agree(path.read_bytes().decode("utf-8-sig"))


def test_nearly_every_shipped_file_takes_the_quick_path() -> None:
    """The subset is the one writers use: a file left to libyaml is the exception (one today:
    a list in brackets over several lines)."""
    paths = shipped()
    quick_ones = sum(quick.read(p.read_bytes().decode("utf-8-sig")) is not None for p in paths)
    assert quick_ones >= len(paths) - 2


def test_the_generated_campaign_reads_the_same(tmp_path: Path) -> None:
    from bench import generate

    generate.generate(3_000, tmp_path)
    files = sorted(tmp_path.rglob("*.yaml"))
    assert files
    assert all(agree(f.read_text(encoding="utf-8")) for f in files)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: deux\nc: 07\nd: -5\ne: 1e3\nf: true\ng: null\nh: ~\ni: .inf\nj: 0x1F\n",
        "a:\nb:\n  c:\n",
        "a:\n- 1\n- x: 2\n  y: 3\nb: 4\n",
        "a:\n  - x\n  - k: v\n    l: 'it''s'\n  - \"q: r\"  # note\n",
        "t: >\n  un\n  deux\n\n  trois\nu: |-\n  a\n    b\nv: |\n  x\n\n\nw: 2\n",
        "- no\n" if False else "x:\n- |\n  texte\n- >-\n  plié\n  ici\n",
        "a: [x, 1 , {k: v, \"1\": 18}, [[7]], 'q']  # c\nb: {}\nc: []\n",
        "---\na: 1\n",
        "# tête\n\na: b # fin\nc: d#e\nf: g:h\n",
        "clé: ça\nemoji: 😀 x\nl: [😀, b]\n",
        'a: he said "x"\nb: l\'été\n',
    ],
)
def test_constructs_of_the_subset(text: str) -> None:
    assert agree(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1",  # no final line break
        "a: 1\r\nb: 2\r\n",
        "a:\tb\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "base: &b {x: 1}\nc:\n  <<: *b\n",
        'a: "x\\ny"\n',
        "a: une\n  suite\n",
        "a: 'ouvert\n  fermé'\n",
        "a: [1,\n  2]\n",
        "a: 1\na: 2\n",
        "a: b: c\n",
        "a: b:\n",
        "- x\n",
        "a:\n-\n  b: 1\n",
        "a: |+\n  x\n\n",
        "a: |2\n  x\n",
        "a: >\n  x\n    y\n",
        "a: |\n\n  x\n",
        "a: 1\n---\nb: 2\n",
        "a: 1\n...\n",
        "a: [x,]\n",
        "a: {x}\n",
        "a:  \n",
        '"a": 1\n',
        "a : 1\n",
        "a: 1\n  b: 2\n",
        "a:\n  - x\n  b: 1\n",
        "# rien\n",
        "",
    ],
)
def test_left_to_libyaml(text: str) -> None:
    assert quick.read(text) is None


def test_deep_flow_is_left_to_libyaml() -> None:
    assert quick.read("a: " + "[" * 500 + "]" * 500 + "\n") is None
    assert (
        quick.read("".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "x\n") is None
    )


# ---------------------------------------------------------------- random documents

_CHARS = "ab z:#'\"-[]{},|>?&*!%@`é😀\\07.\u00a0"
_WORDS = ["oui", "true", "null", "~", "07", "0", "12", "-5", "1e3", ".inf", "x-y", "a.b", "é", ""]

scalars = st.one_of(
    st.sampled_from(_WORDS),
    st.text(alphabet="ab zé07.-'", min_size=1, max_size=8),
    st.text(alphabet=_CHARS, min_size=0, max_size=8),
)
keys = st.one_of(
    st.sampled_from(["id", "text", "to", "x-y", "a.b", "12", "true", "é", "k"]), scalars
)


def _render_scalar(draw: Any, s: str) -> str:
    style = draw(st.sampled_from(["plain", "plain", "single", "double", "comment"]))
    if style == "single":
        return "'" + s.replace("'", "''") + "'"
    if style == "double":
        return '"' + s + '"'
    if style == "comment":
        return s + " # " + draw(scalars)
    return s


@st.composite
def documents(draw: Any) -> str:
    """A document drawn as lines: mappings, lists (indented or at their key's indent), block
    scalars, flow collections, comments and blank lines; then, sometimes, one line damaged."""
    lines: list[str] = []
    budget = [draw(st.integers(3, 40))]

    def node(indent: int, depth: int) -> None:
        choices = ["map", "map", "list", "list"] if 0 < depth < 4 else ["map"]
        kind = draw(st.sampled_from(choices))
        count = draw(st.integers(1, 4))
        step = draw(st.sampled_from([1, 2, 2, 4]))
        for _ in range(count):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            if draw(st.integers(0, 9)) == 0:
                lines.append(draw(st.sampled_from(["", "# note", " " * indent + "# n"])))
            lead = " " * indent
            if kind == "list":
                lead += "-" + " " * draw(st.sampled_from([1, 1, 2]))
            key = draw(keys)
            if draw(st.integers(0, 4)):
                key = f"{key}{len(lines)}"  # most keys differ: a duplicate is left to libyaml
            what = draw(st.sampled_from(["scalar", "scalar", "scalar", "nest", "block", "flow"]))
            head = lead + (f"{key}:" if kind == "map" or draw(st.booleans()) else "")
            keyed = head.endswith(":")
            sep = " " if keyed else ""
            if what == "scalar" or (what == "nest" and depth >= 4):
                lines.append(head + sep + _render_scalar(draw, draw(scalars)))
            elif what == "block":
                ind = draw(st.sampled_from(["|", ">", "|-", ">-"]))
                lines.append(head + sep + ind)
                inner = indent + draw(st.sampled_from([1, 2, 4]))
                for _ in range(draw(st.integers(1, 3))):
                    lines.append(
                        " " * (inner + draw(st.sampled_from([0, 0, 0, 2]))) + draw(scalars)
                    )
                    if draw(st.integers(0, 4)) == 0:
                        lines.append("")
            elif what == "flow":
                items = draw(st.lists(scalars, max_size=3))
                if draw(st.booleans()):
                    text = "[" + ", ".join(_render_scalar(draw, s) for s in items) + "]"
                else:
                    text = "{" + ", ".join(f"{draw(keys)}: {s}" for s in items) + "}"
                lines.append(head + sep + text)
            elif keyed:
                lines.append(head)
                same = kind == "map" and draw(st.integers(0, 3)) == 0
                node(indent if same else indent + step, depth + 1)
            else:
                lines.append(head + sep + draw(scalars))

    node(0, 0)
    if lines and draw(st.integers(0, 2)) == 0:
        n = draw(st.integers(0, len(lines) - 1))
        line = lines[n]
        how = draw(st.sampled_from(["indent", "dedent", "char", "drop"]))
        if how == "indent":
            line = " " + line
        elif how == "dedent":
            line = line[1:]
        elif how == "char":
            at = draw(st.integers(0, len(line)))
            line = line[:at] + draw(st.sampled_from(list(_CHARS))) + line[at:]
        else:
            line = line[: draw(st.integers(0, len(line)))]
        lines[n] = line
    return "\n".join(lines) + "\n"


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_random_documents_read_the_same(text: str) -> None:
    agree(text)
