"""Le Roi des 12: the rulebook's worked examples and every character's interactions, played
through the engine's own ``apply`` from states set up by hand (dice, hands, points)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.roi import dice
from engine.roi import rules as R
from engine.roi.bots import duel_points

ALL = ("alchimiste", "inverseuse", "chenapans", "dame", "sorcier", "golem")


def table(
    dice_faces: list[int],
    names: tuple[str, ...] = ("Léa", "Mia", "Tom"),
    cards: str = "choix",
    selection: tuple[str, ...] = ALL,
    step: bool = False,
) -> dict:
    n = len(dice_faces)
    seats = [
        {"name": names[i] if i < len(names) else f"J{i + 1}", "bot": not step} for i in range(n)
    ]
    st = R.new_state(
        {
            "seed": "exemple",
            "seats": seats,
            "cartes": cards,
            "selection": list(selection),
            "pas_a_pas": step,
        }
    )
    for p, face in zip(st["p"], dice_faces, strict=True):
        p["die"] = face
    return st


def play(st: dict, *cards: str) -> dict:
    """Every seat of the table plays its card, in seat order (all secret until the last)."""
    for seat, card in enumerate(cards):
        if card:
            st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    return st


def faces(st: dict) -> list[int]:
    return [p["die"] for p in st["p"]]


def points(st: dict) -> list[int]:
    return [R.pv(st, s) for s in range(len(st["p"]))]


def log_keys(st: dict) -> list[str]:
    return [e["key"] for e in st["log"]]


# --------------------------------------------------------------------------- the rulebook's turn


def test_lea_mia_tom_first_turn():
    """Léa 10, Mia 7, Tom 3.  Léa and Mia play L'ALCHIMISTE: boom, both discarded, no effect.
    Tom's L'INVERSEUSE turns his 3 into a 10.  Léa 10 and Tom 10 cancel: Mia, alone with her
    7, is champion (2 PV), no dauphin.  Nobody re-rolls; a new turn starts."""
    st = table([10, 7, 3])
    st = play(st, "alchimiste", "alchimiste", "inverseuse")
    assert faces(st) == [10, 7, 10]
    assert [p["value"] for p in st["p"]] == [10, 7, 10]
    assert points(st) == [0, 2, 0]
    assert all(
        p["discard"] == [c]
        for p, c in zip(st["p"], ["alchimiste"] * 2 + ["inverseuse"], strict=True)
    )
    assert st["turn"] == 2 and st["manche"] == 1 and st["pending"] == {"kind": "choose"}
    assert "cancel.same" in log_keys(st) and "values.tied" in log_keys(st)


def test_lea_alone_with_the_alchemist_would_have_had_twenty():
    """The rulebook's remark: had Léa's card not been cancelled, her 10 would count 20 (the die
    still shows 10) and she would not have been covered."""
    st = table([10, 7, 3])
    st = play(st, "alchimiste", "golem", "inverseuse")
    assert st["p"][0]["die"] == 10 and st["p"][0]["value"] == 20
    assert st["p"][1]["value"] == 12  # LE GOLEM: 12 whatever the face
    assert points(st) == [2, 1, 0]


def test_sorciere_and_chenapans_lea_flips_first_then_pivots():
    """Léa plays LA SORCIÈRE (our LE SORCIER), Mia LES CHENAPANS: Léa may order the effects,
    she flips first, then turns her die to a face next to the new one."""
    st = table([2, 7, 5])
    st = play(st, "sorcier", "chenapans", "golem")
    assert R.to_act(st) == [0] and st["pending"]["kind"] == "pivot"
    legal = R.legal_actions(st, 0)
    after = [a["face"] for a in legal if a["order"] == "after_flip"]
    before = [a["face"] for a in legal if a["order"] == "before_flip"]
    assert sorted(after) == sorted(dice.adjacent(dice.opposite(2)))
    assert sorted(before) == sorted(dice.adjacent(2))
    st = R.apply(st, {"type": "pivot", "seat": 0, "face": after[0], "order": "after_flip"})
    assert faces(st) == [after[0], dice.opposite(7), dice.opposite(5)]
    # the other order gives the same choice of final faces (opposite faces' neighbours)
    assert sorted(dice.opposite(f) for f in before) == sorted(after)


def test_two_dames_the_lower_takes_a_token_of_her_choice():
    """Mia and Tom both play LA DAME: cancelled.  Mia's die is lower: after the points she
    takes a token of her choice from Tom; she takes a 2 PV token."""
    st = table([9, 4, 11])
    st["p"][2]["tokens"] = [2, 1]
    st = play(st, "golem", "dame", "dame")
    # values: Léa 12 (GOLEM), Mia 4, Tom 11: Léa champion +2, Tom dauphin +1 -> [2, 2, 1, 1]
    assert st["pending"] == {"kind": "take", "seats": [1], "victim": 2}
    assert R.legal_actions(st, 1) == [
        {"type": "take", "seat": 1, "token": 2},
        {"type": "take", "seat": 1, "token": 1},
    ]
    st = R.apply(st, {"type": "take", "seat": 1, "token": 2})
    assert sorted(st["p"][1]["tokens"]) == [2] and sorted(st["p"][2]["tokens"]) == [1, 1]
    assert points(st) == [2, 2, 2]


def test_dame_tie_on_the_highest_value_ignores_the_theft():
    st = table([6, 6, 3], names=("Léa", "Mia", "Tom"))
    st = play(st, "dame", "dame", "dame")
    assert "dame.tie" in log_keys(st) and st["pending"] == {"kind": "choose"}


def test_dame_with_a_single_kind_of_token_is_taken_at_once():
    st = table([3, 9, 10])
    st["p"][1]["tokens"] = [1]
    st = play(st, "dame", "dame", "alchimiste")
    # Tom 20 champion, Mia 9 dauphin: Mia holds only 1 PV tokens; Léa (lowest Dame) takes one
    assert st["pending"] == {"kind": "choose"}
    assert "dame.take" in log_keys(st)
    assert points(st) == [1, 1, 2]


def test_a_single_dame_voids_every_other_card():
    st = table([10, 7, 3])
    st = play(st, "dame", "alchimiste", "inverseuse")
    assert faces(st) == [10, 7, 3]  # L'INVERSEUSE did nothing
    assert [p["value"] for p in st["p"]] == [10, 7, 3]  # nor L'ALCHIMISTE
    assert points(st) == [2, 1, 0]


# --------------------------------------------------------------------------- end of a manche


def _last_turn() -> dict:
    """The second manche's last turn: Léa 3 PV, Mia 6, Tom 4; Tom (who won the first
    manche) holds 2 cards, Léa and Mia 3."""
    st = table([5, 5, 9], cards="premiere")
    st["manche"], st["turn"] = 2, 5
    hands = [
        ["alchimiste", "golem", "sorcier"],
        ["alchimiste", "oracle", "parasite"],
        ["automate", "chevalier"],
    ]
    for p, hand in zip(st["p"], hands, strict=True):
        p["hand"] = hand
        p["discard"] = [c for c in st["set"] if c not in hand]
    st["p"][2]["discard"].remove("parasite")
    st["p"][2]["under"] = ["parasite"]
    st["p"][0]["tokens"] = [2, 1]
    st["p"][1]["tokens"] = [2, 2, 2]
    st["p"][2]["tokens"] = [2, 2]
    R.check_state(st)
    return st


def test_manche_won_with_three_points_after_a_tie():
    """Tom has one card left: the manche ends.  Léa 3 PV, Mia and Tom 6 each: boom, their
    points go back; Léa wins the manche with only 3 PV, slides a card under her die, every
    token goes back, the dice are re-rolled and a new manche starts."""
    st = _last_turn()
    # Léa and Mia both play L'ALCHIMISTE (cancelled), their 5s cancel, Tom's AUTOMATE: 16
    st = play(st, "alchimiste", "alchimiste", "automate")
    assert st["history"][-1] == {"manche": 2, "playoff": False, "winners": [0]}
    assert "manche.cancelled" in log_keys(st)
    assert st["pending"] == {"kind": "bury", "seats": [0]}
    # every card played this manche is back in hand
    assert sorted(st["p"][0]["hand"]) == sorted(st["set"])
    assert sorted(st["p"][2]["hand"]) == sorted(c for c in st["set"] if c != "parasite")
    st = R.apply(st, {"type": "bury", "seat": 0, "card": "parasite"})
    assert st["p"][0]["under"] == ["parasite"]
    assert st["manche"] == 3 and st["turn"] == 1 and points(st) == [0, 0, 0]
    assert st["winner"] is None and st["pending"] == {"kind": "choose"}


def test_a_second_card_under_the_die_wins_the_game():
    """End of the third manche: Léa and Tom have one card each under their dice; Léa wins
    this manche, slides a second card and wins the game at once."""
    st = _last_turn()
    st["p"][0]["under"] = ["oracle"]
    st["p"][0]["discard"].remove("oracle")
    st = play(st, "alchimiste", "alchimiste", "automate")
    st = R.apply(st, {"type": "bury", "seat": 0, "card": "golem"})
    assert st["winner"] == [0] and R.to_act(st) == []
    assert log_keys(st)[-1] == "game.king"


def test_eight_points_end_the_manche_early():
    st = table([10, 7, 3], cards="premiere")
    st["p"][0]["tokens"] = [2, 2, 2]
    st = play(st, "alchimiste", "parasite", "golem")  # Léa 20: champion, 8 PV
    assert "manche.over.points" in log_keys(st)
    assert st["pending"] == {"kind": "bury", "seats": [0]}


def test_points_that_tie_cancel_even_for_the_top():
    assert R.manche_winner({0: 3, 1: 6, 2: 6}) == (0, [1, 2])
    assert R.manche_winner({0: 5, 1: 5}) == (None, [0, 1])
    assert R.manche_winner({0: 4, 1: 4, 2: 0}) == (2, [0, 1])  # our reading: 0 PV may win


# --------------------------------------------------------------------------- characters


def test_marchands_come_first_and_the_die_stays_with_its_new_owner():
    st = table(
        [2, 8, 11],
        selection=("marchands", "inverseuse", "alchimiste", "automate", "parasite", "golem"),
    )
    st = play(st, "marchands", "inverseuse", "alchimiste")
    # Léa's 2 goes to Mia, Mia's 8 to Tom, Tom's 11 to Léa; then Mia turns the 2 over: 11
    assert faces(st) == [11, 11, 8]
    assert [p["value"] for p in st["p"]] == [11, 11, 16]
    assert points(st) == [0, 0, 2]


def test_two_marchands_cancel_and_nobody_passes_a_die():
    st = table(
        [2, 8, 11],
        selection=("marchands", "inverseuse", "alchimiste", "automate", "parasite", "golem"),
    )
    st = play(st, "marchands", "marchands", "parasite")
    assert faces(st) == [2, 8, 11]
    assert points(st) == [0, 2, 1]  # Mia's 8 first, Tom's 11 - 7 = 4 second


def test_oracle_rolls_last_after_the_chenapans():
    st = table(
        [3, 6, 12], selection=("chenapans", "oracle", "alchimiste", "automate", "parasite", "golem")
    )
    probe = {"rng": st["rng"]}
    expected_roll = 1 + Rng(probe).below(12)
    st = play(st, "chenapans", "oracle", "automate")
    # everyone flips (Mia's 6 -> 7), then Mia rolls: her die shows the roll, not 13 - roll
    assert faces(st) == [10, expected_roll, 1]
    assert st["p"][2]["value"] == 8


def test_chevalier_low_wins_and_with_parieur_second_lowest_takes_two():
    sel = ("parieur", "alchimiste", "automate", "parasite", "golem", "oracle")
    st = table([4, 9, 6, 2], names=("A", "B", "C", "D"), selection=sel)
    st = play(st, "chevalier", "parieur", "alchimiste", "automate")
    # values 4, 9, 12, 9 -> B and D tie (9); lowest A 4 (1 PV under LE PARIEUR), C 12 next
    assert [p["value"] for p in st["p"]] == [4, 9, 12, 9]
    assert points(st) == [1, 0, 2, 0]
    st = table([4, 9, 6, 2], names=("A", "B", "C", "D"), selection=sel)
    st = play(st, "chevalier", "alchimiste", "golem", "parasite")
    assert [p["value"] for p in st["p"]] == [4, 18, 12, -5]
    assert points(st) == [1, 0, 0, 2]  # low wins: D -5 champion, A 4 dauphin


def test_parieur_alone_swaps_the_gains():
    st = table(
        [10, 7, 3], selection=("parieur", "alchimiste", "automate", "parasite", "golem", "oracle")
    )
    st = play(st, "parieur", "parasite", "golem")
    # values 10, 0, 12: champion Tom gets 1, dauphin Léa gets 2
    assert points(st) == [2, 0, 1]


def test_golem_twelve_becomes_one_after_every_effect():
    st = table(
        [1, 5, 8], selection=("chenapans", "alchimiste", "automate", "parasite", "golem", "oracle")
    )
    st = play(st, "golem", "chenapans", "parasite")
    # the CHENAPANS turn Léa's 1 into a 12: her GOLEM is worth 1
    assert faces(st) == [12, 8, 5] and st["p"][0]["value"] == 1
    assert points(st) == [1, 2, 0]  # Mia 8 champion, Léa 1 dauphin, Tom -2


def test_values_below_one_can_win_when_all_else_cancels():
    st = table([5, 5, 3], cards="premiere")
    st = play(st, "alchimiste", "alchimiste", "parasite")
    assert points(st) == [0, 0, 2]  # 5 and 5 cancel, Tom's -4 wins alone


def test_a_seat_that_chose_cannot_choose_again_nor_play_for_another():
    st = table([10, 7, 3])
    st = R.apply(st, {"type": "play", "seat": 0, "card": "dame"})
    assert R.to_act(st) == [1, 2]
    with pytest.raises(IllegalAction):
        R.apply(st, {"type": "play", "seat": 0, "card": "golem"})
    with pytest.raises(IllegalAction):
        R.apply(st, {"type": "play", "seat": 1, "card": "oracle"})  # not in this set


def test_step_by_step_reveal_shows_all_cards_then_each_step():
    st = table([10, 7, 3], step=True)
    st = play(st, "alchimiste", "alchimiste", "inverseuse")
    assert st["pending"] == {"kind": "ack"} and R.turn_kind(st) == "collective"
    titles = [s["title"] for s in st["reveal"]["stages"]]
    assert titles == [
        "stage.reveal",
        "stage.cancel",
        "stage.effects",
        "stage.values",
        "stage.points",
    ]
    assert st["reveal"]["shown"] == 1
    st = R.apply(st, {"type": "next"})
    assert st["reveal"]["shown"] == 2
    st = R.apply(st, {"type": "all"})
    assert st["reveal"]["shown"] == 5 and R.legal_actions(st, 0) == [{"type": "next"}]
    st = R.apply(st, {"type": "next"})
    assert st["pending"] == {"kind": "choose"} and st["turn"] == 2


def test_bot_scoring_agrees_with_the_engine():
    """The bots' fast copy of steps 2–5 gives the engine's points (no ORACLE, no SORCIER)."""
    cases = [
        ([10, 7, 3], ["alchimiste", "alchimiste", "inverseuse"]),
        ([10, 7, 3], ["dame", "alchimiste", "inverseuse"]),
        ([1, 5, 8], ["golem", "chenapans", "parasite"]),
        ([10, 7, 3], ["parieur", "parasite", "golem"]),
    ]
    for fs, cards in cases:
        fill = [c for c in cards if c != "chevalier"] + [*ALL, "parasite", "automate"]
        sel = tuple(dict.fromkeys(fill))[:6]
        st = table(list(fs), selection=sel)
        st = play(st, *cards)
        assert list(duel_points(fs, cards)) == points(st), (fs, cards)


# --------------------------------------------------------------------------- sets of cards


def test_card_sets():
    rng = Rng({"rng": 5})
    assert R.choose_set("premiere", [], rng) == [
        "alchimiste",
        "automate",
        "chevalier",
        "golem",
        "oracle",
        "parasite",
        "sorcier",
    ]
    for seed in range(300):
        s = R.choose_set("hasard", [], Rng({"rng": seed}))
        assert len(s) == 7 and len(set(s)) == 7 and "chevalier" in s
        assert sum(c in R.TURNS_DIE for c in s) >= 2


def test_every_player_holds_the_same_seven():
    st = table([1, 2, 3, 4], names=("A", "B", "C", "D"), cards="hasard")
    assert all(p["hand"] == st["set"] for p in st["p"])


def test_the_die():
    for face in range(1, 13):
        adj = dice.adjacent(face)
        assert len(set(adj)) == 5 and face not in adj and dice.opposite(face) not in adj
        for other in adj:
            assert face in dice.adjacent(other)
        assert sorted(dice.adjacent(dice.opposite(face))) == sorted(dice.opposite(f) for f in adj)


# --------------------------------------------------------------------------- « Mise en place »


def test_setup_gives_each_player_a_rolled_die_and_the_same_seven_cards():
    """« Chaque joueur reçoit 1 dé ... et 7 cartes Personnage » and « lance son dé »: every
    hand holds the set, nothing is played, discarded, under the die or won yet; the first
    manche's first turn waits for every player's card."""
    st = R.new_state(
        {"seed": "mise", "seats": [{"name": n, "bot": True} for n in ("Léa", "Mia", "Tom")]}
    )
    assert st["format_version"] == R.FORMAT_VERSION and st["game"] == "roi"
    assert st["seed"] == "mise" and len(st["set"]) == 7 and "chevalier" in st["set"]
    assert (st["manche"], st["turn"], st["offset"]) == (1, 1, 0)
    assert st["active"] == [0, 1, 2] and st["groups"] == [[0, 1, 2]]
    assert not st["tournament"] and not st["playoff"]
    assert st["pending"] == {"kind": "choose"} and st["res"] is None
    assert st["winner"] is None and st["history"] == [] and st["throne"] == ""
    assert st["step_by_step"] is False  # every seat is a computer: nobody to step through
    for p in st["p"]:
        assert p["hand"] == st["set"] and p["hand"] is not st["set"]
        assert p["played"] is None and p["value"] is None
        assert p["discard"] == [] and p["under"] == [] and p["tokens"] == []
        assert 1 <= p["die"] <= dice.SIDES
    assert R.to_act(st) == [0, 1, 2]
    keys = log_keys(st)
    assert keys == ["game.start", "manche.start", "manche.dice"]
    assert st["log"][0]["args"] == {"players": ["Léa", "Mia", "Tom"], "cards": st["set"]}
    assert st["log"][1]["args"] == {"manche": 1}
    dice_line = st["log"][2]["args"]["dice"]
    assert dice_line == [
        f"{n} {p['die']}" for n, p in zip(("Léa", "Mia", "Tom"), st["p"], strict=True)
    ]


def test_setup_keeps_the_seats_names_computers_and_temperaments():
    st = R.new_state(
        {
            "seed": "s",
            "seats": [
                {"name": "Léa", "bot": False, "persona": "ignored"},
                {"name": "Bot", "bot": 1, "persona": "prudent"},
                {"name": "Tom", "bot": True},
            ],
            "throne": "le trône de Jade",
        }
    )
    assert st["seats"] == [
        {"name": "Léa", "bot": False},
        {"name": "Bot", "bot": True, "persona": "prudent"},
        {"name": "Tom", "bot": True},
    ]
    assert st["throne"] == "le trône de Jade"
    assert st["step_by_step"] is True  # a person plays: the reveal goes step by step
    off = R.new_state(
        {
            "seed": "s",
            "seats": [{"name": "A", "bot": False}, {"name": "B", "bot": True}],
            "pas_a_pas": False,
        }
    )
    assert off["step_by_step"] is False


def test_the_first_game_uses_the_seven_cards_of_the_rulebook():
    """« Lors de votre première partie »: LE CHEVALIER, LE SORCIER, L'ORACLE, L'ALCHIMISTE,
    L'AUTOMATE, LE PARASITE et LE GOLEM; a chosen selection keeps only real cards."""
    first = R.new_state({"seed": "p", "seats": [{"name": "A", "bot": True}] * 2})
    assert first["set"] == R.choose_set("premiere", [], Rng(first))
    chosen = R.new_state(
        {
            "seed": "p",
            "seats": [{"name": "A", "bot": True}] * 2,
            "cartes": "choix",
            "selection": ["nope", *ALL],
        }
    )
    assert "nope" not in chosen["set"] and set(ALL) <= set(chosen["set"])


