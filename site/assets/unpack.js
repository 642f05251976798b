// Runtime files shipped compressed with Zstandard (`gamebook build`, pipeline/publish/packed.py).
//
// Static hosts compress with gzip only, and a page cannot ask the browser to decode Zstandard:
// the site ships `pyodide/pyodide.asm.wasm.zst` (2.9 MB instead of 3.55 MB as gzip) and
// `pyodide/python_stdlib.zip.zst` in place of the files, listed in `manifest.packed` (original
// path → {zst, size, sha256, type}). On a visit that no service worker controls, this module
// has them fetched and decoded at once, each by a worker (unpack-worker.js, with the vendored
// decoder `manifest.decoder`, fzstd from npm) block by block as they download, and answers
// Pyodide's own requests for the original names with a stream of the decoded blocks, typed as
// the originals (`application/wasm`: the runtime compiles while it is still arriving). A visit
// the service worker controls asks for the original names: the worker holds them decoded.
//
// A compressed file that is missing, damaged or truncated (its decoded length is checked
// before its stream ends, its SHA-256 in a secure context before Python runs anything of the
// page's) stops the start with a French
// message (`GB_UI`), never a hang: Pyodide only logs a failed compilation and waits forever,
// so `wrap` races it.

const say = (key, ...args) => {
  const T = globalThis.GB_UI || {};
  if (typeof T[key] === "function") return T[key](...args);
  return `${key} ${args.join(" ")}`;
};

// One file being decoded: its blocks so far, and the streams that want them.
class Unpacking {
  constructor(entry, root, decoder) {
    this.entry = entry;
    this.name = entry.zst.split("/").pop();
    this.chunks = [];
    this.readers = new Set();
    this.error = null;
    this.complete = false;  // every block is here (the streams end)
    this.done = false;  // and checked
    this.settled = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.settled.catch(() => {});  // reported through wrap()
    const worker = new Worker(new URL("unpack-worker.js", import.meta.url));
    worker.onmessage = ({ data }) => {
      if (data.chunk) {
        this.chunks.push(data.chunk);
        for (const c of this.readers) c.enqueue(data.chunk);
        return;
      }
      if (data.complete) {
        this.complete = true;
        for (const c of this.readers) c.close();
        this.readers.clear();
        return;
      }
      worker.terminate();
      if (data.done) {
        this.done = true;
        const at = performance.now();  // what it cost (the benchmark reads these)
        performance.measure(`gb:unpack ${this.name}`, { start: at - data.timing.total, end: at });
        performance.measure(`gb:decode ${this.name}`, { start: at - data.timing.decode, end: at });
        this.resolve();
      } else {
        this.fail(data.error === "unreachable" ? "packedUnreachable" : "packedDamaged", data.detail);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      this.fail("packedUnreachable", event.message);
    };
    worker.postMessage({
      url: new URL(entry.zst, root).href,
      size: entry.size,
      sha256: entry.sha256,
      decoder: new URL(decoder, root).href,
    });
  }

  fail(key, detail) {
    if (this.done || this.error) return;
    console.warn(`gamebook: ${this.entry.zst}: ${detail}`);
    this.error = new Error(say(key, this.name));
    for (const c of this.readers) c.error(this.error);
    this.readers.clear();
    this.reject(this.error);
  }

  // A response with the decoded bytes, streamed as they come (the blocks so far first).
  response() {
    let mine = null;
    const body = new ReadableStream({
      start: (controller) => {
        mine = controller;
        for (const chunk of this.chunks) controller.enqueue(chunk);
        if (this.error) controller.error(this.error);
        else if (this.complete) controller.close();
        else this.readers.add(controller);
      },
      cancel: () => this.readers.delete(mine),
    });
    const headers = { "content-type": this.entry.type, "content-length": String(this.entry.size) };
    return new Response(body, { headers });
  }
}

/**
 * Starts fetching and decoding the packed runtime files (unless a service worker controls the
 * page, or nothing is packed). `wrap(loadPyodide)` returns a loadPyodide whose requests for
 * those files get the decoded bytes, and which rejects with a French message if one of them
 * cannot be had.
 */
export function packedRuntime({ manifest, root }) {
  const packed = manifest.packed || {};
  const controlled = Boolean(globalThis.navigator && navigator.serviceWorker && navigator.serviceWorker.controller);
  if (!Object.keys(packed).length || !manifest.decoder || controlled || typeof Worker === "undefined") {
    return { wrap: (load) => load };
  }
  const original = globalThis.fetch;
  const files = new Map();  // absolute URL of the original → {entry, unpacking}
  const start = (file) => (file.unpacking ||= new Unpacking(file.entry, root, manifest.decoder));
  for (const [rel, entry] of Object.entries(packed)) {
    const file = { entry, unpacking: null };
    start(file);  // now: the downloads and the decoding overlap Pyodide's own loading
    files.set(new URL(rel, root).href, file);
  }
  const shim = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    const file = files.get(new URL(url, location.href).href.split(/[?#]/)[0]);
    if (!file) return original.call(this, input, init);
    return Promise.resolve(start(file).response());
  };
  return {
    wrap: (load) => async (options) => {
      globalThis.fetch = shim;
      try {
        const all = [...files.values()].map((f) => start(f).settled);
        const failed = Promise.all(all).then(() => new Promise(() => {}));
        const pyodide = await Promise.race([load(options), failed]);
        await Promise.all(all);  // the digests, checked while Pyodide compiled and booted
        // started: the decoded bytes are Pyodide's now (another start would decode again)
        for (const file of files.values()) file.unpacking = null;
        return pyodide;
      } finally {
        if (globalThis.fetch === shim) globalThis.fetch = original;
      }
    },
  };
}
