"""Every game's ``plugin.py`` has one shape: the same sections in the same order, one idiom.

A reader who knows one plug-in finds their way in the next: per-bundle data on the ``Game``
instance (``content``), then ``setup``, ``the turn``, ``bots``, ``text and screens`` and
``checks``.  Bots go through ``decide`` (a cheap view through ``bot_view``), never around it,
and a package exports its ``GAME`` and nothing else.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ["content", "setup", "the turn", "bots", "text and screens", "checks"]
MARKER = re.compile(r"^    # -{10,} (.+)$", re.M)
GAMES = registry.ids()


def sections(text: str) -> list[str]:
    return MARKER.findall(text)


def test_the_markers_are_read() -> None:
    text = (
        "class G:\n    # ------------------------------------------------------------------ setup\n"
    )
    assert sections(text) == ["setup"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_plugin_has_the_sections_in_order(game_id: str) -> None:
    text = (ROOT / "engine" / game_id / "plugin.py").read_text(encoding="utf-8")
    assert sections(text) == SECTIONS


@pytest.mark.parametrize("game_id", GAMES)
def test_bots_decide_through_the_contract(game_id: str) -> None:
    cls = registry.get(game_id)
    assert "choose" not in vars(cls), f"{game_id} plays its bots around decide"
    assert "decide" in vars(cls)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_package_exports_its_game_only(game_id: str) -> None:
    package = importlib.import_module(f"engine.{game_id}")
    assert package.__all__ == ["GAME"]
