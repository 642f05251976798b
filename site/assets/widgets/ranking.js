import { h, titled, T } from "./dom.js";

// The end of a game: why it ended, the ranking with where each point comes from, and what
// carries on to the next game of a campaign.
export default function ranking(w) {
  const body = [];
  if (w.why) body.push(h("p", { class: "gb-why", text: w.why }));
  const ol = h("ol", { class: "gb-ranking" });
  for (const r of w.rows || []) {
    const li = h("li", {}, h("strong", { text: `${T.rank(r.rank)} — ${r.name}` }),
      document.createTextNode(` : ${T.points(r.score)}`));
    if ((r.details || []).length) li.append(h("ul", {}, ...r.details.map((d) => h("li", { text: d }))));
    ol.append(li);
  }
  body.push(ol);
  if ((w.carry || []).length) {
    body.push(h("h4", { text: T.carry }), h("ul", {}, ...w.carry.map((c) => h("li", { text: c }))));
  }
  return titled(w, "ranking", ...body);
}
