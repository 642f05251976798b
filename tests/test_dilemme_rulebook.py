"""Le Dilemme du Roi, section by section of the rulebook, on whole game states: each test sets
up the table of one of the rulebook's examples (or a rule's plain case) and plays the actions.
Where the rulebook is silent, the test names our ruling (``RULINGS``, rules page « Nos
décisions »).  The pure calculations have their own tests (tests/test_dilemme_rules.py)."""

from __future__ import annotations

import copy

import pytest
from test_dilemme_engine import NAMES, RESOURCES, make_bundle

from engine.core import IllegalAction
from engine.dilemme import game as G
from engine.dilemme.game import apply, legal_actions, new_campaign, new_game

T, J, A, D, F = range(5)  # Théodore, Julius, Armin, Diana, Frances, clockwise


def bundle_with(**cards: dict) -> dict:
    """The small test campaign, with extra dilemmas ``key={oui_da effects, nenni effects,...}``."""
    b = make_bundle()
    for key, spec in cards.items():
        b["records"]["dilemma"][key] = {
            "id": key,
            "title": key,
            "question": "?",
            "preview": {},
            "oui_da": {"text": "oui", "effects": spec.get("oui_da", [])},
            "nenni": {"text": "non", "effects": spec.get("nenni", [])},
            **{k: v for k, v in spec.items() if k not in ("oui_da", "nenni")},
        }
    return b


def table(
    bundle: dict | None = None,
    n: int = 5,
    card: str = "D0",
    leader: int = 0,
    moderator: int = 1,
    power: list[int] | None = None,
    coins: list[int] | None = None,
    balance: int = 3,
    seed: int = 1,
) -> tuple[dict, dict]:
    """A game at the start of a vote on ``card``, the tokens and the reserves as asked."""
    bundle = bundle or make_bundle()
    camp = new_campaign(bundle, seed)
    seats = [{"house": h.lower(), "bot": True} for h in NAMES[:n]]
    s = new_game(bundle, camp, seats, seed)
    while s["phase"] == "draft":
        s = apply(bundle, s, legal_actions(bundle, s, s["pending"]["seat"], False)[0])
    if card in s["deck"]:
        s["deck"].remove(card)
    if s["vote"]["card"] != card:
        s["deck"].append(s["vote"]["card"])
    s["vote"]["card"] = card
    s["leader"], s["moderator"] = leader, moderator
    s["vote"]["turn"] = leader
    s["pending"] = {"type": "vote", "seat": leader}
    s["balance"] = balance
    for i in range(n):
        s["seats"][i]["power"] = (power or [8] * n)[i]
        s["seats"][i]["coins"] = (coins or [10] * n)[i]
    for marker in s["resources"].values():
        marker.update(pos=7, dir=1, marker=False)
    return bundle, s


def act(bundle: dict, s: dict, seat: int, kind: str, **fields) -> dict:
    return apply(bundle, s, {"type": kind, "seat": seat, **fields})


def vote(bundle: dict, s: dict, seat: int, side: str, power: int) -> dict:
    return act(bundle, s, seat, "vote", side=side, power=power)


def pass_(bundle: dict, s: dict, seat: int, why: str = "power") -> dict:
    return act(bundle, s, seat, "pass", **{"for": why})


def keys(s: dict, since: int = 0) -> list[str]:
    return [e["key"] for e in s["log"][since:]]


# =========================================================================== Mise en place


def test_setup_tracks_reserves_and_balance():
    """Each resource marker at the centre, its side by a coin toss; stability at the centre;
    3 Pouvoir on the balance; 8 Pouvoir and 10 coins behind each screen."""
    b = make_bundle()
    sides = set()
    for seed in range(8):
        s = new_game(b, new_campaign(b, seed), [{"house": h.lower()} for h in NAMES], seed)
        assert {m["pos"] for m in s["resources"].values()} == {7}
        assert not any(m["marker"] for m in s["resources"].values())
        sides |= {m["dir"] for m in s["resources"].values()}
        assert s["stability"] == 10  # the test campaign's stability track is 0–20
        assert s["balance"] == 3
        assert all((x["power"], x["coins"]) == (8, 10) for x in s["seats"])
    assert sides == {1, -1}


def test_setup_draft_example_marc_frank_julia_alexandra():
    """Marc (5 prestige) drafts first after one objective is removed unseen, then Frank (7),
    Julia (8, house number 2), Alexandra (8, house number 5); the unused card goes back unseen.
    The leader token goes to the highest prestige (Alexandra wins the tie by house number),
    the moderator to the lowest (Marc)."""
    b = make_bundle()
    prestige = {"théodore": 8, "julius": 5, "armin": 7, "diana": 8}  # numbers 1, 2, 3, 4
    camp = new_campaign(b, 3)
    for h, p in prestige.items():
        camp["houses"][h]["prestige"] = p
    seats = [{"house": h} for h in prestige]
    s = new_game(b, camp, seats, 3)
    assert s["leader"] == 3  # Diana: 8 prestige and house number 4 beats Théodore's 1
    assert s["moderator"] == 1  # Julius, 5
    order = []
    pool0 = len(s["draft"]["pool"])
    assert pool0 == 5  # six objectives, one removed at random
    while s["phase"] == "draft":
        seat = s["pending"]["seat"]
        order.append(seat)
        assert len(legal_actions(b, s, seat)) == pool0 - len(order) + 1
        s = act(b, s, seat, "draft", objective=s["draft"]["pool"][0])
    assert order == [1, 2, 0, 3]
    assert len({x["objective"] for x in s["seats"]}) == 4
    assert s["phase"] == "vote"


def test_setup_only_the_drafting_house_sees_the_pool():
    b = make_bundle()
    s = new_game(b, new_campaign(b, 1), [{"house": h.lower()} for h in NAMES[:3]], 1)
    seat = s["pending"]["seat"]
    assert isinstance(G.view(b, s, seat)["draft"]["pool"], list)
    assert G.view(b, s, (seat + 1) % 3)["draft"]["pool"] == 5


def _sticker(b: dict, sid: str, resource: str, polarity: str) -> None:
    b["records"]["chronicle_sticker"][sid] = {
        "id": int(sid), "resource": resource, "polarity": polarity, "title": sid, "text": "",
        "boxes": 3,
    }  # fmt: skip


def test_succession_ageing_resources_power_and_public_tokens():
    """The rulebook's succession examples on one board: Influence 2 positive and 1 negative
    (up 1), Prosperity 1 and 1 (still), Morale 2 negative (down 2); stability stays at the
    centre and no marker flips.  Tony (here Théodore) signed 3 positive and 1 negative: +2
    Pouvoir; Catherine (Julius) 2 negative: −2.  Each sticker ages one tick.  Tokens: the most
    recent sticker of a playing house, rightmost on ties; Frances's stickers are ignored (she
    does not play)."""
    b = make_bundle()
    for sid, res, pol in [
        ("11", "influence", "positive"),
        ("12", "influence", "negative"),
        ("13", "influence", "positive"),
        ("21", "prosperity", "positive"),
        ("22", "prosperity", "negative"),
        ("31", "morale", "negative"),
        ("32", "morale", "negative"),
        ("41", "welfare", "positive"),
    ]:
        _sticker(b, sid, res, pol)  # fmt: skip
    camp = new_campaign(b, 1)

    def st(sid, signer, ticks):
        pol = b["records"]["chronicle_sticker"][sid]["polarity"]
        return {"id": sid, "polarity": pol, "signer": signer, "ticks": ticks}

    camp["chronicle"]["influence"] = [
        st("11", "théodore", 2),
        st("12", "théodore", 1),
        st("13", "théodore", 0),
        None,
    ]
    camp["chronicle"]["prosperity"] = [st("21", "frances", 0), st("22", "julius", 0), None, None]
    camp["chronicle"]["morale"] = [st("31", "julius", 2), st("32", "armin", 0), None, None]
    camp["chronicle"]["welfare"] = [st("41", "théodore", 0), None, None, None]  # fmt: skip
    seats = [{"house": h} for h in ("théodore", "julius", "armin", "diana")]
    s = new_game(b, camp, seats, 1)
    pos = {r: m["pos"] for r, m in s["resources"].items()}
    assert pos == {"influence": 8, "prosperity": 7, "morale": 5, "welfare": 8, "knowledge": 7}
    assert s["stability"] == 10 and not any(m["marker"] for m in s["resources"].values())
    power = [x["power"] for x in s["seats"]]
    assert power == [8 + 3 - 1, 8 - 2, 8 - 1, 8]
    ticks = [x["ticks"] for x in s["campaign"]["chronicle"]["influence"] if x]
    assert ticks == [3, 2, 1]  # one more each, never past the 3 boxes
    tokens = {x["house"]: sorted(map(tuple, x["public"])) for x in s["seats"]}
    assert tokens["théodore"] == [("influence", "negative"), ("influence", "positive"),
                                  ("welfare", "positive")]  # fmt: skip
    # prosperity's positive sticker is Frances's (absent): no one gets it
    assert ("prosperity", "positive") not in {t for v in tokens.values() for t in v}
    assert tokens["julius"] == [("prosperity", "negative")]
    assert tokens["armin"] == [("morale", "negative")]  # the most recent of the two


def test_succession_power_never_below_zero():
    """« Il peut arriver qu'un joueur commence avec aucun Pouvoir »."""
    b = make_bundle()
    camp = new_campaign(b, 1)
    for i in range(4):
        _sticker(b, str(60 + i), "knowledge", "negative")
    camp["chronicle"]["knowledge"] = [
        {"id": str(60 + i), "polarity": "negative", "signer": "julius", "ticks": 0}
        for i in range(4)
    ]
    b["campaign"]["rules"]["house_power"] = 3
    s = new_game(b, camp, [{"house": h} for h in ("théodore", "julius", "armin")], 1)
    assert s["seats"][1]["power"] == 0


def test_a_house_keeping_two_of_three_positive_tokens_keeps_its_one_negative_token():
    """« Jusqu'à 2 jetons positifs et jusqu'à 2 négatifs »: a house that receives three
    positive tokens and one negative chooses two of the positive ones; its negative token is
    within the limit and is kept whatever it chooses."""
    b = make_bundle()
    stuck = [("influence", "positive"), ("prosperity", "positive"), ("morale", "positive"),
             ("welfare", "negative")]  # fmt: skip
    for i, (res, polarity) in enumerate(stuck):
        _sticker(b, str(70 + i), res, polarity)
    camp = new_campaign(b, 1)
    for i, (res, polarity) in enumerate(stuck):
        camp["chronicle"][res][0] = {"id": str(70 + i), "polarity": polarity,
                                     "signer": "armin", "ticks": 0}  # fmt: skip
    s = new_game(b, camp, [{"house": h} for h in ("théodore", "julius", "armin")], 1)
    assert s["pending"] == {"type": "keep_tokens", "seat": 2}
    options = [sorted(map(tuple, a["tokens"])) for a in legal_actions(b, s, 2)]
    negative = [t for t in map(tuple, s["seats"][2]["public"]) if t[1] == "negative"]
    assert len(options) == 3 and len(negative) == 1
    assert all(len(o) == 3 and negative[0] in o for o in options)


def test_a_game_seats_three_to_five_houses_of_the_campaign_each_once():
    """« Mise en place »: three to five houses, each once and each of the campaign; no game
    after the Grand final.  A seat is named as given, else by its house; a computer seat keeps
    its temperament, a person none; nothing is signed, scored or skulled yet."""
    b = make_bundle()
    camp = new_campaign(b, 1)
    houses = [{"house": h.lower()} for h in NAMES]
    for seats, why in [
        (houses[:2], "a game needs 3 to 5 houses, got 2"),
        ([*houses, {"house": "julius"}], "a game needs 3 to 5 houses, got 6"),
        ([*houses[:2], {"house": "inconnue"}], "unknown or repeated houses: "),
        ([*houses[:2], {"house": "julius"}], "unknown or repeated houses: "),
    ]:
        with pytest.raises(ValueError) as err:
            new_game(b, camp, seats, 1)
        assert str(err.value).startswith(why)
    assert new_game(b, camp, houses, 1)["seats"][4]["house"] == "frances"  # five is enough
    seats = [{"house": "théodore", "name": "Aline"}, {"house": "julius", "bot": True,
             "persona": "cupide"}, {"house": "armin", "persona": "loyal"}]  # fmt: skip
    s = new_game(b, camp, seats, 1)
    assert s["format_version"] == G.FORMAT_VERSION and s["game"] == "dilemme"
    assert [x["name"] for x in s["seats"]] == ["Aline", "Julius", "Armin"]
    assert [(x["bot"], x["persona"]) for x in s["seats"]] == [
        (False, None), (True, "cupide"), (False, None)]  # fmt: skip
    assert [(x["signed"], x["public_points"]) for x in s["seats"]] == [(0, 0)] * 3
    assert s["skull_cards"] == 0 and s["stability"] == 10 and type(s["stability"]) is int
    n = len(s["log"])
    s = apply(b, s, legal_actions(b, s, s["pending"]["seat"])[0])
    assert s["log"][n:][:1] == [
        {"key": "draft.done", "args": {"house": s["seats"][s["draft"]["order"][0]]["name"]}}
    ]
    camp["finished"] = True
    with pytest.raises(
        ValueError, match=r"^this campaign is over: the grand final has been played$"
    ):
        new_game(b, camp, houses[:3], 1)


def test_more_than_two_tokens_of_a_polarity_the_house_keeps_two():
    b = make_bundle()
    for i, res in enumerate(("influence", "prosperity", "morale")):
        _sticker(b, str(70 + i), res, "positive")
    camp = new_campaign(b, 1)
    for i, res in enumerate(("influence", "prosperity", "morale")):
        camp["chronicle"][res][0] = {"id": str(70 + i), "polarity": "positive",
                                     "signer": "armin", "ticks": 0}  # fmt: skip
    s = new_game(b, camp, [{"house": h} for h in ("théodore", "julius", "armin")], 1)
    assert s["pending"] == {"type": "keep_tokens", "seat": 2}
    options = legal_actions(b, s, 2)
    assert len(options) == 3 and all(len(a["tokens"]) == 2 for a in options)
    s = apply(b, s, options[1])
    assert s["seats"][2]["public"] == options[1]["tokens"]
    assert s["phase"] == "draft"


# =========================================================================== Vote du Conseil


def test_vote_order_starts_with_the_leader_clockwise_and_only_the_pending_seat_votes():
    b, s = table(leader=D)
    order = []
    for _ in range(5):
        seat = s["pending"]["seat"]
        order.append(seat)
        for other in range(5):
            if other != seat:
                with pytest.raises(IllegalAction):
                    vote(b, s, other, "oui_da", 1)
        s = pass_(b, s, seat)
    assert order == [D, F, T, J, A]


def test_a_vote_stakes_one_pouvoir_or_more_of_ones_own():
    b, s = table(power=[3, 0, 8, 8, 8])
    stakes = [a["power"] for a in legal_actions(b, s, T) if a["type"] == "vote"]
    assert sorted(set(stakes)) == [1, 2, 3]
    for bad in (0, 4):
        with pytest.raises(IllegalAction):
            vote(b, s, T, "oui_da", bad)
    s = vote(b, s, T, "nenni", 3)
    assert s["seats"][T]["power"] == 0 and s["vote"]["votes"][T] == {
        "kind": "nenni", "power": 3, "coin": 0}  # fmt: skip
    # without Pouvoir, Julius can only pass
    assert {a["type"] for a in legal_actions(b, s, J, gifts=False)} == {"pass", "offer"}