def test_more_than_four_players_play_a_tournament_in_groups():
    five = R.new_state({"seed": "t", "seats": [{"name": f"J{i}", "bot": True} for i in range(5)]})
    assert five["tournament"] and five["sizes"] == [2, 3]
    assert sorted(s for g in five["groups"] for s in g) == list(range(5))
    assert "game.tournament" in log_keys(five) and "manche.group" in log_keys(five)
    assert five["log"][1]["args"] == {"sizes": "2/3"}
    four = R.new_state({"seed": "t", "seats": [{"name": f"J{i}", "bot": True} for i in range(4)]})
    assert not four["tournament"] and "game.tournament" not in log_keys(four)


# --------------------------------------------------------------------------- what may be played


def test_an_action_must_be_an_object_of_a_known_type_from_a_seat_of_the_table():
    from engine.core.errors import MalformedAction

    st = table([3, 8, 10])
    for bad in (["play"], {"type": "jouer"}, {"type": 3}, {"seat": 0}):
        with pytest.raises(MalformedAction):
            R.check_action(st, bad)
    for seat in ("0", True, None, 0.0):
        with pytest.raises(MalformedAction):
            R.check_action(st, {"type": "play", "seat": seat, "card": "chevalier"})
    for seat in (-1, 3):
        with pytest.raises(IllegalAction, match="no seat"):
            R.check_action(st, {"type": "play", "seat": seat, "card": "chevalier"})
    with pytest.raises(IllegalAction, match="nothing to step through"):
        R.check_action(st, {"type": "next"})
    assert R.check_action(st, {"type": "play", "seat": 2, "card": "chevalier"}) == 2
    with pytest.raises(IllegalAction, match="not a legal action"):
        R.check_action(st, {"type": "play", "seat": 0, "card": "nope"})


