// Decodes one Zstandard runtime file off the page's thread (started by unpack.js), block by
// block as it downloads: each decoded block is posted at once (the page streams it to
// Pyodide, which compiles the WebAssembly while the rest arrives); once its length is right
// "complete" (the stream may end), then its SHA-256 is checked (in a secure context) before
// "done". Messages: {chunk}, {complete}, {done, timing}, {error: "unreachable" | "damaged"}.
let decoderLoaded = false;
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

self.onmessage = async (event) => {
  const { url, size, sha256, decoder } = event.data;
  const t0 = performance.now();
  let stage = "unreachable";
  try {
    if (!decoderLoaded) {
      importScripts(decoder);  // fzstd (npm), vendored: sets self.fzstd
      decoderLoaded = true;
    }
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const out = new Uint8Array(size);
    let at = 0;
    let busy = 0;  // ms spent decoding (the rest is waiting for the network)
    const emit = (block) => {
      if (at + block.length > size) throw new Error("longer than the original");
      out.set(block, at);
      at += block.length;
      const copy = block.slice();
      self.postMessage({ chunk: copy }, [copy.buffer]);
    };
    const stream = new self.fzstd.Decompress((block) => emit(block));
    const reader = response.body.getReader();
    let raw = null;  // a host that decoded the file already hands over the original
    for (;;) {
      stage = "unreachable";
      const { done, value } = await reader.read();
      stage = "damaged";
      const t = performance.now();
      if (raw === null && !done) raw = !ZSTD_MAGIC.every((b, i) => value[i] === b);
      if (raw) {
        if (!done) emit(value);
      } else {
        stream.push(done ? new Uint8Array(0) : value, done);
      }
      busy += performance.now() - t;
      if (done) break;
    }
    stage = "damaged";
    if (at !== size) throw new Error(`${at} bytes, not ${size}`);
    self.postMessage({ complete: true });  // the page may end its stream: Pyodide compiles on
    const t1 = performance.now();
    if (self.crypto && crypto.subtle && hex(await crypto.subtle.digest("SHA-256", out)) !== sha256) {
      throw new Error("not the file it stands for");
    }
    self.postMessage({ done: true, timing: { total: t1 - t0, decode: busy, digest: performance.now() - t1 } });
  } catch (err) {
    self.postMessage({ error: stage, detail: String(err && err.message ? err.message : err) });
  }
};
