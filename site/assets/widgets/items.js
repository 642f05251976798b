import { h, titled } from "./dom.js";

// A plain list.
export default function items(w) {
  const list = h(w.ordered ? "ol" : "ul", { class: "gb-items" });
  for (const entry of w.items || []) list.append(h("li", { text: entry }));
  return titled(w, "items", list);
}
