"""Every French string Complots shows: log lines, buttons, headings.  The characters' names
and texts come from the content (``content/complots``)."""

from __future__ import annotations

from collections.abc import Callable
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
    "status_doubt": "Tour {turn} — {name} {name:annonce} {char} : quelqu'un doute-t-il ?",
    "status_counter": "Tour {turn} — {name} : quelqu'un s'y oppose-t-il ?",
    "status_lose": "Tour {turn} — {name} {name:perd} un personnage",
    "status_keep": "Tour {turn} — {name} {name:choisit} {name:ses} cartes",
    "status_show": "Tour {turn} — {name} {name:montre} une carte à l'Inquisiteur",
    "status_judge": "Tour {turn} — {name} {name:examine} la carte montrée",
    "status_pick": "Mise en place — choix d'un personnage",
    "status_over": "Partie terminée — {name} l'{name:emporte}",
    "revenu": "Revenu (+1 pièce)",
    "aide": "Aide étrangère (+2 pièces)",
    "assassinat": "Assassinat sur {target} (7 pièces)",
    "claim_tax": "Annoncer {char} (+{n} pièces)",
    "claim_assassin": "Annoncer {char} contre {target} ({cost} pièces)",
    "claim_steal": "Annoncer {char} : voler {target}",
    "claim_steal.vous": "Annoncer {char} : vous voler",
    "claim_exchange": "Annoncer {char} : échanger avec la Cour",
    "claim_inspect": "Annoncer {char} : examiner une carte de {target}",
    "claim_inspect.vous": "Annoncer {char} : examiner une de vos cartes",
    "doubt": "Mettre en doute",
    "pass": "Laisser faire",
    "doubt_who": "{name} {name:met} en doute",
    "pass_who": "{name} {name:laisse} faire",
    "counter": "Contrer avec {char}",
    "counter_who": "{name} {name:contre} avec {char}",
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
    "why_over.vous": "Une seule place garde un personnage caché, la vôtre : toutes les autres "
    "ont perdu les leurs.",
    "rank_details_out": "dernier personnage éliminé au tour {turn}",
    "ranking": "Classement",
}


def name(text: Any) -> fr.Name:
    """A seat's name as a subject: its gender, and « Vous » for a single person."""
    text = str(text)
    return fr.seat(text, next((g for n, g in SEAT_NAMES if n == text), None))


def claim_text(c: dict, names: list[str]) -> str:
    """« Tour 3 — Alice annonce la Duchesse »."""
    who = name(names[c["seat"]])
    if c["role"] == "counter":
        text = f"{who} {who:contre} avec {char(c['character'])}"
    else:
        text = f"{who} {who:annonce} {char(c['character'])}"
        if c.get("target") is not None:
            text += f" contre {names[c['target']]}"
    return f"Tour {c['turn']} — {text}"


