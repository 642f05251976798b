"""Every sentence Le Conseil des 12 shows a player, in French, in one place."""

from __future__ import annotations

from typing import Any

from ..core import french as fr

CHAR = {
    "alchimiste": "L'ALCHIMISTE",
    "automate": "L'AUTOMATE",
    "chevalier": "LE CHEVALIER",
    "dame": "LA DAME",
    "druidesse": "LA DRUIDESSE",
    "golem": "LE GOLEM",
    "inverseuse": "L'INVERSEUSE",
    "oracle": "L'ORACLE",
    "parasite": "LE PARASITE",
    "puissante": "LA PUISSANTE",
    "sorcier": "LE SORCIER",
    "stoique": "LE STOÏQUE",
}
REMARK = {
    None: "sans un mot",
    "seul": "« Je peux le faire tout seul »",
    "premier": "« Il faut que je joue en premier »",
    "aide": "« J'aurai besoin d'aide »",
}
REWARD = {
    "nudge": "un coup de pouce d'un point au dé",
    "flip": "retourner le dé sur sa face opposée",
    "reroll": "relancer le dé",
    "shield": "annuler une perte de Faveur",
    "favor": "+1 Faveur",
}
MONTH = {
    "base": "partie normale",
    "tutoriel": "partie guidée",
    "janvier": "Janvier",
    "fevrier": "Février",
    "mars": "Mars",
    "avril": "Avril",
    "mai": "Mai",
    "juin": "Juin",
    "juillet": "Juillet",
    "aout": "Août",
    "septembre": "Septembre",
    "octobre": "Octobre",
    "novembre": "Novembre",
    "decembre": "Décembre",
}
BAND = {
    "band.1": "Le peuple est fort mécontent : revenez vite siéger !",
    "band.2": "Le peuple est satisfait de son Conseil.",
    "band.3": "Le peuple vous rend hommage.",
    "band.4": "Le peuple vous comble de présents et de bénédictions.",
    "band.5": "Le royaume est à l'abri et fleurira jusqu'à la fin de vos jours.",
    "band.6": "Votre heureux royaume s'étend jusqu'aux confins du monde !",
}
WHY = {
    "dilemma": "dilemme",
    "bells": "cloches royales",
    "throne": "revendication",
    "reward": "RÉCOMPENSE",
}

