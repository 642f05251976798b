// Starting Python for a play page: Pyodide, then the engine's archive for this game, then
// `engine.web` imported. A later visit starts from a memory snapshot of that interpreter (the
// runtime booted, the engine and the game's package imported) instead of booting it again:
//
// - the first visit boots normally with Pyodide's `_makeSnapshot` option and, once the engine is
//   imported (before any game object exists), copies the interpreter's memory
//   (`makeMemorySnapshot`); the copy is written to Cache Storage when the page is idle;
// - the cache is named after the site's version (`gbsnap-<manifest.version>`: the manifest's
//   digest covers the runtime, the standard library, the engine archives and the bundles), one
//   entry per game, so a snapshot is only ever restored into the very files that made it; this
//   site's entries in caches of other versions are deleted (only this site's: its keys are
//   under the site's root, and another site of the same origin, `/a/` beside `/b/`, keeps its
//   own);
// - a snapshot is checked before use (its recorded length, then a SHA-256 of the site's version
//   and its bytes, recorded when it was stored; Pyodide checks its magic number and its build
//   id) and any failure while restoring it (or importing the engine from it) deletes it and
//   boots normally: a stale or damaged snapshot is never trusted.
//
// The start begins as early as it can: the play page's head (overrides/game.html) reads the
// manifest and begins reading the snapshot in a few inline lines (`window.gbEarly`), then loads
// this module as an async script, which starts Python at once (`startPython`, once per page):
// Pyodide's module, the engine archive, the bundle and the wasm (compiled here, `compileWasm`)
// are asked for while the rest of the page (the theme, play.js and its widgets) still loads;
// play.js only awaits the same `startPython()`. Pyodide gets a zero-filled memory of the
// snapshot's length at once and restores it once it is filled, so reading the snapshot from
// Cache Storage overlaps with instantiating and linking the runtime (bench/README.md).
//
// The engine's archive is not unpacked: it is written as one file and put on `sys.path`
// (zipimport), so a start from the snapshot only writes that file back (the snapshot remembers
// the path and the archive's directory; the version in the cache name guarantees the same bytes).
//
// `#gb-app`'s `data-boot` says how the page started ("snapshot" or "normal"), and
// `data-snapshot` becomes "saved" once this visit's snapshot is stored (the tests and
// the benchmark read them).

import { packedRuntime } from "./unpack.js";

const PREFIX = "gbsnap-";
// How this file lays the engine out (a snapshot made by another layout is not restored: its
// interpreter would look for the engine's modules where they no longer are)
const FORMAT = "engine-zip,packed-3";

const canCache = () => typeof caches !== "undefined" && window.isSecureContext;

async function forget(cacheName, key) {
  try {
    await (await caches.open(cacheName)).delete(key);
  } catch (err) {
    /* nothing stored, nothing to forget */
  }
}

// This site's snapshots in the caches of its other versions (an update makes them useless):
// the entries under this site's root only; a cache left empty is deleted.
export async function dropOtherVersions(cacheName, root, store = caches) {
  const mine = new URL("__snapshot/", root).href;
  for (const name of await store.keys()) {
    if (!name.startsWith(PREFIX) || name === cacheName) continue;
    const cache = await store.open(name);
    const keys = await cache.keys();
    const old = keys.filter((r) => r.url.startsWith(mine));
    for (const r of old) await cache.delete(r);
    if (old.length && old.length === keys.length) await store.delete(name);
  }
}

// What a stored snapshot's bytes must hash to: SHA-256 of the site's version, a zero byte and
// the stored form, in hex (a snapshot is bound to the version that made it).
export async function digest(version, packed) {
  const head = new TextEncoder().encode(`${version}\0`);
  const all = new Uint8Array(head.length + packed.length);
  all.set(head);
  all.set(packed, head.length);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

// performance marks "gb:<step>" (the benchmark reads them)
const mark = (step) => performance.mark(`gb:${step}`);

const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 500));

