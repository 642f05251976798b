"""The 7th Citadel: the rulebook's worked examples, and properties over whole adventures."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.citadelle import apply, legal_actions, new_game, view
from engine.citadelle import rules as R
from engine.citadelle.auto import choose
from engine.core import IllegalAction


def card(stars=0, halves=(), classes=()):
    return {"result": {"stars": stars, "half_stars": list(halves), "classes": list(classes)}}


# --------------------------------------------------------------------------- pure rules

FLAIL = {"classes": ["might", "agility", "wits", "faith"], "count": 3, "into": "success", "max": 2}
SWORD = {"classes": ["might"], "count": 1, "into": "success", "max": 3}


def test_bruno_lifts_the_rock_with_the_grain_flail():
    """3 cards drawn (cost 5, the flail lets him draw 2 fewer): one full star; a half-star with
    two class icons; a half-star with one class icon.  The halves pair: 2 successes.  The flail
    turns the 3 class icons into 1 success: 3 successes, the difficulty is 3."""
    drawn = [card(stars=1), card(halves=["left"], classes=["might", "wits"]),
             card(halves=["right"], classes=["agility"])]  # fmt: skip
    stars, counted = R.best_stars(drawn, None)
    assert stars == 2 and counted == [0, 1, 2]
    successes, cancels, unused = R.convert(R.class_icons(drawn), [FLAIL])
    assert (successes, cancels, unused) == (1, 0, [])
    assert stars + successes == 3


def test_half_stars_pair_only_in_reading_order():
    assert R.best_stars([card(halves=["right"]), card(halves=["left"])], None)[0] == 0
    assert R.best_stars([card(halves=["left", "right"])], None)[0] == 1


def test_bruno_fights_with_the_sword_chain_and_four_cards():
    """Chain icon, default cost 2: of the 4 cards drawn only 2 count their stars (2 successes).
    The sword turns a might icon and a joker (counted as might) into 2 more: 4 successes."""
    drawn = [card(stars=1), card(stars=1, classes=["joker"]), card(stars=1),
             card(halves=["left"], classes=["might"])]  # fmt: skip
    stars, counted = R.best_stars(drawn, limit=2)
    assert stars == 2 and len(counted) == 2
    successes, _, _ = R.convert(R.class_icons(drawn), [SWORD])
    assert successes == 2
    die = 4 - (stars + successes)
    assert die < 1  # the multiple action's line succeeds


def test_version_priority_of_cards_123_and_456():
    """123: one version per scenario symbol and a generic one; playing a third scenario, only
    the generic one may be taken.  456: the version of the scenario being played comes first."""
    v123 = [{"key": "123/green@a", "scenario": "a"}, {"key": "123/green@b", "scenario": "b"},
            {"key": "123/green", "version": "green"}]  # fmt: skip
    assert R.pick_version(v123, "c", set())["key"] == "123/green"
    v456 = [{"key": "456/green", "version": "green"}, {"key": "456/green@c", "scenario": "c"}]
    assert R.pick_version(v456, "c", set())["key"] == "456/green@c"
    gold_only = [{"key": "7/gold", "version": "gold"}, {"key": "7/green@x", "scenario": "x"}]
    assert R.pick_version(gold_only, "c", set())["key"] == "7/gold"  # green first, else gold
    assert R.pick_version([{"key": "8/green@x", "scenario": "x"}], "c", set()) is None


def test_recovering_eight_cards_costs_four_hit_points():
    assert R.recovery_cost(8) == 4
    assert R.recovery_cost(9, "story") == 3  # the story variant: 1 HP per 3 cards
    assert R.recovery_cost(9, "survival") == 6  # the survival variant: 2 HP per 3 cards


def test_conversions_respect_max_and_cancel_damage():
    icons = ["might"] * 5
    s, c, left = R.convert(
        icons,
        [
            {"classes": ["might"], "count": 1, "into": "success", "max": 2},
            {"classes": ["might"], "count": 1, "into": "cancel_damage"},
        ],
    )
    assert (s, c, left) == (2, 3, [])


# --------------------------------------------------------------------------- engine

SKILLS = {
    f"S{i}": {"id": f"S{i}", "skill": "character", "character": "A", "title": f"Compétence {i}",
              "result": {"stars": 1 if i % 3 else 0, "half_stars": ["left"] if i % 3 == 0 else [],
                         "classes": ["might"]}}
    for i in range(14)
}  # fmt: skip


def adventure(number, type_, **fields):
    return {"number": number, "version": fields.pop("version", "green"), "type": type_,
            "key": f"{number}/{fields.get('_v', 'green')}", **fields}  # fmt: skip


def make_bundle() -> dict:
    cards = {
        "154/green": adventure(154, "terrain", title="La falaise", hidden_numbers=[316],
                               arrows=[{"direction": "east", "zone": "I", "card": 160}],
                               actions=[{"verb": "search", "cost": 3, "difficulty": 5,
                                         "success": [{"return_to_citadel": True}]}]),
        "316/green": adventure(316, "terrain", title="La grotte cachée", back_source=154,
                               actions=[{"verb": "climb", "cost": 1, "difficulty": 1,
                                         "success": [{"hope": 1}]}]),
        "160/green": adventure(160, "terrain", title="Le gué",
                               actions=[{"verb": "fight", "cost": 2, "chain": True, "lines": [
                                   {"difficulty": 2, "success": [{"move_die": 1}]},
                                   {"difficulty": 1, "success": [{"damage": 1}]}]}]),
        "170/green": adventure(170, "purse", title="Épée", weight=2, keywords=["ARME"],
                               when=["fight"], bonuses={"convert": SWORD}),
    }  # fmt: skip
    return {
        "format_version": 1,
        "family": "citadelle",
        "campaign": {"id": "t", "family": "citadelle", "title": "t", "intro": "s1"},
        "records": {
            "adventure_card": cards,
            "exploration_card": {
                "1001": {
                    "id": 1001,
                    "zone": "I",
                    "type": "temporary_event",
                    "title": "Brume",
                    "effects": [{"hit_points": -1}],
                },
                "1002": {
                    "id": 1002,
                    "zone": "I",
                    "type": "permanent_event",
                    "title": "Ronces",
                    "actions": [
                        {
                            "verb": "pull_push_lift",
                            "cost": 1,
                            "difficulty": 1,
                            "success": [{"discard": "this"}],
                        }
                    ],
                },
            },
            "character": {
                "A": {
                    "id": "A",
                    "name": "Bruno",
                    "hand_size": {"1": 5, "2": 4},
                    "carry_weight": {"1": 6, "2": 5},
                    "starting_skills": list(SKILLS),
                },
            },
            "action_card": SKILLS,
            "scenario": {
                "s1": {
                    "id": "s1",
                    "title": "Premier pas",
                    "text": "…",
                    "setup": {"hit_points": {"1": 40, "2": 30}, "start": [154, 170]},
                    "epilogue": [{"id": "fin", "text": "Fin.", "end": "victory"}],
                },
            },
            "citadel": {"citadelle": {"id": "citadelle", "scores": {"influence": 5}}},
        },
    }


BUNDLE = make_bundle()


def test_ludovics_zero_cost_passage_draws_nothing_and_succeeds():
    s = new_game(BUNDLE, ["A"], 1)
    reveal = {"type": "act", "character": 0, "source": "explore:1,0", "index": 0, "join": False}
    assert reveal in legal_actions(BUNDLE, s)
    deck = len(s["characters"][0]["deck"])
    s = apply(BUNDLE, s, reveal)
    assert legal_actions(BUNDLE, s) == [{"type": "draw", "count": n} for n in range(0, 7)]
    s = apply(BUNDLE, s, {"type": "draw", "count": 0})
    assert len(s["characters"][0]["deck"]) == deck
    result = [e for e in s["log"] if e["key"] == "action.result"][-1]["args"]
    assert result["ok"] and result["successes"] == 0 and result["drawn"] == 0


def test_hidden_number_316_found_on_terrain_154():
    s = new_game(BUNDLE, ["A"], 1)
    search = {"type": "search", "character": 0, "number": 316}
    assert search in legal_actions(BUNDLE, s)
    with pytest.raises(IllegalAction, match="no card here hides that number"):
        apply(BUNDLE, s, {"type": "search", "character": 0, "number": 999})
    s = apply(BUNDLE, s, search)
    here = s["characters"][0]["at"]
    assert s["board"][here]["terrain"] == "316/green"  # the new card takes 154's place
    assert {"kind": "adventure", "key": "154/green"} in s["past"]


def test_multiple_action_with_the_sword_moves_the_die():
    s = new_game(BUNDLE, ["A"], 3)
    s["characters"][0]["at"] = "0,0"
    s["board"]["0,0"]["terrain"] = "160/green"  # stand on the ford
    s["box"]["160"] = []
    fight = {"type": "act", "character": 0, "source": "terrain:0,0", "index": 0, "join": False}
    s = apply(BUNDLE, s, fight)
    assert s["dice"]["terrain:0,0#0"] == {"line": 0, "value": 2, "card": "160/green"}
    # the sword is selected automatically if nothing else competes; else select it
    if s["pending"]["type"] == "prepare":
        s = apply(BUNDLE, s, {"type": "select", "item": "170/green"})
    s["characters"][0]["deck"][-4:] = ["S1", "S2", "S4", "S5"]  # 1 star and a might icon each
    s = apply(BUNDLE, s, {"type": "draw", "count": 4})
    result = [e for e in s["log"] if e["key"] == "action.result"][-1]["args"]
    assert result["counted"] == 2  # chain: only the default cost's 2 cards count their stars
    assert result["successes"] == 2 + 3  # 2 stars, the sword converts 3 might icons (max 3)
    assert s["dice"]["terrain:0,0#0"] == {"line": 1, "value": 1, "card": "160/green"}  # moved down


def test_a_banish_with_an_empty_hand_is_skipped():
    """A character knocked out queues "banish one of your three new cards"; if the hand has
    emptied by the time the turn comes back, the game goes on instead of asking the impossible."""
    from engine.citadelle.game import _next_turn

    s = new_game(BUNDLE, ["A"], 1)
    s["characters"][0]["hand"] = []
    s["interrupt"] = [{"type": "banish", "character": 0}]
    _next_turn(BUNDLE, s)
    assert s["pending"]["type"] != "banish" and legal_actions(BUNDLE, s)


def test_a_number_hidden_on_a_purse_card_is_searched_by_its_holder_only():
    import copy

    bundle = copy.deepcopy(BUNDLE)
    bundle["records"]["character"]["B"] = {**bundle["records"]["character"]["A"], "id": "B",
                                           "name": "Ludovic"}  # fmt: skip
    bundle["records"]["adventure_card"]["170/green"]["hidden_numbers"] = [316]
    s = new_game(bundle, ["A", "B"], 1)
    s["board"]["0,0"]["terrain"] = "160/green"  # nothing hidden on the ground
    s["box"]["154"] = []
    for ch in s["characters"]:
        ch["at"], ch["purse"] = "0,0", []
    s["characters"][0]["purse"] = ["170/green"]
    searches = [a for a in legal_actions(bundle, s) if a["type"] == "search"]
    assert searches == [{"type": "search", "character": 0, "number": 316}]
    s = apply(bundle, s, searches[0])  # 316's back names 154, not the sword: put back
    assert s["characters"][0]["purse"] == ["170/green"]


def _all_places(state: dict) -> list[str]:
    keys: list[str] = []
    for spot in state["board"].values():
        keys.append(spot["terrain"])
        keys.extend(e["key"] for e in spot["events"])
    for slot in state["slots"].values():
        if slot.get("adventure"):
            keys.append(slot["adventure"])
        if slot.get("exploration"):
            keys.append("x" + str(slot["exploration"]))
    keys += state["globals"] + state["quest_items"] + state["world_map"] + state["resolving"]
    for c in state["characters"]:
        keys += c["purse"] + [k for k in c["blocked"] if "/" in k]
    for ref in state["past"] + state["banished"]:
        if ref["kind"] == "adventure":
            keys.append(ref["key"])
        elif ref["kind"] == "exploration":
            keys.append("x" + str(ref["key"]))
    for ks in state["box"].values():
        keys += ks
    for deck in state["explore_decks"].values():
        keys += ["x" + str(k) for k in deck]
    return keys


def _skills(state: dict) -> list[str]:
    out: list[str] = []
    for c in state["characters"]:
        out += c["deck"] + c["hand"] + c["discard"] + [k for k in c["blocked"] if "/" not in k]
    if state.get("action"):
        out += state["action"]["drawn"]
    out += [r["key"] for r in state["banished"] if r["kind"] == "action_card"]
    return out


@settings(max_examples=30, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 2**32))
def test_random_adventures_never_duplicate_or_lose_a_card(seed, pick):
    rnd = random.Random(pick)
    s = new_game(BUNDLE, ["A"], seed)
    cards = sorted(_all_places(s))
    skills = sorted(_skills(s))
    assert len(set(cards)) == len(cards)
    for _ in range(300):
        if s["pending"] is None:
            break
        frozen = json.dumps(s, sort_keys=True)
        nxt = apply(BUNDLE, s, rnd.choice(legal_actions(BUNDLE, s)))
        assert json.dumps(s, sort_keys=True) == frozen  # apply never mutates its input
        assert json.loads(json.dumps(nxt)) == nxt
        assert sorted(_all_places(nxt)) == cards
        assert sorted(_skills(nxt)) == skills
        assert 0 <= nxt["characters"][0]["hp"] <= 99
        s = nxt


def test_same_seed_same_adventure_and_view_hides_decks():
    def run(seed):
        s = new_game(BUNDLE, ["A"], seed)
        states = [s]
        while s["pending"] is not None and len(states) < 400:
            s = apply(BUNDLE, s, choose(BUNDLE, s))
            states.append(s)
        return states

    assert run(5) == run(5)
    v = view(BUNDLE, run(5)[0])
    assert isinstance(v["characters"][0]["deck"], int) and "rng" not in v
    assert all(
        slot.get("exploration") is None for slot in v["slots"].values() if not slot["revealed"]
    )