MESSAGES: dict[str, str] = {
    "game.start": "— Le Conseil siège ({scenario}) : {names}. Faveur {favor}, le dé montre {die}. —",
    "setup.face_up": "Quémandeurs face visible : {chars} ; face cachée : {hidden}.",
    "setup.chef": "{name} {name:reçoit} la carte Chef du Conseil.",
    "hand.recover": (
        "{name} n'{name:a} plus qu'une carte jouable : {top} part en défausse et {name} "
        "{name:reprend} "
        "{back_cards}."
    ),
    "hand.none": "{name} n'{name:a} aucune carte jouable et ne {name:pose} rien ce tour-ci.",
    "favor.moved": "Faveur {delta:+d} ({why}) : la Faveur est à {favor}.",
    "favor.none": "Ce mois-ci, la réussite ne rapporte aucune Faveur.",
    "reward.shield": "La RÉCOMPENSE de « {dilemma} » est défaussée : la perte de Faveur est annulée.",
    "turn.second": "Second tour pour « {dilemma} », devant le même Quémandeur.",
    "turn.petitioner": "Le Quémandeur se présente : {char}.",
    "turn.dilemma": "Dilemme « {dilemma} » : il faut {objectives}.",
    "bells.rung": "Les cloches royales sonnent (−1 Faveur) ; le dilemme suivant est « {next} ».",
    "bells.two_turns": "Le Conseil prendra deux tours pour ce double objectif.",
    "choose.card": "{name} {name:pose} une carte face cachée.",
    "choose.done": "Toutes les cartes sont posées.",
    "remark.seul": "{name} : « Je peux le faire tout seul. »",
    "remark.premier": "{name} : « Il faut que je joue en premier. »",
    "remark.aide": "{name} : « J'aurai besoin d'aide. »",
    "card.revealed": "{name} {name:révèle} {char}.",
    "card.cancelled": "{char} est {cancelled} : {names} l'{names:a} {played} ; aucun effet.",
    "card.petitioner": "{name} {name:a} révélé {char}, le Quémandeur : le dilemme est perdu !",
    "effect.roll": "{name} {name:relance} le dé : {face}. L'ORACLE demande une seconde carte.",
    "effect.die": "{char} ({name}) : le dé passe de {before} à {face}.",
    "effect.die.same": "{char} ({name}) : le dé reste sur {face}.",
    "effect.objective": "{char} ({name}) : il faut désormais {objectives}.",
    "effect.take_top": "{name} {name:reprend} {char}, la carte du dessus de {name:sa} défausse.",
    "effect.take_hidden": "{name} {name:reprend} en secret une carte de {name:sa} défausse.",
    "effect.none": "{char} ({name}) reste sans effet.",
    "oracle.second": "{name} {name:joue} une seconde carte pour l'ORACLE.",
    "check.first_turn": "Le dé est sur {face} : un premier objectif est atteint, un second tour suit.",
    "check.success": "Le dé est sur {face} : « {dilemma} » est résolu !",
    "check.failure": "Le dé est sur {face} : « {dilemma} » est un échec.",
    "die.rolled": "Le dé est relancé : {face}.",
    "reward.kept": "« {dilemma} » est gardé comme RÉCOMPENSE : {reward}.",
    "reward.used": "RÉCOMPENSE « {dilemma} » utilisée ({reward}) : le dé est sur {face}.",
    "petitioner.taken": "Chacun prend {char} en main.",
    "throne.start": "Dernier dilemme : REVENDIQUER LE TRÔNE. Chacun pose un personnage.",
    "throne.revealed": "Révélation simultanée : {cards}.",
    "throne.success": "Unanimité : {char} monte sur le trône !",
    "throne.failure": "Les voix se partagent.",
    "throne.chosen": "Le Conseil choisit {char} pour régner.",
    "game.won": "Le Conseil l'emporte ; sur le trône : {char}.",
    "game.lost.favor": "La Faveur tombe à 0 : le Conseil est chassé, le trône reste vacant.",
    "game.lost.throne_rule": "Ce n'est pas le souverain qu'attendait le royaume : partie perdue.",
    "game.lost.bells_rule": "Les cloches n'ont pas assez sonné : partie perdue.",
    "game.lost.claim_rule": "Le Conseil n'a pas su s'accorder sur un successeur : partie perdue.",
    "hint": "{text}",
}

UI: dict[str, str] = {
    "action.bells.no": "Ne pas sonner les cloches",
    "action.bells.yes": "Sonner les cloches royales (−1 Faveur)",
    "action.bells.two": " — en deux tours",
    "action.choose": "Poser {char} — {remark}",
    "action.claim": "Revendiquer pour {char}",
    "action.reveal": "{name} {name:révèle} {name:sa} carte",
    "action.reward": "RÉCOMPENSE : {reward}",
    "action.reward_face": "RÉCOMPENSE : {reward} (dé sur {face})",
    "action.conclude": "Vérifier l'objectif",
    "action.conclude_claim": "Révéler les personnages posés",
    "action.effect.face": "Dé sur {face}",
    "action.effect.none": "Sans effet",
    "action.effect.objective": "Remplacer l'objectif {n} ({values})",
    "action.effect.take": "Reprendre {char}",
    "action.oracle": "Jouer {char}",
    "action.continue": "Dilemme suivant",
    "action.hint": "Y avait-il une solution ?",
    "action.successor": "{char} monte sur le trône",
}


def char(c: Any) -> str:
    return CHAR.get(c, str(c)) if c else "—"


#: the characters whose name elides its article (« L'INVERSEUSE »): their gender
ELIDED_GENDER = {"alchimiste": "m", "automate": "m", "inverseuse": "f", "oracle": "m"}


def character(c: Any) -> fr.Name:
    """A character as a name its words agree with (« LA DAME est annulée »)."""
    return fr.name_of(char(c), ELIDED_GENDER.get(str(c)))


def remark(r: str | None, name: str = "") -> str:
    """A remark as its speaker says it (« tout seul », « toute seule »)."""
    if r == "seul" and gender(name) == "f":
        return "« Je peux le faire toute seule »"
    return REMARK[r]


def gender(name: str) -> str | None:
    """A seat's gender when its name comes from the list below."""
    return next((g for n, g in SEAT_NAMES if n == name), None)


def objectives(objs: list[list[int]]) -> str:
    parts = ["/".join(str(v) for v in o) for o in objs]
    if len(parts) == 1:
        return f"le dé sur {parts[0]}"
    return f"le dé sur {parts[0]} pendant le tour et sur {parts[1]} à la fin (ou l'inverse)"


