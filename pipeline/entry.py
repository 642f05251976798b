"""A campaign's whole check as the cache keeps it (``pipeline.incremental`` replaces one file's
part of it): a leaf module, so the cache reads it without importing the incremental engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from .findings import Finding


@dataclass
class Entry:
    """What a full check of a campaign found, split so that one file's part can be replaced."""

    slots: list[tuple[str, str, bytes]]  # (path in the content folder, file key, model digest)
    manifest: list[Finding]  # the manifest's own findings
    local: list[list[Finding]]  # each file's own findings (validation), in slot order
    found: list[Finding]  # what the graph and its checks found
    stats: dict
    reads: dict[str, frozenset] = field(default_factory=dict)

    def findings(self) -> list[Finding]:
        out = list(self.manifest)
        for mine in self.local:
            out.extend(mine)
        out.extend(self.found)
        return out
