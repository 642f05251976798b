"""Le Dilemme du Roi as a pure state machine.

    campaign = new_campaign(bundle)                      # before the first game: envelope 00
    state = new_game(bundle, campaign, seats, seed)      # one game of the campaign
    legal_actions(state, seat) -> [action, ...]          # that seat's legal actions (None: all)
    state = apply(bundle, state, action)                 # a new state; the input is untouched
    view(bundle, state, seat) -> what that seat may see  # hidden information removed
    state["campaign"]                                    # the campaign after the game, to save

States and actions are plain JSON values.  Randomness comes only from ``state["rng"]``.
Actions are dicts with a ``type`` and the acting ``seat`` (an index into ``state["seats"]``).

The rules live in one module per section of the rulebook; find a rule by its section's name:

    common        rules of the campaign (track lengths, starting amounts), our rulings, records
    campaign      before the first game (envelope 00), the grand final
    setup         « Mise en place », succession, public objective tokens, the secret objective draft
    voting        a round: drawing, the Council's vote, leader token and moderator, the cleanup
    negotiation   « Négocier »: gifts and binding offers
    outcome       « Résolution du Dilemme »: the winning outcome applied, signed by the leader
    effects       each kind of effect (resources and stability, stickers, deck, gains, flags…)
    envelopes     envelopes, story cards on their arcs, epilogues and the majority signer
    events        event cards and their rules
    achievements  house achievements ticked, unlocked, closed
    abilities     special abilities of achievements and story cards
    timeline      « Frise du temps », the king's death, the end of a round
    scoring       « Fin de la partie »: scores, ranks, prestige and craving, the save
    actions       ``legal_actions`` and ``apply``
    views         what a seat may see

Decisions where the rulebook is silent are listed in ``RULINGS`` and on the site's rules page.
"""

from __future__ import annotations

# every section that registers a step (``steps.STEPS``), imported before any game is played
from . import envelopes, events, outcome, timeline, voting  # noqa: F401
from .abilities import _ability_sources
from .actions import apply, legal_actions
from .campaign import new_campaign
from .common import (
    DEFAULT_RULES,
    FORMAT_VERSION,
    MIN_COMPATIBLE,
    RULINGS,
    SHARED,
    SIDES,
    _card,
    _rec,
    _rules,
)
from .negotiation import ASKS, OFFER_MAX_COINS
from .setup import new_game
from .views import view

__all__ = [
    "ASKS",
    "DEFAULT_RULES",
    "FORMAT_VERSION",
    "MIN_COMPATIBLE",
    "OFFER_MAX_COINS",
    "RULINGS",
    "SHARED",
    "SIDES",
    "_ability_sources",
    "_card",
    "_rec",
    "_rules",
    "apply",
    "legal_actions",
    "new_campaign",
    "new_game",
    "view",
]
