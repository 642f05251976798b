"""What a game of Complots exercised (``gamebook simulate``'s coverage): the variant played,
the actions taken, the characters whose power was announced (for an action or a counter) and
the counters raised, as content nodes."""

from __future__ import annotations

from typing import Any

from .rules import Table


def visits(table: Table, state: dict[str, Any]) -> set[str]:
    # a basic action's log entry is named after it (``revenu``, ``aide``...)
    basic = {str(a["basic"]) for a in table.actions.values() if a.get("basic")}
    out: set[str] = set()
    acting: str | None = None  # the action under way, that a counter answers
    for entry in state.get("log", []):
        key, args = entry["key"], entry.get("args") or {}
        if key == "setup" and args.get("variant"):
            out.add(f"variant:{args['variant']}")
        elif key in basic:
            acting = table.action_of.get(key)
            if acting is not None:
                out.add(f"action:{acting}")
        elif key in ("claim_action", "claim_counter"):
            char = args.get("character")
            out.add(f"character:{char}")
            if key == "claim_action":
                acting = table.action_of.get(str(char))
                if acting is not None:
                    out.add(f"action:{acting}")
            else:
                counter = table.counters.get(acting or "")
                if counter is not None:
                    out.add(f"counter:{counter['id']}")
    return out
