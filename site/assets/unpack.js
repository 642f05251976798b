// Runtime files shipped compressed with Zstandard (`gamebook build`, pipeline/packed.py).
//
// Static hosts compress with gzip only, and a page cannot ask the browser to decode Zstandard:
// the site ships `pyodide/pyodide.asm.wasm.zst` (2.9 MB instead of 3.55 MB as gzip) and
// `pyodide/python_stdlib.zip.zst` in place of the files, listed in `manifest.packed` (original
// path → {zst, size, sha256, type}). On a visit that no service worker controls, this module
// fetches them at once, decodes them with the vendored decoder (`manifest.decoder`, fzstd from
// npm) and answers Pyodide's own requests for the original names with the decoded bytes, typed
// as the originals (`application/wasm`: streaming compilation still works). A visit the
// service worker controls asks for the original names: the worker holds them decoded.
//
// A compressed file that is missing, damaged or truncated (its decoded length, and in a secure
// context its SHA-256, are checked) stops the start with a French message (`GB_UI`), never a
// hang: Pyodide only logs a failed compilation and waits forever, so `wrap` races it.

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

const say = (key, ...args) => {
  const T = globalThis.GB_UI || {};
  if (typeof T[key] === "function") return T[key](...args);
  return `${key} ${args.join(" ")}`;
};

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

async function decode(entry, fetchFn, zstURL, decoder) {
  const name = entry.zst.split("/").pop();
  let response;
  try {
    response = await fetchFn(zstURL);
  } catch (err) {
    throw new Error(say("packedUnreachable", name));
  }
  if (!response.ok) throw new Error(say("packedUnreachable", name));
  let data = new Uint8Array(await response.arrayBuffer());
  // a host that decoded it already (a Content-Encoding of its own) hands over the original
  if (ZSTD_MAGIC.every((b, i) => data[i] === b)) {
    let fzstd;
    try {
      fzstd = await decoder;
    } catch (err) {
      throw new Error(say("packedUnreachable", "fzstd.js"));
    }
    try {
      data = fzstd.decompress(data, new Uint8Array(entry.size));
    } catch (err) {
      throw new Error(say("packedDamaged", name));
    }
  }
  if (data.length !== entry.size) throw new Error(say("packedDamaged", name));
  if (globalThis.crypto && crypto.subtle) {
    if (hex(await crypto.subtle.digest("SHA-256", data)) !== entry.sha256) {
      throw new Error(say("packedDamaged", name));
    }
  }
  return data;
}

async function loadDecoder(url) {
  await import(url);  // a UMD script: as a module it sets self.fzstd
  if (!globalThis.fzstd) throw new Error("fzstd");
  return globalThis.fzstd;
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
  if (!Object.keys(packed).length || !manifest.decoder || controlled) return { wrap: (load) => load };
  const original = globalThis.fetch;
  const decoder = loadDecoder(new URL(manifest.decoder, root).href);
  decoder.catch(() => {});  // reported by decode()
  const pending = new Map();  // absolute URL of the original → {entry, bytes: a promise}
  const start = (hit) => {
    if (!hit.bytes) {
      hit.bytes = decode(hit.entry, original, new URL(hit.entry.zst, root), decoder);
      hit.bytes.catch(() => {});  // reported through wrap()
    }
    return hit.bytes;
  };
  for (const [rel, entry] of Object.entries(packed)) {
    const hit = { entry, bytes: null };
    start(hit);  // now: the download and the decoding overlap Pyodide's own loading
    pending.set(new URL(rel, root).href, hit);
  }
  const shim = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    const hit = pending.get(new URL(url, location.href).href.split(/[?#]/)[0]);
    if (!hit) return original.call(this, input, init);
    const headers = { "content-type": hit.entry.type, "content-length": String(hit.entry.size) };
    return start(hit).then((data) => new Response(data, { headers }));
  };
  return {
    wrap: (load) => async (options) => {
      globalThis.fetch = shim;
      try {
        const failed = Promise.all([...pending.values()].map(start)).then(() => new Promise(() => {}));
        const pyodide = await Promise.race([load(options), failed]);
        // started: the decoded bytes are Pyodide's now (another start would decode again)
        for (const hit of pending.values()) hit.bytes = null;
        return pyodide;
      } finally {
        if (globalThis.fetch === shim) globalThis.fetch = original;
      }
    },
  };
}
