"""The loader: values with positions, YAML 1.2 scalars, and errors as findings."""

from __future__ import annotations

from pipeline.content.load import YList, YMap, parse


def test_positions_are_one_based_line_and_column():
    value, findings = parse("a:\n  - x: 1\n    y: [2, 3]\n", "f.yaml")
    assert findings == []
    assert isinstance(value, YMap) and value.pos == (1, 1)
    item = value["a"][0]
    assert isinstance(value["a"], YList) and value["a"].ipos == [(2, 5)]
    assert item.kpos == {"x": (2, 8), "y": (3, 8)}
    assert item.keypos == {"x": (2, 5), "y": (3, 5)}
    assert item["y"].ipos == [(3, 9), (3, 12)]


def test_scalars_follow_yaml_1_2_and_keep_leading_zeros():
    value, _ = parse(
        "a: 00\nb: 07\nc: 12\nd: -3\ne: 1.5\nf: true\ng: yes\nh: ~\ni: '12'\nj: 0x1F\nk:\n", "f"
    )
    assert value == {
        "a": "00", "b": "07", "c": 12, "d": -3, "e": 1.5, "f": True, "g": "yes",
        "h": None, "i": "12", "j": 31, "k": None,
    }  # fmt: skip


def test_anchors_aliases_and_merge_keys():
    value, findings = parse("base: &b {cost: 1, chain: true}\nact:\n  <<: *b\n  cost: 2\n", "f")
    assert findings == []
    assert value["act"] == {"cost": 2, "chain": True}


def test_broken_yaml_is_a_finding_with_its_line():
    value, findings = parse("a: 1\nb: [1, 2\nc: 3\n", "x.yaml")
    assert value is None
    (f,) = findings
    # placed where the bracket was opened, saying where reading broke
    assert (f.code, f.file, f.line, f.column) == ("YAML001", "x.yaml", 2, 4)
    assert f.message.startswith("YAML mal formé : le crochet « [ » ouvert ici n'est pas fermé")
    assert "ligne 3, colonne 2" in f.message


def test_tab_indentation_is_explained():
    _, (f,) = parse("a:\n\tb: 1\n", "x.yaml")
    assert (f.line, f.column) == (2, 1)
    assert "tabulation" in f.message


def test_duplicate_key_names_both_lines():
    value, (f,) = parse("a: 1\nb: 2\na: 3\n", "x.yaml")
    assert value["a"] == 3
    assert (f.code, f.line, f.column) == ("YAML002", 3, 1)
    assert "la première ligne 1" in f.message


def test_several_documents_and_unknown_alias_are_errors():
    _, (f,) = parse("a: 1\n---\nb: 2\n", "x.yaml")
    assert (f.code, f.line) == ("YAML001", 2)
    _, (g,) = parse("a: *nope\n", "x.yaml")
    assert "l'alias *nope n'a pas d'ancre" in g.message


def test_empty_file_is_no_value_and_no_finding():
    assert parse("", "x.yaml") == (None, [])
    assert parse("# only a comment\n", "x.yaml") == (None, [])


def test_control_character_position_counts_characters_not_bytes():
    _, (f,) = parse("a: éééééééééé\nb: c\x07\n", "x.yaml")
    assert (f.code, f.line, f.column) == ("YAML001", 2, 5)


def _slots(event: object) -> dict:
    names = {n for cls in type(event).__mro__ for n in getattr(cls, "__slots__", ())}
    return {n: getattr(event, n, None) for n in sorted(names)}


def test_lean_events_are_ruamel_events_with_the_same_attributes():
    """libyaml's parser builds its events with the loader's lean classes: each is a subclass
    of ruamel's own, and the same arguments give the same attributes."""
    import _ruamel_yaml as clib
    from ruamel.yaml import events as ev
    from ruamel.yaml.cyaml import CParser

    import pipeline.content.load  # noqa: F401 - installs the lean classes

    marks = ("start", "end")
    cases = {
        "ScalarEvent": (("a", "!x", (True, False), "v", *marks, '"'), {"comment": None}),
        "MappingStartEvent": (("a", "!m", True, *marks, False), {"nr_items": None}),
        "SequenceStartEvent": (("a", None, True, *marks, True), {}),
        "MappingEndEvent": (marks, {}),
        "SequenceEndEvent": (marks, {}),
    }
    for name, (args, kwargs) in cases.items():
        lean, base = getattr(clib, name), getattr(ev, name)
        assert issubclass(lean, base) and lean.__name__ == name
        assert _slots(lean(*args, **kwargs)) == _slots(base(*args, **kwargs))
    seen = []
    parser = CParser("a: &x [1, {b: c}]\nd: *x\n")
    while (e := parser.get_event()) is not None:
        seen.append(
            type(e).__mro__[1] if type(e).__module__ == "pipeline.content.load" else type(e)
        )
    assert ev.ScalarEvent in seen and ev.MappingEndEvent in seen and ev.AliasEvent in seen
