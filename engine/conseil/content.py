"""Le Conseil des 12's content format: the characters, the Quémandeur cards, the 36 numbered
dilemma cards, the final claim, the Chef du Conseil card and the monthly scenarios, as data
(``engine.core.schema``), with the checks only this game needs."""

from __future__ import annotations

from ..core.schema import (
    NUMBER,
    Bool,
    ContentSchema,
    Effects,
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

FAMILY = "conseil"

CHARACTERS = (
    "alchimiste",
    "automate",
    "chevalier",
    "dame",
    "druidesse",
    "golem",
    "inverseuse",
    "oracle",
    "parasite",
    "puissante",
    "sorcier",
    "stoique",
)
#: what a kept RÉCOMPENSE card lets the council do once, when it discards it
REWARDS = ("nudge", "flip", "reroll", "shield", "favor")
MONTHS = (
    "janvier",
    "fevrier",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
)

#: the moments of a turn the engine goes through (``state["phase"]``): a tutorial card is shown
#: during one of them
PHASES = (
    "start",
    "bells",
    "setup_choose",
    "choose",
    "reveal",
    "oracle",
    "effect",
    "aftermath",
    "throne_setup",
    "throne",
    "throne_rewards",
    "claim",
    "successor",
    "over",
)

EFFECTS = {
    "favor": F(Int(min=-5, max=5), "Faveur gagnée (positive) ou perdue (négative)"),
    "reroll": F(Bool(), "relancez le dé"),
    "recover": F(Bool(), "chaque membre reprend en main la carte du dessus de sa défausse"),
}

OBJECTIVE = ListOf(Int(min=1, max=12), min_len=1, max_len=12, fr="valeurs du dé")

KINDS = (
    Kind(
        "character",
        FAMILY,
        "characters",
        {
            "id": F(Enum(CHARACTERS), "identifiant du personnage", required=True),
            "name": F(Str(), "nom en capitales (« LA PUISSANTE »)", required=True),
            "text": F(Str(), "effet, tel qu'imprimé sur la carte", required=True),
            "help": F(Str(), "un mot d'aide (quand la jouer)"),
            "feminine": F(Bool(), "nom féminin", default=False),
        },
        "Carte Personnage : un des douze membres du Conseil et son effet.",
        story=False,
        covered=True,
        name_fr="carte Personnage",
        colour="#8e24aa",
        feminine=True,
    ),
    Kind(
        "petitioner",
        FAMILY,
        "petitioners",
        {
            "id": F(Enum(CHARACTERS), "le personnage qui se présente", required=True),
            "crown": F(Int(min=1, max=9), "valeur de la couronne", required=True),
            "demand": F(Str(), "sa doléance (texte de la carte)", required=True),
        },
        "Carte Quémandeur : le personnage venu demander l'aide du Conseil.",
        story=False,
        covered=True,
        name_fr="carte Quémandeur",
        colour="#3949ab",
        feminine=True,
    ),
    Kind(
        "dilemma",
        FAMILY,
        "dilemmas",
        {
            "id": F(Int(min=1, max=99), "numéro au recto", required=True),
            "title": F(Str(), "titre", required=True),
            "difficulty": F(Int(min=1, max=3), "cloches : 1 facile, 2 moyen, 3 difficile"),
            "objectives": F(
                ListOf(OBJECTIVE, min_len=1, max_len=2),
                "un ou deux objectifs, chacun une liste de valeurs",
                required=True,
            ),
            "value": F(Int(min=0, max=30), "valeur de règne au verso", required=True),
            "text": F(Str(), "le récit du recto"),
            "success": F(Effects(FAMILY), "effets du côté droit (réussite)"),
            "failure": F(Effects(FAMILY), "effets du côté gauche (échec)"),
            "success_text": F(Str(), "texte du côté réussite"),
            "failure_text": F(Str(), "texte du côté échec"),
            "reward": F(Enum(REWARDS), "case RÉCOMPENSE : la carte est conservée"),
        },
        "Carte Dilemme numérotée : la valeur à atteindre, ses deux côtés, sa valeur de règne.",
        id_format=NUMBER,
        story=False,
        covered=True,
        name_fr="carte Dilemme",
        colour="#e5793b",
        feminine=True,
    ),
    Kind(
        "throne",
        FAMILY,
        "throne",
        {
            "id": F(Str(), "identifiant", default="trone"),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "le récit", required=True),
            "failure": F(Effects(FAMILY), "effets si les cartes diffèrent"),
            "failure_text": F(Str(), "texte du côté échec"),
        },
        "La carte « REVENDIQUER LE TRÔNE », toujours la dernière.",
        story=False,
        covered=True,
        single=True,
        name_fr="carte Trône",
        colour="#795548",
        feminine=True,
    ),
    Kind(
        "council_head",
        FAMILY,
        "council_head",
        {
            "id": F(Str(), "identifiant", default="chef"),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "ce que fait la carte", required=True),
        },
        "La carte « Chef du Conseil » des parties à quatre.",
        story=False,
        covered=True,
        single=True,
        name_fr="carte Chef du Conseil",
        colour="#00897b",
        feminine=True,
    ),
    Kind(
        "scenario",
        FAMILY,
        "scenarios",
        {
            "id": F(Enum(MONTHS), "le mois", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "le récit du mois", required=True),
            "rule_text": F(Str(), "la règle spéciale, en une phrase"),
            "petitioners": F(
                ListOf(Ref(("petitioner",)), min_len=7, max_len=7),
                "les sept Quémandeurs",
                required=True,
            ),
            "dilemmas": F(
                ListOf(Ref(("dilemma",)), min_len=7, max_len=7),
                "les sept cartes Dilemme (par numéro)",
                required=True,
            ),
            "throne": F(Enum(CHARACTERS), "le personnage qui doit monter sur le trône"),
            "min_bells": F(Int(min=0, max=7), "cloches à sonner au moins"),
            "claim": F(Bool(), "il faut réussir la revendication (choisir un successeur)"),
            "start_favor": F(Int(min=1, max=5), "Faveur de départ"),
            "no_favor_gain": F(Bool(), "résoudre un dilemme ne rapporte pas de Faveur"),
            "silent": F(Bool(), "Conseil silencieux obligatoire"),
        },
        "Un mois de « L'année troublée » : Quémandeurs, dilemmes et règle spéciale.",
        story=False,
        covered=True,
        name_fr="scénario",
        colour="#d9a400",
    ),
    Kind(
        "tutorial",
        FAMILY,
        "tutorial",
        {
            "id": F(Int(min=1, max=20), "ordre de la carte Tutoriel", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "ce que la carte enseigne", required=True),
            "phase": F(Enum(PHASES), "le moment du tour où elle s'affiche"),
        },
        "Carte Tutoriel : une étape de la partie guidée.",
        id_format=NUMBER,
        story=False,
        name_fr="carte Tutoriel",
        colour="#90a4ae",
        feminine=True,
    ),
)


