"""Load YAML files into plain Python values that remember where they came from.

We compose with libyaml (``ruamel.yaml.clib``'s ``CSafeLoader``): composing already gives each
node its line and column, so positions cost no second pass.  The node tree is then turned into
``YMap``/``YList`` (a ``dict``/``list`` that also carries positions) and plain scalars.  This is
about twice as fast as the round-trip loader's full construction and keeps every position;
see BENCHMARKS.md.

Positions are 1-based ``(line, column)`` tuples.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .findings import Finding
from .messages import t

try:  # libyaml through ruamel's C extension
    from ruamel.yaml.cyaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - the pure-Python fallback is 6x slower
    from ruamel.yaml import SafeLoader as _Loader  # type: ignore[attr-defined,no-redef]

Pos = tuple[int, int]

_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_BOOLS = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False}


class YMap(dict):
    """A mapping from a YAML file: ``pos`` is where it starts, ``kpos[key]`` where each value
    starts, ``keypos[key]`` where each key starts."""

    __slots__ = ("keypos", "kpos", "pos")


class YList(list):
    """A sequence from a YAML file: ``pos`` is where it starts, ``ipos[i]`` each item."""

    __slots__ = ("ipos", "pos")


class DuplicateKey(Exception):
    def __init__(self, key: str, pos: Pos, first: Pos) -> None:
        super().__init__(key)
        self.key, self.pos, self.first = key, pos, first


def _scalar(node: Any) -> Any:
    tag, value = node.tag, node.value
    if node.style:  # quoted or block scalars are always strings
        return value
    if tag == _INT:
        text = value.replace("_", "")
        if len(text) > 1 and text[0] == "0" and text.isdigit():
            return text  # "00", "07": keep the writer's digits (envelope numbers)
        try:
            return int(text, 0)
        except ValueError:
            return value
    if tag == _BOOL:
        return _BOOLS.get(value.lower(), value)
    if tag == _NULL:
        return None
    if tag == _FLOAT:
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _convert(node: Any, dup: list[DuplicateKey]) -> Any:
    value = node.value
    if isinstance(value, str):
        return _scalar(node)
    if node.id == "mapping":
        out = YMap()
        kpos: dict[Any, Pos] = {}
        keypos: dict[Any, Pos] = {}
        for knode, vnode in value:
            key = _scalar(knode) if isinstance(knode.value, str) else str(knode.value)
            if not isinstance(key, str):
                key = str(key)
            kmark = knode.start_mark
            if key in out:
                dup.append(DuplicateKey(key, (kmark.line + 1, kmark.column + 1), keypos[key]))
            out[key] = _convert(vnode, dup)
            vm = vnode.start_mark
            kpos[key] = (vm.line + 1, vm.column + 1)
            keypos[key] = (kmark.line + 1, kmark.column + 1)
        out.kpos, out.keypos = kpos, keypos
        m = node.start_mark
        out.pos = (m.line + 1, m.column + 1)
        return out
    seq = YList()
    ipos: list[Pos] = []
    for item in value:
        seq.append(_convert(item, dup))
        im = item.start_mark
        ipos.append((im.line + 1, im.column + 1))
    seq.ipos = ipos
    m = node.start_mark
    seq.pos = (m.line + 1, m.column + 1)
    return seq


def parse(text: str, rel: str) -> tuple[Any, list[Finding]]:
    """Parse one YAML document; return ``(value, findings)``.  ``value`` is ``None`` when the
    file could not be parsed (the findings say why) or is empty."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loader = _Loader(text)
            try:
                node = loader.get_single_node()
            finally:
                dispose = getattr(loader, "dispose", None)
                if dispose:
                    dispose()
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        return None, [
            Finding(
                "YAML001",
                "error",
                t("yaml.malformed", what=what),
                rel,
                line,
                col,
            )
        ]
    except YAMLError as exc:
        return None, [Finding("YAML001", "error", t("yaml.malformed", what=exc), rel, 1, 1)]
    if node is None:
        return None, []
    dup: list[DuplicateKey] = []
    value = _convert(node, dup)
    findings = [
        Finding(
            "YAML002",
            "error",
            t("yaml.duplicate_key", key=d.key, first=d.first[0]),
            rel,
            d.pos[0],
            d.pos[1],
        )
        for d in dup
    ]
    return value, findings


def read_file(path: Path, rel: str) -> tuple[Any, list[Finding]]:
    """Read and parse a file; unreadable or non-UTF-8 files become findings, not tracebacks."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Finding("IO001", "error", t("io.unreadable", why=exc.strerror), rel, 1, 1)]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [
            Finding(
                "YAML001",
                "error",
                t("yaml.utf8"),
                rel,
                line,
                1,
            )
        ]
    return parse(text, rel)
