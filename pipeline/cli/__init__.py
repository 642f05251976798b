"""The ``gamebook`` command: one module per subcommand (``pipeline/cli/<command>.py``).

Exit codes: 0 no error-level finding, 1 at least one, 2 usage or I/O problem.  Bad input never
produces a traceback: anything unexpected is reported as an internal error with exit 2.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

from ..findings import Finding

if TYPE_CHECKING:
    from .common import FrenchParser


def parser() -> FrenchParser:
    from . import build, check, compile, games, graph, lsp, play, schema, simulate
    from .common import FrenchParser

    COMMANDS = (check, graph, compile, simulate, play, games, build, schema, lsp)
    p = FrenchParser(
        prog="gamebook",
        description="Vérifier, compiler, jouer et publier les campagnes de jeu.",
    )
    sub = p.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMANDE",
        parser_class=FrenchParser,
        title="commandes",
    )
    for module in COMMANDS:
        module.add(sub)
    p.commands = dict(sub.choices)
    return p


def main(argv: list[str] | None = None) -> int:
    # an unchanged campaign checked again: the previous output, before importing the checker
    from .check import cached

    try:
        code = cached(sys.argv[1:] if argv is None else list(argv))
    except Exception:  # the cache is an optimisation: any problem means the full check
        code = None
    if code is not None:
        return code
    from ..content.project import ContentError
    from ..files import FileProblem, os_message
    from ..messages import t
    from .common import EXIT_OK, EXIT_USAGE, UsageError

    top = parser()
    args, unknown = top.parse_known_args(argv)
    if unknown:  # said by the command's own parser: its usage line, « gamebook check : »
        top.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    leaves = argv is None and args.command == "check"
    if leaves and not args.deep and not args.watch:
        # the process ends at ``_leave``, freeing nothing: a cyclic collection over the
        # millions of objects of a large check would only cost time (0.3 s at 100k nodes);
        # ``--deep`` plays games after the check, whose garbage must still be collected
        gc.disable()
    try:
        code = args.func(args)
        if leaves and not args.watch:
            _leave(code)
        return code
    except (ContentError, UsageError, FileProblem) as exc:
        print(f"gamebook {args.command} : {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `gamebook play ... | head`: the reader left, nothing to report
        return EXIT_OK
    except OSError as exc:
        where = f"« {exc.filename} » : " if exc.filename else ""
        print(f"gamebook {args.command} : {where}{os_message(exc)}.", file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:
        print(f"gamebook {args.command} : {t('cli.memory')}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for a writer; say where to report it
        what = f"{type(exc).__name__}: {exc}"
        print(f"gamebook {args.command} : {t('cli.internal', what=what)}", file=sys.stderr)
        return EXIT_USAGE


def _leave(code: int) -> None:
    """End the process now that everything is written: a check at 100,000 nodes holds
    millions of small objects, and freeing them one by one as the interpreter shuts down costs
    a quarter of a second for nothing.  Only for the program itself (``main()`` without
    arguments): a caller in the same process gets its exit code back."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


__all__ = ["Finding", "main", "parser"]
