"""``gamebook check --watch``: every report it prints after a save is what a cold ``gamebook
check`` prints of the folder as it stands, whatever the edit (a text, a choice added, an id
renamed, a YAML error and its fix, a file removed, a campaign added), through the real
command line."""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import CAMPAIGNS, append, copy_base, read, replace, write

from pipeline.cli import check as cli_check

ROOT = Path(__file__).resolve().parent.parent


def content_of(tmp: Path) -> Path:
    content = tmp / "content"
    for name in CAMPAIGNS:
        copy_base(name, content)
    return content


def gamebook(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command line, in a fresh interpreter, run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        cwd=ROOT,
    )


def cold(content: Path) -> dict:
    proc = gamebook("check", str(content), "--no-cache", "--format", "json")
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


class Watcher:
    """``gamebook check --watch --format json`` in its own process, its reports read as they
    come."""

    def __init__(self, content: Path) -> None:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pipeline.cli",
                "check",
                str(content),
                "--watch",
                "--format",
                "json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env,
            cwd=ROOT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def report(self, timeout: float = 60) -> dict:
        return json.loads(self.lines.get(timeout=timeout))

    def stop(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGINT)
        _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


def _save(path: Path, text: str) -> None:
    write(path, text)
    time.sleep(0.05)  # distinct modification times, as saves a writer makes


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_every_report_after_a_save_is_a_cold_check(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    citadel = content / "citadelle" / "paragraphes.yaml"
    cards = content / "dilemme" / "cartes.yaml"
    original = read(citadel)
    w = Watcher(content)
    try:
        assert w.report() == cold(content)

        def edit(change) -> None:
            change()
            assert w.report() == cold(content)

        # a text, then a choice added (to a paragraph that does not exist: a reference to
        # nothing), then an id renamed (what lies behind it folds under the broken reference)
        edit(lambda: _save(citadel, original.replace("text: ", "text: Réécrit. ", 1)))
        edit(
            lambda: replace(
                citadel,
                "        read: 3\n",
                "        read: 3\n      - text: Suivre le garde.\n        read: 999\n",
            )
        )
        edit(lambda: replace(cards, "  - id: D12\n", "  - id: D12-digue\n"))
        # a YAML error, then its fix
        edit(lambda: append(citadel, "- id: [\n", indent=2))
        edit(lambda: _save(citadel, original))
        # a file removed, and a second campaign with the same id
        extra = sorted(p for p in (content / "dilemme").glob("*.yaml") if p.name != "campaign.yaml")
        edit(lambda: extra[-1].unlink())
        edit(lambda: shutil.copytree(content / "citadelle", content / "citadelle-bis"))
        doc = cold(content)
        assert any(f["code"] == "ID001" for f in doc["findings"])
        assert any(f.get("cause") for f in doc["findings"])
    finally:
        code, err = w.stop()
    assert code == 130
    assert "Traceback" not in err
    assert "surveillance de" in err and "vérification n° 2" in err
    # each round says what happened to which file: a removed one is not « modifié »
    assert "modifié : citadelle/paragraphes.yaml" in err
    assert f"supprimé : dilemme/{extra[-1].name}" in err
    assert "ajouté : citadelle-bis, citadelle-bis/" in err and "et " in err


def test_what_changed_names_each_kind_of_change() -> None:
    before = [("a.yaml", 1), ("b.yaml", 1), ("c.yaml", 1)]
    now = [("a.yaml", 2), ("c.yaml", 1), *((f"n{i}.yaml", 1) for i in range(5))]
    said = cli_check._what_changed(cli_check._changed(before, now))
    assert said == (
        "modifié : a.yaml ; ajouté : n0.yaml, n1.yaml, n2.yaml et 2 autres ; supprimé : b.yaml"
    )
    assert cli_check._what_changed(cli_check._changed(before, before)) == (
        "fichiers réécrits à l'identique"
    )


def test_the_first_report_is_what_check_prints(tmp_path: Path, capsys) -> None:
    content = content_of(tmp_path)
    replace(content / "dilemme" / "cartes.yaml", "  - id: D12\n", "  - id: D12-digue\n")
    for fmt in ("text", "json", "github"):
        args = argparse.Namespace(
            content_dir=str(content),
            format=fmt,
            jobs=None,
            deep=False,
            deep_runs=60,
            spelling=False,
            no_cache=True,
            against=None,
            watch=False,
        )
        code = cli_check.run(args)
        once = capsys.readouterr().out
        watched = cli_check.watch(args, rounds=1)
        out = capsys.readouterr().out
        assert watched == code == 1
        expected = (
            json.dumps(json.loads(once), ensure_ascii=False) + "\n" if fmt == "json" else once
        )
        assert out == expected


def test_watch_refuses_what_it_cannot_repeat(tmp_path: Path) -> None:
    content = content_of(tmp_path)
    for extra in (["--deep"], ["--spelling"], ["--against", str(tmp_path)]):
        proc = gamebook("check", str(content), "--watch", *extra, timeout=60)
        assert proc.returncode == 2
        assert "--watch ne se combine pas avec" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_watch_of_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    proc = gamebook("check", str(tmp_path / "absent"), "--watch", timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and str(tmp_path / "absent") in proc.stderr


def test_a_file_gone_while_read_is_looked_at_again(tmp_path: Path, capsys, monkeypatch) -> None:
    content = content_of(tmp_path)
    real = cli_check._watch_report
    calls: list[int] = []

    def flaky(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            raise FileNotFoundError("gone")
        return real(*a, **k)

    monkeypatch.setattr(cli_check, "_watch_report", flaky)
    args = argparse.Namespace(
        content_dir=str(content), format="json", deep=False, spelling=False, against=None
    )
    assert cli_check.watch(args, rounds=1) == 0
    assert len(calls) == 2
    assert json.loads(capsys.readouterr().out) == cold(content)
