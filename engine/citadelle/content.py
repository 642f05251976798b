"""The 7th Citadel's content format: what a writer may put in ``content/<campaign>/`` for a
campaign of this game, as data (``engine.core.schema``), with the checks only this game needs.
"""

from __future__ import annotations

from typing import Any

from ..core.schema import (
    FLAG,
    NUMBER,
    Bool,
    Condition,
    ContentSchema,
    Edge,
    Effects,
    Enum,
    F,
    Field,
    Granted,
    GraphView,
    IdFormat,
    Int,
    Kind,
    ListOf,
    MapOf,
    Record,
    Ref,
    Str,
    SubNodes,
    branch_effect,
)
from .hidden import CODES as HIDDEN_CODES
from .hidden import check_hidden_numbers

FAMILY = "citadelle"

#: The 7th Citadel: community scores on the Citadel sheet (0–25).
COMMUNITY_SCORES = ("influence", "knowledge", "production", "defense")
COMMUNITY_MAX = 25
ADVENTURE_TYPES = (
    "terrain",
    "permanent_event",
    "temporary_event",
    "global_event",
    "purse",
    "quest_item",
    "world_map",
)
EXPLORATION_TYPES = ("permanent_event", "temporary_event", "global_event", "purse", "terrain")
VERSIONS = ("green", "gold")
DIRECTIONS = ("north", "south", "east", "west")
#: Action icons.  The French names are in ``site/``'s guide and in the engine's UI strings.
ACTION_VERBS = (
    "move",
    "fight",
    "dodge",
    "sneak",
    "pull_push_lift",
    "climb",
    "find_passage",
    "search",
    "talk",
    "craft",
    "rest",
    "use",
)
SKILL_TYPES = ("character", "advanced", "reflex")
CLASS_ICONS = ("might", "agility", "wits", "faith", "joker")
HALF_STARS = ("left", "right")
QUEST_STATES = ("active", "primed", "done")
SCENARIO_ENDS = ("victory", "defeat")
PLAYER_COUNTS = ("1", "2", "3", "4")

# --------------------------------------------------------------------------- effects

CITADELLE_EFFECTS: dict[str, Field] = {
    "take": F(Ref(("adventure_card",), edge="takes"), "prend la carte Aventure de ce numéro"),
    "take_if_available": F(
        Ref(("adventure_card",), edge="takes"), "prend la carte si elle est disponible (sinon rien)"
    ),
    "read": F(Ref(("paragraph",), edge="reads"), "lit le paragraphe du Livre des dialogues"),
    "damage": F(Int(min=0), "dégâts subis (annulables)"),
    "hit_points": F(Int(), "points de vie gagnés (+) ou perdus (−), non annulables"),
    "cancel_damage": F(Int(min=0), "annule jusqu'à X dégâts"),
    "add_to_hand": F(Int(min=0), "ajoute jusqu'à X cartes révélées à la main"),
    "discard_from_deck": F(Int(min=0), "défausse X cartes du sommet du Deck d'Action"),
    "recover": F(Int(min=0), "reprend X cartes de la Défausse au hasard dans le Deck d'Action"),
    "discard": F(Ref(("adventure_card", "exploration_card"), allow_this=True), "défausse la carte"),
    "banish": F(
        Ref(("adventure_card", "exploration_card", "action_card"), allow_this=True), "bannit"
    ),
    "put_back": F(Ref(("adventure_card", "exploration_card"), allow_this=True), "range la carte"),
    "block": F(Ref(("adventure_card", "action_card"), allow_this=True), "bloque la carte"),
    "unblock": F(Ref(("adventure_card", "action_card"), allow_this=True), "débloque la carte"),
    "move_die": F(Int(min=1, max=5), "déplace le dé de X lignes (action multiple)"),
    "score": F(MapOf(COMMUNITY_SCORES, Int(min=-25, max=25)), "scores de communauté (bornés 0–25)"),
    "flag": F(Str(), "note un fait (drapeau) que des conditions peuvent tester"),
    "unflag": F(Str(), "efface un drapeau"),
    "quest": F(
        Record(
            {
                "id": F(Ref(("side_quest",), edge="marks"), "la quête secondaire", required=True),
                "state": F(Enum(QUEST_STATES), "nouvel état", required=True),
            }
        ),
        "inscrit ou fait avancer une quête secondaire",
    ),
    "objective": F(Ref(("objective",)), "marque un objectif du scénario comme atteint"),
    "hope": F(Int(min=1), "cartes « L'espoir renaît ! » gagnées"),
    "build": F(Ref(("building",), edge="builds"), "coche une case du bâtiment"),
    "add_skill": F(Ref(("action_card",), edge="adds"), "ajoute la compétence au Deck d'Action"),
    "return_to_citadel": F(Bool(), "retour à la Citadelle : l'épilogue du scénario se lit"),
    "adventure_ends": F(Bool(), "« Votre aventure s'achève ici » : défaite"),
}

