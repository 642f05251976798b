"""The content format as data: the small validators a game's content schema is written with.

Each game declares what a writer may put in ``content/<game>/`` in its own package
(``engine/<game>/content.py``) with these specs; ``pipeline`` validates the YAML against them,
builds the story graph from their references and generates the writers' reference and the JSON
Schema from them.  Standard library only (the engine runs in Pyodide), and no game named here.

A spec is a small validator object; specs nest (``ListOf(Record({...}))``) the way mkdocs'
config options do, and errors name the path (``dilemmas[3].oui_da.effects[1].open_envelope``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


class Spec:
    """Base of all field specs.  ``fr`` is the writers' guide description."""

    fr = ""
    type_fr = "valeur"


@dataclass(frozen=True)
class Str(Spec):
    """Text.  ``vocab`` makes it a word of a closed vocabulary the content itself declares
    (the zones of a campaign): fields with ``declares=True`` declare its words, the others
    must use a declared one (or one of their ``also`` words), checked like an id (with a
    suggestion among the declared words)."""

    fr: str = ""
    type_fr: str = "texte"
    vocab: str = ""
    declares: bool = False
    #: how a word of ``vocab`` is named in messages (« la zone »)
    vocab_fr: str = ""
    #: words of ``vocab`` this field accepts though nothing declares them (« X »: any one)
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Int(Spec):
    min: int | None = None
    max: int | None = None
    fr: str = ""
    type_fr: str = "nombre entier"


@dataclass(frozen=True)
class Bool(Spec):
    fr: str = ""
    type_fr: str = "oui/non (true/false)"


@dataclass(frozen=True)
class Enum(Spec):
    values: tuple[str, ...] = ()
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "un de : " + ", ".join(self.values)


@dataclass(frozen=True)
class Ref(Spec):
    """A reference to other node(s) by id.  ``edge`` names the graph edge it creates
    (``None``: checked, but no edge).  ``allow_this`` accepts the word ``this``."""

    kinds: tuple[str, ...] = ()
    edge: str | None = None
    allow_this: bool = False
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "identifiant de " + " ou ".join(self.kinds)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec = field(default_factory=Str)
    min_len: int = 0
    max_len: int | None = None
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "liste de " + self.item.type_fr


@dataclass(frozen=True)
class MapOf(Spec):
    keys: tuple[str, ...] = ()
    value: Spec = field(default_factory=Int)
    fr: str = ""

    @property
    def type_fr(self) -> str:  # type: ignore[override]
        return "table (" + ", ".join(self.keys) + ") → " + self.value.type_fr


@dataclass(frozen=True)
class Field:
    spec: Spec
    required: bool = False
    default: Any = None
    fr: str = ""


@dataclass(frozen=True)
class Record(Spec):
    fields: dict[str, Field] = field(default_factory=dict)
    #: at least one of these keys must be present
    one_of: tuple[str, ...] = ()
    #: fields the record's ``requires`` does not guard (a branch's ``otherwise``)
    unguarded: tuple[str, ...] = ()
    #: (field, value, needed): when ``field`` equals ``value``, ``needed`` must be present
    required_if: tuple[tuple[str, str, str], ...] = ()
    fr: str = ""
    type_fr: str = "table"


@dataclass(frozen=True)
class Effects(Spec):
    """An ordered list of effects, each a one-key mapping (``- open_envelope: 12``), from the
    effect table of the game ``family``."""

    family: str = ""
    fr: str = ""
    type_fr: str = "liste d'effets"


@dataclass(frozen=True)
class Condition(Spec):
    """Conditions are data: a mapping or a list of one-key mappings, all of which must hold
    (``any:`` for alternatives), from the condition table of the game ``family``."""

    family: str = ""
    fr: str = ""
    type_fr: str = "condition"


@dataclass(frozen=True)
class SubNodes(Spec):
    """Records nested in a parent that are graph nodes of their own (a dilemma's outcomes,
    a scenario's epilogue branches, a house's achievements)."""

    kind: str = ""
    many: bool = True
    #: node key is ``parent/child`` when True, else the child's own ``id``
    prefix_parent: bool = True
    #: edge from the parent to each child (``None``: no edge)
    edge: str | None = None
    fr: str = ""
    type_fr: str = "sous-éléments"


@dataclass(frozen=True)
class IdFormat:
    """How a kind's records are keyed and how a reference to one is written: a word (the
    default), a whole number (``width``: written with at least that many digits, zeros in
    front, « 07 »), one letter, or, with ``numbered``, a card's ``number`` field (1 to 999)
    followed by ``suffixes`` (the versions of one numbered card)."""

    #: ``"text"``, ``"number"`` or ``"letter"``: what an id is written as
    shape: str = "text"
    width: int = 0
    #: the record is keyed by its ``number`` field rather than an ``id``
    numbered: bool = False
    #: ``(field, separator, default)`` appended to a numbered key when the field (or its
    #: default) has a value: ``("version", "/", "green")`` makes ``12/green``
    suffixes: tuple[tuple[str, str, str | None], ...] = ()
    #: fields of a numbered record that, when set, guard every reference to it by a condition
    #: of the same name (a version proper to one scenario is only taken in that scenario)
    guards: tuple[str, ...] = ()
    #: what an id must look like, as the error says it (French); empty: the shape's own words
    expected_fr: str = ""


