"""The French message layer (engine/core/french.py): articles, contractions, elisions,
agreement, counts and ordinals, on examples a French reader would check."""

from __future__ import annotations

import pytest

from engine.core.french import Name, a, agree, count, de, name_of, ordinal, regnal, the, tidy

CAPITAINE = Name("Capitaine")
DUCHESSE = Name("Duchesse", "f")
ORACLE = Name("Oracle")
HERITIERE = Name("Héritière", "f")
HEROS = Name("Héros")
CHENAPANS = Name("Chenapans", plural=True)


@pytest.mark.parametrize(
    ("name", "with_the", "with_de", "with_a"),
    [
        (CAPITAINE, "le Capitaine", "du Capitaine", "au Capitaine"),
        (DUCHESSE, "la Duchesse", "de la Duchesse", "à la Duchesse"),
        (ORACLE, "l'Oracle", "de l'Oracle", "à l'Oracle"),
        (HERITIERE, "l'Héritière", "de l'Héritière", "à l'Héritière"),
        (HEROS, "le Héros", "du Héros", "au Héros"),
        (CHENAPANS, "les Chenapans", "des Chenapans", "aux Chenapans"),
        ("Anne", "Anne", "d'Anne", "à Anne"),
        ("Bertrand", "Bertrand", "de Bertrand", "à Bertrand"),
        (name_of("LA DAME"), "LA DAME", "de LA DAME", "à LA DAME"),
    ],
)
def test_articles_and_prepositions(name, with_the, with_de, with_a) -> None:
    assert (the(name), de(name), a(name)) == (with_the, with_de, with_a)


def test_counts_take_the_singular_at_zero_and_one() -> None:
    assert [count(n, "an") for n in (0, 1, 2, 11)] == ["0 an", "1 an", "2 ans", "11 ans"]
    assert count(1, "joueur") == "1 joueur" and count(3, "joueur") == "3 joueurs"
    assert count(2, "carte mélangée", "cartes mélangées") == "2 cartes mélangées"
    assert count(2, "point de Faveur") == "2 points de Faveur"


def test_agreement_follows_the_name() -> None:
    puissante = name_of("LA PUISSANTE")
    assert f"{puissante} est {agree('annulé', puissante)}" == "LA PUISSANTE est annulée"
    assert agree("annulé", name_of("LE GOLEM")) == "annulé"
    assert agree("inconscient", Name("Guerrière", "f")) == "inconsciente"
    assert agree("annulé", name_of("LES CHENAPANS")) == "annulés"


def test_ordinals_never_paste_a_regnal_number_to_a_number() -> None:
    assert [ordinal(n) for n in (1, 2, 10)] == ["1er", "2e", "10e"]
    assert ordinal(1, "f") == "1re"
    assert [regnal(n) for n in (1, 2, 4, 9, 14)] == ["Ier", "II", "IV", "IX", "XIV"]
    assert regnal(1, "f") == "Ire"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("ne doute de le Capitaine", "ne doute du Capitaine"),
        ("De les deux camps", "Des deux camps"),
        ("passe à le suivant", "passe au suivant"),
        ("à les autres", "aux autres"),
        ("le effet de Anne", "l'effet d'Anne"),
        ("la action que il joue ne est pas", "l'action qu'il joue n'est pas"),
        ("si il gagne", "s'il gagne"),
        ("de le faire", "de le faire"),
        ("le Oui-Da de 11 joueurs", "le Oui-Da de 11 joueurs"),
        ("la hache de le héros", "la hache du héros"),
        ("le homme", "l'homme"),
        ("Éteignez-le avec nous ; coupez-la en deux", "Éteignez-le avec nous ; coupez-la en deux"),
        ("laisse-le entrer, prends-les à Anne", "laisse-le entrer, prends-les à Anne"),
    ],
)
def test_tidy_contracts_and_elides(before: str, after: str) -> None:
    assert tidy(before) == after
