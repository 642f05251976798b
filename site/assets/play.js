// The play page of any game: loads the self-hosted Pyodide, the engine archive and the game's
// bundle, then draws what the Python session returns (widgets, grouped choices, the log).
// No rule and no game name lives here: every choice is a button whose action comes from
// Python's legal actions, and the custom-game form is drawn from the game's setup fields.
// Content text only ever reaches the page through textContent, never as HTML.
//
// The opening text (rendered at build time), the offer to resume an autosave and the quick
// start show at once, before Python is ready: a click made while it loads waits for it.
import { h, T } from "./widgets/dom.js";
import { draw } from "./widgets/index.js";
import { drawChoices } from "./widgets/choices.js";
import { startPython } from "./boot.js";
import { decodeCode, drawQR, guestLink, hostLink, scanCamera } from "./devices.js";

const app = document.getElementById("gb-app");
const GAME = app.dataset.game;
const TITLE = app.dataset.title || "";
const DEFAULT_PLAYERS = Number(app.dataset.players) || 2;
const COOPERATIVE = Boolean(app.dataset.cooperative);
const ROOT = new URL(app.dataset.root, location.href).href;
const STORE = `gamebook:${GAME}`;
const SLOTS = ["A", "B", "C"];

const root = document.getElementById("gb-root");
const story = document.getElementById("gb-story");
const loader = document.getElementById("gb-loader");
const progress = document.getElementById("gb-progress");
const progressText = document.getElementById("gb-progress-text");
const resumeBox = h("div", { id: "gb-resume-box" });
story.before(resumeBox);
// the pairing of other devices (issue 32): outside #gb-root, it stays while the game is drawn
const devicesBox = h("div", { id: "gb-devices", class: "gb-devices" });
resumeBox.after(devicesBox);
// ?invite: this device joins a game another one runs (no Python needed to draw its screens)
const INVITE = new URLSearchParams(location.search).has("invite");
// What just happened, told to screen readers once (the page is not re-read whole): the last
// step of each new screen, or whom to pass the device to.
const live = h("div", { id: "gb-live", class: "gb-sr-only", role: "log", "aria-live": "polite", "aria-relevant": "additions" });
app.append(live);
let heard = "";

function announce(s) {
  const said = s.handoff ? [T.handoffTitle(s.handoff.name)] : lastStep(s);
  const key = JSON.stringify(said);
  if (s.fresh || key !== heard) {
    live.replaceChildren(h("p", { text: said.join(" ") }));
    // what just happened may be the viewer's alone (« Vous piochez … »)
    const mine = s.handoff ? null : privateTo(Number.isInteger(s.recap_private) ? s.recap_private : s.log_private);
    if (mine === null) live.removeAttribute("data-private");
    else live.setAttribute("data-private", mine);
  }
  heard = key;
}

let web = null;
let info = null;
let slot = localStorage.getItem(`${STORE}:slot`) || "A";
if (!SLOTS.includes(slot)) slot = "A";
let screen = null;
let failed = false;
let signalReady = null;
const ready = new Promise((resolve) => { signalReady = resolve; });

function step(n, text) {
  progress.value = n;
  progressText.textContent = text;
}

function fail(message) {
  failed = true;
  loader.hidden = false;
  progress.hidden = true;
  progressText.textContent = message;
  loader.classList.add("gb-error");
}

const call = (name, ...args) => JSON.parse(web[name](...args));

// A click made before Python is ready waits for it (the loader says how far it is).
function whenReady(fn) {
  return (...args) => {
    if (web) return fn(...args);
    if (failed) return undefined;
    loader.hidden = false;
    loader.classList.add("gb-waiting");
    return ready.then(() => fn(...args));
  };
}

// ------------------------------------------------------------------ loading

async function boot() {
  if (location.protocol === "file:") {
    document.getElementById("gb-file-notice").hidden = false;
    loader.hidden = true;
    return;
  }
  if (INVITE) {
    loader.hidden = true;
    showJoin();
    return;
  }
  showSetup();
  // the service worker and the offer of a new version live in theme.js (every page); before
  // it hands over, the game in progress is saved, and resumed once the new version is loaded
  window.gbBeforeUpdate = () => {
    if (!web || !screen) return;
    autosave();
    sessionStorage.setItem(`${STORE}:after-update`, slot);
  };
  const after = sessionStorage.getItem(`${STORE}:after-update`);
  sessionStorage.removeItem(`${STORE}:after-update`);
  if (after && SLOTS.includes(after) && savedText(after)) ready.then(() => resumeSlot(after));
  try {
    step(1, T.loadingPython);
    // Python's start began in the page's head (boot.js); this waits for it: the game's
    // session, made from its bundle (ready-made in this version's memory snapshot)
    web = await startPython({ root: ROOT, game: GAME });
    step(2, T.loadingEngine);
    step(3, T.loadingCampaign);
    info = call("info_json");
    step(4, T.ready);
    loader.hidden = true;
    app.dataset.ready = "1";
    signalReady();
  } catch (err) {
    console.error(err);
    fail(T.bootFailed(err && err.message ? err.message : err));
  }
}

// ------------------------------------------------------------------ saves

const savedText = (s = slot) => localStorage.getItem(`${STORE}:${s}`);

// What a slot holds, read without Python (only strings are kept, shown as text): the game's
// title, how far it has gone (Game.progress) and when it was saved.
function slotSummary(s) {
  const text = savedText(s);
  if (!text) return null;
  let meta = null;
  try {
    meta = JSON.parse(localStorage.getItem(`${STORE}:${s}:meta`) || "null");
  } catch (e) {
    meta = null;
  }
  if (!meta || typeof meta !== "object") {
    meta = {};
    try {
      const data = JSON.parse(text);
      if (data && typeof data === "object") meta = { progress: data.progress };
    } catch (e) {
      meta = {};
    }
  }
  const str = (v) => (typeof v === "string" ? v.slice(0, 200) : "");
  return {
    slot: s,
    title: str(meta.title) || TITLE,
    progress: str(meta.progress),
    date: formatDate(str(meta.date) || str(localStorage.getItem(`${STORE}:${s}:date`))),
    at: Date.parse(str(meta.date)) || 0,
    done: meta.done === true,
  };
}

function formatDate(text) {
  if (!text) return "";
  const when = new Date(text);
  if (Number.isNaN(when.getTime())) return text;  // a date written by an older page
  return when.toLocaleString("fr-FR", { dateStyle: "long", timeStyle: "short" });
}