#: an id that is a word or a number, without « / » nor « : »
TEXT = IdFormat()
#: an id that is a whole number
NUMBER = IdFormat("number")
#: an id that is one letter
LETTER = IdFormat("letter")


@dataclass(frozen=True)
class Kind:
    name: str
    family: str
    section: str
    fields: dict[str, Field]
    fr: str
    #: how the record is keyed (its ``id`` field, normalised) and referred to
    id_format: IdFormat = TEXT
    #: story nodes take part in reachability / dead-end / never-referenced checks
    story: bool = True
    #: simulation coverage counts this kind's nodes (the cards a game plays, the characters
    #: whose effect it uses, the months it plays); ``None``: the story kinds only
    covered: bool | None = None
    #: a section may hold a single mapping instead of a list
    single: bool = False
    one_of: tuple[str, ...] = ()
    required_if: tuple[tuple[str, str, str], ...] = ()
    #: the French name of one node of this kind, as a writer reads it (« carte Aventure »)
    name_fr: str = ""
    #: grammatical gender of ``name_fr`` (« une carte Aventure », « un paragraphe »)
    feminine: bool = False
    #: a reference resolves through this field rather than the id: every record whose field
    #: has the referenced value is a target (the versions of a numbered adventure card)
    resolve_by: str | None = None
    #: a record of this kind must offer a way on (checked by ``way_on``; see ContentSchema)
    dead_end_fix: str = ""
    #: the colour of this kind's nodes on the story map (CSS hex); empty: the map picks one
    colour: str = ""


def F(spec: Spec, fr: str = "", required: bool = False, default: Any = None) -> Field:
    return Field(spec=spec, required=required, default=default, fr=fr)


def branch_effect(family: str) -> Field:
    """The conditional effect every game has:
    ``- branch: {requires: ..., then: [...], otherwise: [...]}``."""
    return F(
        Record(
            {
                "requires": F(Condition(family), "la condition", required=True),
                "then": F(Effects(family), "effets si elle est vraie", required=True),
                "otherwise": F(Effects(family), "effets sinon"),
            },
            unguarded=("otherwise",),
        ),
        "effets soumis à une condition (sinon, d'autres effets)",
    )


# --------------------------------------------------------------------------- graph hooks


@dataclass(frozen=True)
class Edge:
    """An edge the rules make without a reference written in the content (the campaign's start,
    the grand final, an exploration zone behind a terrain's arrow)."""

    source: str
    target: str
    kind: str
    condition: tuple | None = None
    context: str | None = None


@dataclass(frozen=True)
class Granted:
    """A condition that only an effect of the same name makes true (``- flag: x`` makes the
    condition ``flag: x`` true): a condition nothing reachable grants is a finding (COND001).

    ``never_fr`` says why such a condition can never hold (``{value}`` the value; for a
    ``keyed`` one, an ``{id: …, state: …}`` value, ``{id}`` and ``{state}``).  A keyed
    condition on ``any_state`` holds whatever state an effect gave the id."""

    name: str
    never_fr: str
    keyed: bool = False
    any_state: str = ""


#: the flags most stories set and test: ``- flag: word`` / ``flag: word``
FLAG = Granted(
    "flag",
    "aucun effet atteignable ne pose le drapeau « {value} ». Ajoutez « - flag: {value} » à un "
    "effet que les joueurs peuvent atteindre, ou corrigez l'orthographe du drapeau.",
)


@dataclass(frozen=True)
class Code:
    """One finding code as a record: what the checker says and the guide shows about it, kept
    beside the function that finds it and registered once (``pipeline.story.catalogue``).

    ``messages`` maps each message key to its French template (``str.format`` blanks);
    ``guide`` is the code's section of the writers' guide (Markdown, with an example of the
    finding).  A game declares its own codes in ``ContentSchema.codes``.
    """

    code: str
    severity: str
    about: str
    fix: str
    messages: dict[str, str] = field(default_factory=dict)
    guide: str = ""

    def say(self, key: str, /, **values: object) -> str:
        """The message ``key`` filled with ``values``."""
        return self.messages[key].format(**values)


@dataclass(frozen=True)
class Issue:
    """A game-specific finding, before the pipeline gives it its file and line: ``node`` (or
    the campaign ``field`` it is about) says where."""

    code: str
    severity: str
    message: str
    node: str | None = None
    field: str | None = None
    #: ``(file, line, column)`` when the issue is about one written value (a reference)
    at: tuple[str, int, int] | None = None


