"""Load YAML files into plain Python values that remember where they came from.

We read libyaml's event stream (``ruamel.yaml.clib``'s ``CParser``) and build ``YMap``/``YList``
(a ``dict``/``list`` that also carries positions) and plain scalars in one pass.  Every event
already has its line and column, so positions cost nothing extra.  Composing a node tree first
is 3x slower here: ruamel's composer calls back into its Python resolver and builds a ``Tag``
object for every node.  Plain scalars follow the YAML 1.2 core schema; see BENCHMARKS.md.

Positions are 1-based ``(line, column)`` tuples.
"""

from __future__ import annotations

import errno
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ..findings import Finding
from ..messages import codepoint, declare, shown, t
from .quick import read as _quick
from .values import (
    _LETTERS,
    _WORDS,
    MAX_DEPTH,
    Pos,
    YList,
    YMap,
    _key_text,
    _plain,
)

IO001 = declare(
    "IO001",
    "error",
    about="fichier ou dossier illisible",
    fix="Remplacez le lien ou le dossier par le fichier lui-même, ou rendez-le lisible.",
    messages={
        "io.link_dangling": (
            "ce fichier est un lien symbolique vers « {target} », qui n'existe pas. Recréez le "
            "lien vers le bon fichier, ou remplacez-le par le fichier lui-même."
        ),
        "io.link_loop": (
            "ce fichier est un lien symbolique qui tourne en boucle (il mène, par d'autres liens, "
            "à lui-même). Remplacez-le par le fichier lui-même."
        ),
        "io.permission": (
            "impossible de lire le fichier : vous n'avez pas le droit de le lire. Donnez-vous le "
            "droit de lecture (par exemple « chmod u+r » sur le fichier)."
        ),
        "io.directory": (
            "c'est un dossier, pas un fichier, alors que son nom finit par .yaml ou .yml. "
            "Renommez le dossier (les fichiers qu'il contient sont lus quand même)."
        ),
        "io.special": (
            "ce n'est pas un fichier ordinaire (un tube, un périphérique…) : un fichier de contenu "
            "doit être un simple fichier texte."
        ),
        "io.missing": "le fichier a disparu pendant la lecture ; relancez la vérification.",
        "io.too_big": (
            "fichier trop gros ({size} Mo ; un fichier de contenu fait au plus {limit} Mo) : "
            "découpez-le en plusieurs fichiers du même dossier."
        ),
        "io.unreadable": "impossible de lire le fichier : {why}.",
    },
)


YAML001 = declare(
    "YAML001",
    "error",
    about="YAML mal formé",
    fix=(
        "Corrigez la syntaxe à la ligne indiquée (et, pour un guillemet ou un crochet, là où la "
        "lecture a échoué) ; enregistrez le fichier en UTF-8."
    ),
    messages={
        "yaml.opened_quote": (
            "YAML mal formé : le guillemet ouvert ici n'est jamais fermé ; la lecture a échoué "
            "ligne {line}, colonne {column}. Fermez le guillemet à la fin de la valeur."
        ),
        "yaml.quote_swallows": (
            "YAML mal formé : le guillemet ouvert ici n'est sans doute pas fermé : le texte se "
            "poursuit sur les lignes suivantes jusqu'au guillemet de la ligne {end}, où la "
            "lecture a échoué, colonne {column} ({what}). Fermez le guillemet à la fin de la "
            "valeur."
        ),
        "yaml.opened_bracket": (
            "YAML mal formé : le crochet « [ » ouvert ici n'est pas fermé ; la lecture a échoué "
            "ligne {line}, colonne {column} ({what}). Ajoutez le « ] » à la fin de la liste."
        ),
        "yaml.opened_brace": (
            "YAML mal formé : l'accolade « {{ » ouverte ici n'est pas fermée ; la lecture a "
            "échoué ligne {line}, colonne {column} ({what}). Ajoutez le « }} » à la fin de la "
            "table."
        ),
        "yaml.opened_key": (
            "YAML mal formé : il manque le « : » après cette clé (la lecture a échoué ligne "
            "{line}, colonne {column}). Écrivez « clé: valeur »."
        ),
        "yaml.malformed_in": (
            "YAML mal formé : {what} (dans le bloc qui commence ligne {line}). Vérifiez "
            "l'indentation de cette ligne par rapport aux lignes au-dessus."
        ),
        "yaml.malformed": (
            "YAML mal formé : {what}. Vérifiez l'indentation, les deux-points et les guillemets "
            "à cette ligne (une valeur qui contient « : » ou commence par un caractère spécial "
            "doit être entre guillemets)."
        ),
        "yaml.utf8": (
            "le fichier n'est pas en UTF-8 : l'octet 0x{byte} ne peut pas s'y trouver (le "
            "fichier semble enregistré en {guess}). Enregistrez-le en UTF-8 depuis votre "
            "éditeur."
        ),
    },
)