def test_passing_for_pouvoir_takes_a_coin_at_once_and_a_share_of_the_balance_later():
    b, s = table(balance=5, leader=A)
    s = vote(b, s, A, "oui_da", 1)
    s = vote(b, s, D, "oui_da", 1)
    s = vote(b, s, F, "nenni", 1)
    s = pass_(b, s, T)
    assert s["vote"]["votes"][T]["coin"] == 1 and s["seats"][T]["coins"] == 10
    s = pass_(b, s, J)  # Julius sits to the right of the leader Armin: the phase ends
    # Rita and David: 5 on the balance, 2 each, 1 stays; then the winners' 2 join it
    assert [s["seats"][i]["power"] for i in (T, J)] == [10, 10]
    assert [s["seats"][i]["coins"] for i in (T, J)] == [11, 11]
    assert s["balance"] == 1 + 2
    assert s["seats"][F]["power"] == 8  # the loser takes hers back


def test_the_winners_pouvoir_is_not_shared_the_same_round():
    b, s = table(balance=0)
    s = pass_(b, s, T)
    for seat in (J, A, D, F):
        s = vote(b, s, seat, "oui_da", 2)
    s = act(b, s, T, "stand")  # Julius leads: the phase ends after Théodore's turn
    assert s["seats"][T]["power"] == 8 and s["balance"] == 8


def test_passing_to_become_moderator_once_per_vote_even_the_moderator_himself():
    b, s = table(moderator=T)
    assert {"type": "pass", "seat": T, "for": "moderator"} in legal_actions(b, s, T)
    s = pass_(b, s, T, "moderator")  # « ce peut être vous »
    assert s["moderator"] == T and s["vote"]["moderator_taken"]
    assert {"type": "pass", "seat": J, "for": "moderator"} not in legal_actions(b, s, J)
    with pytest.raises(IllegalAction):
        pass_(b, s, J, "moderator")
    s = vote(b, s, J, "oui_da", 1)  # Julius leads: the phase ends after Théodore's turn
    for seat in (A, D, F):
        s = pass_(b, s, seat)
    s = act(b, s, T, "stand")
    # the moderator's passer gets no share of the balance; the next vote offers the pass again
    assert s["seats"][T]["power"] == 8 and s["seats"][A]["power"] == 9
    assert s["seats"][T]["coins"] == 11
    assert {"type": "pass", "seat": s["pending"]["seat"], "for": "moderator"} in legal_actions(
        b, s, s["pending"]["seat"]
    )


def test_the_new_moderator_settles_the_tie_of_this_very_vote():
    b, s = table(n=3, leader=T, moderator=J)
    s = pass_(b, s, T, "moderator")
    s = vote(b, s, J, "oui_da", 2)
    s = vote(b, s, A, "nenni", 2)
    s = act(b, s, T, "stand")
    assert s["pending"] == {"type": "decide", "seat": T, "all_pass": False}


def test_later_turns_add_pouvoir_or_stand_and_a_passer_only_stands():
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 2)  # Julius leads now: the phase ends after Théodore's turn
    assert s["leader"] == J
    s = pass_(b, s, A)
    later = legal_actions(b, s, T, gifts=False)
    assert {a["type"] for a in later} == {"add", "stand"}
    assert not any(a["type"] == "vote" for a in later)  # the side cannot change
    s = act(b, s, T, "add", power=3)  # 4 against 2: Théodore takes the token back
    assert s["leader"] == T
    assert s["pending"]["seat"] == J  # so the phase goes on until Armin's turn
    s = act(b, s, J, "stand")
    assert [a["type"] for a in legal_actions(b, s, A, gifts=False)] == ["stand"]
    s = act(b, s, A, "stand")
    assert s["vote"] is None or s["vote"]["card"] != "D0"  # resolved: Oui-Da 4 to 2


def test_standing_does_not_leave_the_vote():
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 2)  # Julius leads
    s = vote(b, s, A, "oui_da", 2)
    s = act(b, s, T, "add", power=3)  # Théodore leads with 4
    s = act(b, s, J, "stand")  # Julius lies low...
    s = act(b, s, A, "add", power=3)  # Armin leads with 5
    s = act(b, s, T, "stand")
    s = act(b, s, J, "add", power=4)  # ...and comes back with 6 on his next turn
    assert s["leader"] == J and s["vote"]["votes"][J]["power"] == 6
    s = act(b, s, A, "stand")
    s = act(b, s, T, "stand")  # to the right of Julius: the end, Oui-Da 9 against 6
    assert next(e for e in s["log"] if e["key"] == "outcome")["args"]["side"] == "oui_da"


# =========================================================================== Résolution du vote


def test_more_pouvoir_wins_and_the_leader_on_the_losing_side_hands_the_token_over():
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "nenni", 3)
    s = vote(b, s, J, "oui_da", 2)
    s = vote(b, s, A, "oui_da", 2)
    # Oui-Da 4 against 3; Théodore leads on the losing side; the winners are tied at 2:
    # the moderator (Julius) chooses between Julius and Armin
    assert s["pending"] == {"type": "choose_leader", "seat": J, "among": [J, A]}
    assert s["phase"] == "leader"
    s = act(b, s, J, "choose_leader", leader=A)
    assert s["leader"] == A
    outcome = next(e for e in s["log"] if e["key"] == "outcome")
    assert outcome["args"]["side"] == "oui_da"


def test_the_winning_leader_keeps_the_token():
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 3)
    s = vote(b, s, J, "nenni", 1)
    s = vote(b, s, A, "oui_da", 1)
    assert s["leader"] == T and "leader.moves" not in keys(s)


def test_everyone_passes_the_moderator_decides_and_takes_the_leader_token():
    b, s = table(n=4, leader=T, moderator=A)
    for seat in (T, J, A, D):
        s = pass_(b, s, seat)
    assert s["pending"] == {"type": "decide", "seat": A, "all_pass": True}
    s = act(b, s, A, "decide", side="nenni")
    assert s["leader"] == A
    assert next(e for e in s["log"] if e["key"] == "outcome")["args"]["side"] == "nenni"


def test_only_the_moderator_decides_a_tie():
    b, s = table(n=3, leader=T, moderator=A)
    s = vote(b, s, T, "oui_da", 2)
    s = vote(b, s, J, "nenni", 2)
    s = act(b, s, A, "pass", **{"for": "power"})
    assert s["pending"]["type"] == "decide" and s["pending"]["seat"] == A
    for seat in (T, J):
        with pytest.raises(IllegalAction):
            act(b, s, seat, "decide", side="oui_da")


# =========================================================================== Négocier


def test_offers_bind_once_accepted_and_move_coins_only_then():
    b, s = table(n=3, leader=T)
    s = act(b, s, T, "offer", to=J, coins=3, ask="nenni")
    assert s["pending"] == {"type": "answer", "seat": J}
    refused = act(b, s, J, "answer", accept=False)
    assert [x["coins"] for x in refused["seats"]] == [10, 10, 10]
    assert refused["pending"] == {"type": "vote", "seat": T}
    s = act(b, s, J, "answer", accept=True)
    assert [x["coins"] for x in s["seats"]] == [7, 13, 10]
    # one offer per round from a house to another
    assert not any(a["type"] == "offer" and a["to"] == J for a in legal_actions(b, s, T))
    s = vote(b, s, T, "nenni", 1)
    sides = {a["side"] for a in legal_actions(b, s, J) if a["type"] == "vote"}
    assert sides == {"nenni"}
    assert not any(a["type"] == "pass" for a in legal_actions(b, s, J))
    with pytest.raises(IllegalAction):
        vote(b, s, J, "oui_da", 1)


def test_a_paid_pass_is_a_pass_and_offers_are_one_to_five_coins():
    b, s = table(n=3, leader=T, coins=[3, 10, 10])
    amounts = {a["coins"] for a in legal_actions(b, s, T) if a["type"] == "offer"}
    assert amounts == {1, 2, 3}  # no more than one has
    b, s = table(n=3, leader=T)
    amounts = {a["coins"] for a in legal_actions(b, s, T) if a["type"] == "offer"}
    assert amounts == set(range(1, G.OFFER_MAX_COINS + 1))
    s = act(b, s, T, "offer", to=J, coins=2, ask="pass")
    s = act(b, s, J, "answer", accept=True)
    s = vote(b, s, T, "oui_da", 1)
    assert {a["type"] for a in legal_actions(b, s, J, gifts=False)} == {"pass", "offer"}


def test_gifts_are_free_at_any_time_of_the_vote_and_pouvoir_never_changes_hands():
    b, s = table(n=3, leader=T)
    gift = {"type": "give", "seat": A, "to": T, "coins": 4}
    assert gift in legal_actions(b, s, A)
    s = apply(b, s, gift)
    assert [x["coins"] for x in s["seats"]] == [14, 10, 6]
    assert s["pending"] == {"type": "vote", "seat": T}  # no one's turn is spent
    kinds = {a["type"] for seat in range(3) for a in legal_actions(b, s, seat)}
    assert kinds <= {"vote", "pass", "offer", "give", "use_ability"}
    assert not any("power" in a and a["type"] in ("give", "offer") for seat in range(3)
                   for a in legal_actions(b, s, seat))  # fmt: skip


def test_several_houses_pay_the_moderator_and_the_deal_binds_his_decision():
    """The rulebook's example: Diana offers 3, Julius adds 2, Théodore must settle for Oui-Da."""
    b, s = table(n=3, leader=T, moderator=A)
    s = vote(b, s, T, "oui_da", 2)
    s = vote(b, s, J, "nenni", 2)
    s = pass_(b, s, A)
    assert s["pending"]["type"] == "decide"
    s = act(b, s, T, "offer", to=A, coins=3, ask="decide_oui_da")
    s = act(b, s, A, "answer", accept=True)
    assert [a["side"] for a in legal_actions(b, s, A) if a["type"] == "decide"] == ["oui_da"]
    # the other side may still bid, but cannot buy the opposite promise
    bids = [a for a in legal_actions(b, s, J) if a["type"] == "offer"]
    assert bids and {a["ask"] for a in bids} == {"decide_oui_da"}


def test_a_promise_to_the_moderator_falls_when_he_loses_the_token():
    b, s = table(n=3, leader=T, moderator=A)
    s = act(b, s, T, "offer", to=A, coins=2, ask="decide_nenni")
    s = act(b, s, A, "answer", accept=True)
    s = pass_(b, s, T, "moderator")
    s = vote(b, s, J, "oui_da", 1)
    s = vote(b, s, A, "nenni", 1)
    s = act(b, s, T, "stand")
    assert s["pending"]["type"] == "decide" and s["pending"]["seat"] == T
    assert {a["side"] for a in legal_actions(b, s, T) if a["type"] == "decide"} == set(G.SIDES)
    assert s["seats"][A]["coins"] == 12  # he keeps the coins


# =========================================================================== Résolution du Dilemme


def test_outcome_effects_left_to_right_with_progression_and_stability():
    """The progression example: Influence up 1 against a black marker with progression: it flips
    white, loses the marker, stability up 1; Morale down 1 with a black side: down 2, gains
    a marker, stability down 2."""
    b = bundle_with(X={"oui_da": [{"influence": 1}, {"morale": -1}]})
    b, s = table(b, n=3, card="X")
    s["resources"]["influence"].update(dir=-1, marker=True)
    s["resources"]["morale"].update(dir=-1, marker=False)
    stab = s["stability"]
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["resources"]["influence"] == {"pos": 8, "dir": 1, "marker": False}
    assert s["resources"]["morale"] == {"pos": 5, "dir": -1, "marker": True}
    assert s["stability"] == stab + 1 - 2
    moved = [e["args"]["resource"] for e in s["log"] if e["key"] == "resource.moved"]
    assert moved == ["influence", "morale"]


def test_abdication_freezes_stability_the_other_effects_still_apply_the_game_ends_after():
    b = bundle_with(
        X={"oui_da": [{"influence": 3}, {"morale": 2}, {"chronicle_sticker": "1"}]},
    )
    b, s = table(b, n=3, card="X")
    s["stability"] = 18  # the test track is 0–20
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["abdicated"] and s["stability"] == 20
    assert s["resources"]["morale"]["pos"] > 7  # applied after the abdication
    assert s["campaign"]["chronicle"]["morale"][0]["id"] == "1"  # stuck before the end
    assert s["phase"] == "over" and s["result"]["ending"] == "top"
    assert [e["card"] for e in s["timeline"]] == ["X"]


def test_abdication_at_the_bottom():
    b = bundle_with(X={"nenni": [{"welfare": -3}]})
    b, s = table(b, n=3, card="X")
    s["stability"] = 1
    for seat in (T, J, A):
        s = vote(b, s, seat, "nenni", 1)
    assert s["stability"] == 0 and s["result"]["ending"] == "bottom"


def test_a_resource_stops_at_its_track_end_stability_moves_the_full_amount():
    b = bundle_with(X={"oui_da": [{"knowledge": 3}]})
    b, s = table(b, n=3, card="X")
    s["resources"]["knowledge"].update(pos=13)
    stab = s["stability"]
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["resources"]["knowledge"]["pos"] == 14
    assert s["stability"] == stab + 4  # 3 and 1 for the progression


def test_the_leader_signs_the_chronicle_sticker_on_the_leftmost_empty_slot():
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 3)  # Julius leads and wins: he signs
    s = vote(b, s, A, "nenni", 1)
    s = act(b, s, T, "stand")
    line = s["campaign"]["chronicle"]["morale"]
    assert line[0] == {"id": "1", "polarity": "negative", "signer": "julius", "ticks": 0}
    assert line[1:] == [None, None, None]
    assert s["seats"][J]["signed"] == 1
    # no immediate effect: no Pouvoir changes hands for it during the game
    assert s["seats"][J]["power"] == 8 - 3 + 0


def test_a_full_chronicle_line_covers_its_oldest_sticker():
    b, s = table(n=3, leader=T)
    line = s["campaign"]["chronicle"]["morale"]
    for i, ticks in enumerate([1, 3, 2, 3]):
        line[i] = {"id": f"old{i}", "polarity": "positive", "signer": None, "ticks": ticks}
    for seat in (T, J, A):
        s = vote(b, s, seat, "nenni", 1)
    assert [x["id"] for x in s["campaign"]["chronicle"]["morale"]] == ["old0", "1", "old2", "old3"]


def _envelope_bundle() -> dict:
    b = bundle_with(X={"oui_da": [{"open_envelope": 5}]})
    b["records"]["story_card"]["H5"] = {"id": "H5", "arc": "a", "title": "Suite", "text": "…",
                                        "signature": True}  # fmt: skip
    for k in ("E1", "E2", "E3"):
        b["records"]["dilemma"][k] = dict(b["records"]["dilemma"]["D0"], id=k, title=k)
    b["records"]["envelope"]["05"] = {"id": 5, "story": "H5", "cards": ["E1", "E2", "E3"]}
    return b


def test_an_envelope_the_leader_signs_its_story_card_its_dilemmas_go_into_the_deck():
    b, s = table(_envelope_bundle(), n=3, card="X", leader=A)
    deck = len(s["deck"])
    for seat in (A, T, J):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["campaign"]["arcs"]["a"][-1] == {"card": "H5", "signer": "armin"}
    assert "05" in s["campaign"]["opened"]
    assert len(s["deck"]) == deck + 3 - 1  # three in, one drawn for the next round
    assert {"E1", "E2", "E3"} <= set(s["deck"]) | {s["vote"]["card"]}


def test_an_envelope_is_opened_once():
    b, s = table(_envelope_bundle(), n=3, card="X", leader=A)
    s["campaign"]["opened"].append("05")
    deck = len(s["deck"])
    for seat in (A, T, J):
        s = vote(b, s, seat, "oui_da", 1)
    assert len(s["deck"]) == deck - 1 and len(s["campaign"]["arcs"]["a"]) == 1


