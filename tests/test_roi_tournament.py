"""Le Roi des 12's tournament for 5 to 16 players: the group table, the champions' step of the
rulebook's 15-player example, groups moving two places, the play-off manche."""

from __future__ import annotations

import pytest

from engine.core.rng import Rng
from engine.roi import rules as R

TABLE = {
    5: [2, 3],
    6: [3, 3],
    7: [3, 4],
    8: [4, 4],
    9: [3, 3, 3],
    10: [3, 3, 4],
    11: [3, 4, 4],
    12: [4, 4, 4],
    13: [3, 3, 3, 4],
    14: [3, 3, 4, 4],
    15: [3, 4, 4, 4],
    16: [4, 4, 4, 4],
}


def tournament(n: int, **setup) -> dict:
    seats = [{"name": f"J{i + 1}", "bot": True} for i in range(n)]
    return R.new_state({"seed": "tournoi", "seats": seats, "cartes": "premiere", **setup})


@pytest.mark.parametrize("n", range(5, 17))
def test_group_table_for_every_size(n):
    st = tournament(n)
    assert st["tournament"]
    assert [len(g) for g in st["groups"]] == TABLE[n]
    assert sorted(s for g in st["groups"] for s in g) == list(range(n))


def test_twelve_players_in_four_groups_of_three():
    st = tournament(12, groupes12="3-3-3-3")
    assert [len(g) for g in st["groups"]] == [3, 3, 3, 3]


@pytest.mark.parametrize("n", range(2, 5))
def test_two_to_four_players_play_one_group(n):
    st = tournament(n)
    assert not st["tournament"] and st["groups"] == [list(range(n))]


def test_groups_move_two_places_between_manches():
    assert R.groups_for(7, 0, (3, 4)) == [[0, 1, 2], [3, 4, 5, 6]]
    assert R.groups_for(7, 2, (3, 4)) == [[2, 3, 4], [5, 6, 0, 1]]
    st = tournament(7)
    first = st["groups"]
    st["p"][0]["tokens"] = [2, 2, 2, 2]  # ends the manche at the end of the turn
    for seat in range(7):
        st = R.apply(st, {"type": "play", "seat": seat, "card": st["p"][seat]["hand"][0]})
    while st["pending"]["kind"] == "bury":
        seat = st["pending"]["seats"][0]
        st = R.apply(st, {"type": "bury", "seat": seat, "card": st["p"][seat]["hand"][0]})
    assert st["manche"] == 2
    assert st["groups"] == R.groups_for(7, 2, (3, 4)) != first


def _seed_rolling(face: int) -> int:
    """A generator state whose first roll shows ``face``."""
    for k in range(10_000):
        if 1 + Rng({"rng": k}).below(12) == face:
            return k
    raise AssertionError


def test_fifteen_players_champions_step():
    """The rulebook's 15-player turn.  Lea (3, L'AUTOMATE, cancelled in her group), Tom (3
    turned to 10 by L'INVERSEUSE), Bob (L'ORACLE, rolled a 10) and Mia (4, L'ORACLE,
    cancelled in her group) each win their group; each group's dauphin takes 1 PV.  Between
    champions, Lea's AUTOMATE now applies (10), Tom turns his die again (3), Mia's and Bob's
    ORACLES cancel.  Lea's and Bob's 10s cancel: Mia takes 2 PV, Tom 1 PV; Lea and Bob take
    nothing.  No cancelled card was discarded before the end of the turn."""
    st = tournament(15)
    assert [len(g) for g in st["groups"]] == [3, 4, 4, 4]
    names = ["Mia", "G", "H", "Lea", "X", "Y", "Z", "Tom", "A", "B", "C", "Bob", "D", "E", "F"]
    for s, n in zip(st["seats"], names, strict=True):
        s["name"] = n
    setup = {
        # group 1: Mia 4 and G 1 cancel their ORACLES; H 2 - 7
        "Mia": (4, "oracle"),
        "G": (1, "oracle"),
        "H": (2, "parasite"),
        # group 2: Lea 3 and X 1 cancel their AUTOMATES; Y 2 - 7; Z's GOLEM on a 12 is 1 = X
        "Lea": (3, "automate"),
        "X": (1, "automate"),
        "Y": (2, "parasite"),
        "Z": (12, "golem"),
        # group 3: Tom 3 -> 10; A 4 - 7; B 1 + 7; C 2 x 2
        "Tom": (3, "sorcier"),  # replaced below: the first-game set has no INVERSEUSE
        "A": (4, "parasite"),
        "B": (1, "automate"),
        "C": (2, "alchimiste"),
        # group 4: Bob rolls a 10; D 1 - 7; E 2 x 2; F 2 + 7
        "Bob": (6, "oracle"),
        "D": (1, "parasite"),
        "E": (2, "alchimiste"),
        "F": (2, "automate"),
    }
    st["set"] = sorted({*st["set"], "inverseuse"})
    setup["Tom"] = (3, "inverseuse")
    for i, n in enumerate(names):
        face, _card = setup[n]
        p = st["p"][i]
        p["die"] = face
        p["hand"] = list(st["set"])
    st["rng"] = _seed_rolling(10)
    for i, n in enumerate(names):
        st = R.apply(st, {"type": "play", "seat": i, "card": setup[n][1]})
    seat = {n: i for i, n in enumerate(names)}
    pts = {n: R.pv(st, seat[n]) for n in names}
    # each group's dauphin: G (Mia 4, G 1, H -5), Y, B and F
    assert {n for n, v in pts.items() if v} == {"G", "Y", "B", "F", "Mia", "Tom"}
    assert pts["Mia"] == 2 and pts["Tom"] == 1
    assert pts["Lea"] == 0 and pts["Bob"] == 0
    assert all(pts[n] == 1 for n in ("G", "Y", "B", "F"))
    assert st["p"][seat["Tom"]]["die"] == 3 and st["p"][seat["Bob"]]["die"] == 10
    assert st["p"][seat["Lea"]]["value"] == 10 and st["p"][seat["Mia"]]["value"] == 4
    keys = [e["key"] for e in st["log"]]
    assert "champions.meet" in keys and "points.champions" in keys
    meet = next(e for e in st["log"] if e["key"] == "champions.meet")
    assert meet["args"]["players"] == ["Mia", "Lea", "Tom", "Bob"]
    for p in st["p"]:
        assert len(p["discard"]) == 1 and p["played"] is None


