// The chronicle page: reads the campaign summary the play page saved (localStorage) and shows
// it. Pure DOM with textContent: saved texts never become HTML.
(function () {
  const T = window.GB_UI;  // UI strings: ui-fr.js
  const box = document.getElementById("gb-chronicle");
  if (!box) return;
  const game = box.dataset.game;
  const store = `gamebook:${game}`;
  const slot = localStorage.getItem(`${store}:slot`) || "A";
  let data = null;
  try { data = JSON.parse(localStorage.getItem(`${store}:${slot}:chronicle`) || "null"); } catch (e) { data = null; }
  if (!data || !Object.keys(data).length) return;
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
  box.replaceChildren(el("p", T.chronSlot(slot)));
  if (game === "dilemme") {
    if (data.finished) box.append(el("p", T.campaignFinished(data.winner || "?")));
    box.append(el("h2", T.chronHouses));
    const houses = el("table");
    const head = el("tr");
    T.chronHouseColumns.forEach((h) => head.append(el("th", h)));
    houses.append(head);
    for (const h of data.houses || []) {
      const tr = el("tr");
      [h.name, h.prestige, h.craving, (h.achievements || []).length].forEach((v) => tr.append(el("td", String(v))));
      houses.append(tr);
    }
    box.append(houses);
    box.append(el("h2", T.arcs));
    for (const [arc, cards] of Object.entries(data.arcs || {})) {
      box.append(el("h3", arc));
      const ol = el("ol");
      for (const c of cards) ol.append(el("li", c.signer ? T.signedBy(c.title, c.signer) : c.title));
      box.append(ol);
    }
    box.append(el("h2", T.games));
    for (const g of data.games || []) {
      box.append(el("h3", T.gameHeading(g.game, g.ending)));
      const ol = el("ol");
      for (const t of g.timeline) ol.append(el("li", T.timelineEntry(t.title, t.side)));
      box.append(ol);
      const ranks = el("ol");
      for (const r of [...g.rows].sort((a, b) => a.rank - b.rank)) {
        ranks.append(el("li", T.ranking(r.name, r.total, r.prestige, r.craving)));
      }
      box.append(ranks);
    }
    if ((data.secret_stickers || []).length) box.append(el("p", T.secretStickers(data.secret_stickers.join(", "))));
  } else {
    box.append(el("h2", T.scenariosPlayed));
    const ol = el("ol");
    for (const s of data.scenarios || []) {
      const li = el("li");
      li.append(el("strong", s.title), el("p", s.epilogue));
      ol.append(li);
    }
    box.append(ol);
    const cit = data.citadel || {};
    box.append(el("h2", T.citadelSheet));
    box.append(el("p", Object.entries(cit.scores || {}).map(([k, v]) => `${k} ${v}`).join(" · ")));
    box.append(el("p", T.chronHopeTremor(cit.hope ?? 0, cit.tremor ?? 0)));
    const b = Object.entries(cit.buildings || {});
    if (b.length) box.append(el("p", T.buildings(b.map(([k, v]) => `${k} (${v})`).join(", "))));
    const q = Object.entries(cit.side_quests || {});
    if (q.length) box.append(el("p", T.sideQuests(q.map(([k, v]) => `${k} — ${v}`).join(", "))));
  }
})();
