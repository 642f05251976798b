"""Every sentence the Dilemme engine shows a player, in French, in one place.

The engine logs plain entries ``{"key": ..., "args": {...}}``; ``render`` turns one into a
sentence.  A second language is another ``MESSAGES`` table with the same keys.
"""

from __future__ import annotations

from typing import Any

from ..core import french as fr

RESOURCE = {
    "influence": "l'Influence",
    "prosperity": "la Prospérité",
    "morale": "le Moral",
    "welfare": "le Bien-être",
    "knowledge": "la Connaissance",
}
RESOURCE_NAME = {
    "influence": "Influence",
    "prosperity": "Prospérité",
    "morale": "Moral",
    "welfare": "Bien-être",
    "knowledge": "Connaissance",
}
SIDE = {"oui_da": "Oui-Da", "nenni": "Nenni"}
ENDING = {
    "died": "le roi est mort",
    "top": "le roi a abdiqué, la Stabilité en haut de sa piste",
    "bottom": "le roi a abdiqué, la Stabilité en bas de sa piste",
}
OBJECTIVE = {
    "extremism": "Extrémisme",
    "opulence": "Opulence",
    "moderation": "Modération",
    "rebellion": "Rébellion",
    "opportunism": "Opportunisme",
    "avarice": "Avarice",
}
#: the word every house's name begins with (left out where the houses are listed side by side)
HOUSE_WORD = "Maison"
#: « la Maison Ferrandine »: what agrees with a house is feminine
HOUSE_GENDER = "f"

ASK = {
    "oui_da": "un vote Oui-Da",
    "nenni": "un vote Nenni",
    "pass": "passer son tour de vote",
    "decide_oui_da": "trancher pour Oui-Da en cas d'égalité",
    "decide_nenni": "trancher pour Nenni en cas d'égalité",
}
#: the bots' temperaments (engine/dilemme/bots.py), as shown beside a bot house's name
TEMPERAMENT = {
    "avise": "avisé",
    "cupide": "cupide",
    "loyal": "loyal à la Couronne",
    "opportuniste": "opportuniste",
}
TEMPERAMENT_HELP = {
    "avise": "pèse chaque issue selon son Objectif secret et ses Objectifs publics",
    "cupide": "compte chaque pièce double : vend sa voix à bas prix, n'en achète jamais, "
    "passe volontiers pour prendre du Pouvoir",
    "loyal": "veille aussi sur la Stabilité du royaume, mise davantage et se laisse "
    "difficilement acheter",
    "opportuniste": "penche vers le camp qui mène, prend volontiers le jeton Modérateur, "
    "vend et achète des voix",
}

WHY = {
    "ability": "capacité",
    "story": "carte Histoire",
    "majority": "bonus du signataire majoritaire",
    "achievement": "haut fait",
    "effect": "issue",
}

