"""Every sentence the Citadelle engine shows a player, in French, in one place."""

from __future__ import annotations

from typing import Any

VERB = {
    "move": "me déplacer",
    "fight": "combattre",
    "dodge": "esquiver",
    "sneak": "être discret / se camoufler",
    "pull_push_lift": "tirer / pousser / soulever",
    "climb": "grimper",
    "find_passage": "chercher un passage",
    "search": "fouiller",
    "talk": "parler",
    "craft": "fabriquer",
    "rest": "se reposer",
    "use": "utiliser",
}
SCORE = {
    "influence": "Influence",
    "knowledge": "Savoir",
    "production": "Production",
    "defense": "Défense",
}
QUEST_STATE = {"active": "active", "primed": "amorcée", "done": "terminée"}
TYPE = {
    "terrain": "Terrain",
    "permanent_event": "Événement permanent",
    "temporary_event": "Événement temporaire",
    "global_event": "Événement global",
    "purse": "Bourse",
    "quest_item": "Objet de quête",
    "world_map": "Mappemonde",
}
RESULT = {"victory": "victoire", "defeat": "défaite"}
WHY = {
    "all_unconscious": "tous les personnages sont inconscients",
    "adventure_ends": "« Votre aventure s'achève ici. »",
    "epilogue": "l'épilogue en décide ainsi",
    "menace_over": "la Menace est vaincue",
    "exhaustion": "l'aventure s'enlise et les forces vous abandonnent",
    "no_epilogue": "aucune branche d'épilogue ne s'applique",
    "stuck": "plus aucune action n'est possible",
}

MESSAGES: dict[str, str] = {
    "scenario.start": "— {title} — {text}",
    "terrain.placed": "Terrain mis en jeu : « {title} ».",
    "table.full": "Plus de place sur la table : le groupe se rassemble et range les terrains éloignés.",
    "past.restored": "Le Passé est rangé ({count} cartes retournent dans leurs decks).",
    "card.unavailable": "La carte {number} n'est pas disponible.",
    "hidden.wrong": "Le dos de la carte {number} ne correspond pas : elle est rangée.",
    "hidden.found": "Numéro caché trouvé : {number} !",
    "card.back": "Au dos de la carte {number} : {text}",
    "card.taken": "Carte {number} ({type}) : « {title} ».",
    "damage.cancelled": "{name} annule {amount} dégât(s).",
    "card.discard": "« {title} » est défaussée dans le Passé.",
    "card.banish": "« {title} » est bannie.",
    "card.put_back": "« {title} » est rangée.",
    "card.block": "« {title} » est bloquée.",
    "card.unblock": "« {title} » est débloquée.",
    "score": "Citadelle : {score} {delta:+d} (maintenant {value}).",
    "quest": "Quête secondaire « {title} » : {state}.",
    "objective": "Objectif atteint : {id}.",
    "hope": "L'espoir renaît ! (+{amount}, {total} en réserve).",
    "skill.added": "{name} reçoit la compétence « {title} ».",
    "roll": "Jet de dé : {value}.",
    "building.built": "Bâtiment construit : « {title} » !",
    "building.ticked": "Bâtiment « {title} » : {ticks}/{boxes} cases cochées.",
    "hp.lost": "{name} perd {amount} point(s) de vie ({hp} restants).",
    "hp.gained": "{name} gagne {amount} point(s) de vie ({hp}).",
    "conscious": "{name} reprend conscience.",
    "unconscious": "{name} tombe inconscient(e) !",
    "recovery": "{name} récupère {cards} carte(s) et perd {hp} point(s) de vie.",
    "dialogue": "§{number} — {text}",
    "dialogue.choice": "→ {text}",
    "action.start": "{name} entreprend l'action « {verb} »{title}.",
    "action.result": "{successes} succès sur {drawn} carte(s) piochée(s) : {outcome}.",
    "moved": "{name} se rend sur « {title} ».",
    "exploration.revealed": "Exploration : « {title} ». {text}",
    "item.given": "{giver} donne « {title} » à {to}.",
    "destiny": "Page Destinée : « {title} ».",
    "character.joins": "{name} rejoint l'aventure.",
    "character.leaves": "{name} quitte l'aventure.",
    "game.saved": "Partie sauvegardée : le plateau est ramené au terrain où se trouve le groupe.",
    "scenario.end": "Retour à la Citadelle : fin du scénario « {title} ».",
    "epilogue": "Épilogue — {text}",
    "adventure.over": "Fin de l'aventure : {result} ({why}).",
}

