"""``gamebook play GAME``: play any registered game in the terminal (``pipeline.play.terminal``).

The options come from the game's setup fields: ``gamebook play GAME --help`` lists them in
French.  Common to every game: ``--seed`` (without it, a new seed is drawn and printed),
``--players``, ``--bots``, ``--names``, ``--script`` (actions read from a file), ``--save``
(resume and autosave).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from engine.core.game import Game

from ..story.bundles import BundleUnavailable, bundle_for
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

    from ..files import FileProblem, read_text_limited

    try:
        text = read_text_limited(path, 256 * 1024 * 1024)
    except FileProblem as exc:
        raise UsageError(f"paquet illisible : {exc}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise UsageError(f"« {path} » n'est pas un paquet compilé (du JSON illisible)") from None
    if not isinstance(data, dict) or not isinstance(data.get("records"), dict):
        raise UsageError(f"« {path} » n'est pas un paquet compilé (gamebook compile)")
    return data


def game_parser(
    prog: str,
    game_id: str,
    content: Path,
    extra: Callable[[argparse.ArgumentParser], object],
    bundle_file: Path | None = None,
) -> tuple[argparse.ArgumentParser, Game]:
    """The parser of ``gamebook <command> GAME``, with the game built on its bundle."""
    cls = game_class(game_id)
    try:
        bundle = bundle_for(game_id, content) if bundle_file is None else _read(bundle_file)
    except BundleUnavailable as exc:
        raise UsageError(str(exc)) from None
    game = cls(bundle)
    p = FrenchParser(prog=f"{prog} {game_id}", description=f"{game.title}. {game.pitch}")
    p.add_argument(
        "--content",
        default="content",
        metavar="DOSSIER",
        help="dossier de contenu (défaut : content)",
    )
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
    p.add_argument(
        "--script", metavar="FICHIER", help="fichier d'actions (une par ligne : numéro ou JSON)"
    )
    p.add_argument(
        "--save",
        metavar="FICHIER",
        help="fichier de sauvegarde : reprise et sauvegarde automatique (un fichier qui n'est "
        "pas une sauvegarde n'est jamais écrasé)",
    )
    p.add_argument(
        "--from",
        dest="start_from",
        metavar="NŒUD",
        help="commencer à ce nœud de l'histoire (sorte:clé, comme sur la carte de l'histoire), "
        "dans un état où son chemin a été parcouru",
    )


def split(args: argparse.Namespace, command: str) -> tuple[str, list[str], Path] | int:
    """The game id, its options, and the content folder; else the exit code after printing
    the list of games: 0 for ``--help``, 2 (a usage error) without a game."""
    if args.game is None or args.help:
        out = sys.stdout if args.help else sys.stderr
        print(f"utilisation : gamebook {command} JEU [options]\n", file=out)
        print(f"JEU parmi : {game_ids_help()}", file=out)
        print(f"« gamebook {command} JEU --help » donne les options de ce jeu.", file=out)
        if not args.help:
            print(f"gamebook {command} : erreur : le jeu (JEU) est obligatoire", file=out)
        return 0 if args.help else 2
    pre = FrenchParser(add_help=False)
    pre.add_argument("--content", default="content")
    pre.add_argument("--bundle")
    known, _ = pre.parse_known_args(args.rest)
    args.bundle_file = Path(known.bundle) if known.bundle else None
    return args.game, args.rest, Path(known.content)


def run(args: argparse.Namespace) -> int:
    parts = split(args, "play")
    if isinstance(parts, int):
        return parts
    game_id, rest, content = parts
    p, game = game_parser("gamebook play", game_id, content, _files, args.bundle_file)
    p.set_defaults(seed=None)  # no --seed: a new game each time, its seed printed
    opts = p.parse_args(rest)
    from ..files import check_output_path
    from ..play import terminal

    # before anything is played: a save that cannot be written is said now, not after the game
    if opts.save:
        check_output_path(opts.save)

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


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """``GAME`` and its options (parsed by the game's own parser), and ``--help`` before it."""
    p.add_argument(
        "-h", "--help", action="store_true", help="lister les jeux (JEU --help : ses options)"
    )
    p.add_argument("game", nargs="?", metavar="JEU", help=f"le jeu : {game_ids_help()}")
    p.add_argument(
        "rest", nargs=argparse.REMAINDER, metavar="OPTIONS", help="les options du jeu choisi"
    )


def add(sub: argparse._SubParsersAction) -> None:
    pl = sub.add_parser("play", help="jouer dans le terminal", add_help=False)
    add_game_arguments(pl)
    pl.set_defaults(func=run)
