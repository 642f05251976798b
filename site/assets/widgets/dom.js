// A tiny DOM helper shared by the widget modules. Text only ever goes through textContent:
// nothing that comes from content or from a save becomes HTML.
export const T = window.GB_UI;

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export function titled(w, cls, ...body) {
  const box = h("section", { class: `gb-w gb-w-${cls}`, "aria-label": w.title || null });
  if (w.title) box.append(h("h3", { text: w.title }));
  box.append(...body.filter(Boolean));
  if (w.legend && w.legend.length) {
    box.append(h("p", { class: "gb-legend" }, h("strong", { text: T.label(T.legend) }),
      document.createTextNode(w.legend.join(" · "))));
  }
  return box;
}

export function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).filter((p) => p.trim())
    .map((p) => h("p", { text: p.trim() }));
}