CITADELLE_CONDITIONS: dict[str, Field] = {
    "flag": F(Str(), "le drapeau a été posé"),
    "not_flag": F(Str(), "le drapeau n'a pas été posé"),
    "item": F(
        Ref(("adventure_card",)), "un personnage possède cette carte (Bourse ou Objet de quête)"
    ),
    "quest": F(
        Record(
            {
                "id": F(Ref(("side_quest",)), required=True),
                "state": F(Enum(QUEST_STATES), required=True),
            }
        ),
        "la quête secondaire est dans cet état",
    ),
    "objective": F(Ref(("objective",)), "l'objectif du scénario est atteint"),
    "score": F(MapOf(COMMUNITY_SCORES, Int()), "score de communauté au moins égal"),
    "characters": F(Int(min=1, max=4), "au moins N personnages dans l'aventure"),
}

#: a die roll (d6): ``- roll: {at_most: 2, then: [...], otherwise: [...]}``
CITADELLE_EFFECTS["roll"] = F(
    Record(
        {
            "at_most": F(Int(min=1, max=6), "le dé (1 à 6) doit faire au plus", required=True),
            "then": F(Effects(FAMILY), "effets si c'est le cas", required=True),
            "otherwise": F(Effects(FAMILY), "effets sinon"),
        }
    ),
    "lance un dé à six faces",
)

CITADELLE_EFFECTS["branch"] = branch_effect(FAMILY)

# --------------------------------------------------------------------------- kinds

ACTION_LINE = Record(
    {
        "difficulty": F(Int(min=0, max=20), "difficulté de la ligne", required=True),
        "success": F(Effects(FAMILY), "conséquences de la réussite"),
        "failure": F(Effects(FAMILY), "conséquences de l'échec"),
    }
)

ACTION = Record(
    {
        "verb": F(Enum(ACTION_VERBS), "l'icône d'action", required=True),
        "title": F(Str(), "intitulé affiché"),
        "cost": F(Int(min=0, max=20), "coût par défaut (cartes à piocher)", required=True),
        "chain": F(Bool(), "icône chaîne : seuls « coût » cartes comptent leurs étoiles"),
        "difficulty": F(Int(min=0, max=20), "difficulté (action simple)"),
        "mandatory": F(Bool(), "action obligatoire (cadre rouge)"),
        "group": F(Bool(), "action de groupe : tous les personnages conscients"),
        "requires": F(Condition(FAMILY), "prérequis"),
        "success": F(Effects(FAMILY), "conséquences de la réussite (cartouche blanc)"),
        "failure": F(Effects(FAMILY), "conséquences de l'échec (cartouche noir)"),
        "lines": F(ListOf(ACTION_LINE, min_len=1), "lignes d'une action multiple (le dé)"),
        "traits": F(ListOf(Ref(("creature_trait",))), "traits de la créature combattue"),
    },
    one_of=("difficulty", "lines"),
)

