"""Le Dilemme du Roi's screen: the « Dernier tour » summary above the choices after a vote."""

from __future__ import annotations

from test_dilemme_rulebook import A, J, T, act, bundle_with, table, vote

from engine.dilemme import screen as S
from engine.dilemme.game import view


def _last(b: dict, s: dict) -> dict:
    scr = S.screen(b, s, view(b, s, 0), 0, [])
    found = [w for w in scr["widgets"] if w.get("title", "").startswith("Dernier tour")]
    assert len(found) == 1 and found[0]["area"] == "main"
    main = [w for w in scr["widgets"] if w["area"] == "main"]
    # right above the choices: the new dilemma, « Dernier tour », then your house's own things
    assert main[-2:] == [found[0], _self(scr)]
    return found[0]


def _self(scr: dict) -> dict:
    (mine,) = [w for w in scr["widgets"] if w.get("title", "").endswith("derrière votre paravent")]
    return mine


def test_the_last_round_and_your_house_sit_right_above_the_choices():
    """On every size, in the area above the choices: the dilemma, « Dernier tour », your
    Pouvoir, coins and objective last (nothing between them and the buttons); no recap of the
    journal is added on top (the summary says it)."""
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 2)
    s = act(b, s, A, "pass", **{"for": "power"})
    s = act(b, s, T, "stand")
    scr = S.screen(b, s, view(b, s, 0), 0, [])
    titles = [w.get("title", "") for w in scr["widgets"] if w["area"] == "main"]
    assert titles[-2].startswith("Dernier tour") and titles[-1].endswith("paravent")
    if s.get("vote"):  # the next dilemma, when there is one, comes first
        assert titles.index(scr["widgets"][0]["title"]) == 0
    assert scr["recap"] is False


def test_no_summary_before_the_first_vote():
    b, s = table(n=3)
    scr = S.screen(b, s, view(b, s, 0), 0, [])
    assert not any(w.get("title", "").startswith("Dernier tour") for w in scr["widgets"])


def test_the_last_round_votes_result_leader_tracks_and_deals():
    b = bundle_with(X={"oui_da": [{"influence": 2}, {"morale": -1}]})
    b, s = table(b, n=3, card="X", leader=T)
    s = act(b, s, T, "offer", to=J, coins=2, ask="oui_da")
    s = act(b, s, J, "answer", accept=True)
    s = vote(b, s, T, "nenni", 1)
    s = vote(b, s, J, "oui_da", 2)
    s = act(b, s, A, "pass", **{"for": "power"})
    s = act(b, s, T, "stand")
    last = _last(b, s)
    assert last["title"] == "Dernier tour : « X »"
    assert last["items"][0] == (
        "Votes : Théodore Nenni 1 · Julius Oui-Da 2 · Armin passe (Pouvoir)."
    )
    assert "Oui-Da l'emporte, 2 contre 1." in last["items"]
    assert "Meneur : Julius, qui signe." in last["items"]
    assert "Pistes : Influence 7 → 10 ; Moral 7 → 6." in last["items"]
    assert "Pièces : Théodore → Julius : 2 pièces pour un vote Oui-Da, accepté." in last["items"]


def test_a_tie_settled_by_the_moderator_is_told():
    b, s = table(n=3, leader=T, moderator=A)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 1)
    s = act(b, s, A, "pass", **{"for": "power"})
    s = act(b, s, A, "decide", side="nenni")
    items = _last(b, s)["items"]
    assert "Égalité 1 contre 1 : Armin, Modérateur, tranche pour Nenni." in items


def test_the_winning_side_s_total_is_told_first():
    """« Nenni l'emporte, 7 contre 6 », never « 6 contre 7 » (it read as a defeat)."""
    b, s = table(n=3, leader=T)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 2)
    s = act(b, s, A, "pass", **{"for": "power"})
    s = act(b, s, T, "stand")
    assert "Nenni l'emporte, 2 contre 1." in _last(b, s)["items"]


def test_when_the_vote_comes_round_again_the_prompt_says_what_is_left():
    """The rulebook's later turns of a vote: a house that voted may only add Pouvoir or lie
    down (« se coucher »), a house that passed votes no more this round; the prompt says so
    instead of « votez, passez ou négociez »."""
    from engine.dilemme import actions as ACT

    b, s = table(n=3, leader=T)
    first = S.screen(b, s, view(b, s, T), T, ACT.legal_actions(b, s, T))
    assert "votez, passez ou négociez" in first["prompt"]
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 2)
    s = act(b, s, A, "pass", **{"for": "power"})
    assert s["pending"] == {"type": "vote", "seat": T}  # the round comes back to Théodore
    again = S.screen(b, s, view(b, s, T), T, ACT.legal_actions(b, s, T))
    assert "ajoutez du Pouvoir à votre vote, ou couchez-vous" in again["prompt"]
    assert "votez, passez" not in again["prompt"]
    # Théodore passes first: when the vote comes back to him, he votes no more
    b, s = table(n=3, leader=T)
    s = act(b, s, T, "pass", **{"for": "power"})
    s = vote(b, s, J, "nenni", 2)
    s = vote(b, s, A, "oui_da", 1)
    assert s["pending"] == {"type": "vote", "seat": T}
    passed = S.screen(b, s, view(b, s, T), T, ACT.legal_actions(b, s, T))
    assert "vous avez passé : vous ne votez plus cette manche" in passed["prompt"]