function autosave() {
  const prof = window.__gbProfile;
  try {
    const t0 = prof ? performance.now() : 0;
    const save = web.save_json();
    const t1 = prof ? performance.now() : 0;
    const chronicle = web.chronicle_json();
    const t2 = prof ? performance.now() : 0;
    const date = new Date().toISOString();
    localStorage.setItem(`${STORE}:${slot}`, save);
    localStorage.setItem(`${STORE}:${slot}:chronicle`, chronicle);
    localStorage.setItem(`${STORE}:${slot}:date`, date);
    localStorage.setItem(`${STORE}:${slot}:meta`, JSON.stringify({
      title: (info && info.title) || TITLE, progress: (screen && screen.progress) || "", date,
      done: !!(screen && screen.over && !screen.sequel),  // over, and no next game of a campaign
    }));
    localStorage.setItem(`${STORE}:slot`, slot);
    if (prof) (prof.saves ||= []).push({ save_json: t1 - t0, chronicle_json: t2 - t1, storage: performance.now() - t2, save_size: save.length });
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

// The largest save file read (the engine refuses a save of more than 20 million characters;
// a UTF-16 copy takes two bytes each): a bigger one is refused before a byte of it is read.
const MAX_IMPORT_BYTES = 40_000_000;

async function importSave(file) {
  if (!(file.size <= MAX_IMPORT_BYTES)) {
    status(T.importRefused(T.fileTooBig(file.size, MAX_IMPORT_BYTES)));
    return;
  }
  let text;
  try {  // strictly UTF-8 (file.text() would guess), or UTF-16 when a byte-order mark says so
    const bytes = new Uint8Array(await file.arrayBuffer());
    const mark = (bytes[0] << 8) | bytes[1];
    const encoding = { 0xfffe: "utf-16le", 0xfeff: "utf-16be" }[mark] || "utf-8";
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);  // (marks are dropped)
  } catch (err) {
    status(T.importRefused(T.unreadableFile));
    return;
  }
  const result = call("load_json", text);
  if (result.error) {
    status(T.importRefused(result.error));
    return;
  }
  autosave();
  render(result);
  status(T.imported);
}

function saveTools() {
  // the file input is drawn as a button (its label); the input itself keeps the focus
  const input = h("input", {
    type: "file", accept: "application/json,.json", "data-testid": "save-import", id: "gb-import", class: "gb-sr-only",
    on: { change: whenReady((e) => e.target.files[0] && importSave(e.target.files[0])) },
  });
  return h("div", { class: "gb-row gb-saves" },
    h("button", { type: "button", class: "md-button", "data-testid": "save-export", text: T.exportSave,
      on: { click: exportSave }, disabled: !screen }),
    input, h("label", { for: "gb-import", class: "md-button gb-import", text: T.importSave }));
}

function resumeSlot(s = slot) {
  saveNow();
  const result = call("load_json", savedText(s));
  if (result.error) {
    // the explanation goes where the story goes: the save stays in its slot, untouched
    status(T.saveUnreadable(result.error));
    story.replaceChildren(h("p", { class: "gb-notice", role: "alert", text: T.saveUnreadable(result.error) }));
    return;
  }
  slot = s;
  localStorage.setItem(`${STORE}:slot`, slot);
  render(result);
  // this device hosted other devices for that game: new codes for them
  const seated = devicesSaved(s);
  if (seated) {
    for (const seat of seated.bots) call("give_to_bot_json", seat);
    if (seated.seats.length) hostDevices(seated.seats, seated.token, seated.bots);
    else render(call("screen_json"));
  }
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

// The three slots: game, date, progress; the autosave to resume first on the screen.
function drawResume() {
  const busy = SLOTS.map(slotSummary).filter(Boolean);
  if (!busy.length) {
    resumeBox.replaceChildren();
    return null;
  }
  const mine = busy.find((b) => b.slot === slot) || busy.reduce((a, b) => (b.at > a.at ? b : a));
  const resume = h("button", {
    type: "button", class: "md-button md-button--primary", "data-testid": "resume",
    text: T.resume, on: { click: whenReady(() => resumeSlot(mine.slot)) },
  });
  const list = h("ul", { class: "gb-slots", "aria-label": T.slots });
  for (const s of SLOTS) {
    const sum = slotSummary(s);
    const li = h("li", { class: "gb-slot-row", "data-slot": s },
      h("strong", { text: T.slot(s) }),
      h("span", { class: "gb-slot-what", text: sum ? T.slotWhat(sum.title, sum.progress, sum.date) : T.slotFree }));
    if (sum && s !== mine.slot) {
      li.append(h("button", { type: "button", class: "md-button gb-slot-resume", "data-testid": `resume-${s}`,
        text: T.resumeSlot(s), on: { click: whenReady(() => resumeSlot(s)) } }));
    }
    list.append(li);
  }
  resumeBox.replaceChildren(h("section", { class: "gb-resume", "aria-labelledby": "gb-resume-title" },
    h("h2", { id: "gb-resume-title", text: T.resumeTitle }),
    h("p", { class: "gb-resume-what", text: T.resumeWhat(mine.title, mine.progress, mine.date) }),
    resume, list));
  return resume;
}

function showSetup() {
  saveNow();
  view = null;
  screen = null;
  slotPicked = false;
  parkStory();
  root.replaceChildren();
  story.hidden = false;
  const resume = drawResume();
  const page = h("div", { class: "gb-setup" });
  const quick = h("button", {
    type: "button", class: `md-button${resume ? "" : " md-button--primary"}`, "data-testid": "quick-start",
    text: T.quickStart, on: { click: whenReady(() => start(quickSetup())) },
  });
  if (START_FROM) page.append(h("p", { class: "gb-note", "data-testid": "start-from", text: T.startFrom(START_FROM) }));
  page.append(h("div", { class: "gb-row" }, quick,
    h("span", { class: "gb-note", text: T.quickStartHelp(info ? info.default_players : DEFAULT_PLAYERS, info ? info.cooperative : COOPERATIVE) })));
  const slots = h("select", { id: "gb-slot", on: { change: (e) => { slot = e.target.value; slotPicked = true; } } });
  for (const s of SLOTS) {
    const sum = slotSummary(s);
    slots.append(h("option", { value: s, selected: s === slot, text: sum ? T.slotBusy(s, sum.progress, sum.date) : T.slotEmpty(s) }));
  }
  page.append(h("div", { class: "gb-row" }, h("label", { for: "gb-slot", text: T.saveSlot }), slots));
  const custom = h("details", { class: "gb-custom" }, h("summary", { text: T.customGame }));
  if (info) custom.append(customForm());
  else {
    const wait = h("p", { class: "gb-note", text: T.formLoading });
    custom.append(wait);
    ready.then(() => { wait.replaceWith(customForm()); });
  }
  page.append(h("div", { class: "gb-row gb-devices-buttons" },
    h("button", { type: "button", class: "md-button", "data-testid": "devices-host", text: T.devicesHost,
      on: { click: whenReady(() => devicesSetup()) } }),
    h("button", { type: "button", class: "md-button", "data-testid": "devices-join", text: T.devicesJoin,
      on: { click: () => showJoin() } })));
  page.append(custom, saveTools(), h("p", { id: "gb-status", class: "gb-status", role: "status", "aria-live": "polite" }));
  root.append(page);
  if (document.activeElement === document.body || !app.contains(document.activeElement)) {
    (resume || quick).focus({ preventScroll: true });
  }
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
  return form;
}

// Where a new game goes. A slot that holds a game in progress (a campaign between two games
// included) is never overwritten without a word: the slot in use if it is free, else a free slot,
// else one whose game is over; else one sentence says which game would be replaced, « Annuler »
// first. A slot picked by hand in the list is taken if nothing in progress is lost.
let slotPicked = false;

function start(setup, after = null) {
  const free = SLOTS.filter((s) => !savedText(s));
  const done = SLOTS.map(slotSummary).filter((sum) => sum && sum.done).sort((a, b) => a.at - b.at).map((sum) => sum.slot);
  const open = (s) => !savedText(s) || done.includes(s);
  if (open(slot) && (slotPicked || !savedText(slot) || !free.length)) return begin(setup, after);
  if (!slotPicked && (free.length || done.length)) {
    slot = free[0] || done[0];
    return begin(setup, after);
  }
  if (!slotPicked) {  // every slot holds a game in progress: the one saved longest ago is proposed
    slot = SLOTS.map(slotSummary).reduce((a, b) => (b.at < a.at ? b : a)).slot;
  }
  const sum = slotSummary(slot);
  const where = root.querySelector(".gb-setup");
  ask(T.replaceSlot(slot, sum.title, sum.progress, sum.date), () => begin(setup, after), {
    where, cancelFirst: true, yes: T.replace,
  });
  return undefined;
}

function begin(setup, after = null) {
  if (START_FROM) setup = { ...setup, start_from: START_FROM };
  const result = call("start_json", JSON.stringify(setup));
  if (result.error) {
    status(T.setupRefused(result.error));
    // said below the setup form: brought into view, or a phone shows nothing happening
    document.getElementById("gb-status")?.scrollIntoView({ block: "center" });
    return;
  }
  slotPicked = false;
  localStorage.setItem(`${STORE}:slot`, slot);
  stopHosting();
  render(result);
  saveSoon();
  if (after) after();
}

// ------------------------------------------------------------------ playing

// Where an action's time goes, recorded only when a dev script asks (bench/actions.py sets
// window.__gbProfile to an array before the page runs): one entry per action, in ms.
function act(action) {
  if (guest) return guestAct(action);
  if (!web) return undefined;  // a guest whose link is lost
  const prof = window.__gbProfile;
  const t0 = prof ? performance.now() : 0;
  const text = web.act_json(JSON.stringify(action));
  const t1 = prof ? performance.now() : 0;
  const result = JSON.parse(text);
  const t2 = prof ? performance.now() : 0;
  // the other devices first: none of them waits for this one's screen to be drawn
  if (hosting && !result.error) {
    broadcast();
    hosting.sent = true;
  }
  const t3 = prof ? performance.now() : 0;
  render(result);
  if (result.error) status(result.error);
  saveSoon();
  if (prof) prof.push({ at: performance.timeOrigin + t0, python: t1 - t0, parse: t2 - t1, screens: t3 - t2, render: performance.now() - t3, size: text.length });
}

// The autosave (the whole save: setup, action log, state) is written in a microtask queued by
// the move: it runs as soon as the move's handler returns, before any other task (a reload, a
// test reading the slots, a tab closed), and several moves of one handler are saved once. It is
// also written at once whenever the page may go away (hidden, closed, reloaded, updated) or
// something reads the slots (the menu, a resume). Nothing a player did waits for a frame.
let unsaved = false;
let saveQueued = false;

function saveSoon() {
  unsaved = true;
  if (saveQueued) return;
  saveQueued = true;
  queueMicrotask(saveNow);
}

function saveNow() {
  saveQueued = false;
  if (!unsaved || !web || !screen || guest) return;
  unsaved = false;
  autosave();
}

addEventListener("pagehide", saveNow);
addEventListener("beforeunload", saveNow);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") saveNow();
});

