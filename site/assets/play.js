// The play page of any game: loads the self-hosted Pyodide, the engine archive and the game's
// bundle, then draws what the Python session returns (widgets, grouped choices, the log).
// No rule and no game name lives here: every choice is a button whose action comes from
// Python's legal actions, and the custom-game form is drawn from the game's setup fields.
// Content text only ever reaches the page through textContent, never as HTML.
import { h, T } from "./widgets/dom.js";
import { draw } from "./widgets/index.js";
import { drawChoices } from "./widgets/choices.js";

const app = document.getElementById("gb-app");
const GAME = app.dataset.game;
const ROOT = new URL(app.dataset.root, location.href).href;
const STORE = `gamebook:${GAME}`;
const SLOTS = ["A", "B", "C"];

const root = document.getElementById("gb-root");
const story = document.getElementById("gb-story");
const loader = document.getElementById("gb-loader");
const progress = document.getElementById("gb-progress");
const progressText = document.getElementById("gb-progress-text");

let web = null;
let info = null;
let slot = localStorage.getItem(`${STORE}:slot`) || "A";
let screen = null;

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

const call = (name, ...args) => JSON.parse(web[name](...args));

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
    const bundlePromise = fetch(new URL(manifest.bundles[GAME], ROOT)).then((r) => r.text());
    const enginePromise = fetch(new URL(manifest.engine, ROOT)).then((r) => r.arrayBuffer());
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
    const module = pyodide.pyimport("engine.web");
    step(3, T.loadingCampaign);
    web = module.WebSession(GAME, await bundlePromise);
    info = call("info_json");
    step(4, T.ready);
    loader.hidden = true;
    showSetup();
  } catch (err) {
    console.error(err);
    fail(T.bootFailed(err && err.message ? err.message : err));
  }
}

// ------------------------------------------------------------------ saves

const savedText = (s = slot) => localStorage.getItem(`${STORE}:${s}`);

function slotSummary(s) {
  const text = savedText(s);
  if (!text) return null;
  const peek = call("peek_json", text);
  if (peek.error) return { progress: "", date: "" };
  return { progress: peek.progress, date: localStorage.getItem(`${STORE}:${s}:date`) || "" };
}

function autosave() {
  try {
    localStorage.setItem(`${STORE}:${slot}`, web.save_json());
    localStorage.setItem(`${STORE}:${slot}:chronicle`, web.chronicle_json());
    localStorage.setItem(`${STORE}:${slot}:date`, new Date().toLocaleString("fr-FR"));
    localStorage.setItem(`${STORE}:slot`, slot);
  } catch (err) {
    status(T.autosaveFailed(err.message));
  }
}

function exportSave() {
  const blob = new Blob([web.save_json()], { type: "application/json" });
  const a = h("a", {
    href: URL.createObjectURL(blob),
    download: `gamebook-${GAME}-${new Date().toISOString().slice(0, 10)}.json`,
  });
  document.body.append(a);
  a.click();
  a.remove();
}

async function importSave(file) {
  const result = call("load_json", await file.text());
  if (result.error) {
    status(T.importRefused(result.error));
    return;
  }
  autosave();
  render(result);
  status(T.imported);
}

function saveTools() {
  const input = h("input", {
    type: "file", accept: "application/json,.json", "data-testid": "save-import", id: "gb-import",
    on: { change: (e) => e.target.files[0] && importSave(e.target.files[0]) },
  });
  return h("div", { class: "gb-row gb-saves" },
    h("button", { type: "button", class: "md-button", "data-testid": "save-export", text: T.exportSave,
      on: { click: exportSave }, disabled: !screen }),
    h("label", { for: "gb-import", text: T.importSave }), input);
}

function resumeSlot(s = slot) {
  slot = s;
  const result = call("load_json", savedText(s));
  if (result.error) {
    status(T.saveUnreadable(result.error));
    return;
  }
  localStorage.setItem(`${STORE}:slot`, slot);
  render(result);
}

// ------------------------------------------------------------------ setup

function randomSeed() {
  return Math.random().toString(36).slice(2, 8);
}

