// Round trips and refusals of boot.js's stored form of a memory snapshot (pack / unpack), run
// by tests/test_snapshot_form.py in Node. Prints one JSON line: the cases that failed.
import { pack, unpack } from "../../site/assets/boot.js";

const failures = [];
let seed = 20261125;
const rand = (k) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; };
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// memories of every shape: empty, all zero, all used, odd lengths, runs at both ends, sparse
const memories = [new Uint8Array(0), new Uint8Array(5 * 4096), new Uint8Array(3 * 4096).fill(9)];
for (let n = 0; n < 40; n++) {
  const length = rand(40) * 4096 + (n % 3 === 0 ? rand(4096) : 0);
  const m = new Uint8Array(length);
  const writes = rand(30);
  for (let w = 0; w < writes && length; w++) m[rand(length)] = 1 + rand(255);
  if (length && n % 5 === 0) m[length - 1] = 3;  // the last byte, in a partial page
  memories.push(m);
}
for (const [i, m] of memories.entries()) {
  const packed = pack(m);
  const back = unpack(packed);
  if (!same(back, m)) failures.push(`round trip ${i} (length ${m.length})`);
  const used = new Set();
  for (let p = 0; p < m.length; p += 4096) if (m.subarray(p, p + 4096).some((x) => x)) used.add(p);
  if (packed.length > 16 + used.size * (4096 + 8)) failures.push(`not smaller ${i}`);
}
// into a zero-filled array of the right length (what boot.js hands Pyodide at once)
for (const [i, m] of memories.entries()) {
  const into = new Uint8Array(m.length);
  if (unpack(pack(m), into) !== into || !same(into, m)) failures.push(`into ${i}`);
}
// ... of another length: refused, nothing written
{
  const m = new Uint8Array(2 * 4096).fill(5);
  const into = new Uint8Array(4096);
  try {
    unpack(pack(m), into);
    failures.push("accepted: into of another length");
  } catch (err) {
    if (into.some((x) => x)) failures.push("wrote into an array of another length");
  }
}
// a damaged run table writes nothing (checked before any copy)
{
  const m = new Uint8Array(4 * 4096); m[0] = 1; m[3 * 4096] = 1;
  const b = pack(m);
  new DataView(b.buffer).setUint32(24, 0xfffff000, true);  // the second run points outside
  const into = new Uint8Array(m.length);
  try { unpack(b, into); failures.push("accepted: a run outside"); } catch (err) { /* refused */ }
  if (into.some((x) => x)) failures.push("wrote the runs before the damaged one");
}
// a snapshot's view that does not start at a word boundary
const base = new Uint8Array(3 * 4096 + 1);
base[4096 + 7] = 4;
if (!same(unpack(pack(base.subarray(1))), base.subarray(1))) failures.push("unaligned view");

// damaged forms are refused, never read out of bounds
const good = pack(memories[10].length ? memories[10] : memories[3]);
const refuse = {
  empty: new Uint8Array(0),
  "bad magic": good.slice().fill(0, 0, 4),
  truncated: good.slice(0, good.length - 1),
  "too long": new Uint8Array([...good, 0]),
  "huge length": (() => { const b = good.slice(); new DataView(b.buffer).setUint32(4, 0xffffffff, true); return b; })(),
  "too many runs": (() => { const b = good.slice(); new DataView(b.buffer).setUint32(8, 1e6, true); return b; })(),
  "run outside": (() => { const b = good.slice(); new DataView(b.buffer).setUint32(16, 0xfffff000, true); return b; })(),
  "runs overlap": (() => {
    const m = new Uint8Array(4 * 4096); m[0] = 1; m[2 * 4096] = 1;
    const b = pack(m); new DataView(b.buffer).setUint32(24, 0, true); return b;
  })(),
};
for (const [name, bytes] of Object.entries(refuse)) {
  try {
    unpack(bytes);
    failures.push(`accepted: ${name}`);
  } catch (err) {
    if (!String(err.message).startsWith("snapshot:")) failures.push(`${name}: ${err.message}`);
  }
}
console.log(JSON.stringify({ cases: memories.length + 1 + Object.keys(refuse).length, failures }));
