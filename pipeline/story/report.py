"""Run the whole check over a content folder: the one call the CLI, the site build and the
tests share."""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.entry import Entry, State
from ..content.project import Campaign, complete, load
from ..findings import Finding, has_errors
from ..messages import t
from . import incremental
from .fold import behind_of, fold, fold_behind

if TYPE_CHECKING:
    from . import graph


@dataclass
class Report:
    content_dir: Path
    campaigns: list[Campaign]
    graphs: dict[str, graph.StoryGraph] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: ``check(graphs=False)``: each campaign's statistics (from the cache or computed)
    memo: dict[str, dict] | None = None
    #: the statistics of some of ``graphs`` (campaign id -> ``checks.stats``), computed while
    #: a child process ran the loops check: ``stats`` computes the others
    known: dict[str, dict] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def findings_of(self, campaign_id: str) -> list[Finding]:
        """The findings in one campaign's files."""
        camp = next((c for c in self.campaigns if c.id == campaign_id), None)
        if camp is None:
            return []
        folder = camp.folder.resolve()
        base = self.content_dir.resolve()
        prefix = "" if folder == base else folder.relative_to(base).as_posix() + "/"
        return [f for f in self.findings if f.file.startswith(prefix)]

    def stats(self) -> dict:
        total: dict = {
            "nodes": 0,
            "edges": 0,
            "reachable": 0,
            "unreachable": 0,
            "kinds": {},
            "edge_kinds": {},
        }
        per: dict[str, dict] = {}
        if self.memo is not None:
            each = self.memo
        else:
            from . import checks

            each = {
                cid: self.known[cid] if cid in self.known else checks.stats(sg)
                for cid, sg in self.graphs.items()
            }
        for cid, s in each.items():
            per[cid] = s
            for k in ("nodes", "edges", "reachable", "unreachable"):
                total[k] += s[k]
            for key in ("kinds", "edge_kinds"):
                for kind, n in s[key].items():
                    total[key][kind] = total[key].get(kind, 0) + n
        total["kinds"] = dict(sorted(total["kinds"].items()))
        total["edge_kinds"] = dict(sorted(total["edge_kinds"].items()))
        total["campaigns"] = per
        return total

    def to_json(self) -> dict:
        return {"findings": [f.to_json() for f in self.findings], "stats": self.stats()}


def check(
    content_dir: Path,
    jobs: int | None = None,
    cache: Any = None,
    graphs: bool = True,
    only: Path | None = None,
) -> Report:
    """Load, validate, build the graphs and run every check.  Graph checks run on every
    campaign that loaded, even with schema errors elsewhere: a writer sees all problems at once,
    and reference errors never hide reachability ones.

    ``graphs=False`` (with a cache): only the findings and statistics are wanted, and a
    campaign whose models all have the digests of a previous check's reuses that check's
    findings without loading its models or building its graph (``Report.graphs`` then holds
    only the campaigns checked again).  ``only``: one campaign folder of ``content_dir``
    checked alone (``project.load``)."""
    # The check allocates millions of small, long-lived, acyclic objects: the cyclic garbage
    # collector would rescan them again and again (~23% of the time at 100k nodes).
    enabled = gc.isenabled()
    gc.disable()
    lazy = cache is not None and not graphs
    try:
        campaigns, stray = load(
            content_dir, jobs, cache, lazy=lazy, only=only, meanwhile=_import_checks
        )
        report = Report(content_dir, campaigns, findings=list(stray))
        memo: dict[str, dict] = {}  # the checks' statistics per campaign, kept when lazy
        if lazy:
            report.memo = memo
        report.findings.extend(_same_campaign_id(campaigns))
        for camp in campaigns:
            if lazy:
                hit = cache.get_campaign(camp.digest) if camp.digest is not None else None
                if hit is None and camp.digest is not None:
                    # one real edit: the stored result and the changed files only; else a
                    # structural edit: the stored graph patched where the references changed
                    hit = incremental.attempt(camp, content_dir, cache)
                    if hit is None:
                        patched = incremental.attempt_structural(camp, content_dir, cache)
                        if patched is not None:
                            *hit, report.graphs[camp.id] = patched  # checked again: its graph
                    if hit is not None:
                        cache.put_campaign(camp.digest, *hit)
                if hit is not None:
                    report.findings.extend(hit[0])
                    memo[camp.id] = hit[1]
                    continue
                slots = list(camp.slots)
                same = complete(camp)
                tracker = incremental.Tracker(camp.records, "build")
            # the graph and its checks (and networkx) are imported only when a campaign needs them
            from . import checks, graph

            try:
                sg, found = graph.build(camp)
                report.graphs[camp.id] = sg
                if lazy:
                    # what the build gave and read, and the memo of the checks' per-node
                    # hooks: the next check after a structural edit patches from there
                    built = incremental.Built(found, list(sg.unknown), list(sg.meant), {})
                    tracker.phase("checks")
                    sg.memo = graph.Memo()
                if lazy:
                    found = [*found, *checks.run(sg)]
                else:
                    # the statistics, while a child process may run the loops check
                    def count(cid: str = camp.id, sg: Any = sg) -> None:
                        report.known[cid] = checks.stats(sg)

                    found = [*found, *checks.run(sg, apart=True, meanwhile=count)]
                if lazy:
                    stats = checks.stats(sg)
            finally:
                if lazy:
                    reads = tracker.stop()
                    built.reads = tracker.phases["build"]
            mine = fold([*camp.findings, *found], camp.folder, content_dir, sg)
            mine = fold_behind(mine, sg)
            report.findings.extend(mine)
            if lazy:
                memo[camp.id] = stats
                if same and camp.digest is not None:
                    cache.put_campaign(camp.digest, mine, stats)
                    _remember(camp, content_dir, cache, slots, found, stats, reads, sg, built)
    finally:
        if enabled:
            gc.enable()
    report.findings.sort(key=Finding.sort_key)
    return report


