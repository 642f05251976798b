"""The 7th Citadel's rules modules one function at a time (the rulebook's sections on hit
points, unconsciousness, Récupération, hand and purse, leaving the adventure, where every card
is, saving, dialogues and the calculations), written to catch one-line changes to a rule."""

from __future__ import annotations

import pytest

from engine.citadelle import cards as K
from engine.citadelle import characters as C
from engine.citadelle import dialogues as D
from engine.citadelle import records as rec
from engine.citadelle import rules as R
from engine.citadelle import saving as S
from engine.citadelle.situation import consequence, place, situation
from engine.citadelle.turn import apply, legal_actions
from pipeline.story.bundles import bundle_for

SIX = ["a_estoc", "a_bouclier", "a_epaule", "a_cri", "a_charge", "a_sentinelle"]


@pytest.fixture(scope="module")
def bundle() -> dict:
    return bundle_for("citadelle")


def keys(state: dict, *names: str) -> list[str]:
    return [e["key"] for e in state["log"] if e["key"] in names]


def entries(state: dict, key: str) -> list[dict]:
    return [e["args"] for e in state["log"] if e["key"] == key]


def held(bundle: dict, state: dict, c: int, number: int, pile: str = "purse") -> str:
    """The key of card ``number`` in a character's purse (or blocked purse)."""
    return next(k for k in state["characters"][c][pile] if rec.number(bundle, k) == number)


# --------------------------------------------------------------------------- rules.py


def test_recovery_steps_and_costs_by_mode():
    assert [R.recovery_step(m) for m in ("normal", "story", "survival")] == [2, 3, 3]
    assert [R.hp_per_series(m) for m in ("normal", "story", "survival")] == [1, 1, 2]
    assert [R.recovery_cost(n) for n in (0, 1, 2, 3, 4)] == [0, 1, 1, 2, 2]
    assert [R.recovery_cost(n, "story") for n in (1, 3, 4, 6)] == [1, 1, 2, 2]
    assert [R.recovery_cost(n, "survival") for n in (1, 3, 4, 6)] == [2, 2, 4, 4]


def test_scores_stay_between_0_and_25():
    assert [R.clamp_score(v) for v in (-3, 0, 1, 24, 25, 26)] == [0, 0, 1, 24, 25, 25]


def test_stars_halves_and_icons_of_a_card():
    card = {"result": {"stars": 2, "half_stars": ["left", "right", "left"], "classes": ["wits"]}}
    assert R._zone(card) == (2, 2, 1)
    assert R._zone({}) == (0, 0, 0)
    assert R.class_icons([card, {"result": {"classes": ["might", "joker"]}}, {}]) == [
        "wits",
        "might",
        "joker",
    ]


def test_pairs_of_half_stars():
    assert R.pairs([]) == 0
    assert R.pairs([(1, 0)]) == 0
    assert R.pairs([(1, 0), (0, 1)]) == 1
    assert R.pairs([(2, 0), (0, 1)]) == 1
    assert R.pairs([(2, 0), (0, 2)]) == 2
    assert R.pairs([(1, 1), (1, 0)]) == 1  # a card's own halves never pair together
    assert R.pairs([(0, 3), (1, 0), (1, 0)]) == 2


def test_best_stars_counts_every_card_without_a_chain():
    cards = [{"result": {"stars": 1}}, {"result": {"stars": 2, "half_stars": ["left"]}}]
    assert R.best_stars(cards, None) == (3, [0, 1])
    assert R.best_stars(cards, 5) == (3, [0, 1])
    assert R.best_stars(cards, 2) == (3, [0, 1])


def test_best_stars_prefers_fewer_cards_for_the_same_successes():
    cards = [{"result": {}}, {"result": {"stars": 2}}, {"result": {"stars": 1}}]
    assert R.best_stars(cards, 2) == (3, [1, 2])
    assert R.best_stars([{"result": {}}, {"result": {"stars": 1}}], 1) == (1, [1])
    halves = [{"result": {"half_stars": ["left"]}}, {"result": {"half_stars": ["right"]}}]
    assert R.best_stars([*halves, {"result": {"stars": 1}}], 2) == (1, [2])


def test_conversions_each_icon_once_and_the_best_use():
    two_for_one = {"classes": ["wits"], "count": 2, "into": "success", "max": 2}
    assert R.convert(["wits"] * 5, [two_for_one]) == (2, 0, ["wits"])
    assert R.convert(["wits"], [two_for_one]) == (0, 0, ["wits"])
    joker = {"classes": ["faith"], "count": 1, "into": "success"}
    assert R.convert(["joker", "might"], [joker]) == (1, 0, ["might"])
    assert R.convert([], [joker]) == (0, 0, [])
    assert R.convert(["faith"], []) == (0, 0, ["faith"])
    cancel = {"classes": ["might"], "count": 1, "into": "cancel_damage", "max": 1}
    success = {"classes": ["might"], "count": 1, "into": "success", "max": 1}
    assert R.convert(["might", "might"], [cancel, success]) == (1, 1, [])
    assert R.convert(["might"], [cancel, success]) == (1, 0, [])
    zero = {"classes": ["might"], "count": 0, "into": "success"}
    assert R.convert(["might"], [zero]) == (0, 0, ["might"])


def test_feasible_matches_icons_to_demands():
    assert R._feasible({"might": 2}, [({"might"}, 2)]) == {("might", 0): 2}
    assert R._feasible({"might": 1}, [({"might"}, 2)]) is None
    assert R._feasible({"joker": 1, "wits": 1}, [({"might"}, 1), ({"wits"}, 1)]) is not None
    assert R._feasible({"wits": 2}, [({"might"}, 1)]) is None
    assert R._feasible({"might": 1, "wits": 1}, [({"might", "wits"}, 1), ({"might"}, 1)]) == {
        ("might", 1): 1,
        ("wits", 0): 1,
    }


def test_versions_green_before_gold_and_specific_first():
    gen = [{"key": "5/gold", "version": "gold"}, {"key": "5/green"}]
    assert R.pick_version(gen, None, set()) == [gen[1]]
    spec = [{"key": "5/green"}, {"key": "5/gold@s", "version": "gold", "scenario": "s"}]
    assert R.pick_version(spec, "s", set()) == [spec[1]]
    assert R.pick_version(spec, "t", set()) == [spec[0]]
    both = [{"key": "5/green"}, {"key": "5/green2"}]
    assert R.pick_version(both, None, set()) == both


# --------------------------------------------------------------------------- characters.py


def test_losing_hit_points_down_to_zero_faints(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 3})
    C.lose_hp(bundle, s, 0, 0)
    assert s["characters"][0]["hp"] == 3 and not entries(s, "hp.lost")
    C.lose_hp(bundle, s, 0, 2)
    assert s["characters"][0]["hp"] == 1 and s["characters"][0]["conscious"]
    assert entries(s, "hp.lost")[-1] == {"name": "Maëlis", "id": "A", "amount": 2, "hp": 1,
                                         "cause": "hp"}  # fmt: skip
    C.lose_hp(bundle, s, 0, 5, cause="damage")
    ch = s["characters"][0]
    assert ch["hp"] == 0 and not ch["conscious"] and ch["at"] is None
    assert len(ch["hand"]) == 3 and ch["discard"] == []
    assert s["interrupt"] == [{"type": "banish", "character": 0}]
    C.lose_hp(bundle, s, 0, 1)  # already unconscious: nothing more
    assert len(entries(s, "hp.lost")) == 2


def test_fainting_puts_back_temporary_purse_cards(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", hp={"A": 1},
                  purses={"A": [208, 207]}, hands={"A": ["a_cri"]})  # fmt: skip
    temporary, rope = held(bundle, s, 0, 208), held(bundle, s, 0, 207)
    C.lose_hp(bundle, s, 0, 1)
    assert K.where(bundle, s, K.adventure(temporary)) == "box"
    assert K.where(bundle, s, K.adventure(rope)) == "purse:A"
    assert "a_cri" not in s["characters"][0]["discard"]


def test_everyone_unconscious_ends_the_adventure(bundle):
    s = situation(bundle, ["A"], hp={"A": 1})
    C.lose_hp(bundle, s, 0, 1)
    assert s["phase"] == "over" and s["result"]["why"] == "all_unconscious"
    assert s["result"]["result"] == "defeat"


def test_gaining_hit_points_wakes_up_on_the_active_terrain(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 98})
    C.gain_hp(bundle, s, 0, 0)
    assert s["characters"][0]["hp"] == 98 and not entries(s, "hp.gained")
    C.gain_hp(bundle, s, 0, 5)
    assert s["characters"][0]["hp"] == 99
    assert entries(s, "hp.gained")[-1]["amount"] == 5
    C.lose_hp(bundle, s, 1, 99)
    assert not s["characters"][1]["conscious"]
    C.gain_hp(bundle, s, 1, 2)
    ch = s["characters"][1]
    assert ch["conscious"] and ch["hp"] == 2 and ch["at"] == s["characters"][0]["at"]
    assert entries(s, "conscious")


def test_recovery_options_in_each_mode(bundle):
    s = situation(bundle, ["A"], hp={"A": 10}, discards={"A": SIX[:5]})
    assert C.recovery_options(s, 0) == [2, 4, 5]
    s = situation(bundle, ["A"], hp={"A": 2}, discards={"A": SIX}, recovery="survival")
    assert C.recovery_options(s, 0) == [3]
    s = situation(bundle, ["A"], hp={"A": 10}, discards={"A": SIX}, recovery="story")
    assert C.recovery_options(s, 0) == [3, 6]
    assert C.recovery_options(situation(bundle, ["A"], hp={"A": 5}), 0) == []


def test_a_recovery_that_costs_the_last_hit_points_faints(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 2}, discards={"A": SIX})
    C.recover(bundle, s, 0, 4)
    assert s["characters"][0]["hp"] == 0 and not s["characters"][0]["conscious"]
    rec_entry = entries(s, "recovery")[-1]
    assert rec_entry["cards"] == 4 and rec_entry["hp"] == 2 and rec_entry["left"] == 0


