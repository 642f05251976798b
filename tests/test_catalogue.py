"""Every finding code is documented: its messages (from the message table), its fix, a section
in the generated catalogue and in the writers' guide; no message says « (e) » or « (s) »."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.messages import LANG, MESSAGES, count, template
from pipeline.publish import reference
from pipeline.story.catalogue import CODE_MESSAGES, CODES, FIXES

GUIDE = Path(__file__).resolve().parent.parent / "site" / "guide-auteurs.md"


def test_every_code_has_messages_and_a_fix() -> None:
    assert set(CODE_MESSAGES) == set(CODES) == set(FIXES)
    for code, keys in CODE_MESSAGES.items():
        assert keys, code
        for key in keys:
            assert key in MESSAGES[LANG], (code, key)


def test_the_catalogue_shows_every_code_its_messages_and_its_fix() -> None:
    page = reference.render()
    for code in CODES:
        assert f"### `{code}` — " in page
        for key in CODE_MESSAGES[code]:
            assert template(key) in page
    assert "‹chemin du champ›" in page


def test_the_guide_has_a_section_per_code_and_links_the_catalogue() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for code in CODES:
        assert re.search(rf"^### `{code}` — ", text, re.M), code
    assert "reference-format.md#codes-des-constats" in text


def test_no_placeholder_agreement_in_messages() -> None:
    for key, message in MESSAGES[LANG].items():
        assert not re.search(r"\((e|s|es|x|ne)\)", message), key


def test_counts_agree() -> None:
    assert count("cli.errors", 0) == "0 erreur"
    assert count("cli.errors", 1) == "1 erreur"
    assert count("cli.errors", 2) == "2 erreurs"
    assert count("cli.unreachable", 3) == "3 inatteignables"


def test_the_guide_holds_each_code_section_as_its_record_says() -> None:
    from pipeline.publish import guide

    text = GUIDE.read_text(encoding="utf-8")
    assert guide.marked(text) == list(CODES)
    assert guide.render(text) == text, "run: nox -s docs"
    changed = text.replace("### `GRAPH004` — boucle", "### `GRAPH004` — boucle changée", 1)
    assert guide.render(changed) == text


def test_each_game_guide_lives_in_its_package_and_the_guide_holds_it() -> None:
    from engine.core import registry
    from pipeline import schema as S
    from pipeline.publish import guide

    text = GUIDE.read_text(encoding="utf-8")
    with_guide = [g for g in registry.ids() if guide.game_guide(g).is_file()]
    shipped = {p.parent.name for p in (GUIDE.parent.parent / "content").glob("*/campaign.yaml")}
    assert shipped & set(S.FAMILIES) <= set(with_guide)
    assert sorted(guide.marked_games(text)) == sorted(with_guide)
    game = with_guide[0]
    own = guide.game_text(game).rstrip()  # its field tables generated from its schema
    assert own in text
    stale = text.replace(own, own + "\n\nUn ajout qui n'est pas dans le paquet du jeu.", 1)
    assert guide.render(stale) == text