// « jouer depuis ici » on the authoring story map: play/<game>/?from=kind:key
const START_FROM = new URLSearchParams(location.search).get("from");

function quickSetup() {
  const n = info.default_players;
  return { seed: randomSeed(), players: n, bots: Math.max(0, n - 1) };
}

function showSetup() {
  root.replaceChildren();
  story.hidden = false;
  const page = h("div", { class: "gb-setup" });
  const mine = slotSummary(slot);
  if (mine) {
    const resume = h("button", {
      type: "button", class: "md-button md-button--primary", "data-testid": "resume",
      text: T.resume, on: { click: () => resumeSlot() },
    });
    page.append(h("section", { class: "gb-resume", "aria-label": T.resume },
      h("p", { text: T.resumeWhat(mine.progress, mine.date) }), resume));
  }
  const quick = h("button", {
    type: "button", class: `md-button${mine ? "" : " md-button--primary"}`, "data-testid": "quick-start",
    text: T.quickStart, on: { click: () => start(quickSetup()) },
  });
  if (START_FROM) page.append(h("p", { class: "gb-note", "data-testid": "start-from", text: T.startFrom(START_FROM) }));
  page.append(h("div", { class: "gb-row" }, quick,
    h("span", { class: "gb-note", text: T.quickStartHelp(info.default_players) })));
  const slots = h("select", { id: "gb-slot", on: { change: (e) => { slot = e.target.value; showSetup(); } } });
  for (const s of SLOTS) {
    const sum = slotSummary(s);
    slots.append(h("option", { value: s, selected: s === slot, text: sum ? T.slotBusy(s, sum.progress, sum.date) : T.slotEmpty(s) }));
  }
  page.append(h("div", { class: "gb-row" }, h("label", { for: "gb-slot", text: T.saveSlot }), slots));
  page.append(customForm(), saveTools());
  root.append(page);
  (page.querySelector("[data-testid=resume]") || quick).focus();
}

function fieldControl(f, id, value) {
  if (f.kind === "choice") {
    const select = h("select", { id });
    for (const o of f.options) select.append(h("option", { value: o.value, text: o.label, title: o.help || null, selected: o.value === value }));
    return select;
  }
  if (f.kind === "bool") return h("input", { type: "checkbox", id, checked: !!value });
  if (f.kind === "int") return h("input", { type: "number", id, value: value ?? "", min: f.min ?? null, max: f.max ?? null });
  return h("input", { type: "text", id, value: value ?? "" });
}

function readControl(f, el) {
  if (f.kind === "bool") return el.checked;
  if (f.kind === "int") return Number(el.value);
  return el.value;
}

