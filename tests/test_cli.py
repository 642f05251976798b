"""The ``gamebook`` command as writers and CI run it: exit codes, the three output formats,
the acceptance scenarios on a copy of the base fixtures, and ``gamebook graph``."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from conftest import (
    at,
    check_json,
    copy_all,
    copy_base,
    new_file,
    pos_of,
    read,
    replace,
    run_check,
    run_cli,
)

from pipeline.story.catalogue import CODES

FINDING_KEYS = {"code", "severity", "message", "file", "line", "column", "node"}
STATS_KEYS = {"nodes", "edges", "reachable", "unreachable", "kinds"}
TEXT_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning) "
    r"(?P<code>[A-Z]+\d{3}) (?P<message>.+)$"
)


def gamebook(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line, in a fresh interpreter."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=120,
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stdout
    assert "Traceback" not in proc.stderr


def assert_contract(doc: dict) -> None:
    """The JSON output of ``gamebook check --format json``, key by key."""
    assert set(doc) == {"findings", "stats"}
    assert isinstance(doc["findings"], list)
    for f in doc["findings"]:
        assert set(f) == FINDING_KEYS
        assert f["code"] in CODES
        assert f["severity"] == CODES[f["code"]][0]
        assert isinstance(f["message"], str) and f["message"]
        assert isinstance(f["file"], str) and f["file"]
        assert not f["file"].startswith("/")
        assert isinstance(f["line"], int) and f["line"] >= 1
        assert isinstance(f["column"], int) and f["column"] >= 1
        assert f["node"] is None or isinstance(f["node"], str)
    stats = doc["stats"]
    assert set(stats) >= STATS_KEYS
    for key in ("nodes", "edges", "reachable", "unreachable"):
        assert isinstance(stats[key], int) and stats[key] >= 0
    assert isinstance(stats["kinds"], dict)
    assert all(isinstance(k, str) and isinstance(n, int) for k, n in stats["kinds"].items())


# --------------------------------------------------------------------------- exit codes


def test_exit_0_on_clean_content(content: Path) -> None:
    proc = gamebook("check", str(content))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("0 inatteignable")
    assert "0 erreur, 0 avertissement" in proc.stdout
    no_traceback(proc)


def test_exit_1_on_an_error_finding(content: Path) -> None:
    replace(
        content / "dilemme" / "cartes.yaml",
        "arc: couronne\n    title: Le trône",
        "arc: x\n    title: Le trône",
    )
    proc = gamebook("check", str(content))
    assert proc.returncode == 1
    assert " error REF001 " in proc.stdout
    no_traceback(proc)


def test_exit_0_with_warnings_only(content: Path) -> None:
    path = content / "citadelle" / "citadelle.yaml"
    text = read(path) + "  - id: caravane\n    title: La caravane perdue\n"
    path.write_text(text, encoding="utf-8")
    code, doc, _ = check_json(content)
    assert code == 0
    assert [f["code"] for f in doc["findings"]] == ["GRAPH003"]


def test_exit_2_when_the_content_dir_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nulle-part"
    proc = gamebook("check", str(missing))
    assert proc.returncode == 2
    assert (
        proc.stderr.strip() == f"gamebook check : le dossier de contenu « {missing} » n'existe pas"
    )
    assert proc.stdout == ""
    no_traceback(proc)


def test_exit_2_when_the_content_dir_is_a_file(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text("campaign: {}\n", encoding="utf-8")
    code, _out, err = run_cli(["check", str(path)])
    assert code == 2
    assert f"« {path} » n'est pas un dossier" in err


def test_exit_2_when_there_is_no_campaign(tmp_path: Path) -> None:
    code, _out, err = run_cli(["check", str(tmp_path)])
    assert code == 2
    assert "aucune campagne dans" in err


def test_exit_2_on_usage_errors() -> None:
    proc = gamebook("check", "--format", "xml")
    assert proc.returncode == 2
    assert "choix impossible" in proc.stderr and "Traceback" not in proc.stderr
    assert gamebook().returncode == 2


def test_exit_2_on_an_internal_error_without_traceback(
    content: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.cli import check as check_command

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boum")

    monkeypatch.setattr(check_command, "check", boom)
    code, out, err = run_cli(["check", str(content)])
    assert code == 2
    assert err.startswith("gamebook check : erreur interne (RuntimeError: boum).")
    assert "Traceback" not in out + err


def test_console_script_is_installed(content: Path) -> None:
    script = Path(sys.executable).with_name("gamebook")
    if not script.exists():
        pytest.skip("no gamebook script next to this interpreter")
    proc = subprocess.run([str(script), "check", str(content)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------- formats


def plant_a_warning_and_an_error(content: Path) -> None:
    """One finding of each severity (an unknown field, a dangling side quest), so both shapes
    are exercised."""
    replace(
        content / "dilemme" / "cartes.yaml",
        "    title: Le trône vide\n",
        "    title: Le trône vide\n    titre: x\n",
    )
    replace(
        content / "citadelle" / "paragraphes.yaml",
        "side_quest: puits_sorgue",
        "side_quest: puits_sorge",
    )


def test_json_format_contract(content: Path) -> None:
    plant_a_warning_and_an_error(content)
    proc = gamebook("check", str(content), "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert_contract(doc)
    by_code = {f["code"]: f for f in doc["findings"]}
    assert by_code["FIELD003"]["severity"] == "warning"
    assert by_code["FIELD003"]["file"] == "dilemme/cartes.yaml"
    assert by_code["REF001"]["file"] == "citadelle/paragraphes.yaml"
    assert by_code["REF001"]["node"] == "paragraph:1"
    assert set(doc["stats"]["campaigns"]) == {"dilemme", "citadelle"}


def test_json_file_is_relative_to_the_dir_given(content: Path) -> None:
    folder = content / "citadelle"
    replace(folder / "paragraphes.yaml", "side_quest: puits_sorgue", "side_quest: puits_sorge")
    for given, expected in ((content, "citadelle/paragraphes.yaml"), (folder, "paragraphes.yaml")):
        code, doc, _ = check_json(given)
        assert code == 1
        assert [f["file"] for f in doc["findings"]] == [expected]


def test_json_clean_output(content: Path) -> None:
    code, doc, err = check_json(content)
    assert code == 0 and err == ""
    assert_contract(doc)
    assert doc["findings"] == []


def test_github_format(content: Path) -> None:
    plant_a_warning_and_an_error(content)
    proc = gamebook("check", str(content), "--format", "github")
    assert proc.returncode == 1
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        assert line.startswith(("::error file=", "::warning file="))
        assert re.search(r",line=\d+,col=\d+,title=[A-Z]+\d{3}::", line), line
    err = next(x for x in lines if x.startswith("::error"))
    line, col = at(content / "citadelle" / "paragraphes.yaml", "side_quest: puits_sorge", "puits")
    assert f",line={line},col={col},title=REF001::" in err
    assert "citadelle/paragraphes.yaml" in err
    warn = next(x for x in lines if x.startswith("::warning"))
    assert "title=FIELD003::" in warn


def test_github_format_clean_prints_nothing(content: Path) -> None:
    proc = gamebook("check", str(content), "--format", "github")
    assert proc.returncode == 0
    assert proc.stdout == ""


def test_text_format(content: Path) -> None:
    path = content / "citadelle" / "paragraphes.yaml"
    replace(path, "side_quest: puits_sorgue", "side_quest: puits_sorge")
    proc = gamebook("check", str(content))
    assert proc.returncode == 1
    *findings, summary = proc.stdout.strip().splitlines()
    assert len(findings) == 1
    m = TEXT_LINE.match(findings[0])
    assert m, findings[0]
    line, col = at(path, "side_quest: puits_sorge", "puits")
    assert m["path"] == f"{content.as_posix()}/citadelle/paragraphes.yaml"
    assert (int(m["line"]), int(m["col"])) == (line, col)
    assert (m["severity"], m["code"]) == ("error", "REF001")
    assert m["message"].startswith(
        "paragraphs[0].side_quest renvoie à quête secondaire « puits_sorge », introuvable."
    )
    assert summary.startswith("1 erreur, 0 avertissement — ")
    assert "citadelle : " in summary and "dilemme : " in summary


# --------------------------------------------------------------------------- acceptance scenarios


def test_acceptance_a_clean_content_counts_nodes_and_edges_per_kind(content: Path) -> None:
    proc = gamebook("check", str(content), "--format", "json")
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert doc["findings"] == []
    stats = doc["stats"]
    assert stats["nodes"] > 0 and stats["edges"] > 0 and stats["unreachable"] == 0
    assert stats["kinds"] and all(n > 0 for n in stats["kinds"].values())
    for cid in ("dilemme", "citadelle"):
        per = stats["campaigns"][cid]
        assert per["nodes"] > 0 and per["edges"] > 0
        assert per["kinds"] and all(n > 0 for n in per["kinds"].values())
        assert per["edge_kinds"] and all(n > 0 for n in per["edge_kinds"].values())
        assert sum(per["kinds"].values()) == per["nodes"]
        assert sum(per["edge_kinds"].values()) == per["edges"]
    assert stats["campaigns"]["dilemme"]["kinds"]["dilemma"] == 4
    assert stats["campaigns"]["citadelle"]["kinds"]["paragraph"] == 3
    assert stats["nodes"] == sum(stats["campaigns"][c]["nodes"] for c in stats["campaigns"])


def test_acceptance_b_deleted_file_gives_ref001_at_the_referencing_line(content: Path) -> None:
    (content / "citadelle" / "paragraphes.yaml").unlink()
    proc = gamebook("check", str(content), "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    refs = [f for f in doc["findings"] if f["code"] == "REF001"]
    aventure = content / "citadelle" / "aventure.yaml"
    line, col = at(aventure, "- read: 1", "1")
    assert {
        "code": "REF001",
        "severity": "error",
        "message": "adventure_cards[0].actions[0].success[0].read renvoie à paragraphe « 1 », "
        "introuvable. Ajoutez cet élément (section « paragraphs ») ou corrigez la référence.",
        "file": "citadelle/aventure.yaml",
        "line": line,
        "column": col,
        "node": "adventure_card:101/green",
    } in refs
    no_traceback(proc)
    # the same in the text format, with the path a writer can click
    text = gamebook("check", str(content))
    assert (
        f"{content.as_posix()}/citadelle/aventure.yaml:{line}:{col}: error REF001 " in text.stdout
    )


def test_acceptance_c_invalid_yaml_names_file_and_line(content: Path) -> None:
    path = content / "dilemme" / "enveloppes.yaml"
    replace(path, "    story: H12\n", "    story: [H12\n")
    for fmt in ("text", "json", "github"):
        proc = gamebook("check", str(content), "--format", fmt)
        assert proc.returncode == 1
        no_traceback(proc)
    doc = json.loads(gamebook("check", str(content), "--format", "json").stdout)
    yaml = [f for f in doc["findings"] if f["code"] == "YAML001"]
    assert len(yaml) == 1
    # the unclosed '[' is reported where it was opened, naming the line where libyaml noticed
    # it (the next key's ':')
    assert (yaml[0]["file"], yaml[0]["line"]) == (
        "dilemme/enveloppes.yaml",
        pos_of(path, "story: [H12")[0],
    )
    assert f"ligne {pos_of(path, 'cards: [D12]')[0]}" in yaml[0]["message"]
    assert yaml[0]["message"].startswith("YAML mal formé : ")


def test_acceptance_d_duplicated_node_in_a_second_file(content: Path) -> None:
    folder = content / "dilemme"
    second = new_file(
        folder,
        "suite.yaml",
        """
        dilemmas:
          - id: D03
            title: La tour des astronomes (copie)
            question: Financer la tour ?
            preview: {oui_da: Oui., nenni: Non.}
            oui_da: {text: On finance.}
            nenni: {text: On refuse.}
        """,
    )
    proc = gamebook("check", str(content), "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    ids = [f for f in doc["findings"] if f["code"] == "ID001"]
    dilemma = next(f for f in ids if f["node"] == "dilemma:D03")
    assert dilemma["file"] == "dilemme/suite.yaml"
    assert (dilemma["line"], dilemma["column"]) == at(second, "id: D03", "D03")
    first_line = pos_of(folder / "cartes.yaml", "id: D03")[0]
    assert f"la première fois dans dilemme/cartes.yaml ligne {first_line}." in dilemma["message"]


# --------------------------------------------------------------------------- gamebook graph


@pytest.fixture(scope="module")
def graph_content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_all(tmp_path_factory.mktemp("graph"))


@pytest.mark.parametrize("game", ["dilemme", "citadelle"])
def test_graph_graphml(graph_content: Path, game: str) -> None:
    proc = gamebook("graph", game, "--content", str(graph_content), "--format", "graphml")
    assert proc.returncode == 0, proc.stderr
    g = nx.read_graphml(io.BytesIO(proc.stdout.encode("utf-8")))
    sg = run_check(graph_content).graphs[game]
    assert set(g.nodes) == set(sg.graph.nodes)
    assert g.number_of_edges() == sg.graph.number_of_edges()
    assert g.nodes[f"campaign:{game}"]["kind"] == "campaign"


def test_graph_json(graph_content: Path) -> None:
    proc = gamebook("graph", "citadelle", "--content", str(graph_content), "--format", "json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    nodes = {n["id"]: n for n in data["nodes"]}
    assert nodes["paragraph:1"]["kind"] == "paragraph"
    assert nodes["paragraph:1"]["file"] == "citadelle/paragraphes.yaml"
    edges = {(e["source"], e["target"]): e for e in data["edges"]}
    assert (
        edges[("adventure_card:101/green", "adventure_card:205/green")]["kind"] == "hidden_number"
    )
    assert edges[("paragraph:1", "paragraph:3")]["kind"] == "choice"
    assert json.loads(edges[("paragraph:1", "paragraph:3")]["condition"]) == [["item", "150"]]


def test_graph_dot(graph_content: Path) -> None:
    proc = gamebook("graph", "dilemme", "--content", str(graph_content), "--format", "dot")
    assert proc.returncode == 0
    assert proc.stdout.startswith("digraph")
    assert proc.stdout.rstrip().endswith("}")
    assert '"envelope:00" -> "story_card:H00"' in proc.stdout


def test_graph_default_format_is_json_and_out_writes_a_file(
    graph_content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "graphe.json"
    code, stdout, _err = run_cli(
        ["graph", "dilemme", "--content", str(graph_content), "--out", str(out)]
    )
    assert code == 0 and stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["nodes"]


def test_graph_unknown_campaign_exit_2(graph_content: Path) -> None:
    proc = gamebook("graph", "inconnue", "--content", str(graph_content))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == (
        f"gamebook graph : pas de campagne « inconnue » dans {graph_content} "
        "(trouvées : citadelle, dilemme)"
    )
    no_traceback(proc)


def test_graph_nonexistent_content_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "absent"
    proc = gamebook("graph", "dilemme", "--content", str(missing), "--format", "dot")
    assert proc.returncode == 2
    assert "n'existe pas" in proc.stderr and str(missing) in proc.stderr
    assert proc.stdout == ""
    no_traceback(proc)


def test_graph_dot_fills_each_node_with_its_kind_colour(graph_content: Path) -> None:
    proc = gamebook("graph", "dilemme", "--content", str(graph_content), "--format", "dot")
    from pipeline import schema as S

    envelope = S.KINDS["dilemme"]["envelope"].colour
    assert envelope.startswith("#")
    assert f'"envelope:00" [fillcolor="{envelope}"];' in proc.stdout


def test_two_campaigns_with_one_id_are_a_finding_not_a_crash(tmp_path: Path) -> None:
    """Two campaign folders declaring the same id: ID001 at the second one, exit 1 (the
    message was once declared only where the graph is built, and the check crashed)."""
    content = tmp_path / "content"
    copy_base("citadelle", content)
    shutil.copytree(content / "citadelle", content / "citadelle-bis")
    proc = gamebook("check", str(content), "--no-cache", "--format", "json")
    no_traceback(proc)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    twice = [f for f in doc["findings"] if f["code"] == "ID001"]
    assert len(twice) == 1 and twice[0]["file"] == "citadelle-bis/campaign.yaml"
    assert "déjà celui de la campagne de" in twice[0]["message"]
