"""The content format, as data.

Every kind of thing a writer can put in ``content/`` is described here once: its YAML section,
its fields, their types, which fields reference other nodes (and with which graph edge), and
the French sentence the writers' guide shows for it.  ``pipeline.model`` validates against these
specs, ``pipeline.graph`` reads the references from them, and the tests check that the guide
documents every kind listed here.

A spec is a small validator object; specs nest (``ListOf(Record({...}))``) the way mkdocs'
config options do, and errors name the path (``dilemmas[3].oui_da.effects[1].open_envelope``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# --------------------------------------------------------------------------- vocabulary

DILEMME = "dilemme"
CITADELLE = "citadelle"
FAMILIES = (DILEMME, CITADELLE)

#: Le Dilemme du Roi: the five resources on the kingdom board (stability moves with them).
RESOURCES = ("influence", "prosperity", "morale", "welfare", "knowledge")
#: The six secret objectives named by the rulebook.
SECRET_OBJECTIVES = ("extremism", "opulence", "moderation", "rebellion", "opportunism", "avarice")
ABILITY_TRIGGERS = ("immediate", "game_start", "condition", "at_will")
ACHIEVEMENT_KINDS = ("narrative", "mechanic", "alignment")

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


# --------------------------------------------------------------------------- specs


class Spec:
    """Base of all field specs.  ``fr`` is the writers' guide description."""

    fr = ""
    type_fr = "valeur"


@dataclass(frozen=True)
class Str(Spec):
    fr: str = ""
    type_fr: str = "texte"


@dataclass(frozen=True)
class Int(Spec):
    min: int | None = None
    max: int | None = None
    fr: str = ""
    type_fr: str = "nombre entier"


@dataclass(frozen=True)
class Bool(Spec):
    fr: str = ""
    type_fr: str = "oui/non (true/false)"


@dataclass(frozen=True)
class Enum(Spec):
    values: tuple[str, ...] = ()
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "un de : " + ", ".join(self.values)


@dataclass(frozen=True)
class Ref(Spec):
    """A reference to other node(s) by id.  ``edge`` names the graph edge it creates
    (``None``: checked, but no edge).  ``allow_this`` accepts the word ``this``."""

    kinds: tuple[str, ...] = ()
    edge: str | None = None
    allow_this: bool = False
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "identifiant de " + " ou ".join(self.kinds)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec = field(default_factory=Str)
    min_len: int = 0
    max_len: int | None = None
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "liste de " + self.item.type_fr


@dataclass(frozen=True)
class MapOf(Spec):
    keys: tuple[str, ...] = ()
    value: Spec = field(default_factory=Int)
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "table (" + ", ".join(self.keys) + ") → " + self.value.type_fr


@dataclass(frozen=True)
class Field:
    spec: Spec
    required: bool = False
    default: Any = None
    fr: str = ""


@dataclass(frozen=True)
class Record(Spec):
    fields: dict[str, Field] = field(default_factory=dict)
    #: at least one of these keys must be present
    one_of: tuple[str, ...] = ()
    #: fields the record's ``requires`` does not guard (a branch's ``otherwise``)
    unguarded: tuple[str, ...] = ()
    #: (field, value, needed): when ``field`` equals ``value``, ``needed`` must be present
    required_if: tuple[tuple[str, str, str], ...] = ()
    fr: str = ""
    type_fr: str = "table"


@dataclass(frozen=True)
class Effects(Spec):
    """An ordered list of effects, each a one-key mapping (``- open_envelope: 12``)."""

    family: str = DILEMME
    fr: str = ""
    type_fr: str = "liste d'effets"


@dataclass(frozen=True)
class Condition(Spec):
    """Conditions are data: a mapping or a list of one-key mappings, all of which must hold."""

    family: str = DILEMME
    fr: str = ""
    type_fr: str = "condition"


@dataclass(frozen=True)
class SubNodes(Spec):
    """Records nested in a parent that are graph nodes of their own (a dilemma's outcomes,
    a scenario's epilogue branches, a house's achievements)."""

    kind: str = ""
    many: bool = True
    #: node key is ``parent/child`` when True, else the child's own ``id``
    prefix_parent: bool = True
    #: edge from the parent to each child (``None``: no edge)
    edge: str | None = None
    fr: str = ""
    type_fr: str = "sous-éléments"


