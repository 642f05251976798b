"""The writers' guide's generated parts, written into its Markdown so the page reads whole in
the repository and on the site, each between two marks: each game's part is the game's own
guide (``engine/<id>/guide.md``, in its package), each finding code's section comes from the
code's record (``pipeline.story.catalogue``).

``python -m pipeline.publish.guide`` (``nox -s docs``) rewrites them; ``--check`` only says whether
a
page is out of date (a test runs it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from engine.core import registry

from .. import schema as S
from ..messages import kind_fr, t
from ..story.catalogue import RECORDS
from . import reference

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "site" / "guide-auteurs.md"

_BLOCK = re.compile(
    r"^<!-- constat (?P<code>[A-Z]+\d+) : généré depuis sa fiche, nox -s docs -->\n"
    r".*?"
    r"^<!-- fin du constat (?P=code) -->$",
    re.M | re.S,
)


_GAME = re.compile(
    r"^<!-- guide du jeu (?P<game>[a-z_]+) : (?P<path>\S+), nox -s docs -->\n"
    r".*?"
    r"^<!-- fin du guide du jeu (?P=game) -->$",
    re.M | re.S,
)


def game_guide(game: str) -> Path:
    """The writers' guide of one registered game: ``guide.md`` in its package."""
    module = sys.modules[registry.get(game).__module__]
    return Path(module.__file__ or "").parent / "guide.md"


#: where a game's guide wants the table of one kind's fields: ``<!-- champs : KIND -->``
_FIELDS = re.compile(r"^<!-- champs : (?P<kind>[a-z_]+) -->$", re.M)


def fields_table(game: str, kind: str) -> str:
    """The fields of one kind of ``game``'s content, from its schema: name, whether it is
    required, the values it allows and what it holds; below the table, the fields required
    together (one of several, or one when another has a given value)."""
    spec = S.KINDS[game][kind]
    rows = ["| Champ | Obligatoire | Valeurs permises | Contenu |", "|---|---|---|---|"]
    for row in reference._rows(spec.fields):
        required = "oui" if row["required"] else "non"
        values = _allowed(row["spec"]) or row["type"]
        what = row["fr"] + (t("guide.edge", edge=f"`{row['edge']}`") if row["edge"] else "")
        rows.append(f"| `{row['name']}` | {required} | {values} | {what} |")
    notes = []
    if spec.one_of:
        notes.append(t("guide.one_of", names=" ou ".join(f"`{n}`" for n in spec.one_of)))
    for name, value, needed in spec.required_if:
        notes.append(
            t("guide.required_if", name=f"`{needed}`", field=f"`{name}`", value=f"`{value}`")
        )
    return "\n".join(rows) + "".join(f"\n\n{note}" for note in notes)


def _allowed(spec: S.Spec) -> str:
    """The values a field allows, as the guide writes them (empty: its type says it)."""
    if isinstance(spec, S.Enum):
        words = [f"`{v}`" for v in spec.values]
        return ", ".join(words[:-1]) + " ou " + words[-1] if len(words) > 1 else "".join(words)
    if isinstance(spec, S.Bool):
        return "`true` ou `false`"
    if isinstance(spec, S.ListOf) and isinstance(spec.item, S.Ref):
        return "liste de renvois vers " + " ou ".join(kind_fr(k) for k in spec.item.kinds)
    if isinstance(spec, S.Int) and spec.min is not None and spec.max is not None:
        return f"nombre entier de {spec.min} à {spec.max}"
    if isinstance(spec, S.Int) and spec.min is not None:
        return f"nombre entier, au moins {spec.min}"
    return ""


def game_text(game: str) -> str:
    """One game's guide with the field tables it asks for generated from its schema."""
    text = game_guide(game).read_text(encoding="utf-8")
    return _FIELDS.sub(lambda m: fields_table(game, m["kind"]), text)


def game_block(game: str) -> str:
    """One game's part of the guide as the guide holds it, between its marks, with the field
    tables its guide asks for generated from its schema."""
    path = game_guide(game)
    text = game_text(game)
    rel = path.relative_to(ROOT).as_posix()
    return (
        f"<!-- guide du jeu {game} : {rel}, nox -s docs -->\n\n"
        f"{text.rstrip()}\n\n"
        f"<!-- fin du guide du jeu {game} -->"
    )


def block(code: str) -> str:
    """One code's section as the guide holds it, between its marks."""
    return (
        f"<!-- constat {code} : généré depuis sa fiche, nox -s docs -->\n\n"
        f"{RECORDS[code].guide.rstrip()}\n\n"
        f"<!-- fin du constat {code} -->"
    )


def render(text: str) -> str:
    """``text`` with every marked part replaced by its source: a game's guide, a code's record
    (an unknown game or code fails)."""
    text = _GAME.sub(lambda m: game_block(m["game"]), text)
    return _BLOCK.sub(lambda m: block(m["code"]), text)


def marked(text: str) -> list[str]:
    """The codes whose sections ``text`` marks, in order."""
    return [m["code"] for m in _BLOCK.finditer(text)]


def marked_games(text: str) -> list[str]:
    """The games whose guides ``text`` holds, in order."""
    return [m["game"] for m in _GAME.finditer(text)]


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
