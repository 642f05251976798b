"""A whole Dilemme game in headless Chromium at a desktop and a phone size: what a player needs
to decide is on screen together with the choices (issue 14, "Done when").

"Without scrolling away from the choices" means here: once the page has scrolled the first
choice into view (the browser's own ``scrollIntoView({block: "nearest"})``, what a keyboard
user or a click on a choice does), the viewport — below the site's sticky header — holds at
the same time:

- the heading of the first choice group and its first control (a button, or a form's fields
  and its submit button), whole;
- after the first vote, the « Dernier tour » summary: its heading and every line of it, whole;
- the player's own Pouvoir, coins and secret objective (the « your house » facts), whole;

and at the end of a game, the result (why the game ended, the ranking with each house's points)
together with the next-game / new-game buttons.  At 390 px the page never scrolls sideways
(``scrollWidth <= innerWidth``), and no text of the houses table or of the tracks is clipped
(``scrollWidth <= clientWidth`` for every cell, label and value).

One human house (the quick game: the others are bots); the choices, negotiation form
included, are picked with a seeded generator.  Screenshots go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.e2e
GAME = "dilemme"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
MAX_DECISIONS = 120  # one game is ~40 decisions of the human house