def test_free_recovery_costs_nothing(bundle):
    s = situation(bundle, ["A"], hp={"A": 4}, discards={"A": SIX})
    deck = len(s["characters"][0]["deck"])
    C.free_recover(bundle, s, 0, 4)
    assert s["characters"][0]["hp"] == 4 and len(s["characters"][0]["deck"]) == deck + 4
    assert entries(s, "recovered")[-1]["cards"] == 4


def test_auto_recovery_takes_the_fewest_series_needed(bundle):
    s = situation(bundle, ["A"], hp={"A": 9}, discards={"A": SIX})
    assert C.auto_recover(bundle, s, 0, 3)
    assert entries(s, "recovery")[-1]["cards"] == 4 and s["characters"][0]["hp"] == 7
    s = situation(bundle, ["A"], hp={"A": 1}, discards={"A": SIX})
    assert not C.auto_recover(bundle, s, 0, 6)  # one series at least: he faints
    assert entries(s, "recovery")[-1]["cards"] == 2
    assert not C.auto_recover(bundle, situation(bundle, ["A"]), 0, 2)  # nothing to recover


def test_discarding_from_the_deck_recovers_when_it_runs_out(bundle):
    s = situation(bundle, ["A"], hp={"A": 9})
    ch = s["characters"][0]
    n = len(ch["deck"])
    assert C.discard_from_deck(bundle, s, 0, 2) == 2
    assert len(ch["deck"]) == n - 2 and entries(s, "deck.discarded")[-1]["count"] == 2
    assert C.discard_from_deck(bundle, s, 0, n) == n  # the deck ran out: a Récupération
    assert entries(s, "recovery")
    assert C.discard_from_deck(bundle, s, 0, 0) == 0


def test_hand_size_and_carry_weight_by_table_size(bundle):
    one = situation(bundle, ["A"])
    two = situation(bundle, ["A", "B"])
    assert C.hand_size(bundle, one, one["characters"][0]) == 4
    assert C.hand_size(bundle, two, two["characters"][0]) == 3
    assert C.carry(bundle, one, one["characters"][0]) == 8
    assert C.carry(bundle, two, two["characters"][1]) == 4
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": [210]}, blocked={"A": [207]})
    assert C.weight(bundle, s["characters"][0]) == 3  # blocked cards weigh too


def test_blocking_and_unblocking(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": [207]},
                  hands={"A": ["a_cri"]})  # fmt: skip
    rope = held(bundle, s, 0, 207)
    C.block(bundle, s, 0, K.adventure(rope), True)
    assert rope in s["characters"][0]["purse_blocked"] and rope not in s["characters"][0]["purse"]
    C.block(bundle, s, 0, K.adventure(rope), False)
    assert rope in s["characters"][0]["purse"] and rope not in s["characters"][0]["purse_blocked"]
    C.block(bundle, s, 0, K.action_card("a_cri"), True)
    assert s["characters"][0]["blocked"] == ["a_cri"]
    C.block(bundle, s, 0, K.action_card("a_cri"), False)
    assert "a_cri" in s["characters"][0]["deck"]
    assert keys(s, "card.block", "card.unblock") == ["card.block", "card.unblock"] * 2


def test_giving_costs_the_giver_or_the_receiver_the_weight(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [210]})
    piolet = held(bundle, s, 0, 210)
    decks = [len(c["deck"]) for c in s["characters"]]
    C.give(bundle, s, 0, 1, piolet, 0)
    assert piolet in s["characters"][1]["purse"] and piolet not in s["characters"][0]["purse"]
    assert [len(c["deck"]) for c in s["characters"]] == [decks[0] - 2, decks[1]]
    given = entries(s, "item.given")[-1]
    assert given["count"] == 2 and given["payer"] == "Maëlis" and not given["blocked"]


def test_dropping_and_discarding(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": [207]},
                  hands={"A": ["a_cri"]})  # fmt: skip
    rope = held(bundle, s, 0, 207)
    C.drop(bundle, s, 0, rope)
    assert K.where(bundle, s, K.adventure(rope)) == "past"
    C.discard_skill(bundle, s, 0, "a_cri")
    assert s["characters"][0]["discard"] == ["a_cri"]
    assert keys(s, "item.dropped", "skill.discarded") == ["item.dropped", "skill.discarded"]


def test_leaving_the_adventure(bundle):
    """Her own skills and undiscardable cards are put away; the others get her other purse
    cards (blocked ones stay blocked) and her advanced skills; her hit points are shared."""
    s = situation(bundle, ["A", "B", "C"], scenario="pluie_grise", hp={"A": 7, "B": 5, "C": 5},
                  purses={"A": [210, 209]}, blocked={"A": [207]},
                  hands={"A": ["adv_eloquence", "a_cri"]})  # fmt: skip
    piolet, cough = held(bundle, s, 0, 210), held(bundle, s, 0, 209)
    rope = held(bundle, s, 0, 207, "purse_blocked")
    C.leave(bundle, s, 0)
    assert [c["id"] for c in s["characters"]] == ["B", "C"] and s["players"] == 2
    assert K.where(bundle, s, K.adventure(cough)) == "box"
    assert K.where(bundle, s, K.action_card("a_cri")) == "box"
    assert K.where(bundle, s, K.action_card("adv_eloquence")).startswith("discard:")
    assert K.where(bundle, s, K.adventure(piolet)).startswith("purse:")
    assert K.where(bundle, s, K.adventure(rope)).startswith("purse_blocked:")
    assert [c["hp"] for c in s["characters"]] == [9, 8]
    assert entries(s, "character.leaves")[-1]["share"] == {"Tobiah": 4, "Yseult": 3}
    K.check(bundle, s)


def test_joining_at_the_citadel(bundle):
    s = situation(bundle, ["A"])
    C.join(bundle, s, "B")
    assert [c["id"] for c in s["characters"]] == ["A", "B"] and s["players"] == 2
    assert sorted(s["characters"][1]["deck"]) == sorted(
        rec.recs(bundle, "character")["B"]["starting_skills"]
    )
    assert C.index_of(s, "B") == 1


# --------------------------------------------------------------------------- cards.py


def test_a_card_is_in_one_place_and_moves_refuse_the_impossible(bundle):
    s = situation(bundle, ["A"], hands={"A": ["a_cri"]})
    assert K.where(bundle, s, K.action_card("a_cri")) == "hand:A"
    assert K.places(bundle, s, K.action_card("a_cri")) == ["hand:A"]
    assert K.move(bundle, s, K.action_card("a_cri"), "discard:A") == "hand:A"
    assert K.where(bundle, s, K.action_card("a_cri")) == "discard:A"
    with pytest.raises(K.CardError):
        K.move(bundle, s, K.action_card("a_cri"), "discard:Z")
    assert K.where(bundle, s, K.action_card("a_cri")) == "discard:A"  # refused: not moved
    s["characters"][0]["hand"].append("a_cri")  # a duplicate: the check finds it
    with pytest.raises(K.CardError):
        K.check(bundle, s)


def test_the_inventory_holds_every_card_once(bundle):
    s = situation(bundle, ["A", "B"])
    inv = K.inventory(bundle, s)
    assert len(inv) == len(K.every_card(bundle))
    assert all(len(places) == 1 for places in inv.values())


# --------------------------------------------------------------------------- saving.py


