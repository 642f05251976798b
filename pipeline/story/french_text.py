"""Everything a player reads, for every registered game, checked as French.

``collect(game_id, games)`` plays seeded games through the session (every table size, every
choice of every non-seat setup field in turn: variants, scenarios, months; every other game
with a single person at the table, played as the bots play, whom the game calls « Vous »)
and gathers each screen's texts (status, prompts, widgets, choice labels, journal), every log
line, the chronicle, the end screen, the setup form's messages for wrong setups and the
messages of refused imports.  ``findings(sentences, words)`` checks them: constructions that
are always wrong in French (« de le », « 1 joueurs », « 3 carte », « que il », « Vous
joue »…), English words, raw ids and placeholders left in, and (when Hunspell is installed)
words Hunspell does not know.

Used by ``tests/test_french_text.py`` (a few games per setting) and ``bench/french_text.py``
(hundreds of games per game).  Names no game: everything comes from the registry.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import playout, registry
from engine.core.errors import SetupError
from engine.core.french import elides
from engine.core.game import Game
from engine.core.save import SaveError
from engine.core.session import WATCH_NEXT, Session

#: keys of screen data that are not text a player reads
SKIP = {
    "kind",
    "area",
    "tone",
    "action",
    "actions",
    "id",
    "key",
    "ref",
    "icon",
    "image",
    "style",
    "game",
    "name_key",
    "field",
    "value",
    "turn_kind",
    "type",
    "private",
    "side",
    "suit",
    "color",
    "colour",
    "terrain",
    "state",
    "direction",
    "tremor",
    "entry",
    "card",
    "remark",
    "to",
    "ask",
    "for",
}
#: a value of a form field's ``name`` that is an identifier, not a seat's name
_IDENT = re.compile(r"[a-z_0-9:/]+")
MAX_STEPS = 3000

# ---------------------------------------------------------------- collecting


def _strings(value: Any, out: set[str], key: str = "") -> None:
    if isinstance(value, str):
        if value.strip() and key not in SKIP and not (key == "name" and _IDENT.fullmatch(value)):
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in SKIP:
                _strings(v, out, k)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out, key)


def settings(game: Any) -> list[dict[str, Any]]:
    """The setups to play: the defaults, then each value of each shared choice field."""
    out: list[dict[str, Any]] = [{}]
    for f in game.fields():
        if f.per_seat or not f.form:
            continue
        if f.kind == "choice":
            out.extend({f.name: v} for v in f.values() if v != f.default)
        elif f.kind == "bool":
            out.append({f.name: not f.default})
    return out


def play(game: Any, setup: dict[str, Any], out: set[str], sequels: int = 1) -> Session | None:
    """One seeded all-bot game (and up to ``sequels`` following games of its campaign), every
    text it shows gathered into ``out``.  The bots draw as the session's do."""
    session = Session(game)
    try:
        session.setup = game.normalize_setup(setup)
    except SetupError as exc:  # a setting this content does not allow at this table size
        out.add(str(exc))
        return None
    session.state = game.new_game(session.setup)
    for _ in range(sequels + 1):
        _read_game(game, session, out)
        nxt = game.sequel(session.state)
        if nxt is None:
            break
        session.state = nxt
        session.actions.append({"sequel": True})
    out.update(session.names())
    return session


def campaign(game: Any, out: set[str], seed: str = "texte-campagne") -> None:
    """A whole campaign played by bots to its end (a game without one: a single game), its
    end screen and its chronicle page gathered into ``out``."""
    size = game.default_players
    session = play(game, {"seed": seed, "players": size, "bots": size}, out, sequels=100)
    if session is not None and session.state is not None:
        _strings(game.chronicle(session.state), out)