UI = {
    "turn": "Que faites-vous ?",
    "choose": "Votre choix",
    "invalid": "Choix invalide : tapez un numéro de la liste.",
    "act": "{name} : {verb}{title} ({where})",
    "act.join": " — avec les autres personnages du terrain",
    "move": "{name} : se déplacer vers « {title} »",
    "recover": "{name} : récupérer {cards} cartes (−{hp} PV)",
    "give": "{name} donne « {title} » à {to} ({payer} défausse)",
    "drop": "{name} : défausser « {title} »",
    "search": "{name} : chercher le numéro caché {number}",
    "save": "Sauvegarder la partie (une fois par scénario)",
    "select": "Sélectionner « {title} »",
    "prepared": "Passer à la pioche",
    "draw": "Piocher {count} carte(s)",
    "keep": "Garder en main « {title} »",
    "kept": "Défausser les autres cartes",
    "choose_line": "« {text} »",
    "close": "Fin du dialogue",
    "discard": "{name} défausse « {title} » (main trop pleine)",
    "banish": "{name} bannit « {title} »",
    "depart": "Partir pour le scénario suivant",
    "destiny": "Destinée : « {title} » pour {name}",
    "leave": "{name} quitte l'aventure",
    "join": "{name} rejoint l'aventure",
    # screens
    "status.turn": "{scenario} — {phase} (tour {turn})",
    "status.over": "Fin de l'aventure",
    "fog": "Exploration, zone {zone} (face cachée)",
    "legend.fog": "Brouillard : une carte Exploration face cachée, à révéler en explorant",
    "board.map": "Les Terres déchues",
    "board.team": "Le groupe",
    "board.citadel": "Feuillet Citadelle",
    "board.quest_items": "Objets de quête",
    "board.globals": "Événements globaux",
    "citadel.hope": "« L'espoir renaît ! »",
    "citadel.tremor": "Tremblement",
    "unconscious": " (inconscient)",
    "col.name": "Personnage",
    "col.where": "Terrain",
    "col.hp": "PV",
    "col.deck": "Deck",
    "col.discard": "Défausse",
    "col.hand": "Main",
    "col.purse": "Bourse (poids)",
    "story.dialogue": "Dialogue",
    "story.citadel": "Retour à la Citadelle : dépensez l'espoir sur la page Destinée, puis repartez.",
    "story.over": "Fin de l'aventure",
    "group.character": "{name} — {where}",
    "group.other": "{name} : autres possibilités",
    "group.together": "Agir ensemble",
    "group.save": "Sauvegarder",
    "confirm.save": "La partie est mise de côté comme le livret le permet (une fois par scénario).",
}


def render(entry: dict[str, Any]) -> str:
    key, args = entry["key"], dict(entry.get("args") or {})
    if key == "action.start":
        args["verb"] = VERB.get(args["verb"], args["verb"])
        args["title"] = f" — {args['title']}" if args.get("title") else ""
    elif key == "action.result":
        if "die" in args:
            args["outcome"] = "réussite" if args["ok"] else f"échec (le dé reste à {args['die']})"
        else:
            args["outcome"] = (
                "réussite" if args["ok"] else "échec"
            ) + f", difficulté {args['difficulty']}"
    elif key == "card.taken":
        args["type"] = TYPE.get(args["type"], args["type"])
    elif key == "score":
        args["score"] = SCORE.get(args["score"], args["score"])
    elif key == "quest":
        args["state"] = QUEST_STATE.get(args["state"], args["state"])
    elif key == "adventure.over":
        args["result"] = RESULT.get(args["result"], args["result"])
        args["why"] = WHY.get(args["why"], args["why"])
    return MESSAGES[key].format(**args)


