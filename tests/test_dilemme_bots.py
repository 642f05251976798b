"""Le Dilemme du Roi's bot temperaments: declared to the front ends, shown on the board, and
each one recognisable by its habits (bots.py ``TEMPERAMENTS``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_dilemme_rulebook import A, J, bundle_with, table
from test_dilemme_rulebook import T as TH

from engine.core import registry
from engine.core.rng import Rng
from engine.dilemme import bots
from engine.dilemme import text_fr as TXT
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game():
    return registry.get("dilemme")(bundle_for("dilemme", ROOT / "content"))


def test_temperaments_are_declared_in_french_and_avise_is_the_default(game):
    assert [o.value for o in game.personas] == list(bots.TEMPERAMENTS)
    assert game.personas[0].value == bots.DEFAULT == "avise"
    assert all(o.label and o.help for o in game.personas)
    setup = game.normalize_setup({"seed": "s", "players": 4, "bots": 4,
                                  "persona": ["cupide", "loyal"]})  # fmt: skip
    assert [s["persona"] for s in setup["seats"]] == ["cupide", "loyal", "avise", "avise"]
    state = game.new_game(setup)
    assert [s["persona"] for s in state["seats"]] == ["cupide", "loyal", "avise", "avise"]


def test_a_bots_temperament_is_shown_beside_its_name(game):
    setup = game.normalize_setup({"seed": "s", "players": 3, "bots": 2, "persona": "cupide"})
    state = game.new_game(setup)
    screen = game.screen(state, 0, game.legal_actions(state, 0))
    text = repr(screen)
    # the temperament in words beside the house's name, never the word « bot » (issue 29)
    word = game.temperament(setup["seats"][1])
    assert word and f"({word})" in text and TXT.UI["legend.temperament"] in text
    assert not re.search(r"\bbots?\b", text, re.I)
    assert setup["seats"][0]["bot"] is False and "persona" not in setup["seats"][0]


def _offer(persona: str | None, coins: int) -> bool:
    """Julius asks Armin to vote Nenni, which Armin likes a little less than Oui-Da."""
    b = bundle_with(X={"oui_da": [{"morale": 1}], "nenni": [{"morale": -1}]})
    b, s = table(b, n=3, card="X", leader=J)
    s["seats"][A]["objective"] = "opulence"  # zone 9–14: Morale up is worth more
    s["resources"]["morale"]["pos"] = 9
    s["pending"] = {"type": "answer", "seat": A}
    s["offer"] = {"from": J, "to": A, "coins": coins, "ask": "nenni", "resume": None}
    actions = [{"type": "answer", "seat": A, "accept": x} for x in (True, False)]
    return bots.choose(b, s, A, actions, persona)["accept"]


def test_a_greedy_house_sells_its_vote_cheaper_and_a_loyal_one_dearer():
    prices = {}
    for persona in bots.TEMPERAMENTS:
        prices[persona] = next(c for c in range(1, 30) if _offer(persona, c))
    assert prices["cupide"] < prices["avise"] < prices["loyal"]
    assert prices["opportuniste"] <= prices["avise"]


def test_a_greedy_house_never_offers_coins(game):
    for g in range(12):
        setup = game.normalize_setup({"seed": f"g{g}", "players": 4, "bots": 4,
                                      "persona": "cupide"})  # fmt: skip
        state = game.new_game(setup)
        for i in range(3_000):
            seats = game.to_act(state)
            if not seats:
                break
            action = game.choose(state, seats[0], Rng({"rng": i}), "cupide")
            assert action["type"] != "offer"
            state = game.apply(state, action)


def test_a_loyal_house_weighs_the_kingdoms_stability():
    """Both sides are worth the same to its objective; one pushes stability to the end of its
    track: the loyal house prefers the other, the default bot does not care."""
    b = bundle_with(X={"oui_da": [{"knowledge": 3}], "nenni": [{"knowledge": -3}]})
    b, s = table(b, n=3, card="X")
    s["stability"] = 17  # near the top of the test track (0–20)
    s["seats"][TH]["objective"] = None
    avise = bots.outcome_values(b, s, TH, "avise")
    loyal = bots.outcome_values(b, s, TH, "loyal")
    assert avise["oui_da"] == avise["nenni"]
    assert loyal["nenni"] > loyal["oui_da"]


def test_an_opportunist_joins_the_side_ahead():
    b = bundle_with(X={"oui_da": [], "nenni": []})
    b, s = table(b, n=3, card="X", leader=TH, balance=0)  # nothing to gain by passing
    s["vote"]["votes"][TH] = {"kind": "nenni", "power": 3, "coin": 0}
    s["seats"][J]["objective"] = None
    s["pending"] = {"type": "vote", "seat": J}
    actions = [a for a in bots.legal_actions(b, s, J, gifts=False) if a["type"] != "offer"]
    pick = bots.choose(b, s, J, actions, "opportuniste")
    assert pick["type"] == "vote" and pick["side"] == "nenni"
    assert bots.choose(b, s, J, actions, "avise")["type"] == "pass"  # indifferent
