"""A campaign's whole check as the cache keeps it (``pipeline.story.incremental`` replaces one
file's
part of it): a leaf module, so the cache reads it without importing the incremental engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..findings import Finding


@dataclass
class Entry:
    """What a full check of a campaign found, split so that one file's part can be replaced."""

    slots: list[tuple[str, str, bytes]]  # (path in the content folder, file key, model digest)
    manifest: list[Finding]  # the manifest's own findings
    local: list[list[Finding]]  # each file's own findings (validation), in slot order
    found: list[Finding]  # what the graph and its checks found
    stats: dict
    reads: dict[str, frozenset] = field(default_factory=dict)
    #: the key of the ``State`` of the full check this entry descends from (``None``: none
    #: stored): a structural edit is patched from there (``incremental.attempt_structural``)
    base: str | None = None
    #: the nodes unreachable only behind a broken reference of ``found``, each with that
    #: finding (``fold.behind_of``); ``None``: not known, and the entry then serves only a
    #: campaign without a reference to nothing (its findings are folded with the graph)
    behind: dict[str, Finding] | None = None

    def findings(self) -> list[Finding]:
        out = list(self.manifest)
        for mine in self.local:
            out.extend(mine)
        out.extend(self.found)
        return out


@dataclass
class State:
    """What a full check of a campaign held once its checks ran, kept so that the next check
    after a structural edit patches its graph instead of building it (``incremental.patch``):
    every file's model (in slot order, their records those of the graph), the story graph with
    the memo of its checks, and what building it gave (an ``incremental.Built``)."""

    digests: list[bytes]  # each model's digest, in slot order
    models: list  # each file's ``model.FileModel``, in slot order
    graph: object  # ``graph.StoryGraph`` (its ``memo`` filled by the checks)
    built: object  # ``incremental.Built``
    stats: dict = field(default_factory=dict)  # ``checks.stats`` of that graph