@dataclass(frozen=True)
class Kind:
    name: str
    family: str
    section: str
    fields: dict[str, Field]
    fr: str
    #: how the record is keyed: ``id`` field normalised by ``id_format``
    id_format: str = "str"  # "str" | "int" | "envelope" | "adventure" | "letter"
    #: story nodes take part in reachability / dead-end / never-referenced checks
    story: bool = True
    #: a section may hold a single mapping instead of a list
    single: bool = False
    one_of: tuple[str, ...] = ()
    required_if: tuple[tuple[str, str, str], ...] = ()


def F(spec: Spec, fr: str = "", required: bool = False, default: Any = None) -> Field:
    return Field(spec=spec, required=required, default=default, fr=fr)


# --------------------------------------------------------------------------- effects


def _who() -> Field:
    return F(Enum(("leader", "moderator", "signer", "all", "winners", "losers")), "qui reçoit")


GAINS = Record(
    {
        "prestige": F(Int(), "points de Prestige à cocher"),
        "craving": F(Int(), "points de Convoitise à cocher"),
        "coins": F(Int(), "pièces prises dans la réserve"),
        "power": F(Int(), "Pouvoir pris dans la réserve"),
    }
)

DILEMME_EFFECTS: dict[str, Field] = {
    **{
        r: F(Int(min=-10, max=10), f"déplace le marqueur {r} (progression appliquée)")
        for r in RESOURCES
    },
    "chronicle_sticker": F(
        Ref(("chronicle_sticker",), edge="sticks"),
        "colle l'autocollant Chronique (signé par le Meneur)",
    ),
    "open_envelope": F(Ref(("envelope",), edge="opens"), "ouvre l'enveloppe"),
    "secret_sticker": F(Ref(("secret_sticker",), edge="sticks"), "colle l'autocollant secret"),
    "skull": F(Bool(), "crâne au centre du verso : peut déclencher la mort du roi"),
    "shuffle_in": F(
        Ref(("dilemma", "immediate_card"), edge="adds"),
        "mélange cette carte dans le paquet Dilemme",
    ),
    "remove_card": F(Ref(("dilemma", "immediate_card"), edge=None), "retire cette carte du paquet"),
    "event": F(Ref(("event_card",), edge="triggers"), "met en jeu la carte Événement"),
    "end_event": F(Ref(("event_card",), edge=None), "termine l'Événement (carte rangée)"),
    "gain": F(
        Record({"who": _who(), **GAINS.fields}),
        "donne Prestige, Convoitise, pièces ou Pouvoir",
    ),
    "achievement": F(
        Ref(("achievement",), edge="unlocks"), "coche une case du haut fait (maison/haut_fait)"
    ),
    "flag": F(Str(), "note un fait de l'histoire (drapeau) que des conditions peuvent tester"),
    "unflag": F(Str(), "efface un drapeau"),
}

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

EFFECTS = {DILEMME: DILEMME_EFFECTS, CITADELLE: CITADELLE_EFFECTS}

# --------------------------------------------------------------------------- conditions