ARROW = Record(
    {
        "direction": F(Enum(DIRECTIONS), "côté de la carte", required=True),
        "zone": F(
            Str(vocab="zone", vocab_fr="la zone d'Exploration"),
            "zone d'Exploration (I, II, …) de la carte posée devant la flèche",
        ),
        "card": F(Ref(("adventure_card",), edge="reveals"), "carte Aventure qui prend la place"),
    },
    one_of=("zone", "card"),
)

BONUSES = Record(
    {
        "cost_reduction": F(Int(min=0), "piocher jusqu'à X cartes de moins"),
        "extra_draw": F(Int(min=0), "piocher X cartes de plus"),
        "successes": F(Int(min=0), "succès supplémentaires"),
        "extra_cards": F(Int(min=0), "cartes supplémentaires comptabilisées"),
        "convert": F(
            Record(
                {
                    "classes": F(
                        ListOf(Enum(CLASS_ICONS), min_len=1),
                        "icônes",
                        required=True,
                    ),
                    "count": F(Int(min=1), "icônes par conversion", default=1),
                    "into": F(
                        Enum(("success", "cancel_damage")),
                        "bonus obtenu",
                        required=True,
                    ),
                    "max": F(Int(min=1), "max. X"),
                }
            ),
            "conversion d'icônes de classe",
        ),
    }
)

CARD_BODY = {
    "title": F(Str(), "titre"),
    "text": F(Str(), "texte d'ambiance et effets lisibles"),
    "actions": F(ListOf(ACTION), "actions disponibles"),
    "effects": F(Effects(FAMILY), "effets appliqués quand la carte est révélée"),
    "hidden_numbers": F(
        ListOf(Ref(("adventure_card",), edge="hidden_number")), "numéros cachés (trois chiffres)"
    ),
}

#: the MOT-CLEF the rules give a meaning of its own (put away when its owner faints)
TEMPORARY = "TEMPORAIRE"

#: an adventure card is keyed by its number and its version (« 12/green »), then the scenario
#: a scenario-specific version belongs to and the card a linked version goes with
NUMBERED_CARD = IdFormat(
    "number",
    numbered=True,
    suffixes=(("version", "/", "green"), ("scenario", "@", None), ("linked_card", "+", None)),
    guards=("scenario",),
)

