import { h, titled, T } from "./dom.js";

// Dice drawn as dice: the face on a die shape (d6 square, d12 pentagon), and the value it
// counts for when a card changed it without turning the die.
export default function dice(w) {
  const row = h("ul", { class: "gb-dice" });
  for (const d of w.dice || []) {
    const sides = d.sides || 6;
    const label = d.shown !== undefined ? T.dieShown(d.value, d.shown) : T.die(sides, d.value);
    const li = h("li", { class: "gb-die-box" },
      h("span", { class: `gb-die gb-d${sides}`, role: "img", "aria-label": label, text: String(d.value) }));
    if (d.shown !== undefined) li.append(h("span", { class: "gb-die-shown", text: `→ ${d.shown}` }));
    if (d.label) li.append(h("span", { class: "gb-die-label", text: d.label }));
    if (d.note) li.append(h("span", { class: "gb-note", text: d.note }));
    row.append(li);
  }
  return titled(w, "dice", row);
}