function customForm() {
  const box = h("details", { class: "gb-custom" }, h("summary", { text: T.customGame }));
  const form = h("form", { on: { submit: (e) => e.preventDefault() } });
  const low = info.players.min, high = info.players.max;
  const count = h("input", { type: "number", id: "gb-count", min: low, max: high, value: info.default_players });
  form.append(h("div", { class: "gb-row" }, h("label", { for: "gb-count", text: T.seats }), count,
    h("span", { class: "gb-note", text: `${low}–${high}` })));
  const seatsBox = h("div", { class: "gb-seats" });
  const perSeat = info.setup.filter((f) => f.per_seat && f.form);
  const shared = info.setup.filter((f) => !f.per_seat && f.form);
  let rows = [];
  const drawSeats = () => {
    const n = Math.max(low, Math.min(high, Number(count.value) || info.default_players));
    rows = [];
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const fs = h("fieldset", { class: "gb-seat" }, h("legend", { text: T.seatLegend(i + 1) }));
      const name = h("input", { type: "text", id: `gb-name-${i}`, autocomplete: "off" });
      const who = h("select", { id: `gb-who-${i}` },
        h("option", { value: "human", text: T.human, selected: i === 0 }),
        h("option", { value: "bot", text: T.computer, selected: i !== 0 }));
      fs.append(h("div", { class: "gb-row" }, h("label", { for: `gb-name-${i}`, text: T.seatName }), name),
        h("div", { class: "gb-row" }, h("label", { for: `gb-who-${i}`, text: T.who }), who));
      const controls = {};
      for (const f of perSeat) {
        const id = `gb-${f.name}-${i}`;
        const options = f.options.map((o) => o.value);
        const value = f.distinct ? options[i % options.length] : (f.default ?? options[0]);
        controls[f.name] = fieldControl(f, id, value);
        fs.append(h("div", { class: "gb-row" }, h("label", { for: id, text: f.label }), controls[f.name]));
      }
      let persona = null;
      if (info.personas.length) {
        persona = fieldControl({ kind: "choice", options: info.personas }, `gb-persona-${i}`, info.personas[0].value);
        const row = h("div", { class: "gb-row gb-persona" }, h("label", { for: `gb-persona-${i}`, text: T.persona }), persona);
        const sync = () => { row.hidden = who.value !== "bot"; };
        who.addEventListener("change", sync);
        sync();
        fs.append(row);
      }
      rows.push({ name, who, controls, persona });
      seatsBox.append(fs);
    }
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  form.append(seatsBox);
  const sharedControls = {};
  for (const f of shared) {
    const id = `gb-opt-${f.name}`;
    sharedControls[f.name] = fieldControl(f, id, f.default);
    form.append(h("div", { class: "gb-row" }, h("label", { for: id, text: f.label }), sharedControls[f.name],
      f.help ? h("span", { class: "gb-note", text: f.help }) : null));
  }
  const seed = h("input", { type: "text", id: "gb-seed", value: randomSeed() });
  form.append(h("div", { class: "gb-row" }, h("label", { for: "gb-seed", text: T.seed }), seed,
    h("span", { class: "gb-note", text: T.seedHelp })));
  form.append(h("button", {
    type: "button", class: "md-button md-button--primary", text: T.begin,
    on: { click: () => {
      const setup = { seed: seed.value.trim() || randomSeed() };
      setup.seats = rows.map((r) => {
        const seat = { name: r.name.value.trim() || undefined, bot: r.who.value === "bot" };
        for (const f of perSeat) seat[f.name] = readControl(f, r.controls[f.name]);
        if (r.persona && seat.bot) seat.persona = r.persona.value;
        return seat;
      });
      for (const f of shared) setup[f.name] = readControl(f, sharedControls[f.name]);
      start(setup);
    } },
  }));
  box.append(form);
  return box;
}

function start(setup) {
  if (START_FROM) setup = { ...setup, start_from: START_FROM };
  const result = call("start_json", JSON.stringify(setup));
  if (result.error) {
    status(T.setupRefused(result.error));
    return;
  }
  render(result);
  autosave();
}

// ------------------------------------------------------------------ playing

function act(action) {
  const result = call("act_json", JSON.stringify(action));
  render(result);
  if (result.error) status(result.error);
  autosave();
}

function ask(question, then) {
  const box = h("div", { class: "gb-confirm", role: "alertdialog", "aria-label": T.confirm },
    h("p", { text: question }));
  const yes = h("button", { type: "button", class: "md-button md-button--primary", text: T.confirm,
    on: { click: () => { box.remove(); then(); } } });
  const no = h("button", { type: "button", class: "md-button", text: T.cancel,
    on: { click: () => box.remove() } });
  box.append(h("div", { class: "gb-row" }, yes, no));
  root.querySelector(".gb-choices")?.prepend(box);
  yes.focus();
}

function status(text) {
  const el = document.getElementById("gb-status");
  if (el) el.textContent = text;
  else story.textContent = text;
}

function area(s, name) {
  return (s.widgets || []).filter((w) => (w.area || "board") === name).map(draw).filter(Boolean);
}