// A question asked in the page (no browser dialog). In a game (`where` omitted) it goes above
// the choices, « Confirmer » first and focused; `options.cancelFirst` puts « Annuler » first and
// focuses it (a question whose yes loses something), `options.yes` names the yes.
function ask(question, then, options = {}) {
  const where = options.where || root.querySelector(".gb-choices");
  if (!where) return;
  where.querySelector(":scope > .gb-confirm")?.remove();
  const box = h("div", { class: "gb-confirm", role: "alertdialog", "aria-label": options.yes || T.confirm },
    h("p", { text: question }));
  const yes = h("button", { type: "button", class: "md-button md-button--primary", text: options.yes || T.confirm,
    on: { click: () => { box.remove(); then(); } } });
  const no = h("button", { type: "button", class: "md-button", text: T.cancel,
    on: { click: () => { box.remove(); options.cancelled?.(); } } });
  box.append(options.cancelFirst ? h("div", { class: "gb-row" }, no, yes) : h("div", { class: "gb-row" }, yes, no));
  where.prepend(box);
  (options.cancelFirst ? no : yes).focus();
}

function status(text) {
  const el = document.getElementById("gb-status");
  if (el) el.textContent = text;
  else story.textContent = text;
}

// ------------------------------------------------------------------ other devices
//
// The host runs the game as always; each seat given to another device gets a WebRTC data
// channel (devices.js), paired by two codes: the host's offer, scanned by the guest, and the
// guest's answer, scanned by the host. The host sends each guest the screen of its seat only
// (Session.screen_for) after every change, and hands each message it receives to Python,
// which judges it (engine/core/devices.py). A guest draws what it receives with the same
// functions as here, and sends its moves numbered.

let hosting = null;  // { token, seats: Map(seat -> { link, box }) } on the host
let guest = null;  // { link, game, token, seat, seq, name } on a guest

const randomToken = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
};

const DEVICES_KEY = (s) => `${STORE}:${s}:devices`;

// the other devices a slot's game was played with ({ token, seats }), or null
function devicesSaved(s) {
  try {
    const v = JSON.parse(localStorage.getItem(DEVICES_KEY(s)) || "null");
    const seats = (list) => Array.isArray(list) && list.every(Number.isInteger);
    if (v && typeof v.token === "string" && seats(v.seats) && (v.bots === undefined || seats(v.bots))) {
      return { token: v.token, seats: v.seats, bots: v.bots || [] };
    }
  } catch (err) { /* not ours */ }
  return null;
}

function stopHosting() {
  if (!hosting) return;
  for (const { link, spare } of hosting.seats.values()) { link?.shut(); spare?.shut(); }
  hosting = null;
  devicesBox.replaceChildren();
  if (web) call("devices_json", "", "[]");
  localStorage.removeItem(DEVICES_KEY(slot));
}

// The several-devices setup: how many other devices, which seats go to them.
function devicesSetup() {
  const inGame = !!(screen && !screen.over);
  const humans = inGame ? seatHumans() : null;
  const low = info.players.min, high = info.players.max;
  const max = inGame ? humans.length - 1 : high - 1;
  const box = h("section", { class: "gb-devices-setup", "aria-labelledby": "gb-devices-title" },
    h("h2", { id: "gb-devices-title", text: T.devicesTitle }), h("p", { class: "gb-note", text: T.devicesHelp }));
  if (max < 1) {
    box.append(h("p", { text: T.devicesNone }));
    devicesBox.replaceChildren(box);
    return;
  }
  const count = h("input", { type: "number", id: "gb-devices-count", "data-testid": "devices-count", min: 1, max,
    value: Math.max(1, Math.min(max, (info.default_players || low) - 1)) });
  box.append(h("div", { class: "gb-row" }, h("label", { for: "gb-devices-count", text: T.devicesCount }), count));
  const marks = [];
  if (inGame) {
    const list = h("fieldset", { class: "gb-devices-seats" }, h("legend", { text: T.devicesSeats }));
    for (const seat of humans.slice(1)) {
      const mark = h("input", { type: "checkbox", id: `gb-devices-seat-${seat}`, "data-testid": "devices-seat", "data-seat": String(seat) });
      marks.push(mark);
      list.append(h("div", { class: "gb-row" }, mark, h("label", { for: `gb-devices-seat-${seat}`, text: names()[seat] || T.seatLegend(seat + 1) })));
    }
    const sync = () => marks.forEach((m, i) => { m.checked = i < Number(count.value); });
    count.addEventListener("change", sync);
    sync();
    box.append(list);
  } else {
    const note = h("p", { class: "gb-note" });
    const sync = () => { note.textContent = T.devicesNewGame(Math.min(max, Math.max(1, Number(count.value) || 1)) + 1); };
    count.addEventListener("input", sync);
    sync();
    box.append(note);
  }
  box.append(h("button", { type: "button", class: "md-button md-button--primary", "data-testid": "devices-start", text: T.devicesStart,
    on: { click: () => {
      const n = Math.min(max, Math.max(1, Number(count.value) || 1));
      if (inGame) {
        hostDevices(marks.filter((m) => m.checked).map((m) => Number(m.dataset.seat)), randomToken());
        return;
      }
      const seats = Array.from({ length: n + 1 }, () => ({ bot: false }));
      start({ seed: randomSeed(), seats }, () => hostDevices(seats.slice(1).map((_, i) => i + 1), randomToken()));
    } } }));
  devicesBox.replaceChildren(box);
  count.focus();
}

// the seats played by people in the game in progress, and their names (from the host's screen)
function seatHumans() {
  const setup = JSON.parse(web.save_json()).setup || {};
  return (setup.seats || []).map((st, i) => (st && !st.bot ? i : null)).filter((i) => i !== null);
}
function names() {
  const setup = JSON.parse(web.save_json()).setup || {};
  return (setup.seats || []).map((st) => (st && typeof st.name === "string" ? st.name : ""));
}

