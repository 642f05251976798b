"""Le Dilemme du Roi's screen: the « Dernier tour » summary above the choices after a vote."""

from __future__ import annotations

from test_dilemme_rulebook import A, J, T, act, bundle_with, table, vote

from engine.dilemme import screen as S
from engine.dilemme import view


def _last(b: dict, s: dict) -> dict:
    scr = S.screen(b, s, view(b, s, 0), 0, [])
    found = [w for w in scr["widgets"] if w.get("title", "").startswith("Dernier tour")]
    assert len(found) == 1 and found[0]["area"] == "main"
    assert scr["widgets"].index(found[0]) == 0  # above the new dilemma
    return found[0]


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
    assert any(line.startswith("Pièces : Théodore propose 2 pièce(s) à Julius") and
               line.endswith("accepté.") for line in last["items"])  # fmt: skip


def test_a_tie_settled_by_the_moderator_is_told():
    b, s = table(n=3, leader=T, moderator=A)
    s = vote(b, s, T, "oui_da", 1)
    s = vote(b, s, J, "nenni", 1)
    s = act(b, s, A, "pass", **{"for": "power"})
    s = act(b, s, A, "decide", side="nenni")
    items = _last(b, s)["items"]
    assert "Égalité 1 contre 1 : Armin, Modérateur, tranche pour Nenni." in items
