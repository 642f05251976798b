"""``gamebook schema [GAME] [--out FILE]``: the JSON Schema (draft 2020-12) of the content format.

Without GAME: any content file of any registered game (the file editors use, shipped as
``site/schema/contenu.schema.json``); with GAME: a file of a campaign of that game only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import schema as S
from .common import EXIT_OK, UsageError

#: the schema shipped for editors (``.vscode/settings.json`` points at it; the site serves it)
SHIPPED = Path("site/schema/contenu.schema.json")


def text(family: str | None) -> str:
    from ..content.json_schema import schema

    return json.dumps(schema(family), ensure_ascii=False, indent=2) + "\n"


def run(args: argparse.Namespace) -> int:
    if args.game is not None and args.game not in S.SCHEMAS:
        known = ", ".join(S.FAMILIES) or "aucun"
        raise UsageError(f"aucun jeu à contenu ne s'appelle « {args.game} » (au choix : {known})")
    from ..files import check_output_path, write_atomic

    if args.out:
        check_output_path(args.out)
    out = text(args.game)
    if args.out:
        write_atomic(args.out, out)
    else:
        sys.stdout.write(out)
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("schema", help="le schéma JSON du format de contenu (pour les éditeurs)")
    s.add_argument(
        "game",
        nargs="?",
        metavar="JEU",
        help="seulement les fichiers d'une campagne de ce jeu (défaut : tous les jeux)",
    )
    s.add_argument(
        "--out", metavar="FICHIER", help="écrire dans ce fichier plutôt que sur la sortie standard"
    )
    s.set_defaults(func=run)
