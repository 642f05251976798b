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
    notes = _against(report, Path(args.against)) if args.against else []
    if args.deep and report.ok:
        from ..simulate import simulate

        for sg in report.graphs.values():
            sim = simulate(sg, runs=args.deep_runs, seed="deep", jobs=args.jobs)
            report.findings.extend(sim.findings)
        report.findings.sort(key=Finding.sort_key)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif args.format == "github":
        out = formats.github(report)
        if out:
            print(out)
    else:
        print(formats.text(report))
        for note in notes:
            print(note)
    return EXIT_OK if report.ok else EXIT_FINDINGS


def _against(report, published: Path) -> list[str]:
    """Compare each campaign with its published bundle; add the findings, return summaries."""
    from .. import compile as comp
    from .. import updates
    from .common import UsageError

    try:
        bundles = updates.read_published(published)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    notes = []
    for cid, sg in report.graphs.items():
        old = next(
            (b for b in bundles if (b.get("campaign") or {}).get("id") == cid),
            next((b for b in bundles if b.get("family") == sg.campaign.family), None),
        )
        if old is None:
            notes.append(f"Campagne « {cid} » : absente de {published}, rien à comparer.")
            continue
        c = updates.compare(old, sg, comp.bundle(sg))
        report.findings.extend(c.findings)
        notes.append(updates.summary(c))
    report.findings.sort(key=Finding.sort_key)
    return notes


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
    c.add_argument(
        "--against",
        metavar="PAQUET_PUBLIÉ",
        help="comparer avec la version publiée (un paquet .json, ou un dossier qui en contient : "
        "build/site/bundles) et dire ce que le changement casse pour les parties en cours",
    )
    c.set_defaults(func=run)
