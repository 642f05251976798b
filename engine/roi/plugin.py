"""Le Roi des 12 behind the game contract (``engine.core.game.Game``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core import french as fr
from ..core.errors import SetupError
from ..core.game import Game, Option, Outcome, SetupField
from ..core.rng import Rng
from ..core.types import Screen
from . import bots, rules, screen
from . import text_fr as T
from .content import CARD_IDS, SCHEMA


class Roi(Game):
    id = "roi"
    title = "Le Roi des 12"
    pitch = (
        "Deux à quatre prétendants, un dé à douze faces chacun et les mêmes sept personnages : "
        "choisissez en secret, révélez ensemble, et que la meilleure pierre l'emporte "
        "(tournoi jusqu'à seize)."
    )
    players = (2, 16)
    default_players = 3
    hidden_information = True
    #: choices that show what the seat alone knows (a card of its hand, chosen face down)
    private_actions = frozenset({"play", "bury"})
    seat_streams = True  # the card choice is simultaneous: each bot decides on its own stream
    content = SCHEMA
    seat_word = "joueur"
    seat_names_pool = T.SEAT_NAMES
    state_version = rules.FORMAT_VERSION
    min_state_version = 1
    rules_page = "regles-roi/"
    setup_fields: ClassVar[tuple[SetupField, ...]] = (
        SetupField(
            "cartes",
            "Cartes en jeu",
            default="premiere",
            options=(
                Option("premiere", "Première partie", "LE CHEVALIER et les six cartes du livret"),
                Option("hasard", "Au hasard", "LE CHEVALIER et six cartes tirées au sort"),
                Option("choix", "Choisies", "LE CHEVALIER et les six cartes de la liste"),
            ),
            help="les sept personnages que chaque joueur a en main",
        ),
        SetupField(
            "selection",
            "Six cartes choisies",
            kind="text",
            default="",
            help="avec « Choisies » : six personnages séparés par des virgules "
            "(alchimiste, dame, marchands…)",
        ),
        SetupField(
            "groupes12",
            "Tournoi à 12",
            default="4-4-4",
            options=(
                Option("4-4-4", "trois groupes de 4"),
                Option("3-3-3-3", "quatre groupes de 3"),
            ),
            help="la composition des groupes quand douze joueurs s'affrontent",
        ),
        SetupField(
            "pas_a_pas",
            "Révélation pas à pas",
            kind="bool",
            default=True,
            help="montrer chaque étape du tour (annulations, effets, valeurs, points) "
            "l'une après l'autre",
        ),
        SetupField(
            "throne",
            "Trône à pourvoir",
            kind="text",
            default="",
            form=False,
            help="le trône que le vainqueur occupera (une partie du Conseil des 12)",
        ),
    )
    setup_examples: ClassVar[tuple[dict[str, Any], ...]] = (
        {"cartes": "choix", "selection": "alchimiste, dame, marchands, sorcier, oracle, golem"},
        {"cartes": "choix", "selection": ["parieur", "automate", "chenapans", "golem", "oracle"]},
        {
            "cartes": "choix",
            "selection": ["parieur", "automate", "chenapans", "golem", "oracle", "dame"],
        },
    )
    personas: ClassVar[tuple[Option, ...]] = (
        Option("ruse", T.UI["persona.ruse"], T.UI["persona.ruse.help"]),
        Option("prudent", T.UI["persona.prudent"], T.UI["persona.prudent.help"]),
        Option("hasard", T.UI["persona.hasard"], T.UI["persona.hasard.help"]),
    )

    # ------------------------------------------------------------------ content

    def card_names(self) -> dict[str, str]:
        recs = self.bundle.get("records", {}).get("character_card", {})
        return {c: recs.get(c, {}).get("name", c.upper()) for c in CARD_IDS}

    def card_record(self, card: str) -> dict[str, Any]:
        return self.bundle.get("records", {}).get("character_card", {}).get(card, {})

    # ------------------------------------------------------------------ setup

    def normalize_setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        # A normalized setup holds the six cards as a list: normalizing it again (a save is
        # checked that way on every load) must read the list, not its ``str``.
        if isinstance(setup, dict) and isinstance(setup.get("selection"), list):
            chosen = setup["selection"]
            if not all(isinstance(c, str) for c in chosen):
                raise SetupError("les six cartes choisies doivent être des noms de personnages")
            setup = {**setup, "selection": ",".join(chosen)}
        return super().normalize_setup(setup)

    def check_setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        raw = setup.get("selection", "")
        if isinstance(raw, list):
            raw = ",".join(str(x) for x in raw)
        chosen: list[str] = []
        if setup.get("cartes") == "choix":
            lookup = {c: c for c in CARD_IDS}
            for c, n in self.card_names().items():
                lookup[_plain(n)] = c
            for word in str(raw).replace(";", ",").split(","):
                word = _plain(word)
                if not word:
                    continue
                card = lookup.get(word) or lookup.get(word.removeprefix("l'").removeprefix("le "))
                if card is None:
                    raise SetupError(
                        f"personnage inconnu « {word} » (au choix : {', '.join(CARD_IDS)})"
                    )
                if card == "chevalier":
                    raise SetupError("LE CHEVALIER est toujours en jeu : choisissez six autres")
                if card in chosen:
                    raise SetupError(f"« {word} » est choisi deux fois")
                chosen.append(card)
            if len(chosen) != 6:
                raise SetupError(f"il faut six personnages en plus du CHEVALIER, pas {len(chosen)}")
        setup["selection"] = chosen
        return setup

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return rules.new_state(setup)

    start_kinds = ("character_card", "tournament")

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        from .start import start_from

        try:
            return start_from(node, setup)
        except ValueError as exc:
            raise SetupError(f"impossible de commencer à « {node} » : {exc}") from exc

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        return rules.to_act(state)

    def turn_kind(self, state: dict[str, Any]) -> str:
        return rules.turn_kind(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        return rules.apply(state, action)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return rules.view(state, seat)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return screen.outcome(self, state)

    def progress(self, state: dict[str, Any]) -> str:
        if state.get("winner") is not None:
            return T.UI["progress.over"]
        return T.ui("progress", manche=state.get("manche", 0), turn=state.get("turn", 0))

    def migrate_state(
        self, state: dict[str, Any], setup: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return rules.migrate_state(state, self.personas[0].value, setup)

    # ------------------------------------------------------------------ bots

    def bot_view(
        self, state: dict[str, Any], seat: int, actions: list[Any], persona: str | None
    ) -> dict[str, Any]:
        """A view only when the bot reads it (a card or LE SORCIER's face, not « au hasard »),
        and then without the log, which no bot reads."""
        reads = actions[0]["type"] in ("play", "pivot") and persona != "hasard"
        return rules.view(state, seat, with_log=False) if reads else {}

    def decide(self, view: dict, actions: list, rng: Rng, persona: str | None) -> dict:
        return bots.decide(view, actions, rng, persona)

    # ------------------------------------------------------------------ text and screens

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        return fr.tidy(screen.describe(self, state, action))

    def render_log(self, entry: dict[str, Any]) -> str:
        return fr.tidy(T.render(entry, self.card_names()))

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        return fr.tidy_texts(screen.screen(self, state, seat, actions))

    # ------------------------------------------------------------------ checks

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        return rules.scramble(state, seat, rng)

    def check_state(self, state: dict[str, Any]) -> None:
        rules.check_state(state)

    def visits(self, state: dict[str, Any]) -> set[str]:
        """The characters revealed at least once (simulation coverage)."""
        return {
            f"character_card:{e['args']['card']}"
            for e in state.get("log", [])
            if e.get("key") == "turn.revealed"
        }


def _plain(text: str) -> str:
    import unicodedata

    text = unicodedata.normalize("NFKD", str(text).strip().lower().replace("’", "'"))
    return "".join(c for c in text if not unicodedata.combining(c))