def test_play_off_when_two_players_win_at_once():
    st = tournament(8)
    for s in (0, 4):  # one in each group, each already one manche up
        st["p"][s]["under"] = [st["p"][s]["hand"].pop()]
        st["p"][s]["tokens"] = [2, 2, 2, 2]
    for seat in range(8):
        st = R.apply(st, {"type": "play", "seat": seat, "card": st["p"][seat]["hand"][0]})
    # both score at least 8: the manche ends; each wins its group (others have less)
    assert st["pending"]["kind"] == "bury" and sorted(st["pending"]["seats"]) == [0, 4]
    # « Chaque groupe a son propre vainqueur de la manche »: the journal tells each group's
    # points and winner under its own number
    told = {e["key"]: [] for e in st["log"]}
    for e in st["log"]:
        told[e["key"]].append(e["args"])
    assert [a["group"] for a in told["manche.points"]] == [1, 2]
    assert [len(a["points"]) for a in told["manche.points"]] == [len(g) for g in st["groups"]]
    assert [(a["group"], a["points"] >= 8) for a in told["manche.winner"]] == [(1, True), (2, True)]
    assert [a["who"] for a in told["manche.winner"]] == [st["seats"][s]["name"] for s in (0, 4)]
    for seat in (0, 4):
        st = R.apply(st, {"type": "bury", "seat": seat, "card": st["p"][seat]["hand"][0]})
    assert st["playoff"] and st["active"] == [0, 4] and st["groups"] == [[0, 4]]
    names = [st["seats"][s]["name"] for s in (0, 4)]
    assert {"key": "game.playoff", "args": {"players": names}} in st["log"]
    assert R.to_act(st) == [0, 4]
    assert all(len(st["p"][s]["hand"]) == 5 for s in (0, 4))
    # play it out: the winner of the play-off manche reigns, with no card to bury
    rng = Rng({"rng": 3})
    while st["winner"] is None:
        for seat in R.to_act(st):
            acts = R.legal_actions(st, seat)
            st = R.apply(st, acts[rng.below(len(acts))])
            if st["winner"] is not None:
                break
    assert len(st["winner"]) == 1 and st["winner"][0] in (0, 4)
    assert st["history"][-1]["playoff"]


def test_in_a_tournament_the_group_champion_scores_nothing_there():
    st = tournament(6)  # 3 / 3
    faces = [10, 5, 2, 9, 4, 1]
    for p, f in zip(st["p"], faces, strict=True):
        p["die"] = f
    cards = ["parasite", "golem", "alchimiste", "automate", "parasite", "chevalier"]
    # group 1: 3, 12, 4 -> champion J2 (12), dauphin J3 (4) +1
    # group 2: 16, -3, 1 with LE CHEVALIER -> champion J5 (-3), dauphin J6 (1) +1
    for seat, c in enumerate(cards):
        st = R.apply(st, {"type": "play", "seat": seat, "card": c})
    # champions J2 (GOLEM, 12) and J5 (PARASITE, -3): no CHEVALIER between them: J2 2 PV, J5 1
    assert [R.pv(st, s) for s in range(6)] == [0, 2, 1, 0, 1, 1]


def _into_play_off(n: int = 8, claimants: tuple[int, ...] = (0, 4)) -> dict:
    """A tournament where ``claimants`` have just placed their second card under the die."""
    st = tournament(n)
    for s in claimants:
        st["p"][s]["under"] = [st["p"][s]["hand"].pop(), st["p"][s]["hand"].pop()]
    R._after_bury(st)
    assert st["playoff"] and st["active"] == list(claimants)
    return st


