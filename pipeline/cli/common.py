"""What the subcommands share: exit codes, the usage error, and the options of a game drawn
from its registered setup fields (``gamebook play`` and ``gamebook simulate``)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

from engine.core import registry
from engine.core.game import Game

from ..messages import of

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

#: the most worker processes a command starts (``--jobs``)
MAX_JOBS = 256


class UsageError(Exception):
    """A problem the user must fix (exit 2); the message is French."""


def count(low: int = 1, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, refused in French."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"nombre entier attendu, pas « {text[:40]} »")
        if value < low or (high is not None and value > high):
            span = f"de {low} à {high}" if high is not None else f"d'au moins {low}"
            raise argparse.ArgumentTypeError(f"{value} : un nombre {span} est attendu")
        return value

    parse.__name__ = "nombre"
    return parse


def game_class(game_id: str) -> type[Game]:
    try:
        return registry.get(game_id)
    except registry.UnknownGame as exc:
        raise UsageError(str(exc)) from None


def game_ids_help() -> str:
    return ", ".join(registry.ids())


def add_setup_options(p: argparse.ArgumentParser, game: Game) -> None:
    """The options every game takes, then the game's own, from its setup fields."""
    common = p.add_argument_group("partie")
    low, high = game.players
    common.add_argument("--seed", default="0", help="graine du hasard : même graine, même partie")
    common.add_argument(
        "--players",
        type=count(low, high),
        metavar="P",
        help=f"nombre de {game.seat_word}s ({low} à {high} ; défaut {game.default_players})",
    )
    common.add_argument(
        "--bots",
        type=count(0, high),
        metavar="B",
        help="combien de ces places jouent seules (les dernières) ; --bots N seul : N places, "
        "toutes jouées par des bots, jusqu'à la fin",
    )
    common.add_argument("--names", metavar="NOMS", help="noms des places, séparés par des virgules")
    if game.personas:
        shown = ", ".join(f"{o.value} ({o.label})" for o in game.personas)
        common.add_argument(
            "--persona",
            metavar="CARACTÈRE",
            help=f"caractère des bots : {shown} ; un pour tous, ou un par bot séparés par des "
            "virgules",
        )
    own = p.add_argument_group(f"réglages {of(game.title)}")
    for f in game.fields():
        flag = "--" + f.name.replace("_", "-")
        # a help that has its own « : » follows the label after a dash, not a second colon
        joint = " — " if f.help and ":" in f.help else " : "
        helptext = f.label + (joint + f.help if f.help else "")
        if f.options:
            helptext += " (" + ", ".join(f"{o.value} = {o.label}" for o in f.options) + ")"
        if f.per_seat:
            own.add_argument(
                flag,
                dest=f"field_{f.name}",
                metavar="V[,V…]",
                help=helptext + " ; une valeur par place, séparées par des virgules",
            )
        elif f.kind == "bool":
            own.add_argument(flag, dest=f"field_{f.name}", action="store_true", help=helptext)
        else:
            own.add_argument(
                flag,
                dest=f"field_{f.name}",
                type=count(-(10**9), 10**9) if f.kind == "int" else str,
                choices=f.values() if f.kind == "choice" else None,
                metavar="N" if f.kind == "int" else None if f.kind == "choice" else "TEXTE",
                help=helptext + (f" (défaut : {f.default})" if f.default not in (None, "") else ""),
            )
    for alias in game.cli_aliases:
        flag = "--" + alias.flag.replace("_", "-")
        if alias.kind == "bool":
            own.add_argument(flag, dest=f"alias_{alias.flag}", action="store_true", help=alias.help)
        else:
            own.add_argument(
                flag, dest=f"alias_{alias.flag}", type=count(0), metavar="N", help=alias.help
            )


