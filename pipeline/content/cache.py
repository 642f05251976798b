"""The checker's cache: re-check only what changed, and give exactly what a cold check gives.

Two levels, both keyed by content hashes (never by dates), both under the user's cache
directory (``$XDG_CACHE_HOME/gamebook``, else ``~/.cache/gamebook``; never in the content
folder):

* **per file** — a file's parse and validation (``model.FileModel``), keyed by its bytes, its
  path in the content folder, its game and the checker's own code.  A campaign where one file
  changed re-reads one file; the others come from here.
* **per campaign** — what the checks over one campaign's graph found (folded) and its
  statistics, keyed by the digests of the campaign's file models (``get_sum``: each file's
  model digest is stored beside it, so this key costs no model loading), the raw bytes of the
  files that could not be parsed (``pipeline.story.fold`` reads them), the manifest and the folder.
  A campaign where one file changed but its model did not (a comment, a blank line) reuses
  them.
* **per campaign structure** (``edits``) — the same results split by file, with what the checks
  over the graph read (``pipeline.story.incremental``), keyed by the campaign's folder, manifest and
  file paths only: a real edit that changes only fields the checks never read (a node's text)
  reuses them and re-validates the changed files alone.  Beside a reference to nothing, the
  entry also keeps what lies behind it (``Entry.behind``), so the findings that follow from it
  are folded under it again without the graph.
* **per full check** (``states``) — the campaign's models and story graph as a full check left
  them, keyed like the per-campaign entry: after a structural edit (a choice added, removed or
  re-pointed) the graph is patched from there (``incremental.attempt_structural``) and its
  checks run again on the touched nodes.  Otherwise every model is loaded and the graph and
  its checks rebuilt.
* **per run** — the whole output of ``gamebook check`` for one format, keyed by a fingerprint of
  every content file (path, kind of entry, permissions, bytes) and of the checker's code.  An
  unchanged campaign prints it without importing the checker at all.

Every entry carries a digest of its payload: a truncated, corrupt or foreign file is ignored and
rewritten, never trusted.  The checker's code is part of every key (the size, date and path of
every ``.py`` file under ``pipeline/`` and ``engine/``), so a new version never reads an old
entry.  A cache that cannot be written (read-only home, full disk) only makes the check slower.

Standard library only, and cheap to import: ``gamebook check`` looks here before it imports
anything else.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from .keys import _key

#: bump when the layout of entries changes
FORMAT = b"gamebook-cache-3"
_DIGEST = 32
#: the cache keeps at most this many bytes: the entries used least recently go first
MAX_BYTES = 1024 * 1024 * 1024


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/gamebook`` (``~/.cache/gamebook`` when it is unset or relative)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "gamebook"


_CODE: str | None = None


def code_version() -> str:
    """A digest of the checker's code: every ``.py`` file of ``pipeline`` and ``engine``
    (path, size, modification time), and the Python version."""
    global _CODE
    if _CODE is None:
        h = hashlib.blake2b(FORMAT, digest_size=16)
        h.update(sys.version.encode())
        here = Path(__file__).resolve().parents[1]
        for package in (here, here.parent / "engine"):
            for dirpath, dirnames, filenames in os.walk(package):
                dirnames.sort()
                for name in sorted(filenames):
                    if name.endswith(".py"):
                        path = os.path.join(dirpath, name)
                        st = os.stat(path)
                        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        _CODE = h.hexdigest()
    return _CODE


def model_digest(payload: bytes) -> bytes:
    """The digest of a pickled model: models with the same digest are equal."""
    return hashlib.blake2b(payload, digest_size=_DIGEST).digest()


class Cache:
    """One cache directory.  ``get``/``put`` never raise: a problem means a miss."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else cache_dir()
        self.code = code_version()
        self.hits = 0
        self.misses = 0
        #: campaigns re-checked from their stored result and their changed files only
        #: (``pipeline.story.incremental``)
        self.quick = 0
        #: campaigns re-checked by patching the graph a full check stored
        #: (``incremental.attempt_structural``)
        self.patched = 0

    # ------------------------------------------------------------------ raw entries
    def _path(self, area: str, key: str) -> Path:
        return self.root / area / key[:2] / key

    def _read(self, area: str, key: str) -> bytes | None:
        path = self._path(area, key)
        try:
            data = path.read_bytes()
            os.utime(path)  # used now: pruning removes the entries unused the longest
        except OSError:
            return None
        head = len(FORMAT)
        if len(data) < head + _DIGEST or data[:head] != FORMAT:
            return None
        digest, payload = data[head : head + _DIGEST], data[head + _DIGEST :]
        if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != digest:
            return None
        return payload

    def _write(self, area: str, key: str, payload: bytes) -> None:
        path = self._path(area, key)
        digest = hashlib.blake2b(payload, digest_size=_DIGEST).digest()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(FORMAT + digest + payload)
                os.replace(tmp, path)
            except BaseException:
                with _quiet():
                    os.unlink(tmp)
                raise
        except OSError:
            pass

    def prune(self, max_bytes: int = MAX_BYTES) -> int:
        """Remove the entries used least recently until the cache holds at most
        ``max_bytes``; returns how many were removed.  Never raises."""
        entries = []
        total = 0
        try:
            for dirpath, _, filenames in os.walk(self.root):
                for name in filenames:
                    path = os.path.join(dirpath, name)
                    try:
                        st = os.stat(path)
                    except OSError:
                        continue
                    entries.append((st.st_mtime_ns, st.st_size, path))
                    total += st.st_size
        except OSError:
            return 0
        removed = 0
        for _, size, path in sorted(entries):
            if total <= max_bytes:
                break
            with _quiet():
                os.unlink(path)
                total -= size
                removed += 1
        return removed

    # ------------------------------------------------------------------ per file
    def file_key(self, raw: bytes, rel: str, family: str, allow_campaign: bool) -> str:
        return _key(self.code, rel, family, "1" if allow_campaign else "0", raw)

    def get_file(self, key: str, rel: str) -> Any:
        """The cached ``FileModel`` of ``rel``, or ``None``."""
        payload = self._read("files", key)
        model = None
        if payload is not None:
            try:
                model = pickle.loads(payload)
            except Exception:
                model = None
        from .model import FileModel

        if not isinstance(model, FileModel) or model.file != rel:
            self.misses += 1
            return None
        self.hits += 1
        return model

    def put_file(self, key: str | None, model: Any) -> bytes | None:
        """Remember ``model`` under ``key`` (not when ``key`` is ``None``: a file that could
        not be read); returns the model's digest (see ``get_sum``), ``None`` if it cannot be
        pickled.  The digest of a file that could not be parsed covers its bytes too."""
        try:
            payload = pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return None
        digest = model_digest(payload)
        from ..findings import CAUSES

        if any(f.code in CAUSES for f in getattr(model, "findings", ())):
            # a file that could not be read or parsed: ``pipeline.story.fold`` reads its bytes, so
            # they are part of what its model means
            digest = model_digest(digest + (key or "unread").encode())
        if key is not None:
            self._write("files", key, payload)
            self._write("sums", key, digest)
        return digest

    def get_sum(self, key: str) -> bytes | None:
        """The digest of the model cached under ``key`` (of its pickle: equal digests, equal
        models), without loading the model: a campaign whose files all have the digests of a
        previous check's can reuse that check's findings (``get_campaign``)."""
        payload = self._read("sums", key)
        if payload is None or len(payload) != _DIGEST:
            return None
        return payload

    # ------------------------------------------------------------------ per campaign
    def get_campaign(self, key: str) -> tuple[list, dict] | None:
        """What the checks over one campaign's graph found, folded, and its statistics, for
        the key ``project.Campaign.digest`` (every input of those checks)."""
        payload = self._read("campaigns", key)
        if payload is None:
            return None
        try:
            findings, stats = pickle.loads(payload)
        except Exception:
            return None
        from ..findings import Finding

        if not isinstance(stats, dict) or not isinstance(findings, list):
            return None
        if not all(type(f) is Finding for f in findings):
            return None
        return findings, stats

    def put_campaign(self, key: str, findings: list, stats: dict) -> None:
        try:
            payload = pickle.dumps((findings, stats), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return
        self._write("campaigns", key, payload)

    def get_edit(self, key: str) -> Any:
        """The ``pipeline.content.entry.Entry`` of a campaign's structure, or ``None``."""
        payload = self._read("edits", key)
        if payload is None:
            return None
        try:
            entry = pickle.loads(payload)
        except Exception:
            return None
        from ..findings import Finding
        from .entry import Entry

        if type(entry) is not Entry or not isinstance(entry.stats, dict):
            return None
        lists = [entry.manifest, entry.found, *entry.local]
        if not all(isinstance(x, list) and all(type(f) is Finding for f in x) for x in lists):
            return None
        behind = entry.behind
        if behind is not None:
            if not isinstance(behind, dict):
                return None
            # each cause is one of the entry's own findings (it is counted in its message)
            found = {id(f) for f in entry.found}
            if not all(type(n) is str and id(f) in found for n, f in behind.items()):
                return None
        return entry

    def put_edit(self, key: str, entry: Any) -> None:
        try:
            payload = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return
        self._write("edits", key, payload)

    def get_state(self, key: str) -> Any:
        """The ``pipeline.content.entry.State`` of a full check (its graph and models), or
        ``None``."""
        payload = self._read("states", key)
        if payload is None:
            return None
        try:
            state = pickle.loads(payload)
        except Exception:
            return None
        from .entry import State

        if type(state) is not State or len(state.models) != len(state.digests):
            return None
        return state

    def put_state(self, key: str, state: Any) -> bool:
        """Remember ``state``; whether it could be pickled (a write that fails is a miss
        later, not an error)."""
        try:
            payload = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return False
        self._write("states", key, payload)
        return True

    # ------------------------------------------------------------------ per run
    def run_key(self, content_dir: str, fmt: str, snapshot: list | None = None) -> str | None:
        """The key of a whole check's output, or ``None`` if the folder cannot be listed.
        ``snapshot`` receives what ``unchanged`` compares later."""
        fp = fingerprint(Path(content_dir), snapshot)
        if fp is None:
            return None
        return _key(self.code, "run", os.path.abspath(content_dir), content_dir, fmt, fp)

    def get_run(self, key: str) -> tuple[int, str] | None:
        payload = self._read("runs", key)
        if payload is None:
            return None
        try:
            code, out = pickle.loads(payload)
        except Exception:
            return None
        if not isinstance(code, int) or not isinstance(out, str):
            return None
        return code, out

    def put_run(self, key: str, code: int, out: str) -> None:
        self._write("runs", key, pickle.dumps((code, out), protocol=pickle.HIGHEST_PROTOCOL))


class _quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


def unchanged(content_dir: Path, snapshot: list) -> bool:
    """Whether nothing under ``content_dir`` changed since ``fingerprint`` filled ``snapshot``
    (every entry's kind, size, inode and modification and change times, without reading a
    byte): a check's output is remembered only if its content did not change while it ran."""
    again: list = []
    return fingerprint(content_dir, again, read=False) is not None and again == snapshot


def fingerprint(content_dir: Path, snapshot: list | None = None, read: bool = True) -> bytes | None:
    """A digest of everything under ``content_dir`` a check can depend on: every entry whose
    name ends in ``.yaml``/``.yml`` (hidden ones too: over-inclusive is safe), what kind of
    entry it is, where a link points, its permissions and, for a readable file, its bytes; and
    every folder (a campaign is found by its folder).  ``None`` if the folder cannot be read.
    ``snapshot`` (a list) receives each entry's name and ``stat`` (see ``unchanged``);
    ``read=False`` reads no file (the digest then covers the names and kinds only)."""
    h = hashlib.blake2b(digest_size=20)
    snap = snapshot
    try:
        top = os.lstat(content_dir)
    except OSError:
        return None
    if not stat.S_ISDIR(os.stat(content_dir).st_mode if stat.S_ISLNK(top.st_mode) else top.st_mode):
        return None
    seen: set[tuple[int, int]] = set()

    def walk(folder: str, rel: str) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            h.update(f"unreadable-dir\0{rel}\0{exc.errno}\0".encode())
            return
        for e in entries:
            name = f"{rel}/{e.name}" if rel else e.name
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                h.update(f"gone\0{name}\0".encode())
                continue
            if snap is not None:
                snap.append((name, *_stamp(st)))
            if stat.S_ISLNK(st.st_mode):
                try:
                    target = os.readlink(e.path)
                except OSError:
                    target = "?"
                h.update(f"link\0{name}\0{target}\0".encode("utf-8", "surrogateescape"))
                try:
                    st = os.stat(e.path)  # what the link leads to
                except OSError as exc:
                    h.update(f"dangling\0{exc.errno}\0".encode())
                    continue
                if snap is not None:
                    snap.append((name, target, *_stamp(st)))
            if stat.S_ISDIR(st.st_mode):
                h.update(f"dir\0{name}\0{st.st_mode}\0".encode("utf-8", "surrogateescape"))
                ident = (st.st_dev, st.st_ino)
                if ident in seen:  # a link back up the tree
                    continue
                seen.add(ident)
                walk(e.path, name)
            elif e.name.endswith((".yaml", ".yml")):
                h.update(f"file\0{name}\0{st.st_mode}\0".encode("utf-8", "surrogateescape"))
                if stat.S_ISREG(st.st_mode) and read:
                    try:
                        with open(e.path, "rb") as f:
                            h.update(hashlib.blake2b(f.read(), digest_size=20).digest())
                    except OSError as exc:
                        h.update(f"unreadable\0{exc.errno}\0".encode())

    seen.add((top.st_dev, top.st_ino))
    walk(str(content_dir), "")
    return h.digest()


def _stamp(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_mode, st.st_size, st.st_ino, st.st_dev, st.st_mtime_ns, st.st_ctime_ns)
