"""The Citadelle's screens, built from the shared widgets (``engine.core.widgets``).

- **main**: the story block (what just happened, narrated: the card revealed with its texts,
  the paragraph read, the draw and how its cards make the successes), and what the moment is
  about (the action being prepared or drawn, the revealed cards, the Destiny page);
- **self**: the Plateau as a map (Terrains, events, figures, fog) and the group's table;
- **board**: every card the players hold or see with its effect text (hands, purses, quest
  items, global events, the Mappemonde), the objectives and the Citadel sheet.

Choices: one block per character (name, Terrain, hit points, hand) with its main verbs first
and its other gestures folded; group actions once; moves that end a scenario, spend the last
hit points or discard for good set apart and confirmed.
"""

from __future__ import annotations

from typing import Any

from ..core import french as fr
from ..core import widgets as W
from ..core.types import Screen
from . import actions as A
from . import characters as C
from . import citadel as CIT
from . import records as rec
from . import rules as R
from . import text_fr as T
from .board import coords, neighbour

# --------------------------------------------------------------------------- card faces


def _skill_card(bundle: dict, key: str, state: str = "up", extra: tuple[str, ...] = ()) -> dict:
    r = rec.skill(bundle, key)
    return W.card(
        r.get("title", ""),
        T.plain(r.get("text", "")),
        subtitle=T.SKILL.get(r.get("skill", ""), ""),
        state=state,
        badges=[*zone_badges(r), *extra],
    )


def zone_badges(r: dict) -> list[str]:
    """A skill's result zone as badges: ★ full stars, ◐/◑ half-stars, class icons."""
    zone = r.get("result") or {}
    out = ["★" * zone["stars"]] if zone.get("stars") else []
    out += [
        "◐ demi-étoile gauche" if h == "left" else "◑ demi-étoile droite"
        for h in zone.get("half_stars") or []
    ]
    out += [T.CLASS.get(c, c) for c in zone.get("classes") or []]
    return out


def _adv_card(bundle: dict, key: str, state: str = "up", extra: tuple[str, ...] = ()) -> dict:
    r = rec.adv(bundle, key)
    badges = [f"n° {r['number']}", T.TYPE.get(r["type"], "")]
    if r.get("weight"):
        badges.append(f"poids {r['weight']}")
    badges += list(r.get("keywords") or [])
    if r.get("undiscardable"):
        badges.append("ne se défausse pas")
    return W.card(
        r.get("title", ""), T.plain(r.get("text", "")), state=state, badges=[*badges, *extra]
    )


def _exp_card(bundle: dict, key: str) -> dict:
    r = rec.exp(bundle, key)
    return W.card(
        r.get("title", ""),
        T.plain(r.get("text", "")),
        badges=["Exploration", T.TYPE.get(r["type"], "")],
    )


def _title(bundle: dict, key: str) -> str:
    return rec.adv(bundle, key).get("title", "")


def _where(bundle: dict, state: dict, ch: dict) -> str:
    spot = state["board"].get(ch["at"] or "")
    if spot:
        return _title(bundle, spot["terrain"])
    return "à la Citadelle" if state.get("phase") == "citadel" else "hors du Plateau"


# --------------------------------------------------------------------------- the story block


def _since(state: dict) -> list[dict]:
    log = state["log"]
    mark = state.get("mark", 0)
    entries = log[mark:] if mark < len(log) else []
    return entries or log[-3:]


def narrate(bundle: dict, state: dict) -> tuple[str, str]:
    """(title, paragraphs) of what just happened, from the journal since the last decision."""
    paras: list[str] = []
    title = T.ui("story.title")
    for entry in _since(state):
        key, a = entry["key"], entry.get("args") or {}
        if key == "scenario.start":
            title = a["title"]
            paras.append(T.plain(a.get("text", "")))
            paras.append(T.render(entry))
        elif key == "card.taken":
            head = T.card_taken(a)
            text = T.plain(a.get("back") or "")
            # a back that quotes someone is not wrapped again: « … « … » » reads badly
            back = f"Au dos : {text if '«' in text else T.quoted(text)}" if text else ""
            paras.append(" ".join(x for x in (head, back, T.plain(a.get("text", ""))) if x))
        elif key == "exploration.revealed":
            paras.append(f"Exploration — {a['title']}. {T.plain(a.get('text', ''))}".strip())
        elif key == "dialogue":
            paras.append(T.plain(a["text"]))
        elif key == "epilogue":
            title = f"Épilogue — {a.get('title', '')}".rstrip(" —")
            paras.append(T.plain(a["text"]))
        elif key == "action.drawn":
            paras.append(_draw_story(bundle, a))
        elif key in ("terrain.placed", "past.restored"):
            continue
        else:
            paras.append(T.render(entry))
    return title, "\n\n".join(p for p in paras if p)


