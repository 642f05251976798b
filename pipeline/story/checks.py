"""Checks over a story graph: plain functions ``StoryGraph -> list[Finding]``, registered in
``CHECKS``.  Each states its cost; all are linear in nodes + edges.

Reachability here is static: it follows every edge whatever its condition (an over-estimate of
what play can reach).  Rules-aware reachability is the simulator's job (``gamebook simulate``).
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Iterable, Mapping

from .. import schema as S
from ..findings import Finding
from ..messages import declare, did_you_mean, of_kinds, t
from .graph import StoryGraph, select


def reachable(sg: StoryGraph) -> set[str]:
    """Nodes reachable from the campaign root (``StoryGraph.reachable_nodes``).  Cost: O(nodes +
    edges), once per graph."""
    return sg.reachable_nodes()


def _finding(sg: StoryGraph, code: str, severity: str, node: str, message: str) -> Finding:
    attrs = sg.graph.nodes[node]
    return Finding(
        code,
        severity,
        message,
        attrs.get("file", ""),
        attrs.get("line", 1),
        attrs.get("column", 1),
        node,
    )


def label(sg: StoryGraph, node: str) -> str:
    """How a node is named in a message (``StoryGraph.label``)."""
    return sg.label(node)


_label = label


def _issue(sg: StoryGraph, issue: S.Issue) -> Finding:
    """A game's own finding, placed at the value it is about, its node or the campaign field it
    is about."""
    if issue.at is not None:
        file, line, col = issue.at
        return Finding(issue.code, issue.severity, issue.message, file, line, col, issue.node)
    if issue.node is not None and issue.node in sg.graph:
        return _finding(sg, issue.code, issue.severity, issue.node, issue.message)
    file, line, col = sg.campaign.data_pos
    if issue.field:
        line, col = sg.campaign.field_pos.get(issue.field, (line, col))
    finding = Finding(issue.code, issue.severity, issue.message, file, line, col, sg.root)
    sg.whole.append(finding)
    value = sg.campaign.data.get(issue.field) if issue.field else None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        # about a campaign field that names a node: a consequence if a broken file defined it
        sg.unknown.append((finding, str(value)))
    return finding


def check_roots(sg: StoryGraph) -> list[Finding]:
    """The campaign names a start that exists, and every other node its fields name (the
    grand final) exists; a start missing or naming nothing is noted as ``sg.no_start``.
    Cost: O(1)."""
    camp, schema = sg.campaign, sg.schema
    sg.no_start = None
    file, line0, col0 = camp.data_pos
    out = []
    fields = {}
    if schema.start_field and schema.start_node:
        fields[schema.start_field] = schema.start_node
    fields.update(schema.required_nodes)
    for field, to_node in fields.items():
        line, col = camp.field_pos.get(field, (line0, col0))
        value = camp.data.get(field)
        if value is None:
            if field == schema.start_field:
                finding = Finding(
                    "CAMP001",
                    "error",
                    t("camp.no_start", id=camp.id, what=schema.start_fr),
                    file,
                    line,
                    col,
                    sg.root,
                )
                out.append(finding)
                sg.no_start = finding
            continue
        node = to_node(value)
        if node not in sg.graph:
            finding = Finding(
                "REF001",
                "error",
                t("ref.start", field=field, what=_label(sg, node)),
                file,
                line,
                col,
                sg.root,
            )
            out.append(finding)
            sg.unknown.append((finding, node.partition(":")[2]))
            if field == schema.start_field:
                sg.no_start = finding
    return out


GRAPH001 = declare(
    "GRAPH001",
    "error",
    about="inatteignable depuis le départ de la campagne",
    fix="Reliez cet élément à du contenu atteignable depuis le départ, ou supprimez-le.",
    messages={
        "graph.unreachable": (
            "inatteignable : {node}. On n'y arrive que depuis {parents}, que rien n'atteint "
            "depuis le départ de la campagne. Reliez cet élément à du contenu atteignable ou "
            "supprimez-le."
        ),
        "graph.unreachable_listed": (
            "inatteignable : {node}. Il est cité ({where}) mais aucun chemin depuis le départ de "
            "la campagne n'y mène{listed}."
        ),
    },
)


GRAPH003 = declare(
    "GRAPH003",
    "warning",
    about="défini mais jamais référencé",
    fix="Faites-y référence depuis le contenu, ou supprimez-le.",
    messages={
        "graph.orphan": (
            "jamais référencé : {node}. Rien n'y renvoie : les joueurs n'y arriveront donc "
            "jamais. Faites-y référence (un effet, un choix, une enveloppe, une flèche…) ou "
            "supprimez cet élément."
        ),
    },
)


def check_unreachable(sg: StoryGraph) -> list[Finding]:
    """GRAPH001 / GRAPH003: story nodes no path reaches from the roots.  A node that something
    references is unreachable (error: the path to it is broken); a node nothing references is
    reported as never referenced (warning: likely a draft not wired in yet).
    Cost: O(nodes + edges)."""
    seen = reachable(sg)
    g = sg.graph
    story = {k.name for k in S.KINDS[sg.campaign.family].values() if k.story}
    # a record with a mistake of its own (its zone left out) is not also « never referenced »:
    # the mistake is the cause; the warning comes back if still true once it is fixed
    faulty = {f.node for f in sg.campaign.findings if f.severity == "error" and f.node}
    out = []
    pred = g._pred
    for node, attrs in g._node.items():
        if node in seen or attrs.get("kind") not in story:
            continue
        parents = list(pred[node])
        if parents:
            shown = ", ".join(_label(sg, p) for p in sorted(parents)[:3])
            message = t("graph.unreachable", node=_label(sg, node), parents=shown)
        elif node in sg.mentioned:
            where = sg.mentioned[node]
            listed = f" ({sg.schema.listed_fr})" if sg.schema.listed_fr else ""
            message = t(
                "graph.unreachable_listed", node=_label(sg, node), where=where, listed=listed
            )
        elif node in faulty:
            continue
        else:
            orphan = t("graph.orphan", node=_label(sg, node))
            out.append(_finding(sg, "GRAPH003", "warning", node, orphan))
            continue
        out.append(_finding(sg, "GRAPH001", "error", node, message))
    return out


GRAPH002 = declare(
    "GRAPH002",
    "error",
    about="impasse : aucune suite et pas marqué comme une fin",
    fix="Ajoutez une suite (choix, effet, action) ou marquez l'élément comme une fin.",
    messages={
        "graph.dead_end": "impasse : {node} n'offre aucune suite. Pour corriger : {fix}.",
    },
)


def check_dead_ends(sg: StoryGraph) -> list[Finding]:
    """GRAPH002: a node that is not final and offers no way on.  Cost: O(nodes + edges)."""
    out: list[Finding] = []
    schema = sg.schema
    if schema.way_on is None:
        return out
    kinds = S.KINDS[sg.campaign.family]
    records, way_on = sg.records, schema.way_on
    dead = select(
        sg,
        "dead_ends",
        lambda n: kinds[records[n].kind].dead_end_fix,
        lambda view, n: not way_on(view, n, records[n].kind, records[n].data),
    )
    for node, rec in records.items():
        fix = kinds[rec.kind].dead_end_fix
        if node in dead:
            out.append(
                _finding(
                    sg,
                    "GRAPH002",
                    "error",
                    node,
                    t("graph.dead_end", node=_label(sg, node), fix=fix),
                )
            )
    return out


def _granted(sg: StoryGraph) -> dict[str, set[str]]:
    seen = reachable(sg)
    granted: dict[str, set[str]] = {g.name: set() for g in sg.schema.granted}
    keyed = {g.name for g in sg.schema.granted if g.keyed}
    for grant in sg.campaign.grants:
        if grant.source in seen:
            granted.setdefault(grant.what, set()).add(grant.value)
            if grant.what in keyed:
                granted[grant.what].add(grant.value.split("=")[0] + "=*")
    if sg.schema.setup_grants is not None:
        for what, values in sg.schema.setup_grants(sg.view()).items():
            granted.setdefault(what, set()).update(values)
    return granted


COND001 = declare(
    "COND001",
    "error",
    about="condition qui ne peut jamais être vraie",
    fix="Ajoutez l'effet qui rend la condition vraie, ou corrigez la condition.",
    messages={
        "cond.never": "{path} : cette condition ne peut jamais être vraie : {why}",
    },
)


def check_conditions(sg: StoryGraph) -> list[Finding]:
    """COND001: a condition, in reachable content, that nothing reachable can make true.
    Cost: O(nodes + edges + conditions)."""
    seen = reachable(sg)
    granted = _granted(sg)
    rules = sg.campaign.data.get("rules") or {}
    out = []
    for use in sg.campaign.conditions:
        if use.source not in seen and use.source != "campaign:":
            continue
        why = _never(sg, use.atom, use.value, granted, seen, rules)
        if why:
            out.append(
                Finding(
                    "COND001",
                    "error",
                    t("cond.never", path=use.path, why=why),
                    use.file,
                    use.line,
                    use.column,
                    use.source,
                )
            )
    return out


def _never(
    sg: StoryGraph,
    atom: str,
    value: object,
    granted: dict[str, set[str]],
    seen: set[str],
    rules: dict,
) -> str | None:
    """Why a condition atom can never hold, or ``None`` if it might."""
    own = next((g for g in sg.schema.granted if g.name == atom), None)
    if own is not None and not own.keyed and value not in granted[atom]:
        return t(f"cond.{atom}", value=value)
    if own is not None and own.keyed:
        q = dict(value)  # type: ignore[call-overload]
        if "id" not in q or "state" not in q:
            return None  # already reported as a missing field
        want = f"{q['id']}={q['state']}" if q["state"] != own.any_state else f"{q['id']}=*"
        if want not in granted[atom]:
            return t(f"cond.{atom}", id=q["id"], state=q["state"])
    if own is None and atom != "any" and sg.schema.never is not None:
        return sg.schema.never(sg.view(), atom, value, rules)
    if atom == "any":
        reasons = []
        for alt in value:  # type: ignore[attr-defined]
            name, val = alt
            why = _never(sg, name, val, granted, seen, rules)
            if why is None:
                return None
            reasons.append(why)
        return t("cond.any", reasons=" / ".join(reasons))
    return None


REF002 = declare(
    "REF002",
    "error",
    about="mot d'un vocabulaire fermé (une zone…) que rien ne déclare",
    fix="Corrigez l'orthographe, ou déclarez cette valeur là où elle se déclare.",
    messages={
        "ref.vocab": (
            "{path} : {what} « {value} » ne fait pas partie des valeurs déclarées.{hint} Valeurs "
            "déclarées ({where}) : {known}. Corrigez l'orthographe, ou déclarez cette valeur."
        ),
    },
)


def check_vocabularies(sg: StoryGraph) -> list[Finding]:
    """REF002: a word of a closed vocabulary (a zone…) that no record declares, checked like an
    id, with a suggestion among the declared words of the same vocabulary only.
    Cost: O(words)."""
    declared: dict[str, set[str]] = {}
    for w in sg.campaign.words:
        if w.declares:
            declared.setdefault(w.vocab, set()).add(w.value)
    out = []
    for w in sg.campaign.words:
        if w.declares or w.value in declared.get(w.vocab, ()) or w.value in w.also:
            continue
        known = sorted(declared.get(w.vocab, ()))
        hint = did_you_mean(w.value, known + [a for a in w.also if a not in known])
        listed = ", ".join(known[:20]) + (" …" if len(known) > 20 else "") if known else ""
        if w.also:
            listed = t(
                "ref.vocab_also", known=listed or t("ref.vocab_none"), also=", ".join(w.also)
            )
        message = t(
            "ref.vocab",
            path=w.path,
            what=w.vocab_fr or w.vocab,
            value=w.value,
            hint=hint,
            known=listed or t("ref.vocab_none"),
            where=_declared_in(sg.campaign.family, w.vocab),
        )
        out.append(Finding("REF002", "error", message, w.file, w.line, w.column, w.source))
    return out


def _declared_in(family: str, vocab: str) -> str:
    """Where a vocabulary's words are declared: « par le champ « zone » d'une carte … »."""
    places = []
    for name, fld in S.SCHEMAS[family].campaign_fields.items():
        if _declares(fld.spec, vocab):
            places.append(t("ref.vocab_where_campaign", field=name))
    for kind in S.KINDS[family].values():
        for name, fld in kind.fields.items():
            if _declares(fld.spec, vocab):
                places.append(t("ref.vocab_where", field=name, of_kinds=of_kinds((kind.name,))))
    return " ; ".join(places)


def _declares(spec: S.Spec, vocab: str) -> bool:
    while isinstance(spec, S.ListOf):
        spec = spec.item
    return isinstance(spec, S.Str) and spec.vocab == vocab and spec.declares


def _trim(
    nodes: set[str], succ: Mapping[str, Iterable[str]], pred: Mapping[str, Iterable[str]]
) -> set[str]:
    """``nodes`` without those that cannot be on a cycle among ``nodes``: repeatedly drop the
    nodes none of whose successors is left (a story is mostly a DAG: this drops nearly all, in
    one pass over the edges, before the costlier components search)."""
    out: dict[str, int] = {}
    for n in nodes:
        out[n] = sum(1 for m in succ[n] if m in nodes)
    queue = [n for n, d in out.items() if d == 0]
    dead = set(queue)
    while queue:
        n = queue.pop()
        for p in pred[n]:
            if p in out and p not in dead:
                out[p] -= 1
                if out[p] == 0:
                    dead.add(p)
                    queue.append(p)
    return nodes - dead


def _cycles(nodes: set[str], succ: dict) -> list[list[str]]:
    """The strongly connected components among ``nodes`` (edges from ``succ``) that hold a
    cycle (two nodes or more, or one that leads to itself): Tarjan's algorithm, iterative (no
    recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, list[str], int]] = [(start, [], -1)]
        while work:
            node, nexts, i = work.pop()
            if i < 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on.add(node)
                nexts = [m for m in succ[node] if m in nodes]
                i = 0
            pushed = False
            while i < len(nexts):
                m = nexts[i]
                i += 1
                if m not in index:
                    work.append((node, nexts, i))
                    work.append((m, [], -1))
                    pushed = True
                    break
                if m in on and index[m] < low[node]:
                    low[node] = index[m]
            if pushed:
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1 or node in succ[node]:
                    out.append(comp)
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
    return out