def ui(key: str, **args: Any) -> str:
    return UI[key].format(**args)


def describe(bundle: dict, state: dict, action: dict) -> str:
    """A legal action as a menu line."""
    from .game import _action_spec, _adv, _card_record, _name, _recs

    chars = state["characters"]
    t = action["type"]

    def title(key: str) -> str:
        return _name(bundle, {"kind": "adventure", "key": key})

    if t == "act":
        spec, ref = _action_spec(bundle, state, action["source"], action["index"])
        kind = action["source"].split(":", 1)[0]
        where = {
            "terrain": "terrain",
            "event": "événement",
            "slot": "exploration",
            "explore": "carte Exploration face cachée",
            "hand": "compétence en main",
            "purse": "Bourse",
            "quest": "objet de quête",
            "global": "événement global",
            "temp": "événement",
            "paragraph": "dialogue",
        }.get(kind, kind)
        if ref and ref.get("key") and kind not in ("explore",):
            where = f"{where} « {_name(bundle, ref) if ref['kind'] != 'none' else ''} »"
        cost = f", coût {spec.get('cost', 0)}" if spec else ""
        line = ui(
            "act",
            name=chars[action["character"]]["name"],
            verb=VERB.get(spec["verb"], spec["verb"]),
            title=f" — {spec['title']}" if spec.get("title") else "",
            where=where + cost,
        )
        return line + (ui("act.join") if action.get("join") else "")
    if t == "move":
        return ui(
            "move",
            name=chars[action["character"]]["name"],
            title=title(state["board"][action["to"]]["terrain"]),
        )
    if t == "recover":
        from .rules import recovery_cost

        hp = recovery_cost(action["cards"], state["options"]["recovery"])
        return ui("recover", name=chars[action["character"]]["name"], cards=action["cards"], hp=hp)
    if t == "give":
        payer = (
            chars[action["character"]]["name"]
            if action["payer"] == "giver"
            else chars[action["to"]]["name"]
        )
        return ui(
            "give",
            name=chars[action["character"]]["name"],
            title=title(action["item"]),
            to=chars[action["to"]]["name"],
            payer=payer,
        )
    if t == "drop":
        return ui("drop", name=chars[action["character"]]["name"], title=title(action["item"]))
    if t == "search":
        return ui("search", name=chars[action["character"]]["name"], number=action["number"])
    if t == "select":
        skill = _recs(bundle, "action_card").get(action["item"])
        return ui("select", title=skill["title"] if skill else title(action["item"]))
    if t == "draw":
        return ui("draw", count=action["count"])
    if t == "keep":
        return ui(
            "keep",
            title=_recs(bundle, "action_card").get(action["card"], {}).get("title", action["card"]),
        )
    if t == "choose":
        para = _recs(bundle, "paragraph")[state["pending"]["paragraph"]]
        return ui("choose_line", text=para["choices"][action["index"]]["text"])
    if t in ("discard", "banish"):
        return ui(
            t,
            name=chars[action["character"]]["name"],
            title=_recs(bundle, "action_card").get(action["card"], {}).get("title", action["card"]),
        )
    if t == "destiny":
        return ui(
            "destiny",
            title=_recs(bundle, "destiny")[action["entry"]]["title"],
            name=chars[action["character"]]["name"],
        )
    if t == "leave":
        return ui("leave", name=chars[action["character"]]["name"])
    if t == "join":
        return ui("join", name=_recs(bundle, "character")[action["id"]]["name"])
    del _adv, _card_record
    return ui(t)
