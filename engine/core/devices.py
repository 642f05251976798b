"""Several devices at one table, no server (issue 32): what the host checks.

The host runs the one ``Session``; each other device plays one seat over a WebRTC data channel
the page opened for that seat.  Pairing codes and messages are JSON; this module is where the
host judges them, so that no rule or check lives in JavaScript:

- a **pairing answer** (``check_answer``) must come from the same game and the same table (the
  session token the host put in its offer) and name the seat it was made for;
- a **message** (``DeviceTable.receive``) is small, a JSON object of exactly the expected keys,
  for this game and table, from the channel's own seat, numbered after the last one taken from
  that seat (a replay is refused), and its action must be one that seat may take now
  (``Session.act`` with ``remote``).  A refusal is a French sentence; the game goes on.

Nothing here is saved: which seats are remote is how the table sits, not the game.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import IllegalAction, MalformedAction
from .save import nesting
from .session import Session

#: a message's JSON text: an action is a few hundred characters, a few levels deep
MAX_MESSAGE_TEXT, MAX_MESSAGE_DEPTH = 16_000, 24
#: a pairing code's JSON text, once decoded (an SDP with a few candidates is about 1 kB)
MAX_CODE_TEXT = 12_000
MESSAGE_KEYS = frozenset({"type", "game", "token", "seat", "seq", "action"})
ANSWER_KEYS = frozenset({"v", "kind", "game", "token", "seat", "sdp"})
CODE_VERSION = 1

REFUSALS = {
    "size": "Message refusé : il est trop long.",
    "shape": "Message refusé : il n'a pas la forme d'une action.",
    "game": "Message refusé : il vient d'une autre partie.",
    "seat": "Message refusé : cet appareil ne joue pas cette place.",
    "replay": "Message refusé : il a déjà été reçu.",
    "turn": "Action refusée : ce n'est pas à vous de jouer.",
    "illegal": "Action refusée : elle n'est pas permise maintenant.",
    "over": "Action refusée : la partie est finie.",
}
CODE_REFUSALS = {
    "unreadable": "Ce code n'est pas lisible : copiez-le en entier.",
    "kind": "Ce code n'est pas une réponse d'un appareil invité.",
    "game": "Ce code vient d'une autre partie : scannez celui de cette table.",
    "seat": "Ce code est la réponse pour une autre place.",
}


def _load(text: Any, limit: int) -> Any:
    """The JSON value of a small text, or ``None`` (too long, too deep, not JSON)."""
    if not isinstance(text, str) or len(text) > limit or nesting(text) > MAX_MESSAGE_DEPTH:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class DeviceTable:
    """The host's side: ``DeviceTable(session, token)``, then ``receive(seat, text)``."""

    def __init__(self, session: Session, token: str) -> None:
        self.session = session
        self.token = token
        #: the last message number taken from each remote seat
        self.seq: dict[int, int] = {}

    @property
    def game_id(self) -> str:
        return self.session.game.id

    def check_answer(self, text: str, seat: int) -> str:
        """``""`` when ``text`` (a decoded answer code) is the answer of this table for
        ``seat``, else why not, in French."""
        data = _load(text, MAX_CODE_TEXT)
        if not isinstance(data, dict) or not isinstance(data.get("sdp"), str):
            return CODE_REFUSALS["unreadable"]
        if data.get("kind") != "answer" or set(data) != ANSWER_KEYS:
            return CODE_REFUSALS["kind"]
        if data.get("game") != self.game_id or data.get("token") != self.token:
            return CODE_REFUSALS["game"]
        if data.get("seat") != seat:
            return CODE_REFUSALS["seat"]
        return ""

    def last_seq(self, seat: int) -> int:
        return self.seq.get(seat, 0)

    def receive(self, seat: int, text: str) -> dict[str, Any]:
        """Judge and apply one message of the channel of ``seat``: ``{"ok": True, "seq"}``, or
        ``{"error": French, "seq"}`` (the state is then unchanged)."""
        if not isinstance(text, str) or len(text) > MAX_MESSAGE_TEXT:
            return {"error": REFUSALS["size"], "seq": None}
        data = _load(text, MAX_MESSAGE_TEXT)
        if not isinstance(data, dict) or set(data) != MESSAGE_KEYS or data["type"] != "act":
            return {"error": REFUSALS["shape"], "seq": None}
        seq = data["seq"]
        if not _int(seq) or not _int(data["seat"]) or not isinstance(data["action"], dict):
            return {"error": REFUSALS["shape"], "seq": None}
        if data["game"] != self.game_id or data["token"] != self.token:
            return {"error": REFUSALS["game"], "seq": seq}
        if data["seat"] != seat or seat not in self.session.remote:
            return {"error": REFUSALS["seat"], "seq": seq}
        if seq <= self.last_seq(seat):
            return {"error": REFUSALS["replay"], "seq": seq}
        session = self.session
        if session.state is None or not session.game.to_act(session.state):
            return {"error": REFUSALS["over"], "seq": seq}
        if seat not in session.waiting()[0]:
            return {"error": REFUSALS["turn"], "seq": seq}
        try:
            session.act(data["action"], remote=seat)
        except (MalformedAction, IllegalAction, ValueError, TypeError, KeyError):
            return {"error": REFUSALS["illegal"], "seq": seq}
        self.seq[seat] = seq
        return {"ok": True, "seq": seq}


__all__ = ["CODE_REFUSALS", "CODE_VERSION", "MAX_MESSAGE_TEXT", "REFUSALS", "DeviceTable"]
