"""Le Dilemme du Roi's content format: what a writer may put in ``content/<campaign>/`` for a
campaign of this game, as data (``engine.core.schema``), with the checks only this game needs.
"""

from __future__ import annotations

from typing import Any

from ..core.schema import (
    FLAG,
    LETTER,
    NUMBER,
    Bool,
    Code,
    ContentSchema,
    Edge,
    Effects,
    Enum,
    F,
    Field,
    GraphView,
    IdFormat,
    Int,
    Issue,
    Kind,
    ListOf,
    MapOf,
    Record,
    Ref,
    Str,
    SubNodes,
    branch_effect,
)

FAMILY = "dilemme"

#: Le Dilemme du Roi: the five resources on the kingdom board (stability moves with them).
RESOURCES = ("influence", "prosperity", "morale", "welfare", "knowledge")
#: The six secret objectives named by the rulebook.
SECRET_OBJECTIVES = ("extremism", "opulence", "moderation", "rebellion", "opportunism", "avarice")
ABILITY_TRIGGERS = ("immediate", "game_start", "condition", "at_will")
ACHIEVEMENT_KINDS = ("narrative", "mechanic", "alignment")

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

DILEMME_CONDITIONS: dict[str, Field] = {
    "flag": F(Str(), "le drapeau a été posé"),
    "not_flag": F(Str(), "le drapeau n'a pas été posé"),
    "envelope": F(Ref(("envelope",)), "l'enveloppe a été ouverte"),
    "chronicle_sticker": F(Ref(("chronicle_sticker",)), "l'autocollant Chronique est collé"),
    "secret_sticker": F(Ref(("secret_sticker",)), "l'autocollant secret est collé"),
    "secret_stickers": F(Int(min=1, max=12), "au moins N autocollants secrets collés"),
    "resource": F(MapOf(RESOURCES, Int()), "ressource au moins à cette case"),
}

DILEMME_EFFECTS["branch"] = branch_effect(FAMILY)

# --------------------------------------------------------------------------- kinds

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
    "effects": F(Effects(FAMILY), "les effets, dans l'ordre de gauche à droite"),
}

STORY_FIELDS = {
    "id": F(Str(), "identifiant unique", required=True),
    "arc": F(Ref(("arc",)), "l'arc narratif où la carte se pose", required=True),
    "title": F(Str(), "titre", required=True),
    "text": F(Str(), "le récit au verso", required=True),
    "signature": F(Bool(), "emplacement de signature (le Meneur signe)", default=False),
    "abilities": F(ListOf(ABILITY), "capacités spéciales (actives si la carte est au-dessus)"),
}

#: an envelope is numbered with two digits at least (« 00 », « 12 »)
ENVELOPE_NUMBER = IdFormat("number", width=2, expected_fr="un numéro d'enveloppe comme 00 ou 12")

