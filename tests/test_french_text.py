"""Everything a player reads is French a French reader accepts, for every registered game.

Seeded games of every game (every setting and table size in turn: variants, scenarios,
months), every other one with a single person at the table (« Vous »: no third-person verb
after it, « vous » inside a sentence), the setup form's messages for wrong setups and the
messages of refused imports, read through ``pipeline.story.french_text``: constructions that are
always wrong in French, English words, raw ids and (where Hunspell is installed, always on
CI) unknown words.  The target is none.  ``bench/french_text.py`` reads hundreds of games
per game the same way."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from engine.core import registry
from pipeline.story import french_text as F

ROOT = Path(__file__).resolve().parent.parent
#: games per game: one per table of the cheaper games, fewer for the long campaigns
GAMES = {"citadelle": 2, "dilemme": 4, "roi": 6}
DEFAULT_GAMES = 10


@pytest.fixture(scope="module")
def every_game() -> list:
    return F.games()


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    return F.allowed_words(ROOT)


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_text_a_player_reads_is_french(game_id, every_game, allowed) -> None:
    game = next(g for g in every_game if g.id == game_id)
    sentences = F.collect(game, GAMES.get(game_id, DEFAULT_GAMES), every_game)
    assert len(sentences) > 200  # the games were played and read
    assert any(s.startswith("Vous ") for s in sentences)  # and a single person was « Vous »
    if shutil.which("hunspell") is None and os.environ.get("CI"):
        pytest.fail("Hunspell is required on CI")
    found = F.findings(sentences, allowed)
    assert not found, "\n".join(str(f)[:300] for f in found[:20])


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Personne ne doute de le Capitaine.", "« de le » / « de les »"),
        ("La carte passe à les Chenapans.", "« à le » / « à les »"),
        ("LA PUISSANTE est annulé : aucun effet.", "nom féminin, participe masculin"),
        ("Maëlis n'a que 1 PV : cette Récupération le laisse inconsciente.", "« le laisse »"),
        ("Au-delà de 0 cartes, une Récupération.", "0 ou 1 avec un nom au pluriel"),
        ("Règne de 1 ans.", "0 ou 1 avec un nom au pluriel"),
        ("tour 12, 1 joueurs en lice", "0 ou 1 avec un nom au pluriel"),
        ("Il reste 3 carte.", "un nombre au-dessus de 1"),
        ("An 1 — Membre 1 Ier, Membre 2 Ier", "chiffre romain collé à un nombre"),
        ("Frère Galdric entreprend l'action se déplacer.", "« l'action » + infinitif"),
        ("LA DAME (Anne) : le dé passe de 1 à 1.", "rien ne change"),
        ("Maison Valmorin (bot avisé)", "mot anglais"),
        ("Deck : 3 · défausse : 2", "mot anglais"),
        ("Arc : frontieres_du_nord", "identifiant brut"),
        ("reprenez-la : « gamebook play JEU --bundle ANCIEN »", "commande"),
        ("une carte de Amaury", "élision manquante"),
        ("que il joue", "élision manquante"),
        ("le effet", "élision manquante"),
        ("Éteignez-l'avec nous.", "pronom élidé après un trait d'union"),
        ("Vous joue LE SORCIER.", "« Vous » avec un verbe à la 3e personne"),
        ("Tour 3 — Vous perd un personnage", "« Vous » avec un verbe à la 3e personne"),
        ("Vous a 3 PV.", "« Vous » avec un verbe à la 3e personne"),
        ("Vous est champion.", "« Vous » avec un verbe à la 3e personne"),
        ("Boum ! Lancelot et vous ont joué LE GOLEM.", "« et vous » avec un verbe"),
        ("Personne ne doute de Vous.", "« Vous » en majuscule dans la phrase"),
        ("Ce n'est pas à Vous de jouer.", "« Vous » en majuscule dans la phrase"),
        ("Jules doute de Vous, puis joue.", "« Vous » en majuscule dans la phrase"),
        ("LE GOLEM : le 2 de vous vaut 12.", "« de vous » après un nom"),
        ("LA DAME : les cartes de vous restent sans effet.", "« de vous » après un nom"),
        ("Le sort désigne vous pour commencer.", "« vous » complément après le verbe"),
        ("Vous se rendez sur la place.", "« Vous se »"),
        ("Vous glissez une carte sous son dé.", "« Vous » avec un possessif"),
        ("Le Conseil : Vous Ier, Agnès Ire", "chiffre romain collé à un nombre"),
    ],
)
def test_the_reader_catches_what_the_issue_found(sentence: str, rule: str) -> None:
    rules = {f.rule for f in F.grammar({sentence})}
    assert any(r.startswith(rule) for r in rules), (sentence, rules)


@pytest.mark.skipif(not F.hunspell_available(), reason="Hunspell French is not installed")
def test_hunspell_catches_a_raw_id_and_english() -> None:
    found = F.spelling({"Maison : « ferrandine » est choisi deux fois", "revealed"}, set())
    assert {f.match for f in found} == {"ferrandine", "revealed"}


@pytest.mark.parametrize(
    "sentence",
    [
        "Personne ne doute du Capitaine annoncé par Béatrice.",
        "Il essaie de le faire, et de les loger.",
        "Éteignez-le avec nous ; coupez-la en deux.",
        "Le Deck d'Action est vide : Récupération forcée.",
        "LA PUISSANTE est annulée : Agnès et Bertrand l'ont jouée.",
        "le Oui-Da de 11 joueurs, 1 an, 0 carte, 2 ans",
        "Aliénor Ire, Bertrand II : règne de 40 ans.",
        "Vous jouez LE SORCIER, face cachée ; Jules doute de vous.",
        "Vous perdez un personnage et avez 3 PV : vous êtes dans la partie.",
        "Boum ! Lancelot et vous avez joué LE GOLEM. Le sort vous désigne.",
        "Vous vous rendez sur la place, avec votre main et vos cartes.",
        "Quelque chose en vous s'est apaisé. Vous et Anne jouez ensemble.",
        "Tour 3 — Vous : quelqu'un s'y oppose-t-il ? Anne annonce l'Assassin contre vous.",
        "Pendant que l'un de vous le fait parler, la plupart de vous attendent.",
    ],
)
def test_the_reader_accepts_good_french(sentence: str) -> None:
    assert F.grammar({sentence}) == []