function hostDevices(seats, token, bots = []) {
  if (hosting) for (const { link, spare } of hosting.seats.values()) { link?.shut(); spare?.shut(); }
  const result = call("devices_json", token, JSON.stringify(seats));
  hosting = { token, seats: new Map(), bots };
  devicesBox.replaceChildren(h("section", { class: "gb-devices-pairs", "aria-labelledby": "gb-devices-title" },
    h("h2", { id: "gb-devices-title", text: T.devicesTitle }),
    h("button", { type: "button", class: "md-button", "data-testid": "devices-stop", text: T.devicesStop, on: { click: () => {
      stopHosting();
      render(call("screen_json"));
    } } })));
  if (!result.remote.length) {
    stopHosting();
    return;
  }
  for (const seat of result.remote) pairSeat(seat);
  remember();  // (each seat is in hosting.seats as soon as its pairing begins)
  render(call("screen_json"));
}

// One seat's pairing on the host: its offer (QR and text), the answer's field, its state.

// one pairing code as a person carries it: its QR (with its version and size, for a screen
// reader too) and the same text to copy, in an element that holds it in data-code
async function pairCode(attrs, intro, text) {
  const box = h("div", { ...attrs, "data-code": text }, h("p", { text: intro }));
  const qr = await drawQR(text, ROOT);
  if (qr) {
    qr.canvas.setAttribute("role", "img");
    qr.canvas.setAttribute("aria-label", T.pairQr(qr.version, text.length));
    box.dataset.version = String(qr.version);
    box.append(qr.canvas, h("p", { class: "gb-note", text: T.pairQr(qr.version, text.length) }));
  }
  box.append(h("details", {}, h("summary", { text: T.pairCodeText }),
    h("textarea", { readonly: true, rows: 3, class: "gb-code-text", text })));
  return box;
}

async function pairSeat(seat, lost = false) {
  const table = hosting;
  const who = names()[seat] || T.seatLegend(seat + 1);
  const box = h("section", { class: "gb-pair", "data-testid": "pair", "data-seat": String(seat) },
    h("h3", { text: T.pairSeat(seat + 1, who) }));
  const say = h("p", { class: "gb-pair-status", "data-testid": "pair-status", "data-seat": String(seat), role: "status", text: T.pairConnecting });
  box.append(say);
  const old = table.seats.get(seat);
  if (old && old.box.isConnected) old.box.replaceWith(box);
  else devicesBox.firstChild.append(box);
  const entry = { link: null, spare: null, box, say, who, returning: false };
  table.seats.set(seat, entry);
  entry.alive = () => hosting === table && table.seats.get(seat) === entry;
  entry.events = seatEvents(seat, entry);
  const link = await hostLink({ game: GAME, token: table.token, seat }, entry.events);
  if (!entry.alive()) {
    link.shut();
    return;
  }
  entry.link = link;
  const code = await pairCode({ class: "gb-pair-code gb-pair-offer", "data-testid": "pair-offer", "data-seat": String(seat) },
    T.pairOffer, link.offer);
  const input = h("textarea", { id: `gb-pair-answer-${seat}`, rows: 3, "data-testid": "pair-answer-input", "data-seat": String(seat) });
  const submit = h("button", { type: "button", class: "md-button md-button--primary", "data-testid": "pair-answer-submit", "data-seat": String(seat),
    text: T.pairAnswerSubmit, on: { click: async () => {
      const text = await decodeCode(input.value);
      if (text === null) { say.textContent = T.pairUnreadable; return; }
      const judged = call("check_answer_json", text, seat);
      if (judged.error) { say.textContent = judged.error; return; }
      say.textContent = T.pairConnecting;
      await link.accept(JSON.parse(text).sdp);
    } } });
  const answer = h("div", { class: "gb-pair-code gb-pair-answer" },
    h("label", { for: `gb-pair-answer-${seat}`, text: T.pairAnswerLabel }), input,
    h("div", { class: "gb-row" }, submit, cameraButton((text) => { input.value = text; submit.click(); })));
  const local = h("button", { type: "button", class: "md-button", "data-testid": "pair-local", "data-seat": String(seat), text: T.pairLocal,
    on: { click: () => seatHome(seat) } });
  say.textContent = lost ? T.pairLost : T.pairWaiting;
  const bot = h("button", { type: "button", class: "md-button", "data-testid": "pair-bot", "data-seat": String(seat), text: T.pairBot,
    on: { click: () => seatToBot(seat) } });
  box.append(code, answer, h("div", { class: "gb-row" }, local, bot));
}

// What the host does with the connections of one seat. `entry.link` carries the game; once it
// is open, a second connection (`entry.spare`) is negotiated through it, with no scan, and
// takes over when the first is lost while both pages stay open: the guest gets its screen
// again, and a move it sent that the host never took is sent again (the host refuses one it
// already took, by its number). A connection that stops answering for a while (a Wi-Fi blip)
// is kept: the browser tries again by itself.
function seatEvents(seat, entry) {
  return {
    open: (link) => {
      if (!entry.alive() || link !== entry.link) return;  // (a spare waits, unused)
      entry.say.textContent = T.pairConnected;
      entry.box.dataset.connected = "1";
      for (const el of entry.box.querySelectorAll(".gb-pair-code")) el.remove();
      hello(seat, entry);
      offerSpare(seat, entry);
    },
    message: (data, link) => entry.alive() && fromGuest(seat, data, link),
    closed: (link) => entry.alive() && linkLost(seat, entry, link),
    failed: (link) => {
      if (!entry.alive()) return;
      if (link === entry.link) pairFailed(seat, entry.box, entry.say);
      else if (link === entry.spare) entry.spare = null;
    },
    unsteady: (link) => {
      if (entry.alive() && link === entry.link) entry.say.textContent = T.pairRetry(entry.who);
    },
    steady: (link) => {
      if (!entry.alive() || link !== entry.link) return;
      entry.returning = true;
      hello(seat, entry);
    },
  };
}

// the guest's seat, its name and the number of the last move taken from it (a guest goes on
// after it), then its screen
function hello(seat, entry) {
  entry.link.send({ type: "hello", seat, name: entry.who, seq: web.last_seq(seat) });
  sendScreen(seat, entry.link);
}

async function offerSpare(seat, entry) {
  const spare = await hostLink({ game: GAME, token: hosting.token, seat }, entry.events);
  if (!entry.alive() || !entry.link || !entry.link.open) {
    spare.shut();
    return;
  }
  entry.spare?.shut();
  entry.spare = spare;
  entry.link.send({ type: "spare", code: spare.offer });
}

function linkLost(seat, entry, link) {
  if (link === entry.spare) {
    entry.spare = null;
    return;
  }
  if (link !== entry.link) return;
  if (entry.spare && entry.spare.steady) {
    switchToSpare(seat, entry);
    entry.returning = true;
    entry.say.textContent = T.pairRetry(entry.who);
    return;
  }
  entry.spare?.shut();
  pairSeat(seat, true);  // nothing left between the two devices: a new code to scan
}

function switchToSpare(seat, entry) {
  const old = entry.link;
  entry.link = entry.spare;
  entry.spare = null;
  old.shut();
  hello(seat, entry);
  offerSpare(seat, entry);
}

// What a guest's page says about the connection itself (not a move: Python judges those).
async function fromGuestLink(seat, kind, data, link) {
  const entry = hosting.seats.get(seat);
  if (kind === "here") {
    // the guest read the host's hello: it is back
    if (entry.returning) entry.say.textContent = T.pairBack(entry.who);
    entry.returning = false;
  } else if (kind === "resume") {
    // the guest lost the first connection before this device saw it: the spare takes over
    if (link === entry.spare) switchToSpare(seat, entry);
    entry.returning = true;
  } else if (kind === "spare" && entry.spare) {
    const spare = entry.spare;
    let text = null;
    try { text = await decodeCode(JSON.parse(data).code); } catch (err) { text = null; }
    if (text === null || call("check_answer_json", text, seat).error || spare !== entry.spare) return;
    try { await spare.accept(JSON.parse(text).sdp); } catch (err) { if (entry.spare === spare) entry.spare = null; }
  }
}

