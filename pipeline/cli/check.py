"""``gamebook check [CONTENT_DIR] [--format text|json|github] [--deep]``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import formats
from ..findings import Finding
from ..report import check
from .common import EXIT_FINDINGS, EXIT_OK


def run(args: argparse.Namespace) -> int:
    report = check(Path(args.content_dir), jobs=args.jobs)
    if args.deep and report.ok:
        from ..checks import check_game_deep
        from ..simulate import simulate

        for sg in report.graphs.values():
            sim = simulate(sg, runs=args.deep_runs, seed="deep", jobs=args.jobs)
            report.findings.extend(sim.findings)
            report.findings.extend(check_game_deep(sg))
        report.findings.sort(key=Finding.sort_key)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif args.format == "github":
        out = formats.github(report)
        if out:
            print(out)
    else:
        print(formats.text(report))
    return EXIT_OK if report.ok else EXIT_FINDINGS


def add(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("check", help="vérifier toutes les campagnes de CONTENT_DIR")
    c.add_argument("content_dir", nargs="?", default="content", metavar="CONTENT_DIR")
    c.add_argument("--format", choices=("text", "json", "github"), default="text")
    c.add_argument(
        "--jobs", type=int, default=None, help="processus de lecture (défaut : nombre de cœurs)"
    )
    c.add_argument(
        "--deep",
        action="store_true",
        help="jouer aussi une courte simulation et y ajouter ses constats",
    )
    c.add_argument("--deep-runs", type=int, default=60, help="parties simulées avec --deep")
    c.set_defaults(func=run)
