"""Validate loaded YAML against ``pipeline.schema`` and produce typed records.

One file in, plain values out: ``FileModel`` holds the file's records (one ``Record`` per node,
its data normalised), the references it makes (``Reference``, each with its position and the
condition that guards it), what it grants (flags, quest states, objectives) and the conditions
it tests.  Validation never stops at the first problem: every finding of the file is collected.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from .. import schema as S
from ..findings import Finding
from ..messages import (
    a_kind,
    clean_key,
    closest,
    declare,
    did_you_mean,
    got,
    items_fr,
    kind_fr,
    list_len,
    of_kinds,
    t,
)
from .values import Pos, YList, YMap, is_int_text

CAMP001 = declare(
    "CAMP001",
    "error",
    about="campaign.yaml absent ou invalide, ou campagne sans départ",
    fix="Ajoutez un campaign.yaml avec id, family et title, et le point de départ.",
    messages={
        "camp.no_manifest": (
            "le dossier « {folder} » contient des fichiers YAML mais pas de campaign.yaml : il "
            "n'est pas vérifié. Ajoutez un campaign.yaml avec une section « campaign: » (id, "
            "family, title)."
        ),
        "camp.no_family": (
            "campaign.yaml doit avoir une section « campaign: » avec « family: » (le jeu de la "
            "campagne, l'un de : {families}), « id: » et « title: »."
        ),
        "camp.no_start": "la campagne « {id} » n'a pas de point de départ : ajoutez {what}.",
    },
)


CAMP002 = declare(
    "CAMP002",
    "error",
    about="section inconnue ou fichier qui n'est pas une table de sections",
    fix="Corrigez le nom de la section, ou déplacez-la dans le bon fichier.",
    messages={
        "camp.not_mapping": (
            "un fichier de contenu doit être une table de sections (par exemple « paragraphs: » "
            "suivi d'une liste de paragraphes) ; ce fichier commence par {got}."
        ),
        "camp.misplaced": (
            "la section « campaign » va dans le campaign.yaml à la racine de la campagne ; "
            "déplacez-la."
        ),
        "camp.unknown_section": (
            "section « {name} » inconnue pour une campagne {family}.{hint} Sections connues : "
            "{known}."
        ),
    },
)


FIELD001 = declare(
    "FIELD001",
    "error",
    about="champ obligatoire absent",
    fix="Ajoutez le champ obligatoire.",
    messages={
        "field.missing": "{path} : champ obligatoire « {name} » absent ({what}).",
        "field.misspelt_required": (
            "{path} : champ « {name} » inconnu : c'est sans doute le champ obligatoire « {meant} » "
            "({what}), absent sinon ; il est lu ici comme « {meant} ». Corrigez le nom du champ."
        ),
        "field.missing_if": (
            "{path} : avec « {what} », le champ « {name} » est obligatoire (le moteur en a besoin)."
        ),
        "field.one_of": "{path} : il faut au moins l'un des champs {names}.",
        "field.missing_id": (
            "{path} : champ obligatoire « id » absent. Chaque {kind} a besoin d'un identifiant "
            "unique."
        ),
        "field.missing_number": (
            "{path} : champ obligatoire « number » absent (le numéro de la carte, de 1 à 999)."
        ),
    },
)


FIELD002 = declare(
    "FIELD002",
    "error",
    about="champ de mauvais type ou valeur interdite",
    fix="Écrivez une valeur du type attendu (le message dit lequel).",
    messages={
        "field.expected": "{path} : il faut {expected}, pas {got}.",
        "field.enum": (
            "{path} : « {got} » n'est pas permis ici ; valeurs possibles : {values}.{hint}"
        ),
        "field.map_key": "{path} : clé « {key} » inconnue ; clés possibles : {keys}.{hint}",
        "field.effect_unknown": (
            "{path} : effet « {name} » inconnu.{hint} Effets d'une campagne {family} : {known}."
        ),
        "field.condition_unknown": (
            "{path} : condition « {name} » inconnue.{hint} Conditions d'une campagne {family} : "
            "{known}."
        ),
        "field.bad_id": "{path}.id : il faut {expected}, pas {got}.",
        "field.bad_number": "{path}.number : il faut un numéro de carte de 1 à 999, pas {got}.",
        "field.section_not_list": (
            "la section « {name} » doit être une liste de {kind} (chaque élément commence par "
            "« - »), pas {got}."
        ),
        "field.record_not_mapping": (
            "{path} : {a_kind} doit être une table de champs (clé: valeur), pas {got}."
        ),
        "field.invisible": (
            "la clé « {name} » contient un caractère invisible ou trompeur : c'est sans doute "
            "« {meant} ». Effacez la clé et retapez-la (elle est lue ici comme « {meant} »)."
        ),
        "field.misspelt_optional": (
            "{path} : champ « {name} » inconnu : c'est sans doute le champ « {meant} » ({what}) ; "
            "il est lu ici comme « {meant} », au lieu d'être ignoré. Corrigez le nom du champ."
        ),
    },
)


FIELD003 = declare(
    "FIELD003",
    "warning",
    about="champ inconnu (ignoré)",
    fix="Corrigez l'orthographe du champ, ou supprimez-le.",
    messages={
        "field.unknown": "{path} : champ « {name} » inconnu, ignoré.{hint}",
    },
)

#: the severity of each code validation finds (``_find``); CAMP001 also comes from the project
_SEVERITY = {r.code: r.severity for r in (CAMP001, CAMP002, FIELD001, FIELD002, FIELD003)}


_BAD = object()  # a value that failed validation (a finding was recorded)
_T = TypeVar("_T")


#: each ``_compact`` class -> the getter of its field values, in constructor order
_FIELDS: dict[type, Callable[[Any], tuple]] = {}


def _compact(cls: type[_T]) -> type[_T]:
    """Pickle instances of a slots dataclass as its constructor and field values: 20 times
    faster to load than pickle's default for slots (one ``setattr`` per field), which matters
    for the cache and for the models worker processes send back."""
    get = _FIELDS[cls] = operator.attrgetter(*vars(cls)["__slots__"])

    def reduce(self: _T) -> tuple[type[_T], Any]:
        return (cls, get(self))

    # a method replaced on the class on purpose, which mypy refuses as an assignment
    setattr(cls, "__reduce__", reduce)  # noqa: B010
    return cls


@_compact
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


@_compact
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


@_compact
@dataclass(slots=True)
class Grant:
    source: str
    what: str  # the effect's name (``ContentSchema.granted``)
    value: str


@_compact
@dataclass(slots=True)
class ConditionUse:
    source: str
    atom: str
    value: Any
    file: str
    line: int
    column: int
    path: str


@_compact
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
    #: position of each field of the campaign section, for findings about one of them
    campaign_fields: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: words of closed vocabularies, declared or used (``Str(vocab=...)``)
    words: list[Word] = field(default_factory=list)


@_compact
@dataclass(slots=True)
class Word:
    """A word of a closed vocabulary (``Str(vocab=...)``) written in the content."""

    vocab: str
    value: str
    declares: bool
    source: str
    file: str
    line: int
    column: int
    path: str
    vocab_fr: str = ""
    #: words accepted here though nothing declares them (``Str.also``)
    also: tuple[str, ...] = ()


#: the lists of a ``FileModel`` that ``flat`` writes as tuples, with their class
_FLAT = (
    ("records", Record),
    ("refs", Reference),
    ("grants", Grant),
    ("conditions", ConditionUse),
    ("words", Word),
)


def flat(model: FileModel) -> tuple:
    """``model`` as tuples and lists (its records, references... as the tuples of their
    fields): what a worker process sends back, pickled without a call per object (2.5 times
    faster than pickling the model itself: measured at 100k nodes).  ``unflat`` gives the
    model back, equal."""
    lists = tuple([_FIELDS[cls](x) for x in getattr(model, name)] for name, cls in _FLAT)
    rest = (model.findings, model.campaign, model.campaign_pos, model.campaign_fields)
    return (model.file, lists, rest)


def unflat(form: tuple) -> FileModel:
    """The ``FileModel`` of ``flat(model)``."""
    file, lists, (findings, campaign, campaign_pos, campaign_fields) = form
    model = FileModel(
        file,
        findings=findings,
        campaign=campaign,
        campaign_pos=campaign_pos,
        campaign_fields=campaign_fields,
    )
    for (name, cls), items in zip(_FLAT, lists, strict=True):
        setattr(model, name, [cls(*x) for x in items])
    return model


def normalise_key(id_format: S.IdFormat, value: Any) -> str | None:
    """The canonical key of an id or a reference, or ``None`` if it cannot be one."""
    if isinstance(value, bool) or value is None:
        return None
    if id_format.shape == "number":
        text = str(value).strip()
        if not is_int_text(text):
            return None
        return f"{int(text):0{id_format.width}d}" if id_format.width else str(int(text))
    if id_format.shape == "letter":
        text = str(value).strip().upper()
        return text if len(text) == 1 and "A" <= text <= "Z" else None
    if isinstance(value, (str, int)):
        text = str(value).strip()
        return text if text and "/" not in text and ":" not in text else None
    return None


#: what an id of each shape must look like (``IdFormat.expected_fr`` says it for a game's own)
_ID_EXPECTED = {"number": "field.id_int", "letter": "field.id_letter", "text": "field.id_str"}


#: how ``Validator.fields`` takes a field's value: ``value`` (``None``), or a shortcut for the
#: usual valid scalars (text without a vocabulary, whole number, word of a list, yes/no), or
#: nested records (``_subnodes``)
_TEXT, _WHOLE, _WORD, _YES_NO, _NESTED = "text", "whole", "word", "yes_no", "nested"
_PLANS: dict[int, tuple[dict[str, S.Field], list[tuple[str, S.Field, S.Spec, str | None]]]] = {}


def _plan(specs: dict[str, S.Field]) -> list[tuple[str, S.Field, S.Spec, str | None]]:
    """The fields of ``specs`` that ``fields`` walks, in order, each with its spec and how its
    value is taken; made once per schema table (``requires`` is read before the walk)."""
    known = _PLANS.get(id(specs))
    if known is not None and known[0] is specs:
        return known[1]
    plan: list[tuple[str, S.Field, S.Spec, str | None]] = []
    for name, fld in specs.items():
        if name == "requires":
            continue
        spec = fld.spec
        kind = type(spec)
        fast = None
        if kind is S.Str and not cast(S.Str, spec).vocab:
            fast = _TEXT
        elif kind is S.Int:
            fast = _WHOLE
        elif kind is S.Enum:
            fast = _WORD
        elif kind is S.Bool:
            fast = _YES_NO
        elif kind is S.SubNodes:
            fast = _NESTED
        plan.append((name, fld, spec, fast))
    _PLANS[id(specs)] = (specs, plan)
    return plan


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
        self.out.findings.append(
            Finding(code, _SEVERITY[code], message, self.rel, pos[0], pos[1], node)
        )

    # ------------------------------------------------------------------ entry points
    def file(self, doc: Any, allow_campaign: bool) -> FileModel:
        if doc is None:
            return self.out
        if not isinstance(doc, YMap):
            pos = getattr(doc, "pos", (1, 1))
            self._find("CAMP002", t("camp.not_mapping", got=_shape(doc)), pos)
            return self.out
        sections = S.SECTIONS[self.family]
        for name, value in doc.items():
            vpos, kpos = doc.kpos[name], doc.keypos[name]
            if name == "campaign":
                if not allow_campaign:
                    self._find("CAMP002", t("camp.misplaced"), kpos)
                    continue
                self.out.campaign = self.value(
                    S.campaign_record(self.family), value, vpos, "campaign", _Ctx("campaign:")
                )
                self.out.campaign_pos = kpos
                if isinstance(value, YMap):
                    self.out.campaign_fields = dict(value.kpos)
                continue
            kind = sections.get(name)
            if kind is None:
                hint = did_you_mean(name, [*sections, "campaign"])
                known = ", ".join(sorted(sections))
                self._find(
                    "CAMP002",
                    t(
                        "camp.unknown_section",
                        name=name,
                        family=self.family,
                        hint=hint,
                        known=known,
                    ),
                    kpos,
                )
                continue
            if kind.single and isinstance(value, YMap):
                self.record(kind, value, vpos, name)
                continue
            if not isinstance(value, YList):
                self._find(
                    "FIELD002",
                    t(
                        "field.section_not_list",
                        name=name,
                        kind=kind_fr(kind.name),
                        got=_shape(value),
                    ),
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
                t(
                    "field.record_not_mapping",
                    path=path,
                    a_kind=a_kind(kind.name),
                    got=_shape(raw),
                ),
                pos,
            )
            return None
        key = key_override
        # a misspelt id (« di: ») is read as the id: no reference to the record breaks
        raw = self._misspelt_required(raw, kind.fields, path, None, keys=True)
        if key is None:
            key = self._record_key(kind, raw, pos, path)
            if key is None:
                self._declarations_of(kind, raw, pos, path)
                return None
            if parent is not None and _sub_prefixed(self.family, kind.name):
                key = f"{parent.key}/{key}"
        idpos = raw.kpos.get("id", raw.kpos.get("number", pos))
        rec = Record(
            kind.name, key, {}, self.rel, idpos[0], idpos[1], parent.node if parent else None
        )
        ctx = _Ctx(rec.node)
        rec.data = self.fields(
            kind.fields, kind.one_of, raw, pos, path, ctx, rec, required_if=kind.required_if
        )
        self.out.records.append(rec)
        return rec

    def _record_key(self, kind: S.Kind, raw: YMap, pos: Pos, path: str) -> str | None:
        fmt = kind.id_format
        if fmt.numbered:
            number = raw.get("number")
            num = normalise_key(S.NUMBER, number)
            if num is None or not (1 <= int(num) <= 999):
                where = raw.kpos.get("number", pos)
                if "number" not in raw:
                    self._find("FIELD001", t("field.missing_number", path=path), pos)
                else:
                    self._find("FIELD002", t("field.bad_number", path=path, got=got(number)), where)
                return None
            numbered = num
            for name, sep, default in fmt.suffixes:
                value = raw.get(name, default)
                if value is not None or default is not None:
                    numbered += f"{sep}{value}"
            return numbered
        if "id" not in raw:
            if kind.single:
                return str(kind.fields["id"].default)
            self._find("FIELD001", t("field.missing_id", path=path, kind=kind_fr(kind.name)), pos)
            return None
        key = normalise_key(fmt, raw["id"])
        if key is None:
            expected = fmt.expected_fr or t(_ID_EXPECTED[fmt.shape])
            self._find(
                "FIELD002",
                t("field.bad_id", path=path, expected=expected, got=got(raw["id"])),
                raw.kpos["id"],
            )
            return None
        spec = kind.fields["id"].spec if "id" in kind.fields else None
        if isinstance(spec, S.Enum) and key not in spec.values:
            # a misspelt word of the rules' list (« alchimste »): its FIELD002 says so; keyed
            # by the word meant, what names the record still finds it
            key = closest(key, list(spec.values)) or key
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
        unguarded: tuple[str, ...] = (),
        required_if: tuple[tuple[str, str, str], ...] = (),
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not raw.keys() <= specs.keys():  # some key is not a field: say which, fix what can be
            raw = self._respelt(raw, specs, ctx)
            raw = self._misspelt_required(raw, specs, path, ctx.node)
            for name in raw:
                if name not in specs:
                    hint = did_you_mean(name, list(specs))
                    self._find(
                        "FIELD003",
                        t("field.unknown", path=path, name=name, hint=hint),
                        raw.keypos[name],
                        ctx.node,
                    )
        # 'requires' guards every reference made by the rest of the record
        inner = ctx
        if "requires" in specs and "requires" in raw:
            cond = self.value(
                specs["requires"].spec,
                raw["requires"],
                raw.kpos["requires"],
                f"{path}.requires",
                ctx,
            )
            if cond is not _BAD:
                out["requires"] = cond
                inner = _Ctx(ctx.node, _and(ctx.condition, cond), ctx.context)
        if "verb" in raw and isinstance(raw.get("verb"), str):
            inner = _Ctx(inner.node, inner.condition, raw["verb"])
        get = raw.get
        for name, fld, spec, fast in _plan(specs):
            v = get(name)
            if v is None:  # absent, or written without a value
                if fld.required and not (rec is not None and name in ("id", "number")):
                    self._find(
                        "FIELD001",
                        t("field.missing", path=path, name=name, what=fld.fr),
                        pos,
                        ctx.node,
                    )
                elif fld.default is not None:
                    out[name] = fld.default
                continue
            # the usual valid scalars, accepted as ``value`` would accept them (no side effect)
            if fast is _TEXT:
                if type(v) is str and v.strip():
                    out[name] = v
                    continue
            elif fast is _WHOLE:
                if type(v) is int:
                    lo, hi = cast(S.Int, spec).min, cast(S.Int, spec).max
                    if (lo is None or v >= lo) and (hi is None or v <= hi):
                        out[name] = v
                        continue
            elif fast is _WORD:
                if type(v) is str and v in cast(S.Enum, spec).values:
                    out[name] = v
                    continue
            elif fast is _YES_NO:
                if type(v) is bool:
                    out[name] = v
                    continue
            elif fast is _NESTED:
                self._subnodes(
                    cast(S.SubNodes, spec), name, v, raw.kpos[name], f"{path}.{name}", rec
                )
                continue
            sub = ctx if name in unguarded else inner
            if name in ("success", "failure"):
                sub = _Ctx(inner.node, inner.condition, f"{inner.context or 'action'}/{name}")
            value = self.value(spec, v, raw.kpos[name], f"{path}.{name}", sub)
            if value is not _BAD:
                out[name] = value
        if required_if or one_of:
            self._required_together(out, raw, pos, path, ctx, one_of, required_if)
        return out

    def _required_together(
        self,
        out: dict[str, Any],
        raw: YMap,
        pos: Pos,
        path: str,
        ctx: _Ctx,
        one_of: tuple[str, ...],
        required_if: tuple[tuple[str, str, str], ...],
    ) -> None:
        """Fields required by another field's value, and « at least one of »."""
        for field_name, value, needed in required_if:
            if out.get(field_name) == value and raw.get(needed) is None:
                what = f"{field_name}: {value}"
                self._find(
                    "FIELD001",
                    t("field.missing_if", path=path, name=needed, what=what),
                    pos,
                    ctx.node,
                )
        for k in one_of:
            if raw.get(k) is not None:
                break
        else:
            if one_of:
                self._find(
                    "FIELD001",
                    t("field.one_of", path=path, names=" ou ".join(f"« {k} »" for k in one_of)),
                    pos,
                    ctx.node,
                )

    def _declarations_of(self, kind: S.Kind, raw: YMap, pos: Pos, path: str) -> None:
        """A record without a usable id still declares its vocabulary words (its zone): the
        id's finding must not also make every use of the word unknown."""
        scratch = Validator(self.family, self.rel)
        scratch.fields(kind.fields, kind.one_of, raw, pos, path, _Ctx(f"{kind.name}:?"))
        self.out.words.extend(w for w in scratch.out.words if w.declares)

    def _misspelt_required(
        self,
        raw: YMap,
        specs: dict[str, S.Field],
        path: str,
        node: str | None,
        keys: bool = False,
    ) -> YMap:
        """An unknown key that is a misspelling of a required field the record lacks
        (« txet: », « di: ») is one mistake: one error at the key, and its value is read as
        that field, so that nothing else (a missing field, references to the record) follows
        from the same slip.  ``keys``: only the record's id (or number), before it is keyed."""
        if raw.keys() <= specs.keys():  # the usual case: every key is a field
            return raw
        unknown = [k for k in raw if isinstance(k, str) and k not in specs]
        if not unknown:  # the usual case: no need to list the missing fields
            return raw
        missing = [
            n
            for n, f in specs.items()
            if (f.required or n in ("id", "number"))
            and n not in raw
            and (not keys or n in ("id", "number"))
        ]
        # then an optional field the record lacks (« flavuor: »): an error too, since its
        # value would be dropped without a word; read as that field
        optional = [] if keys else [n for n in specs if n not in raw and n not in missing]
        fixes: dict[str, str] = {}
        for pool in (missing, optional):
            for name in unknown:
                meant = closest(name, pool) if name not in fixes else None
                if meant is not None and meant not in fixes.values():
                    fixes[name] = meant
        if not fixes:
            return raw
        for name, meant in fixes.items():
            what = specs[meant].fr or meant
            required = meant in missing
            self._find(
                "FIELD001" if required else "FIELD002",
                t(
                    "field.misspelt_required" if required else "field.misspelt_optional",
                    path=path, name=name, meant=meant, what=what,
                ),
                raw.keypos[name],
                node,
            )  # fmt: skip
        return _renamed(raw, fixes)

    def _respelt(self, raw: YMap, specs: dict[str, S.Field], ctx: _Ctx) -> YMap:
        """Keys that are a known field once invisible or look-alike characters are removed: one
        error that shows the character, and the value is read as that field (so that no
        « missing field » follows from the same typo)."""
        fixes = {}
        for name in raw:
            if name not in specs and not (name.isascii() and name.isprintable()):
                meant = clean_key(name)
                if meant in specs and meant not in raw:
                    fixes[name] = meant
        if not fixes:
            return raw
        for name, meant in fixes.items():
            self._find(
                "FIELD002",
                t("field.invisible", name=name, meant=meant),
                raw.keypos[name],
                ctx.node,
            )
        return _renamed(raw, fixes)

    def _subnodes(
        self, spec: S.SubNodes, name: str, raw: Any, pos: Pos, path: str, parent: Record | None
    ) -> None:
        if parent is None:  # pragma: no cover - schema guarantees sub-nodes live in records
            return
        kind = _kind_of(self.family, spec.kind)
        children: list[Record | None] = []
        if not spec.many:
            children.append(
                self.record(kind, raw, pos, path, parent, key_override=f"{parent.key}/{name}")
            )
        elif not isinstance(raw, YList):
            expected = t("expect.records", kind=kind_fr(kind.name))
            self._find(
                "FIELD002",
                t("field.expected", path=path, expected=expected, got=_shape(raw)),
                pos,
                parent.node,
            )
        else:
            for i, item in enumerate(raw):
                children.append(self.record(kind, item, raw.ipos[i], f"{path}[{i}]", parent))
        for child in children:
            if child is not None and spec.edge:
                self.out.refs.append(
                    Reference(
                        parent.node,
                        (kind.name,),
                        child.key,
                        spec.edge,
                        self.rel,
                        child.line,
                        child.column,
                        path,
                    )
                )

    def _str(self, spec: S.Str, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if isinstance(v, str) and v.strip():
            text = v
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            text = str(v)
        else:
            return self._bad(path, t("expect.text"), v, pos, ctx)
        if spec.vocab:
            self.out.words.append(
                Word(
                    spec.vocab,
                    text.strip(),
                    spec.declares,
                    ctx.node,
                    self.rel,
                    pos[0],
                    pos[1],
                    path,
                    spec.vocab_fr,
                    spec.also,
                )
            )
        return text

    def _int(self, spec: S.Int, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        n = v
        if isinstance(v, str) and is_int_text(v):
            n = int(v)
        if not isinstance(n, int) or isinstance(n, bool):
            return self._bad(path, t("expect.int"), v, pos, ctx)
        if (spec.min is not None and n < spec.min) or (spec.max is not None and n > spec.max):
            lo = "" if spec.min is None else t("expect.int_lo", n=spec.min)
            hi = "" if spec.max is None else t("expect.int_hi", n=spec.max)
            return self._bad(path, t("expect.int_range", lo=lo, hi=hi), v, pos, ctx)
        return n

    def value(self, spec: S.Spec, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        # the spec classes are final (no subclasses): ``type(spec) is`` says what isinstance would,
        # faster, and each branch casts ``spec`` to its class since mypy cannot tell from ``kind``
        kind = type(spec)
        if kind is S.Str:
            return self._str(cast(S.Str, spec), v, pos, path, ctx)
        if kind is S.Int:
            return self._int(cast(S.Int, spec), v, pos, path, ctx)
        if kind is S.Bool:
            if isinstance(v, bool):
                return v
            return self._bad(path, t("expect.bool"), v, pos, ctx)
        if kind is S.Enum:
            enum = cast(S.Enum, spec)
            if isinstance(v, str) and v in enum.values:
                return v
            hint = did_you_mean(str(v), list(enum.values))
            self._find(
                "FIELD002",
                t(
                    "field.enum",
                    path=path,
                    got=v if not isinstance(v, (dict, list)) else _shape(v),
                    values=", ".join(enum.values),
                    hint=hint,
                ),
                pos,
                ctx.node,
            )
            return _BAD
        if kind is S.Ref:
            return self._ref(cast(S.Ref, spec), v, pos, path, ctx)
        if kind is S.ListOf:
            many = cast(S.ListOf, spec)
            if not isinstance(v, YList):
                return self._bad(path, t("expect.list"), v, pos, ctx)
            if len(v) < many.min_len or (many.max_len is not None and len(v) > many.max_len):
                self._find(
                    "FIELD002",
                    t(
                        "field.expected",
                        path=path,
                        expected=list_len(many.min_len, many.max_len),
                        got=items_fr(len(v)),
                    ),
                    pos,
                    ctx.node,
                )
                return _BAD
            items = []
            for i, item in enumerate(v):
                val = self.value(many.item, item, v.ipos[i], f"{path}[{i}]", ctx)
                if val is not _BAD:
                    items.append(val)
            return items
        if kind is S.MapOf:
            table = cast(S.MapOf, spec)
            if not isinstance(v, YMap):
                return self._bad(path, t("expect.mapping"), v, pos, ctx)
            out = {}
            for k, item in v.items():
                if k not in table.keys:
                    hint = did_you_mean(k, list(table.keys))
                    self._find(
                        "FIELD002",
                        t("field.map_key", path=path, key=k, keys=", ".join(table.keys), hint=hint),
                        v.keypos[k],
                        ctx.node,
                    )
                    continue
                val = self.value(table.value, item, v.kpos[k], f"{path}.{k}", ctx)
                if val is not _BAD:
                    out[k] = val
            return out
        if kind is S.Record:
            record = cast(S.Record, spec)
            if not isinstance(v, YMap):
                return self._bad(path, t("expect.record"), v, pos, ctx)
            return self.fields(
                record.fields,
                record.one_of,
                v,
                pos,
                path,
                ctx,
                unguarded=record.unguarded,
                required_if=record.required_if,
            )
        if kind is S.Effects:
            return self._effects(cast(S.Effects, spec).family, v, pos, path, ctx)
        if kind is S.Condition:
            return self._condition(cast(S.Condition, spec).family, v, pos, path, ctx)
        raise TypeError(f"unknown spec {spec!r}")  # pragma: no cover

    def _bad(self, path: str, expected: str, value: Any, pos: Pos, ctx: _Ctx) -> Any:
        self._find(
            "FIELD002",
            t("field.expected", path=path, expected=expected, got=got(value)),
            pos,
            ctx.node,
        )
        return _BAD

    def _ref(self, spec: S.Ref, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if spec.allow_this and v == "this":
            return "this"
        fmt, under_parent = _ref_plan(self.family, spec)
        if under_parent:
            key = str(v).strip() if isinstance(v, str) and v.count("/") == 1 else None
        else:
            key = normalise_key(fmt, v)
        if key is None:
            return self._bad(path, t("expect.ref", of_kinds=of_kinds(spec.kinds)), v, pos, ctx)
        # hidden numbers keep the digits as written: the three-digit rule is about them
        context = str(v) if spec.edge == "hidden_number" else ctx.context
        self.out.refs.append(
            Reference(
                ctx.node,
                spec.kinds,
                key,
                spec.edge,
                self.rel,
                pos[0],
                pos[1],
                path,
                ctx.condition,
                context,
            )
        )
        return key

    def _effects(self, family: str, v: Any, pos: Pos, path: str, ctx: _Ctx) -> Any:
        if isinstance(v, YMap):  # a single effect written without '- '
            v = _as_list(v)
        if not isinstance(v, YList):
            return self._bad(path, t("expect.effects"), v, pos, ctx)
        specs = S.EFFECTS[family]
        grants = _granted(self.family)
        out = []
        for i, item in enumerate(v):
            ipos, ipath = v.ipos[i], f"{path}[{i}]"
            if not isinstance(item, YMap) or len(item) != 1:
                self._bad(ipath, t("expect.effect"), item, ipos, ctx)
                continue
            ((name, raw),) = item.items()
            fld = specs.get(name)
            if fld is None:
                hint = did_you_mean(name, list(specs))
                self._find(
                    "FIELD002",
                    t(
                        "field.effect_unknown",
                        path=ipath,
                        name=name,
                        hint=hint,
                        family=family,
                        known=", ".join(specs),
                    ),
                    item.keypos[name],
                    ctx.node,
                )
                continue
            val = self.value(fld.spec, raw, item.kpos[name], f"{ipath}.{name}", ctx)
            if val is _BAD:
                continue
            granted = grants.get(name)
            if granted is None:
                pass
            elif not granted.keyed:
                self.out.grants.append(Grant(ctx.node, name, val))
            elif "id" in val and "state" in val:
                self.out.grants.append(Grant(ctx.node, name, f"{val['id']}={val['state']}"))
            out.append({name: val})
        return out

    def _condition(
        self, family: str, v: Any, pos: Pos, path: str, ctx: _Ctx, record: bool = True
    ) -> Any:
        items: list[tuple[Any, Pos, str]]
        if isinstance(v, YMap):
            items = [(v, pos, path)]
        elif isinstance(v, YList):
            items = [(item, v.ipos[i], f"{path}[{i}]") for i, item in enumerate(v)]
        else:
            return self._bad(path, t("expect.condition"), v, pos, ctx)
        specs = S.CONDITIONS[family]
        atoms: list[dict] = []
        for item, ipos, ipath in items:
            if not isinstance(item, YMap):
                self._bad(ipath, t("expect.condition_atom"), item, ipos, ctx)
                continue
            for name, raw in item.items():
                apos = item.kpos[name]
                if name == "any":
                    # the alternatives are checked together: one that can hold is enough
                    if isinstance(raw, YList):
                        alts = self._condition(family, raw, apos, f"{ipath}.any", ctx, record=False)
                    else:
                        alts = self._bad(f"{ipath}.any", t("expect.conditions"), raw, apos, ctx)
                    if alts is not _BAD:
                        atoms.append({"any": alts})
                        if record:
                            self.out.conditions.append(
                                ConditionUse(
                                    ctx.node,
                                    "any",
                                    alts,
                                    self.rel,
                                    apos[0],
                                    apos[1],
                                    f"{ipath}.any",
                                )
                            )
                    continue
                fld = specs.get(name)
                if fld is None:
                    hint = did_you_mean(name, [*specs, "any"])
                    self._find(
                        "FIELD002",
                        t(
                            "field.condition_unknown",
                            path=ipath,
                            name=name,
                            hint=hint,
                            family=family,
                            known=", ".join([*specs, "any"]),
                        ),
                        item.keypos[name],
                        ctx.node,
                    )
                    continue
                val = self.value(fld.spec, raw, apos, f"{ipath}.{name}", _Ctx(ctx.node))
                if val is _BAD:
                    continue
                atoms.append({name: val})
                if record:
                    self.out.conditions.append(
                        ConditionUse(
                            ctx.node, name, val, self.rel, apos[0], apos[1], f"{ipath}.{name}"
                        )
                    )
        return tuple(_freeze(a) for a in atoms)


_REF_PLANS: dict[tuple[str, int], tuple[S.Ref, S.IdFormat, bool]] = {}


def _ref_plan(family: str, spec: S.Ref) -> tuple[S.IdFormat, bool]:
    """``_ref_format`` and ``_keyed_under_parent`` of a reference spec, found once per spec
    (a dictionary look-up by identity instead of hashing the spec's kinds twice per value)."""
    known = _REF_PLANS.get((family, id(spec)))
    if known is None or known[0] is not spec:
        known = (spec, _ref_format(family, spec.kinds), _keyed_under_parent(family, spec.kinds))
        _REF_PLANS[family, id(spec)] = known
    return known[1], known[2]


@functools.cache
def _ref_format(family: str, kinds: tuple[str, ...]) -> S.IdFormat:
    """How the targets of a reference are keyed (one format, or plain text when they differ)."""
    formats = {_kind_of(family, k).id_format for k in kinds}
    return formats.pop() if len(formats) == 1 else S.TEXT


@functools.cache
def _granted(family: str) -> dict[str, S.Granted]:
    """The conditions only an effect of the same name grants, in ``family``'s content."""
    schema = S.SCHEMAS.get(family)
    return {g.name: g for g in schema.granted} if schema is not None else {}


@functools.cache
def _keyed_under_parent(family: str, kinds: tuple[str, ...]) -> bool:
    """A reference to records nested in a parent and keyed under it is ``parent/child``."""
    return bool(kinds) and all(S.under_parent(family, k) for k in kinds)


@functools.cache
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
    ((name, value),) = atom.items()
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


def _shape(v: Any) -> str:
    if isinstance(v, dict):
        return t("got.mapping")
    if isinstance(v, list):
        return t("got.list")
    if v is None:
        return t("got.none")
    if isinstance(v, bool):
        return t("got.bool")
    if isinstance(v, (int, float)):
        return t("got.number")
    return t("got.text")


def validate(family: str, rel: str, doc: Any, allow_campaign: bool = False) -> FileModel:
    return Validator(family, rel).file(doc, allow_campaign)


def _renamed(raw: YMap, fixes: dict[str, str]) -> YMap:
    """``raw`` with the keys of ``fixes`` read as the field they were meant to be (positions
    kept)."""
    out = YMap()
    out.kpos, out.keypos, out.pos = {}, {}, raw.pos
    for name, value in raw.items():
        key = fixes.get(name, name)
        out[key] = value
        out.kpos[key], out.keypos[key] = raw.kpos[name], raw.keypos[name]
    return out
