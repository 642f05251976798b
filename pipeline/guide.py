"""The writers' guide's generated parts, written into its Markdown so the page reads whole in
the repository and on the site: each finding code's section comes from the code's record
(``pipeline.catalogue``), between two marks.

``python -m pipeline.guide`` (``nox -s docs``) rewrites them; ``--check`` only says whether a
page is out of date (a test runs it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .catalogue import RECORDS

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "site" / "guide-auteurs.md"

_BLOCK = re.compile(
    r"^<!-- constat (?P<code>[A-Z]+\d+) : généré depuis sa fiche, nox -s docs -->\n"
    r".*?"
    r"^<!-- fin du constat (?P=code) -->$",
    re.M | re.S,
)


def block(code: str) -> str:
    """One code's section as the guide holds it, between its marks."""
    return (
        f"<!-- constat {code} : généré depuis sa fiche, nox -s docs -->\n\n"
        f"{RECORDS[code].guide.rstrip()}\n\n"
        f"<!-- fin du constat {code} -->"
    )


def render(text: str) -> str:
    """``text`` with every marked section replaced by its record's (an unknown code fails)."""
    return _BLOCK.sub(lambda m: block(m["code"]), text)


def marked(text: str) -> list[str]:
    """The codes whose sections ``text`` marks, in order."""
    return [m["code"] for m in _BLOCK.finditer(text)]


def pages() -> list[Path]:
    """The guide pages with generated parts."""
    return [GUIDE]


def main(argv: list[str]) -> int:
    stale = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            stale.append(page)
            if "--check" not in argv:
                page.write_text(new, encoding="utf-8")
    for page in stale:
        verb = "out of date" if "--check" in argv else "rewritten"
        print(f"{page.relative_to(ROOT)}: {verb}", file=sys.stderr)
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
