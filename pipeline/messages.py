"""Every sentence the pipeline says to a writer, in one place.

French first (writers read them next to a French guide); a second language is another table
with the same keys.  ``t(key, **values)`` formats one message.
"""

from __future__ import annotations

import difflib
import unicodedata

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
        "io.link_dangling": (
            "ce fichier est un lien symbolique vers « {target} », qui n'existe pas. Recréez le "
            "lien vers le bon fichier, ou remplacez-le par le fichier lui-même."
        ),
        "io.link_loop": (
            "ce fichier est un lien symbolique qui tourne en boucle (il mène, par d'autres liens, "
            "à lui-même). Remplacez-le par le fichier lui-même."
        ),
        "io.permission": (
            "impossible de lire le fichier : vous n'avez pas le droit de le lire. Donnez-vous le "
            "droit de lecture (par exemple « chmod u+r » sur le fichier)."
        ),
        "io.directory": (
            "c'est un dossier, pas un fichier, alors que son nom finit par .yaml ou .yml. "
            "Renommez le dossier (les fichiers qu'il contient sont lus quand même)."
        ),
        "io.missing": "le fichier a disparu pendant la lecture ; relancez la vérification.",
        "io.too_big": (
            "fichier trop gros ({size} Mo ; un fichier de contenu fait au plus {limit} Mo) : "
            "découpez-le en plusieurs fichiers du même dossier."
        ),
        "io.special": (
            "ce n'est pas un fichier ordinaire (un tube, un périphérique…) : un fichier de contenu "
            "doit être un simple fichier texte."
        ),
        "yaml.malformed": (
            "YAML mal formé : {what}. Vérifiez l'indentation, les deux-points et les guillemets "
            "à cette ligne (une valeur qui contient « : » ou commence par un caractère spécial "
            "doit être entre guillemets)."
        ),
        "yaml.utf8": (
            "le fichier n'est pas en UTF-8 : l'octet 0x{byte} ne peut pas s'y trouver (le "
            "fichier semble enregistré en {guess}). Enregistrez-le en UTF-8 depuis votre "
            "éditeur."
        ),
        "yaml.opened_quote": (
            "YAML mal formé : le guillemet ouvert ici n'est jamais fermé ; la lecture a échoué "
            "ligne {line}, colonne {column}. Fermez le guillemet à la fin de la valeur."
        ),
        "yaml.quote_swallows": (
            "YAML mal formé : le guillemet ouvert ici n'est sans doute pas fermé : le texte se "
            "poursuit sur les lignes suivantes jusqu'au guillemet de la ligne {end}, où la "
            "lecture a échoué, colonne {column} ({what}). Fermez le guillemet à la fin de la "
            "valeur."
        ),
        "yaml.opened_bracket": (
            "YAML mal formé : le crochet « [ » ouvert ici n'est pas fermé ; la lecture a échoué "
            "ligne {line}, colonne {column} ({what}). Ajoutez le « ] » à la fin de la liste."
        ),
        "yaml.opened_brace": (
            "YAML mal formé : l'accolade « {{ » ouverte ici n'est pas fermée ; la lecture a "
            "échoué ligne {line}, colonne {column} ({what}). Ajoutez le « }} » à la fin de la "
            "table."
        ),
        "yaml.opened_key": (
            "YAML mal formé : il manque le « : » après cette clé (la lecture a échoué ligne "
            "{line}, colonne {column}). Écrivez « clé: valeur »."
        ),
        "yaml.malformed_in": (
            "YAML mal formé : {what} (dans le bloc qui commence ligne {line}). Vérifiez "
            "l'indentation de cette ligne par rapport aux lignes au-dessus."
        ),
        "yaml.control": "le caractère invisible {char}, interdit en YAML (supprimez-le)",
        "yaml.control_any": "un caractère de contrôle interdit (supprimez-le ou remplacez-le)",
        "yaml.too_deep": (
            "plus de {n} niveaux d'imbrication : aucun contenu n'a besoin d'autant de listes ou "
            "de tables les unes dans les autres (des crochets en trop ?)"
        ),
        "yaml.duplicate_key": (
            "la clé « {key} » apparaît deux fois dans la même table (la première ligne "
            "{first}) ; la seconde remplacerait la première en silence. Supprimez ou renommez "
            "l'une des deux."
        ),
        # --- consequences folded under the file that causes them
        "fold.more": " … et {what}, à revoir une fois ce fichier corrigé.",
        "fold.more_error": " … et {what}, à revoir une fois cette erreur corrigée.",
        "fold.ref": "1 référence vers ce fichier",
        "fold.refs": "{n} références vers ce fichier",
        "fold.other": "1 autre constat qui en découle",
        "fold.others": "{n} autres constats qui en découlent",
        "fold.and": " et ",
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
        "field.record_not_mapping": "{path} : {a_kind} doit être une table de champs (clé: valeur), pas {got}.",
        "field.missing_number": "{path} : champ obligatoire « number » absent (le numéro de la carte, de 1 à 999).",
        "field.bad_number": "{path}.number : il faut un numéro de carte de 1 à 999, pas {got}.",
        "field.missing_id": "{path} : champ obligatoire « id » absent. Chaque {kind} a besoin d'un identifiant unique.",
        "field.bad_id": "{path}.id : il faut {expected}, pas {got}.",
        "field.id_envelope": "un numéro d'enveloppe comme 00 ou 12",
        "field.id_int": "un nombre entier",
        "field.id_letter": "une lettre",
        "field.id_str": "un mot ou un nombre sans « / » ni « : »",
        "field.invisible": (
            "la clé « {name} » contient un caractère invisible ou trompeur : c'est sans doute "
            "« {meant} ». Effacez la clé et retapez-la (elle est lue ici comme « {meant} »)."
        ),
        "field.unknown": "{path} : champ « {name} » inconnu, ignoré.{hint}",
        "field.missing": "{path} : champ obligatoire « {name} » absent ({what}).",
        "field.misspelt_required": (
            "{path} : champ « {name} » inconnu : c'est sans doute le champ obligatoire « {meant} » "
            "({what}), absent sinon ; il est lu ici comme « {meant} ». Corrigez le nom du champ."
        ),
        "field.misspelt_optional": (
            "{path} : champ « {name} » inconnu : c'est sans doute le champ « {meant} » ({what}) ; "
            "il est lu ici comme « {meant} », au lieu d'être ignoré. Corrigez le nom du champ."
        ),
        "field.missing_if": "{path} : avec « {what} », le champ « {name} » est obligatoire (le moteur en a besoin).",
        "field.one_of": "{path} : il faut au moins l'un des champs {names}.",
        "field.expected": "{path} : il faut {expected}, pas {got}.",
        "field.enum": "{path} : « {got} » n'est pas permis ici ; valeurs possibles : {values}.{hint}",
        "field.map_key": "{path} : clé « {key} » inconnue ; clés possibles : {keys}.{hint}",
        "field.effect_unknown": "{path} : effet « {name} » inconnu.{hint} Effets d'une campagne {family} : {known}.",
        "field.condition_unknown": (
            "{path} : condition « {name} » inconnue.{hint} Conditions d'une campagne {family} : {known}."
        ),
        # --- the editors' JSON Schema (yaml-language-server's errorMessage)
        "schema.expected": "Attendu ici : {what}.",
        "schema.one_of": "Valeur inconnue ici. Valeurs permises : {values}.",
        "schema.record": "Champs obligatoires : {required}. Champs permis : {allowed}.",
        "schema.record_open": "Champ inconnu ici. Champs permis : {allowed}.",
        "expect.text": "du texte",
        "expect.int": "un nombre entier",
        "expect.int_range": "un nombre entier{lo}{hi}",
        "expect.int_lo": " à partir de {n}",
        "expect.int_hi": " jusqu'à {n}",
        "expect.bool": "true ou false",
        "expect.list": "une liste (éléments commençant par « - »)",
        "expect.list_exactly": "une liste d'exactement {n} éléments",
        "expect.list_one": "une liste d'un seul élément",
        "expect.list_at_least": "une liste d'au moins {n} éléments",
        "expect.list_at_least_one": "une liste d'au moins un élément",
        "expect.list_at_most": "une liste d'au plus {n} éléments",
        "expect.list_between": "une liste de {a} à {b} éléments",
        "expect.mapping": "une table (clé: valeur)",
        "expect.record": "une table de champs (clé: valeur)",
        "expect.records": "une liste de {kind}",
        "expect.ref": "l'identifiant {of_kinds}",
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
        "got.item": "un seul élément",
        "got.no_items": "une liste vide",
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
        "ref.vocab": (
            "{path} : {what} « {value} » ne fait pas partie des valeurs déclarées.{hint} Valeurs "
            "déclarées ({where}) : {known}. Corrigez l'orthographe, ou déclarez cette valeur."
        ),
        "ref.vocab_none": "aucune",
        "ref.vocab_also": "{known} ; permis aussi ici : {also}",
        "ref.vocab_where": "par le champ « {field} » {of_kinds}",
        "ref.vocab_where_campaign": "par le champ « {field} » de la campagne",
        "id.campaign_twice": (
            "l'identifiant de campagne « {key} » est déjà celui de la campagne de {file} ligne "
            "{line} : deux campagnes ne peuvent pas avoir le même identifiant (leurs pages et "
            "leurs sauvegardes se mélangeraient). Donnez-en un autre à l'une des deux."
        ),
        # --- graph
        "graph.loop": (
            "boucle sans issue : {nodes} se renvoient les uns aux autres sans jamais en sortir "
            "(voir aussi {where}). Aucun ne termine ni ne mène ailleurs : les joueurs y "
            "tourneraient sans fin. Pour corriger : donnez à l'un d'eux un choix qui mène hors "
            "de la boucle, ou faites-en une fin."
        ),
        "graph.loop_more": "{n} autres",
        "graph.loop_one": (
            "boucle sans issue : {nodes} ne renvoie qu'à lui-même. Pour corriger : donnez-lui "
            "un choix qui mène ailleurs, ou faites-en une fin."
        ),
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
        # --- spelling
        "spell.unknown": (
            "{path} : « {word} » n'est pas dans le dictionnaire français.{hint} Corrigez-le, ou "
            "ajoutez-le à {wordlist} s'il est voulu (un nom propre, un mot inventé)."
        ),
        "spell.suggest": " Suggestions : {words}.",
        "spell.no_hunspell": (
            "l'orthographe se vérifie avec le programme Hunspell, introuvable ici : "
            "installez-le avec son dictionnaire français (Debian : apt-get install hunspell "
            "hunspell-fr)"
        ),
        "spell.no_dictionary": (
            "Hunspell est installé mais pas son dictionnaire français : installez-le (Debian : "
            "apt-get install hunspell-fr)"
        ),
        # --- command line
        "cli.summary": "{errors}, {warnings} — {campaigns}",
        "cli.errors": "{n} erreur|{n} erreurs",
        "cli.warnings": "{n} avertissement|{n} avertissements",
        "cli.summary_campaign": "{id} : {nodes}, {edges}, {unreachable}",
        "cli.nodes": "{n} nœud|{n} nœuds",
        "cli.edges": "{n} arête|{n} arêtes",
        "cli.unreachable": "{n} inatteignable|{n} inatteignables",
        "cli.no_campaign": "aucune campagne",
        "cli.unknown_game": "pas de campagne « {game} » dans {content} (trouvées : {known})",
        "cli.fix_first": "corrigez d'abord les erreurs ci-dessus",
        "cli.build_blocked": "le contenu a des erreurs : corrigez-les avant de publier",
        "cli.memory": (
            "pas assez de mémoire pour cette commande ; vérifiez la taille des fichiers et des "
            "nombres donnés"
        ),
        "cli.out_not_ours": (
            "ce dossier n'est pas vide et n'a pas été écrit par gamebook build (il n'a pas le "
            "fichier {marker}) : la construction effacerait tout ce qu'il contient ; choisissez "
            "un dossier vide ou neuf, ou ajoutez --force pour l'effacer quand même"
        ),
        "cli.config_missing": (
            "ce fichier de configuration n'existe pas ; donnez le chemin d'un mkdocs.yml, ou "
            "omettez --config"
        ),
        "sim.summary": (
            "{runs} parties simulées ({completed} menées à leur fin) — {visited}/{reachable} "
            "éléments atteignables visités ({ratio} %), {edges}/{edges_total} arêtes, "
            "{errors}, {seconds} s"
        ),
        "sim.errors": "{n} échec du moteur|{n} échecs du moteur",
        "sim.script": "script de reproduction : {path}",
        "sim.never": "{node} n'a jamais été atteint en {runs} parties simulées.",
        "sim.never_edge": (
            "{node} n'a jamais été atteint en {runs} parties simulées : le plus proche élément "
            "atteint est {nearest}, d'où l'arête « {kind} » mène à {to}{why}. Rendez ce chemin "
            "plus accessible, ou expliquez dans le guide pourquoi cet élément est volontairement "
            "rare."
        ),
        "sim.never_cond": " sous la condition {condition}",
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
        "save.removed": (
            "{kind} « {key} » a disparu depuis la version publiée : une partie en cours qui "
            "l'utilise (en main, dans un paquet, ouverte, choisie à la mise en place…) ne pourra "
            "plus être reprise. Si elle a été renommée, déclarez son ancien nom sur la nouvelle "
            "fiche : « {field}: [{key}] »"
        ),
        "save.removed_guess": (
            "{kind} « {key} » a disparu depuis la version publiée, et « {new} » est apparue avec "
            "presque le même contenu : si c'est la même fiche renommée, ajoutez-y "
            "« {field}: [{key}] » pour que les parties en cours soient converties ; sinon, une "
            "partie qui utilise « {key} » ne pourra plus être reprise"
        ),
        "save.rename_digits": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car il n'est fait que de chiffres"
        ),
        "save.rename_twice": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car deux fiches le déclarent"
        ),
        "save.rename_taken": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car c'est encore l'identifiant d'une autre fiche"
        ),
        "cli.internal": (
            "erreur interne ({what}). C'est un défaut de gamebook, pas de vos fichiers : "
            "signalez-le avec la commande lancée."
        ),
    }
}