DILEMME_CONDITIONS: dict[str, Field] = {
    "flag": F(Str(), "le drapeau a été posé"),
    "not_flag": F(Str(), "le drapeau n'a pas été posé"),
    "envelope": F(Ref(("envelope",)), "l'enveloppe a été ouverte"),
    "chronicle_sticker": F(Ref(("chronicle_sticker",)), "l'autocollant Chronique est collé"),
    "secret_sticker": F(Ref(("secret_sticker",)), "l'autocollant secret est collé"),
    "secret_stickers": F(Int(min=1, max=12), "au moins N autocollants secrets collés"),
    "resource": F(MapOf(RESOURCES, Int()), "ressource au moins à cette case"),
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

CONDITIONS = {DILEMME: DILEMME_CONDITIONS, CITADELLE: CITADELLE_CONDITIONS}

#: a die roll (d6): ``- roll: {at_most: 2, then: [...], otherwise: [...]}``
CITADELLE_EFFECTS["roll"] = F(
    Record(
        {
            "at_most": F(Int(min=1, max=6), "le dé (1 à 6) doit faire au plus", required=True),
            "then": F(Effects(CITADELLE), "effets si c'est le cas", required=True),
            "otherwise": F(Effects(CITADELLE), "effets sinon"),
        }
    ),
    "lance un dé à six faces",
)

for _family, _effects in EFFECTS.items():
    #: a conditional effect: ``- branch: {requires: ..., then: [...], otherwise: [...]}``
    _effects["branch"] = F(
        Record(
            {
                "requires": F(Condition(_family), "la condition", required=True),
                "then": F(Effects(_family), "effets si elle est vraie", required=True),
                "otherwise": F(Effects(_family), "effets sinon"),
            },
            unguarded=("otherwise",),
        ),
        "effets soumis à une condition (sinon, d'autres effets)",
    )

# --------------------------------------------------------------------------- Dilemme kinds

#: what the engine watches for an ability with ``trigger: condition``
ABILITY_EVENTS = (
    "won_vote",  # your side won the vote (power_min: you staked at least that much)
    "lost_vote",
    "passed_for_power",
    "became_moderator",
    "signed",  # you signed a story card or a chronicle sticker
    "game_end",  # at the end of the game (after scoring)
)

ABILITY = Record(
    {
        "trigger": F(Enum(ABILITY_TRIGGERS), "quand la capacité s'applique", required=True),
        "text": F(Str(), "la capacité, en toutes lettres", required=True),
        "condition": F(Str(), "la circonstance qui la déclenche, en toutes lettres"),
        "when": F(Enum(ABILITY_EVENTS), "trigger: condition — l'événement qui la déclenche"),
        "power_min": F(Int(min=1, max=99), "won_vote : Pouvoir misé au moins"),
        "uses": F(
            Int(min=1, max=10), "cases à cocher : nombre d'utilisations pour toute la campagne"
        ),
        "per_game": F(Int(min=1, max=10), "at_will : utilisations permises par partie"),
        "gains": F(GAINS, "gains appliqués par le moteur (au signataire pour une carte Histoire)"),
    },
    required_if=(("trigger", "condition", "when"),),
)

#: end-of-game tests of a house achievement; all written tests must hold
ACHIEVEMENT_TEST = Record(
    {
        "resource_min": F(MapOf(RESOURCES, Int(min=0)), "ressource au moins à cette case"),
        "resource_max": F(MapOf(RESOURCES, Int(min=0)), "ressource au plus à cette case"),
        "resource_top": F(
            Enum(RESOURCES), "cette ressource est la plus haute (égalités comprises)"
        ),
        "resource_bottom": F(
            Enum(RESOURCES), "cette ressource est la plus basse (égalités comprises)"
        ),
        "stability": F(Enum(("top_half", "bottom_half", "centre")), "position de la Stabilité"),
        "coins_min": F(Int(min=0), "pièces au moins, en fin de partie"),
        "power_min": F(Int(min=0), "Pouvoir au moins, en fin de partie"),
        "public_points_min": F(Int(min=1), "points gagnés grâce aux Objectifs publics"),
        "rank_max": F(Int(min=1, max=5), "classé à ce rang ou mieux"),
        "king": F(Enum(("died", "abdicated")), "comment la partie s'est terminée"),
        "signed_min": F(Int(min=1), "cartes et autocollants signés pendant la partie"),
    }
)

OUTCOME_FIELDS = {
    "text": F(Str(), "ce qui arrive au royaume", required=True),
    "effects": F(Effects(DILEMME), "les effets, dans l'ordre de gauche à droite"),
}

STORY_FIELDS = {
    "id": F(Str(), "identifiant unique", required=True),
    "arc": F(Ref(("arc",)), "l'arc narratif où la carte se pose", required=True),
    "title": F(Str(), "titre", required=True),
    "text": F(Str(), "le récit au verso", required=True),
    "signature": F(Bool(), "emplacement de signature (le Meneur signe)", default=False),
    "abilities": F(ListOf(ABILITY), "capacités spéciales (actives si la carte est au-dessus)"),
}

DILEMME_KINDS: list[Kind] = [
    Kind(
        "envelope",
        DILEMME,
        "envelopes",
        {
            "id": F(Int(min=0, max=99), "numéro de l'enveloppe (00 à 99)", required=True),
            "title": F(Str(), "titre pour les auteurs et la chronique"),
            "special": F(Bool(), "enveloppe spéciale : suivre ses instructions", default=False),
            "instructions": F(Str(), "instructions d'une enveloppe spéciale"),
            "story": F(
                Ref(("story_card", "epilogue"), edge="contains"),
                "la carte Histoire (1er emplacement)",
            ),
            "cards": F(
                ListOf(
                    Ref(
                        ("dilemma", "immediate_card", "event_card", "story_card", "epilogue"),
                        edge="contains",
                    )
                ),
                "les autres cartes (3 Dilemmes pour une enveloppe normale)",
            ),
            "effects": F(Effects(DILEMME), "effets d'une enveloppe spéciale, dans l'ordre"),
        },
        "Une enveloppe scellée : une carte Histoire et trois cartes Dilemme, ou un contenu spécial.",
        id_format="envelope",
    ),
    Kind(
        "story_card",
        DILEMME,
        "story_cards",
        STORY_FIELDS,
        "Carte Histoire : un morceau du récit, posé sur son arc narratif, parfois signé.",
    ),
    Kind(
        "epilogue",
        DILEMME,
        "epilogues",
        {
            **STORY_FIELDS,
            "cohesion": F(Int(min=0), "valeur de Cohésion (Grand final)"),
            "dissension": F(Int(min=0), "valeur de Dissension (Grand final)"),
            "narrative_achievement": F(
                Ref(("achievement",), edge="unlocks"),
                "haut fait narratif débloqué (maison/haut_fait)",
            ),
            "majority_signer_bonus": F(GAINS, "bonus du signataire majoritaire de l'arc"),
        },
        "Carte Épilogue : clôt un arc narratif ; Cohésion ou Dissension, haut fait, bonus.",
    ),
    Kind(
        "dilemma",
        DILEMME,
        "dilemmas",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "title": F(Str(), "titre", required=True),
            "question": F(Str(), "la question posée au Conseil", required=True),
            "preview": F(
                Record(
                    {
                        "oui_da": F(Str(), "aperçu Oui-Da", required=True),
                        "nenni": F(Str(), "aperçu Nenni", required=True),
                    }
                ),
                "les aperçus au recto",
                required=True,
            ),
            "skull": F(Bool(), "crâne au centre du verso (mort du roi possible)", default=False),
            "oui_da": F(
                SubNodes("outcome", many=False, edge="choice"), "l'issue Oui-Da", required=True
            ),
            "nenni": F(
                SubNodes("outcome", many=False, edge="choice"), "l'issue Nenni", required=True
            ),
        },
        "Carte Dilemme : une question, deux aperçus, deux issues (Oui-Da et Nenni).",
    ),
    Kind(
        "outcome",
        DILEMME,
        "",
        OUTCOME_FIELDS,
        "Issue d'un Dilemme (Oui-Da ou Nenni) : texte et effets ordonnés.",
    ),
    Kind(
        "immediate_card",
        DILEMME,
        "immediate_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "ce qui se passe quand on la pioche", required=True),
            "effects": F(Effects(DILEMME), "effets, dans l'ordre"),
            "keep": F(Bool(), "reste d'une partie à l'autre jusqu'à la fin de l'événement"),
        },
        "Carte Immédiat ⚡ : mélangée au paquet, déclenche un événement quand on la pioche.",
    ),
    Kind(
        "event_card",
        DILEMME,
        "event_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "la règle de l'événement", required=True),
            "effects": F(Effects(DILEMME), "effets à sa mise en jeu"),
            "rules": F(
                ListOf(
                    Record(
                        {
                            "on": F(
                                Enum(("resource_up", "resource_down", "game_start", "round_end")),
                                "ce qui déclenche la règle",
                                required=True,
                            ),
                            "resource": F(
                                Enum(RESOURCES), "la ressource surveillée (resource_up/down)"
                            ),
                            "extra": F(
                                Int(min=-3, max=3),
                                "cases de plus (+) ou de moins (−) au déplacement",
                            ),
                            "effects": F(
                                Effects(DILEMME), "effets appliqués à chaque déclenchement"
                            ),
                        }
                    )
                ),
                "règles actives tant que l'Événement est en jeu, lues par le moteur",
            ),
            "ends": F(Str(), "quand l'événement se termine, en toutes lettres"),
        },
        "Carte Événement : posée dans la zone Événements, sa règle dure jusqu'à sa fin.",
    ),
    Kind(
        "chronicle_sticker",
        DILEMME,
        "chronicle_stickers",
        {
            "id": F(Int(min=1), "numéro de l'autocollant", required=True),
            "resource": F(Enum(RESOURCES), "la ligne de ressource où il se colle", required=True),
            "polarity": F(Enum(("positive", "negative")), "barre blanche ou noire", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "le souvenir laissé dans la Chronique", required=True),
            "boxes": F(Int(min=1, max=6), "cases d'âge à cocher", default=3),
        },
        "Autocollant Chronique : signé par le Meneur, effets de succession aux parties suivantes.",
        id_format="int",
    ),
    Kind(
        "secret_sticker",
        DILEMME,
        "secret_stickers",
        {
            "id": F(Str(), "lettre de la porte (A à L)", required=True),
            "arc": F(Ref(("arc",)), "l'arc narratif de son emplacement", required=True),
            "text": F(Str(), "ce que révèle l'autocollant", required=True),
        },
        "Autocollant secret (porte A à L) : le sixième collé ouvre le Grand final.",
        id_format="letter",
    ),
    Kind(
        "arc",
        DILEMME,
        "arcs",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "nom de l'arc narratif", required=True),
            "symbol": F(Str(), "symbole affiché"),
        },
        "Arc narratif : une pile de cartes Histoire sur le bord du plateau Royaume.",
        story=False,
    ),
    Kind(
        "house",
        DILEMME,
        "houses",
        {
            "id": F(Str(), "identifiant", required=True),
            "name": F(Str(), "nom de la Maison", required=True),
            "region": F(Str(), "duché ou marquisat"),
            "number": F(
                Int(min=1, max=12), "chiffre de Maison (départage le Prestige)", required=True
            ),
            "motto": F(Str(), "devise"),
            "text": F(Str(), "présentation"),
            "alignment": F(
                ListOf(Ref(("secret_objective",)), min_len=2, max_len=2),
                "les deux Objectifs secrets préférés",
            ),
            "achievements": F(
                SubNodes("achievement", edge="achievement"), "hauts faits du paravent"
            ),
        },
        "Maison : un paravent, son chiffre, son alignement et ses hauts faits.",
        story=False,
    ),
    Kind(
        "achievement",
        DILEMME,
        "",
        {
            "id": F(Str(), "identifiant dans la Maison", required=True),
            "kind": F(
                Enum(ACHIEVEMENT_KINDS), "narratif, mécanique ou d'alignement", required=True
            ),
            "condition": F(Str(), "la condition à remplir, en toutes lettres", required=True),
            "test": F(
                ACHIEVEMENT_TEST, "la condition, lue par le moteur en fin de partie (mécanique)"
            ),
            "objective": F(
                Ref(("secret_objective",)), "alignement : l'Objectif secret qui coche ce haut fait"
            ),
            "boxes": F(Int(min=1, max=10), "cases à cocher", default=1),
            "ability": F(ABILITY, "capacité débloquée"),
            "exclusive_with": F(
                ListOf(Ref(("achievement",))), "hauts faits mutuellement exclusifs"
            ),
        },
        "Haut fait de Maison : une condition, des cases, une capacité débloquée.",
        story=False,
        required_if=(("kind", "mechanic", "test"), ("kind", "alignment", "objective")),
    ),
    Kind(
        "secret_objective",
        DILEMME,
        "secret_objectives",
        {
            "id": F(Enum(SECRET_OBJECTIVES), "l'objectif", required=True),
            "title": F(Str(), "nom affiché", required=True),
            "quote": F(Str(), "citation"),
            "zones": F(
                ListOf(
                    Record(
                        {
                            "from": F(Int(min=0), "première case de la zone", required=True),
                            "to": F(Int(min=0), "dernière case de la zone", required=True),
                        }
                    ),
                    min_len=1,
                ),
                "zones de la piste Ressources visées (une ou plusieurs)",
                required=True,
            ),
            "resource_points": F(
                ListOf(Int(min=0), min_len=5, max_len=5),
                "points pour 1 à 5 marqueurs dans la zone",
                required=True,
            ),
            "wealth_points": F(
                ListOf(Int(min=0), min_len=3, max_len=3),
                "points aux rangs I, II, III",
                required=True,
            ),
        },
        "Objectif secret : zone de ressources et points de richesse.",
        story=False,
    ),
]

