import { h, titled, T } from "./dom.js";

// The per-player table: one row per seat; the current seat, yours, and those out are marked.
// On a phone each row folds into a card (CSS), so nothing scrolls sideways.
export default function players(w) {
  const table = h("table", { class: "gb-players" });
  const cols = w.columns || [];
  table.append(h("thead", {}, h("tr", {}, ...cols.map((c) => h("th", { scope: "col", text: c })))));
  const body = h("tbody");
  for (const r of w.rows || []) {
    const cls = [r.current ? "gb-current" : "", r.you ? "gb-you" : "", r.out ? "gb-out" : ""].join(" ").trim();
    const tr = h("tr", { class: cls || null, "aria-current": r.current ? "true" : null,
      "data-private": Number.isInteger(r.private) ? String(r.private) : null });
    r.cells.forEach((cell, i) => {
      let text = String(cell);
      if (i === 0) text = (r.current ? T.current : "") + text + (r.you ? T.you : "") + (r.out ? T.out : "");
      tr.append(h(i === 0 ? "th" : "td", { scope: i === 0 ? "row" : null, "data-label": cols[i] || null, text }));
    });
    body.append(tr);
    if (r.note) body.append(h("tr", { class: "gb-row-note" }, h("td", { colspan: String(cols.length), text: r.note })));
  }
  table.append(body);
  return titled(w, "players", h("div", { class: "gb-table-wrap", tabindex: "0", role: "region", "aria-label": w.title || T.table }, table));
}