// ------------------------------------------------------------------ the snapshot's form

// Most of an interpreter's memory is pages never written (61 % of one game's 31 MB): the stored
// form keeps only the runs of pages that hold a non-zero byte, so reading it back from Cache
// Storage (the slowest step of a warm start) reads 12 MB instead of 31. Layout (little-endian
// u32): magic, the snapshot's length, the number of runs, 0; then each run's offset and length;
// then the runs' bytes one after the other.
const PACKED = 0x315a4247;  // "GBZ1"
const PAGE = 4096;

export function pack(snapshot) {
  if (snapshot.byteOffset % 4) snapshot = snapshot.slice();
  const words = new Uint32Array(snapshot.buffer, snapshot.byteOffset, snapshot.length >>> 2);
  const runs = [];
  let from = -1;
  for (let at = 0; at < snapshot.length; at += PAGE) {
    const end = Math.min(at + PAGE, snapshot.length);
    let used = false;
    for (let w = at >>> 2; w < end >>> 2; w++) if (words[w] !== 0) { used = true; break; }
    for (let b = end & ~3; !used && b < end; b++) used = snapshot[b] !== 0;  // an odd tail
    if (used && from < 0) from = at;
    if (!used && from >= 0) { runs.push([from, at - from]); from = -1; }
  }
  if (from >= 0) runs.push([from, snapshot.length - from]);
  const head = 16 + 8 * runs.length;
  const size = runs.reduce((n, [, length]) => n + length, head);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, PACKED, true);
  view.setUint32(4, snapshot.length, true);
  view.setUint32(8, runs.length, true);
  let data = head;
  runs.forEach(([offset, length], i) => {
    view.setUint32(16 + 8 * i, offset, true);
    view.setUint32(20 + 8 * i, length, true);
    out.set(snapshot.subarray(offset, offset + length), data);
    data += length;
  });
  return out;
}

// The snapshot back from its stored form, into `into` (a zero-filled array of the snapshot's
// length) or a new array; throws on anything that does not add up, before writing anything.
export function unpack(packed, into = null) {
  const bad = (why) => new Error(`snapshot: ${why}`);
  if (packed.length < 16) throw bad("too short");
  const view = new DataView(packed.buffer, packed.byteOffset, packed.length);
  if (view.getUint32(0, true) !== PACKED) throw bad("not a packed snapshot");
  const length = view.getUint32(4, true);
  const count = view.getUint32(8, true);
  const head = 16 + 8 * count;
  if (length > 2 ** 31 || count > length / PAGE + 1 || head > packed.length) throw bad("header");
  if (into && into.length !== length) throw bad("size");
  let data = head;
  let last = 0;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + 8 * i, true);
    const size = view.getUint32(20 + 8 * i, true);
    if (offset < last || offset + size > length || data + size > packed.length) throw bad("runs");
    data += size;
    last = offset + size;
  }
  if (data !== packed.length) throw bad("length");
  const out = into || new Uint8Array(length);
  data = head;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + 8 * i, true);
    const size = view.getUint32(20 + 8 * i, true);
    out.set(packed.subarray(data, data + size), offset);
    data += size;
  }
  return out;
}

// ------------------------------------------------------------------ the wasm

// The interpreter's wasm is fetched and compiled here, from the start of the page, not when
// Pyodide asks for it: compiling 9.6 MB then overlaps with reading the snapshot (and, on a
// first visit, with the download) instead of following it. Pyodide gets the compiled module
// through its usual calls, for the time of `loadPyodide` only (`withWasm`): its
// `fetch(pyodide.asm.wasm)` answered with this fetch's response (so the file is not asked for
// twice) and its `WebAssembly.instantiateStreaming` with an instance of this module.
export function compileWasm(url, fetchFn = globalThis.fetch, after = null) {
  const start = after ? after.then(() => {}, () => {}) : Promise.resolve();
  const module = start.then(() => WebAssembly.compileStreaming(fetchFn(url))).catch(async () => {
    // a host that does not say application/wasm: compiled from the bytes
    const again = await fetchFn(url);
    if (!again.ok) throw new Error(`${url}: HTTP ${again.status}`);
    return WebAssembly.compile(await again.arrayBuffer());
  });
  module.then(() => mark("wasm-compiled"), () => {});
  return { url, module, fetchFn };
}

