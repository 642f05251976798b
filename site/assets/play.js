// The play page: loads the self-hosted Pyodide, the engine archive and the campaign bundle,
// then draws what the Python session returns. No rule lives here: every choice is a button
// whose action comes from Python's legal actions. Content text only ever reaches the page
// through textContent, never as HTML.

const app = document.getElementById("gb-app");
const GAME = app.dataset.game;
const ROOT = new URL(app.dataset.root, location.href).href;
const STORE = `gamebook:${GAME}`;
const SLOTS = ["A", "B", "C"];
const T = window.GB_UI;  // UI strings: site/assets/ui-fr.js

const $ = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c) el.append(c);
  return el;
};

const root = document.getElementById("gb-root");
const story = document.getElementById("gb-story");
const loader = document.getElementById("gb-loader");
const progress = document.getElementById("gb-progress");
const progressText = document.getElementById("gb-progress-text");

let session = null;
let slot = localStorage.getItem(`${STORE}:slot`) || "A";
let screen = null;
let handedTo = null;

function step(n, text) {
  progress.value = n;
  progressText.textContent = text;
}

function fail(message) {
  loader.hidden = false;
  progress.hidden = true;
  progressText.textContent = message;
  loader.classList.add("gb-error");
}

// ------------------------------------------------------------------ loading

async function boot() {
  if (location.protocol === "file:") {
    document.getElementById("gb-file-notice").hidden = false;
    loader.hidden = true;
    return;
  }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(new URL("sw.js", ROOT), { scope: ROOT }).catch(() => {});
  }
  try {
    step(1, T.loadingPython);
    const manifest = await (await fetch(new URL("manifest.json", ROOT))).json();
    const bundleUrl = new URL(manifest.bundles[GAME], ROOT);
    const engineUrl = new URL(manifest.engine, ROOT);
    const bundlePromise = fetch(bundleUrl).then((r) => r.text());
    const enginePromise = fetch(engineUrl).then((r) => r.arrayBuffer());
    const { loadPyodide } = await import(new URL(manifest.pyodide + "pyodide.mjs", ROOT).href);
    const pyodide = await loadPyodide({
      indexURL: new URL(manifest.pyodide, ROOT).href,
      packages: [],
      stdout: () => {},
      stderr: (t) => console.warn(t),
    });
    step(2, T.loadingEngine);
    pyodide.unpackArchive(new Uint8Array(await enginePromise), "zip", { extractDir: "/home/pyodide" });
    pyodide.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
    const web = pyodide.pyimport("engine.web");
    step(3, T.loadingCampaign);
    session = web.Session(GAME, await bundlePromise);
    step(4, T.ready);
    loader.hidden = true;
    showSetup();
  } catch (err) {
    console.error(err);
    fail(T.bootFailed(err && err.message ? err.message : err));
  }
}

// ------------------------------------------------------------------ saves

function savedText(s = slot) {
  return localStorage.getItem(`${STORE}:${s}`);
}

function autosave() {
  try {
    localStorage.setItem(`${STORE}:${slot}`, session.save_json());
    localStorage.setItem(`${STORE}:${slot}:chronicle`, session.chronicle_json());
    localStorage.setItem(`${STORE}:slot`, slot);
  } catch (err) {
    status(T.autosaveFailed(err.message));
  }
}

function exportSave() {
  const text = session.save_json();
  const blob = new Blob([text], { type: "application/json" });
  const a = $("a", {
    href: URL.createObjectURL(blob),
    download: `gamebook-${GAME}-${new Date().toISOString().slice(0, 10)}.json`,
  });
  document.body.append(a);
  a.click();
  a.remove();
}

async function importSave(file) {
  const text = await file.text();
  const result = JSON.parse(session.load_json(text));
  if (result.error) {
    status(T.importRefused(result.error));
    return;
  }
  autosave();
  render(result);
  status(T.imported);
}

// ------------------------------------------------------------------ setup