def _draw_story(bundle: dict, a: dict) -> str:
    shown = []
    for card in a["cards"]:
        r = rec.skill(bundle, card)
        badges = zone_badges(r)
        counted = "" if card in a["counted"] or a.get("limit") is None else " (non comptée)"
        shown.append(f"{r.get('title', '')} ({', '.join(badges) or 'rien'}){counted}")
    cards = "; ".join(shown) if shown else "aucune carte"
    detail = []
    if a["stars"]:
        detail.append(T.plural(a["stars"], "succès", "succès") + " d'étoiles et de demi-étoiles")
    if a.get("limit") is not None:
        detail.append(f"chaîne : {T.plural(a['limit'], 'carte comptée', 'cartes comptées')}")
    if a.get("converted"):
        detail.append(
            T.plural(a["converted"], "succès", "succès") + " d'icônes de classe converties"
        )
    if a.get("flat"):
        detail.append(T.plural(a["flat"], "succès", "succès") + " des cartes en jeu")
    if a.get("cancels"):
        detail.append(T.plural(a["cancels"], "dégât annulable", "dégâts annulables"))
    verdict = T.ui("verdict.ok") if a["total"] >= a["need"] else T.ui("verdict.ko")
    need = f"{a['need']} au dé" if a.get("multiple") else f"une difficulté de {a['need']}"
    what = (
        f"{T.quoted(a['title'] or T.verb(a.get('verb', '')))} — "
        if a.get("title") or a.get("verb")
        else ""
    )
    total = T.plural(a["total"], "succès", "succès")
    who = fr.seat(a["name"])
    if not shown:  # nothing drawn (a cost of 0): nothing to reveal
        if a["need"] <= 0:
            return f"{what}{who} n'{who:a} rien à piocher : {verdict}."
        return f"{what}{who} ne {who:pioche} rien : {total} pour {need} : {verdict}."
    summary = " ; ".join(detail) or "aucun succès"
    summary = summary[:1].upper() + summary[1:]
    return f"{what}{who} {who:révèle} : {cards}. {summary} — {total} pour {need} : {verdict}."


# --------------------------------------------------------------------------- board widgets


def _grid(bundle: dict, state: dict) -> dict:
    cells = []
    for k, spot in sorted(state["board"].items()):
        x, y = coords(k)
        lines = [_title(bundle, e["key"]) for e in spot["events"]]
        for d in [
            d
            for d in state.get("dice", {}).values()
            if d["card"] in (spot["terrain"], *(e["key"] for e in spot["events"]))
        ]:
            lines.append(f"dé à {d['value']}")
        cells.append(
            W.cell(
                x,
                y,
                _title(bundle, spot["terrain"]),
                lines=lines,
                figures=[c["name"] for c in state["characters"] if c["at"] == k],
            )
        )
    for k, slot in sorted(state["slots"].items()):
        x, y = coords(k)
        if slot.get("adventure"):
            cells.append(W.cell(x, y, _title(bundle, slot["adventure"]), lines=["événement"]))
        elif slot.get("exploration") and slot.get("revealed"):
            r = rec.exp(bundle, slot["exploration"])
            cells.append(W.cell(x, y, r.get("title", ""), lines=[T.TYPE.get(r["type"], "")]))
        elif slot.get("exploration"):
            zone = rec.exp(bundle, slot["exploration"])["zone"]
            cells.append(W.cell(x, y, T.ui("fog", zone=zone), fog=True))
    return W.grid(cells, T.ui("board.map"), legend=[T.ui("legend.map")], area="self")


def _team(bundle: dict, state: dict) -> dict:
    rows = []
    active = (state.get("action") or {}).get("character")
    at_citadel = state.get("phase") == "citadel"
    next_hp = CIT.start_hp(bundle, state) if at_citadel else None
    for i, c in enumerate(state["characters"]):
        out = (
            ""
            if c["conscious"]
            else T.ui("unconscious.f" if c.get("gender") == "f" else "unconscious")
        )
        hp = T.ui("hp.next", hp=next_hp) if next_hp is not None else str(c["hp"])
        rows.append(
            W.row(
                [
                    _who(bundle, c) + out,
                    _where(bundle, state, c),
                    hp,
                    len(c["deck"]),
                    len(c["discard"]),
                    len(c["hand"]),
                    f"{C.weight(bundle, c)}/{C.carry(bundle, state, c)}",
                ],
                current=active == i,
                out=not c["conscious"],
            )
        )
    cols = ("name", "where", "hp", "deck", "discard", "hand", "weight")
    return W.players([T.ui(f"col.{c}") for c in cols], rows, T.ui("board.team"), area="self")