CITADELLE_KINDS: list[Kind] = [
    Kind(
        "adventure_card",
        FAMILY,
        "adventure_cards",
        {
            "number": F(Int(min=1, max=999), "numéro au dos", required=True),
            "version": F(Enum(VERSIONS), "dos vert ou doré", default="green"),
            "scenario": F(Ref(("scenario",)), "version propre à un scénario (symbole)"),
            "linked_card": F(Ref(("adventure_card",)), "version propre à une autre carte possédée"),
            "type": F(Enum(ADVENTURE_TYPES), "type de carte", required=True),
            "back": F(Str(), "texte au dos, lu avant de révéler"),
            "back_source": F(Int(), "numéro de la carte source imprimé au dos (numéro caché)"),
            **CARD_BODY,
            "arrows": F(ListOf(ARROW), "flèches d'un Terrain (Exploration ou carte Aventure)"),
            "weight": F(Int(min=0, max=10), "poids d'une carte Bourse"),
            "keywords": F(
                ListOf(Str(vocab="keyword", vocab_fr="le MOT-CLEF", also=(TEMPORARY,))),
                "MOTS-CLEFS d'une carte Bourse, déclarés par le champ « keywords » de la "
                f"campagne ({TEMPORARY} est toujours permis)",
            ),
            "undiscardable": F(Bool(), "ne peut être ni défaussée ni donnée"),
            "when": F(
                ListOf(Enum(ACTION_VERBS)), "actions pendant lesquelles l'objet aide (Bourse)"
            ),
            "bonuses": F(BONUSES, "bonus chiffrés d'une carte Bourse, lus par le moteur"),
            "must_select": F(Bool(), "icône « doit » : l'objet est obligatoirement sélectionné"),
            "on_selected": F(
                Effects(FAMILY), "[sélectionnée] : effets après une action où l'objet a servi"
            ),
            "hope": F(Bool(), "carte « L'espoir renaît ! »"),
        },
        "Carte Aventure numérotée : Terrain, Événement, Bourse, Objet de quête, Mappemonde.",
        id_format=NUMBERED_CARD,
    ),
    Kind(
        "exploration_card",
        FAMILY,
        "exploration_cards",
        {
            "id": F(Int(min=1), "identifiant unique (au recto)", required=True),
            "zone": F(Str(vocab="zone", declares=True), "zone (I, II, …)", required=True),
            "type": F(Enum(EXPLORATION_TYPES), "type d'événement", required=True),
            **CARD_BODY,
        },
        "Carte Exploration (dos brouillard) : un événement aléatoire de sa zone.",
        id_format=NUMBER,
    ),
    Kind(
        "paragraph",
        FAMILY,
        "paragraphs",
        {
            "id": F(Int(min=1), "numéro du paragraphe", required=True),
            "text": F(Str(), "le dialogue", required=True),
            "side_quest": F(
                Ref(("side_quest",), edge="marks"), "texte souligné : la quête secondaire"
            ),
            "effects": F(Effects(FAMILY), "effets appliqués à la lecture"),
            "actions": F(ListOf(ACTION), "actions proposées par le dialogue"),
            "choices": F(
                ListOf(
                    Record(
                        {
                            "text": F(Str(), "ce que dit ou fait le joueur actif", required=True),
                            "requires": F(Condition(FAMILY), "condition pour proposer ce choix"),
                            "read": F(Ref(("paragraph",), edge="choice"), "paragraphe suivant"),
                            "effects": F(Effects(FAMILY), "effets du choix"),
                        },
                        one_of=("read", "effects"),
                    )
                ),
                "les choix",
            ),
            "end": F(Bool(), "fin du dialogue : retour au plateau"),
        },
        "Paragraphe du Livre des dialogues : texte, effets, choix, actions.",
        id_format=NUMBER,
    ),
    Kind(
        "menace",
        FAMILY,
        "menaces",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "titre du livret de Menace", required=True),
            "text": F(Str(), "présentation"),
            "scenarios": F(
                ListOf(Ref(("scenario",)), min_len=1), "scénarios, dans l'ordre", required=True
            ),
        },
        "Livret de Menace : une suite de scénarios.",
    ),
    Kind(
        "scenario",
        FAMILY,
        "scenarios",
        {
            "id": F(Str(), "identifiant", required=True),
            "menace": F(Ref(("menace",)), "livret de Menace (absent : scénario d'introduction)"),
            "symbol": F(Str(), "symbole du scénario (cartes propres au scénario)"),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "récit d'ouverture", required=True),
            "setup": F(
                Record(
                    {
                        "hit_points": F(
                            MapOf(PLAYER_COUNTS, Int(min=1, max=99)),
                            "PV selon le nombre de joueurs",
                        ),
                        "tremor": F(Int(min=0, max=10), "niveau du tremblement"),
                        "start": F(
                            ListOf(Ref(("adventure_card",), edge="takes")), "cartes mises en jeu"
                        ),
                        "flags": F(ListOf(Str()), "drapeaux posés au départ"),
                        "resume": F(
                            ListOf(Ref(("adventure_card",), edge="takes")),
                            "cartes remises en jeu à la reprise d'une partie sauvegardée "
                            "(le chemin du retour)",
                        ),
                    }
                ),
                "mise en place",
            ),
            "objectives": F(
                SubNodes("objective", prefix_parent=False, edge="objective"),
                "objectifs du scénario",
            ),
            "epilogue": F(
                SubNodes("epilogue", edge="ends"), "branches de l'épilogue", required=True
            ),
        },
        "Scénario d'un livret de Menace : mise en place, objectifs, épilogue à branches.",
    ),
    Kind(
        "objective",
        FAMILY,
        "",
        {
            "id": F(Str(), "identifiant unique dans la campagne", required=True),
            "text": F(Str(), "l'objectif", required=True),
            "optional": F(Bool(), "objectif facultatif"),
        },
        "Objectif d'un scénario.",
        story=False,
    ),
    Kind(
        "epilogue",
        FAMILY,
        "",
        {
            "id": F(Str(), "identifiant dans le scénario", required=True),
            "requires": F(
                Condition(FAMILY), "ce qu'il faut avoir accompli pour lire cette branche"
            ),
            "text": F(Str(), "le récit", required=True),
            "effects": F(Effects(FAMILY), "conséquences sur le feuillet Citadelle"),
            "next": F(Ref(("scenario",), edge="continues"), "scénario suivant"),
            "end": F(Enum(SCENARIO_ENDS), "fin de l'aventure : victory ou defeat"),
        },
        "Branche d'épilogue : lue au retour à la Citadelle, mène au scénario suivant.",
        one_of=("next", "end"),
    ),
    Kind(
        "action_card",
        FAMILY,
        "action_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "skill": F(
                Enum(SKILL_TYPES), "compétence de personnage, avancée ou réflexe", required=True
            ),
            "character": F(
                Str(vocab="character", vocab_fr="le personnage", also=("X",)),
                "initiale du Personnage (A–D), ou X : n'importe lequel",
            ),
            "title": F(Str(), "titre", required=True),
            "result": F(
                Record(
                    {
                        "stars": F(Int(min=0, max=5), "étoiles pleines"),
                        "half_stars": F(
                            ListOf(Enum(HALF_STARS)), "demi-étoiles, dans l'ordre de lecture"
                        ),
                        "classes": F(ListOf(Enum(CLASS_ICONS)), "icônes de classe"),
                    }
                ),
                "zone de résultat",
            ),
            "when": F(ListOf(Enum(ACTION_VERBS)), "actions pendant lesquelles l'effet s'applique"),
            "text": F(Str(), "effet en toutes lettres"),
            "bonuses": F(BONUSES, "bonus chiffrés, lus par le moteur"),
            "spend": F(
                Enum(("discard", "block")),
                "utiliser la compétence la défausse ou la bloque (le joueur choisit de s'en servir)",
            ),
            "actions": F(ListOf(ACTION), "action disponible sur la carte"),
        },
        "Carte Action (dos bleu) : zone de résultat et compétence.",
        story=False,
    ),
    Kind(
        "character",
        FAMILY,
        "characters",
        {
            "id": F(Str(vocab="character", declares=True), "initiale (A–D)", required=True),
            "name": F(Str(), "nom", required=True),
            "color": F(Str(), "couleur de la figurine"),
            "gender": F(Enum(("f", "m")), "accord du français : f (elle) ou m (il)"),
            "text": F(Str(), "présentation"),
            "hand_size": F(
                MapOf(PLAYER_COUNTS, Int(min=0, max=10)), "taille de main", required=True
            ),
            "carry_weight": F(
                MapOf(PLAYER_COUNTS, Int(min=0, max=20)), "poids transportable", required=True
            ),
            "starting_skills": F(ListOf(Ref(("action_card",))), "compétences de départ"),
        },
        "Carte Personnage : taille de main et poids transportable selon le nombre de joueurs.",
        story=False,
    ),
    Kind(
        "lexicon_entry",
        FAMILY,
        "lexicon",
        {
            "id": F(Str(), "identifiant", required=True),
            "term": F(Str(), "le mot marqué d'un astérisque", required=True),
            "text": F(Str(), "ce que le personnage en sait", required=True),
        },
        "Entrée du lexique du Livre des dialogues (les mots suivis d'un astérisque).",
        story=False,
    ),
    Kind(
        "creature_trait",
        FAMILY,
        "traits",
        {
            "id": F(Str(), "identifiant", required=True),
            "name": F(Str(), "nom du trait", required=True),
            "text": F(Str(), "son effet, en toutes lettres", required=True),
            "difficulty": F(Int(min=-5, max=5), "difficulté en plus (+) ou en moins (−)"),
            "cost": F(Int(min=-5, max=5), "coût en plus ou en moins"),
            "on_failure": F(Effects(FAMILY), "effets en plus quand l'action échoue"),
            "on_success": F(Effects(FAMILY), "effets en plus quand l'action réussit"),
        },
        "Trait de créature (page Aide de jeu) : s'applique à chaque combat contre elle.",
        story=False,
    ),
    Kind(
        "citadel",
        FAMILY,
        "citadel",
        {
            "id": F(Str(), "identifiant", default="citadelle"),
            "scores": F(
                MapOf(COMMUNITY_SCORES, Int(min=0, max=COMMUNITY_MAX)),
                "scores de départ",
                required=True,
            ),
            "tremor": F(Int(min=0, max=10), "niveau de départ du tremblement"),
        },
        "Feuillet Citadelle : scores de communauté et tremblement.",
        story=False,
        single=True,
    ),
    Kind(
        "building",
        FAMILY,
        "buildings",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "nom", required=True),
            "boxes": F(Int(min=1, max=20), "cases à cocher pour le construire", required=True),
            "text": F(Str(), "effet une fois construit", required=True),
            "on_scenario_start": F(
                Effects(FAMILY), "effets au début de chaque scénario, une fois construit"
            ),
        },
        "Bâtiment de la Citadelle : construit quand toutes ses cases sont cochées.",
        story=False,
    ),
    Kind(
        "destiny",
        FAMILY,
        "destiny",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "intitulé", required=True),
            "cost": F(Int(min=1, max=10), "cartes « L'espoir renaît ! » à dépenser", required=True),
            "text": F(Str(), "le bonus", required=True),
            "effects": F(Effects(FAMILY), "effets du bonus"),
        },
        "Case de la page Destinée : un bonus acheté avec « L'espoir renaît ! ».",
        story=False,
    ),
    Kind(
        "side_quest",
        FAMILY,
        "side_quests",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "objectif de la quête"),
        },
        "Quête secondaire : active, amorcée, terminée.",
    ),
]