function showSetup() {
  root.replaceChildren();
  const form = $("form", { class: "gb-setup", "aria-label": T.newGame });
  const existing = savedText();
  const slotSelect = $("select", { id: "gb-slot", on: { change: (e) => (slot = e.target.value) } });
  for (const s of SLOTS) {
    const label = savedText(s) ? T.slotBusy(s) : T.slotEmpty(s);
    slotSelect.append($("option", { value: s, text: label, selected: s === slot }));
  }
  form.append($("label", { for: "gb-slot", text: T.saveSlot }), slotSelect);

  const quick = $("button", {
    type: "button",
    class: "md-button md-button--primary",
    "data-testid": "quick-start",
    text: T.quickStart,
    on: { click: () => start({ seed: randomSeed() }) },
  });
  const resume = $("button", {
    type: "button",
    class: "md-button",
    text: T.resume,
    disabled: !existing,
    on: { click: () => resumeSlot() },
  });
  form.append($("div", { class: "gb-row" }, quick, resume));
  form.append(GAME === "dilemme" ? dilemmeOptions() : citadelleOptions());
  form.append(saveTools());
  root.append(form);
  quick.focus();
}

function randomSeed() {
  return Math.random().toString(36).slice(2, 8);
}

function resumeSlot() {
  const result = JSON.parse(session.load_json(savedText()));
  if (result.error) {
    status(T.saveUnreadable(result.error));
    return;
  }
  render(result);
}

function dilemmeOptions() {
  const box = $("fieldset", {}, $("legend", { text: T.customGame }));
  const houses = Object.entries(T.houseNames);
  const rows = houses.map(([id, name], i) => {
    const use = $("input", { type: "checkbox", id: `gb-h-${id}`, checked: i < 4 });
    const label = $("input", { type: "text", value: name, "aria-label": T.nameFor(name) });
    const who = $("select", { "aria-label": T.whoPlays(name) },
      $("option", { value: "human", text: T.human, selected: i === 0 }),
      $("option", { value: "bot", text: T.bot, selected: i !== 0 }));
    box.append($("div", { class: "gb-row" }, use, $("label", { for: `gb-h-${id}`, text: name }), label, who));
    return { id, use, label, who };
  });
  const seed = $("input", { type: "text", id: "gb-seed", value: randomSeed() });
  box.append($("div", { class: "gb-row" }, $("label", { for: "gb-seed", text: T.seed }), seed));
  box.append($("button", {
    type: "button", class: "md-button", text: T.begin,
    on: { click: () => {
      const chosen = rows.filter((r) => r.use.checked).map((r) => ({
        house: r.id, name: r.label.value.trim() || undefined, bot: r.who.value === "bot",
      }));
      if (chosen.length < 3 || chosen.length > 5) return status(T.pickHouses);
      start({ seed: seed.value, houses: chosen });
    } },
  }));
  return box;
}

function citadelleOptions() {
  const box = $("fieldset", {}, $("legend", { text: T.customGame }));
  const chars = ["A", "B", "C", "D"].map((id) => [id, T.character(id)]);
  const rows = chars.map(([id, name], i) => {
    const use = $("input", { type: "checkbox", id: `gb-c-${id}`, checked: i < 2 });
    const label = $("input", { type: "text", placeholder: T.playerName, "aria-label": T.nameFor(name) });
    box.append($("div", { class: "gb-row" }, use, $("label", { for: `gb-c-${id}`, text: name }), label));
    return { id, use, label };
  });
  const auto = $("input", { type: "checkbox", id: "gb-auto" });
  const recovery = $("select", { id: "gb-recovery" },
    $("option", { value: "normal", text: T.recoveryNormal }),
    $("option", { value: "story", text: T.recoveryStory }),
    $("option", { value: "survival", text: T.recoverySurvival }));
  const seed = $("input", { type: "text", id: "gb-seed", value: randomSeed() });
  box.append(
    $("div", { class: "gb-row" }, auto, $("label", { for: "gb-auto", text: T.autoPolicy })),
    $("div", { class: "gb-row" }, $("label", { for: "gb-recovery", text: T.recovery }), recovery),
    $("div", { class: "gb-row" }, $("label", { for: "gb-seed", text: T.seed }), seed),
    $("button", {
      type: "button", class: "md-button", text: T.begin,
      on: { click: () => {
        const chosen = rows.filter((r) => r.use.checked);
        if (!chosen.length) return status(T.pickCharacter);
        const names = Object.fromEntries(chosen.filter((r) => r.label.value.trim()).map((r) => [r.id, r.label.value.trim()]));
        start({ seed: seed.value, characters: chosen.map((r) => r.id), names, auto: auto.checked, recovery: recovery.value });
      } },
    }),
  );
  return box;
}

