"""The ``gamebook`` command.

Exit codes: 0 no error-level finding, 1 at least one, 2 usage or I/O problem.  Bad input never
produces a traceback: anything unexpected is reported as an internal error with exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import export
from .findings import Finding
from .messages import t
from .project import ContentError
from .report import Report, check

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _fmt_text(report: Report) -> str:
    lines = []
    for f in report.findings:
        where = f"{report.content_dir.as_posix().rstrip('/')}/{f.file}" if f.file else "?"
        lines.append(f"{where}:{f.line}:{f.column}: {f.severity} {f.code} {f.message}")
    errors = sum(1 for f in report.findings if f.severity == "error")
    warnings = len(report.findings) - errors
    s = report.stats()
    per = ", ".join(
        t(
            "cli.summary_campaign",
            id=cid,
            nodes=c["nodes"],
            edges=c["edges"],
            unreachable=c["unreachable"],
        )
        for cid, c in s["campaigns"].items()
    )
    lines.append(
        t("cli.summary", errors=errors, warnings=warnings, campaigns=per or t("cli.no_campaign"))
    )
    return "\n".join(lines)


def _escape_gh(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _fmt_github(report: Report) -> str:
    lines = []
    base = report.content_dir.as_posix().rstrip("/")
    for f in report.findings:
        level = "error" if f.severity == "error" else "warning"
        path = _escape_gh(f"{base}/{f.file}", prop=True)
        lines.append(
            f"::{level} file={path},line={f.line},col={f.column},title={f.code}::"
            f"{_escape_gh(f.message)}"
        )
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    report = check(Path(args.content_dir), jobs=args.jobs)
    if args.deep and report.ok:
        from .simulate import simulate

        for sg in report.graphs.values():
            sim = simulate(sg, runs=args.deep_runs, seed="deep", jobs=args.jobs)
            report.findings.extend(sim.findings)
        report.findings.sort(key=Finding.sort_key)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif args.format == "github":
        out = _fmt_github(report)
        if out:
            print(out)
    else:
        print(_fmt_text(report))
    return EXIT_OK if report.ok else EXIT_FINDINGS


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate, write_failure_scripts

    report = check(Path(args.content), jobs=args.jobs)
    sg = report.graphs.get(args.game)
    if sg is None:
        known = ", ".join(sorted(report.graphs)) or "none"
        msg = t("cli.unknown_game", game=args.game, content=args.content, known=known)
        print(f"gamebook simulate: {msg}", file=sys.stderr)
        return EXIT_USAGE
    if report.findings_of(args.game) and any(
        f.severity == "error" for f in report.findings_of(args.game)
    ):
        print(f"gamebook simulate: {t('cli.fix_first')}", file=sys.stderr)
        return EXIT_FINDINGS
    sim = simulate(sg, runs=args.runs, seed=str(args.seed), policy=args.policy, jobs=args.jobs,
                   progress=sys.stderr.isatty() and args.format == "text")  # fmt: skip
    scripts = write_failure_scripts(sim, Path(args.failures)) if sim.errors else []
    data = sim.to_json()
    if args.format == "json":
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        cov = data["coverage"]
        base = report.content_dir.as_posix().rstrip("/")
        for f in sim.findings:
            print(f"{base}/{f.file}:{f.line}:{f.column}: {f.severity} {f.code} {f.message}")
        print(t("sim.summary", runs=data["runs"], completed=data["completed"],
                visited=cov["visited"], reachable=cov["reachable_static"],
                ratio=round(100 * cov["ratio"], 1), edges=cov["edges"]["covered"],
                edges_total=cov["edges"]["total"], errors=len(data["errors"]),
                seconds=data["seconds"]))  # fmt: skip
        for path in scripts:
            print(t("sim.script", path=path))
    return EXIT_FINDINGS if any(f.severity == "error" for f in sim.findings) else EXIT_OK


def cmd_graph(args: argparse.Namespace) -> int:
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


def cmd_compile(args: argparse.Namespace) -> int:
    from . import compile as comp

    report = check(Path(args.content_dir), jobs=args.jobs)
    if not report.ok:
        print(_fmt_text(report), file=sys.stderr)
        print(f"gamebook compile: {t('cli.fix_first')}", file=sys.stderr)
        return EXIT_FINDINGS
    for sg in report.graphs.values():
        print(comp.write(sg, Path(args.out)))
    return EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    from . import site

    return site.build(Path(args.content), Path(args.out), Path(args.config), args.authoring)


def cmd_serve(args: argparse.Namespace) -> int:
    from . import site

    code = site.build(Path(args.content), Path(args.out), Path(args.config), args.authoring)
    if code != EXIT_OK:
        return code
    return site.serve(Path(args.out), args.host, args.port)


def cmd_play(args: argparse.Namespace) -> int:
    from . import play

    try:
        return play.main(args)
    except play.PlayError as exc:
        print(f"gamebook play : {exc}", file=sys.stderr)
        return EXIT_USAGE


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gamebook",
        description="Vérifier, compiler et publier les campagnes de jeu.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    c.set_defaults(func=cmd_check)

    g = sub.add_parser("graph", help="exporter le graphe d'une campagne")
    g.add_argument(
        "game", metavar="GAME", help="identifiant de la campagne (dilemme, citadelle, …)"
    )
    g.add_argument("--format", choices=("graphml", "dot", "json"), default="json")
    g.add_argument("--content", default="content", help="dossier de contenu (défaut : content)")
    g.add_argument("--out", help="écrire dans ce fichier plutôt que sur la sortie standard")
    g.add_argument("--jobs", type=int, default=None)
    g.set_defaults(func=cmd_graph)

    k = sub.add_parser("compile", help="écrire un paquet JSON par campagne")
    k.add_argument("content_dir", nargs="?", default="content", metavar="CONTENT_DIR")
    k.add_argument("--out", default="build/bundles")
    k.add_argument("--jobs", type=int, default=None)
    k.set_defaults(func=cmd_compile)

    sm = sub.add_parser("simulate", help="jouer des parties au hasard et mesurer la couverture")
    sm.add_argument("game", metavar="GAME", help="dilemme ou citadelle")
    sm.add_argument("--runs", type=int, default=200, help="campagnes simulées")
    sm.add_argument("--seed", default="0", help="graine (même graine, même rapport)")
    sm.add_argument(
        "--policy",
        choices=("mixed", "bots", "random"),
        default="mixed",
        help="bots (ou politique automatique), au hasard, ou mixte (défaut)",
    )
    sm.add_argument("--jobs", type=int, default=None, help="processus (défaut : nombre de cœurs)")
    sm.add_argument("--format", choices=("text", "json"), default="text")
    sm.add_argument("--content", default="content", help="dossier de contenu (défaut : content)")
    sm.add_argument(
        "--failures",
        default="build/simulate",
        help="dossier des scripts de reproduction des échecs",
    )
    sm.set_defaults(func=cmd_simulate)

    pl = sub.add_parser("play", help="jouer dans le terminal")
    pl.add_argument("game", metavar="GAME", help="dilemme ou citadelle")
    pl.add_argument("--content", default="content", help="dossier de contenu (défaut : content)")
    pl.add_argument("--seed", default="0", help="graine du hasard (même graine, même partie)")
    pl.add_argument("--players", type=int, default=4, help="Dilemme : nombre de Maisons (3 à 5)")
    pl.add_argument("--bots", type=int, default=0, help="Dilemme : Maisons jouées par des bots")
    pl.add_argument("--characters", type=int, default=2, help="Citadelle : personnages (1 à 4)")
    pl.add_argument(
        "--auto",
        action="store_true",
        help="Citadelle : une politique automatique joue tous les personnages",
    )
    pl.add_argument("--script", help="fichier d'actions (une par ligne : numéro ou JSON)")
    pl.add_argument("--save", help="fichier de sauvegarde : reprise et sauvegarde automatique")
    pl.set_defaults(func=cmd_play)

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
        if name == "serve":
            b.add_argument("--host", default="127.0.0.1")
            b.add_argument("--port", type=int, default=8000)
        b.set_defaults(func=cmd_build if name == "build" else cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except ContentError as exc:
        print(f"gamebook {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `gamebook play ... | head`: the reader left, nothing to report
        return EXIT_OK
    except OSError as exc:
        print(
            f"gamebook {args.command}: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for a writer; say where to report it
        what = f"{type(exc).__name__}: {exc}"
        print(f"gamebook {args.command}: {t('cli.internal', what=what)}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["Finding", "main"]
