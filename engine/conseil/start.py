"""Start anywhere (``Game.start_from``) in Le Conseil des 12, whose content has no story to
walk: the starting points a writer tests.

- ``scenario:<mois>`` (``scenario:mars``; also ``scenario:base``, ``scenario:tutoriel``): a
  game of that month, as ``--scenario`` would start it;
- ``tutorial:N``: the guided game;
- ``dilemma:N``: a game whose first dilemma is card N — the month chosen in the setup if its
  pile holds it, a normal game otherwise, where N takes the place of a card of its difficulty
  (the pile is still 4 easy, 2 medium, 1 hard, as the rules deal it);
- ``campaign:…``: a game as the setup says.

The characters, Quémandeurs and the two single cards are in every game: the French message
says where to begin instead.
"""

from __future__ import annotations

from typing import Any

from .rules import Rules


def start_from(R: Rules, node: str, setup: dict[str, Any]) -> dict[str, Any]:
    """The first state of a game that begins at ``node``; ``ValueError`` (French) otherwise."""
    kind, _, key = node.partition(":")
    if kind == "campaign":
        return R.new_game(setup)
    if kind == "scenario":
        if key not in R.scenarios and key not in ("base", "tutoriel"):
            known = ", ".join(f"scenario:{m}" for m in R.scenarios)
            raise ValueError(f"le mois « {key} » n'existe pas dans ce contenu (au choix : {known})")
        return R.new_game({**setup, "scenario": key})
    if kind == "tutorial":
        if key not in [str(t["id"]) for t in R.tutorial]:
            raise ValueError(
                f"la carte de la partie guidée « {key} » n'existe pas dans ce contenu "
                f"(de tutorial:1 à tutorial:{len(R.tutorial)})"
            )
        return R.new_game({**setup, "scenario": "tutoriel"})
    if kind == "dilemma":
        try:
            number = int(key)
        except ValueError:
            number = -1
        if number not in R.dilemmas:
            raise ValueError(f"la carte Dilemme {key} n'existe pas dans ce contenu")
        return _first_dilemma(R, setup, number)
    where = "commencez à un mois (scenario:mars), à un dilemme (dilemma:5) ou à la partie guidée"
    everywhere = {"character": R.characters, "petitioner": R.petitioners}
    if key in everywhere.get(kind, ()) or kind in ("throne", "council_head"):
        raise ValueError(f"« {node} » est en jeu dans chaque partie : {where} (tutorial:1)")
    raise ValueError(f"« {node} » n'existe pas dans ce contenu : {where} (tutorial:1)")


def _first_dilemma(R: Rules, setup: dict[str, Any], number: int) -> dict[str, Any]:
    month = setup.get("scenario") or "base"
    if month not in R.scenarios or number not in [int(d) for d in R.scenarios[month]["dilemmas"]]:
        month = "base"

    def first(pile: list[int]) -> list[int]:
        pile = list(pile)
        if number not in pile:  # dealt in place of the first card of its difficulty
            level = _level(R, number)
            same = next((d for d in pile if _level(R, d) == level), pile[0])
            pile[pile.index(same)] = number
        pile.remove(number)
        return [number, *pile]

    return R.new_game({**setup, "scenario": month}, arrange=first)


def _level(R: Rules, number: int) -> int:
    return int(R.dilemmas[number].get("difficulty", 1))