function start(setup) {
  handedTo = null;
  render(JSON.parse(session.start_json(JSON.stringify(setup))));
  autosave();
}

// ------------------------------------------------------------------ playing

function act(action) {
  const result = JSON.parse(session.act_json(JSON.stringify(action)));
  if (result.error) status(T.actionRefused(result.error));
  render(result);
  autosave();
}

function undo() {
  render(JSON.parse(session.undo_json()));
  autosave();
}

let logLines = [];

function status(text) {
  const el = document.getElementById("gb-status");
  if (el) el.textContent = text;
  else story.textContent = text;
}

function render(s) {
  screen = s;
  if (s.log) logLines = (s.fresh ? s.log : logLines.concat(s.log)).slice(-300);
  root.replaceChildren();
  story.textContent = s.story || "";
  if (s.preview) {
    story.append($("div", { class: "gb-preview" },
      $("p", {}, $("strong", { text: T.label(T.ouiDa) }), document.createTextNode(s.preview.oui_da || "")),
      $("p", {}, $("strong", { text: T.label(T.nenni) }), document.createTextNode(s.preview.nenni || ""))));
  }
  if (s.handoff && handedTo !== s.seat) {
    const who = s.seat_name;
    const go = $("button", {
      type: "button", class: "md-button md-button--primary", "data-choice": "handoff",
      text: T.iAm(who), on: { click: () => { handedTo = s.seat; render(s); } },
    });
    root.append($("div", { class: "gb-handoff", role: "dialog", "aria-label": T.passDevice },
      $("p", { text: T.passDeviceTo(who) }),
      $("p", { text: T.lookAway }), go));
    story.textContent = T.turnOf(who);
    go.focus();
    return;
  }
  handedTo = s.seat;
  const layout = $("div", { class: "gb-layout" });
  const main = $("section", { class: "gb-main", "aria-label": T.decisions });
  if (s.seat_name) main.append($("h2", { text: T.yourTurn(s.seat_name) }));
  const choices = $("div", { class: "gb-choices", role: "group", "aria-label": T.choices });
  const button = (c, i, text, extra = "") => $("button", {
    type: "button", class: `gb-choice gb-${c.group} ${extra}`, "data-choice": String(i), text,
    title: c.label, "aria-label": c.label, on: { click: () => act(c.action) },
  });
  const amounts = {};  // votes and additions as rows of small buttons, one per amount
  const deals = [];
  const together = [];  // the same actions, with the other characters of the terrain
  s.choices.forEach((c, i) => {
    const a = c.action;
    if (a.type === "vote" || a.type === "add") {
      const key = a.type === "vote" ? T.vote(a.side === "oui_da" ? T.ouiDa : T.nenni) : T.addPower;
      (amounts[key] ||= []).push(button(c, i, String(a.power), "gb-amount"));
    } else if (a.type === "offer") {
      deals.push(button(c, i, c.label));
    } else if (a.join) {
      together.push(button(c, i, c.label));
    } else {
      choices.append(button(c, i, c.label));
    }
  });
  for (const [key, buttons] of Object.entries(amounts)) {
    choices.prepend($("div", { class: "gb-amounts", role: "group", "aria-label": key },
      $("span", { class: "gb-amounts-label", text: T.amountWith(key) }), ...buttons));
  }
  if (together.length) {
    choices.append($("details", { class: "gb-deals" },
      $("summary", { text: T.actTogether }), ...together));
  }
  if (deals.length) {
    choices.append($("details", { class: "gb-deals" },
      $("summary", { text: T.negotiate(deals.length) }), ...deals));
  }
  if (s.over) {
    choices.append($("p", { class: "gb-over", text: s.campaign_over ? T.campaignOver : T.gameOver }));
    if (GAME === "dilemme" && !s.campaign_over) {
      choices.append($("button", {
        type: "button", class: "md-button md-button--primary", "data-choice": "next-game",
        text: T.nextGame, on: { click: nextGame },
      }));
    }
    choices.append($("button", { type: "button", class: "md-button", "data-choice": "new", text: T.newGame, on: { click: showSetup } }));
  }
  main.append(choices, $("p", { id: "gb-status", class: "gb-status", role: "status" }));
  const tools = $("div", { class: "gb-row" },
    $("button", { type: "button", class: "md-button", text: T.undo, disabled: !s.can_undo, on: { click: undo } }),
    $("button", { type: "button", class: "md-button", text: T.menu, on: { click: showSetup } }));
  main.append(tools, saveTools());
  const log = $("ol", { class: "gb-log", "aria-label": T.log, "aria-live": "off" });
  for (const line of logLines.slice(-80)) log.append($("li", { text: line }));
  main.append($("details", { open: true }, $("summary", { text: T.log }), log));
  layout.append(main, GAME === "dilemme" ? dilemmeBoard(s.board) : citadelleBoard(s.board));
  root.append(layout);
  log.scrollTop = log.scrollHeight;
  const first = choices.querySelector("button");
  if (first && document.activeElement === document.body) first.focus();
}

