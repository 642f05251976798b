"""Spelling of the French a player reads (``gamebook check --spelling``): SPELL001 warnings.

The dictionary is Hunspell's French one as Debian ships it (``hunspell-fr``: the Dicollecte
dictionary of Grammalecte, which knows « cœur », « sœur », rare words and both spellings of the
1990 reform), read by the ``hunspell`` program itself (``apt-get install hunspell hunspell-fr``):
the engine the dictionary is written for, in C, with no network and no Python dependency.  A
pure-Python reader (spylls) gives the same answers a hundred times slower.

What is checked: every text of the campaign's files that a player may read, i.e. every string
value with a space in it (identifiers, flags and references have none), whatever the game.  A
project word list accepts invented names and places: ``mots.txt`` (one word a line, ``#``
comments) in the content folder and in each campaign folder.

The check is a warning: it never blocks a build.  It is asked for (``--spelling``), because it
reads every file again and runs a program: the plain check stays fast.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ..content.load import YList, YMap, read_file
from ..findings import Finding
from ..messages import declare, t

SPELL001 = declare(
    "SPELL001",
    "warning",
    about="mot absent du dictionnaire français (--spelling)",
    fix="Corrigez le mot, ou ajoutez-le à mots.txt (noms propres, mots inventés).",
    messages={
        "spell.unknown": (
            "{path} : « {word} » n'est pas dans le dictionnaire français.{hint} Corrigez-le, ou "
            "ajoutez-le à {wordlist} s'il est voulu (un nom propre, un mot inventé)."
        ),
    },
)


WORDLIST = "mots.txt"
DICTIONARY = "fr_FR"
#: punctuation Hunspell may leave on a word (« Aldous. »): stripped before judging it
_EDGES = ".,;:!?…«»\"'’()[]{}–—-*/"
_DIGIT = re.compile(r"\d")


class SpellingUnavailable(Exception):
    """Hunspell or its French dictionary is missing (a usage problem: exit 2)."""


def _hunspell() -> str:
    exe = shutil.which("hunspell")
    if exe is None:
        raise SpellingUnavailable(t("spell.no_hunspell"))
    probe = subprocess.run(
        [exe, "-D"], input="", capture_output=True, text=True, check=False, timeout=30
    )
    listed = probe.stdout + probe.stderr
    if not re.search(rf"/{DICTIONARY}$|/fr$", listed, re.M):
        raise SpellingUnavailable(t("spell.no_dictionary"))
    return exe


def _dictionary(listed: str) -> str:
    return DICTIONARY if re.search(rf"/{DICTIONARY}$", listed, re.M) else "fr"


def texts(value: Any, pos: tuple[int, int], path: str = "") -> list[tuple[str, int, int, str]]:
    """Every string with a space below ``value``: ``(text, line, column, path)``."""
    out: list[tuple[str, int, int, str]] = []
    stack: list[tuple[Any, tuple[int, int], str]] = [(value, pos, path)]
    while stack:
        v, p, where = stack.pop()
        if isinstance(v, YMap):
            for k, item in v.items():
                stack.append((item, v.kpos[k], f"{where}.{k}" if where else k))
        elif isinstance(v, YList):
            for i, item in enumerate(v):
                stack.append((item, v.ipos[i], f"{where}[{i}]"))
        elif isinstance(v, str) and " " in v.strip():
            out.append((v, p[0], p[1], where))
    out.reverse()
    return out


def word_list(folders: list[Path]) -> set[str]:
    words: set[str] = set()
    for folder in folders:
        try:
            text = (folder / WORDLIST).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            word = line.split("#", 1)[0].strip()
            if word:
                words.add(word)
    return words


def _unknown(exe: str, dictionary: str, lines: list[str]) -> set[str]:
    """The words of ``lines`` Hunspell does not know (``-l``: no suggestions, fast)."""
    proc = subprocess.run(
        [exe, "-d", dictionary, "-l", "-i", "utf-8"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )
    return set(proc.stdout.split())


def _suggestions(exe: str, dictionary: str, words: list[str]) -> dict[str, list[str]]:
    """Hunspell's suggestions for a few words (``-a``; slow: asked only of unknown words)."""
    proc = subprocess.run(
        [exe, "-d", dictionary, "-a", "-i", "utf-8"],
        input="".join("^" + w + "\n" for w in words),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
        timeout=120,
    )
    out: dict[str, list[str]] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("& "):
            head, _, tail = line.partition(": ")
            out[head.split(" ")[1]] = [x.strip() for x in tail.split(",") if x.strip()]
    return out


