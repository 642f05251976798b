"""What the browser's play page calls, through Pyodide.  Standard library only; no game named.

The page keeps one ``WebSession`` per play page.  Every call takes and returns JSON text (no
proxies to juggle).  Screens are the session's (``engine.core.session``): widgets, grouped
choices with the exact action to send back, the log, the hand-over screen.  No rule lives in
JavaScript.  Saves are the one save format (``engine.core.save``): a refused file leaves the
game in progress untouched and says why in French.
"""

from __future__ import annotations

import json
from typing import Any

from .bundle import BundleError, load_bundle
from .core import registry
from .core.devices import DeviceTable
from .core.errors import IllegalAction, MalformedAction, SetupError
from .core.save import SaveError, dumps, nesting, parse
from .core.session import Session

#: an action's JSON text: real ones are a few hundred characters, a few levels deep (a deeper
#: text would overflow the browser's own stack in json, a fatal error, not a RecursionError)
MAX_ACTION_TEXT, MAX_ACTION_DEPTH = 100_000, 32


def _out(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class WebSession:
    """``WebSession(game_id, bundle_text)``, then ``start_json`` / ``act_json`` ..."""

    def __init__(self, game_id: str, bundle_text: str) -> None:
        self.game = registry.get(game_id)(load_bundle(bundle_text))
        self.session = Session(self.game)
        self.table: DeviceTable | None = None  # the other devices at this table (issue 32)

    # ------------------------------------------------------------------ the game's form

    def info_json(self) -> str:
        """The game's identity and setup fields (the custom-game form is drawn from them)."""
        info = self.game.info()
        info["setup"] = [f.to_json() for f in self.game.fields()]
        low, high = self.game.seat_range()
        info["players"] = {"min": low, "max": high}
        info["default_players"] = min(max(self.game.default_players, low), high)
        info["personas"] = [
            {"value": o.value, "label": o.label, "help": o.help} for o in self.game.personas
        ]
        return _out(info)

    # ------------------------------------------------------------------ playing

    def _screen(self, **extra: Any) -> str:
        return _out({**self.session.screen(), **extra})

    def start_json(self, setup_text: str) -> str:
        try:
            if nesting(setup_text) > MAX_ACTION_DEPTH:
                raise ValueError("a setup is a small JSON object")
            setup = json.loads(setup_text)
        except (ValueError, RecursionError):
            return _out({"error": "Ces réglages ne sont pas lisibles (JSON invalide)."})
        try:
            node = setup.pop("start_from", None) if isinstance(setup, dict) else None
            self.session.start(setup, start_from=node if isinstance(node, str) else None)
        except SetupError as exc:
            return _out({"error": str(exc)})
        except (ValueError, TypeError, RecursionError, MemoryError):
            # what a range check missed must still be a message, never a traceback
            return _out({"error": "Ces réglages ne permettent pas de commencer une partie."})
        return self._screen(fresh=True)

    def act_json(self, action_text: str) -> str:
        if self.session.state is None:
            return _out({"error": "Aucune partie en cours."})
        try:
            if len(action_text) > MAX_ACTION_TEXT or nesting(action_text) > MAX_ACTION_DEPTH:
                raise ValueError("an action is a small JSON object")  # before json's recursion
            action = json.loads(action_text)
            self.session.act(action)
        except (MalformedAction, IllegalAction, ValueError, RecursionError) as exc:
            return self._screen(error=f"Action refusée : {exc}")
        return self._screen()

    def handed_json(self) -> str:
        self.session.handed_over()
        return self._screen()

    def undo_json(self) -> str:
        self.session.undo()
        return self._screen(fresh=True)

    def next_json(self) -> str:
        """The next game of a campaign."""
        self.session.next_game()
        return self._screen(fresh=True)

    def screen_json(self) -> str:
        return self._screen(fresh=True)

    # ------------------------------------------------------------------ other devices

    def devices_json(self, token: str, seats_text: str) -> str:
        """This device hosts the table ``token``; the seats of ``seats_text`` (a JSON list)
        are played on other devices from now on (``[]``: all back here)."""
        seats = json.loads(seats_text) if len(seats_text) < 1000 else []
        seats = [s for s in seats if isinstance(s, int) and not isinstance(s, bool)]
        if self.table is None or self.table.token != token:
            self.table = DeviceTable(self.session, token)
        self.session.set_remote(seats)
        return _out(
            {
                "remote": sorted(self.session.remote),
                "seq": {str(s): self.table.last_seq(s) for s in self.session.remote},
            }
        )

    def last_seq(self, seat: int) -> int:
        """The number of the last message taken from the device playing ``seat``."""
        return self.table.last_seq(seat) if self.table is not None else 0

    def give_to_bot_json(self, seat: int) -> str:
        """The seat of a device that never came back, played by the computer from now on."""
        self.session.give_to_bot(seat)
        return self._screen()

    def check_answer_json(self, text: str, seat: int) -> str:
        """``{"error"}`` unless ``text`` is this table's answer code for ``seat``."""
        if self.table is None:
            return _out({"error": "Aucune table à plusieurs appareils."})
        why = self.table.check_answer(text, seat)
        return _out({"error": why} if why else {"seq": self.table.last_seq(seat)})

    def guest_screen_json(self, seat: int) -> str:
        """What the device playing ``seat`` shows (its view only)."""
        if self.session.state is None:
            return _out({"error": "Aucune partie en cours."})
        return _out(self.session.screen_for(seat))

    def receive_json(self, seat: int, text: str) -> str:
        """A message from the device playing ``seat``: the reply it gets."""
        if self.table is None:
            return _out({"error": "Aucune table à plusieurs appareils.", "seq": None})
        return _out(self.table.receive(seat, text))

    # ------------------------------------------------------------------ saves

    def save_json(self) -> str:
        return self.session.save_text()

    def load_json(self, text: str) -> str:
        """Restore a save; a refused file leaves the current game untouched."""
        try:
            self.session.load(text)
        except SaveError as exc:
            return _out({"error": str(exc)})
        return self._screen(fresh=True)

    def peek_json(self, text: str) -> str:
        """What a saved slot holds (game, progress, names), without loading it."""
        try:
            data = parse(text)
        except SaveError as exc:
            return _out({"error": str(exc)})
        game = data.get("game")
        return _out(
            {
                "game": game,
                "title": self.game.title if game == self.game.id else "",
                "progress": data.get("progress") if isinstance(data.get("progress"), str) else "",
                "names": [n for n in data.get("names") or [] if isinstance(n, str)][:16],
            }
        )

    def chronicle_json(self) -> str:
        """The campaign so far as widgets, for the chronicle page."""
        if self.session.state is None:
            return _out({"widgets": []})
        widgets = self.game.chronicle(self.session.state) or []
        return _out({"widgets": widgets, "title": self.game.title})


def check_bundle(bundle_text: str) -> str:
    """``""`` when the engine reads this bundle, else why not."""
    try:
        load_bundle(bundle_text)
    except (BundleError, ValueError) as exc:
        return str(exc)
    return ""


__all__ = ["WebSession", "check_bundle", "dumps"]
