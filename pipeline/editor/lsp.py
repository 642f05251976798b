"""``gamebook lsp``: a language server (LSP, over standard input and output) for the content
files, on pygls.  In the editor, what ``gamebook check`` says in the terminal:

- **diagnostics**: the checker's findings for the campaign of the open file, from the editor's
  unsaved texts (a new file not on disk yet is one of the campaign's files, as ``check`` would
  read it once saved), each over the whole token it is about.  The campaign is held in memory
  (``pipeline.editor.workspace``): an edit parses and validates the changed file only, keeps the
  graph's findings when the checks cannot tell the difference (a text typed, lines added inside
  a text) and otherwise rebuilds the graph from the models in memory.  Changes are debounced
  and checked in a worker thread, stale ones dropped, so hover, definition and completion
  answer at once while a check runs (from the last analysis); an edit after a quiet moment
  is checked at once, the keys of a burst once it pauses (``DEBOUNCE``);
- **go to definition** on a reference (an envelope number, a card or paragraph id...): the
  record it names;
- **completion** of the ids valid at the cursor's field only (a paragraph where a paragraph is
  read, a card where a card is taken), those that start with what is typed first, the
  records of the edited file nearest the cursor first, at most ``MAX_COMPLETIONS``;
- **hover** on a reference or an id: the record's kind, title and text;
- **rename** (``textDocument/rename``) of a record's id: every reference in every file of the
  campaign, the record's own id, and ``renamed_from: [old]`` added to the record so that saves
  of the published version are converted (``engine/core/migrate.py``).  A rename the server
  declines (the cursor on no id, a new name that cannot be one, an id already taken) is an
  error response (``RequestFailed``) saying why in French, as is ``prepareRename``'s.

A file whose YAML does not parse keeps its last good records for completion and hover.
Generic over the registry: kinds, references and titles come from the games' content schemas
through the checker.
"""

from __future__ import annotations

import bisect
import logging
import re
import sys
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from engine.core.schema import Effects, ListOf, MapOf, Record, Ref, Spec

from .. import schema as S
from ..content.model import _ID_EXPECTED, normalise_key
from ..content.model import Record as ContentRecord
from ..findings import Finding
from ..messages import a_kind, kind_fr, t
from ..story.graph import resolve
from .workspace import Analysis, Workspace, campaign_folder

__all__ = ["Analysis", "Workspace", "campaign_folder", "server"]

#: characters of an id or a reference as written (``D-digue``, ``140``, ``maison/haut_fait``)
_ID = re.compile(r"[\w\-/@+.]+")
_TEXT_FIELDS = ("title", "name", "question", "text")
#: a ``key:`` at the start of a line (after indentation and list dashes)
_KEY = re.compile(r"^(?P<indent>[ \t]*(?:-[ \t]+)*)(?P<key>[\w-]+)[ \t]*:")
MAX_COMPLETIONS = 200
#: seconds of quiet after a change before it is checked (a burst of keys is checked once)
DEBOUNCE = 0.08
#: a change after this many seconds without one is the first of its burst: it waits only
#: ``FIRST_DELAY`` (an edit made alone is not held back by the debounce meant for bursts)
QUIET = 0.25
FIRST_DELAY = 0.01


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def _token(line: str, col: int) -> tuple[str, int, int] | None:
    """The id-like word of ``line`` around 0-based ``col``: (text, start, end)."""
    for m in _ID.finditer(line):
        if m.start() <= col <= m.end():
            word = m.group()
            stripped = word.strip(".")
            start = m.start() + (len(word) - len(word.lstrip(".")))
            return stripped, start, start + len(stripped)
    return None


