"""Cache keys: a digest of length-prefixed parts.  Standard library only, and a leaf (the cache
and the incremental checker both key their entries with it)."""

from __future__ import annotations

import hashlib

__all__ = ["key"]


def key(*parts: bytes | str) -> str:
    """A cache key from its parts (each length-prefixed: no two lists of parts collide)."""
    return _key(*parts)


def _key(*parts: bytes | str) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()
