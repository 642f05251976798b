import { h, paragraphs } from "./dom.js";

// Story text, a note or a warning: a titled block of paragraphs.
export default function text(w) {
  const box = h("section", { class: `gb-w gb-w-text gb-tone-${w.tone || "story"}` });
  if (w.title) box.append(h("h3", { text: w.title }));
  box.append(...paragraphs(w.text));
  return box;
}
