"""``gamebook graph GAME --format graphml|dot|json``: a campaign's story graph."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_OK, EXIT_USAGE, MAX_JOBS, count


def run(args: argparse.Namespace) -> int:
    from ..files import check_output_path, write_atomic
    from ..messages import t
    from ..publish import export  # imported here: building the parser must not import the graph
    from ..story.report import check

    if args.out:
        check_output_path(args.out)  # before the campaign is read
    report = check(Path(args.content), jobs=args.jobs)
    sg = report.graphs.get(args.game)
    if sg is None:
        known = ", ".join(sorted(report.graphs)) or "none"
        msg = t("cli.unknown_game", game=args.game, content=args.content, known=known)
        print(f"gamebook graph : {msg}", file=sys.stderr)
        return EXIT_USAGE
    text = export.render(sg, args.format)
    if args.out:
        write_atomic(args.out, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser("graph", help="exporter le graphe d'une campagne")
    g.add_argument("game", metavar="JEU", help="identifiant de la campagne")
    g.add_argument(
        "--format",
        choices=("graphml", "dot", "json"),
        default="json",
        help="graphml (Gephi, yEd), dot (Graphviz) ou json (défaut : json)",
    )
    g.add_argument(
        "--content",
        default="content",
        metavar="DOSSIER",
        help="dossier de contenu (défaut : content)",
    )
    g.add_argument(
        "--out",
        metavar="FICHIER",
        help="écrire dans ce fichier plutôt que sur la sortie standard",
    )
    g.add_argument(
        "--jobs",
        type=count(1, MAX_JOBS),
        default=None,
        metavar="N",
        help="processus de lecture (défaut : nombre de cœurs)",
    )
    g.set_defaults(func=run)