def _tie_the_manche(st: dict) -> dict:
    """The play-off manche ends with every claimant on the same points: all cancel."""
    for s in st["active"]:
        st["p"][s]["tokens"] = [2, 1]
    R._end_manche(st)
    return st


def test_a_play_off_manche_without_a_winner_is_played_again():
    """Points that all cancel leave the manche without a winner, and the players « passent
    directement à la manche suivante »: in a play-off, another play-off manche, the dice rolled
    again, the same claimants with their remaining cards."""
    st = _tie_the_manche(_into_play_off())
    assert st["winner"] is None and st["playoff"] and st["active"] == [0, 4]
    assert st["history"][-1] == {"manche": 2, "playoff": True, "winners": []}
    assert [e["key"] for e in st["log"]].count("manche.playoff") == 2
    assert all(len(st["p"][s]["hand"]) == 5 and st["p"][s]["tokens"] == [] for s in (0, 4))
    assert R.to_act(st) == [0, 4]


def test_a_play_off_that_keeps_tying_ends_with_one_king_by_the_dice():
    """Our ruling where the rulebook is silent: after ``PLAYOFF_MAX`` play-off manches in a row
    without a winner, each claimant rolls the die, the highest reigns (ties roll again)."""
    from engine.core.registry import get

    st = _into_play_off(9, (0, 3, 6))
    for _ in range(R.PLAYOFF_MAX - 1):
        st = _tie_the_manche(st)
        assert st["winner"] is None
    st = _tie_the_manche(st)
    assert st["winner"] is not None and len(st["winner"]) == 1 and st["winner"][0] in (0, 3, 6)
    keys = [e["key"] for e in st["log"]]
    assert keys[-1] == "game.king" and "game.lots" in keys
    why = next(e for e in st["log"] if e["key"] == "game.lots.why")
    assert why["args"] == {"manches": R.PLAYOFF_MAX, "players": ["J1", "J4", "J7"]}
    # every roll of the last throw names only the claimants still tied, and the king is the
    # highest of the last throw
    last = [e for e in st["log"] if e["key"] == "game.lots"][-1]["args"]["dice"]
    rolls = {d.rsplit(" ", 1)[0]: int(d.rsplit(" ", 1)[1]) for d in last}
    king = st["seats"][st["winner"][0]]["name"]
    assert rolls[king] == max(rolls.values()) and list(rolls.values()).count(rolls[king]) == 1
    game = get("roi")({})
    out = game.outcome(st)
    assert out.winners == st["winner"]
    assert out.summary == f"{king} est sacré Roi des 12."
    assert out.why == f"Le plus haut dé après {R.PLAYOFF_MAX} manches de barrage sans vainqueur."
    R.check_state(st)


def test_the_safety_limit_crowns_the_single_leader_and_sends_tied_leaders_to_a_play_off():
    """At ``MAX_MANCHES`` regular manches: one player with the most cards under the die reigns;
    several tied for it play a play-off (the rulebook's way for claimants at once), never a
    shared throne."""
    from engine.core.registry import get

    st = tournament(6)
    st["manche"] = R.MAX_MANCHES
    st["p"][2]["under"] = [st["p"][2]["hand"].pop()]
    R._after_bury(st)
    assert st["winner"] == [2] and st["log"][-1]["key"] == "game.capped"
    assert get("roi")({}).outcome(st).why == f"Partie arrêtée après {R.MAX_MANCHES} manches."
    st = tournament(6)
    st["manche"] = R.MAX_MANCHES
    for s in (1, 4):
        st["p"][s]["under"] = [st["p"][s]["hand"].pop()]
    R._after_bury(st)
    assert st["winner"] is None and st["playoff"] and st["active"] == [1, 4]
    assert "game.capped.playoff" in [e["key"] for e in st["log"]]
    assert R.to_act(st) == [1, 4]


def test_a_seeded_bot_tournament_whose_play_off_ties_twice_crowns_one_king():
    """Five bots, game 109: the claimants tie two play-off manches, the third has a winner."""
    from engine.core.registry import get
    from engine.core.session import Session
    from pipeline.story.bundles import bundle_for

    game = get("roi")(bundle_for("roi"))
    session = Session(game).start({"seed": "109", "players": 5, "bots": 5})
    st = session.state
    playoff = [h for h in st["history"] if h["playoff"]]
    assert [len(h["winners"]) for h in playoff] == [0, 0, 1]
    assert st["winner"] == playoff[-1]["winners"] and len(st["winner"]) == 1
    assert "game.lots" not in [e["key"] for e in st["log"]]
    out = game.outcome(st)
    assert out.why == "Vainqueur de la manche de barrage."
    assert out.summary == f"{st['seats'][st['winner'][0]]['name']} est sacré Roi des 12."
