"""``gamebook build`` and ``gamebook serve``: the static site."""

from __future__ import annotations

import argparse
from pathlib import Path


def run_build(args: argparse.Namespace) -> int:
    from ..publish import site

    config = Path(args.config) if args.config else None
    return site.build(
        Path(args.content), Path(args.out), config, args.authoring, args.coverage, force=args.force
    )


def run_serve(args: argparse.Namespace) -> int:
    from ..publish import live

    return live.serve(
        Path(args.content),
        Path(args.out),
        Path(args.config) if args.config else None,
        args.host,
        args.port,
        authoring=args.authoring,
        watch=not args.no_watch,
        force=args.force,
    )


def add(sub: argparse._SubParsersAction) -> None:
    from .common import count

    for name, helptext in (
        ("build", "construire le site statique"),
        ("serve", "construire le site et le servir"),
    ):
        b = sub.add_parser(name, help=helptext)
        b.add_argument(
            "--out",
            default="build/site",
            metavar="DOSSIER",
            help="dossier du site (défaut : build/site) ; vidé puis réécrit, s'il est vide ou "
            "a été écrit par gamebook build",
        )
        b.add_argument(
            "--force",
            action="store_true",
            help="vider le dossier de --out même s'il n'a pas été écrit par gamebook build",
        )
        b.add_argument(
            "--content",
            default="content",
            metavar="DOSSIER",
            help="dossier de contenu (défaut : content)",
        )
        b.add_argument(
            "--config",
            default=None,
            metavar="FICHIER",
            help="configuration mkdocs (défaut : mkdocs.yml)",
        )
        b.add_argument(
            "--authoring",
            action="store_true",
            help="ajouter la carte interactive de chaque campagne (pour les auteurs)",
        )
        if name == "build":
            b.add_argument(
                "--coverage",
                type=count(0, 1_000_000),
                default=0,
                metavar="N",
                help="avec --authoring : jouer N parties simulées par campagne et colorer la "
                "carte selon la fréquence de visite de chaque nœud",
            )
        if name == "serve":
            b.add_argument(
                "--host",
                default="127.0.0.1",
                help="adresse d'écoute (défaut : 127.0.0.1, cette machine seulement)",
            )
            b.add_argument(
                "--port",
                type=count(0, 65535),
                default=8000,
                help="port d'écoute (défaut : 8000)",
            )
            b.add_argument(
                "--no-watch",
                action="store_true",
                help="ne pas surveiller les fichiers (par défaut : reconstruire et recharger les "
                "pages à chaque modification de content/, site/ ou engine/)",
            )
        b.set_defaults(func=run_build if name == "build" else run_serve)
