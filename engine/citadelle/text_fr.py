"""Every sentence the Citadelle shows a player, in French, in one place: the journal's lines
(``render``), the story block's narration (``narrate``), the buttons (``describe``) and the
screen's words (``UI``).  Counts and the characters' gender are known: no « (e) », no
« carte(s) »."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..core import french as fr

VERB = {
    "move": "se déplacer",
    "fight": "combattre",
    "dodge": "esquiver",
    "sneak": "être discret",
    "pull_push_lift": "tirer, pousser, soulever",
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
CLASS = {
    "might": "force",
    "agility": "agilité",
    "wits": "intelligence",
    "faith": "foi",
    "joker": "joker",
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
SKILL = {
    "character": "compétence de personnage",
    "advanced": "compétence avancée",
    "reflex": "compétence réflexe",
}
DIRECTION = {"north": "au nord", "south": "au sud", "east": "à l'est", "west": "à l'ouest"}
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
RECOVERY = {"normal": "règle normale", "story": "mode histoire", "survival": "mode survie"}


def plural(n: int, one: str, many: str | None = None) -> str:
    """« 1 carte », « 3 cartes », « 0 carte » (French: 0 and 1 are singular).

    >>> plural(1, "carte"), plural(3, "carte"), plural(2, "point de vie", "points de vie")
    ('1 carte', '3 cartes', '2 points de vie')
    """
    return f"{n} {one if abs(n) < 2 else (many or one + 's')}"


def agree(gender: str | None, masculine: str, feminine: str) -> str:
    return feminine if gender == "f" else masculine


def quoted(title: str) -> str:
    """« title », never doubled when the title already carries its guillemets."""
    title = (title or "").strip()
    if title.startswith("«") and title.endswith("»"):
        return title
    return f"« {title} »"


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """Content text for the screen: glossary asterisks removed (« tremblement* »)."""
    return re.sub(r"(\w)\*", r"\1", text or "").strip()


def names(items: list[str]) -> str:
    """« A », « A et B », « A, B et C »."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " et " + items[-1]


# --------------------------------------------------------------------------- the journal


def _stars(args: dict) -> str:
    parts = [plural(args["stars"], "succès", "succès") + " d'étoiles"] if args["stars"] else []
    if args.get("converted"):
        parts.append(plural(args["converted"], "succès", "succès") + " d'icônes converties")
    if args.get("flat"):
        parts.append(plural(args["flat"], "succès", "succès") + " des cartes en jeu")
    return " + ".join(parts) or "aucun succès"