# --------------------------------------------------------------------------- Citadelle kinds

ACTION_LINE = Record(
    {
        "difficulty": F(Int(min=0, max=20), "difficulté de la ligne", required=True),
        "success": F(Effects(CITADELLE), "conséquences de la réussite"),
        "failure": F(Effects(CITADELLE), "conséquences de l'échec"),
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
        "requires": F(Condition(CITADELLE), "prérequis"),
        "success": F(Effects(CITADELLE), "conséquences de la réussite (cartouche blanc)"),
        "failure": F(Effects(CITADELLE), "conséquences de l'échec (cartouche noir)"),
        "lines": F(ListOf(ACTION_LINE, min_len=1), "lignes d'une action multiple (le dé)"),
        "traits": F(ListOf(Ref(("creature_trait",))), "traits de la créature combattue"),
    },
    one_of=("difficulty", "lines"),
)

ARROW = Record(
    {
        "direction": F(Enum(DIRECTIONS), "côté de la carte", required=True),
        "zone": F(Str(), "zone d'Exploration (I, II, …) de la carte posée devant la flèche"),
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
    "effects": F(Effects(CITADELLE), "effets appliqués quand la carte est révélée"),
    "hidden_numbers": F(
        ListOf(Ref(("adventure_card",), edge="hidden_number")), "numéros cachés (trois chiffres)"
    ),
}

CITADELLE_KINDS: list[Kind] = [
    Kind(
        "adventure_card",
        CITADELLE,
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
            "keywords": F(ListOf(Str()), "MOTS-CLEFS d'une carte Bourse"),
            "undiscardable": F(Bool(), "ne peut être ni défaussée ni donnée"),
            "when": F(
                ListOf(Enum(ACTION_VERBS)), "actions pendant lesquelles l'objet aide (Bourse)"
            ),
            "bonuses": F(BONUSES, "bonus chiffrés d'une carte Bourse, lus par le moteur"),
            "must_select": F(Bool(), "icône « doit » : l'objet est obligatoirement sélectionné"),
            "on_selected": F(
                Effects(CITADELLE), "[sélectionnée] : effets après une action où l'objet a servi"
            ),
            "hope": F(Bool(), "carte « L'espoir renaît ! »"),
        },
        "Carte Aventure numérotée : Terrain, Événement, Bourse, Objet de quête, Mappemonde.",
        id_format="adventure",
    ),
    Kind(
        "exploration_card",
        CITADELLE,
        "exploration_cards",
        {
            "id": F(Int(min=1), "identifiant unique (au recto)", required=True),
            "zone": F(Str(), "zone (I, II, …)", required=True),
            "type": F(Enum(EXPLORATION_TYPES), "type d'événement", required=True),
            **CARD_BODY,
        },
        "Carte Exploration (dos brouillard) : un événement aléatoire de sa zone.",
        id_format="int",
    ),
    Kind(
        "paragraph",
        CITADELLE,
        "paragraphs",
        {
            "id": F(Int(min=1), "numéro du paragraphe", required=True),
            "text": F(Str(), "le dialogue", required=True),
            "side_quest": F(
                Ref(("side_quest",), edge="marks"), "texte souligné : la quête secondaire"
            ),
            "effects": F(Effects(CITADELLE), "effets appliqués à la lecture"),
            "actions": F(ListOf(ACTION), "actions proposées par le dialogue"),
            "choices": F(
                ListOf(
                    Record(
                        {
                            "text": F(Str(), "ce que dit ou fait le joueur actif", required=True),
                            "requires": F(Condition(CITADELLE), "condition pour proposer ce choix"),
                            "read": F(Ref(("paragraph",), edge="choice"), "paragraphe suivant"),
                            "effects": F(Effects(CITADELLE), "effets du choix"),
                        },
                        one_of=("read", "effects"),
                    )
                ),
                "les choix",
            ),
            "end": F(Bool(), "fin du dialogue : retour au plateau"),
        },
        "Paragraphe du Livre des dialogues : texte, effets, choix, actions.",
        id_format="int",
    ),
    Kind(
        "menace",
        CITADELLE,
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
        CITADELLE,
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
        CITADELLE,
        "",
        {
            "id": F(Str(), "identifiant unique dans la campagne", required=True),
            "text": F(Str(), "l'objectif", required=True),
        },
        "Objectif d'un scénario.",
        story=False,
    ),
    Kind(
        "epilogue",
        CITADELLE,
        "",
        {
            "id": F(Str(), "identifiant dans le scénario", required=True),
            "requires": F(
                Condition(CITADELLE), "ce qu'il faut avoir accompli pour lire cette branche"
            ),
            "text": F(Str(), "le récit", required=True),
            "effects": F(Effects(CITADELLE), "conséquences sur le feuillet Citadelle"),
            "next": F(Ref(("scenario",), edge="continues"), "scénario suivant"),
            "end": F(Enum(SCENARIO_ENDS), "fin de l'aventure : victory ou defeat"),
        },
        "Branche d'épilogue : lue au retour à la Citadelle, mène au scénario suivant.",
        one_of=("next", "end"),
    ),
    Kind(
        "action_card",
        CITADELLE,
        "action_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "skill": F(
                Enum(SKILL_TYPES), "compétence de personnage, avancée ou réflexe", required=True
            ),
            "character": F(Str(), "initiale du personnage (A–D) ou X"),
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
        CITADELLE,
        "characters",
        {
            "id": F(Str(), "initiale (A–D)", required=True),
            "name": F(Str(), "nom", required=True),
            "color": F(Str(), "couleur de la figurine"),
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
        CITADELLE,
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
        CITADELLE,
        "traits",
        {
            "id": F(Str(), "identifiant", required=True),
            "name": F(Str(), "nom du trait", required=True),
            "text": F(Str(), "son effet, en toutes lettres", required=True),
            "difficulty": F(Int(min=-5, max=5), "difficulté en plus (+) ou en moins (−)"),
            "cost": F(Int(min=-5, max=5), "coût en plus ou en moins"),
            "on_failure": F(Effects(CITADELLE), "effets en plus quand l'action échoue"),
            "on_success": F(Effects(CITADELLE), "effets en plus quand l'action réussit"),
        },
        "Trait de créature (page Aide de jeu) : s'applique à chaque combat contre elle.",
        story=False,
    ),
    Kind(
        "citadel",
        CITADELLE,
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
        CITADELLE,
        "buildings",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "nom", required=True),
            "boxes": F(Int(min=1, max=20), "cases à cocher pour le construire", required=True),
            "text": F(Str(), "effet une fois construit", required=True),
            "on_scenario_start": F(
                Effects(CITADELLE), "effets au début de chaque scénario, une fois construit"
            ),
        },
        "Bâtiment de la Citadelle : construit quand toutes ses cases sont cochées.",
        story=False,
    ),
    Kind(
        "destiny",
        CITADELLE,
        "destiny",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "intitulé", required=True),
            "cost": F(Int(min=1, max=10), "cartes « L'espoir renaît ! » à dépenser", required=True),
            "text": F(Str(), "le bonus", required=True),
            "effects": F(Effects(CITADELLE), "effets du bonus"),
        },
        "Case de la page Destinée : un bonus acheté avec « L'espoir renaît ! ».",
        story=False,
    ),
    Kind(
        "side_quest",
        CITADELLE,
        "side_quests",
        {
            "id": F(Str(), "identifiant", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "objectif de la quête"),
        },
        "Quête secondaire : active, amorcée, terminée.",
    ),
]

