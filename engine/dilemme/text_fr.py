"""Every sentence the Dilemme engine shows a player, in French, in one place.

The engine logs plain entries ``{"key": ..., "args": {...}}``; ``render`` turns one into a
sentence.  A second language is another ``MESSAGES`` table with the same keys.
"""

from __future__ import annotations

from typing import Any

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
ASK = {
    "oui_da": "un vote Oui-Da",
    "nenni": "un vote Nenni",
    "pass": "passer son tour de vote",
    "decide_oui_da": "trancher pour Oui-Da en cas d'égalité",
    "decide_nenni": "trancher pour Nenni en cas d'égalité",
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
    "succession.resource": "Succession : {resource} se déplace de {delta:+d}.",
    "succession.power": "Succession : {house} {delta:+d} Pouvoir.",
    "setup.tokens": "{leader} prend le jeton Meneur, {moderator} le jeton Modérateur.",
    "draft.done": "{house} a choisi son Objectif secret.",
    "round.start": "Manche {round} : « {title} »",
    "immediate.drawn": "Carte Immédiat : « {title} ». {text}",
    "vote.cast": "{house} vote {side} avec {power} Pouvoir.",
    "vote.add": "{house} ajoute {power} Pouvoir (total {total}).",
    "vote.pass": "{house} passe {why}.",
    "vote.stand": "{house} ne fait rien.",
    "leader.moves": "{house} devient Meneur ({power} Pouvoir misé).",
    "leader.moderator": "Tout le monde a passé : {house}, Modérateur, prend le jeton Meneur.",
    "leader.chosen": "Le Modérateur désigne {house} comme Meneur.",
    "vote.totals": "Résultat du vote : Oui-Da {oui_da}, Nenni {nenni}.",
    "moderator.decides": "{house}, Modérateur, tranche pour {side}.",
    "balance.shared": "La Balance partage {each} Pouvoir à chacun de : {houses} ({left} restent).",
    "outcome": "{side} l'emporte. {text}",
    "resource.moved": "{resource} passe de {before} à {after}{progression}.",
    "king.abdicates": "La Stabilité atteint le bout de sa piste : le roi abdiquera à la fin de la manche.",
    "king.dies": "Le roi est mort{skull}.",
    "chronicle.stuck": "Autocollant Chronique « {title} » ({polarity}, {resource}){signer}.",
    "secret.stuck": "Autocollant secret {letter} collé ({count} en tout). {text}",
    "envelope.open": "Enveloppe {envelope} ouverte{special} : {title}",
    "story.laid": "Carte Histoire « {title} » posée sur l'arc {arc}{signer}.",
    "deck.added": "{count} carte(s) mélangée(s) dans le paquet Dilemme.",
    "deck.removed": "Une carte quitte le paquet Dilemme.",
    "deck.empty": "Le paquet Dilemme est vide : le roi meurt, la chronique s'arrête.",
    "event.start": "Événement en jeu : « {title} ».",
    "event.end": "Fin de l'Événement « {title} ».",
    "gain": "{house} reçoit {what} ({why}).",
    "give": "{giver} donne {coins} pièce(s) à {to}.",
    "offer": "{giver} propose {coins} pièce(s) à {to} pour {ask}.",
    "answer": "{house} {accept} le marché.",
    "achievement.ticked": "{house} coche une case du haut fait « {achievement} ».",
    "achievement.unlocked": "{house} débloque le haut fait « {achievement} » !",
    "achievement.closed": "Le haut fait « {achievement} » de {house} n'est plus accessible.",
    "ability.used": "{house} utilise une capacité : {text}",
    "game.end": "Fin de la partie : {ending}. Vainqueur : {winners}.",
    "campaign.winner": "Grand final : {mood} l'emporte. {house} est la grande gagnante de la campagne ({score} points).",
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
    "action.give": "Donner {coins} pièce(s) à {to}",
    "action.decide": "Trancher pour {side}",
    "action.choose_leader": "Désigner {leader} comme Meneur",
    "action.keep_tokens": "Garder : {tokens}",
    "action.offer": "Proposer {coins} pièce(s) à {to} pour {ask}",
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
}


def _what(args: dict[str, Any]) -> str:
    parts = []
    names = {
        "coins": "pièce(s)",
        "power": "Pouvoir",
        "prestige": "Prestige",
        "craving": "Convoitise",
    }
    for key, label in names.items():
        if args.get(key):
            parts.append(f"{args[key]:+d} {label}")
    return ", ".join(parts)


def render(entry: dict[str, Any]) -> str:
    """One log entry as a French sentence."""
    key, args = entry["key"], dict(entry.get("args") or {})
    if "resource" in args and key == "resource.moved":
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
        args["accept"] = "accepte" if args["accept"] else "refuse"
    if key == "campaign.winner":
        args["mood"] = "la Cohésion" if args["mood"] == "cohesion" else "la Dissension"
    return MESSAGES[key].format(**args)


def ui(key: str, **args: Any) -> str:
    return UI[key].format(**args)


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
    if t == "keep_tokens":
        toks = ", ".join(
            f"{RESOURCE_NAME[r]} {'+' if p == 'positive' else '−'}" for r, p in action["tokens"]
        )
        return ui("action.keep_tokens", tokens=toks)
    return t