// Whether a runtime file can be fetched under its own name: not when the site ships it
// compressed (`manifest.packed`) and no service worker holds it decoded; Pyodide then gets it
// the way the packed runtime provides, not from here.
function shippedAsIs(manifest, name) {
  const packed = manifest.packed && manifest.packed[manifest.pyodide + name];
  return !packed || Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
}

// Runs `run` (a loadPyodide) with the wasm of `compileWasm`: Pyodide's fetch of it gets a
// stand-in response (the bytes were already read by the compilation) and its streaming
// instantiation of that stand-in an instance of the compiled module. If the module could not
// be had, Pyodide's instantiation fetches and compiles the file as it would have.
async function withWasm(wasm, run) {
  if (!wasm) return run();
  const realFetch = globalThis.fetch;
  const realStreaming = WebAssembly.instantiateStreaming;
  const standIn = new Response(null, { headers: { "content-type": "application/wasm" } });
  const ours = (what) => String(what instanceof Request ? what.url : what) === wasm.url;
  globalThis.fetch = function (what, ...rest) {
    return ours(what) ? Promise.resolve(standIn) : realFetch.call(this, what, ...rest);
  };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    if (response !== standIn) return realStreaming.call(WebAssembly, response, imports);
    let module;
    try {
      module = await wasm.module;
    } catch (err) {
      return realStreaming.call(WebAssembly, realFetch.call(globalThis, wasm.url), imports);
    }
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    return await run();
  } finally {
    globalThis.fetch = realFetch;
    WebAssembly.instantiateStreaming = realStreaming;
  }
}

// ------------------------------------------------------------------ the early start

// A snapshot stored for this version and game: `null`, or `{ bytes }` where `bytes` is a promise
// of its contents (checked against the length recorded beside it) being read.
// A snapshot stored for this version and game: `null`, or `{ size, packed }`: the snapshot's
// length (recorded beside it) and a promise of its stored form being read (checked against
// the length recorded too).
async function lookup(cacheName, key, begun, version) {
  try {
    const hit = begun ? await begun : await caches.match(key, { cacheName });  // (opens no cache)
    if (!hit) return null;
    if (hit.headers.get("x-snapshot-format") !== FORMAT) throw new Error("snapshot format");
    const length = hit.headers.get("x-snapshot-length");
    const size = Number(hit.headers.get("x-snapshot-memory"));
    const expected = hit.headers.get("x-snapshot-digest");
    if (!Number.isSafeInteger(size) || size <= 0 || size > 2 ** 31) throw new Error("snapshot size");
    if (!/^[0-9a-f]{64}$/.test(expected || "")) throw new Error("snapshot digest");
    const packed = (begun ? hit.body : hit.arrayBuffer()).then(async (buffer) => {
      if (String(buffer.byteLength) !== length) throw new Error("snapshot length");
      const bytes = new Uint8Array(buffer);
      if ((await digest(version, bytes)) !== expected) throw new Error("snapshot digest");
      mark("snapshot-read");
      return bytes;
    });
    packed.catch(() => {});  // a failure is handled where the bytes are used
    return { size, packed };
  } catch (err) {
    await forget(cacheName, key);
    return null;
  }
}

// What the play page's head began before this module arrived (`window.gbEarly`: the manifest
// and the snapshot's response, its body being read), when it is for this game and root.
function begunInHead(root, game) {
  const e = typeof window !== "undefined" ? window.gbEarly : null;
  return e && e.game === game && e.root === root ? e : null;
}

let early = null;