def _story_cards(b: dict, n: int) -> None:
    for i in range(n):
        b["records"]["story_card"][f"S{i}"] = {"id": f"S{i}", "arc": "a", "title": "…",
                                               "text": "…", "signature": True}  # fmt: skip


def test_majority_signer_bonus_john_angela_lex():
    """John signed 3 cards of the arc, Angela 2, Lex 1: the epilogue gives John the bonus."""
    b = bundle_with(X={"oui_da": [{"open_envelope": 9}]})
    b["records"]["epilogue"] = {
        "EP": {"id": "EP", "arc": "a", "title": "Fin", "text": "…", "signature": True,
               "cohesion": 2, "majority_signer_bonus": {"prestige": 3}},
    }  # fmt: skip
    b["records"]["envelope"]["09"] = {"id": 9, "story": "EP", "cards": []}
    _story_cards(b, 5)
    b, s = table(b, n=3, card="X", leader=T)  # John is Théodore, Angela Julius, Lex Armin
    s["campaign"]["arcs"]["a"] = [{"card": f"S{i}", "signer": h}
                                  for i, h in enumerate(["théodore", "julius", "théodore",
                                                         "julius", "armin"])]  # fmt: skip
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    houses = s["campaign"]["houses"]
    assert houses["théodore"]["prestige"] == 3  # with the epilogue he signs: 3 cards
    assert houses["julius"]["prestige"] == 0 and houses["armin"]["prestige"] == 0
    assert s["campaign"]["cohesion"] == 2 and s["campaign"]["epilogues"] == ["EP"]


def test_majority_signer_bonus_ties_all_get_it():
    b = bundle_with(X={"oui_da": [{"open_envelope": 9}]})
    b["records"]["epilogue"] = {"EP": {"id": "EP", "arc": "a", "title": "Fin", "text": "…",
                                       "majority_signer_bonus": {"prestige": 1}}}  # fmt: skip
    b["records"]["envelope"]["09"] = {"id": 9, "story": "EP", "cards": []}
    _story_cards(b, 2)
    b, s = table(b, n=3, card="X", leader=T)
    s["campaign"]["arcs"]["a"] = [{"card": "S0", "signer": "julius"},
                                  {"card": "S1", "signer": "armin"}]  # fmt: skip
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    prestige = [s["campaign"]["houses"][h]["prestige"] for h in ("théodore", "julius", "armin")]
    assert prestige == [0, 1, 1]


def test_immediate_cards_resolve_when_drawn_and_another_card_is_drawn():
    b = make_bundle()
    b["records"]["immediate_card"] = {
        "I1": {"id": "I1", "title": "Vite", "text": "…", "effects": [{"welfare": 2}]},
        "I2": {"id": "I2", "title": "Reste", "text": "…", "effects": [], "keep": True},
    }
    b, s = table(b, n=3)
    s["deck"] += ["I2", "I1"]  # I1 at the bottom: drawn first
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["vote"]["card"] not in ("I1", "I2")
    assert "I1" not in s["deck"] and s["kept_immediates"] == ["I2"]
    assert s["resources"]["welfare"]["pos"] > 7
    assert [e["card"] for e in s["timeline"]] == ["D0"]  # never on the timeline


def test_event_rules_add_squares_before_progression():
    b = bundle_with(X={"oui_da": [{"event": "EV"}], "nenni": []},
                    Y={"oui_da": [{"prosperity": 1}]})  # fmt: skip
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "Disette", "text": "…",
                                         "rules": [{"on": "resource_up", "resource": "prosperity",
                                                    "extra": 1}]}}  # fmt: skip
    b, s = table(b, n=3, card="X")
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["events"] == ["EV"]
    s["deck"].append(s["vote"]["card"])
    s["vote"]["card"] = "Y"
    s["resources"]["prosperity"].update(pos=7, dir=-1, marker=False)
    for seat in (s["leader"], (s["leader"] + 1) % 3, (s["leader"] + 2) % 3):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["resources"]["prosperity"]["pos"] == 9  # 1 and 1 from the event, then a flip


# =========================================================================== Frise du temps


def _timeline_state(skull: bool, before: int, cards_on_skull: int = 0):
    b = bundle_with(X={"skull": skull})
    b, s = table(b, n=3, card="X")
    s["timeline"] = [{"card": f"old{i}", "side": "oui_da"} for i in range(before)]
    s["skull_cards"] = cards_on_skull
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    return s


def test_timeline_the_king_dies_on_a_skull_card_in_the_last_slot():
    s = _timeline_state(skull=True, before=9)
    assert s["king_dead"] and s["result"]["ending"] == "died"


def test_timeline_a_skull_card_before_the_last_slot_kills_no_one():
    s = _timeline_state(skull=True, before=7)
    assert not s["king_dead"] and s["phase"] == "vote"


def test_timeline_cards_pile_on_the_skull_slot_until_the_fifth():
    s = _timeline_state(skull=False, before=9)
    assert not s["king_dead"] and s["skull_cards"] == 1
    s = _timeline_state(skull=False, before=13, cards_on_skull=4)
    assert s["king_dead"] and s["skull_cards"] == 5


def test_an_empty_deck_is_the_kings_death():
    """Our ruling: the rulebook sends you to an online tool; here the story has nothing left."""
    b, s = table(n=3)
    s["deck"] = []
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert "deck.empty" in keys(s) and s["result"]["ending"] == "died"
    assert any("deck_empty" in r for r in G.RULINGS)


# =========================================================================== Fin de la partie


def _end(b: dict, s: dict) -> dict:
    s["deck"] = []
    seats = len(s["seats"])
    for k in range(seats):
        s = pass_(b, s, (s["leader"] + k) % seats)
    return act(b, s, s["moderator"], "decide", side="oui_da")


def test_final_scores_valentine_modération_and_the_coins_podium():
    """Valentine (Modération, zone 5–9 in the test cards): three markers in her zone → the
    third step of her card; 4 coins make her third → her third wealth prize."""
    b, s = table(n=3)
    for i, obj in enumerate(["moderation", "opulence", "avarice"]):
        s["seats"][i]["objective"] = obj
    for res, pos in zip(RESOURCES, (5, 9, 7, 12, 2), strict=True):
        s["resources"][res]["pos"] = pos
    s = _end(b, s)
    rows = {r["name"]: r for r in s["result"]["rows"]}
    assert rows["Théodore"]["resources"] == 7  # three in the zone: [2, 4, 7, 10, 13][2]
    # all three took their pass coin: 11 each, tied first: everyone's first wealth prize
    assert rows["Théodore"]["wealth"] == 4 and rows["Armin"]["wealth"] == 4


def test_final_scores_wealth_ranks_share_the_podium():
    b, s = table(n=4, coins=[9, 12, 12, 3])
    for i in range(4):
        s["seats"][i]["objective"] = "avarice"  # wealth 4 / 2 / 1 in the test cards
    s = _end(b, s)
    wealth = [r["wealth"] for r in s["result"]["rows"]]
    assert wealth == [1, 4, 4, 0]  # 13, 13 tie first; 10 third; 4 fourth: nothing


def test_final_scores_power_majority_and_public_objectives():
    b, s = table(n=3, power=[5, 2, 5])
    s["seats"][0]["public"] = [["influence", "positive"]]
    s["seats"][1]["public"] = [["welfare", "negative"]]
    s["resources"]["influence"]["pos"] = 12
    s["resources"]["welfare"]["pos"] = 1
    s = _end(b, s)
    rows = s["result"]["rows"]
    assert [r["power"] for r in rows] == [2, 1, 2]  # 2 is the second quantity after 5, 5
    assert [r["public"] for r in rows] == [3, -3, 0]


def test_prestige_and_craving_by_place_and_ending():
    b, s = table(n=5, power=[8, 7, 6, 5, 4])
    for i in range(5):
        s["seats"][i]["objective"] = "rebellion"  # no marker in 0–4: only majority counts
    s = _end(b, s)
    ranks = [r["rank"] for r in s["result"]["rows"]]
    assert ranks == [1, 2, 3, 3, 3]  # 2, 1, 0, 0, 0 points; the three tied last
    got = [(r["prestige"], r["craving"]) for r in s["result"]["rows"]]
    assert got == [(3, 0), (2, 0), (0, 2), (0, 2), (0, 2)]
    houses = s["campaign"]["houses"]
    assert houses["théodore"]["prestige"] == 3 and houses["diana"]["craving"] == 2


def test_everyone_tied_all_score_as_last():
    """« il y a toujours un joueur à la dernière place »: a tie with nobody behind it is last,
    and when everyone is tied nobody is behind anyone.  The victory is still shared."""
    b, s = table(n=3)
    for i in range(3):
        s["seats"][i]["objective"] = "rebellion"
    s = _end(b, s)
    assert {(r["rank"], r["prestige"], r["craving"]) for r in s["result"]["rows"]} == {(1, 0, 2)}
    assert len(s["result"]["winners"]) == 3


def test_power_majority_after_a_tie_for_the_most_the_next_quantity_scores_one():
    """« la deuxième quantité de Pouvoir la plus grande »: two houses tied on the most power
    both score 2, the houses tied on the next quantity score 1 each, the rest nothing."""
    b, s = table(n=5, power=[6, 4, 6, 1, 4])
    s = _end(b, s)  # five passers share the balance's 3 power: nothing each
    assert [r["power"] for r in s["result"]["rows"]] == [2, 1, 2, 0, 1]


def test_power_majority_a_single_most_and_a_tie_for_the_second_the_rulebooks_table():
    """Valentine has the most power left (+2), Armin and Théodore tie for the second (+1)."""
    b, s = table(n=5, power=[9, 2, 6, 1, 6])
    s = _end(b, s)
    assert [r["power"] for r in s["result"]["rows"]] == [2, 0, 1, 0, 1]


def test_the_final_place_at_four_players_the_fourth_is_last():
    """« 3e (seulement à 4-5 joueurs) », « 4e (seulement à 5 joueurs) »: at four, the fourth
    scores the « Dernier » row."""
    b, s = table(n=4, power=[8, 7, 6, 5], coins=[12, 11, 10, 9])
    for i in range(4):
        s["seats"][i]["objective"] = "avarice"  # every marker at 7, in 3–10: 13 each
    s = _end(b, s)
    rows = s["result"]["rows"]
    assert [r["total"] for r in rows] == [13 + 4 + 2, 13 + 2 + 1, 13 + 1, 13]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [(r["prestige"], r["craving"]) for r in rows] == [(3, 0), (2, 0), (2, 1), (0, 2)]


def test_a_tie_for_the_second_place_at_three_players_is_last():
    """Nobody behind the two tied for second: both are last."""
    b, s = table(n=3, power=[8, 2, 2])
    for i in range(3):
        s["seats"][i]["objective"] = "rebellion"
    s = _end(b, s)  # power majority 2, 1, 1: the two tied are second and last
    rows = s["result"]["rows"]
    assert [r["rank"] for r in rows] == [1, 2, 2]
    assert [(r["prestige"], r["craving"]) for r in rows] == [(3, 0), (0, 2), (0, 2)]


def _immediate_abdication_bundle() -> dict:
    b = bundle_with(X={"oui_da": [{"influence": 3}, {"chronicle_sticker": "1"}]})
    b["records"]["immediate_card"] = {
        "I9": {"id": "I9", "title": "Chute", "text": "Le roi vacille.",
               "effects": [{"knowledge": -40}]},
    }  # fmt: skip
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "Peste", "text": "…",
                                         "rules": [{"on": "round_end",
                                                    "effects": [{"welfare": -1}]}]}}  # fmt: skip
    return b


def test_an_immediate_card_abdication_ends_the_game_at_the_end_of_the_round_phase_f_included():
    """The abdication triggers the end « à la fin de la manche (… phase F … incluse) »: the
    round goes on with the next card, its vote and outcome (stability frozen), the dilemma goes
    on the timeline, the events' end-of-round rules apply, then the game is scored."""
    b, s = table(_immediate_abdication_bundle(), n=3, leader=J)
    s["events"] = ["EV"]
    s["deck"] += ["X", "I9"]  # I9 at the bottom: drawn first next round, then X
    while s["round"] == 1:
        s = vote(b, s, s["pending"]["seat"], "oui_da", 1)
    assert s["abdicated"] and s["stability"] == 0
    assert s["phase"] == "vote" and s["vote"]["card"] == "X" and s["round"] == 2
    told = keys(s)
    assert told.index("king.abdicates") < max(i for i, k in enumerate(told) if k == "round.start")
    welfare, influence = s["resources"]["welfare"]["pos"], s["resources"]["influence"]["pos"]
    while s["phase"] == "vote":
        s = vote(b, s, s["pending"]["seat"], "oui_da", 1)
    assert s["phase"] == "over" and s["result"]["ending"] == "bottom"
    assert s["stability"] == 0  # frozen after the abdication
    assert s["resources"]["influence"]["pos"] > influence  # the outcome still applied
    assert s["campaign"]["chronicle"]["morale"][0]["id"] == "1"  # its sticker stuck
    assert s["timeline"][-1]["card"] == "X"  # it went on the timeline
    assert s["resources"]["welfare"]["pos"] < welfare  # phase F: the event's round-end rule
    assert keys(s).count("game.end") == 1
    assert s["campaign"]["history"][-1]["ending"] == "bottom"


def test_abdication_and_the_skull_in_one_round_the_king_abdicates():
    """Phase F looks for the king's death only « si le roi n'a pas abdiqué »: a skull card on
    the skull slot whose outcome makes the king abdicate scores as an abdication."""
    b = bundle_with(X={"skull": True, "oui_da": [{"knowledge": -40}]})
    b, s = table(b, n=3, card="X")
    s["timeline"] = [{"card": f"old{i}", "side": "oui_da"} for i in range(9)]
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["abdicated"] and s["phase"] == "over" and s["result"]["ending"] == "bottom"
    assert "king.dies" not in keys(s) and not s["king_dead"]


def test_the_card_that_ends_the_game_is_applied_in_full_its_envelope_opened_first():
    """« Tout effet d'une carte Dilemme déclenchant la fin de la partie doit être appliqué
    intégralement »: the envelope it opens is read, its story card put on its arc and its
    dilemmas shuffled into the deck that the campaign saves."""
    b = _envelope_bundle()
    b["records"]["dilemma"]["X"]["oui_da"]["effects"] = [{"knowledge": -40}, {"open_envelope": 5}]
    b, s = table(b, n=3, card="X", leader=A)
    for seat in (A, T, J):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["phase"] == "over" and s["result"]["ending"] == "bottom"
    assert s["campaign"]["arcs"]["a"][-1] == {"card": "H5", "signer": "armin"}
    assert {"E1", "E2", "E3"} <= set(s["campaign"]["deck"])


def test_achievements_ticked_at_the_end_alignment_once_unlocked_no_more():
    """Catherine played Opulence: the last box of its alignment achievement is ticked, she marks
    its prestige at once; a house whose alignment achievement is unlocked ticks nothing."""
    b = make_bundle()
    b["records"]["house"]["théodore"]["achievements"] = [
        {"id": "opulence", "kind": "alignment", "objective": "opulence", "condition": "…",
         "boxes": 2, "ability": {"trigger": "immediate", "gains": {"prestige": 2}}},
        {"id": "riche", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"coins_min": 18}},
    ]  # fmt: skip
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "avarice", "kind": "alignment", "objective": "avarice", "condition": "…",
         "boxes": 1},
    ]  # fmt: skip
    b, s = table(b, n=3, coins=[17, 10, 10])
    s["campaign"]["houses"]["théodore"]["ticks"] = {"opulence": 1}
    s["campaign"]["houses"]["julius"]["unlocked"] = ["avarice"]
    s["seats"][0]["objective"], s["seats"][1]["objective"] = "opulence", "avarice"
    s = _end(b, s)
    th = s["campaign"]["houses"]["théodore"]
    assert th["unlocked"] == ["opulence", "riche"]  # 17 + the pass coin = 18
    assert th["prestige"] >= 2 and "achievement.unlocked" in keys(s)
    assert s["campaign"]["houses"]["julius"]["ticks"] == {}