# --------------------------------------------------------------------------- campaign

RULES_KEYS = ("table_columns", "table_rows", "move_cost")

CAMPAIGN_FIELDS: dict[str, Field] = {
    "intro": F(Str(), "le scénario d'introduction"),
    "keywords": F(
        ListOf(Str(vocab="keyword", declares=True)),
        "les MOTS-CLEFS que portent les cartes Bourse de la campagne (ARME, OUTIL…) : une carte "
        "n'en porte pas d'autre",
    ),
    "rules": F(
        MapOf(RULES_KEYS, Int(min=0, max=99)), "réglages de règles laissés ouverts par le livret"
    ),
}

NAMES_FR = {
    "adventure_card": ("carte Aventure", True),
    "exploration_card": ("carte Exploration", True),
    "paragraph": ("paragraphe", False),
    "menace": ("Menace", True),
    "scenario": ("scénario", False),
    "objective": ("objectif", False),
    "epilogue": ("épilogue", False),
    "action_card": ("carte Action", True),
    "character": ("Personnage", False),
    "lexicon_entry": ("entrée du lexique", True),
    "creature_trait": ("trait de créature", False),
    "citadel": ("feuillet Citadelle", False),
    "building": ("bâtiment", False),
    "destiny": ("case Destinée", True),
    "side_quest": ("quête secondaire", True),
}

