"""Le Conseil des 12 behind the game contract (``engine.core.game.Game``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import french as fr
from ..core.errors import SetupError
from ..core.game import Game, Option, Outcome, SetupField
from ..core.rng import Rng
from ..core.schema import GraphView, Issue
from ..core.state import copy_game
from ..core.types import Screen
from . import bots, chronicle, deep, rules, screen, solver
from . import text_fr as T
from .content import MONTHS, SCHEMA

PUBLIC = (
    "phase",
    "favor",
    "die",
    "objectives",
    "met",
    "petitioner",
    "dilemma",
    "rung",
    "rings",
    "resolved",
    "rewards",
    "pets_done",
    "face_up",
    "reserve",
    "table",
    "remarks",
    "revealed",
    "known",
    "pub_discard",
    "pending",
    "two_turns",
    "first_met",
    "chef",
    "scenario",
    "rule",
    "silent",
    "result",
    "throne_char",
    "turn_no",
    "silent_boxes",
    "chronicle",
    "last",
    "hint",
)


def _months_winnable(g: GraphView) -> list[Issue]:
    """The content's deep check (``deep.months_winnable``), played by this plug-in."""
    return deep.months_winnable(Conseil, g)


class Conseil(Game):
    id = "conseil"
    title = "Le Conseil des 12"
    pitch = (
        "Deux à quatre membres du Conseil partagent un dé à douze faces et doivent l'amener "
        "sur la bonne valeur sans jamais dire quels personnages ils tiennent."
    )
    players = (2, 4)
    default_players = 3
    hidden_information = True
    #: choices that show what the seat alone knows (a character of its hand, face down)
    private_actions = frozenset({"choose", "claim", "oracle"})
    cooperative = True
    content = dataclasses.replace(SCHEMA, deep_checks=(_months_winnable,))
    seat_word = "membre"
    seat_names_pool = T.SEAT_NAMES
    state_version = rules.FORMAT_VERSION
    min_state_version = rules.FORMAT_VERSION
    rules_page = "regles-conseil/"
    setup_fields = (
        SetupField(
            "scenario",
            "Scénario",
            default="base",
            options=(
                Option("base", "Partie normale", "4 dilemmes faciles, 2 moyens, 1 difficile"),
                Option("tutoriel", "Partie guidée", "une courte partie qui explique le tour"),
                *(Option(m, T.MONTH[m], "L'année troublée") for m in MONTHS),
            ),
            help="une partie normale, la partie guidée ou un mois de « L'année troublée »",
        ),
        SetupField(
            "silent",
            "Conseil silencieux",
            kind="bool",
            default=False,
            help="personne ne fait la moindre remarque (défi du Conseil silencieux)",
        ),
    )

    # ------------------------------------------------------------------ content

    def __init__(self, bundle: dict[str, Any]) -> None:
        super().__init__(bundle)
        self.R = rules.Rules(bundle, adviser=solver.hint)
        self.titles: dict[Any, str] = {
            int(k): d["title"] for k, d in bundle.get("records", {}).get("dilemma", {}).items()
        }
        self.titles[rules.THRONE] = str(self.R.throne.get("title", "REVENDIQUER LE TRÔNE"))

    # ------------------------------------------------------------------ setup

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return self.R.new_game(setup)

    start_kinds = ("scenario", "dilemma", "tutorial")

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        from .start import start_from

        try:
            return start_from(self.R, node, setup)
        except ValueError as exc:
            raise SetupError(f"impossible de commencer à « {node} » : {exc}") from exc

    def simulation_setup(self, index: int) -> dict[str, Any]:
        """Every other run plays a month of « L'année troublée », each in turn (the months after
        it follow as sequels), the others a normal game: coverage counts the months."""
        return {"scenario": MONTHS[(index // 2) % len(MONTHS)] if index % 2 else "base"}

    def sequel(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The next game of the chronicle: a normal game after the guided one or a normal
        one; in « L'année troublée », the next month after a won month and the same month
        again after a lost one, until Décembre is won."""
        if state.get("phase") != "over":
            return None
        scenario = state["scenario"]
        if scenario in MONTHS:
            if state["result"]["won"]:
                at = MONTHS.index(scenario) + 1
                if at == len(MONTHS):
                    return None  # the year is over
                scenario = MONTHS[at]
        elif state["chronicle"].get("games", 0) + 1 >= chronicle.LINES:
            return None  # the chronicle sheet is full
        else:
            scenario = "base"
        setup = {
            "seed": state["seed"],
            "seats": state["seats"],
            "scenario": scenario,
            "silent": state["silent"] and scenario == "base",
        }
        return self.R.new_game(setup, chronicle.carry(state))

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        return rules.to_act(state)

    def turn_kind(self, state: dict[str, Any]) -> str:
        return rules.turn_kind(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        return rules.apply(self.R, state, action)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {k: state.get(k) for k in PUBLIC}
        v = copy_game(v, {})
        v["seat"] = seat
        v["seats"] = [{"name": s["name"]} for s in state["seats"]]
        v["next"] = state["pile"][0] if state["rung"] and state["pile"] else None
        v["pile_count"] = len(state["pile"])
        v["pets_count"] = len(state["pets"])
        v["hand_counts"] = [len(h) for h in state["hands"]]
        v["discard_tops"] = [d[-1] if d else None for d in state["discards"]]
        v["discard_counts"] = [len(d) for d in state["discards"]]
        v["has_chosen"] = [c is not None for c in state["chosen"]]
        v["to_act"] = rules.to_act(state)
        sc = self.R.scenarios.get(state["scenario"])
        v["rule_text"] = sc.get("rule_text") if sc else None
        if seat is not None:
            v["hand"] = list(state["hands"][seat])
            v["discard"] = list(state["discards"][seat])
            v["my_choice"] = state["chosen"][seat]
        return v

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state.get("phase") != "over":
            return None
        return chronicle.outcome(self, state)

    def progress(self, state: dict[str, Any]) -> str:
        done = len(state.get("resolved", []))
        month = T.MONTH.get(state.get("scenario") or "", "")
        return f"{month}, dilemme {min(done + 1, 8)} sur 8"

    # ------------------------------------------------------------------ bots

    def decide(self, view: dict, actions: list, rng: Rng, persona: str | None) -> Any:
        return bots.decide(view, actions)

    # ------------------------------------------------------------------ text and screens

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        return fr.tidy(T.describe(action, self.seat_names(state), state))

    def render_log(self, entry: dict[str, Any]) -> str:
        return fr.tidy(T.render(entry, self.titles))

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        return fr.tidy_texts(
            screen.screen(
                self.bundle,
                state,
                self.view(state, seat),
                seat,
                actions,
                self.seat_names(state),
                lambda a: T.describe(a, self.seat_names(state), state),
            )
        )

    def chronicle(self, state: dict[str, Any]) -> list[dict] | None:
        return chronicle.widgets(state, self.titles)

    # ------------------------------------------------------------------ checks

    def visits(self, state: dict[str, Any]) -> set[str]:
        from .coverage import visits

        return visits(self.bundle, state)

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """Secrets: each hand and the cards under its discard's top, each face-down chosen
        card; nobody knows the order of the two piles."""
        if state.get("phase") == "over":
            return state
        out = copy_game(state, rules.SHARED)
        if seat is None:
            keep = 1 if out["rung"] and out["pile"] and out["pile"][0] != rules.THRONE else 0
            body = [d for d in out["pile"][keep:] if d != rules.THRONE]
            rng.shuffle(body)
            out["pile"] = out["pile"][:keep] + body + [rules.THRONE]
            rng.shuffle(out["pets"])
            return out
        hand = out["hands"][seat]
        chosen = out["chosen"][seat]
        swappable = [c for c in hand if c != out["petitioner"]]
        if (
            chosen is not None
            and swappable
            and out["phase"]
            in (
                "choose",
                "reveal",
                "throne",
                "throne_rewards",
            )
        ):
            c = swappable[rng.below(len(swappable))]
            hand.remove(c)
            hand.append(chosen)
            hand.sort()
            out["chosen"][seat] = c
            return out
        under = out["discards"][seat][:-1]
        if hand and under:
            i, j = rng.below(len(hand)), rng.below(len(under))
            hand[i], out["discards"][seat][j] = under[j], hand[i]
            hand.sort()
        return out

    def check_state(self, state: dict[str, Any]) -> None:
        if state.get("game") != self.id:
            raise ValueError("not a Conseil state")
        rules.check_state(state)
