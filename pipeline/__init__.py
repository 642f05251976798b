"""gamebook's content pipeline: load → validate → graph → check → compile → render pages.

``pipeline`` may import ``engine``; ``engine`` never imports ``pipeline``.
"""

from __future__ import annotations

from .report import Report, check

__all__ = ["Report", "check"]
