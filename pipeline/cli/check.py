"""``gamebook check [CONTENT_DIR] [--format text|json|github] [--deep] [--no-cache] [--watch]``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on first use at run time (a cached run needs neither)
    from ..content.cache import Cache
    from ..editor.workspace import Workspace
    from ..story.report import Report


def _cache(args: argparse.Namespace) -> Cache | None:
    if args.no_cache or os.environ.get("GAMEBOOK_NO_CACHE"):
        return None
    from ..content.cache import Cache

    return Cache()


def run(args: argparse.Namespace) -> int:
    from ..content.cache import unchanged
    from ..findings import Finding
    from .common import EXIT_FINDINGS, EXIT_OK

    check = globals()["check"] if "check" in globals() else __getattr__("check")

    if args.watch:
        return watch(args)
    cache = _cache(args)
    run_key = None
    snapshot: list = []
    if cache is not None and not args.deep and not args.against and not args.spelling:
        if _MISSED is not None and _MISSED[:2] == (args.content_dir, args.format):
            run_key, snapshot = _MISSED[2:]  # ``cached`` just took it
        else:
            run_key = cache.run_key(args.content_dir, args.format, snapshot)
    report = check(Path(args.content_dir), jobs=args.jobs, cache=cache, graphs=run_key is None)
    # held by the caller's ``args``: freed with them, not when this function returns (the
    # program itself then ends without freeing it, see ``cli._leave``: 0.4 s at 100k nodes)
    args.report = report
    notes = _against(report, Path(args.against)) if args.against else []
    if args.deep and report.ok:
        from ..story.checks import check_game_deep
        from ..story.simulate import simulate

        for sg in report.graphs.values():
            sim = simulate(sg, runs=args.deep_runs, seed="deep", jobs=args.jobs)
            report.findings.extend(sim.findings)
            report.findings.extend(check_game_deep(sg))
        report.findings.sort(key=Finding.sort_key)
    if args.spelling:
        from ..story import spelling
        from .common import UsageError

        try:
            report.findings.extend(spelling.check(report))
        except spelling.SpellingUnavailable as exc:
            raise UsageError(str(exc)) from None
        report.findings.sort(key=Finding.sort_key)
    out = _render(report, args.format)
    if args.format == "text":
        out += "".join(note + "\n" for note in notes)
    sys.stdout.write(out)
    code = EXIT_OK if report.ok else EXIT_FINDINGS
    # remembered only if nothing changed while checking (the key was taken before reading)
    if cache is not None and run_key is not None and unchanged(Path(args.content_dir), snapshot):
        cache.put_run(run_key, code, out)
    if cache is not None:
        cache.prune()
    return code


#: how often ``watch`` looks for a change (seconds), and how long the files must stay as they
#: are before it checks (an editor's save may write a file in several steps)
POLL, SETTLE = 0.1, 0.05


def watch(args: argparse.Namespace, rounds: int | None = None) -> int:
    """``gamebook check --watch``: check, then check again each time a content file changes,
    the campaigns held in memory (``pipeline.editor.workspace``, the language server's engine):
    only the changed files are read again, and a structural edit patches the graph.  Each
    report is what ``gamebook check`` would print of the folder as it stands (in JSON, one
    report per line).  Runs until interrupted (or for ``rounds`` reports, for tests); returns
    the last report's exit code."""
    import time

    from ..content.cache import fingerprint
    from ..content.project import discover
    from ..editor.workspace import Workspace
    from ..messages import t
    from .common import EXIT_FINDINGS, EXIT_OK, UsageError

    for flag, name in (
        (args.deep, "--deep"),
        (args.against, "--against"),
        (args.spelling, "--spelling"),
    ):
        if flag:
            raise UsageError(t("cli.watch_alone", option=name))
    content = Path(args.content_dir)
    discover(content)  # a folder that is not there: the usage error ``check`` gives, exit 2
    ws = Workspace()
    counted: dict[Path, tuple[object, dict]] = {}
    done = 0
    code = EXIT_OK
    before: list | None = None
    print(t("cli.watch_start", content=content), file=sys.stderr, flush=True)
    while rounds is None or done < rounds:
        now: list = []
        fingerprint(content, now, read=False)
        if now == before:
            time.sleep(POLL)
            continue
        if before is not None:  # let the save finish: the same listing twice, SETTLE apart
            time.sleep(SETTLE)
            again: list = []
            fingerprint(content, again, read=False)
            if again != now:
                continue
        changed = _changed(before, now)
        before = now
        start = time.perf_counter()
        try:
            report = _watch_report(ws, content, counted)
        except OSError:  # a file went away while it was read: look again at the next poll
            before = []
            time.sleep(POLL)
            continue
        if report is None:
            print(t("content.missing", path=content), file=sys.stderr, flush=True)
            continue
        done += 1
        code = EXIT_OK if report.ok else EXIT_FINDINGS
        if done > 1:
            what = _what_changed(changed)
            took = f"{time.perf_counter() - start:.2f}".replace(".", ",")
            clock = time.strftime("%H:%M:%S")
            print(
                t("cli.watch_round", n=done, at=clock, what=what, seconds=took),
                file=sys.stderr,
                flush=True,
            )
        sys.stdout.write(_render(report, args.format, one_line=True))
        sys.stdout.flush()
    return code


def _changed(before: list | None, now: list) -> dict[str, list[str]]:
    """The names of the entries that differ between two ``fingerprint`` listings, by what
    happened to them: ``changed``, ``added`` or ``removed``."""
    out: dict[str, list[str]] = {"changed": [], "added": [], "removed": []}
    if before is None:
        return out
    old = {entry[0]: entry for entry in before}
    new = {entry[0]: entry for entry in now}
    for name in sorted(old.keys() | new.keys()):
        if name not in old:
            out["added"].append(name)
        elif name not in new:
            out["removed"].append(name)
        elif old[name] != new[name]:
            out["changed"].append(name)
    return out


def _what_changed(changed: dict[str, list[str]]) -> str:
    """« modifié : a.yaml ; supprimé : b.yaml », at most three names for each."""
    from ..messages import t

    parts = []
    for how, names in changed.items():
        if names:
            files = ", ".join(names[:3])
            if len(names) > 3:
                files = t("cli.watch_more", files=files, n=len(names) - 3)
            parts.append(t(f"cli.watch_{how}", files=files))
    return " ; ".join(parts) or t("cli.watch_touched")


def _watch_report(
    ws: Workspace, content: Path, counted: dict[Path, tuple[object, dict]]
) -> Report | None:
    """The report ``check`` makes of ``content``, from the campaigns ``ws`` holds (``None``:
    the folder cannot be read now).  ``counted``: each folder's graph and its statistics, from
    the report before: the same graph keeps them, a patched one updates them
    (``incremental.patched_stats``), any other is counted again."""
    from ..content.project import ContentError, discover
    from ..findings import Finding
    from ..story.report import Report, _same_campaign_id

    try:
        folders, stray = discover(content)
    except (ContentError, OSError):
        return None
    findings = list(stray)
    campaigns = []
    graphs = {}
    analyses = []
    held = {f.resolve() for f in folders}
    for folder in ws.folders():
        if folder not in held:
            ws.forget(folder)  # a campaign folder gone: free what was held of it
    for folder in folders:
        a = ws.analyse(folder, {}, root=content)
        if a.path == "full":
            # what the next structural edit's patch starts from (the levels of the reachable
            # nodes: the language server makes them after its diagnostics), made now rather
            # than by that edit: a few per cent of a full analysis
            a.warm()
        if a.campaign is None:  # no game: its manifest's findings, as ``load`` gives them
            findings.extend(a.findings)
            continue
        analyses.append(a)
        campaigns.append(a.campaign)
    findings.extend(_same_campaign_id(campaigns))
    known: dict[str, dict] = {}
    for a in analyses:
        findings.extend(a.findings)
        if a.graph is not None and a.campaign is not None:
            graphs[a.campaign.id] = a.graph
            known[a.campaign.id] = _counted(a, counted)
    for folder in list(counted):
        if folder not in held:
            del counted[folder]
    findings.sort(key=Finding.sort_key)
    return Report(content, campaigns, graphs=graphs, findings=findings, known=known)


def _counted(a: Any, counted: dict[Path, tuple[object, dict]]) -> dict:
    """The statistics of analysis ``a``'s graph (see ``_watch_report``)."""
    from ..story import checks, incremental

    before = counted.get(a.folder)
    if before is not None and before[0] is a.graph:
        return before[1]
    if before is not None and a.path == "patched":
        stats = incremental.patched_stats(before[1], before[0], a.graph)
    else:
        stats = checks.stats(a.graph)
    counted[a.folder] = (a.graph, stats)
    return stats


def _render(report: Report, fmt: str, one_line: bool = False) -> str:
    from ..story import formats

    if fmt == "json":
        if one_line:
            return json.dumps(report.to_json(), ensure_ascii=False) + "\n"
        return json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        out = formats.github(report)
        return out + "\n" if out else ""
    return formats.text(report) + "\n"


#: ``(content_dir, format, run key, snapshot)`` of the check ``cached`` could not reuse: the
#: full check that follows in the same process takes its key from here
_MISSED: tuple[str, str, str, list] | None = None


def cached(argv: list[str]) -> int | None:
    """``gamebook check`` on content that has not changed since a previous check with the same
    options: print what that check printed, without importing the checker.  ``None`` when
    there is nothing to reuse (or the options ask for more than a check)."""
    if not argv or argv[0] != "check" or os.environ.get("GAMEBOOK_NO_CACHE"):
        return None
    fmt, folder = "text", None
    rest = list(argv[1:])
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name in ("--format", "--jobs"):
            if not eq:
                if not rest:
                    return None
                value = rest.pop(0)
            if name == "--format":
                if value not in ("text", "json", "github"):
                    return None
                fmt = value
            elif not value.isdigit() or not 1 <= int(value) <= 256:
                return None  # refused by the full command's parser (common.MAX_JOBS)
        elif arg.startswith("-") or folder is not None:
            return None  # --deep, --no-cache, --help, a second folder: the full command
        else:
            folder = arg
    from ..content.cache import Cache

    global _MISSED
    cache = Cache()
    snapshot: list = []
    key = cache.run_key(folder or "content", fmt, snapshot)
    hit = cache.get_run(key) if key is not None else None
    if hit is None:
        if key is not None:
            _MISSED = (folder or "content", fmt, key, snapshot)
        return None
    code, out = hit
    sys.stdout.write(out)
    return code


def __getattr__(name: str) -> Callable[..., Report]:
    # ``check`` is imported on first use: an unchanged campaign never needs it
    if name == "check":
        from ..story.report import check

        return check
    raise AttributeError(name)


def _against(report: Report, published: Path) -> list[str]:
    """Compare each campaign with its published bundle; add the findings, return summaries."""
    from ..findings import Finding
    from ..story import compile as comp
    from ..story import updates
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
    from .common import MAX_JOBS, count

    c = sub.add_parser("check", help="vérifier toutes les campagnes de CONTENT_DIR")
    c.add_argument(
        "content_dir",
        nargs="?",
        default="content",
        metavar="CONTENT_DIR",
        help="dossier de contenu, ou le dossier d'une campagne (défaut : content)",
    )
    c.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text : lisible ; json : pour les outils ; github : annotations GitHub Actions "
        "(défaut : text)",
    )
    c.add_argument(
        "--jobs",
        type=count(1, MAX_JOBS),
        default=None,
        metavar="N",
        help="processus de lecture (défaut : nombre de cœurs)",
    )
    c.add_argument(
        "--deep",
        action="store_true",
        help="jouer aussi une courte simulation et y ajouter ses constats",
    )
    c.add_argument(
        "--deep-runs",
        type=count(1, 10_000_000),
        default=60,
        metavar="N",
        help="parties simulées avec --deep (défaut : 60)",
    )
    c.add_argument(
        "--spelling",
        action="store_true",
        help="vérifier aussi l'orthographe des textes lus par les joueurs (Hunspell, français)",
    )
    c.add_argument(
        "--no-cache",
        action="store_true",
        help="tout relire, sans le cache ($XDG_CACHE_HOME/gamebook)",
    )
    c.add_argument(
        "--against",
        metavar="PAQUET_PUBLIÉ",
        help="comparer avec la version publiée (un paquet .json, ou un dossier qui en contient : "
        "build/site/bundles) et dire ce que le changement casse pour les parties en cours",
    )
    c.add_argument(
        "--watch",
        action="store_true",
        help="rester ouvert et tout revérifier à chaque enregistrement d'un fichier, les "
        "campagnes gardées en mémoire (seuls les fichiers modifiés sont relus) ; en json, un "
        "rapport par ligne ; Ctrl+C pour arrêter",
    )
    c.set_defaults(func=run)
