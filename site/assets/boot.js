// Starting Python for a play page: Pyodide, then the engine's archive for this game, then
// `engine.web` imported. A later visit starts from a memory snapshot of that interpreter (the
// runtime booted, the engine and the game's package imported) instead of booting it again:
//
// - the first visit boots normally with Pyodide's `_makeSnapshot` option and, once the engine is
//   imported (before any game object exists), copies the interpreter's memory
//   (`makeMemorySnapshot`); the copy is written to Cache Storage when the page is idle;
// - the cache is named after the site's version (`gbsnap-<manifest.version>`: the manifest's
//   digest covers the runtime, the standard library, the engine archives and the bundles), one
//   entry per game, so a snapshot is only ever restored into the very files that made it; caches
//   of other versions are deleted;
// - a snapshot is checked before use (its recorded length; Pyodide checks its magic number and
//   its build id) and any failure while restoring it (or importing the engine from it) deletes it
//   and boots normally: a stale or damaged snapshot is never trusted.
//
// `app.dataset.boot` says how the page started ("snapshot" or "normal"), and
// `app.dataset.snapshot` becomes "saved" once this visit's snapshot is stored (the tests and
// the benchmark read them).

import { packedRuntime } from "./unpack.js";

const PREFIX = "gbsnap-";

const canCache = () => typeof caches !== "undefined" && window.isSecureContext;

async function cached(cacheName, key) {
  try {
    const cache = await caches.open(cacheName);
    const hit = await cache.match(key);
    if (!hit) return null;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    if (String(bytes.length) !== hit.headers.get("x-snapshot-length")) throw new Error("length");
    return bytes;
  } catch (err) {
    await forget(cacheName, key);
    return null;
  }
}

async function forget(cacheName, key) {
  try {
    await (await caches.open(cacheName)).delete(key);
  } catch (err) {
    /* nothing stored, nothing to forget */
  }
}

// The caches of other versions of the site (an update makes them useless).
async function dropOtherVersions(cacheName) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== cacheName) await caches.delete(name);
  }
}

// performance marks "gb:<step>" (the benchmark reads them)
const mark = (step) => performance.mark(`gb:${step}`);

const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 500));

/**
 * Returns `engine.web` (a PyProxy) of a running interpreter. `game` is checked to be an
 * identifier before it reaches Python.
 */
export async function startPython({ manifest, root, game, engine, app }) {
  mark("start");
  const snapshots = canCache() && /^[a-z_][a-z0-9_]*$/.test(game) && manifest.version;
  const cacheName = `${PREFIX}${manifest.version}`;
  const key = new URL(`__snapshot/${game}`, root).href;
  const stored = snapshots ? cached(cacheName, key) : Promise.resolve(null);  // meanwhile:
  // the runtime's heaviest files come compressed (unpack.js): their download starts now
  const runtime = packedRuntime({ manifest, root });
  const { loadPyodide: load } = await import(new URL(manifest.pyodide + "pyodide.mjs", root).href);
  const loadPyodide = runtime.wrap(load);
  const options = {
    indexURL: new URL(manifest.pyodide, root).href,
    packages: [],
    stdout: () => {},
    stderr: (t) => console.warn(t),
  };
  const install = async (pyodide) => {
    pyodide.unpackArchive(new Uint8Array(await engine), "zip", { extractDir: "/home/pyodide" });
  };

  if (snapshots) {
    const bytes = await stored;
    mark("snapshot-read");
    if (bytes) {
      try {
        const pyodide = await loadPyodide({ ...options, _loadSnapshot: bytes });
        mark("pyodide");
        await install(pyodide);  // the files, for whatever the engine imports later
        // a snapshot is every visit's same memory: Python's own generator gets fresh entropy
        // (the games draw from their seeded generators only; this is for anything else)
        pyodide.runPython("import random\nrandom.seed()");
        const web = pyodide.pyimport("engine.web");
        mark("engine");
        app.dataset.boot = "snapshot";
        return web;
      } catch (err) {
        console.warn("gamebook: snapshot not used", err);
        await forget(cacheName, key);
      }
    }
  }

  const pyodide = await loadPyodide({ ...options, _makeSnapshot: Boolean(snapshots) });
  mark("pyodide");
  await install(pyodide);
  pyodide.runPython(
    "import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')\n" +
      "import engine.web\nfrom engine.core import registry\n" +
      (snapshots ? `registry.get(${JSON.stringify(game)})\n` : ""),
  );
  mark("engine");
  if (snapshots) {
    let snapshot = null;
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (err) {
      console.warn("gamebook: no snapshot", err);
    }
    mark("snapshot-made");
    if (snapshot) {
      idle(async () => {
        try {
          await dropOtherVersions(cacheName);
          const headers = { "content-type": "application/octet-stream", "x-snapshot-length": String(snapshot.length) };
          await (await caches.open(cacheName)).put(key, new Response(snapshot, { headers }));
          app.dataset.snapshot = "saved";
        } catch (err) {
          console.warn("gamebook: snapshot not stored", err);  // full disk, private mode...
        }
        snapshot = null;
      });
    }
  }
  app.dataset.boot = "normal";
  return pyodide.pyimport("engine.web");
}
