"""The choices of a Citadelle screen: each legal action once, grouped by what it is about.

During a turn, one block per conscious character (name, Terrain, hit points, what it holds)
with its main verbs first — the actions of its Terrain, its events and the exploration cards
next to it, then its moves — and its other gestures folded (Récupération, discarding, giving,
the magnifier, leaving).  A group action is offered once, with who leads it.  Moves that end
a scenario, spend the last hit points or discard for good are set apart and ask first."""

from __future__ import annotations

from ..core import widgets as W
from ..core.types import Choice, Group
from . import actions as A
from . import characters as C
from . import records as rec
from . import rules as R
from . import text_fr as T
from .board import DIRECTIONS, coords


def _title(bundle: dict, key: str) -> str:
    return rec.adv(bundle, key).get("title", "")


def _skill_title(bundle: dict, key: str) -> str:
    return rec.skill(bundle, key).get("title", "")


def _item_title(bundle: dict, key: str) -> str:
    return (
        _skill_title(bundle, key) if key in rec.recs(bundle, "action_card") else _title(bundle, key)
    )


def _direction(here: str | None, target: str) -> str:
    if here is None:
        return ""
    hx, hy = coords(here)
    tx, ty = coords(target)
    for name, (dx, dy) in DIRECTIONS.items():
        if (hx + dx, hy + dy) == (tx, ty):
            return T.DIRECTION[name]
    return ""


def _returns(spec: dict) -> bool:
    effects = list(spec.get("success") or [])
    for line in spec.get("lines") or []:
        effects += line.get("success") or []
    return any("return_to_citadel" in e for e in effects)


# --------------------------------------------------------------------------- labels


def act_label(bundle: dict, state: dict, action: dict) -> tuple[str, str]:
    """(label, help) of an action a character may undertake."""
    spec, ref = A.spec_of(bundle, state, action["source"], action["index"])
    spec = spec or {}
    kind = action["source"].partition(":")[0]
    if kind == "explore":
        cell = action["source"].partition(":")[2]
        ch = state["characters"][action["character"]]
        zone = (
            state["slots"][cell]["zone"]
            if state["slots"][cell].get("zone")
            else rec.exp(bundle, state["slots"][cell]["exploration"])["zone"]
        )
        return T.ui("explore", direction=_direction(ch["at"], cell), zone=zone), T.ui(
            "explore.help"
        )
    label = spec.get("title") or T.verb(spec.get("verb", "")).capitalize()
    if ref is not None and kind in ("hand", "purse", "quest", "global", "slot"):
        label += f" ({T.quoted(rec.record(bundle, ref).get('title', ''))})"
    if action["source"].startswith("slot:"):
        cell = action["source"].partition(":")[2]
        label += f" {_direction(state['characters'][action['character']]['at'], cell)}".rstrip()
    if spec.get("lines"):
        die = state["dice"].get(f"{ref['key']}#{action['index']}") if ref else None
        value = die["value"] if die else spec["lines"][0]["difficulty"]
        need = T.ui("die", n=value)
    else:
        need = T.ui(
            "difficulty",
            n=spec.get("difficulty", 0)
            + sum(t.get("difficulty", 0) for t in A.traits(bundle, spec)),
        )
    help_ = T.ui(
        "act.help",
        verb=T.verb(spec.get("verb", "")),
        cost=spec.get("cost", 0),
        chain=T.ui("chain") if spec.get("chain") else "",
        difficulty=need,
    )
    if spec.get("mandatory"):
        help_ += " · obligatoire"
    traits = [t.get("name", "") for t in A.traits(bundle, spec)]
    if traits:
        help_ += " · " + ", ".join(traits)
    return label, help_


def describe(bundle: dict, state: dict, action: dict) -> str:
    """A legal action as one line (its button, with the character's name when it has one)."""
    label = _label(bundle, state, action)[0]
    c = action.get("character")
    chars = state["characters"]
    if (
        action["type"] in ("act", "move", "examine", "search")
        and isinstance(c, int)
        and c < len(chars)
    ):
        return f"{chars[c]['name']} : {label}"
    return label


