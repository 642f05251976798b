"""Every French string Complots shows: log lines, buttons, headings.  The characters' names
and texts come from the content (``content/complots``)."""

from __future__ import annotations

from typing import Any

from ..core import french as fr

#: character id -> (name with article, short name); filled from the bundle by the plugin, with
#: the rulebook's six as a fallback so that a log line always reads
NAMES: dict[str, tuple[str, str]] = {
    "duchesse": ("la Duchesse", "Duchesse"),
    "assassin": ("l'Assassin", "Assassin"),
    "comtesse": ("la Comtesse", "Comtesse"),
    "capitaine": ("le Capitaine", "Capitaine"),
    "ambassadeur": ("l'Ambassadeur", "Ambassadeur"),
    "inquisiteur": ("l'Inquisiteur", "Inquisiteur"),
}


def set_names(characters: dict[str, dict]) -> None:
    for cid, ch in characters.items():
        name = str(ch.get("name", cid))
        NAMES[cid] = (name[:1].lower() + name[1:], str(ch.get("short", cid)))


def character(cid: Any) -> fr.Name:
    """The character as a name the French layer agrees with: its short name, and the gender
    and number its article gives (« la Duchesse »: feminine; « l'Assassin »: masculine)."""
    full, short_name = NAMES.get(str(cid), (str(cid), str(cid)))
    head = full.split(" ", 1)[0].lower()
    return fr.Name(short_name, "f" if head == "la" else "m", plural=head == "les")


def char(cid: Any) -> str:
    """« la Duchesse »."""
    return NAMES.get(str(cid), (str(cid), str(cid)))[0]


def char_de(cid: Any) -> str:
    """« de la Duchesse », « du Capitaine », « de l'Assassin »."""
    return fr.de(character(cid))


def short(cid: Any) -> str:
    return NAMES.get(str(cid), (str(cid), str(cid)))[1]


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def cards_fr(cards: list[str]) -> str:
    if not cards:
        return "aucune carte"
    names = [short(c) for c in cards]
    return ", ".join(names[:-1]) + " et " + names[-1] if len(names) > 1 else names[0]


def cards_n(n: int) -> str:
    return f"{n} carte" if n == 1 else f"{n} cartes"


def coins(n: int) -> str:
    return f"{n} pièce" if abs(n) == 1 else f"{n} pièces"


WHY = {
    "doubt": "pour avoir douté à tort",
    "bluff": "pris à bluffer",
    "assassin": "sous le coup de l'Assassin",
    "assassinat": "victime d'un Assassinat",
}

TITLE = "Complots"
PITCH = (
    "Deux personnages cachés, des annonces vraies ou fausses : mettez en doute, contrez, et "
    "soyez le dernier à garder un personnage caché (2 à 8 joueurs)."
)
#: the first is the default
PERSONAS = (
    ("malin", "Malin", "compte les cartes, retient qui bluffe et ne bluffe qu'à bon escient"),
    ("prudent", "Prudent", "ne bluffe presque jamais et ne doute qu'à coup sûr"),
    ("bluffeur", "Bluffeur", "annonce volontiers ce qu'il n'a pas"),
    ("agressif", "Agressif", "attaque le plus menaçant et doute souvent"),
)
VARIANT_LABEL = "Cinquième personnage"
VARIANT_HELP = "l'Ambassadeur (conseillé pour débuter) ou l'Inquisiteur"