def test_save_kept_immediates_back_into_the_deck_resolved_dilemmas_gone():
    b = make_bundle()
    b["records"]["immediate_card"] = {"I2": {"id": "I2", "title": "Reste", "text": "…",
                                             "effects": [], "keep": True}}  # fmt: skip
    b, s = table(b, n=3)
    s["kept_immediates"] = ["I2"]
    left = list(s["deck"])
    s = _end(b, s)  # the deck is emptied by _end: only the kept card returns
    camp = s["campaign"]
    assert camp["deck"] == ["I2"]
    assert "D0" not in camp["deck"] and left
    assert camp["history"][-1]["timeline"] == [{"card": "D0", "side": "oui_da"}]


# =========================================================================== Campagne


def test_the_sixth_secret_sticker_opens_envelope_70_after_the_dilemma_and_ends_the_campaign():
    b = bundle_with(X={"oui_da": [{"secret_sticker": "F"}, {"influence": 1}]})
    b["records"]["envelope"]["70"] = {"id": 70, "story": "H70", "cards": []}
    b["records"]["story_card"]["H70"] = {"id": "H70", "arc": "a", "title": "Final", "text": "…"}
    b, s = table(b, n=3, card="X")
    s["campaign"]["secret_stickers"] = list("ABCDE")
    camp = s["campaign"]["houses"]
    camp["théodore"].update(prestige=4, craving=1)  # cohesion: 2×4 + 1 = 9
    camp["julius"].update(prestige=1, craving=7)  # 2 + 7 = 9: a tie, house number 2 wins
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["campaign"]["secret_stickers"] == list("ABCDEF")
    assert s["resources"]["influence"]["pos"] > 7  # the rest of the outcome first
    assert "70" in s["campaign"]["opened"] and s["campaign"]["finished"]
    assert s["phase"] == "over" and s["result"]["ending"] == "died"
    ranks = {r["house"]: (r["prestige"], r["craving"]) for r in s["result"]["rows"]}
    finals = s["campaign"]["final_scores"]
    assert finals["théodore"] == 2 * (4 + ranks["théodore"][0]) + 1 + ranks["théodore"][1]
    assert s["campaign"]["winner"] == max(
        finals, key=lambda h: (finals[h], b["records"]["house"][h]["number"])
    )
    with pytest.raises(ValueError, match="campaign is over"):
        new_game(b, s["campaign"], [{"house": h} for h in ("théodore", "julius", "armin")], 2)


def test_campaign_carry_over_prestige_deck_chronicle_and_a_fresh_table():
    b, s = table(n=3)
    s = _end(b, s)
    camp = copy.deepcopy(s["campaign"])
    seats = [{"house": h} for h in ("armin", "théodore", "julius")]
    nxt = new_game(b, camp, seats, 9)
    assert nxt["campaign"]["game_no"] == 2
    for h in ("armin", "théodore", "julius"):
        assert nxt["campaign"]["houses"][h]["prestige"] == camp["houses"][h]["prestige"]
    assert nxt["campaign"]["history"] == camp["history"]
    assert all((x["power"], x["coins"]) == (8, 10) for x in nxt["seats"])
    assert nxt["balance"] == 3 and nxt["timeline"] == [] and nxt["kept_immediates"] == []


# =========================================================================== the journal of a deal


def test_gifts_and_deals_are_told_in_the_journal_and_the_offer_waits_for_its_answer():
    b, s = table(n=3, leader=T, coins=[4, 10, 10])
    gifts = [a["coins"] for a in legal_actions(b, s, T) if a["type"] == "give" and a["to"] == J]
    assert gifts == [1, 2, 3, 4]
    n = len(s["log"])
    s = act(b, s, T, "give", to=J, coins=1)
    assert s["log"][n:] == [{"key": "give", "args": {"giver": "Théodore", "to": "Julius",
                                                     "coins": 1}}]  # fmt: skip
    s = act(b, s, T, "offer", to=A, coins=2, ask="nenni")
    assert s["offer"] == {"from": T, "to": A, "coins": 2, "ask": "nenni",
                          "resume": {"type": "vote", "seat": T}}  # fmt: skip
    assert s["log"][-1] == {"key": "offer", "args": {"giver": "Théodore", "to": "Armin",
                                                     "coins": 2, "ask": "nenni"}}  # fmt: skip
    s = act(b, s, A, "answer", accept=True)
    assert "offer" not in s and s["vote"]["promises"] == {str(A): "nenni"}
    assert s["log"][-1] == {"key": "answer", "args": {"house": "Armin", "accept": True}}
    assert [x["coins"] for x in s["seats"]] == [1, 11, 12]


# =========================================================================== the journal of a round


def _journal(s: dict, since: int) -> list[tuple]:
    out = [(e["key"], e["args"]) for e in s["log"][since:]]
    assert out[-1][0] == "round.start" and out[-1][1]["round"] == 2
    return out[:-1]


def _moved(*moves: tuple) -> list[tuple]:
    return [("resource.moved", dict(zip(("resource", "before", "after", "progression"), m,
                                        strict=True))) for m in moves]  # fmt: skip


def test_the_journal_of_a_round_won_after_the_leader_token_changed_hands_twice():
    b, s = table(n=3, leader=T, moderator=J)
    n = len(s["log"])
    s = vote(b, s, T, "oui_da", 2)
    s = pass_(b, s, J)
    s = vote(b, s, A, "nenni", 3)
    s = act(b, s, T, "add", power=2)
    s = act(b, s, J, "stand")
    s = act(b, s, A, "stand")
    assert _journal(s, n) == [
        ("vote.cast", {"house": "Théodore", "side": "oui_da", "power": 2}),
        ("vote.pass", {"house": "Julius", "why": "power"}),
        ("vote.cast", {"house": "Armin", "side": "nenni", "power": 3}),
        ("leader.moves", {"house": "Armin", "power": 3}),
        ("vote.add", {"house": "Théodore", "power": 2, "total": 4}),
        ("leader.moves", {"house": "Théodore", "power": 4}),
        ("vote.stand", {"house": "Julius"}),
        ("vote.stand", {"house": "Armin"}),
        ("vote.totals", {"oui_da": 4, "nenni": 3}),
        ("balance.shared", {"each": 3, "houses": ["Julius"], "left": 0}),
        ("outcome", {"side": "oui_da", "title": "Dilemme 0", "text": "Oui."}),
        *_moved(("influence", 7, 10, True), ("morale", 7, 6, False)),
    ]
    assert s["stability"] == 10 + 3 - 1


def test_the_journal_of_a_tie_settled_by_a_new_moderator():
    b, s = table(n=3, leader=T, moderator=J)
    n = len(s["log"])
    s = pass_(b, s, T, "moderator")
    s = vote(b, s, J, "oui_da", 2)
    s = vote(b, s, A, "nenni", 2)
    s = act(b, s, T, "stand")
    s = act(b, s, T, "decide", side="nenni")
    assert _journal(s, n) == [
        ("vote.pass", {"house": "Théodore", "why": "moderator"}),
        ("vote.cast", {"house": "Julius", "side": "oui_da", "power": 2}),
        ("leader.moves", {"house": "Julius", "power": 2}),
        ("vote.cast", {"house": "Armin", "side": "nenni", "power": 2}),
        ("vote.stand", {"house": "Théodore"}),
        ("vote.totals", {"oui_da": 2, "nenni": 2}),
        ("moderator.decides", {"house": "Théodore", "side": "nenni"}),
        ("leader.moves", {"house": "Armin", "power": 2}),
        ("outcome", {"side": "nenni", "title": "Dilemme 0", "text": "Non."}),
        *_moved(("influence", 7, 6, False), ("morale", 7, 9, True)),
        ("chronicle.stuck", {"card": "1", "title": "t", "resource": "morale",
                             "polarity": "negative", "signer": "Armin", "slot": 0}),
    ]  # fmt: skip
    assert [x["coins"] for x in s["seats"]] == [11, 10, 10]
    assert [x["power"] for x in s["seats"]] == [8, 8, 6] and s["balance"] == 3 + 2


def test_the_journal_when_the_moderator_chooses_the_leader():
    b, s = table(n=3, leader=T, moderator=J)
    n = len(s["log"])
    s = vote(b, s, T, "nenni", 3)
    s = vote(b, s, J, "oui_da", 2)
    s = vote(b, s, A, "oui_da", 2)
    s = act(b, s, J, "choose_leader", leader=A)
    assert _journal(s, n) == [
        ("vote.cast", {"house": "Théodore", "side": "nenni", "power": 3}),
        ("vote.cast", {"house": "Julius", "side": "oui_da", "power": 2}),
        ("vote.cast", {"house": "Armin", "side": "oui_da", "power": 2}),
        ("vote.totals", {"oui_da": 4, "nenni": 3}),
        ("leader.chosen", {"house": "Armin"}),
        ("outcome", {"side": "oui_da", "title": "Dilemme 0", "text": "Oui."}),
        *_moved(("influence", 7, 10, True), ("morale", 7, 6, False)),
    ]
    assert [x["power"] for x in s["seats"]] == [8, 6, 6] and s["balance"] == 3 + 4


def test_the_journal_when_everyone_passes():
    b, s = table(n=3, leader=T, moderator=A)
    n = len(s["log"])
    for seat in (T, J, A):
        s = pass_(b, s, seat)
    s = act(b, s, A, "decide", side="oui_da")
    assert _journal(s, n) == [
        ("vote.pass", {"house": "Théodore", "why": "power"}),
        ("vote.pass", {"house": "Julius", "why": "power"}),
        ("vote.pass", {"house": "Armin", "why": "power"}),
        ("vote.totals", {"oui_da": 0, "nenni": 0}),
        ("moderator.decides", {"house": "Armin", "side": "oui_da"}),
        ("leader.moderator", {"house": "Armin"}),
        ("balance.shared", {"each": 1, "houses": ["Théodore", "Julius", "Armin"], "left": 0}),
        ("outcome", {"side": "oui_da", "title": "Dilemme 0", "text": "Oui."}),
        *_moved(("influence", 7, 10, True), ("morale", 7, 6, False)),
    ]
    assert [x["coins"] for x in s["seats"]] == [11, 11, 11]
    assert [x["power"] for x in s["seats"]] == [9, 9, 9] and s["balance"] == 0


def test_an_outcome_may_mark_its_card_with_a_skull_for_this_round_only():
    """An outcome's skull effect counts for the card it resolves, on the skull slot; a skull
    left over from before the vote (an Immediate card's) does not."""
    b = bundle_with(X={"oui_da": [{"skull": True}]}, Y={"oui_da": []})
    for card, stale, dies in (("X", False, True), ("Y", True, False), ("Y", False, False)):
        b, s = table(b, n=3, card=card)
        s["timeline"] = [{"card": f"old{i}", "side": "oui_da"} for i in range(9)]
        if stale:
            s["skull_now"] = True
        for seat in (T, J, A):
            s = vote(b, s, seat, "oui_da", 1)
        assert s["king_dead"] is dies, (card, stale)
        assert "skull_now" not in s


def test_an_outcome_without_title_or_text_is_told_by_its_card_number():
    b = bundle_with(X={"oui_da": []})
    del b["records"]["dilemma"]["X"]["title"]
    del b["records"]["dilemma"]["X"]["oui_da"]["text"]
    b, s = table(b, n=3, card="X")
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    told = next(e["args"] for e in s["log"] if e["key"] == "outcome")
    assert told == {"side": "oui_da", "title": "X", "text": ""}


def test_the_kings_death_is_told_and_the_table_cleared():
    s = _timeline_state(skull=True, before=9)
    assert ("king.dies", {"skull": True}) in [(e["key"], e["args"]) for e in s["log"]]
    assert s["vote"] is None and s["pending"] is None
    s = _timeline_state(skull=False, before=13, cards_on_skull=4)
    assert ("king.dies", {"skull": False}) in [(e["key"], e["args"]) for e in s["log"]]


def test_an_events_end_of_round_rule_applies_after_each_dilemma():
    b = bundle_with(X={"oui_da": []})
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "Peste", "text": "…",
                                         "rules": [{"on": "round_end",
                                                    "effects": [{"welfare": -1}]}]}}  # fmt: skip
    b, s = table(b, n=3, card="X")
    s["events"] = ["EV"]
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["resources"]["welfare"]["pos"] == 6 and s["round"] == 2


def test_offers_ask_only_what_the_other_house_can_still_do():
    """To a house that has voted nothing can be bought (unless it is the moderator, for a
    tie).  A house's Pouvoir is its secret: the offers made to it are the same whatever it
    holds (issue 28: the list of offers showed which house had none); with none it can still
    only pass, which the vote's own rules enforce."""
    b, s = table(n=4, leader=A, moderator=A, power=[8, 0, 8, 8])
    s = vote(b, s, A, "oui_da", 1)
    s = vote(b, s, D, "nenni", 1)
    asks: dict[int, set] = {}
    for a in legal_actions(b, s, T):
        if a["type"] == "offer":
            asks.setdefault(a["to"], set()).add(a["ask"])
    # Armin voted but moderates; Diana voted; Julius is offered what any house is
    assert asks == {A: {"decide_oui_da", "decide_nenni"}, J: {"pass", "oui_da", "nenni"}}


def test_a_house_with_one_pouvoir_can_be_paid_to_vote():
    b, s = table(n=3, leader=T, power=[8, 1, 8])
    asks = {a["ask"] for a in legal_actions(b, s, T) if a["type"] == "offer" and a["to"] == J}
    assert {"pass", "oui_da", "nenni"} <= asks


def test_a_void_promise_about_a_tie_does_not_bind_the_next_deals():
    """Armin sold his tie to Théodore, then lost the moderator's token: Julius may still pay
    him to pass or to vote either way."""
    b, s = table(n=4, leader=T, moderator=A)
    s = act(b, s, T, "offer", to=A, coins=2, ask="decide_nenni")
    s = act(b, s, A, "answer", accept=True)
    s = pass_(b, s, T, "moderator")
    asks = {a["ask"] for a in legal_actions(b, s, J) if a["type"] == "offer" and a["to"] == A}
    assert asks == {"pass", "oui_da", "nenni"}


def test_scores_add_up_public_objectives_count_and_no_objective_scores_nothing():
    b = make_bundle()
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "peuple", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"public_points_min": 3}},
    ]  # fmt: skip
    b, s = table(b, n=3, power=[5, 2, 5])
    s["seats"][0]["objective"] = None
    s["seats"][1]["public"] = [["influence", "positive"]]
    s["seats"][2]["public"] = [["welfare", "negative"]]
    s["resources"]["influence"]["pos"] = 12
    s["resources"]["welfare"]["pos"] = 1
    s = _end(b, s)
    rows = s["result"]["rows"]
    assert (rows[0]["resources"], rows[0]["wealth"]) == (0, 0)
    for r in rows:
        assert r["total"] == r["resources"] + r["wealth"] + r["public"] + r["power"]
    assert [r["public"] for r in rows] == [0, 3, -3]
    assert [x["public_points"] for x in s["seats"]] == [0, 3, -3]
    assert s["campaign"]["houses"]["julius"]["unlocked"] == ["peuple"]