@dataclass(frozen=True)
class Reference:
    """A reference written in the content, as a game's check reads it: where it is
    (``path`` like ``adventure_cards[3].hidden_number``, file, line, column), the record it is
    written in (``source``), the key it names, the kinds it may name and the edge it makes;
    ``context`` is the value as written when it differs from the key."""

    source: str
    key: str
    kinds: tuple[str, ...]
    edge: str | None
    path: str
    file: str
    line: int
    column: int
    context: str | None = None


class GraphView:
    """What a game's content hooks may read of a campaign's story graph (a protocol: the
    pipeline passes its own object).  Nodes are ``kind:key`` strings."""

    campaign: dict[str, Any]

    def records(self) -> Iterable[tuple[str, str, dict[str, Any]]]:
        """``(node, kind, data)`` of every record."""
        raise NotImplementedError

    def data(self, node: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def has(self, node: str) -> bool:
        raise NotImplementedError

    def reachable(self) -> set[str]:
        raise NotImplementedError

    def out_edge_kinds(self, node: str) -> list[str]:
        raise NotImplementedError

    def successors(self, node: str) -> list[str]:
        raise NotImplementedError

    def out_edges(self, node: str) -> list[tuple[str, str]]:
        """``(target, edge kind)`` of every edge leaving ``node``."""
        raise NotImplementedError

    def by(self, kind: str, value: str) -> list[str]:
        """Nodes of ``kind`` found through its ``resolve_by`` field."""
        raise NotImplementedError

    def label(self, node: str) -> str:
        raise NotImplementedError

    def references(self, edge: str) -> list[Reference]:
        """Every reference written in the content that makes an ``edge`` edge."""
        raise NotImplementedError


@dataclass(frozen=True)
class ContentSchema:
    """Everything the pipeline needs to check, compile and document one game's content."""

    family: str
    kinds: tuple[Kind, ...]
    effects: dict[str, Field]
    conditions: dict[str, Field]
    #: fields of ``campaign.yaml``'s ``campaign:`` section beyond id, family, title and text
    campaign_fields: dict[str, Field] = field(default_factory=dict)
    #: the campaign field that names where play starts, and how its value becomes a node
    start_field: str | None = None
    start_node: Callable[[Any], str] | None = None
    #: « l'enveloppe de départ (start_envelope: 00) » — what a campaign without start must add
    start_fr: str = ""
    #: other campaign fields that must name an existing node (the grand final)
    required_nodes: dict[str, Callable[[Any], str]] = field(default_factory=dict)
    #: edge kinds ``implicit_edges`` may add (documented and exported)
    implicit_edge_kinds: frozenset[str] = frozenset()
    #: the French name of each edge kind this game's content makes (``Ref.edge``,
    #: ``SubNodes.edge``, ``implicit_edge_kinds``), for the story map's pages and tooltips
    edges_fr: dict[str, str] = field(default_factory=dict)
    #: nouns this game's text counts (« 3 dilemmes »), singular to plural: the French text
    #: check adds them to the shared ones when it checks number agreement
    counted_fr: dict[str, str] = field(default_factory=dict)
    implicit_edges: Callable[[GraphView], list[Edge]] | None = None
    #: whether a record offers a way on (dead-end check), for kinds with ``dead_end_fix``
    way_on: Callable[[GraphView, str, str, dict], bool] | None = None
    #: condition atom -> why it can never hold (``None``: it might); for atoms beyond flags
    never: Callable[[GraphView, str, Any, dict], str | None] | None = None
    #: conditions that only an effect of the same name makes true (checked by COND001)
    granted: tuple[Granted, ...] = ()
    #: condition atoms granted by a record's own data besides its effects (scenario setup flags)
    setup_grants: Callable[[GraphView], dict[str, set[str]]] | None = None
    #: further game-specific checks
    checks: tuple[Callable[[GraphView], list[Issue]], ...] = ()
    #: game-specific checks that take seconds (a solver playing every scenario): run by
    #: ``gamebook check --deep`` only
    deep_checks: tuple[Callable[[GraphView], list[Issue]], ...] = ()
    #: the finding codes only this game's checks give (records with their messages and guide)
    codes: tuple[Code, ...] = ()
    #: the opening a player reads before the engine starts: (title, text) pairs
    opening: Callable[[GraphView], list[tuple[str, str]]] | None = None
    #: how a node is named in messages when the kind's name and key are not enough
    label: Callable[[str, str, dict], str | None] | None = None
    #: why a record that another lists is still no start (« seul le premier scénario… »),
    #: added to the unreachable finding about it; empty: nothing to add
    listed_fr: str = ""
    #: the game's word for its campaign-level rules settings
    rules_keys: tuple[str, ...] = ()
    #: whether a record lets play out of ``loop`` (records of kinds with ``dead_end_fix`` that
    #: lead only to one another) by itself: it ends the story, or leads somewhere outside the
    #: loop.  ``None``: loops are not checked for this game.
    leaves_loop: Callable[[GraphView, str, str, dict, frozenset[str]], bool] | None = None

    def kind(self, name: str) -> Kind:
        return {k.name: k for k in self.kinds}[name]