function nextGame() {
  const save = JSON.parse(session.save_json());
  const st = save.state;
  const houses = st.seats.map((s) => ({ house: s.house, name: s.name, bot: s.bot }));
  render(JSON.parse(session.start_json(JSON.stringify({ seed: randomSeed(), houses, campaign: st.campaign }))));
  autosave();
}

function saveTools() {
  const input = $("input", {
    type: "file", accept: "application/json,.json", "data-testid": "save-import", id: "gb-import",
    on: { change: (e) => e.target.files[0] && importSave(e.target.files[0]) },
  });
  return $("div", { class: "gb-row gb-saves" },
    $("button", { type: "button", class: "md-button", "data-testid": "save-export", text: T.exportSave, on: { click: exportSave }, disabled: !screen }),
    $("label", { for: "gb-import", text: T.importSave }), input);
}

// ------------------------------------------------------------------ boards

function dilemmeBoard(b) {
  const box = $("aside", { class: "gb-board", "aria-label": T.kingdomBoard });
  const tracks = $("table", { class: "gb-tracks" }, $("caption", { text: T.resources }));
  for (const r of b.resources) {
    const cells = $("tr", {}, $("th", { text: r.name }));
    const bar = $("td", {});
    const meter = $("meter", { min: 0, max: b.track, value: r.pos, "aria-label": `${r.name} ${r.pos}` });
    bar.append(meter, document.createTextNode(` ${r.pos} ${r.up ? "↑" : "↓"}${r.marker ? " ●" : ""}`));
    cells.append(bar);
    tracks.append(cells);
  }
  const stab = $("tr", {}, $("th", { text: T.stability }),
    $("td", {}, $("meter", { min: 0, max: b.stability_track, value: b.stability }), document.createTextNode(` ${b.stability}`)));
  tracks.append(stab);
  box.append(tracks);
  box.append($("p", { text: T.balance(b.balance, b.deck) }));
  const timeline = $("ol", { class: "gb-timeline", "aria-label": T.timeline });
  for (let i = 0; i < Math.max(b.timeline_slots, b.timeline.length); i++) {
    const t = b.timeline[i];
    timeline.append($("li", { class: i >= b.timeline_slots - 1 ? "gb-skull" : "", text: t ? `${t.title} (${t.side})` : "—" }));
  }
  box.append($("h3", { text: T.timeline }), timeline);
  const houses = $("table", { class: "gb-houses" }, $("caption", { text: T.houses }),
    $("tr", {}, ...T.houseColumns.map((h) => $("th", { text: h }))));
  for (const h of b.houses) {
    const name = h.name + (h.leader ? " ♔" : "") + (h.moderator ? " ⚖" : "") + (h.bot ? T.botSuffix : "");
    houses.append($("tr", {}, ...[name, h.power ?? "?", h.coins ?? "?", h.vote || "", h.public.join(", "), h.prestige, h.craving]
      .map((v) => $("td", { text: String(v) }))));
    if (h.objective) box.dataset.objective = h.objective;
  }
  box.append(houses);
  const mine = b.houses.find((h) => h.objective);
  if (mine) box.append($("p", { class: "gb-secret", text: T.secretObjective(mine.objective) }));
  const chron = $("div", { class: "gb-chronicle" }, $("h3", { text: T.chronicles }));
  for (const [res, line] of Object.entries(b.chronicle)) {
    const row = $("p", {}, $("strong", { text: T.label(res) }));
    row.append(document.createTextNode(line.map((s) => (s ? `${s.positive ? "+" : "−"} ${s.title} (${s.ticks})` : "·")).join(" | ")));
    chron.append(row);
  }
  box.append(chron);
  if (b.events.length) box.append($("p", { text: T.events(b.events.join(", ")) }));
  return box;
}