def _holdings(bundle: dict, state: dict) -> list[dict]:
    out = []
    for c in state["characters"]:
        faces = [_skill_card(bundle, k) for k in c["hand"]]
        faces += [_adv_card(bundle, k) for k in c["purse"]]
        faces += [
            _adv_card(bundle, k, state="blocked", extra=("bloquée",)) for k in c["purse_blocked"]
        ]
        faces += [_skill_card(bundle, k, state="blocked", extra=("bloquée",)) for k in c["blocked"]]
        out.append(
            W.cards(faces, T.ui("board.hand", name=_who(bundle, c)), empty=T.ui("empty.hand"))
        )
    return out


def _objectives(bundle: dict, state: dict) -> dict | None:
    scen = rec.scenario(bundle, state.get("scenario"))
    objectives = scen.get("objectives") or []
    if not objectives:
        return None
    lines = [("✓ " if o["id"] in state["objectives"] else "○ ") + o["text"] for o in objectives]
    return W.items(lines, T.ui("board.objectives"), area="board")


def _citadel(bundle: dict, state: dict) -> dict:
    cit = state["citadel"]
    recs = bundle["records"]
    facts = [W.fact(T.SCORE[k], v, "sur 25") for k, v in cit["scores"].items()]
    facts.append(W.fact(T.ui("citadel.hope"), cit["hope"]))
    left = cit["tremor"] - state.get("tremor_used", 0)
    facts.append(
        W.fact(
            T.ui("citadel.tremor"),
            cit["tremor"],
            f"encore {left} ce scénario" if state.get("phase") == "play" else None,
        )
    )
    for b, n in cit["buildings"].items():
        r = recs.get("building", {}).get(b, {})
        facts.append(
            W.fact(
                r.get("title", ""),
                "construit" if n >= r.get("boxes", 99) else f"{n}/{r.get('boxes', '?')}",
            )
        )
    for q, st in cit["side_quests"].items():
        facts.append(
            W.fact(recs.get("side_quest", {}).get(q, {}).get("title", ""), T.QUEST_STATE[st])
        )
    return W.facts(facts, T.ui("board.citadel"), area="board")


def _lexicon(bundle: dict, state: dict) -> dict | None:
    """Glossary terms (« tremblement* ») met in the paragraphs read: what the characters know."""
    seen: list[str] = []
    paras = rec.recs(bundle, "paragraph")
    text = " ".join(paras.get(n, {}).get("text", "") for n in state.get("read") or []).lower()
    for entry in rec.recs(bundle, "lexicon_entry").values():
        if f"{entry['term']}*".lower() in text:
            seen.append(f"{entry['term']} : {T.plain(entry['text'])}")
    return W.items(seen, T.ui("board.lexicon"), area="board") if seen else None


def _board(bundle: dict, state: dict) -> list[dict]:
    out: list[dict] = []
    objectives = _objectives(bundle, state)
    if objectives:
        out.append(objectives)
    out += _holdings(bundle, state)
    if state["globals"]:
        out.append(W.cards([_adv_card(bundle, k) for k in state["globals"]], T.ui("board.globals")))
    if state["quest_items"]:
        out.append(
            W.cards([_adv_card(bundle, k) for k in state["quest_items"]], T.ui("board.quest_items"))
        )
    if state["world_map"]:
        out.append(
            W.cards([_adv_card(bundle, k) for k in state["world_map"]], T.ui("board.world_map"))
        )
    out.append(_citadel(bundle, state))
    lexicon = _lexicon(bundle, state)
    if lexicon:
        out.append(lexicon)
    return out


# --------------------------------------------------------------------------- the moment


def _who(bundle: dict, c: dict) -> str:
    """A character as the group and its hand name it: a single person's « Vous » with the
    character it plays (« Vous (Maëlis) »)."""
    record = rec.recs(bundle, "character").get(c["id"]) or {}
    return fr.you_as(c["name"], record.get("name", ""))


def _action_name(bundle: dict, state: dict) -> str:
    action = state.get("action") or {}
    return action.get("title") or T.verb(action.get("verb", ""))


