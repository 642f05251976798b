import { h, titled, T } from "./dom.js";

// The per-player table: one row per seat; the current seat, yours, and those out are marked.
// On a phone each row folds into a card (CSS), so nothing scrolls sideways. A large table (five
// seats and more: a tournament, five houses) shows a compact strip of the seats, the whole
// table one tap away (opened, it stays open from one screen to the next).
const FOLD_AT = 5;
const opened = new Set();

function mark(r, text) {
  return (r.current ? T.current : "") + text + (r.you ? T.you : "") + (r.out ? T.out : "");
}

export default function players(w) {
  const table = h("table", { class: "gb-players" });
  const cols = w.columns || [];
  const rows = w.rows || [];
  table.append(h("thead", {}, h("tr", {}, ...cols.map((c) => h("th", { scope: "col", text: c })))));
  const body = h("tbody");
  for (const r of rows) {
    const cls = [r.current ? "gb-current" : "", r.you ? "gb-you" : "", r.out ? "gb-out" : ""].join(" ").trim();
    const tr = h("tr", { class: cls || null, "aria-current": r.current ? "true" : null,
      "data-private": Number.isInteger(r.private) ? String(r.private) : null });
    r.cells.forEach((cell, i) => {
      const text = i === 0 ? mark(r, String(cell)) : String(cell);
      tr.append(h(i === 0 ? "th" : "td", { scope: i === 0 ? "row" : null, "data-label": cols[i] || null, text }));
    });
    body.append(tr);
    if (r.note) body.append(h("tr", { class: "gb-row-note" }, h("td", { colspan: String(cols.length), text: r.note })));
  }
  table.append(body);
  const box = h("div", { class: "gb-table-wrap", tabindex: "0", role: "region", "aria-label": w.title || T.table }, table);
  if (rows.length < FOLD_AT) return titled(w, "players", box);
  const strip = h("ul", { class: "gb-strip", "aria-label": T.seatsStrip(rows.length) },
    ...rows.map((r) => h("li", {
      class: ["gb-chip", r.current ? "gb-current" : "", r.you ? "gb-you" : "", r.out ? "gb-out" : ""].join(" ").trim(),
      "aria-current": r.current ? "true" : null, text: mark(r, String(r.cells[0] ?? "")),
    })));
  const key = w.title || "";
  const more = h("details", { class: "gb-strip-more", open: opened.has(key) },
    h("summary", { text: T.seatsTable(rows.length) }), box);
  more.addEventListener("toggle", () => { if (more.open) opened.add(key); else opened.delete(key); });
  return titled(w, "players", strip, more);
}
