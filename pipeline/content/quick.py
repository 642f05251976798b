"""A quick reader for the block-style YAML that content files are written in.

libyaml's scanner, Cython's event objects and our builder (``load._build``) cost about 7
microseconds per line of a content file (5.2 s for the 733,000 lines of the 100,000-node
benchmark campaign); most lines are one ``key: value`` or ``- key: value`` that one regular
expression splits, and this reader takes about 3 (2.2-2.5 s).  ``read(text)`` builds exactly
what ``load._build`` builds from libyaml's events (the same ``YMap``/``YList``, values,
positions), for the subset of YAML it knows for sure, and returns ``None`` for anything
else: the caller then reads the file with libyaml, which also reports every error.  So the
subset only has to be recognised, never repaired:

- block mappings whose keys are plain words, block sequences (also at their key's indent),
  ``- key: value`` items;
- one-line plain scalars (resolved as ``values.resolve`` does), one-line single- and
  double-quoted scalars (no backslash escape), comments after a value or on their own line;
- literal and folded block scalars (``|``, ``>``, ``|-``, ``>-``; a folded one's lines all
  at the same indent);
- flow collections (``[a, b]``, ``{k: v}``) on one line, a few levels deep;
- a ``---`` on the first line.

Anything else (a tab, a carriage return, a control character, a flow collection over several
lines, anchors,
aliases, tags, merge keys, a plain scalar on several lines, a duplicate key, a file without a
final line break...) is left to libyaml.  ``tests/test_quick_yaml.py`` compares both readers
on every shipped file and on generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from . import values

#: characters that send a file to libyaml: tabs, carriage returns, control characters and the
#: line breaks YAML knows besides ``\n``, a byte-order mark, surrogates and non-characters
_AWKWARD = re.compile(
    "[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]"
)
#: a line: its indent, a list item's dash, a plain key, the colon and what follows it (the
#: key is absent from a line that is not ``key:`` or ``- key:``, and what follows the match is
#: the rest of the line)
_LINE = re.compile(r"( *)(- +)?(?:(\w[\w.-]*):(?: +(.*))?$)?")
#: every line matches (each part may be empty)
_match = cast(Callable[[str], "re.Match[str]"], _LINE.match)
#: a single-quoted scalar at the start of a value (``''`` is one quote)
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
#: a first character that makes a value something other than a plain or quoted scalar
_INDICATORS = frozenset("]},#&*!|>%@`")
_BLOCKS = {"|": (False, True), "|-": (False, False), ">": (True, True), ">-": (True, False)}


class _Unsure(Exception):
    """The text is not in the subset: libyaml reads it."""


def read(text: str) -> tuple[Any, list] | None:
    """``(root, duplicates)`` as ``load._build`` returns them, or ``None`` when the text is not
    in the subset this reader knows (then libyaml must read it)."""
    if not text.endswith("\n") or _AWKWARD.search(text):
        return None
    try:
        return _read(text.split("\n")), []
    except _Unsure:
        return None
    except Exception:  # a case this reader gets wrong: libyaml's path reads it, and says why
        return None


def _scalar(v: str, ln: int = 0, col: int = 0) -> Any:
    """The value of a one-line scalar or flow collection ``v`` (stripped on the left, a comment
    possibly after) that starts at 1-based column ``col`` of line ``ln``."""
    first = v[0]
    if first in "[{\"'":  # read as in a flow collection, then nothing but a comment after
        value, end = _flow(v, 0, ln, col)
        _after(v, end)
        return value
    if first in _INDICATORS:
        raise _Unsure
    if first in "-?:" and (len(v) == 1 or v[1] == " "):
        raise _Unsure
    cut = v.find(" #")
    if cut >= 0:
        v = v[:cut]
    v = v.rstrip(" ")
    if ": " in v or v.endswith(":"):
        raise _Unsure
    return values.resolve(v)


#: a plain scalar inside a flow collection: up to a comma, a bracket, a colon or a quote
_FLOW_PLAIN = re.compile(r"[^\s,\[\]{}:#'\"](?:[^,\[\]{}:#]*[^\s,\[\]{}:#])?")


#: the deepest flow collections read here (deeper ones are rare: libyaml reads them, and says
#: when they are deeper than ``values.MAX_DEPTH``)
_FLOW_DEPTH = 8


def _flow(
    v: str, at: int, ln: int, col: int, as_key: bool = False, depth: int = 0
) -> tuple[Any, int]:
    """The flow collection or scalar of ``v`` at index ``at`` (``v[0]`` is at column ``col``),
    all on one line: its value and the index after it."""
    first = v[at : at + 1]
    if not first:
        raise _Unsure  # the line ends inside the collection
    pos = (ln, col + at)
    if first == "[" or first == "{":
        if depth >= _FLOW_DEPTH:
            raise _Unsure
        is_list = first == "["
        c: Any
        if is_list:
            c = values.YList()
            c.pos, c.ipos = pos, []
        else:
            c = values.YMap()
            c.pos, c.kpos, c.keypos = pos, {}, {}
        close = "]" if is_list else "}"
        i = _skip(v, at + 1)
        if v[i : i + 1] == close:
            return c, i + 1
        while True:
            item_at = (ln, col + i)
            value, i = _flow(v, i, ln, col, not is_list, depth + 1)
            i = _skip(v, i)
            if not is_list:
                if type(value) is not str or v[i : i + 2] != ": ":
                    raise _Unsure
                key = value if v[item_at[1] - col] in "'\"" else _key(value)
                if key in c:
                    raise _Unsure
                i = _skip(v, i + 1)
                at_value = (ln, col + i)
                value, i = _flow(v, i, ln, col, False, depth + 1)
                c[key] = value
                c.kpos[key] = at_value
                c.keypos[key] = item_at
                i = _skip(v, i)
            else:
                c.append(value)
                c.ipos.append(item_at)
            nxt = v[i : i + 1]
            if nxt == close:
                return c, i + 1
            if nxt != ",":
                raise _Unsure
            i = _skip(v, i + 1)
            if v[i : i + 1] in ("]", "}", ""):
                raise _Unsure  # a trailing comma, or the line ends
    if first == '"':
        end = v.find('"', at + 1)
        if end < 0 or "\\" in v[at:end]:
            raise _Unsure
        return v[at + 1 : end], end + 1
    if first == "'":
        m = _SINGLE.match(v, at)
        if m is None:
            raise _Unsure
        return m.group(1).replace("''", "'"), m.end()
    m = _FLOW_PLAIN.match(v, at)
    if m is None or first in _INDICATORS or (first in "-?" and v[at + 1 : at + 2] in " ,]}"):
        raise _Unsure
    text = m.group()
    end = m.end()
    if v[end : end + 1] == "#" or (v[end : end + 1] == ":" and not as_key):
        raise _Unsure
    return values.resolve(text), end


def _skip(v: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not a space."""
    while v[i : i + 1] == " ":
        i += 1
    return i