function citadelleBoard(b) {
  const box = $("aside", { class: "gb-board", "aria-label": T.board });
  if (b.scenario) box.append($("h3", { text: b.scenario }));
  const cells = [...b.cells, ...b.slots];
  if (cells.length) {
    const xs = cells.map((c) => +c.at.split(",")[0]);
    const ys = cells.map((c) => +c.at.split(",")[1]);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const grid = $("div", { class: "gb-grid", role: "grid", "aria-label": T.fallenLands });
    grid.style.gridTemplateColumns = `repeat(${Math.max(...xs) - minX + 1}, minmax(7rem, 1fr))`;
    for (const c of b.cells) {
      const [x, y] = c.at.split(",").map(Number);
      const cell = $("div", { class: "gb-cell", role: "gridcell" }, $("strong", { text: c.title }));
      if (c.events.length) cell.append($("div", { class: "gb-events", text: c.events.join(" · ") }));
      if (c.here.length) cell.append($("div", { class: "gb-here", text: "☗ " + c.here.join(", ") }));
      cell.style.gridColumn = x - minX + 1;
      cell.style.gridRow = y - minY + 1;
      grid.append(cell);
    }
    for (const sl of b.slots) {
      const [x, y] = sl.at.split(",").map(Number);
      const cell = $("div", { class: "gb-cell gb-fog", role: "gridcell", text: sl.revealed ? (sl.title || "") : T.exploration(sl.zone) });
      cell.style.gridColumn = x - minX + 1;
      cell.style.gridRow = y - minY + 1;
      grid.append(cell);
    }
    box.append(grid);
  }
  const team = $("table", { class: "gb-houses" }, $("caption", { text: T.characters }),
    $("tr", {}, ...T.characterColumns.map((h) => $("th", { text: h }))));
  for (const c of b.characters) {
    team.append($("tr", {}, ...[c.name + (c.conscious ? "" : T.unconscious), c.hp, c.deck, c.discard, c.hand.join(", "),
      `${c.purse.join(", ")} (${c.weight}/${c.carry})`].map((v) => $("td", { text: String(v) }))));
  }
  box.append(team);
  if (b.quest_items.length) box.append($("p", { text: T.questItems(b.quest_items.join(", ")) }));
  if (b.globals.length) box.append($("p", { text: T.globalEvents(b.globals.join(", ")) }));
  const cit = b.citadel;
  box.append($("h3", { text: T.citadelSheet }),
    $("p", { text: Object.entries(cit.scores).map(([k, v]) => `${k} ${v}`).join(" · ") + T.hopeTremor(cit.hope, cit.tremor) }));
  if (Object.keys(cit.buildings).length) box.append($("p", { text: T.buildings(Object.entries(cit.buildings).map(([k, v]) => `${k} (${v})`).join(", ")) }));
  if (Object.keys(cit.side_quests).length) box.append($("p", { text: T.quests(Object.entries(cit.side_quests).map(([k, v]) => `${k} — ${v}`).join(", ")) }));
  return box;
}

// keyboard: digits pick a choice
document.addEventListener("keydown", (e) => {
  if (!screen || e.target.matches("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    // the n-th decision in reading order (deal offers in the closed section are skipped)
    const buttons = [...root.querySelectorAll(".gb-choices button[data-choice]")]
      .filter((el) => el.offsetParent !== null);
    const button = buttons[n - 1];
    if (button) { e.preventDefault(); button.click(); }
  }
});

boot();
