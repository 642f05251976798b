"""``gamebook compile [CONTENT_DIR] --out DIR``: one JSON bundle per campaign."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_FINDINGS, EXIT_OK, MAX_JOBS, count


def run(args: argparse.Namespace) -> int:
    # imported here: building the parser must not import the graph (``gamebook check`` on
    # content it checked before never needs it)
    from ..files import check_output_folder, check_output_path
    from ..messages import t
    from ..story import compile as comp
    from ..story import formats
    from ..story.report import check

    check_output_folder(args.out)  # before the content is read
    report = check(Path(args.content_dir), jobs=args.jobs)
    if not report.ok:
        print(formats.text(report), file=sys.stderr)
        print(f"gamebook compile : {t('cli.fix_first')}", file=sys.stderr)
        return EXIT_FINDINGS
    for sg in report.graphs.values():  # every file checked before the first is written
        check_output_path(Path(args.out) / f"{sg.campaign.id}.json")
    for sg in report.graphs.values():
        print(comp.write(sg, Path(args.out)))
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    k = sub.add_parser("compile", help="écrire un paquet JSON par campagne")
    k.add_argument(
        "content_dir",
        nargs="?",
        default="content",
        metavar="CONTENT_DIR",
        help="dossier de contenu (défaut : content)",
    )
    k.add_argument(
        "--out",
        default="build/bundles",
        metavar="DOSSIER",
        help="dossier où écrire les paquets (défaut : build/bundles)",
    )
    k.add_argument(
        "--jobs",
        type=count(1, MAX_JOBS),
        default=None,
        metavar="N",
        help="processus de lecture (défaut : nombre de cœurs)",
    )
    k.set_defaults(func=run)
