import { h, titled } from "./dom.js";

// Label / value pairs (your Pouvoir, your coins, your secret objective and what it scores).
export default function facts(w) {
  const dl = h("dl", { class: "gb-facts" });
  for (const f of w.items || []) {
    dl.append(h("dt", { text: f.label }), h("dd", {}, h("strong", { text: String(f.value) }),
      f.note ? h("span", { class: "gb-note", text: ` — ${f.note}` }) : null));
  }
  return titled(w, "facts", dl);
}
