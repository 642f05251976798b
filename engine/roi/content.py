"""Le Roi des 12's content format: the character cards, as data (``engine.core.schema``).

A writer gives each of the twelve characters its French name, its text, whether it turns the
die (the symbol the random set needs twice), when it applies (first, last or in the player's
order) and whether it belongs to the first-game set.  What a card *does* is the engine's
(``engine/roi/cards.py``), keyed by the card's id; the content's check refuses an unknown id,
a missing one, or a first-game set that is not seven cards with LE CHEVALIER.
"""

from __future__ import annotations

from ..core.schema import Bool, ContentSchema, Enum, F, GraphView, Int, Issue, Kind, Str

FAMILY = "roi"

#: the twelve characters of a colour, by id (the engine's behaviour is keyed by these)
CARD_IDS = (
    "alchimiste",
    "automate",
    "chenapans",
    "chevalier",
    "dame",
    "golem",
    "inverseuse",
    "marchands",
    "oracle",
    "parasite",
    "parieur",
    "sorcier",
)
TIMINGS = ("any", "first", "last")

CHARACTER = Kind(
    "character_card",
    FAMILY,
    "characters",
    {
        "id": F(Enum(CARD_IDS), "le personnage (son effet est celui du moteur)", required=True),
        "name": F(Str(), "nom affiché, article compris (« L'ALCHIMISTE »)", required=True),
        "text": F(Str(), "l'effet, en toutes lettres, dans nos mots", required=True),
        "hint": F(Str(), "un conseil de jeu, une phrase"),
        "flavour": F(Str(), "une ligne d'ambiance"),
        "turns_die": F(Bool(), "porte le symbole du dé tourné (la face change)", default=False),
        "timing": F(Enum(TIMINGS), "s'applique en premier, en dernier ou dans l'ordre choisi"),
        "first_game": F(Bool(), "fait partie des sept cartes de la première partie"),
        "order": F(Int(min=1, max=12), "rang dans le résumé des cartes", required=True),
    },
    "Carte Personnage : un des douze êtres des Douze Royaumes et son pouvoir sur les dés.",
    story=False,
    covered=True,
    name_fr="carte Personnage",
    colour="#8e24aa",
    feminine=True,
)


def _cards_check(view: GraphView) -> list[Issue]:
    # a card whose id is not one of the twelve is already a finding of its own (FIELD002)
    cards = {
        data["id"]: data
        for _, kind, data in view.records()
        if kind == "character_card" and data.get("id") in CARD_IDS
    }
    out = []
    missing = [c for c in CARD_IDS if c not in cards]
    if missing:
        out.append(
            Issue("FIELD001", "error", "personnages absents : " + ", ".join(missing), field="id")
        )
    first = sorted(c for c, d in cards.items() if d.get("first_game"))
    if len(first) != 7 or "chevalier" not in first:
        out.append(
            Issue(
                "FIELD002",
                "error",
                "la première partie se joue avec sept cartes dont LE CHEVALIER "
                f"(ici : {', '.join(first) or 'aucune'})",
                field="id",
            )
        )
    if sum(1 for d in cards.values() if d.get("turns_die")) < 2:
        out.append(
            Issue("FIELD002", "error", "au moins deux cartes doivent tourner le dé", field="id")
        )
    return out


SCHEMA = ContentSchema(
    family=FAMILY,
    kinds=(CHARACTER,),
    effects={},
    conditions={},
    checks=(_cards_check,),
)
