"""The content format as a JSON Schema (draft 2020-12), for editors.

Generated from the very specs the loader validates with (``pipeline.schema``, which gathers
each game's ``engine/<game>/content.py``): one source of truth.  Each spec becomes the JSON
Schema that accepts what ``pipeline.content.model.Validator`` accepts for it, with the field's
French
description and an ``enum`` for every closed vocabulary.  What a schema cannot say (references
to cards that exist, reachability...) stays with ``gamebook check`` and ``gamebook lsp``.

``schema(family)`` describes one file of a campaign of that game; ``schema(None)`` any content
file of any game (the sections of every game, the ``campaign:`` fields of every game).
"""

from __future__ import annotations

from typing import Any

from .. import schema as S
from ..messages import of_kinds, t

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: digits only, as ``pipeline.content.values.is_int_text`` accepts them (« 07 » stays text in YAML)
INT_TEXT = "^[0-9]{1,30}$"


def _int(spec_min: int | None = None, spec_max: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": ["integer", "string"], "pattern": INT_TEXT}
    if spec_min is not None:
        out["minimum"] = spec_min
    if spec_max is not None:
        out["maximum"] = spec_max
    return out


def _quoted(names: Any) -> str:
    return ", ".join(f"« {n} »" for n in names)


def _error_message(spec: S.Spec) -> str | None:
    """The French message an editor shows when a value does not fit ``spec``."""
    if isinstance(spec, S.Str):
        what = t("expect.text")
    elif isinstance(spec, S.Int):
        lo = t("expect.int_lo", n=spec.min) if spec.min is not None else ""
        hi = t("expect.int_hi", n=spec.max) if spec.max is not None else ""
        what = t("expect.int_range", lo=lo, hi=hi) + " (des chiffres)"
    elif isinstance(spec, S.Bool):
        what = t("expect.bool")
    elif isinstance(spec, S.Enum):
        return t("schema.one_of", values=_quoted(spec.values))
    elif isinstance(spec, S.Ref):
        what = t("expect.ref", of_kinds=of_kinds(spec.kinds))
    elif isinstance(spec, S.ListOf):
        what = t("expect.list")
    else:
        return None
    return t("schema.expected", what=what)


class _Builder:
    def __init__(self, family: str | None) -> None:
        self.family = family
        self.defs: dict[str, Any] = {}

    # ------------------------------------------------------------------ specs
    def spec(self, spec: S.Spec, family: str, fr: str = "") -> dict[str, Any]:
        out = self._spec(spec, family)
        desc = fr or spec.fr
        out = {**out, "description": _sentence(desc, spec) if desc else spec.type_fr}
        message = _error_message(spec)
        if message:
            # what the editor says instead of its English message (yaml-language-server and
            # VS Code read ``errorMessage``, and ``patternErrorMessage`` for a pattern)
            out["errorMessage"] = message
            if "pattern" in out:
                out["patternErrorMessage"] = message
            for branch in out.get("anyOf", ()):
                if "pattern" in branch:
                    branch["patternErrorMessage"] = branch["errorMessage"] = message
        return out

    def _spec(self, spec: S.Spec, family: str) -> dict[str, Any]:
        if isinstance(spec, S.Str):
            # the loader takes any non-blank text, and numbers as their text
            return {"type": ["string", "number"], "pattern": r"\S"}
        if isinstance(spec, S.Int):
            return _int(spec.min, spec.max)
        if isinstance(spec, S.Bool):
            return {"type": "boolean"}
        if isinstance(spec, S.Enum):
            return {"type": "string", "enum": list(spec.values)}
        if isinstance(spec, S.Ref):
            return self._ref(spec, family)
        if isinstance(spec, S.ListOf):
            out: dict[str, Any] = {"type": "array", "items": self.spec(spec.item, family)}
            if spec.min_len:
                out["minItems"] = spec.min_len
            if spec.max_len is not None:
                out["maxItems"] = spec.max_len
            return out
        if isinstance(spec, S.MapOf):
            return {
                "type": "object",
                "properties": {k: self.spec(spec.value, family, spec.fr or k) for k in spec.keys},
                "propertyNames": {"enum": list(spec.keys)},
                "additionalProperties": False,
            }
        if isinstance(spec, S.Record):
            return self.record(
                spec.fields, family, spec.one_of, spec.required_if, required_ids=True
            )
        if isinstance(spec, S.Effects):
            return {"$ref": f"#/$defs/{self.effects(spec.family)}"}
        if isinstance(spec, S.Condition):
            return {"$ref": f"#/$defs/{self.condition(spec.family)}"}
        if isinstance(spec, S.SubNodes):
            kind = S.KINDS[family][spec.kind]
            one = {"$ref": f"#/$defs/{self.kind(kind)}"}
            return {"type": "array", "items": one} if spec.many else one
        raise TypeError(f"unknown spec {spec!r}")  # pragma: no cover

    def _ref(self, spec: S.Ref, family: str) -> dict[str, Any]:
        formats = {S.KINDS[family][k].id_format for k in spec.kinds if k in S.KINDS[family]}
        fmt = formats.pop() if len(formats) == 1 else S.TEXT
        if spec.kinds and all(S.under_parent(family, k) for k in spec.kinds):
            # a sub-record keyed under its parent (« parent/child »)
            out: dict[str, Any] = {"type": "string", "pattern": r"^[^/:]+/[^/:]+$"}
        elif fmt.shape == "number":
            out = {"type": ["integer", "string"], "minimum": 0, "pattern": INT_TEXT}
        elif fmt.shape == "letter":
            out = {"type": "string", "pattern": "^[A-Za-z]$"}
        else:
            out = {"type": ["string", "integer"], "pattern": r"^[^/:]*\S[^/:]*$"}
        if spec.allow_this:
            out = {"anyOf": [out, {"const": "this"}]}
        return out

    def record(
        self,
        fields: dict[str, S.Field],
        family: str,
        one_of: tuple[str, ...] = (),
        required_if: tuple[tuple[str, str, str], ...] = (),
        required_ids: bool = True,
    ) -> dict[str, Any]:
        props = {name: self.spec(f.spec, family, f.fr) for name, f in fields.items()}
        for name, f in fields.items():
            if f.default is not None and not isinstance(f.spec, S.SubNodes):
                props[name]["default"] = f.default
        required = [
            n for n, f in fields.items() if f.required and (required_ids or n not in ("id",))
        ]
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }
        if required:
            out["required"] = required
        allowed = _quoted(fields)
        out["errorMessage"] = (
            t("schema.record", required=_quoted(required), allowed=allowed)
            if required
            else t("schema.record_open", allowed=allowed)
        )
        rules: list[dict[str, Any]] = []
        if one_of:
            rules.append({"anyOf": [{"required": [k]} for k in one_of]})
        for field_name, value, needed in required_if:
            rules.append(
                {
                    "if": {"properties": {field_name: {"const": value}}, "required": [field_name]},
                    "then": {"required": [needed]},
                }
            )
        if rules:
            out["allOf"] = rules
        return out

    # ------------------------------------------------------------------ named definitions
    def kind(self, kind: S.Kind) -> str:
        name = f"{kind.family}.{kind.name}"
        if name in self.defs:
            return name
        self.defs[name] = {}  # reserve: sub-nodes may refer back
        body = self.record(
            kind.fields, kind.family, kind.one_of, kind.required_if, required_ids=not kind.single
        )
        label = kind.name_fr or kind.name
        self.defs[name] = {"title": f"{label} ({kind.name})", "description": kind.fr, **body}
        return name

    def effects(self, family: str) -> str:
        name = f"{family}.effects"
        if name in self.defs:
            return name
        self.defs[name] = {}
        one = {effect: self.spec(f.spec, family, f.fr) for effect, f in S.EFFECTS[family].items()}
        effect = {
            "type": "object",
            "properties": one,
            "additionalProperties": False,
            "minProperties": 1,
            "maxProperties": 1,
        }
        self.defs[f"{family}.effect"] = {
            "description": f"un effet de {S.title_of(family)}, écrit « - nom: valeur »",
            **effect,
        }
        self.defs[name] = {
            "description": f"effets de {S.title_of(family)}, appliqués dans l'ordre",
            "anyOf": [
                {"type": "array", "items": {"$ref": f"#/$defs/{family}.effect"}},
                {"type": "object", "properties": one, "additionalProperties": False},
            ],
        }
        return name

    def condition(self, family: str) -> str:
        name = f"{family}.condition"
        if name in self.defs:
            return name
        self.defs[name] = {}
        atoms = {atom: self.spec(f.spec, family, f.fr) for atom, f in S.CONDITIONS[family].items()}
        atoms["any"] = {
            "description": "l'une au moins de ces conditions suffit",
            "type": "array",
            "items": {"$ref": f"#/$defs/{family}.condition_map"},
        }
        self.defs[f"{family}.condition_map"] = {
            "type": "object",
            "properties": atoms,
            "additionalProperties": False,
        }
        self.defs[name] = {
            "description": f"condition de {S.title_of(family)} : toutes doivent être vraies",
            "anyOf": [
                {"$ref": f"#/$defs/{family}.condition_map"},
                {"type": "array", "items": {"$ref": f"#/$defs/{family}.condition_map"}},
            ],
        }
        return name

    def section(self, kind: S.Kind) -> dict[str, Any]:
        one = {"$ref": f"#/$defs/{self.kind(kind)}"}
        label = kind.name_fr or kind.name
        many: dict[str, Any] = {"type": "array", "items": one}
        desc = f"{S.title_of(kind.family)} — liste : {label} ({kind.name}). {kind.fr}"
        if kind.single:
            return {"description": desc, "anyOf": [one, many]}
        return {"description": desc, **many}

    def campaign(self, family: str | None) -> dict[str, Any]:
        record = S.campaign_record(family)
        body = self.record(record.fields, family or S.FAMILIES[0], required_ids=True)
        # the fields of every game: each is checked with its own game's specs
        if family is None:
            for fam, sch in S.SCHEMAS.items():
                for fname, fld in sch.campaign_fields.items():
                    body["properties"][fname] = self.spec(
                        fld.spec, fam, S.CAMPAIGN.fields[fname].fr
                    )
        return {
            "description": "la campagne : son jeu, son titre, où commence l'histoire "
            "(dans campaign.yaml seulement)",
            **body,
        }

    def file(self) -> dict[str, Any]:
        families = [self.family] if self.family else list(S.FAMILIES)
        props: dict[str, Any] = {}
        for fam in families:
            for section, kind in S.SECTIONS[fam].items():
                entry = self.section(kind)
                if section in props:
                    prev = props[section]
                    alts = prev["anyOf"] if "anyOf" in prev and "type" not in prev else [prev]
                    props[section] = {
                        "description": f"{prev['description']} | {entry['description']}",
                        "anyOf": [*alts, entry],
                    }
                else:
                    props[section] = entry
        props["campaign"] = self.campaign(self.family)
        title = (
            f"Contenu d'une campagne de {S.title_of(self.family)}"
            if self.family
            else "Contenu d'une campagne (tous les jeux)"
        )
        return {
            "$schema": DRAFT,
            "$id": f"https://gamebook.invalid/schema/{self.family or 'contenu'}.json",
            "title": title,
            "description": "Un fichier YAML de content/<campaign>/ : des sections, chacune une "
            "liste de fiches. Généré par « gamebook schema » depuis le format que vérifie "
            "« gamebook check ».",
            "type": "object",
            "properties": props,
            "additionalProperties": False,
            "$defs": self.defs,
        }


def _sentence(desc: str, spec: S.Spec) -> str:
    """The field's French description, with its expected type (« nombre entier entre 0 et 99 »)."""
    kind = spec.type_fr
    if isinstance(spec, S.Int) and (spec.min is not None or spec.max is not None):
        if spec.min is not None and spec.max is not None:
            kind += f" de {spec.min} à {spec.max}"
        elif spec.min is not None:
            kind += f" ≥ {spec.min}"
        else:
            kind += f" ≤ {spec.max}"
    return f"{desc} ({kind})" if kind else desc


def schema(family: str | None = None) -> dict[str, Any]:
    """The JSON Schema of one content file of a campaign of ``family`` (``None``: any game)."""
    if family is not None and family not in S.SCHEMAS:
        raise KeyError(family)
    return _Builder(family).file()


def every_description(node: Any, path: str = "#") -> list[str]:
    """Paths of properties that lack a French ``description`` (for the tests)."""
    missing: list[str] = []
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and not sub.get("description"):
                missing.append(f"{path}/properties/{name}")
        for key, sub in node.items():
            if key == "if":  # a test, not a field
                continue
            missing += every_description(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            missing += every_description(sub, f"{path}/{i}")
    return missing