def token_range(text: str, line: int, col: int) -> tuple[int, int]:
    """The 0-based (start, end) columns of the token a finding at 1-based ``line``, ``col``
    is about: the id-like word there, else the rest of the line's value (never empty)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return max(0, col - 1), max(0, col - 1) + 1
    src = lines[line - 1].rstrip("\r")
    start = max(0, col - 1)
    if start < len(src) and src[start] in "\"'":
        start += 1
    tok = _token(src, start)
    if tok is not None and tok[1] <= start < tok[2] + 1 and tok[2] > tok[1]:
        return tok[1], tok[2]
    end = len(src.rstrip())
    return (start, end) if end > start else (start, start + 1)


def _record_text(data: dict[str, Any]) -> tuple[str, str]:
    title = next((str(data[k]) for k in _TEXT_FIELDS[:3] if data.get(k)), "")
    text = str(data.get("text") or data.get("question") or "")
    return title, text


def _rel(a: Analysis, path: Path) -> str | None:
    try:
        return path.resolve().relative_to(a.folder).as_posix()
    except ValueError:
        return None


def target_at(a: Analysis, path: Path, line: int, col: int, text: str) -> str | None:
    """The node a reference (or a record's own id) at 1-based ``line``, 0-based ``col``
    names (the first of its versions)."""
    found = targets_at(a, path, line, col, text)
    return found[0] if found else None


def targets_at(a: Analysis, path: Path, line: int, col: int, text: str) -> list[str]:
    """Every node a reference (or a record's own id) at 1-based ``line``, 0-based ``col``
    names: each version of a card with several (``202/green``, ``202/red``)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return []
    tok = _token(lines[line - 1], col)
    if tok is None:
        return []
    word, start, _ = tok
    rel = _rel(a, path)
    sg = a.graph
    # a reference written here: the checker knows its kinds
    if sg is not None and rel is not None:
        for ref in a.refs_at(rel, line):
            # the value starts at the word (or at the quote just before it)
            if start - 1 <= ref.column - 1 <= start:
                found = resolve(sg, ref.kinds, ref.key)
                if found:
                    return list(found)
    # otherwise any record with that id (its own id line, a flow list written by hand...)
    return list(a.nodes_with_key(word)[:1])


def describe(a: Analysis, node: str) -> str:
    rec = a.index.get(node)
    if rec is None:
        return f"`{node}`"
    title, text = _record_text(rec.data)
    head = f"**{kind_fr(rec.kind)}** `{rec.key}`" + (f" — {title}" if title else "")
    if len(text) > 600:
        text = text[:600].rstrip() + "…"
    return head + (f"\n\n{text}" if text else "") + f"\n\n_{rec.file}:{rec.line}_"


# --------------------------------------------------------------------------- completion


def _walk(spec: Spec, name: str | None, family: str, out: dict[str, set[str]], seen: set) -> None:
    if id(spec) in seen:
        return
    seen.add(id(spec))
    if isinstance(spec, Ref) and name:
        out.setdefault(name, set()).update(spec.kinds)
    elif isinstance(spec, ListOf):
        _walk(spec.item, name, family, out, seen)
    elif isinstance(spec, MapOf):
        _walk(spec.value, name, family, out, seen)
    elif isinstance(spec, Record):
        for key, fld in spec.fields.items():
            _walk(fld.spec, key, family, out, seen)
    elif isinstance(spec, Effects):
        for key, fld in S.EFFECTS[spec.family].items():
            _walk(fld.spec, key, family, out, seen)


def field_kinds(family: str) -> dict[str, frozenset[str]]:
    """Field name -> the kinds of record a reference written under it may name, from the
    game's content schema (kinds, effects and conditions)."""
    out: dict[str, set[str]] = {}
    seen: set[int] = set()
    for kind in S.KINDS[family].values():
        for key, fld in kind.fields.items():
            _walk(fld.spec, key, family, out, seen)
    for table in (S.EFFECTS[family], S.CONDITIONS[family]):
        for key, fld in table.items():
            _walk(fld.spec, key, family, out, seen)
    return {k: frozenset(v) for k, v in out.items()}


_FIELD_KINDS: dict[str, dict[str, frozenset[str]]] = {}


def field_at(text: str, line: int, col: int) -> str | None:
    """The YAML key whose value the cursor (0-based ``line``, ``col``) is in: the key on its
    line when the cursor is after the colon, else the key of the nearest line above that is
    less indented (a list item under ``cards:``)."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    here = lines[line]
    opened = _flow_opened_above(lines, line, col)
    if opened is not None:  # inside a flow collection begun on a line above
        m = _KEY.match(lines[opened])
        start = m.end() if m else len(lines[opened]) - len(lines[opened].lstrip(" \t-"))
        owner = m.group("key") if m else _block_field(lines, opened)
        written = [lines[opened][start:], *lines[opened + 1 : line], here[:col]]
        return _flow_field(" ".join(written), owner)
    m = _KEY.match(here)
    start = m.end() if m and col > m.end() else len(here) - len(here.lstrip(" \t-"))
    if "{" in here[start:col] or "[" in here[start:col]:
        owner = m.group("key") if m and col > m.end() else _block_field(lines, line)
        return _flow_field(here[start:col], owner)
    if m and col > m.end():
        return m.group("key")
    return _block_field(lines, line)


#: how far above the cursor a flow collection that spans lines is looked for
FLOW_LINES = 60


def _depth(text: str) -> int:
    """Brackets ``{[`` opened minus closed in ``text``, quoted strings and a comment left out."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            end = text.find(ch, i + 1)
            if end < 0:
                break
            i = end
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            break
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        i += 1
    return depth


def _flow_opened_above(lines: list[str], line: int, col: int) -> int | None:
    """The line where the outermost flow collection the cursor is in begins, when it begins
    above the cursor's line (``scenarios: [a,`` then ``  b, |``); ``None`` otherwise.  A
    collection still open at the cursor is one whose line's brackets, with everything after
    them up to the cursor, leave more open than the lines below it do."""
    below = _depth(lines[line][:col])
    found, found_depth = None, 0
    for k in range(line - 1, max(-1, line - FLOW_LINES), -1):
        here = lines[k]
        if not here.strip():
            continue
        depth = _depth(here) + below
        indent = len(here) - len(here.lstrip(" \t-"))
        if depth > max(below, 0):
            found, found_depth = k, depth
        elif found is not None and indent < _indent(lines[found]):
            break  # a block line above the collection's first line: it began there
        elif found is None and depth <= 0 and below <= 0 and indent == 0 and _KEY.match(here):
            break  # a top-level key and nothing open: the cursor is not in a collection
        below = depth
    if found is None or found_depth <= 0:
        return None
    # a collection is written as a value: ``key: [`` or ``- {`` (a bracket in prose is none)
    m = _KEY.match(lines[found])
    value = lines[found][m.end() :] if m else lines[found].lstrip(" \t-")
    return found if value.lstrip().startswith(("[", "{")) else None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t-"))


def _flow_field(before: str, owner: str | None) -> str | None:
    """The key whose value the cursor is in, at the end of ``before`` (a line's value up to
    the cursor, in a YAML flow collection): in ``{a: x, b: |`` ``b``; in ``[x, |`` the key
    that owns the sequence (``owner`` at the top)."""
    # each open collection: (is a mapping, the key that owns it, its key being written)
    stack: list[list[Any]] = [[False, owner, owner]]
    word_start = 0
    i = 0
    while i < len(before):
        ch = before[i]
        top = stack[-1]
        if ch in "\"'":
            end = before.find(ch, i + 1)
            if end < 0:
                break
            i = end
        elif ch in "{[":
            field = top[2] if top[0] else top[1]
            stack.append([ch == "{", field, None])
            word_start = i + 1
        elif ch in "}]":
            if len(stack) > 1:
                stack.pop()
        elif ch == ",":
            if top[0]:
                top[2] = None
            word_start = i + 1
        elif ch == ":" and top[0] and (i + 1 == len(before) or before[i + 1] in " \t"):
            top[2] = before[word_start:i].strip().strip("\"'") or None
        i += 1
    top = stack[-1]
    return top[2] if top[0] else top[1]


def _block_field(lines: list[str], line: int) -> str | None:
    """The key of the nearest line above ``line`` that is less indented (a list item under
    ``cards:``)."""
    here = lines[line]
    indent = len(here) - len(here.lstrip(" \t-"))
    for i in range(line - 1, max(-1, line - 200), -1):
        above = lines[i]
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        m = _KEY.match(above)
        depth = len(m.group("indent")) if m else len(above) - len(above.lstrip(" \t-"))
        if depth < indent or (depth == indent and not here.lstrip().startswith("-")):
            if m is None:
                return None
            rest = above[m.end() :].strip()
            if rest and not rest.startswith(("[", "{", "#", "|", ">")):
                return None  # a key with its own value: the cursor is not under it
            return m.group("key")
    return None


def _choices(a: Analysis, kinds: frozenset[str] | None) -> tuple[list, dict, list, list]:
    """The ids a reference of ``kinds`` may name, once per analysis (and handed on while the
    records are the same): shortest first (length, label, node, file, label and title in
    lower case), per file, and alphabetically with the labels alone (for ``_starting``)."""
    key = ("choices", kinds)
    made = a.memo.get(key)
    if made is None:
        sg = a.graph
        specs = S.KINDS[sg.campaign.family] if sg else {}
        seen: set[str] = set()
        every = []
        for node, rec in a.index.items():
            if kinds is not None and rec.kind not in kinds:
                continue
            if rec.parent and "/" in rec.key:
                continue  # sub-records are reached through their parent
            label = rec.key
            spec = specs.get(rec.kind)
            if spec is not None and spec.resolve_by:
                label = str(rec.data.get(spec.resolve_by, rec.key))
            if label in seen:
                continue
            seen.add(label)
            title = _record_text(rec.data)[0].lower()
            every.append((len(label), label, node, rec.file, label.lower(), title))
        every.sort()
        by_file: dict[str, list[tuple]] = {}
        for item in every:
            by_file.setdefault(item[3], []).append(item)
        alpha = sorted(every, key=lambda it: it[4])
        made = a.memo[key] = (every, by_file, alpha, [it[4] for it in alpha])
    return made


def _starting(choices: tuple, low: str) -> list[tuple]:
    """The candidates whose label starts with ``low``, shortest first (a range of the
    alphabetical list: a prefix typed at 100k nodes costs no scan of them all)."""
    every, _, alpha, keys = choices
    if not low:
        return every
    found = alpha[bisect.bisect_left(keys, low) : bisect.bisect_left(keys, low + "\U0010ffff")]
    found.sort()
    return found


def completions(
    a: Analysis,
    kinds: frozenset[str] | None,
    typed: str = "",
    here: tuple[str, int] | None = None,
    limit: int | None = None,
) -> tuple[list[tuple], bool]:
    """(label, kind and title, documentation, sort text) of the ids a reference of ``kinds``
    may name (``None``: every kind), and whether there are more than ``limit``.  Ranked:
    those that start with ``typed`` first, then those that contain it (in the id or the
    title); among the first, the records of the file being edited (``here``: rel file,
    1-based line) nearest the cursor first, then the shortest ids.  The label is the id as a
    writer writes it (an adventure card's number, not one of its versions).  Only the
    offered ones are described (their title and text read)."""
    choices = _choices(a, kinds)
    every, by_file = choices[0], choices[1]
    low = typed.lower()
    cap = len(every) if limit is None else limit
    rel, line = here if here else (None, 0)
    index = a.index
    picked: list[tuple] = []
    taken: set[str] = set()

    def starts(item: tuple) -> bool:
        return item[4].startswith(low)

    mine = [it for it in by_file.get(rel, []) if starts(it)] if rel is not None else []
    mine.sort(key=lambda it: abs(index[it[2]].line - line))
    groups: list[Any] = [mine, (it for it in _starting(choices, low) if it[3] != rel)]
    if low:
        groups.append(it for it in every if not starts(it) and (low in it[4] or low in it[5]))
    more = False
    for group in groups:
        for it in group:
            if len(picked) == cap:
                more = True
                break
            if it[1] not in taken:
                taken.add(it[1])
                picked.append(it)
        if more:
            break
    out: list[tuple[str, str, str, str]] = []
    for i, (_, label, node, *_) in enumerate(picked):
        rec = index[node]
        title, text = _record_text(rec.data)
        out.append((label, kind_fr(rec.kind) + (f" — {title}" if title else ""), text, f"{i:07d}"))
    return out, more


def kinds_at(a: Analysis, text: str, line: int, col: int) -> frozenset[str] | None:
    """The kinds the field at the cursor refers to; an empty set when it is no reference."""
    sg = a.graph
    if sg is None:
        return frozenset()
    family = sg.campaign.family
    if family not in _FIELD_KINDS:
        _FIELD_KINDS[family] = field_kinds(family)
    name = field_at(text, line, col)
    if name is None:
        return frozenset()
    return _FIELD_KINDS[family].get(name, frozenset())


# --------------------------------------------------------------------------- rename


class Refused(Exception):
    """A request the server declines (a rename it cannot make), with why: a writer's
    sentence (``pipeline.messages``), answered to the editor as an error response."""

    def __init__(self, message: str, /, **values: object) -> None:
        said = t(message, **values)
        super().__init__(said[:1].upper() + said[1:] + ".")


def renamable(a: Analysis, node: str | None) -> ContentRecord:
    """The record at ``node`` if its id can be renamed from the editor, else ``Refused``."""
    rec = a.index.get(node) if node is not None else None
    camp = a.campaign
    if rec is None or camp is None or a.graph is None:
        raise Refused("lsp.rename_nowhere")
    spec = S.KINDS[camp.family].get(rec.kind)
    if spec is not None and spec.resolve_by:
        raise Refused(
            "lsp.rename_resolved",
            key=str(rec.data.get(spec.resolve_by, rec.key)),
            a_kind=a_kind(rec.kind),
            field=spec.resolve_by,
        )
    if spec is None or rec.parent:
        raise Refused("lsp.rename_inside", a_kind=a_kind(rec.kind))
    return rec


def new_key(a: Analysis, node: str, new: str) -> str:
    """``new`` as the renamed record's key (numbers by value, as the checker keys them), or
    ``Refused``: not an id of that kind, its id already, or another record's of its kind."""
    rec = renamable(a, node)
    assert a.campaign is not None
    fmt = S.KINDS[a.campaign.family][rec.kind].id_format
    key = normalise_key(fmt, new) if _ID_CHARS.fullmatch(new) else None
    if key is None:
        expected = fmt.expected_fr or t(_ID_EXPECTED[fmt.shape])
        raise Refused("lsp.rename_bad", new=new, expected=expected)
    if key == rec.key:
        raise Refused("lsp.rename_same", new=new)
    taken = a.index.get(f"{rec.kind}:{key}")
    if taken is not None:
        raise Refused("lsp.rename_taken", new=new, file=taken.file, line=taken.line)
    return key


def rename_edits(a: Analysis, node: str, new: str) -> dict[str, list[tuple[int, int, int, str]]]:
    """The edits that rename ``node``'s id to ``new``: rel file -> (0-based line, start, end,
    new text), every reference that names it, its own id, and ``renamed_from`` recorded.
    Raises ``Refused`` (in French) for a record that cannot be renamed this way, or a new
    name that cannot be its id."""
    new_key(a, node, new)
    rec = a.index[node]
    camp = a.campaign
    assert camp is not None and a.graph is not None
    old = rec.key
    edits: dict[str, list[tuple[int, int, int, str]]] = {}
    cache: dict[str, list[str]] = {}

    def lines_of(rel: str) -> list[str]:
        if rel not in cache:
            text = a.texts.get(rel)
            if text is None:
                try:
                    text = (a.folder / rel).read_text(encoding="utf-8-sig")
                except OSError:
                    text = ""
            cache[rel] = text.split("\n")
        return cache[rel]

    def replace(rel: str, line: int, col: int) -> bool:
        lines = lines_of(rel)
        if not 1 <= line <= len(lines):
            return False
        m = _WRITTEN.match(lines[line - 1], max(0, col - 1))
        if m is None or _strip(m.group(2)) != _strip(old):
            return False
        edits.setdefault(rel, []).append((line - 1, m.start(2), m.end(2), new))
        return True

    for ref in camp.refs:
        if _strip(ref.key) == _strip(old) and node in resolve(a.graph, ref.kinds, ref.key):
            replace(ref.file, ref.line, ref.column)
    # the record's own id: the first ``id:`` line at or below where the record starts
    lines = lines_of(rec.file)
    for i in range(max(0, rec.line - 1), min(len(lines), rec.line + 40)):
        m = _ID_LINE.match(lines[i])
        if m and _strip(m.group(3)) == _strip(old):
            edits.setdefault(rec.file, []).append((i, m.start(3), m.end(3), new))
            # a number cannot be told from a count in a save (``engine/core/migrate.py``):
            # no ``renamed_from`` for it (``numeric``; the server warns instead)
            if not rec.data.get(S.RENAMED_FROM) and not numeric(old):
                pad = " " * len(m.group(1))
                entry = f"{pad}{S.RENAMED_FROM}: [{_yaml_word(old)}]\n"
                edits[rec.file].append((i + 1, 0, 0, entry))
            break
    else:
        raise Refused("lsp.rename_no_id", old=old, file=rec.file)
    return edits


#: a value as written at a reference's position: an optional quote, then the id
_WRITTEN = re.compile(r"""(["']?)([\w\-/@+.]+)""")
#: what a new id may be written with (and still be found again as one word)
_ID_CHARS = re.compile(r"[\w\-@+.]+")
#: a record's own ``id:`` line: (indent and dash, key, the id)
_ID_LINE = re.compile(r"""^([ \t]*(?:-[ \t]+)?)(id)[ \t]*:[ \t]*["']?([\w\-/@+.]+)""")


def numeric(key: str) -> bool:
    """An id that is a plain number: saves cannot migrate it (``renamed_from`` is not kept)."""
    return key.isascii() and key.isdigit()


def _strip(key: str) -> str:
    return str(int(key)) if key.isdigit() and len(key) < 30 else key


def _yaml_word(key: str) -> str:
    return f'"{key}"' if key.isdigit() or not re.fullmatch(r"[\w\-/]+", key) else key


# --------------------------------------------------------------------------- the server


def _diagnostic(T: Any, f: Finding, text: str | None) -> Any:
    line = max(0, f.line - 1)
    if text is not None:
        start, end = token_range(text, f.line, f.column)
    else:
        start = max(0, f.column - 1)
        end = start + 1
    return T.Diagnostic(
        range=T.Range(
            start=T.Position(line=line, character=start), end=T.Position(line=line, character=end)
        ),
        # a finding that only follows from another (``cause``, see ``fold_behind``) is shown
        # as information under it: the editor leads with the cause, as ``check`` does
        message=f.message if f.cause is None else f"{f.message} (découle de {f.cause})",
        severity=T.DiagnosticSeverity.Information
        if f.cause is not None
        else T.DiagnosticSeverity.Error
        if f.severity == "error"
        else T.DiagnosticSeverity.Warning,
        code=f.code,
        source="gamebook check",
    )


class _Server:  # pragma: no cover - exercised through the protocol in tests/test_lsp.py
    """What the language server keeps between requests, and how it answers them (``server``
    registers each method as a handler).  ``T``: ``lsprotocol.types``."""

    def __init__(self, ls: Any, T: Any) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.ls, self.T = ls, T
        self.workspace = Workspace()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamebook-check")
        self.generation: dict[Path, int] = {}
        self.tasks: set = set()
        #: folder -> when its last change came (``time.monotonic``)
        self.last_change: dict[Path, float] = {}
        self.published: dict[Path, set[Path]] = {}
        #: path -> what its last published diagnostics were made from (its findings and its text)
        self.sent: dict[Path, tuple] = {}

    # ------------------------------------------------------------------ checking

    def overlay(self, folder: Path) -> dict[Path, str]:
        out = {}
        for uri, doc in list(self.ls.workspace.text_documents.items()):
            path = path_of(uri).resolve()
            if folder in path.parents:
                out[path] = doc.source
        return out

    def publish(self, a: Analysis) -> None:
        by_file = a.findings_by_file()
        before = self.published.get(a.folder, set())
        self.published[a.folder] = set(by_file)
        # every open file of the campaign hears the verdict, an empty one included; a file
        # whose findings and text are those it was last sent is not sent (nor read) again
        opened = set(self.overlay(a.folder))
        for path in set(by_file) | before | opened:
            rel = _rel(a, path)
            text = a.texts.get(rel) if rel else None
            mine = by_file.get(path, [])
            made_from = _made_from(mine, path, text)
            if path not in opened and self.sent.get(path) == made_from:
                continue
            self.sent[path] = made_from
            if text is None:
                try:
                    text = path.read_text(encoding="utf-8-sig")
                except (OSError, UnicodeDecodeError):
                    text = None
            diags = [_diagnostic(self.T, f, text) for f in mine]
            self.ls.text_document_publish_diagnostics(
                self.T.PublishDiagnosticsParams(uri=uri_of(path), diagnostics=diags)
            )

    async def check_later(self, folder: Path, delay: float) -> None:
        import asyncio

        gen = self.generation[folder] = self.generation.get(folder, 0) + 1
        if delay:
            await asyncio.sleep(delay)
        if self.generation[folder] != gen:
            return  # a newer change: it will be checked instead
        texts = self.overlay(folder)

        def run() -> Analysis | None:
            if self.generation[folder] != gen:
                return None  # stale before it started: a newer change is queued behind it
            try:
                # stopped (``None``) as soon as a newer change is waiting
                return self.workspace.analyse(folder, texts, lambda: self.generation[folder] != gen)
            except Exception:
                # an incremental step that fails must not cost the edit its verdict (the
                # editor would wait for it forever): say why, then check from scratch
                traceback.print_exc(file=sys.stderr)
                self.workspace.forget(folder)
                return self.workspace.analyse(folder, texts)

        loop = asyncio.get_running_loop()
        try:
            a = await loop.run_in_executor(self.worker, run)
            if a is None or self.generation[folder] != gen:
                return  # stale: the texts changed while it ran
            self.publish(a)
        except Exception:
            traceback.print_exc(file=sys.stderr)  # a task's exception is otherwise never seen
            return
        # the look-up tables of hover and completion, once the diagnostics are out
        loop.run_in_executor(self.worker, a.warm)

    def changed(self, uri: str, delay: float) -> None:
        import asyncio
        import time

        folder = campaign_folder(path_of(uri))
        if folder is None:
            return
        now = time.monotonic()
        before = self.last_change.get(folder)
        self.last_change[folder] = now
        if before is None or now - before > QUIET:
            delay = min(delay, FIRST_DELAY)
        task = asyncio.get_running_loop().create_task(self.check_later(folder, delay))
        # the loop holds its tasks weakly: one not referenced may vanish before it publishes
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def current(self, uri: str) -> Analysis | None:
        folder = campaign_folder(path_of(uri))
        return self.workspace.last(folder) if folder is not None else None

    async def ready(self, uri: str) -> Analysis | None:
        """The last analysis of the file's campaign; the first one is waited for."""
        import asyncio

        a = self.current(uri)
        if a is not None:
            return a
        folder = campaign_folder(path_of(uri))
        if folder is None:
            return None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.worker, self.workspace.analyse, folder, self.overlay(folder)
        )

    async def node_at(self, params: Any) -> tuple[Analysis, str] | None:
        uri = params.text_document.uri
        a = await self.ready(uri)
        if a is None:
            return None
        doc = self.ls.workspace.get_text_document(uri)
        node = target_at(
            a, path_of(uri), params.position.line + 1, params.position.character, doc.source
        )
        return (a, node) if node else None

    # ------------------------------------------------------------------ requests

    async def definition(self, params: Any) -> Any:
        """Where the record named here is defined; each version of a card with several (the
        editor offers the list)."""
        T = self.T
        uri = params.text_document.uri
        a = await self.ready(uri)
        if a is None:
            return None
        doc = self.ls.workspace.get_text_document(uri)
        pos = params.position
        places = []
        for node in targets_at(a, path_of(uri), pos.line + 1, pos.character, doc.source):
            rec = a.index.get(node)
            if rec is not None:
                at = T.Position(line=rec.line - 1, character=max(0, rec.column - 1))
                places.append(
                    T.Location(uri=uri_of(a.real(rec.file)), range=T.Range(start=at, end=at))
                )
        if not places:
            return None
        return places[0] if len(places) == 1 else places

    async def hover(self, params: Any) -> Any:
        T = self.T
        uri = params.text_document.uri
        a = await self.ready(uri)
        if a is None:
            return None
        doc = self.ls.workspace.get_text_document(uri)
        pos = params.position
        nodes = targets_at(a, path_of(uri), pos.line + 1, pos.character, doc.source)
        if not nodes:
            return None
        # a card with several versions: each one, one under the other
        value = "\n\n---\n\n".join(describe(a, node) for node in nodes)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=value))

    async def completion(self, params: Any) -> Any:
        T = self.T
        uri = params.text_document.uri
        a = await self.ready(uri)
        if a is None:
            return T.CompletionList(is_incomplete=False, items=[])
        text = self.ls.workspace.get_text_document(uri).source
        line, col = params.position.line, params.position.character
        kinds = kinds_at(a, text, line, col)
        if not kinds:
            return T.CompletionList(is_incomplete=False, items=[])
        src = text.split("\n")[line] if line < len(text.split("\n")) else ""
        typed = re.search(r"[\w\-/@+.]*$", src[:col])
        rel = _rel(a, path_of(uri))
        found, more = completions(
            a,
            kinds,
            typed.group() if typed else "",
            (rel, line + 1) if rel else None,
            MAX_COMPLETIONS,
        )
        items = [
            T.CompletionItem(
                label=label,
                kind=T.CompletionItemKind.Reference,
                detail=detail,
                documentation=doc[:400] or None,
                sort_text=sort,
            )
            for label, detail, doc, sort in found
        ]
        return T.CompletionList(is_incomplete=more, items=items)

    async def renamed(self, params: Any) -> tuple[Analysis, str]:
        """The analysis and the node a rename at the cursor is about, or ``Refused``."""
        found = await self.node_at(params)
        if found is None:
            raise Refused("lsp.rename_nowhere")
        a, node = found
        renamable(a, node)
        return a, node

    async def prepare_rename(self, params: Any) -> Any:
        T = self.T
        await self.renamed(params)
        doc = self.ls.workspace.get_text_document(params.text_document.uri)
        lines = doc.source.split("\n")
        tok = _token(lines[params.position.line], params.position.character)
        if tok is None:
            raise Refused("lsp.rename_nowhere")
        line = params.position.line
        return T.Range(
            start=T.Position(line=line, character=tok[1]),
            end=T.Position(line=line, character=tok[2]),
        )

    async def rename(self, params: Any) -> Any:
        import asyncio

        T = self.T
        a, node = await self.renamed(params)
        new = params.new_name.strip()
        new_key(a, node, new)  # refused before the campaign is checked again
        # the latest texts: a rename right after typing must not undo what was typed
        a = await asyncio.get_running_loop().run_in_executor(
            self.worker, self.workspace.analyse, a.folder, self.overlay(a.folder)
        )
        if node not in a.index:
            raise Refused("lsp.rename_nowhere")
        changes: dict[str, list] = {}
        planned = rename_edits(a, node, new)
        old = a.index[node].key
        if numeric(old):
            self.ls.window_show_message(
                T.ShowMessageParams(
                    type=T.MessageType.Warning, message=t("lsp.rename_number", old=old, new=new)
                )
            )
        for rel, edits in planned.items():
            changes[uri_of(a.real(rel))] = [
                T.TextEdit(
                    range=T.Range(
                        start=T.Position(line=line, character=start),
                        end=T.Position(line=line, character=end),
                    ),
                    new_text=text,
                )
                for line, start, end, text in edits
            ]
        return T.WorkspaceEdit(changes=changes)


def _made_from(mine: list, path: Path, text: str | None) -> tuple:
    """What a file's diagnostics are made from: its findings and its text (the editor's, else
    the file's size and time on disk): the same again is not sent again."""
    if text is not None:
        return (tuple(mine), "text", text)
    try:
        st = path.stat()
        return (tuple(mine), "disk", st.st_mtime_ns, st.st_size)
    except OSError:
        return (tuple(mine), "missing")


#: LSP's ``RequestFailed``: the request was valid, the server could not do it
REQUEST_FAILED = -32803


async def refusing(request: Any) -> Any:  # pragma: no cover - through the protocol
    """``request``'s answer; a ``Refused`` one becomes an error response (``RequestFailed``)
    whose message is the writer's sentence, with no traceback."""
    from pygls.exceptions import JsonRpcException

    try:
        return await request
    except Refused as refused:
        error = JsonRpcException(str(refused), REQUEST_FAILED)
        error.declined = True  # type: ignore[attr-defined]
        raise error from None


class _NotDeclined(logging.Filter):
    """Drops pygls' log record of a request declined on purpose (``refusing``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not getattr(exc, "declined", False)


def server():  # pragma: no cover - exercised through the protocol in tests/test_lsp.py
    """The pygls server (imported here: pygls is only needed for ``gamebook lsp``): the
    protocol's notifications and requests, each answered by ``_Server``."""
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    # A check runs in the worker thread and holds the GIL; the protocol's thread gets it back
    # at each switch interval (5 ms by default), and a hover goes through several hand-offs
    # (read, handle, answer): at 100,000 nodes that made ~50 ms hovers during a check.
    sys.setswitchinterval(0.001)
    ls = LanguageServer("gamebook", "2")
    # a request declined on purpose is an answer, not a failure: pygls logs every error
    # response with its traceback, not those
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_NotDeclined())
    srv = _Server(ls, T)

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: T.DidOpenTextDocumentParams) -> None:
        srv.changed(params.text_document.uri, 0)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: T.DidChangeTextDocumentParams) -> None:
        srv.changed(params.text_document.uri, DEBOUNCE)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: T.DidSaveTextDocumentParams) -> None:
        srv.changed(params.text_document.uri, 0)

    @ls.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: T.DidCloseTextDocumentParams) -> None:
        srv.changed(params.text_document.uri, DEBOUNCE)

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: T.DefinitionParams) -> T.Location | list[T.Location] | None:
        return await srv.definition(params)

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(params: T.HoverParams) -> T.Hover | None:
        return await srv.hover(params)

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION)
    async def completion(params: T.CompletionParams) -> T.CompletionList:
        return await srv.completion(params)

    @ls.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(params: T.PrepareRenameParams) -> Any:
        return await refusing(srv.prepare_rename(params))

    @ls.feature(T.TEXT_DOCUMENT_RENAME)
    async def rename(params: T.RenameParams) -> T.WorkspaceEdit | None:
        return await refusing(srv.rename(params))

    return ls
