"""Complots' content format: the characters, the actions, the counters and the variants live in
``content/complots/*.yaml`` and are checked like every campaign (a counter that names an unknown
character is a finding with its file and line).

The engine reads the records by kind from the bundle; the rules of each *power* (what a
character does) are code (``rules.py``), chosen by the character's ``power`` field.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.schema import (
    Bool,
    ContentSchema,
    Enum,
    F,
    GraphView,
    Int,
    Issue,
    Kind,
    ListOf,
    Ref,
    Str,
)

FAMILY = "complots"

#: what a character's power does (the engine's code for each); ``None`` for the plain actions
POWERS = ("none", "tax", "assassinate", "steal", "exchange", "inquire")
#: the three actions every player has, whatever the characters
BASIC = ("revenu", "aide", "assassinat")

COMPLOTS_KINDS: list[Kind] = [
    Kind(
        "character",
        FAMILY,
        "characters",
        {
            "id": F(Str(), "identifiant (duchesse, assassin...)", required=True),
            "name": F(Str(), "nom avec son article, comme sur la carte (« La Duchesse »)", True),
            "short": F(Str(), "nom sans article (« Duchesse »)", required=True),
            "feminine": F(Bool(), "nom féminin (accords des phrases)", default=False),
            "power": F(Enum(POWERS), "ce que fait son pouvoir (lu par le moteur)", required=True),
            "cost": F(Int(min=0, max=10), "pièces payées au Trésor pour l'utiliser", default=0),
            "gain": F(Int(min=0, max=10), "pièces prises (au Trésor ou à la cible)", default=0),
            "draw": F(Int(min=0, max=4), "cartes piochées à la Cour pour un échange", default=0),
            "targeted": F(Bool(), "le pouvoir vise un adversaire", default=False),
            "text": F(Str(), "le pouvoir, en quelques mots, pour l'aide de jeu", required=True),
            "flavor": F(Str(), "une phrase d'ambiance"),
        },
        "Personnage : une carte que l'on peut annoncer pour utiliser son pouvoir.",
        story=False,
        covered=True,
    ),
    Kind(
        "action",
        FAMILY,
        "actions",
        {
            "id": F(Str(), "identifiant de l'action", required=True),
            "name": F(Str(), "nom de l'action (« Aide étrangère »)", required=True),
            "basic": F(Enum(BASIC), "action de base (sans personnage)"),
            "character": F(Ref(("character",)), "le personnage dont c'est le pouvoir"),
            "text": F(Str(), "ce que fait l'action", required=True),
        },
        "Action : ce qu'un joueur peut faire à son tour.",
        story=False,
        covered=True,
        one_of=("basic", "character"),
    ),
    Kind(
        "counter",
        FAMILY,
        "counters",
        {
            "id": F(Str(), "identifiant du contre", required=True),
            "action": F(Ref(("action",)), "l'action contrée", required=True),
            "by": F(ListOf(Ref(("character",)), min_len=1), "les personnages qui contrent", True),
            "only_target": F(Bool(), "seul le joueur ciblé peut contrer", default=False),
            "cost_kept": F(Bool(), "le coût de l'action reste payé si elle est contrée", False),
            "text": F(Str(), "le contre, en quelques mots", required=True),
        },
        "Contre : des personnages qui font échouer une action.",
        story=False,
        covered=True,
    ),
    Kind(
        "variant",
        FAMILY,
        "variants",
        {
            "id": F(Str(), "identifiant de la variante", required=True),
            "name": F(Str(), "nom affiché", required=True),
            "characters": F(
                ListOf(Ref(("character",)), min_len=5, max_len=5),
                "les cinq personnages en jeu",
                required=True,
            ),
            "default": F(Bool(), "la variante proposée par défaut", default=False),
            "text": F(Str(), "à qui la conseiller"),
        },
        "Variante : les cinq personnages retenus pour une partie.",
        story=False,
        covered=True,
    ),
]

NAMES_FR = {
    "character": ("personnage", False),
    "action": ("action", True),
    "counter": ("contre", False),
    "variant": ("variante", True),
}

MESSAGES = {
    "no_default": "aucune variante n'est marquée « default: true » : la première sera proposée",
    "two_defaults": "plusieurs variantes sont marquées « default: true »",
    "no_variant": "il faut au moins une variante (cinq personnages en jeu)",
    "same_twice": "la variante « {id} » nomme deux fois le même personnage",
    "power_twice": "la variante « {id} » a deux personnages au pouvoir « {power} »",
}


def _variant_checks(g: GraphView) -> list[Issue]:
    out: list[Issue] = []
    variants = [(node, data) for node, kind, data in g.records() if kind == "variant"]
    if not variants:
        return [Issue("CAMP001", "error", MESSAGES["no_variant"])]
    defaults = [node for node, data in variants if data.get("default")]
    if len(defaults) > 1:
        out.append(Issue("FIELD002", "error", MESSAGES["two_defaults"], node=defaults[1]))
    for node, data in variants:
        chars = [str(c) for c in data.get("characters") or []]
        if len(set(chars)) != len(chars):
            msg = MESSAGES["same_twice"].format(id=data.get("id"))
            out.append(Issue("FIELD002", "error", msg, node=node))
            continue
        powers: dict[str, str] = {}
        for c in chars:
            power = (g.data(f"character:{c}") or {}).get("power")
            if power in powers and power != "none":
                msg = MESSAGES["power_twice"].format(id=data.get("id"), power=power)
                out.append(Issue("FIELD002", "error", msg, node=node))
            if power:
                powers[str(power)] = c
    return out


#: node colours on the story map
COLOURS = {"character": "#8e24aa", "action": "#3949ab", "counter": "#b71c1c", "variant": "#7a8b99"}


def _named(kinds: list[Kind]) -> tuple[Kind, ...]:
    return tuple(
        replace(
            k,
            name_fr=NAMES_FR[k.name][0],
            feminine=NAMES_FR[k.name][1],
            colour=COLOURS.get(k.name, ""),
        )
        for k in kinds
    )


SCHEMA = ContentSchema(
    family=FAMILY,
    kinds=_named(COMPLOTS_KINDS),
    effects={},
    conditions={},
    checks=(_variant_checks,),
)