def _after(v: str, end: int) -> None:
    """What follows a quoted scalar must be nothing, or a comment after a space."""
    rest = v[end:]
    if rest.strip(" ") and not (rest[:1] == " " and rest.lstrip(" ")[:1] == "#"):
        raise _Unsure


def _key(k: str) -> str:
    value = values.resolve(k)
    return value if type(value) is str else values._key_text(value)


def _block(lines: list[str], n: int, parent: int, indicator: str) -> tuple[str, int]:
    """A block scalar whose indicator ends line ``n - 1`` (0-based), in a container indented
    ``parent``: its value and the index of the first line after it."""
    folded, clip = _BLOCKS[indicator]
    total = len(lines)
    if n >= total or not lines[n]:
        raise _Unsure
    first = lines[n]
    indent = len(first) - len(first.lstrip(" "))
    if indent <= parent:
        raise _Unsure
    body: list[str] = []
    i = n
    while i < total:
        line = lines[i]
        if not line:
            body.append("")
            i += 1
            continue
        if not line.strip(" "):
            raise _Unsure
        here = len(line) - len(line.lstrip(" "))
        if here < indent:
            break
        if here > indent and folded:
            raise _Unsure
        body.append(line[indent:])
        i += 1
    while body and not body[-1]:
        body.pop()
        i -= 1
    if folded:
        out: list[str] = []
        blank = 0
        for line in body:
            if not line:
                blank += 1
                continue
            if out:
                out.append("\n" * blank if blank else " ")
            out.append(line)
            blank = 0
        value = "".join(out)
    else:
        value = "\n".join(body)
    if clip:
        value += "\n"
    return value, i


def _root(lines: list[str]) -> tuple[int, Any]:
    """The index of the document's first line and its mapping (empty yet)."""
    start = 0
    for start, line in enumerate(lines):
        if line.strip(" ")[:1] not in ("", "#") and not (start == 0 and line == "---"):
            break
    else:
        raise _Unsure  # nothing but comments: libyaml says what that is
    m = _match(lines[start])
    if m.end(1) or m.group(2) or m.group(3) is None:
        raise _Unsure  # the document is not a mapping written from the first column
    root = values.YMap()
    root.pos, root.kpos, root.keypos = (start + 1, 1), {}, {}
    return start, root


Pending = tuple[Any, str, tuple[int, int], tuple[int, int], int]


def _open(pending: Pending, ln: int, i: int, dash: str | None, stack: list) -> bool:
    """Line ``ln``, indented ``i``, follows ``key:`` (``pending``): open the map or list it
    starts (``True``), or give the key its null."""
    owner, key, key_at, null_at, indent = pending
    owner.keypos[key] = key_at
    if not (i > indent or (i == indent and dash is not None)):
        owner[key] = None
        owner.kpos[key] = null_at
        return False
    if len(stack) >= _BLOCK_DEPTH:
        raise _Unsure
    c: Any
    if dash is not None:
        c = values.YList()
        c.pos, c.ipos = (ln, i + 1), []
        stack.append((i, c, True, i == indent))
    else:
        c = values.YMap()
        c.pos, c.kpos, c.keypos = (ln, i + 1), {}, {}
        stack.append((i, c, False, False))
    owner[key] = c
    owner.kpos[key] = c.pos
    return True


