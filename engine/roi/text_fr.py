"""Every sentence Le Roi des 12 shows a player, in French, in one place.

The engine logs ``{"key", "args"}`` entries; ``render`` turns one into a sentence.  Card ids
become the names the content gives them (``names``: id -> « L'ALCHIMISTE »).
"""

from __future__ import annotations

from typing import Any

from ..core import french as fr

MESSAGES: dict[str, str] = {
    "game.start": "— Le Roi des 12 : {players}. Cartes en jeu : {cards}. —",
    "game.tournament": "Tournoi : groupes de {sizes} joueurs.",
    "game.playoff": "{players} {players:a} chacun deux cartes sous {players:leur} dé : manche de barrage !",
    "game.king": "Le Roi des 12 est sacré : {players} {players:monte} sur le trône{throne}.",
    "game.capped": "La partie s'arrête après de trop nombreuses manches : {players} en tête.",
    "game.capped.playoff": "Déjà {manches} manches : {players}, à égalité en tête, {players:joue} une manche de barrage.",
    "game.lots.why": "{manches} manches de barrage sans vainqueur : {players} {players:lance} {players:leur} dé pour le trône.",
    "game.lots": "Dés pour le trône : {dice}.",
    "manche.start": "Manche {manche} : chacun lance son dé.",
    "manche.playoff": "Manche de barrage {manche} : les prétendants relancent leur dé.",
    "manche.group": "Groupe {group} : {players}.",
    "manche.dice": "Dés : {dice}.",
    "manche.over.cards": "Plus qu'une carte en main pour {players} : fin de la manche.",
    "manche.over.points": "8 PV ou plus pour {players} : fin de la manche.",
    "manche.points": "Points de la manche{group} : {points}.",
    "manche.cancelled": "Boum ! {players} {players:a} {points} PV chacun : ces points sont annulés.",
    "manche.nowinner": "Aucun vainqueur de la manche{group}.",
    "manche.winner": "{who} {who:remporte} la manche{group} avec {points} PV.",
    "manche.bury": "Une carte à glisser sous le dé pour {players}.",
    "manche.buried": "{who} {who:glisse} une carte sous {who:son} dé ({count} en tout).",
    "manche.buried.own": "Vous glissez {card} sous votre dé.",
    "turn.chosen": "{who} {who:a} choisi {who:sa} carte.",
    "turn.chosen.own": "Vous jouez {card}, face cachée.",
    "turn.revealed": "{who} {who:révèle} {card}.",
    "cancel.same": "Boum ! {players} {players:a} joué {card} : ces cartes s'annulent{kept}.",
    "cancel.dame": "{who} {who:joue} LA DAME : les cartes de {players} restent sans effet.",
    "cancel.dame.you": "{who} {who:joue} LA DAME : votre carte reste sans effet.",
    "cancel.dame.with_you": "{who} {who:joue} LA DAME : votre carte et {theirs} {others} "
    "restent sans effet.",
    "cancel.dame.none": "{who} {who:joue} LA DAME : aucune autre carte n'est annulée.",
    "cancel.none": "Aucune carte n'est annulée.",
    "effect.marchands.vous": "Vous jouez LES MARCHANDS : chacun passe son dé à gauche ({dice}).",
    "effect.marchands": "LES MARCHANDS de {who} : chacun passe son dé à gauche ({dice}).",
    "effect.chenapans.vous": "Vous jouez LES CHENAPANS : tous les dés se retournent ({dice}).",
    "effect.chenapans": "LES CHENAPANS de {who} : tous les dés se retournent ({dice}).",
    "effect.inverseuse": "L'INVERSEUSE : {who} {who:retourne} {who:son} dé, {before} devient {after}.",
    "effect.sorcier": "LE SORCIER : {who} {who:bascule} {who:son} dé de {before} sur {after}.",
    "effect.oracle": "L'ORACLE : {who} {who:relance} {who:son} dé ({before}) et {who:obtient} {after}.",
    "effect.alchimiste.vous": "L'ALCHIMISTE : votre {face} vaut {value}.",
    "effect.alchimiste": "L'ALCHIMISTE : le {face} de {who} vaut {value}.",
    "effect.automate.vous": "L'AUTOMATE : votre {face} vaut {value}.",
    "effect.automate": "L'AUTOMATE : le {face} de {who} vaut {value}.",
    "effect.parasite.vous": "LE PARASITE : votre {face} vaut {value}.",
    "effect.parasite": "LE PARASITE : le {face} de {who} vaut {value}.",
    "effect.golem.vous": "LE GOLEM : votre {face} vaut {value}.",
    "effect.golem": "LE GOLEM : le {face} de {who} vaut {value}.",
    "effect.chevalier.vous": "Vous jouez LE CHEVALIER : ce tour-ci, les petites valeurs l'emportent.",
    "effect.chevalier": "LE CHEVALIER de {who} : ce tour-ci, les petites valeurs l'emportent.",
    "effect.parieur.vous": "Vous jouez LE PARIEUR : champion et dauphin échangent leurs gains.",
    "effect.parieur": "LE PARIEUR de {who} : champion et dauphin échangent leurs gains.",
    "effect.dame.vous": "Vous jouez LA DAME : elle n'a pas d'autre effet.",
    "effect.dame": "LA DAME de {who} n'a pas d'autre effet.",
    "effect.none": "Aucun effet ne s'applique.",
    "values.all": "Valeurs : {values}.",
    "values.tied": "Boum ! {players} {players:a} la même valeur, {value} : ces dés sont annulés.",
    "points.champion": "{who} {who:est} {champion} et {who:prend} {points} PV (total {total}).",
    "points.champions": "{who} {who:est} {the_champion} des champions : {points} PV (total {total}).",
    "points.dauphin": "{who} {who:est} {dauphin} et {who:prend} {points} PV (total {total}).",
    "points.group_champion": "{who} {who:est} {champion} du groupe {group} : {who:il} {who:ira} défier les autres.",
    "points.none": "Personne ne marque de point.",
    "points.why": "{why}.",
    "champions.none": "Aucun groupe n'a de champion ce tour-ci.",
    "champions.meet": "Les champions se mesurent : {players}.",
    "dame.tie": "Les Dames sont à égalité de valeur : personne ne prend de jeton.",
    "dame.nothing": "{who} {who:devrait} prendre un jeton à {victim}, qui n'en {victim:a} aucun.",
    "dame.take": "LA DAME : {who} {who:prend} un jeton de {points} PV à {victim}.",
}