GRAPH004 = declare(
    "GRAPH004",
    "error",
    about="boucle sans issue : des éléments qui ne mènent qu'entre eux",
    fix="Ajoutez un choix qui sort de la boucle, ou une fin à l'un de ses éléments.",
    messages={
        "graph.loop": (
            "boucle sans issue : {nodes} se renvoient les uns aux autres sans jamais en sortir "
            "(voir aussi {where}). Aucun ne termine ni ne mène ailleurs : les joueurs y "
            "tourneraient sans fin. Pour corriger : donnez à l'un d'eux un choix qui mène hors "
            "de la boucle, ou faites-en une fin."
        ),
        "graph.loop_one": (
            "boucle sans issue : {nodes} ne renvoie qu'à lui-même. Pour corriger : donnez-lui "
            "un choix qui mène ailleurs, ou faites-en une fin."
        ),
    },
)


def _safe(sg: StoryGraph, must: set[str], seeds: set[str], pred: dict) -> set[str]:
    """The records of ``must`` that lead, through such records, to one of ``seeds``: a
    backward search.  With a memo (the workspace), each node found keeps the successor it was
    found through: after a patch that lost no seed and removed none of those edges, every node
    found before still leads to a seed, and the search only grows from the new seeds and the
    touched nodes that now lead into what was found.  Cost: O(nodes + edges), or O(what is
    added) reused."""
    memo = sg.memo
    old = memo.old.get("safe") if memo is not None else None
    removed = memo.removed if memo is not None else None
    if (
        old is not None
        and removed is not None
        and old[1] <= seeds
        and not any(old[2].get(s) == t for s, t in removed)
    ):
        safe = set(old[0])
        why = dict(old[2])
        queue = [n for n in seeds if n not in safe]
        safe.update(queue)
        succ = sg.graph._succ
        for n in memo.dirty if memo is not None else ():
            if n in must and n not in safe:
                through = next((m for m in succ.get(n, ()) if m in safe), None)
                if through is not None:
                    safe.add(n)
                    why[n] = through
                    queue.append(n)
    else:
        safe = set(seeds)
        why = {}
        queue = list(safe)
    while queue:
        n = queue.pop()
        for p in pred[n]:
            if p in must and p not in safe:
                safe.add(p)
                why[p] = n
                queue.append(p)
    if memo is not None:
        memo.new["safe"] = (frozenset(safe), frozenset(seeds), why)
    return safe