YAML002 = declare(
    "YAML002",
    "error",
    about="la même clé deux fois dans une table",
    fix="Supprimez ou renommez l'une des deux clés.",
    messages={
        "yaml.duplicate_key": (
            "la clé « {key} » apparaît deux fois dans la même table (la première ligne "
            "{first}) ; la seconde remplacerait la première en silence. Supprimez ou renommez "
            "l'une des deux."
        ),
    },
)


try:  # libyaml through ruamel's C extension
    from ruamel.yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - the pure-Python fallback is 6x slower
    # ruamel's pure-Python reader, scanner and parser in one object, as CParser is
    from ruamel.yaml.loader import SafeLoader as _Parser


def _lean_events() -> None:
    """Let libyaml's parser build its events with one Python call each.  ``_ruamel_yaml`` makes
    every event by calling the event classes it finds in its module; ruamel's own classes chain
    two or three ``__init__`` (about a third of a bare event drain).  Subclasses that set the
    same slots directly are events like the others (same attributes, same ``isinstance``), so
    anything else in the process that reads events is unaffected."""
    try:
        import _ruamel_yaml as clib
    except ImportError:  # pragma: no cover - no C extension: the slow parser is used anyway
        return
    if getattr(clib, "_gamebook_lean", False):
        return

    class Scalar(ev.ScalarEvent):
        __slots__ = ()

        def __init__(
            self,
            anchor: Any,
            tag: Any,
            implicit: Any,
            value: Any,
            start_mark: Any = None,
            end_mark: Any = None,
            style: Any = None,
            comment: Any = None,
        ) -> None:
            self.anchor, self.ctag, self.implicit, self.value = anchor, tag, implicit, value
            self.start_mark, self.end_mark, self.style, self.comment = (
                start_mark,
                end_mark,
                style,
                comment,
            )

    def start_init(
        self: ev.CollectionStartEvent,
        anchor: Any,
        tag: Any,
        implicit: Any,
        start_mark: Any = None,
        end_mark: Any = None,
        flow_style: Any = None,
        comment: Any = None,
        nr_items: int | None = None,
    ) -> None:
        self.anchor, self.ctag, self.implicit = anchor, tag, implicit
        self.start_mark, self.end_mark, self.comment = start_mark, end_mark, comment
        self.flow_style, self.nr_items = flow_style, nr_items

    def end_init(
        self: ev.CollectionEndEvent,
        start_mark: Any = None,
        end_mark: Any = None,
        comment: Any = None,
    ) -> None:
        self.start_mark, self.end_mark, self.comment = start_mark, end_mark, comment

    def lean(base: type, init: Callable[..., None]) -> type:
        """A subclass of the event class ``base``, named as it is, built by ``init`` alone."""
        return type(base.__name__, (base,), {"__slots__": (), "__init__": init})

    Scalar.__name__ = Scalar.__qualname__ = "ScalarEvent"
    clib.ScalarEvent = Scalar
    clib.MappingStartEvent = lean(ev.MappingStartEvent, start_init)
    clib.SequenceStartEvent = lean(ev.SequenceStartEvent, start_init)
    clib.MappingEndEvent = lean(ev.MappingEndEvent, end_init)
    clib.SequenceEndEvent = lean(ev.SequenceEndEvent, end_init)
    clib._gamebook_lean = True


_lean_events()


class _Multiple(Exception):
    """A problem libyaml accepts but we do not: several documents, an unknown alias."""

    def __init__(
        self, pos: Pos, what: str = "plusieurs documents (« --- ») dans un seul fichier"
    ) -> None:
        super().__init__(what)
        self.pos, self.what = pos, what


def _tagged(value: str, tag: str) -> Any:
    if tag.endswith(":str") or tag == "!":
        return value
    return _plain(value)


