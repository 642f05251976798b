"""Le Roi des 12 on screen: the reveal one step at a time, what each seat may see, the
tournament's groups, and bots that read only the table."""

from __future__ import annotations

import json

from engine.core import widgets as W
from engine.core.registry import get
from engine.core.rng import Rng
from engine.core.session import Session
from engine.roi import rules as R
from pipeline.story.bundles import bundle_for


def _game():
    return get("roi")(bundle_for("roi"))


def _texts(scr: dict) -> str:
    return json.dumps(scr["widgets"], ensure_ascii=False)


def test_reveal_shows_all_cards_then_one_step_at_a_time():
    game = _game()
    s = Session(game).start({"seed": "écran", "players": 3, "bots": 2})
    scr = s.screen()
    assert scr["phase"] == "1. Jouer une carte" and scr["to_act"] == [0]
    s.act(scr["groups"][0]["choices"][0]["action"])
    scr = s.screen()
    assert s.state["pending"] == {"kind": "ack"} and scr["turn_kind"] == "collective"
    reveal = [w for w in scr["widgets"] if w["type"] == "cards" and w["area"] == "main"]
    assert len(reveal) == 1 and len(reveal[0]["cards"]) == 3  # every card at once
    steps = [w for w in scr["widgets"] if w["type"] == "text" and w["area"] == "main"]
    assert steps == []  # nothing else yet
    table = next(w for w in scr["widgets"] if w["type"] == "players")
    assert all(r["cells"][-1] == 0 for r in table["rows"])  # points not given yet
    assert not any("champion" in line for line in scr["recap"])  # the recap tells nothing
    seen = 0
    while s.state["pending"] == {"kind": "ack"}:
        scr = s.screen()
        now = len([w for w in scr["widgets"] if w["type"] == "text" and w["area"] == "main"])
        assert now == seen
        seen += 1
        s.act(
            next(
                c["action"]
                for g in scr["groups"]
                for c in g["choices"]
                if c["action"]["type"] == "next"
            )
        )
    assert seen == 5  # four more steps after the cards, the last one with « Continuer »
    assert s.state["turn"] == 2
    assert any("champion" in line or "Personne" in line for line in s.log_lines(0))


def test_a_seat_never_sees_another_seats_secret_choice():
    game = _game()
    setup = game.normalize_setup({"seed": "secret", "players": 3, "bots": 0})
    st = game.new_game(setup)
    st = game.apply(st, {"type": "play", "seat": 0, "card": "golem"})
    for viewer in (1, 2, None):
        scr = game.screen(st, viewer, game.legal_actions(st, viewer) if viewer else [])
        assert "GOLEM" not in json.dumps(
            [w for w in scr["widgets"] if w["type"] == "players"], ensure_ascii=False
        )
        assert game.view(st, viewer)["players"][0].get("played") is None
    assert game.view(st, 0)["players"][0]["played"] == "golem"


def test_the_hand_stays_hidden_during_a_reveal_with_several_humans():
    game = _game()
    setup = game.normalize_setup({"seed": "main", "players": 2, "bots": 0})
    st = game.new_game(setup)
    st = game.apply(st, {"type": "play", "seat": 0, "card": "golem"})
    st = game.apply(st, {"type": "play", "seat": 1, "card": "chevalier"})
    assert st["pending"] == {"kind": "ack"}
    scr = game.screen(st, 0, game.legal_actions(st, 0))
    assert not [w for w in scr["widgets"] if w["area"] == "self"]


def test_tournament_screen_shows_the_groups():
    game = _game()
    s = Session(game).start({"seed": "groupes", "players": 9, "bots": 8})
    scr = s.screen()
    W.validate(scr)
    table = next(w for w in scr["widgets"] if w["type"] == "players")
    assert "Groupe" in table["columns"] and len(table["rows"]) == 9
    groups = next(w for w in scr["widgets"] if w["type"] == "items")
    assert len(groups["items"]) == 3


def test_pivot_with_the_chenapans_offers_both_orders():
    game = _game()
    setup = game.normalize_setup(
        {
            "seed": "pivot",
            "players": 3,
            "bots": 0,
            "cartes": "choix",
            "pas_a_pas": False,
            "selection": "sorcier, chenapans, dame, golem, alchimiste, automate",
        }
    )
    st = game.new_game(setup)
    for seat, card in enumerate(("sorcier", "chenapans", "golem")):
        st = game.apply(st, {"type": "play", "seat": seat, "card": card})
    acts = game.legal_actions(st, 0)
    scr = game.screen(st, 0, acts)
    labels = [c["label"] for g in scr["groups"] for c in g["choices"]]
    assert len(labels) == 10 and len(set(labels)) == 10
    assert any(lbl.startswith("Retourner d'abord") for lbl in labels)
    assert scr["phase"] == "3. Effets des cartes"


def test_chosen_cards_setup_is_checked_in_french():
    import pytest

    from engine.core.errors import SetupError

    game = _game()
    for bad in ("dame", "dame, dame, golem, oracle, parieur, sorcier", "licorne"):
        with pytest.raises(SetupError):
            game.normalize_setup({"players": 2, "cartes": "choix", "selection": bad})
    ok = game.normalize_setup(
        {
            "players": 2,
            "cartes": "choix",
            "selection": "LA DAME, l'Oracle, parieur, Sorcier, golem, marchands",
        }
    )
    assert ok["selection"] == ["dame", "oracle", "parieur", "sorcier", "golem", "marchands"]


def test_the_cunning_bot_reads_the_table():
    """With the lowest die, LE CHEVALIER is the card that wins."""
    game = _game()
    setup = game.normalize_setup({"seed": "ruse", "players": 3, "bots": 3})
    st = game.new_game(setup)
    for p, face in zip(st["p"], (1, 12, 11), strict=True):
        p["die"] = face
    action = game.choose(st, 0, Rng({"rng": 1}), "ruse")
    assert action["card"] == "chevalier"


def test_bots_ignore_what_they_cannot_see():
    game = _game()
    setup = game.normalize_setup({"seed": "aveugle", "players": 4, "bots": 4})
    st = game.new_game(setup)
    st = game.apply(st, {"type": "play", "seat": 1, "card": "golem"})
    st["p"][2]["under"] = [st["p"][2]["hand"].pop()]
    for persona in ("ruse", "prudent"):
        first = game.choose(st, 0, Rng({"rng": 2}), persona)
        for k in range(5):
            other = R.scramble(st, 1, Rng({"rng": k}))
            other = R.scramble(other, 2, Rng({"rng": k}))
            assert game.choose(other, 0, Rng({"rng": 2}), persona) == first


def test_a_throne_to_fill_is_named_at_the_end():
    """Le Conseil des 12 may start a game for its vacant throne: the winner takes it."""
    game = _game()
    s = Session(game).start(
        {"seed": "trône", "players": 2, "bots": 2, "throne": "le trône de Janvier"}
    )
    out = game.outcome(s.state)
    assert out is not None and "le trône de Janvier" in out.summary
    assert any("le trône de Janvier" in line for line in s.log_lines(None))
