"""Screens as data: the small, fixed vocabulary of widgets every game's screen is built from.

``Game.screen`` returns ``screen(...)``; the browser (``site/assets/widgets/*.js``) and the
terminal (``pipeline.play.terminal``) each draw every widget kind once, so a new game needs no
JavaScript.  Every value is plain JSON; every text is plain text (never HTML: the page writes
it with ``textContent``).

Widgets sit in an *area*: ``"main"`` (above the choices: the story, the current claim),
``"self"`` (beside the choices: your hand, coins, secret objective), ``"board"`` (the table:
tracks, map, other players).  On a phone the main area and the choices come first.

Kinds:

- ``text``: a titled block of paragraphs (``tone``: story, note, warning);
- ``cards``: a row of cards, each with a title, text, state (face up, face down, revealed,
  blocked, cancelled, played, selected), badges and a value;
- ``tracks``: tracks drawn as tracks (a value between min and max, marks on slots, zones);
- ``dice``: dice drawn as dice (sides, face, and the value when it differs from the face);
- ``players``: the per-player table (columns, one row per seat; current seat, yours, out);
- ``grid``: a map of cells at (x, y), with titles, lines, figures and fog;
- ``facts``: label/value pairs (your Pouvoir, coins...);
- ``items``: a plain list;
- ``ranking``: the end of a game, why it ended and where each point comes from.

A widget that shows one seat's private information (its hand, its secret objective, the card
it chose face down, its coins when they are secret) says so with ``private(widget, seat)``:
the page marks it ``data-private="<seat>"``, and the session's hand-over keeps it from anyone
but that seat's player.  The session marks the same way a choices group that offers an
action of the game's ``private_actions`` (a card of the seat's hand, its secret Pouvoir).

Choices are grouped (``group``) under a heading with a French explanation; each choice points
at one legal action by its index.  A ``form`` group offers many actions through a few fields
(house ▾, for ▾, coins − n +) instead of one button per combination.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from .types import Choice, FormField, Group, Screen

AREAS = ("main", "self", "board")
CARD_STATES = ("up", "down", "revealed", "blocked", "cancelled", "played", "selected")
TONES = ("story", "note", "warning", "good", "bad")
WIDGET_KINDS = (
    "text",
    "cards",
    "tracks",
    "dice",
    "players",
    "grid",
    "facts",
    "items",
    "ranking",
)


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None and v != () and v != []}


# --------------------------------------------------------------------------- widgets


def text(body: str, title: str | None = None, tone: str = "story", area: str = "main") -> dict:
    """Paragraphs separated by blank lines."""
    return _clean({"type": "text", "title": title, "text": body, "tone": tone, "area": area})


def card(
    title: str,
    text: str = "",
    *,
    subtitle: str | None = None,
    state: str = "up",
    badges: Sequence[str] = (),
    value: str | int | None = None,
    tone: str | None = None,
) -> dict:
    """One card.  A face-down card shows only its back: give it no title text a seat may not
    know (``card("", state="down")``)."""
    if state not in CARD_STATES:
        raise ValueError(f"card state {state!r} not in {CARD_STATES}")
    return _clean(
        {
            "title": title,
            "text": text or None,
            "subtitle": subtitle,
            "state": state,
            "badges": list(badges),
            "value": value,
            "tone": tone,
        }
    )


def cards(
    items: Iterable[dict],
    title: str | None = None,
    *,
    empty: str | None = None,
    area: str = "board",
    note: str | None = None,
) -> dict:
    return _clean(
        {
            "type": "cards",
            "title": title,
            "cards": list(items),
            "empty": empty,
            "note": note,
            "area": area,
        }
    )


def track(
    label: str,
    value: int,
    low: int,
    high: int,
    *,
    marks: Iterable[dict] = (),
    zones: Iterable[dict] = (),
    note: str | None = None,
    direction: str | None = None,
) -> dict:
    """A track from ``low`` to ``high`` with a marker at ``value``.  ``marks``:
    ``{"at", "label"}`` printed on slots (a skull, a threshold); ``zones``: ``{"from", "to",
    "label", "tone"}`` coloured ranges; ``direction``: ``"up"``/``"down"`` when the marker has
    one (the Dilemme's progression arrow)."""
    return _clean(
        {
            "label": label,
            "value": value,
            "min": low,
            "max": high,
            "marks": list(marks),
            "zones": list(zones),
            "note": note,
            "direction": direction,
        }
    )


def tracks(
    items: Iterable[dict],
    title: str | None = None,
    *,
    legend: Iterable[str] = (),
    area: str = "board",
) -> dict:
    return _clean(
        {
            "type": "tracks",
            "title": title,
            "tracks": list(items),
            "legend": list(legend),
            "area": area,
        }
    )


def die(
    value: int,
    sides: int = 6,
    *,
    label: str | None = None,
    shown: int | None = None,
    note: str | None = None,
) -> dict:
    """A die showing face ``value``; ``shown``: the value it counts for when a card changed it
    (the face is not turned)."""
    return _clean({"sides": sides, "value": value, "label": label, "shown": shown, "note": note})


def dice(items: Iterable[dict], title: str | None = None, *, area: str = "board") -> dict:
    return _clean({"type": "dice", "title": title, "dice": list(items), "area": area})


def row(
    cells: Sequence[Any],
    *,
    current: bool = False,
    you: bool = False,
    out: bool = False,
    note: str | None = None,
) -> dict:
    return _clean(
        {
            "cells": ["" if c is None else c for c in cells],
            "current": current or None,
            "you": you or None,
            "out": out or None,
            "note": note,
        }
    )


def caption_seats(scr: Screen, captions: dict[str, str]) -> Screen:
    """The temperament of each bot beside its name in the screen's players tables
    (« Béatrice (Maligne) »): ``captions`` maps a seat's name to its temperament in words.

    >>> t = players(["Nom"], [row(["Béatrice"]), row(["Vous"])])
    >>> caption_seats({"widgets": [t]}, {"Béatrice": "Maligne"})["widgets"][0]["rows"][0]
    {'cells': ['Béatrice (Maligne)']}
    """
    for w in scr.get("widgets", []):
        if w.get("type") != "players":
            continue
        for r in w.get("rows", []):
            cells = r.get("cells") or []
            if cells and isinstance(cells[0], str) and captions.get(cells[0]):
                cells[0] = f"{cells[0]} ({captions[cells[0]]})"
    return scr


def players(
    columns: Sequence[str],
    rows: Iterable[dict],
    title: str | None = None,
    *,
    legend: Iterable[str] = (),
    area: str = "board",
) -> dict:
    return _clean(
        {
            "type": "players",
            "title": title,
            "columns": list(columns),
            "rows": list(rows),
            "legend": list(legend),
            "area": area,
        }
    )


def cell(
    x: int,
    y: int,
    title: str,
    *,
    lines: Sequence[str] = (),
    figures: Sequence[str] = (),
    fog: bool = False,
    tone: str | None = None,
) -> dict:
    return _clean(
        {
            "x": x,
            "y": y,
            "title": title,
            "lines": list(lines),
            "figures": list(figures),
            "fog": fog or None,
            "tone": tone,
        }
    )


def grid(
    cells: Iterable[dict],
    title: str | None = None,
    *,
    legend: Iterable[str] = (),
    area: str = "board",
) -> dict:
    return _clean(
        {
            "type": "grid",
            "title": title,
            "cells": list(cells),
            "legend": list(legend),
            "area": area,
        }
    )


def fact(label: str, value: Any, note: str | None = None) -> dict:
    return _clean({"label": label, "value": value, "note": note})


def facts(items: Iterable[dict], title: str | None = None, *, area: str = "self") -> dict:
    return _clean({"type": "facts", "title": title, "items": list(items), "area": area})


def items(
    entries: Iterable[str], title: str | None = None, *, area: str = "board", ordered: bool = False
) -> dict:
    return _clean(
        {
            "type": "items",
            "title": title,
            "items": list(entries),
            "ordered": ordered or None,
            "area": area,
        }
    )


def ranking(
    rows: Iterable[dict],
    title: str,
    *,
    why: str | None = None,
    carry: Sequence[str] = (),
    area: str = "main",
) -> dict:
    """The end of a game: rows ``{"rank", "name", "score", "details": [str]}``; ``why``: why it
    ended; ``carry``: what carries on to the next game of a campaign."""
    return _clean(
        {
            "type": "ranking",
            "title": title,
            "rows": list(rows),
            "why": why,
            "carry": list(carry),
            "area": area,
        }
    )


def private(widget: dict, seat: int | None) -> dict:
    """``widget`` (or a choices group) marked as ``seat``'s private information; unchanged
    when ``seat`` is ``None`` (a screen drawn from nobody's view)."""
    if seat is not None:
        widget["private"] = seat
    return widget


# --------------------------------------------------------------------------- choices


def choice(
    index: int,
    label: str,
    *,
    help: str | None = None,
    confirm: str | None = None,
    tone: str | None = None,
    fields: dict[str, Any] | None = None,
) -> Choice:
    """A button for legal action number ``index``.  ``confirm``: one sentence on what follows,
    asked before an irreversible move; ``tone``: ``"main"`` for the main verbs, ``"danger"``
    for a costly move; ``fields``: this action's values in a ``form`` group."""
    return cast(
        Choice,
        _clean(
            {
                "index": index,
                "label": label,
                "help": help,
                "confirm": confirm,
                "tone": tone,
                "fields": fields,
            }
        ),
    )


def group(
    heading: str,
    entries: Iterable[Choice],
    *,
    help: str | None = None,
    folded: bool = False,
    key: str | None = None,
) -> Group:
    """Choices under a heading; ``folded``: shown closed (the less common moves)."""
    return cast(
        Group,
        _clean(
            {
                "kind": "buttons",
                "heading": heading,
                "help": help,
                "folded": folded or None,
                "choices": list(entries),
                "key": key,
            }
        ),
    )


def form_field(
    name: str, label: str, kind: str = "select", options: Iterable[dict[str, Any]] = ()
) -> FormField:
    """A field of a form group: ``select`` (options ``{"value", "label"}``) or ``stepper``
    (a number, bounded by the values the form's choices allow)."""
    return cast(
        FormField, _clean({"name": name, "label": label, "kind": kind, "options": list(options)})
    )


def form(
    heading: str,
    fields: Iterable[FormField],
    entries: Iterable[Choice],
    *,
    submit: str,
    help: str | None = None,
    folded: bool = False,
    key: str | None = None,
) -> Group:
    """Many actions through a few fields: every choice carries ``fields`` (its value for each
    field); the page offers only combinations some choice has, and sends that choice."""
    return cast(
        Group,
        _clean(
            {
                "kind": "form",
                "heading": heading,
                "help": help,
                "folded": folded or None,
                "fields": list(fields),
                "choices": list(entries),
                "submit": submit,
                "key": key,
            }
        ),
    )


# --------------------------------------------------------------------------- the screen


def screen(
    status: str,
    widgets: Iterable[dict],
    groups: Iterable[Group],
    *,
    phase: str | None = None,
    prompt: str | None = None,
    recap: bool = True,
) -> Screen:
    """A whole screen: ``status`` says where we are (« À Maëlis de jouer — Vote »), ``prompt``
    what the choices are about, ``phase`` the rulebook's name for the moment.  ``recap=False``:
    the game's own widgets already say what just happened (a summary of the last round), so the
    session adds no recap of the journal above the choices."""
    out: Screen = {
        "status": status,
        "phase": phase,
        "prompt": prompt,
        "widgets": list(widgets),
        "groups": list(groups),
    }
    if not recap:
        out["recap"] = False
    validate(out)
    return out


def validate(scr: Screen) -> None:
    """Raise ``ValueError`` when a screen leaves the vocabulary or offers an action twice."""
    for w in scr["widgets"]:
        if w.get("type") not in WIDGET_KINDS:
            raise ValueError(f"unknown widget {w.get('type')!r}")
        if w.get("area", "board") not in AREAS:
            raise ValueError(f"unknown area {w.get('area')!r}")
    marked: list[Mapping[str, Any]] = [*scr["widgets"], *scr["groups"]]
    for m in marked:
        seat = m.get("private")
        if seat is not None and (type(seat) is not int or seat < 0):
            raise ValueError(f"private to {seat!r}: not a seat")
    seen: set[int] = set()
    for g in scr["groups"]:
        labels: set[str] = set()  # two buttons of one group never read the same
        for c in g["choices"]:
            if c["index"] in seen:
                raise ValueError(f"action {c['index']} offered twice")
            seen.add(c["index"])
            if g["kind"] == "buttons":
                if c["label"] in labels:
                    raise ValueError(f"two buttons labelled {c['label']!r}")
                labels.add(c["label"])


def offered(scr: Screen) -> set[int]:
    """The indexes of the actions a screen offers."""
    return {c["index"] for g in scr["groups"] for c in g["choices"]}


def unique_labels(entries: list[Choice]) -> list[Choice]:
    """Number the labels a group would otherwise show twice (« Fouiller », « Fouiller (2) »)."""
    seen: dict[str, int] = {}
    for c in entries:
        n = seen.get(c["label"], 0) + 1
        seen[c["label"]] = n
        if n > 1:
            c["label"] = f"{c['label']} ({n})"
    return entries
