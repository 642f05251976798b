"""Le Roi des 12: what each player may know (« Chaque joueur choisit secrètement 1 carte et la
place face cachée »; the card under the die is placed face down), what a changed secret leaves
unchanged for the others, and the state's invariants (every player always holds the seven
cards of the set between hand, table, discard and die; a die shows 1 to 12; tokens are worth
1 or 2 PV).  With ``test_roi_rules.py``, these judge the mutants of ``engine/roi/rules.py``."""

from __future__ import annotations

import copy
import re

import pytest

from engine.core.rng import Rng
from engine.roi import rules as R
from engine.roi import text_fr as T


def table(faces: list[int], cards: str = "premiere") -> dict:
    seats = [{"name": n, "bot": True} for n in ("Léa", "Mia", "Tom")[: len(faces)]]
    st = R.new_state({"seed": "secrets", "seats": seats, "cartes": cards, "pas_a_pas": False})
    for p, face in zip(st["p"], faces, strict=True):
        p["die"] = face
    return st


def test_a_chosen_card_stays_face_down_until_every_player_has_chosen():
    st = R.apply(table([10, 7, 3]), {"type": "play", "seat": 0, "card": "golem"})
    mine, hers = R.view(st, 0)["players"][0], R.view(st, 1)["players"][0]
    assert mine["played"] == "golem" and mine["chose"]
    assert "played" not in hers and hers["chose"]
    assert "hand" not in hers and hers["hand_count"] == 6 and mine["hand_count"] == 6
    assert "golem" not in mine["hand"] and len(mine["hand"]) == 6
    # the others only know it is one of the seven (nothing is discarded yet)
    assert hers["candidates"] == R.view(st, 1)["set"]
    assert R.view(st, 1)["players"][1]["chose"] is False
    # nobody's view holds the secret, the table's neither
    assert "played" not in R.view(st, None)["players"][0]


