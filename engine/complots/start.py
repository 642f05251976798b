"""Start anywhere (``Game.start_from``) in Complots, whose content has no story to walk: the
starting points a writer tests, at the table size the setup gives (``--players``/``--bots``).

- ``variant:<id>``: a game with that variant's five characters;
- ``character:<id>``, ``action:<id>``, ``counter:<id>``: a game where that card is in play —
  the setup's variant if it holds the character, else the default one, else the first that
  does (a basic action is in every variant);
- ``campaign:…``: a game as the setup says.
"""

from __future__ import annotations

from typing import Any

from .rules import Table, new_game


def start_from(table: Table, node: str, setup: dict[str, Any]) -> dict[str, Any]:
    """The first state of a game that begins at ``node``; ``ValueError`` (French) otherwise."""
    kind, _, key = node.partition(":")
    if kind == "campaign":
        return new_game(table, setup)
    if kind == "variant":
        if key not in table.variants:
            known = ", ".join(f"variant:{v}" for v in table.variants)
            raise ValueError(f"la variante « {key} » n'existe pas (au choix : {known})")
        return new_game(table, {**setup, "variant": key})
    character = _character(table, kind, key)
    if character is None:  # a basic action, or its counter: in every variant
        return new_game(table, setup)
    holding = [v for v, data in table.variants.items() if character in data["characters"]]
    if not holding:
        raise ValueError(
            f"aucune variante ne met « {character} » en jeu : ajoutez-le à l'une d'elles"
        )
    order = [setup.get("variant"), table.default_variant, *holding]
    variant = next(v for v in order if v in holding)
    return new_game(table, {**setup, "variant": variant})


def _character(table: Table, kind: str, key: str) -> str | None:
    """The character a card node puts in play (``None``: a basic action, always in play)."""
    if kind == "character":
        if key not in table.characters:
            raise ValueError(f"le personnage « {key} » n'existe pas dans ce contenu")
        return key
    if kind == "counter":
        counter = next((c for c in table.counters.values() if c.get("id") == key), None)
        if counter is None:
            raise ValueError(f"le contre « {key} » n'existe pas dans ce contenu")
        kind, key = "action", str(counter["action"])
    if kind == "action":
        action = table.actions.get(key)
        if action is None:
            raise ValueError(f"l'action « {key} » n'existe pas dans ce contenu")
        return action.get("character")
    raise ValueError(
        f"« {kind}:{key} » n'existe pas dans ce contenu : commencez à une variante "
        "(variant:…), à un personnage (character:…), à une action (action:…) ou à un contre "
        "(counter:…)"
    )