def test_the_end_of_a_game_is_told_and_saved_in_the_campaigns_history():
    b, s = table(n=3)
    for i, obj in enumerate(["moderation", "opulence", "avarice"]):
        s["seats"][i]["objective"] = obj
    s = _end(b, s)
    rows = s["result"]["rows"]
    assert [r["objective"] for r in rows] == ["moderation", "opulence", "avarice"]
    assert [r["house"] for r in rows] == ["théodore", "julius", "armin"]
    assert set(rows[0]) == {"house", "name", "objective", "public", "resources", "wealth",
                            "power", "total", "rank", "prestige", "craving"}  # fmt: skip
    end = next(e["args"] for e in s["log"] if e["key"] == "game.end")
    assert end == {"ending": "died", "winners": s["result"]["winners"]}
    assert s["result"]["ending"] == "died" and s["phase"] == "over"
    saved = s["campaign"]["history"][-1]
    assert saved["game"] == 1 and saved["ending"] == "died" and saved["rows"] == rows
    assert saved["resources"] == {r: m["pos"] for r, m in s["resources"].items()}
    assert saved["stability"] == s["stability"]
    assert [s["campaign"]["houses"][h]["objectives"] for h in ("théodore", "julius", "armin")] == [
        ["moderation"], ["opulence"], ["avarice"]]  # fmt: skip


def test_phases_follow_the_round():
    b, s = table(n=3, leader=T, moderator=A)
    assert s["phase"] == "vote" and s["vote"]["turn"] == T
    s = vote(b, s, T, "oui_da", 1)
    assert s["vote"]["turn"] == J and s["pending"] == {"type": "vote", "seat": J}
    s = vote(b, s, J, "nenni", 1)
    s = pass_(b, s, A)
    assert s["phase"] == "decide" and s["pending"]["all_pass"] is False
    s = act(b, s, A, "decide", side="oui_da")
    assert s["phase"] == "vote" and s["round"] == 2 and s["vote"]["winner"] is None
    assert s["vote"]["votes"] == [{"kind": None, "power": 0, "coin": 0}] * 3
    assert s["vote"]["promises"] == {} and s["vote"]["offers_made"] == []
    assert not s["vote"]["moderator_taken"] and s["vote"]["turn"] == s["leader"]
    assert s["timeline"] == [{"card": "D0", "side": "oui_da"}]


def test_abilities_triggered_by_the_vote_winning_with_more_than_five_losing_or_passing():
    """The Gamam screen's example: stake more than 5 Pouvoir on the winning side, gain 2
    prestige; and abilities on a lost vote or a pass for Pouvoir."""
    b = make_bundle()
    ability = {"trigger": "condition", "text": "…"}
    for house, when, extra in (
        ("julius", "won_vote", {"power_min": 6}),
        ("armin", "lost_vote", {}),
        ("théodore", "passed_for_power", {}),
    ):
        b["records"]["house"][house]["achievements"] = [
            {
                "id": "x",
                "kind": "mechanic",
                "condition": "…",
                "boxes": 1,
                "ability": {**ability, "when": when, **extra, "gains": {"prestige": 2}},
            }
        ]
    for stake, gained in ((6, 2), (5, 0)):
        b2, s = table(b, n=3, leader=T)
        for h in ("julius", "armin", "théodore"):
            s["campaign"]["houses"][h]["unlocked"] = ["x"]
        s = pass_(b2, s, T)
        s = vote(b2, s, J, "oui_da", stake)
        s = vote(b2, s, A, "nenni", 1)
        s = act(b2, s, T, "stand")
        houses = s["campaign"]["houses"]
        assert houses["julius"]["prestige"] == gained, stake
        assert houses["armin"]["prestige"] == 2 and houses["théodore"]["prestige"] == 2


def test_an_immediate_card_is_told_signed_by_the_leader_and_may_end_the_game():
    b = make_bundle()
    _sticker(b, "5", "welfare", "positive")
    b["records"]["immediate_card"] = {
        "I1": {"id": "I1", "title": "Vite", "text": "Le grenier brûle.",
               "effects": [{"chronicle_sticker": "5"}]},
        "I2": {"id": "I2", "title": "Chute", "text": "Le roi vacille.",
               "effects": [{"knowledge": -9}]},
    }  # fmt: skip
    b, s = table(b, n=3, leader=J)
    s["deck"].append("I1")
    for seat in (J, A, T):
        s = vote(b, s, seat, "oui_da", 1)
    told = [(e["key"], e["args"]) for e in s["log"] if e["key"] == "immediate.drawn"]
    assert told == [("immediate.drawn", {"title": "Vite", "text": "Le grenier brûle.",
                                         "card": "I1"})]  # fmt: skip
    assert s["campaign"]["chronicle"]["welfare"][0]["signer"] == s["seats"][s["leader"]]["house"]
    start = [e["args"] for e in s["log"] if e["key"] == "round.start"][-1]
    assert start == {"round": 2, "title": b["records"]["dilemma"][s["vote"]["card"]]["title"]}
    # an Immediate card that makes the king abdicate: the round goes on (the next card is
    # voted and resolved), the game ends at the end of that round
    b, s = table(b, n=3, leader=J)
    s["stability"] = 2
    s["deck"].append("I2")
    for seat in (J, A, T):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["abdicated"] and s["phase"] == "vote" and s["round"] == 2


def test_an_empty_deck_flags_the_kings_death():
    b, s = table(n=3)
    s["deck"] = []
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["king_dead"] is True


def test_an_ability_triggered_by_becoming_moderator():
    b = make_bundle()
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "x", "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "condition", "when": "became_moderator", "text": "…",
                     "gains": {"coins": 2}}}]  # fmt: skip
    b, s = table(b, n=3, leader=J, moderator=A)
    s["campaign"]["houses"]["julius"]["unlocked"] = ["x"]
    s = pass_(b, s, J, "moderator")
    assert s["seats"][J]["coins"] == 12 and s["moderator"] == J


def test_achievements_only_when_their_condition_holds_and_game_end_abilities():
    b = make_bundle()
    b["records"]["house"]["théodore"]["achievements"] = [
        {"id": "riche", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"coins_min": 30}},
        {"id": "mort", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"king": "died"}},
        {"id": "abdique", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"king": "abdicated"}},
        {"id": "avarice", "kind": "alignment", "objective": "avarice", "condition": "…",
         "boxes": 1},
        {"id": "fin", "kind": "narrative", "condition": "…", "boxes": 1},
    ]  # fmt: skip
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "bilan", "kind": "mechanic", "condition": "…", "boxes": 1, "test": {},
         "ability": {"trigger": "condition", "when": "game_end", "text": "…",
                     "gains": {"craving": 1}}},
    ]  # fmt: skip
    b, s = table(b, n=3)
    s["campaign"]["houses"]["julius"]["unlocked"] = ["bilan"]
    s["seats"][0]["objective"] = "opulence"
    s = _end(b, s)
    assert s["campaign"]["houses"]["théodore"]["unlocked"] == ["mort"]
    julius = s["campaign"]["houses"]["julius"]
    row = next(r for r in s["result"]["rows"] if r["house"] == "julius")
    assert julius["craving"] == row["craving"] + 1


# =========================================================================== Cartes Événement


def test_an_event_card_is_put_in_play_once_told_by_title_set_up_and_signed_by_the_leader():
    """« Cartes Événement »: an outcome puts the card in the Events zone (where it stays, from
    one game to the next, until the event ends); its own set-up instructions apply at once,
    signed by the leader who signs the outcome; a card already in play is not put in twice."""
    b = bundle_with(X={"oui_da": [{"event": "EV"}, {"event": "EV"}]})
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "La grande foire", "text": "…",
                                         "effects": [{"chronicle_sticker": "1"}]}}  # fmt: skip
    b, s = table(b, n=3, card="X", leader=J)
    n = len(s["log"])
    for seat in (J, A, T):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["events"] == ["EV"]
    started = [e for e in s["log"][n:] if e["key"] == "event.start"]
    assert started == [{"key": "event.start", "args": {"title": "La grande foire", "card": "EV"}}]
    stuck = [x for x in s["campaign"]["chronicle"]["morale"] if x]
    assert [(x["id"], x["signer"]) for x in stuck] == [("1", "julius")]
    assert [x["signed"] for x in s["seats"]] == [0, 1, 0]
    s = _end(b, s)
    assert s["campaign"]["events"] == ["EV"]  # kept for the next game
    nxt = new_game(
        b, copy.deepcopy(s["campaign"]), [{"house": h} for h in ("armin", "julius", "diana")], 4
    )
    assert nxt["events"] == ["EV"]


# =========================================================================== Grand final


def _final(b: dict, houses: dict[str, tuple[int, int]], cohesion: int, dissension: int) -> dict:
    """The sixth secret sticker stuck by a vote of three houses, prestige and craving as given
    (before the game's own), Cohésion and Dissension as the epilogues left them."""
    b = {**b, "records": {**b["records"], "dilemma": {**b["records"]["dilemma"], "X": {
        "id": "X", "title": "X", "question": "?", "preview": {},
        "oui_da": {"text": "oui", "effects": [{"secret_sticker": "F"}]},
        "nenni": {"text": "non", "effects": []}}}}}  # fmt: skip
    b["records"]["envelope"] = {**b["records"]["envelope"], "70": {"id": 70, "story": "H70",
                                                                  "cards": []}}  # fmt: skip
    b["records"]["story_card"] = {
        **b["records"]["story_card"],
        "H70": {"id": "H70", "arc": "a", "title": "Fin", "text": "…", "signature": True},
    }
    b, s = table(b, n=3, card="X")
    camp = s["campaign"]
    camp["secret_stickers"] = list("ABCDE")
    camp["cohesion"], camp["dissension"] = cohesion, dissension
    for h, (prestige, craving) in houses.items():
        camp["houses"][h].update(prestige=prestige, craving=craving)
    for h in camp["houses"]:
        if h not in houses:
            camp["houses"][h].update(prestige=0, craving=0)
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert s["campaign"]["finished"]
    return s


def test_grand_final_dissension_weighs_craving_double_and_the_journal_names_the_winner():
    """Our ruling (rules page, « Le Grand final »): when Dissension outweighs Cohésion, each
    craving point counts double and each prestige point once; the winner and the mood are told
    and kept in the campaign."""
    b = make_bundle()
    s = _final(b, {"théodore": (9, 0), "julius": (0, 6)}, cohesion=1, dissension=3)
    camp = s["campaign"]
    gained = {r["house"]: (r["prestige"], r["craving"]) for r in s["result"]["rows"]}
    for h, (p, c) in gained.items():
        base = {"théodore": (9, 0), "julius": (0, 6)}.get(h, (0, 0))
        assert camp["final_scores"][h] == (base[0] + p) + 2 * (base[1] + c)
    assert camp["mood"] == "dissension"
    best = max(camp["final_scores"].values())
    assert camp["winner"] == max(
        camp["final_scores"],
        key=lambda h: (camp["final_scores"][h], b["records"]["house"][h]["number"]),
    )
    told = [e for e in s["log"] if e["key"] == "campaign.winner"]
    name = b["records"]["house"][camp["winner"]]["name"]
    assert told == [{"key": "campaign.winner",
                     "args": {"house": name, "mood": "dissension", "score": best}}]  # fmt: skip


def test_grand_final_a_tie_of_moods_is_cohesion_and_the_campaign_may_set_its_own_weights():
    """Cohésion equal to Dissension counts as Cohésion (prestige double by default); a
    campaign's own « final_scoring » replaces the weights; a tie of final scores goes to the
    higher house number."""
    b = make_bundle()
    s = _final(b, {"théodore": (5, 0), "julius": (0, 5)}, cohesion=2, dissension=2)
    assert s["campaign"]["mood"] == "cohesion"
    rows = {r["house"]: (r["prestige"], r["craving"]) for r in s["result"]["rows"]}
    p, c = rows["théodore"]
    assert s["campaign"]["final_scores"]["théodore"] == 2 * (5 + p) + c
    b = make_bundle()
    b["campaign"]["final_scoring"] = {"cohesion": {"prestige": 0, "craving": 0},
                                      "dissension": {"prestige": 1, "craving": 1}}  # fmt: skip
    s = _final(b, {"théodore": (5, 0), "julius": (0, 5)}, cohesion=4, dissension=0)
    finals = s["campaign"]["final_scores"]
    assert set(finals.values()) == {0}  # every house scores 0 with these weights
    assert s["campaign"]["winner"] == max(finals, key=lambda h: b["records"]["house"][h]["number"])


def test_before_the_first_game_the_start_envelope_is_opened_and_nothing_is_won_yet():
    """« Avant votre première partie »: the campaign's starting envelope (00 unless the campaign
    names another) is opened, its dilemmas shuffled into the deck by the campaign's own seeded
    generator; the campaign is saved with its format and its id; no winner, no final scores."""
    from engine.core import Rng
    from engine.dilemme.common import FORMAT_VERSION

    b = make_bundle()
    camp = new_campaign(b, 5)
    assert camp["format_version"] == FORMAT_VERSION and camp["campaign"] == "test"
    assert (camp["finished"], camp["winner"], camp["final_scores"]) == (False, None, {})
    assert camp["opened"] == ["00"]
    assert sorted(camp["deck"]) == sorted(b["records"]["envelope"]["00"]["cards"])
    assert camp == new_campaign(b, 5)  # the same seed, the same campaign
    assert new_campaign(b) == new_campaign(b, 0)  # no seed: seed 0
    assert isinstance(camp["rng"], int) and camp["rng"] != Rng.seed_from("campaign:5")  # used
    b["records"]["envelope"]["03"] = {"id": 3, "story": "H0", "cards": ["D1", "D2"]}
    b["campaign"]["start_envelope"] = 3
    assert new_campaign(b, 5)["opened"] == ["03"]
    del b["campaign"]["start_envelope"]
    assert new_campaign(b, 5)["opened"] == ["00"]


def test_a_special_start_envelope_puts_its_event_in_play_and_unlocks_before_the_first_game():
    """A special envelope is followed as its cards say, the starting one too: its event card
    goes to the Events zone, where the first game finds it; a narrative achievement it unlocks
    gives its immediate Prestige to the house's screen, though no one sits at a table yet; a
    chronicle sticker it sticks is signed by no one; a card it removes leaves the deck, one it
    shuffles in joins it."""
    b = make_bundle()
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "La foire", "text": "…"}}
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "n2", "kind": "narrative", "boxes": 1, "condition": "…",
         "ability": {"trigger": "immediate", "text": "…", "gains": {"prestige": 2}}}]  # fmt: skip
    b["records"]["envelope"]["00"].update(
        special=True, cards=[*b["records"]["envelope"]["00"]["cards"], "EV"],
        effects=[{"achievement": "julius/n2"}, {"chronicle_sticker": "1"}, {"remove_card": "D1"},
                 {"shuffle_in": "N0"}],
    )  # fmt: skip
    b["records"]["dilemma"]["N0"] = dict(b["records"]["dilemma"]["D0"], id="N0", title="N0")
    camp = new_campaign(b, 5)
    assert camp["events"] == ["EV"] and "EV" not in camp["deck"] and "D1" not in camp["deck"]
    assert "N0" in camp["deck"]
    assert camp["chronicle"]["morale"][0] == {"id": "1", "polarity": "negative", "signer": None,
                                              "ticks": 0}  # fmt: skip
    assert camp["houses"]["julius"]["unlocked"] == ["n2"]
    assert camp["houses"]["julius"]["prestige"] == 2
    s = new_game(b, camp, [{"house": h} for h in ("théodore", "julius", "armin")], 5)
    assert s["events"] == ["EV"]


