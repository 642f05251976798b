// The chronicle page: reads the campaign summary the play page saved (localStorage) and shows
// it. Pure DOM with textContent: saved texts never become HTML.
(function () {
  const box = document.getElementById("gb-chronicle");
  if (!box) return;
  const game = box.dataset.game;
  const store = `gamebook:${game}`;
  const slot = localStorage.getItem(`${store}:slot`) || "A";
  let data = null;
  try { data = JSON.parse(localStorage.getItem(`${store}:${slot}:chronicle`) || "null"); } catch (e) { data = null; }
  if (!data || !Object.keys(data).length) return;
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
  box.replaceChildren(el("p", `Sauvegarde : emplacement ${slot}.`));
  if (game === "dilemme") {
    if (data.finished) box.append(el("p", `Campagne terminée. Grande gagnante : ${data.winner || "?"}.`));
    box.append(el("h2", "Les Maisons"));
    const houses = el("table");
    const head = el("tr");
    ["Maison", "Prestige", "Convoitise", "Hauts faits débloqués"].forEach((h) => head.append(el("th", h)));
    houses.append(head);
    for (const h of data.houses || []) {
      const tr = el("tr");
      [h.name, h.prestige, h.craving, (h.achievements || []).length].forEach((v) => tr.append(el("td", String(v))));
      houses.append(tr);
    }
    box.append(houses);
    box.append(el("h2", "Arcs narratifs"));
    for (const [arc, cards] of Object.entries(data.arcs || {})) {
      box.append(el("h3", arc));
      const ol = el("ol");
      for (const c of cards) ol.append(el("li", c.signer ? `${c.title} — signée par ${c.signer}` : c.title));
      box.append(ol);
    }
    box.append(el("h2", "Parties"));
    for (const g of data.games || []) {
      box.append(el("h3", `Partie ${g.game} — ${g.ending}`));
      const ol = el("ol");
      for (const t of g.timeline) ol.append(el("li", `${t.title} : ${t.side}`));
      box.append(ol);
      const ranks = el("ol");
      for (const r of [...g.rows].sort((a, b) => a.rank - b.rank)) {
        ranks.append(el("li", `${r.name} — ${r.total} points (Prestige +${r.prestige}, Convoitise +${r.craving})`));
      }
      box.append(ranks);
    }
    if ((data.secret_stickers || []).length) box.append(el("p", `Autocollants secrets collés : ${data.secret_stickers.join(", ")}`));
  } else {
    box.append(el("h2", "Scénarios joués"));
    const ol = el("ol");
    for (const s of data.scenarios || []) {
      const li = el("li");
      li.append(el("strong", s.title), el("p", s.epilogue));
      ol.append(li);
    }
    box.append(ol);
    const cit = data.citadel || {};
    box.append(el("h2", "Feuillet Citadelle"));
    box.append(el("p", Object.entries(cit.scores || {}).map(([k, v]) => `${k} ${v}`).join(" · ")));
    box.append(el("p", `Espoir : ${cit.hope ?? 0} · tremblement : ${cit.tremor ?? 0}`));
    const b = Object.entries(cit.buildings || {});
    if (b.length) box.append(el("p", "Bâtiments : " + b.map(([k, v]) => `${k} (${v})`).join(", ")));
    const q = Object.entries(cit.side_quests || {});
    if (q.length) box.append(el("p", "Quêtes secondaires : " + q.map(([k, v]) => `${k} — ${v}`).join(", ")));
  }
})();
