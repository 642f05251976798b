// The widget vocabulary of engine/core/widgets.py, one module per kind. A new game needs no
// JavaScript: its screens are built from these.
import cards from "./cards.js";
import dice from "./dice.js";
import facts from "./facts.js";
import grid from "./grid.js";
import items from "./items.js";
import players from "./players.js";
import ranking from "./ranking.js";
import text from "./text.js";
import tracks from "./tracks.js";

const KINDS = { text, cards, tracks, dice, players, grid, facts, items, ranking };

// A widget that shows one seat's private information (engine/core/widgets.py: `private`)
// carries data-private="<seat>" on the page (a contract: tests outside the project read it).
export function draw(w) {
  const kind = KINDS[w.type];
  const el = kind ? kind(w) : null;
  if (el && Number.isInteger(w.private)) el.setAttribute("data-private", String(w.private));
  return el;
}
