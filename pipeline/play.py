"""``gamebook play``: play a campaign in the terminal, in French.

The engine does the rules; this module only prints views and reads choices.  With no human
seat it reads nothing from standard input and prints the same text for the same seed.

Saves are JSON files ``{"format_version", "game", "campaign_id", "seed", "state"}`` written
atomically after every action; an existing file that is not a save of the same game is never
overwritten.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from engine.dilemme import apply, legal_actions, new_campaign, new_game
from engine.dilemme import bots as dbots
from engine.dilemme import text_fr as T

from . import compile as comp
from .findings import has_errors
from .report import check

SAVE_FORMAT = 1


class PlayError(Exception):
    """A problem the player must fix (exit 2): bad save file, bad script line..."""


def _bundle(content: Path, game: str) -> dict:
    report = check(content)
    sg = report.graphs.get(game)
    if sg is None:
        raise PlayError(f"pas de campagne « {game} » dans {content}")
    if has_errors(report.findings_of(game)):
        folder = sg.campaign.folder
        raise PlayError(
            f"la campagne « {game} » a des erreurs : lancez « gamebook check {folder} »"
        )
    return json.loads(json.dumps(comp.bundle(sg), ensure_ascii=False))


def _read_save(path: Path, game: str) -> dict | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlayError(
            f"{path} existe mais n'est pas une sauvegarde lisible ({exc}) ; choisissez un autre "
            "fichier, il ne sera pas écrasé"
        ) from exc
    if not isinstance(data, dict) or data.get("game") != game or "state" not in data:
        raise PlayError(f"{path} n'est pas une sauvegarde de {game} ; il ne sera pas écrasé")
    if data.get("format_version", 0) > SAVE_FORMAT:
        raise PlayError(f"{path} vient d'une version plus récente de gamebook")
    return data


def _write_save(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _script_lines(path: Path) -> Iterator[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PlayError(f"impossible de lire le script {path} : {exc.strerror}") from exc
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


class Console:
    """Where choices come from: a script first, then the keyboard (if a human plays)."""

    def __init__(self, out: TextIO, script: Iterator[str] | None, interactive: bool) -> None:
        self.out, self.script, self.interactive = out, script, interactive

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str) -> str:
        if self.script is not None:
            try:
                line = next(self.script)
                self.say(f"{prompt} {line}")
                return line
            except StopIteration:
                self.script = None
        if not self.interactive:
            raise PlayError("le script est terminé alors qu'un joueur humain doit choisir")
        print(prompt + " ", end="", file=self.out, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise PlayError("entrée terminée")
        return line.strip()


# =========================================================================== Dilemme


def _board(state: dict) -> list[str]:
    res = " · ".join(
        f"{T.RESOURCE_NAME[r]} {m['pos']}{'↑' if m['dir'] > 0 else '↓'}{'+' if m['marker'] else ''}"
        for r, m in state["resources"].items()
    )
    lines = [
        f"{T.ui('board.resources')} : {res}",
        f"{T.ui('board.stability')} : {state['stability']} · {T.ui('board.balance')} : "
        f"{state['balance']} · {T.ui('board.deck')} : {len(state['deck'])} · Frise : "
        f"{len(state['timeline'])}",
    ]
    for i, s in enumerate(state["seats"]):
        marks = []
        if i == state["leader"]:
            marks.append("Meneur")
        if i == state["moderator"]:
            marks.append("Modérateur")
        toks = (
            " · objectifs publics : "
            + ", ".join(
                f"{T.RESOURCE_NAME[r]}{'+' if p == 'positive' else '−'}" for r, p in s["public"]
            )
            if s["public"]
            else ""
        )
        tag = f" [{', '.join(marks)}]" if marks else ""
        lines.append(
            "  "
            + T.ui("house.line", name=s["name"], power=s["power"], coins=s["coins"], tokens=toks)
            + tag
        )
    return lines


def _card_text(bundle: dict, state: dict) -> list[str]:
    vote = state.get("vote")
    if not vote:
        return []
    card = bundle["records"]["dilemma"].get(vote["card"], {})
    prev = card.get("preview", {})
    return [
        f"« {card.get('title', '')} » — {card.get('question', '')}",
        f"  Oui-Da : {prev.get('oui_da', '')}",
        f"  Nenni : {prev.get('nenni', '')}",
    ]


def _human_choice(con: Console, bundle: dict, state: dict, seat: int, humans: int) -> dict:
    s = state["seats"][seat]
    names = [x["name"] for x in state["seats"]]
    if humans > 1 and con.script is None:
        con.ask(T.ui("pass_device", house=s["name"]) + " (Entrée)")
    con.say("")
    for line in _board(state) + _card_text(bundle, state):
        con.say(line)
    if s["objective"]:
        con.say(f"Votre Objectif secret : {T.OBJECTIVE.get(s['objective'], s['objective'])}")
    actions = legal_actions(bundle, state, seat, gifts=False)
    con.say(T.ui("your_turn", house=s["name"]))
    for i, a in enumerate(actions, 1):
        con.say(f"  {i}. {T.describe_action(a, names)}")
    con.say(
        "  (ou « don N M » : donner N pièces au siège M)"
        if state["pending"]["type"] == "vote"
        else ""
    )
    while True:
        line = con.ask(T.ui("choose") + " :")
        if line.startswith("{"):
            try:
                action = json.loads(line)
            except json.JSONDecodeError:
                action = None
            if action in actions or (isinstance(action, dict) and action.get("type") == "give"):
                return action
        parts = line.split()
        if len(parts) == 3 and parts[0] == "don" and parts[1].isdigit() and parts[2].isdigit():
            return {"type": "give", "seat": seat, "to": int(parts[2]) - 1, "coins": int(parts[1])}
        if line.isdigit() and 1 <= int(line) <= len(actions):
            return actions[int(line) - 1]
        if con.script is not None or not con.interactive:
            raise PlayError(f"choix invalide dans le script : {line!r}")
        con.say(T.ui("invalid"))


def play_dilemme(
    content: Path,
    seed: str,
    players: int,
    bots: int,
    script: Path | None,
    save: Path | None,
    out: TextIO,
    interactive: bool,
) -> int:
    bundle = _bundle(content, "dilemme")
    saved = _read_save(save, "dilemme") if save else None
    if saved is not None:
        state = saved["state"]
        seed = saved["seed"]
    else:
        houses = sorted(
            bundle["records"].get("house", {}),
            key=lambda h: bundle["records"]["house"][h].get("number", 0),
        )
        n = max(players, bots)
        if not 3 <= n <= 5 or n > len(houses):
            raise PlayError(f"il faut de 3 à 5 Maisons (et au plus {len(houses)}), pas {n}")
        campaign = new_campaign(bundle, seed)
        seats = [{"house": h, "bot": i >= n - bots} for i, h in enumerate(houses[:n])]
        state = new_game(bundle, campaign, seats, seed)
    humans = sum(1 for s in state["seats"] if not s["bot"])
    con = Console(out, _script_lines(script) if script else None, interactive and humans > 0)
    shown = 0

    def flush() -> None:
        nonlocal shown
        for entry in state["log"][shown:]:
            con.say(T.render(entry))
        shown = len(state["log"])

    def persist() -> None:
        if save:
            _write_save(
                save,
                {
                    "format_version": SAVE_FORMAT,
                    "game": "dilemme",
                    "campaign_id": bundle["campaign"]["id"],
                    "seed": seed,
                    "state": state,
                },
            )

    while True:
        flush()
        while state["pending"] is not None:
            seat = state["pending"]["seat"]
            if state["seats"][seat]["bot"]:
                action = dbots.choose(bundle, state, seat)
            else:
                action = _human_choice(con, bundle, state, seat, humans)
            try:
                state = apply(bundle, state, action)
            except ValueError as exc:
                if not con.interactive or con.script is not None:
                    raise PlayError(str(exc)) from exc
                con.say(f"Action refusée : {exc}")
                continue
            flush()
            persist()
        _print_scores(con, state)
        camp = state["campaign"]
        persist()
        if camp["finished"] or humans == 0:
            con.say(T.ui("campaign.over") if camp["finished"] else "")
            return 0
        answer = con.ask("Jouer la partie suivante de la campagne ? (o/n) :")
        if not answer.lower().startswith("o"):
            return 0
        seats = [{"house": s["house"], "name": s["name"], "bot": s["bot"]} for s in state["seats"]]
        state = new_game(bundle, camp, seats, seed)
        shown = 0
        con.say(T.ui("campaign.next"))


# =========================================================================== Citadelle


def _citadelle_board(bundle: dict, state: dict) -> list[str]:
    from engine.citadelle import text_fr as CT

    recs = bundle["records"]
    adv = recs.get("adventure_card", {})
    cit = state["citadel"]
    scores = " · ".join(f"{CT.SCORE[k]} {v}" for k, v in cit["scores"].items())
    lines = [f"Citadelle : {scores} · espoir {cit['hope']} · tremblement {cit['tremor']}"]
    for key, spot in sorted(state["board"].items()):
        here = [c["name"] for c in state["characters"] if c["at"] == key]
        events = ", ".join(
            adv[e["key"]].get("title") or str(adv[e["key"]]["number"]) for e in spot["events"]
        )
        title = adv[spot["terrain"]].get("title") or str(adv[spot["terrain"]]["number"])
        extra = f" [événements : {events}]" if events else ""
        people = f" ← {', '.join(here)}" if here else ""
        lines.append(f"  ({key}) {title}{extra}{people}")
    for key, slot in sorted(state["slots"].items()):
        if not slot.get("revealed") and slot.get("exploration"):
            zone = recs["exploration_card"][slot["exploration"]]["zone"]
            lines.append(f"  ({key}) carte Exploration, zone {zone}, face cachée")
    for c in state["characters"]:
        hand = ", ".join(recs.get("action_card", {}).get(k, {}).get("title", k) for k in c["hand"])
        purse = ", ".join(adv[k].get("title") or str(adv[k]["number"]) for k in c["purse"])
        status = "" if c["conscious"] else " (inconscient)"
        lines.append(
            f"  {c['name']}{status} : {c['hp']} PV · deck {len(c['deck'])} · défausse "
            f"{len(c['discard'])} · main [{hand}] · bourse [{purse}]"
        )
    if state["quest_items"]:
        items = ", ".join(
            adv[k].get("title") or str(adv[k]["number"]) for k in state["quest_items"]
        )
        lines.append(f"  Objets de quête : {items}")
    return lines


def play_citadelle(
    content: Path,
    seed: str,
    characters: int,
    auto: bool,
    script: Path | None,
    save: Path | None,
    out: TextIO,
    interactive: bool,
) -> int:
    from engine.citadelle import apply as capply
    from engine.citadelle import auto as cauto
    from engine.citadelle import legal_actions as clegal
    from engine.citadelle import new_game as cnew
    from engine.citadelle import text_fr as CT

    bundle = _bundle(content, "citadelle")
    saved = _read_save(save, "citadelle") if save else None
    if saved is not None:
        state, seed = saved["state"], saved["seed"]
    else:
        ids = sorted(bundle["records"].get("character", {}))
        if not 1 <= characters <= min(4, len(ids)):
            raise PlayError(f"il faut de 1 à {min(4, len(ids))} personnages, pas {characters}")
        state = cnew(bundle, ids[:characters], seed)
    con = Console(out, _script_lines(script) if script else None, interactive and not auto)
    shown = 0

    def flush() -> None:
        nonlocal shown
        for entry in state["log"][shown:]:
            con.say(CT.render(entry))
        shown = len(state["log"])

    while state["pending"] is not None:
        flush()
        if auto:
            action = cauto.choose(bundle, state)
        else:
            actions = clegal(bundle, state)
            con.say("")
            for line in _citadelle_board(bundle, state):
                con.say(line)
            con.say(CT.ui("turn"))
            for i, a in enumerate(actions, 1):
                con.say(f"  {i}. {CT.describe(bundle, state, a)}")
            while True:
                line = con.ask(CT.ui("choose") + " :")
                if line.isdigit() and 1 <= int(line) <= len(actions):
                    action = actions[int(line) - 1]
                    break
                if line.startswith("{"):
                    try:
                        action = json.loads(line)
                        break
                    except json.JSONDecodeError:
                        pass
                if con.script is not None or not con.interactive:
                    raise PlayError(f"choix invalide dans le script : {line!r}")
                con.say(CT.ui("invalid"))
        try:
            state = capply(bundle, state, action)
        except ValueError as exc:
            if auto or not con.interactive or con.script is not None:
                raise PlayError(str(exc)) from exc
            con.say(f"Action refusée : {exc}")
            continue
        if save:
            _write_save(save, {"format_version": SAVE_FORMAT, "game": "citadelle",
                               "campaign_id": bundle["campaign"]["id"], "seed": seed,
                               "state": state})  # fmt: skip
    flush()
    return 0


def _print_scores(con: Console, state: dict) -> None:
    result = state.get("result")
    if not result:
        return
    con.say("")
    con.say(T.ui("scores.title") + f" — {T.ENDING[result['ending']]}")
    for row in sorted(result["rows"], key=lambda r: r["rank"]):
        con.say("  " + T.ui("scores.row", **row))


def main(args: Any, out: TextIO = sys.stdout) -> int:
    common = {
        "content": Path(args.content),
        "seed": str(args.seed),
        "script": Path(args.script) if args.script else None,
        "save": Path(args.save) if args.save else None,
        "out": out,
        "interactive": sys.stdin.isatty() or args.script is None,
    }
    if args.game == "dilemme":
        return play_dilemme(players=args.players, bots=args.bots, **common)
    if args.game == "citadelle":
        return play_citadelle(characters=args.characters, auto=args.auto, **common)
    raise PlayError(f"jeu inconnu « {args.game} » : dilemme ou citadelle")