#: the messages each finding code is said with: the writers' catalogue of codes shows them all
CODE_MESSAGES: dict[str, tuple[str, ...]] = {
    "IO001": (
        "io.link_dangling",
        "io.link_loop",
        "io.permission",
        "io.directory",
        "io.special",
        "io.missing",
        "io.too_big",
        "io.unreadable",
    ),
    "YAML001": (
        "yaml.opened_quote",
        "yaml.quote_swallows",
        "yaml.opened_bracket",
        "yaml.opened_brace",
        "yaml.opened_key",
        "yaml.malformed_in",
        "yaml.malformed",
        "yaml.utf8",
    ),
    "YAML002": ("yaml.duplicate_key",),
    "CAMP001": ("camp.no_manifest", "camp.no_family", "camp.no_start"),
    "CAMP002": ("camp.not_mapping", "camp.misplaced", "camp.unknown_section"),
    "FIELD001": (
        "field.missing",
        "field.misspelt_required",
        "field.missing_if",
        "field.one_of",
        "field.missing_id",
        "field.missing_number",
    ),
    "FIELD002": (
        "field.expected",
        "field.enum",
        "field.map_key",
        "field.effect_unknown",
        "field.condition_unknown",
        "field.bad_id",
        "field.bad_number",
        "field.section_not_list",
        "field.record_not_mapping",
        "field.invisible",
        "field.misspelt_optional",
    ),
    "FIELD003": ("field.unknown",),
    "REF001": ("ref.unknown", "ref.start"),
    "REF002": ("ref.vocab",),
    "ID001": ("id.duplicate", "id.campaign_twice"),
    "GRAPH001": ("graph.unreachable", "graph.unreachable_listed"),
    "GRAPH002": ("graph.dead_end",),
    "GRAPH003": ("graph.orphan",),
    "GRAPH004": ("graph.loop", "graph.loop_one"),
    "COND001": ("cond.never",),
    "HIDDEN001": ("hidden.digits",),
    "SAVE001": ("save.removed", "save.removed_guess"),
    "SAVE002": ("save.rename_digits", "save.rename_twice", "save.rename_taken"),
    "HIDDEN002": ("hidden.back",),
    "SPELL001": ("spell.unknown",),
    "SIM001": ("sim.never", "sim.never_edge"),
    "SIM002": ("sim.sim002",),
    "SIM003": ("sim.sim003",),
}