function pairFailed(seat, box, say) {
  say.textContent = T.pairFailed;
  box.dataset.failed = "1";
}

// a seat back on this device (its guest never came back, or could not connect)
function seatHome(seat) {
  const entry = hosting.seats.get(seat);
  entry?.link?.shut();
  entry?.spare?.shut();
  entry?.box.remove();
  hosting.seats.delete(seat);
  if (!hosting.seats.size) {
    stopHosting();
  } else {
    call("devices_json", hosting.token, JSON.stringify([...hosting.seats.keys()]));
    remember();
  }
  render(call("screen_json"));
}

// a seat whose device never came back, played by the computer from now on
function seatToBot(seat) {
  const entry = hosting.seats.get(seat);
  entry?.link?.shut();
  entry?.spare?.shut();
  entry?.box.remove();
  hosting.seats.delete(seat);
  hosting.bots = [...hosting.bots, seat];
  const shown = call("give_to_bot_json", seat);
  if (hosting.seats.size) {
    remember();
  } else {
    // no device left: only the computer's seats are kept with the slot
    const bots = hosting.bots;
    stopHosting();
    localStorage.setItem(DEVICES_KEY(slot), JSON.stringify({ token: "", seats: [], bots }));
  }
  render(shown);
  saveSoon();
}

// how this slot's table sits (kept beside the save: a reloaded host shows new codes)
function remember() {
  localStorage.setItem(DEVICES_KEY(slot), JSON.stringify({ token: hosting.token, seats: [...hosting.seats.keys()], bots: hosting.bots }));
}

function sendScreen(seat, link) {
  if (!link || !link.open) return 0;
  const text = `{"type":"screen","screen":${web.guest_screen_json(seat)}}`;
  link.send(text);
  return text.length;
}

function broadcast() {
  if (!hosting || !web) return 0;
  let size = 0;
  for (const [seat, { link }] of hosting.seats) size += sendScreen(seat, link);
  return size;
}

// A guest's message: Python judges it; a refusal goes back to that guest only, in French.
function fromGuest(seat, data, link) {
  if (typeof data !== "string") {
    link.send({ type: "refused", seq: null, error: T.pairUnreadable });
    return;
  }
  const own = /^\{"type":"(here|resume|spare)"/.exec(data);
  if (own) {
    fromGuestLink(seat, own[1], data, link);
    return;
  }
  const prof = window.__gbProfile;
  const t0 = prof ? performance.now() : 0;
  const reply = JSON.parse(web.receive_json(seat, data));
  if (!reply.ok) {
    link.send({ type: "refused", seq: reply.seq, error: reply.error });
    return;
  }
  const t1 = prof ? performance.now() : 0;
  // the guests first (each waits for its screen), then this device's own
  const size = broadcast();
  const t2 = prof ? performance.now() : 0;
  hosting.sent = true;
  render(call("screen_json"));
  saveSoon();
  if (prof) (prof.remote ||= []).push({ seat, at: performance.timeOrigin + t0, receive: t1 - t0, screens: t2 - t1, size, render: performance.now() - t2, host: performance.now() - t0 });
}

// ------------------------------------------------------------------ a guest

function showJoin() {
  if (guest) { guest.link.shut(); guest.spare?.shut(); }
  guest = null;
  const input = h("textarea", { id: "gb-join-code", rows: 3, "data-testid": "pair-offer-input" });
  const say = h("p", { class: "gb-pair-status", "data-testid": "join-status", role: "status" });
  const submit = h("button", { type: "button", class: "md-button md-button--primary", "data-testid": "pair-offer-submit", text: T.joinSubmit,
    on: { click: () => joinWith(input.value, box, say) } });
  const box = h("section", { class: "gb-join", "aria-labelledby": "gb-join-title" },
    h("h2", { id: "gb-join-title", text: T.joinTitle }), h("p", { class: "gb-note", text: T.joinHelp }),
    h("label", { for: "gb-join-code", text: T.joinInput }), input,
    h("div", { class: "gb-row" }, submit, cameraButton((text) => { input.value = text; submit.click(); })), say);
  devicesBox.replaceChildren(box);
  input.focus();
}

async function joinWith(code, box, say) {
  const text = await decodeCode(code);
  let offer = null;
  try { offer = text === null ? null : JSON.parse(text); } catch (err) { offer = null; }
  if (!offer || typeof offer !== "object") { say.textContent = T.pairUnreadable; return; }
  if (offer.kind !== "offer" || typeof offer.sdp !== "string" || typeof offer.token !== "string"
      || typeof offer.game !== "string" || !Number.isInteger(offer.seat)) {
    say.textContent = T.pairNotOffer;
    return;
  }
  say.textContent = T.pairConnecting;
  if (guest) { guest.link.shut(); guest.spare?.shut(); }
  // pending: the last move sent, until the host says it took it
  const me = { link: null, spare: null, game: offer.game, token: offer.token, seat: offer.seat, seq: 0, name: "", pending: null };
  me.events = guestEvents(me, say);
  const link = await guestLink(offer, me.events);
  me.link = link;
  guest = me;
  for (const el of box.querySelectorAll(".gb-pair-answer")) el.remove();
  const shown = await pairCode({ class: "gb-pair-code gb-pair-answer", "data-testid": "pair-answer" },
    T.joinAnswer, link.answer);
  say.before(shown);
}

// A guest's connections, like the host's (seatEvents): the first one carries the game, a spare
// one negotiated through it takes over when it is lost, with no new scan.
function guestEvents(me, say) {
  return {
    open: (link) => { if (guest === me && link === me.link) say.textContent = T.pairConnected; },
    message: (data, link) => guest === me && fromHost(data, say, link),
    closed: (link) => guest === me && guestLost(me, link, say),
    failed: (link) => {
      if (guest !== me) return;
      if (link === me.link) say.textContent = T.pairFailed;
      else if (link === me.spare) me.spare = null;
    },
    unsteady: (link) => { if (guest === me && link === me.link) say.textContent = T.joinRetry; },
    steady: (link) => { if (guest === me && link === me.link) say.textContent = T.joinBack(me.name); },
  };
}

function guestLost(me, link, say) {
  if (link === me.spare) {
    me.spare = null;
    return;
  }
  if (link !== me.link) return;
  if (me.spare && me.spare.steady) {
    // the spare takes over; the host switches too and says hello on it
    me.link = me.spare;
    me.spare = null;
    say.textContent = T.joinRetry;
    me.link.send({ type: "resume" });
    return;
  }
  me.spare?.shut();
  status(T.joinLost);
  // the last screen stays in view, its choices dead until a new code is scanned
  for (const b of root.querySelectorAll("[data-choice]")) b.disabled = true;
  showJoin();
  devicesBox.querySelector('[data-testid="join-status"]').textContent = T.joinLost;
}

// the host's spare connection for this seat (its offer, as a code): the answer goes back
// through the connection in use
async function takeSpare(me, code) {
  const text = await decodeCode(code);
  let offer = null;
  try { offer = text === null ? null : JSON.parse(text); } catch (err) { offer = null; }
  if (!offer || offer.kind !== "offer" || typeof offer.sdp !== "string" || offer.game !== me.game
      || offer.token !== me.token || offer.seat !== me.seat || guest !== me) return;
  const spare = await guestLink(offer, me.events);
  if (guest !== me) { spare.shut(); return; }
  me.spare?.shut();
  me.spare = spare;
  me.link.send({ type: "spare", code: spare.answer });
}

function fromHost(data, say, link) {
  const got = performance.now();
  if (typeof data !== "string" || data.length > 4_000_000) return;
  let msg;
  try { msg = JSON.parse(data); } catch (err) { return; }
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "hello") {
    if (link === guest.spare) {
      // the host lost the connection in use first: its spare takes over
      const old = guest.link;
      guest.link = link;
      guest.spare = null;
      old.shut();
    } else if (link !== guest.link) {
      return;
    }
    const back = guest.name !== "";
    const taken = Number.isInteger(msg.seq) ? msg.seq : 0;
    guest.name = typeof msg.name === "string" ? msg.name : "";
    // the join box folds to one line: whom this device plays
    say.textContent = back ? T.joinBack(guest.name) : T.joinConnected(guest.name);
    devicesBox.replaceChildren(h("section", { class: "gb-join gb-joined" }, say));
    if (!view) root.replaceChildren();
    resumeBox.replaceChildren();
    link.send({ type: "here" });
    // a move sent on a connection that was lost before the host took it: sent again, once
    // (the host refuses a number it already took)
    const pending = guest.pending;
    if (pending && pending.seq > taken) {
      guest.seq = pending.seq;
      link.send(pending);
    } else {
      guest.pending = null;
      guest.seq = taken;
    }
  } else if (msg.type === "spare" && typeof msg.code === "string") {
    takeSpare(guest, msg.code);
  } else if (msg.type === "screen" && msg.screen && typeof msg.screen === "object") {
    const t0 = performance.now();
    render(msg.screen);
    if (window.__gbProfile) (window.__gbProfile.screens ||= []).push({ at: performance.timeOrigin + performance.now(), seq: guest.seq, render: performance.now() - t0, got: performance.timeOrigin + got, parse: t0 - got, size: data.length });
  } else if (msg.type === "refused" && typeof msg.error === "string") {
    if (guest.pending && msg.seq === guest.pending.seq) guest.pending = null;
    status(msg.error);
  }
}

