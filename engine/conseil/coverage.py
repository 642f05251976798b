"""What a game of Le Conseil des 12 exercised (``gamebook simulate``'s coverage): the month
played, the dilemmas drawn (the throne's claim among them), the Quémandeurs that came, the
characters whose effect was used and the head of the council when a table has one, as
content nodes."""

from __future__ import annotations

from typing import Any

from .rules import THRONE

#: the log entries of a character's effect (``effect.none``: the effect was not used)
EFFECTS = ("effect.roll", "effect.die", "effect.objective", "effect.take_top", "effect.take_hidden")


def visits(bundle: dict[str, Any], state: dict[str, Any]) -> set[str]:
    records = bundle.get("records", {})
    out: set[str] = set()
    revealed: str | None = None  # the character card whose effect the next entries are
    for entry in state.get("log", []):
        key, args = entry["key"], entry.get("args") or {}
        if key == "game.start" and args.get("scenario") in records.get("scenario", {}):
            out.add(f"scenario:{args['scenario']}")
        elif key == "turn.dilemma":
            d = args.get("dilemma")
            out.add(f"throne:{THRONE}" if d == THRONE else f"dilemma:{d}")
        elif key == "turn.petitioner" and args.get("char"):
            out.add(f"petitioner:{args['char']}")
        elif key == "card.revealed":
            revealed = args.get("char")
        elif key in EFFECTS and revealed:
            out.add(f"character:{revealed}")
        elif key == "throne.start":
            out.update(f"throne:{k}" for k in records.get("throne", {}))
        elif key == "setup.chef":
            out.update(f"council_head:{k}" for k in records.get("council_head", {}))
    return out
