"""The contract every game implements: a plug-in behind one interface.

A game lives in ``engine/<id>/`` (the package name is the game id) and subclasses ``Game``.
Everything outside its package (the session, the terminal, the site, the simulator, the
checker) talks to it through this class and the registry, and names no game.

The shape follows OpenSpiel: a game is declared as data (id, French title, player range,
setup fields), and a state is plain JSON data that only the game's pure functions change.

Seats are numbered from 0.  A **state** is a JSON value (dicts, lists, str, int, bool, None)
with at least ``"format_version"`` and ``"log"`` (an append-only list of ``{"key", "args"}``
entries; an entry may carry ``"to": [seats]`` when only those seats may read it).  ``apply``
never mutates its input.  Randomness comes only from ``engine.core.rng.Rng`` over the state.

The turn:

- ``to_act(state)`` lists the seats that must act now (none at the end);
- ``turn_kind(state)`` says how they act: ``"each"`` (each seat answers on its own, secretly
  when the game has hidden information — a simultaneous choice), ``"public"`` (each seat may
  answer on one shared screen that shows no secret — a challenge window), or
  ``"collective"`` (one answer settles it for all — a cooperative group's decision);
- ``legal_actions(state, seat)`` lists every action that seat may take now;
- ``apply(state, action)`` returns the next state or raises ``MalformedAction`` /
  ``IllegalAction`` (never another exception, whatever the action).

Screens are data: ``screen(state, seat, actions)`` describes what the seat sees with the
widgets of ``engine.core.widgets``.  Bots decide from ``view(state, seat)`` only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import SeatError, SetupError, brief
from .french import YOU, count, temperament_of
from .rng import Rng
from .schema import ContentSchema
from .state import copy_state
from .types import Screen, SeatSetup

TURN_KINDS = ("each", "public", "collective")
#: the readers whose answers are the caller's own: a game's version of one returns a copy of
#: what it built, so that writing into a view, a screen or an action never changes the state
#: (a view that handed out the state's own list let a page change the game)
READERS = ("legal_actions", "view", "screen")


def _owned(reader: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(reader)
    def read(self: Game, state: Any, seat: Any, *args: Any, **kwargs: Any) -> Any:
        if seat is not None:
            self.check_seat(state, seat)
        return copy_state(reader(self, state, seat, *args, **kwargs))

    read.__wrapped_reader__ = True  # type: ignore[attr-defined]
    return read


@dataclass(frozen=True)
class Option:
    """One allowed value of a setup field, with its French label and a word of help."""

    value: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class SetupField:
    """A setup choice a front end must ask for.  The CLI options (``--name``), the site's
    custom-game form and the simulator are generated from these.

    ``kind``: ``"int"``, ``"choice"``, ``"text"`` or ``"bool"``.  ``per_seat``: one value per
    seat (a house, a character, a bot's temperament), ``bots_only``: only for bot seats,
    ``distinct``: per-seat values must differ.  ``form=False`` keeps a field off the site's
    form (a command-line alias kept for old scripts).
    """

    name: str
    label: str
    kind: str = "choice"
    default: Any = None
    options: tuple[Option, ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""
    per_seat: bool = False
    bots_only: bool = False
    distinct: bool = False
    form: bool = True

    def values(self) -> list[str]:
        return [o.value for o in self.options]

    def label_of(self, value: Any) -> str:
        """The label a player reads for one of this field's values (« Maison Ferrandine »)."""
        return next((o.label for o in self.options if o.value == value), str(value))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "options": [{"value": o.value, "label": o.label, "help": o.help} for o in self.options],
            "min": self.min,
            "max": self.max,
            "help": self.help,
            "per_seat": self.per_seat,
            "bots_only": self.bots_only,
            "distinct": self.distinct,
            "form": self.form,
        }


@dataclass(frozen=True)
class CliAlias:
    """A command-line flag kept for old scripts: ``--characters N`` means ``--players N``
    (``means="players"``), ``--auto`` means every seat is a bot (``means="all_bots"``)."""

    flag: str
    help: str
    means: str
    kind: str = "int"


