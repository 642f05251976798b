"""Complots behind the game contract (``engine.core.game.Game``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core import french as fr
from ..core.errors import SetupError
from ..core.french import count
from ..core.game import Game, Option, Outcome, SetupField
from ..core.rng import Rng
from ..core.types import Screen
from . import bots, reveal, rules, screen
from . import text_fr as T
from .content import SCHEMA


class Complots(Game):
    id = "complots"
    title = T.TITLE
    pitch = T.PITCH
    players = (2, 8)
    default_players = 4
    hidden_information = True
    #: choices that show what the seat alone knows (its own cards to reveal, keep, show, pick)
    private_actions = frozenset({"lose", "keep", "show", "pick"})
    content = SCHEMA
    seat_word = "joueur"
    seat_names_pool = T.SEAT_NAMES
    state_version = rules.FORMAT_VERSION
    min_state_version = rules.FORMAT_VERSION
    rules_page = "regles-complots/"
    personas: ClassVar[tuple[Option, ...]] = tuple(Option(v, lab, h) for v, lab, h in T.PERSONAS)

    # ------------------------------------------------------------------ content

    def __init__(self, bundle: dict[str, Any]) -> None:
        super().__init__(bundle)
        self.table = rules.Table(bundle)
        T.set_names(self.table.characters)
        counters: dict[str, set[str]] = {}
        for cid in self.table.characters:
            counter = self.table.counter_for(cid) or {}
            counters.setdefault(self.table.power(cid), set()).update(counter.get("by", []))
        #: what this bundle's bots know of its cards
        self.lore = bots.Lore(
            powers={cid: self.table.power(cid) for cid in self.table.characters},
            counters={power: frozenset(chars) for power, chars in counters.items()},
        )

    # ------------------------------------------------------------------ setup

    def fields(self) -> tuple[SetupField, ...]:
        options = tuple(
            Option(v["id"], str(v.get("name", v["id"])), str(v.get("text", "")))
            for v in self.table.variants.values()
        )
        if not options:
            return ()
        return (
            SetupField(
                "variant",
                T.VARIANT_LABEL,
                default=self.table.default_variant,
                options=options,
                help=T.VARIANT_HELP,
            ),
        )

    def check_setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        if not self.table.variants:
            raise SetupError("le contenu de Complots ne définit aucune variante")
        return setup

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return rules.new_game(self.table, setup)

    start_kinds = ("variant", "character", "action", "counter")

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        from .start import start_from

        try:
            return start_from(self.table, node, setup)
        except ValueError as exc:
            raise SetupError(f"impossible de commencer à « {node} » : {exc}") from exc

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        return rules.to_act(state)

    def turn_kind(self, state: dict[str, Any]) -> str:
        return rules.turn_kind(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(self.table, state, seat)

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        return rules.apply(self.table, state, action)

    def canonical_action(self, action: Any) -> Any:
        return rules.canonical(action)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return rules.view(self.table, state, seat)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["winner"] is None:
            return None
        return reveal.outcome(self.table, state)

    def out_seats(self, state: dict[str, Any]) -> list[int]:
        """The players whose last character is lost (they watch the rest of the game)."""
        if state["winner"] is not None:
            return []
        return [i for i in range(len(state["players"])) if not rules.alive(state, i)]

    def progress(self, state: dict[str, Any]) -> str:
        alive = len(rules.living(state))
        return f"tour {state['turn_no']}, {count(alive, 'joueur')} en lice"

    # ------------------------------------------------------------------ bots

    def decide(self, view: dict, actions: list, rng: Rng, persona: str | None) -> dict:
        return bots.decide(view, actions, rng, persona, self.lore)

    # ------------------------------------------------------------------ text and screens

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        return fr.tidy(screen.label(self.table, self.seat_names(state), action, False))

    def render_log(self, entry: dict[str, Any]) -> str:
        return fr.tidy(T.render(entry))

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        """Drawn from ``seat``'s view; a public moment (``seat`` is ``None``) from the view of
        the only human at the table if there is one (its own cards beside the buttons), else
        from nobody's."""
        if seat is None:
            humans = [i for i, s in enumerate(state["seats"]) if not s.get("bot")]
            seat = humans[0] if len(humans) == 1 else None
        return fr.tidy_texts(screen.screen(self.table, self.view(state, seat), actions))

    # ------------------------------------------------------------------ checks

    def visits(self, state: dict[str, Any]) -> set[str]:
        from .coverage import visits

        return visits(self.table, state)

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """A seat's hidden cards (and the cards it drew) swapped with others from the Court;
        for nobody: the Court's order."""
        out = rules.copy(state)
        if seat is None:
            rng.shuffle(out["court"])
            return out
        p = out["players"][seat]
        pool = p["hidden"] + out["court"]
        rng.shuffle(pool)
        k = len(p["hidden"])
        p["hidden"], out["court"] = pool[:k], pool[k:]
        return out

    def check_state(self, state: dict[str, Any]) -> None:
        rules.check_state(self.table, state)
