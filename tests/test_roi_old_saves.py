"""A Roi save from before the temperaments were public (state format 1) still loads, whatever
temperament its computer seats had: the migration takes each seat's temperament from the
save's own setup (``Game.migrate_state(state, setup)``), not the default."""

from __future__ import annotations

import json

import pytest

from engine.core.registry import get
from engine.core.session import Session
from pipeline.story.bundles import bundle_for


def _as_format_1(text: str) -> str:
    """The save as the previous version wrote it: its state without the seats' temperaments."""
    data = json.loads(text)
    state = data["state"]
    assert state["format_version"] == 2
    state["format_version"] = 1
    for seat in state["seats"]:
        seat.pop("persona", None)
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("personas", [("prudent", "hasard"), ("ruse", "ruse"), ("hasard", "ruse")])
def test_a_format_1_save_loads_with_its_seats_temperaments(personas: tuple[str, str]) -> None:
    game = get("roi")(bundle_for("roi"))
    setup = {
        "seed": "ancienne",
        "seats": [
            {"name": "Guenièvre", "bot": False},
            {"name": "Viviane", "bot": True, "persona": personas[0]},
            {"name": "Renaud", "bot": True, "persona": personas[1]},
        ],
    }
    played = Session(game).start(setup)
    for _ in range(3):  # a few of the person's turns, the bots answering
        seats, _ = played.waiting()
        assert seats
        action = game.legal_actions(played.state, seats[0])[0]
        played.act(action)
    text = _as_format_1(played.save_text())
    loaded = Session(game)
    loaded.load(text)
    assert loaded.state == played.state
    assert [s.get("persona") for s in loaded.state["seats"]] == [None, *personas]


def test_a_format_1_save_whose_state_was_edited_is_still_refused() -> None:
    game = get("roi")(bundle_for("roi"))
    played = Session(game).start({"seed": "ancienne", "players": 3, "bots": 2})
    data = json.loads(_as_format_1(played.save_text()))
    data["state"]["seats"][1]["name"] = "Quelqu'un d'autre"
    with pytest.raises(Exception, match=r"modifiée|endommagée"):
        Session(game).load(json.dumps(data, ensure_ascii=False))


def test_the_migration_falls_back_to_the_default_temperament_where_the_setup_says_nothing() -> None:
    """Each computer seat of a format-1 state takes the temperament its setup gave it; a setup
    that is missing, shorter than the table, names no temperament or a non-text one gives the
    default; a person's seat gets none; a format-2 state is left as it is."""
    from engine.roi import rules as R

    def old() -> dict:
        return {
            "format_version": 1,
            "seats": [
                {"name": "A", "bot": False},
                {"name": "B", "bot": True},
                {"name": "C", "bot": True},
                {"name": "D", "bot": True},
            ],
        }

    def personas(st: dict) -> list:
        return [s.get("persona") for s in st["seats"]]

    assert personas(R.migrate_state(old(), "hasard")) == [None, "hasard", "hasard", "hasard"]
    assert personas(R.migrate_state(old(), "hasard", "oops")) == [
        None,
        "hasard",
        "hasard",
        "hasard",
    ]  # type: ignore[arg-type]
    assert personas(R.migrate_state(old(), "hasard", {"seats": "nope"})) == [
        None,
        "hasard",
        "hasard",
        "hasard",
    ]
    given = {"seats": [{"bot": False}, {"persona": "ruse"}, {"persona": 3}]}
    st = R.migrate_state(old(), "hasard", given)
    assert personas(st) == [None, "ruse", "hasard", "hasard"] and st["format_version"] == 2
    given = {"seats": [{}, "ruse", {}, {"persona": "prudent"}]}
    assert personas(R.migrate_state(old(), "hasard", given)) == [
        None,
        "hasard",
        "hasard",
        "prudent",
    ]
    assert R.migrate_state({"format_version": 1}, "hasard") == {"format_version": 2}
    new = {"format_version": 2, "seats": [{"name": "B", "bot": True}]}
    assert R.migrate_state(new, "hasard", {"seats": [{"persona": "ruse"}]})["seats"] == [
        {"name": "B", "bot": True}
    ]