def _numbers(g: GraphView) -> list[Issue]:
    """Every character has its card and its Quémandeur; the pile can be built (4 easy,
    2 medium, 1 hard); every objective value lies on the die."""
    out: list[Issue] = []
    chars = {n.split(":", 1)[1] for n, k, _ in g.records() if k == "character"}
    pets = {n.split(":", 1)[1] for n, k, _ in g.records() if k == "petitioner"}
    for c in CHARACTERS:
        if c not in chars:
            out.append(Issue("REF001", "error", f"personnage « {c} » sans carte"))
        if c not in pets:
            out.append(Issue("REF001", "error", f"personnage « {c} » sans carte Quémandeur"))
    counts = {1: 0, 2: 0, 3: 0}
    for _node, kind, data in g.records():
        if kind != "dilemma":
            continue
        counts[data.get("difficulty", 1)] = counts.get(data.get("difficulty", 1), 0) + 1
    for level, need in ((1, 4), (2, 2), (3, 1)):
        if counts.get(level, 0) < need:
            out.append(
                Issue("FIELD002", "error", f"il faut au moins {need} dilemmes de niveau {level}")
            )
    ones = [d for n, k, d in g.records() if k == "petitioner" and d.get("crown") == 1]
    if len(ones) < 2:
        out.append(Issue("FIELD002", "error", "il faut au moins deux Quémandeurs de couronne 1"))
    return out


def _solvable(g: GraphView) -> list[Issue]:
    """Every dilemma can be settled from some die face by one or two characters (the ORACLE's
    chance left out): a finding otherwise."""
    from itertools import combinations

    from . import plan as P

    chars = [c for c in CHARACTERS if c != "oracle"]
    hands = [frozenset({c}) for c in chars] + [frozenset(p) for p in combinations(chars, 2)]
    out: list[Issue] = []
    for node, kind, data in g.records():
        if kind != "dilemma":
            continue
        try:
            objs = tuple(tuple(int(v) for v in o) for o in data["objectives"])
        except (KeyError, TypeError, ValueError):
            continue
        if not objs or not all(objs):
            continue  # an empty objective is already a finding of its own (FIELD002)
        start = tuple(False for _ in objs)
        ok = any(
            P.finish(h, f, objs, P.met_after(objs, start, f), True) is not None
            for f in range(1, 13)
            for h in hands
        )
        if not ok:
            out.append(
                Issue(
                    "COND001",
                    "error",
                    "aucune face du dé ne permet de résoudre ce dilemme avec une ou deux cartes",
                    node=node,
                )
            )
    return out


SCHEMA = ContentSchema(
    family=FAMILY,
    kinds=KINDS,
    effects=EFFECTS,
    conditions={},
    checks=(_numbers, _solvable),
)