MESSAGES = {
    "start": "le scénario d'introduction (intro: <id du scénario>)",
    "listed": (
        "seul le premier scénario d'une Menace est un point de départ ; les suivants "
        "s'atteignent par le « next » d'un épilogue"
    ),
    "dead_end.paragraph": (
        "ajoutez des choix, un effet « read » ou une action, ou marquez-le « end: true » si "
        "le dialogue s'arrête vraiment ici"
    ),
    "dead_end.exploration_card": (
        "donnez-lui une action ou des effets pour que les joueurs puissent la résoudre et "
        "libérer l'emplacement"
    ),
    "dead_end.scenario": "donnez-lui au moins une branche d'épilogue",
    "cond.item_type": (
        "la carte {value} est de type {type}, que personne ne peut posséder ; un objet doit "
        "être une carte purse ou quest_item."
    ),
    "cond.item_unreachable": (
        "la carte {value} n'est jamais atteignable, donc personne ne peut la posséder. "
        "Rendez-la d'abord atteignable."
    ),
    "cond.score": "le score de communauté « {name} » ne dépasse jamais {max} (demandé : {need}).",
    "label.adventure": "{number} ({version})",
    "label.adventure_scenario": "{number} ({version}, scénario {scenario})",
}


def _implicit_edges(g: GraphView) -> list[Edge]:
    """A Menace contains its first scenario (the others follow epilogues); an arrow with a zone
    leads to every exploration card of that zone."""
    root = f"campaign:{g.campaign.get('id')}"
    zones: dict[str, list[str]] = {}
    for node, kind, data in g.records():
        if kind == "exploration_card" and "zone" in data:
            zones.setdefault(str(data["zone"]), []).append(node)
    out: list[Edge] = []
    for node, kind, data in g.records():
        if kind == "menace":
            out.append(Edge(root, node, "contains"))
            first = (data.get("scenarios") or [None])[0]
            if first is not None and g.has(f"scenario:{first}"):
                out.append(Edge(node, f"scenario:{first}", "contains"))
        elif kind == "adventure_card":
            for arrow in data.get("arrows") or ():
                zone = arrow.get("zone")
                for target in zones.get(str(zone), ()) if zone is not None else ():
                    out.append(Edge(node, target, "explores", None, arrow.get("direction")))
    return out


