"""Which Chromium the browser tests and the browser benchmark drive (through Playwright).

A setting, never a path only one machine has, searched in this order:

1. ``GAMEBOOK_CHROMIUM``: the path of a Chromium or Chrome executable (an error if it is not
   one: a setting that is wrong must not be silently replaced);
2. Playwright's own browser, when ``python -m playwright install chromium`` has put one in its
   cache (``PLAYWRIGHT_BROWSERS_PATH`` or ``~/.cache/ms-playwright``): the usual way on a hosted
   CI runner;
3. a system browser on the ``PATH``: ``chromium`` (Debian), ``chromium-browser``,
   ``google-chrome-stable``, ``google-chrome``.

``find()`` returns a ``Browser``: ``executable`` is the path to give Playwright's
``executable_path`` (``None`` for Playwright's own browser), ``missing`` says why there is none.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

ENV = "GAMEBOOK_CHROMIUM"
SYSTEM = ("chromium", "chromium-browser", "google-chrome-stable", "google-chrome")
#: the flags every run uses: no background traffic, so that the only requests are the page's
ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


@dataclass(frozen=True)
class Browser:
    executable: str | None = None
    source: str = ""
    missing: str = ""

    @property
    def found(self) -> bool:
        return not self.missing


def _playwright_cache() -> Path:
    env = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if env and env != "0":
        return Path(env)
    return Path.home() / ".cache" / "ms-playwright"


def find() -> Browser:
    setting = os.environ.get(ENV, "").strip()
    if setting:
        path = Path(setting).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return Browser(str(path), f"{ENV}={setting}")
        return Browser(missing=f"{ENV}={setting} is not an executable file")
    cache = _playwright_cache()
    if any(cache.glob("chromium*")):
        return Browser(None, f"Playwright's own browser ({cache})")
    for name in SYSTEM:
        found = shutil.which(name)
        if found:
            return Browser(found, f"{name} on the PATH")
    return Browser(
        missing=(
            f"no Chromium found: set {ENV} to its path, or install one "
            "(apt-get install chromium, or python -m playwright install chromium)"
        )
    )