def _draw_panel(bundle: dict, state: dict) -> list[dict]:
    """What the draw is about: the action's name, difficulty, cost, chain, and what the hand
    and the purse bring."""
    action = state["action"]
    spec, ref = A.spec_of(bundle, state, action["source"], action["index"])
    spec = spec or {}
    ch = state["characters"][action["character"]]
    low, _ = A.cost(bundle, state)
    need = A.need(bundle, state)
    need_text = T.ui("die", n=need) if action["die"] else T.ui("difficulty", n=need)
    # an action with no title of its own is named by its verb, and a title that says the verb
    # already is not followed by it (« chercher un passage — chercher un passage », « Soulever
    # la caisse et fouiller — fouiller »)
    verb = T.verb(action["verb"])
    title = _action_name(bundle, state)
    title = title[:1].upper() + title[1:]
    said = verb.lower() in title.lower()
    lines = [
        T.ui(
            "draw.prompt.short" if said else "draw.prompt",
            title=title,
            verb=verb,
            cost=low,
            chain=T.ui("chain") if spec.get("chain") else "",
            need=need_text,
        )
    ]
    helps = []
    for key in action["selected"]:
        helps.append(T.quoted(rec.record(bundle, _ref(bundle, key)).get("title", "")))
    for card in ch["hand"]:
        r = rec.skill(bundle, card)
        if (
            r.get("bonuses")
            and not r.get("spend")
            and r.get("skill") != "reflex"
            and (not r.get("when") or action["verb"] in r["when"])
        ):
            helps.append(T.quoted(r.get("title", "")))
    lines.append(T.ui("draw.hand", helps=T.names(helps)) if helps else T.ui("draw.nothing"))
    deck, discard = len(ch["deck"]), len(ch["discard"])
    if deck:
        lines.append(T.ui("draw.deck", deck=deck, discard=discard, cards=T.plural(deck, "carte")))
    else:
        lines.append(T.ui("draw.deck.empty", discard=discard))
    if A.can_tremor(bundle, state):
        lines.append(
            T.ui("draw.tremor", left=state["citadel"]["tremor"] - state.get("tremor_used", 0))
        )
    out = [W.text("\n\n".join(lines), T.ui("phase.draw") + " — " + ch["name"], tone="note")]
    faces = []
    if ref is not None and ref["kind"] == "adventure":
        faces.append(_adv_card(bundle, ref["key"]))
    elif ref is not None and ref["kind"] == "exploration":
        faces.append(_exp_card(bundle, ref["key"]))
    faces += [
        _adv_card(bundle, k, state="selected")
        if k in rec.recs(bundle, "adventure_card")
        else _skill_card(bundle, k, state="selected")
        for k in action["selected"]
    ]
    if faces:
        out.append(W.cards(faces, "L'action et les cartes sélectionnées", area="main"))
    return out


def _ref(bundle: dict, key: str) -> dict:
    return (
        {"kind": "action_card", "key": key}
        if key in rec.recs(bundle, "action_card")
        else {"kind": "adventure", "key": key}
    )


def _result_panel(bundle: dict, state: dict) -> list[dict]:
    action = state["action"]
    t = action.get("tally") or {}
    counted = set(t.get("counted") or [])
    faces = [
        _skill_card(
            bundle, k, state="selected" if k in counted or t.get("limit") is None else "revealed"
        )
        for k in action["drawn"]
    ]
    return [W.cards(faces, T.ui("result.title"), area="main", empty="aucune carte")]


def _destiny_panel(bundle: dict, state: dict) -> dict:
    cit = state["citadel"]
    faces = []
    for did, entry in rec.recs(bundle, "destiny").items():
        bought = did in cit["destiny"]
        state_ = "played" if bought else ("up" if entry["cost"] <= cit["hope"] else "blocked")
        faces.append(
            W.card(
                entry["title"],
                T.plain(entry["text"]),
                state=state_,
                badges=[
                    T.ui("destiny.bought") if bought else T.ui("destiny.cost", cost=entry["cost"])
                ],
            )
        )
    return W.cards(faces, T.ui("board.destiny", hope=cit["hope"]), area="main")


# --------------------------------------------------------------------------- the screen