def test_event_rules_each_that_fits_the_move_adds_and_their_effects_are_signed_by_the_leader():
    """An event card's rules apply when their moment comes: every rule of the cards in play
    that fits the move (its moment, and its resource or any) adds its squares, the others
    none; a rule's own effects are signed by the leader, and the moves they make are not
    themselves enlarged by the events (one event never feeds on itself)."""
    b = bundle_with(X={"oui_da": [{"prosperity": 1}]})
    rules = [
        {"on": "resource_down", "extra": 5},  # another moment
        {"on": "resource_up", "resource": "morale", "extra": 5},  # another resource
        {"on": "resource_up", "resource": "prosperity", "extra": 1},
        {"on": "resource_up", "extra": 1},  # any resource
        {"on": "resource_up", "resource": "prosperity",
         "effects": [{"chronicle_sticker": "1"}, {"welfare": 1}]},
    ]  # fmt: skip
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "Foire", "text": "…", "rules": rules}}
    b, s = table(b, n=3, card="X", leader=J)
    s["events"] = ["EV"]
    for seat in (J, A, T):
        s = vote(b, s, seat, "oui_da", 1)
    # 1 + 2 from the events + 1 of progression (same direction): 7 → 11
    assert s["resources"]["prosperity"]["pos"] == 11
    # the rule's own move: 1 + 1 of progression, no event squares: 7 → 9
    assert s["resources"]["welfare"]["pos"] == 9
    stuck = [x for x in s["campaign"]["chronicle"]["morale"] if x]
    assert [(x["id"], x["signer"]) for x in stuck] == [("1", "julius")]


def test_an_event_card_without_a_title_is_told_by_its_number():
    b = bundle_with(X={"oui_da": [{"event": "E7"}]})
    b["records"]["event_card"] = {"E7": {"id": "E7", "text": "…"}}
    b, s = table(b, n=3, card="X")
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    assert {"key": "event.start", "args": {"title": "E7", "card": "E7"}} in s["log"]


# =========================================================================== Hauts faits narratifs


def test_a_narrative_achievement_unlocks_at_once_and_closes_its_exclusive_rival():
    """« Événement narratif » (🔑 on the back of a card): the house's narrative achievement is
    unlocked at once, all its boxes ticked; some are mutually exclusive: once a house has
    unlocked its own, the rival one is closed, and the journal says so."""
    b = bundle_with(X={"oui_da": [{"achievement": "julius/n2"}, {"achievement": "théodore/n1"},
                                  {"achievement": "armin/n3"}]})  # fmt: skip
    houses = b["records"]["house"]
    houses["théodore"]["achievements"] = [{"id": "n1", "kind": "narrative", "boxes": 1,
                                           "condition": "Le pacte du sel",
                                           "exclusive_with": ["julius/n2"]}]  # fmt: skip
    houses["julius"]["achievements"] = [{"id": "n2", "kind": "narrative", "boxes": 1,
                                         "condition": "La ligue des ports",
                                         "exclusive_with": ["théodore/n1"]}]  # fmt: skip
    houses["armin"]["achievements"] = [{"id": "n3", "kind": "narrative", "boxes": 2,
                                        "condition": "Le serment des Brandes"}]  # fmt: skip
    b, s = table(b, n=3, card="X")
    n = len(s["log"])
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    camp = s["campaign"]["houses"]
    assert camp["julius"]["unlocked"] == ["n2"] and camp["armin"]["unlocked"] == ["n3"]
    assert camp["théodore"]["unlocked"] == [] and "n1" not in camp["théodore"]["ticks"]
    told = [e for e in s["log"][n:] if e["key"].startswith("achievement.")]
    assert told == [
        {"key": "achievement.unlocked",
         "args": {"house": "Julius", "achievement": "La ligue des ports"}},
        {"key": "achievement.closed",
         "args": {"house": "Théodore", "achievement": "Le pacte du sel"}},
        {"key": "achievement.unlocked",
         "args": {"house": "Armin", "achievement": "Le serment des Brandes"}},
    ]  # fmt: skip


def test_grand_final_opens_the_envelope_the_campaign_names_70_unless_told():
    b = make_bundle()
    b["campaign"]["grand_final"] = 71
    b["records"]["envelope"]["71"] = {"id": 71, "story": "H70", "cards": []}
    opened = _final(b, {}, cohesion=1, dissension=0)["campaign"]["opened"]
    assert "71" in opened and "70" not in opened
    b = make_bundle()
    del b["campaign"]["grand_final"]
    assert "70" in _final(b, {}, cohesion=1, dissension=0)["campaign"]["opened"]


def test_grand_final_its_story_card_is_signed_by_the_leader_and_a_missing_weight_counts_once():
    b = make_bundle()
    b["campaign"]["final_scoring"] = {"cohesion": {"craving": 3}, "dissension": {}}
    s = _final(b, {"théodore": (2, 1)}, cohesion=1, dissension=0)
    leader = s["seats"][s["leader"]]["house"]
    assert {"card": "H70", "signer": leader} in [
        {"card": e["card"], "signer": e.get("signer")} for e in s["campaign"]["arcs"]["a"]
    ]
    rows = {r["house"]: (r["prestige"], r["craving"]) for r in s["result"]["rows"]}
    p, c = rows["théodore"]
    assert s["campaign"]["final_scores"]["théodore"] == (2 + p) + 3 * (1 + c)


def test_grand_final_a_missing_craving_weight_counts_once():
    b = make_bundle()
    b["campaign"]["final_scoring"] = {"cohesion": {"prestige": 3}, "dissension": {}}
    s = _final(b, {"théodore": (2, 4)}, cohesion=1, dissension=0)
    rows = {r["house"]: (r["prestige"], r["craving"]) for r in s["result"]["rows"]}
    p, c = rows["théodore"]
    assert s["campaign"]["final_scores"]["théodore"] == 3 * (2 + p) + (4 + c)


# =========================================================== Cartes Histoire, cartes Épilogue


def _opening(b: dict, *cards: dict, leader: int = A) -> tuple[dict, dict, int]:
    """Envelope 09, opened by Oui-Da on X, holds ``cards`` (story cards or epilogues, by their
    ``kind``); three houses vote, ``leader`` signs.  Returns the bundle, the state before the
    vote and the log's length then."""
    b["records"]["dilemma"]["X"] = dict(
        b["records"]["dilemma"]["D0"],
        id="X",
        oui_da={"text": "oui", "effects": [{"open_envelope": 9}]},
    )
    b["records"].setdefault("epilogue", {})
    for c in cards:
        rec = {"arc": "a", "title": c["id"], "text": "…", **c}
        b["records"][rec.pop("kind", "story_card")][c["id"]] = rec
    first, *rest = (c["id"] for c in cards)
    b["records"]["envelope"]["09"] = {"id": 9, "story": first, "cards": rest}
    b, s = table(b, n=3, card="X", leader=leader)
    return b, s, len(s["log"])


def _oui_da(b: dict, s: dict) -> dict:
    for k in range(3):
        s = vote(b, s, (s["leader"] + k) % 3, "oui_da", 1)
    return s


def test_a_story_card_is_told_in_the_journal_with_its_signer():
    """« Ouvrir une enveloppe »: the story card is read and laid on its arc, the leader signing
    it when it has a signature box; the journal says which card, on which arc, signed by whom."""
    b, s, n = _opening(make_bundle(), {"id": "H5", "title": "Suite", "signature": True},
                       {"id": "H6", "title": "Sans nom", "arc": "b"})  # fmt: skip
    s = _oui_da(b, s)
    laid = [e for e in s["log"][n:] if e["key"] == "story.laid"]
    assert laid == [
        {"key": "story.laid", "args": {"title": "Suite", "arc": "a", "signer": "Armin"}},
        {"key": "story.laid", "args": {"title": "Sans nom", "arc": "b", "signer": None}},
    ]
    assert s["campaign"]["arcs"]["b"] == [{"card": "H6", "signer": None}]


def test_only_a_card_with_a_signature_box_counts_as_signed_by_the_leader():
    """« Signer »: the leader signs the story card « si besoin », when it has a signature box;
    what a house has signed counts for its achievements (``signed_min``)."""
    for signature, signed in ((True, 2), (False, 1)):
        b, s, _ = _opening(make_bundle(), {"id": "H5", "signature": signature})
        s["seats"][A]["signed"] = 1  # a chronicle sticker signed earlier in the game
        assert _oui_da(b, s)["seats"][A]["signed"] == signed


def test_signing_a_story_card_triggers_the_signers_abilities():
    """« Capacités spéciales »: an ability triggered when its house signs something (a story
    card as well as a chronicle sticker) gives its gains to the signer, and to no one else."""
    b = make_bundle()
    for h in ("armin", "théodore"):
        b["records"]["house"][h]["achievements"] = [
            {"id": "plume", "kind": "mechanic", "condition": "…", "boxes": 1,
             "ability": {"trigger": "condition", "when": "signed", "text": "…",
                         "gains": {"coins": 2}}}]  # fmt: skip
    b, s, n = _opening(b, {"id": "H5", "signature": True})
    for h in ("armin", "théodore"):
        s["campaign"]["houses"][h]["unlocked"] = ["plume"]
    s = _oui_da(b, s)
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Armin", "why": "ability", "coins": 2}]
    assert s["seats"][A]["coins"] == 10 + 2 and s["seats"][T]["coins"] == 10


def test_a_story_cards_immediate_ability_goes_to_its_signer_only_when_laid():
    """« Légende des capacités spéciales »: an immediate ability of a story card applies when
    the card is played on the board, and only the signer takes its Prestige, coins or Pouvoir;
    its abilities of other kinds wait for their moment."""
    card = {"id": "H5", "signature": True, "abilities": [
        {"trigger": "immediate", "text": "…", "gains": {"prestige": 2, "coins": 1}},
        {"trigger": "game_start", "text": "…", "gains": {"coins": 5}},
    ]}  # fmt: skip
    b, s, n = _opening(make_bundle(), card)
    s = _oui_da(b, s)
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Armin", "why": "story", "coins": 1, "prestige": 2}]
    assert s["campaign"]["houses"]["armin"]["prestige"] == 2
    assert [x["coins"] for x in s["seats"]] == [10, 10, 11]
    # unsigned, the same card gives nothing to anyone
    b, s, n = _opening(make_bundle(), {**card, "signature": False})
    s = _oui_da(b, s)
    assert [e for e in s["log"][n:] if e["key"] == "gain"] == []
    assert [x["coins"] for x in s["seats"]] == [10, 10, 10]


def test_epilogues_add_their_cohesion_and_dissension_to_the_campaigns():
    """« Cartes Épilogue »: the Cohésion or Dissension value of each epilogue counts at the
    Grand final: they add up over the campaign, a card giving one leaves the other as it was."""
    b, s, _ = _opening(make_bundle(), {"id": "EP1", "kind": "epilogue", "cohesion": 2},
                       {"id": "EP2", "kind": "epilogue", "arc": "b", "dissension": 1})  # fmt: skip
    s["campaign"]["cohesion"], s["campaign"]["dissension"] = 1, 2
    s = _oui_da(b, s)
    camp = s["campaign"]
    assert (camp["cohesion"], camp["dissension"]) == (3, 3)
    assert camp["epilogues"] == ["EP1", "EP2"]


def test_majority_signer_bonus_to_a_house_at_the_table_is_a_gain_told_in_the_journal():
    """« Bonus de signataire majoritaire »: the house that signed most cards of the arc (the
    epilogue included) takes the bonus at once: coins to its reserve, Prestige on its screen."""
    b, s, n = _opening(
        make_bundle(),
        {
            "id": "EP",
            "kind": "epilogue",
            "signature": True,
            "majority_signer_bonus": {"coins": 2, "prestige": 1},
        },
    )
    s["campaign"]["arcs"]["a"] = [{"card": "H0", "signer": "julius"}]
    s = _oui_da(b, s)  # Armin signs the epilogue: one card each, a tie
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Julius", "why": "majority", "coins": 2, "prestige": 1},
                     {"house": "Armin", "why": "majority", "coins": 2, "prestige": 1}]  # fmt: skip
    assert [x["coins"] for x in s["seats"]] == [10, 12, 12]
    houses = s["campaign"]["houses"]
    assert [houses[h]["prestige"] for h in ("théodore", "julius", "armin")] == [0, 1, 1]


@pytest.mark.parametrize(
    "bonus,after",
    [({"prestige": 2, "craving": 1}, (6, 4)), ({"craving": 2}, (4, 5)), ({"prestige": 3}, (7, 3))],
)
def test_majority_signer_bonus_to_a_house_not_at_the_table_goes_on_its_screen(bonus, after):
    """The majority signer may not play this game: its house screen still takes the bonus's
    Prestige and Convoitise (Diana: 4 and 3 before, two cards of the arc signed)."""
    b, s, _ = _opening(
        make_bundle(),
        {"id": "EP", "kind": "epilogue", "signature": True, "majority_signer_bonus": bonus},
    )
    s["campaign"]["arcs"]["a"] = [{"card": "H0", "signer": "diana"}] * 2
    s["campaign"]["houses"]["diana"].update(prestige=4, craving=3)
    s = _oui_da(b, s)
    diana = s["campaign"]["houses"]["diana"]
    assert (diana["prestige"], diana["craving"]) == after
    assert s["campaign"]["houses"]["armin"]["prestige"] == 0


def test_majority_signer_bonus_when_no_card_of_the_arc_is_signed_goes_to_no_one():
    b, s, n = _opening(
        make_bundle(), {"id": "EP", "kind": "epilogue", "majority_signer_bonus": {"prestige": 3}}
    )
    s = _oui_da(b, s)
    assert s["campaign"]["epilogues"] == ["EP"]
    assert [e for e in s["log"][n:] if e["key"] == "gain"] == []
    assert all(h["prestige"] == 0 for h in s["campaign"]["houses"].values())


def test_an_epilogue_with_a_key_unlocks_its_narrative_achievement():
    """« Événement narratif »: a key on the back of an epilogue unlocks a house's narrative
    achievement (one box unless told)."""
    b = make_bundle()
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "n2", "kind": "narrative", "condition": "La ligue des ports"}
    ]
    b, s, n = _opening(b, {"id": "EP", "kind": "epilogue", "narrative_achievement": "julius/n2"})
    s = _oui_da(b, s)
    assert s["campaign"]["houses"]["julius"]["unlocked"] == ["n2"]
    assert {
        "key": "achievement.unlocked",
        "args": {"house": "Julius", "achievement": "La ligue des ports"},
    } in s["log"][n:]


def test_a_key_for_an_achievement_the_house_does_not_have_unlocks_nothing():
    b, s, n = _opening(make_bundle(), {"id": "EP", "kind": "epilogue",
                                       "narrative_achievement": "julius/n9"})  # fmt: skip
    s = _oui_da(b, s)
    assert s["campaign"]["epilogues"] == ["EP"]
    assert s["campaign"]["houses"]["julius"]["unlocked"] == []
    assert not [e for e in s["log"][n:] if e["key"].startswith("achievement.")]


def test_an_envelope_naming_a_card_the_campaign_lacks_fails_naming_it():
    b, s, _ = _opening(make_bundle(), {"id": "H5"})
    b["records"]["envelope"]["09"]["cards"] = ["ZZ9"]
    with pytest.raises(KeyError, match="ZZ9"):
        _oui_da(b, s)


# ================================================== conditions on a card (« si … »): branch