def template(message: str) -> str:
    """A message as a writer reads it, its blanks shown as ‹…›: the catalogue's example."""
    import string

    out = []
    for literal, name, _, _ in string.Formatter().parse(MESSAGES[LANG][message]):
        out.append(literal)
        if name is not None:
            out.append(f"‹{_BLANKS.get(name, name)}›")
    return "".join(out)


#: how each blank of a message is named in the catalogue
_BLANKS = {
    "path": "chemin du champ",
    "what": "détail",
    "why": "raison",
    "line": "ligne",
    "column": "colonne",
    "key": "identifiant",
    "old": "ancien identifiant",
    "field": "nom du champ",
    "name": "nom",
    "got": "valeur écrite",
    "hint": " Vouliez-vous dire « … » ?",
    "kind": "sorte d'élément",
    "kinds": "sortes d'éléments",
    "node": "élément",
    "nodes": "éléments",
    "file": "fichier",
    "first": "ligne",
    "fix": "correction propre à la sorte d'élément",
    "expected": "ce qui est attendu",
    "value": "valeur",
    "values": "valeurs possibles",
    "known": "valeurs connues",
    "a_kind": "un élément",
    "meant": "clé voulue",
    "word": "mot",
    "wordlist": "mots.txt",
}


def t(message: str, /, **values: object) -> str:
    """The message ``message`` in the current language, filled with ``values``; invisible and
    look-alike characters in them are shown by name (see ``shown``)."""
    return MESSAGES[LANG][message].format(
        **{k: shown(v) if type(v) is str else v for k, v in values.items()}
    )


