"""``gamebook simulate GAME --runs N --seed S``: play whole games with the real engine, report
what play reaches against the static graph, and how the bots fare."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..messages import count as count_fr
from ..messages import kind_fr, t
from ..story.bundles import _campaign_folder
from ..story.report import check
from .common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, MAX_JOBS, UsageError, count
from .play import add_game_arguments, game_parser, split


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--runs",
        type=count(1, 10_000_000),
        default=200,
        metavar="N",
        help="parties (ou campagnes) simulées (défaut : 200)",
    )
    p.add_argument(
        "--policy",
        choices=("mixed", "bots", "random"),
        default="mixed",
        help="bots, coups au hasard, ou mixte (défaut : les bots, et un coup sur quatre au hasard)",
    )
    p.add_argument(
        "--jobs",
        type=count(1, MAX_JOBS),
        default=None,
        metavar="N",
        help="processus (défaut : nombre de cœurs)",
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text : un résumé lisible ; json : le rapport complet (défaut : text)",
    )
    p.add_argument(
        "--failures",
        default="build/simulate",
        metavar="DOSSIER",
        help="dossier des scripts de reproduction des échecs (défaut : build/simulate)",
    )
    p.add_argument(
        "--script",
        metavar="FICHIER",
        help="non utilisé par la simulation (accepté pour l'uniformité)",
    )
    p.add_argument(
        "--save", metavar="FICHIER", help="écrire la sauvegarde de la première partie simulée"
    )


def run(args: argparse.Namespace) -> int:
    from ..files import check_output_folder, check_output_path
    from ..story.simulate import simulate, write_failure_scripts
    from .common import setup_from

    parts = split(args, "simulate")
    if isinstance(parts, int):
        return parts
    game_id, rest, content = parts
    p, game = game_parser("gamebook simulate", game_id, content, _options)
    opts = p.parse_args(rest)
    # every file written is checked before the first game is played
    if opts.save:
        check_output_path(opts.save)
        from ..play import terminal

        try:  # a file that is not a save is never overwritten
            terminal.read_save(Path(opts.save))
        except terminal.PlayError as exc:
            raise UsageError(str(exc)) from None
    check_output_folder(opts.failures)
    setup = setup_from(opts, game, all_bots=True)  # range-checked before anything is played
    folder = _campaign_folder(content, game_id) if content.is_dir() else None
    if folder is None:
        msg = t("cli.unknown_game", game=game_id, content=content, known="—")
        print(f"gamebook simulate : {msg}", file=sys.stderr)
        return EXIT_USAGE
    report = check(folder, jobs=opts.jobs)
    sg = next(iter(report.graphs.values()), None)
    if sg is None or not report.ok:
        print(f"gamebook simulate : {t('cli.fix_first')}", file=sys.stderr)
        return EXIT_FINDINGS
    sim = simulate(
        sg,
        runs=opts.runs,
        seed=str(opts.seed),
        policy=opts.policy,
        jobs=opts.jobs,
        progress=sys.stderr.isatty() and opts.format == "text",
    )
    scripts = write_failure_scripts(sim, Path(opts.failures)) if sim.errors else []
    if opts.save:
        from engine.core.errors import SetupError
        from engine.core.session import Session

        from ..play import terminal

        try:
            session = Session(game).start(setup)
        except SetupError as exc:
            raise UsageError(str(exc)) from None
        terminal.write_save(Path(opts.save), session.save_text())
    data = sim.to_json()
    if opts.format == "json":
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        cov = data["coverage"]
        base = report.content_dir.as_posix().rstrip("/")
        for f in sim.findings:
            print(f"{base}/{f.file}:{f.line}:{f.column}: {f.severity} {f.code} {f.message}")
        print(
            t(
                "sim.summary",
                runs=data["runs"],
                completed=data["completed"],
                visited=cov["visited"],
                reachable=cov["reachable_static"],
                ratio=round(100 * cov["ratio"], 1),
                edges=cov["edges"]["covered"],
                edges_total=cov["edges"]["total"],
                errors=count_fr("sim.errors", len(data["errors"])),
                seconds=data["seconds"],
            )
        )
        for line in coverage_lines(cov):
            print(line)
        play = data["play"]
        print(t("sim.play", games=play["games"], mean=play["mean_actions"]))
        if play["win_share_by_persona"]:
            shares = ", ".join(
                f"{k} {round(100 * v, 1)} %" for k, v in play["win_share_by_persona"].items()
            )
            print(t("sim.personas", shares=shares))
        shares = ", ".join(
            f"{int(k) + 1} : {round(100 * v, 1)} %" for k, v in play["win_share_by_seat"].items()
        )
        if shares:
            print(t("sim.seats", shares=shares))
        for path in scripts:
            print(t("sim.script", path=path))
    return EXIT_FINDINGS if any(f.severity == "error" for f in sim.findings) else EXIT_OK


def coverage_lines(cov: dict) -> list[str]:
    """What coverage counted, kind by kind, and the table sizes played, in French."""
    out = []
    if cov["by_kind"]:
        kinds = ", ".join(
            t("sim.kind", kind=kind_fr(k), visited=v["visited"], reachable=v["reachable"])
            for k, v in cov["by_kind"].items()
        )
        out.append(t("sim.kinds", kinds=kinds))
    tables = cov["tables"]
    played = {int(k): v for k, v in tables["played"].items()}
    shown = ", ".join(
        t("sim.table", size=k, games=count_fr("sim.games", v)) for k, v in played.items() if v
    )
    line = t("sim.tables", low=tables["min"], high=tables["max"], played=shown or "—")
    never = [str(k) for k, v in played.items() if not v]
    if never:
        line += t("sim.tables_never", sizes=", ".join(never))
    out.append(line)
    return out


def add(sub: argparse._SubParsersAction) -> None:
    sm = sub.add_parser(
        "simulate",
        help="jouer des parties avec le vrai moteur et mesurer la couverture",
        add_help=False,
    )
    add_game_arguments(sm)
    sm.set_defaults(func=run)