def test_a_branch_follows_what_the_campaign_holds():
    """A card's outcome may depend on the story so far (« si … »): a flag set or not, an
    envelope opened, a chronicle sticker or a secret sticker stuck, enough secret stickers, a
    resource at least at a square, one of several conditions; all its conditions must hold."""
    conditions = [
        ([{"flag": "pacte"}], True), ([{"flag": "guerre"}], False),
        ([{"not_flag": "guerre"}], True), ([{"not_flag": "pacte"}], False),
        ([{"envelope": 5}], True), ([{"envelope": 6}], False),
        ([{"chronicle_sticker": 1}], True), ([{"chronicle_sticker": 2}], False),
        ([{"secret_sticker": "A"}], True), ([{"secret_sticker": "C"}], False),
        ([{"secret_stickers": 2}], True), ([{"secret_stickers": 3}], False),
        ([{"resource": {"influence": 9}}], True), ([{"resource": {"influence": 10}}], False),
        ([{"any": [{"flag": "guerre"}, {"envelope": 5}]}], True),
        ([{"any": [{"flag": "guerre"}, {"envelope": 6}]}], False),
        ([{"flag": "pacte"}, {"envelope": 6}], False),
    ]  # fmt: skip
    branches = [
        {"branch": {"requires": cond, "then": [{"flag": f"oui{i}"}],
                    "otherwise": [{"flag": f"non{i}"}]}}
        for i, (cond, _) in enumerate(conditions)
    ]  # fmt: skip
    b, s = table(bundle_with(X={"oui_da": branches}), n=3, card="X")
    camp = s["campaign"]
    camp["flags"] = ["pacte"]
    camp["opened"].append("05")
    camp["chronicle"]["morale"][1] = {"id": "1", "polarity": "negative", "signer": None,
                                      "ticks": 0}  # fmt: skip
    camp["secret_stickers"] = ["A", "B"]
    s["resources"]["influence"]["pos"] = 9
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    flags = s["campaign"]["flags"]
    assert flags == ["pacte"] + [
        f"oui{i}" if holds else f"non{i}" for i, (_, holds) in enumerate(conditions)
    ]


# ===================================================== Hauts faits, vérifier (fin de partie)


def _tests_at_the_end(tests: dict[str, dict], stability: int = 10) -> dict[str, list[str]]:
    """Every house's screen holds one mechanic achievement per test; three houses end the
    game (the king dies) with influence 12 and prosperity 12 on top, morale 2 at the bottom,
    Théodore and Armin first, Julius third, Théodore having signed once.  Returns what each
    house unlocked."""
    b = bundle_with(X={})
    for h in ("théodore", "julius", "armin"):
        b["records"]["house"][h]["achievements"] = [
            {"id": k, "kind": "mechanic", "condition": k, "boxes": 1, "test": t}
            for k, t in tests.items()
        ]
    b, s = table(b, n=3, card="X")
    for res, pos in zip(RESOURCES, (12, 12, 2, 7, 5), strict=True):
        s["resources"][res]["pos"] = pos
    s["stability"] = stability
    s["seats"][T]["signed"] = 1
    s = _end(b, s)
    assert [r["rank"] for r in s["result"]["rows"]] == [1, 3, 1]
    assert [(x["coins"], x["power"]) for x in s["seats"]] == [(11, 9)] * 3
    return {h: s["campaign"]["houses"][h]["unlocked"] for h in ("théodore", "julius", "armin")}


def test_end_of_game_achievements_on_resources_wealth_rank_and_signatures():
    """« Vérifier les hauts faits »: a house ticks each achievement whose condition holds at the
    end: a resource at least or at most at a square, a resource on top or at the bottom (tied
    resources share their position), coins or Pouvoir at least, public objective points at
    least, a rank at most, the king's death, cards signed; the limits themselves count."""
    tests = {
        "rmin": {"resource_min": {"influence": 12}}, "rmin+": {"resource_min": {"influence": 13}},
        "rmax": {"resource_max": {"morale": 2}}, "rmax-": {"resource_max": {"morale": 1}},
        "top": {"resource_top": "prosperity"}, "top-": {"resource_top": "welfare"},
        "bottom": {"resource_bottom": "morale"}, "bottom-": {"resource_bottom": "knowledge"},
        "coins": {"coins_min": 11}, "coins+": {"coins_min": 12},
        "power": {"power_min": 9}, "power+": {"power_min": 10},
        "public": {"public_points_min": 0}, "public+": {"public_points_min": 1},
        "rank": {"rank_max": 1}, "died": {"king": "died"}, "abdicated": {"king": "abdicated"},
        "signed": {"signed_min": 1}, "none": {},
    }  # fmt: skip
    holds = ["rmin", "rmax", "top", "bottom", "coins", "power", "public", "rank", "died"]
    unlocked = _tests_at_the_end(tests)
    assert unlocked["théodore"] == [*holds, "signed", "none"]
    assert unlocked["julius"] == [k for k in holds if k != "rank"] + ["none"]  # third
    assert unlocked["armin"] == [*holds, "none"]  # never signed


@pytest.mark.parametrize(
    "stability,holds", [(9, ["bottom_half"]), (10, ["centre"]), (11, ["top_half"])]
)
def test_end_of_game_achievements_on_the_stability_track(stability, holds):
    """Stability in the top half, the bottom half or at the centre of its track (0–20 in the
    test campaign: the centre is 10, which is in neither half)."""
    tests = {w: {"stability": w} for w in ("top_half", "bottom_half", "centre")}
    assert _tests_at_the_end(tests, stability)["théodore"] == holds


def _tick_bundle(ability: dict | None = None, boxes: int | None = 2) -> dict:
    """Julius's screen: a mechanic achievement « Bâtisseur » (influence at least 8 at the end)
    with ``boxes`` boxes (none: the default, one) and ``ability``."""
    ach = {"id": "bat", "kind": "mechanic", "condition": "Bâtisseur",
           "test": {"resource_min": {"influence": 8}}}  # fmt: skip
    if boxes is not None:
        ach["boxes"] = boxes
    if ability:
        ach["ability"] = ability
    b = bundle_with(X={"oui_da": [{"influence": 3}]})
    b["records"]["house"]["julius"]["achievements"] = [ach]
    return b


def _ending(b: dict, ticks: int = 0) -> tuple[dict, int]:
    b, s = table(b, n=3, card="X")
    if ticks:
        s["campaign"]["houses"]["julius"]["ticks"]["bat"] = ticks
    n = len(s["log"])
    return _end(b, s), n


def test_an_achievement_ticks_one_box_per_game_and_unlocks_with_its_last():
    """« Hauts faits de Maison »: when the condition is met, one box is ticked; when all are,
    the achievement is complete and its ability unlocked; the journal tells each."""
    s, n = _ending(_tick_bundle(boxes=2))
    julius = s["campaign"]["houses"]["julius"]
    assert (julius["ticks"], julius["unlocked"]) == ({"bat": 1}, [])
    told = [e for e in s["log"][n:] if e["key"].startswith("achievement.")]
    assert told == [{"key": "achievement.ticked",
                     "args": {"house": "Julius", "achievement": "Bâtisseur"}}]  # fmt: skip
    s, n = _ending(_tick_bundle(boxes=2), ticks=1)
    assert s["campaign"]["houses"]["julius"]["unlocked"] == ["bat"]
    told = [e for e in s["log"][n:] if e["key"].startswith("achievement.")]
    assert told == [{"key": "achievement.unlocked",
                     "args": {"house": "Julius", "achievement": "Bâtisseur"}}]  # fmt: skip
    s, _ = _ending(_tick_bundle(boxes=None))  # one box unless told
    assert s["campaign"]["houses"]["julius"]["unlocked"] == ["bat"]


def test_an_unlocked_immediate_ability_is_applied_at_once_and_only_an_immediate_one():
    """« Si une capacité spéciale est débloquée, elle peut être appliquée immédiatement »: an
    immediate ability's gains go to the house at once (coins to its reserve, Prestige on its
    screen), told as an achievement's; an ability of another kind waits for its moment."""
    gains = {"coins": 3, "prestige": 2}
    s, n = _ending(_tick_bundle({"trigger": "immediate", "text": "…", "gains": gains}, 1))
    said = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert {"house": "Julius", "why": "achievement", "coins": 3, "prestige": 2} in said
    s0, _ = _ending(_tick_bundle(None, 1))
    assert s["seats"][J]["coins"] == s0["seats"][J]["coins"] + 3
    assert (
        s["campaign"]["houses"]["julius"]["prestige"]
        == s0["campaign"]["houses"]["julius"]["prestige"] + 2
    )
    s, n = _ending(_tick_bundle({"trigger": "game_start", "text": "…", "gains": gains}, 1))
    assert s["seats"][J]["coins"] == s0["seats"][J]["coins"]
    assert not [e for e in s["log"][n:] if e["key"] == "gain" and e["args"]["house"] == "Julius"]


@pytest.mark.parametrize(
    "gains,after",
    [({"prestige": 2, "craving": 1}, (6, 4)), ({"craving": 2}, (4, 5)), ({"prestige": 3}, (7, 3))],
)
def test_an_achievement_unlocked_for_a_house_away_from_the_table_goes_on_its_screen(gains, after):
    """A card may tick an achievement of a house that does not play this game: its immediate
    Prestige and Convoitise still go on its screen (Diana: 4 and 3 before)."""
    b = bundle_with(X={"oui_da": [{"achievement": "diana/d"}]})
    b["records"]["house"]["diana"]["achievements"] = [
        {"id": "d", "kind": "mechanic", "condition": "…", "boxes": 1, "test": {},
         "ability": {"trigger": "immediate", "text": "…", "gains": gains}}]  # fmt: skip
    b, s = table(b, n=3, card="X")
    s["campaign"]["houses"]["diana"].update(prestige=4, craving=3)
    for seat in (T, J, A):
        s = vote(b, s, seat, "oui_da", 1)
    diana = s["campaign"]["houses"]["diana"]
    assert diana["unlocked"] == ["d"] and (diana["prestige"], diana["craving"]) == after


def test_an_outcomes_gains_go_to_whom_the_card_names():
    """An outcome may give coins, Pouvoir, Prestige or Convoitise: to the leader who signs it
    (unless told), the moderator, every house, or the houses that voted for the winning side
    or against it (a house that passed is neither); the journal tells each gain."""
    gains = [
        {"gain": {"coins": 1}}, {"gain": {"who": "signer", "coins": 2}},
        {"gain": {"who": "moderator", "coins": 4}}, {"gain": {"who": "all", "power": 1}},
        {"gain": {"who": "winners", "coins": 8}}, {"gain": {"who": "losers", "coins": 16}},
    ]  # fmt: skip

    def play(effects: list[dict]) -> tuple[dict, int]:
        b, s = table(bundle_with(X={"oui_da": effects}), n=3, card="X", leader=T)
        n = len(s["log"])
        s = vote(b, s, T, "oui_da", 2)
        s = vote(b, s, J, "nenni", 1)
        s = pass_(b, s, A, "moderator")
        assert s["round"] == 2  # Oui-Da won, 2 against 1, Théodore signed: the next round
        return s, n

    s0, _ = play([])
    s, n = play(gains)
    delta = [(x["coins"] - y["coins"], x["power"] - y["power"])
             for x, y in zip(s["seats"], s0["seats"], strict=True)]  # fmt: skip
    assert delta == [(1 + 2 + 8, 1), (16, 1), (4, 1)]
    said = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert said[0] == {"house": "Théodore", "why": "effect", "coins": 1}
    assert len(said) == 1 + 1 + 1 + 3 + 1 + 1


def test_an_achievement_asking_no_wealth_ticks_for_a_house_left_with_nothing():
    """Julius stakes his last Pouvoir with no coin left: at the end he has neither, and an
    achievement that asks for no coins and no Pouvoir (the king's death) still ticks for him."""
    b = bundle_with(X={})
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "mort", "kind": "mechanic", "condition": "…", "boxes": 1,
         "test": {"king": "died"}}]  # fmt: skip
    b, s = table(b, n=3, card="X", coins=[10, 0, 10], power=[8, 1, 8])
    s["deck"] = []
    s = pass_(b, s, T)
    s = vote(b, s, J, "oui_da", 1)
    s = pass_(b, s, A)
    s = act(b, s, T, "stand")
    assert s["phase"] == "over" and (s["seats"][J]["coins"], s["seats"][J]["power"]) == (0, 0)
    assert s["campaign"]["houses"]["julius"]["unlocked"] == ["mort"]


def test_signing_a_chronicle_sticker_counts_and_triggers_the_signers_abilities():
    """« Signer »: the leader signs the chronicle sticker an outcome sticks; it counts among
    what the house signed, and an ability triggered by signing gives its gains."""
    b = bundle_with(X={"oui_da": [{"chronicle_sticker": "1"}]})
    b["records"]["house"]["armin"]["achievements"] = [
        {"id": "plume", "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "condition", "when": "signed", "text": "…",
                     "gains": {"coins": 2}}}]  # fmt: skip
    b, s = table(b, n=3, card="X", leader=A)
    s["campaign"]["houses"]["armin"]["unlocked"] = ["plume"]
    s["seats"][A]["signed"] = 1
    s = _oui_da(b, s)
    assert s["seats"][A]["signed"] == 2 and s["seats"][A]["coins"] == 12
    assert s["campaign"]["chronicle"]["morale"][0]["signer"] == "armin"


def test_a_kept_immediate_card_can_be_removed_and_a_loss_stops_at_zero():
    """A kept immediate card stays until its event is over: a card that removes it takes it
    out of the kept cards too.  A loss of coins takes what the house has and no more."""
    b = bundle_with(X={"oui_da": [{"remove_card": "I2"}, {"gain": {"coins": -10}}]})
    b["records"]["immediate_card"] = {"I2": {"id": "I2", "title": "Reste", "text": "…",
                                             "effects": [], "keep": True}}  # fmt: skip
    b, s = table(b, n=3, card="X", leader=A, coins=[10, 10, 10])
    s["kept_immediates"] = ["I2"]
    n = len(s["log"])
    s = _oui_da(b, s)
    assert s["kept_immediates"] == [] and "I2" not in s["deck"]
    assert {"key": "deck.removed", "args": {"card": "I2"}} in s["log"][n:]
    assert s["seats"][A]["coins"] == 0


def test_an_outcome_ticking_an_achievement_the_house_lacks_does_nothing():
    b, s = table(bundle_with(X={"oui_da": [{"achievement": "julius/n9"}]}), n=3, card="X")
    n = len(s["log"])
    s = _oui_da(b, s)
    assert s["campaign"]["houses"]["julius"] == new_campaign(b, 1)["houses"]["julius"]
    assert not [e for e in s["log"][n:] if e["key"].startswith("achievement.")]


def test_a_secret_sticker_and_the_end_of_an_event_are_told_in_the_journal():
    """« Autocollants secrets »: the sticker read aloud is told with its letter, its text and
    how many are stuck; an event that ends leaves the Events zone, told by its title."""
    b = bundle_with(X={"oui_da": [{"secret_sticker": "B"}, {"end_event": "EV"}]})
    b["records"]["secret_sticker"] = {"B": {"id": "B", "arc": "a", "text": "Le sceau brisé"}}
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "La grande foire", "text": "…"}}
    b, s = table(b, n=3, card="X")
    s["campaign"]["secret_stickers"] = ["A"]
    s["events"] = ["EV"]
    n = len(s["log"])
    s = _oui_da(b, s)
    told = [e for e in s["log"][n:] if e["key"] in ("secret.stuck", "event.end")]
    assert told == [
        {"key": "secret.stuck", "args": {"letter": "B", "text": "Le sceau brisé", "count": 2}},
        {"key": "event.end", "args": {"title": "La grande foire"}},
    ]
    assert s["events"] == []