def status(bundle: dict, state: dict) -> tuple[str, str]:
    p = state.get("pending") or {}
    t = p.get("type") or ("over" if state.get("phase") == "over" else "")
    scen = rec.scenario(bundle, state.get("scenario")).get("title", "")
    phase = T.ui(f"phase.{t}") if f"phase.{t}" in T.UI else ""
    chars = state["characters"]
    c = p.get("character")
    name = chars[c]["name"] if isinstance(c, int) and 0 <= c < len(chars) else ""
    if t == "over":
        result = (state.get("result") or {}).get("result", "")
        return T.ui("status.over", result=T.RESULT.get(result, result)), phase
    if t in ("prepare", "draw", "result", "keep"):
        return T.ui(
            f"status.{t}", scenario=scen, name=name, action=_action_name(bundle, state)
        ), phase
    if t == "receive":
        return T.ui(
            "status.receive", scenario=scen, title=T.quoted(_title(bundle, p["key"]))
        ), phase
    if t == "turn":
        return T.ui("status.turn", scenario=scen, turn=state.get("turns", 0) + 1), phase
    if f"status.{t}" in T.UI:
        return T.ui(f"status.{t}", scenario=scen, name=name), phase
    return scen, phase


def screen(bundle: dict, state: dict, actions: list[dict]) -> Screen:
    from .choices import groups

    text, phase = status(bundle, state)
    p = state.get("pending") or {}
    t = p.get("type")
    title, story = narrate(bundle, state)
    widgets: list[dict] = [W.text(story or T.ui("citadel.text"), title)]
    if t == "draw" or t == "prepare":
        widgets += _draw_panel(bundle, state)
    elif t == "result" or t == "keep":
        widgets += _result_panel(bundle, state)
    elif t == "citadel":
        widgets.append(_destiny_panel(bundle, state))
    if state.get("phase") == "play" or state["board"]:
        widgets.append(_grid(bundle, state))
    widgets.append(_team(bundle, state))
    widgets += _board(bundle, state)
    prompt = (
        T.ui("prompt.turn") if t == "turn" else (T.ui("prompt.citadel") if t == "citadel" else None)
    )
    return W.screen(text, widgets, groups(bundle, state, actions), phase=phase, prompt=prompt)


def standing_row(bundle: dict, state: dict) -> dict:
    """The whole adventure's result on one line for the group: the scenarios it played (its
    score), then where it stands: turns, the Citadel's scores, Espoir, buildings, side quests."""
    recs = bundle["records"]
    cit = state["citadel"]
    played = [rec.scenario(bundle, sid).get("title", "") for sid in state["scenarios_played"]]
    names = [c["name"] for c in state["characters"]]
    buildings = [
        f"{recs.get('building', {}).get(b, {}).get('title', '')} ({level})"
        for b, level in cit.get("buildings", {}).items()
    ]
    done = sum(1 for st in cit.get("side_quests", {}).values() if st == "done")
    details = [
        "Scénarios joués : " + fr.listing([p for p in played if p]),
        "Tours joués : " + str(state.get("turns", 0)),
        "La Citadelle : "
        + ", ".join(f"{T.SCORE[k]} {v}" for k, v in cit.get("scores", {}).items() if k in T.SCORE),
        f"{T.ui('citadel.hope')} à dépenser : {cit.get('hope', 0)}",
        f"Quêtes secondaires terminées : {done}",
    ]
    if buildings:
        details.insert(4, "Bâtiments : " + fr.listing(buildings))
    return {
        "seat": None,
        "rank": 1,
        "name": "Le groupe : " + fr.listing(names),
        "score": len(played),
        "details": details,
    }


def standings(bundle: dict, state: dict, why: str) -> dict:
    """The end of the adventure (the Citadel's campaign): the group's line and what the
    chronicle keeps."""
    row = standing_row(bundle, state)
    return W.ranking(
        [{k: v for k, v in row.items() if k != "seat"}],
        "Fin de l'aventure : le bilan du groupe",
        why=why,
        carry=["La chronique garde l'épilogue de chaque scénario et la feuille de la Citadelle."],
    )


def chronicle(bundle: dict, state: dict) -> list[dict]:
    """The adventure so far: each scenario's epilogue and the Citadel sheet; once the
    adventure is over, its standings first."""
    out: list[dict] = []
    result = state.get("result")
    if state.get("phase") == "over" and result:
        why = T.WHY.get(result["why"], result["why"])
        out.append(standings(bundle, state, why[:1].upper() + why[1:] + "."))
    for e in state["epilogues"]:
        scen = rec.scenario(bundle, e["scenario"])
        branch: dict[str, Any] = next(
            (b for b in scen.get("epilogue") or [] if b["id"] == e["branch"]), {}
        )
        out.append(W.text(T.plain(branch.get("text", "")), scen.get("title"), area="main"))
    out.append(_citadel(bundle, state))
    return out


__all__: list[Any] = ["R", "chronicle", "narrate", "neighbour", "screen"]