UI = {
    "status_turn": "Tour {turn} — à {name} de jouer",
    "status_doubt": "Tour {turn} — {name} annonce {char} : quelqu'un doute-t-il ?",
    "status_counter": "Tour {turn} — {name} : quelqu'un s'y oppose-t-il ?",
    "status_lose": "Tour {turn} — {name} perd un personnage",
    "status_keep": "Tour {turn} — {name} choisit ses cartes",
    "status_show": "Tour {turn} — {name} montre une carte à l'Inquisiteur",
    "status_judge": "Tour {turn} — {name} examine la carte montrée",
    "status_pick": "Mise en place — choix d'un personnage",
    "status_over": "Partie terminée — {name} l'emporte",
    "revenu": "Revenu (+1 pièce)",
    "aide": "Aide étrangère (+2 pièces)",
    "assassinat": "Assassinat sur {target} (7 pièces)",
    "claim_tax": "Annoncer {char} (+{n} pièces)",
    "claim_assassin": "Annoncer {char} contre {target} ({cost} pièces)",
    "claim_steal": "Annoncer {char} : voler {target}",
    "claim_exchange": "Annoncer {char} : échanger avec la Cour",
    "claim_inspect": "Annoncer {char} : examiner une carte de {target}",
    "doubt": "Mettre en doute",
    "pass": "Laisser faire",
    "doubt_who": "{name} met en doute",
    "pass_who": "{name} laisse faire",
    "counter": "Contrer avec {char}",
    "counter_who": "{name} contre avec {char}",
    "lose": "Révéler {char}",
    "keep": "Garder {cards}",
    "show": "Montrer {char}",
    "spare": "Lui laisser sa carte",
    "discard": "La lui faire défausser",
    "pick": "Choisir {char}",
    "g_actions": "Actions",
    "g_actions_help": "Sans annonce : personne ne peut mettre en doute.",
    "g_claims": "Annoncer un personnage",
    "g_claims_help": "Vrai ou bluff : n'importe qui peut mettre l'annonce en doute.",
    "g_forced": "Assassinat obligatoire",
    "g_forced_help": "Avec 10 pièces ou plus en début de tour, on doit assassiner.",
    "g_doubt": "Mise en doute",
    "g_doubt_help": "Qui doute à tort perd un personnage ; un menteur démasqué aussi.",
    "g_counter": "Contre",
    "g_counter_help": "Contrer, c'est annoncer un personnage : cela peut être mis en doute.",
    "g_lose": "Quel personnage révéler ?",
    "g_lose_help": "La carte révélée perd son pouvoir pour le reste de la partie.",
    "g_keep": "Quelles cartes garder ?",
    "g_keep_help": "Les autres retournent à la Cour, qui est mélangée.",
    "g_show": "Quelle carte montrer à l'Inquisiteur ?",
    "g_judge": "La carte montrée",
    "g_pick": "Votre second personnage",
    "g_pick_help": "Choisissez-le dans votre paquet ; les quatre autres sont écartés.",
    "players": "À la table",
    "col_name": "Joueur",
    "col_coins": "Pièces",
    "col_cards": "Cartes cachées",
    "col_revealed": "Révélées",
    "your_cards": "Vos personnages",
    "drawn": "Tirées de la Cour",
    "aside": "Votre paquet",
    "set_aside": "Vos cartes écartées (hors jeu)",
    "table": "La Cour et le Trésor",
    "court": "Cartes à la Cour",
    "treasury": "Pièces au Trésor",
    "claims": "Annonces",
    "now": "En ce moment",
    "reveal": "Ce que chacun cachait",
    "bluffs": "Bluffs réussis",
    "nobody_bluffed": "Aucun bluff n'est passé inaperçu.",
    "out": "hors jeu",
    "you": "vous",
    "rank_details_alive": "seule place encore en lice",
    "rank_details_hidden": "{hidden} à la fin",
    "why_over": "Une seule place garde un personnage caché, celle {of_name} : toutes les autres "
    "ont perdu les leurs.",
    "rank_details_out": "dernier personnage éliminé au tour {turn}",
    "ranking": "Classement",
}


def claim_text(c: dict, names: list[str]) -> str:
    """« Tour 3 — Alice annonce la Duchesse »."""
    who = names[c["seat"]]
    if c["role"] == "counter":
        text = f"{who} contre avec {char(c['character'])}"
    else:
        text = f"{who} annonce {char(c['character'])}"
        if c.get("target") is not None:
            text += f" contre {names[c['target']]}"
    return f"Tour {c['turn']} — {text}"