def _search_label(bundle: dict, state: dict, a: dict) -> tuple[str, str]:
    """A hidden number searched for, with the title of the card that showed it."""
    source = next((f["source"] for f in state.get("found") or [] if f["number"] == a["number"]), "")
    title = T.quoted(_title(bundle, source)) if source else ""
    return T.ui("search", number=a["number"], title=title), T.ui("search.help", title=title)


def _select_label(bundle: dict, a: dict) -> tuple[str, str]:
    """An action card or an adventure card chosen for the action under way, with its text."""
    r = rec.record(
        bundle,
        {"kind": "action_card", "key": a["item"]}
        if a["item"] in rec.recs(bundle, "action_card")
        else {"kind": "adventure", "key": a["item"]},
    )
    return T.ui("select", title=T.quoted(r.get("title", ""))), T.plain(r.get("text", ""))


def _count_label(state: dict, a: dict) -> str:
    """The successes a player counts: all of them when the count is right and enough, else
    fewer (none at all)."""
    tally = state["action"].get("tally") or {}
    ok = a["successes"] == tally.get("total") and tally.get("total", 0) >= tally.get("need", 0)
    n = a["successes"]
    counted = T.plural(n, "succès", "succès") if n < 2 else f"les {n} succès"
    if ok:
        return T.ui("count", n=counted, verdict=T.ui("verdict.ok"))
    if n == 0:
        return T.ui("fewer.none")
    return T.ui("fewer", n=T.plural(n, "succès", "succès"))


#: the actions whose label is their message alone, without help
_SAID_AS_IS = frozenset({"save", "prepared", "kept", "refuse"})


def _label(bundle: dict, state: dict, a: dict) -> tuple[str, str | None]:
    """(label, help) of any legal action."""
    chars = state["characters"]
    t = a["type"]
    name = (
        chars[a["character"]]["name"]
        if isinstance(a.get("character"), int) and 0 <= a["character"] < len(chars)
        else ""
    )
    mode = state["options"]["recovery"]
    if t == "act":
        return act_label(bundle, state, a)
    if t == "move":
        title = T.quoted(_title(bundle, state["board"][a["to"]]["terrain"]))
        return (
            T.ui("move", direction=_direction(chars[a["character"]]["at"], a["to"]), title=title),
            T.ui("move.help", cost=rec.rules(bundle)["move_cost"]),
        )
    if t == "examine":
        return T.ui("examine", title=T.quoted(_title(bundle, a["card"]))), T.ui("examine.help")
    if t == "search":
        return _search_label(bundle, state, a)
    if t == "recover":
        cost = R.recovery_cost(a["cards"], mode)
        return T.ui(
            "recover", cards=T.plural(a["cards"], "carte"), hp=T.plural(cost, "PV", "PV")
        ), None
    if t == "discard_skill":
        return T.ui("discard_skill", title=T.quoted(_skill_title(bundle, a["card"]))), T.plain(
            rec.skill(bundle, a["card"]).get("text", "")
        )
    if t == "drop":
        return T.ui("drop", title=T.quoted(_title(bundle, a["item"]))), None
    if t == "give":
        payer = name if a["payer"] == "giver" else chars[a["to"]]["name"]
        weight = rec.adv(bundle, a["item"]).get("weight", 0)
        return T.ui(
            "give",
            title=T.quoted(_title(bundle, a["item"])),
            to=chars[a["to"]]["name"],
            payer=payer,
            count=T.plural(weight, "carte"),
        ), None
    if t == "leave":
        return T.ui("leave", name=name), None
    if t == "active":
        ch = chars[a["character"]]
        return T.ui(
            "active", name=ch["name"], hp=ch["hp"], deck=T.plural(len(ch["deck"]), "carte")
        ), None
    if t == "select":
        return _select_label(bundle, a)
    if t == "draw":
        extra = " avec le tremblement" if a["tremor"] else ""
        return T.ui("draw", cards=T.plural(a["count"], "carte")) + extra, None
    if t == "count":
        return _count_label(state, a), None
    if t == "choose":
        para = rec.recs(bundle, "paragraph")[state["pending"]["paragraph"]]
        return T.ui("choose", text=T.quoted(T.plain(para["choices"][a["index"]]["text"]))), None
    if t == "close":
        para = rec.recs(bundle, "paragraph")[state["pending"]["paragraph"]]
        optional = any(not x.get("mandatory") for x in para.get("actions") or [])
        return T.ui("close.decline" if optional and not para.get("end") else "close"), None
    if t == "receive":
        return T.ui("receive", name=name), None
    if t in _SAID_AS_IS:
        return T.ui(t), None
    if t in ("keep", "discard", "banish"):
        r = rec.skill(bundle, a["card"])
        return T.ui(t, title=T.quoted(r.get("title", ""))), T.plain(r.get("text", "")) or None
    if t == "depart":
        nxt = state.get("next_scenario")
        if nxt:
            return T.ui("depart", title=T.quoted(rec.scenario(bundle, nxt).get("title", ""))), None
        return T.ui("depart.end"), None
    if t == "destiny":
        entry = rec.recs(bundle, "destiny")[a["entry"]]
        return T.ui("destiny", title=T.quoted(entry["title"]), name=name), T.plain(entry["text"])
    if t == "join":
        return T.ui("join", name=rec.recs(bundle, "character")[a["id"]]["name"]), None
    return t, None  # pragma: no cover


