"""The command's help, in French: one « utilisation : », ``--help`` everywhere (before a game
too), ``play``/``simulate`` without a game list the games and exit 2, and every option of
every command and of every game has a help line."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from engine.core import registry
from pipeline.cli import main, parser
from pipeline.cli.play import _files, game_parser
from pipeline.cli.simulate import _options

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("check", "graph", "compile", "simulate", "play", "games", "build", "serve", "schema")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [[c, "--help"] for c in COMMANDS] + [["--help"], ["lsp", "-h"]])
def test_every_help_says_utilisation_once(argv) -> None:
    code, out, err = run(argv)
    assert code == 0, err
    assert out.startswith("utilisation : gamebook"), out[:80]
    assert out.count("utilisation") == 1, out[:200]
    assert "usage" not in out and "show this help" not in out


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("game", registry.ids())
def test_a_game_s_help_says_utilisation_once(command, game) -> None:
    code, out, err = run([command, game, "--help", "--content", str(ROOT / "content")])
    assert code == 0, err
    assert out.startswith(f"utilisation : gamebook {command} {game}")
    assert out.count("utilisation") == 1


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_help_without_a_game_lists_the_games(command) -> None:
    for flag in ("--help", "-h"):
        code, out, err = run([command, flag])
        assert code == 0, err
        assert out.startswith(f"utilisation : gamebook {command} JEU")
        assert all(g in out for g in registry.ids())


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_no_game_lists_the_games_and_is_a_usage_error(command) -> None:
    code, out, err = run([command])
    assert code == 2
    assert all(g in err for g in registry.ids())
    assert "le jeu (JEU) est obligatoire" in err and out == ""


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    top = parser()
    found = [("gamebook", top)]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += sorted(action.choices.items())
    content = ROOT / "content"
    for game in registry.ids():
        found.append((f"play {game}", game_parser("gamebook play", game, content, _files)[0]))
        found.append(
            (f"simulate {game}", game_parser("gamebook simulate", game, content, _options)[0])
        )
    return found


def test_every_option_has_a_help_line() -> None:
    missing = [
        f"{name}: {'/'.join(a.option_strings) or a.dest}"
        for name, p in parsers()
        for a in p._actions
        if not isinstance(a, argparse._SubParsersAction)
        and (not a.help or a.help == argparse.SUPPRESS)
    ]
    assert missing == []


def test_game_names_after_de_are_contracted() -> None:
    from pipeline.messages import of

    assert of("Le Dilemme du Roi") == "du Dilemme du Roi"
    assert of("Le Conseil des 12") == "du Conseil des 12"
    assert of("Les Ombres") == "des Ombres"
    assert of("Complots") == "de Complots"
    for game_id in registry.ids():
        code, out, _ = run(["play", game_id, "--help"])
        assert code == 0
        assert "de Le " not in out and "de Les " not in out and "à Le " not in out
    assert "réglages du Roi des 12 :" in run(["play", "roi", "--help"])[1]


@pytest.mark.parametrize("game_id", registry.ids())
def test_play_help_has_french_metavars_and_no_empty_default(game_id) -> None:
    out = run(["play", game_id, "--help"])[1]
    assert "FIELD_" not in out and "(défaut : )" not in out
    assert "options :" in out and "options:" not in out


def test_graph_content_metavar_and_french_error() -> None:
    assert "--content DOSSIER" in run(["graph", "--help"])[1]
    code, _, err = run(["graph", "x", "--bogus"])
    assert code == 2 and "Traceback" not in err
    assert "gamebook graph : erreur : arguments inconnus : --bogus" in err


@pytest.mark.parametrize("command", ["check", "build", "serve", "compile", "schema", "lsp"])
def test_unknown_option_names_the_command(command) -> None:
    """The command's usage line and name, not the top-level « gamebook : »."""
    code, _, err = run([command, "--bogus"])
    assert code == 2 and "Traceback" not in err
    assert f"gamebook {command} : erreur : arguments inconnus : --bogus" in err
    assert f"utilisation : gamebook {command} " in err


@pytest.mark.parametrize("command", ["check", "graph", "compile", "simulate", "games", "schema"])
def test_unknown_option_is_a_french_error(command) -> None:
    code, _, err = run([command, "--bogus"])
    assert code == 2 and " : erreur : " in err and "Traceback" not in err
    assert "unrecognized" not in err and "required" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["chek", "content"], "commande : choix impossible : « chek » (au choix : check, graph"),
        (["check", "content", "--format", "jsn"], "« jsn » (au choix : text, json, github)"),
    ],
)
def test_a_mistyped_choice_lists_the_choices_and_the_one_meant(argv, said) -> None:
    code, out, err = run(argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert said in err and "Vouliez-vous dire « " in err
    assert "invalid" not in err and "'j" not in err and "'c" not in err


def test_a_mistyped_game_is_named() -> None:
    code, _, err = run(["play", "dilemm"])
    assert code == 2 and "jeu inconnu « dilemm »" in err and "Vouliez-vous dire « " in err