def watch(game: Any, out: set[str], seeds: int = 20) -> None:
    """For a game where a person may be out while the others play on (``Game.out_seats``):
    one person (playing as the default bot would) and bots, until the person is out, then
    every screen of the watching (« Coup suivant ») to the end."""
    if type(game).out_seats is Game.out_seats:
        return
    size = game.default_players
    for k in range(seeds):
        session = Session(game).start(
            {"seed": f"texte-spectateur-{k}", "players": size, "bots": size - 1}
        )
        watched = False
        for _ in range(MAX_STEPS):
            state = session.state
            assert state is not None
            if session.watching:
                watched = True
                _strings(session.screen(), out)
                session.act(dict(WATCH_NEXT))
                continue
            seats, _ = session.waiting()
            if not seats:
                break
            seat = seats[0]
            session.act(game.choose(state, seat, session.bot_rng(), session.persona(seat)))
        if watched:  # one game watched to its end is enough
            _strings(session.screen(), out)
            return


def _read_game(game: Any, session: Session, out: set[str]) -> None:
    state = session.state
    assert state is not None
    start = len(state.get("log", []))

    # with one person at the table, only their screens are ever shown (a bot's screen, « Vous
    # vous proposez… », is read by nobody); with none, every seat stands for a person
    alone = len(session.humans()) == 1

    def read_then_choose(game: Game, state: dict[str, Any], seat: int, index: int) -> Any:
        readers = game.to_act(state)[:2]  # the screens of the seats that must act
        if alone:
            readers = [r for r in readers if not session.is_bot(r)]
        for reader in readers:
            actions = game.legal_actions(state, reader)
            _strings(game.screen(state, reader, actions), out)
            for a in actions:
                out.add(game.describe(state, a, reader))
        return game.choose(state, seat, session.bot_rng(), session.persona(seat))

    for move in playout.play(game, state, read_then_choose, limit=MAX_STEPS):
        state = move.after
        session.state = state
        session.actions.append({"seat": move.seat, "action": move.action})
    for entry in state.get("log", [])[start:]:
        out.add(game.render_log(entry))
    _strings(session.screen(), out)
    _strings(game.chronicle(state) or [], out)
    outcome = game.outcome(state)
    if outcome is not None:
        _strings(outcome.to_json(), out)
    out.add(game.progress(state))


def setup_messages(game: Any) -> set[str]:
    """What the setup form says to wrong setups: a table too big or too small, a value chosen
    twice where each seat needs its own, an unknown temperament."""
    out: set[str] = set()
    low, high = game.seat_range()
    attempts: list[dict[str, Any]] = [
        {"players": high + 1, "bots": high + 1},
        {"players": max(low - 1, 0), "bots": 0},
        {"players": 2, "bots": 3},
        {"players": low, "bots": low, "persona": "inconnu"},
    ]
    for f in game.fields():
        if f.per_seat and f.distinct and f.kind == "choice" and f.values():
            n = max(low, 2)
            if n <= high:
                attempts.append({"seats": [{"bot": True, f.name: f.values()[0]} for _ in range(n)]})
        if not f.per_seat and f.kind == "choice":
            attempts.append({f.name: "inconnu"})
        if not f.per_seat and f.kind == "int":
            attempts.append({f.name: "beaucoup"})
            if f.max is not None:
                attempts.append({f.name: f.max + 1})
    for setup in attempts:
        try:
            game.normalize_setup({"seed": "x", **setup})
        except SetupError as exc:
            out.add(str(exc))
    return out


def import_messages(game: Any, others: list[Any]) -> set[str]:
    """What a player reads when importing a file that is not a save of this game in progress:
    another game's save, a damaged one, an edited one, a file that is no save at all."""
    out: set[str] = set()
    low, _ = game.seat_range()
    mine = Session(game).start({"seed": "import", "players": low, "bots": low})
    saved = mine.save()
    bad: list[Any] = ["pas du JSON", "[1, 2]", json.dumps({"format": "autre chose"})]
    for other in others:
        if other.id == game.id:
            continue
        lo, _ = other.seat_range()
        bad.append(Session(other).start({"seed": "import", "players": lo, "bots": lo}).save())
    edited = json.loads(json.dumps(saved))
    edited["state"]["edited"] = True
    bad.append(edited)
    broken = json.loads(json.dumps(saved))
    broken["actions"] = [{"seat": 0, "action": {"type": "rien"}}]
    bad.append(broken)
    newer = json.loads(json.dumps(saved))
    newer["version"] = 99
    bad.append(newer)
    for data in bad:
        try:
            Session(game).load(data)
        except SaveError as exc:
            out.add(str(exc))
        except ValueError as exc:  # the strict parser's own errors are SaveErrors too
            out.add(str(exc))
    return out


