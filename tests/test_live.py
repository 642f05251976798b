"""``gamebook serve``'s live preview over HTTP (the browser side is in tests/e2e): a content
change rebuilds what it feeds and bumps the version the pages poll; broken content keeps the
last good build served and reports its findings; every page gets the reload script; no
service worker caches anything."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT = re.compile(r"^(?P<lead>[ ]+text: >-?[ ]*\n[ ]+)", re.M)


@pytest.fixture
def served(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(content), "--out",
         str(tmp_path / "site"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    url = None
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"(http://[\d.]+:\d+/)", line)
        if m:
            url = m.group(1)
            break
    assert url, "gamebook serve did not start"
    yield content, url
    proc.terminate()
    proc.wait(20)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode("utf-8")


def status(url: str) -> dict:
    return json.loads(get(url + "__gamebook__/status.json"))


def wait(url: str, pred, limit: float = 60) -> dict:
    end = time.time() + limit
    while time.time() < end:
        s = status(url)
        if pred(s):
            return s
        time.sleep(0.05)
    raise AssertionError(f"timeout; last status {s}")


def test_live_rebuild_reload_and_findings(served):
    content, url = served
    camp = next(p for p in sorted(content.glob("*/campaign.yaml")))
    family = re.search(r"^\s*family:\s*(\S+)", camp.read_text(encoding="utf-8"), re.M).group(1)
    page = url + f"play/{family}/"
    first = status(url)
    assert first["findings"] == []
    html = get(page)
    assert "/__gamebook__/live.js" in html and "gb-opening" in html
    assert "location.reload" in get(url + "__gamebook__/live.js")
    assert "unregister" in get(url + "sw.js")

    # a content change: a new version, the page shows the new text
    text = camp.read_text(encoding="utf-8")
    camp.write_text(TEXT.sub(lambda m: m.group("lead") + "Motdépreuve ", text, 1), "utf-8")
    s = wait(url, lambda s: s["version"] > first["version"])
    assert s["findings"] == [] and "Motdépreuve" in get(page)
    manifest = json.loads(get(url + "manifest.json"))
    assert manifest["bundles"][family] and get(url + manifest["bundles"][family])

    # broken content: findings reported, the last good build still served
    good = get(page)
    broken = camp.read_text(encoding="utf-8").replace("campaign:", "campaign: [", 1)
    camp.write_text(broken, encoding="utf-8")
    s = wait(url, lambda s: s["findings"])
    assert any(f["code"].startswith(("YAML", "CAMP")) for f in s["findings"])
    assert all(f["file"] and f["line"] and f["message"] for f in s["findings"])
    assert get(page) == good and s["version"] == status(url)["version"]

    # fixed: the findings go, a new version
    camp.write_text(text, encoding="utf-8")
    after = wait(url, lambda x: not x["findings"] and x["version"] > s["version"])
    assert "Motdépreuve" not in get(page) and after["findings"] == []


def test_serve_starts_with_errors_and_shows_them_until_they_are_fixed(tmp_path):
    """Issue 31: content that already has an error when ``serve`` starts is served all the
    same, its findings in every page's overlay; once fixed, the site is built again."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "complots", content / "complots")
    counters = content / "complots" / "contres.yaml"
    good = counters.read_text(encoding="utf-8")
    assert "by: [duchesse]" in good
    counters.write_text(good.replace("by: [duchesse]", "by: [duchese]", 1), encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NO_MKDOCS_2_WARNING": "1",
        "GAMEBOOK_PRECOMPILE": "0",
        "GAMEBOOK_ZSTD": "0",
    }  # two builds: the lighter ones
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "serve", "--content", str(content), "--out",
         str(tmp_path / "site"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            m = re.search(r"(http://[\d.]+:\d+/)", line)
            if m:
                url = m.group(1)
                break
        assert url, "gamebook serve did not start"
        first = status(url)
        refs = [f for f in first["findings"] if f["code"] == "REF001"]
        assert refs and refs[0]["file"].endswith("complots/contres.yaml"), first["findings"]
        assert refs[0]["line"] == 5 and "duchese" in refs[0]["message"]
        # the site itself, built from the content as it is, each page with the overlay
        assert "/__gamebook__/live.js" in get(url + "play/complots/")
        assert "s.findings.length" in get(url + "__gamebook__/live.js")

        counters.write_text(good, encoding="utf-8")
        after = wait(url, lambda s: not s["findings"] and s["version"] > first["version"], 180)
        assert after["last"] == "site"
        assert "/__gamebook__/live.js" in get(url + "play/complots/")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "1 erreur dans le contenu : chaque page l'affiche dans un cadre" in err


def test_content_too_broken_to_build_is_served_as_a_page_that_says_so(tmp_path, monkeypatch):
    """When even a build with errors fails, ``serve`` still starts: a page stands in for the
    site (the overlay lists the findings) until the content is fixed."""
    from pipeline.publish import live

    def fails(*args, **kwargs):
        raise RuntimeError("no bundle from this content")

    monkeypatch.setattr(live, "full_build", fails)
    out = tmp_path / "site"
    (out / "old").mkdir(parents=True)
    assert live._first_build(tmp_path, out, tmp_path / "mkdocs.yml", False, broken=True) == 0
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Le contenu a des erreurs" in page and "</body>" in page