def test_when_saving_is_allowed(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    assert S.can_save(s)
    for change in ({"saved": True}, {"menace": None}, {"dialogue": {"paragraph": "1"}},
                   {"action": {"character": 0}}):  # fmt: skip
        assert not S.can_save({**s, **change}), change
    fainted = {**s, "characters": [{**c, "conscious": False} for c in s["characters"]]}
    assert not S.can_save(fainted)


def test_a_save_puts_the_past_back_and_resumes_at_once(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", hands={"A": ["a_cri"]})
    s = apply(bundle, s, {"type": "save"})
    assert s["saved"] and s["past"] == [] and s["dice"] == {} and s["found"] == []
    assert keys(s, "game.saved", "game.resumed") == ["game.saved", "game.resumed"]
    assert "a_cri" in s["characters"][0]["discard"]
    assert all(c["at"] == "0,0" for c in s["characters"])
    assert any(slot for slot in s["slots"].values())  # exploration cards at its arrows
    K.check(bundle, s)


# --------------------------------------------------------------------------- dialogues.py


def test_a_paragraph_with_choices_waits_for_one(bundle):
    s = situation(bundle, ["A"])
    para = next(
        n
        for n, p in rec.recs(bundle, "paragraph").items()
        if p.get("choices")
        and not p.get("actions")
        and not p.get("end")
        and all(not c.get("requires") for c in p["choices"])
    )
    s = consequence(bundle, s, {"read": para})
    assert s["pending"] == {"type": "dialogue", "paragraph": para, "character": 0}
    n = len(rec.recs(bundle, "paragraph")[para]["choices"])
    assert [a for a in legal_actions(bundle, s) if a["type"] in ("choose", "close")] == [
        {"type": "choose", "index": i} for i in range(n)
    ]
    assert para in s["read"] and entries(s, "dialogue")[-1]["number"] == para
    chosen = apply(bundle, s, {"type": "choose", "index": 0})
    assert entries(chosen, "dialogue.choice")


def test_closing_a_dialogue(bundle):
    s = situation(bundle, ["A"])
    s["dialogue"] = {"paragraph": "1", "character": 0}
    D.close(s)
    assert s["dialogue"] is None and keys(s, "dialogue.closed")


def test_an_unknown_paragraph_opens_nothing(bundle):
    s = situation(bundle, ["A"])
    D.open_paragraph(bundle, s, "99999", 0)
    assert s["dialogue"] is None


def test_a_paragraph_read_is_remembered_once(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 66})
    s = apply(bundle, s, {"type": "close"})
    s = consequence(bundle, s, {"read": 66})
    assert s["read"].count("66") == 1


def test_terrain_place_helper_replaces_the_terrain(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    key = place(bundle, s, 404, "0,0")
    assert s["board"]["0,0"]["terrain"] == key


# --------------------------------------------------------------------------- against brute force


def _brute_pairs(halves: list[tuple[int, int]]) -> int:
    """Most left–right pairs of half-stars, each pair from two different cards."""
    lefts = [i for i, (left, _) in enumerate(halves) for _ in range(left)]
    rights = [i for i, (_, right) in enumerate(halves) for _ in range(right)]
    best = 0

    def match(k: int, used: frozenset[int], count: int) -> None:
        nonlocal best
        best = max(best, count)
        if k == len(lefts):
            return
        match(k + 1, used, count)
        for j, card in enumerate(rights):
            if j not in used and card != lefts[k]:
                match(k + 1, used | {j}, count + 1)

    match(0, frozenset(), 0)
    return best


def _brute_stars(cards: list[dict], limit: int | None) -> int:
    from itertools import combinations

    n = len(cards)
    sizes = range(n + 1) if limit is None else range(min(limit, n) + 1)
    best = 0
    for size in sizes:
        for chosen in combinations(range(n), size):
            zones = [R._zone(cards[i]) for i in chosen]
            value = sum(z[0] for z in zones) + _brute_pairs([(z[1], z[2]) for z in zones])
            best = max(best, value)
    return best


def _random_card(rnd) -> dict:
    return {
        "result": {
            "stars": rnd.choice([0, 0, 1, 2]),
            "half_stars": rnd.choice([[], [], ["left"], ["right"], ["left", "right"]]),
            "classes": rnd.sample(
                ["might", "agility", "wits", "faith", "joker"], rnd.randint(0, 2)
            ),
        }
    }


def test_pairs_and_best_stars_match_a_brute_force():
    import random

    rnd = random.Random(7)
    for _ in range(300):
        cards = [_random_card(rnd) for _ in range(rnd.randint(0, 5))]
        halves = [R._zone(c)[1:] for c in cards]
        assert R.pairs(halves) == _brute_pairs(halves), halves
        limit = rnd.choice([None, 0, 1, 2, 3])
        value, counted = R.best_stars(cards, limit)
        assert value == _brute_stars(cards, limit), (cards, limit)
        assert len(set(counted)) == len(counted) and all(0 <= i < len(cards) for i in counted)
        assert limit is None or len(counted) <= limit
        zones = [R._zone(cards[i]) for i in counted]
        assert sum(z[0] for z in zones) + R.pairs([(z[1], z[2]) for z in zones]) == value


def _brute_convert(icons: list[str], convs: list[dict]) -> tuple[int, int]:
    """The best (successes, cancels) by trying every icon on every conversion."""
    best = (0, 0)

    def go(k: int, uses: list[int], pending: list[int]) -> None:
        nonlocal best
        if k == len(icons):
            if any(pending):
                return
            s = sum(u for u, c in zip(uses, convs, strict=True) if c["into"] == "success")
            c_ = sum(u for u, c in zip(uses, convs, strict=True) if c["into"] != "success")
            best = max(best, (s, c_))
            return
        go(k + 1, uses, pending)  # this icon unused
        for j, conv in enumerate(convs):
            if icons[k] != "joker" and icons[k] not in conv["classes"]:
                continue
            p = list(pending)
            u = list(uses)
            if p[j] == 0:  # open a new use of conversion j
                if u[j] >= conv.get("max", 99):
                    continue
                u[j] += 1
                p[j] = conv.get("count", 1) - 1
            else:
                p[j] -= 1
            go(k + 1, u, p)

    go(0, [0] * len(convs), [0] * len(convs))
    return best


def test_conversions_match_a_brute_force():
    import random

    rnd = random.Random(11)
    classes = ["might", "agility", "wits", "faith"]
    for _ in range(200):
        icons = [rnd.choice([*classes, "joker"]) for _ in range(rnd.randint(0, 5))]
        convs = [
            {
                "classes": rnd.sample(classes, rnd.randint(1, 2)),
                "count": rnd.randint(1, 2),
                "into": rnd.choice(["success", "cancel_damage"]),
                "max": rnd.randint(1, 3),
            }
            for _ in range(rnd.randint(0, 2))
        ]
        successes, cancels, unused = R.convert(icons, convs)
        assert (successes, cancels) == _brute_convert(icons, convs), (icons, convs)
        assert len(unused) <= len(icons)
        if len(convs) == 1:
            used = convs[0]["count"] * (successes + cancels)
            assert len(unused) == len(icons) - used, (icons, convs, unused)
        assert all(icons.count(i) >= unused.count(i) for i in unused)


# --------------------------------------------------------------------------- what the journal says


def test_the_journal_of_hit_points(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 2, "B": 4})
    C.gain_hp(bundle, s, 0, 1)
    assert entries(s, "hp.gained") == [{"name": "Maëlis", "id": "A", "amount": 1, "hp": 3}]
    C.lose_hp(bundle, s, 0, 3)
    assert entries(s, "unconscious") == [{"name": "Maëlis", "id": "A", "g": "f"}]
    C.gain_hp(bundle, s, 0, 1)
    assert entries(s, "conscious") == [{"name": "Maëlis", "id": "A"}]


def test_waking_up_joins_the_active_player(bundle):
    s = situation(bundle, ["A", "B", "C"], hp={"C": 1})
    place(bundle, s, 104, "1,0")
    s["characters"][1]["at"] = "1,0"
    C.lose_hp(bundle, s, 2, 1)
    s["action"] = {"character": 1, "drawn": []}
    C.gain_hp(bundle, s, 2, 1)
    assert s["characters"][2]["at"] == "1,0"  # Tobiah acts there, not Maëlis at 0,0
    s["characters"][1]["conscious"] = False
    C.lose_hp(bundle, s, 2, 1)
    C.gain_hp(bundle, s, 2, 1)
    assert s["characters"][2]["at"] == "0,0"  # the active player is down: the first figure


def test_the_journal_of_recoveries(bundle):
    s = situation(bundle, ["A"], hp={"A": 9}, discards={"A": SIX})
    C.recover(bundle, s, 0, 3)
    assert entries(s, "recovery") == [
        {"name": "Maëlis", "id": "A", "cards": 3, "hp": 2, "left": 7, "forced": False}
    ]
    C.free_recover(bundle, s, 0, 2)
    assert entries(s, "recovered") == [{"name": "Maëlis", "id": "A", "cards": 2}]
    assert C.auto_recover(bundle, s, 0, 1)
    assert entries(s, "recovery")[-1] == {
        "name": "Maëlis", "id": "A", "cards": 1, "hp": 1, "left": 6, "forced": True,
    }  # fmt: skip
    assert s["characters"][0]["discard"] == [] and s["characters"][0]["hp"] == 6


def test_the_journal_of_hand_and_purse(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [210, 207]},
                  blocked={"A": [213]}, hands={"A": ["a_cri", "a_estoc"]})  # fmt: skip
    piolet, rope = held(bundle, s, 0, 210), held(bundle, s, 0, 207)
    crook = held(bundle, s, 0, 213, "purse_blocked")
    C.give(bundle, s, 0, 1, crook, 1)
    assert entries(s, "item.given") == [
        {"giver": "Maëlis", "to": "Tobiah", "title": "Houlette du berger", "payer": "Tobiah",
         "count": 1, "blocked": True}
    ]  # fmt: skip
    assert crook in s["characters"][1]["purse_blocked"]
    C.drop(bundle, s, 0, rope)
    assert entries(s, "item.dropped") == [{"name": "Maëlis", "title": "Corde de chanvre"}]
    C.discard_skill(bundle, s, 0, "a_cri")
    assert entries(s, "skill.discarded") == [{"name": "Maëlis", "title": "Voix des remparts"}]
    C.block(bundle, s, 0, K.adventure(piolet), True)
    C.block(bundle, s, 0, K.action_card("a_estoc"), True)
    assert entries(s, "card.block") == [
        {"title": "Piolet de Nilo", "name": "Maëlis"},
        {"title": "Coup d'estoc", "name": "Maëlis"},
    ]
    C.block(bundle, s, 0, K.adventure(piolet), True)  # already blocked: nothing happens
    C.block(bundle, s, 0, K.action_card("a_cri"), False)  # not blocked: nothing happens
    assert len(entries(s, "card.block")) == 2 and not entries(s, "card.unblock")
    C.block(bundle, s, 0, K.adventure(piolet), False)
    assert entries(s, "card.unblock") == [{"title": "Piolet de Nilo", "name": "Maëlis"}]