MESSAGES: dict[str, str] = {
    "game.start": "— Partie {game} du Conseil : {houses}. —",
    "start.from": "Partie commencée à « {node} » pour les auteurs ; issues supposées déjà jouées : {steps}.",
    "succession.resource": "Succession : {resource} se déplace de {delta:+d}.",
    "succession.power": "Succession : {house} {delta:+d} Pouvoir.",
    "setup.tokens": "{leader} {leader:prend} le jeton Meneur, {moderator} le jeton Modérateur.",
    "draft.done": "{house} {house:a} choisi {house:son} Objectif secret.",
    "round.start": "Manche {round} : « {title} »",
    "immediate.drawn": "Carte Immédiat : « {title} ». {text}",
    "vote.cast": "{house} {house:vote} {side} avec {power} Pouvoir.",
    "vote.add": "{house} {house:ajoute} {power} Pouvoir (total {total}).",
    "vote.pass": "{house} {house:passe} {why}.",
    "vote.stand": "{house} ne {house:fait} rien.",
    "leader.moves": "{house} {house:devient} Meneur ({power} Pouvoir misé).",
    "leader.moderator": "Tout le monde a passé : {house}, Modérateur, {house:prend} le jeton Meneur.",
    "leader.chosen": "Le Modérateur désigne {house} comme Meneur.",
    "leader.chosen.vous": "Le Modérateur vous désigne comme Meneur.",
    "vote.totals": "Résultat du vote : Oui-Da {oui_da}, Nenni {nenni}.",
    "moderator.decides": "{house}, Modérateur, {house:tranche} pour {side}.",
    "balance.shared": "La Balance partage {each} Pouvoir à chacun de : {houses} ({left} restent).",
    "outcome": "{side} l'emporte. {text}",
    "resource.moved": "{resource} passe de {before} à {after}{progression}.",
    "resource.stays": "{resource} reste à {after}{progression}.",
    "king.abdicates": "La Stabilité atteint le bout de sa piste : le roi abdiquera à la fin de la manche.",
    "king.dies": "Le roi est mort{skull}.",
    "chronicle.stuck": "Autocollant Chronique « {title} » ({polarity}, {resource}){signer}.",
    "secret.stuck": "Autocollant secret {letter} collé ({count} en tout). {text}",
    "envelope.open": "Enveloppe {envelope} ouverte{special} : {title}",
    "story.laid": "Carte Histoire « {title} » posée sur l'arc « {arc} »{signer}.",
    "deck.added": "{cards} dans le paquet Dilemme.",
    "deck.removed": "Une carte quitte le paquet Dilemme.",
    "deck.empty": "Le paquet Dilemme est vide : le roi meurt, la chronique s'arrête.",
    "event.start": "Événement en jeu : « {title} ».",
    "event.end": "Fin de l'Événement « {title} ».",
    "gain": "{house} {house:reçoit} {what} ({why}).",
    "give": "{giver} {giver:donne} {pieces} à {to}.",
    "offer": "{giver} {giver:propose} {pieces} à {to} pour {ask}.",
    "answer": "{house} {accept} le marché.",
    "achievement.ticked": "{house} {house:coche} une case du haut fait « {achievement} ».",
    "achievement.unlocked": "{house} {house:débloque} le haut fait « {achievement} » !",
    "achievement.closed": "Le haut fait « {achievement} » de {house} n'est plus accessible.",
    "achievement.closed.vous": "Votre haut fait « {achievement} » n'est plus accessible.",
    "ability.used": "{house} {house:utilise} une capacité : {text}",
    "game.end": "Fin de la partie : {ending}. Vainqueur : {winners}.",
    "campaign.winner": "Grand final : {mood} l'emporte. {house} {house:est} la grande gagnante de la campagne ({score} points).",
}

