"""The heaviest runtime files shipped compressed with Zstandard (``.zst``), decoded in the page.

Static hosts (GitHub Pages among them) compress with gzip only, and a browser cannot decode
Brotli or Zstandard itself from a script (no ``DecompressionStream("zstd")``): the runtime's
WebAssembly weighs 3.55 MB as gzip, 2.89 MB as ``zstd -19``.  So ``gamebook build`` writes
``pyodide.asm.wasm.zst`` (and the standard library's archive) in place of the file, and:

- the page (``site/assets/unpack.js``) answers Pyodide's own request for the file with the
  decoded bytes (a small pure-JavaScript decoder, ``fzstd`` from npm, vendored as
  ``assets/vendor/fzstd.js``);
- the service worker precaches the decoded bytes under the file's own name, so a visit it
  controls compiles the runtime from Cache Storage (and Chromium's code cache) with no decoding.

Every ``.zst`` is decoded again here and its bytes compared with the original (SHA-256) before
the original is removed: what a page decodes is exactly what Pyodide shipped.  The page checks
the decoded length and, in a secure context, the same digest (``manifest.json``'s ``packed``).

Without the ``zstandard`` package, or with ``GAMEBOOK_ZSTD=0``, nothing is packed: the files
stay as they are and the pages load them as before (``GAMEBOOK_ZSTD=python_stdlib.zip``
packs that file only: names separated by commas).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

# site-relative path of each file → its content type (served to Pyodide as such: the
# WebAssembly one keeps ``instantiateStreaming`` and the code cache working)
PACKED = {
    "pyodide/pyodide.asm.wasm": "application/wasm",
    "pyodide/python_stdlib.zip": "application/zip",
}
LEVEL = 19  # ``--ultra -22`` gains 0.7 kB on the runtime and takes 25 % longer
DECODER = "assets/vendor/fzstd.js"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def _zstandard() -> ModuleType | None:
    if os.environ.get("GAMEBOOK_ZSTD", "1") == "0":
        return None
    try:
        import zstandard
    except ImportError:
        print(
            "gamebook build : le paquet Python zstandard manque, les fichiers de Pyodide ne sont "
            "pas compressés (pip install zstandard)",
            file=sys.stderr,
        )
        return None
    return zstandard


def pack(out: Path, modules: Path) -> dict[str, dict]:
    """Compress each file of ``PACKED`` found under ``out`` into ``<file>.zst``, check it, remove
    the original, vendor the decoder.  Returns ``manifest.json``'s ``packed``: for each original
    path, ``{"zst", "size", "sha256", "type"}`` (empty when nothing was packed)."""
    zstandard = _zstandard()
    decoder = modules / "fzstd" / "umd" / "index.js"
    for rel in PACKED:  # from an earlier build into the same folder
        (out / f"{rel}.zst").unlink(missing_ok=True)
    only = os.environ.get("GAMEBOOK_ZSTD", "1")
    chosen = [r for r in PACKED if only == "1" or r.rsplit("/", 1)[-1] in only.split(",")]
    if zstandard is None or not decoder.is_file():
        if zstandard is not None:
            print(
                "gamebook build : node_modules/fzstd manque (npm ci), les fichiers de Pyodide ne "
                "sont pas compressés",
                file=sys.stderr,
            )
        return {}
    from ..story.bundles import cache_dir

    vendor = out / DECODER
    vendor.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(decoder, vendor)
    licence = modules / "fzstd" / "LICENSE"
    if licence.is_file():
        shutil.copy2(licence, vendor.with_name("fzstd.LICENSE.txt"))
    packed: dict[str, dict] = {}
    for rel in chosen:
        kind = PACKED[rel]
        source = out / rel
        if not source.is_file():
            continue
        data = source.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        # level 19 takes ~12 s on the runtime: kept in the user's cache by the input's hash
        cached = cache_dir() / "zstd" / f"{digest}-{LEVEL}.zst"
        if cached.is_file():
            blob = cached.read_bytes()
        else:
            blob = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True).compress(data)
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            tmp.write_bytes(blob)
            os.replace(tmp, cached)
        try:
            check(blob, digest, len(data), zstandard)
        except Exception as exc:  # ZstdError too: never shipped, and said with the way out
            from ..files import FileProblem

            raise FileProblem(
                f"« {cached} » : {exc}. Cette entrée du cache est abîmée ou ne vient pas de "
                "gamebook : supprimez-la, puis relancez la publication."
            ) from None
        (out / f"{rel}.zst").write_bytes(blob)
        source.unlink()
        packed[rel] = {"zst": f"{rel}.zst", "size": len(data), "sha256": digest, "type": kind}
    return packed


def check(blob: bytes, digest: str, size: int, zstandard: ModuleType | None = None) -> None:
    """``blob`` decodes to ``size`` bytes whose SHA-256 is ``digest``; raises ``ValueError``."""
    zstandard = zstandard or _zstandard()
    if zstandard is None:  # the check needs the decoder the build compressed with
        raise ModuleNotFoundError(
            "le paquet Python zstandard manque pour vérifier la compression (pip install zstandard)"
        )
    if not blob.startswith(ZSTD_MAGIC):
        raise ValueError("ce fichier compressé n'est pas au format Zstandard")
    decoded = zstandard.ZstdDecompressor().decompress(blob, max_output_size=size)
    if len(decoded) != size or hashlib.sha256(decoded).hexdigest() != digest:
        raise ValueError("le fichier compressé ne redonne pas l'original une fois décompressé")


def unpacked(site: Path, rel: str) -> bytes:
    """The bytes a page gets for ``rel`` (``pyodide/python_stdlib.zip``): the file itself, or
    its ``.zst`` decoded (tests and tools that read the built site)."""
    path = site / rel
    if path.is_file():
        return path.read_bytes()
    import zstandard

    return zstandard.ZstdDecompressor().decompress((site / f"{rel}.zst").read_bytes())