function guestAct(action) {
  guest.seq += 1;
  const msg = { type: "act", game: guest.game, token: guest.token, seat: guest.seat, seq: guest.seq, action };
  if (window.__gbProfile) (window.__gbProfile.sent ||= []).push({ at: performance.timeOrigin + performance.now(), seq: guest.seq });
  guest.pending = msg;
  guest.link.send(msg);
}

// For a test (or a person with the browser's console): send a text as this guest's channel
// would. The host judges it like any other message.
window.gbGuestSend = (text) => guest && guest.link.send(String(text));
// A page that goes away (closed, reloaded) closes its connections: the other device hears it
// at once, instead of waiting UNSTEADY_MS for a device that may only be out of reach.
addEventListener("pagehide", () => {
  if (guest) { guest.link.shut(); guest.spare?.shut(); }
  if (hosting) for (const { link, spare } of hosting.seats.values()) { link?.shut(); spare?.shut(); }
});

// For a test: this guest's connection in use is lost (what a dropped Wi-Fi or a connection the
// phone's browser tore down amounts to), both pages staying open.
window.gbDropLink = () => guest && guest.link.close();
// the state of this guest's connections, to wait on
window.gbLinks = () => guest && { link: !!(guest.link && guest.link.open), spare: !!(guest.spare && guest.spare.steady) };
window.gbGuestMessage = (action, over = {}) => guest && ({ type: "act", game: guest.game, token: guest.token, seat: guest.seat, seq: guest.seq, action, ...over });

// The camera reads a QR code where the browser has one (BarcodeDetector, else jsQR).
function cameraButton(found) {
  if (!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)) return null;
  const video = h("video", { class: "gb-camera", playsinline: true, muted: true, hidden: true });
  let scan = null;
  const button = h("button", { type: "button", class: "md-button", "data-testid": "pair-scan", text: T.pairScan, on: { click: async () => {
    if (scan) { scan.stop(); return; }
    video.hidden = false;
    button.textContent = T.pairScanStop;
    try {
      scan = await scanCamera(video, ROOT);
      const text = await scan.found;
      if (text) found(text);
    } catch (err) {
      button.after(h("p", { class: "gb-note", text: T.pairScanFailed(err && err.message ? err.message : String(err)) }));
    }
    scan = null;
    video.hidden = true;
    button.textContent = T.pairScan;
  } } });
  return h("span", { class: "gb-camera-box" }, button, video);
}

// ------------------------------------------------------------------ drawing a screen
//
// A new screen patches the page rather than rebuilding it: every region whose data did not
// change keeps its nodes (nothing built again, no style or layout work for it), the journal
// only gains its new lines, and the choices are always drawn anew (each button holds its
// action). The page reads no layout while drawing (no forced synchronous layout).

let view = null;  // the regions of the game screen on the page (null: setup or hand-over shown)
let drawn = 0;  // screens drawn: the marker first in #gb-root holds the number of the last one
const MARK_ATTRIBUTES = new Set(["class", "hidden", "data-screen"]);

// Makes `old` look like `fresh` (same tag) by changing only what differs: attributes, texts,
// and children walked in order; a child of another kind is replaced. Nothing unchanged is
// touched, so the browser styles and lays out again only what changed. (Only for nodes
// without listeners: widgets, texts, the recap.)
function morph(old, fresh) {
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  const kids = old.childNodes, news = [...fresh.childNodes];
  news.forEach((n, i) => {
    const o = kids[i];
    if (!o) old.append(n);
    else if (o.nodeType === Node.TEXT_NODE && n.nodeType === Node.TEXT_NODE) {
      if (o.data !== n.data) o.data = n.data;
    } else if (o.nodeType === Node.ELEMENT_NODE && o.nodeName === n.nodeName) morph(o, n);
    else o.replaceWith(n);
  });
  while (kids.length > news.length) old.lastChild.remove();
}

