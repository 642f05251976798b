"""What the browser page calls, through Pyodide.  Standard library only.

The page keeps one ``Session`` per play page.  Every call takes and returns JSON text (no
proxies to juggle) and returns a *screen*: everything the page draws — the story text, the
log lines, the board as plain data, and the choices as buttons with their French labels and
the exact action to send back.  No rule lives in JavaScript.

Saves are ``{"format": "gamebook-save", "version": SAVE_VERSION, "game", "campaign",
"state", "history"}``; ``load`` refuses anything else with a French message and leaves the
session untouched.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .bundle import load_bundle
from .citadelle import game as cgame
from .citadelle import text_fr as CT
from .citadelle.auto import choose as cauto
from .dilemme import bots as dbots
from .dilemme import game as dgame
from .dilemme import text_fr as DT

SAVE_FORMAT = "gamebook-save"
SAVE_VERSION = 1  # 1 — first save format
UNDO_DEPTH = 20
MAX_SAVE_BYTES = 20_000_000
# Real saves nest 8-9 deep. Python's json recursion in Pyodide overflows the browser's own
# stack (a fatal error, not a RecursionError) somewhere between 5,000 and 10,000 levels.
MAX_SAVE_DEPTH = 100
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class SaveError(ValueError):
    """A save file the session refuses (the message is shown to the player as is)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Session:
    """One game in a page.  ``Session(game, bundle_text)`` then ``start_json``/``act_json``."""

    def __init__(self, game: str, bundle_text: str) -> None:
        if game not in ("dilemme", "citadelle"):
            raise ValueError(f"unknown game {game!r}")
        self.game = game
        self.bundle = load_bundle(bundle_text)
        self.state: dict | None = None
        self.history: list[dict] = []
        self.shown = 0
        self.last_human: int | None = None

    # ------------------------------------------------------------------ public calls

    def start_json(self, setup_text: str) -> str:
        setup = json.loads(setup_text)
        if self.game == "dilemme":
            campaign = setup.get("campaign") or dgame.new_campaign(
                self.bundle, setup.get("seed", 0)
            )
            houses = setup.get("houses") or self.default_houses()
            self.state = dgame.new_game(self.bundle, campaign, houses, setup.get("seed", 0))
        else:
            chars = setup.get("characters") or sorted(self.bundle["records"]["character"])[:2]
            self.state = cgame.new_game(
                self.bundle, chars, setup.get("seed", 0), names=setup.get("names"),
                recovery=setup.get("recovery", "normal"),
            )  # fmt: skip
            self.state["auto"] = bool(setup.get("auto"))
        self.history = []
        self.shown = 0
        self._run_bots()
        return _dumps(self.screen(fresh=True))

    def act_json(self, action_text: str) -> str:
        assert self.state is not None
        action = json.loads(action_text)
        before = self.state
        try:
            self.state = self._apply(action)
        except ValueError as exc:
            return _dumps({**self.screen(), "error": str(exc)})
        self.history.append(before)
        del self.history[:-UNDO_DEPTH]
        self._run_bots()
        return _dumps(self.screen())

    def undo_json(self) -> str:
        """Back to the state before the last human action (bots' moves after it included)."""
        if self.history:
            self.state = self.history.pop()
            self.shown = 0
        return _dumps(self.screen(fresh=True))

    def save_json(self) -> str:
        assert self.state is not None
        return _dumps({
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "campaign": self.bundle["campaign"]["id"],
            "state": self.state,
            "history": self.history[-3:],
        })  # fmt: skip

    def load_json(self, text: str) -> str:
        """Restore a save; a refused file leaves the current game untouched."""
        try:
            state, history = self._validate(text)
        except SaveError as exc:
            return _dumps({"error": str(exc)})
        self.state, self.history, self.shown = state, history, 0
        return _dumps(self.screen(fresh=True))

    def screen_json(self) -> str:
        return _dumps(self.screen(fresh=True))

    def chronicle_json(self) -> str:
        """The campaign so far, for the chronicle page."""
        if self.state is None:
            return _dumps({})
        if self.game == "dilemme":
            return _dumps(self._dilemme_chronicle())
        return _dumps(self._citadelle_chronicle())

    # ------------------------------------------------------------------ helpers

    def default_houses(self) -> list[dict]:
        houses = sorted(self.bundle["records"]["house"].values(), key=lambda h: h["number"])
        return [{"house": h["id"], "bot": i > 0} for i, h in enumerate(houses[:4])]

    def _apply(self, action: dict) -> dict:
        assert self.state is not None
        if self.game == "dilemme":
            return dgame.apply(self.bundle, self.state, action)
        return cgame.apply(self.bundle, self.state, action)

    def _run_bots(self) -> None:
        state = self.state
        assert state is not None
        guard = 0
        if self.game == "dilemme":
            while state["pending"] is not None and state["seats"][state["pending"]["seat"]]["bot"]:
                state = dgame.apply(
                    self.bundle, state, dbots.choose(self.bundle, state, state["pending"]["seat"])
                )
                guard += 1
                if guard > 5000:  # pragma: no cover
                    break
        elif state.get("auto"):
            while state["pending"] is not None and guard < 50:
                state = cgame.apply(self.bundle, state, cauto(self.bundle, state))
                guard += 1
        self.state = state

    def _validate(self, text: str) -> tuple[dict, list[dict]]:
        if not isinstance(text, str) or len(text) > MAX_SAVE_BYTES:
            raise SaveError("Ce fichier est trop volumineux pour être une sauvegarde.")
        try:
            if _nesting(text) > MAX_SAVE_DEPTH:
                raise ValueError("nested too deep")
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise SaveError("Ce fichier n'est pas une sauvegarde lisible (JSON invalide).") from exc
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("Ce fichier n'est pas une sauvegarde de gamebook.")
        version = data.get("version")
        if not isinstance(version, int) or version > SAVE_VERSION:
            raise SaveError(
                "Cette sauvegarde vient d'une version plus récente du site : mettez la page à jour."
            )
        data = migrate(data)
        if data.get("game") != self.game:
            raise SaveError(
                f"Cette sauvegarde est une partie de « {data.get('game')} », pas de ce jeu."
            )
        if data.get("campaign") != self.bundle["campaign"]["id"]:
            raise SaveError("Cette sauvegarde appartient à une autre campagne.")
        state = data.get("state")
        history = data.get("history") or []
        if not isinstance(state, dict) or not isinstance(history, list):
            raise SaveError("Cette sauvegarde est incomplète.")
        for candidate in [state, *history]:
            self._check_state(candidate)
        return state, [h for h in history if isinstance(h, dict)]

    def _check_state(self, state: Any) -> None:
        """A hostile or damaged state must fail here, not later in the middle of a game."""
        module = dgame if self.game == "dilemme" else cgame
        if not isinstance(state, dict) or state.get("game") != self.game:
            raise SaveError("Cette sauvegarde est endommagée.")
        if (
            not isinstance(state.get("format_version"), int)
            or state["format_version"] > module.FORMAT_VERSION
        ):
            raise SaveError("Cette sauvegarde vient d'une version plus récente du moteur.")
        try:
            module.legal_actions(self.bundle, state)
            module.view(self.bundle, state, None)
            # one round trip through the engine proves the state is coherent
            json.loads(json.dumps(state))
        except Exception as exc:  # any inconsistency, whatever it is, refuses the file
            raise SaveError(
                "Cette sauvegarde est endommagée ou modifiée : elle ne peut pas être chargée."
            ) from exc

    # ------------------------------------------------------------------ screens

    def screen(self, fresh: bool = False) -> dict:
        assert self.state is not None
        if fresh:
            self.shown = 0
        out = self._dilemme_screen() if self.game == "dilemme" else self._citadelle_screen()
        out["can_undo"] = bool(self.history)
        out["fresh"] = fresh  # the log holds the whole game, not just what is new
        return out

    def _new_log(self, render) -> list[str]:
        entries = self.state["log"][self.shown :]
        self.shown = len(self.state["log"])
        return [render(e) for e in entries]

    def _dilemme_screen(self) -> dict:
        state = self.state
        p = state["pending"]
        seat = p["seat"] if p else None
        names = [s["name"] for s in state["seats"]]
        handoff = False
        if seat is not None and not state["seats"][seat]["bot"]:
            humans = sum(1 for s in state["seats"] if not s["bot"])
            handoff = humans > 1 and self.last_human is not None and self.last_human != seat
            self.last_human = seat
        v = dgame.view(self.bundle, state, seat)
        choices = []
        if seat is not None:
            for a in dgame.legal_actions(self.bundle, state, seat, gifts=False):
                choices.append(
                    {"label": DT.describe_action(a, names), "action": a, "group": a["type"]}
                )
        card = v.get("card")
        story = ""
        if card:
            story = f"{card['title']} — {card['question']}"
        elif state["phase"] == "over":
            story = DT.ENDING[state["result"]["ending"]].capitalize() + "."
        recs = self.bundle["records"]
        board = {
            "resources": [
                {
                    "id": r,
                    "name": DT.RESOURCE_NAME[r],
                    "pos": m["pos"],
                    "up": m["dir"] > 0,
                    "marker": m["marker"],
                }
                for r, m in state["resources"].items()
            ],
            "track": dgame._rules(self.bundle)["resource_track"],
            "stability": state["stability"],
            "stability_track": dgame._rules(self.bundle)["stability_track"],
            "balance": state["balance"],
            "deck": len(state["deck"]),
            "timeline": [
                {
                    "title": recs["dilemma"].get(t["card"], {}).get("title", t["card"]),
                    "side": DT.SIDE[t["side"]],
                }
                for t in state["timeline"]
            ],
            "timeline_slots": dgame._rules(self.bundle)["timeline_slots"],
            "chronicle": {
                DT.RESOURCE_NAME[r]: [
                    None
                    if s is None
                    else {
                        "title": recs["chronicle_sticker"].get(str(s["id"]), {}).get("title", ""),
                        "positive": s["polarity"] == "positive",
                        "ticks": s["ticks"],
                        "signer": s.get("signer"),
                    }
                    for s in line
                ]
                for r, line in state["campaign"]["chronicle"].items()
            },
            "events": [recs["event_card"].get(e, {}).get("title", e) for e in state["events"]],
            "houses": [
                {
                    "name": s["name"],
                    "bot": s["bot"],
                    "leader": i == state["leader"],
                    "moderator": i == state["moderator"],
                    "power": vs["power"],
                    "coins": vs["coins"],
                    "objective": DT.OBJECTIVE.get(vs["objective"] or "", None),
                    "public": [
                        f"{DT.RESOURCE_NAME[r]} {'+' if pol == 'positive' else '−'}"
                        for r, pol in s["public"]
                    ],
                    "prestige": state["campaign"]["houses"][s["house"]]["prestige"],
                    "craving": state["campaign"]["houses"][s["house"]]["craving"],
                    "vote": _vote_label(state, i),
                }
                for i, (s, vs) in enumerate(zip(state["seats"], v["seats"], strict=True))
            ],
        }
        return {
            "game": "dilemme",
            "seat": seat,
            "seat_name": names[seat] if seat is not None else None,
            "handoff": handoff,
            "story": story,
            "preview": (card or {}).get("preview"),
            "log": self._new_log(DT.render),
            "board": board,
            "choices": choices,
            "over": state["phase"] == "over",
            "result": state.get("result"),
            "campaign_over": state["campaign"]["finished"],
        }

    def _citadelle_screen(self) -> dict:
        state = self.state
        recs = self.bundle["records"]
        adv = recs["adventure_card"]
        choices = [
            {"label": CT.describe(self.bundle, state, a), "action": a, "group": a["type"]}
            for a in cgame.legal_actions(self.bundle, state)
        ]
        scenario = recs["scenario"].get(state["scenario"] or "", {}).get("title", "")
        story = f"{scenario} — que faites-vous ?" if scenario else ""
        if state["pending"] and state["pending"]["type"] == "citadel":
            story = "Retour à la Citadelle : dépensez l'espoir sur la page Destinée, puis repartez."
        if state["pending"] and state["pending"]["type"] == "dialogue":
            story = recs["paragraph"][state["pending"]["paragraph"]]["text"]
        elif state["phase"] == "over":
            story = CT.render(
                {"key": "adventure.over", "args": state["result"] | {"why": state["result"]["why"]}}
            )

        def title(key: str) -> str:
            return adv[key].get("title") or str(adv[key]["number"])

        def slot_title(s: dict) -> str | None:
            if s["revealed"] and s.get("exploration"):
                return recs["exploration_card"][s["exploration"]].get("title")
            return title(s["adventure"]) if s.get("adventure") else None

        def cell(k: str, spot: dict) -> dict:
            return {
                "at": k,
                "title": title(spot["terrain"]),
                "events": [title(e["key"]) for e in spot["events"]],
                "here": [c["name"] for c in state["characters"] if c["at"] == k],
            }

        def character(c: dict) -> dict:
            return {
                "name": c["name"],
                "hp": c["hp"],
                "conscious": c["conscious"],
                "deck": len(c["deck"]),
                "discard": len(c["discard"]),
                "hand": [recs["action_card"].get(k, {}).get("title", k) for k in c["hand"]],
                "purse": [title(k) for k in c["purse"]],
                "weight": cgame._weight(self.bundle, c),
                "carry": cgame._carry(self.bundle, state, c),
            }

        cit = state["citadel"]
        board = {
            "cells": [cell(k, spot) for k, spot in sorted(state["board"].items())],
            "slots": [
                {
                    "at": k,
                    "zone": recs["exploration_card"][s["exploration"]]["zone"]
                    if s.get("exploration")
                    else None,
                    "revealed": s["revealed"],
                    "title": slot_title(s),
                }
                for k, s in sorted(state["slots"].items())
            ],
            "characters": [character(c) for c in state["characters"]],
            "quest_items": [title(k) for k in state["quest_items"]],
            "globals": [title(k) for k in state["globals"]],
            "citadel": {
                "scores": {CT.SCORE[k]: v for k, v in cit["scores"].items()},
                "hope": cit["hope"],
                "tremor": cit["tremor"],
                "buildings": {_title(recs, "building", b): n for b, n in cit["buildings"].items()},
                "side_quests": {
                    _title(recs, "side_quest", q): CT.QUEST_STATE[st]
                    for q, st in cit["side_quests"].items()
                },
            },
            "scenario": recs["scenario"].get(state["scenario"] or "", {}).get("title"),
        }
        return {
            "game": "citadelle",
            "seat": None,
            "handoff": False,
            "story": story,
            "log": self._new_log(CT.render),
            "board": board,
            "choices": choices,
            "over": state["phase"] == "over",
            "result": state.get("result"),
        }

    def _dilemme_chronicle(self) -> dict:
        camp = self.state["campaign"]
        recs = self.bundle["records"]

        def story_title(key: str) -> str:
            rec = recs.get("story_card", {}).get(key) or recs.get("epilogue", {}).get(key) or {}
            return rec.get("title", key)

        def game(g: dict) -> dict:
            timeline = [
                {"title": _title(recs, "dilemma", t["card"]), "side": DT.SIDE[t["side"]]}
                for t in g["timeline"]
            ]
            return {
                "game": g["game"],
                "ending": DT.ENDING[g["ending"]],
                "timeline": timeline,
                "rows": g["rows"],
            }

        return {
            "games": [game(g) for g in camp["history"]],
            "arcs": {
                _title(recs, "arc", a): [
                    {"title": story_title(e["card"]), "signer": _name(recs, e["signer"])}
                    for e in pile
                ]
                for a, pile in camp["arcs"].items()
            },
            "houses": [
                {
                    "name": recs["house"][h]["name"],
                    "prestige": v["prestige"],
                    "craving": v["craving"],
                    "achievements": v["unlocked"],
                }
                for h, v in camp["houses"].items()
            ],
            "secret_stickers": camp["secret_stickers"],
            "finished": camp["finished"],
            "winner": _name(recs, camp.get("winner")),
        }

    def _citadelle_chronicle(self) -> dict:
        screen = self._citadelle_screen()
        recs = self.bundle["records"]

        def epilogue_text(scenario: str, branch: str) -> str:
            branches = recs["scenario"][scenario].get("epilogue") or []
            return next((b["text"] for b in branches if b["id"] == branch), "")

        return {
            "scenarios": [
                {
                    "title": recs["scenario"][e["scenario"]]["title"],
                    "epilogue": epilogue_text(e["scenario"], e["branch"]),
                }
                for e in self.state["epilogues"]
            ],
            "citadel": screen["board"]["citadel"],
        }


def _title(recs: dict, kind: str, key: str) -> str:
    return recs.get(kind, {}).get(key, {}).get("title", key)


def _name(recs: dict, house: str | None) -> str | None:
    return recs.get("house", {}).get(house or "", {}).get("name")


def _vote_label(state: dict, seat: int) -> str | None:
    vote = state.get("vote")
    if not vote:
        return None
    v = vote["votes"][seat]
    if v["kind"] is None:
        return None
    if v["kind"] in ("oui_da", "nenni"):
        return f"{DT.SIDE[v['kind']]} ({v['power']})"
    return "passe (Pouvoir)" if v["kind"] == "pass_power" else "passe (Modérateur)"


def _nesting(text: str) -> int:
    """How deep the JSON text's arrays and objects nest (brackets inside strings ignored)."""
    depth = deepest = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def migrate(save: dict) -> dict:
    """Bring an older save up to SAVE_VERSION (each step one version).  Version 1 is the first:
    nothing to migrate yet; the function is where the next format change goes."""
    return save
