"""``gamebook play GAME``: play any registered game in the terminal (``pipeline.terminal``).

The options come from the game's setup fields: ``gamebook play GAME --help`` lists them in
French.  Common to every game: ``--seed`` (without it, a new seed is drawn and printed),
``--players``, ``--bots``, ``--names``, ``--script`` (actions read from a file), ``--save``
(resume and autosave).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..bundles import BundleUnavailable, bundle_for
from .common import (
    FrenchParser,
    UsageError,
    add_setup_options,
    game_class,
    game_ids_help,
    setup_from,
)


def _read(path: Path) -> dict:
    """A compiled bundle given on the command line (``--bundle``: an earlier published one)."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"paquet illisible « {path} » : {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("records"), dict):
        raise UsageError(f"« {path} » n'est pas un paquet compilé (gamebook compile)")
    return data


def game_parser(
    prog: str, game_id: str, content: Path, extra, bundle_file: Path | None = None
) -> tuple[argparse.ArgumentParser, object]:
    """The parser of ``gamebook <command> GAME``, with the game built on its bundle."""
    cls = game_class(game_id)
    try:
        bundle = bundle_for(game_id, content) if bundle_file is None else _read(bundle_file)
    except BundleUnavailable as exc:
        raise UsageError(str(exc)) from None
    game = cls(bundle)
    p = FrenchParser(prog=f"{prog} {game_id}", description=f"{game.title}. {game.pitch}")
    p.add_argument("--content", default="content", help="dossier de contenu (défaut : content)")
    p.add_argument(
        "--bundle",
        metavar="PAQUET",
        help="jouer avec ce paquet compilé plutôt qu'avec le contenu (par exemple l'ancienne "
        "version publiée, pour finir une partie commencée avec elle)",
    )
    extra(p)
    add_setup_options(p, game)
    return p, game


def _files(p: argparse.ArgumentParser) -> None:
    p.add_argument("--script", help="fichier d'actions (une par ligne : numéro ou JSON)")
    p.add_argument("--save", help="fichier de sauvegarde : reprise et sauvegarde automatique")
    p.add_argument(
        "--from",
        dest="start_from",
        metavar="NŒUD",
        help="commencer à ce nœud de l'histoire (sorte:clé, comme sur la carte : "
        "paragraph:12, envelope:07…), dans un état où son chemin a été parcouru",
    )


def split(args: argparse.Namespace, command: str) -> tuple[str, list[str], Path] | None:
    """The game id, its options, and the content folder; ``None`` after printing the list of
    games (``gamebook play`` alone or ``--help``)."""
    if args.game in (None, "-h", "--help"):
        print(f"usage : gamebook {command} GAME [options]\n")
        print(f"GAME parmi : {game_ids_help()}")
        print(f"« gamebook {command} GAME --help » donne les options de ce jeu.")
        return None
    pre = FrenchParser(add_help=False)
    pre.add_argument("--content", default="content")
    pre.add_argument("--bundle")
    known, _ = pre.parse_known_args(args.rest)
    args.bundle_file = Path(known.bundle) if known.bundle else None
    return args.game, args.rest, Path(known.content)


def run(args: argparse.Namespace) -> int:
    parts = split(args, "play")
    if parts is None:
        return 0
    game_id, rest, content = parts
    p, game = game_parser("gamebook play", game_id, content, _files, args.bundle_file)
    p.set_defaults(seed=None)  # no --seed: a new game each time, its seed printed
    opts = p.parse_args(rest)
    from .. import terminal

    seed_drawn = opts.seed is None
    if seed_drawn:
        opts.seed = terminal.fresh_seed()

    try:
        return terminal.play(
            game,
            setup_from(opts, game),
            script=Path(opts.script) if opts.script else None,
            save=Path(opts.save) if opts.save else None,
            out=sys.stdout,
            interactive=sys.stdin.isatty() or opts.script is None,
            start_from=opts.start_from,
            seed_drawn=seed_drawn,
        )
    except terminal.PlayError as exc:
        print(f"gamebook play : {exc}", file=sys.stderr)
        return 2


def add(sub: argparse._SubParsersAction) -> None:
    pl = sub.add_parser("play", help="jouer dans le terminal", add_help=False)
    pl.add_argument("game", nargs="?", metavar="GAME", help=f"le jeu : {game_ids_help()}")
    pl.add_argument("rest", nargs=argparse.REMAINDER)
    pl.set_defaults(func=run)