def _line_setup(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    extra = f", {a['copies']} exemplaires de chaque personnage"
    first = n(a["first"])
    chosen = "vous désigne" if first.person == 2 else f"désigne {first}"
    return f"Partie à {a['n']} joueurs{extra}. Le sort {chosen} pour commencer."


def _line_deal(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:reçoit} {cards_fr(a['cards'])}."


def _line_pick_deal(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:reçoit} au hasard {char(a['card'])}."


def _line_picked(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:a} choisi {who:son} second personnage."


def _line_picked_private(
    a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name
) -> str | None:
    return f"Vous avez choisi {char(a['card'])}."


def _line_turn(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"— Tour {a['turn']} : {who} —"


def _line_revenu(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:prend} un Revenu ({coins(a['n'])})."


def _line_aide(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:demande} l'Aide étrangère."


def _line_aide_done(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:reçoit} l'Aide étrangère ({coins(a['n'])})."


def _line_assassinat(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    target = n(a["target"])
    kill = (
        f"vous {who:fait} assassiner" if target.person == 2 else f"{who:fait} assassiner {target}"
    )
    return f"{who} {who:paie} {coins(a['n'])} et {kill}."


def _line_claim_action(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    t = f" contre {n(a['target'])}" if a.get("target") is not None else ""
    return f"{who} {who:annonce} {char(a['character'])}{t}."


def _line_claim_counter(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    target = n(a["target"])
    counter = f"vous {who:contre}" if target.person == 2 else f"{who:contre} {target}"
    return f"{who} {counter} en annonçant {char(a['character'])}."


def _line_no_counter(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"Personne ne s'oppose à {n(a['actor'])}."


def _line_doubt(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:met} en doute l'annonce {char_de(a['character'])} par {n(a['claimant'])} !"


def _line_proven(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return (
        f"{who} {who:montre} {char(a['character'])}, {who:mêle} la carte à la Cour et en {who:pioche} "
        f"une autre : {n(a['doubter'])} {n(a['doubter']):a} douté à tort."
    )


def _line_caught(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} n'{who:a} pas {char(a['character'])} : c'était un bluff."


def _line_redraw_private(
    a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name
) -> str | None:
    return f"{who} {who:pioche} {char(a['card'])}." if a.get("card") else "La Cour est vide."


def _line_unchallenged(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    said = fr.agree("annoncé", character(a["character"]))
    return f"Personne ne doute {char_de(a['character'])} {said} par {who}."


def _line_countered(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    actor = n(a["actor"])
    whose = "Votre contre" if who.person == 2 else f"Le contre de {who}"
    action = "votre action" if actor.person == 2 else f"l'action de {actor}"
    return f"{whose} tient : {action} échoue."


def _line_paid(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:paie} {coins(a['n'])} au Trésor."


def _line_tax(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:prend} {coins(a['n'])} au Trésor."


def _line_steal(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    target = n(a["target"])
    if target.person == 2:
        return f"{who} vous {who:prend} {coins(a['n'])}."
    return f"{who} {who:prend} {coins(a['n'])} à {target}."


def _line_exchange(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:tire} {cards_n(a['n'])} de la Cour."


def _line_drawn_private(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:tire} {cards_fr(a['cards'])}."


def _line_kept(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:rend} {cards_n(a['n'])} à la Cour, qui est mélangée."


def _line_kept_private(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:garde} {cards_fr(a['cards'])}."


def _line_shown(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    by = n(a["by"])
    if by.person == 2:
        return f"{who} vous {who:montre} une carte."
    return f"{who} {who:montre} une carte à {by}."


def _line_shown_private(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    by = n(a["by"])
    if by.person == 2:
        return f"{who} vous {who:montre} {char(a['card'])}."
    return f"{who} {who:montre} {char(a['card'])} à {by}."


def _line_discarded(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    target = n(a["target"])
    if target.person == 2:
        return f"{who} vous {who:fait} défausser cette carte : vous en piochez une autre."
    return f"{who} {who:fait} défausser cette carte à {target}, qui en {target:pioche} une autre."


def _line_spared(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    target = n(a["target"])
    if target.person == 2:
        return f"{who} vous {who:rend} votre carte."
    return f"{who} {who:rend} sa carte à {target}."


def _line_lose(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    why = WHY.get(a.get("why", ""), "")
    why = f" ({why})" if why else ""
    return f"{who} {who:révèle} {char(a['character'])}{why}."


def _line_eliminated(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    k = a.get("n", 0)
    if k == 0:
        return f"{who} {who:quitte} la partie, sans plus une pièce."
    if k == 1:
        return f"{who} {who:quitte} la partie ; {who:sa} dernière pièce retourne au Trésor."
    return f"{who} {who:quitte} la partie ; {who:ses} {k} pièces retournent au Trésor."


def _line_winner(a: dict[str, Any], n: Callable[[Any], fr.Name], who: fr.Name) -> str | None:
    return f"{who} {who:garde} le dernier personnage caché et {who:remporte} la partie !"


#: one function per journal key (what each line says)
_LINES: dict[str, Callable[..., str | None]] = {
    "setup": _line_setup,
    "deal": _line_deal,
    "pick_deal": _line_pick_deal,
    "picked": _line_picked,
    "picked_private": _line_picked_private,
    "turn": _line_turn,
    "revenu": _line_revenu,
    "aide": _line_aide,
    "aide_done": _line_aide_done,
    "assassinat": _line_assassinat,
    "claim_action": _line_claim_action,
    "claim_counter": _line_claim_counter,
    "no_counter": _line_no_counter,
    "doubt": _line_doubt,
    "proven": _line_proven,
    "caught": _line_caught,
    "redraw_private": _line_redraw_private,
    "unchallenged": _line_unchallenged,
    "countered": _line_countered,
    "paid": _line_paid,
    "tax": _line_tax,
    "steal": _line_steal,
    "exchange": _line_exchange,
    "drawn_private": _line_drawn_private,
    "kept": _line_kept,
    "kept_private": _line_kept_private,
    "shown": _line_shown,
    "shown_private": _line_shown_private,
    "discarded": _line_discarded,
    "spared": _line_spared,
    "lose": _line_lose,
    "eliminated": _line_eliminated,
    "winner": _line_winner,
}


def render(entry: dict[str, Any]) -> str:
    key, a = entry.get("key"), entry.get("args", {})
    by_seat = {a[k]: a[k + "_name"] for k in list(a) if k + "_name" in a}

    def n(seat: Any) -> fr.Name:
        return name(by_seat.get(seat, "?"))

    who = n(a.get("seat"))

    said = _LINES[key](a, n, who) if key in _LINES else None
    return said if said is not None else str(key)


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
