"""Every campaign played by the computer to its end in the browser ends on its standings
(issue 29): a custom game where every seat is played by the computer, then « Partie
suivante » until the campaign is over; the headline says the campaign is over, the
standings are in view under it, and the chronicle page opens on them."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

#: game, shared options of the custom form, the headline's start, the standings' title
CAMPAIGNS = [
    ("dilemme", {}, "La campagne est terminée", "Fin de la campagne : le classement des Maisons"),
    (
        "conseil",
        {"scenario": "janvier"},
        "La campagne est terminée",
        "Fin de la campagne : le bilan du Conseil",
    ),
    ("citadelle", {}, "Fin de l'aventure", "Le groupe :"),
]


@pytest.mark.parametrize(("game_id", "options", "headline", "standings"), CAMPAIGNS)
def test_every_campaign_played_by_bots_ends_on_its_standings(
    game_id, options, headline, standings, open_game, server, shot
) -> None:
    game = open_game(game_id)
    page = game.page
    page.locator("details.gb-custom summary").click()
    page.locator(".gb-seat").first.wait_for()
    for i in range(page.locator(".gb-seat").count()):
        page.locator(f"#gb-who-{i}").select_option("bot")
    for name, value in options.items():
        page.locator(f"#gb-opt-{name}").select_option(value)
    page.locator("#gb-seed").fill("4")
    game.click_and_render(page.get_by_role("button", name="Commencer"))
    games = 1
    nxt = page.locator('.gb-choices [data-choice="next-game"]')
    while nxt.count() and games < 60:
        game.click_and_render(nxt)
        games += 1
    assert not nxt.count(), "the campaign ended"
    over = page.locator(".gb-over")
    assert over.text_content().startswith(headline)
    block = page.locator(".gb-choices").text_content() or ""
    assert standings in block, "the standings are under the headline"
    over.scroll_into_view_if_needed()
    shot(page, f"{game_id}-campaign-end")
    chronicle = server.url + f"chronique/{game_id}/index.html"
    if game_id != "citadelle" or page.request.get(chronicle).ok:
        page.goto(chronicle, wait_until="load")
        box = page.locator("#gb-chronicle")
        box.locator(".gb-ranking").first.wait_for()
        assert standings in (box.text_content() or "")