@dataclass
class Outcome:
    """The end of a game: who won, the scores, and a French summary.  ``ranking`` rows are
    ``{"seat", "rank", "score", "details": [str]}`` (where each point comes from)."""

    winners: list[int]
    summary: str
    scores: dict[int, int] = field(default_factory=dict)
    ranking: list[dict[str, Any]] = field(default_factory=list)
    why: str = ""
    #: games this ending offers to play next: ``{"game": id, "label": French, "setup": {...}}``
    #: (a vacant throne in one game offers a game of another to fill it)
    links: list[dict[str, Any]] = field(default_factory=list)
    #: widgets shown at the end beside the ranking (a bluff game's reveal of every claim)
    widgets: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": self.winners,
            "summary": self.summary,
            "scores": {str(k): v for k, v in self.scores.items()},
            "ranking": self.ranking,
            "why": self.why,
            "links": self.links,
            "widgets": self.widgets,
        }


class Game:
    """Base class of a game plug-in.  One instance per content bundle (``Game(bundle)``); the
    bundle is read, never written.

    Class attributes declare the game; methods marked *must* are implemented by every game.
    """

    #: the game id: also its package name, its content family and its play page ``play/<id>/``
    id: ClassVar[str] = ""
    #: French title, as on the box
    title: ClassVar[str] = ""
    #: one sentence that presents the game on the home page and in ``gamebook games``
    pitch: ClassVar[str] = ""
    #: seats at the table: (min, max) and the default for a quick start
    players: ClassVar[tuple[int, int]] = (1, 1)
    default_players: ClassVar[int] = 1
    #: setup choices beyond the seats, their names and humans/bots, and the seed
    setup_fields: ClassVar[tuple[SetupField, ...]] = ()
    #: True when seats hold secrets from each other (hand-over screen between humans)
    hidden_information: ClassVar[bool] = True
    #: the action types whose offer shows what the acting seat alone knows (a card of its hand
    #: to play, a stepper bounded by its secret Pouvoir, its secret objectives to draft): the
    #: session marks the choices groups that hold one as that seat's private information.
    #: ``None`` marks every choice of a seat (a game that has not said which are secret)
    private_actions: ClassVar[frozenset[str] | None] = None
    #: True when the seats play together against the game (« Vous et 1 coéquipier… »)
    cooperative: ClassVar[bool] = False
    #: True when the bots of a simultaneous choice (several seats in ``to_act``, each answering
    #: on its own) draw from streams mixed with their seat (``session.bot_seat``): each decides
    #: on its own stream.  False keeps the seeds of the moves alone (and the recorded games)
    seat_streams: ClassVar[bool] = False
    #: the content format of ``content/<id>/`` (``None``: the game needs no content)
    content: ClassVar[ContentSchema | None] = None
    #: names for the seats nobody named, with their gender (``("Aliénor", "f")``): each game's
    #: own list (its text_fr), drawn from the game number, so the same number seats the same
    #: table; a game whose seats are houses or characters has none
    seat_names_pool: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the word for one seat on screen (« Maison », « joueur », « personnage »)
    seat_word: ClassVar[str] = "joueur"
    #: state format version, and the oldest version ``migrate_state`` can bring up to date
    state_version: ClassVar[int] = 1
    min_state_version: ClassVar[int] = 1
    #: the oldest save format (``engine.core.save``) this game was ever saved in: a game added
    #: after the first format refuses a first-format file, which could only be forged
    oldest_save_version: ClassVar[int] = 2
    #: the oldest save format this game still loads.  A first-format file holds a state and
    #: no log: nothing can prove it, so a game whose states matter refuses it (``2``)
    min_save_version: ClassVar[int] = 1
    #: rules page under the site root (``regles-<id>/``)
    rules_page: ClassVar[str] = ""
    #: command-line flags kept for old scripts
    cli_aliases: ClassVar[tuple[CliAlias, ...]] = ()
    #: setups a player may give that a field-by-field sweep would not build (a choice that
    #: needs a text field filled in): the contract tests normalize them too
    setup_examples: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: kinds of content node that are not story nodes but that ``start_from`` begins at (a
    #: month, a variant...): the story map offers « Jouer depuis ici » on them too
    start_kinds: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in READERS:
            reader = cls.__dict__.get(name)
            if callable(reader) and not getattr(reader, "__wrapped_reader__", False):
                setattr(cls, name, _owned(reader))

    def __init__(self, bundle: dict[str, Any]) -> None:
        self.bundle = bundle

    # ------------------------------------------------------------------ identity

    @classmethod
    def info(cls) -> dict[str, Any]:
        """What ``gamebook games --format json`` prints for this game."""
        return {
            "id": cls.id,
            "title": cls.title,
            "pitch": cls.pitch,
            "players": {"min": cls.players[0], "max": cls.players[1]},
            "default_players": cls.default_players,
            "page": f"play/{cls.id}/",
            "rules": cls.rules_page or f"regles-{cls.id}/",
            "hidden_information": cls.hidden_information,
            "cooperative": cls.cooperative,
            "setup": [f.to_json() for f in cls.setup_fields],
        }

    # ------------------------------------------------------------------ setup

    def check_seat(self, state: dict[str, Any], seat: Any) -> None:
        """Raise ``SeatError`` unless ``seat`` is a seat of this game: an integer from 0 to the
        last seat (``view(state, -1)`` read the last seat's hand, as Python indexes lists)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise SeatError(f"{self.id}: no seat {brief(seat)}")
        try:
            count = len(self.seat_names(state))
        except (KeyError, TypeError, AttributeError, IndexError):
            return  # not a state of this game: the reader itself says so
        if seat >= max(count, 1):
            raise SeatError(f"{self.id}: no seat {brief(seat)} (seats 0 to {count - 1})")

    def default_seat_name(self, seat: int) -> str:
        """The name a seat gets when the player gives none."""
        return f"{self.seat_word.capitalize()} {seat + 1}"

    def normalize_setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        """Check a setup against the declared fields and fill in every default.

        A setup is ``{"seed": str, "seats": [{"name", "bot", <per-seat fields>}], <fields>}``.
        ``"players"``/``"bots"`` may stand for ``"seats"`` (``players`` seats, the last
        ``bots`` of them played by bots).  Raises ``SetupError`` with a French message.
        """
        if not isinstance(setup, dict):
            raise SetupError("la mise en place doit être une table de réglages")
        seed = setup.get("seed", "0")
        if isinstance(seed, (list, dict)) or (_is_int(seed) and abs(seed) >= 10**100):
            raise SetupError("le numéro de partie doit être un texte ou un nombre")
        out: dict[str, Any] = {"seed": str(seed)}
        seats = setup.get("seats")
        low, high = self.seat_range()
        if seats is None:
            seats = self._seats_from_counts(setup, low, high)
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise SetupError("« seats » doit être une liste de places")
        if not low <= len(seats) <= high:
            raise SetupError(self._seat_count_error(low, high, len(seats)))
        norm_seats: list[dict[str, Any]] = []
        for i, s in enumerate(seats):
            name = s.get("name")
            if name is not None and not isinstance(name, str):
                raise SetupError(f"le nom de la place {i + 1} doit être un texte")
            norm_seats.append({"name": (name or "").strip()[:40], "bot": bool(s.get("bot", False))})
        for f in self.fields():
            if f.per_seat:
                self._per_seat_values(f, setup, seats, norm_seats)
            else:
                value = setup.get(f.name, f.default)
                out[f.name] = _check_value(f, value, f.label)
        names = setup.get("names")
        if isinstance(names, list):
            for seat, name in zip(norm_seats, names, strict=False):
                if isinstance(name, str) and name.strip() and not seat["name"]:
                    seat["name"] = name.strip()[:40]
        if self.personas:
            self._bot_personas(setup, seats, norm_seats)
        drawn = iter(self.drawn_names(out["seed"], {s["name"] for s in norm_seats}))
        # a single person at the table (the others played by the computer) is « Vous »: the
        # game speaks to them; several people keep their names, and so do the bots (drawn as
        # if the person had drawn one too, so that they are the same either way)
        alone = sum(not s["bot"] for s in norm_seats) == 1
        for i, seat in enumerate(norm_seats):
            if not seat["name"]:
                drawn_name = next(drawn, None)
                if alone and not seat["bot"]:
                    seat["name"] = YOU
                else:
                    seat["name"] = drawn_name or self.seat_name(seat, i)
        out["seats"] = norm_seats
        return self.check_setup(out)

    def _seats_from_counts(self, setup: dict[str, Any], low: int, high: int) -> list[dict]:
        """The seats ``"players"`` and ``"bots"`` stand for (the last ``bots`` are the
        computer's); ``SetupError`` for counts the game cannot seat."""
        n = setup.get("players")
        bots = setup.get("bots")
        if any(not _is_int(v) for v in (n, bots) if v is not None):
            raise SetupError("le nombre de joueurs et de bots doit être un nombre entier")
        if n is None:
            n = bots if bots else min(max(self.default_players, low), high)
        if bots is None:
            bots = n - 1
        if not isinstance(n, int) or not isinstance(bots, int) or isinstance(n, bool):
            raise SetupError(
                "le nombre de places et de places jouées par l'ordinateur doit être un "
                "nombre entier"
            )
        if not low <= n <= high:  # before any seat is built (a save may say 10**8)
            raise SetupError(self._seat_count_error(low, high, n))
        if not 0 <= bots <= n:
            many = (
                "autant de places jouées"
                if abs(bots) >= 10**6
                else count(bots, "place jouée", "places jouées")
            )
            raise SetupError(
                f"il ne peut pas y avoir {many} par l'ordinateur pour {count(n, 'place')}"
            )
        return [{"bot": i >= n - bots} for i in range(n)]

    def _per_seat_values(
        self, f: SetupField, setup: dict[str, Any], seats: list[dict], norm_seats: list[dict]
    ) -> None:
        """Each seat's value of the per-seat field ``f``: its own, else the setup's shared one
        (a value, or a list by seat), else the first of its defaults no other seat took."""
        used: set[Any] = set()
        for i, (raw, seat) in enumerate(zip(seats, norm_seats, strict=True)):
            if f.bots_only and not seat["bot"]:
                continue
            value = raw.get(f.name)
            shared = setup.get(f.name)  # one value for every seat, or a list by seat
            if value is None and isinstance(shared, list):
                value = shared[i] if i < len(shared) else None
            elif value is None and shared is not None and not isinstance(shared, dict):
                value = shared
            if value is None:
                candidates = [v for v in self.seat_defaults(f, i) if v not in used]
                value = candidates[0] if candidates else None
            value = _check_value(f, value, f"{f.label} ({self.seat_word} {i + 1})")
            if f.distinct and value in used:
                raise SetupError(
                    f"{f.label} : deux places ont choisi « {f.label_of(value)} » ; "
                    "changez le choix de l'une d'elles"
                )
            used.add(value)
            seat[f.name] = value

    def _bot_personas(
        self, setup: dict[str, Any], seats: list[dict], norm_seats: list[dict]
    ) -> None:
        """Each bot seat's temperament: its own, else the setup's (one, or a list by bot), else
        the first the game offers; ``SetupError`` for one the game does not have."""
        allowed = [o.value for o in self.personas]
        shared = setup.get("persona")
        bots = [i for i, s in enumerate(norm_seats) if s["bot"]]
        for n, i in enumerate(bots):
            value = seats[i].get("persona")
            if value is None and isinstance(shared, list):
                value = shared[n] if n < len(shared) else None
            elif value is None and isinstance(shared, str):
                value = shared
            value = value or allowed[0]
            if value not in allowed:
                shown = ", ".join(o.label for o in self.personas)
                raise SetupError(
                    f"le caractère « {value} » n'existe pas pour une place jouée par "
                    f"l'ordinateur (au choix : {shown})"
                )
            norm_seats[i]["persona"] = value

    def _seat_count_error(self, low: int, high: int, n: int) -> str:
        shown = str(n) if abs(n) < 10**6 else "autant"  # a 5,000-digit count is not printed
        if low != high:
            return f"{self.title} se joue de {low} à {count(high, self.seat_word)}, pas {shown}"
        return f"{self.title} se joue à {count(low, self.seat_word)}, pas {shown}"

    def drawn_names(self, seed: str, taken: set[str]) -> list[str]:
        """The pool's names in the order this game number draws them, ``taken`` left out.

        >>> class G(Game):
        ...     seat_names_pool = (("Anne", "f"), ("Bertrand", "m"), ("Clémence", "f"))
        >>> G({}).drawn_names("7", set()) == G({}).drawn_names("7", set())
        True
        >>> sorted(G({}).drawn_names("7", {"Anne"}))
        ['Bertrand', 'Clémence']
        """
        names = [n for n, _ in self.seat_names_pool if n not in taken]
        return Rng({"rng": Rng.seed_from(f"{seed}:names")}).shuffle(names)

    def seat_gender(self, name: str) -> str | None:
        """``"m"`` or ``"f"`` for a name of the pool; ``None`` for a name a player typed."""
        return next((g for n, g in self.seat_names_pool if n == name), None)

    def temperament(self, seat: SeatSetup) -> str:
        """A bot seat's temperament in words, agreeing with its name (« Prudente »); ``""``
        for a person's seat or a game without temperaments."""
        if not seat.get("bot") or not self.personas:
            return ""
        label = next((o.label for o in self.personas if o.value == seat.get("persona")), "")
        gender = self.seat_gender(str(seat.get("name", "")))
        return temperament_of(label, gender)

    def seat_range(self) -> tuple[int, int]:
        """Seats this content allows (a campaign with two characters seats two at most)."""
        return self.players

    def fields(self) -> tuple[SetupField, ...]:
        """The setup fields for this game's content (a house or character list comes from the
        bundle); by default the class's ``setup_fields``."""
        return self.setup_fields

    def legacy_setup(self, state: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        """The setup of a state saved before saves kept one (save format 1)."""
        return setup

    def seat_defaults(self, f: SetupField, seat: int) -> list[Any]:
        """Candidate values of a per-seat field for seat ``seat``, best first (``distinct``
        fields take the first one not yet used)."""
        if f.default is not None:
            return [f.default]
        return f.values()

    def seat_name(self, seat: dict[str, Any], index: int) -> str:
        """The name of a seat the player did not name (a house's or character's name)."""
        return self.default_seat_name(index)

    def check_setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        """Game-specific checks of a normalized setup (raise ``SetupError``)."""
        return setup

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        """*Must.*  The first state of a game for a normalized setup."""
        raise NotImplementedError

    def start_from(self, node: str, setup: dict[str, Any]) -> dict[str, Any]:
        """A state from which play begins at story node ``node`` (``kind:key``), consistent with
        having reached it (the conditions on its way satisfied), for writers who test a card
        without playing from the start.  ``SetupError`` (French) when no such state exists or
        the game cannot start there."""
        raise SetupError(f"{self.title} ne sait pas commencer ailleurs qu'au début")

    def chapter(self, state: dict[str, Any]) -> str | None:
        """The story node of the chapter this state is playing (``kind:key``: a campaign's
        scenario), or ``None`` for a game that has no chapters.  ``gamebook simulate`` keeps
        the state in which play enters a new chapter during its first runs, and begins later
        runs there, so that the last chapters of a long campaign are played as often as the
        first, each with what the chapters before it really gave.  Cheap: it is asked after
        every action."""
        return None

    def sequel(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The next game of a campaign after a finished one (legacy games), or ``None``."""
        return None

    # ------------------------------------------------------------------ the turn

    def to_act(self, state: dict[str, Any]) -> list[int]:
        """*Must.*  The seats that must act now; empty when the game is over."""
        raise NotImplementedError

    def turn_kind(self, state: dict[str, Any]) -> str:
        """How the seats of ``to_act`` answer (one of ``TURN_KINDS``)."""
        return "each"

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        """*Must.*  Every action ``seat`` may take now (an empty list when it has none)."""
        raise NotImplementedError

    def apply(self, state: dict[str, Any], action: Any) -> dict[str, Any]:
        """*Must.*  The next state; never mutates ``state``.  Anything not in
        ``legal_actions`` raises ``MalformedAction`` or ``IllegalAction``."""
        raise NotImplementedError

    def canonical_action(self, action: Any) -> Any:
        """``action`` in the form ``legal_actions`` lists it, where the order of a list carries
        no meaning (the cards a player keeps): a front end compares it with the legal ones
        after this.  By default the action itself."""
        return action

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """*Must.*  What ``seat`` may know (``None``: a spectator who sees only what is public).
        Other seats' secrets are absent, not hidden; the generator's state is absent."""
        raise NotImplementedError

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        """*Must.*  ``None`` while the game goes on."""
        raise NotImplementedError

    def out_seats(self, state: dict[str, Any]) -> list[int]:
        """Seats out of a game that goes on without them (a bluff game's players who lost
        their last character).  When every person at the table is out and bots play on, the
        session lets them watch the rest of the game move by move (``Session.watching``)."""
        return []

    def chronicle(self, state: dict[str, Any]) -> list[dict] | None:
        """Widgets of the game's chronicle page (a campaign's story so far), or ``None``."""
        return None

    def progress(self, state: dict[str, Any]) -> str:
        """A few French words on how far the game has gone (save slots: « manche 3 »)."""
        return ""

    # ------------------------------------------------------------------ bots

    #: bot temperaments a player may pick (the first is the default); may be empty
    personas: ClassVar[tuple[Option, ...]] = ()
    #: the share of decisions ``gamebook simulate``'s mixed policy draws at random among the
    #: legal ones (the bots take the others): a game whose turns are made of many small
    #: decisions wanders less, or its runs end in disorder before its later content
    simulation_wander: ClassVar[float] = 0.25

    def simulation_setup(self, index: int) -> dict[str, Any]:
        """What run ``index`` of ``gamebook simulate`` sets in the setup besides its seats and
        personas, so that the runs between them exercise what coverage counts (a scenario
        played only when it is chosen); by default nothing."""
        return {}

    def choose(self, state: dict[str, Any], seat: int, rng: Rng, persona: str | None = None) -> Any:
        """A bot's action for ``seat``.  Decided from the seat's view only, among its legal
        actions: a bot cannot read what its seat may not see."""
        # the game's own readers, uncopied: its bot reads them and writes into none (the
        # contract tests check that the state is the same after ``choose``)
        actions = self._own("legal_actions")(self, state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        action = self.decide(self.bot_view(state, seat, actions, persona), actions, rng, persona)
        if action not in actions:
            raise AssertionError(f"{self.id} bot chose an action that is not legal: {action!r}")
        return copy_state(action)

    def bot_view(
        self, state: dict[str, Any], seat: int, actions: list[Any], persona: str | None
    ) -> dict[str, Any]:
        """What ``decide`` reads: by default ``view(state, seat)``, uncopied.  A game may give
        a cheaper view where speed needs it (without the log, which no bot reads; nothing at
        all for a temperament that reads nothing) — never more than ``view`` shows the seat."""
        return self._own("view")(self, state, seat)

    @classmethod
    def _own(cls, name: str) -> Callable[..., Any]:
        """A reader of ``READERS`` as the game wrote it, without the copy of its answer."""
        reader = getattr(cls, name)
        return getattr(reader, "__wrapped__", reader)

    def decide(
        self, view: dict[str, Any], actions: list[Any], rng: Rng, persona: str | None
    ) -> Any:
        """*Must.*  Pick one of ``actions`` from ``view`` (what the seat may see)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ text and screens

    def describe(self, state: dict[str, Any], action: Any, seat: int | None) -> str:
        """*Must.*  The French label of an action, as on its button."""
        raise NotImplementedError

    def render_log(self, entry: dict[str, Any]) -> str:
        """*Must.*  One log entry in French (from the game's string table)."""
        raise NotImplementedError

    def seat_names(self, state: dict[str, Any]) -> list[str]:
        """The seats' names, in seat order."""
        return [s["name"] for s in state.get("seats", [])]

    def screen(self, state: dict[str, Any], seat: int | None, actions: list[Any]) -> Screen:
        """*Must.*  The screen for ``seat`` (``None``: the public screen of a ``"public"`` or
        spectator moment) as ``engine.core.widgets.screen(...)``: a status line, widgets, and
        ``actions`` (the legal actions offered now, in this order) grouped into choices."""
        raise NotImplementedError

    # ------------------------------------------------------------------ checks

    def scramble(self, state: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
        """A copy of ``state`` whose secrets known only to ``seat`` (``None``: secrets no seat
        knows, such as a deck's order) are changed, everything else equal.  The contract tests
        check that no other seat's view and no other seat's bot changes.  A game without such
        secrets returns ``state``."""
        return state

    def check_state(self, state: dict[str, Any]) -> None:
        """Raise ``ValueError`` when a state breaks the game's invariants (cards in two places,
        negative coins...).  Run on every save before it is trusted."""

    def visits(self, state: dict[str, Any]) -> set[str]:
        """Story-graph nodes this game has visited (``kind:key``), for simulation coverage."""
        return set()

    def migrate_state(
        self, state: dict[str, Any], setup: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Bring a state of an older ``state_version`` up to date (one step at a time).
        ``setup``: the save's own setup, normalised, for what an older state did not hold."""
        return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_value(f: SetupField, value: Any, what: str) -> Any:
    if f.kind == "int":
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value) if len(value) < 20 else 10**20  # no 5,000-digit conversion
        if not isinstance(value, int) or isinstance(value, bool):
            raise SetupError(f"{what} : un nombre entier est attendu")
        if (f.min is not None and value < f.min) or (f.max is not None and value > f.max):
            shown = value if abs(value) < 10**6 else "autant"
            raise SetupError(f"{what} : entre {f.min} et {f.max}, pas {shown}")
        return value
    if f.kind == "bool":
        if isinstance(value, str):
            value = value.lower() in ("1", "true", "oui", "o", "yes")
        return bool(value)
    if f.kind == "text":
        return "" if value is None else str(value)[:200]
    if f.kind == "choice":
        allowed = f.values()
        if value not in allowed:
            shown = ", ".join(o.label for o in f.options)
            raise SetupError(f"{what} : « {value} » n'est pas possible (au choix : {shown})")
        return value
    raise SetupError(f"{what} : type de réglage inconnu {f.kind!r}")
