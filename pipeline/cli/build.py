"""``gamebook build`` and ``gamebook serve``: the static site."""

from __future__ import annotations

import argparse
from pathlib import Path


def run_build(args: argparse.Namespace) -> int:
    from .. import site

    return site.build(
        Path(args.content), Path(args.out), Path(args.config), args.authoring, args.coverage
    )


def run_serve(args: argparse.Namespace) -> int:
    from .. import live

    return live.serve(
        Path(args.content),
        Path(args.out),
        Path(args.config),
        args.host,
        args.port,
        authoring=args.authoring,
        watch=not args.no_watch,
    )


def add(sub: argparse._SubParsersAction) -> None:
    for name, helptext in (
        ("build", "construire le site statique"),
        ("serve", "construire le site et le servir"),
    ):
        b = sub.add_parser(name, help=helptext)
        b.add_argument("--out", default="build/site")
        b.add_argument("--content", default="content")
        b.add_argument("--config", default="mkdocs.yml")
        b.add_argument(
            "--authoring",
            action="store_true",
            help="ajouter la carte interactive de chaque campagne (pour les auteurs)",
        )
        if name == "build":
            b.add_argument(
                "--coverage",
                type=int,
                default=0,
                metavar="N",
                help="avec --authoring : jouer N parties simulées par campagne et colorer la "
                "carte selon la fréquence de visite de chaque nœud",
            )
        if name == "serve":
            b.add_argument("--host", default="127.0.0.1")
            b.add_argument("--port", type=int, default=8000)
            b.add_argument(
                "--no-watch",
                action="store_true",
                help="ne pas surveiller les fichiers (par défaut : reconstruire et recharger les "
                "pages à chaque modification de content/, site/ ou engine/)",
            )
        b.set_defaults(func=run_build if name == "build" else run_serve)
