"""Cause before consequence: a file that cannot be parsed comes first, and what it causes
elsewhere is one line under it, in the three formats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import BASE, CAMPAIGNS, copy_base, read, run_check, run_cli, write

from pipeline.content.project import load
from pipeline.findings import CAUSES
from pipeline.story import checks, graph

FILES = [
    (c, p.name)
    for c in CAMPAIGNS
    for p in sorted((BASE / c).glob("*.yaml"))
    if p.name != "campaign.yaml"
]


def _unfolded(folder: Path) -> list:
    """Every finding the check makes, before folding."""
    campaigns, stray = load(folder)
    out = list(stray)
    for camp in campaigns:
        sg, found = graph.build(camp)
        out += [*camp.findings, *found, *checks.run(sg)]
    return out


@pytest.mark.parametrize(("campaign", "name"), FILES)
def test_a_broken_file_comes_first_and_folds_its_consequences(
    tmp_path: Path, campaign: str, name: str
) -> None:
    folder = copy_base(campaign, tmp_path)
    path = folder / name
    write(path, "zz: [\n" + read(path))  # unclosed at line 1: nothing in the file is read
    report = run_check(folder)
    first = report.findings[0]
    assert (first.code, first.file, first.line) == ("YAML001", name, 1)
    raw = [f for f in _unfolded(folder) if f.code not in CAUSES]
    kept = [f for f in report.findings if f.code not in CAUSES]
    folded = len(raw) - len(kept)
    assert folded >= 0
    if folded:
        m = re.search(r"… et (\d+) (?:références?|autres? constats?)", first.message)
        assert m, first.message
        counts = [
            int(n) for n in re.findall(r"(\d+) (?:références?|autres? constats?)", first.message)
        ]
        assert sum(counts) == folded
    # nothing that names what the broken file defined is left outside it
    ids = set(re.findall(r"(?m)^\s*-?\s*(?:id|number):\s*[\"']?([\w]+)", read(path)))
    for f in kept:
        if f.code == "REF001":
            assert not any(f"« {i} »" in f.message for i in ids), f
    # the same line in JSON and GitHub formats
    _, out, _ = run_cli(["check", str(folder), "--format", "json"])
    assert json.loads(out)["findings"][0]["message"] == first.message
    _, out, _ = run_cli(["check", str(folder), "--format", "github"])
    assert out.splitlines()[0].endswith(first.message.replace("%", "%25"))


def test_nothing_is_folded_in_a_clean_or_unrelated_campaign(tmp_path: Path) -> None:
    folder = copy_base(CAMPAIGNS[0], tmp_path)
    write(folder / "zz_vide.yaml", "zz: [\n")
    report = run_check(folder)
    assert [f.code for f in report.findings] == ["YAML001"]
    assert "…" not in report.findings[0].message
