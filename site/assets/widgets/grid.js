import { h, titled, T } from "./dom.js";

// A map of cells placed at (x, y): titles, lines (events), figures, fog. A plain list of
// regions for assistive technology (no table semantics the cells do not have).
export default function grid(w) {
  const cells = w.cells || [];
  const box = h("ul", { class: "gb-grid" });
  if (cells.length) {
    const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    box.style.gridTemplateColumns = `repeat(${Math.max(...xs) - minX + 1}, minmax(6.5rem, 1fr))`;
    for (const c of cells) {
      const li = h("li", { class: `gb-cell${c.fog ? " gb-fog" : ""}${c.tone ? ` gb-tone-${c.tone}` : ""}` },
        h("strong", { text: c.title }));
      for (const line of c.lines || []) li.append(h("span", { class: "gb-cell-line", text: line }));
      if ((c.figures || []).length) li.append(h("span", { class: "gb-here", text: "☗ " + c.figures.join(", ") }));
      li.style.gridColumn = c.x - minX + 1;
      li.style.gridRow = c.y - minY + 1;
      box.append(li);
    }
  }
  return titled(w, "grid", h("div", { class: "gb-grid-wrap", tabindex: "0", role: "region", "aria-label": w.title || T.map }, box));
}