def tables(game: Any) -> list[tuple[dict[str, Any], int, str | None]]:
    """The (setting, table size, temperament) combinations to play, in the order they are
    played: every setting at every size, the temperaments taking turns."""
    low, high = game.seat_range()
    sizes = sorted({low, high, *range(low, min(high, 5) + 1)})
    personas = [p.value for p in game.personas] if game.personas else [None]
    out: list[tuple[dict[str, Any], int, str | None]] = []
    for extra in settings(game):
        for size in sizes:
            out.append((extra, size, personas[len(out) % len(personas)]))
    return out


def static_texts(game: Any) -> set[str]:
    """The game's title, pitch, setup labels and helps, temperaments."""
    info = game.info()
    out = {info["title"], info["pitch"]}
    for f in game.fields():
        out.update(x for x in (f.label, f.help) if x)
        out.update(x for o in f.options for x in (o.label, o.help) if x)
    for o in game.personas or ():
        out.update(x for x in (o.label, o.help) if x)
    return out


def device_messages() -> set[str]:
    """What a host says to another device (issue 32): its refusals, whom a device waits for."""
    from engine.core.devices import CODE_REFUSALS, REFUSALS
    from engine.core.session import waiting_for

    return {*REFUSALS.values(), *CODE_REFUSALS.values(), waiting_for(["Anne", "Bruno"])}


