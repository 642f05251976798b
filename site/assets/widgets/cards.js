import { h, titled, T } from "./dom.js";

// Cards as cards: face up with title, text and badges; face down as a back.
export default function cards(w) {
  const row = h("ul", { class: "gb-cards" });
  for (const c of w.cards || []) {
    const state = c.state || "up";
    const li = h("li", { class: `gb-card gb-card-${state}${c.tone ? ` gb-tone-${c.tone}` : ""}` });
    if (state === "down") {
      li.append(h("span", { class: "gb-card-back", text: c.title || T.faceDown }));
      li.setAttribute("aria-label", c.title || T.faceDown);
    } else {
      li.append(h("strong", { class: "gb-card-title", text: c.title || "" }));
      if (c.value !== undefined) li.append(h("span", { class: "gb-card-value", text: String(c.value), "aria-label": T.value(c.value) }));
      if (c.subtitle) li.append(h("span", { class: "gb-card-sub", text: c.subtitle }));
      if (c.text) li.append(h("p", { class: "gb-card-text", text: c.text }));
      for (const b of c.badges || []) li.append(h("span", { class: "gb-badge", text: b }));
    }
    row.append(li);
  }
  const body = [row];
  if (!(w.cards || []).length && w.empty) body.push(h("p", { class: "gb-empty", text: w.empty }));
  if (w.note) body.push(h("p", { class: "gb-note", text: w.note }));
  return titled(w, "cards", ...body);
}