def check_loops(sg: StoryGraph) -> list[Finding]:
    """GRAPH004: records that must offer a way on (kinds with ``dead_end_fix``) and lead only
    to one another, none of which ends or leaves: play enters and never gets out.  The game
    says what leaves a loop (``ContentSchema.leaves_loop``, which must count an edge to such a
    record outside the loop as leaving it).  Cost: O(nodes + edges): records that lead to no
    cycle are trimmed, a components search runs on the rest, and the game's hook is asked only
    about the loops no edge leaves."""
    leaves = sg.schema.leaves_loop
    if leaves is None:
        return []
    kinds = S.KINDS[sg.campaign.family]
    records = sg.records
    fixed = {name for name, kind in kinds.items() if kind.dead_end_fix}
    must = {n for n, rec in records.items() if rec.kind in fixed}
    succ, pred = sg.graph._succ, sg.graph._pred
    view = sg.view()
    out = []
    # records that reach one leading out of them all are in no loop without a way out: a
    # backward search from the records the game says leave (asked only of those with an
    # edge to another kind of record), then components among the rest (usually none); every
    # loop found is still put to the game as a whole
    everything = frozenset(must)
    seeds = select(
        sg,
        "leaves",
        must.__contains__,
        lambda v, n: (
            not must.issuperset(succ[n])
            and leaves(v, n, records[n].kind, records[n].data, everything)
        ),
    )
    safe = _safe(sg, must, seeds, pred)
    for comp in _cycles(_trim(must - safe, succ, pred), succ):
        loop = frozenset(comp)
        # an edge to another such record outside the loop leaves it (the hook's contract):
        # only a closed loop needs the game's opinion
        if any(m in must and m not in loop for n in loop for m in succ[n]):
            continue
        if any(leaves(view, n, records[n].kind, records[n].data, loop) for n in loop):
            continue
        ordered = sorted(loop, key=lambda n: (sg.records[n].file, sg.records[n].line))
        first = ordered[0]
        names = [_label(sg, n) for n in ordered[:6]]
        if len(ordered) > 6:
            names.append(t("graph.loop_more", n=len(ordered) - 6))
        shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " et " + names[-1]
        others = ", ".join(f"{sg.records[n].file} ligne {sg.records[n].line}" for n in ordered[1:4])
        if len(ordered) == 1:
            message = t("graph.loop_one", nodes=shown)
        else:
            message = t("graph.loop", nodes=shown, where=others)
        out.append(_finding(sg, "GRAPH004", "error", first, message))
    return out


