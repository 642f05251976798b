"""Cause before consequence: fold the findings a broken file causes under that file's finding.

A file that cannot be read or parsed defines nothing, so every reference to what it would have
defined is « introuvable », what only it led to is unreachable, and the flags only it set can
never be true.  Those findings are true but not the writer's mistake: they are counted in one
line under the broken file's finding (« … et 312 références vers ce fichier ») and come back,
if still true, once the file is fixed.

What the broken file would have defined is read from its text without YAML: every
``id:``/``number:`` value and every word written after a colon, a dash or a bracket.  A
consequence is folded only if it names one of those (an over-approximation, never hiding a
finding about something the broken file does not mention).  A game's checks over the whole
campaign (« il faut sept cartes ») count the records the broken file would have held: they are
folded too, under the first broken file.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ..findings import CAUSES, Finding
from ..messages import t

_ID = re.compile(r"""(?m)^[ \t-]*(?:id|number)[ \t]*:[ \t]*["']?([^"'\s#,\]}]+)""")
_WORD = re.compile(r"""(?:^|[:\[{,\-]|\s)[ \t]*["']?([\w./@+-]+)""")


def _key(value: str) -> str:
    """Keys compared as the checker normalises ids: numbers by value (« 07 » is « 7 »)."""
    return str(int(value)) if value.isascii() and value.isdigit() and len(value) < 30 else value


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def fold(
    findings: list[Finding],
    folder: Path,
    content_dir: Path,
    graph: object,
    texts: dict[str, str] | None = None,
) -> list[Finding]:
    """``findings`` of one campaign with the consequences of its broken files folded.  A broken
    file's text is read from ``texts`` (path relative to ``content_dir`` -> the editor's unsaved
    text) when it is there, else from the disk."""
    broken = {f.file: f for f in findings if f.code in CAUSES and f.line >= 1}
    if not broken:
        return _fold_counts(findings, graph)
    ids: dict[str, str] = {}  # key -> broken file that would define it
    words: dict[str, str] = {}  # word -> broken file that mentions it
    for rel in broken:
        text = texts[rel] if texts and rel in texts else _read(content_dir / rel)
        if text is None:
            continue
        for m in _ID.finditer(text):
            ids.setdefault(_key(m.group(1)), rel)
        for m in _WORD.finditer(text):
            words.setdefault(_key(m.group(1)), rel)
    whole = {id(f) for f in getattr(graph, "whole", ())}
    first = min(broken)
    if not ids and not words and not whole:
        return findings
    unknown = {id(f): key for f, key in getattr(graph, "unknown", ())}
    stranded = _stranded(graph, words)
    granted_in = _granted_in(graph, stranded)
    conditions = _condition_words(graph)
    held: dict[str, str] = {}  # the key of a stranded record -> the broken file to blame
    for node, rel in stranded.items():
        name = node.partition(":")[2]
        held.setdefault(_key(name), rel)
        held.setdefault(_key(name.split("/")[0]), rel)
    refs: dict[str, int] = {}
    others: dict[str, int] = {}
    out = []
    for f in findings:
        if f.code in CAUSES:
            out.append(f)
            continue
        key = unknown.get(id(f))
        if id(f) in whole and f.file not in broken:
            # a count over the campaign's records: the broken file's records are missing
            others[first] = others.get(first, 0) + 1
            continue
        if key is not None and _key(key) in ids:
            refs[ids[_key(key)]] = refs.get(ids[_key(key)], 0) + 1
            continue
        if f.code in _GRAPH and f.node in stranded and f.file not in broken:
            others[stranded[f.node]] = others.get(stranded[f.node], 0) + 1
            continue
        if f.code == "COND001" and f.file not in broken:
            where = next((granted_in[w] for w in _quoted(f)[:1] if w in granted_in), None)
            if where is not None:
                others[where] = others.get(where, 0) + 1
                continue
        if f.code == "COND001" and f.file not in broken:
            # a condition on a record unreachable because of the broken file (« item: 206 »
            # where only that file takes card 206)
            where = next((held[w] for w in conditions.get(_at(f), ()) if w in held), None)
            if where is not None:
                others[where] = others.get(where, 0) + 1
                continue
        if f.code in ("GRAPH001", "GRAPH003", "COND001", "REF002") and f.file not in broken:
            where = _mentioned(f, words)
            if where is not None:
                others[where] = others.get(where, 0) + 1
                continue
        out.append(f)
    if not refs and not others:
        return findings
    for i, f in enumerate(out):
        if f.code in CAUSES and (f.file in refs or f.file in others):
            more = []
            if f.file in refs:
                more.append(t("fold.refs", n=refs[f.file]) if refs[f.file] > 1 else t("fold.ref"))
            if f.file in others:
                n = others[f.file]
                more.append(t("fold.others", n=n) if n > 1 else t("fold.other"))
            message = f.message + t("fold.more", what=t("fold.and").join(more))
            out[i] = dataclasses.replace(f, message=message)
    return out


_GRAPH = ("GRAPH001", "GRAPH002", "GRAPH003", "GRAPH004")
#: the key of ``behind_of``'s map that holds a campaign's missing start (no node id is empty)
NO_START = ""
#: a record's own mistakes: the record is dropped, or read without the faulty value
RECORD_ERRORS = ("FIELD001", "FIELD002", "ID001")


def _fold_counts(findings: list[Finding], graph: object) -> list[Finding]:
    """A game's checks over the whole campaign count records and read their fields: while one
    record has an error of its own (a misspelt id, a value out of range), what they say may
    only follow from it (« personnage « alchimiste » sans carte » after « alchimste »).  They
    are folded under the first such error, and come back, if still true, once it is fixed."""
    whole = {id(f) for f in getattr(graph, "whole", ())}
    if not whole:
        return findings
    causes = [
        f
        for f in findings
        if f.code in RECORD_ERRORS and f.severity == "error" and id(f) not in whole
    ]
    if not causes:
        return findings
    cause = min(causes, key=lambda f: (f.file, f.line, f.column))
    n = sum(1 for f in findings if id(f) in whole)
    more = t("fold.more_error", what=t("fold.others", n=n) if n > 1 else t("fold.other"))
    out = []
    for f in findings:
        if id(f) in whole:
            continue
        out.append(dataclasses.replace(f, message=f.message + more) if f is cause else f)
    return out


def _at(f: Finding) -> tuple[str, int, int]:
    return (f.file, f.line, f.column)


def _condition_words(graph: object) -> dict[tuple[str, int, int], list[str]]:
    """The words each condition of the campaign names (its values: a card's number, a flag),
    by where the condition is written: a COND001 is written there."""
    out: dict[tuple[str, int, int], list[str]] = {}
    for use in getattr(getattr(graph, "campaign", None), "conditions", ()):
        found: list[str] = []
        stack = [use.value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, (list, tuple)):
                stack.extend(v)
            elif isinstance(v, (str, int)) and not isinstance(v, bool):
                found.append(_key(str(v)))
        out.setdefault((use.file, use.line, use.column), []).extend(found)
    return out


def _quoted(f: Finding) -> list[str]:
    return [w.strip() for w in re.findall(r"« ([^»]+) »", f.message)]


def _stranded(graph: object, words: dict[str, str]) -> dict[str, str]:
    """Unreachable nodes the broken files mention, and every unreachable node only those lead
    to (the dialogue behind a card the broken file held), each with the broken file to blame.
    Cost: O(nodes + edges)."""
    g = getattr(graph, "graph", None)
    if g is None or not words:
        return {}
    seen = graph.reachable_nodes()  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    stack = []
    for node in g.nodes:
        if node in seen or ":" not in node:
            continue
        key = node.partition(":")[2]
        for part in (key, key.split("/")[0]):
            if _key(part) in words:
                out[node] = words[_key(part)]
                stack.append(node)
                break
    while stack:
        node = stack.pop()
        for m in g.successors(node):
            if m not in seen and m not in out:
                out[m] = out[node]
                stack.append(m)
    return out


def _granted_in(graph: object, stranded: dict[str, str]) -> dict[str, str]:
    """Flags, objectives and quests set only by stranded nodes: the conditions on them are
    consequences too."""
    grants = getattr(getattr(graph, "campaign", None), "grants", ())
    elsewhere = {g.value for g in grants if g.source not in stranded}
    return {
        g.value.split("=")[0]: stranded[g.source]
        for g in grants
        if g.source in stranded and g.value not in elsewhere
    }


def _mentioned(f: Finding, words: dict[str, str]) -> str | None:
    """The broken file that names what ``f`` is about (its node's key, or the condition's
    value), or ``None``."""
    if f.code in ("COND001", "REF002"):
        # the condition's flag, or the vocabulary word: the first quoted word of the message
        for word in re.findall(r"« ([^»]+) »", f.message)[:1]:
            if _key(word.strip()) in words:
                return words[_key(word.strip())]
        return None
    if f.node and ":" in f.node:
        key = f.node.partition(":")[2]
        for part in (key, key.split("/")[0]):
            if _key(part) in words:
                return words[_key(part)]
    return None


def fold_behind(findings: list[Finding], graph: object) -> list[Finding]:
    """A reference to nothing that most likely meant a node renamed or left unreferenced
    (``StoryGraph.meant``): what is unreachable only behind that node (the renamed dilemma,
    its outcomes, what they open) follows from the broken reference.  Those findings are
    marked with it as their ``cause`` (the text output folds them under it, JSON keeps them),
    and the reference's message counts them.  Cost: O(nodes + edges)."""
    return apply_behind(findings, behind_of(graph))


def behind_of(graph: object) -> dict[str, Finding]:
    """Each node unreachable only behind a node a broken reference most likely meant, with
    that reference's finding (one of the graph's own): what ``fold_behind`` folds.  The cache
    keeps it beside a campaign's findings, so that an edit the graph cannot see folds them
    the same way without the graph (``incremental.attempt``)."""
    meant = getattr(graph, "meant", None) or []
    start = getattr(graph, "no_start", None)
    g = getattr(graph, "graph", None)
    if (not meant and start is None) or g is None:
        return {}
    seen = graph.reachable_nodes()  # type: ignore[attr-defined]
    behind: dict[str, Finding] = {}  # unreachable node -> the broken reference to blame
    for cause, node in meant:
        stack = [node] if node not in seen and node not in behind else []
        while stack:
            n = stack.pop()
            if n in behind:
                continue
            behind[n] = cause
            stack.extend(m for m in g.successors(n) if m not in seen and m not in behind)
    if start is not None:
        # no start (missing, or naming nothing): nothing of the story can be reached, so
        # whatever is unreachable, and every condition nothing reachable makes true, only
        # follows from it; they come back, if still true, once the start is fixed
        for n in g._node:
            if n not in seen and n not in behind:
                behind[n] = start
        behind[NO_START] = start
    return behind


def apply_behind(findings: list[Finding], behind: dict[str, Finding]) -> list[Finding]:
    """``findings`` folded under the broken references of ``behind`` (``behind_of``): each
    finding about a node behind one is marked with it as its cause, and the reference's
    message counts them."""
    if not behind:
        return findings
    counts: dict[int, int] = {}
    out: list[Finding] = []
    start = behind.get(NO_START)
    for f in findings:
        cause = behind.get(f.node) if f.node and f.code in _GRAPH and f.cause is None else None
        if cause is None and start is not None and f.code == "COND001" and f.cause is None:
            cause = start
        if cause is not None and cause is not f:
            counts[id(cause)] = counts.get(id(cause), 0) + 1
            f = dataclasses.replace(f, cause=cause.where())
        out.append(f)
    if not counts:
        return findings
    for i, f in enumerate(out):
        n = counts.get(id(f))
        if n:
            what = t("fold.others", n=n) if n > 1 else t("fold.other")
            out[i] = dataclasses.replace(f, message=f.message + t("fold.more_error", what=what))
    return out