def test_once_revealed_every_card_is_public_and_a_discard_is_no_longer_a_candidate():
    st = table([10, 7, 3])
    for seat, card in enumerate(("alchimiste", "golem", "oracle")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    v = R.view(st, 2)
    assert [row["discard"] for row in v["players"]] == [["alchimiste"], ["golem"], ["oracle"]]
    assert "alchimiste" not in v["players"][0]["candidates"]
    assert len(v["players"][0]["candidates"]) == 6
    assert [row["die"] for row in v["players"]] == [p["die"] for p in st["p"]]
    assert [row["pv"] for row in v["players"]] == [R.pv(st, s) for s in range(3)]
    assert v["manche"] == 1 and v["turn"] == 2 and v["active"] == [0, 1, 2]
    assert v["game"] == "roi" and v["seat"] == 2 and v["tournament"] is False


def test_a_played_card_is_shown_once_the_choice_is_over():
    st = table([10, 7, 3])
    st["p"][0]["played"] = st["p"][0]["hand"].pop()
    st["pending"] = {"kind": "take", "seats": [1], "victim": 0}
    row = R.view(st, 1)["players"][0]
    assert row["played"] == st["p"][0]["played"]
    assert row["candidates"] == [c for c in st["set"] if c != st["p"][0]["played"]]


def test_the_card_under_the_die_is_known_to_its_owner_only():
    st = table([10, 7, 3])
    st["p"][1]["under"] = [st["p"][1]["hand"].pop(0)]
    own, other = R.view(st, 1)["players"][1], R.view(st, 0)["players"][1]
    assert own["under"] == st["p"][1]["under"] and own["under_count"] == 1
    assert "under" not in other and other["under_count"] == 1


def test_a_private_log_line_reaches_only_the_seats_it_names():
    st = table([10, 7, 3])
    R.log(st, "secret.line", to=[1], card="golem")
    assert st["log"][-1] == {"key": "secret.line", "args": {"card": "golem"}, "to": [1]}
    assert R.view(st, 1)["log"][-1]["key"] == "secret.line"
    assert all(e["key"] != "secret.line" for e in R.view(st, 0)["log"])
    assert all(e["key"] != "secret.line" for e in R.view(st, None)["log"])
    assert R.view(st, 1, with_log=False)["log"] == []
    public = R.view(st, 0)["log"]
    assert public and public == [e for e in st["log"] if "to" not in e]


def test_changing_a_players_secret_choice_changes_nothing_another_player_sees():
    st = R.apply(table([10, 7, 3]), {"type": "play", "seat": 0, "card": "golem"})
    seen = [R.view(st, s) for s in (1, 2)]
    changed = [R.scramble(st, 0, Rng({"rng": seed})) for seed in range(8)]
    assert any(c["p"][0]["played"] != "golem" for c in changed)
    for c in changed:
        assert sorted(c["p"][0]["hand"] + [c["p"][0]["played"]]) == sorted(st["set"])
        assert [R.view(c, s) for s in (1, 2)] == seen
        R.check_state(c)
    assert st["p"][0]["played"] == "golem"  # the state itself is untouched


def test_changing_the_card_under_a_die_changes_nothing_another_player_sees():
    st = table([10, 7, 3])
    st["p"][2]["under"] = [st["p"][2]["hand"].pop(0)]
    before = copy.deepcopy(st)
    seen = R.view(st, 0)
    changed = [R.scramble(st, 2, Rng({"rng": seed})) for seed in range(8)]
    assert any(c["p"][2]["under"] != before["p"][2]["under"] for c in changed)
    for c in changed:
        assert sorted(c["p"][2]["hand"] + c["p"][2]["under"]) == sorted(st["set"])
        assert R.view(c, 0) == seen
    assert st == before


def test_a_secret_no_player_knows_is_the_dice_to_come():
    st = table([10, 7, 3])
    out = R.scramble(st, None, Rng({"rng": 5}))
    assert out["rng"] != st["rng"]
    # the dice to come change, and the changed state still rolls them
    rolls = {Rng(R.scramble(st, None, Rng({"rng": s}))).below(12) for s in range(12)}
    assert len(rolls) > 1
    assert {k: v for k, v in out.items() if k != "rng"} == {
        k: v for k, v in st.items() if k != "rng"
    }


def test_a_sound_state_passes_its_checks():
    st = table([10, 7, 3])
    st["p"][0]["tokens"] = [2, 1]
    R.check_state(st)


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda st: st.update(game="complots"), "not a Roi des 12 state"),
        (lambda st: st["p"][1]["hand"].pop(), "seat 1: cards"),
        (lambda st: st["p"][0]["hand"].append("dame"), "seat 0: cards"),
        (lambda st: st["p"][2].update(played="golem"), "seat 2: cards"),
        (lambda st: st["p"][0].update(die=0), "seat 0: die shows 0"),
        (lambda st: st["p"][1].update(die=13), "seat 1: die shows 13"),
        (lambda st: st["p"][0].update(die=True), "seat 0: the die is not an integer"),
        (lambda st: st["p"][0].update(die="7"), "seat 0: the die is not an integer"),
        (lambda st: st["p"][2].update(tokens=[3]), "seat 2: tokens [3]"),
        (lambda st: st["p"][2].update(tokens=[0]), "seat 2: tokens [0]"),
        (lambda st: st["p"][1].update(tokens=[True]), "seat 1: a token is not an integer"),
        (lambda st: st["p"][1].update(tokens=[2.0]), "seat 1: a token is not an integer"),
    ],
)
def test_a_broken_state_is_refused(spoil, message):
    st = table([10, 7, 3])
    spoil(st)
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        R.check_state(st)


def test_the_extreme_faces_are_sound():
    R.check_state(table([1, 12, 6]))


# --------------------------------------------------------------------------- what the journal says