def check_game(sg: StoryGraph) -> list[Finding]:
    """The checks only one game needs (``ContentSchema.checks``: a finale's requirements, say).
    Cost: stated by each game."""
    view = sg.view()
    return [_issue(sg, issue) for check in sg.schema.checks for issue in check(view)]


def check_game_deep(sg: StoryGraph) -> list[Finding]:
    """The slow checks of one game (``ContentSchema.deep_checks``), for ``check --deep``."""
    view = sg.view()
    return [_issue(sg, issue) for check in sg.schema.deep_checks for issue in check(view)]


CHECKS: list[Callable[[StoryGraph], list[Finding]]] = [
    check_roots,
    check_unreachable,
    check_dead_ends,
    check_loops,
    check_vocabularies,
    check_conditions,
    check_game,
]


#: the checks ``run(apart=True)`` gives to a child process on a large graph, beside the others
#: (at 100k nodes the loops search costs about what all the others together cost)
APART: tuple[Callable[[StoryGraph], list[Finding]], ...] = (check_loops,)
#: below this many records, forking costs more than the checks it would share
APART_THRESHOLD = 20_000


def run(
    sg: StoryGraph,
    between: Callable[[], None] | None = None,
    apart: bool = False,
    meanwhile: Callable[[], None] | None = None,
) -> list[Finding]:
    """Every check over ``sg``; ``between`` is called before each one (the language server
    stops a check whose texts a newer edit replaced by raising there).

    ``apart``: on a large graph without a memo, the checks of ``APART`` run in a forked child
    process while this one runs the others (where ``fork`` exists and this process has no
    other thread); the findings are the same, in the same order.  ``meanwhile``: called once
    this process's checks are done, while the child may still run (without a child: after
    every check), for the caller's own work over the graph."""
    child = None
    if apart and between is None and sg.memo is None and len(sg.records) >= APART_THRESHOLD:
        child = _fork(sg)
    each: list[list[Finding] | None] = []
    for check in CHECKS:
        if child is not None and check in APART:
            each.append(None)  # the child's
            continue
        if between is not None:
            between()
        each.append(check(sg))
    if meanwhile is not None:
        meanwhile()
    theirs = iter(child() if child is not None else ())
    out: list[Finding] = []
    for found in each:
        out.extend(found if found is not None else next(theirs))
    return out


