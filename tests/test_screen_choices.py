"""What every game's screens offer at once (issue 26), in CPython: seeded games at the smallest,
the usual and the largest table, one seat played by a person choosing at random, and on every
screen at most 16 choices in view (the buttons of the open groups, a form counting for one),
every button and every folded group with a label, no label twice in one group."""

from __future__ import annotations

import pytest

from engine.core import registry
from engine.core.rng import Rng
from engine.core.session import Session
from pipeline.story.bundles import bundle_for

MAX_VISIBLE = 16
STEPS = 250


def visible(groups: list[dict]) -> int:
    return sum(
        1 if g["kind"] == "form" else len(g["choices"]) for g in groups if not g.get("folded")
    )


@pytest.fixture(scope="module", params=registry.ids())
def game(request):
    return registry.get(request.param)(bundle_for(request.param))


def test_every_screen_shows_at_most_16_labelled_choices(game) -> None:
    low, high = game.seat_range()
    sizes = sorted({low, min(max(game.default_players, low), high), high})
    screens = 0
    for n in sizes:
        session = Session(game).start({"seed": f"ecran-{n}", "players": n, "bots": n - 1})
        pick = Rng({"rng": Rng.seed_from(f"choix-{n}")})
        for _ in range(STEPS):
            scr = session.screen()
            if scr["handoff"]:
                session.handed_over()
                continue
            choices = [c for g in scr["groups"] for c in g["choices"]]
            if scr["over"] or not choices:
                break
            screens += 1
            where = f"{game.id}, {n} seats: {scr['status']}"
            assert visible(scr["groups"]) <= MAX_VISIBLE, (
                f"{where}: {visible(scr['groups'])} choices in view"
            )
            for g in scr["groups"]:
                if g.get("folded"):
                    assert g["heading"].strip(), f"{where}: a folded group without a heading"
                labels = (
                    [c["label"] for c in g["choices"]] if g["kind"] != "form" else [g["submit"]]
                )
                assert all(label.strip() for label in labels), f"{where}: an empty label"
                assert len(labels) == len(set(labels)), f"{where}: a label twice: {labels}"
            session.act(choices[pick.below(len(choices))]["action"])
    assert screens
