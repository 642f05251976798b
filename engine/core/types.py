"""The shapes of the plain JSON data the core hands between games and front ends.

These are ``TypedDict`` declarations: annotations only.  At run time a screen, a group, a
choice or an action is the plain ``dict`` it always was (no class, no check, no copy); mypy
reads the keys.

- ``Screen``: what ``widgets.screen`` builds (``status``, ``phase``, ``prompt``, ``widgets``,
  ``groups``, sometimes ``recap=False``), plus the keys ``Session._screen`` adds for the
  front ends (the seat, the journal, the outcome...).  A hand-over screen has every key.
- ``Group``: a choices group (``widgets.group``: ``kind="buttons"``; ``widgets.form``:
  ``kind="form"``, with ``fields`` and ``submit``); the session adds ``private`` and ``n``.
- ``Choice``: one choice of a group (``widgets.choice``); the session adds ``action`` (the
  legal action it points at) and ``n`` (its number on the keyboard).
- ``FormField``: a field of a form group (``widgets.form_field``).
- ``Widget``: any widget of ``widgets.WIDGET_KINDS``.  Nine kinds with their own keys: kept a
  plain ``dict[str, Any]`` (its ``type`` says which).
- ``SeatSetup``: a seat of a normalized setup as the core reads it (name, bot, persona); a
  game's per-seat fields are further keys of the same dict, read by the game.

Actions and whole setups stay ``dict[str, Any]``: each game adds keys of its own (``card``,
``target``, a variant...), and a ``TypedDict`` with extra keys (PEP 728 ``extra_items``) is
not supported by the mypy this project pins; actions also arrive from pages and saves
unchecked, which ``apply`` judges.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

#: a widget of ``widgets.WIDGET_KINDS`` (``type`` says which; each kind has its own keys)
Widget = dict[str, Any]


class Choice(TypedDict, total=False):
    """One button (or one combination of a form) pointing at legal action ``index``."""

    index: int
    label: str
    help: str
    confirm: str
    tone: str
    #: this choice's value for each field of its form group
    fields: dict[str, Any]
    #: added by the session: the legal action the choice sends
    action: Any
    #: added by the session: the choice's number (keyboard, terminal)
    n: int


class FormField(TypedDict, total=False):
    """A field of a form group: ``select`` with ``options`` ``{"value", "label"}``, or
    ``stepper``."""

    name: str
    label: str
    kind: str
    options: list[dict[str, Any]]


class Group(TypedDict, total=False):
    """Choices under a heading: ``kind`` is ``"buttons"`` or ``"form"``."""

    kind: str
    heading: str
    help: str
    folded: bool
    choices: list[Choice]
    key: str
    #: a form group's fields and its button's label
    fields: list[FormField]
    submit: str
    #: the seat whose private information the group shows (``widgets.private`` or session)
    private: int
    #: added by the session to a form group: its number
    n: int


class Handoff(TypedDict):
    """The seat a hand-over screen asks the device to be passed to."""

    seat: int
    name: str


class Screen(TypedDict):
    """A whole screen: what ``Game.screen`` returns, then what ``Session.screen`` shows."""

    status: str
    phase: str | None
    prompt: str | None
    widgets: list[Widget]
    groups: list[Group]
    #: ``False`` from a game whose widgets already say what just happened; the session
    #: replaces it with the recap lines
    recap: NotRequired[bool | list[str]]
    # -- added by ``Session._screen`` (and present on a hand-over screen)
    game: NotRequired[str]
    seat: NotRequired[int | None]
    seat_name: NotRequired[str | None]
    to_act: NotRequired[list[int]]
    turn_kind: NotRequired[str]
    people: NotRequired[int]
    handoff: NotRequired[Handoff | None]
    log: NotRequired[list[str]]
    log_size: NotRequired[int]
    log_private: NotRequired[int | None]
    recap_private: NotRequired[int | None]
    over: NotRequired[bool]
    outcome: NotRequired[dict[str, Any] | None]
    sequel: NotRequired[bool]
    can_undo: NotRequired[bool]
    progress: NotRequired[str]
    notice: NotRequired[str | None]
    waiting: NotRequired[str | None]


class SeatSetup(TypedDict):
    """A seat of a normalized setup: its name (never empty) and whether a bot plays it;
    ``persona``: a bot's temperament in a game that has some.  A game's per-seat fields are
    further keys."""

    name: str
    bot: bool
    persona: NotRequired[str]