def _fork(sg: StoryGraph) -> Callable[[], list[list[Finding]]] | None:
    """Start the checks of ``APART`` over ``sg`` in a forked child process (it sees the graph
    as it is now, without copying it); returns what waits for their findings, one list per
    check, or ``None`` when this process cannot fork safely.  A child that fails or is killed
    is not trusted: its checks then run here."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return None
    try:
        read, write = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the child: compute, write, leave without running any of the parent's exits
        code = 1
        try:
            os.close(read)
            payload = pickle.dumps([check(sg) for check in APART], pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as f:
                f.write(payload)
            code = 0
        finally:
            os._exit(code)
    os.close(write)

    def wait() -> list[list[Finding]]:
        with os.fdopen(read, "rb") as f:
            payload = f.read()
        _, status = os.waitpid(pid, 0)
        if status == 0:
            try:
                found = pickle.loads(payload)
            except Exception:
                found = None
            if isinstance(found, list) and len(found) == len(APART):
                return found
        return [check(sg) for check in APART]

    return wait


def stats(sg: StoryGraph) -> dict:
    seen = reachable(sg)
    g = sg.graph
    kinds: dict[str, int] = {}
    for attrs in g._node.values():  # what ``nodes(data="kind")`` gives, without its views
        kind = attrs.get("kind")
        kinds[kind] = kinds.get(kind, 0) + 1
    specs = S.KINDS[sg.campaign.family]
    story = {kind for kind in kinds if (spec := specs.get(kind)) is not None and spec.story}
    edge_kinds: dict[str, int] = {}
    edges = 0
    for out in g._succ.values():
        edges += len(out)
        for data in out.values():
            kind = data.get("kind")
            edge_kinds[kind] = edge_kinds.get(kind, 0) + 1
    unreachable = sum(
        1 for n, attrs in g._node.items() if attrs.get("kind") in story and n not in seen
    )
    return {
        "nodes": len(g._node),
        "edges": edges,
        "reachable": len(seen),
        "unreachable": unreachable,
        "kinds": dict(sorted(kinds.items())),
        "edge_kinds": dict(sorted(edge_kinds.items())),
    }