STAGES = {
    "stage.reveal": "Les cartes sont révélées",
    "stage.cancel": "Cartes annulées",
    "stage.cancel.group": "Groupe {group} — cartes annulées",
    "stage.cancel.champions": "Entre champions — cartes annulées",
    "stage.champions": "Entre les champions",
    "stage.effects": "Effets des cartes",
    "stage.values": "Valeurs des dés",
    "stage.points": "Points",
}

UI: dict[str, str] = {
    "title": "Le Roi des 12",
    "status.choose": "Manche {manche}, tour {turn} — choisissez une carte en secret",
    "status.choose.wait": "Manche {manche}, tour {turn} — les autres choisissent",
    "status.pivot": "LE SORCIER — {who} {who:bascule} {who:son} dé",
    "status.take": "LA DAME — {who} {who:choisit} un jeton",
    "status.bury": "Fin de la manche {manche} — une carte sous le dé",
    "status.ack": "Manche {manche}, tour {turn} — la révélation",
    "status.over": "Partie terminée — {who}",
    "phase.choose": "1. Jouer une carte",
    "phase.pivot": "3. Effets des cartes",
    "phase.take": "5. Gagner des points",
    "phase.bury": "Fin de manche",
    "phase.ack": "Révélation",
    "prompt.choose": "Quel personnage appelez-vous ? Les autres ne verront votre carte qu'à "
    "la révélation.",
    "prompt.pivot": "Sur quelle face voisine basculez-vous votre dé ?",
    "prompt.pivot.flip": "LES CHENAPANS vont aussi retourner votre dé : choisissez l'ordre "
    "et la face.",
    "prompt.take": "Quel jeton prenez-vous à {victim} ?",
    "prompt.bury": "Vous avez remporté la manche : quelle carte glissez-vous sous votre dé "
    "(vous ne la reprendrez plus) ?",
    "prompt.ack": "Étape {shown} sur {total}.",
    "group.choose": "Votre carte",
    "group.pivot": "Basculer le dé",
    "group.take": "Prendre un jeton",
    "group.bury": "Sous le dé",
    "group.ack": "La suite",
    "action.play": "Jouer {card}",
    "action.bury": "Glisser {card} sous le dé",
    "action.take": "Prendre le jeton de {token} PV",
    "action.pivot.alone": "Basculer sur {face}",
    "action.pivot.before_flip": "Basculer sur {face}, puis retourner (→ {final})",
    "action.pivot.after_flip": "Retourner d'abord (→ {flipped}), puis basculer sur {face}",
    "action.next": "Étape suivante",
    "action.continue": "Continuer",
    "action.all": "Tout révéler",
    "confirm.bury": "Cette carte restera sous votre dé jusqu'à la fin de la partie.",
    "w.table": "La table",
    "w.you": "Votre main",
    "w.under": "Sous votre dé",
    "w.discard": "Votre défausse",
    "w.reveal": "Révélation du tour {turn}",
    "w.groups": "Groupes de la manche {manche}",
    "w.group": "Groupe {group}",
    "w.dice": "Les dés",
    "w.cards_in_play": "Les cartes de la partie",
    "col.player": "Joueur",
    "col.die": "Dé",
    "col.value": "Valeur",
    "col.card": "Carte",
    "col.hand": "Main",
    "col.discard": "Défausse",
    "col.under": "Sous le dé",
    "col.pv": "PV",
    "col.group": "Groupe",
    "card.hidden": "carte cachée",
    "card.chose": "a choisi",
    "card.thinking": "réfléchit…",
    "badge.first": "en premier",
    "badge.last": "en dernier",
    "badge.turns": "tourne le dé",
    "fact.die": "Votre dé",
    "fact.pv": "Vos PV dans la manche",
    "fact.under": "Manches gagnées",
    "empty.discard": "aucune carte défaussée",
    "empty.under": "aucune carte",
    "outcome.king": "{who} {who:est} {crowned} Roi des 12.",
    "outcome.why": "Deux manches remportées : deux cartes sous le dé.",
    "outcome.why.playoff": "Vainqueur de la manche de barrage.",
    "outcome.why.cap": "Partie arrêtée après {manches} manches.",
    "outcome.why.lots": "Le plus haut dé après {manches} manches de barrage sans vainqueur.",
    "outcome.detail.manches": "{n} manche remportée",
    "outcome.detail.manches_many": "{n} manches remportées",
    "outcome.detail.playoff": "vainqueur du barrage",
    "outcome.throne": "Le trône vacant ({throne}) revient à {who}.",
    "why.low": "LE CHEVALIER : la plus petite valeur gagne",
    "why.swap": "LE PARIEUR : la deuxième place prend les 2 PV",
    "kept": " (sans être défaussées : elles reviendront entre champions)",
    "group.word": " du groupe {group}",
    "persona.ruse": "Rusé",
    "persona.ruse.help": "prévoit les cartes et les valeurs possibles de chaque adversaire",
    "persona.prudent": "Prudent",
    "persona.prudent.help": "préfère les meilleures cartes pour son dé, sans lire les autres",
    "persona.hasard": "Au hasard",
    "persona.hasard.help": "joue n'importe quelle carte permise",
    "progress": "manche {manche}, tour {turn}",
    "progress.over": "partie terminée",
}