/**
 * Starts everything a play page's Python needs, at once and once: the manifest, then (in
 * parallel) the stored snapshot's lookup, Pyodide's module, the engine archive and the bundle.
 * Returns promises: `{ manifest, snapshot, loader, engine, bundle, cacheName, key, version }`.
 */
export function prefetch({ root, game }) {
  if (early) return early;
  mark("prefetch");
  const head = begunInHead(root, game);
  const manifest = head ? head.manifest : fetch(new URL("manifest.json", root)).then((r) => r.json());
  const ok = /^[a-z_][a-z0-9_]*$/.test(game);
  const files = manifest.then((m) => {
    const cacheName = `${PREFIX}${m.version}`;
    const key = new URL(`__snapshot/${game}`, root).href;
    const snapshots = canCache() && ok && m.version;
    const snapshot = snapshots ? lookup(cacheName, key, head && head.snapshot, m.version) : Promise.resolve(null);
    // the engine's core and this game only (manifest.engine: the whole engine, older builds)
    const engineURL = new URL((m.engines && m.engines[game]) || m.engine, root);
    return {
      snapshots,
      cacheName,
      key,
      version: m.version,
      snapshot,
      // asked for once the snapshot is found (its lookup is not held up behind 9.6 MB)
      wasm: shippedAsIs(m, "pyodide.asm.wasm")
        ? compileWasm(new URL(m.pyodide + "pyodide.asm.wasm", root).href, globalThis.fetch, snapshot)
        : null,
      // the runtime's files shipped compressed, when no service worker holds them decoded:
      // their download and decoding start now (unpack.js)
      runtime: packedRuntime({ manifest: m, root }),
      loader: import(new URL(m.pyodide + "pyodide.mjs", root).href),
      engine: fetch(engineURL).then((r) => r.arrayBuffer()),
      bundle: ok && m.bundles && m.bundles[game]
        ? fetch(new URL(m.bundles[game], root)).then((r) => r.text())
        : Promise.reject(new Error(`no bundle for ${game}`)),
    };
  });
  early = { manifest, files };
  // nobody may be waiting yet: a failure is reported where the promise is used
  manifest.catch(() => {});
  files.then((f) => [f.loader, f.engine, f.bundle, f.wasm && f.wasm.module].forEach((p) => p && p.catch(() => {})), () => {});
  return early;
}


// ------------------------------------------------------------------ the start

const ENGINE_ZIP = "/home/pyodide/engine.zip";

// The engine archive as one file on sys.path (zipimport reads it when a module is imported).
function install(pyodide, bytes) {
  pyodide.FS.writeFile(ENGINE_ZIP, new Uint8Array(bytes));
}