KINDS: dict[str, dict[str, Kind]] = {
    DILEMME: {k.name: k for k in DILEMME_KINDS},
    CITADELLE: {k.name: k for k in CITADELLE_KINDS},
}

SECTIONS: dict[str, dict[str, Kind]] = {
    fam: {k.section: k for k in kinds.values() if k.section} for fam, kinds in KINDS.items()
}

CAMPAIGN = Record(
    {
        "id": F(Str(), "identifiant de la campagne (dossier)", required=True),
        "family": F(Enum(FAMILIES), "dilemme ou citadelle", required=True),
        "title": F(Str(), "titre affiché", required=True),
        "text": F(Str(), "présentation"),
        "start_envelope": F(Int(min=0, max=99), "Dilemme : l'enveloppe de départ (00)"),
        "grand_final": F(Int(min=0, max=99), "Dilemme : l'enveloppe du Grand final (70)"),
        "intro": F(Str(), "Citadelle : le scénario d'introduction"),
        "rules": F(
            MapOf(
                (
                    "resource_track",
                    "stability_track",
                    "timeline_slots",
                    "skull_slot_cards",
                    "house_power",
                    "house_coins",
                    "balance_power",
                    "secret_stickers_for_final",
                    "chronicle_slots",
                    "table_columns",
                    "table_rows",
                    "move_cost",
                ),
                Int(min=0, max=99),
            ),
            "réglages de règles laissés ouverts par le livret",
        ),
        "final_scoring": F(
            Record(
                {
                    "cohesion": F(
                        MapOf(("prestige", "craving"), Int(min=0, max=10)),
                        "poids du Prestige et de la Convoitise si la Cohésion l'emporte",
                        required=True,
                    ),
                    "dissension": F(
                        MapOf(("prestige", "craving"), Int(min=0, max=10)),
                        "poids si la Dissension l'emporte (égalité : cohesion)",
                        required=True,
                    ),
                }
            ),
            "Dilemme : comment le Grand final compte Prestige et Convoitise",
        ),
    }
)

