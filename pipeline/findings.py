"""Findings: what the checker tells a writer.  Plain values with a stable code."""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning")

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
    "ID001": ("error", "le même identifiant défini deux fois"),
    "GRAPH001": ("error", "inatteignable depuis le départ de la campagne"),
    "GRAPH002": ("error", "impasse : aucune suite et pas marqué comme une fin"),
    "GRAPH003": ("warning", "défini mais jamais référencé"),
    "COND001": ("error", "condition qui ne peut jamais être vraie"),
    "HIDDEN001": ("error", "numéro caché qui n'a pas trois chiffres"),
    "HIDDEN002": ("error", "le dos de la carte trouvée par un numéro caché ne nomme pas sa source"),
    "SIM001": ("warning", "atteignable sur le graphe mais jamais atteint en jouant (simulation)"),
    "SIM002": ("error", "atteint en jouant mais inatteignable sur le graphe (arête manquante)"),
    "SIM003": ("error", "le moteur a échoué pendant une partie simulée"),
    "SAVE001": ("error", "retiré depuis la version publiée (parties en cours cassées)"),
    "SAVE002": ("warning", "ancien nom déclaré qui ne convertit pas les sauvegardes"),
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

    def to_json(self) -> dict:
        return asdict(self)

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.code, self.message)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