def collect(game: Any, games: int, others: list[Any] | None = None) -> set[str]:
    """Every distinct text of ``games`` seeded all-bot games (at least one per table of
    :func:`tables` when ``games`` is as large), plus the setup form's and the import's
    messages, a table with one person in it, a whole campaign to its end and its chronicle,
    and a person who is out watching the rest of a game."""
    out = static_texts(game)
    out.update(device_messages())
    combos = tables(game)
    for g in range(games):
        extra, size, persona = combos[g % len(combos)]
        # every other game has one person at the table (played as the bots play): the game
        # speaks to them as « Vous »
        bots = size - (g + g // len(combos)) % 2
        setup: dict[str, Any] = {"seed": f"texte-{g}", "players": size, "bots": bots, **extra}
        if persona:
            setup["persona"] = persona
        play(game, setup, out)
    low, _ = game.seat_range()
    setup = {"seed": "texte-humain", "players": low, "bots": max(low - 1, 0)}
    try:
        s = Session(game).start(setup)
        _strings(s.screen(), out)
        out.update(s.names())
    except SetupError as exc:
        out.add(str(exc))
    campaign(game, out)
    watch(game, out)
    out.update(setup_messages(game))
    out.update(import_messages(game, others or []))
    return {x for x in out if x and x.strip()}


# ---------------------------------------------------------------- checking

#: nouns counted on screen: singular and plural (a game adds its own: ``ContentSchema.counted_fr``)
COUNTED = {
    "an": "ans",
    "joueur": "joueurs",
    "joueuse": "joueuses",
    "carte": "cartes",
    "pièce": "pièces",
    "point": "points",
    "manche": "manches",
    "tour": "tours",
    "partie": "parties",
    "dé": "dés",
    "face": "faces",
    "cloche": "cloches",
    "coéquipier": "coéquipiers",
    "adversaire": "adversaires",
    "membre": "membres",
    "personnage": "personnages",
    "case": "cases",
    "action": "actions",
    "maison": "maisons",
    "place": "places",
    "voix": "voix",
    "coup": "coups",
    "étoile": "étoiles",
    "enveloppe": "enveloppes",
    "autocollant": "autocollants",
    "règne": "règnes",
    "mois": "mois",
    "fois": "fois",
}
ENGLISH = (
    "bot",
    "bots",
    "deck",
    "player",
    "players",
    "seat",
    "card",
    "cards",
    "turn",
    "none",
    "null",
    "true",
    "false",
    "undefined",
    "nan",
    "round",
    "winner",
    "draw",
)
#: « de le faire », « de les loger »: « le » and « les » are pronouns before a verb
_INFINITIVE = r"[a-zéèêîô]+(?:er|ir|re|oir)\b"
#: words after « Vous » that are no verb in the third person: pronouns, « et », « aussi »…
_NOT_VERB = (
    r"(?:et|en|ne|n['’]|le|la|les|l['’]|y|vous|lui|leur|aussi|seul|seule|même|tous|toutes|"
    r"deux|trois|quatre|ensemble|encore|tout|toute)"
)


def counted() -> dict[str, str]:
    """The nouns counted on screen, singular to plural: the shared ones and every game's."""
    out = dict(COUNTED)
    for game in registry.games():
        if game.content is not None:
            out.update(game.content.counted_fr)
    return out


@functools.cache
def rules() -> list[tuple[str, re.Pattern[str]]]:
    """The grammar rules, each a name and the pattern of what it finds."""
    nouns = counted()
    singular = "|".join(k for k, v in nouns.items() if k != v)
    plural = "|".join(v for k, v in nouns.items() if k != v)
    return [
        ("« de le » / « de les »", re.compile(rf"\b[dD]e (?:le|les) (?!{_INFINITIVE})")),
        ("« à le » / « à les »", re.compile(rf"\b[àÀ] (?:le|les) (?!{_INFINITIVE})")),
        (
            "nom féminin, participe masculin",
            re.compile(r"\bLA [A-ZÀ-Ý'’ ]+ (?:est|reste) [a-zé]+é\b"),
        ),
        (
            "un nombre au-dessus de 1, nom au singulier",
            re.compile(rf"(?<![\d,.−-])(?:[2-9]|\d\d+) (?:{singular})\b(?!-)"),
        ),
        ("0 ou 1 avec un nom au pluriel", re.compile(rf"(?<![\d,.])[−-]?[01] (?:{plural})\b")),
        (
            "« le laisse » pour un féminin",
            re.compile(r"\ble laisse \w+(?:ent|ée|ive|euse)e?\b(?<=e)"),
        ),
        (
            "chiffre romain collé à un nombre",
            re.compile(r"(?:\d|\b[Vv]ous) (?:Ier|Ire|II|III|IV)\b"),
        ),
        ("rien ne change", re.compile(r"\bde (\d+) à \1\b")),
        ("pronom élidé après un trait d'union", re.compile(r"\w-[lLmt]['’](?=\s|\w)")),
        (
            "« l'action » + infinitif",
            re.compile(r"\bl'action (?:se |s')?(?![a-z]*oire\b)[a-zé]+(?:er|ir|re)\b"),
        ),
        ("placeholder", re.compile(r"\{[a-z_]*\}|\bNone\b|\(s\)|\(e\)")),
        ("identifiant brut", re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+:[a-z0-9_/]+\b")),
        ("commande", re.compile(r"gamebook (?:play|check|simulate)|--[a-z]+")),
        ("espace double", re.compile(r"\S  +\S")),
        # « Vous », a single person's seat: the second person plural, « vous » inside a sentence
        (
            "« Vous » avec un verbe à la 3e personne",
            re.compile(rf"\bVous (?!{_NOT_VERB}\b)(?:[a-zéèêàâîôûç]+[etad]|a|est)\b"),
        ),
        (
            "« et vous » avec un verbe à la 3e personne",
            re.compile(r"\bet vous (?:ont|sont|a|est|[a-zéèêàâîôûç]+ent)\b"),
        ),
        ("« Vous » en majuscule dans la phrase", re.compile(r"(?<=[\w,] )Vous\b")),
        (
            "« de vous » après un nom (« votre »)",
            re.compile(
                r"(?:\b[A-ZÀ-Ý]{2,}|\d|\b(?:le|la|les|l['’])\s?"
                r"(?!(?:un|une|plupart|premier|première|dernier|dernière|seul|seule|plus)\b)"
                r"[a-zéèê]+) de vous\b"
            ),
        ),
        (
            "« vous » complément après le verbe",
            re.compile(
                r"\b(?:désigne|voler|examiner|assassiner|prend|rend|montre) vous\b"
                r"|\bcontre vous en annonçant"
            ),
        ),
        ("« Vous se » / « Vous s' »", re.compile(r"\bVous s(?:e\b|['’])")),
        (
            "« Vous » avec un possessif de la 3e personne",
            re.compile(
                r"\bVous (?:\w+ )?(?:\w+ez|êtes|faites|dites)(?: [\w'’]+){0,4}? (?:son|sa|ses)\b"
            ),
        ),
        # the Citadel's rulebook says « Deck d'Action », « Deck d'Aventure »: its own vocabulary
        (
            "mot anglais",
            re.compile(rf"\b(?:{'|'.join(ENGLISH)})\b(?! d['’]A(?:ction|venture))", re.I),
        ),
    ]


_ELISION = re.compile(
    r"(?<![-\w])(de|De|le|Le|la|La|que|Que|ne|Ne|je|Je|me|se|te) ([^\W\d_][\w'-]*)"
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


@dataclass(frozen=True)
class Finding:
    rule: str
    sentence: str
    match: str

    def __str__(self) -> str:
        return f"{self.rule} : « {self.match} » dans « {self.sentence} »"


def grammar(sentences: set[str]) -> list[Finding]:
    out: list[Finding] = []
    for s in sorted(sentences):
        for rule, pattern in rules():
            for m in pattern.finditer(s):
                out.append(Finding(rule, s, m.group(0)))
        for m in _ELISION.finditer(s):
            if elides(m.group(2)):
                out.append(Finding("élision manquante", s, m.group(0)))
    return out


def allowed_words(root: Path) -> set[str]:
    """The project's word lists (``mots.txt`` of the content and of each campaign)."""
    from .spelling import word_list

    content = root / "content"
    return word_list([content, *sorted(p for p in content.iterdir() if p.is_dir())])


def hunspell_available() -> bool:
    return shutil.which("hunspell") is not None and Path("/usr/share/hunspell/fr_FR.dic").exists()


def spelling(sentences: set[str], allowed: set[str]) -> list[Finding]:
    """Words Hunspell's French dictionary does not know, outside the project's word lists and
    the games' own names (words in capitals, as the rulebooks print card names)."""
    exe = shutil.which("hunspell")
    if exe is None:
        return []
    words = sorted({w.strip("'’-") for s in sentences for w in _WORD.findall(s)} - {""})
    words = [w for w in words if not (w.isupper() and len(w) > 1)]
    proc = subprocess.run(
        [exe, "-d", "fr_FR", "-l", "-i", "utf-8"],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
    )
    unknown = set(proc.stdout.split())
    bad = set()
    for w in unknown:
        if w in allowed or w.lower() in allowed or w.capitalize() in allowed:
            continue
        pieces = [p for p in re.split(r"[-'’]", w) if p]
        if len(pieces) > 1 and all(p in allowed or p.lower() not in unknown for p in pieces):
            continue
        bad.add(w)
    if not bad:
        return []
    out = []
    for s in sorted(sentences):
        for w in _WORD.findall(s):
            if w.strip("'’-") in bad:
                out.append(Finding("orthographe", s, w))
    return out


def findings(sentences: set[str], allowed: set[str]) -> list[Finding]:
    return grammar(sentences) + spelling(sentences, allowed)


def games() -> list[Any]:
    from .bundles import bundle_for

    return [registry.get(i)(bundle_for(i)) for i in registry.ids()]