def test_the_journal_tells_who_took_which_token_from_whom():
    """« Mia … peut donc prendre un jeton Point à Tom. Elle choisit de lui prendre un jeton
    2 PV »: the journal names the taker, the token and the victim."""
    st = table([9, 4, 11], cards="choix")
    st["set"] = ["chevalier", "dame", "golem", "alchimiste", "automate", "parasite", "oracle"]
    for p in st["p"]:
        p["hand"] = list(st["set"])
    st["p"][2]["tokens"] = [2, 1]
    for seat, card in enumerate(("golem", "dame", "dame")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    st = R.apply(st, {"type": "take", "seat": 1, "token": 2})
    (entry,) = [e for e in st["log"] if e["key"] == "dame.take"]
    assert entry["args"] == {"who": "Mia", "victim": "Tom", "points": 2}
    assert T.render(entry, {}) == "LA DAME : Mia prend un jeton de 2 PV à Tom."


def throne_roll(seed: int, claimants: list[int]) -> dict:
    st = R.new_state(
        {
            "seed": f"trône-{seed}",
            "seats": [{"name": f"J{i + 1}", "bot": True} for i in range(4)],
            "cartes": "premiere",
            "pas_a_pas": False,
        }
    )
    st["active"] = claimants
    R._roll_for_the_throne(st, R.PLAYOFF_MAX)
    return st


@pytest.mark.parametrize("claimants", [[0, 1], [0, 2, 3]])
def test_claimants_roll_for_the_throne_until_one_die_is_highest(claimants):
    """Our ruling when a play-off never ends: every claimant rolls a die (1 to 12), the
    highest reigns, those tied for the highest roll again; always one king."""
    faces: set[int] = set()
    for seed in range(60):
        st = throne_roll(seed, list(claimants))
        rounds = [e["args"]["dice"] for e in st["log"] if e["key"] == "game.lots"]
        assert rounds
        alive = list(claimants)
        for rolled in rounds:
            rolls = {int(text.split()[0][1:]) - 1: int(text.split()[1]) for text in rolled}
            assert sorted(rolls) == sorted(alive)
            faces |= set(rolls.values())
            top = max(rolls.values())
            alive = [s for s in alive if rolls[s] == top]
        assert len(alive) == 1 and st["winner"] == alive
        assert st["pending"] is None
    assert faces == set(range(1, 13))


def test_a_step_by_step_reveal_tells_the_turn_only_once_the_table_has_seen_it():
    """A person at the table steps through the reveal: the journal does not tell the end of
    the turn before the screen shows it, then holds every step's lines once, in order."""
    seats = [{"name": "Léa", "bot": False}, {"name": "Mia", "bot": True}]
    seats.append({"name": "Tom", "bot": True})
    st = R.new_state({"seed": "pas", "seats": seats, "cartes": "premiere", "pas_a_pas": True})
    for p, face in zip(st["p"], (10, 7, 3), strict=True):
        p["die"] = face
    for seat, card in enumerate(("alchimiste", "alchimiste", "golem")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    before = len(st["log"])
    held = [e for stg in st["reveal"]["stages"] for e in stg["entries"]]
    assert {e["key"] for e in held} >= {"turn.revealed", "cancel.same"}
    assert not any(e in st["log"] for e in held if e["key"] == "turn.revealed")
    st = R.apply(st, {"type": "all"})
    assert len(st["log"]) == before
    st = R.apply(st, {"type": "next"})
    assert st["log"][before : before + len(held)] == held
    assert [e["key"] for e in st["log"]].count("cancel.same") == 1
    assert st["reveal"]["defer"] is False and st["pending"] == {"kind": "choose"}


@pytest.mark.parametrize("order", ["after_flip", "before_flip", "alone"])
def test_the_journal_tells_the_flip_then_the_sorcerers_turn(order):
    """« Léa choisit tout d'abord de retourner son dé sur la face opposée, puis de le faire
    pivoter sur une face adjacente »: the journal tells every die turned over by LES
    CHENAPANS (with the faces they now show), and LE SORCIER's move from one face to the next,
    in the order Léa chose."""
    st = table([2, 7, 5], cards="choix")
    st["set"] = ["chevalier", "sorcier", "chenapans", "golem", "alchimiste", "oracle", "dame"]
    for p in st["p"]:
        p["hand"] = list(st["set"])
    second = "chenapans" if order != "alone" else "alchimiste"
    for seat, card in enumerate(("sorcier", second, "golem")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    start = len(st["log"])
    face = next(a["face"] for a in R.legal_actions(st, 0) if a["order"] == order)
    st = R.apply(st, {"type": "pivot", "seat": 0, "face": face, "order": order})
    told = [e for e in st["log"][start:] if e["key"] in ("effect.chenapans", "effect.sorcier")]
    sorcier = {"who": "Léa", "before": 2 if order != "after_flip" else 11, "after": face}
    flip = {"who": "Mia", "dice": [f"Léa {13 - face if order == 'before_flip' else 11}"]}
    flip["dice"] += ["Mia 6", "Tom 8"]
    expected = {
        "after_flip": [("effect.chenapans", flip), ("effect.sorcier", sorcier)],
        "before_flip": [("effect.sorcier", sorcier), ("effect.chenapans", flip)],
        "alone": [("effect.sorcier", sorcier)],
    }[order]
    assert [(e["key"], e["args"]) for e in told] == expected
    assert T.render(told[-1 if order == "after_flip" else 0], {}).startswith("LE SORCIER : Léa")


def test_what_a_player_knows_in_the_middle_of_a_turn():
    """The whole view of Mia while LE SORCIER's owner decides: the table (dice, values once
    counted, points, discards, how many cards each holds and keeps under the die), her own
    hand and card under the die, the cards played this turn (revealed), the duel being
    settled; nothing of the others' hands."""
    st = table([2, 7, 5], cards="choix")
    st["set"] = ["chevalier", "sorcier", "chenapans", "golem", "alchimiste", "oracle", "dame"]
    for p in st["p"]:
        p["hand"] = list(st["set"])
    st["p"][1]["hand"].remove("dame")
    st["p"][1]["under"] = ["dame"]
    st["p"][2]["tokens"] = [1, 2, 1]
    for seat, card in enumerate(("sorcier", "chenapans", "golem")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    v = R.view(st, 1, with_log=False)
    assert v["pending"] == {"kind": "pivot", "seats": [0]}
    assert v["duel"] == {
        "kind": "single",
        "seats": [0, 1, 2],
        "group": 1,
        "cards": {"0": "sorcier", "1": "chenapans", "2": "golem"},
        "live": [0, 1, 2],
        "flip_pending": True,
    }
    assert v["players"] == [
        {
            "seat": 0,
            "name": "Léa",
            "persona": None,
            "die": 2,
            "value": None,
            "tokens": [],
            "pv": 0,
            "discard": [],
            "hand_count": 6,
            "under_count": 0,
            "chose": True,
            "candidates": [c for c in st["set"] if c != "sorcier"],
            "played": "sorcier",
        },
        {
            "seat": 1,
            "name": "Mia",
            "persona": None,
            "die": 7,
            "value": None,
            "tokens": [],
            "pv": 0,
            "discard": [],
            "hand_count": 5,
            "under_count": 1,
            "chose": True,
            "candidates": [c for c in st["set"] if c != "chenapans"],
            "hand": [c for c in st["set"] if c not in ("chenapans", "dame")],
            "under": ["dame"],
            "played": "chenapans",
        },
        {
            "seat": 2,
            "name": "Tom",
            "persona": None,
            "die": 5,
            "value": None,
            "tokens": [2, 1, 1],
            "pv": 4,
            "discard": [],
            "hand_count": 6,
            "under_count": 0,
            "chose": True,
            "candidates": [c for c in st["set"] if c != "golem"],
            "played": "golem",
        },
    ]
    assert {k: v[k] for k in v if k not in ("players", "duel", "reveal", "log")} == {
        "game": "roi",
        "seat": 1,
        "set": st["set"],
        "tournament": False,
        "playoff": False,
        "manche": 1,
        "turn": 1,
        "active": [0, 1, 2],
        "groups": [[0, 1, 2]],
        "pending": {"kind": "pivot", "seats": [0]},
        "winner": None,
        "history": [],
    }
    assert v["reveal"] == st["reveal"]
    assert R.view(st, 1)["log"] == [e for e in st["log"] if "to" not in e or 1 in e["to"]]


def test_once_the_king_is_crowned_nobody_plays_and_the_journal_names_him():
    """« Le premier joueur à avoir remporté 2 manches … est déclaré Roi des 12 »: Léa wins
    the third manche with a card already under her die, slides a second one and reigns: the
    game is over for every seat, and the journal's last line crowns her."""
    st = table([5, 5, 9])
    st["manche"], st["turn"], st["throne"] = 3, 5, "Jade"
    hands = [["alchimiste", "golem"], ["alchimiste", "parasite"], ["automate", "chevalier"]]
    for p, hand in zip(st["p"], hands, strict=True):
        p["hand"] = hand
        p["discard"] = [c for c in st["set"] if c not in hand]
    for seat in (0, 2):
        card = st["p"][seat]["discard"].pop(0)
        st["p"][seat]["under"] = [card]
    st["p"][0]["tokens"] = [2, 1]
    R.check_state(st)
    for seat, card in enumerate(("alchimiste", "alchimiste", "automate")):
        st = R.apply(st, {"type": "play", "seat": seat, "card": card})
    st = R.apply(st, {"type": "bury", "seat": 0, "card": "golem"})
    assert st["winner"] == [0]
    assert st["pending"] is None and st["res"] is None
    assert R.view(st, None)["pending"] is None and R.view(st, 1)["duel"] is None
    assert R.to_act(st) == [] and all(R.legal_actions(st, s) == [] for s in range(3))
    last = st["log"][-1]
    assert last == {"key": "game.king", "args": {"players": ["Léa"], "throne": "Jade"}}
    assert "Léa" in T.render(last, {})


def test_the_play_off_counts_only_its_own_manches_without_a_winner():
    """Our safety net (the rulebook never ends): after MAX_MANCHES regular manches the leaders
    tied on cards under the die play a play-off, told with the manche reached and their names;
    only after PLAYOFF_MAX play-off manches in a row without a winner — a regular manche
    before them does not count, even without a winner — do they roll for the throne."""
    st = table([5, 5, 9])
    st["manche"] = R.MAX_MANCHES
    st["p"][0]["under"] = [st["p"][0]["hand"].pop()]
    st["p"][2]["under"] = [st["p"][2]["hand"].pop()]
    st["history"] = [{"manche": R.MAX_MANCHES, "playoff": False, "winners": []}]
    R._next_manche(st)
    assert st["playoff"] is True and st["active"] == [0, 2] and st["winner"] is None
    (told,) = [e for e in st["log"] if e["key"] == "game.capped.playoff"]
    assert told["args"] == {"manches": R.MAX_MANCHES, "players": ["Léa", "Tom"]}
    assert T.render(told, {}).startswith(f"Déjà {R.MAX_MANCHES} manches : Léa et Tom")
    for n in range(1, R.PLAYOFF_MAX):
        st["history"].append({"manche": R.MAX_MANCHES + n, "playoff": True, "winners": []})
        R._next_manche(st)
        assert st["winner"] is None and st["pending"] == {"kind": "choose"}
    assert not any(e["key"] == "game.lots.why" for e in st["log"])
    st["history"].append({"manche": R.MAX_MANCHES + 10, "playoff": True, "winners": []})
    R._next_manche(st)
    assert st["winner"] in ([0], [2])
    assert [e["args"]["manches"] for e in st["log"] if e["key"] == "game.lots.why"] == [
        R.PLAYOFF_MAX
    ]


def test_a_revealed_card_is_no_secret_to_change():
    """Once the cards are revealed (here LA DAME's owner chooses a token), the card a player
    played is public: changing that player's secrets leaves it, and every other view, as is."""
    st = table([10, 7, 3])
    st["p"][0]["played"] = st["p"][0]["hand"].pop()
    st["pending"] = {"kind": "take", "seats": [1], "victim": 0}
    seen = [R.view(st, s) for s in (1, 2)]
    for seed in range(8):
        out = R.scramble(st, 0, Rng({"rng": seed}))
        assert out["p"][0]["played"] == st["p"][0]["played"]
        assert [R.view(out, s) for s in (1, 2)] == seen