def _choice(
    bundle: dict,
    state: dict,
    i: int,
    a: dict,
    *,
    tone: str | None = None,
    confirm: str | None = None,
    label: str | None = None,
) -> Choice:
    text, help_ = _label(bundle, state, a)
    return W.choice(i, label or text, help=help_, tone=tone, confirm=confirm)


# --------------------------------------------------------------------------- confirmations


def _recover_confirm(state: dict, a: dict) -> str | None:
    ch = state["characters"][a["character"]]
    cost = R.recovery_cost(a["cards"], state["options"]["recovery"])
    if cost >= ch["hp"]:
        out = T.agree(ch.get("gender"), "inconscient", "inconsciente")
        pronoun = T.agree(ch.get("gender"), "le", "la")
        return T.ui("confirm.recover", name=ch["name"], hp=ch["hp"], out=out, pronoun=pronoun)
    return None


def _home_confirm(bundle: dict, state: dict, a: dict) -> str:
    scen = rec.scenario(bundle, state.get("scenario"))
    total = len(scen.get("objectives") or [])
    done = len([o for o in scen.get("objectives") or [] if o["id"] in state["objectives"]])
    label = act_label(bundle, state, a)[0]
    return T.ui("confirm.home", title=label, done=done, total=total)


# --------------------------------------------------------------------------- groups

#: choices a screen shows at once (an open group's buttons, a form counting for one); past it,
#: groups fold
MAX_VISIBLE = 16


def visible_choices(groups: list[Group]) -> int:
    """The choices in view: those of the open groups (a form is one)."""
    return sum(
        1 if g["kind"] == "form" else len(g["choices"]) for g in groups if not g.get("folded")
    )


def _fit(out: list[Group], foldable: list[Group | None]) -> list[Group]:
    """Fold the groups of ``foldable``, in that order, until at most ``MAX_VISIBLE`` choices are
    in view."""
    for g in foldable:
        if visible_choices(out) <= MAX_VISIBLE:
            break
        if g is not None:
            g["folded"] = True
    return out


def groups(bundle: dict, state: dict, actions: list[dict]) -> list[Group]:
    p = state.get("pending") or {}
    t = p.get("type")
    if t == "turn":
        return _turn(bundle, state, actions)
    if t == "citadel":
        return _citadel(bundle, state, actions)
    if t in ("prepare", "draw", "dialogue"):
        return _with_free(bundle, state, actions, t)
    if t == "result":
        return _result(bundle, state, actions)
    heading = {
        "active": "group.active",
        "keep": "group.keep",
        "receive": "group.receive",
        "hand_limit": "group.hand_limit",
        "banish": "group.banish",
    }.get(t or "")
    entries = []
    for i, a in enumerate(actions):
        confirm = None
        if a["type"] == "banish":
            confirm = T.ui("confirm.banish", title=T.quoted(_skill_title(bundle, a["card"])))
        elif a["type"] == "refuse":
            confirm = T.ui("confirm.refuse", title=T.quoted(_title(bundle, p["key"])))
        tone = "main" if a["type"] in ("active", "receive", "keep") else None
        entries.append(_choice(bundle, state, i, a, tone=tone, confirm=confirm))
    if not entries:
        return []
    help_ = T.ui("group.active.help") if t == "active" else None
    return [W.group(T.ui(heading) if heading else "", W.unique_labels(entries), help=help_)]