#: characters a writer cannot see, or mistakes for another, with their French names
_INVISIBLE = {
    "\u00a0": "espace insécable",
    "\u202f": "espace fine insécable",
    "\u2007": "espace tabulaire",
    "\u2009": "espace fine",
    "\u200a": "espace ultra-fine",
    "\u200b": "espace de largeur nulle",
    "\u200c": "antiliant sans chasse",
    "\u200d": "liant sans chasse",
    "\u2060": "gluon de mots",
    "\ufeff": "indicateur d'ordre des octets",
    "\u00ad": "trait d'union conditionnel",
    "\t": "tabulation",
    "\u2028": "séparateur de lignes",
    "\u2029": "séparateur de paragraphes",
}
#: letters of other scripts drawn like Latin ones (« а » cyrillique, « ο » grec…)
CONFUSABLES = dict(
    zip(
        "аеорсухіјѕАВЕКМНОРСТХІЈЅοαεικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
        "aeopcyxijsABEKMHOPCTXIJSoaeikvptuxABEZHIKMNOPTYX",
        strict=True,
    )
)


def codepoint(char: str) -> str:
    """« U+00A0 (espace insécable) »: a character named so that a writer can find it."""
    name = _INVISIBLE.get(char)
    if name is None and unicodedata.category(char) == "Cc":
        name = "caractère de contrôle"
    if name is None and char in CONFUSABLES:
        script = "cyrillique" if "CYRILLIC" in unicodedata.name(char, "") else "grecque"
        name = f"lettre {script} « {char} », pas la lettre latine « {CONFUSABLES[char]} »"
    if name is None:
        name = unicodedata.name(char, "").lower() or "caractère sans nom"
    return f"U+{ord(char):04X} ({name})"