#: Kinds whose nodes are the roots of reachability besides the campaign's start.
ROOT_FIELDS = {DILEMME: ("start_envelope",), CITADELLE: ("intro",)}


def _spec_edges(spec: Spec, family: str, seen: set[int]) -> set[str]:
    if id(spec) in seen:
        return set()
    seen.add(id(spec))
    out: set[str] = set()
    edge = getattr(spec, "edge", None)
    if edge:
        out.add(edge)
    if isinstance(spec, ListOf):
        out |= _spec_edges(spec.item, family, seen)
    elif isinstance(spec, MapOf):
        out |= _spec_edges(spec.value, family, seen)
    elif isinstance(spec, Record):
        for fld in spec.fields.values():
            out |= _spec_edges(fld.spec, family, seen)
    elif isinstance(spec, Effects):
        for fld in EFFECTS[spec.family].values():
            out |= _spec_edges(fld.spec, family, seen)
    return out


#: edges the rules add without a written reference (see ``pipeline.graph._implicit_edges``)
IMPLICIT_EDGES = {
    DILEMME: {"starts", "component", "opens"},
    CITADELLE: {"starts", "component", "contains", "explores"},
}


def edge_kinds(family: str) -> set[str]:
    """Every kind of edge a campaign of ``family`` can have."""
    out = set(IMPLICIT_EDGES[family])
    seen: set[int] = set()
    for kind in KINDS[family].values():
        for fld in kind.fields.values():
            out |= _spec_edges(fld.spec, family, seen)
    return out