def _build(parser: Any) -> tuple[Any, list[tuple[str, Pos, Pos]]]:
    """Build the document from libyaml's event stream: one Python pass, no node objects.

    The open container's state lives in local variables (the hot path touches no list or
    attribute for it); ``stack`` keeps the enclosing containers' states while a nested one is
    open."""
    kinds = _KINDS
    words = _WORDS
    letters = _LETTERS
    no_key = _NO_KEY
    ymap, ylist = YMap, YList
    get = parser.get_event
    anchors: dict[str, Any] = {}
    dup: list[tuple[str, Pos, Pos]] = []
    stack: list[tuple[Any, ...]] = []
    # the open container (``None`` outside any), whether it is a list, its positions (``ipos``
    # for a list, ``kpos``/``keypos`` for a mapping), the key read and waiting for its value
    # and where it was, the keys a merge (``<<``) brought in
    c: Any = None
    in_list = False
    ipos: Any = None
    kpos: Any = None
    keypos: Any = None
    key: Any = no_key
    key_at: Any = None
    merged: Any = None
    root: Any = None
    docs = 0
    while True:
        e = get()
        kind = kinds.get(type(e), _OTHER)
        if kind == _SCALAR:
            m = e.start_mark
            pos = (m.line + 1, m.column + 1)
            value = e.value
            tag = e.ctag
            if tag is not None and tag != "!":
                value = _tagged(value, str(tag))
            elif not e.style:
                # what ``_plain`` does, inlined for text that starts with a letter
                if value[:1] in letters:
                    if value in words:
                        value = words[value]
                else:
                    value = _plain(value)
            if e.anchor is not None:
                anchors[e.anchor] = value
        elif kind in (_MAP, _SEQ):
            m = e.start_mark
            pos = (m.line + 1, m.column + 1)
            if len(stack) >= MAX_DEPTH:
                raise _Multiple(pos, t("yaml.too_deep", n=MAX_DEPTH))
            stack.append((c, in_list, ipos, kpos, keypos, key, key_at, merged))
            if kind == _MAP:
                c = ymap()
                c.kpos = kpos = {}
                c.keypos = keypos = {}
                in_list = False
            else:
                c = ylist()
                c.ipos = ipos = []
                in_list = True
            c.pos = pos
            if e.anchor is not None:
                anchors[e.anchor] = c
            key, key_at, merged = no_key, None, None
            continue
        elif kind == _END:
            value = c
            pos = c.pos
            c, in_list, ipos, kpos, keypos, key, key_at, merged = stack.pop()
        elif kind == _ALIAS:
            m = e.start_mark
            pos = (m.line + 1, m.column + 1)
            if e.anchor not in anchors:
                raise _Multiple(pos, f"l'alias *{e.anchor} n'a pas d'ancre &{e.anchor} au-dessus")
            value = anchors[e.anchor]
        elif kind == _DOC:
            docs += 1
            if docs > 1:
                m = e.start_mark
                raise _Multiple((m.line + 1, m.column + 1))
            continue
        elif kind == _STOP or e is None:
            return root, dup
        else:
            continue
        # attach value at pos to the open container
        if c is None:
            root = value
        elif in_list:
            c.append(value)
            ipos.append(pos)
        elif key is no_key:
            key = value if type(value) is str else _key_text(value)
            key_at = pos
        else:
            if key == "<<" and isinstance(value, (YMap, YList)):
                merged = _merge(c, value)
            else:
                if key in c and not (merged and key in merged):
                    dup.append((key, key_at, keypos[key]))
                c[key] = value
                kpos[key] = pos
                keypos[key] = key_at
            key = no_key


_SCALAR, _MAP, _SEQ, _END, _ALIAS, _DOC, _STOP, _OTHER = range(8)


def _event_kinds() -> dict[type, int]:
    """Each event class (ruamel's and the lean ones libyaml's parser builds) to its kind."""
    classes = [ev]
    try:
        import _ruamel_yaml as clib

        classes.append(clib)
    except ImportError:  # pragma: no cover
        pass
    kinds: dict[type, int] = {}
    for mod in classes:
        kinds[mod.ScalarEvent] = _SCALAR
        kinds[mod.MappingStartEvent] = _MAP
        kinds[mod.SequenceStartEvent] = _SEQ
        kinds[mod.MappingEndEvent] = _END
        kinds[mod.SequenceEndEvent] = _END
        kinds[mod.AliasEvent] = _ALIAS
        kinds[mod.DocumentStartEvent] = _DOC
        kinds[mod.StreamEndEvent] = _STOP
    return kinds