DILEMME_KINDS: list[Kind] = [
    Kind(
        "envelope",
        FAMILY,
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
            "effects": F(Effects(FAMILY), "effets d'une enveloppe spéciale, dans l'ordre"),
        },
        "Une enveloppe scellée : une carte Histoire et trois cartes Dilemme, ou un contenu spécial.",
        id_format=ENVELOPE_NUMBER,
    ),
    Kind(
        "story_card",
        FAMILY,
        "story_cards",
        STORY_FIELDS,
        "Carte Histoire : un morceau du récit, posé sur son arc narratif, parfois signé.",
    ),
    Kind(
        "epilogue",
        FAMILY,
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
        FAMILY,
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
        FAMILY,
        "",
        OUTCOME_FIELDS,
        "Issue d'un Dilemme (Oui-Da ou Nenni) : texte et effets ordonnés.",
    ),
    Kind(
        "immediate_card",
        FAMILY,
        "immediate_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "ce qui se passe quand on la pioche", required=True),
            "effects": F(Effects(FAMILY), "effets, dans l'ordre"),
            "keep": F(Bool(), "reste d'une partie à l'autre jusqu'à la fin de l'événement"),
        },
        "Carte Immédiat ⚡ : mélangée au paquet, déclenche un événement quand on la pioche.",
    ),
    Kind(
        "event_card",
        FAMILY,
        "event_cards",
        {
            "id": F(Str(), "identifiant unique", required=True),
            "title": F(Str(), "titre", required=True),
            "text": F(Str(), "la règle de l'événement", required=True),
            "effects": F(Effects(FAMILY), "effets à sa mise en jeu"),
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
                                Effects(FAMILY), "effets appliqués à chaque déclenchement"
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
        FAMILY,
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
        id_format=NUMBER,
    ),
    Kind(
        "secret_sticker",
        FAMILY,
        "secret_stickers",
        {
            "id": F(Str(), "lettre de la porte (A à L)", required=True),
            "arc": F(Ref(("arc",)), "l'arc narratif de son emplacement", required=True),
            "text": F(Str(), "ce que révèle l'autocollant", required=True),
        },
        "Autocollant secret (porte A à L) : le sixième collé ouvre le Grand final.",
        id_format=LETTER,
    ),
    Kind(
        "arc",
        FAMILY,
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
        FAMILY,
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
        FAMILY,
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
        FAMILY,
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


# --------------------------------------------------------------------------- campaign

RULES_KEYS = (
    "resource_track",
    "stability_track",
    "timeline_slots",
    "skull_slot_cards",
    "house_power",
    "house_coins",
    "balance_power",
    "secret_stickers_for_final",
    "chronicle_slots",
)

CAMPAIGN_FIELDS: dict[str, Field] = {
    "start_envelope": F(Int(min=0, max=99), "l'enveloppe de départ (00)"),
    "grand_final": F(Int(min=0, max=99), "l'enveloppe du Grand final (70)"),
    "rules": F(
        MapOf(RULES_KEYS, Int(min=0, max=99)), "réglages de règles laissés ouverts par le livret"
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
        "comment le Grand final compte Prestige et Convoitise",
    ),
}

#: French names of the kinds, as a writer reads them in messages (feminine?)
NAMES_FR = {
    "envelope": ("enveloppe", True),
    "story_card": ("carte Histoire", True),
    "epilogue": ("épilogue", False),
    "dilemma": ("carte Dilemme", True),
    "outcome": ("issue", True),
    "immediate_card": ("carte Immédiat", True),
    "event_card": ("carte Événement", True),
    "chronicle_sticker": ("autocollant Chronique", False),
    "secret_sticker": ("autocollant secret", False),
    "arc": ("arc narratif", False),
    "house": ("Maison", True),
    "achievement": ("haut fait", False),
    "secret_objective": ("Objectif secret", False),
}

MESSAGES = {
    "start": "l'enveloppe de départ (start_envelope: 00)",
    "dead_end.envelope": (
        "mettez-y une carte Histoire et des Dilemmes (« story: » et « cards: »), ou des "
        "effets pour une enveloppe spéciale"
    ),
    "cond.stickers": "il faut {need}, mais la campagne {can}.",
    "stickers.need_one": "1 autocollant secret collé",
    "stickers.need": "{n} autocollants secrets collés",
    "stickers.none": "n'en colle jamais aucun",
    "stickers.one": "ne peut en coller qu'un",
    "stickers.some": "ne peut en coller que {n}",
    "cond.grand_final": (
        "le Grand final (enveloppe {final}) s'ouvre quand {need} autocollants secrets sont "
        "collés, mais cette campagne ne peut en coller que {count}. Ajoutez des autocollants "
        "secrets atteignables ou changez rules.secret_stickers_for_final."
    ),
    "cond.resource": "la piste {name} va de 0 à {top} (demandé : {need}).",
    "cond.node_unreachable": (
        "{node} n'est jamais atteignable. Rendez cet élément atteignable d'abord."
    ),
}


def _envelope(value: Any) -> str:
    return f"envelope:{int(value):02d}"


def _stickers_for_final(data: dict) -> int:
    return int((data.get("rules") or {}).get("secret_stickers_for_final", 6))


def _implicit_edges(g: GraphView) -> list[Edge]:
    """The grand final opens when enough secret stickers are stuck: every secret sticker leads
    to it, on that condition."""
    final = g.campaign.get("grand_final")
    if final is None or not g.has(_envelope(final)):
        return []
    need = _stickers_for_final(g.campaign)
    return [
        Edge(node, _envelope(final), "opens", (("secret_stickers", need),), "grand_final")
        for node, kind, _ in g.records()
        if kind == "secret_sticker"
    ]


def _way_on(g: GraphView, node: str, kind: str, data: dict) -> bool:
    return bool(data.get("story") or data.get("cards") or data.get("effects"))


def _never(g: GraphView, atom: str, value: Any, rules: dict) -> str | None:
    if atom in ("envelope", "chronicle_sticker", "secret_sticker"):
        node = _envelope(value) if atom == "envelope" else f"{atom}:{value}"
        if g.has(node) and node not in g.reachable():
            return MESSAGES["cond.node_unreachable"].format(node=g.label(node))
    if atom == "secret_stickers":
        count = sum(1 for n in g.reachable() if n.startswith("secret_sticker:"))
        if int(value) > count:
            n = int(value)
            need = MESSAGES["stickers.need_one" if n == 1 else "stickers.need"].format(n=n)
            can = MESSAGES[
                "stickers.none" if count == 0 else "stickers.one" if count == 1 else "stickers.some"
            ].format(n=count)
            return MESSAGES["cond.stickers"].format(need=need, can=can)
    if atom == "resource":
        top = rules.get("resource_track")
        for name, need in dict(value).items():
            if top is not None and not (0 <= need <= top):
                return MESSAGES["cond.resource"].format(name=name, top=top, need=need)
    return None


def _grand_final(g: GraphView) -> list[Issue]:
    """The grand final opens at the Nth secret sticker; enough must be reachable."""
    final = g.campaign.get("grand_final")
    if final is None:
        return []
    need = _stickers_for_final(g.campaign)
    count = sum(1 for n in g.reachable() if n.startswith("secret_sticker:"))
    if count >= need:
        return []
    msg = MESSAGES["cond.grand_final"].format(final=f"{final:02d}", need=need, count=count)
    return [Issue("COND001", "error", msg, field="grand_final")]


#: a game seats 3 to 5 houses (``setup.new_game``)
MOST_HOUSES = 5

OBJ001 = Code(
    "OBJ001",
    "error",
    about="trop peu d'Objectifs secrets pour la plus grande table de la campagne",
    fix="Ajoutez des Objectifs secrets : un par Maison de la plus grande table, plus un.",
    messages={
        "objectives.few": (
            "la campagne {has}, mais une partie à {houses} Maisons en demande {need} : chaque "
            "Maison en choisit un et un autre est écarté au hasard avant le choix. Ajoutez-en "
            "{missing} dans « secret_objectives »."
        ),
        "objectives.none": "n'a aucun Objectif secret",
        "objectives.one": "n'a qu'un Objectif secret",
        "objectives.some": "n'a que {n} Objectifs secrets",
    },
    guide="""\
### `OBJ001` — pas assez d'Objectifs secrets

**Erreur.** À la mise en place, un Objectif secret est écarté au hasard, puis chaque Maison en
choisit un parmi ceux qui restent : il en faut donc un de plus que de Maisons à la plus grande
table que la campagne permet (autant de Maisons qu'elle en a, cinq au plus). Avec cinq Maisons
et ces quatre Objectifs seulement :

```yaml
secret_objectives:
  - {id: extremism, title: Extrémisme, zones: [{from: 0, to: 2}], resource_points: [3, 7, 11, 15, 18], wealth_points: [3, 2, 1]}
  - {id: opulence, title: Opulence, zones: [{from: 10, to: 14}], resource_points: [3, 7, 11, 15, 18], wealth_points: [3, 2, 1]}
  - {id: moderation, title: Modération, zones: [{from: 5, to: 9}], resource_points: [3, 7, 11, 15, 18], wealth_points: [3, 2, 1]}
  - {id: rebellion, title: Rébellion, zones: [{from: 0, to: 4}], resource_points: [3, 7, 11, 15, 18], wealth_points: [3, 2, 1]}
```

```text
content/mini/objectifs.yaml:2:10: error OBJ001 la campagne n'a que 4 Objectifs secrets, mais une partie à 5 Maisons en demande 6 : chaque Maison en choisit un et un autre est écarté au hasard avant le choix. Ajoutez-en 2 dans « secret_objectives ».
```

Correction : écrivez les Objectifs qui manquent (six pour une table de cinq Maisons).
""",
)


def _enough_objectives(g: GraphView) -> list[Issue]:
    """The set-up puts one secret objective aside, then each house drafts one: the biggest
    table the campaign allows needs one more objective than it seats houses."""
    objectives = [n for n, kind, _ in g.records() if kind == "secret_objective"]
    houses = sum(1 for _, kind, _ in g.records() if kind == "house")
    table = min(houses, MOST_HOUSES)
    need = table + 1
    if houses < 3 or len(objectives) >= need:  # fewer than 3 houses: no game at all
        return []
    count = len(objectives)
    has = OBJ001.say(
        "objectives.none" if not count else "objectives.one" if count == 1 else "objectives.some",
        n=count,
    )
    message = OBJ001.say(
        "objectives.few",
        has=has,
        houses=table,
        need=need,
        missing=need - len(objectives),
    )
    node = objectives[0] if objectives else None
    return [Issue(OBJ001.code, OBJ001.severity, message, node, None if node else "title")]


def _opening(g: GraphView) -> list[tuple[str, str]]:
    env = g.data(_envelope(g.campaign.get("start_envelope", 0))) or {}
    story = g.data(f"story_card:{env.get('story')}") if env.get("story") else None
    return [(story["title"], story.get("text", ""))] if story else []


#: the French name of each edge kind the Dilemme's content makes, on the story map
EDGES_FR = {
    "contains": "contient",
    "opens": "ouvre",
    "choice": "choix",
    "sticks": "colle",
    "achievement": "haut fait",
    "unlocks": "débloque",
    "adds": "ajoute",
    "triggers": "déclenche",
}
#: the nouns the Dilemme's text counts, with their plurals (checked with the shared ones)
COUNTED_FR = {"dilemme": "dilemmes"}

#: node colours on the story map
COLOURS = {
    "envelope": "#d9a400",
    "story_card": "#4f8fd8",
    "epilogue": "#a05fc4",
    "dilemma": "#e5793b",
    "outcome": "#e8a7a0",
    "immediate_card": "#c93f86",
    "event_card": "#8c6d2c",
    "chronicle_sticker": "#4caf50",
    "secret_sticker": "#ff9f1c",
    "arc": "#7a8b99",
    "house": "#6d4c41",
    "achievement": "#9ccc65",
    "secret_objective": "#5c6bc0",
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
        )
        for k in kinds
    )


SCHEMA = ContentSchema(
    family=FAMILY,
    kinds=_named(DILEMME_KINDS),
    effects=DILEMME_EFFECTS,
    conditions=DILEMME_CONDITIONS,
    granted=(FLAG,),
    campaign_fields=CAMPAIGN_FIELDS,
    start_field="start_envelope",
    start_node=_envelope,
    start_fr=MESSAGES["start"],
    required_nodes={"grand_final": _envelope},
    implicit_edge_kinds=frozenset({"opens"}),
    edges_fr=EDGES_FR,
    counted_fr=COUNTED_FR,
    implicit_edges=_implicit_edges,
    way_on=_way_on,
    never=_never,
    checks=(_grand_final, _enough_objectives),
    codes=(OBJ001,),
    opening=_opening,
    rules_keys=RULES_KEYS,
)
