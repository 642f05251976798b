"""Play any registered game in the terminal, in French: the session's screens drawn as text.

The engine does the rules and the session the turn loop; this module only draws widgets as
lines and reads choices: a number from the menu, or an action as JSON.  With no human seat it
reads nothing from standard input, plays the game to its end and prints the same text for the
same seed.

With several people at one keyboard, the session's hand-over (« Passez l'appareil à … ») comes
before any seat's secrets, after a loaded save too; on a terminal the screen (and its
scroll-back) is cleared first, so the next person cannot read the last one's hand.  Output that
is not a terminal (a pipe, a file, the tests) never gets these control codes.

Saves use the one save format (``engine.core.save``), so a save written here opens on the site
and the reverse.  A save is written atomically after every action; an existing file that is
not a save is never overwritten.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from engine.core.errors import IllegalAction, MalformedAction, SetupError
from engine.core.french import count
from engine.core.game import Game
from engine.core.save import MAX_SAVE_BYTES, SaveError, decode, looks_like_save, parse
from engine.core.session import Session
from engine.core.types import Screen

from ..files import FileProblem, read_limited, read_text_limited, write_atomic


class PlayError(Exception):
    """A problem the player must fix (exit 2): bad save file, bad script line..."""


#: ANSI: cursor home, clear the screen, clear the scroll-back
CLEAR = "\033[H\033[2J\033[3J"
SEED_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def fresh_seed() -> str:
    """A new game number (six letters and digits, like the site's), drawn from the system's
    randomness: a game started without ``--seed`` deals new hands every time."""
    import secrets

    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(6))


# --------------------------------------------------------------------------- widgets as text


def _cards(w: dict) -> list[str]:
    out = []
    for c in w.get("cards", []):
        state = c.get("state", "up")
        if state == "down":
            out.append("  [carte face cachée]")
            continue
        tag = {
            "revealed": " (révélée)",
            "blocked": " (bloquée)",
            "cancelled": " (annulée)",
            "played": " (jouée)",
            "selected": " (choisie)",
        }.get(state, "")
        value = f" [{c['value']}]" if c.get("value") is not None else ""
        badges = f" {{{', '.join(c['badges'])}}}" if c.get("badges") else ""
        line = f"  • {c.get('title', '')}{value}{tag}{badges}"
        if c.get("subtitle"):
            line += f" — {c['subtitle']}"
        out.append(line)
        if c.get("text"):
            out.append(f"      {c['text']}")
    if not w.get("cards") and w.get("empty"):
        out.append(f"  {w['empty']}")
    if w.get("note"):
        out.append(f"  {w['note']}")
    return out


def _track(t: dict) -> str:
    low, high, value = t["min"], t["max"], t["value"]
    span = max(1, high - low)
    width = min(span + 1, 26)
    pos = round((value - low) * (width - 1) / span) if span else 0
    bar = "".join("●" if i == pos else "─" for i in range(width))
    arrow = {"up": " ↑", "down": " ↓"}.get(t.get("direction", ""), "")
    marks = "".join(f" [{m['label']} : {m['at']}]" for m in t.get("marks", []))
    note = f" — {t['note']}" if t.get("note") else ""
    return f"  {t['label']:<14} {low} {bar} {high}  = {value}{arrow}{marks}{note}"


def _die(d: dict) -> str:
    label = f"{d['label']} : " if d.get("label") else ""
    shown = f" (compte pour {d['shown']})" if d.get("shown") is not None else ""
    note = f" — {d['note']}" if d.get("note") else ""
    return f"  {label}⟦ {d['value']} ⟧ (d{d.get('sides', 6)}){shown}{note}"


def _table(w: dict) -> list[str]:
    cols = w.get("columns", [])
    rows = [[str(c) for c in r["cells"]] for r in w.get("rows", [])]
    widths = [
        max([len(str(c)), *(len(r[i]) for r in rows if i < len(r))]) for i, c in enumerate(cols)
    ]
    out = ["  " + "  ".join(str(c).ljust(widths[i]) for i, c in enumerate(cols))]
    for r, raw in zip(rows, w.get("rows", []), strict=True):
        mark = "▶ " if raw.get("current") else "  "
        line = "  ".join(
            cell.ljust(widths[i]) if i < len(widths) else cell for i, cell in enumerate(r)
        )
        extra = " (vous)" if raw.get("you") else ""
        extra += " (éliminé)" if raw.get("out") else ""
        out.append(f"{mark}{line}{extra}")
    return out


def widget_lines(w: dict) -> list[str]:
    """One widget as text lines (its title first)."""
    kind = w["type"]
    out = [f"— {w['title']} —"] if w.get("title") else []
    if kind == "text":
        out += [f"  {p.strip()}" for p in w["text"].split("\n\n") if p.strip()]
    elif kind == "cards":
        out += _cards(w)
    elif kind == "tracks":
        out += [_track(t) for t in w.get("tracks", [])]
    elif kind == "dice":
        out += [_die(d) for d in w.get("dice", [])]
    elif kind == "players":
        out += _table(w)
    elif kind == "grid":
        for c in sorted(w.get("cells", []), key=lambda c: (c["y"], c["x"])):
            figures = f" ← {', '.join(c['figures'])}" if c.get("figures") else ""
            lines = f" [{' · '.join(c['lines'])}]" if c.get("lines") else ""
            out.append(f"  ({c['x']},{c['y']}) {c['title']}{lines}{figures}")
    elif kind == "facts":
        for f in w.get("items", []):
            note = f" ({f['note']})" if f.get("note") else ""
            out.append(f"  {f['label']} : {f['value']}{note}")
    elif kind == "items":
        for i, entry in enumerate(w.get("items", []), 1):
            out.append(f"  {i}. {entry}" if w.get("ordered") else f"  · {entry}")
    elif kind == "ranking":
        if w.get("why"):
            out.append(f"  {w['why']}")
        for r in w.get("rows", []):
            out.append(f"  {r['rank']}. {r['name']} — {_points(r['score'])}")
            out += [f"       {d}" for d in r.get("details", [])]
        out += [f"  {c}" for c in w.get("carry", [])]
    if w.get("legend"):
        out.append("  Légende : " + " · ".join(w["legend"]))
    return out


def screen_lines(scr: Screen, areas: tuple[str, ...] = ("board", "self", "main")) -> list[str]:
    out = [f"== {scr['status']} =="]
    for area in areas:
        for w in scr.get("widgets", []):
            if w.get("area", "board") == area:
                out += widget_lines(w)
    return out


def menu_lines(scr: Screen) -> list[str]:
    out: list[str] = []
    if prompt := scr.get("prompt"):
        out.append(prompt)
    for g in scr.get("groups", []):
        out.append(f"[{g['heading']}]" + (f" {g['help']}" if g.get("help") else ""))
        if g["kind"] == "form":
            out.append(f"  {g['n']}. {g['submit']}… ({len(g['choices'])} possibilités)")
            continue
        for c in g["choices"]:
            helptext = f" — {c['help']}" if c.get("help") else ""
            out.append(f"  {c['n']}. {c['label']}{helptext}")
    return out


def outcome_lines(outcome: dict) -> list[str]:
    out = ["", f"== {outcome['summary']} =="]
    if outcome.get("ranking"):
        for r in outcome["ranking"]:
            out.append(f"  {r['rank']}. {r['name']} — {_points(r['score'])}")
            out += [f"       {d}" for d in r.get("details", [])]
    for w in outcome.get("widgets", []):
        out += widget_lines(w)
    for link in outcome.get("links", []):
        out.append(f"  → {link['label']} : gamebook play {link['game']}")
    return out


# --------------------------------------------------------------------------- input


#: the largest script of actions read (``--script``)
MAX_SCRIPT_BYTES = 64 * 1024 * 1024


def _script_lines(path: Path) -> Iterator[str]:
    """The script's actions, read at once (a file that cannot be read is said before the
    game begins)."""
    try:
        text = read_text_limited(path, MAX_SCRIPT_BYTES)
    except FileProblem as exc:
        raise PlayError(f"script illisible : {exc}") from exc
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return iter([line for line in lines if line])


class Console:
    """Where choices come from: a script first, then the keyboard (if a human plays)."""

    def __init__(self, out: TextIO, script: Iterator[str] | None, interactive: bool) -> None:
        self.out, self.script, self.interactive = out, script, interactive

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    @property
    def scripted(self) -> bool:
        return self.script is not None

    def ask(self, prompt: str) -> str:
        if self.script is not None:
            try:
                line = next(self.script)
                self.say(f"{prompt} {line}")
                return line
            except StopIteration:
                self.script = None
        if not self.interactive:
            raise PlayError("le script est terminé alors qu'un joueur humain doit choisir")
        print(prompt + " ", end="", file=self.out, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise PlayError("entrée terminée")
        return line.strip()

    def wrong(self, line: str) -> None:
        if self.scripted or not self.interactive:
            raise PlayError(f"choix invalide dans le script : {line!r}")
        self.say("Choix invalide : tapez un numéro de la liste (ou une action en JSON).")


def _pick_form(con: Console, group: dict) -> dict | None:
    """Fill a form group field by field; the choice the values designate."""
    choices = group["choices"]
    for f in group["fields"]:
        values = []
        for c in choices:
            v = c["fields"][f["name"]]
            if v not in values:
                values.append(v)
        if len(values) == 1:
            chosen = values[0]
        elif f["kind"] == "stepper":
            low, high = min(values), max(values)
            line = con.ask(f"{f['label']} ({low} à {high}) :")
            if not line.lstrip("-").isdigit() or int(line) not in values:
                con.wrong(line)
                return None
            chosen = int(line)
        else:
            labels = {o["value"]: o["label"] for o in f.get("options", [])}
            for i, v in enumerate(values, 1):
                con.say(f"    {i}. {labels.get(str(v), v)}")
            line = con.ask(f"{f['label']} :")
            if not line.isdigit() or not 1 <= int(line) <= len(values):
                con.wrong(line)
                return None
            chosen = values[int(line) - 1]
        choices = [c for c in choices if c["fields"][f["name"]] == chosen]
    return choices[0] if choices else None


def _choose(con: Console, scr: Screen) -> Any:
    """Read one choice: its action (a dict), or None to ask again."""
    numbered: dict[int, Any] = {}
    for g in scr["groups"]:
        if g["kind"] == "form":
            numbered[g["n"]] = g
        else:
            for c in g["choices"]:
                numbered[c["n"]] = c
    line = con.ask("Votre choix :")
    if line.startswith("{"):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            con.wrong(line)
            return None
    if not line.isdigit() or int(line) not in numbered:
        con.wrong(line)
        return None
    item = numbered[int(line)]
    if "kind" in item:  # a form group
        chosen = _pick_form(con, item)
        return chosen["action"] if chosen else None
    if item.get("confirm") and not con.scripted and con.interactive:
        con.say(item["confirm"])
        if not con.ask("Confirmer ? (o/n)").lower().startswith("o"):
            return None
    return item["action"]


# --------------------------------------------------------------------------- saves


def read_save(path: Path) -> str | None:
    """The save's text, ``None`` when the file does not exist yet; a file that is not a save
    is refused (and never overwritten)."""
    if not path.exists():
        return None
    try:
        # UTF-8, or a copy an editor re-encoded with a byte-order mark (UTF-16 on Windows)
        text = decode(read_limited(path, 2 * MAX_SAVE_BYTES + 4))
    except (FileProblem, SaveError) as exc:
        why = f" ({exc})" if isinstance(exc, FileProblem) else ""
        raise PlayError(
            f"{path} existe mais n'est pas une sauvegarde lisible{why} ; choisissez un autre "
            "fichier, il ne sera pas écrasé"
        ) from exc
    try:
        data = parse(text)
    except SaveError as exc:
        raise PlayError(f"{path} n'est pas une sauvegarde ({exc}) ; il ne sera pas écrasé") from exc
    if not looks_like_save(data):
        raise PlayError(f"{path} n'est pas une sauvegarde de gamebook ; il ne sera pas écrasé")
    return text


def write_save(path: Path, text: str) -> None:
    """Written atomically (``pipeline.files.write_atomic``: an exclusive temporary file beside
    it, then renamed); a symbolic link is written through to its target."""
    write_atomic(path, text)


# --------------------------------------------------------------------------- the loop


def _is_tty(out: TextIO) -> bool:
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def play(
    game: Game,
    setup: dict[str, Any],
    script: Path | None,
    save: Path | None,
    out: TextIO,
    interactive: bool,
    start_from: str | None = None,
    seed_drawn: bool = False,
) -> int:
    """Play in the terminal.  ``seed_drawn``: the setup's seed was drawn for this game (no
    ``--seed``): it is printed, so that the game can be replayed."""
    session = Session(game)
    saved = read_save(save) if save else None
    try:
        if saved is not None:
            session.load(saved)
        else:
            session.start(setup, start_from=start_from)
    except SaveError as exc:
        raise PlayError(f"{save} : {exc} Le fichier n'a pas été modifié.") from exc
    except SetupError as exc:
        raise PlayError(str(exc)) from exc
    humans = session.humans()
    con = Console(out, _script_lines(script) if script else None, interactive and bool(humans))
    if seed_drawn and saved is None:
        seed = session.setup.get("seed")
        con.say(f"Graine de cette partie : {seed} (« --seed {seed} » la rejoue à l'identique).")
    if session.notice:
        con.say(session.notice)
    tty = _is_tty(out)
    secret_shown = False  # a seat's screen is on the terminal since the last hand-over
    printed = 0
    viewer_printed: dict[Any, int] = {}

    def persist() -> None:
        if save:
            write_save(save, session.save_text())

    def flush(scr: Screen) -> None:
        nonlocal printed
        key = scr.get("seat")
        start = viewer_printed.get(key, printed if key is None else 0)
        lines = scr["log"]
        size = scr["log_size"]
        new = lines[len(lines) - (size - start) :] if size > start else []
        for line in new:
            con.say(line)
        viewer_printed[key] = size
        printed = max(printed, size)

    while True:
        scr = session.screen()
        if scr["handoff"]:
            if tty and secret_shown:
                out.write(CLEAR)
            secret_shown = False
            con.say("")
            con.say(f"*** {scr['status']} : les autres ne regardent pas. ***")
            if con.interactive and not con.scripted:
                con.ask("(Entrée quand l'appareil est passé)")
            session.handed_over()
            continue
        flush(scr)
        secret_shown = secret_shown or scr["seat"] is not None
        if scr["over"]:
            for line in outcome_lines(scr["outcome"] or {}):  # set when over
                con.say(line)
            persist()
            if scr["sequel"] and humans:
                answer = con.ask("Jouer la partie suivante de la campagne ? (o/n) :")
                if answer.lower().startswith("o"):
                    session.next_game()
                    persist()
                    continue
            return 0
        if not scr["groups"]:
            raise PlayError("aucune action possible : la partie est bloquée")
        con.say("")
        for line in screen_lines(scr):
            con.say(line)
        for line in menu_lines(scr):
            con.say(line)
        action = _choose(con, scr)
        if action is None:
            continue
        try:
            session.act(action)
        except (MalformedAction, IllegalAction) as exc:
            if con.scripted or not con.interactive:
                raise PlayError(f"action refusée : {exc}") from exc
            con.say(f"Action refusée : {exc}")
            continue
        persist()


def _points(score: Any) -> str:
    """« 1 point », « 0 point », « 3 points » (a score that is no integer as it is)."""
    return count(score, "point") if isinstance(score, int) else f"{score} points"