_KINDS = _event_kinds()
_NO_KEY = object()


def _merge(target: YMap, source: Any) -> set[str]:
    """YAML merge keys (``<<: *base``): keys written in the mapping itself win, wherever they
    are.  Returns the merged keys, which a later explicit key may replace without a finding."""
    merged: set[str] = set()
    for src in source if isinstance(source, YList) else [source]:
        if isinstance(src, YMap):
            for k, v in src.items():
                if k not in target:
                    target[k] = v
                    target.kpos[k] = src.kpos[k]
                    target.keypos[k] = src.keypos[k]
                    merged.add(k)
    return merged


#: libyaml's most frequent complaints, said in French (anything else is shown as libyaml says it)
_PROBLEMS_FR = (
    (
        "that cannot start any token",
        "un caractère qui ne peut pas commencer une valeur (une tabulation ? indentez avec "
        "des espaces ; sinon mettez le texte entre guillemets)",
    ),
    (
        "mapping values are not allowed",
        "un « : » inattendu (mettez le texte entre guillemets, ou vérifiez l'indentation)",
    ),
    (
        "found a tab",
        "une tabulation : indentez avec des espaces, jamais avec des tabulations",
    ),
    ("did not find expected key", "l'indentation ne correspond pas à la table au-dessus"),
    ("could not find expected ':'", "il manque un « : » après une clé"),
    ("did not find expected ',' or ']'", "une liste entre crochets n'est pas fermée par « ] »"),
    ("did not find expected ',' or '}'", "une table entre accolades n'est pas fermée par « } »"),
    (
        "found unexpected end of stream",
        "le fichier s'arrête au milieu d'une valeur (un guillemet non fermé ?)",
    ),
    ("found undefined alias", "un alias (*nom) sans ancre (&nom) correspondante"),
    ("did not find expected '-' indicator", "un élément de liste mal aligné"),
    (
        "did not find expected node content",
        "une valeur manque à cet endroit (un « - » ou une clé à l'intérieur de crochets ?)",
    ),
    ("expected <block end>, but found", "l'indentation ne correspond pas au bloc au-dessus"),
    ("found unexpected ':'", "un « : » inattendu (mettez le texte entre guillemets)"),
    (
        "expected alphabetic or numeric",
        "une ancre ou un alias sans nom après « & » ou « * »",
    ),
    (
        "did not find expected comment or line break",
        "après « | » ou « > », le texte commence à la ligne suivante, indenté",
    ),
    ("found unexpected document indicator", "un « --- » ou « ... » en début de ligne"),
    ("found duplicate %YAML directive", "deux directives %YAML"),
    ("found duplicate anchor", "la même ancre « & » deux fois"),
    ("found incompatible YAML document", "une directive %YAML d'une version inconnue"),
    ("found unknown directive", "une directive « % » inconnue"),
    ("mapping keys are not allowed", "une clé à un endroit où elle n'est pas permise"),
    (
        "block sequence entries are not allowed",
        "un « - » de liste à un endroit où il n'est pas permis",
    ),
    ("found unexpected document separator", "un séparateur « --- » au milieu d'une valeur"),
    ("did not find expected <document start>", "du texte en trop après la fin du document"),
    (
        "found unknown escape",
        "un caractère d'échappement inconnu entre guillemets doubles",
    ),
)


def _explain(context: object, problem: object) -> str:
    text = str(problem or context or "")
    for needle, french in _PROBLEMS_FR:
        if needle in text:
            return french
    said = " ".join(str(p) for p in (context, problem) if p)
    return f"une erreur de syntaxe (libyaml : « {said} »)"


#: constructs that libyaml reports where they were opened: the writer's mistake is there (an
#: unclosed quote or bracket, a key without its colon), not where reading finally broke
_OPENED_FR = {
    "while scanning a quoted scalar": "yaml.opened_quote",
    "while parsing a flow sequence": "yaml.opened_bracket",
    "while parsing a flow mapping": "yaml.opened_brace",
    "while scanning a simple key": "yaml.opened_key",
}