// One node per item ([id, key, build]) in `box`, in order. The node already there for the same
// id is kept as it is when its key (its data) is the same, and morphed into the new one when
// it changed; the others are built; anything else in `box` goes.
function patch(box, items) {
  const old = new Map();
  for (const el of box.children) {
    if (el.gbId === undefined) continue;
    if (!old.has(el.gbId)) old.set(el.gbId, []);
    old.get(el.gbId).push(el);
  }
  const nodes = [];
  for (const [id, key, build] of items) {
    let el = old.get(id)?.shift();
    if (!el || el.gbKey !== key) {
      const fresh = build();
      if (!fresh) continue;
      if (el && el.nodeName === fresh.nodeName && el.gbMorph) morph(el, fresh);
      else el = fresh;
      el.gbId = id;
      el.gbKey = key;
      el.gbMorph = true;
    }
    nodes.push(el);
  }
  let at = box.firstChild;
  for (const el of nodes) {
    if (at === el) at = at.nextSibling;
    else box.insertBefore(el, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}

// a widget is known by its kind and its rank among the widgets of that kind (its title may
// change: it is then morphed in place, and nothing is inserted), and its data is its key
function widgetItems(s, name) {
  const seen = {};
  return (s.widgets || [])
    .filter((w) => (name === "last" ? w.last : !w.last && (w.area || "board") === name))
    .map((w) => {
      seen[w.type] = (seen[w.type] || 0) + 1;
      return [`${w.type}:${seen[w.type]}`, JSON.stringify(w), () => draw(w)];
    });
}
const text = (id, cls, value) => (value ? [[id, value, () => h("p", { class: cls, text: value })]] : []);

// The play table, the same for every game (the way Board Game Arena players know it):
//
//   .gb-table
//     .gb-side    the turn bar [data-testid="turn"] (whose turn, which phase, who holds the
//                 device; the journal one tap away), then the dock: the last step
//                 [data-testid="last-step"], the choices, the seat's own things, the tools
//     .gb-stage   the story block (prompt, the game's main widgets), then the board
//
// On a desktop the side is a column beside the stage that stays in view (sticky), the dock
// scrolling inside it; on a phone the turn bar sticks under the site's header and the dock is
// a bottom sheet. The side comes first in the document: a screen reader meets the turn, the
// last step and the choices before the board.
function skeleton() {
  const where = h("p", { class: "gb-where" });
  const meta = h("p", { class: "gb-turn-meta" });
  const log = h("ol", { class: "gb-log", "aria-label": T.log, tabindex: "0" });
  const journal = h("details", { class: "gb-journal" }, h("summary", { text: T.log }), log);
  // opened, the journal shows its last lines
  journal.addEventListener("toggle", () => { if (journal.open) log.scrollTop = log.scrollHeight; });
  const turn = h("section", { class: "gb-turn", "data-testid": "turn", "aria-label": T.turn },
    h("div", { class: "gb-turn-text" }, where, meta), journal);
  const lastList = h("ul", { class: "gb-last-lines", id: "gb-last-lines" });
  const older = h("button", { type: "button", class: "gb-last-more", "aria-controls": "gb-last-lines gb-last-widgets", "aria-expanded": "false",
    on: { click: () => showOlder(!last.classList.contains("gb-last-all")) } });
  const lastWidgets = h("div", { class: "gb-last-widgets", id: "gb-last-widgets" });
  const last = h("section", { class: "gb-last gb-recap", "data-testid": "last-step", "aria-labelledby": "gb-last-title" },
    h("div", { class: "gb-last-head" }, h("h2", { id: "gb-last-title", text: T.recap }), older), lastList, lastWidgets);
  const showOlder = (all) => {
    last.classList.toggle("gb-last-all", all);
    older.setAttribute("aria-expanded", String(all));
    older.textContent = all ? T.lastFewer : T.lastAll(last.gbCount || 0);
  };
  const choices = h("div", { class: "gb-choices" });
  const statusLine = h("p", { id: "gb-status", class: "gb-status", role: "status", "aria-live": "polite" });
  const self = h("section", { class: "gb-self", "aria-label": T.yourThings });
  const undo = h("button", { type: "button", class: "md-button", text: T.undo,
    on: { click: () => { render(call("undo_json")); saveSoon(); } } });
  const tools = h("div", { class: "gb-row gb-tools" }, undo,
    h("button", { type: "button", class: "md-button", text: T.menu, on: { click: showSetup } }),
    h("button", { type: "button", class: "md-button", "data-testid": "devices-host", text: T.devicesHost, on: { click: () => devicesSetup() } }));
  const saves = saveTools();
  tools.hidden = saves.hidden = !!guest;
  // on a phone the sheet can be lowered to its handle, to look at the table, and raised again
  // (one tap; the turn bar above stays): the handle says which, and its state (aria-expanded)
  const body = h("div", { class: "gb-dock-body", id: "gb-dock-body" }, last, choices, statusLine, self, tools, saves);
  const handle = h("button", { type: "button", class: "gb-sheet-handle", "aria-controls": "gb-dock-body",
    on: { click: () => {
      const low = !dock.classList.contains("gb-sheet-low");
      lowerSheet(low);
      const first = !low && view ? firstChoice(view) : null;  // raised: the keyboard on the first choice
      if (first) first.focus({ preventScroll: true });
    } } },
  h("span", { class: "gb-sheet-grip", "aria-hidden": "true" }), h("span", { class: "gb-sheet-label" }));
  const dock = h("section", { class: "gb-dock", "aria-label": T.choices }, handle, body);
  const lowerSheet = (low) => {
    dock.classList.toggle("gb-sheet-low", low);
    table.classList.toggle("gb-table-low", low);
    handle.setAttribute("aria-expanded", String(!low));
    handle.lastChild.textContent = low ? T.sheetMore : T.sheetLess;
  };
  const side = h("div", { class: "gb-side" }, turn, dock);
  const board = h("section", { class: "gb-board", "aria-label": T.board });
  const stage = h("div", { class: "gb-stage" }, story, board);
  const table = h("div", { class: "gb-table gb-layout" }, side, stage);
  lowerSheet(false);
  const mark = h("span", { class: "gb-screen", hidden: true });
  root.replaceChildren(mark, table);
  return { mark, table, side, turn, where, meta, dock, handle, lowerSheet, last, lastList, lastWidgets, older, showOlder, choices,
    statusLine, self, stage, board, tools, undo, log, journal, lines: [], first: 1 };
}

// the story block goes back above #gb-root, where the page has it (setup, hand-over)
function parkStory() {
  if (story.nextElementSibling !== root) root.before(story);
}

function drawLog(s) {
  const lines = (s.log || []).slice(-120);
  const first = Math.max(1, (s.log_size || 0) - lines.length + 1);
  const { log, lines: had, first: hadFirst } = view;
  const end = first + lines.length, hadEnd = hadFirst + had.length;
  // the journal goes on: what both show is the same, the new one only drops old lines and
  // adds new ones; otherwise (undo, another seat's journal) it is drawn again
  let same = had.length > 0 && hadFirst <= first && hadEnd <= end && first < hadEnd;
  for (let i = first; same && i < hadEnd; i++) same = had[i - hadFirst] === lines[i - first];
  if (same) {
    for (let i = hadFirst; i < first; i++) log.firstElementChild.remove();
    log.append(...lines.slice(hadEnd - first).map((line) => h("li", { text: line })));
  } else {
    log.replaceChildren(...lines.map((line) => h("li", { text: line })));
  }
  view.lines = lines;
  view.first = first;
  if (log.start !== first) log.start = first;
  // room for the widest number, so that none is clipped
  const pad = `${String(end).length + 2.5}ch`;
  if (log.style.paddingLeft !== pad) log.style.paddingLeft = pad;
  if (view.journal.open && end !== hadEnd) requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
}

function choicesOf(s) {
  const waiting = s.waiting ? h("p", { class: "gb-waiting", "data-testid": "waiting", text: s.waiting }) : null;
  if (!(s.over && s.outcome)) return [waiting, drawChoices(s.groups || [], act, ask)].filter(Boolean);
  // the end: what it was, then what to do next (first, in reach), then the result in full
  const out = [h("p", { class: "gb-over", text: s.outcome.summary || T.gameOver })];
  const row = h("div", { class: "gb-row gb-over-next" });
  if (s.sequel && !guest) {
    row.append(h("button", { type: "button", class: "md-button md-button--primary", "data-choice": "next-game",
      text: T.nextGame, on: { click: () => { render(call("next_json")); saveSoon(); } } }));
  }
  for (const link of guest ? [] : s.outcome.links || []) {
    row.append(h("a", { class: "md-button", href: new URL(`play/${link.game}/`, ROOT).href, text: T.playLink(link.label) }));
  }
  // (a guest's next game is the host's to start)
  if (!guest) row.append(h("button", { type: "button", class: "md-button", "data-choice": "new", text: T.newGame, on: { click: showSetup } }));
  if (row.firstChild) out.push(row);
  const ranked = (s.widgets || []).some((w) => w.type === "ranking");
  if (s.outcome.ranking.length && !ranked) {
    out.push(draw({ type: "ranking", title: s.outcome.why || T.gameOver, rows: s.outcome.ranking }));
  }
  for (const w of s.outcome.widgets || []) out.push(draw(w));
  return out.filter(Boolean);
}

// data-private="<seat>" on what shows one seat's private information (a contract)
const privateTo = (seat) => (Number.isInteger(seat) ? String(seat) : null);

// lines of the last step in view, fewer on a phone (the others one tap away)
const PHONE = window.matchMedia("(max-width: 52em)");
const lastShown = () => (PHONE.matches ? 3 : 4);

// What just happened: a widget of the game marked `last` (a summary of the round just played,
// drawn in the last-step block), else the session's recap; when the game's own widgets tell it
// (recap off), the journal's last lines; at the very start, that the game begins.
function lastStep(s) {
  const mine = (s.widgets || []).filter((w) => w.last);
  if (mine.length) return mine.flatMap((w) => [w.title, ...(w.items || []), w.text].filter(Boolean));
  if ((s.recap || []).length) return s.recap;
  const log = s.log || [];
  return log.length ? log.slice(-3) : [T.gameBegins];
}

// The turn bar: where the game stands, the phase when the status does not already say it,
// and, when one seat plays, who holds the device.
function turnMeta(s) {
  const bits = [];
  const status = (s.status || "").toLowerCase();
  if (s.phase && !status.includes(String(s.phase).toLowerCase())) bits.push(s.phase);
  // (one person at the table, the others the computer's: nobody else may hold the device)
  const shared = s.people === undefined || s.people > 1 || !!guest;
  const holder = s.holder || (shared && s.turn_kind === "each" && !s.over ? s.seat_name : null);
  if (holder) bits.push(T.holder(holder));
  if (s.turn_kind === "public" && !s.over) bits.push(T.everyone);
  return bits.join(" · ");
}

const setText = (el, value) => { if (el.textContent !== value) el.textContent = value; };

// A button a player can see and press (not inside a folded group, not disabled).
const pressable = (el) => !el.disabled && !el.closest("details:not([open])") && el.getClientRects().length > 0;

function firstChoice(v) {
  return [...v.choices.querySelectorAll("[data-choice]")].find(pressable) || null;
}

// After a screen is drawn: the dock back to its top, the newest lines of the last step in view,
// the table's top under the site's header (the stage starts with the new story), and the
// keyboard on the first choice. One layout, read once the screen is whole.
function settle(v, s) {
  v.dock.scrollTop = 0;
  const header = document.querySelector(".md-header");
  const top = header ? header.getBoundingClientRect().bottom : 0;
  let by = v.table.getBoundingClientRect().top - top;
  // a bottom sheet (phone): a story taller than the room left above the sheet ends right above
  // it, as the story always ended right above the choices (not the result of a game: it reads
  // from its top)
  if (PHONE.matches && !s.over) {
    const sheet = v.dock.getBoundingClientRect().top;
    const tale = story.getBoundingClientRect();
    if (tale.height > sheet - top - v.turn.offsetHeight) by = tale.bottom - sheet;
  }
  if (Math.abs(by) > 1) window.scrollBy({ top: by, behavior: "instant" });
  const first = firstChoice(v);
  if (first && !v.choices.querySelector(".gb-confirm")) first.focus({ preventScroll: true });
}

function render(s) {
  // Focus in what is drawn anew (a choice, a group's heading) leaves it now, while the page is
  // still laid out: removed later, it would make the browser lay out the half-patched page.
  const focused = document.activeElement;
  if (view && focused && focused !== document.body && view.choices.contains(focused)) focused.blur();
  screen = s;
  announce(s);
  if (resumeBox.firstChild) resumeBox.replaceChildren();
  // every guest gets its new screen (a hand-over here changes nothing there)
  if (hosting && hosting.sent) hosting.sent = false;
  else if (hosting) queueMicrotask(broadcast);
  if (s.handoff) {
    // the neutral screen: nothing of the game stays in the page (the session sent none of it)
    view = null;
    parkStory();
    story.replaceChildren(h("p", { class: "gb-where", text: s.status }));
    const go = h("button", {
      type: "button", class: "md-button md-button--primary", "data-choice": "handoff",
      "data-testid": "handover-ready",
      text: T.iAm(s.handoff.name), on: { click: () => render(call("handed_json")) },
    });
    root.replaceChildren(h("section", { class: "gb-handoff", "data-testid": "handover", "data-seat": String(s.handoff.seat), "aria-label": T.handoffTitle(s.handoff.name) },
      h("h2", { text: T.handoffTitle(s.handoff.name) }), h("p", { text: T.handoffText }), go));
    go.focus();
    return;
  }
  if (!view) view = skeleton();
  const v = view;
  // a new screen, for whoever waits for one: the marker first in #gb-root takes the screen's
  // number and loses any attribute set on it meanwhile (a test marks the screen it saw there).
  // It stays the same node: a new first child would make the browser restyle the whole game.
  for (const { name } of [...v.mark.attributes]) if (!MARK_ATTRIBUTES.has(name)) v.mark.removeAttribute(name);
  v.mark.dataset.screen = String(++drawn);
  setText(v.where, s.status || "");
  const meta = turnMeta(s);
  setText(v.meta, meta);
  v.meta.hidden = !meta;
  patch(story, [
    ...text("prompt", "gb-prompt", s.prompt),
    ...widgetItems(s, "main"),
    ...text("notice", "gb-notice", s.notice),
  ]);
  const games = widgetItems(s, "last");
  patch(v.lastWidgets, games);
  v.last.classList.toggle("gb-last-game", games.length > 0);
  const lines = games.length ? [] : lastStep(s);
  const said = JSON.stringify(lines);
  if (v.lastList.gbKey !== said) {
    // the last lines show; the earlier ones of a long step are one tap away
    v.lastList.replaceChildren(...lines.map((line, i) =>
      h("li", { class: i < lines.length - lastShown() ? "gb-last-older" : null, text: line })));
    v.lastList.gbKey = said;
    v.last.gbKey = null;
    v.last.gbCount = lines.length;
    v.older.hidden = lines.length <= lastShown();
    v.showOlder(false);
  }
  if (games.length) {
    // a game's own summary (« Dernier tour »): on a phone its first lines, the most telling,
    // and the others one tap away, so that the choices below it stay in view
    const items = Math.max(0, ...[...v.lastWidgets.querySelectorAll(".gb-items")].map((ul) => ul.children.length));
    const key = `${items}:${games.map((g) => g[1]).join("\n")}`;
    if (v.last.gbKey !== key) {
      v.last.gbKey = key;
      v.last.gbCount = items;
      v.older.hidden = !PHONE.matches || items <= lastShown();
      v.showOlder(false);
    }
  }
  // the last step may hold lines only the viewer may read
  const lastTo = games.length ? null : privateTo(Number.isInteger(s.recap_private) ? s.recap_private : s.log_private);
  if (lastTo === null) v.last.removeAttribute("data-private");
  else v.last.setAttribute("data-private", lastTo);
  v.choices.replaceChildren(...choicesOf(s));
  if (v.statusLine.firstChild) v.statusLine.textContent = "";
  patch(v.self, widgetItems(s, "self"));
  v.self.hidden = !v.self.firstChild;
  patch(v.board, widgetItems(s, "board"));
  v.board.hidden = !v.board.firstChild;
  v.undo.disabled = !s.can_undo;
  drawLog(s);
  const journalTo = privateTo(s.log_private);
  if (journalTo === null) v.journal.removeAttribute("data-private");
  else v.journal.setAttribute("data-private", journalTo);
  settle(v, s);
}

// The second click of a double click (or tap) presses nothing: after « C'est moi » or a move,
// the button now under the pointer is another one, and nothing is applied twice.
root.addEventListener("click", (e) => {
  if (e.detail > 1 && e.target.closest && e.target.closest("[data-choice]")) {
    e.stopImmediatePropagation();
    e.preventDefault();
  }
}, true);

// Focus goes to the first choice after every move; its ring shows to keyboard users only (after
// a click or a tap it would look preselected).
document.addEventListener("pointerdown", () => { app.dataset.input = "pointer"; }, true);
document.addEventListener("keydown", () => { app.dataset.input = "keys"; }, true);

// Keyboard: the number written on a button presses it, when the button can be seen and pressed.
// A number of a folded group opens that group and puts the keyboard on its button: opening is
// a step of its own, and nothing is sent that the player has not seen.
document.addEventListener("keydown", (e) => {
  if (!screen || e.target.matches("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!/^[1-9]$/.test(e.key) || e.repeat) return;
  const button = root.querySelector(`.gb-choices [data-key="${e.key}"]`);
  if (!button || button.disabled) return;
  e.preventDefault();
  if (view && view.dock.classList.contains("gb-sheet-low")) {
    // the sheet is lowered: the key raises it and puts the keyboard on its button (seeing the
    // choice again is a step of its own)
    view.lowerSheet(false);
    const folded = button.closest("details:not([open])");
    if (folded) folded.open = true;
    button.focus({ preventScroll: true });
    return;
  }
  if (pressable(button)) {
    button.click();
    return;
  }
  const folded = button.closest("details:not([open])");
  if (folded) {
    folded.open = true;
    button.focus({ preventScroll: false });
  }
});

boot();