def _ends(data: dict) -> bool:
    """The paragraph ends the dialogue by itself (an end, a return, a defeat, an action)."""
    ends = any(
        k in ("return_to_citadel", "adventure_ends") for e in data.get("effects", ()) for k in e
    )
    return bool(data.get("end") or data.get("actions") or ends)


def _leaves_loop(g: GraphView, node: str, kind: str, data: dict, loop: frozenset[str]) -> bool:
    """A dialogue paragraph lets play out of a loop of paragraphs if it ends, or if a choice,
    a « read » or a card taken leads outside the loop."""
    if kind != "paragraph":
        return _way_on(g, node, kind, data)
    if _ends(data):
        return True
    return any(
        target not in loop and edge in ("choice", "reads", "takes")
        for target, edge in g.out_edges(node)
    )


def _way_on(g: GraphView, node: str, kind: str, data: dict) -> bool:
    if kind == "paragraph":
        ends = any(
            k in ("return_to_citadel", "adventure_ends") for e in data.get("effects", ()) for k in e
        )
        return bool(
            data.get("end")
            or data.get("choices")
            or data.get("actions")
            or ends
            or any(k in ("reads", "takes") for k in g.out_edge_kinds(node))
        )
    if kind == "exploration_card":
        return bool(data.get("actions") or data.get("effects"))
    if kind == "scenario":
        return any(s.startswith("epilogue:") for s in g.successors(node))
    return True


def _never(g: GraphView, atom: str, value: Any, rules: dict) -> str | None:
    if atom == "item":
        nodes = g.by("adventure_card", str(value))
        items = [n for n in nodes if (g.data(n) or {}).get("type") in ("purse", "quest_item")]
        if nodes and not items:
            kind = (g.data(nodes[0]) or {}).get("type")
            return MESSAGES["cond.item_type"].format(value=value, type=kind)
        if items and not any(n in g.reachable() for n in items):
            return MESSAGES["cond.item_unreachable"].format(value=value)
    if atom == "score":
        for name, need in dict(value).items():
            if need > COMMUNITY_MAX:
                return MESSAGES["cond.score"].format(name=name, max=COMMUNITY_MAX, need=need)
    return None