def _open_flow(text: str, before: tuple[int, int]) -> tuple[str, int, int] | None:
    """The innermost ``[`` or ``{`` still open where reading broke, found by scanning tokens
    (no parsing): the writer forgot to close it.  ``None`` if every bracket was closed."""
    stack: list[tuple[str, int, int]] = []
    try:
        scanner = _Parser(text)
        while True:
            tok = scanner.get_token()
            if tok is None:
                break
            m = tok.start_mark
            if (m.line + 1, m.column + 1) >= before:
                break
            name = type(tok).__name__
            if name == "FlowSequenceStartToken":
                stack.append(("yaml.opened_bracket", m.line + 1, m.column + 1))
            elif name == "FlowMappingStartToken":
                stack.append(("yaml.opened_brace", m.line + 1, m.column + 1))
            elif name in ("FlowSequenceEndToken", "FlowMappingEndToken") and stack:
                stack.pop()
    except (YAMLError, _Multiple, ValueError):
        pass
    return stack[-1] if stack else None


_KEY_LINE = re.compile(r"^\s*(?:- )?[\w-]+:(?:\s|$)")


def _open_quote(text: str, before: tuple[int, int]) -> tuple[int, int, int] | None:
    """A quoted text left open a few lines above where reading broke: it swallowed the next
    lines (which look like ``key: value`` lines) up to the next quote, found on the line that
    broke.  ``(line, column)`` where it was opened and the line where it ended, or ``None``."""
    last = None
    try:
        scanner = _Parser(text)
        while True:
            tok = scanner.get_token()
            if tok is None:
                break
            if (tok.start_mark.line + 1, tok.start_mark.column + 1) >= before:
                break
            if type(tok).__name__ == "ScalarToken":
                last = tok
    except (YAMLError, _Multiple, ValueError):
        pass
    if last is None or getattr(last, "style", None) not in ('"', "'"):
        return None
    start, end = last.start_mark.line, last.end_mark.line
    if end <= start or end + 1 != before[0]:
        return None
    lines = text.split("\n")
    if not any(_KEY_LINE.match(line) for line in lines[start + 1 : end + 1]):
        return None
    return start + 1, last.start_mark.column + 1, end + 1


def _marked(exc: MarkedYAMLError, rel: str, text: str) -> Finding:
    """A libyaml error, placed where the writer went wrong: where an unclosed construct was
    opened (and saying where reading broke), else where reading broke."""
    problem, context = exc.problem_mark, exc.context_mark
    what = _explain(exc.context, exc.problem)
    pline, pcol = (problem.line + 1, problem.column + 1) if problem else (1, 1)
    opened = _OPENED_FR.get(str(exc.context or ""))
    if opened is None and "flow" in str(exc.context or ""):
        flow = _open_flow(text, (pline, pcol))
        if flow is not None and flow[1:] < (pline, pcol):
            key, line, col = flow
            return Finding(
                "YAML001", "error", t(key, what=what, line=pline, column=pcol), rel, line, col
            )
    if context is not None and opened is not None:
        cline, ccol = context.line + 1, context.column + 1
        if (cline, ccol) != (pline, pcol):
            msg = t(opened, what=what, line=pline, column=pcol)
            return Finding("YAML001", "error", msg, rel, cline, ccol)
    quote = _open_quote(text, (pline, pcol)) if opened is None else None
    if quote is not None:
        qline, qcol, qend = quote
        msg = t("yaml.quote_swallows", what=what, end=qend, line=pline, column=pcol)
        return Finding("YAML001", "error", msg, rel, qline, qcol)
    if context is not None and (context.line + 1) < pline:
        # a block that started above: say where it started, keep the line that broke it
        msg = t("yaml.malformed_in", what=what, line=context.line + 1)
        return Finding("YAML001", "error", msg, rel, pline, pcol)
    return Finding("YAML001", "error", t("yaml.malformed", what=what), rel, pline, pcol)