def _line_start_from(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    n = a.get("conditions", 0)
    way = (f" ; {n} condition du chemin réunie" if n == 1
           else f" ; {n} conditions du chemin réunies" if n else "")  # fmt: skip
    return f"Partie commencée à « {a['node']} » pour les auteurs{way}."


def _line_scenario_start(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    tremor = f", tremblement {a['tremor']}" if a.get("tremor") else ""
    hp = f" ({a['hp']} points de vie chacun{tremor})" if a.get("hp") else ""
    return f"Début du scénario {quoted(a['title'])}{hp}."


def _line_terrain_placed(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Le Terrain {quoted(a['title'])} rejoint le Plateau."


def _line_table_full(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return "Plus de place sur la table : le groupe se rassemble et range les Terrains éloignés."


def _line_past_restored(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Le Passé est rangé : {plural(a['count'], 'carte')} retournent dans la boîte."


def _line_card_unavailable(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"La carte {a['number']} n'est pas disponible : il ne se passe rien."


def _line_hidden_wrong(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Le dos de la carte {a['number']} ne porte pas le bon numéro : elle est rangée."


def _line_hidden_found(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    found = names([str(n) for n in a.get("numbers") or []])
    if not found:
        return f"{who} {who:examine} {quoted(a['title'])} à la loupe, sans rien trouver de plus."
    return f"{who} {who:examine} {quoted(a['title'])} à la loupe et {who:déchiffre} le numéro caché {found}."


def _line_card_taken(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return card_taken(a)


def _line_damage_cancelled(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:annule} {plural(a['amount'], 'dégât')} sur {a.get('of', a['amount'])}."


def _line_card_discard(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{quoted(a['title'])} est défaussée dans le Passé."


def _line_card_banish(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{quoted(a['title'])} est bannie."


def _line_card_put_back(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{quoted(a['title'])} est rangée dans la boîte."


def _line_card_block(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return (
        f"{quoted(a['title'])} est bloquée sous {'votre carte' if who.person == 2 else 'la carte de ' + name}."
        if name
        else f"{quoted(a['title'])} est bloquée."
    )


def _line_card_unblock(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{quoted(a['title'])} est débloquée."


def _line_score(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    sign = "+" if a["delta"] >= 0 else "−"
    capped = "" if a.get("asked", a["delta"]) == a["delta"] else " (les scores vont de 0 à 25)"
    return f"Citadelle : {SCORE.get(a['score'], a['score'])} {sign}{abs(a['delta'])}, maintenant {a['value']}{capped}."


def _line_quest(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Quête secondaire {quoted(a['title'])} : {QUEST_STATE.get(a['state'], a['state'])}."


def _line_objective(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Objectif atteint : {a.get('text') or a['id']}"


def _line_hope(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"L'espoir renaît ! ({plural(a['amount'], 'carte')} de plus, {a['total']} à dépenser sur la page Destinée)."


def _line_skill_added(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:ajoute} la compétence {quoted(a['title'])} à {who:son} Deck d'Action."


def _line_skill_unavailable(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"La compétence {quoted(a['title'])} est déjà entre les mains du groupe."


def _line_roll(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    what = f" pour {quoted(a['title'])}" if a.get("title") else ""
    verdict = "c'est le cas" if a["ok"] else "ce n'est pas le cas"
    return f"Jet de dé{what} (il faut {a['at_most']} ou moins) : {a['value']}, {verdict}."


def _line_building_built(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Bâtiment construit : {quoted(a['title'])} !"


def _line_building_ticked(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Bâtiment {quoted(a['title'])} : {plural(a['ticks'], 'case cochée', 'cases cochées')} sur {a['boxes']}."


def _line_hp_lost(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    what = (
        plural(a["amount"], "dégât")
        if a.get("cause") == "damage"
        else plural(a["amount"], "point de vie", "points de vie")
    )
    return (
        f"{who} {fr.verb(who, 'subit' if a.get('cause') == 'damage' else 'perd')} {what} "
        f"(reste {a['hp']})."
    )


def _line_hp_gained(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:gagne} {plural(a['amount'], 'point de vie', 'points de vie')} ({a['hp']})."


def _line_conscious(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:reprend} conscience."


def _line_unconscious(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:tombe} {agree(g, 'inconscient', 'inconsciente')} !"


def _line_recovery(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    forced = "Deck d'Action épuisé : " if a.get("forced") else ""
    return (
        f"{forced}{who} {who:récupère} {plural(a['cards'], 'carte')} de {who:sa} défausse et {who:perd} "
        f"{plural(a['hp'], 'point de vie', 'points de vie')} (reste {a['left']})."
    )


def _line_recovered(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:remet} {plural(a['cards'], 'carte')} de {who:sa} défausse dans {who:son} Deck d'Action."


def _line_deck_discarded(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return (
        f"{who} {who:défausse} {plural(a['count'], 'carte')} du sommet de {who:son} Deck d'Action."
    )


def _line_dialogue(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Dialogue — {plain(a['text'])}"


def _line_dialogue_choice(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"→ {plain(a['text'])}"


def _line_dialogue_closed(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return "Le livre des dialogues se referme."


def _line_action_start(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    what = quoted(a["title"]) if a.get("title") else VERB.get(a["verb"]) or a["verb"]
    on = f", sur la carte {quoted(a['card'])}" if a.get("card") else ""
    others = f", avec {names(a['others'])}" if a.get("others") else ""
    if a.get("title"):
        return f"{who} {who:entreprend} l'action {what}{on}{others}."
    return f"{who} {who:entreprend} {fr.de(what)}{on}{others}."


def _line_action_drawn(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    n = len(a["cards"])
    return (
        f"{who} {who:révèle} {plural(n, 'carte')} : {_stars(a)} = {plural(a['total'], 'succès', 'succès')}"
        f" pour {a['need']} {'au dé' if a.get('multiple') else 'requis'}."
    )


def _line_action_result(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    if a.get("die") is not None:
        verdict = "réussite" if a["ok"] else f"échec, le dé reste à {a['die']}"
    else:
        verdict = "réussite" if a["ok"] else "échec"
    fewer = (
        f" ({plural(a['successes'], 'succès', 'succès')} comptés sur {a['total']})"
        if a["successes"] != a["total"]
        else ""
    )
    return f"Résultat : {verdict}{fewer}."


def _line_action_stopped(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} ne {who:peut} pas aller au bout de l'action."


def _line_moved(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:se} {who:rend} sur {quoted(a['title'])}."


def _line_exploration_revealed(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Exploration : {quoted(a['title'])} ({TYPE.get(a.get('type', ''), '').lower()})."


def _line_item_given(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    payer = fr.seat(a.get("payer", ""))
    paid = (
        f" ; {payer} {payer:défausse} {plural(a['count'], 'carte')} du sommet de {payer:son} "
        "Deck d'Action"
        if a.get("count")
        else ""
    )
    still = ", toujours bloquée" if a.get("blocked") else ""
    giver = fr.seat(a["giver"])
    return f"{giver} {giver:donne} {quoted(a['title'])}{still} à {a['to']}{paid}."


def _line_item_dropped(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:défausse} {quoted(a['title'])} dans le Passé."


def _line_item_refused(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Personne ne prend {quoted(a['title'])} : la carte part dans le Passé."


def _line_item_received(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:prend} {quoted(a['title'])} dans {who:sa} bourse."


def _line_skill_discarded(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:défausse} {quoted(a['title'])} de {who:sa} main."


def _line_skill_spent(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:défausse} {quoted(a['title'])} après {who:se} en être {who:=servi}."


def _line_skill_kept(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:garde} {quoted(a['title'])} en main."


def _line_destiny(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Page Destinée : {quoted(a['title'])} pour {name} ({plural(a['cost'], 'carte')} « L'espoir renaît ! »)."


def _line_character_joins(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:rejoint} l'aventure."


def _line_character_leaves(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    given = (
        f" ; {who:ses} cartes vont aux autres : {names([quoted(t) for t in a['given']])}"
        if a.get("given")
        else ""
    )
    share = ""
    if a.get("share"):
        share = f" ; {who:ses} points de vie sont partagés : " + names(
            [f"{who} +{n}" for who, n in a["share"].items()]
        )
    return f"{who} {who:quitte} l'aventure{given}{share}."


def _line_game_saved(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Partie sauvegardée sur {quoted(a['title'])} : mains défaussées, le reste du Plateau part dans le Passé."


def _line_game_resumed(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Reprise : le Passé est rangé, le groupe repart de {quoted(a['title'])}."


def _line_scenario_end(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Retour à la Citadelle : fin du scénario {quoted(a['title'])}."


def _line_epilogue(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Épilogue — {plain(a['text'])}"


def _line_adventure_over(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Fin de l'aventure : {RESULT.get(a['result'], a['result'])} ({WHY.get(a['why'], a['why'])})."


def _line_item_selected(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"{who} {who:sélectionne} {quoted(a['title'])}."


def _line_tremor(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Le tremblement guide vos pas : une carte de moins à piocher ({plural(a['left'], 'usage')} restant ce scénario)."


def _line_die_taken(a: dict[str, Any], who: fr.Name, name: str, g: Any) -> str | None:
    return f"Plus de dé libre : celui de {quoted(a['title'])} est repris."


#: one function per journal key (what each line says)
_LINES: dict[str, Callable[..., str | None]] = {
    "start.from": _line_start_from,
    "scenario.start": _line_scenario_start,
    "terrain.placed": _line_terrain_placed,
    "table.full": _line_table_full,
    "past.restored": _line_past_restored,
    "card.unavailable": _line_card_unavailable,
    "hidden.wrong": _line_hidden_wrong,
    "hidden.found": _line_hidden_found,
    "card.taken": _line_card_taken,
    "damage.cancelled": _line_damage_cancelled,
    "card.discard": _line_card_discard,
    "card.banish": _line_card_banish,
    "card.put_back": _line_card_put_back,
    "card.block": _line_card_block,
    "card.unblock": _line_card_unblock,
    "score": _line_score,
    "quest": _line_quest,
    "objective": _line_objective,
    "hope": _line_hope,
    "skill.added": _line_skill_added,
    "skill.unavailable": _line_skill_unavailable,
    "roll": _line_roll,
    "building.built": _line_building_built,
    "building.ticked": _line_building_ticked,
    "hp.lost": _line_hp_lost,
    "hp.gained": _line_hp_gained,
    "conscious": _line_conscious,
    "unconscious": _line_unconscious,
    "recovery": _line_recovery,
    "recovered": _line_recovered,
    "deck.discarded": _line_deck_discarded,
    "dialogue": _line_dialogue,
    "dialogue.choice": _line_dialogue_choice,
    "dialogue.closed": _line_dialogue_closed,
    "action.start": _line_action_start,
    "action.drawn": _line_action_drawn,
    "action.result": _line_action_result,
    "action.stopped": _line_action_stopped,
    "moved": _line_moved,
    "exploration.revealed": _line_exploration_revealed,
    "item.given": _line_item_given,
    "item.dropped": _line_item_dropped,
    "item.refused": _line_item_refused,
    "item.received": _line_item_received,
    "skill.discarded": _line_skill_discarded,
    "skill.spent": _line_skill_spent,
    "skill.kept": _line_skill_kept,
    "destiny": _line_destiny,
    "character.joins": _line_character_joins,
    "character.leaves": _line_character_leaves,
    "game.saved": _line_game_saved,
    "game.resumed": _line_game_resumed,
    "scenario.end": _line_scenario_end,
    "epilogue": _line_epilogue,
    "adventure.over": _line_adventure_over,
    "item.selected": _line_item_selected,
    "tremor": _line_tremor,
    "die.taken": _line_die_taken,
}


def render(entry: dict[str, Any]) -> str:
    """One journal line."""
    key, a = entry["key"], dict(entry.get("args") or {})
    g = a.get("g")
    name = a.get("name", "")
    who = fr.seat(name, g)
    said = _LINES[key](a, who, name, g) if key in _LINES else None
    return said if said is not None else key  # pragma: no cover - every key is above


# --------------------------------------------------------------------------- the screen's words

UI = {
    "status.turn": "{scenario} · tour {turn} — au groupe de choisir qui agit",
    "status.active": "{scenario} · action obligatoire — qui la mène ?",
    "status.prepare": "{scenario} · Préparation — {name} : {action}",
    "status.draw": "{scenario} · Pioche — {name} : {action}",
    "status.result": "{scenario} · Résultat — {name} : {action}",
    "status.keep": "{scenario} · Conséquence — {name} {name:garde} des cartes",
    "status.dialogue": "{scenario} · Dialogue — {name} {name:parle}",
    "status.receive": "{scenario} · Qui prend {title} ?",
    "status.hand_limit": "{scenario} · Main trop pleine — {name} {name:défausse} une carte",
    "status.banish": "{scenario} · Inconscience — {name} {name:bannit} une de {name:ses} trois cartes",
    "status.citadel": "À la Citadelle — entre deux scénarios",
    "status.over": "Fin de l'aventure — {result}",
    "phase.turn": "Tour de jeu",
    "phase.active": "Action obligatoire",
    "phase.prepare": "Préparation",
    "phase.draw": "Pioche",
    "phase.result": "Résultat",
    "phase.keep": "Conséquence",
    "phase.dialogue": "Dialogue",
    "phase.receive": "Prendre une carte",
    "phase.hand_limit": "Taille de main",
    "phase.banish": "Inconscience",
    "phase.citadel": "À la Citadelle",
    "phase.over": "Fin de l'aventure",
    "board.map": "Le Plateau",
    "board.team": "Le groupe",
    "board.citadel": "Feuillet Citadelle",
    "board.quest_items": "Objets de quête",
    "board.globals": "Événements globaux en jeu",
    "board.world_map": "Mappemonde",
    "board.hand": "{name} : main et bourse",
    "board.objectives": "Objectifs du scénario",
    "board.lexicon": "Lexique (mots du dialogue)",
    "board.destiny": "Page Destinée ({hope} « L'espoir renaît ! » à dépenser)",
    "fog": "Brouillard (zone {zone})",
    "legend.map": "☗ figures · en italique : carte Exploration face cachée · sous le titre : événements liés",
    "col.name": "Personnage",
    "col.where": "Terrain",
    "col.hp": "PV",
    "col.deck": "Deck d'Action",
    "col.discard": "Défausse",
    "col.hand": "Main",
    "col.weight": "Poids",
    "unconscious": " (inconscient)",
    "unconscious.f": " (inconsciente)",
    "hp.next": "{hp} au départ",
    "empty.hand": "Ni compétence en main ni carte dans la bourse.",
    "story.title": "Ce qui vient de se passer",
    "group.character": "{name} · {where} · {hp} PV",
    "group.character.help": "Main : {hand}. Bourse : {purse}.",
    "group.other": "{name} : autres gestes",
    "group.other.help": "Récupération, défausser, donner, examiner à la loupe, quitter l'aventure.",
    "group.together": "Tous ensemble",
    "group.together.help": "Une action de groupe : tous les personnages conscients y participent.",
    "group.home": "Rentrer à la Citadelle",
    "group.home.help": "Cette action met fin au scénario si elle réussit.",
    "group.save": "Sauvegarder",
    "group.save.help": "Une fois par scénario : le Plateau est réduit au Terrain où vous êtes.",
    "group.active": "Qui mène l'action obligatoire ?",
    "group.active.help": "Tous les personnages du Terrain y participent ; choisissez le joueur actif.",
    "group.prepare": "Préparation : sélectionner des cartes",
    "group.prepare.help": "Chaque carte sélectionnée apporte son effet à l'action.",
    "group.draw": "Pioche",
    "group.draw.more": "Piocher au-delà du Deck d'Action (Récupération)",
    "group.result": "Résultat",
    "group.fewer": "Compter moins de succès",
    "group.fewer.help": "Le joueur actif peut ne pas compter tous ses succès : l'action échoue alors.",
    "group.keep": "Garder des cartes en main",
    "group.dialogue": "Votre réponse",
    "group.dialogue.actions": "Agir",
    "group.receive": "Qui prend la carte ?",
    "group.hand_limit": "Défausser une carte",
    "group.banish": "Bannir une carte",
    "group.free": "À tout moment",
    "group.free.help": "Récupération, défausser une compétence ou une carte de la bourse.",
    "group.destiny": "Page Destinée",
    "group.destiny.help": "Dépensez les cartes « L'espoir renaît ! » pour cocher une case.",
    "group.team": "L'équipe",
    "group.team.help": "Quitter ou rejoindre l'aventure ne se fait qu'ici, entre deux scénarios.",
    "group.depart": "Repartir",
    "field.count": "Cartes à piocher",
    "field.tremor": "Tremblement",
    "field.tremor.no": "sans",
    "field.tremor.yes": "avec (une carte de moins)",
    "field.leader": "Qui mène",
    "field.cards": "Cartes",
    "field.item": "Objet",
    "field.to": "À qui",
    "field.payer": "Qui défausse le poids",
    "field.entry": "Case",
    "field.for": "Pour",
    "field.fewer": "Succès comptés",
    "submit.draw": "Piocher",
    "submit.recover": "Récupérer",
    "submit.give": "Donner",
    "submit.destiny": "Cocher la case",
    "submit.count": "Compter ces succès",
    "submit.together": "Entreprendre l'action",
    "act.help": "{verb} · coût {cost}{chain} · {difficulty}",
    "difficulty": "difficulté {n}",
    "die": "action multiple, dé à {n}",
    "chain": " (chaîne)",
    "explore": "Chercher un passage {direction} (zone {zone})",
    "explore.help": "coût 0 · retourne la carte Exploration",
    "move": "Aller {direction} : {title}",
    "move.help": "se déplacer · coût {cost}",
    "examine": "Examiner {title} à la loupe",
    "examine.help": "le texte de la carte laisse deviner un numéro caché",
    "search": "Prendre la carte {number} (numéro caché de {title})",
    "search.help": "{title} est défaussée si la carte est la bonne",
    "recover": "Récupérer {cards} (−{hp})",
    "discard_skill": "Défausser {title} de la main",
    "drop": "Défausser {title} (bourse) dans le Passé",
    "give": "{title} à {to}, {payer} défausse {count}",
    "leave": "{name} {name:quitte} l'aventure",
    "save": "Sauvegarder la partie ici",
    "active": "{name} {name:mène} l'action ({hp} PV, {deck} dans {name:son} Deck d'Action)",
    "select": "Sélectionner {title}",
    "prepared": "Passer à la pioche",
    "draw": "Piocher {cards}",
    "count": "Compter {n} : {verdict}",
    "fewer": "Ne compter que {n} : échec",
    "fewer.none": "Ne compter aucun succès : échec",
    "keep": "Garder {title} en main",
    "kept": "Défausser les autres cartes révélées",
    "choose": "{text}",
    "close": "Refermer le livre",
    "close.decline": "Décliner et refermer le livre",
    "receive": "{name} la {name:prend}",
    "refuse": "Personne : la défausser dans le Passé",
    "discard": "Défausser {title}",
    "banish": "Bannir {title}",
    "depart": "Partir pour {title}",
    "depart.end": "Conclure l'aventure",
    "destiny": "{title} pour {name}",
    "join": "{name} {name:rejoint} l'aventure",
    "confirm.home": "L'action « {title} » ramène le groupe à la Citadelle si elle réussit : le scénario s'achève et son épilogue se lit ({done} sur {total} objectifs atteints).",
    "confirm.save": "Une seule sauvegarde par scénario : les mains sont défaussées, le Plateau ne garde que le Terrain où vous êtes, et l'aventure reprend aussitôt.",
    "confirm.recover": "{name} n'{name:a} que {hp} PV : cette Récupération {pronoun} laisse {out}.",
    "confirm.drop": "{title} part dans le Passé.",
    "confirm.refuse": "{title} part dans le Passé.",
    "confirm.banish": "{title} sera retirée du jeu jusqu'à la fin de la Menace.",
    "confirm.leave": "{name} {name:quitte} l'aventure pour de bon : {name:ses} cartes avancées et {name:ses} objets vont aux autres, {name:ses} points de vie aussi.",
    "confirm.leave.citadel": "{name} {name:quitte} l'aventure : {name:ses} cartes avancées et {name:ses} objets vont aux autres.",
    "confirm.fewer": "L'action échouera : ses conséquences d'échec s'appliquent.",
    "confirm.depart": "Le groupe quitte la Citadelle : la page Destinée attendra le prochain retour.",
    "confirm.draw": "Le Deck d'Action ne suffit pas : la Récupération forcée coûte {hp} et peut laisser {name} {out}.",
    "confirm.draw.vous": "Le Deck d'Action ne suffit pas : la Récupération forcée coûte {hp} et peut vous laisser {out}.",
    "draw.beyond": "Au-delà de {cards}, le Deck d'Action est vide : Récupération forcée.",
    "draw.prompt": "{title} — {verb} · coût {cost}{chain} · {need}",
    "draw.prompt.short": "{title} · coût {cost}{chain} · {need}",
    "draw.deck": "Deck d'Action : {deck} · défausse : {discard}. Au-delà de {cards}, une Récupération coûte des points de vie.",
    "draw.deck.empty": "Deck d'Action vide · défausse : {discard}. Chaque carte piochée passe par une Récupération, qui coûte des points de vie.",
    "draw.hand": "Ce qui aide : {helps}.",
    "draw.nothing": "Aucune carte en main ni dans la bourse n'aide pour cette action.",
    "draw.tremor": "Le tremblement peut retirer une carte au coût ({left} restant ce scénario).",
    "result.title": "Cartes révélées",
    "result.sum": "{detail} = {total} pour {need} : {verdict}.",
    "verdict.ok": "réussite",
    "verdict.ko": "échec",
    "prompt.turn": "Choisissez qui agit et comment.",
    "prompt.citadel": "Dépensez l'espoir sur la page Destinée, composez l'équipe, puis repartez.",
    "citadel.text": "Le groupe est rentré. Les portes se referment derrière vous.",
    "citadel.hope": "« L'espoir renaît ! »",
    "citadel.tremor": "Tremblement",
    "destiny.cost": "coût {cost}",
    "destiny.bought": "cochée",
    "none": "—",
}


def ui(key: str, **args: Any) -> str:
    who = None
    if isinstance(args.get("name"), str):
        who = args["name"] = fr.seat(args["name"])
        if who.person == 2 and "pronoun" in args:
            args["pronoun"] = "vous"
    return (fr.message(UI, key, who) or UI[key]).format(**args)


def verb(name: str) -> str:
    return VERB.get(name, name)


__all__ = ["UI", "VERB", "agree", "names", "plain", "plural", "quoted", "render", "ui"]


def card_taken(a: dict) -> str:
    """« Nouvelle carte — Terrain « Les Vergers morts » (n° 106). »: the card by its type and
    title; its number last, as printed on its back."""
    kind = TYPE.get(a["type"], a["type"])
    return f"Nouvelle carte — {kind} {quoted(a['title'])} (n° {a['number']})."


#: the automatic policy's temperaments (the first is the default)
PERSONAS = (
    ("methodique", "Méthodique", "va droit aux objectifs du scénario et rentre à temps"),
    ("curieux", "Curieux", "lit chaque paragraphe nouveau et ouvre chaque carte qu'il peut"),
)