def _value(v: str, lines: list[str], ln: int, indent: int, col: int, skip: int) -> tuple[Any, int]:
    """The value written after ``key: `` at column ``col`` of line ``ln`` (of a map indented
    ``indent``), and the last line read (``skip``, or a block scalar's last line)."""
    first = v[:1]
    if first in _ASCII_LETTERS and v[-1] not in " :" and " #" not in v and ": " not in v:
        return values._WORDS.get(v, v), skip
    if (
        first.isdigit()
        and v.isdigit()
        and v.isascii()
        and (len(v) == 1 or first != "0")
        and len(v) <= 20
    ):
        return int(v), skip
    if not v:
        raise _Unsure  # spaces after the colon and nothing else
    if v in _BLOCKS:
        return _block(lines, ln, indent, v)
    return _scalar(v, ln, col), skip


def _item(c: Any, rest: str, lines: list[str], ln: int, i: int, j: int, skip: int) -> int:
    """A scalar item ``rest`` at column ``j + 1`` of line ``ln``, in the list ``c`` indented
    ``i``: append it, return the last line read."""
    if rest in _BLOCKS:
        value, skip = _block(lines, ln, i, rest)
    else:
        value = _scalar(rest, ln, j + 1)
    c.append(value)
    c.ipos.append((ln, j + 1))
    return skip


#: nesting of block containers read here (deeper: libyaml, which says when it is too deep)
_BLOCK_DEPTH = values.MAX_DEPTH - _FLOW_DEPTH - 2
_ASCII_LETTERS = values._LETTERS


def _read(lines: list[str]) -> Any:
    line_re = _match
    keys: dict[str, str] = {}  # each key's text to the key (``_key``), for this file
    skip, root = _root(lines)  # lines up to ``skip`` (1-based) are read (a block scalar's)
    # the open containers: (indent, container, is a list, a list at its key's indent); the
    # innermost one also in local variables
    stack: list[tuple[int, Any, bool, bool]] = [(0, root, False, False)]
    top_indent, c, top_list, top_less = stack[0]
    kpos, keypos = root.kpos, root.keypos  # the open map's (when ``top_list`` is false)
    # a ``key:`` that waits for what the next lines hold: (its map, key, key position, where
    # a null would be, the map's indent)
    pending: Pending | None = None
    for ln, line in enumerate(lines, 1):
        if ln <= skip:
            continue
        m = line_re(line)
        i = m.end(1)
        dash = m.group(2)
        k = m.group(3)
        if k is None:
            rest = line[m.end() :]
            if dash is None:
                if not rest or rest[0] == "#":
                    continue  # a blank line, a comment
                raise _Unsure
            if not rest or rest[:2] == "- " or rest == "-" or rest[0] == "#":
                raise _Unsure  # an item on the next lines, a list in a list
        if pending is not None:
            if _open(pending, ln, i, dash, stack):
                top_indent, c, top_list, top_less = stack[-1]
                if not top_list:
                    kpos, keypos = c.kpos, c.keypos
            pending = None
        if dash is None:
            if i != top_indent or top_list:
                while i < top_indent or (top_less and i == top_indent):
                    stack.pop()
                    if not stack:
                        raise _Unsure
                    top_indent, c, top_list, top_less = stack[-1]
                if i != top_indent or top_list:
                    raise _Unsure
                kpos, keypos = c.kpos, c.keypos
        else:
            if i != top_indent or not top_list:
                while i < top_indent:
                    stack.pop()
                    if not stack:
                        raise _Unsure
                    top_indent, c, top_list, top_less = stack[-1]
                if i != top_indent or not top_list:
                    raise _Unsure
            j = m.end(2)
            if k is None:
                skip = _item(c, rest, lines, ln, i, j, skip)
                continue
            if len(stack) >= _BLOCK_DEPTH:
                raise _Unsure
            sub = values.YMap()
            kpos, keypos = {}, {}
            sub.pos, sub.kpos, sub.keypos = (ln, j + 1), kpos, keypos
            c.append(sub)
            c.ipos.append(sub.pos)
            c = sub
            top_indent, top_list, top_less = j, False, False
            stack.append((j, c, False, False))
        # ``key: value`` in the open map
        key = keys.get(k)
        if key is None:
            key = keys[k] = _key(k)
        if key in c:
            raise _Unsure  # libyaml's path says which key, where
        v = m.group(4)
        if v is None:
            pending = (c, key, (ln, top_indent + 1), (ln, m.end(3) + 2), top_indent)
            continue
        col = m.start(4) + 1
        value, skip = _value(v, lines, ln, top_indent, col, skip)
        c[key] = value
        kpos[key] = (ln, col)
        keypos[key] = (ln, top_indent + 1)
    if pending is not None:
        _open(pending, len(lines) + 1, -1, None, stack)
    return root
