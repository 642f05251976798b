"""Validate loaded YAML against ``pipeline.schema`` and produce typed records.

One file in, plain values out: ``FileModel`` holds the file's records (one ``Record`` per node,
its data normalised), the references it makes (``Reference``, each with its position and the
condition that guards it), what it grants (flags, quest states, objectives) and the conditions
it tests.  Validation never stops at the first problem: every finding of the file is collected.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from . import schema as S
from .findings import Finding
from .load import Pos, YList, YMap

_BAD = object()  # a value that failed validation (a finding was recorded)


@dataclass(slots=True)
class Record:
    kind: str
    key: str
    data: dict[str, Any]
    file: str
    line: int
    column: int
    parent: str | None = None

    @property
    def node(self) -> str:
        return f"{self.kind}:{self.key}"


@dataclass(slots=True)
class Reference:
    source: str  # node id
    kinds: tuple[str, ...]
    key: str  # normalised target key
    edge: str | None
    file: str
    line: int
    column: int
    path: str
    condition: tuple | None = None
    context: str | None = None  # e.g. "fight/success"


@dataclass(slots=True)
class Grant:
    source: str
    what: str  # "flag" | "quest" | "objective"
    value: str


@dataclass(slots=True)
class ConditionUse:
    source: str
    atom: str
    value: Any
    file: str
    line: int
    column: int
    path: str


@dataclass(slots=True)
class FileModel:
    file: str
    records: list[Record] = field(default_factory=list)
    refs: list[Reference] = field(default_factory=list)
    grants: list[Grant] = field(default_factory=list)
    conditions: list[ConditionUse] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    campaign: dict[str, Any] | None = None
    campaign_pos: tuple[int, int] = (1, 1)


def normalise_key(id_format: str, value: Any) -> str | None:
    """The canonical key of an id or a reference, or ``None`` if it cannot be one."""
    if isinstance(value, bool) or value is None:
        return None
    if id_format == "envelope":
        text = str(value).strip()
        return f"{int(text):02d}" if text.isdigit() else None
    if id_format in ("int", "adventure"):
        text = str(value).strip()
        return str(int(text)) if text.isdigit() else None
    if id_format == "letter":
        text = str(value).strip().upper()
        return text or None
    if isinstance(value, (str, int)):
        text = str(value).strip()
        return text if text and "/" not in text and ":" not in text else None
    return None


def _kind_of(family: str, name: str) -> S.Kind:
    return S.KINDS[family][name]


@dataclass(slots=True)
class _Ctx:
    node: str
    condition: tuple | None = None
    context: str | None = None


class Validator:
    def __init__(self, family: str, rel: str) -> None:
        self.family = family
        self.out = FileModel(rel)
        self.rel = rel

    # ------------------------------------------------------------------ reporting
    def _find(self, code: str, message: str, pos: Pos, node: str | None = None) -> None:
        from .findings import CODES

        self.out.findings.append(Finding(code, CODES[code][0], message, self.rel, pos[0], pos[1], node))

    # ------------------------------------------------------------------ entry points
    def file(self, doc: Any, allow_campaign: bool) -> FileModel:
        if doc is None:
            return self.out
        if not isinstance(doc, YMap):
            pos = getattr(doc, "pos", (1, 1))
            self._find(
                "CAMP002",
                "a content file must be a mapping of sections (for example 'paragraphs:' followed "
                "by a list of paragraphs); this file starts with a "
                f"{_type_name(doc)}.",
                pos,
            )
            return self.out
        sections = S.SECTIONS[self.family]
        for name, value in doc.items():
            vpos, kpos = doc.kpos[name], doc.keypos[name]
            if name == "campaign":
                if not allow_campaign:
                    self._find(
                        "CAMP002",
                        "the 'campaign' section belongs in campaign.yaml at the campaign's root; "
                        "move it there.",
                        kpos,
                    )
                    continue
                self.out.campaign = self.value(S.CAMPAIGN, value, vpos, "campaign", _Ctx("campaign:"))
                self.out.campaign_pos = kpos
                continue
            kind = sections.get(name)
            if kind is None:
                hint = _did_you_mean(name, [*sections, "campaign"])
                self._find(
                    "CAMP002",
                    f"unknown section '{name}' for a {self.family} campaign.{hint} Known sections: "
                    + ", ".join(sorted(sections))
                    + ".",
                    kpos,
                )
                continue
            if kind.single and isinstance(value, YMap):
                self.record(kind, value, vpos, name)
                continue
            if not isinstance(value, YList):
                self._find(
                    "FIELD002",
                    f"section '{name}' must be a list of {kind.name} records (each starting with "
                    f"'- '), not a {_type_name(value)}.",
                    vpos,
                )
                continue
            for i, item in enumerate(value):
                self.record(kind, item, value.ipos[i], f"{name}[{i}]")
        return self.out

    def record(
        self,
        kind: S.Kind,
        raw: Any,
        pos: Pos,
        path: str,
        parent: Record | None = None,
        key_override: str | None = None,
    ) -> Record | None:
        if not isinstance(raw, YMap):
            self._find(
                "FIELD002",
                f"{path}: a {kind.name} must be a mapping of fields (key: value), not a "
                f"{_type_name(raw)}.",
                pos,
            )
            return None
        key = key_override
        if key is None:
            key = self._record_key(kind, raw, pos, path)
            if key is None:
                return None
            if parent is not None and _sub_prefixed(self.family, kind.name):
                key = f"{parent.key}/{key}"
        idpos = raw.kpos.get("id", raw.kpos.get("number", pos))
        rec = Record(kind.name, key, {}, self.rel, idpos[0], idpos[1], parent.node if parent else None)
        ctx = _Ctx(rec.node)
        rec.data = self.fields(kind.fields, kind.one_of, raw, pos, path, ctx, rec)
        self.out.records.append(rec)
        return rec

    def _record_key(self, kind: S.Kind, raw: YMap, pos: Pos, path: str) -> str | None:
        if kind.id_format == "adventure":
            number = raw.get("number")
            num = normalise_key("int", number)
            if num is None or not (1 <= int(num) <= 999):
                where = raw.kpos.get("number", pos)
                if "number" not in raw:
                    self._find("FIELD001", f"{path}: missing required field 'number' (the card's "
                               "number, 1 to 999).", pos)
                else:
                    self._find("FIELD002", f"{path}.number: expected a card number from 1 to 999, "
                               f"got {number!r}.", where)
                return None
            version = raw.get("version", "green")
            key = f"{num}/{version}"
            if raw.get("scenario") is not None:
                key += f"@{raw.get('scenario')}"
            if raw.get("linked_card") is not None:
                key += f"+{raw.get('linked_card')}"
            return key
        if "id" not in raw:
            if kind.single:
                return str(kind.fields["id"].default)
            self._find(
                "FIELD001",
                f"{path}: missing required field 'id'. Every {kind.name} needs a unique id.",
                pos,
            )
            return None
        key = normalise_key(kind.id_format, raw["id"])
        if key is None:
            expected = {
                "envelope": "an envelope number such as 00 or 12",
                "int": "a whole number",
                "letter": "a letter",
            }.get(kind.id_format, "a word or number without '/' or ':'")
            self._find(
                "FIELD002",
                f"{path}.id: expected {expected}, got {raw['id']!r}.",
                raw.kpos["id"],
            )
            return None
        return key

    # ------------------------------------------------------------------ fields
    def fields(
        self,
        specs: dict[str, S.Field],
        one_of: tuple[str, ...],
        raw: YMap,
        pos: Pos,
        path: str,
        ctx: _Ctx,
        rec: Record | None = None,
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in raw:
            if name not in specs:
                hint = _did_you_mean(name, list(specs))
                self._find(
                    "FIELD003",
                    f"{path}: unknown field '{name}' is ignored.{hint}",
                    raw.keypos[name],
                    ctx.node,
                )
        # 'requires' guards every reference made by the rest of the record
        inner = ctx
        if "requires" in specs and "requires" in raw:
            cond = self.value(
                specs["requires"].spec, raw["requires"], raw.kpos["requires"], f"{path}.requires", ctx
            )
            if cond is not _BAD:
                out["requires"] = cond
                inner = _Ctx(ctx.node, _and(ctx.condition, cond), ctx.context)
        if "verb" in raw and isinstance(raw.get("verb"), str):
            inner = _Ctx(inner.node, inner.condition, raw["verb"])
        for name, fld in specs.items():
            if name == "requires":
                continue
            if name not in raw or raw[name] is None:
                if fld.required and not (rec is not None and name in ("id", "number")):
                    self._find(
                        "FIELD001",
                        f"{path}: missing required field '{name}' ({fld.fr}).",
                        pos,
                        ctx.node,
                    )
                elif fld.default is not None:
                    out[name] = fld.default
                continue
            vpos = raw.kpos[name]
            if isinstance(fld.spec, S.SubNodes):
                self._subnodes(fld.spec, name, raw[name], vpos, f"{path}.{name}", rec)
                continue
            sub = inner
            if name in ("success", "failure"):
                sub = _Ctx(inner.node, inner.condition, f"{inner.context or 'action'}/{name}")
            value = self.value(fld.spec, raw[name], vpos, f"{path}.{name}", sub)
            if value is not _BAD:
                out[name] = value
        if one_of and not any(raw.get(k) is not None for k in one_of):
            self._find(
                "FIELD001",
                f"{path}: needs one of the fields " + " or ".join(f"'{k}'" for k in one_of) + ".",
                pos,
                ctx.node,
            )
        return out

    def _subnodes(self, spec: S.SubNodes, name: str, raw: Any, pos: Pos, path: str, parent: Record | None) -> None:
        if parent is None:  # pragma: no cover - schema guarantees sub-nodes live in records
            return
        kind = _kind_of(self.family, spec.kind)
        children: list[Record | None] = []
        if not spec.many:
            children.append(self.record(kind, raw, pos, path, parent, key_override=f"{parent.key}/{name}"))
        elif not isinstance(raw, YList):
            self._find("FIELD002", f"{path}: expected a list of {kind.name} records, not a "
                       f"{_type_name(raw)}.", pos, parent.node)
        else:
            for i, item in enumerate(raw):
                children.append(self.record(kind, item, raw.ipos[i], f"{path}[{i}]", parent))
        for child in children:
            if child is not None and spec.edge:
                self.out.refs.append(
                    Reference(parent.node, (kind.name,), child.key, spec.edge, self.rel, child.line,
                              child.column, path)
                )

    def value(self, spec: S.Spec, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if isinstance(spec, S.Str):
            if isinstance(v, str) and v.strip():
                return v
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return str(v)
            return self._bad(path, "some text", v, pos, ctx)
        if isinstance(spec, S.Int):
            n = v
            if isinstance(v, str) and v.isdigit():
                n = int(v)
            if not isinstance(n, int) or isinstance(n, bool):
                return self._bad(path, "a whole number", v, pos, ctx)
            if (spec.min is not None and n < spec.min) or (spec.max is not None and n > spec.max):
                lo = "" if spec.min is None else f" from {spec.min}"
                hi = "" if spec.max is None else f" to {spec.max}"
                return self._bad(path, f"a whole number{lo}{hi}", v, pos, ctx)
            return n
        if isinstance(spec, S.Bool):
            if isinstance(v, bool):
                return v
            return self._bad(path, "true or false", v, pos, ctx)
        if isinstance(spec, S.Enum):
            if isinstance(v, str) and v in spec.values:
                return v
            hint = _did_you_mean(str(v), list(spec.values))
            self._find(
                "FIELD002",
                f"{path}: {v!r} is not allowed here; use one of: {', '.join(spec.values)}.{hint}",
                pos,
                ctx.node,
            )
            return _BAD
        if isinstance(spec, S.Ref):
            return self._ref(spec, v, pos, path, ctx)
        if isinstance(spec, S.ListOf):
            if not isinstance(v, YList):
                return self._bad(path, "a list (items starting with '- ')", v, pos, ctx)
            if len(v) < spec.min_len or (spec.max_len is not None and len(v) > spec.max_len):
                n = f"exactly {spec.min_len}" if spec.min_len == spec.max_len else f"at least {spec.min_len}"
                if spec.max_len is not None and spec.min_len != spec.max_len:
                    n = f"{spec.min_len} to {spec.max_len}"
                return self._bad(path, f"a list of {n} items", f"{len(v)} items", pos, ctx)
            items = []
            for i, item in enumerate(v):
                got = self.value(spec.item, item, v.ipos[i], f"{path}[{i}]", ctx)
                if got is not _BAD:
                    items.append(got)
            return items
        if isinstance(spec, S.MapOf):
            if not isinstance(v, YMap):
                return self._bad(path, "a mapping (key: value)", v, pos, ctx)
            out = {}
            for k, item in v.items():
                if k not in spec.keys:
                    hint = _did_you_mean(k, list(spec.keys))
                    self._find(
                        "FIELD002",
                        f"{path}: unknown key '{k}'; use one of: {', '.join(spec.keys)}.{hint}",
                        v.keypos[k],
                        ctx.node,
                    )
                    continue
                got = self.value(spec.value, item, v.kpos[k], f"{path}.{k}", ctx)
                if got is not _BAD:
                    out[k] = got
            return out
        if isinstance(spec, S.Record):
            if not isinstance(v, YMap):
                return self._bad(path, "a mapping of fields (key: value)", v, pos, ctx)
            return self.fields(spec.fields, spec.one_of, v, pos, path, ctx)
        if isinstance(spec, S.Effects):
            return self._effects(spec.family, v, pos, path, ctx)
        if isinstance(spec, S.Condition):
            return self._condition(spec.family, v, pos, path, ctx)
        raise TypeError(f"unknown spec {spec!r}")  # pragma: no cover

    def _bad(self, path: str, expected: str, got: Any, pos: Pos, ctx: _Ctx) -> Any:
        shown = got if isinstance(got, str) and not isinstance(got, (YMap, YList)) else _type_name(got)
        if isinstance(got, (int, float, bool)) or got is None:
            shown = repr(got)
        self._find("FIELD002", f"{path}: expected {expected}, got {shown}.", pos, ctx.node)
        return _BAD

    def _ref(self, spec: S.Ref, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if spec.allow_this and v == "this":
            return "this"
        formats = {_kind_of(self.family, k).id_format for k in spec.kinds}
        fmt = formats.pop() if len(formats) == 1 else "str"
        if spec.kinds == ("achievement",):
            key = str(v).strip() if isinstance(v, str) and v.count("/") == 1 else None
        else:
            key = normalise_key(fmt, v)
        if key is None:
            what = " or ".join(spec.kinds)
            return self._bad(path, f"the id of a {what}", v, pos, ctx)
        # hidden numbers keep the digits as written: the three-digit rule is about them
        context = str(v) if spec.edge == "hidden_number" else ctx.context
        self.out.refs.append(
            Reference(ctx.node, spec.kinds, key, spec.edge, self.rel, pos[0], pos[1], path,
                      ctx.condition, context)
        )
        return key

    def _effects(self, family: str, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if isinstance(v, YMap):  # a single effect written without '- '
            v = _as_list(v)
        if not isinstance(v, YList):
            return self._bad(path, "a list of effects (each '- name: value')", v, pos, ctx)
        specs = S.EFFECTS[family]
        out = []
        for i, item in enumerate(v):
            ipos, ipath = v.ipos[i], f"{path}[{i}]"
            if not isinstance(item, YMap) or len(item) != 1:
                self._bad(ipath, "one effect written as 'name: value'", item, ipos, ctx)
                continue
            (name, raw), = item.items()
            fld = specs.get(name)
            if fld is None:
                hint = _did_you_mean(name, list(specs))
                self._find(
                    "FIELD002",
                    f"{ipath}: unknown effect '{name}'.{hint} Effects of a {family} campaign: "
                    + ", ".join(specs) + ".",
                    item.keypos[name],
                    ctx.node,
                )
                continue
            got = self.value(fld.spec, raw, item.kpos[name], f"{ipath}.{name}", ctx)
            if got is _BAD:
                continue
            if name == "flag":
                self.out.grants.append(Grant(ctx.node, "flag", got))
            elif name == "quest":
                self.out.grants.append(Grant(ctx.node, "quest", f"{got['id']}={got['state']}"))
            elif name == "objective":
                self.out.grants.append(Grant(ctx.node, "objective", got))
            out.append({name: got})
        return out

    def _condition(self, family: str, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        items: list[tuple[Any, Pos, str]]
        if isinstance(v, YMap):
            items = [(v, pos, path)]
        elif isinstance(v, YList):
            items = [(item, v.ipos[i], f"{path}[{i}]") for i, item in enumerate(v)]
        else:
            return self._bad(path, "a condition ('flag: name', or a list of them)", v, pos, ctx)
        specs = S.CONDITIONS[family]
        atoms: list[dict] = []
        for item, ipos, ipath in items:
            if not isinstance(item, YMap):
                self._bad(ipath, "a condition written as 'name: value'", item, ipos, ctx)
                continue
            for name, raw in item.items():
                apos = item.kpos[name]
                if name == "any":
                    alts = self._condition(family, raw, apos, f"{ipath}.any", ctx) if isinstance(raw, YList) else \
                        self._bad(f"{ipath}.any", "a list of conditions", raw, apos, ctx)
                    if alts is not _BAD:
                        atoms.append({"any": alts})
                    continue
                fld = specs.get(name)
                if fld is None:
                    hint = _did_you_mean(name, [*specs, "any"])
                    self._find(
                        "FIELD002",
                        f"{ipath}: unknown condition '{name}'.{hint} Conditions of a {family} "
                        "campaign: " + ", ".join([*specs, "any"]) + ".",
                        item.keypos[name],
                        ctx.node,
                    )
                    continue
                got = self.value(fld.spec, raw, apos, f"{ipath}.{name}", _Ctx(ctx.node))
                if got is _BAD:
                    continue
                atoms.append({name: got})
                self.out.conditions.append(
                    ConditionUse(ctx.node, name, got, self.rel, apos[0], apos[1], f"{ipath}.{name}")
                )
        return tuple(_freeze(a) for a in atoms)


def _sub_prefixed(family: str, kind: str) -> bool:
    for k in S.KINDS[family].values():
        for fld in k.fields.values():
            if isinstance(fld.spec, S.SubNodes) and fld.spec.kind == kind:
                return fld.spec.prefix_parent
    return True


def _and(a: tuple | None, b: tuple) -> tuple:
    return b if not a else (*a, *b)


def _freeze(atom: dict) -> Any:
    """Conditions become hashable tuples so they can sit on graph edges and in sets."""
    (name, value), = atom.items()
    if isinstance(value, dict):
        return (name, tuple(sorted(value.items())))
    if isinstance(value, (list, tuple)):
        return (name, tuple(value))
    return (name, value)


def _as_list(m: YMap) -> YList:
    out = YList()
    out.ipos = []
    for k, item in m.items():
        one = YMap({k: item})
        one.kpos, one.keypos, one.pos = {k: m.kpos[k]}, {k: m.keypos[k]}, m.keypos[k]
        out.append(one)
        out.ipos.append(m.keypos[k])
    out.pos = m.pos
    return out


def _type_name(v: Any) -> str:
    if isinstance(v, dict):
        return "mapping"
    if isinstance(v, list):
        return "list"
    if v is None:
        return "empty value"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return "number"
    return "text"


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""


def validate(family: str, rel: str, doc: Any, allow_campaign: bool = False) -> FileModel:
    return Validator(family, rel).file(doc, allow_campaign)