def _suspect(char: str, latin: bool) -> bool:
    if char in _INVISIBLE:
        return True
    if char in CONFUSABLES:
        return latin
    return unicodedata.category(char) in ("Cf", "Cc", "Zl", "Zp") and char != "\n"


def shown(text: str) -> str:
    """``text`` with every invisible or look-alike character made visible:
    ``"text\u00a0"`` becomes ``text⟨U+00A0 (espace insécable)⟩``."""
    if text.isascii() and text.isprintable():
        return text
    latin = any("a" <= c.lower() <= "z" for c in text)
    if not any(_suspect(c, latin) for c in text):
        return text
    return "".join(f"⟨{codepoint(c)}⟩" if _suspect(c, latin) else c for c in text)


def clean_key(text: str) -> str:
    """What a key or id says once invisible characters are dropped and look-alikes replaced:
    the key a writer meant."""
    out = []
    for c in unicodedata.normalize("NFC", text):
        if c in CONFUSABLES:
            out.append(CONFUSABLES[c])
        elif c in _INVISIBLE or unicodedata.category(c) in ("Cf", "Cc"):
            if unicodedata.category(c) == "Zs":
                out.append(" ")
        else:
            out.append(c)
    return "".join(out).strip()


def kind_fr(kind: str) -> str:
    return KIND_FR.get(kind, kind)


