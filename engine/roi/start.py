"""Start anywhere (``Game.start_from``) in Le Roi des 12, whose content has no story to walk:
the starting points a writer tests.

- ``tournament:N``: a tournament of N players (5 to 16), at a table of that size
  (``--bots N``);
- ``character_card:<id>``: a game where that character is in every hand — the setup's set if
  it holds it, else the first game's set with the character in the place of a card that does
  not turn the die (« Choisies »);
- ``campaign:…``: a game as the setup says.
"""

from __future__ import annotations

from typing import Any

from . import rules
from .cards import CARD_IDS, FIRST_GAME, TURNS_DIE


def start_from(node: str, setup: dict[str, Any]) -> dict[str, Any]:
    """The first state of a game that begins at ``node``; ``ValueError`` (French) otherwise."""
    kind, _, key = node.partition(":")
    if kind == "campaign":
        return rules.new_state(setup)
    if kind == "tournament":
        n, least = len(setup["seats"]), rules.DUEL_MAX + 1
        if not key.isdigit() or not least <= int(key) <= 16:
            raise ValueError(f"un tournoi réunit de {least} à 16 joueurs, pas « {key} »")
        if int(key) != n:
            raise ValueError(f"un tournoi à {key} se joue à {key} : lancez avec --bots {key}")
        return rules.new_state(setup)
    if kind == "character_card":
        if key not in CARD_IDS:
            known = ", ".join(CARD_IDS)
            raise ValueError(f"le personnage « {key} » n'existe pas (au choix : {known})")
        return rules.new_state(_holding(setup, key))
    raise ValueError(
        f"« {node} » n'existe pas dans ce contenu : commencez à un tournoi (tournament:12) ou à "
        "un personnage (character_card:dame)"
    )


def _holding(setup: dict[str, Any], card: str) -> dict[str, Any]:
    mode, chosen = setup.get("cartes", "premiere"), list(setup.get("selection") or [])
    if card == "chevalier" or (mode == "premiere" and card in FIRST_GAME):
        return setup
    if mode == "choix" and card in chosen:
        return setup
    six = [c for c in FIRST_GAME if c != "chevalier"]
    out = next((c for c in six if c not in TURNS_DIE), six[-1])
    six[six.index(out)] = card
    return {**setup, "cartes": "choix", "selection": six}