def test_an_at_will_ability_is_told_and_limited_per_game_and_over_the_campaign():
    """« Capacités spéciales »: an ability used at will is told with its text; one usable a
    number of times per game is not offered once they are used; one with check boxes is spent
    when all are ticked, whatever the game."""
    b = make_bundle()
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "foire", "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "at_will", "per_game": 2, "text": "Une pièce",
                     "gains": {"coins": 1}}},
        {"id": "sceau", "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "at_will", "uses": 2, "text": "Un Pouvoir", "gains": {"power": 1}}},
    ]  # fmt: skip
    b, s = table(b, n=3)
    s["campaign"]["houses"]["julius"]["unlocked"] = ["foire", "sceau"]
    s["campaign"]["ability_uses"] = {"julius/sceau": 1}
    foire = {"type": "use_ability", "seat": J, "source": "julius/foire"}
    sceau = {"type": "use_ability", "seat": J, "source": "julius/sceau"}
    n = len(s["log"])
    s = apply(b, s, foire)
    assert foire in legal_actions(b, s, J)  # once of two this game
    s = apply(b, s, foire)
    assert foire not in legal_actions(b, s, J)
    s = apply(b, s, sceau)  # the second of its two boxes
    assert sceau not in legal_actions(b, s, J)
    used = [e["args"] for e in s["log"][n:] if e["key"] == "ability.used"]
    assert used == [{"house": "Julius", "text": "Une pièce"}] * 2 + [
        {"house": "Julius", "text": "Un Pouvoir"}
    ]
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Julius", "why": "ability", "coins": 1}] * 2 + [
        {"house": "Julius", "why": "ability", "power": 1}
    ]
    assert s["campaign"]["ability_uses"] == {"julius/foire": 2, "julius/sceau": 2}
    assert (s["seats"][J]["coins"], s["seats"][J]["power"]) == (12, 9)


def _oui_da_under_disette(outcome: list[dict], rules: list[dict], events=("EV",)) -> dict:
    """Card X voted Oui-Da at three seats (its outcome ``outcome``) with the event Disette
    (its ``rules``) among ``events`` in play: the state once the outcome is applied."""
    b = bundle_with(X={"oui_da": outcome})
    b["records"]["event_card"] = {
        "EV": {"id": "EV", "title": "Disette", "text": "…", "rules": rules}
    }
    b, s = table(b, n=3, card="X")
    s["events"] = list(events)
    return _oui_da(b, s)


def test_an_event_rule_for_a_falling_resource_enlarges_a_fall_and_not_a_rise():
    """An event's rule for a resource going down adds its squares to each fall of that
    resource, never to a rise (compared with the same outcome and no event in play)."""

    def after(events: list[str]) -> tuple[int, int]:
        outcome = [{"morale": -1}, {"welfare": 1}]
        s = _oui_da_under_disette(outcome, [{"on": "resource_down", "extra": 2}], events)
        return s["resources"]["morale"]["pos"], s["resources"]["welfare"]["pos"]

    (morale, welfare), (morale_ev, welfare_ev) = after([]), after(["EV"])
    assert morale == 6 and (morale_ev, welfare_ev) == (6 - 2, welfare)


def test_a_card_shuffled_into_the_deck_once_and_a_flag_set_then_cleared():
    """An outcome may shuffle a card into the Dilemma deck (told: one card shuffled in), never
    a second copy of a card the deck holds or a kept immediate card; a flag it sets is kept
    for the campaign's conditions, and one it clears is gone."""
    b = bundle_with(X={"oui_da": [{"shuffle_in": "D11"}, {"shuffle_in": "N1"},
                                  {"shuffle_in": "I2"}, {"flag": "pacte"}, {"flag": "pacte"},
                                  {"unflag": "guerre"}, {"unflag": "paix"}]})  # fmt: skip
    b["records"]["dilemma"]["N1"] = dict(b["records"]["dilemma"]["D0"], id="N1", title="N1")
    b["records"]["immediate_card"] = {"I2": {"id": "I2", "title": "Reste", "text": "…",
                                             "effects": [], "keep": True}}  # fmt: skip
    b, s = table(b, n=3, card="X")
    s["kept_immediates"] = ["I2"]
    s["campaign"]["flags"] = ["guerre"]
    assert "D11" in s["deck"] and "N1" not in s["deck"]
    deck, n = len(s["deck"]), len(s["log"])
    s = _oui_da(b, s)
    assert len(s["deck"]) == deck + 1 - 1  # N1 in, the next round's card drawn
    assert {"N1", "D11"} <= set(s["deck"]) | {s["vote"]["card"]}
    assert s["deck"].count("D11") + (s["vote"]["card"] == "D11") == 1
    assert [e["args"] for e in s["log"][n:] if e["key"] == "deck.added"] == [{"count": 1}]
    assert s["kept_immediates"] == ["I2"] and "I2" not in s["deck"]
    assert s["campaign"]["flags"] == ["pacte"]


def test_triggered_abilities_with_check_boxes_are_spent_once_all_are_ticked():
    """« Les capacités avec des cases à cocher »: each time such an ability is triggered one
    box is ticked, and once all are ticked it no longer applies; the others still do (Julius
    becomes moderator: « a » is spent, « b » ticks its second box, « c » has no box, « d » its
    first)."""
    b = make_bundle()
    spec = [("a", 1, 1), ("b", 2, 2), ("c", None, 4), ("d", 1, 8)]
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": k, "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "condition", "when": "became_moderator", "text": k,
                     "gains": {"coins": coins}, **({"uses": uses} if uses else {})}}
        for k, uses, coins in spec
    ]  # fmt: skip
    b, s = table(b, n=3, leader=J, moderator=A)
    s["campaign"]["houses"]["julius"]["unlocked"] = ["a", "b", "c", "d"]
    s["campaign"]["ability_uses"] = {"julius/a": 1, "julius/b": 1}
    n = len(s["log"])
    s = pass_(b, s, J, "moderator")
    assert s["seats"][J]["coins"] == 10 + 2 + 4 + 8
    assert s["campaign"]["ability_uses"] == {"julius/a": 1, "julius/b": 2, "julius/d": 1}
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Julius", "why": "ability", "coins": c} for c in (2, 4, 8)]


def test_what_a_branch_sticks_is_signed_by_the_leader():
    """The chronicle sticker of a conditional outcome is signed like any other, by the leader
    who signs the outcome (Armin here, not the first seat)."""
    branch = {"branch": {"requires": [], "then": [{"chronicle_sticker": "1"}]}}
    b, s = table(bundle_with(X={"oui_da": [branch]}), n=3, card="X", leader=A)
    s = _oui_da(b, s)
    assert s["campaign"]["chronicle"]["morale"][0]["signer"] == "armin"
    assert s["seats"][A]["signed"] == 1 and s["seats"][T]["signed"] == 0


def test_an_ability_for_a_won_vote_asks_its_stake_and_the_others_still_apply():
    """An ability triggered by winning the vote may ask for a stake of at least some Pouvoir:
    a smaller stake does not trigger it, and the house's other abilities still apply."""
    b = make_bundle()
    b["records"]["house"]["théodore"]["achievements"] = [
        {"id": k, "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "condition", "when": "won_vote", "text": k, "power_min": need,
                     "gains": {"coins": coins}}}
        for k, need, coins in (("gros", 5, 1), ("petit", 2, 2))
    ]  # fmt: skip
    b, s = table(b, n=3, leader=T)
    s["campaign"]["houses"]["théodore"]["unlocked"] = ["gros", "petit"]
    n = len(s["log"])
    s = vote(b, s, T, "oui_da", 2)
    s = pass_(b, s, J)
    s = pass_(b, s, A)
    gains = [e["args"] for e in s["log"][n:] if e["key"] == "gain"]
    assert gains == [{"house": "Théodore", "why": "ability", "coins": 2}]


def test_an_event_rules_conditional_move_is_not_enlarged_by_the_events_either():
    """A move an event's rule makes is never enlarged by the events, even when the rule's
    effects are conditional (« si … »): Disette would add 2 squares to a fall of morale."""
    branch = {"branch": {"requires": [], "then": [{"morale": -1}]}}
    rules = [{"on": "resource_up", "resource": "welfare", "effects": [branch]},
             {"on": "resource_down", "extra": 2}]  # fmt: skip
    s = _oui_da_under_disette([{"welfare": 1}], rules)
    assert s["resources"]["morale"]["pos"] == 7 - 1


def test_an_at_will_ability_is_offered_while_it_has_boxes_left_and_its_cost_can_be_paid():
    """Abilities used at will are offered whatever else the house holds: not once all their
    boxes are ticked, and not when the house cannot pay their cost (three coins for two
    Pouvoir: with three coins it can, with two it cannot; two Pouvoir for three coins: with two
    Pouvoir it can, with one it cannot)."""
    b = make_bundle()
    abilities = {
        "veille": {"trigger": "condition", "when": "game_end", "gains": {"coins": 1}},
        "usee": {"trigger": "at_will", "uses": 1, "gains": {"coins": 1}},
        "neuve": {"trigger": "at_will", "uses": 1, "gains": {"coins": 1}},
        "chere": {"trigger": "at_will", "gains": {"coins": -3, "power": 2}},
        "vente": {"trigger": "at_will", "gains": {"power": -2, "coins": 3}},
    }
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": k, "kind": "mechanic", "condition": "…", "boxes": 1, "ability": {"text": k, **a}}
        for k, a in abilities.items()
    ]
    cases = [
        (3, 2, ["julius/neuve", "julius/chere", "julius/vente"]),
        (2, 2, ["julius/neuve", "julius/vente"]),
        (2, 1, ["julius/neuve"]),
    ]
    for coins, power, offered in cases:
        b, s = table(b, n=3, coins=[10, coins, 10], power=[8, power, 8])
        s["campaign"]["houses"]["julius"]["unlocked"] = list(abilities)
        s["campaign"]["ability_uses"] = {"julius/usee": 1}
        actions = [a["source"] for a in legal_actions(b, s, J) if a["type"] == "use_ability"]
        assert actions == offered


def test_a_move_of_no_square_is_neither_a_rise_nor_a_fall_for_the_events():
    """An event's rules for a resource going up or down wait for a real move: an outcome
    moving morale by 0 leaves it where it is and triggers neither (Disette would stick a
    chronicle sticker at each fall)."""
    rules = [{"on": "resource_down", "effects": [{"chronicle_sticker": "1"}]},
             {"on": "resource_up", "effects": [{"chronicle_sticker": "1"}]}]  # fmt: skip
    s = _oui_da_under_disette([{"morale": 0}], rules)
    assert s["resources"]["morale"]["pos"] == 7
    assert s["campaign"]["chronicle"]["morale"] == [None] * len(
        s["campaign"]["chronicle"]["morale"]
    )


def test_while_the_moderator_decides_a_vote_promise_does_not_bind_and_abilities_stay_usable():
    """« Négocier »: only a deal about the decision binds the moderator on a tie (a promise
    to vote one way was for the vote); meanwhile any house may still give coins or use an
    ability at will, as during the vote, but not while the objectives are drafted."""
    b = make_bundle()
    b["records"]["house"]["julius"]["achievements"] = [
        {"id": "foire", "kind": "mechanic", "condition": "…", "boxes": 1,
         "ability": {"trigger": "at_will", "text": "…", "gains": {"coins": 1}}}]  # fmt: skip
    b, s = table(b, n=3, leader=T, moderator=A)
    s["campaign"]["houses"]["julius"]["unlocked"] = ["foire"]
    s["vote"]["promises"] = {str(A): "oui_da"}
    s["pending"] = {"type": "decide", "seat": A, "all_pass": False}
    sides = [a["side"] for a in legal_actions(b, s, A) if a["type"] == "decide"]
    assert sides == ["oui_da", "nenni"]
    use = {"type": "use_ability", "seat": J, "source": "julius/foire"}
    assert use in legal_actions(b, s, J)
    assert apply(b, s, use)["seats"][J]["coins"] == 11
    everyone = legal_actions(b, s, None, gifts=False)
    assert everyone and not [a for a in everyone if a["type"] == "give"]
    assert [a for a in legal_actions(b, s, None) if a["type"] == "give"]
    s["pending"] = {"type": "draft", "seat": J}
    s["draft"] = {"pool": ["opulence"], "order": [J], "index": 0}
    with pytest.raises(IllegalAction, match="no such ability"):
        apply(b, s, use)


def test_adding_pouvoir_to_a_vote_adds_at_least_one():
    b, s = table(n=3, leader=T, power=[3, 8, 8])
    s = vote(b, s, T, "oui_da", 1)
    s["vote"]["turn"], s["pending"] = T, {"type": "vote", "seat": T}  # his turn comes again
    adds = [a["power"] for a in legal_actions(b, s, T) if a["type"] == "add"]
    assert adds == [1, 2]  # what is left behind Théodore's screen, one Pouvoir at least


def test_the_journal_names_the_envelope_opened_and_the_cards_shuffled_into_the_deck():
    """The journal tells the table which envelope was opened (its title, whether it is a
    special one) and how many cards went into the deck."""
    b = _envelope_bundle()
    b["records"]["envelope"]["06"] = {"id": 6, "title": "Le testament", "special": True,
                                      "cards": ["E1"]}  # fmt: skip
    b["records"]["dilemma"]["X"]["oui_da"]["effects"].append({"open_envelope": 6})
    b, s = table(b, n=3, card="X", leader=A)
    n = len(s["log"])
    for seat in (A, T, J):
        s = vote(b, s, seat, "oui_da", 1)
    told = [e for e in s["log"][n:] if e["key"] in ("envelope.open", "deck.added")]
    assert told == [
        {"key": "envelope.open", "args": {"envelope": "05", "title": "", "special": False}},
        {"key": "deck.added", "args": {"count": 3}},
        {"key": "envelope.open",
         "args": {"envelope": "06", "title": "Le testament", "special": True}},
        {"key": "deck.added", "args": {"count": 1}},
    ]  # fmt: skip


def test_what_an_envelope_puts_in_play_is_signed_by_the_leader_who_opened_it():
    """The leader opens the envelope: a signed story card among its other cards, the chronicle
    sticker an event of the envelope sticks and the one its own effects stick carry the
    leader's house."""
    b = _envelope_bundle()
    b["records"]["story_card"]["H6"] = {"id": "H6", "arc": "b", "title": "Suite", "text": "…",
                                        "signature": True}  # fmt: skip
    _sticker(b, "7", "influence", "positive")
    _sticker(b, "8", "morale", "negative")
    b["records"]["event_card"] = {"EV": {"id": "EV", "title": "Fête", "text": "…",
                                         "effects": [{"chronicle_sticker": "7"}]}}  # fmt: skip
    b["records"]["envelope"]["05"].update(cards=["H6", "EV"], special=True,
                                          effects=[{"chronicle_sticker": "8"}])  # fmt: skip
    b, s = table(b, n=3, card="X", leader=A)
    for seat in (A, T, J):
        s = vote(b, s, seat, "oui_da", 1)
    camp = s["campaign"]
    assert camp["arcs"]["b"] == [{"card": "H6", "signer": "armin"}]
    assert camp["chronicle"]["influence"][0]["signer"] == "armin"
    assert camp["chronicle"]["morale"][0]["signer"] == "armin"


def test_an_immediate_card_that_sticks_the_sixth_secret_sticker_opens_the_final_at_once():
    """Drawn at the start of a round, an immediate card sticks the sixth secret sticker: the
    grand final comes « immédiatement », before any other card is drawn."""
    b = bundle_with()
    b["records"]["immediate_card"] = {
        "I6": {"id": "I6", "title": "Le sceau", "text": "…", "effects": [{"secret_sticker": "F"}]}
    }
    b["records"]["envelope"]["70"] = {"id": 70, "story": "H70", "cards": []}
    b["records"]["story_card"]["H70"] = {"id": "H70", "arc": "a", "title": "Final", "text": "…"}
    b, s = table(b, n=3)
    s["campaign"]["secret_stickers"] = list("ABCDE")
    s["deck"] += ["D0", "I6"]  # I6 at the bottom: drawn first next round
    while s["phase"] == "vote" and s["round"] == 1:
        s = vote(b, s, s["pending"]["seat"], "oui_da", 1)
    assert s["campaign"]["secret_stickers"] == list("ABCDEF")
    assert s["phase"] == "over" and s["round"] == 1 and s["campaign"]["finished"]
    assert "70" in s["campaign"]["opened"] and "round.start" not in keys(s)[-5:]