UI = {
    "your_turn": "{house}, à vous.",
    "pass_device": "Passez l'appareil à {house}.",
    "choose": "Votre choix",
    "invalid": "Choix invalide : tapez un numéro de la liste.",
    "action.draft": "Choisir l'Objectif secret {objective}",
    "action.vote": "Voter {side} avec {power} Pouvoir",
    "action.pass.power": "Passer pour acquérir du Pouvoir",
    "action.pass.moderator": "Passer pour devenir Modérateur",
    "action.add": "Ajouter {power} Pouvoir",
    "action.stand": "Ne rien faire",
    "action.give": "Donner {pieces} à {to}",
    "action.decide": "Trancher pour {side}",
    "action.choose_leader": "Désigner {leader} comme Meneur",
    "action.choose_leader.vous": "Vous désigner comme Meneur",
    "action.keep_tokens": "Garder : {tokens}",
    "action.offer": "Proposer {pieces} à {to} pour {ask}",
    "action.accept": "Accepter le marché",
    "action.decline": "Refuser le marché",
    "board.resources": "Ressources",
    "board.stability": "Stabilité",
    "board.balance": "Balance",
    "board.deck": "Paquet Dilemme",
    "house.line": "{name} : {power} Pouvoir, {coins} pièces{tokens}",
    "scores.title": "Scores de la partie",
    "scores.row": "{rank}. {name} — public {public:+d}, ressources {resources}, richesse {wealth}, Pouvoir {power} = {total} ; Prestige +{prestige}, Convoitise +{craving}",
    "campaign.next": "La campagne continue : partie suivante.",
    "campaign.over": "La campagne est terminée.",
    # screens
    "status.turn": "À {house} de jouer — {phase} (manche {round})",
    "status.over": "Partie {game} terminée",
    "prompt.draft": "{house}, choisissez votre Objectif secret : personne d'autre ne le verra.",
    "prompt.keep_tokens": "{house}, gardez deux jetons Objectif public de chaque couleur au plus.",
    "prompt.vote": "{house}, votez, passez ou négociez.",
    "prompt.vote.add": "{house}, ajoutez du Pouvoir à votre vote, ou couchez-vous.",
    "prompt.vote.passed": "{house}, vous avez passé : vous ne votez plus cette manche.",
    "prompt.decide": "{house}, en Modérateur, vous tranchez l'égalité.",
    "prompt.answer": "{house}, acceptez-vous ce marché ?",
    "prompt.choose_leader": "{house}, désignez le prochain Meneur.",
    "objective.scores": "marque {points} points pour 1 à 5 ressources dans les zones ({zones}) ; richesse aux rangs I, II, III : {wealth}",
    "score.resources": "Objectif secret (ressources) : {n}",
    "score.wealth": "richesse : {n}",
    "score.public": "Objectifs publics : {n:+d}",
    "score.power": "majorité de Pouvoir : {n}",
    "score.campaign": "campagne : Prestige +{prestige}, Convoitise +{craving}",
    "board.kingdom": "Le Royaume",
    "board.houses": "Les Maisons",
    "board.timeline": "Frise du temps",
    "board.chronicle": "Chroniques du royaume",
    "board.table": "Sur la table",
    "board.events": "Événements en jeu",
    "board.skulls": "Cartes sur la case crâne",
    "skulls.note": "le roi meurt quand la frise est pleine ({n} cartes sur la dernière case)",
    "balance.note": "Pouvoir partagé entre ceux qui passent pour acquérir du Pouvoir",
    "stability.note": "aux deux bouts de la piste, le roi abdique",
    "legend.arrow": "↑ / ↓ : sens du marqueur (la progression pousse dans ce sens)",
    "legend.progression": "● : marqueur Progression posé sur la ressource",
    "legend.progression_mark": "Progression",
    "legend.stability": "Stabilité : au bout de la piste, le roi abdique",
    "legend.leader": "♔ : Meneur (signe les autocollants et cartes)",
    "legend.moderator": "⚖ : Modérateur (tranche les égalités)",
    "legend.hidden": "caché : derrière le paravent de la Maison, jusqu'à la fin de la partie",
    "legend.temperament": "(avisée, cupide…) : le caractère d'une Maison jouée par l'ordinateur",
    "mark.temperament": "({temperament})",
    "mark.leader": "♔",
    "mark.moderator": "⚖",
    "hidden": "caché",
    "col.house": "Maison",
    "col.power": "Pouvoir",
    "col.coins": "Pièces",
    "col.vote": "Vote",
    "col.public": "Objectifs publics",
    "col.prestige": "Prestige",
    "col.craving": "Convoitise",
    "col.unlocked": "Hauts faits",
    "vote.pass_power": "passe (Pouvoir)",
    "vote.pass_moderator": "passe (Modérateur)",
    "timeline.skull": " ☠",
    "chronicle.sticker": "{sign} {title} (âge {ticks})",
    "chronicle.houses": "Les Maisons de la campagne",
    "chronicle.final": "Grand final",
    "last.title": "Dernier tour : « {title} »",
    "last.votes": "Votes : {votes}.",
    "last.vote": "{house} {side} {power}",
    "last.pass_power": "{house} {house:passe} (Pouvoir)",
    "last.pass_moderator": "{house} {house:passe} (Modérateur)",
    "last.none": "{house} —",
    "last.result": "{side} l'emporte, {won} contre {lost}.",
    "last.result_moderator": "Égalité {oui_da} contre {nenni} : {house}, Modérateur, {house:tranche} pour {side}.",
    "last.leader": "Meneur : {house}, qui {house:signe}.",
    "last.tracks": "Pistes : {moves}.",
    "last.move": "{resource} {before} → {after}",
    "last.deal": "{giver} → {to} : {pieces} pour {ask}, {answer}",
    "last.deal_yes": "accepté",
    "last.deal_no": "refusé",
    "last.gift": "{giver} → {to} : don de {pieces}",
    "last.deals": "Pièces : {deals}.",
    "last.balance": "La Balance donne {each} Pouvoir à {houses} ({left} y reste).",
    "last.balance.vous": "La Balance vous donne {each} Pouvoir ({left} y reste).",
    "last.sticker": "Autocollant Chronique « {title} » ({resource}) signé par {signer}.",
    "self.title": "{house} : derrière votre paravent",
    "self.power": "Votre Pouvoir",
    "self.coins": "Vos pièces",
    "self.objective": "Votre Objectif secret",
    "self.public": "Vos Objectifs publics",
    "self.public_note": "chaque jeton rapporte si sa ressource finit en haut (+) ou en bas (−)",
    "offer.title": "Une offre",
    "offer.text": "{giver} vous propose {pieces} contre {ask}.",
    "group.draft": "Objectif secret",
    "group.draft_help": "Il compte vos ressources dans ses zones et votre richesse en fin de partie.",
    "group.tokens": "Objectifs publics",
    "group.tokens_help": "Deux jetons de chaque couleur au plus restent devant vous.",
    "group.vote": "Voter",
    "group.vote_help": "Misez du Pouvoir sur Oui-Da ou Nenni : la mise la plus forte devient Meneur.",
    "group.pass": "Passer",
    "group.add": "Ajouter du Pouvoir",
    "group.add_help": "Renforcez votre vote ; le Pouvoir misé va à la Balance si votre camp perd.",
    "group.stand": "Ne rien ajouter",
    "group.decide": "Trancher l'égalité",
    "group.decide_help": "En cas d'égalité, le Modérateur choisit l'issue.",
    "group.answer": "Répondre à l'offre",
    "group.answer_help": "Accepter engage votre vote : le moteur s'en souviendra.",
    "group.choose_leader": "Désigner le Meneur",
    "group.choose_leader_help": "Tout le monde a passé : le Modérateur désigne le Meneur.",
    "group.ability": "Capacités",
    "group.ability_help": "Les capacités de vos hauts faits et cartes Histoire.",
    "group.offer": "Négocier",
    "group.offer_help": "Proposez des pièces à une Maison contre son vote, son passage ou sa décision.",
    "group.give": "Donner des pièces",
    "group.give_help": "Un don sans condition, à tout moment du vote.",
    "help.pass.power": "vous recevrez une part de la Balance",
    "help.pass.moderator": "vous prenez le jeton Modérateur et trancherez une égalité",
    "field.side": "Pour",
    "field.power": "Pouvoir",
    "field.to": "Maison",
    "field.ask": "En échange de",
    "field.coins": "Pièces",
    "submit.vote": "Voter",
    "submit.add": "Ajouter",
    "submit.offer": "Proposer",
    "submit.give": "Donner",
    "action.ability": "Utiliser la capacité {n}",
    "action.ability.named": "Utiliser une capacité",
    "ranking.title": "Résultat de la partie {game}",
    "carry.prestige": "Le Prestige et la Convoitise gagnés restent à chaque Maison pour la suite de la campagne.",
    "carry.chronicle": "Les autocollants Chronique vieillissent et agiront à la succession de la partie suivante.",
    "carry.finished": "La campagne est terminée : {house} l'{house:emporte} au Grand final.",
    "standings.title": "Fin de la campagne : le classement des Maisons",
    "standings.why": "Grand final après {games} : {mood} l'emporte, et avec elle {house}.",
    "standings.won": "{won} sur {games}",
    "standings.track": "Prestige {prestige}, Convoitise {craving}",
    "standings.final": "Grand final : Prestige × {wp} + Convoitise × {wc} = {score}",
    "standings.unlocked": "{unlocked}",
    "standings.arc": "Chronique, {arc} : {cards}",
    "standings.kept": "La chronique garde les cartes de chaque arc ; les Hauts faits restent acquis.",
}


