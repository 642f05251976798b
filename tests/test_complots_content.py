"""Complots' cards are content: ``gamebook check`` finds nothing wrong in content/complots, and a
counter that names an unknown character is reported with its file and line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import gamebook

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "complots"


def test_the_cards_check_clean():
    proc = gamebook("check", str(CONTENT), "--format", "json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert [f for f in doc["findings"] if f["severity"] == "error"] == []
    kinds = doc["stats"]["kinds"]
    assert kinds.get("character") == 6 and kinds.get("variant") == 2 and kinds.get("counter") == 3


def test_a_counter_naming_an_unknown_character_is_a_finding_with_file_and_line(tmp_path):
    broken = tmp_path / "complots"
    shutil.copytree(CONTENT, broken)
    path = broken / "contres.yaml"
    text = path.read_text(encoding="utf-8")
    assert "by: [duchesse]" in text
    path.write_text(text.replace("by: [duchesse]", "by: [marquise]"), encoding="utf-8")
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "marquise" in t)
    proc = gamebook("check", str(broken), "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    found = [f for f in json.loads(proc.stdout)["findings"] if "marquise" in f["message"]]
    assert found, proc.stdout
    f = found[0]
    assert f["severity"] == "error" and f["file"] == "contres.yaml" and f["line"] == line
    text_proc = gamebook("check", str(broken))
    assert "contres.yaml" in text_proc.stdout and "marquise" in text_proc.stdout


def test_a_variant_must_hold_five_different_characters(tmp_path):
    broken = tmp_path / "complots"
    shutil.copytree(CONTENT, broken)
    path = broken / "variantes.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "[duchesse, assassin, comtesse, capitaine, ambassadeur]",
        "[duchesse, duchesse, comtesse, capitaine, ambassadeur]",
    )
    path.write_text(text, encoding="utf-8")
    proc = gamebook("check", str(broken), "--format", "json")
    assert proc.returncode == 1
    codes = {f["code"] for f in json.loads(proc.stdout)["findings"]}
    assert "FIELD002" in codes
    assert any("deux fois" in f["message"] for f in json.loads(proc.stdout)["findings"])