def _free_groups(
    bundle: dict, state: dict, actions: list[dict], indexes: list[int], by_name: bool
) -> list[Group]:
    """The gestures allowed at any time, folded."""
    chars = state["characters"]
    entries = []
    for i in indexes:
        a = actions[i]
        text, help_ = _label(bundle, state, a)
        if by_name:
            text = f"{chars[a['character']]['name']} : {text}"
        confirm = None
        if a["type"] == "recover":
            confirm = _recover_confirm(state, a)
        elif a["type"] == "drop":
            confirm = T.ui("confirm.drop", title=T.quoted(_title(bundle, a["item"])))
        entries.append(
            W.choice(i, text, help=help_, confirm=confirm, tone="danger" if confirm else None)
        )
    if not entries:
        return []
    return [
        W.group(
            T.ui("group.free"), W.unique_labels(entries), help=T.ui("group.free.help"), folded=True
        )
    ]


FREE = ("recover", "discard_skill", "drop")


def _with_free(bundle: dict, state: dict, actions: list[dict], t: str) -> list[Group]:
    free = [i for i, a in enumerate(actions) if a["type"] in FREE]
    rest = [i for i, a in enumerate(actions) if a["type"] not in FREE]
    out: list[Group] = []
    if t == "draw":
        out += _draw(bundle, state, actions, rest)
    elif t == "prepare":
        entries = [
            _choice(
                bundle,
                state,
                i,
                actions[i],
                tone="main" if actions[i]["type"] == "prepared" else None,
            )
            for i in rest
        ]
        out.append(
            W.group(
                T.ui("group.prepare"), W.unique_labels(entries), help=T.ui("group.prepare.help")
            )
        )
    else:
        talk = [
            _choice(bundle, state, i, actions[i], tone="main")
            for i in rest
            if actions[i]["type"] == "choose"
        ]
        acts = [_choice(bundle, state, i, actions[i]) for i in rest if actions[i]["type"] == "act"]
        close = [
            _choice(bundle, state, i, actions[i]) for i in rest if actions[i]["type"] == "close"
        ]
        if talk:
            out.append(W.group(T.ui("group.dialogue"), W.unique_labels(talk)))
        if acts or close:
            out.append(
                W.group(
                    T.ui("group.dialogue.actions") if acts else T.ui("group.dialogue"),
                    W.unique_labels(acts + close),
                )
            )
    return out + _free_groups(bundle, state, actions, free, by_name=True)