def _what(args: dict[str, Any]) -> str:
    parts = []
    names = {
        "coins": "pièce",
        "power": "Pouvoir",
        "prestige": "Prestige",
        "craving": "Convoitise",
    }
    for key, label in names.items():
        if args.get(key):
            plural = "s" if key == "coins" and abs(args[key]) > 1 else ""
            parts.append(f"{args[key]:+d} {label}{plural}")
    return ", ".join(parts)


def render(entry: dict[str, Any], arcs: dict[str, str] | None = None) -> str:
    """One log entry as a French sentence (``arcs``: the narrative arcs' titles by id)."""
    key, args = entry["key"], dict(entry.get("args") or {})
    if key == "resource.moved" and args.get("before") == args.get("after"):
        key = "resource.stays"  # « passe de 0 à 0 »: nothing moved
    if key == "story.laid":
        args["arc"] = (arcs or {}).get(args["arc"], args["arc"])
    if "resource" in args and key in ("resource.moved", "resource.stays"):
        args["resource"] = RESOURCE_NAME.get(args["resource"], args["resource"])
        args["progression"] = " (marqueur Progression)" if args.get("progression") else ""
    elif "resource" in args:
        args["resource"] = RESOURCE_NAME.get(args["resource"], args["resource"])
    if "side" in args:
        args["side"] = SIDE.get(args["side"], args["side"])
    if key == "vote.pass":
        args["why"] = (
            "pour acquérir du Pouvoir" if args["why"] == "power" else "pour devenir Modérateur"
        )
    if key == "start.from":
        args["steps"] = " ; ".join(args["steps"]) or "aucune"
    if key == "game.start" or key == "balance.shared":
        args["houses"] = ", ".join(args["houses"])
    if key == "game.end":
        args["ending"] = ENDING.get(args["ending"], args["ending"])
        args["winners"] = " et ".join(args["winners"])
    if key == "king.dies":
        args["skull"] = " (crâne sur la Frise du temps)" if args.get("skull") else ""
    if key == "chronicle.stuck":
        args["polarity"] = "positif" if args["polarity"] == "positive" else "négatif"
        args["signer"] = f", signé par {args['signer']}" if args.get("signer") else ""
    if key == "story.laid":
        args["signer"] = f", signée par {args['signer']}" if args.get("signer") else ""
    if key == "envelope.open":
        args["special"] = " (enveloppe spéciale)" if args.get("special") else ""
    if key == "gain":
        args["what"] = _what(args)
        args["why"] = WHY.get(args.get("why", ""), args.get("why", ""))
    if key == "offer":
        args["ask"] = ASK[args["ask"]]
    if key == "answer":
        args["accept"] = fr.verb(seat(args["house"]), "accepte" if args["accept"] else "refuse")
    if key == "campaign.winner":
        args["mood"] = "la Cohésion" if args["mood"] == "cohesion" else "la Dissension"
    args = _seats(args)
    text = fr.message(MESSAGES, key, args.get("house")) or MESSAGES[key]
    return text.format(**_counted(args))


