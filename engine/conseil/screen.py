"""Screens of Le Conseil des 12, built from the seat's view with the shared widgets."""

from __future__ import annotations

from typing import Any

from ..core import widgets as W
from ..core.types import Choice, Group, Screen
from . import text_fr as T
from .rules import FAVOR_MAX, THRONE

LEVEL = {1: "facile", 2: "moyen", 3: "difficile"}
PHASE = {
    "bells": "2. Sonner les cloches royales ?",
    "choose": "3. Choisir un personnage, face cachée",
    "reveal": "4. Révéler les cartes, l'une après l'autre",
    "effect": "4. Appliquer l'effet",
    "oracle": "4. La seconde carte de l'ORACLE",
    "aftermath": "5. Le dilemme est perdu",
    "throne": "Dernier tour : revendiquer le trône",
    "throne_rewards": "Dernier tour : les RÉCOMPENSES avant la révélation",
    "successor": "Dernier tour : choisir le successeur",
    "over": "La Chronique",
}


def _title(bundle: dict, key: Any) -> str:
    if key == THRONE or key is None:
        return "REVENDIQUER LE TRÔNE"
    d = bundle["records"].get("dilemma", {}).get(str(key))
    return d["title"] if d else str(key)


def _dilemma_card(bundle: dict, key: Any, view: dict | None, state: str = "up") -> dict:
    if key == THRONE:
        return W.card("REVENDIQUER LE TRÔNE", "Tous doivent poser le même personnage.", state=state)
    d = bundle["records"]["dilemma"][str(key)]
    objs = view["objectives"] if view is not None else d["objectives"]
    text = T.objectives(objs).capitalize() + "."
    if d.get("text"):
        text = d["text"] + "\n\n" + text
    level = int(d.get("difficulty", 1))
    badges = [f"{LEVEL[level]} ({level} cloche{'s' if level > 1 else ''})"]
    if view is not None and len(objs) == 2:
        badges += [f"objectif {i + 1} atteint" for i, m in enumerate(view["met"]) if m]
    return W.card(d["title"], text, subtitle=f"n° {key}", badges=badges, state=state)


def widgets_for(bundle: dict, view: dict, names: list[str]) -> list[dict]:
    out: list[dict] = []
    seat = view.get("seat")
    if view["scenario"] == "tutoriel":
        for card in bundle["records"].get("tutorial", {}).values():
            if card.get("phase") == view["phase"]:
                out.append(W.text(card["text"], card["title"], tone="note", area="main"))
    if view["phase"] == "aftermath" and view.get("hint"):
        out.append(W.text(view["hint"], "Y avait-il une solution ?", tone="note", area="main"))
    out.append(W.dice([W.die(view["die"], 12, label="Le dé du Conseil")], "Le dé", area="main"))
    if view["dilemma"] is not None:
        cards = [_dilemma_card(bundle, view["dilemma"], view)]
        if view.get("next") is not None:
            cards.append(_dilemma_card(bundle, view["next"], None, state="revealed"))
        out.append(W.cards(cards, "Le dilemme", area="main", note=_note(view)))
    if view["petitioner"]:
        pet = bundle["records"]["petitioner"].get(view["petitioner"], {})
        out.append(
            W.cards(
                [
                    W.card(
                        T.char(view["petitioner"]),
                        pet.get("demand", ""),
                        value=pet.get("crown"),
                        badges=["Quémandeur : on ne peut pas le jouer"],
                    )
                ],
                "Le Quémandeur",
                area="main",
            )
        )
    if view["table"]:
        out.append(
            W.cards(
                [
                    W.card(
                        T.char(e["card"]),
                        subtitle=names[e["seat"]],
                        state="cancelled" if e["cancelled"] else "played",
                    )
                    for e in view["table"]
                ],
                "Cartes jouées ce tour",
                area="main",
            )
        )
    out.append(
        W.tracks(
            [
                W.track(
                    "Faveur",
                    view["favor"],
                    0,
                    FAVOR_MAX,
                    marks=[{"at": 0, "label": "défaite"}],
                    zones=[{"from": 0, "to": 1, "label": "danger", "tone": "bad"}],
                )
            ],
            "La piste des Faveurs",
        )
    )
    rows = []
    for s, name in enumerate(names):
        if view["phase"] in ("choose", "throne", "throne_rewards", "reveal", "effect", "oracle"):
            if view["revealed"][s]:
                posed = "révélée"
            elif view["has_chosen"][s]:
                posed = "posée face cachée"
            else:
                posed = "réfléchit…"
        else:
            posed = ""
        rows.append(
            W.row(
                [
                    name + (" (Chef du Conseil)" if view.get("chef") == s else ""),
                    view["hand_counts"][s],
                    T.char(view["discard_tops"][s]) if view["discard_tops"][s] else "—",
                    posed,
                    T.remark(view["remarks"][s], name) if view["remarks"][s] else "",
                ],
                you=s == seat,
                current=s in view.get("to_act", []),
            )
        )
    out.append(
        W.players(["Membre", "Main", "Défausse (dessus)", "Carte", "Remarque"], rows, "Le Conseil")
    )
    facts = [
        W.fact("Dilemmes restants", view["pile_count"]),
        W.fact("Quémandeurs restants", view["pets_count"]),
        W.fact("Cloches sonnées", view["rings"]),
    ]
    rule = view.get("rule_text")
    if rule:
        facts.append(W.fact("Règle du mois", rule))
    out.append(W.facts(facts, "La table", area="board"))
    if view["rewards"]:
        out.append(
            W.cards(
                [
                    W.card(_title(bundle, r["id"]), T.REWARD[r["type"]], badges=["RÉCOMPENSE"])
                    for r in view["rewards"]
                ],
                "Récompenses gardées",
            )
        )
    if seat is not None and view.get("hand") is not None:
        chars = bundle["records"].get("character", {})
        hand = [
            W.card(
                T.char(c),
                chars.get(c, {}).get("text", ""),
                state="blocked" if c == view["petitioner"] else "up",
                badges=["Quémandeur"] if c == view["petitioner"] else [],
            )
            for c in view["hand"]
        ]
        if view.get("my_choice"):
            hand.append(W.card(T.char(view["my_choice"]), "Votre carte posée.", state="selected"))
        out.append(W.private(W.cards(hand, "Votre main", area="self", empty="Aucune carte"), seat))
        if view.get("discard"):
            out.append(
                W.private(
                    W.items(
                        [T.char(c) for c in view["discard"]],
                        "Votre défausse (dessus en dernier)",
                        area="self",
                    ),
                    seat,
                )
            )
    return out


