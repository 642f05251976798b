"""The runtime's heaviest files shipped as Zstandard (``pipeline.publish.packed``): written, checked
against the original, the original removed; what the page's decoder (npm ``fzstd``, in Node
here) makes of them is the original, byte for byte; a damaged file is refused."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

zstandard = pytest.importorskip("zstandard")

from pipeline.publish import packed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FZSTD = ROOT / "node_modules" / "fzstd" / "umd" / "index.js"


def sample(n: int = 300_000) -> bytes:
    """Bytes that compress like a program: repeated words with some noise."""
    rng = random.Random(17)
    words = [bytes(rng.randrange(256) for _ in range(rng.randrange(2, 12))) for _ in range(400)]
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words)
    return bytes(out[:n])


@pytest.fixture
def modules(tmp_path: Path) -> Path:
    """A ``node_modules`` holding the decoder (the real one when installed)."""
    mods = tmp_path / "node_modules"
    (mods / "fzstd" / "umd").mkdir(parents=True)
    if FZSTD.is_file():
        shutil.copy2(FZSTD, mods / "fzstd" / "umd" / "index.js")
    else:
        (mods / "fzstd" / "umd" / "index.js").write_text("/* decoder */", encoding="utf-8")
    (mods / "fzstd" / "LICENSE").write_text("MIT", encoding="utf-8")
    return mods


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("GAMEBOOK_ZSTD", raising=False)


def site_with_runtime(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "site"
    (out / "pyodide").mkdir(parents=True)
    files = {
        "pyodide/pyodide.asm.wasm": b"\0asm" + sample(),
        "pyodide/python_stdlib.zip": sample(50_000),
    }
    for rel, data in files.items():
        (out / rel).write_bytes(data)
    (out / "pyodide" / "pyodide.mjs").write_text("export {}", encoding="utf-8")
    return out, files


def test_pack_writes_the_zst_files_checked_and_removes_the_originals(tmp_path, modules) -> None:
    out, files = site_with_runtime(tmp_path)
    entries = packed.pack(out, modules)
    assert set(entries) == set(files)
    for rel, data in files.items():
        entry = entries[rel]
        assert entry["zst"] == rel + ".zst"
        assert entry["size"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert not (out / rel).exists()
        blob = (out / entry["zst"]).read_bytes()
        assert blob.startswith(packed.ZSTD_MAGIC) and len(blob) < len(data) / 2
        assert packed.unpacked(out, rel) == data
    assert entries["pyodide/pyodide.asm.wasm"]["type"] == "application/wasm"
    assert (out / packed.DECODER).is_file()
    assert (out / "assets" / "vendor" / "fzstd.LICENSE.txt").read_text() == "MIT"
    assert (out / "pyodide" / "pyodide.mjs").is_file()  # the others untouched
    # a second build takes the compressed bytes from the cache: the same files
    out2, _ = site_with_runtime(tmp_path / "again")
    assert packed.pack(out2, modules) == entries
    for e in entries.values():
        assert (out2 / e["zst"]).read_bytes() == (out / e["zst"]).read_bytes()


def test_a_damaged_compressed_file_is_refused(tmp_path) -> None:
    data = sample(100_000)
    blob = zstandard.ZstdCompressor(level=3).compress(data)
    digest = hashlib.sha256(data).hexdigest()
    packed.check(blob, digest, len(data))
    with pytest.raises(ValueError):
        packed.check(b"PK\3\4" + blob[4:], digest, len(data))  # not Zstandard
    with pytest.raises((ValueError, zstandard.ZstdError)):
        packed.check(blob[: len(blob) // 2], digest, len(data))  # truncated
    other = zstandard.ZstdCompressor(level=3).compress(data[:-1] + b"!")
    with pytest.raises(ValueError):
        packed.check(other, digest, len(data))  # another file


def test_a_poisoned_cache_entry_stops_the_build(tmp_path, modules) -> None:
    out, files = site_with_runtime(tmp_path)
    rel = "pyodide/python_stdlib.zip"
    digest = hashlib.sha256(files[rel]).hexdigest()
    cached = tmp_path / "cache" / "gamebook" / "bundles" / "zstd" / f"{digest}-{packed.LEVEL}.zst"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(zstandard.ZstdCompressor().compress(b"something else"))
    from pipeline.files import FileProblem

    with pytest.raises(FileProblem, match="supprimez-la") as err:
        packed.pack(out, modules)
    assert str(cached) in str(err.value) and "ne redonne pas l'original" in str(err.value)
    assert not (out / f"{rel}.zst").exists()  # never shipped
    cached.write_bytes(b"PK\3\4 pas du Zstandard")
    with pytest.raises(FileProblem, match="pas au format Zstandard"):
        packed.pack(out, modules)


def test_nothing_is_packed_when_switched_off_or_without_the_decoder(
    tmp_path, modules, monkeypatch
) -> None:
    out, files = site_with_runtime(tmp_path)
    for rel in files:  # left by an earlier build into the same folder
        (out / f"{rel}.zst").write_bytes(b"stale")
    monkeypatch.setenv("GAMEBOOK_ZSTD", "0")
    assert packed.pack(out, modules) == {}
    monkeypatch.delenv("GAMEBOOK_ZSTD")
    assert packed.pack(out, tmp_path / "no_modules") == {}
    monkeypatch.setenv("GAMEBOOK_ZSTD", "python_stdlib.zip")
    assert list(packed.pack(out, modules)) == ["pyodide/python_stdlib.zip"]
    files.pop("pyodide/python_stdlib.zip")
    for rel, data in files.items():
        assert (out / rel).read_bytes() == data
        assert not (out / f"{rel}.zst").exists()


NODE_DECODE = """
const fs = require("fs");
const crypto = require("crypto");
const fzstd = require(process.argv[1]);
const out = {};
for (const [rel, e] of Object.entries(JSON.parse(fs.readFileSync(process.argv[2], "utf8")))) {
  const blob = new Uint8Array(fs.readFileSync(process.argv[3] + "/" + e.zst));
  const data = fzstd.decompress(blob, new Uint8Array(e.size));
  out[rel] = { size: data.length, sha256: crypto.createHash("sha256").update(data).digest("hex") };
  let truncated;
  try {
    fzstd.decompress(blob.subarray(0, blob.length >> 1), new Uint8Array(e.size));
    truncated = "decoded";
  } catch (err) {
    truncated = "refused";
  }
  out[rel].truncated = truncated;
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(not FZSTD.is_file() or not shutil.which("node"), reason="needs Node and npm ci")
def test_the_page_decoder_gives_back_the_original_bytes(tmp_path, modules) -> None:
    out, _ = site_with_runtime(tmp_path)
    entries = packed.pack(out, modules)
    (tmp_path / "packed.json").write_text(json.dumps(entries), encoding="utf-8")
    done = subprocess.run(
        ["node", "-e", NODE_DECODE, str(FZSTD), str(tmp_path / "packed.json"), str(out)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    got = json.loads(done.stdout)
    for rel, e in entries.items():
        assert got[rel]["size"] == e["size"] and got[rel]["sha256"] == e["sha256"], rel
        # a truncated file is an error, not short output passed on
        assert got[rel]["truncated"] == "refused", rel