def ui(key: str, **args: Any) -> str:
    args = _seats(args)
    you = next((v for v in args.values() if isinstance(v, fr.Name) and v.person == 2), None)
    if args.get("houses") == fr.YOU:
        you = fr.seat(fr.YOU)
    text = fr.message(UI, key, you) or UI[key]
    house = args.get("house")
    if isinstance(house, fr.Name) and house.person == 2 and text.startswith("{house}, "):
        # « {house}, choisissez… » to a single person: « Choisissez… » (not « Vous, … »)
        text = text[len("{house}, ") :]
        text = text[:1].upper() + text[1:]
    return text.format(**_counted(args))


#: arguments that hold a seat's name
SEAT_ARGS = ("house", "giver", "to", "leader", "moderator")


def seat(name: Any) -> fr.Name:
    """A house's seat as a subject (feminine: « la Maison … »), « Vous » for a single person."""
    return fr.seat(str(name), HOUSE_GENDER)


def _seats(args: dict[str, Any]) -> dict[str, Any]:
    return {k: seat(v) if k in SEAT_ARGS and isinstance(v, str) else v for k, v in args.items()}


def _counted(args: dict[str, Any]) -> dict[str, Any]:
    """Counts written out in words that agree with them: « 1 pièce », « 3 pièces »."""
    if "coins" in args:
        n = args["coins"]
        args = {**args, "pieces": f"{n} pièce" if abs(n) <= 1 else f"{n} pièces"}
    if isinstance(args.get("count"), int):
        n = args["count"]
        args = {**args, "cards": f"{n} carte mélangée" if n <= 1 else f"{n} cartes mélangées"}
    return args


def describe_action(action: dict[str, Any], seat_names: list[str]) -> str:
    """A legal action as a menu line."""
    t = action["type"]
    if t == "draft":
        return ui("action.draft", objective=OBJECTIVE.get(action["objective"], action["objective"]))
    if t == "vote":
        return ui("action.vote", side=SIDE[action["side"]], power=action["power"])
    if t == "pass":
        return ui(f"action.pass.{action['for']}")
    if t == "add":
        return ui("action.add", power=action["power"])
    if t == "stand":
        return ui("action.stand")
    if t == "give":
        return ui("action.give", coins=action["coins"], to=seat_names[action["to"]])
    if t == "decide":
        return ui("action.decide", side=SIDE[action["side"]])
    if t == "choose_leader":
        return ui("action.choose_leader", leader=seat_names[action["leader"]])
    if t == "offer":
        return ui(
            "action.offer",
            coins=action["coins"],
            to=seat_names[action["to"]],
            ask=ASK[action["ask"]],
        )
    if t == "answer":
        return ui("action.accept" if action["accept"] else "action.decline")
    if t == "use_ability":
        return ui("action.ability.named")
    if t == "keep_tokens":
        toks = ", ".join(
            f"{RESOURCE_NAME[r]} {'+' if p == 'positive' else '−'}" for r, p in action["tokens"]
        )
        return ui("action.keep_tokens", tokens=toks)
    return t