def _note(view: dict) -> str | None:
    if view.get("rung"):
        return (
            "Les cloches ont sonné : la carte suivante est visible et ce dilemme comptera double."
        )
    return None


def screen(
    bundle: dict,
    state: dict,
    view: dict,
    seat: int | None,
    actions: list,
    names: list[str],
    describe,
) -> Screen:
    widgets = widgets_for(bundle, view, names)
    groups: list[Group] = []
    phase = view["phase"]
    by: dict[str, list[tuple[int, dict]]] = {}
    for i, a in enumerate(actions):
        by.setdefault(a["type"], []).append((i, a))
    if "choose" in by:
        items = by.pop("choose")
        fields = [
            W.form_field(
                "card",
                "Personnage",
                options=[
                    {"value": c, "label": T.char(c)} for c in sorted({a["card"] for _, a in items})
                ],
            ),
            W.form_field(
                "remark",
                "Remarque au Conseil",
                options=[
                    {"value": r or "", "label": T.remark(r, names[items[0][1]["seat"]])}
                    for r in dict.fromkeys(a["remark"] for _, a in items)
                ],
            ),
        ]
        entries = [
            W.choice(i, describe(a), fields={"card": a["card"], "remark": a["remark"] or ""})
            for i, a in items
        ]
        groups.append(
            W.form(
                "Votre carte, face cachée",
                fields,
                entries,
                submit="Poser la carte",
                help="Jamais le personnage du Quémandeur. Une remarque générale est permise, "
                "jamais le nom d'une carte.",
            )
        )
    heads = {
        "bells": (
            "Les cloches royales",
            "1 Faveur pour voir le dilemme suivant ; celui-ci comptera double.",
        ),
        "claim": ("Qui doit régner ?", "Tous doivent poser le même personnage, sans se concerter."),
        "reveal": ("Qui révèle sa carte maintenant ?", "Le Conseil s'accorde sur l'ordre."),
        "reward": ("Utiliser une RÉCOMPENSE", None),
        "conclude": (
            ("Révéler ensemble", "Les personnages posés sont révélés tous à la fois.")
            if phase == "throne_rewards"
            else ("Fin des révélations", None)
        ),
        "effect": ("L'effet de votre carte", "Vous devez l'appliquer."),
        "oracle": ("La seconde carte de l'ORACLE", None),
        "continue": ("Le dilemme est perdu", None),
        "hint": ("Le dilemme est perdu", None),
        "successor": (
            "Le successeur",
            "Les voix se sont partagées : choisissez parmi les cartes posées.",
        ),
    }
    merged: dict[str, list[Choice]] = {}
    order: list[str] = []
    for t, items in by.items():
        head, help_ = heads.get(t, (t, None))
        if head not in merged:
            merged[head] = []
            order.append(head)
            heads[head] = (head, help_)  # type: ignore[assignment]
        merged[head] += [
            W.choice(i, describe(a), tone="main" if t in ("reveal", "claim", "continue") else None)
            for i, a in items
        ]
    for head in order:
        groups.append(W.group(head, W.unique_labels(merged[head]), help=heads[head][1]))
    who = ", ".join(names[s] for s in view.get("to_act", []))
    if phase == "over":
        res = view["result"] or {}
        status = "Le Conseil l'emporte !" if res.get("won") else "Le Conseil a échoué"
    elif seat is not None and actions:
        status = f"À {names[seat]} — {PHASE.get(phase, phase)}"
    else:
        status = f"{PHASE.get(phase, phase)} — {who or 'le Conseil'}"
    title = _title(bundle, view["dilemma"]) if view["dilemma"] is not None else ""
    return W.screen(status, widgets, groups, phase=PHASE.get(phase), prompt=title or None)
