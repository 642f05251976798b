"""gamebook's content pipeline: load → validate → graph → check → compile → render pages.

One sub-package per stage, imports flowing one way: ``content`` (what writers wrote) ←
``story`` (the story graph, its checks, the compiled bundle) ← ``publish`` (the site) |
``play`` (the terminal) | ``editor`` (the language server) ← ``cli``.  The modules here are
the foundations every stage uses (findings, messages, schema, files, chromium).

``pipeline`` may import ``engine``; ``engine`` never imports ``pipeline``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .story.report import Report, check

__all__ = ["Report", "check"]


def __getattr__(name: str) -> Any:
    # imported on first use: ``gamebook check`` on unchanged content never needs the checker
    if name in __all__:
        from .story import report

        return getattr(report, name)
    raise AttributeError(name)
