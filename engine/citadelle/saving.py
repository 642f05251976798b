"""« Sauvegarder et reprendre la partie »: once per scenario, in a Menace booklet, when every
conscious character stands on one Terrain and nobody reads a dialogue, acts, or owes a
mandatory action.

Saving puts away what the rulebook does not keep: the hands are discarded, every card of the
Plateau goes to the Past except the Terrain under the figures; the global events stay in play,
as do the purses, blocked cards, decks, discards, quest items and hit points.  Resuming puts
the Past back into the box, sets the saved Terrain down alone with the figures on it, deals an
exploration card in front of each of its arrows, and puts back in play the cards the booklet
names for a resumed game (``setup.resume``: the way home).  The game resumes at once."""

from __future__ import annotations

from . import board as B
from . import cards as K
from . import records as rec
from . import scenario as S
from . import taking

log = B.log


def can_save(state: dict) -> bool:
    conscious = [c for c in state["characters"] if c["conscious"]]
    return (
        not state["saved"]
        and state["menace"] is not None
        and state["dialogue"] is None
        and state["action"] is None
        and bool(conscious)
        and len({c["at"] for c in conscious}) == 1
    )


def save(bundle: dict, state: dict) -> None:
    here = next(c["at"] for c in state["characters"] if c["conscious"])
    terrain = state["board"][here]["terrain"]
    # 1. each player discards the skills in hand
    for ch in state["characters"]:
        for card in list(ch["hand"]):
            K.move(bundle, state, K.action_card(card), f"discard:{ch['id']}")
    # 2. every card of the Plateau to the Past, but the Terrain under the figures
    for ev in list(state["board"][here]["events"]):
        K.move(bundle, state, K.adventure(ev["key"]), "past")
    for key, spot in list(state["board"].items()):
        if key != here:
            B.leave_quietly(bundle, state, K.adventure(spot["terrain"]), "past")
    for slot in list(state["slots"].values()):
        for field, kind in (("exploration", "exploration"), ("adventure", "adventure")):
            if slot.get(field):
                K.move(bundle, state, {"kind": kind, "key": slot[field]}, "past")
    state["slots"] = {}
    state["dice"] = {}
    state["found"] = []
    log(state, "game.saved", title=rec.adv(bundle, terrain).get("title", ""))
    resume(bundle, state, here)


def resume(bundle: dict, state: dict, here: str) -> None:
    """The saved game resumes: the Past goes back to the box, the saved Terrain is set down
    (centred) with every conscious figure on it and exploration cards in front of its arrows,
    then the booklet's cards for a resumed game come back into play."""
    B.restore_past(bundle, state)
    spot = state["board"].pop(here)
    centre = B.cell(0, 0)
    state["board"][centre] = spot
    for ch in state["characters"]:
        if ch["conscious"]:
            ch["at"] = centre
    B.deal_arrows(bundle, state, centre)
    state["saved"] = True
    state["arrivals"] = []
    log(state, "game.resumed", title=rec.adv(bundle, spot["terrain"]).get("title", ""))
    ctx = {"character": 0, "verb": None, "this": None, "participants": [0]}
    for number in S.resume_cards(bundle, state["scenario"]):
        taking.take(bundle, state, number, ctx, if_available=True)