def test_an_effect_blocks_the_card_of_its_owner(bundle):
    """The effect runs for Maëlis, but the card is Tobiah's: it is blocked under his card."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"B": [207]},
                  hands={"B": ["b_affut"]}, discards={"B": ["b_cime"]})  # fmt: skip
    rope = held(bundle, s, 1, 207)
    C.block(bundle, s, 0, K.adventure(rope), True)
    assert rope in s["characters"][1]["purse_blocked"]
    C.block(bundle, s, 0, K.action_card("b_affut"), True)
    C.block(bundle, s, 0, K.action_card("b_cime"), True)
    assert s["characters"][1]["blocked"] == ["b_affut", "b_cime"]
    assert entries(s, "card.block")[-1] == {"title": "Grimpeur des ruines", "name": "Tobiah"}
    C.block(bundle, s, 0, K.action_card("b_affut"), False)
    assert "b_affut" in s["characters"][1]["deck"]
    assert entries(s, "card.unblock") == [{"title": "Affût", "name": "Tobiah"}]


def test_the_journal_of_leaving_and_joining(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 3, "B": 5})
    C.leave(bundle, s, 1)
    assert entries(s, "character.leaves") == [
        {"name": "Tobiah", "id": "B", "given": [], "share": {"Maëlis": 5}}
    ]
    assert s["characters"][0]["hp"] == 8
    C.join(bundle, s, "D", "Galdric")
    assert entries(s, "character.joins") == [{"name": "Galdric", "id": "D"}]
    assert s["characters"][1]["name"] == "Galdric"


def test_a_temporary_card_put_back_when_fainting_is_told(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", hp={"A": 1}, purses={"A": [208]})
    C.lose_hp(bundle, s, 0, 1)
    assert {"title": "Masque de toile humide"} in entries(s, "card.put_back")


# --------------------------------------------------------------------------- dialogues, told


def test_reading_a_paragraph_is_told_and_its_choice_read_on(bundle):
    s = situation(bundle, ["A", "B"], scenario="forges_mortes")
    s = consequence(bundle, s, {"read": 213}, by=1)
    para = rec.recs(bundle, "paragraph")["213"]
    assert entries(s, "dialogue") == [
        {"number": "213", "text": para["text"], "name": "Tobiah", "id": "B"}
    ]
    assert s["dialogue"] == {"paragraph": "213", "character": 1}
    assert s["pending"] == {"type": "dialogue", "paragraph": "213", "character": 1}
    assert {"type": "close"} not in legal_actions(bundle, s)
    s = apply(bundle, s, {"type": "choose", "index": 0})
    assert entries(s, "dialogue.choice") == [{"text": para["choices"][0]["text"], "number": "213"}]
    assert entries(s, "dialogue")[-1]["number"] == "215"
    assert entries(s, "dialogue")[-1]["name"] == "Tobiah"  # the same reader reads on
    assert s["read"][-2:] == ["213", "215"]


def test_a_choice_applies_its_effects(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    s = consequence(bundle, s, {"read": 213})
    s = apply(bundle, s, {"type": "choose", "index": 1})
    assert "orvel_rancunier" in s["flags"] and s["dialogue"] is None


def test_a_paragraph_without_choices_closes_by_itself(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 61})
    assert "vannes_expliquees" in s["flags"]
    assert s["dialogue"] is None and s["pending"]["type"] == "turn"


def test_a_mandatory_action_of_a_dialogue_starts_at_once(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 23})
    assert s["action"] is not None and s["action"]["title"] == "Maîtriser Ossian"
    assert s["action"]["source"] == "paragraph:23" and s["action"]["mandatory"]


def test_closing_is_told(bundle):
    s = situation(bundle, ["A"], scenario="coeur_de_varn")
    s = consequence(bundle, s, {"read": 66})
    s = apply(bundle, s, {"type": "close"})
    assert [e for e in s["log"] if e["key"] == "dialogue.closed"][-1]["args"] == {}


# --------------------------------------------------------------------------- saving, told


def test_saving_is_told_with_the_terrain(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    title = rec.adv(bundle, s["board"]["0,0"]["terrain"])["title"]
    s = apply(bundle, s, {"type": "save"})
    assert entries(s, "game.saved") == [{"title": title}]
    assert entries(s, "game.resumed") == [{"title": title}]
    assert s["arrivals"] == [] or s["pending"] is not None
    assert rec.number(bundle, s["board"]["0,0"]["terrain"]) == 201


def test_a_save_far_from_the_start_recentres_the_plateau(bundle):
    s = situation(bundle, ["A", "B"], scenario="pluie_grise")
    key = place(bundle, s, 204, "1,0")
    for ch in s["characters"]:
        ch["at"] = "1,0"
    s = apply(bundle, s, {"type": "save"})
    assert s["board"]["0,0"]["terrain"] == key
    assert all(c["at"] == "0,0" for c in s["characters"])
    assert "1,0" not in s["board"] or s["board"]["1,0"]["terrain"] != key
    K.check(bundle, s)


# --------------------------------------------------------------------------- more, told exactly


def test_discards_of_one_decision_are_told_once(bundle):
    s = situation(bundle, ["A", "B"], hp={"A": 9, "B": 9})
    s["mark"] = len(s["log"])
    C.discard_from_deck(bundle, s, 0, 1)
    C.discard_from_deck(bundle, s, 0, 2)
    assert entries(s, "deck.discarded") == [{"name": "Maëlis", "id": "A", "count": 3}]
    C.discard_from_deck(bundle, s, 1, 1)  # another character: a line of its own
    C.discard_from_deck(bundle, s, 0, 1, quiet=True)  # told by the caller
    assert entries(s, "deck.discarded") == [
        {"name": "Maëlis", "id": "A", "count": 3},
        {"name": "Tobiah", "id": "B", "count": 1},
    ]
    s["mark"] = len(s["log"])  # a new decision: a new line
    C.discard_from_deck(bundle, s, 1, 1)
    assert entries(s, "deck.discarded")[-1] == {"name": "Tobiah", "id": "B", "count": 1}
    assert len(entries(s, "deck.discarded")) == 3


def test_the_choices_a_paragraph_offers(bundle):
    s = situation(bundle, ["A", "B"], scenario="coeur_de_varn")
    t = consequence(bundle, s, {"read": 66}, by=1)
    assert [a for a in legal_actions(bundle, t) if a["type"] in ("act", "choose", "close")
            and a.get("source", "paragraph").startswith("paragraph")] == [
        {"type": "act", "character": 1, "source": "paragraph:66", "index": 0, "card": "66",
         "title": "Gagner la confiance de Pell"},
        {"type": "close"},
    ]  # fmt: skip


def test_a_choice_shows_only_when_its_condition_holds(bundle):
    from engine.citadelle import effects as E

    paras = rec.recs(bundle, "paragraph")
    n, para = next(
        (n, p) for n, p in paras.items()
        if not p.get("effects") and not p.get("actions")
        and any(isinstance(c.get("requires"), list) and len(c["requires"]) == 1
                and "flag" in c["requires"][0] for c in p.get("choices") or [])
    )  # fmt: skip
    s = situation(bundle, ["A"], scenario=None)
    i, choice = next(
        (i, c) for i, c in enumerate(para["choices"])
        if isinstance(c.get("requires"), list) and len(c["requires"]) == 1
        and "flag" in c["requires"][0]
    )  # fmt: skip
    flag = choice["requires"][0]["flag"]
    t = consequence(bundle, s, {"read": n})
    if t["pending"] and t["pending"]["type"] == "dialogue":
        shown = {a["index"] for a in legal_actions(bundle, t) if a["type"] == "choose"}
        assert (i in shown) == E.holds(bundle, t, choice["requires"])
    s["flags"].append(flag)
    t = consequence(bundle, s, {"read": n})
    if t["pending"] and t["pending"]["type"] == "dialogue":
        shown = {a["index"] for a in legal_actions(bundle, t) if a["type"] == "choose"}
        assert (i in shown) == E.holds(bundle, t, choice["requires"])


def test_leaving_shares_hit_points_and_hands_over_cards(bundle):
    s = situation(bundle, ["A", "B", "C"], scenario="pluie_grise", hp={"A": 5, "B": 4, "C": 4},
                  purses={"A": [210]}, hands={"A": ["adv_eloquence", "adv_fouille"]})  # fmt: skip
    C.leave(bundle, s, 0)
    left = entries(s, "character.leaves")[-1]
    assert left["share"] == {"Tobiah": 3, "Yseult": 2}
    assert sorted(left["given"]) == sorted(["Éloquence", "Fouille méthodique", "Piolet de Nilo"])
    assert [c["hp"] for c in s["characters"]] == [7, 6]
    assert "adv_eloquence" in s["characters"][0]["discard"]  # handed out in turn
    assert "adv_fouille" in s["characters"][1]["discard"]
    s = situation(bundle, ["A", "B", "C"], hp={"A": 6, "B": 0, "C": 2})
    s["characters"][1]["conscious"] = False
    C.leave(bundle, s, 0)
    assert [c["hp"] for c in s["characters"]] == [0, 8]  # only the conscious share
    s = situation(bundle, ["A", "B"], hp={"A": 6, "B": 2})
    s["phase"] = "citadel"
    C.leave(bundle, s, 0)
    assert s["characters"][0]["hp"] == 2 and entries(s, "character.leaves")[-1]["share"] == {}


def test_the_last_character_leaving_keeps_nothing_back(bundle):
    s = situation(bundle, ["A"], scenario="pluie_grise", purses={"A": [210]},
                  hands={"A": ["adv_eloquence"]})  # fmt: skip
    C.leave(bundle, s, 0)
    assert s["characters"] == [] and s["players"] == 0
    assert K.where(bundle, s, K.action_card("adv_eloquence")) == "box"
    K.check(bundle, s)


def test_a_paragraph_read_during_an_action_keeps_its_participants(bundle):
    s = situation(bundle, ["A", "B"], scenario="coeur_de_varn")
    ctx = {"character": 1, "participants": [1, 0]}
    D.open_paragraph(bundle, s, "66", 1, ctx)
    frame = s["queue"][-1]
    assert frame["ctx"] == {"character": 1, "this": {"kind": "paragraph", "key": "66"},
                            "verb": None, "participants": [1, 0]}  # fmt: skip
    assert frame["effects"] == [{"_dialogue_choice": "66"}]
    D.open_paragraph(bundle, s, "61", 0)
    assert s["queue"][-1]["effects"] == [{"flag": "vannes_expliquees"}, {"_end_dialogue": True}]
    assert s["queue"][-1]["ctx"]["participants"] == [0]
    D.open_paragraph(bundle, s, "23", 0)
    assert (
        s["queue"][-1]["effects"][-2:]
        == [
            {"_act": {"source": "paragraph:23", "index": 0, "character": 0}},
            {"_end_dialogue": True},
        ]
        or {"_act": {"source": "paragraph:23", "index": 0, "character": 0}}
        in s["queue"][-1]["effects"]
    )


def test_a_gold_card_behind_a_temporary_event_has_two_ways_out_of_the_box(bundle):
    """Green before gold: a gold copy comes out only when no green one is left in the box.  A
    green temporary event goes to the Past as soon as it is resolved and comes back with the
    Past (with whatever took it); an exploration card is revealed once before the Past comes
    back.  So when only exploration cards take the number, two of them must, or the gold copy
    never comes out.  (The campfire 120, the vault 304 and the dying fire 419 had one each:
    ``gamebook simulate`` never met their gold side.)"""
    from engine.citadelle.start import _predecessors

    preds = _predecessors(bundle)
    lonely = []
    for key, card in rec.recs(bundle, "adventure_card").items():
        if card.get("version") != "gold" or card.get("scenario") or card.get("linked_card"):
            continue
        greens = [rec.adv(bundle, k) for k in rec.versions(bundle, card["number"])]
        if not all(g["type"] == "temporary_event" for g in greens if g is not card):
            continue
        sources = {step for step, _ in preds.get(("adventure", str(card["number"])), [])}
        if len(sources) < 2 and all(kind == "exploration" for kind, _ in sources):
            lonely.append(key)
    assert lonely == []


def test_the_second_dying_fire_of_the_dead_forges_is_the_gold_one(bundle):
    """Les Forges mortes: the scenario's own copy of 419 comes out first; while it lies in the
    Past, a second one is the gold « Un feu mourant »."""
    s = situation(bundle, ["A"], scenario="forges_mortes")
    K.move(bundle, s, K.adventure("419/green@forges_mortes"), "past")
    s = consequence(bundle, s, {"take": 419})
    assert K.where(bundle, s, K.adventure("419/gold")) != "box"


def test_every_effect_and_control_step_has_exactly_one_handler():
    """The tables of effects and control steps: a name registered once names its handler, a
    second registration of the same name is refused (two sections claiming one effect would
    make the result depend on import order), and ``run`` hands over with the arguments."""
    from engine.citadelle import steps

    def handler(*args, **kwargs):
        return ("ran", args, kwargs)

    names = ("_test_effect_a", "_test_effect_b")
    try:
        assert steps.effect(*names)(handler) is handler
        assert all(steps.HANDLERS[n] is handler for n in names)
        with pytest.raises(AssertionError, match="_test_effect_b"):
            steps.effect("_test_effect_b")(lambda *a: None)
        assert steps.HANDLERS["_test_effect_b"] is handler
        assert steps.step("_test_step")(handler) is handler
        assert steps.run("_test_step", 1, k=2) == ("ran", (1,), {"k": 2})
        with pytest.raises(AssertionError, match="_test_step"):
            steps.step("_test_step")(lambda: None)
        assert steps.STEPS["_test_step"] is handler
    finally:
        for n in names:
            steps.HANDLERS.pop(n, None)
        steps.STEPS.pop("_test_step", None)
    # every effect the rules modules registered at import is still there, each once
    assert {"damage", "read"} <= set(steps.HANDLERS)
    assert {"next_turn", "finish", "take"} <= set(steps.STEPS)


def test_the_records_of_the_box_and_the_rules_a_campaign_leaves_open(bundle):
    """Reading the bundle: the Plateau's size and the cost of a move the rulebook leaves to the
    table (a campaign may change each alone), every version of a card number (the numbers
    printed on the backs, « 304 » with its green, gold and scenario versions), a card's title
    by its kind, a character's grammatical gender, and nothing for what does not exist."""
    assert rec.rules(bundle) == {"table_columns": 7, "table_rows": 5, "move_cost": 1}
    mine = {**bundle, "campaign": {**bundle["campaign"], "rules": {"move_cost": 2}}}
    assert rec.rules(mine) == {"table_columns": 7, "table_rows": 5, "move_cost": 2}
    assert rec.rules(bundle) == rec.DEFAULT_RULES == {"table_columns": 7, "table_rows": 5,
                                                       "move_cost": 1}  # fmt: skip
    assert rec.versions(bundle, 304) == rec.versions(bundle, "304")
    assert set(rec.versions(bundle, 304)) == {"304/green", "304/gold", "304/green@portes_rouillees"}
    assert rec.versions(bundle, 99999) == []
    assert all(rec.number(bundle, k) == 304 for k in rec.versions(bundle, 304))
    assert rec.title(bundle, {"kind": "adventure", "key": "304/green"}) == "La Voûte s'effondre"
    assert rec.title(bundle, {"kind": "exploration", "key": "1001"}) == "Rats des décombres"
    assert rec.title(bundle, {"kind": "action_card", "key": "adv_garde_haute"}) == "Garde haute"
    assert rec.title(bundle, {"kind": "paragraph", "key": "20"}) == ""  # a paragraph untitled
    assert rec.record(bundle, {"kind": "paragraph", "key": "20"}) is bundle["records"][
        "paragraph"]["20"]  # fmt: skip
    for ref in ({"kind": "nope", "key": "20"}, {"kind": "paragraph"}, {}, {"kind": "adventure",
                "key": "0/none"}):  # fmt: skip
        assert rec.record(bundle, ref) == {}
    assert rec.skill(bundle, "adv_garde_haute")["title"] == "Garde haute"
    assert rec.skill(bundle, "no_such_skill") == {}
    assert rec.gender(bundle, "A") == "f" and rec.gender(bundle, "B") == "m"
    assert rec.gender(bundle, "nobody") == "m"
    plain = {**bundle, "records": {**bundle["records"], "character": {"Z": {"name": "Zed"}}}}
    assert rec.gender(plain, "Z") == "m"
    assert rec.scenario(bundle, "pluie_grise")["title"] == "La Pluie grise"
    assert rec.scenario(bundle, None) == {} and rec.scenario(bundle, "") == {}
    with pytest.raises(KeyError):
        rec.adv(bundle, "0/none")
    with pytest.raises(KeyError):
        rec.exp(bundle, "0")


