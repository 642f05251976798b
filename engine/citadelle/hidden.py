"""The 7th Citadel's hidden numbers, checked: a three-digit number hidden in a card's picture
leads to cards whose back names the card that hides it (the rulebook's « numéro caché »).

Each finding code is a record (``engine.core.schema.Code``) beside the check that gives it; the
content schema (``content.SCHEMA``) declares both.
"""

from __future__ import annotations

from ..core.schema import Code, GraphView, Issue

HIDDEN001 = Code(
    "HIDDEN001",
    "error",
    about="numéro caché qui n'a pas trois chiffres",
    fix="Écrivez un numéro caché à trois chiffres (100 à 999).",
    messages={
        "hidden.digits": (
            "{path} : le numéro caché « {raw} » doit avoir exactement trois chiffres (100 à 999) : "
            "les joueurs cherchent un nombre à trois chiffres sur la carte."
        ),
    },
    guide="""\
### `HIDDEN001` — numéro caché mal formé

**Erreur.** Un numéro de `hidden_numbers` n'est pas un nombre de 100 à 999 : les joueurs
cherchent un nombre à trois chiffres dans l'illustration, et seules les cartes Aventure 100 à
999 peuvent se trouver ainsi. Si la carte n'existe pas, un
[`REF001`](#ref001-reference-vers-rien) l'accompagne.

```yaml
    hidden_numbers: [245, 45]
```

```text
content/tour/cartes.yaml:21:27: error HIDDEN001 adventure_cards[0].hidden_numbers[1] : le numéro caché « 45 » doit avoir exactement trois chiffres (100 à 999) : les joueurs cherchent un nombre à trois chiffres sur la carte.
content/tour/cartes.yaml:21:27: error REF001 adventure_cards[0].hidden_numbers[1] renvoie à carte Aventure « 45 », introuvable. Ajoutez cet élément (section « adventure_cards ») ou corrigez la référence.
```

Un zéro au début ne suffit pas à faire trois chiffres : `045` est refusé, même si la carte 45
existe (le numéro désigne la carte 45, qui ne peut pas se trouver par un numéro caché).
Ici, `tour` a une carte Aventure 45 (`Un clou`, avec `back_source: 101`), donc il n'y a pas de
`REF001` :

```yaml
    hidden_numbers: [245, 045]
```

```text
content/tour/cartes.yaml:21:27: error HIDDEN001 adventure_cards[0].hidden_numbers[1] : le numéro caché « 045 » doit avoir exactement trois chiffres (100 à 999) : les joueurs cherchent un nombre à trois chiffres sur la carte.
```

Correction : donnez à la carte cachée un numéro de 100 à 999 (et écrivez ce numéro-là dans
`hidden_numbers`).
""",  # noqa: E501
)


HIDDEN002 = Code(
    "HIDDEN002",
    "error",
    about="le dos de la carte trouvée par un numéro caché ne nomme pas sa source",
    fix="Ajoutez « back_source » avec le numéro de la carte qui cache le nombre.",
    messages={
        "hidden.back": (
            "{path} : la carte {key} se trouve par un numéro caché sur {source}, mais son dos "
            "{got}. Ajoutez « back_source: {number} » à la carte {key}."
        ),
        "hidden.back_none": "ne nomme aucune source",
        "hidden.back_other": "nomme la carte {back}",
    },
    guide="""\
### `HIDDEN002` — dos sans la bonne source

**Erreur.** Une carte trouvée par un numéro caché doit porter au dos le numéro de la carte qui
la cache (`back_source`), pour que les joueurs vérifient qu'ils ont pris la bonne. L'erreur
apparaît quand ce champ manque ou nomme une autre carte, pour **chaque** version de la carte
trouvée.

```yaml
  - number: 245
    type: purse
    title: Une corde
```

```text
content/tour/cartes.yaml:21:22: error HIDDEN002 adventure_cards[0].hidden_numbers[0] : la carte 245 se trouve par un numéro caché sur carte Aventure 101 (green), mais son dos ne nomme aucune source. Ajoutez « back_source: 101 » à la carte 245.
```

Correction : ajoutez `back_source: 101` à la carte 245 (à toutes ses versions).
""",  # noqa: E501
)


def check_hidden_numbers(g: GraphView) -> list[Issue]:
    """HIDDEN001/HIDDEN002: a hidden number has three digits, and the back of every card it
    leads to names the card that hides it.  Cost: O(hidden numbers × versions)."""
    out = []
    for ref in g.references("hidden_number"):
        at = (ref.file, ref.line, ref.column)
        raw = ref.context or ref.key
        if not (raw.isdigit() and len(raw) == 3 and raw[0] != "0"):
            message = HIDDEN001.say("hidden.digits", path=ref.path, raw=raw)
            out.append(Issue(HIDDEN001.code, HIDDEN001.severity, message, ref.source, at=at))
            continue
        source = g.data(ref.source)
        if source is None:
            continue
        src_number = source.get("number", source.get("id"))
        for target in [n for kind in ref.kinds for n in g.by(kind, ref.key)]:
            back = (g.data(target) or {}).get("back_source")
            if back != src_number:
                got = (
                    HIDDEN002.say("hidden.back_none")
                    if back is None
                    else HIDDEN002.say("hidden.back_other", back=back)
                )
                message = HIDDEN002.say(
                    "hidden.back",
                    path=ref.path,
                    key=ref.key,
                    source=g.label(ref.source),
                    got=got,
                    number=src_number,
                )
                out.append(Issue(HIDDEN002.code, HIDDEN002.severity, message, ref.source, at=at))
    return out


CODES = (HIDDEN001, HIDDEN002)
