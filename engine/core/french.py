"""French grammar for the sentences the games write: articles, contractions, elisions,
agreement, counts and ordinals.  Standard library only (it runs in Pyodide too).

A name that a sentence may put an article in front of, or make something agree with, is a
:class:`Name`: its words, its gender and its number.  Messages then choose their words by it
instead of pasting « de » before « le Capitaine »:

>>> capitaine = Name("Capitaine", "m")
>>> de(capitaine), a(capitaine), the(capitaine)
('du Capitaine', 'au Capitaine', 'le Capitaine')
>>> de(Name("Ambassadeur", "m")), de(Name("Chenapans", "m", plural=True))
("de l'Ambassadeur", 'des Chenapans')
>>> agree("annulé", Name("LA PUISSANTE", "f", article=False))
'annulée'
>>> count(1, "an"), count(0, "carte"), count(3, "carte"), count(2, "joueur", "joueuses")
('1 an', '0 carte', '3 cartes', '2 joueuses')
>>> ordinal(1), ordinal(1, "f"), ordinal(2), regnal(1), regnal(1, "f"), regnal(4)
('1er', '1re', '2e', 'Ier', 'Ire', 'IV')

:func:`tidy` makes the contractions and elisions of a sentence already written, for texts
assembled from pieces (« de » + a name given as plain text):

>>> tidy("Personne ne doute de le Capitaine de Anne.")
"Personne ne doute du Capitaine d'Anne."
>>> tidy("Le jeton passe à les Chenapans ; que il parte.")
"Le jeton passe aux Chenapans ; qu'il parte."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = [
    "YOU",
    "Name",
    "a",
    "agree",
    "count",
    "de",
    "elides",
    "group",
    "listing",
    "message",
    "name_of",
    "ordinal",
    "pick",
    "plural",
    "regnal",
    "seat",
    "temperament_of",
    "the",
    "tidy",
    "tidy_texts",
    "verb",
    "you_as",
]

_VOWELS = "aàâäeéèêëiîïoôöuùûüyœæ"
#: words beginning with a mute h (they elide: « l'héritier », « d'honneur »); any other h is
#: aspirate (« le héros », « la hache »)
MUTE_H = frozenset(
    [
        "habile",
        "habit",
        "habitant",
        "habitude",
        "harmonie",
        "héritier",
        "héritière",
        "herbe",
        "heure",
        "heureux",
        "heureuse",
        "hier",
        "histoire",
        "hiver",
        "homme",
        "hommage",
        "honneur",
        "honnête",
        "hôpital",
        "horizon",
        "horloge",
        "horreur",
        "hospice",
        "hôte",
        "hôtel",
        "huile",
        "humain",
        "humaine",
        "humeur",
        "humble",
        "humilité",
        "hymne",
        "hypothèse",
    ]
)
#: words beginning with a vowel that never elide what comes before them
NO_ELISION = frozenset(["oui", "onze", "onzième", "ouate", "yacht", "yaourt", "yeti", "yéti"])


def elides(word: str) -> bool:
    """Whether ``word`` makes « le », « la », « de », « que », « ne »… before it elide.

    >>> elides("Ambassadeur"), elides("homme"), elides("héros"), elides("Oui-Da"), elides("8")
    (True, True, False, False, False)
    """
    w = word.strip("«» \"'").lower()
    if not w or not w[0].isalpha():
        return False
    head = re.split(r"[^\w]", w, maxsplit=1)[0]
    if head in NO_ELISION:
        return False
    if w[0] == "h":
        return head in MUTE_H
    return w[0] in _VOWELS and not (w[0] == "y" and len(w) > 1 and w[1] in _VOWELS)


@dataclass(frozen=True)
class Name:
    """A name as a sentence uses it: its words, its gender (``"m"`` or ``"f"``), its number,
    and whether it takes the definite article (« le Capitaine ») or not (« Anne », « LA
    DAME », whose article is part of the name)."""

    text: str
    gender: str = "m"
    plural: bool = False
    article: bool = True
    #: the grammatical person: 3 for a name (« Anne joue »), 2 for « Vous », a single person
    #: addressed by the game (« Vous jouez »)
    person: int = 3

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        """``{who}`` is the name; ``{who:joue}`` a verb (given in the third person singular),
        ``{who:sa}`` a possessive or pronoun, ``{who:=éliminé}`` an adjective or participle,
        each agreeing with this name as the subject (:func:`verb`, :func:`agree`).

        >>> you, anne = seat("Vous"), seat("Anne", "f")
        >>> "{0} {0:perd} {0:sa} carte et {0:est} {0:=éliminé}.".format(you)
        'Vous perdez votre carte et êtes éliminé.'
        >>> "{0} {0:perd} {0:sa} carte et {0:est} {0:=éliminé}.".format(anne)
        'Anne perd sa carte et est éliminée.'
        """
        if not spec:
            return self.text
        if spec.startswith("="):
            return agree(spec[1:], self)
        return verb(self, spec)

    @property
    def feminine(self) -> bool:
        return self.gender == "f"


#: the name of a single person's seat: the game speaks to them
YOU = "Vous"


def you_as(name: str, role: str) -> str:
    """A seat's name where the table shows who plays what: a single person's « Vous » with
    the house or the character it plays, any other name as it is.

    >>> you_as("Vous", "Maison Ferrandine"), you_as("Aymeric", "Maison Orbeval")
    ('Vous (Maison Ferrandine)', 'Aymeric')
    """
    return f"{YOU} ({role})" if name == YOU and role and role != YOU else name


def seat(text: str, gender: str | None = None) -> Name:
    """A seat's name as a subject: « Vous » (a single person, addressed) is the second person,
    any other name the third; no article.

    >>> seat("Vous").person, seat("Anne", "f").person, seat("Anne", "f").gender
    (2, 3, 'f')
    """
    text = str(text)
    return Name(text, gender or "m", article=False, person=2 if text == YOU else 3)


def group(names: list[Name | str]) -> Name:
    """Several seats as one subject: their names listed (« Anne, Bruno et vous »), plural,
    the second person when « Vous » is among them.

    >>> g = group([seat("Anne", "f"), seat("Vous")])
    >>> "{0} {0:a} joué {0:sa} carte.".format(g)
    'Anne et Vous avez joué votre carte.'
    >>> "{0} {0:a} joué {0:sa} carte.".format(group(["Anne", "Bruno"]))
    'Anne et Bruno ont joué leur carte.'
    >>> "{0} {0:a} joué.".format(group(["Anne"]))
    'Anne a joué.'
    """
    seats = [x if isinstance(x, Name) else seat(x) for x in names]
    if len(seats) == 1:
        return seats[0]
    person = min((s.person for s in seats), default=3)
    gender = "f" if seats and all(s.feminine for s in seats) else "m"
    return Name(listing([s.text for s in seats]), gender, len(seats) > 1, False, person)


#: pronouns and possessives by person: (3rd singular masculine, feminine), 3rd plural, 2nd
_WORDS: dict[str, tuple[str, str, str]] = {
    "son": ("son", "leur", "votre"),
    "sa": ("sa", "leur", "votre"),
    "ses": ("ses", "leurs", "vos"),
    "leur": ("leur", "leur", "votre"),
    "leurs": ("leurs", "leurs", "vos"),
    "il": ("il", "ils", "vous"),
    "elle": ("elle", "elles", "vous"),
    "se": ("se", "se", "vous"),
    "lui": ("lui", "leur", "vous"),
    "le": ("le", "les", "vous"),
    "la": ("la", "les", "vous"),
    "soi": ("soi", "eux", "vous"),
    "chacun": ("chacun", "chacun", "chacun"),
}
#: irregular verbs: third person singular -> (third plural, second plural)
_VERBS: dict[str, tuple[str, str]] = {
    "est": ("sont", "êtes"),
    "a": ("ont", "avez"),
    "fait": ("font", "faites"),
    "dit": ("disent", "dites"),
    "va": ("vont", "allez"),
    "prend": ("prennent", "prenez"),
    "reprend": ("reprennent", "reprenez"),
    "entreprend": ("entreprennent", "entreprenez"),
    "apprend": ("apprennent", "apprenez"),
    "comprend": ("comprennent", "comprenez"),
    "peut": ("peuvent", "pouvez"),
    "doit": ("doivent", "devez"),
    "veut": ("veulent", "voulez"),
    "sait": ("savent", "savez"),
    "voit": ("voient", "voyez"),
    "revoit": ("revoient", "revoyez"),
    "reçoit": ("reçoivent", "recevez"),
    "met": ("mettent", "mettez"),
    "remet": ("remettent", "remettez"),
    "permet": ("permettent", "permettez"),
    "vient": ("viennent", "venez"),
    "revient": ("reviennent", "revenez"),
    "devient": ("deviennent", "devenez"),
    "tient": ("tiennent", "tenez"),
    "obtient": ("obtiennent", "obtenez"),
    "retient": ("retiennent", "retenez"),
    "détient": ("détiennent", "détenez"),
    "maintient": ("maintiennent", "maintenez"),
    "part": ("partent", "partez"),
    "repart": ("repartent", "repartez"),
    "sort": ("sortent", "sortez"),
    "sert": ("servent", "servez"),
    "suit": ("suivent", "suivez"),
    "poursuit": ("poursuivent", "poursuivez"),
    "vit": ("vivent", "vivez"),
    "lit": ("lisent", "lisez"),
    "écrit": ("écrivent", "écrivez"),
    "conduit": ("conduisent", "conduisez"),
    "produit": ("produisent", "produisez"),
    "ira": ("iront", "irez"),
    "sera": ("seront", "serez"),
    "aura": ("auront", "aurez"),
    "fera": ("feront", "ferez"),
    "pourra": ("pourront", "pourrez"),
    "devra": ("devront", "devrez"),
    "paie": ("paient", "payez"),
    "essaie": ("essaient", "essayez"),
    "envoie": ("envoient", "envoyez"),
    "renvoie": ("renvoient", "renvoyez"),
    "emploie": ("emploient", "employez"),
    "jette": ("jettent", "jetez"),
    "rejette": ("rejettent", "rejetez"),
    "appelle": ("appellent", "appelez"),
    "rappelle": ("rappellent", "rappelez"),
    "lève": ("lèvent", "levez"),
    "relève": ("relèvent", "relevez"),
    "soulève": ("soulèvent", "soulevez"),
    "enlève": ("enlèvent", "enlevez"),
    "achète": ("achètent", "achetez"),
    "mène": ("mènent", "menez"),
    "amène": ("amènent", "amenez"),
    "emmène": ("emmènent", "emmenez"),
    "ramène": ("ramènent", "ramenez"),
    "pèse": ("pèsent", "pesez"),
    "sème": ("sèment", "semez"),
    "avait": ("avaient", "aviez"),
    "devrait": ("devraient", "devriez"),
    "pourrait": ("pourraient", "pourriez"),
    "serait": ("seraient", "seriez"),
    "aurait": ("auraient", "auriez"),
    "était": ("étaient", "étiez"),
}


def verb(subject: Name | str, form: str) -> str:
    """``form`` (a verb in the third person singular, or a possessive or pronoun of the third
    person singular masculine) agreeing with ``subject``.

    >>> you = seat("Vous")
    >>> [verb(you, v) for v in ("joue", "a", "est", "perd", "choisit", "révèle", "reçoit")]
    ['jouez', 'avez', 'êtes', 'perdez', 'choisissez', 'révélez', 'recevez']
    >>> many = Name("Anne et Bruno", plural=True, article=False)
    >>> [verb(many, v) for v in ("joue", "a", "perd", "choisit", "révèle", "ses", "se")]
    ['jouent', 'ont', 'perdent', 'choisissent', 'révèlent', 'leurs', 'se']
    >>> verb(seat("Anne", "f"), "il"), verb(you, "son"), verb(you, "se"), verb("Anne", "a")
    ('elle', 'votre', 'vous', 'a')
    >>> verb(you, "rejoint"), verb(many, "atteint"), verb(you, "bannit"), verb(you, "mène")
    ('rejoignez', 'atteignent', 'bannissez', 'menez')
    """
    if not isinstance(subject, Name):
        subject = seat(subject)
    if form in _WORDS:
        third, many, yours = _WORDS[form]
        if subject.person == 2:
            return yours
        if subject.plural:
            return "elles" if form in ("il", "elle") and subject.feminine else many
        if form in ("il", "elle"):
            return "elle" if subject.feminine else "il"
        return third
    if subject.person == 3 and not subject.plural:
        return form
    second = subject.person == 2
    if form in _VERBS:
        return _VERBS[form][1 if second else 0]
    if form.endswith("e"):
        stem = form[:-1]
        if second:
            # « révèle » -> « révélez », « cède » -> « cédez »
            m = re.search(r"è([^aeiouyéèê]+)$", stem)
            if m:
                stem = f"{stem[: m.start()]}é{m.group(1)}"
            return f"{stem}ez"
        return f"{form}nt"
    if form.endswith("it"):  # the second group: « choisit », « finit », « remplit »
        return f"{form[:-1]}ssez" if second else f"{form[:-1]}ssent"
    if form.endswith("int"):  # « rejoint », « atteint », « craint »
        return f"{form[:-3]}ign{'ez' if second else 'ent'}"
    if form.endswith(("d", "t")):  # « perd », « rend », « bat »
        stem = form + ("t" if form.endswith("bat") else "")
        return f"{stem}ez" if second else f"{stem}ent"
    return form


def message(table: dict[str, str], key: str, subject: Name | str | None) -> str | None:
    """The message ``key`` of ``table`` for a sentence about ``subject``: its ``key.vous``
    variant when the subject is « Vous » and the sentence reads better turned another way
    (« LES MARCHANDS de Anne » but « Vous jouez LES MARCHANDS », never « de vous »).

    >>> t = {"k": "LE GOLEM de {who}.", "k.vous": "Vous jouez LE GOLEM."}
    >>> message(t, "k", seat("Anne")), message(t, "k", seat("Vous")), message(t, "x", None)
    ('LE GOLEM de {who}.', 'Vous jouez LE GOLEM.', None)
    """
    if isinstance(subject, Name) and subject.person == 2 and f"{key}.vous" in table:
        return table[f"{key}.vous"]
    return table.get(key)


def name_of(text: str, gender: str | None = None, plural: bool | None = None) -> Name:
    """A name written with its own article (« LA DAME », « L'ORACLE », « les Chenapans »):
    the gender and number read from the article unless given.

    >>> name_of("LA DAME")
    Name(text='LA DAME', gender='f', plural=False, article=False, person=3)
    >>> name_of("LES CHENAPANS").plural, name_of("L'ORACLE", "m").gender
    (True, 'm')
    """
    head = text.split(" ", 1)[0].lower()
    if head == "la":
        g, p = "f", False
    elif head == "les":
        g, p = "m", True
    else:
        g, p = "m", False
    return Name(text, gender or g, p if plural is None else plural, article=False)


def _text(x: Name | str) -> str:
    return x.text if isinstance(x, Name) else x


def the(x: Name | str) -> str:
    """The name with its definite article: « le Capitaine », « la Duchesse », « l'Oracle »,
    « les Chenapans »; a name without article as it is."""
    if not isinstance(x, Name) or not x.article:
        return _text(x)
    if x.plural:
        return f"les {x.text}"
    if elides(x.text):
        return f"l'{x.text}"
    return f"{'la' if x.feminine else 'le'} {x.text}"


def _preposition(word: str, x: Name | str, masc: str, plur: str) -> str:
    if isinstance(x, Name) and x.article:
        if x.plural:
            return f"{plur} {x.text}"
        if not x.feminine and not elides(x.text):
            return f"{masc} {x.text}"
        return f"{word} {the(x)}"
    return tidy(f"{word} {_text(x)}")


def de(x: Name | str) -> str:
    """« de » before a name, contracted or elided: « du Capitaine », « de la Duchesse »,
    « de l'Oracle », « des Chenapans », « d'Anne », « de Bertrand », « de LA DAME »."""
    return _preposition("de", x, "du", "des")


def a(x: Name | str) -> str:
    """« à » before a name, contracted: « au Capitaine », « à la Duchesse », « aux
    Chenapans », « à Anne »."""
    return _preposition("à", x, "au", "aux")


def pick(
    x: Name | str | int, m: str, f: str | None = None, mp: str | None = None, fp: str | None = None
) -> str:
    """The word that agrees with ``x`` (a name, or a count for singular/plural).

    >>> pick(Name("Duchesse", "f"), "le", "la"), pick(2, "reste", mp="restent")
    ('la', 'restent')
    """
    if isinstance(x, int):
        return m if abs(x) < 2 else (mp or m + "s")
    feminine = isinstance(x, Name) and x.feminine
    many = isinstance(x, Name) and x.plural
    if many:
        return (fp or (f or m) + "s") if feminine else (mp or m + "s")
    return (f or m + "e") if feminine else m


_IRREGULAR = {"malin": "maligne", "bénin": "bénigne", "long": "longue", "fou": "folle"}
#: words a temperament may begin with that do not agree (« Au hasard »)
_INVARIABLE = frozenset(["au", "à", "sans", "en", "par"])


def temperament_of(label: str, gender: str | None) -> str:
    """A temperament (its label, masculine) agreeing with a seat's gender.

    >>> [temperament_of(t, "f") for t in ("Prudent", "Malin", "Au hasard", "Rusé")]
    ['Prudente', 'Maligne', 'Au hasard', 'Rusée']
    >>> temperament_of("loyal à la Couronne", "f"), temperament_of("Bluffeur", "m")
    ('loyale à la Couronne', 'Bluffeur')
    """
    if gender != "f" or not label:
        return label
    head, _, rest = label.partition(" ")
    if head.lower() in _INVARIABLE:
        return label
    word = agree(head.lower(), Name(head, "f"))
    if head[:1].isupper():
        word = word[:1].upper() + word[1:]
    return f"{word} {rest}" if rest else word


def _feminine(adj: str) -> str:
    if adj in _IRREGULAR:
        return _IRREGULAR[adj]
    for end, fem in (
        ("eux", "euse"),
        ("eur", "euse"),
        ("if", "ive"),
        ("er", "ère"),
        ("en", "enne"),
        ("on", "onne"),
        ("el", "elle"),
        ("et", "ette"),
    ):
        if adj.endswith(end):
            return adj[: -len(end)] + fem
    return adj if adj.endswith("e") else adj + "e"


def agree(adjective: str, x: Name | str) -> str:
    """An adjective or past participle (given masculine singular) agreeing with ``x``.

    >>> agree("inconscient", Name("Guerrière", "f")), agree("loyal", Name("Maisons", "f", True))
    ('inconsciente', 'loyales')
    >>> agree("prudent", Name("Anne", "f")), agree("bluffeur", Name("Anne", "f"))
    ('prudente', 'bluffeuse')
    """
    if not isinstance(x, Name):
        return adjective
    word = _feminine(adjective) if x.feminine else adjective
    if x.plural and not word.endswith(("s", "x")):
        word += "s"
    return word


def plural(word: str) -> str:
    """The regular plural of a noun: « carte » → « cartes », « manche » → « manches »,
    « jeu » → « jeux », « cheval » → « chevaux », « pas » → « pas »."""
    if word.endswith(("s", "x", "z")):
        return word
    if word.endswith(("au", "eu")):
        return word + "x"
    if word.endswith("al") and word not in ("bal", "festival", "récital"):
        return word[:-2] + "aux"
    return word + "s"


def count(n: int, singular: str, many: str | None = None) -> str:
    """A number with its noun agreeing in French (0 and 1 take the singular).

    >>> count(-1, "pièce"), count(-2, "pièce"), count(12, "point de Faveur", "points de Faveur")
    ('-1 pièce', '-2 pièces', '12 points de Faveur')
    """
    word = (
        singular
        if abs(n) < 2
        else (many or " ".join([plural(singular.split(" ", 1)[0]), *singular.split(" ", 1)[1:]]))
    )
    return f"{n} {word}"


def ordinal(n: int, gender: str = "m") -> str:
    """« 1er » (« 1re » feminine), then « 2e », « 3e »…"""
    if n == 1:
        return "1re" if gender == "f" else "1er"
    return f"{n}e"


_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def regnal(n: int, gender: str = "m") -> str:
    """A sovereign's number after their name: « Ier » (« Ire »), « II », « XIV »."""
    if n == 1:
        return "Ire" if gender == "f" else "Ier"
    out = ""
    for value, letters in _ROMAN:
        while n >= value:
            out += letters
            n -= value
    return out


def listing(items: list[str], last: str = "et") -> str:
    """« a », « a et b », « a, b et c »."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


_W = r"[^\W\d_]"
_CONTRACT = re.compile(rf"(?<![-\w'’])([dD]e|[àÀ]) (le|les|LE|LES) (?={_W})")
_ELIDE = re.compile(
    r"(?<![-\w'’])(de|De|le|Le|la|La|que|Que|ne|Ne|je|Je|me|se|te|jusque|lorsque|puisque) "
    r"(?=[aàâäeéèêëiîïoôöuùûüyœæhAÀÂÄEÉÈÊËIÎÏOÔÖUÙÛÜYŒÆH])"
)
#: what a sentence must hold for :func:`tidy` to have anything to do
_MAYBE = re.compile(
    r"\b(?:[dD]e|[àÀ]) (?:le|les|LE|LES) |"
    r"\b(?:[dDlLqQnNjJ]e|[lL]a|que|Que|me|se|te|jusque|lorsque|puisque|[sS]i) "
    r"[aàâäeéèêëiîïoôöuùûüyœæhAÀÂÄEÉÈÊËIÎÏOÔÖUÙÛÜYŒÆH]"
)
_INFINITIVE = re.compile(r"[a-zéèêîô]+(?:er|ir|re|oir)")
_SI = re.compile(r"\b([sS])i (ils?)\b")
#: words after « le »/« les » that are pronouns' verbs, not nouns: « de le faire »
_VERBS_AFTER_PRONOUN = frozenset(
    ["faire", "voir", "jouer", "garder", "prendre", "poser", "rendre", "laisser"]
)


#: « Vous » (a single person's seat) inside a sentence, after a word: « à vous », « de vous »,
#: « Anne et vous »
_YOU = re.compile(r"(?<=[\w,:] )Vous\b")


@lru_cache(maxsize=8192)
def tidy(text: str) -> str:
    """The contractions and elisions of a sentence: « de le » → « du », « à les » → « aux »,
    « de » / « le » / « la » / « que » / « ne » before a vowel or a mute h → « d' »…

    « de le » stays before a verb (« essayer de le faire »):

    >>> tidy("Il essaie de le faire ; le Oui-Da de Oui-Da, le héros de Hugo.")
    'Il essaie de le faire ; le Oui-Da de Oui-Da, le héros de Hugo.'
    >>> tidy("La carte de LA DAME, de L'ORACLE, de LE GOLEM ; le effet de « Aide » si il joue")
    "La carte de LA DAME, de L'ORACLE, du GOLEM ; l'effet de « Aide » s'il joue"
    """

    if " Vous" in text:
        text = _YOU.sub("vous", text)
    if not _MAYBE.search(text):
        return text

    def contract(m: re.Match[str]) -> str:
        prep, art = m.group(1), m.group(2)
        nxt = text[m.end() :].split(" ", 1)[0].strip(".,;:!?»")
        if nxt.lower() in _VERBS_AFTER_PRONOUN or _INFINITIVE.fullmatch(nxt):
            return m.group(0)
        many = art.lower() == "les"
        word = ("des" if many else "du") if prep.lower() == "de" else "aux" if many else "au"
        if prep[0].isupper():
            word = word[0].upper() + word[1:]
        return f"{word} "

    text = _CONTRACT.sub(contract, text)

    def elide(m: re.Match[str]) -> str:
        if not elides(text[m.end() :]):
            return m.group(0)
        return f"{m.group(1)[:-1]}'"

    text = _ELIDE.sub(elide, text)
    return _SI.sub(r"\1'\2", text)


#: keys of screen data that hold values for the engine, not text: left as they are
_NOT_TEXT = frozenset(["action", "actions", "value", "values", "name", "id", "key", "field"])


def tidy_texts(value: Any) -> Any:
    """:func:`tidy` on every text of a screen (a widget tree), in place; values the engine
    reads back (actions, form values) untouched.

    >>> tidy_texts({"text": "une carte de Amaury", "value": "de Amaury", "rows": ["à le roi"]})
    {'text': "une carte d'Amaury", 'value': 'de Amaury', 'rows': ['au roi']}
    """
    if isinstance(value, dict):
        for k, v in value.items():
            if k in _NOT_TEXT:
                continue
            if isinstance(v, str):
                value[k] = tidy(v)
            else:
                tidy_texts(v)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, str):
                value[i] = tidy(v)
            else:
                tidy_texts(v)
    return value