def render(entry: dict[str, Any], titles: dict[Any, str]) -> str:
    key, args = entry["key"], dict(entry.get("args") or {})
    if key == "effect.die" and args.get("before") == args.get("face"):
        key = "effect.die.same"
    if key == "card.cancelled":
        who = character(args.get("char"))
        args["cancelled"], args["played"] = fr.agree("annulé", who), fr.agree("joué", who)
    if key == "hand.recover":
        args["back_cards"] = fr.count(int(args.get("back") or 0), "carte jouée", "cartes jouées")
    if key == "remark.seul" and gender(str(args.get("name", ""))) == "f":
        return f"{args['name']} : « Je peux le faire toute seule. »"
    template = MESSAGES.get(key)
    if template is None:
        return key
    if "char" in args:
        args["char"] = char(args["char"])
    if "chars" in args:
        args["chars"] = ", ".join(char(c) for c in args["chars"])
    if "cards" in args:
        args["cards"] = ", ".join(char(c) for c in args["cards"])
    if "names" in args:
        args["names"] = fr.group([seat(n) for n in args["names"]])
    if "name" in args:
        args["name"] = seat(args["name"])
    for k in ("dilemma", "next"):
        if k in args:
            args[k] = titles.get(args[k], args[k]) if args[k] is not None else "—"
    if "objectives" in args:
        args["objectives"] = objectives(args["objectives"])
    if "reward" in args:
        args["reward"] = REWARD.get(args["reward"], args["reward"])
    if "why" in args:
        args["why"] = WHY.get(args["why"], args["why"])
    if "scenario" in args:
        args["scenario"] = MONTH.get(args["scenario"], args["scenario"])
    if "top" in args:
        args["top"] = char(args["top"])
    try:
        return template.format(**args)
    except (KeyError, ValueError, IndexError):
        return template


def ui(key: str, **args: Any) -> str:
    if "name" in args:
        args["name"] = seat(args["name"])
    return UI[key].format(**args)


def seat(name: Any) -> fr.Name:
    """A seat's name as a subject: its gender, and « Vous » for a single person."""
    return fr.seat(str(name), gender(str(name)))


def describe(action: dict[str, Any], names: list[str], state: dict[str, Any]) -> str:
    t = action["type"]
    if t == "bells":
        label = ui("action.bells.yes" if action["ring"] else "action.bells.no")
        return label + (UI["action.bells.two"] if action["two_turns"] else "")
    if t == "choose":
        who = names[action["seat"]] if action.get("seat") is not None else ""
        return ui("action.choose", char=char(action["card"]), remark=remark(action["remark"], who))
    if t == "claim":
        return ui("action.claim", char=char(action["card"]))
    if t == "reveal":
        return ui("action.reveal", name=names[action["who"]])
    if t == "reward":
        r = state["rewards"][action["index"]]["type"]
        if r in ("nudge", "flip"):
            return ui("action.reward_face", reward=REWARD[r], face=action["face"])
        return ui("action.reward", reward=REWARD[r])
    if t == "effect":
        if "objective" in action:
            value = "/".join(
                str(v)
                for v in (
                    (1, 2, 3, 4) if state["pending"]["card"] == "chevalier" else (9, 10, 11, 12)
                )
            )
            return ui("action.effect.objective", n=action["objective"] + 1, values=value)
        if "take" in action:
            return (
                ui("action.effect.take", char=char(action["take"]))
                if action["take"]
                else ui("action.effect.none")
            )
        return (
            ui("action.effect.face", face=action["face"])
            if action["face"]
            else ui("action.effect.none")
        )
    if t == "conclude" and state.get("phase") == "throne_rewards":
        return ui("action.conclude_claim")
    if t in ("oracle", "successor"):
        return ui(f"action.{t}", char=char(action["card"]))
    return ui(f"action.{t}")


#: names of the seats nobody named (the Council's members; the chronicle numbers them as sovereigns (« Aliénor II »)), with their gender
SEAT_NAMES: tuple[tuple[str, str], ...] = (
    ("Aliénor", "f"),
    ("Bertrand", "m"),
    ("Constance", "f"),
    ("Eudes", "m"),
    ("Garance", "f"),
    ("Hugues", "m"),
    ("Marguerite", "f"),
    ("Raoul", "m"),
    ("Agnès", "f"),
    ("Guillaume", "m"),
)