def parse(text: str, rel: str) -> tuple[Any, list[Finding]]:
    """Parse one YAML document; return ``(value, findings)``.  ``value`` is ``None`` when the
    file could not be parsed (the findings say why) or is empty."""
    try:
        quick = _quick(text)
        if quick is not None:
            value, dup = quick
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value, dup = _build(_Parser(text))
    except MarkedYAMLError as exc:
        return None, [_marked(exc, rel, text)]
    except _Multiple as exc:
        msg = t("yaml.malformed", what=exc.what)
        return None, [Finding("YAML001", "error", msg, rel, *exc.pos)]
    except YAMLError as exc:
        line, col = 1, 1
        position = getattr(exc, "position", None)
        what: object = exc
        if isinstance(position, int):  # libyaml's reader: a character YAML forbids
            # libyaml counts bytes of the UTF-8 text, not characters
            prefix = text.encode("utf-8")[:position].decode("utf-8", "ignore")
            line = prefix.count("\n") + 1
            col = len(prefix) - (prefix.rfind("\n") + 1) + 1
            char = text[len(prefix)] if len(prefix) < len(text) else ""
            what = t("yaml.control", char=codepoint(char)) if char else t("yaml.control_any")
        return None, [Finding("YAML001", "error", t("yaml.malformed", what=what), rel, line, col)]
    findings = [
        Finding(
            "YAML002",
            "error",
            t("yaml.duplicate_key", key=shown(key), first=first[0]),
            rel,
            *pos,
        )
        for key, pos, first in dup
    ]
    return value, findings


def read_file(path: Path, rel: str) -> tuple[Any, list[Finding]]:
    """Read and parse a file; a file that cannot be opened or decoded becomes one finding that
    names the reason (a dangling or looping link, a folder, permissions, an encoding)."""
    why = unreadable(path)
    if why is not None:
        return None, [Finding("IO001", "error", why, rel, 1, 1)]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Finding("IO001", "error", _os_error(exc), rel, 1, 1)]
    return parse_bytes(raw, rel)


def parse_bytes(raw: bytes, rel: str) -> tuple[Any, list[Finding]]:
    """Decode (UTF-8, or a finding that names the likely encoding) and parse."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        start = raw.rfind(b"\n", 0, exc.start) + 1
        col = len(raw[start : exc.start].decode("utf-8", "replace")) + 1
        byte = raw[exc.start]
        return None, [
            Finding(
                "YAML001",
                "error",
                t("yaml.utf8", byte=f"{byte:02X}", guess=_guess_encoding(raw)),
                rel,
                line,
                col,
            )
        ]
    return parse(text, rel)


def unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as a content file, in French, or ``None``."""
    try:
        if path.is_symlink():
            try:
                path.resolve(strict=True)
            except RuntimeError:  # pragma: no cover - Python < 3.13 raises this for a loop
                return t("io.link_loop")
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    return t("io.link_loop")
                return t("io.link_dangling", target=os.readlink(path))
        if path.is_dir():
            return t("io.directory")
        if not path.exists():
            return t("io.missing")
        if not path.is_file():
            return t("io.special")
        size = path.stat().st_size
        if size > MAX_CONTENT_FILE:
            mb = 1024 * 1024
            return t("io.too_big", size=-(-size // mb), limit=MAX_CONTENT_FILE // mb)
    except OSError as exc:
        return _os_error(exc)
    return None


#: the largest content file read (parsing takes about 25 times its size in memory); the
#: largest benchmark campaign (100,000 nodes) spreads over files of a few hundred kilobytes
MAX_CONTENT_FILE = 16 * 1024 * 1024


def _os_error(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return t("io.permission")
    if exc.errno == errno.ELOOP:
        return t("io.link_loop")
    if exc.errno == errno.EISDIR:
        return t("io.directory")
    why = _ERRNO_FR.get(exc.errno or 0) or exc.strerror or str(exc)
    return t("io.unreadable", why=why)


#: operating-system errors said in French (anything else as the system says it)
_ERRNO_FR = {
    errno.EIO: "erreur d'entrée-sortie (le disque ou le fichier spécial refuse la lecture)",
    errno.ENOENT: "le fichier n'existe plus",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ENXIO: "périphérique absent",
    errno.EINVAL: "ce fichier ne se lit pas comme un fichier ordinaire",
}


def _guess_encoding(raw: bytes) -> str:
    """A likely name for the encoding a non-UTF-8 file was saved in."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    if raw[:200].count(b"\x00") > 10:
        return "UTF-16"
    if any(0x80 <= b <= 0x9F for b in raw):
        return "Windows-1252"
    return "Latin-1 (ISO-8859-1) ou Windows-1252"
