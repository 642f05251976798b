"""``gamebook games [--format text|json]``: the registered games."""

from __future__ import annotations

import argparse
import json

from engine.core import registry

from .common import EXIT_OK


def run(args: argparse.Namespace) -> int:
    infos = [g.info() for g in registry.games()]
    if args.format == "json":
        print(json.dumps(infos, ensure_ascii=False, indent=2))
        return EXIT_OK
    for g in infos:
        low, high = g["players"]["min"], g["players"]["max"]
        seats = f"{low} à {high} joueurs" if low != high else f"{low} joueur" + "s" * (low > 1)
        print(f"{g['id']:<10} {g['title']} — {seats} — page {g['page']}")
        if g["pitch"]:
            print(f"{'':<10} {g['pitch']}")
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser("games", help="lister les jeux disponibles")
    g.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text : une ligne par jeu ; json : tout ce que le registre en dit (défaut : text)",
    )
    g.set_defaults(func=run)