def _import_checks() -> None:
    """Import the graph and its checks (and networkx) while worker processes read the files:
    a load that needs workers is followed by a graph build."""
    from . import checks, graph  # noqa: F401


def _remember(
    camp: Campaign,
    content_dir: Path,
    cache: Any,
    slots: list,
    found: list[Finding],
    stats: dict,
    reads: dict,
    sg: Any = None,
    built: Any = None,
) -> None:
    """Store what a full check of ``camp`` found, for ``incremental.attempt``, and its graph
    and models (``sg``, ``built``), for ``incremental.attempt_structural``."""
    models = [slot.model for slot in slots]
    if camp.manifest is None or any(m is None for m in models):
        return
    if any(s.key is None or s.digest is None for s in slots):
        return
    if incremental.broken(camp.manifest.findings) or any(
        incremental.broken(m.findings) for m in models
    ):
        return
    skey = incremental.structure_key(camp, content_dir, cache, slots)
    if skey is None:
        return
    base = None
    if sg is not None and built is not None and camp.digest is not None:
        # what is reachable and at which level, so that a patch extends it (``_reach``)
        seen, level = incremental.search_tree(sg)
        sg.graph.graph["_reachable"], sg.graph.graph["_level"] = seen, level
        state = State(
            digests=[s.digest for s in slots], models=models, graph=sg, built=built, stats=stats
        )
        if cache.put_state(camp.digest, state):
            base = camp.digest
    if base is None and sg is None and incremental.broken(found):
        return  # a reference to nothing, nothing behind it known: ``attempt`` cannot use it
    entry = Entry(
        slots=[(s.task[1], s.key, s.digest) for s in slots],
        manifest=list(camp.manifest.findings),
        local=[list(m.findings) for m in models],
        found=found,
        stats=stats,
        reads=reads,
        base=base,
        behind=behind_of(sg) if sg is not None else None,
    )
    cache.put_edit(skey, entry)


def _same_campaign_id(campaigns: list[Campaign]) -> list[Finding]:
    """ID001: two campaign folders that declare the same campaign id (both places named)."""
    out = []
    first: dict[str, Campaign] = {}
    for camp in campaigns:
        prev = first.setdefault(camp.id, camp)
        if prev is camp:
            continue
        from . import graph  # noqa: F401  (declares ID001 and its messages)

        pfile, pline, pcol = prev.data_pos
        line, col = camp.field_pos.get("id", camp.data_pos[1:])
        pline, pcol = prev.field_pos.get("id", (pline, pcol))
        out.append(
            Finding(
                "ID001",
                "error",
                t("id.campaign_twice", key=camp.id, file=pfile, line=pline),
                camp.data_pos[0],
                line,
                col,
                f"campaign:{camp.id}",
            )
        )
    return out