_ELISION = re.compile(r"^(?:[dlnmtsjc]|qu|jusqu|lorsqu|puisqu|quoiqu)['’](.+)$", re.I)


def _parts(word: str) -> list[str]:
    """The pieces a word is judged by when it is unknown whole: after an elided article
    (« d'Anclisse » → « Anclisse »), and each side of a hyphen."""
    m = _ELISION.match(word)
    rest = m.group(1) if m else word
    pieces = [p for p in rest.split("-") if p]
    return pieces if (m or len(pieces) > 1) else []


def _known(word: str, allowed: set[str]) -> bool:
    return word in allowed or word.lower() in allowed or word.capitalize() in allowed


_TOKEN = re.compile(r"[\w'’.\-]+")
#: at most this many distinct unknown words get suggestions (each costs Hunspell time)
SUGGEST_AT_MOST = 60


def check(report: Any) -> list[Finding]:
    """SPELL001 warnings for the player-facing text of every campaign of ``report``."""
    exe = _hunspell()
    listed = subprocess.run(
        [exe, "-D"], input="", capture_output=True, text=True, check=False, timeout=30
    )
    dictionary = _dictionary(listed.stdout + listed.stderr)
    base = report.content_dir
    entries: list[tuple[str, int, int, str, str, set[str]]] = []
    for camp in report.campaigns:
        allowed = word_list([base, camp.folder])
        for rel in camp.files:
            doc, _ = read_file(base / rel, rel)
            if doc is None:
                continue
            for text, line, col, path in texts(doc, getattr(doc, "pos", (1, 1))):
                entries.append((text, line, col, path, rel, allowed))
    if not entries:
        return []
    unknown = _unknown(exe, dictionary, [" ".join(e[0].split()) for e in entries])
    # words Hunspell saw with punctuation attached are judged again without it
    stripped = {w: w.strip(_EDGES) for w in unknown}
    parts = {w: _parts(c) for w, c in stripped.items()}
    retry = sorted(
        {c for w, c in stripped.items() if c and c != w} | {p for ps in parts.values() for p in ps}
    )
    still = _unknown(exe, dictionary, retry) if retry else set()
    bad = {w for w, c in stripped.items() if c and (c == w or c in still)}
    found: list[tuple[str, int, int, str, str, set[str]]] = []
    for text, line, col, path, rel, allowed in entries:
        seen: set[str] = set()
        for token in _TOKEN.findall(text):
            for word in {token, token.strip(_EDGES)}:
                if word in bad:
                    clean = word.strip(_EDGES)
                    if clean in seen or _DIGIT.search(clean) or _known(clean, allowed):
                        continue
                    pieces = _parts(clean)
                    if pieces and all(p not in still or _known(p, allowed) for p in pieces):
                        continue  # « d'Anclisse », « Nouvelle-Vellande »: each piece is known
                    seen.add(clean)
                    found.append((clean, line, col, path, rel, allowed))
    words = sorted({f[0] for f in found})
    hints = _suggestions(exe, dictionary, words[:SUGGEST_AT_MOST]) if words else {}
    out: list[Finding] = []
    lines_of: dict[str, list[str]] = {}
    for word, line, col, path, rel, _ in found:
        where_line, where_col = _locate(base / rel, lines_of, rel, word, line, col)
        suggestions = hints.get(word, [])
        hint = (
            t("spell.suggest", words=", ".join(f"« {s} »" for s in suggestions[:3]))
            if suggestions
            else ""
        )
        message = t("spell.unknown", path=path, word=word, hint=hint, wordlist=WORDLIST)
        out.append(Finding("SPELL001", "warning", message, rel, where_line, where_col))
    return out


def _locate(
    path: Path, cache: dict[str, list[str]], rel: str, word: str, line: int, col: int
) -> tuple[int, int]:
    """The word's own line and column when the text spans several lines (a block ``>-``)."""
    if rel not in cache:
        try:
            cache[rel] = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            cache[rel] = []
    lines = cache[rel]
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    for i in range(line - 1, min(len(lines), line + 200)):
        start = col - 1 if i == line - 1 else 0
        m = pattern.search(lines[i], start)
        if m:
            return i + 1, m.start() + 1
    return line, col
