"""``copy_state`` and ``copy_game``: deep copies that never alias what the caller may change,
whatever the value holds, and that keep shared only what the game declares append-only."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from engine.core.state import copy_game, copy_state

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def _containers(value, out):
    if isinstance(value, (dict, list)):
        out.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    return out


@given(JSON)
def test_a_copy_is_equal_and_shares_no_container(value) -> None:
    copy = copy_state(value)
    assert copy == value
    assert json.dumps(copy) == json.dumps(value)  # same types (True stays True), same key order
    mine = {id(c) for c in _containers(copy, [])}
    assert not mine & {id(c) for c in _containers(value, [])}


def test_a_list_met_twice_is_copied_twice() -> None:
    """As a walk would: changing one place of the copy never changes the other."""
    shared = [1, 2]
    copy = copy_state({"a": shared, "b": shared})
    copy["a"].append(3)
    assert copy["b"] == [1, 2]


def test_a_value_marshal_cannot_write_is_walked() -> None:
    class Tag:
        pass

    tag = Tag()
    copy = copy_state({"tag": tag, "items": [tag, {"n": 1}]})
    assert copy["tag"] is tag and copy["items"][0] is tag
    assert copy["items"][1] == {"n": 1}


def test_copy_game_shares_append_only_items_and_keeps_the_key_order() -> None:
    entry = {"t": "vote"}
    state = {"z": {"x": [1]}, "log": [entry], "campaign": {"history": [entry], "n": [2]}, "a": 1}
    shared = {"log": True, "campaign": {"history": True}}
    copy = copy_game(state, shared)
    assert copy == state and list(copy) == list(state)
    assert copy["log"] is not state["log"] and copy["log"][0] is entry
    assert copy["campaign"]["history"][0] is entry
    assert copy["campaign"]["n"] is not state["campaign"]["n"]
    assert copy["z"]["x"] is not state["z"]["x"]
