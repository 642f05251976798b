"""Reading the compiled bundle: the records of the box (cards, paragraphs, scenarios, the
Citadel sheet) and the rules the campaign leaves open.  Read only: nothing is ever cached into
the bundle (indexes are kept beside it, ``engine/core/derived.py``)."""

from __future__ import annotations

from typing import Any

from ..core.derived import derived

#: rules the rulebook leaves to the table, a campaign may set them (``campaign.rules``)
DEFAULT_RULES = {"table_columns": 7, "table_rows": 5, "move_cost": 1}
#: the cards a reference may name
KINDS = ("adventure", "exploration", "action_card")


def rules(bundle: dict) -> dict[str, int]:
    return {**DEFAULT_RULES, **(bundle["campaign"].get("rules") or {})}


def recs(bundle: dict, kind: str) -> dict[str, dict]:
    return bundle["records"].get(kind, {})


def adv(bundle: dict, key: str) -> dict:
    return recs(bundle, "adventure_card")[key]


def exp(bundle: dict, key: str) -> dict:
    return recs(bundle, "exploration_card")[key]


def skill(bundle: dict, key: str) -> dict:
    return recs(bundle, "action_card").get(key, {})


def index(bundle: dict) -> dict[str, Any]:
    """Indexes computed once per bundle: the versions of each card number."""
    return derived(bundle, "citadelle_index", _compute_index)


def _compute_index(bundle: dict) -> dict[str, Any]:
    by_number: dict[str, list[str]] = {}
    for key, rec in recs(bundle, "adventure_card").items():
        by_number.setdefault(str(rec["number"]), []).append(key)
    return {"by_number": by_number}


def versions(bundle: dict, number: str | int) -> list[str]:
    """Every adventure card (all versions) that bears ``number`` on its back."""
    return index(bundle)["by_number"].get(str(number), [])


#: the records a card reference's kind names
_TABLES = {
    "adventure": "adventure_card",
    "exploration": "exploration_card",
    "action_card": "action_card",
    "paragraph": "paragraph",
}


def record(bundle: dict, ref: dict) -> dict:
    """The record behind a card reference ``{"kind", "key"}`` (``{}`` for no card)."""
    kind, key = ref.get("kind"), ref.get("key")
    table = _TABLES.get(kind or "")
    if table is None or key is None:
        return {}
    return recs(bundle, table).get(key, {})


def number(bundle: dict, key: str) -> int:
    return int(adv(bundle, key)["number"])


def title(bundle: dict, ref: dict) -> str:
    """A card's title as printed on its face (« Lanterne à huile »)."""
    return record(bundle, ref).get("title") or ""


def gender(bundle: dict, character_id: str) -> str:
    """``"f"`` or ``"m"``: French agreement with the character (« inconsciente »)."""
    return (recs(bundle, "character").get(character_id) or {}).get("gender") or "m"


def scenario(bundle: dict, sid: str | None) -> dict:
    return recs(bundle, "scenario").get(sid or "", {})