def test_the_end_of_a_manche_tells_the_points_the_cancelled_and_the_winner():
    """« Fin de manche », the rulebook's example: the discards come back to hand (in the set's
    order, the discard pile empty), Mia's and Tom's 6 PV cancel, Léa wins with 3; once her card
    is under her die the tokens go back, every die is rolled again and the new manche waits
    for every player's card."""
    st = play(_last_turn(), "alchimiste", "alchimiste", "automate")
    for s, p in enumerate(st["p"]):
        assert p["discard"] == [] and p["played"] is None
        assert p["hand"] == [c for c in st["set"] if c not in p["under"]], s
    ends = [e for e in st["log"] if e["key"].startswith("manche.")][-5:]
    assert ends == [
        {"key": "manche.over.cards", "args": {"players": ["Tom"]}},
        {"key": "manche.points", "args": {"points": ["Léa 3", "Mia 6", "Tom 6"], "group": 0}},
        {"key": "manche.cancelled", "args": {"points": 6, "players": ["Mia", "Tom"]}},
        {"key": "manche.winner", "args": {"who": "Léa", "points": 3, "group": 0}},
        {"key": "manche.bury", "args": {"players": ["Léa"]}},
    ]
    st["rng"] = Rng.seed_from("relance")
    st = R.apply(st, {"type": "bury", "seat": 0, "card": "golem"})
    assert st["p"][0]["hand"] == [c for c in st["set"] if c != "golem"]
    for p in st["p"]:
        assert p["tokens"] == [] and p["value"] is None and p["played"] is None
    first = st["log"].index({"key": "manche.start", "args": {"manche": 3}})
    assert st["log"][first + 1] == {
        "key": "manche.dice",
        "args": {
            "dice": [f"{n} {f}" for n, f in zip(("Léa", "Mia", "Tom"), faces(st), strict=True)]
        },
    }
    assert st["groups"] == [[0, 1, 2]] and st["res"] is None and R.to_act(st) == [0, 1, 2]


