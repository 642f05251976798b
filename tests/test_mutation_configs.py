"""Each game's ``mutation.toml`` (read by ``bench/mutation.py``) covers the whole package: every
module is either a rules module that is mutated or left out with its reason; the test files
that judge the mutants exist; every survivor declared equivalent names a mutant of a rules
module and says why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_mutation", ROOT / "bench" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()


@pytest.mark.parametrize("game", registry.ids())
def test_every_module_of_a_game_is_mutated_or_left_out_with_a_reason(game):
    settings = bench.settings_of(game)
    package = ROOT / "engine" / game
    modules, left = settings["modules"], settings.get("left_out", {})
    assert modules and not set(modules) & set(left)
    assert all((package / m).is_file() for m in [*modules, *left])
    assert all(len(why.split()) >= 3 for why in left.values())
    assert settings["tests"] and all((ROOT / t).is_file() for t in settings["tests"])
    for mutant, why in settings.get("equivalent", {}).items():
        assert mutant.startswith(f"engine.{game}.") and bench.module_of(mutant) in modules
        assert "__mutmut_" in mutant and len(why) > 20


def test_a_module_neither_mutated_nor_left_out_is_refused(tmp_path, monkeypatch):
    game = tmp_path / "engine" / "jeu"
    game.mkdir(parents=True)
    for name in ("__init__.py", "rules.py", "screen.py", "bots.py"):
        (game / name).write_text("")
    (game / "mutation.toml").write_text(
        'modules = ["rules.py"]\ntests = []\n[left_out]\n"screen.py" = "French text only"\n'
    )
    monkeypatch.setattr(bench, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match=r"bots\.py"):
        bench.settings_of("jeu")


def test_the_tally_counts_each_status_once_per_module():
    found = {
        "engine.jeu.rules.x_a__mutmut_1": "killed",
        "engine.jeu.rules.x_a__mutmut_2": "timeout",
        "engine.jeu.rules.x_a__mutmut_3": "survived",
        "engine.jeu.rules.x_a__mutmut_4": "survived",
        "engine.jeu.rules.x_a__mutmut_5": "no tests",
        "engine.jeu.rules.xǁTǁm__mutmut_1": "not checked",
        "engine.jeu.die.x_b__mutmut_1": "caught by type check",
    }
    rows = bench.tally(found, {"engine.jeu.rules.x_a__mutmut_4": "same value"})
    zero = {"killed after": 0}
    assert rows == {
        "rules.py": {
            "mutants": 6,
            "killed": 2,
            **zero,
            "equivalent": 1,
            "survived": 2,
            "not run": 1,
        },
        "die.py": {"mutants": 1, "killed": 1, **zero, "equivalent": 0, "survived": 0, "not run": 0},
    }
    # a survivor that a test written after the run kills (checked by hand) is killed, once
    after = {"engine.jeu.rules.x_a__mutmut_3", "engine.jeu.rules.x_a__mutmut_1"}
    rows = bench.tally(found, {"engine.jeu.rules.x_a__mutmut_4": "same value"}, after)
    assert rows["rules.py"] == {
        "mutants": 6,
        "killed": 2,
        "killed after": 1,
        "equivalent": 1,
        "survived": 1,
        "not run": 1,
    }
    assert bench.percent(2, 3) == "66.7 %" and bench.percent(0, 0) == "—"


@pytest.mark.parametrize("game", registry.ids())
def test_no_function_of_a_rules_module_hides_from_mutmut(game):
    """mutmut 3 leaves decorated functions unmutated: a rules module registers or caches a
    function by a call after its definition, so that every rule is mutated."""
    import ast

    hidden = []
    for module in bench.settings_of(game)["modules"]:
        tree = ast.parse((ROOT / "engine" / game / module).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [ast.unparse(d) for d in node.decorator_list]
                if any(n not in ("staticmethod", "classmethod") for n in names):
                    hidden.append(f"{module}: {node.name} ({', '.join(names)})")
    assert not hidden, hidden