# --------------------------------------------------------------------------- actions.py (h2)
# Judged here: card_of, spec_of, label_card, act, act_of, traits, offers, force, _place_die,
# _title_of, fits, compatible, eligible, selectable, can_tremor, base_cost, draw, need,
# keep, _in_play, _put_back_temporary, leave_temporary, reveal_exploration.

from engine.citadelle import actions as A  # noqa: E402
from engine.citadelle import effects as E  # noqa: E402
from engine.citadelle.situation import play  # noqa: E402

PASSAGE = {"verb": "find_passage", "cost": 0, "difficulty": 0}  # the rules page: cost 0, diff. 0


def _fog(bundle: dict, state: dict, key: str, at: str = "0,-1") -> None:
    """Exploration card ``key`` face down on the place ``at`` (the one dealt goes back)."""
    old = state["slots"][at]["exploration"]
    K.move(bundle, state, K.exploration(old), "box")
    K.move(bundle, state, K.exploration(key), f"slot:{at}")


def test_each_action_names_the_card_it_is_printed_on(bundle):
    """The Terrain's and its events' actions, a skill's, a purse card's, a quest item's: each
    names its card (an adventure card by its number, a skill by its id); « chercher un
    passage » on a face-down card names none, and costs 0 with difficulty 0."""
    s = situation(bundle, ["A", "B"], hands={"A": ["c_herbier"]}, purses={"A": [701]})
    K.move(bundle, s, K.adventure("452/green"), "quest_items")
    got = {(src, i): (spec, ref) for src, i, spec, ref in A.offers(bundle, s, 0)}
    assert got[("terrain:0,0", 0)][1] == K.adventure("101/green")
    assert got[("event:0,0:103/green", 0)][1] == K.adventure("103/green")
    assert got[("explore:0,-1", 0)] == (PASSAGE, None) == A.spec_of(bundle, s, "explore:0,-1", 0)
    assert got[("hand:A:c_herbier", 0)] == (
        rec.skill(bundle, "c_herbier")["actions"][0],
        K.action_card("c_herbier"),
    )
    assert got[("purse:A:701/green", 0)][1] == K.adventure("701/green")
    assert got[("quest:452/green", 0)] == (
        rec.adv(bundle, "452/green")["actions"][0],
        K.adventure("452/green"),
    )
    for (src, i), (spec, ref) in got.items():  # offers read the cards as spec_of does
        assert A.spec_of(bundle, s, src, i) == (spec, ref)
    acts = [a for a in legal_actions(bundle, s) if a["type"] == "act" and a["character"] == 0]
    cards = {a["source"]: (a["card"], a["title"]) for a in acts}
    assert cards["terrain:0,0"] == ("101", "Fouiller les charrettes")
    assert cards["event:0,0:103/green"] == ("103", "Rentrer à la Citadelle")
    assert cards["explore:0,-1"] == ("", "")  # a hidden card: no number, no title
    assert cards["hand:A:c_herbier"] == ("c_herbier", "Préparer un cataplasme")
    assert cards["purse:A:701/green"] == ("701", "Rompre le pain")
    assert cards["quest:452/green"] == ("452", "Étudier l'éclat")
    assert A.act(bundle, s, 0, "terrain:0,0", 0) == {
        "type": "act",
        "character": 0,
        "source": "terrain:0,0",
        "index": 0,
        "card": "101",
        "title": "Fouiller les charrettes",
    }
    move = A.act(bundle, s, 0, "move", 0)  # the character card's action: no card to name
    assert (move["card"], move["title"]) == ("", "")
    assert A.spec_of(bundle, s, "move", 0) == ({"verb": "move", "cost": 1, "difficulty": 0}, None)


def test_the_card_behind_each_kind_of_source(bundle):
    s = situation(bundle, ["A"], hands={"A": ["c_herbier"]}, purses={"A": [701]})
    assert A.card_of(s, "terrain:0,0") == K.adventure("101/green")
    assert A.card_of(s, "terrain:5,5") is None  # no Terrain there (any more)
    assert A.card_of(s, "event:0,0:103/green") == K.adventure("103/green")
    assert A.card_of(s, "hand:A:c_herbier") == K.action_card("c_herbier")
    assert A.card_of(s, "purse:A:701/green") == K.adventure("701/green")
    assert A.card_of(s, "quest:452/green") == K.adventure("452/green")
    assert A.card_of(s, "global:304/green") == K.adventure("304/green")
    assert A.card_of(s, "temp:407/green") == K.adventure("407/green")
    assert A.card_of(s, "paragraph:66") == {"kind": "paragraph", "key": "66"}
    assert A.card_of(s, "slot:0,-1") is None  # face down: the fog's back has no card
    s["slots"]["0,-1"]["revealed"] = True
    assert A.card_of(s, "slot:0,-1") == K.exploration(s["slots"]["0,-1"]["exploration"])
    assert A.card_of(s, "slot:9,9") is None and A.card_of(s, "move") is None
    printed = rec.adv(bundle, "101/green")["actions"]
    assert A.spec_of(bundle, s, "terrain:0,0", len(printed)) == (None, K.adventure("101/green"))
    assert A.spec_of(bundle, s, "terrain:0,0", -1) == (None, K.adventure("101/green"))
    assert A.spec_of(bundle, s, "terrain:5,5", 0) == (None, None)