function render(s) {
  const previous = screen;
  screen = s;
  root.replaceChildren();
  story.replaceChildren();
  story.append(h("p", { class: "gb-where", text: s.status }));
  if (s.handoff) {
    const go = h("button", {
      type: "button", class: "md-button md-button--primary", "data-choice": "handoff",
      text: T.iAm(s.handoff.name), on: { click: () => render(call("handed_json")) },
    });
    root.append(h("section", { class: "gb-handoff", "aria-label": T.handoffTitle(s.handoff.name) },
      h("h2", { text: T.handoffTitle(s.handoff.name) }), h("p", { text: T.handoffText }), go));
    go.focus();
    return;
  }
  if (s.prompt) story.append(h("p", { class: "gb-prompt", text: s.prompt }));
  story.append(...area(s, "main"));
  if (s.notice) story.append(h("p", { class: "gb-notice", text: s.notice }));
  const layout = h("div", { class: "gb-layout" });
  const main = h("section", { class: "gb-main", "aria-label": T.choices });
  if ((s.recap || []).length) {
    main.append(h("section", { class: "gb-recap", "aria-label": T.recap },
      h("h2", { text: T.recap }), h("ul", {}, ...s.recap.map((line) => h("li", { text: line })))));
  }
  const choices = h("div", { class: "gb-choices" });
  if (s.over && s.outcome) {
    choices.append(h("p", { class: "gb-over", text: s.outcome.summary || T.gameOver }));
    const ranked = (s.widgets || []).some((w) => w.type === "ranking");
    if (s.outcome.ranking.length && !ranked) {
      choices.append(draw({ type: "ranking", title: s.outcome.why || T.gameOver, rows: s.outcome.ranking }));
    }
    for (const w of s.outcome.widgets || []) choices.append(draw(w));
    const row = h("div", { class: "gb-row" });
    if (s.sequel) {
      row.append(h("button", { type: "button", class: "md-button md-button--primary", "data-choice": "next-game",
        text: T.nextGame, on: { click: () => { render(call("next_json")); autosave(); } } }));
    }
    for (const link of s.outcome.links || []) {
      row.append(h("a", { class: "md-button", href: new URL(`play/${link.game}/`, ROOT).href, text: T.playLink(link.label) }));
    }
    row.append(h("button", { type: "button", class: "md-button", "data-choice": "new", text: T.newGame, on: { click: showSetup } }));
    choices.append(row);
  } else {
    choices.append(drawChoices(s.groups || [], act, ask));
  }
  main.append(choices, h("p", { id: "gb-status", class: "gb-status", role: "status", "aria-live": "polite" }));
  const mine = area(s, "self");
  const side = mine.length ? h("section", { class: "gb-self", "aria-label": T.yourThings }, ...mine) : null;
  layout.append(h("div", { class: "gb-top" }, main, side));
  const board = area(s, "board");
  if (board.length) layout.append(h("section", { class: "gb-board", "aria-label": T.board }, ...board));
  const tools = h("div", { class: "gb-row gb-tools" },
    h("button", { type: "button", class: "md-button", text: T.undo, disabled: !s.can_undo, on: { click: () => { render(call("undo_json")); autosave(); } } }),
    h("button", { type: "button", class: "md-button", text: T.menu, on: { click: showSetup } }));
  const log = h("ol", { class: "gb-log", "aria-label": T.log, start: String(Math.max(1, (s.log_size || 0) - (s.log || []).length + 1)) });
  for (const line of (s.log || []).slice(-120)) log.append(h("li", { text: line }));
  layout.append(tools, saveTools(), h("details", { class: "gb-journal" }, h("summary", { text: T.log }), log));
  root.append(layout);
  log.scrollTop = log.scrollHeight;
  // focus goes to what changed (the recap), not to a choice that would look preselected
  if (!previous || previous.handoff || document.activeElement === document.body || !root.contains(document.activeElement)) {
    const target = main.querySelector(".gb-recap h2") || main.querySelector("h3");
    if (target) { target.tabIndex = -1; target.focus({ preventScroll: true }); }
  }
}

// keyboard: the number on a button presses it
document.addEventListener("keydown", (e) => {
  if (!screen || e.target.matches("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!/^[1-9]$/.test(e.key)) return;
  const button = root.querySelector(`[data-key="${e.key}"]`);
  if (button) {
    e.preventDefault();
    const folded = button.closest("details");
    if (folded) folded.open = true;
    button.click();
  }
});

boot();
