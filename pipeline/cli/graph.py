"""``gamebook graph GAME --format graphml|dot|json``: a campaign's story graph."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_OK, EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    from .. import export  # imported here: building the parser must not import the graph
    from ..messages import t
    from ..report import check

    report = check(Path(args.content), jobs=args.jobs)
    sg = report.graphs.get(args.game)
    if sg is None:
        known = ", ".join(sorted(report.graphs)) or "none"
        msg = t("cli.unknown_game", game=args.game, content=args.content, known=known)
        print(f"gamebook graph: {msg}", file=sys.stderr)
        return EXIT_USAGE
    text = export.render(sg, args.format)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser("graph", help="exporter le graphe d'une campagne")
    g.add_argument("game", metavar="GAME", help="identifiant de la campagne")
    g.add_argument("--format", choices=("graphml", "dot", "json"), default="json")
    g.add_argument("--content", default="content", help="dossier de contenu (défaut : content)")
    g.add_argument("--out", help="écrire dans ce fichier plutôt que sur la sortie standard")
    g.add_argument("--jobs", type=int, default=None)
    g.set_defaults(func=run)