def test_an_adventure_card_on_an_exploration_place_offers_its_actions(bundle):
    """The arrow's card that is no Terrain stays on the freed place; its actions are
    undertaken from the Terrain beside it, and name its number."""
    s = situation(bundle, ["A"])
    K.move(bundle, s, K.exploration(s["slots"]["0,-1"]["exploration"]), "box")
    K.move(bundle, s, K.adventure("205/green"), "slot:0,-1")
    assert A.card_of(s, "slot:0,-1") == K.adventure("205/green")
    mine = [(src, i, ref) for src, i, _, ref in A.offers(bundle, s, 0) if src == "slot:0,-1"]
    assert mine[:2] == [("slot:0,-1", i, K.adventure("205/green")) for i in (0, 1)]
    assert ("explore:0,-1", 0) not in A.available(bundle, s, 0)


def test_a_face_up_permanent_event_beside_offers_its_actions_not_a_passage(bundle):
    """Rules page: a permanent event stays on its place, its actions open to the Terrain
    beside; nobody searches for a passage on a card already turned over."""
    s = situation(bundle, ["A"])
    _fog(bundle, s, "1003")
    s["slots"]["0,-1"]["revealed"] = True
    here = [(src, i) for src, i in A.available(bundle, s, 0) if src.endswith("0,-1")]
    assert here == [("slot:0,-1", 0)]
    assert A.act(bundle, s, 0, "slot:0,-1", 0)["card"] == "1003"  # a face-up card: its id


def test_what_the_active_player_may_select_for_a_fight(bundle):
    """« Préparation »: purse cards whose condition icon fits the action (and that give a
    bonus or have an effect once selected), skills in hand spent when used whose condition
    fits; cards sharing a MOT-CLEF with a selected one cannot join it; a card that must be
    selected is selected at once."""
    s = situation(
        bundle,
        ["A"],
        scenario="forges_mortes",
        hands={"A": ["a_estoc", "a_bouclier", "adv_premiers_soins", "ref_parade"]},
        purses={"A": ["210/green", "209/green", "207/green", "111/green"]},
    )
    place(bundle, s, 308, "0,0")
    A.start(bundle, s, 0, "terrain:0,0", 0)  # combattre le gardien de fonte
    assert s["action"]["verb"] == "fight"
    # Coup d'estoc (spent, fight); not Bouclier levé (kept), Premiers soins (no bonus), a
    # reflex; the Piolet (fight), the Toux grise (its effect once selected), the Épée; not
    # the Corde (climbing and pulling only)
    assert A.eligible(bundle, s) == ["a_estoc", "210/green", "209/green", "111/green"]
    assert s["action"]["selected"] == ["209/green"]  # « doit être sélectionnée »
    assert A.selectable(bundle, s) == ["a_estoc", "210/green", "111/green"]
    s["action"]["selected"].append("210/green")  # the Piolet: OUTIL and ARME
    assert A.selectable(bundle, s) == ["a_estoc"]  # the Épée is an ARME too
    assert A.fits(bundle, "210/green", {"verb": "fight"})
    assert not A.fits(bundle, "207/green", {"verb": "fight"})


def test_a_search_leaves_the_fighting_cards_out(bundle):
    s = situation(
        bundle, ["A"], hands={"A": ["a_estoc", "x04"]}, purses={"A": ["210/green", "114/green"]}
    )
    A.start(bundle, s, 0, "terrain:0,0", 0)  # fouiller les charrettes
    assert A.eligible(bundle, s) == ["114/green"]  # the Pied-de-biche: pulling and searching
    assert A.selectable(bundle, s) == ["114/green"]


def test_cards_sharing_a_keyword_are_not_selected_together(bundle):
    """The first card of a MOT-CLEF keeps it; the ones after that share one are left out,
    the others still come."""
    assert A.compatible(bundle, ["210/green", "111/green", "209/green"]) == [
        "210/green",
        "209/green",
    ]
    assert A.compatible(bundle, ["210/green", "209/green", "111/green"]) == [
        "210/green",
        "209/green",
    ]
    assert A.compatible(bundle, ["209/green", "214/gold", "111/green"]) == [
        "209/green",
        "214/gold",
        "111/green",
    ]


def test_the_cost_counts_the_cards_to_draw_more_and_less(bundle):
    """« me déplacer » costs 1; Élan in hand makes it draw 1 card more, the Bâton de pèlerin
    1 less: the cost counts both, never below 0."""
    s = situation(bundle, ["A"], hands={"A": ["x06"]})
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert A.base_cost(bundle, s) == 2
    s = situation(bundle, ["A"], hands={"A": ["x06", "d_baton"]})
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert A.base_cost(bundle, s) == 1
    s = situation(bundle, ["A"], hands={"A": ["d_baton", "b_traces"]})
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert A.base_cost(bundle, s) == 0


def test_the_tremor_of_level_one_serves_once(bundle):
    s = situation(bundle, ["A"], scenario="forges_mortes")
    s["citadel"]["tremor"] = 1
    assert s["tremor_used"] == 0  # each scenario starts with no level spent
    A.start(bundle, s, 0, "move", 0, target="1,0")
    assert A.can_tremor(bundle, s)
    s["tremor_used"] = 1
    assert not A.can_tremor(bundle, s)


def _eboulis(bundle: dict, **kw) -> dict:
    """Éboulis (1003), face up beside the gates: « Dégager les blocs », cost 3, difficulty 2."""
    s = situation(bundle, ["A"], **kw)
    _fog(bundle, s, "1003")
    s["slots"]["0,-1"]["revealed"] = True
    A.start(bundle, s, 0, "slot:0,-1", 0)
    return s


def test_drawing_with_the_tremor_spends_a_level(bundle):
    """The tremor: one card less to draw for an exploration card's action, a level spent each
    time, told with the levels left."""
    s = _eboulis(bundle, decks={"A": ["x01", "x04", "x07"]})
    s["citadel"]["tremor"] = 2
    assert A.can_tremor(bundle, s) and A.cost(bundle, s, tremor=True)[0] == 2
    A.draw(bundle, s, 2, tremor=True)
    assert s["tremor_used"] == 1 and s["action"]["tremor"]
    assert entries(s, "tremor") == [{"left": 1}]
    assert s["action"]["drawn"] == ["x01", "x04"]  # 3 stars for 2 successes: it may succeed
    assert s["pending"] == {"type": "result", "character": 0}
    s = _eboulis(bundle, decks={"A": ["x01", "x04", "x07"]})
    s["citadel"]["tremor"], s["tremor_used"] = 2, 1
    A.draw(bundle, s, 2, tremor=True)
    assert s["tremor_used"] == 2 and entries(s, "tremor") == [{"left": 0}]
    s = _eboulis(bundle, decks={"A": ["x01", "x04", "x07"]})
    A.draw(bundle, s, 2)
    assert s["tremor_used"] == 0 and not s["action"]["tremor"] and entries(s, "tremor") == []


def test_a_draw_with_nothing_left_to_draw_still_reveals(bundle):
    """Neither deck nor discard: the draw stops where it is and the Résultat comes."""
    s = _eboulis(bundle)
    ch = s["characters"][0]
    for card in list(ch["deck"]):
        K.move(bundle, s, K.action_card(card), "box")
    A.draw(bundle, s, 3)
    told = entries(s, "action.drawn")
    assert len(told) == 1 and told[0]["cards"] == [] and told[0]["total"] == 0
    assert entries(s, "action.result")[-1]["ok"] is False


def test_fainting_while_recovering_in_a_draw_stops_the_action(bundle):
    """The deck runs out mid-draw: the Récupération costs the last hit point, the character
    faints and the action stops, told with its name."""
    s = _eboulis(bundle, hp={"A": 1})
    ch = s["characters"][0]
    for card in list(ch["deck"]):
        K.move(bundle, s, K.action_card(card), "discard:A")
    A.draw(bundle, s, 3)
    assert not ch["conscious"]
    assert entries(s, "action.stopped") == [{"name": ch["name"], "id": "A"}]
    assert s["action"] is None and entries(s, "action.drawn") == []


def _revealed(bundle: dict, s: dict, key: str, by: int = 0) -> dict:
    """Character ``by`` has just found a passage on the place north of the gates, where the
    exploration card ``key`` lay face down; resolved until the players must decide."""
    _fog(bundle, s, key)
    ctx = {"character": by, "verb": "find_passage", "this": None, "cancel": 0}
    s["pending"] = None
    A.reveal_exploration(bundle, s, "0,-1", {**ctx, "participants": [by]})
    E.pump(bundle, s)
    return s


def test_a_temporary_event_found_is_told_and_its_mandatory_action_begins(bundle):
    """The card turned over is shown to all (its title, text, id and type); its mandatory
    action must be undertaken at once by everyone on the Terrain of who found it, and they
    choose the active player among them, the finder first."""
    s = _revealed(bundle, situation(bundle, ["A", "B"]), "1001", by=1)
    card = rec.exp(bundle, "1001")
    assert entries(s, "exploration.revealed") == [
        {"title": card["title"], "text": card["text"], "id": "1001", "type": "temporary_event"}
    ]
    assert s["slots"]["0,-1"]["revealed"]
    assert s["pending"] == {
        "type": "active",
        "source": "slot:0,-1",
        "index": 0,
        "participants": [1, 0],
    }


def test_a_permanent_event_found_stays_on_its_place(bundle):
    s = _revealed(bundle, situation(bundle, ["A"]), "1003")
    assert K.where(bundle, s, K.exploration("1003")) == "slot:0,-1"
    assert s["slots"]["0,-1"]["revealed"] and entries(s, "card.discard") == []


def test_a_global_event_found_acts_once_then_goes_to_the_past(bundle):
    """Fumées âcres (3005): 1 card of the deck discarded; then into the Past, the place
    freed for the arrow's card."""
    s = situation(bundle, ["A"])
    deck = len(s["characters"][0]["deck"])
    s = _revealed(bundle, s, "3005")
    assert len(s["characters"][0]["deck"]) == deck - 1
    assert K.where(bundle, s, K.exploration("3005")) == "past"
    assert entries(s, "card.discard") == [{"title": rec.exp(bundle, "3005")["title"]}]
    assert "0,-1" in s["board"]  # 106, a Terrain, took the place


