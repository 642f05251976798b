"""One session for every front end: the turn loop, bots, undo, hand-over and saves.

The terminal (``gamebook play``), the browser (``engine.web``) and the tests drive a game only
through a ``Session``; it knows no game, only the ``Game`` contract.

- **Bots** act as soon as it is their turn, each from its seat's view, with a generator seeded
  from the game's seed and the number of actions so far (same seed, same game).
- **Humans** act through ``act``; ``screen`` says who must act and offers exactly the legal
  actions of that seat, grouped by the game.
- **Hand-over**, a guarantee of the session whatever the game: when the game has hidden
  information and several humans share the device, a screen drawn for one seat (its view: its
  hand, its objective) is shown only to the last person who confirmed holding the device
  (``handed``); for anyone else ``screen`` shows only « Passez l'appareil à … » — no secret —
  until ``handed_over`` is called.  Nobody holds it when a game starts or a save is loaded,
  and nobody after a ``"public"`` moment (a challenge window: one screen with no secret where
  every human seat may speak up, bots first) or a campaign's next game begun from the end
  screen, since anyone at the table may have pressed that button.  Simultaneous hidden
  choices are collected one seat at a time that way.  A game with one person and bots never
  shows a hand-over.
- **Other devices** (``remote``): seats played on another device (issue 32, ``engine.core.devices``)
  are never offered on this one and never hand the device over; ``screen_for(seat)`` is what
  that device shows (its seat's view only), and ``act(action, seat)`` takes its actions.  Which
  seats are remote is how the table sits, not the game: saves do not hold it.
- **Watching**: when every person at the table is out of a game that goes on without them
  (``Game.out_seats``), the bots stop after each step: the screen says so and offers
  « Coup suivant » (the bots play until the journal has a new line) and « Voir la fin »
  (they play to the end), two actions the session answers itself (``WATCH_NEXT``,
  ``WATCH_END``) and never logs; the end screen follows.
- **Undo** goes back to before the last human action (the bots' moves after it included).
- **Saves** hold the setup and the action log: loading replays them and compares the result
  with the saved state, so a damaged or edited save is refused with a French message and
  the game in progress is left untouched.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from typing import Any, cast

from . import french as fr
from . import playout
from .errors import IllegalAction, MalformedAction, SetupError
from .french import de, listing
from .game import Game
from .migrate import migrate
from .rng import Rng
from .save import (
    LOGGED_VERSIONS,
    NOT_A_SAVE,
    SAVE_FORMAT,
    SAVE_VERSION,
    IncrementalDumps,
    SaveError,
    check_keys,
    check_schema,
    dumps,
    parse,
    same_shape,
    upgrade,
)
from .state import copy_state, is_among
from .types import Group, Screen, SeatSetup
from .widgets import caption_seats, choice, group

UNDO_DEPTH = 30
#: bot actions one ``advance`` may play before it stops (a whole bot game fits many times)
MAX_BOT_STEPS = 200_000
LOG_SHOWN = 200
_NO_SEED = object()
RECAP_LINES = 14
#: the watching person's two buttons (``Session.watching``): answered by the session itself
WATCH_NEXT = {"watch": "next"}
WATCH_END = {"watch": "end"}
WATCH_TEXT = {
    "heading": "La partie continue sans vous",
    "next": "Coup suivant",
    "end": "Voir la fin",
    "next.help": "Les autres jouent jusqu'à la prochaine ligne du journal.",
    "end.help": "Les autres jouent jusqu'à la fin de la partie ; le résultat suit.",
    "prompt": "{name} {name:est} hors jeu : suivez le reste de la partie coup par coup, ou "
    "passez à la fin.",
    "prompt.many": "Toutes les personnes de la table sont hors jeu : suivez le reste de la "
    "partie coup par coup, ou passez à la fin.",
}


def waiting_for(names: list[str]) -> str:
    """« En attente de Bruno », « En attente de Bruno et de Chloé »."""
    return "En attente " + listing([de(n) for n in names], "et")


def bot_prefix(seed: Any) -> int:
    """The hashed common prefix of the bots' seeds: a bot's move after ``n`` moves of a game
    draws from ``seed_from(f"{seed}:bot:{n}")``, which is ``bot_rng(bot_prefix(seed), n)``."""
    return Rng.seed_from(f"{seed}:bot:")


def bot_rng(prefix: int, moves: int, seat: int | None = None) -> Rng:
    """The generator of a bot's move after ``moves`` moves (``prefix``: ``bot_prefix``).

    ``seat``: given when several seats choose at once (``to_act`` holds more than one), so each
    seat draws from its own stream, mixed from its seat; a sequential move (one seat to act)
    keeps the seed of the moves alone.

    >>> bot_rng(7, 3).next() == bot_rng(7, 3, None).next() != bot_rng(7, 3, 0).next()
    True
    """
    return Rng({"rng": Rng.seed_more(prefix, str(moves) if seat is None else f"{moves}@{seat}")})


def bot_seat(game: Game, state: dict[str, Any], seat: int) -> int | None:
    """The seat to mix into a bot's seed: ``seat`` when the game gives each seat its own stream
    (``Game.seat_streams``) and several seats choose at once, each on its own (``to_act`` holds
    more than one seat, ``turn_kind`` is ``each``); else none (the moves alone seed it)."""
    if not game.seat_streams or game.turn_kind(state) != "each":
        return None
    return seat if len(game.to_act(state)) > 1 else None


class Session:
    """A game in progress, whatever the game.  ``Session(game).start(setup)``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.setup: dict[str, Any] = {}
        self.state: dict[str, Any] | None = None
        self.base: dict[str, Any] | None = None
        #: the story node a start-anywhere game began at (its ``base`` is rebuilt from it)
        self.start_node: str | None = None
        #: 1 when ``base`` came from a first-format save (a game that still takes them)
        self.migrated_from: int | None = None
        self.actions: list[dict[str, Any]] = []
        self.undo_stack: list[tuple[dict[str, Any], int]] = []
        self.handed: int | None = None
        #: seats played on other devices (issue 32): not part of the game, never saved
        self.remote: frozenset[int] = frozenset()
        #: people's seats the computer plays since their device left (``give_to_bot``)
        self.autoplay: frozenset[int] = frozenset()
        self.marks: dict[str, int] = {}
        self.notice: str | None = None
        self._rendered: dict[int, tuple[dict[str, Any], str]] = {}
        #: viewer -> (log entries read, the last of them, its lines, their entries' indexes)
        self._journals: dict[int | None, tuple[int, Any, list[str], list[int]]] = {}
        self._bot_prefix: tuple[Any, int] = (_NO_SEED, 0)  # bot_rng: the seed, its prefix's hash
        self._dumps = IncrementalDumps()  # the autosave's text, item by item (same as dumps)

    # ------------------------------------------------------------------ starting

    def start(self, setup: dict[str, Any], start_from: str | None = None) -> Session:
        """Start a game (``SetupError`` with a French message for a bad setup).  ``start_from``:
        a story node (``kind:key``) to begin at (``Game.start_from``); the save then keeps that
        first state as its ``base``."""
        setup = self.game.normalize_setup(setup)
        if start_from is not None:
            _check_node(start_from)
            state = self.game.start_from(start_from, setup)
            base: dict[str, Any] | None = copy_state(state)
        else:
            state, base = self.game.new_game(setup), None
        self.setup, self.state, self.base = setup, state, base
        self.start_node, self.migrated_from = start_from or None, None
        self.actions, self.undo_stack, self.marks = [], [], {}
        self.handed, self.notice, self._rendered, self._journals = None, None, {}, {}
        self.autoplay = frozenset()
        self.advance()
        return self

    @property
    def seats(self) -> list[SeatSetup]:
        return self.setup.get("seats", [])

    def is_bot(self, seat: int) -> bool:
        seats = self.setup.get("seats", [])
        return bool(0 <= seat < len(seats) and seats[seat].get("bot")) or seat in self.autoplay

    def humans(self) -> list[int]:
        return [i for i in range(len(self.seats)) if not self.is_bot(i)]

    def local_humans(self) -> list[int]:
        """The human seats played on this device (not ``remote``)."""
        return [i for i in self.humans() if i not in self.remote]

    def set_remote(self, seats: list[int]) -> None:
        """The human seats now played on other devices (an empty list: all back here)."""
        humans = set(self.humans())
        self.remote = frozenset(s for s in seats if s in humans)
        if self.handed in self.remote:
            self.handed = None

    def names(self) -> list[str]:
        assert self.state is not None
        try:
            return self.game.seat_names(self.state)
        except (KeyError, TypeError):
            return [s.get("name", "") for s in self.seats]

    # ------------------------------------------------------------------ the turn loop

    def waiting(self) -> tuple[list[int], str]:
        """The human seats that must act now and how (``turn_kind``); ``([], kind)`` when no
        human must act (bots to play, or the game is over)."""
        assert self.state is not None
        seats = self.game.to_act(self.state)
        kind = self.game.turn_kind(self.state) if seats else "each"
        humans = [s for s in seats if not self.is_bot(s)]
        if kind == "collective":
            return (humans[:1], kind) if humans else ([], kind)
        if any(self.is_bot(s) for s in seats):
            return [], kind  # bots answer first
        return humans, kind

    def _bot_to_play(self) -> int | None:
        assert self.state is not None
        return self._bot_among(self.game.to_act(self.state))

    def _bot_among(self, seats: list[int]) -> int | None:
        """The bot that plays now among ``seats`` (those that must act), if any."""
        assert self.state is not None
        if not seats:
            return None
        if self.game.turn_kind(self.state) == "collective":
            return seats[0] if not any(not self.is_bot(s) for s in seats) else None
        for s in seats:
            if self.is_bot(s):
                return s
        return None

    def bot_rng(self, seat: int | None = None) -> Rng:
        """The bots' draws for the next move: from the seed and the number of moves made, and
        ``seat`` when several seats choose at once (``bot_seat``)."""
        seed = self.setup.get("seed", "0")
        known, value = self._bot_prefix
        if known != seed or type(known) is not type(seed):  # (``_NO_SEED`` equals nothing)
            value = bot_prefix(seed)
            self._bot_prefix = (seed, value)
        return bot_rng(value, len(self.actions), seat)

    def persona(self, seat: int) -> str | None:
        if not self.game.personas:
            return None
        return self.seats[seat].get("persona") or self.game.personas[0].value

    @property
    def watching(self) -> bool:
        """Every person at the table is out (``Game.out_seats``) and the bots play on."""
        if self.state is None:
            return False
        humans = self.humans()
        if not humans or not self.game.to_act(self.state):
            return False
        out = set(self.game.out_seats(self.state))
        return all(h in out for h in humans)

    def advance(self, limit: int = MAX_BOT_STEPS, watch: bool = True) -> int:
        """Let the bots play until a human must act or the game ends; the number of moves.
        While the people at the table watch (``watching``), nothing until they ask, unless
        ``watch`` is false."""
        assert self.state is not None
        personas: dict[int, str | None] = {}

        def bot(game: Game, state: dict[str, Any], seat: int, index: int) -> Any:
            if seat not in personas:
                personas[seat] = self.persona(seat)
            return game.choose(
                state, seat, self.bot_rng(bot_seat(game, state, seat)), personas[seat]
            )

        steps = 0
        if watch and self.watching:
            return steps
        moves = playout.play(
            self.game,
            self.state,
            bot,
            seat=lambda g, st, seats, i: self._bot_among(seats),
            limit=limit,
        )
        for move in moves:  # each move recorded before the next seat and generator are drawn
            self.state = move.after
            self.actions.append({"seat": move.seat, "action": move.action})
            steps += 1
            if watch and self.watching:
                break  # the people watch: the next move waits for « Coup suivant »
        return steps

    def give_to_bot(self, seat: int) -> bool:
        """A person's seat played by the computer from now on (its device never came back).
        The setup is unchanged (a game's first state may depend on who is a bot): the save
        replays as it was; like ``remote``, this is how the table sits, not saved."""
        if self.state is None or seat not in self.humans():
            return False
        self.autoplay = self.autoplay | {seat}
        self.remote = self.remote - {seat}
        if self.handed == seat:
            self.handed = None
        self.notice = None
        self.advance()
        return True

    def local_waiting(self) -> tuple[list[int], str]:
        """``waiting`` without the seats played on other devices."""
        seats, kind = self.waiting()
        return [s for s in seats if s not in self.remote], kind

    def seat_of(self, action: Any, remote: int | None = None) -> int | None:
        """The waiting human seat of this device for which ``action`` is legal, if any; with
        ``remote``, that seat only (played on another device), if it must act now."""
        assert self.state is not None
        if remote is None:
            seats, _ = self.local_waiting()
        else:
            seats = [remote] if remote in self.remote and remote in self.waiting()[0] else []
        for seat in seats:
            if is_among(action, self.game.legal_actions(self.state, seat)):  # True is not 1
                return seat
        return None

    def act(self, action: Any, remote: int | None = None) -> None:
        """A human's action.  Raises the engine's ``MalformedAction``/``IllegalAction`` (the
        state is unchanged) when it is not one the waiting seats may take.  ``remote``: the
        seat of the other device that sent it (only that seat may have taken it)."""
        assert self.state is not None
        if action in (WATCH_NEXT, WATCH_END) and self.watching:
            self._watch(action == WATCH_END)
            return
        action = self.game.canonical_action(action)
        seat = self.seat_of(action, remote)
        if seat is None:
            seats, _ = self.waiting()
            where = f"{self.game.id}, waiting for seats {seats}"
            if not isinstance(action, dict):
                raise MalformedAction(action, where, "an action is a JSON object")
            raise IllegalAction(action, where, "not a legal action of a seat that must act now")
        before, count = self.state, len(self.actions)
        public = self.waiting()[1] == "public"
        self.state = self.game.apply(self.state, action)
        self.actions.append({"seat": seat, "action": action})
        self.undo_stack.append((before, count))
        del self.undo_stack[:-UNDO_DEPTH]
        self.marks[str(seat)] = len(before.get("log", []))
        # a public window's button may have been pressed by anyone at the table: nobody is
        # known to hold the device after it (the next secret screen is handed over first)
        # a seat played on another device held nothing here: who holds this one is unchanged
        if remote is None:
            self.handed = None if public else seat
        self.notice = None
        self.advance()

    def _watch(self, to_the_end: bool) -> None:
        """The watching people's « Coup suivant » (the bots play until the journal the
        watcher reads has a new line) or « Voir la fin »."""
        assert self.state is not None
        viewer = self.viewer()
        size = len(self.state.get("log", []))
        for h in self.humans():  # « what just happened » starts here
            self.marks[str(h)] = size
        self.notice = None
        if to_the_end:
            self.advance(watch=False)
            return
        seen = len(self._journal(viewer)[0])
        while self._bot_to_play() is not None:
            self.advance(limit=1, watch=False)
            if len(self._journal(viewer)[0]) > seen:
                break

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.state, count = self.undo_stack.pop()
        del self.actions[count:]
        self.notice = None
        return True

    def next_game(self) -> bool:
        """Start the next game of a campaign after a finished one (legacy games)."""
        assert self.state is not None
        if self.game.to_act(self.state):
            return False
        nxt = self.game.sequel(self.state)
        if nxt is None:
            return False
        self.undo_stack.append((self.state, len(self.actions)))
        self.state = nxt
        self.actions.append({"sequel": True})
        self.marks = {}
        self.handed = None  # pressed on the end screen, which anyone at the table may read
        self.advance()
        return True

    # ------------------------------------------------------------------ screens

    def viewer(self) -> int | None:
        """The seat whose view the next screen is drawn from (``None``: nobody's secrets, a
        public window or the end of a game with several people)."""
        seats, kind = self.local_waiting()
        if seats and kind == "public":
            return None
        if seats:
            return seats[0]
        humans = self.local_humans()
        return humans[0] if len(humans) == 1 else None

    def handoff_due(self) -> int | None:
        """The seat the device must be handed to before the next screen, if any: that screen
        shows a seat's secrets, several people share the device, and the last one who
        confirmed holding it (``handed``) is someone else or nobody."""
        viewer = self.viewer()
        if viewer is None or self.handed == viewer or self.is_bot(viewer):
            return None
        if not self.game.hidden_information or len(self.local_humans()) < 2:
            return None
        return viewer

    def handed_over(self) -> None:
        """The device is now in the hands of the seat the hand-over screen named.  Called
        again (a double click), or when no hand-over is due, it changes nothing."""
        seat = self.handoff_due()
        if seat is not None:
            self.handed = seat

    def _visible(self, entry: dict[str, Any], viewer: int | None) -> bool:
        to = entry.get("to")
        return to is None or (viewer is not None and viewer in to)

    def log_lines(self, viewer: int | None, start: int = 0) -> list[str]:
        """The journal's lines ``viewer`` may read, from the log entry ``start`` on."""
        lines, where = self._journal(viewer)
        return lines[bisect_left(where, start) :] if start else lines[:]

    def _journal(self, viewer: int | None) -> tuple[list[str], list[int]]:
        """The lines ``viewer`` may read and, for each, the index of its log entry.

        Kept per viewer and only extended while the log goes on: a log grows by appending to
        a copy (the entries themselves are shared and never changed), so when the entry last
        read is still at its place, everything before it is too.  The cache holds that entry
        itself: its identity, unlike an ``id``, cannot be taken by another object.  Anything
        else (undo, a new game, a loaded save) reads the log again."""
        assert self.state is not None
        log = self.state.get("log", [])
        known = self._journals.get(viewer)
        if known is not None:
            count, last, lines, where = known
            if not (count <= len(log) and (count == 0 or log[count - 1] is last)):
                known = None
        if known is None:
            count, lines, where = 0, [], []
        if count < len(log):
            lines, where = lines[:], where[:]  # a screen's list may still be in use
            for i in range(count, len(log)):
                entry = log[i]
                if self._visible(entry, viewer):
                    lines.append(self._line(entry))
                    where.append(i)
            count = len(log)
            if len(self._journals) > 16:
                self._journals.clear()
            self._journals[viewer] = (count, log[-1] if log else None, lines, where)
        return lines, where

    def _line(self, entry: dict[str, Any]) -> str:
        # Each entry's line is rendered once (entries are shared by successive states, never
        # modified).  The cache keeps the entry with its line: an id is only unique while its
        # object lives, and a line kept under the id of a dropped entry (a finished game, a
        # state gone from the undo stack) was shown for the new entry that got that id.
        rendered = self._rendered
        if len(rendered) > 2 * len(self.state.get("log", [])) + 512:  # type: ignore[union-attr]
            rendered.clear()
        known = rendered.get(id(entry))
        if known is None or known[0] is not entry:
            known = rendered[id(entry)] = (entry, self.game.render_log(entry))
        return known[1]

    def screen(self) -> Screen:
        """What the device shows now (plain JSON)."""
        assert self.state is not None
        seats, kind = self.local_waiting()
        due = self.handoff_due()
        if due is not None:
            return self._handoff_screen(due, self.names())
        return self._screen(self.viewer(), seats, kind)

    def screen_for(self, seat: int) -> Screen:
        """What the other device playing ``seat`` shows now: that seat's view only, its own
        choices when it must act, else whom the table waits for."""
        assert self.state is not None
        seats, kind = self.waiting()
        return self._screen(
            seat, [seat] if seat in seats else [], "each" if kind == "public" else kind
        )

    def _screen(self, viewer: int | None, seats: list[int], kind: str) -> Screen:
        assert self.state is not None
        game, state = self.game, self.state
        names = self.names()
        outcome = game.outcome(state) if not game.to_act(state) else None
        actions: list[Any] = []
        if seats and kind == "public":
            for s in seats:
                actions.extend(a for a in game.legal_actions(state, s) if a not in actions)
        elif seats:
            actions = game.legal_actions(state, viewer)  # type: ignore[arg-type]
        scr = game.screen(state, viewer, actions)
        secret = viewer if game.hidden_information and viewer is not None else None
        number = 0
        for g in scr["groups"]:
            for c in g["choices"]:
                c["action"] = actions[c["index"]]
            # a group of choices that come from what the seat alone knows (a card of its hand,
            # its secret Pouvoir) is its private information, like the widgets its game marks
            # (``widgets.private``); a public choice (« Revenu », « Continuer ») is not
            if secret is not None and "private" not in g and self._secret_group(g):
                g["private"] = secret
            if g["kind"] == "form":
                number += 1
                g["n"] = number
            else:
                for c in g["choices"]:
                    number += 1
                    c["n"] = number
        if self.watching:
            scr["groups"].append(self._watch_group(number))
            humans = self.humans()
            scr["prompt"] = (
                WATCH_TEXT["prompt"].format(name=fr.seat(names[humans[0]]))
                if len(humans) == 1
                else WATCH_TEXT["prompt.many"]
            )
        mark = self.marks.get(str(viewer)) if viewer is not None else None
        if mark is None and self.marks:
            mark = max(self.marks.values())
        log, where = self._journal(viewer)
        first = bisect_left(where, mark or 0) if mark is not None else len(log)
        recap, recap_at = log[first:][-RECAP_LINES:], where[first:][-RECAP_LINES:]
        if not recap:
            recap, recap_at = log[-RECAP_LINES:], where[-RECAP_LINES:]
        if scr.get("recap") is False:  # the game's own widgets say what just happened
            recap, recap_at = [], []
        # the journal and the recap are the viewer's private information when they hold a
        # line only some seats may read (« Vous piochez … »)
        entries = state.get("log", [])
        log_private = recap_private = None
        if secret is not None:
            if any(entries[i].get("to") is not None for i in where[-LOG_SHOWN:]):
                log_private = secret
            if any(entries[i].get("to") is not None for i in recap_at):
                recap_private = secret
        caption_seats(scr, {str(s.get("name")): game.temperament(s) for s in self.seats})
        others = [s for s in self.waiting()[0] if s not in seats]
        waiting = None
        if outcome is None and others and not seats:
            waiting = waiting_for([names[s] if s < len(names) else str(s + 1) for s in others])
        scr.update(
            {
                "game": game.id,
                "seat": viewer,
                "seat_name": names[viewer] if viewer is not None and viewer < len(names) else None,
                "to_act": seats,
                "turn_kind": kind,
                # how many people share the table: with one, nobody needs to be told who
                # holds the device
                "people": len(self.humans()),
                "handoff": None,
                "recap": recap,
                "log": log[-LOG_SHOWN:],
                "log_size": len(log),
                "log_private": log_private,
                "recap_private": recap_private,
                "over": outcome is not None,
                "outcome": outcome.to_json() if outcome is not None else None,
                "sequel": outcome is not None and game.sequel(state) is not None,
                "can_undo": bool(self.undo_stack),
                "progress": game.progress(state),
                "notice": self.notice,
                "waiting": waiting,
            }
        )
        return scr

    def _secret_group(self, group: Group) -> bool:
        """Whether a choices group shows what its seat alone knows: it offers an action of one
        of the game's ``private_actions`` types (every group when the game names none)."""
        kinds = self.game.private_actions
        if kinds is None:
            return True
        return any(
            isinstance(c["action"], dict) and c["action"].get("type") in kinds
            for c in group["choices"]
        )

    def _watch_group(self, number: int) -> Group:
        """The watching people's two buttons, numbered after the screen's other choices."""
        g = group(
            WATCH_TEXT["heading"],
            [
                choice(0, WATCH_TEXT["next"], help=WATCH_TEXT["next.help"], tone="main"),
                choice(1, WATCH_TEXT["end"], help=WATCH_TEXT["end.help"]),
            ],
            key="watch",
        )
        for c, action in zip(g["choices"], (WATCH_NEXT, WATCH_END), strict=True):
            c["action"] = dict(action)
            number += 1
            c["n"] = number
        return g

    def _handoff_screen(self, seat: int, names: list[str]) -> Screen:
        name = names[seat] if seat < len(names) else str(seat + 1)
        return {
            "game": self.game.id,
            "status": f"Passez l'appareil à {name}",
            "phase": None,
            "prompt": None,
            "widgets": [],
            "groups": [],
            "seat": seat,
            "seat_name": name,
            "to_act": [seat],
            "turn_kind": "each",
            "handoff": {"seat": seat, "name": name},
            "recap": [],
            "log": [],
            "log_size": 0,
            "log_private": None,
            "recap_private": None,
            "over": False,
            "outcome": None,
            "sequel": False,
            "can_undo": False,
            "progress": self.game.progress(self.state or {}),
            "notice": None,
            "waiting": None,
        }

    # ------------------------------------------------------------------ saves

    def bundle_id(self) -> tuple[str | None, str | None]:
        camp = self.game.bundle.get("campaign") or {}
        return camp.get("id"), self.game.bundle.get("version")

    def save(self) -> dict[str, Any]:
        assert self.state is not None
        campaign, version = self.bundle_id()
        legacy = {"migrated_from": self.migrated_from} if self.migrated_from else {}
        return {
            **legacy,
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.id,
            "campaign": campaign,
            "bundle": version,
            "setup": self.setup,
            "start": self.start_node,
            "base": self.base,
            "actions": self.actions,
            "state": self.state,
            "progress": self.game.progress(self.state),
            "names": self.names(),
        }

    def save_text(self) -> str:
        return self._dumps(self.save())

    def load(self, data: Any) -> None:
        """Restore a save (text or parsed), replaying its log.  ``SaveError`` (French) leaves
        this session exactly as it was."""
        if isinstance(data, (str, bytes)):
            data = parse(data)
        if not isinstance(data, dict):
            raise SaveError(NOT_A_SAVE)
        check_keys(data)
        if data.get("format") == SAVE_FORMAT and data.get("version") in LOGGED_VERSIONS:
            check_schema(data)
        data = upgrade(data)
        data, renamed = migrate(data, self.game.bundle)
        fresh = Session(self.game)
        try:
            fresh._restore(data)
        except SaveError as exc:
            raise SaveError(_outdated(exc, data, self.game.bundle, self.game.id)) from exc
        if renamed:
            shown = ", ".join(f"« {a} » → « {b} »" for a, b in sorted(renamed.items()))
            fresh.notice = (
                "Le contenu du jeu a été mis à jour depuis cette sauvegarde : elle a été "
                f"convertie ({shown}) puis reprise."
            )
        self.__dict__.update(fresh.__dict__)

    def _restore(self, data: dict[str, Any]) -> None:
        game = self.game
        if data.get("game") != game.id:
            raise SaveError(
                f"Cette sauvegarde est une partie de « {_title_of(data.get('game'))} », pas de "
                "ce jeu : importez-la sur la page de son jeu."
            )
        campaign, version = self.bundle_id()
        if data.get("campaign") not in (None, campaign):
            raise SaveError("Cette sauvegarde appartient à une autre campagne.")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise SaveError("Cette sauvegarde est incomplète (historique illisible).")
        base = data.get("base")
        if (base is None and not isinstance(data.get("setup"), dict)) or (
            base is not None and not isinstance(base, dict)
        ):
            raise SaveError("Cette sauvegarde est incomplète.")
        if data.get("migrated_from", SAVE_VERSION) < game.oldest_save_version:
            raise SaveError(
                "Cette sauvegarde est endommagée : elle est dans un ancien format que ce jeu "
                "n'a jamais écrit, elle ne peut donc pas venir de lui."
            )
        if data.get("migrated_from", SAVE_VERSION) < game.min_save_version:
            raise SaveError(
                "Cette sauvegarde est dans le premier format de gamebook, sans l'historique de "
                "la partie : rien ne la distingue d'une copie modifiée ou endommagée, elle n'a "
                "donc pas été chargée."
            )
        start = data.get("start")
        if base is not None and start is None and data.get("migrated_from") != 1:
            raise SaveError(
                "Cette sauvegarde est endommagée : elle part d'un état que rien ne permet de "
                "reconstruire (aucun point de départ de l'histoire). Elle n'a pas été chargée."
            )
        if start is not None and base is None:
            raise SaveError("Cette sauvegarde est incomplète.")
        self._check_state_version(data.get("state"))
        try:
            if start is not None:
                # a start-anywhere game: its first state is the engine's, never the file's
                self.setup = game.normalize_setup(_setup_of(data))
                rebuilt = game.start_from(start, self.setup)
                if dumps(rebuilt) != dumps(base):
                    raise SaveError(
                        "Cette sauvegarde a été modifiée ou endommagée : son état de départ "
                        f"n'est pas celui de « {start[:80]} ». Elle n'a pas été chargée."
                    )
                self.base, self.state, self.start_node = rebuilt, copy_state(rebuilt), start
            elif base is not None:  # a first-format save, for a game that still takes them
                self._trust_state(base)
                self.setup = (
                    game.normalize_setup(data["setup"])
                    if data.get("setup")
                    else (self._legacy_setup(base, data))
                )
                same_shape(game.new_game(self.setup), base)
                self.base, self.state = base, base
                self.migrated_from = data.get("migrated_from")
            else:
                self.setup = game.normalize_setup(_setup_of(data))
                self.state = game.new_game(self.setup)
        except SetupError as exc:
            raise SaveError(f"Cette sauvegarde est endommagée : {exc}.") from exc
        except SaveError:
            raise
        except Exception as exc:
            raise SaveError(
                "Cette sauvegarde est endommagée : elle ne peut pas être reprise."
            ) from exc
        try:
            self._replay(actions)
        except SaveError:
            if version is not None and data.get("bundle") not in (None, version):
                raise SaveError(
                    "Cette partie a été commencée avec une version précédente du jeu, dont le "
                    "contenu a changé depuis : elle ne peut pas se poursuivre avec celle-ci. Elle "
                    "reste dans son emplacement ; exportez-la pour la garder."
                ) from None
            raise
        saved = self._saved_state(data.get("state"))
        if dumps(saved) != dumps(self.state):
            if version is not None and data.get("bundle") not in (None, version):
                self.notice = (
                    "Le contenu du jeu a été mis à jour depuis cette sauvegarde : la partie a été "
                    "rejouée avec la nouvelle version."
                )
            else:
                raise SaveError(
                    "Cette sauvegarde a été modifiée ou endommagée : son historique ne mène pas à "
                    "l'état enregistré. Elle n'a pas été chargée."
                )
        if data.get("migrated_from"):
            self.notice = "Sauvegarde d'une ancienne version, convertie au nouveau format."

    def _check_state_version(self, state: Any) -> None:
        """A state written by a newer engine says so; one older than the engine can migrate
        is refused as such (neither is « modifiée ou endommagée »)."""
        game = self.game
        version = state.get("format_version") if isinstance(state, dict) else None
        if not isinstance(version, int) or isinstance(version, bool):
            return  # the comparison with the replayed state refuses it
        if version > game.state_version:
            raise SaveError(
                "Cette sauvegarde vient d'une version plus récente de gamebook : mettez le site "
                "(ou le programme) à jour pour la reprendre."
            )
        if version < game.min_state_version:
            raise SaveError(
                "Cette sauvegarde vient d'une version trop ancienne de gamebook, que celle-ci ne "
                "sait plus convertir : elle n'a pas été chargée."
            )

    def _saved_state(self, state: Any) -> Any:
        """The saved state brought to the engine's state version (``Game.migrate_state``, one
        step at a time), to be compared with the replayed one."""
        game = self.game
        try:
            for _ in range(game.state_version):
                version = state.get("format_version") if isinstance(state, dict) else None
                if not isinstance(version, int) or version >= game.state_version:
                    break
                state = game.migrate_state(copy_state(state), self.setup)
        except Exception as exc:  # a state the migration cannot read is not this game's
            raise SaveError(
                "Cette sauvegarde a été modifiée ou endommagée : elle n'a pas été chargée."
            ) from exc
        return state

    def _legacy_setup(self, state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        seats = state.get("seats")
        if isinstance(seats, list) and all(isinstance(s, dict) for s in seats):
            setup = {
                "seed": str(data.get("seed", "0")),
                "seats": [{"name": s.get("name"), "bot": bool(s.get("bot"))} for s in seats],
            }
        else:
            setup = {"seed": str(data.get("seed", "0"))}
        return self.game.normalize_setup(self.game.legacy_setup(state, setup))

    def _trust_state(self, state: Any) -> None:
        """A state without a log to replay: check it as far as the engine can."""
        game = self.game
        if not isinstance(state, dict) or state.get("game", game.id) != game.id:
            raise SaveError("Cette sauvegarde est endommagée.")
        version = state.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise SaveError("Cette sauvegarde est endommagée.")
        if version > game.state_version:
            raise SaveError("Cette sauvegarde vient d'une version plus récente du moteur.")
        try:
            game.check_state(state)
            for seat in game.to_act(state):
                game.legal_actions(state, seat)
                game.view(state, seat)
            game.view(state, None)
            json.loads(json.dumps(state, allow_nan=False))
        except Exception as exc:  # any inconsistency, whatever it is, refuses the file
            raise SaveError(
                "Cette sauvegarde est endommagée ou modifiée : elle ne peut pas être chargée."
            ) from exc

    def _replay(self, actions: list[dict[str, Any]]) -> None:
        game = self.game
        self.actions, self.undo_stack = [], []
        for i, entry in enumerate(actions):
            state = self.state
            assert state is not None
            try:
                if entry.get("sequel") is True:
                    nxt = game.sequel(state) if not game.to_act(state) else None
                    if nxt is None:
                        raise ValueError("no next game here")
                    self.undo_stack.append((state, len(self.actions)))
                    self.state = nxt
                    self.actions.append({"sequel": True})
                    continue
                seat = entry.get("seat")
                action = game.canonical_action(entry.get("action"))
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise ValueError("no seat")
                if not is_among(action, game.legal_actions(state, seat)):
                    raise ValueError("not legal")
                self.state = game.apply(state, copy_state(action))
            except Exception as exc:
                raise SaveError(
                    f"Cette sauvegarde ne se rejoue pas : l'action n° {i + 1} de son historique "
                    "n'est pas permise à ce moment de la partie. Elle n'a pas été chargée."
                ) from exc
            if not self.is_bot(seat):
                self.undo_stack.append((state, len(self.actions)))
                del self.undo_stack[:-UNDO_DEPTH]
                self.marks[str(seat)] = len(state.get("log", []))
            self.actions.append({"seat": seat, "action": action})


def _outdated(exc: SaveError, data: dict[str, Any], bundle: dict[str, Any], game: str) -> str:
    """A refused save made with another version of this game's content: say so, and what to
    do (a save of another game is refused for that reason alone)."""
    saved, now = data.get("bundle"), bundle.get("version")
    if saved is None or now is None or saved == now or data.get("game") != game:
        return str(exc)
    return (
        f"{exc} Elle a été faite avec une version précédente du contenu de ce jeu, qui a "
        "changé depuis (une carte retirée ou renommée) : elle ne peut pas être convertie. "
        "Elle reste dans son emplacement ; exportez-la pour la conserver, puis commencez une "
        "nouvelle partie."
    )


def _title_of(game_id: Any) -> str:
    """A game's title for a message, or what the file says when no game has that id."""
    from . import registry

    try:
        return registry.get(game_id).title
    except registry.UnknownGame:
        return str(game_id)[:40]


def _setup_of(data: dict[str, Any]) -> dict[str, Any]:
    """A save's setup as the file holds it: whatever it is, ``normalize_setup`` judges it (a
    setup that is not a table is refused there, in French)."""
    return cast(dict[str, Any], data.get("setup"))


def _check_node(node: str) -> None:
    """``SetupError`` (French) unless ``node`` has the shape of a story node (``kind:key``,
    both given): what each game accepts is then its own ``start_from``'s to say."""
    kind, colon, key = node.strip().partition(":")
    if not node.strip():
        raise SetupError(
            "aucun nœud où commencer : donnez-en un sous la forme sorte:clé, comme la carte de "
            "l'histoire les nomme"
        )
    if not colon or not kind or not key.strip():
        raise SetupError(
            f"impossible de commencer à « {node} » : un nœud s'écrit sorte:clé, la sorte et la "
            "clé telles que la carte de l'histoire les montre"
        )
