"""Every sentence the pipeline says to a writer, in one place.

French first (writers read them next to a French guide); a second language is another table
with the same keys.  ``t(key, **values)`` formats one message.
"""

from __future__ import annotations

import difflib

LANG = "fr"


def _kind_names() -> dict[str, str]:
    from . import schema as S

    out = {"campaign": "campagne"}
    for kinds in S.KINDS.values():
        for kind in kinds.values():
            out.setdefault(kind.name, kind.name_fr or kind.name)
    return out


KIND_FR: dict[str, str] = _kind_names()

MESSAGES: dict[str, dict[str, str]] = {
    "fr": {
        # --- reading files
        "io.unreadable": "impossible de lire le fichier : {why}.",
        "yaml.malformed": (
            "YAML mal formé : {what}. Vérifiez l'indentation, les deux-points et les guillemets "
            "à cette ligne (une valeur qui contient « : » ou commence par un caractère spécial "
            "doit être entre guillemets)."
        ),
        "yaml.utf8": "YAML mal formé : le fichier n'est pas en UTF-8. Enregistrez-le en UTF-8.",
        "yaml.duplicate_key": (
            "la clé « {key} » apparaît deux fois dans la même table (la première ligne "
            "{first}) ; la seconde remplacerait la première en silence. Supprimez ou renommez "
            "l'une des deux."
        ),
        # --- campaigns and sections
        "camp.no_manifest": (
            "le dossier « {folder} » contient des fichiers YAML mais pas de campaign.yaml : il "
            "n'est pas vérifié. Ajoutez un campaign.yaml avec une section « campaign: » (id, "
            "family, title)."
        ),
        "camp.no_family": (
            "campaign.yaml doit avoir une section « campaign: » avec « family: » (le jeu de la "
            "campagne, l'un de : {families}), « id: » et « title: »."
        ),
        "camp.no_start": "la campagne « {id} » n'a pas de point de départ : ajoutez {what}.",
        "camp.not_mapping": (
            "un fichier de contenu doit être une table de sections (par exemple « paragraphs: » "
            "suivi d'une liste de paragraphes) ; ce fichier commence par {got}."
        ),
        "camp.misplaced": (
            "la section « campaign » va dans le campaign.yaml à la racine de la campagne ; "
            "déplacez-la."
        ),
        "camp.unknown_section": (
            "section « {name} » inconnue pour une campagne {family}.{hint} Sections connues : "
            "{known}."
        ),
        "content.missing": "le dossier de contenu « {path} » n'existe pas",
        "content.not_dir": "« {path} » n'est pas un dossier",
        "content.empty": (
            "aucune campagne dans « {path} » : il faut un campaign.yaml dans ce dossier ou dans "
            "ses sous-dossiers"
        ),
        # --- fields
        "field.section_not_list": (
            "la section « {name} » doit être une liste de {kind} (chaque élément commence par "
            "« - »), pas {got}."
        ),
        "field.record_not_mapping": "{path} : un(e) {kind} doit être une table de champs (clé: valeur), pas {got}.",
        "field.missing_number": "{path} : champ obligatoire « number » absent (le numéro de la carte, de 1 à 999).",
        "field.bad_number": "{path}.number : il faut un numéro de carte de 1 à 999, pas {got}.",
        "field.missing_id": "{path} : champ obligatoire « id » absent. Chaque {kind} a besoin d'un identifiant unique.",
        "field.bad_id": "{path}.id : il faut {expected}, pas {got}.",
        "field.id_envelope": "un numéro d'enveloppe comme 00 ou 12",
        "field.id_int": "un nombre entier",
        "field.id_letter": "une lettre",
        "field.id_str": "un mot ou un nombre sans « / » ni « : »",
        "field.unknown": "{path} : champ « {name} » inconnu, ignoré.{hint}",
        "field.missing": "{path} : champ obligatoire « {name} » absent ({what}).",
        "field.missing_if": "{path} : avec « {what} », le champ « {name} » est obligatoire (le moteur en a besoin).",
        "field.one_of": "{path} : il faut au moins l'un des champs {names}.",
        "field.expected": "{path} : il faut {expected}, pas {got}.",
        "field.enum": "{path} : « {got} » n'est pas permis ici ; valeurs possibles : {values}.{hint}",
        "field.map_key": "{path} : clé « {key} » inconnue ; clés possibles : {keys}.{hint}",
        "field.effect_unknown": "{path} : effet « {name} » inconnu.{hint} Effets d'une campagne {family} : {known}.",
        "field.condition_unknown": (
            "{path} : condition « {name} » inconnue.{hint} Conditions d'une campagne {family} : {known}."
        ),
        "expect.text": "du texte",
        "expect.int": "un nombre entier",
        "expect.int_range": "un nombre entier{lo}{hi}",
        "expect.int_lo": " à partir de {n}",
        "expect.int_hi": " jusqu'à {n}",
        "expect.bool": "true ou false",
        "expect.list": "une liste (éléments commençant par « - »)",
        "expect.list_len": "une liste de {n} éléments",
        "expect.list_exactly": "exactement {n}",
        "expect.list_at_least": "au moins {n}",
        "expect.list_between": "{a} à {b}",
        "expect.mapping": "une table (clé: valeur)",
        "expect.record": "une table de champs (clé: valeur)",
        "expect.records": "une liste de {kind}",
        "expect.ref": "l'identifiant d'un(e) {kinds}",
        "expect.effects": "une liste d'effets (chacun « - nom: valeur »)",
        "expect.effect": "un effet écrit « nom: valeur »",
        "expect.condition": "une condition (« flag: nom », ou une liste de conditions)",
        "expect.condition_atom": "une condition écrite « nom: valeur »",
        "expect.conditions": "une liste de conditions",
        "got.mapping": "une table",
        "got.list": "une liste",
        "got.none": "une valeur vide",
        "got.bool": "oui/non",
        "got.number": "un nombre",
        "got.text": "du texte",
        "got.items": "{n} éléments",
        "hint": " Vouliez-vous dire « {word} » ?",
        # --- references and ids
        "ref.unknown": (
            "{path} renvoie à {kinds} « {key} », introuvable.{hint} Ajoutez cet élément "
            "({section}) ou corrigez la référence."
        ),
        "ref.start": "campaign.{field} renvoie à {what}, qui n'existe pas. Définissez-le ou corrigez le départ.",
        "id.duplicate": (
            "l'identifiant « {key} » ({kind}) est utilisé deux fois : la première fois dans {file} "
            "ligne {line}. Donnez un autre identifiant à cet élément, ou supprimez l'un des deux."
        ),
        # --- graph
        "graph.unreachable": (
            "inatteignable : {node}. On n'y arrive que depuis {parents}, que rien n'atteint "
            "depuis le départ de la campagne. Reliez cet élément à du contenu atteignable ou "
            "supprimez-le."
        ),
        "graph.orphan": (
            "jamais référencé : {node}. Rien n'y renvoie, les joueurs ne le verront donc jamais. "
            "Faites-y référence (un effet, un choix, une enveloppe, une flèche…) ou "
            "supprimez-le."
        ),
        "graph.dead_end": "impasse : {node} n'offre aucune suite. Pour corriger : {fix}.",
        "graph.unreachable_listed": (
            "inatteignable : {node}. Il est cité ({where}) mais aucun chemin depuis le départ de "
            "la campagne n'y mène (seul le premier scénario d'une Menace est un point de départ ; "
            "les suivants s'atteignent par le « next » d'un épilogue)."
        ),
        # --- conditions
        "cond.never": "{path} : cette condition ne peut jamais être vraie : {why}",
        "cond.flag": (
            "aucun effet atteignable ne pose le drapeau « {value} ». Ajoutez « - flag: {value} » "
            "à un effet que les joueurs peuvent atteindre, ou corrigez l'orthographe du drapeau."
        ),
        "cond.objective": (
            "aucun effet atteignable ne marque l'objectif « {value} ». Ajoutez "
            "« - objective: {value} » là où les joueurs l'atteignent."
        ),
        "cond.quest": (
            "aucun effet atteignable ne met la quête secondaire « {id} » dans l'état « {state} ». "
            "Ajoutez « - quest: {{id: {id}, state: {state}}} » à du contenu atteignable."
        ),
        "cond.any": "aucune de ses alternatives ne le peut : {reasons}",
        # --- hidden numbers
        "hidden.digits": (
            "{path} : le numéro caché « {raw} » doit avoir exactement trois chiffres (100 à 999) : "
            "les joueurs cherchent un nombre à trois chiffres sur la carte."
        ),
        "hidden.back": (
            "{path} : la carte {key} se trouve par un numéro caché sur {source}, mais son dos "
            "{got}. Ajoutez « back_source: {number} » à la carte {key}."
        ),
        "hidden.back_none": "ne nomme aucune source",
        "hidden.back_other": "nomme la carte {back}",
        # --- command line
        "cli.summary": "{errors} erreur(s), {warnings} avertissement(s) — {campaigns}",
        "cli.summary_campaign": "{id} : {nodes} nœuds, {edges} arêtes, {unreachable} inatteignable(s)",
        "cli.no_campaign": "aucune campagne",
        "cli.unknown_game": "pas de campagne « {game} » dans {content} (trouvées : {known})",
        "cli.fix_first": "corrigez d'abord les erreurs ci-dessus",
        "cli.build_blocked": "le contenu a des erreurs : corrigez-les avant de publier",
        "sim.summary": (
            "{runs} parties simulées ({completed} menées à leur fin) — {visited}/{reachable} "
            "éléments atteignables visités ({ratio} %), {edges}/{edges_total} arêtes, "
            "{errors} échec(s) du moteur, {seconds} s"
        ),
        "sim.script": "script de reproduction : {path}",
        "sim.sim002": (
            "{node} a été atteint en jouant, mais le graphe statique le dit inatteignable : il "
            "manque une arête dans le graphe (un défaut du vérificateur ou une référence que le "
            "format ne décrit pas). Signalez-le."
        ),
        "sim.sim003": (
            "le moteur a échoué pendant la partie simulée n°{run} (graine « {seed} ») : {error}. "
            "Rejouez-la avec le script enregistré pour la reproduire."
        ),
        "sim.play": "{games} parties jouées, {mean} actions en moyenne par partie",
        "sim.personas": "parts de victoire par caractère de bot : {shares}",
        "sim.seats": "parts de victoire par place : {shares}",
        "cli.internal": (
            "erreur interne ({what}). C'est un défaut de gamebook, pas de vos fichiers : "
            "signalez-le avec la commande lancée."
        ),
    }
}


def t(message: str, /, **values: object) -> str:
    """The message ``message`` in the current language, filled with ``values``."""
    return MESSAGES[LANG][message].format(**values)


def kind_fr(kind: str) -> str:
    return KIND_FR.get(kind, kind)


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return t("hint", word=close[0]) if close else ""


def got(value: object) -> str:
    """How a wrong value is shown: the value itself for scalars, its shape otherwise."""
    if isinstance(value, dict):
        return t("got.mapping")
    if isinstance(value, list):
        return t("got.list")
    if value is None:
        return t("got.none")
    if isinstance(value, bool):
        return f"« {str(value).lower()} »"
    return f"« {value} »"