def test_a_temporary_event_that_knocks_out_its_finder_is_put_back(bundle):
    """« Si tous les participants à une action figurant sur une carte Événement temporaire
    deviennent inconscients, cette carte est rangée »: the card's own « défausser » puts it
    back in the box instead of the Past."""
    s = _revealed(bundle, situation(bundle, ["A", "B"], hp={"A": 1}), "2002")
    while s["pending"] is not None and s["pending"].get("type") != "turn":
        s = play(bundle, s, legal_actions(bundle, s)[0])
    assert not s["characters"][0]["conscious"]
    assert K.where(bundle, s, K.exploration("2002")) == "box"


def test_finding_nothing_where_there_is_no_fog_card(bundle):
    s = situation(bundle, ["A"])
    before = len(s["log"])
    A.reveal_exploration(bundle, s, "5,5", {"character": 0})
    K.move(bundle, s, K.exploration(s["slots"]["0,1"]["exploration"]), "box")
    A.reveal_exploration(bundle, s, "0,1", {"character": 0})
    assert len(s["log"]) == before and s["queue"] == []


def test_a_mandatory_action_is_undertaken_by_who_revealed_it(bundle):
    """Alone on its Terrain, the character who revealed the action undertakes it; one no
    longer in the adventure: the first conscious character does."""
    s = situation(bundle, ["A", "B"])
    s["characters"][1]["at"] = "1,0"
    A.force(bundle, s, {"source": "terrain:1,0", "index": 0, "character": 1})
    assert (s["action"]["character"], s["action"]["participants"]) == (1, [1])
    assert s["action"]["mandatory"]
    s = situation(bundle, ["A", "B"])
    s["characters"][0]["at"] = "1,0"
    A.force(bundle, s, {"source": "terrain:1,0", "index": 0, "character": 2})
    assert (s["action"]["character"], s["action"]["participants"]) == (0, [0])


def test_a_mandatory_action_whose_card_is_gone_or_whose_condition_fails_is_not_undertaken(
    bundle,
):
    """« Actions interdites »: a prerequisite the group cannot meet; nor an action on a card
    no longer there."""
    s = situation(bundle, ["A"], purses={"A": ["226/green"]})
    turns = s["turns"]
    A.force(bundle, s, {"source": "terrain:5,5", "index": 0, "character": 0})
    A.force(bundle, s, {"source": "purse:A:226/green", "index": 0, "character": 0})
    assert s["action"] is None and s["turns"] == turns  # the resin needs a Toux grise
    s = situation(bundle, ["A"], purses={"A": ["226/green", "209/green"]})
    A.force(bundle, s, {"source": "purse:A:226/green", "index": 0, "character": 0})
    assert s["action"]["source"] == "purse:A:226/green" and s["action"]["verb"] == "use"


def test_a_revealed_card_added_to_the_hand_is_told(bundle):
    """Dégager les blocs succeeds: « ajouter 1 carte à sa main » among those revealed."""
    s = _eboulis(bundle, decks={"A": ["x01", "x04", "x07"]})
    A.draw(bundle, s, 3)
    s = play(bundle, s, {"type": "count", "successes": 5})  # x01, x04, x07: 5 stars
    assert s["pending"] == {"type": "keep", "character": 0, "left": 1}
    A.keep(bundle, s, "x04")
    ch = s["characters"][0]
    assert "x04" in ch["hand"] and "x04" not in s["action"]["drawn"]
    assert entries(s, "skill.kept") == [{"name": ch["name"], "title": "Vigilance"}]


def test_which_cards_are_still_in_play(bundle):
    """A mandatory multiple action goes on only while its card is in play: not once in the
    box, the Past or banished; a paragraph is always there to read again."""
    s = situation(bundle, ["A"], scenario="pluie_grise")
    place(bundle, s, 205, "0,0", event=True)
    assert A._in_play(bundle, s, K.adventure("205/green"))
    assert A._in_play(bundle, s, {"kind": "paragraph", "key": "66"})
    assert not A._in_play(bundle, s, None)
    for pile in ("past", "banished", "box"):
        K.move(bundle, s, K.adventure("205/green"), pile)
        assert not A._in_play(bundle, s, K.adventure("205/green")), pile


def test_a_temporary_event_whose_participants_all_fainted_is_put_back(bundle):
    s = situation(bundle, ["A"])
    _fog(bundle, s, "1001")
    s["slots"]["0,-1"]["revealed"] = True
    A._put_back_temporary(bundle, s, {"this": K.adventure("101/green")})  # a Terrain stays
    A._put_back_temporary(bundle, s, {"this": None})
    assert entries(s, "card.put_back") == []
    A._put_back_temporary(bundle, s, {"this": K.exploration("1001")})
    assert K.where(bundle, s, K.exploration("1001")) not in ("slot:0,-1", "past")  # its deck
    assert entries(s, "card.put_back") == [{"title": "Rats des décombres"}]
    assert "0,-1" in s["board"]  # the place is free: the arrow's Terrain came


def test_a_temporary_event_resolved_goes_to_the_past(bundle):
    """Unless its own effects already sent it elsewhere."""
    s = situation(bundle, ["A"])
    K.move(bundle, s, K.adventure("407/green"), "resolving")
    A.leave_temporary(bundle, s, K.adventure("407/green"))
    assert K.where(bundle, s, K.adventure("407/green")) == "past"
    title = rec.adv(bundle, "407/green")["title"]
    assert entries(s, "card.discard") == [{"title": title}]
    A.leave_temporary(bundle, s, K.adventure("407/green"))  # already in the Past
    assert len(entries(s, "card.discard")) == 1
    _fog(bundle, s, "1001")
    s["slots"]["0,-1"]["revealed"] = True
    A.leave_temporary(bundle, s, K.exploration("1001"))
    assert K.where(bundle, s, K.exploration("1001")) == "past"
    assert entries(s, "card.discard")[-1] == {"title": "Rats des décombres"}
    K.move(bundle, s, K.exploration(s["slots"]["0,1"]["exploration"]), "box")
    K.move(bundle, s, K.adventure("205/green"), "slot:0,1")
    A.leave_temporary(bundle, s, K.adventure("205/green"))  # an adventure card on a place
    assert K.where(bundle, s, K.adventure("205/green")) == "slot:0,1"
    assert len(entries(s, "card.discard")) == 2


# --- Characters: hit points, unconsciousness, Récupération, hand, purse and leaving ---


def _variant(
    bundle: dict, kind: str, key: str, drop: tuple[str, ...] = (), **fields: object
) -> dict:
    """The bundle with one record changed (custom content the format allows)."""
    record = {k: v for k, v in rec.recs(bundle, kind)[key].items() if k not in drop}
    table = {**rec.recs(bundle, kind), key: {**record, **fields}}
    return {**bundle, "records": {**bundle["records"], kind: table}}


def test_fainted_participants_are_only_those_still_at_the_table(bundle: dict) -> None:
    """No action means nobody fainted; a participant who left the table is not counted."""
    s = situation(bundle, ["A", "B"], hp={"A": 0})
    assert not C.all_fainted(s, []) and not C.all_fainted(s, None)
    assert C.all_fainted(s, [0, 2])
    assert not C.all_fainted(s, [0, 1])


def test_a_forced_recovery_takes_what_is_missing_when_affordable(bundle: dict) -> None:
    """The deck ran out: the series needed are taken when the hit points pay for them."""
    s = situation(bundle, ["A"], hp={"A": 4}, discards={"A": SIX})
    assert C.auto_recover(bundle, s, 0, 6)
    assert entries(s, "recovery")[-1]["cards"] == 6 and s["characters"][0]["hp"] == 1


def test_a_forced_survival_recovery_never_costs_more_than_the_hit_points(bundle: dict) -> None:
    """In the survival mode a series costs 2 hit points: 3 hit points pay for one series."""
    s = situation(bundle, ["A"], hp={"A": 3}, discards={"A": SIX}, recovery="survival")
    assert C.auto_recover(bundle, s, 0, 6)
    assert entries(s, "recovery")[-1]["cards"] == 3 and s["characters"][0]["hp"] == 1


def test_recovery_options_cost_the_hit_points_of_the_mode(bundle: dict) -> None:
    """Story and survival series are paid at their own price, not the normal one."""
    s = situation(bundle, ["A"], hp={"A": 3}, discards={"A": SIX}, recovery="survival")
    assert C.recovery_options(s, 0) == [3]
    s = situation(bundle, ["A"], hp={"A": 1}, discards={"A": SIX}, recovery="story")
    assert C.recovery_options(s, 0) == [3]


def test_recovering_costs_nothing_more_to_an_unconscious_character(bundle: dict) -> None:
    """A Récupération by an unconscious character does not make it faint a second time."""
    s = situation(bundle, ["A", "B"], hp={"A": 1})
    C.lose_hp(bundle, s, 0, 1)
    K.move(bundle, s, K.action_card(s["characters"][0]["hand"][0]), "discard:A")
    C.recover(bundle, s, 0, 1)
    assert len(entries(s, "unconscious")) == 1 and s["characters"][0]["hp"] == 0


def test_recovering_no_card_costs_nothing(bundle: dict) -> None:
    """Taking back no card costs no hit point: a conscious character at 0 stays conscious."""
    s = situation(bundle, ["A", "B"])
    s["characters"][0]["hp"] = 0  # as at the Citadel, before the next scenario's hit points
    C.recover(bundle, s, 0, 0)
    assert s["characters"][0]["conscious"] and not entries(s, "unconscious")


def test_a_discard_that_runs_out_recovers_only_what_is_still_missing(bundle: dict) -> None:
    """Two cards still to discard when the deck runs out: one series of two, one hit point."""
    s = situation(bundle, ["A"], hp={"A": 9})
    ch = s["characters"][0]
    for card in ch["deck"][:-1]:
        K.move(bundle, s, K.action_card(card), "discard:A")
    assert len(ch["deck"]) == 1 and len(ch["discard"]) >= 4
    assert C.discard_from_deck(bundle, s, 0, 3) == 3
    assert entries(s, "recovery")[-1]["cards"] == 2 and ch["hp"] == 8


