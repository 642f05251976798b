"""``gamebook schema``: a JSON Schema (draft 2020-12) generated from the specs the loader
validates with.  A standard validator (``jsonschema``) accepts every shipped content file and
rejects what ``gamebook check`` rejects for shape: a misspelt field, a wrong type, a value out
of a closed vocabulary."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import run_cli

from pipeline import schema as S
from pipeline.content.json_schema import every_description, schema
from pipeline.content.load import read_file

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SHIPPED = ROOT / "site" / "schema" / "contenu.schema.json"


def content_files() -> list[Path]:
    return sorted(CONTENT.rglob("*.yaml"))


def doc(path: Path):
    data, findings = read_file(path, path.name)
    assert not findings
    return json.loads(json.dumps(data))  # plain JSON values, as an editor sees them


@functools.cache
def validator(family: str | None) -> jsonschema.Draft202012Validator:
    sch = schema(family)
    jsonschema.Draft202012Validator.check_schema(sch)
    return jsonschema.Draft202012Validator(sch)


def errors(v: jsonschema.Draft202012Validator, data) -> list[str]:
    return [e.message for e in v.iter_errors(data)]


@pytest.mark.parametrize("family", [None, *S.FAMILIES])
def test_schema_is_valid_and_described_in_french(family):
    sch = schema(family)
    jsonschema.Draft202012Validator.check_schema(sch)
    assert sch["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert every_description(sch) == []


@pytest.mark.parametrize("path", content_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_file_validates(path):
    data = doc(path)
    assert errors(validator(None), data) == []
    family = _family(path.parent)
    assert errors(validator(family), data) == []


def _family(folder: Path) -> str:
    data, _ = read_file(folder / "campaign.yaml", "campaign.yaml")
    return data["campaign"]["family"]


def _first_record(data: dict) -> tuple[str, dict]:
    for section, value in data.items():
        if section != "campaign" and isinstance(value, list) and value:
            return section, value[0]
    raise AssertionError("no record")


def test_misspelt_field_wrong_type_and_unknown_section_are_rejected():
    for folder in sorted(p for p in CONTENT.iterdir() if (p / "campaign.yaml").exists()):
        family = _family(folder)
        v = validator(family)
        path = next(p for p in sorted(folder.glob("*.yaml")) if p.name != "campaign.yaml")
        data = doc(path)
        section, rec = _first_record(data)

        misspelt = copy.deepcopy(data)
        key = next(k for k in rec if k not in ("id", "number"))
        misspelt[section][0][key + "x"] = misspelt[section][0].pop(key)
        assert errors(v, misspelt), (family, key)

        wrong = copy.deepcopy(data)
        wrong[section][0]["id" if "id" in rec else "number"] = {"pas": "un identifiant"}
        assert errors(v, wrong)

        unknown = copy.deepcopy(data)
        unknown[section + "_en_trop"] = []
        assert errors(v, unknown)

        camp = doc(folder / "campaign.yaml")
        camp["campaign"]["family"] = "jeu_inconnu"
        assert errors(v, camp)


def _enums(node, out: list) -> list:
    if isinstance(node, dict):
        if "enum" in node:
            out.append(tuple(node["enum"]))
        for sub in node.values():
            _enums(sub, out)
    elif isinstance(node, list):
        for sub in node:
            _enums(sub, out)
    return out


def _spec_enums(spec, out: set, seen: set) -> set:
    if id(spec) in seen:
        return out
    seen.add(id(spec))
    if isinstance(spec, S.Enum):
        out.add(tuple(spec.values))
    for sub in getattr(spec, "fields", {}).values():
        _spec_enums(sub.spec, out, seen)
    for attr in ("item", "value"):
        if isinstance(getattr(spec, attr, None), S.Spec):
            _spec_enums(getattr(spec, attr), out, seen)
    return out


def test_closed_vocabularies_are_enums():
    found = set(_enums(schema(None), []))
    wanted: set = set()
    for family in S.FAMILIES:
        for kind in S.KINDS[family].values():
            for f in kind.fields.values():
                _spec_enums(f.spec, wanted, set())
        for table in (S.EFFECTS[family], S.CONDITIONS[family]):
            for f in table.values():
                _spec_enums(f.spec, wanted, set())
    assert wanted and wanted <= found


def test_cli_prints_the_schema_and_refuses_an_unknown_game(tmp_path):
    code, out, err = run_cli(["schema"])
    assert code == 0 and json.loads(out) == schema(None)
    for family in S.FAMILIES:
        code, out, _ = run_cli(["schema", family])
        assert code == 0 and json.loads(out)["title"].startswith("Contenu d'une campagne de")
    code, out, err = run_cli(["schema", "jeu-inconnu"])
    assert code == 2 and "aucun jeu" in err and "Traceback" not in err
    code, _, _ = run_cli(["schema", "--out", str(tmp_path / "s.json")])
    assert code == 0 and json.loads((tmp_path / "s.json").read_text()) == schema(None)


def test_shipped_schema_for_editors_is_up_to_date():
    """``site/schema/contenu.schema.json``: ``.vscode/settings.json`` points at it, the site
    serves it.  After a change of format, regenerate it with ``gamebook schema --out``."""
    assert json.loads(SHIPPED.read_text(encoding="utf-8")) == schema(None), (
        "schéma périmé : lancer « gamebook schema --out site/schema/contenu.schema.json »"
    )
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert "./site/schema/contenu.schema.json" in settings["yaml.schemas"]


def _nodes(node, path="#"):
    """Every sub-schema of ``node`` with where it is."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _nodes(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, f"{path}/{i}")


@pytest.mark.parametrize("family", [None, *S.FAMILIES])
def test_the_editor_says_what_is_wrong_in_french(family):
    """yaml-language-server (and VS Code) show a node's ``errorMessage`` instead of their
    English message (« String does not match the pattern… »), ``patternErrorMessage`` for a
    pattern: every pattern, every closed vocabulary and every record with required fields
    carries one, in French, naming what is expected."""
    sch = schema(family)
    patterns = enums = records = 0
    for where, node in _nodes(sch):
        if "pattern" in node and "properties" not in node:
            patterns += 1
            assert node.get("patternErrorMessage", "").startswith("Attendu ici : "), where
        if isinstance(node.get("enum"), list) and node.get("type") == "string":
            enums += 1
            message = node.get("errorMessage", "")
            assert "Valeurs permises" in message, where
            assert all(f"« {v} »" in message for v in node["enum"]), where
        if node.get("type") == "object" and node.get("required"):
            records += 1
            message = node.get("errorMessage", "")
            assert message.startswith("Champs obligatoires : "), where
            assert all(f"« {r} »" in message for r in node["required"]), where
    assert patterns and enums and records


def test_a_number_written_in_words_reads_in_french():
    """``value: deux`` where a number is expected: the message the editor shows."""
    sch = schema(None)
    ints = [
        node
        for _, node in _nodes(sch)
        if node.get("pattern") == "^[0-9]{1,30}$" and "integer" in node.get("type", [])
    ]
    assert ints
    v = jsonschema.Draft202012Validator({**ints[0], "$defs": sch.get("$defs", {})})
    assert list(v.iter_errors("deux")), "« deux » must be refused"
    assert (
        "un nombre entier" in ints[0]["patternErrorMessage"]
        or "identifiant" in (ints[0]["patternErrorMessage"])
    )
