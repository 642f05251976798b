"""Le Dilemme du Roi behind the game contract (``engine.core.game.Game``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core import french as fr
from ..core.errors import SetupError
from ..core.game import Game, Option, Outcome, SetupField
from ..core.rng import Rng
from ..core.state import copy_game
from ..core.types import Screen
from . import bots, game, screen
from . import text_fr as T
from .content import SCHEMA


class Dilemme(Game):
    id = "dilemme"
    title = "Le Dilemme du Roi"
    pitch = (
        "Trois à cinq Maisons votent au Conseil du roi, négocient et gardent un Objectif "
        "secret ; la chronique du royaume se poursuit de partie en partie."
    )
    players = (3, 5)
    default_players = 4
    hidden_information = True
    #: choices that show what the seat alone knows (its objectives, its Pouvoir, its abilities)
    private_actions = frozenset({"draft", "vote", "add", "use_ability"})
    content = SCHEMA
    seat_word = "Maison"
    state_version = game.FORMAT_VERSION
    oldest_save_version = 1  # played before saves kept their action log
    min_save_version = 2  # a first-format state cannot be proved: forged ones loaded
    min_state_version = game.MIN_COMPATIBLE
    rules_page = "regles-dilemme/"
    personas: ClassVar[tuple[Option, ...]] = tuple(
        Option(key, T.TEMPERAMENT[key], T.TEMPERAMENT_HELP[key]) for key in bots.TEMPERAMENTS
    )

    # ------------------------------------------------------------------ content

    def _houses(self) -> list[dict[str, Any]]:
        houses = self.bundle.get("records", {}).get("house", {}).values()
        return sorted(houses, key=lambda h: h.get("number", 0))

    # ------------------------------------------------------------------ setup

    def seat_range(self) -> tuple[int, int]:
        return self.players[0], max(self.players[0], min(self.players[1], len(self._houses())))

    def fields(self) -> tuple[SetupField, ...]:
        options = tuple(Option(h["id"], h["name"], h.get("motto", "")) for h in self._houses())
        return (
            SetupField(
                "house",
                "Maison",
                options=options,
                per_seat=True,
                distinct=True,
                help="la Maison que joue cette place (son paravent, ses hauts faits)",
            ),
        )

    def seat_gender(self, name: str) -> str | None:
        return T.HOUSE_GENDER  # « la Maison Ferrandine »

    def seat_name(self, seat: dict[str, Any], index: int) -> str:
        house = next((h for h in self._houses() if h["id"] == seat.get("house")), None)
        return house["name"] if house else super().seat_name(seat, index)

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        seed = setup["seed"]
        campaign = game.new_campaign(self.bundle, seed)
        seats = [
            {"house": s["house"], "name": s["name"], "bot": s["bot"], "persona": s.get("persona")}
            for s in setup["seats"]
        ]
        try:
            state = game.new_game(self.bundle, campaign, seats, seed)
        except ValueError as exc:
            raise SetupError(f"mise en place impossible : {exc}") from exc
        state["seed"] = seed
        return state

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        from .start import start_from

        state = self.new_game(setup)
        try:
            return start_from(self.bundle, state, node)
        except ValueError as exc:
            raise SetupError(f"impossible de commencer à « {node} » : {exc}") from exc

    def legacy_setup(self, state: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        seats = [
            {"name": s["name"], "bot": s["bot"], "house": s["house"], "persona": s.get("persona")}
            for s in state["seats"]
        ]
        return {**setup, "seats": seats}

    def sequel(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state.get("phase") != "over" or state["campaign"].get("finished"):
            return None
        seats = [
            {"house": s["house"], "name": s["name"], "bot": s["bot"], "persona": s.get("persona")}
            for s in state["seats"]
        ]
        seed = state.get("seed", "0")
        nxt = game.new_game(self.bundle, state["campaign"], seats, seed)
        nxt["seed"] = seed
        return nxt

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        pending = state.get("pending")
        return [pending["seat"]] if pending else []

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return game.legal_actions(self.bundle, state, seat)

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        return game.apply(self.bundle, state, action)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return game.view(self.bundle, state, seat)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state.get("phase") != "over" or not state.get("result"):
            return None
        result = state["result"]
        names = [s["name"] for s in state["seats"]]
        winners = [names.index(n) for n in result["winners"] if n in names]
        ranking = [
            {
                "seat": names.index(r["name"]) if r["name"] in names else None,
                "name": r["name"],
                "rank": r["rank"],
                "score": r["total"],
                "details": screen.score_details(r),
            }
            for r in sorted(result["rows"], key=lambda r: (r["rank"], r["name"]))
        ]
        why = T.ENDING[result["ending"]].capitalize()
        them = fr.group([T.seat(w) for w in result["winners"]])
        summary = fr.tidy(f"{why}. {them} {them:remporte} la partie.")
        camp = state["campaign"]
        widgets = []
        if camp.get("finished"):  # the campaign's end is the headline, its standings first
            house = self.bundle["records"].get("house", {}).get(camp.get("winner") or "", {})
            summary = T.ui("carry.finished", house=house.get("name", camp.get("winner")))
            widgets = [screen.standings(self.bundle, state)]
        return Outcome(
            winners=winners,
            summary=summary,
            scores={i: r["total"] for i, r in enumerate(result["rows"])},
            ranking=ranking,
            why=why + ".",
            widgets=widgets,
        )

    def progress(self, state: dict[str, Any]) -> str:
        camp = state.get("campaign", {})
        if camp.get("finished"):
            return f"campagne terminée après {camp.get('game_no', 0)} parties"
        return f"partie {camp.get('game_no', 1)}, manche {state.get('round', 0)}"

    # ------------------------------------------------------------------ bots

    def decide(self, view: dict, actions: list, rng: Rng, persona: str | None) -> dict:
        # the bots never make gifts: they choose among everything else
        considered = [a for a in actions if a["type"] != "give"] or actions
        return bots.choose(self.bundle, view, view["seat"], considered, persona)

    # ------------------------------------------------------------------ text and screens

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        return fr.tidy(T.describe_action(action, self.seat_names(state)))

    def render_log(self, entry: dict[str, Any]) -> str:
        return fr.tidy(T.render(entry, self._arc_titles()))

    def _arc_titles(self) -> dict[str, str]:
        arcs = (self.bundle.get("records") or {}).get("arc") or {}
        return {k: str(v.get("title", k)) for k, v in arcs.items() if isinstance(v, dict)}

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        return fr.tidy_texts(
            screen.screen(self.bundle, state, self.view(state, seat), seat, actions)
        )

    def chronicle(self, state: dict[str, Any]) -> list[dict]:
        return screen.chronicle(self.bundle, state)

    # ------------------------------------------------------------------ checks

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """Behind a house's screen: its secret objective, Pouvoir and coins; no one sees the
        deck's order or the discarded objective."""
        out = copy_game(state, game.SHARED)
        if seat is None:
            rng.shuffle(out["deck"])
            return out
        if state.get("phase") == "over":
            return out
        s = out["seats"][seat]
        pool = sorted(self.bundle["records"].get("secret_objective", {}))
        if s["objective"]:
            s["objective"] = rng.choice(pool)
        s["power"] = rng.below(s["power"] + 3)  # 0 included: whether a house has any is hidden
        s["coins"] = rng.below(s["coins"] + 3)
        return out

    def check_state(self, state: dict[str, Any]) -> None:
        if state.get("game") != self.id:
            raise ValueError("not a Dilemme state")
        for s in state["seats"]:
            for key in ("power", "coins"):
                if not isinstance(s[key], int) or isinstance(s[key], bool) or s[key] < 0:
                    raise ValueError(f"{key} of {s['name']} is {s[key]!r}")
        if not isinstance(state["balance"], int) or state["balance"] < 0:
            raise ValueError("negative balance")
        dilemmas = self.bundle["records"].get("dilemma", {})
        immediates = self.bundle["records"].get("immediate_card", {})
        for deck in (state["deck"], state["campaign"].get("deck", [])):
            if len(set(deck)) != len(deck) or any(
                k not in dilemmas and k not in immediates for k in deck
            ):
                raise ValueError("the dilemma deck holds unknown or repeated cards")

    def visits(self, state: dict[str, Any]) -> set[str]:
        from .coverage import visits

        return visits(self.bundle, state)