def test_a_discard_stops_and_is_told_when_the_recovery_knocks_out(bundle: dict) -> None:
    """A forced Récupération that costs the last hit point ends the discard; it is told."""
    s = situation(bundle, ["A", "B"], hp={"A": 1})
    ch = s["characters"][0]
    for card in ch["deck"][:-2]:
        K.move(bundle, s, K.action_card(card), "box")
    assert C.discard_from_deck(bundle, s, 0, 3) == 2
    assert not ch["conscious"]
    assert entries(s, "deck.discarded")[-1] == {"name": "Maëlis", "id": "A", "count": 2}


def test_nothing_is_discarded_without_deck_or_discard(bundle: dict) -> None:
    """An empty deck and an empty discard: no card is discarded."""
    s = situation(bundle, ["A"], hp={"A": 9})
    ch = s["characters"][0]
    for card in ch["deck"] + ch["discard"] + ch["hand"]:
        K.move(bundle, s, K.action_card(card), "box")
    assert C.discard_from_deck(bundle, s, 0, 1) == 0


def test_the_first_discards_of_a_journal_are_told_as_one_line(bundle: dict) -> None:
    """Without a decision mark, discards following each other are told once, with the total."""
    s = situation(bundle, ["A"], hp={"A": 9})
    s.pop("mark", None)
    s["log"] = []
    C.discard_from_deck(bundle, s, 0, 1)
    C.discard_from_deck(bundle, s, 0, 1)
    assert entries(s, "deck.discarded") == [{"name": "Maëlis", "id": "A", "count": 2}]


def test_hand_size_and_carry_weight_are_unlimited_when_the_card_gives_none(bundle: dict) -> None:
    """A character card without a value for this table size limits neither hand nor weight."""
    b = _variant(bundle, "character", "A", hand_size={"1": 4}, carry_weight={"1": 8})
    s = situation(b, ["A", "B"])
    assert C.hand_size(b, s, s["characters"][0]) == 99
    assert C.carry(b, s, s["characters"][0]) == 99


def test_a_purse_card_without_weight_weighs_nothing(bundle: dict) -> None:
    """A purse card that prints no weight weighs 0, and giving it costs no discard."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [207, 210]})
    rope = held(bundle, s, 0, 207)
    b = _variant(bundle, "adventure_card", rope, drop=("weight",))
    assert C.weight(b, s["characters"][0]) == 2
    decks = [len(c["deck"]) for c in s["characters"]]
    C.give(b, s, 0, 1, rope, 0)
    assert [len(c["deck"]) for c in s["characters"]] == decks
    assert entries(s, "item.given")[-1]["count"] == 0


def test_giving_tells_the_payer_s_discard_once(bundle: dict) -> None:
    """The discard a gift costs is told in the gift's line, not in a line of its own."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", purses={"A": [210]})
    C.give(bundle, s, 0, 1, held(bundle, s, 0, 210), 1)
    assert entries(s, "item.given")[-1]["count"] == 2
    assert not entries(s, "deck.discarded")


def test_a_receiver_who_faints_paying_for_a_gift_keeps_it(bundle: dict) -> None:
    """The receiver's discard forces a Récupération that costs its last hit point."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", hp={"B": 1}, purses={"A": [210]})
    piolet = held(bundle, s, 0, 210)
    tobiah = s["characters"][1]
    for card in list(tobiah["deck"]):
        K.move(bundle, s, K.action_card(card), "discard:B")
    C.give(bundle, s, 0, 1, piolet, 1)
    assert not tobiah["conscious"] and piolet in tobiah["purse"]
    assert entries(s, "item.given")[-1]["count"] == 0


def test_cards_without_a_title_are_told_with_an_empty_title(bundle: dict) -> None:
    """Blocking, giving, dropping, putting back or handing over an untitled card tells ''."""
    s = situation(bundle, ["A", "B"], scenario="pluie_grise", hp={"A": 1},
                  purses={"A": [207, 210, 213, 208]})  # fmt: skip
    rope, piolet, crook = held(bundle, s, 0, 207), held(bundle, s, 0, 210), held(bundle, s, 0, 213)
    mask = held(bundle, s, 0, 208)
    b = bundle
    for key in (rope, piolet, crook, mask):
        b = _variant(b, "adventure_card", key, drop=("title",))
    C.block(b, s, 0, K.adventure(rope), True)
    assert entries(s, "card.block")[-1] == {"title": "", "name": "Maëlis"}
    C.give(b, s, 0, 1, piolet, 0)
    assert entries(s, "item.given")[-1]["title"] == ""
    C.drop(b, s, 0, crook)
    assert entries(s, "item.dropped")[-1] == {"name": "Maëlis", "title": ""}
    C.lose_hp(b, s, 0, 1)
    assert entries(s, "card.put_back") == [{"title": ""}]
    C.leave(b, s, 0)
    assert entries(s, "character.leaves")[-1]["given"] == [""]


def test_blocking_or_unblocking_a_card_nobody_holds_does_nothing(bundle: dict) -> None:
    """Only a character's card can be blocked or unblocked."""
    s = situation(bundle, ["A"], scenario="pluie_grise")
    C.block(bundle, s, 0, K.action_card("adv_riposte"), False)
    C.block(bundle, s, 0, K.adventure("207/green"), True)
    C.block(bundle, s, 0, K.adventure("207/green"), False)
    assert K.where(bundle, s, K.action_card("adv_riposte")) == "box"
    assert K.where(bundle, s, K.adventure("207/green")) == "box"
    assert not entries(s, "card.block") and not entries(s, "card.unblock")


def test_a_skill_in_the_deck_can_be_blocked(bundle: dict) -> None:
    """A skill is blocked from the hand, the discard or the Deck d'Action."""
    s = situation(bundle, ["A"])
    card = s["characters"][0]["deck"][0]
    C.block(bundle, s, 0, K.action_card(card), True)
    assert s["characters"][0]["blocked"] == [card] and card not in s["characters"][0]["deck"]


def test_leaving_hands_skills_then_purse_cards_round_the_table(bundle: dict) -> None:
    """Advanced and reflex skills, then purse cards, go to each other character in turn."""
    s = situation(bundle, ["A", "B", "C", "D"], scenario="pluie_grise",
                  purses={"A": [210, 207, 213]},
                  hands={"A": ["adv_riposte", "ref_sursaut", "adv_fouille"]})  # fmt: skip
    piolet, rope, crook = held(bundle, s, 0, 210), held(bundle, s, 0, 207), held(bundle, s, 0, 213)
    C.leave(bundle, s, 0)
    assert K.where(bundle, s, K.action_card("adv_riposte")) == "discard:B"
    assert K.where(bundle, s, K.action_card("ref_sursaut")) == "discard:C"
    assert K.where(bundle, s, K.action_card("adv_fouille")) == "discard:D"
    assert K.where(bundle, s, K.adventure(piolet)) == "purse:B"
    assert K.where(bundle, s, K.adventure(rope)) == "purse:C"
    assert K.where(bundle, s, K.adventure(crook)) == "purse:D"
    K.check(bundle, s)


def test_a_blocked_advanced_skill_stays_blocked_when_its_owner_leaves(bundle: dict) -> None:
    """The advanced skill goes to the next character blocked under its card."""
    s = situation(bundle, ["A", "B"], hands={"A": ["adv_riposte"]})
    C.block(bundle, s, 0, K.action_card("adv_riposte"), True)
    C.leave(bundle, s, 0)
    assert K.where(bundle, s, K.action_card("adv_riposte")) == "blocked:B"


def test_a_new_character_starts_conscious_off_the_plateau_without_hit_points(bundle: dict) -> None:
    """A character joining has 0 hit points until the next scenario, and no Terrain."""
    s = situation(bundle, ["A"])
    ch = C.new_character(bundle, s, "B")
    assert ch["hp"] == 0 and ch["conscious"] is True and ch["at"] is None
    assert ch["gender"] == "m"


def test_a_character_card_without_gender_is_masculine(bundle: dict) -> None:
    """French agreement: a character card that states no gender is « il »."""
    b = _variant(bundle, "character", "A", drop=("gender",))
    s = situation(bundle, ["B"])
    assert C.new_character(b, s, "A")["gender"] == "m"


def test_waking_up_with_nobody_on_the_plateau_goes_to_the_first_terrain(bundle: dict) -> None:
    """No figure on the Plateau: the first Terrain; no Terrain at all: off the Plateau."""
    s = situation(bundle, ["A", "B"], hp={"A": 1})
    C.lose_hp(bundle, s, 0, 1)
    s["characters"][1]["at"] = None
    C.gain_hp(bundle, s, 0, 1)
    assert s["characters"][0]["at"] == next(iter(s["board"]))
    C.lose_hp(bundle, s, 0, 1)
    s["board"] = {}
    C.gain_hp(bundle, s, 0, 1)
    assert s["characters"][0]["conscious"] and s["characters"][0]["at"] is None


def test_fainting_draws_the_new_hand_from_the_top_of_the_deck(bundle: dict) -> None:
    """The hand and discard are shuffled into the deck; the top card is drawn first."""
    from engine.core import Rng

    s = situation(bundle, ["A", "B"], hp={"A": 1})
    ch = s["characters"][0]
    shuffled = ch["deck"] + ch["discard"] + ch["hand"]
    Rng({"rng": s["rng"]}).shuffle(shuffled)
    C.lose_hp(bundle, s, 0, 1)
    assert ch["hand"] == shuffled[-3:][::-1] and ch["deck"] == shuffled[:-3]
    assert ch["conscious"] is False


def test_fainting_asks_for_a_banishment_even_in_a_state_without_interruptions(bundle: dict) -> None:
    """The banishment is asked for by an interruption, created when there is none yet."""
    s = situation(bundle, ["A", "B"], hp={"A": 1})
    del s["interrupt"]
    C.lose_hp(bundle, s, 0, 1)
    assert s["interrupt"] == [{"type": "banish", "character": 0}]


def test_a_defeat_by_fainting_shows_the_players_only_its_result(bundle: dict) -> None:
    """When the last character faints, the players see the result and nothing else new."""
    from engine.citadelle.game import view

    s = situation(bundle, ["A"], hp={"A": 1})
    before = set(view(bundle, s))
    C.lose_hp(bundle, s, 0, 1)
    assert set(view(bundle, s)) - before <= {"result"} and s["queue"] == []
    assert s["result"]["result"] == "defeat"