def count(message: str, n: int) -> str:
    """A count with its noun agreed: the message is « singular|plural » (French: 0 and 1 take
    the singular)."""
    one, many = MESSAGES[LANG][message].split("|")
    return (one if abs(n) < 2 else many).format(n=n)


def _feminine() -> dict[str, bool]:
    from . import schema as S

    out: dict[str, bool] = {"campaign": True}
    for kinds in S.KINDS.values():
        for kind in kinds.values():
            out.setdefault(kind.name, kind.feminine)
    return out


FEMININE: dict[str, bool] = _feminine()


def a_kind(kind: str) -> str:
    """« un paragraphe », « une carte Aventure »."""
    return ("une " if FEMININE.get(kind) else "un ") + kind_fr(kind)


def of_kinds(kinds: tuple[str, ...] | list[str]) -> str:
    """« d'un paragraphe ou d'une carte Aventure »."""
    return " ou ".join(("d'une " if FEMININE.get(k) else "d'un ") + kind_fr(k) for k in kinds)


def _plain(word: str) -> str:
    """A word without case nor accents (« Éclat » and « eclat » are the same word here)."""
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def closest(word: str, choices: list[str]) -> str | None:
    """The choice ``word`` was most likely meant to be (same letters but for case and
    accents, else a close spelling), or ``None``."""
    plain = _plain(word)
    same = [c for c in choices if _plain(c) == plain]
    # two letters swapped (« di » for « id ») keep the same letters
    swapped = [c for c in choices if sorted(_plain(c)) == sorted(plain)]
    close = same or swapped or difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def list_len(low: int, high: int | None) -> str:
    """« une liste d'exactement 5 éléments », « … d'au moins un élément », « … de 1 à 3 … »."""
    if low == high:
        return t("expect.list_one") if low == 1 else t("expect.list_exactly", n=low)
    if high is None:
        return t("expect.list_at_least_one") if low <= 1 else t("expect.list_at_least", n=low)
    if low == 0:
        return t("expect.list_one") if high == 1 else t("expect.list_at_most", n=high)
    return t("expect.list_between", a=low, b=high)


def items_fr(n: int) -> str:
    """« 4 éléments », « un seul élément », « une liste vide »."""
    return t("got.no_items") if n == 0 else t("got.item") if n == 1 else t("got.items", n=n)


def did_you_mean(word: str, choices: list[str]) -> str:
    close = closest(word, choices)
    return t("hint", word=close) if close else ""


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
