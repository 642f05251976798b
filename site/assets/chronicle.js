// The chronicle page of any game: draws the campaign summary the play page saved
// (localStorage) with the same widgets as the play page. Text only ever through textContent.
import { h, T } from "./widgets/dom.js";
import { draw } from "./widgets/index.js";

const box = document.getElementById("gb-chronicle");
if (box) {
  const store = `gamebook:${box.dataset.game}`;
  const slot = localStorage.getItem(`${store}:slot`) || "A";
  let data = null;
  try {
    data = JSON.parse(localStorage.getItem(`${store}:${slot}:chronicle`) || "null");
  } catch (e) {
    data = null;
  }
  const widgets = data && Array.isArray(data.widgets) ? data.widgets : [];
  if (widgets.length) {
    box.replaceChildren(h("p", { text: T.chronSlot(slot) }), ...widgets.map(draw).filter(Boolean));
  }
}