def _setup_grants(g: GraphView) -> dict[str, set[str]]:
    """Flags a reachable scenario sets at its start."""
    seen = g.reachable()
    flags: set[str] = set()
    for node, kind, data in g.records():
        if kind == "scenario" and node in seen:
            flags.update((data.get("setup") or {}).get("flags") or ())
    return {"flag": flags}


def _opening(g: GraphView) -> list[tuple[str, str]]:
    intro = g.data(f"scenario:{g.campaign.get('intro')}")
    return [(intro["title"], intro.get("text", ""))] if intro else []


def _label(kind: str, key: str, data: dict) -> str | None:
    if kind != "adventure_card":
        return None
    args = {"number": data.get("number"), "version": data.get("version", "green")}
    if data.get("scenario"):
        return MESSAGES["label.adventure_scenario"].format(**args, scenario=data["scenario"])
    return MESSAGES["label.adventure"].format(**args)


#: the French name of each edge kind the Citadel's content makes, on the story map
EDGES_FR = {
    "choice": "choix",
    "adds": "ajoute",
    "contains": "contient",
    "takes": "prend",
    "reads": "lit",
    "reveals": "révèle",
    "explores": "explore",
    "hidden_number": "numéro caché",
    "marks": "inscrit la quête",
    "builds": "construit",
    "ends": "épilogue",
    "continues": "suite",
    "objective": "objectif",
}

#: node colours on the story map
COLOURS = {
    "scenario": "#d9a400",
    "paragraph": "#4f8fd8",
    "adventure_card": "#43a047",
    "exploration_card": "#8d9ba8",
    "menace": "#b71c1c",
    "objective": "#00897b",
    "action_card": "#3949ab",
    "character": "#8e24aa",
    "citadel": "#795548",
    "building": "#a1887f",
    "destiny": "#f06292",
    "side_quest": "#26a69a",
    "lexicon_entry": "#90a4ae",
    "creature_trait": "#6d8f3c",
    "epilogue": "#a05fc4",
}


def _named(kinds: list[Kind]) -> tuple[Kind, ...]:
    from dataclasses import replace

    return tuple(
        replace(
            k,
            name_fr=NAMES_FR[k.name][0],
            feminine=NAMES_FR[k.name][1],
            colour=COLOURS.get(k.name, ""),
            dead_end_fix=MESSAGES.get(f"dead_end.{k.name}", ""),
            resolve_by="number" if k.name == "adventure_card" else None,
        )
        for k in kinds
    )


#: the conditions only their own effect makes true (a flag, a side quest's state, an objective)
GRANTED = (
    FLAG,
    Granted(
        "objective",
        "aucun effet atteignable ne marque l'objectif « {value} ». Ajoutez "
        "« - objective: {value} » là où les joueurs l'atteignent.",
    ),
    Granted(
        "quest",
        "aucun effet atteignable ne met la quête secondaire « {id} » dans l'état « {state} ». "
        "Ajoutez « - quest: {{id: {id}, state: {state}}} » à du contenu atteignable.",
        keyed=True,
        any_state="active",
    ),
)


SCHEMA = ContentSchema(
    family=FAMILY,
    kinds=_named(CITADELLE_KINDS),
    effects=CITADELLE_EFFECTS,
    conditions=CITADELLE_CONDITIONS,
    campaign_fields=CAMPAIGN_FIELDS,
    start_field="intro",
    start_node=lambda value: f"scenario:{value}",
    start_fr=MESSAGES["start"],
    implicit_edge_kinds=frozenset({"contains", "explores"}),
    edges_fr=EDGES_FR,
    implicit_edges=_implicit_edges,
    way_on=_way_on,
    leaves_loop=_leaves_loop,
    never=_never,
    granted=GRANTED,
    setup_grants=_setup_grants,
    opening=_opening,
    label=_label,
    rules_keys=RULES_KEYS,
    listed_fr=MESSAGES["listed"],
    checks=(check_hidden_numbers,),
    codes=HIDDEN_CODES,
)
