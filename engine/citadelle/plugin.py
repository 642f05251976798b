"""The 7th Citadel behind the game contract (``engine.core.game.Game``).

A cooperative game with open information: the characters are the seats and the group
decides together (``turn_kind`` is ``"collective"``): the humans at the table decide for the
group; when every seat is a bot, the automatic policy plays.
"""

from __future__ import annotations

from typing import Any

from ..core import french as fr
from ..core.errors import SetupError
from ..core.game import CliAlias, Game, Option, Outcome, SetupField
from ..core.rng import Rng
from ..core.state import copy_game
from ..core.types import Screen
from . import auto, cards, choices, game, screen
from . import text_fr as T
from .content import SCHEMA
from .turn import Offering, offering

RECOVERY = (
    Option("normal", "règle normale", "récupérer coûte un point de vie par série de cartes"),
    Option("story", "mode histoire", "récupérer coûte moins : pour découvrir l'histoire"),
    Option("survival", "mode survie", "récupérer coûte plus cher : pour les vétérans"),
)


class Citadelle(Game):
    id = "citadelle"
    title = "The 7th Citadel"
    pitch = (
        "Une à quatre figures explorent les Terres déchues autour de la Citadelle : cartes "
        "numérotées, dialogues, et une Menace à repousser scénario après scénario."
    )
    players = (1, 4)
    default_players = 2
    hidden_information = False
    cooperative = True
    content = SCHEMA
    seat_word = "personnage"
    state_version = game.FORMAT_VERSION
    oldest_save_version = 1  # played before saves kept their action log
    min_save_version = 2  # a first-format state cannot be proved: forged ones loaded
    # a turn is many small decisions (each step of an action, each card given or discarded):
    # a quarter of them at random ruins every run (recoveries, banishments, departures) before
    # the later scenarios; one in ten keeps the runs varied and lets them get there
    simulation_wander = 0.1
    min_state_version = game.MIN_COMPATIBLE
    rules_page = "regles-citadelle/"
    personas = tuple(Option(v, label, h) for v, label, h in T.PERSONAS)
    setup_fields = (
        SetupField(
            "recovery",
            "Récupération",
            options=RECOVERY,
            default="normal",
            help="ce que coûte de reprendre des cartes de la défausse",
        ),
    )
    cli_aliases = (
        CliAlias("characters", "nombre de personnages (comme --players)", "players"),
        CliAlias("auto", "la politique automatique joue tous les personnages", "all_bots", "bool"),
    )

    # ------------------------------------------------------------------ content

    def __init__(self, bundle: dict[str, Any]) -> None:
        super().__init__(bundle)
        #: the legal actions last offered to the policy, for the ``apply`` on that same state
        self._offered: Offering | None = None

    def _characters(self) -> list[dict[str, Any]]:
        chars = self.bundle.get("records", {}).get("character", {})
        return [chars[k] for k in sorted(chars)]

    # ------------------------------------------------------------------ setup

    def seat_range(self) -> tuple[int, int]:
        return 1, max(1, min(self.players[1], len(self._characters())))

    def fields(self) -> tuple[SetupField, ...]:
        options = tuple(Option(c["id"], c["name"], c.get("text", "")) for c in self._characters())
        return (
            SetupField(
                "character",
                "Personnage",
                options=options,
                per_seat=True,
                distinct=True,
                help="la figure que joue cette place",
            ),
            *self.setup_fields,
        )

    def seat_gender(self, name: str) -> str | None:
        ch = next((c for c in self._characters() if c["name"] == name), None)
        return (ch.get("gender") or "m") if ch else None

    def seat_name(self, seat: dict[str, Any], index: int) -> str:
        ch = next((c for c in self._characters() if c["id"] == seat.get("character")), None)
        return ch["name"] if ch else super().seat_name(seat, index)

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        chars = [s["character"] for s in setup["seats"]]
        names = {s["character"]: s["name"] for s in setup["seats"]}
        try:
            state = game.new_game(
                self.bundle,
                chars,
                setup["seed"],
                names=names,
                recovery=setup.get("recovery", "normal"),
            )
        except ValueError as exc:
            raise SetupError(f"mise en place impossible : {exc}") from exc
        state["table"] = len(chars)
        return state

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        from .start import start_from

        chars = [s["character"] for s in setup["seats"]]
        names = {s["character"]: s["name"] for s in setup["seats"]}
        try:
            state = start_from(
                self.bundle, node, chars, setup["seed"], names, setup.get("recovery", "normal")
            )
        except ValueError as exc:
            raise SetupError(f"impossible de commencer à « {node} » : {exc}") from exc
        state["table"] = len(chars)
        return state

    def chapter(self, state: dict[str, Any]) -> str | None:
        """The scenario being played (between two scenarios, the one just ended)."""
        scenario = state.get("scenario")
        return f"scenario:{scenario}" if scenario else None

    def legacy_setup(self, state: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        bot = bool(state.get("auto"))
        seats = [
            {"name": c["name"], "bot": bot, "character": c["id"]} for c in state["characters"][:4]
        ]
        return {
            **setup,
            "seats": seats or [{"bot": bot}],
            "recovery": (state.get("options") or {}).get("recovery", "normal"),
        }

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        if state.get("pending") is None:
            return []
        return list(range(state.get("table") or len(state["characters"]) or 1))

    def turn_kind(self, state: dict[str, Any]) -> str:
        return "collective"

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        # not kept for ``apply`` (``offer``): a caller may change a state in place between the
        # two (a test setting up a situation), and must then be judged on the state it passes
        return game.legal_actions(self.bundle, state)

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        return game.apply(self.bundle, state, action, self._offered)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return game.view(self.bundle, state, seat)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state.get("phase") != "over" or not state.get("result"):
            return None
        r = state["result"]
        won = r["result"] == "victory"
        why = T.WHY.get(r["why"], r["why"])
        summary = T.render({"key": "adventure.over", "args": r})
        why = why[:1].upper() + why[1:]
        return Outcome(
            winners=list(range(state.get("table", 1))) if won else [],
            summary=summary,
            # the adventure is the campaign: its end says where the group stands, and why
            ranking=[screen.standing_row(self.bundle, state)],
            why=why + ".",
        )

    def progress(self, state: dict[str, Any]) -> str:
        title = self.bundle["records"].get("scenario", {}).get(state.get("scenario") or "", {})
        return f"{title.get('title', '')}, tour {state.get('turns', 0)}".strip(", ")

    # ------------------------------------------------------------------ bots

    def bot_view(
        self, state: dict[str, Any], seat: int, actions: list[Any], persona: str | None
    ) -> dict[str, Any]:
        """The table as the group sees it.  The Citadelle keeps no secret between players; the
        policy reads what lies on the table (which numbered cards are still in the box is
        public: every card out of it is in play), never a deck's order.  The actions offered
        are kept for the ``apply`` that follows on this very state (the session and simulate
        apply what the policy chose at once); the policy changes none of them."""
        self._offered = offering(state, actions)
        return game.view(self.bundle, state, seat)

    def decide(self, view: dict, actions: list, rng: Rng, persona: str | None) -> Any:
        """The automatic policy plays for the whole group (« curieux »: it looks around)."""
        return auto.choose(self.bundle, view, actions, rng if persona == "curieux" else None)

    # ------------------------------------------------------------------ text and screens

    def seat_names(self, state: dict[str, Any]) -> list[str]:
        names = [c["name"] for c in state["characters"]]
        n = state.get("table") or len(names) or 1
        return [names[i] if i < len(names) else self.default_seat_name(i) for i in range(n)]

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        return fr.tidy(choices.describe(self.bundle, state, action))

    def render_log(self, entry: dict[str, Any]) -> str:
        return fr.tidy(T.render(entry))

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        return fr.tidy_texts(screen.screen(self.bundle, state, actions))

    def chronicle(self, state: dict[str, Any]) -> list[dict]:
        return screen.chronicle(self.bundle, state)

    # ------------------------------------------------------------------ checks

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """No seat keeps a secret; no one knows the order of the action decks or of the
        exploration decks."""
        if seat is not None:
            return state
        out = copy_game(state, game.SHARED)
        for ch in out["characters"]:
            rng.shuffle(ch["deck"])
        for deck in out["explore_decks"].values():
            rng.shuffle(deck)
        return out

    def check_state(self, state: dict[str, Any]) -> None:
        if state.get("game") != self.id:
            raise ValueError("not a Citadelle state")
        for ch in state["characters"]:
            if (
                not isinstance(ch["hp"], int)
                or isinstance(ch["hp"], bool)
                or not 0 <= ch["hp"] <= 99
            ):
                raise ValueError(f"hit points of {ch['name']}: {ch['hp']!r}")
            for pile in ("deck", "hand", "discard", "blocked", "purse", "purse_blocked"):
                if not isinstance(ch[pile], list) or not all(isinstance(k, str) for k in ch[pile]):
                    raise ValueError(f"{pile} of {ch['name']} is not a list of cards")
        for score in state["citadel"]["scores"].values():
            if not isinstance(score, int) or not 0 <= score <= 25:
                raise ValueError(f"a community score out of 0–25: {score!r}")
        cards.check(self.bundle, state)

    def visits(self, state: dict[str, Any]) -> set[str]:
        from .coverage import visits

        return visits(self.bundle, state)