// Says on the play page's block how the start went (`data-boot`, `data-snapshot`), once the
// block is in the document (this module may run before the page's body is parsed).
function tell(key, value) {
  const put = () => {
    const app = document.getElementById("gb-app");
    if (app) app.dataset[key] = value;
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", put, { once: true });
  else put();
}

let started = null;

/**
 * Returns (a promise of) the game's `engine.web.WebSession` (a PyProxy) in a running
 * interpreter, made with the game's bundle; started once per page, whoever asks first. `game`
 * is checked to be an identifier before it reaches Python.
 */
export function startPython({ root, game }) {
  if (!started) started = boot({ root, game });
  return started;
}

async function boot({ root, game }) {
  mark("start");
  const { manifest, files } = prefetch({ root, game });
  const { snapshots, cacheName, key, version, snapshot, loader, engine, bundle, wasm, runtime } = await files;
  // the runtime's files shipped compressed (unpack.js) are decoded for Pyodide's own requests
  const loadPyodide = runtime.wrap((await loader).loadPyodide);
  const options = {
    indexURL: new URL((await manifest).pyodide, root).href,
    packages: [],
    stdout: () => {},
    stderr: (t) => console.warn(t),
  };

  const found = snapshots ? await snapshot : null;
  mark("snapshot-found");
  if (found) {
    try {
      // Pyodide sizes its memory from the snapshot's length and restores it only once its
      // runtime is ready (instantiated, linked, its files in place), after the `fsInit` step
      // it waits for: so it gets a zero-filled array of the right length at once, filled
      // (`unpack`) while it gets ready; what cannot be filled is left zero, which Pyodide
      // refuses (no magic number) and the page boots normally.
      const memory = new Uint8Array(found.size);
      const filled = found.packed.then((packed) => {
        unpack(packed, memory);
        mark("snapshot-unpacked");
      }).catch((err) => console.warn("gamebook: snapshot not read", err));
      const fsInit = () => filled;
      const restore = { ...options, _loadSnapshot: memory, fsInit };
      const pyodide = await withWasm(wasm, () => loadPyodide(restore));
      mark("pyodide");
      install(pyodide, await engine);  // the same bytes as when the snapshot was made
      // a snapshot is every visit's same memory: Python's own generator gets fresh entropy
      // (the games draw from their seeded generators only; this is for anything else)
      pyodide.runPython("import random\nrandom.seed()");
      const session = pyodide.globals.get(SESSION);
      if (!session) throw new Error("no session in the snapshot");
      mark("engine");
      tell("boot", "snapshot");
      return session;
    } catch (err) {
      console.warn("gamebook: snapshot not used", err);
      await forget(cacheName, key);
    }
  }

  // (after a failed restore too: a compiled module can make any number of instances)
  const pyodide = await withWasm(wasm, () => loadPyodide({ ...options, _makeSnapshot: Boolean(snapshots) }));
  mark("pyodide");
  install(pyodide, await engine);
  pyodide.globals.set("_gb_bundle", await bundle);
  pyodide.runPython(
    `import sys\nif ${JSON.stringify(ENGINE_ZIP)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_ZIP)})\n` +
      `import engine.web\n${SESSION} = engine.web.WebSession(${JSON.stringify(game)}, _gb_bundle)\n` +
      "del _gb_bundle\n",
  );
  mark("engine");
  if (snapshots) keep(pyodide, cacheName, key, { root, version });
  tell("boot", "normal");
  return pyodide.globals.get(SESSION);
}

// The session lives in `__main__` under this name, so that a snapshot holds it ready: the
// game made from the bundle, no game in progress.
const SESSION = "_gb_session";

// This visit's snapshot, copied now (the session made, before any game is started) and
// stored when idle.
function keep(pyodide, cacheName, key, { root, version }) {
  let snapshot = null;
  try {
    snapshot = pyodide.makeMemorySnapshot();
  } catch (err) {
    console.warn("gamebook: no snapshot", err);
  }
  mark("snapshot-made");
  if (!snapshot) return;
  idle(async () => {
    try {
      await dropOtherVersions(cacheName, root);
      const size = snapshot.length;
      const packed = pack(snapshot);
      snapshot = null;
      const headers = {
        "content-type": "application/octet-stream",
        "x-snapshot-length": String(packed.length),
        "x-snapshot-memory": String(size),
        "x-snapshot-format": FORMAT,
        "x-snapshot-digest": await digest(version, packed),
      };
      await (await caches.open(cacheName)).put(key, new Response(packed, { headers }));
      tell("snapshot", "saved");
    } catch (err) {
      console.warn("gamebook: snapshot not stored", err);  // full disk, private mode...
    }
    snapshot = null;
  });
}

// Loaded by its own async script in the play page's head (`<meta name="gb-play">` names the
// game and the site's root): start at once, before the page's body is even parsed.
{
  const meta = typeof document !== "undefined" && document.querySelector('meta[name="gb-play"]');
  // (?invite: a device that joins a game another one runs draws its screens with no Python)
  const invite = typeof location !== "undefined" && new URLSearchParams(location.search).has("invite");
  if (meta && meta.dataset.game && /^https?:$/.test(location.protocol) && !invite) {
    const root = new URL(meta.dataset.root, location.href).href;
    startPython({ root, game: meta.dataset.game }).catch(() => {});  // play.js reports it
  }
}