def render(entry: dict[str, Any]) -> str:
    key, a = entry.get("key"), entry.get("args", {})
    by_seat = {a[k]: a[k + "_name"] for k in list(a) if k + "_name" in a}

    def n(seat: Any) -> str:
        return str(by_seat.get(seat, "?"))

    if key == "setup":
        extra = f", {a['copies']} exemplaires de chaque personnage"
        return f"Partie à {a['n']} joueurs{extra}. Le sort désigne {n(a['first'])} pour commencer."
    if key == "deal":
        return f"{n(a['seat'])} reçoit {cards_fr(a['cards'])}."
    if key == "pick_deal":
        return f"{n(a['seat'])} reçoit au hasard {char(a['card'])}."
    if key == "picked":
        return f"{n(a['seat'])} a choisi son second personnage."
    if key == "picked_private":
        return f"Vous avez choisi {char(a['card'])}."
    if key == "turn":
        return f"— Tour {a['turn']} : {n(a['seat'])} —"
    if key == "revenu":
        return f"{n(a['seat'])} prend un Revenu ({coins(a['n'])})."
    if key == "aide":
        return f"{n(a['seat'])} demande l'Aide étrangère."
    if key == "aide_done":
        return f"{n(a['seat'])} reçoit l'Aide étrangère ({coins(a['n'])})."
    if key == "assassinat":
        return f"{n(a['seat'])} paie {coins(a['n'])} et fait assassiner {n(a['target'])}."
    if key == "claim_action":
        t = f" contre {n(a['target'])}" if a.get("target") is not None else ""
        return f"{n(a['seat'])} annonce {char(a['character'])}{t}."
    if key == "claim_counter":
        return f"{n(a['seat'])} contre {n(a['target'])} en annonçant {char(a['character'])}."
    if key == "no_counter":
        return f"Personne ne s'oppose à {n(a['actor'])}."
    if key == "doubt":
        return f"{n(a['seat'])} met en doute l'annonce {char_de(a['character'])} par {n(a['claimant'])} !"
    if key == "proven":
        return (
            f"{n(a['seat'])} montre {char(a['character'])}, mêle la carte à la Cour et en pioche "
            f"une autre : {n(a['doubter'])} a douté à tort."
        )
    if key == "caught":
        return f"{n(a['seat'])} n'a pas {char(a['character'])} : c'était un bluff."
    if key == "redraw_private":
        return f"{n(a['seat'])} pioche {char(a['card'])}." if a.get("card") else "La Cour est vide."
    if key == "unchallenged":
        said = fr.agree("annoncé", character(a["character"]))
        return f"Personne ne doute {char_de(a['character'])} {said} par {n(a['seat'])}."
    if key == "countered":
        return f"Le contre de {n(a['seat'])} tient : l'action de {n(a['actor'])} échoue."
    if key == "paid":
        return f"{n(a['seat'])} paie {coins(a['n'])} au Trésor."
    if key == "tax":
        return f"{n(a['seat'])} prend {coins(a['n'])} au Trésor."
    if key == "steal":
        return f"{n(a['seat'])} prend {coins(a['n'])} à {n(a['target'])}."
    if key == "exchange":
        return f"{n(a['seat'])} tire {cards_n(a['n'])} de la Cour."
    if key == "drawn_private":
        return f"{n(a['seat'])} tire {cards_fr(a['cards'])}."
    if key == "kept":
        return f"{n(a['seat'])} rend {cards_n(a['n'])} à la Cour, qui est mélangée."
    if key == "kept_private":
        return f"{n(a['seat'])} garde {cards_fr(a['cards'])}."
    if key == "shown":
        return f"{n(a['seat'])} montre une carte à {n(a['by'])}."
    if key == "shown_private":
        return f"{n(a['seat'])} montre {char(a['card'])} à {n(a['by'])}."
    if key == "discarded":
        return f"{n(a['seat'])} fait défausser cette carte à {n(a['target'])}, qui en pioche une autre."
    if key == "spared":
        return f"{n(a['seat'])} rend sa carte à {n(a['target'])}."
    if key == "lose":
        why = WHY.get(a.get("why", ""), "")
        why = f" ({why})" if why else ""
        return f"{n(a['seat'])} révèle {char(a['character'])}{why}."
    if key == "eliminated":
        k = a.get("n", 0)
        if k == 0:
            return f"{n(a['seat'])} quitte la partie, sans plus une pièce."
        if k == 1:
            return f"{n(a['seat'])} quitte la partie ; sa dernière pièce retourne au Trésor."
        return f"{n(a['seat'])} quitte la partie ; ses {k} pièces retournent au Trésor."
    if key == "winner":
        return f"{n(a['seat'])} garde le dernier personnage caché et remporte la partie !"
    return str(key)


#: names of the seats nobody named (the court's schemers), with their gender
SEAT_NAMES: tuple[tuple[str, str], ...] = (
    ("Béatrice", "f"),
    ("Gauthier", "m"),
    ("Mahaut", "f"),
    ("Tancrède", "m"),
    ("Clémence", "f"),
    ("Aymeric", "m"),
    ("Héloïse", "f"),
    ("Baudouin", "m"),
    ("Oriane", "f"),
    ("Thibaut", "m"),
    ("Sibylle", "f"),
    ("Amaury", "m"),
)
