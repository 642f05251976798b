"""``gamebook lsp``: the language server for editors, over standard input and output
(``pipeline.editor.lsp``).  Needs pygls: ``pip install -e .[editor]``."""

from __future__ import annotations

import argparse

from .common import EXIT_OK, UsageError


def run(args: argparse.Namespace) -> int:
    try:
        from ..editor.lsp import server

        ls = server()
    except ImportError:
        raise UsageError(
            "le serveur de langage a besoin de pygls : pip install -e '.[editor]'"
        ) from None
    ls.start_io()
    return EXIT_OK


def add(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "lsp",
        help="serveur de langage pour les éditeurs (constats en direct, aller à la définition, "
        "complétion des identifiants, survol)",
    )
    s.set_defaults(func=run)
