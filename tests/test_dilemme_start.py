"""Le Dilemme du Roi started anywhere: the campaign is played forward with the real rules up to
the node (``engine/dilemme/start.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.errors import SetupError
from engine.dilemme import game as G
from engine.dilemme.plugin import Dilemme
from pipeline.story.bundles import bundle_for

CONTENT = Path(__file__).resolve().parent.parent / "content"


@pytest.fixture(scope="module")
def game():
    return Dilemme(bundle_for("dilemme", CONTENT))


@pytest.fixture(scope="module")
def setup(game):
    return game.normalize_setup({"players": 4, "bots": 4, "seed": "1"})


def test_every_envelope_can_be_started_and_is_opened_on_the_way(game, setup):
    for key in game.bundle["records"]["envelope"]:
        state = game.start_from(f"envelope:{key}", setup)
        final = f"{int(game.bundle['campaign']['grand_final']):02d}"
        if key == final:  # opened by the sixth secret sticker, at the end of this game
            assert state["final_pending"] and len(state["campaign"]["secret_stickers"]) >= 6
            continue
        assert key in state["campaign"]["opened"]
        # every step of the way is a dilemma outcome that the deck held
        for card, side in state["started_from"]["path"]:
            assert side in ("oui_da", "nenni", "")
            assert card not in state["deck"] or card in game.bundle["records"].get(
                "immediate_card", {}
            )


def test_the_first_round_is_about_the_chosen_dilemma(game, setup):
    key = sorted(game.bundle["records"]["dilemma"])[-1]
    state = game.start_from(f"dilemma:{key}", setup)
    assert state["deck"][-1] == key  # the bottom card is drawn first
    # the game then goes on with the real rules: setup steps, then the vote on that card
    for _ in range(50):
        if state["phase"] == "vote":
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, game.legal_actions(state, seat)[0])
    assert state["vote"]["card"] == key


def test_conditions_on_the_way_hold(game, setup):
    """An outcome whose effect sits in a ``branch`` is only counted when its condition holds:
    the start state has the flags that condition needs."""
    records = game.bundle["records"]
    for card in records["dilemma"].values():
        for side in G.SIDES:
            for effect in (card.get(side) or {}).get("effects") or ():
                branch = effect.get("branch")
                if not branch:
                    continue
                flags = [a["flag"] for a in branch["requires"] if "flag" in a]
                opens = [e["open_envelope"] for e in branch["then"] if "open_envelope" in e]
                if flags and opens:
                    state = game.start_from(f"envelope:{int(opens[0]):02d}", setup)
                    assert f"{int(opens[0]):02d}" in state["campaign"]["opened"]


def test_components_and_unknown_nodes_are_refused_in_french(game, setup):
    house = sorted(game.bundle["records"]["house"])[0]
    with pytest.raises(SetupError, match="pas un moment de l'histoire"):
        game.start_from(f"house:{house}", setup)
    with pytest.raises(SetupError, match="n'existe pas"):
        game.start_from("dilemma:PAS_DE_CARTE", setup)