def ui(key: str, **args: Any) -> str:
    if "who" in args and not isinstance(args["who"], fr.Name):
        args["who"] = seat(args["who"])
    return UI[key].format(**args)


def gender(name: str) -> str | None:
    """A seat's gender when its name comes from the list below."""
    return next((g for n, g in SEAT_NAMES if n == name), None)


def seat(name: Any) -> fr.Name:
    """A seat's name as a subject: its gender, and « Vous » for a single person."""
    return fr.seat(str(name), gender(str(name)))


def card_name(card: str, names: dict[str, str]) -> str:
    return names.get(card, card.upper())


def render(entry: dict[str, Any], names: dict[str, str]) -> str:
    """One log entry as a French sentence."""
    key = entry["key"]
    args = dict(entry.get("args") or {})
    if key == "cancel.dame" and not args.get("players"):
        key = "cancel.dame.none"
    if isinstance(args.get("players"), list):
        if key == "cancel.dame" and fr.YOU in args["players"]:
            # « votre carte et celle de Blanche », never « les cartes de Blanche et vous »
            others = [str(p) for p in args["players"] if p != fr.YOU]
            key = "cancel.dame.with_you" if others else "cancel.dame.you"
            args["theirs"] = fr.pick(len(others), "celle", mp="celles")
            args["others"] = fr.listing([fr.de(o) for o in others])
        args["players"] = fr.group([seat(p) for p in args["players"]])
    for k in ("dice", "values", "points"):
        if isinstance(args.get(k), list):
            args[k] = ", ".join(args[k])
    who = seat(args.get("who", ""))
    args["who"] = who
    if "victim" in args:
        args["victim"] = seat(args["victim"])
    args["champion"] = fr.pick(who, "champion", "championne")
    args["the_champion"] = fr.pick(who, "le champion", "la championne")
    args["dauphin"] = fr.pick(who, "dauphin", "dauphine")
    if "card" in args:
        args["card"] = card_name(args["card"], names)
    if isinstance(args.get("cards"), list):
        args["cards"] = ", ".join(card_name(c, names) for c in args["cards"])
    if "kept" in args:
        args["kept"] = UI["kept"] if args["kept"] else ""
    if "group" in args and key.startswith("manche.") and key != "manche.group":
        args["group"] = ui("group.word", group=args["group"]) if args["group"] else ""
    if key == "points.why":
        args["why"] = " ; ".join(
            UI[w] for w, on in (("why.low", args.get("low")), ("why.swap", args.get("swap"))) if on
        )
    if key == "game.king":
        args["throne"] = f" ({args['throne']})" if args.get("throne") else ""
    text = fr.message(MESSAGES, key, who)
    if text is None:
        return key
    try:
        return text.format(**args)
    except (KeyError, IndexError, ValueError):
        return text


def stage_title(st: dict[str, Any]) -> str:
    return STAGES.get(st["title"], st["title"]).format(**(st.get("args") or {}))


#: names of the seats nobody named (the tournament's contenders (up to sixteen)), with their gender
SEAT_NAMES: tuple[tuple[str, str], ...] = (
    ("Perceval", "m"),
    ("Guenièvre", "f"),
    ("Lancelot", "m"),
    ("Mélusine", "f"),
    ("Gauvain", "m"),
    ("Viviane", "f"),
    ("Galaad", "m"),
    ("Morgane", "f"),
    ("Yvain", "m"),
    ("Iseult", "f"),
    ("Tristan", "m"),
    ("Mathilde", "f"),
    ("Lionel", "m"),
    ("Agnès", "f"),
    ("Enguerrand", "m"),
    ("Blanche", "f"),
    ("Geoffroy", "m"),
    ("Adélaïde", "f"),
    ("Renaud", "m"),
    ("Héloïse", "f"),
)