def test_a_manche_whose_points_all_cancel_has_no_winner_and_buries_nothing():
    """« Si les points de tous les joueurs ont été annulés, aucun vainqueur »: straight to the
    next manche."""
    st = _last_turn()
    for p in st["p"]:
        p["tokens"] = [2, 2]  # 4 PV each
        p["die"] = 5  # three 5s: every die is cancelled, nobody scores this turn
    st = play(st, "alchimiste", "alchimiste", "chevalier")
    assert st["history"][-1]["winners"] == []
    assert {"key": "manche.nowinner", "args": {"group": 0}} in st["log"]
    assert st["manche"] == 3 and st["pending"] == {"kind": "choose"}
    assert [p["under"] for p in st["p"]] == [[], [], ["parasite"]]


# --------------------------------------------------------------------------- the journal of a turn

SEL_MARCHANDS = ("marchands", "inverseuse", "alchimiste", "automate", "parasite", "golem")
SEL_PARIEUR = ("parieur", "alchimiste", "automate", "parasite", "golem", "oracle")
SEL_CHENAPANS = ("chenapans", "alchimiste", "automate", "parasite", "golem", "oracle")


def _seen(e: dict) -> tuple:
    return (e["key"], *e["args"].values())


JOURNALS = {
    # the rulebook's first turn: the two ALCHIMISTES cancel, Tom turns his 3 into a 10, the
    # two 10s cancel, Mia is champion alone
    "rulebook": (
        ([10, 7, 3], ALL, ("alchimiste", "alchimiste", "inverseuse")),
        [
            ("cancel.same", "alchimiste", ["Léa", "Mia"], False),
            ("effect.inverseuse", "Tom", 3, 10),
            ("values.all", ["Léa 10", "Mia 7", "Tom 10"]),
            ("values.tied", 10, ["Léa", "Tom"]),
            ("points.champion", "Mia", 2, 2),
        ],
    ),
    # LES MARCHANDS first: each die to the left-hand neighbour, then L'INVERSEUSE on Mia's 2
    "marchands": (
        ([2, 8, 11], SEL_MARCHANDS, ("marchands", "inverseuse", "alchimiste")),
        [
            ("cancel.none",),
            ("effect.marchands", "Léa", ["Léa 11", "Mia 2", "Tom 8"]),
            ("effect.inverseuse", "Mia", 2, 11),
            ("effect.alchimiste", "Tom", 8, 16),
            ("values.all", ["Léa 11", "Mia 11", "Tom 16"]),
            ("values.tied", 11, ["Léa", "Mia"]),
            ("points.champion", "Tom", 2, 2),
        ],
    ),
    # LE CHEVALIER (low wins) with LE PARIEUR (the gains swap): A lowest takes 1, C 2
    "chevalier_parieur": (
        ([4, 9, 6, 2], SEL_PARIEUR, ("chevalier", "parieur", "alchimiste", "automate")),
        [
            ("cancel.none",),
            ("effect.alchimiste", "C", 6, 12),
            ("effect.automate", "D", 2, 9),
            ("effect.chevalier", "A"),
            ("effect.parieur", "B"),
            ("values.all", ["A 4", "B 9", "C 12", "D 9"]),
            ("values.tied", 9, ["B", "D"]),
            ("points.champion", "C", 2, 2),
            ("points.dauphin", "A", 1, 1),
            ("points.why", True, True),
        ],
    ),
    # LES CHENAPANS flip every die; LE GOLEM's 12 after every effect is worth 1
    "chenapans_golem": (
        ([1, 5, 8], SEL_CHENAPANS, ("golem", "chenapans", "parasite")),
        [
            ("cancel.none",),
            ("effect.chenapans", "Mia", ["Léa 12", "Mia 8", "Tom 5"]),
            ("effect.parasite", "Tom", 5, -2),
            ("effect.golem", "Léa", 12, 1),
            ("values.all", ["Léa 1", "Mia 8", "Tom -2"]),
            ("points.champion", "Mia", 2, 2),
            ("points.dauphin", "Léa", 1, 1),
        ],
    ),
    # a single DAME voids every other card
    "dame": (
        ([10, 7, 3], ALL, ("dame", "golem", "inverseuse")),
        [
            ("cancel.dame", "Léa", ["Mia", "Tom"]),
            ("effect.dame", "Léa"),
            ("values.all", ["Léa 10", "Mia 7", "Tom 3"]),
            ("points.champion", "Léa", 2, 2),
            ("points.dauphin", "Mia", 1, 1),
        ],
    ),
    # every card cancelled, every die tied: no effect, no points
    "nothing": (
        ([5, 5, 5], ALL, ("golem", "golem", "golem")),
        [
            ("cancel.same", "golem", ["Léa", "Mia", "Tom"], False),
            ("effect.none",),
            ("values.all", ["Léa 5", "Mia 5", "Tom 5"]),
            ("values.tied", 5, ["Léa", "Mia", "Tom"]),
            ("points.none",),
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(JOURNALS))
def test_the_journal_tells_each_step_of_a_turn_as_the_rulebook_resolves_it(case):
    """Steps 2 to 5 (« Annuler des cartes », « Effets des cartes », values, « Gagner des
    points »), each told once, in the rulebook's order, with who, what and how much."""
    (dice_faces, sel, cards), expected = JOURNALS[case]
    names = ("Léa", "Mia", "Tom") if len(dice_faces) == 3 else ("A", "B", "C", "D")
    st = table(dice_faces, names=names, selection=sel)
    start = len(st["log"])
    st = play(st, *cards)
    told = [_seen(e) for e in st["log"][start:] if not e["key"].startswith("turn.")]
    assert told == expected
    revealed = [e["args"] for e in st["log"][start:] if e["key"] == "turn.revealed"]
    assert revealed == [{"who": n, "card": c} for n, c in zip(names, cards, strict=True)]


def test_a_dame_facing_a_player_without_tokens_takes_nothing():
    """LA DAME's theft comes « après l'étape 5 »: the lowest DAME takes the highest DAME's
    only kind of token at once, or nothing (and the journal says so) when she holds none."""
    steal = table([2, 8, 5])
    steal = play(steal, "dame", "alchimiste", "dame")  # values 2, 16, 5: Tom dauphin
    assert points(steal) == [1, 2, 0]  # Léa (lowest DAME) took Tom's only token at once
    assert [e["args"] for e in steal["log"] if e["key"] == "dame.take"] == [
        {"who": "Léa", "victim": "Tom", "points": 1}
    ]
    empty = table([2, 8, 3, 5], names=("A", "B", "C", "D"))
    empty = play(empty, "dame", "alchimiste", "dame", "golem")
    # values 2, 16, 3, 12: B champion, D dauphin; C, the highest DAME, holds no token
    assert points(empty) == [0, 2, 0, 1]
    assert {"key": "dame.nothing", "args": {"who": "A", "victim": "C"}} in empty["log"]
    assert "dame.take" not in log_keys(empty)
    assert empty["pending"] == {"kind": "choose"} and empty["res"] is None


def test_eight_points_end_the_manche_and_the_journal_names_who_reached_them():
    """« Un joueur (ou plus) a collecté au moins 8 PV »: the manche ends at the end of that
    turn, the turn's reveal closes and no turn is left in progress."""
    st = table([10, 7, 3], cards="premiere")
    st["p"][0]["tokens"] = [2, 2, 2]
    st = play(st, "alchimiste", "parasite", "golem")
    assert {"key": "manche.over.points", "args": {"players": ["Léa"]}} in st["log"]
    assert "manche.over.cards" not in log_keys(st)
    assert st["reveal"]["open"] is False and st["res"] is None


def test_after_a_turn_the_reveal_is_closed_and_the_next_turn_waits():
    st = play(table([10, 7, 3]), "alchimiste", "alchimiste", "inverseuse")
    assert st["reveal"]["open"] is False and st["res"] is None
    assert st["turn"] == 2 and st["pending"] == {"kind": "choose"}


def test_the_view_shows_each_computer_seats_temperament():
    st = R.new_state(
        {
            "seed": "v",
            "seats": [{"name": "A", "bot": False}, {"name": "B", "bot": True, "persona": "ruse"}],
        }
    )
    rows = R.view(st, 0)["players"]
    assert [r["persona"] for r in rows] == [None, "ruse"]


# --------------------------------------------------------------------------- what the table is told


def test_a_refused_action_names_the_action_the_turn_and_the_reason():
    """An action the rules refuse is sent back with what was asked, where in the game (manche,
    turn) and why, so that the player (or the bot's author) can tell what went wrong."""
    from engine.core.errors import MalformedAction

    st = table([3, 8, 10])
    st["manche"], st["turn"] = 2, 4
    where = "roi, manche 2, tour 4"
    cases = [
        (["play"], MalformedAction, "an action is a JSON object"),
        ({"type": "jouer"}, MalformedAction, "unknown action type 'jouer'"),
        ({"type": [[1]]}, MalformedAction, "unknown action type […]"),
        ({"type": "next"}, IllegalAction, "nothing to step through now"),
        ({"type": "play", "seat": "0", "card": "dame"}, MalformedAction, None),
        ({"type": "play", "seat": 7, "card": "dame"}, IllegalAction, "no seat 7"),
        ({"type": "play", "seat": 0, "card": "nope"}, IllegalAction, None),
    ]
    whys = {
        MalformedAction: "« seat » must be a seat number",
        IllegalAction: "not a legal action of a seat that must act now",
    }
    for action, error, why in cases:
        with pytest.raises(error) as caught:
            R.check_action(st, action)
        assert caught.value.action == action and caught.value.where == where
        assert caught.value.why == (why or whys[error]), action


def test_choosing_tells_the_table_who_chose_and_only_the_player_which_card():
    st = R.apply(table([3, 8, 10]), {"type": "play", "seat": 1, "card": "dame"})
    assert st["log"][-2:] == [
        {"key": "turn.chosen", "args": {"who": "Mia"}},
        {"key": "turn.chosen.own", "args": {"card": "dame"}, "to": [1]},
    ]


def test_the_card_under_the_die_is_told_to_its_owner_and_its_count_to_all():
    st = play(_last_turn(), "alchimiste", "alchimiste", "automate")
    st = R.apply(st, {"type": "bury", "seat": 0, "card": "golem"})
    buried = [e for e in st["log"] if e["key"].startswith("manche.buried")]
    assert buried == [
        {"key": "manche.buried", "args": {"who": "Léa", "count": 1}},
        {"key": "manche.buried.own", "args": {"card": "golem"}, "to": [0]},
    ]


def test_the_oracle_is_told_with_the_face_before_and_the_face_rolled():
    st = table(
        [3, 6, 12], selection=("chenapans", "oracle", "alchimiste", "automate", "parasite", "golem")
    )
    roll = 1 + Rng({"rng": st["rng"]}).below(12)
    st = play(st, "automate", "oracle", "parasite")
    told = [e for e in st["log"] if e["key"] == "effect.oracle"]
    assert told == [{"key": "effect.oracle", "args": {"who": "Mia", "before": 6, "after": roll}}]
    assert st["p"][1]["die"] == roll


def test_a_dame_left_alone_by_cancelled_cards_voids_nobody_and_no_effect_applies():
    """LA DAME's player is the only one whose card stands (the two GOLEMS cancel): she voids
    no card, and no card changes any value this turn."""
    st = play(table([3, 8, 5]), "dame", "golem", "golem")
    told = [_seen(e) for e in st["log"] if not e["key"].startswith(("turn.", "game.", "manche."))]
    assert told == [
        ("cancel.same", "golem", ["Mia", "Tom"], False),
        ("cancel.dame", "Léa", []),
        ("effect.dame", "Léa"),
        ("effect.none",),
        ("values.all", ["Léa 3", "Mia 8", "Tom 5"]),
        ("points.champion", "Mia", 2, 2),
        ("points.dauphin", "Tom", 1, 1),
    ]


def test_the_chevalier_alone_says_the_low_values_won():
    st = play(table([4, 9, 6]), "chevalier", "alchimiste", "golem")
    assert points(st) == [2, 0, 1]  # Léa 4 lowest, Tom 12 next, Mia 18
    assert {"key": "points.why", "args": {"low": True, "swap": False}} in st["log"]


def test_cancelled_cards_are_discarded_at_once_the_others_at_the_end_of_the_turn():
    """« Les joueurs dont les cartes sont annulées les défaussent immédiatement »: while the
    table steps through the turn, the two ALCHIMISTES are already in their discards, Tom's
    INVERSEUSE is still in front of him."""
    st = play(table([10, 7, 3], step=True), "alchimiste", "alchimiste", "inverseuse")
    assert st["pending"] == {"kind": "ack"}
    assert [(p["played"], p["discard"]) for p in st["p"]] == [
        (None, ["alchimiste"]),
        (None, ["alchimiste"]),
        ("inverseuse", []),
    ]


def test_the_table_may_skip_to_the_end_of_the_reveal_only_with_two_steps_left():
    st = play(table([10, 7, 3], step=True), "alchimiste", "alchimiste", "inverseuse")
    offered = []
    while st["reveal"]["shown"] < len(st["reveal"]["stages"]):
        offered.append((st["reveal"]["shown"], [a["type"] for a in R.legal_actions(st, 0)]))
        st = R.apply(st, {"type": "next"})
    assert offered == [
        (1, ["next", "all"]),
        (2, ["next", "all"]),
        (3, ["next", "all"]),
        (4, ["next"]),
    ]


def test_the_reveal_remembers_the_turn_and_the_table_before_it():
    """While the table steps through a turn, the screen shows the dice and PV as they were
    before it until the reveal reaches the step that changes them."""
    st = table([10, 7, 3], step=True)
    st["p"][2]["tokens"] = [2, 1]
    st["turn"] = 3
    st = play(st, "alchimiste", "golem", "inverseuse")
    rev = st["reveal"]
    assert (rev["manche"], rev["turn"]) == (1, 3)
    assert rev["before"] == {"dice": [10, 7, 3], "pv": [0, 0, 3]}
    assert faces(st) == [10, 7, 10] and points(st) == [2, 1, 3]


def test_the_sorcerers_turn_of_the_die_counts_for_this_turns_points():
    """LE SORCIER's player turns the die before the values are compared: Léa's 2 becomes a
    9, above Mia's 4 and Tom's 3."""
    st = play(table([2, 9, 10]), "sorcier", "inverseuse", "golem")
    assert st["pending"]["kind"] == "pivot" and points(st) == [0, 0, 0]
    st = R.apply(st, {"type": "pivot", "seat": 0, "face": 9, "order": "alone"})
    assert [p["value"] for p in st["p"]] == [9, 4, 12]
    assert points(st) == [1, 0, 2]


def test_the_random_set_may_hold_just_two_cards_that_turn_the_die():
    """« au moins deux » cards with the symbol: two is enough, more is not required."""
    counts = {
        sum(c in R.TURNS_DIE for c in R.choose_set("hasard", [], Rng({"rng": seed})))
        for seed in range(200)
    }
    assert 2 in counts and min(counts) == 2


def test_twelve_players_play_in_three_groups_of_four_unless_told_otherwise():
    assert R.group_sizes(12) == (4, 4, 4)
    assert R.group_sizes(12, "3-3-3-3") == (3, 3, 3, 3)


# --------------------------------------------------------------------------- a state, once played

STATE_KEYS = {
    "active", "format_version", "game", "groups", "history", "log", "manche", "offset", "p",
    "pending", "playoff", "res", "reveal", "rng", "seats", "seed", "set", "sizes",
    "step_by_step", "throne", "tournament", "turn", "winner",
}  # fmt: skip
PLAYER_KEYS = {"die", "discard", "hand", "played", "tokens", "under", "value"}
REVEAL_KEYS = {"manche", "turn", "stages", "shown", "open", "defer", "before"}


def _pure(st: dict, action: dict) -> dict:
    """``apply`` on ``st``, checking that the state it was given is left as it was (a saved
    game, an undo, a bot's look-ahead all keep the old state) and that the new one holds the
    saved format's fields, no more."""
    import copy

    before = copy.deepcopy(st)
    out = R.apply(st, action)
    assert st == before, action
    assert set(out) == STATE_KEYS and all(set(p) == PLAYER_KEYS for p in out["p"]), action
    assert out["reveal"] is None or set(out["reveal"]) == REVEAL_KEYS, action
    return out


def _tournament5(step: bool) -> dict:
    """Five players (groups J1-J2 and J3-J4-J5), each holding its last two cards; J1 and J2 hold 2
    PV, J5 1 PV."""
    seats = [{"name": f"J{i + 1}", "bot": not (step and i < 2)} for i in range(5)]
    st = R.new_state({"seed": "t5", "seats": seats, "cartes": "premiere", "pas_a_pas": step})
    assert st["groups"] == [[0, 1], [2, 3, 4]]
    plays = [(10, "golem"), (3, "automate"), (5, "parasite"), (5, "parasite"), (2, "alchimiste")]
    for p, (face, card) in zip(st["p"], plays, strict=True):
        p["die"] = face
        p["hand"] = [card, "chevalier"]
        p["discard"] = [c for c in st["set"] if c not in p["hand"]]
    st["p"][0]["tokens"] = st["p"][1]["tokens"] = [2]
    st["p"][4]["tokens"] = [1]
    R.check_state(st)
    return st


def test_a_tournament_turn_told_group_by_group_then_between_champions():
    """In each group: J1's GOLEM (12) beats J2's 3 + 7 (J2 dauphin, 1 PV; J1 champion of the
    group, no PV there); J3's and J4's PARASITES cancel but stay on the table, their 5s tie,
    J5's 2 x 2 is champion alone.  Between champions: J1 12 takes 2 PV, J5 4 takes 1 PV."""
    st = _tournament5(step=False)
    start = len(st["log"])
    for seat, card in enumerate(["golem", "automate", "parasite", "parasite", "alchimiste"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    assert points(st) == [4, 3, 0, 0, 2]
    group = [(s["title"], s["args"]) for s in st["reveal"]["stages"]]
    steps = ["stage.cancel", "stage.effects", "stage.values", "stage.points"]
    assert group == [
        ("stage.reveal", {}),
        *[(t + (".group" if t == "stage.cancel" else ""), {"group": 1}) for t in steps],
        *[(t + (".group" if t == "stage.cancel" else ""), {"group": 2}) for t in steps],
        ("stage.champions", {}),
        *[(t + (".champions" if t == "stage.cancel" else ""), {}) for t in steps],
    ]
    told = [_seen(e) for e in st["log"][start:] if e["key"].startswith(("points.", "cancel."))]
    assert told == [
        ("cancel.none",),
        ("points.group_champion", "J1", 1),
        ("points.dauphin", "J2", 1, 3),
        ("cancel.same", "parasite", ["J3", "J4"], True),
        ("points.group_champion", "J5", 2),
        ("cancel.none",),
        ("points.champions", "J1", 2, 4),
        ("points.dauphin", "J5", 1, 2),
    ]
    # the manche is over (one card left each): J1 wins group 1, J5 group 2 (J3, J4 at 0 cancel)
    assert st["pending"] == {"kind": "bury", "seats": [0, 4]}
    shown = st["reveal"]
    st = _pure(st, {"type": "bury", "seat": 0, "card": "golem"})
    assert st["reveal"] == shown  # the others bury with the last turn still on the table
    st = _pure(st, {"type": "bury", "seat": 4, "card": "chevalier"})
    assert st["manche"] == 2 and st["offset"] == 2 and st["res"] is None
    assert [e["args"] for e in st["log"] if e["key"] == "manche.group"][-2:] == [
        {"group": 1, "players": ["J3", "J4"]},
        {"group": 2, "players": ["J5", "J1", "J2"]},
    ]


def test_a_tournament_group_whose_points_all_cancel_has_no_winner():
    st = _tournament5(step=False)
    st["p"][0]["tokens"] = [1]  # J1 1 + 0 and J2 2 + 1 ... then J1 champions' 2: 3 and 3
    for seat, card in enumerate(["golem", "automate", "parasite", "parasite", "alchimiste"]):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    assert points(st)[:2] == [3, 3]
    assert {"key": "manche.nowinner", "args": {"group": 1}} in st["log"]
    assert {"key": "manche.winner", "args": {"who": "J5", "points": 2, "group": 2}} in st["log"]
    assert st["pending"] == {"kind": "bury", "seats": [4]}


def test_when_no_group_has_a_champion_the_champions_step_is_skipped():
    st = _tournament5(step=False)
    for p in st["p"]:
        p["die"] = 5
    for seat, card in enumerate(["chevalier", "chevalier", "parasite", "parasite", "chevalier"]):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    # group 1: the CHEVALIERS cancel, 5 and 5 tie; group 2: the PARASITES cancel, three 5s
    assert "champions.none" in log_keys(st) and "champions.meet" not in log_keys(st)
    assert points(st) == [2, 2, 0, 0, 1]
    assert st["manche"] == 1 and st["pending"] == {"kind": "bury", "seats": [4]}


def test_stepping_through_a_turn_with_two_people_leaves_every_earlier_state_as_it_was():
    st = _tournament5(step=True)
    for seat, card in enumerate(["golem", "automate", "parasite", "parasite", "alchimiste"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    assert R.to_act(st) == [0, 1]
    st = _pure(st, {"type": "next"})
    st = _pure(st, {"type": "all"})
    st = _pure(st, {"type": "next"})
    assert st["pending"] == {"kind": "bury", "seats": [0, 4]}
    st = _pure(st, {"type": "bury", "seat": 0, "card": "golem"})
    st = _pure(st, {"type": "bury", "seat": 4, "card": "chevalier"})
    assert st["manche"] == 2


def test_a_decision_in_the_middle_of_a_turn_leaves_the_earlier_state_as_it_was():
    st = table([2, 9, 10])
    for seat, card in enumerate(["sorcier", "inverseuse", "golem"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    st = _pure(st, {"type": "pivot", "seat": 0, "face": 9, "order": "alone"})
    st = table([9, 4, 11])
    st["p"][2]["tokens"] = [2, 1]
    for seat, card in enumerate(["golem", "dame", "dame"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    st = _pure(st, {"type": "take", "seat": 1, "token": 2})
    assert points(st) == [2, 2, 2]


def test_every_pair_of_dames_takes_its_token_even_after_a_choice():
    """A tournament turn with LA DAME twice in each group: in group 1 J1 (3) takes from J2
    (8), who holds both kinds of token, so J1 chooses; then, in group 2, J3 (4) takes J4's
    (9) only kind at once.  Between champions J2's DAME, no longer cancelled, voids J5's
    GOLEM: J2 8 takes 2 PV, J5 6 takes 1 PV."""
    seats = [{"name": f"J{i + 1}", "bot": True} for i in range(5)]
    st = R.new_state({"seed": "t5", "seats": seats, "cartes": "choix", "selection": list(ALL)})
    for p, face in zip(st["p"], [3, 8, 4, 9, 6], strict=True):
        p["die"] = face
    st["p"][1]["tokens"] = [2, 1]
    st["p"][3]["tokens"] = [1]
    for seat, card in enumerate(["dame", "dame", "dame", "dame", "golem"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    assert st["pending"] == {"kind": "take", "seats": [0], "victim": 1}
    st = _pure(st, {"type": "take", "seat": 0, "token": 2})
    assert [e["args"] for e in st["log"] if e["key"] == "dame.take"] == [
        {"who": "J1", "victim": "J2", "points": 2},
        {"who": "J3", "victim": "J4", "points": 1},
    ]
    assert points(st) == [3, 3, 1, 1, 1] and st["pending"] == {"kind": "choose"}


def test_the_view_tells_which_group_or_the_champions_wait_for_the_sorcerer():
    """J1's SORCIER turns the die in group 1 (10 to 11), then again between champions (11 to
    12): each time the table sees whose step it is, the group's or the champions'."""
    st = _tournament5(step=False)
    st["p"][0]["hand"] = ["sorcier", "chevalier"]
    st["p"][0]["discard"] = [c for c in st["set"] if c not in st["p"][0]["hand"]]
    for seat, card in enumerate(["sorcier", "automate", "parasite", "parasite", "alchimiste"]):
        st = _pure(st, {"type": "play", "seat": seat, "card": card})
    duel = R.view(st, 2)["duel"]
    assert (duel["kind"], duel["group"], duel["seats"]) == ("group", 1, [0, 1])
    st = _pure(st, {"type": "pivot", "seat": 0, "face": 11, "order": "alone"})
    duel = R.view(st, 2)["duel"]
    assert (duel["kind"], duel["group"], duel["seats"]) == ("champions", 0, [0, 4])
    st = _pure(st, {"type": "pivot", "seat": 0, "face": 12, "order": "alone"})
    assert R.view(st, 2)["duel"] is None
    assert points(st) == [4, 3, 0, 0, 2]


def test_a_swap_may_bring_in_any_card_left_out_of_the_first_six():
    """A random set whose first six cards hold fewer than two that turn the die swaps one in
    from the cards left out: any of them, the seventh shuffled card included."""
    swapped_in_seventh = 0
    for seed in range(400):
        others = [c for c in R.CARD_IDS if c != "chevalier"]
        Rng({"rng": seed}).shuffle(others)  # the deal's own first draw, replayed
        if sum(c in R.TURNS_DIE for c in others[:6]) >= 2:
            continue  # no swap
        seventh = others[6]
        chosen = R.choose_set("hasard", [], Rng({"rng": seed}))
        assert set(others[:6]) - set(chosen) <= set(others[:6]) - set(R.TURNS_DIE)
        if seventh in R.TURNS_DIE and seventh in chosen:
            swapped_in_seventh += 1
    assert swapped_in_seventh > 0
