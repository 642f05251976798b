"""The rules engine as one zip archive, for the browser.

The site build ships this archive next to the vendored Pyodide runtime; the play page fetches
it and installs it with ``pyodide.unpackArchive(new Uint8Array(bytes), "zip", {extractDir})``
(a ``Uint8Array``: a Node ``Buffer`` is refused), then imports ``engine`` from that directory.
No package manager and no package from the Pyodide lock file are involved: ``engine`` is
standard library only.

The archive is deterministic: every ``.py`` file of the ``engine`` package (no
``__pycache__``, nothing else), in sorted order, with a fixed timestamp (1980-01-01), fixed
permissions and a fixed compression level — the same sources give the same bytes.  Its name
carries the first 12 hex digits of the sha256 of those bytes (``engine-<hash>.zip``), so a new
engine gets a new URL and no browser or service-worker cache can serve a stale one.

A play page needs one game only: ``build_archive(out, game="<id>")`` writes
``engine-<id>-<hash>.zip`` with the package's top level, ``engine/core`` and that game's
package, nothing of the other games (the registry discovers games by their folders, so it
finds that one game).

``tests/test_pyodide.py`` builds it and runs it under real Pyodide in Node.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import engine

ENGINE_DIR = Path(engine.__file__).resolve().parent
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can hold
HASH_DIGITS = 12


def engine_files(engine_dir: Path = ENGINE_DIR, game: str | None = None) -> list[tuple[str, Path]]:
    """``(name in the archive, file)`` for every ``.py`` file of the package, sorted by name;
    names start with the package folder (``engine/...``) and use ``/``.  With ``game``, only
    the top level, ``core`` and that game's package."""
    files = []
    for path in engine_dir.rglob("*.py"):
        rel = path.relative_to(engine_dir)
        if "__pycache__" in rel.parts or not path.is_file():
            continue
        if game is not None and len(rel.parts) > 1 and rel.parts[0] not in ("core", game):
            continue
        files.append((f"{engine_dir.name}/{rel.as_posix()}", path))
    return sorted(files)


def archive_bytes(engine_dir: Path = ENGINE_DIR, game: str | None = None) -> bytes:
    """The deterministic zip of the package (or of what ``game`` needs), in memory."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, path in engine_files(engine_dir, game):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, whatever the build machine (else 0 on Windows)
            info.external_attr = (0o100644 & 0xFFFF) << 16  # regular file, rw-r--r--
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    return buf.getvalue()


def build_archive(out_dir: Path, engine_dir: Path = ENGINE_DIR, game: str | None = None) -> Path:
    """Write ``engine-<hash>.zip`` (``engine-<game>-<hash>.zip`` with ``game``) into
    ``out_dir`` (created if needed) and return its path."""
    data = archive_bytes(engine_dir, game)
    digest = hashlib.sha256(data).hexdigest()[:HASH_DIGITS]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = engine_dir.name if game is None else f"{engine_dir.name}-{game}"
    path = out_dir / f"{stem}-{digest}.zip"
    path.write_bytes(data)
    return path