def _draw(bundle: dict, state: dict, actions: list[dict], rest: list[int]) -> list[Group]:
    action = state["action"]
    ch = state["characters"][action["character"]]
    mode = state["options"]["recovery"]
    step, per = R.recovery_step(mode), R.hp_per_series(mode)
    deck = len(ch["deck"])

    def forced(n: int) -> int:
        missing = max(0, n - deck)
        return -(-missing // step) * per if missing else 0

    tremor_any = any(actions[i]["tremor"] for i in rest)
    plain_, more, deadly = [], [], []
    for i in rest:
        a = actions[i]
        cost = forced(a["count"])
        fields = {"count": a["count"], "tremor": "yes" if a["tremor"] else "no"}
        label = _label(bundle, state, a)[0]
        if cost and cost >= ch["hp"]:
            faint = T.agree(ch.get("gender"), "inconscient", "inconsciente")
            confirm = T.ui(
                "confirm.draw", hp=T.plural(cost, "PV", "PV"), name=ch["name"], out=faint
            )
            deadly.append(W.choice(i, label, confirm=confirm, tone="danger"))
        elif cost:
            more.append(W.choice(i, label, fields=fields))
        else:
            plain_.append(W.choice(i, label, fields=fields))
    asked = [W.form_field("count", T.ui("field.count"), "stepper")]
    if tremor_any:
        asked.append(
            W.form_field(
                "tremor",
                T.ui("field.tremor"),
                "select",
                options=[
                    {"value": "no", "label": T.ui("field.tremor.no")},
                    {"value": "yes", "label": T.ui("field.tremor.yes")},
                ],
            )
        )
    out: list[Group] = []
    if plain_:
        out.append(W.form(T.ui("group.draw"), asked, plain_, submit=T.ui("submit.draw")))
    if more:
        out.append(
            W.form(
                T.ui("group.draw.more"),
                asked,
                more,
                submit=T.ui("submit.draw"),
                folded=bool(plain_),
                help=T.ui("draw.beyond", cards=T.plural(deck, "carte")),
            )
        )
    if deadly:
        out.append(
            W.group(T.ui("group.draw.more"), W.unique_labels(deadly), folded=bool(plain_ or more))
        )
    return out


def _result(bundle: dict, state: dict, actions: list[dict]) -> list[Group]:
    tally = state["action"].get("tally") or {}
    main, fewer = [], []
    for i, a in enumerate(actions):
        if a["successes"] == tally.get("total"):
            main.append(_choice(bundle, state, i, a, tone="main"))
        else:
            fewer.append(_choice(bundle, state, i, a, confirm=T.ui("confirm.fewer"), tone="danger"))
    out = [W.group(T.ui("group.result"), main)]
    if fewer:
        out.append(
            W.group(
                T.ui("group.fewer"),
                W.unique_labels(fewer),
                help=T.ui("group.fewer.help"),
                folded=True,
            )
        )
    return out


def _character_help(bundle: dict, state: dict, ch: dict) -> str:
    hand = T.names([T.quoted(_skill_title(bundle, k)) for k in ch["hand"]]) or "vide"
    purse = (
        T.names([T.quoted(_title(bundle, k)) for k in ch["purse"] + ch["purse_blocked"]]) or "vide"
    )
    weight = (
        f" (poids {C.weight(bundle, ch)}/{C.carry(bundle, state, ch)})"
        if ch["purse"] or ch["purse_blocked"]
        else ""
    )
    return T.ui("group.character.help", hand=hand, purse=purse + weight)


def _turn(bundle: dict, state: dict, actions: list[dict]) -> list[Group]:
    chars = state["characters"]
    out: list[Group] = []
    home: list[Choice] = []
    together: dict[tuple[str, int], list[tuple[int, dict]]] = {}
    saves: list[Choice] = []
    blocks: dict[int, tuple[list[Choice], list[Choice], list[Choice]]] = {
        c: ([], [], []) for c in range(len(chars))
    }
    for i, a in enumerate(actions):
        t = a["type"]
        if t == "save":
            saves.append(_choice(bundle, state, i, a, confirm=T.ui("confirm.save")))
            continue
        c: int = a["character"]
        main, moves, other = blocks[c]
        if t == "act":
            spec, _ = A.spec_of(bundle, state, a["source"], a["index"])
            if spec and _returns(spec):
                label = f"{chars[c]['name']} : {act_label(bundle, state, a)[0]}"
                home.append(
                    _choice(
                        bundle,
                        state,
                        i,
                        a,
                        label=label,
                        tone="danger",
                        confirm=_home_confirm(bundle, state, a),
                    )
                )
            elif spec and spec.get("group"):
                together.setdefault((a["source"], a["index"]), []).append((i, a))
            else:
                main.append(_choice(bundle, state, i, a, tone="main"))
        elif t == "search":
            main.append(_choice(bundle, state, i, a, tone="main"))
        elif t == "move":
            moves.append(_choice(bundle, state, i, a))
        elif t == "leave":
            name = chars[c]["name"]
            other.append(
                _choice(
                    bundle, state, i, a, tone="danger", confirm=T.ui("confirm.leave", name=name)
                )
            )
        elif t == "recover":
            other.append(_choice(bundle, state, i, a, confirm=_recover_confirm(state, a)))
        elif t == "drop":
            other.append(
                _choice(
                    bundle,
                    state,
                    i,
                    a,
                    confirm=T.ui("confirm.drop", title=T.quoted(_title(bundle, a["item"]))),
                )
            )
        else:
            other.append(_choice(bundle, state, i, a))
    character_groups: list[Group] = []
    for c, ch in enumerate(chars):
        main, moves, other = blocks[c]
        if main or moves:
            heading = T.ui(
                "group.character", name=ch["name"], where=_where(bundle, state, ch), hp=ch["hp"]
            )
            block = W.group(
                heading, W.unique_labels(main + moves), help=_character_help(bundle, state, ch)
            )
            character_groups.append(block)
            out.append(block)
        if other:
            out.append(
                W.group(
                    T.ui("group.other", name=ch["name"]),
                    W.unique_labels(other),
                    help=T.ui("group.other.help"),
                    folded=True,
                )
            )
    for entries in together.values():
        label, help_ = act_label(bundle, state, entries[0][1])
        field = W.form_field(
            "leader",
            T.ui("field.leader"),
            "select",
            options=[
                {"value": a["character"], "label": chars[a["character"]]["name"]}
                for _, a in entries
            ],
        )
        choices = [
            W.choice(
                i, f"{label} ({chars[a['character']]['name']})", fields={"leader": a["character"]}
            )
            for i, a in entries
        ]
        out.append(
            W.form(
                f"{T.ui('group.together')} : {label}",
                [field],
                choices,
                submit=T.ui("submit.together"),
                help=f"{T.ui('group.together.help')} {help_}.",
            )
        )
    home_group = None
    if home:
        home_group = W.group(
            T.ui("group.home"), W.unique_labels(home), help=T.ui("group.home.help")
        )
        out.append(home_group)
    if saves:
        out.append(W.group(T.ui("group.save"), saves, help=T.ui("group.save.help"), folded=True))
    # room for every choice in view: the moves that end the scenario fold first, then the
    # blocks of the last characters (the first one always stays open)
    return _fit(out, [home_group, *reversed(character_groups[1:])])


def _where(bundle: dict, state: dict, ch: dict) -> str:
    spot = state["board"].get(ch["at"] or "")
    return _title(bundle, spot["terrain"]) if spot else "hors du Plateau"


def _citadel(bundle: dict, state: dict, actions: list[dict]) -> list[Group]:
    chars = state["characters"]
    destiny = [(i, a) for i, a in enumerate(actions) if a["type"] == "destiny"]
    team = [(i, a) for i, a in enumerate(actions) if a["type"] in ("leave", "join")]
    depart = [(i, a) for i, a in enumerate(actions) if a["type"] == "depart"]
    out = []
    if destiny:
        pages = rec.recs(bundle, "destiny")
        options_entry = []
        for _, a in destiny:
            e = pages[a["entry"]]
            opt = {"value": a["entry"], "label": f"{e['title']} (coût {e['cost']})"}
            if opt not in options_entry:
                options_entry.append(opt)
        options_for = [{"value": c, "label": ch["name"]} for c, ch in enumerate(chars)]
        choices = [
            W.choice(
                i, _label(bundle, state, a)[0], fields={"entry": a["entry"], "for": a["character"]}
            )
            for i, a in destiny
        ]
        out.append(
            W.form(
                T.ui("group.destiny"),
                [
                    W.form_field("entry", T.ui("field.entry"), "select", options_entry),
                    W.form_field("for", T.ui("field.for"), "select", options_for),
                ],
                choices,
                submit=T.ui("submit.destiny"),
                help=T.ui("group.destiny.help"),
            )
        )
    if team:
        entries = []
        for i, a in team:
            if a["type"] == "leave":
                name = chars[a["character"]]["name"]
                entries.append(
                    _choice(
                        bundle,
                        state,
                        i,
                        a,
                        tone="danger",
                        confirm=T.ui("confirm.leave.citadel", name=name),
                    )
                )
            else:
                entries.append(_choice(bundle, state, i, a))
        out.append(
            W.group(T.ui("group.team"), W.unique_labels(entries), help=T.ui("group.team.help"))
        )
    out.append(
        W.group(
            T.ui("group.depart"),
            [
                _choice(bundle, state, i, a, tone="main", confirm=T.ui("confirm.depart"))
                for i, a in depart
            ],
        )
    )
    return out
