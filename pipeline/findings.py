"""Findings: what the checker tells a writer.  Plain values with a stable code."""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning")
#: a file that cannot be read or parsed: what it would have defined is missing everywhere else
CAUSES = frozenset(("IO001", "YAML001"))
#: a reference to nothing: what lies behind what it meant is unreachable because of it
BROKEN_REFERENCES = frozenset(("REF001",))

#: Every finding code, its severity and what it means (the writers' guide documents each).
CODES: dict[str, tuple[str, str]] = {
    "IO001": ("error", "fichier ou dossier illisible"),
    "YAML001": ("error", "YAML mal formé"),
    "YAML002": ("error", "la même clé deux fois dans une table"),
    "CAMP001": ("error", "campaign.yaml absent ou invalide, ou campagne sans départ"),
    "CAMP002": ("error", "section inconnue ou fichier qui n'est pas une table de sections"),
    "FIELD001": ("error", "champ obligatoire absent"),
    "FIELD002": ("error", "champ de mauvais type ou valeur interdite"),
    "FIELD003": ("warning", "champ inconnu (ignoré)"),
    "REF001": ("error", "renvoi vers quelque chose qui n'existe pas"),
    "REF002": ("error", "mot d'un vocabulaire fermé (une zone…) que rien ne déclare"),
    "ID001": ("error", "le même identifiant défini deux fois"),
    "GRAPH001": ("error", "inatteignable depuis le départ de la campagne"),
    "GRAPH002": ("error", "impasse : aucune suite et pas marqué comme une fin"),
    "GRAPH003": ("warning", "défini mais jamais référencé"),
    "GRAPH004": ("error", "boucle sans issue : des éléments qui ne mènent qu'entre eux"),
    "COND001": ("error", "condition qui ne peut jamais être vraie"),
    "HIDDEN001": ("error", "numéro caché qui n'a pas trois chiffres"),
    "HIDDEN002": ("error", "le dos de la carte trouvée par un numéro caché ne nomme pas sa source"),
    "SPELL001": ("warning", "mot absent du dictionnaire français (--spelling)"),
    "SIM001": ("warning", "atteignable sur le graphe mais jamais atteint en jouant (simulation)"),
    "SIM002": ("error", "atteint en jouant mais inatteignable sur le graphe (arête manquante)"),
    "SIM003": ("error", "le moteur a échoué pendant une partie simulée"),
    "SAVE001": ("error", "retiré depuis la version publiée (parties en cours cassées)"),
    "SAVE002": ("warning", "ancien nom déclaré qui ne convertit pas les sauvegardes"),
}


#: how to fix each kind of finding, in one sentence (the catalogue of codes shows it)
FIXES: dict[str, str] = {
    "IO001": "Remplacez le lien ou le dossier par le fichier lui-même, ou rendez-le lisible.",
    "YAML001": (
        "Corrigez la syntaxe à la ligne indiquée (et, pour un guillemet ou un crochet, là où la "
        "lecture a échoué) ; enregistrez le fichier en UTF-8."
    ),
    "YAML002": "Supprimez ou renommez l'une des deux clés.",
    "CAMP001": "Ajoutez un campaign.yaml avec id, family et title, et le point de départ.",
    "CAMP002": "Corrigez le nom de la section, ou déplacez-la dans le bon fichier.",
    "FIELD001": "Ajoutez le champ obligatoire.",
    "FIELD002": "Écrivez une valeur du type attendu (le message dit lequel).",
    "FIELD003": "Corrigez l'orthographe du champ, ou supprimez-le.",
    "REF001": "Corrigez l'identifiant, ou définissez l'élément visé.",
    "REF002": "Corrigez l'orthographe, ou déclarez cette valeur là où elle se déclare.",
    "ID001": "Donnez un autre identifiant à l'un des deux éléments, ou supprimez-en un.",
    "GRAPH001": "Reliez cet élément à du contenu atteignable depuis le départ, ou supprimez-le.",
    "GRAPH002": "Ajoutez une suite (choix, effet, action) ou marquez l'élément comme une fin.",
    "GRAPH003": "Faites-y référence depuis le contenu, ou supprimez-le.",
    "GRAPH004": "Ajoutez un choix qui sort de la boucle, ou une fin à l'un de ses éléments.",
    "COND001": "Ajoutez l'effet qui rend la condition vraie, ou corrigez la condition.",
    "HIDDEN001": "Écrivez un numéro caché à trois chiffres (100 à 999).",
    "HIDDEN002": "Ajoutez « back_source » avec le numéro de la carte qui cache le nombre.",
    "SPELL001": "Corrigez le mot, ou ajoutez-le à mots.txt (noms propres, mots inventés).",
    "SIM001": "Rendez le chemin plus accessible, ou expliquez pourquoi il est rare.",
    "SIM002": "Signalez-le : il manque une arête au graphe du vérificateur.",
    "SIM003": "Rejouez la partie avec le script enregistré, et signalez le défaut du moteur.",
    "SAVE001": (
        "Remettez l'élément, ou, s'il a été renommé, déclarez son ancien identifiant dans "
        "renamed_from: [ancien_id] pour que les sauvegardes soient converties."
    ),
    "SAVE002": "Retirez cet ancien nom de renamed_from, ou choisissez un identifiant libre.",
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    node: str | None = None
    #: the finding this one only follows from (``file:line:column CODE``): the text output
    #: folds it under that one (``pipeline.fold.fold_behind``); JSON keeps it, with this field
    cause: str | None = None

    def to_json(self) -> dict:
        out = asdict(self)
        if out["cause"] is None:
            del out["cause"]
        return out

    def __reduce__(self) -> tuple:
        # constructor and values: much faster to unpickle than the default for slots
        return (
            Finding,
            (
                self.code,
                self.severity,
                self.message,
                self.file,
                self.line,
                self.column,
                self.node,
                self.cause,
            ),
        )

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column} {self.code}"

    def sort_key(self) -> tuple:
        """Causes before consequences: a file that cannot be read or parsed comes before
        everything else, then the references to nothing, then findings in file order."""
        rank = 0 if self.code in CAUSES else 1 if self.code in BROKEN_REFERENCES else 2
        return (rank, self.file, self.line, self.column, self.code, self.message)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