def setup_from(args: argparse.Namespace, game: Game, all_bots: bool = False) -> dict[str, Any]:
    """The setup the options describe (``normalize_setup`` checks it)."""
    players, bots = args.players, args.bots
    for alias in game.cli_aliases:
        value = getattr(args, f"alias_{alias.flag}", None)
        if alias.means == "players" and value is not None and players is None:
            players = value
        elif alias.means == "all_bots" and value:
            all_bots = True
    if all_bots:
        players = players or bots or game.default_players
        bots = players
    elif players is None and bots is not None:
        players = bots  # --bots N alone: N seats, all bots
    low, high = game.players
    word = game.seat_word
    if players is not None and not low <= players <= high:
        raise UsageError(f"--players {players} : {game.title} se joue de {low} à {high} {word}s")
    if bots is not None and players is not None and bots > players:
        raise UsageError(
            f"--bots {bots} : plus de bots que de places ({players}) ; donnez au plus "
            f"--bots {players}"
        )
    setup: dict[str, Any] = {"seed": str(args.seed)}
    if players is not None:
        setup["players"] = players
    if bots is not None:
        setup["bots"] = bots
    for f in game.fields():
        value = getattr(args, f"field_{f.name}", None)
        if value is None or (f.kind == "bool" and value is False and not f.per_seat):
            continue
        setup[f.name] = value.split(",") if f.per_seat else value
    persona = getattr(args, "persona", None)
    if persona:
        setup["persona"] = persona.split(",") if "," in persona else persona
    names = getattr(args, "names", None)
    if names:
        setup["names"] = [n.strip() for n in names.split(",")]
    return setup


def content_path(args: argparse.Namespace) -> Path:
    return Path(args.content)


class FrenchHelpFormatter(argparse.HelpFormatter):
    def start_section(self, heading: str | None) -> None:
        # argparse writes « heading: »; French typography wants « heading : »
        super().start_section(f"{heading} " if heading else heading)

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        # argparse asks for the bare usage with prefix "" (a subcommand's prefix): kept bare
        return super().add_usage(
            usage, actions, groups, "utilisation : " if prefix is None else prefix
        )


_INVALID_CHOICE = re.compile(r"invalid choice: (?P<word>.*?) \(choose from (?P<choices>.*)\)$")


class FrenchParser(argparse.ArgumentParser):
    """argparse in French: usage line, section titles, help option and error messages."""

    #: the subcommands' parsers, by name (the top-level parser's)
    commands: dict[str, argparse.ArgumentParser]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", FrenchHelpFormatter)
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        if add_help:
            self.add_argument(
                "-h",
                "--help",
                action="help",
                default=argparse.SUPPRESS,
                help="afficher cette aide et quitter",
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        choice = _INVALID_CHOICE.search(message)
        if choice is not None:  # « chek » : the choices, and the one most likely meant
            from ..messages import did_you_mean

            word = choice["word"].strip("'")  # quoted by Python 3.11 to 3.13, not after
            choices = [c.strip("'") for c in choice["choices"].split(", ")]
            message = (
                message[: choice.start()]
                + f"choix impossible : « {word} » (au choix : {', '.join(choices)})."
                + did_you_mean(word, choices)
            )
        translated = (
            message.replace("the following arguments are required", "arguments obligatoires")
            .replace("unrecognized arguments", "arguments inconnus")
            .replace("invalid choice", "choix impossible")
            .replace("choose from", "au choix")
            .replace("invalid int value", "nombre entier attendu, pas")
            .replace("expected one argument", "une valeur attendue")
            .replace("argument COMMANDE", "commande")
            .replace("argument ", "option ")
            .replace("ambiguous option", "option ambiguë")
            .replace("could match", "peut désigner")
            .replace("not allowed with argument", "incompatible avec")
            .replace("ignored explicit argument", "valeur inattendue")
            .replace("expected at most one argument", "au plus une valeur attendue")
            .replace("expected at least one argument", "au moins une valeur attendue")
        )
        # French typography: a space before « : » (argparse writes none)
        translated = re.sub(r"(?<! ):(?= |$)", " :", translated)
        self.exit(2, f"{self.prog} : erreur : {translated}\n")
