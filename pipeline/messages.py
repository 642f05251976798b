"""Every sentence the pipeline says to a writer, in one place.

French first (writers read them next to a French guide); a second language is another table
with the same keys.  ``t(key, **values)`` formats one message.
"""

from __future__ import annotations

import difflib
import string
import unicodedata

from engine.core.schema import Code

from . import schema as S

LANG = "fr"


def _kind_names() -> dict[str, str]:
    out = {"campaign": "campagne"}
    for kinds in S.KINDS.values():
        for kind in kinds.values():
            out.setdefault(kind.name, kind.name_fr or kind.name)
    return out


KIND_FR: dict[str, str] = _kind_names()

MESSAGES: dict[str, dict[str, str]] = {
    "fr": {
        # --- reading files
        "yaml.control": "le caractère invisible {char}, interdit en YAML (supprimez-le)",
        "yaml.control_any": "un caractère de contrôle interdit (supprimez-le ou remplacez-le)",
        "yaml.too_deep": (
            "plus de {n} niveaux d'imbrication : aucun contenu n'a besoin d'autant de listes ou "
            "de tables les unes dans les autres (des crochets en trop ?)"
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
        "content.missing": "le dossier de contenu « {path} » n'existe pas",
        "content.not_dir": "« {path} » n'est pas un dossier",
        "content.empty": (
            "aucune campagne dans « {path} » : il faut un campaign.yaml dans ce dossier ou dans "
            "ses sous-dossiers"
        ),
        # --- fields
        "field.id_int": "un nombre entier",
        "field.id_letter": "une lettre",
        "field.id_str": "un mot ou un nombre sans « / » ni « : »",
        # --- the writers' guide's field tables (``pipeline.publish.guide``)
        "guide.one_of": "Il faut au moins l'un des champs {names}.",
        "guide.edge": " — arête {edge}",
        "guide.required_if": "{name} est obligatoire quand {field} vaut {value}.",
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
        "ref.vocab_none": "aucune",
        "ref.vocab_also": "{known} ; permis aussi ici : {also}",
        "ref.vocab_where": "par le champ « {field} » {of_kinds}",
        "ref.vocab_where_campaign": "par le champ « {field} » de la campagne",
        # --- graph
        "graph.loop_more": "{n} autres",
        # --- conditions
        "cond.any": "aucune de ses alternatives ne le peut : {reasons}",
        # --- the language server (``gamebook lsp``): what it answers a request it declines
        "lsp.rename_nowhere": (
            "rien à renommer ici : placez le curseur sur l'identifiant d'un élément ou sur une "
            "référence à un élément"
        ),
        "lsp.rename_inside": (
            "{a_kind} ne se renomme pas d'ici : changez son identifiant dans la fiche qui le "
            "contient"
        ),
        "lsp.rename_resolved": (
            "« {key} » désigne toutes les versions d'{a_kind} (par leur champ « {field} ») : "
            "changez ce champ dans chacune d'elles"
        ),
        "lsp.rename_bad": "« {new} » ne peut pas servir d'identifiant : il faut {expected}",
        "lsp.rename_same": "« {new} » est déjà son identifiant : rien à renommer",
        "lsp.rename_taken": (
            "« {new} » est déjà l'identifiant d'un autre élément de cette sorte ({file}, ligne "
            "{line}) : choisissez-en un autre"
        ),
        "lsp.rename_no_id": "l'identifiant de « {old} » n'a pas été trouvé dans {file}",
        "lsp.rename_number": (
            "« {old} » est un numéro : renamed_from ne peut pas le garder (une sauvegarde ne "
            "distingue pas un numéro d'un nombre). Les sauvegardes faites avant ce renommage ne "
            "trouveront plus « {old} », devenu « {new} »."
        ),
        # --- spelling
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
        "cli.folded": " (dont {n} replié sous sa cause)| (dont {n} repliés sous leur cause)",
        "cli.summary_campaign": "{id} : {nodes}, {edges}, {unreachable}",
        "cli.nodes": "{n} nœud|{n} nœuds",
        "cli.edges": "{n} arête|{n} arêtes",
        "cli.unreachable": "{n} inatteignable|{n} inatteignables",
        "cli.no_campaign": "aucune campagne",
        "against.changed": "{n} fiche modifiée|{n} fiches modifiées",
        "against.added": "{n} ajoutée|{n} ajoutées",
        "against.removed": "{n} retirée|{n} retirées",
        "against.renamed": "{n} renommée|{n} renommées",
        "cli.serve_errors": (
            "{n} erreur dans le contenu : chaque page l'affiche dans un cadre jusqu'à sa "
            "correction|{n} erreurs dans le contenu : chaque page les affiche dans un cadre "
            "jusqu'à leur correction"
        ),
        "cli.watch_start": (
            "surveillance de {content} : chaque enregistrement relance la vérification "
            "(Ctrl+C pour arrêter)"
        ),
        "cli.watch_round": "— vérification n° {n}, {at} : {what} ({seconds} s) —",
        "cli.watch_changed": "modifié : {files}",
        "cli.watch_added": "ajouté : {files}",
        "cli.watch_removed": "supprimé : {files}",
        "cli.watch_touched": "fichiers réécrits à l'identique",
        "cli.watch_more": "{files} et {n} autres",
        "cli.watch_alone": "--watch ne se combine pas avec {option} : lancez-les séparément",
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
        "sim.kinds": "couverture par sorte : {kinds}",
        "sim.kind": "{kind} {visited} sur {reachable}",
        "sim.tables": "tailles de table (de {low} à {high} joueurs) : {played}",
        "sim.table": "{size} joueurs ({games})",
        "sim.games": "{n} partie|{n} parties",
        "sim.tables_never": " ; jamais jouées : {sizes}",
        "sim.script": "script de reproduction : {path}",
        "sim.never_cond": " sous la condition {condition}",
        "sim.play": "{games} parties jouées, {mean} actions en moyenne par partie",
        "sim.personas": "parts de victoire par caractère de bot : {shares}",
        "sim.seats": "parts de victoire par place : {shares}",
        "cli.internal": (
            "erreur interne ({what}). C'est un défaut de gamebook, pas de vos fichiers : "
            "signalez-le avec la commande lancée."
        ),
    }
}


#: the messages each finding code is said with: the writers' catalogue of codes shows them all
def register(record: Code) -> Code:
    """Adds a finding code's messages to the table (a key says one thing only)."""
    table = MESSAGES[LANG]
    for key, text in record.messages.items():
        if table.setdefault(key, text) != text:
            raise ValueError(f"message {key!r} declared twice, differently")
    return record


def declare(
    code: str, severity: str, *, about: str, fix: str, messages: dict[str, str], guide: str = ""
) -> Code:
    """A finding code's record (``engine.core.schema.Code``), declared beside the function that
    finds it; its messages join the table, so ``t(key)`` says them.  The pipeline's own codes
    keep their guide section in the Markdown file beside their module (``checks.py``:
    ``checks.md``), since its examples name games: ``pipeline.story.catalogue`` reads it there."""
    return register(Code(code, severity, about, fix, messages, guide))


def _games_sentences() -> None:
    """What each registered game says through the pipeline: its own codes' messages, and why
    a condition only its effect grants can never hold (``cond.<name>``)."""
    table = MESSAGES[LANG]
    for schema in S.SCHEMAS.values():
        for record in schema.codes:
            register(record)
        for granted in schema.granted:
            if table.setdefault(f"cond.{granted.name}", granted.never_fr) != granted.never_fr:
                raise ValueError(f"condition {granted.name!r} explained twice, differently")


_games_sentences()


def template(message: str) -> str:
    """A message as a writer reads it, its blanks shown as ‹…›: the catalogue's example."""
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
    "listed": " (ce que le jeu ajoute)",
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


def of(name: str) -> str:
    """« de » before a name, contracted as French wants: « du Roi », « des 12 », « de
    Complots », « d'Arkham ».

    >>> [of(n) for n in ("Le Dilemme du Roi", "Les Ombres", "La Cour", "Complots", "Arkham")]
    ['du Dilemme du Roi', 'des Ombres', 'de La Cour', 'de Complots', "d'Arkham"]
    """
    first, _, rest = name.partition(" ")
    if rest and first in ("Le", "le"):
        return f"du {rest}"
    if rest and first in ("Les", "les"):
        return f"des {rest}"
    if name[:1].lower() in "aeiouyéèêâîôû" and name[:1]:
        return f"d'{name}"
    return f"de {name}"
