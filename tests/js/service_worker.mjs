// The generated service worker (pipeline/publish/templates/sw.js) and boot.js's snapshot caches, run
// by tests/test_service_worker.py in Node against an in-memory Cache Storage shared by two
// sites of one origin (`/a/` and `/b/`). Usage: node service_worker.mjs OLD_SW NEW_SW
// (two builds of one site: another version). Prints one JSON line: the checks that failed.
import { readFileSync } from "node:fs";
import vm from "node:vm";

import { digest, dropOtherVersions } from "../../site/assets/boot.js";

const ORIGIN = "http://127.0.0.1:9";
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

// ---- an origin's Cache Storage, in memory
const url = (r) => (typeof r === "string" ? r : r.url);
class Store {
  constructor() { this.entries = new Map(); }
  async match(r, options = {}) {
    const hit = this.entries.get(url(r));
    if (hit || !options.ignoreSearch) return hit && hit.clone();
    const bare = url(r).split("?")[0];
    for (const [k, v] of this.entries) if (k.split("?")[0] === bare) return v.clone();
    return undefined;
  }
  async put(r, response) { this.entries.set(url(r), response.clone()); }
  async addAll(requests) {
    for (const r of requests) {
      const response = await network(r);
      if (!response.ok) throw new Error(`addAll: ${r.url}`);
      this.entries.set(r.url, response);
    }
  }
  async keys() { return [...this.entries.keys()].map((k) => new Request(k)); }
  async delete(r) { return this.entries.delete(url(r)); }
}
class Storage {
  constructor() { this.stores = new Map(); }
  async open(name) {
    if (!this.stores.has(name)) this.stores.set(name, new Store());
    return this.stores.get(name);
  }
  async keys() { return [...this.stores.keys()]; }
  async delete(name) { return this.stores.delete(name); }
  async match(r, { cacheName }) { return this.stores.has(cacheName) ? this.stores.get(cacheName).match(r) : undefined; }
}
const caches = new Storage();
const requested = [];
async function network(r) {
  requested.push(url(r));
  return new Response(`body of ${url(r)}`, { status: 200 });
}

// ---- one service worker of one scope, in its own global
function worker(file, scope) {
  const handlers = {};
  const self = {
    registration: { scope: `${ORIGIN}${scope}`, active: null },
    location: new URL(`${ORIGIN}${scope}sw.js`),
    addEventListener: (type, fn) => { handlers[type] = fn; },
    skipWaiting: () => Promise.resolve(),
    clients: { claim: () => Promise.resolve() },
  };
  const context = vm.createContext({
    self, caches, fetch: network, importScripts: () => {}, Request, Response, URL, crypto,
    console, Headers, TextEncoder,
  });
  vm.runInContext(readFileSync(file, "utf-8"), context);
  const lifecycle = async (type) => {
    let waited = Promise.resolve();
    handlers[type]({ waitUntil: (p) => { waited = p; } });
    await waited;
  };
  return {
    install: () => lifecycle("install"),
    activate: () => lifecycle("activate"),
    // the response a page gets, or null when the worker leaves the request to the network
    async fetch(address, method = "GET") {
      let answer = null;
      handlers.fetch({ request: new Request(address, { method }), respondWith: (p) => { answer = p; } });
      return answer && (await answer);
    },
    version: vm.runInContext("CACHE", context),
    files: vm.runInContext("FILES", context),
  };
}

const [oldFile, newFile] = process.argv.slice(2);
const a1 = worker(oldFile, "/a/");
await a1.install();
await a1.activate();
check(a1.version.startsWith("gamebook-/a/@"), `a's cache named by its scope: ${a1.version}`);
const aStore = caches.stores.get(a1.version);
check(aStore && aStore.entries.size === a1.files.length, "a precaches its files");
check(a1.files.every((f) => aStore.entries.has(`${ORIGIN}/a/${f}`)), "a's files under /a/");

// the same site under /b/ of the same origin: its own cache, a's untouched
const b1 = worker(oldFile, "/b/");
await b1.install();
await b1.activate();
check(b1.version !== a1.version, "b's cache is not a's");
check(caches.stores.has(a1.version), "b's activation keeps a's cache");
check(caches.stores.get(a1.version).entries.size === a1.files.length, "a's cache whole after b");

// an unscoped cache of an older build, one per site, and another application's cache
const legacyA = await caches.open("gamebook-0123456789abcdef");
await legacyA.put(`${ORIGIN}/a/manifest.json`, new Response("{}"));
const legacyB = await caches.open("gamebook-fedcba9876543210");
await legacyB.put(`${ORIGIN}/b/manifest.json`, new Response("{}"));
await caches.open("another-app");
await caches.open("gamebook-/a/b/@0123456789abcdef");  // a site under /a/b/: not a's either

// a new version of a: it drops a's old caches, and only those
const a2 = worker(newFile, "/a/");
check(a2.version !== a1.version, "a new build is a new version");
await a2.install();
check(caches.stores.has(a1.version), "the old version stays while the new one waits");
requested.length = 0;
await a2.activate();
const names = await caches.keys();
check(!names.includes(a1.version), "a's old version is deleted");
check(!names.includes("gamebook-0123456789abcdef"), "a's unscoped old cache is deleted");
for (const kept of [b1.version, "gamebook-fedcba9876543210", "another-app", "gamebook-/a/b/@0123456789abcdef"]) {
  check(names.includes(kept), `a's update keeps ${kept}`);
}
check(caches.stores.get(b1.version).entries.size === b1.files.length, "b's cache whole after a's update");

// fetches: a listed file from the cache; a listed file evicted is put back; nothing else stored
const store = caches.stores.get(a2.version);
const index = `${ORIGIN}/a/${a2.files.find((f) => f.endsWith("index.html"))}`;
requested.length = 0;
const hit = await a2.fetch(index);
check(hit && requested.length === 0, "a listed file is answered from the cache");
await store.delete(index);
await a2.fetch(index);
await new Promise((r) => setTimeout(r, 10));
check(store.entries.has(index), "an evicted listed file is put back");
const before = store.entries.size;
const other = await a2.fetch(`${ORIGIN}/a/not-listed.json`);
await new Promise((r) => setTimeout(r, 10));
check(other && other.ok, "an unlisted file is fetched");
check(store.entries.size === before, "an unlisted file is not stored");
await a2.fetch(`${ORIGIN}/a/not-listed.json?x=1`);
await new Promise((r) => setTimeout(r, 10));
check(store.entries.size === before, "an unlisted file with a query is not stored");
check((await a2.fetch(`${ORIGIN}/b/index.html`)) === null, "another site's request is left alone");
check((await a2.fetch(`${ORIGIN}/a/index.html`, "POST")) === null, "a POST is left alone");
check((await a2.fetch("http://elsewhere.example/a/x.js")) === null, "another host is left alone");

// ---- boot.js: the memory snapshots of two sites in one origin
const snaps = new Storage();
const old = await snaps.open("gbsnap-000000000000");
await old.put(`${ORIGIN}/a/__snapshot/dilemme`, new Response("a"));
await old.put(`${ORIGIN}/b/__snapshot/dilemme`, new Response("b"));
await old.put(`${ORIGIN}/a/b/__snapshot/dilemme`, new Response("ab"));
await snaps.open("gbsnap-111111111111");
await dropOtherVersions("gbsnap-111111111111", `${ORIGIN}/a/`, snaps);
const left = (await old.keys()).map((r) => r.url).sort();
check(JSON.stringify(left) === JSON.stringify([`${ORIGIN}/a/b/__snapshot/dilemme`, `${ORIGIN}/b/__snapshot/dilemme`]),
  `a drops its own old snapshots only: ${left}`);
check(snaps.stores.has("gbsnap-111111111111"), "the current version's cache stays");
await dropOtherVersions("gbsnap-222222222222", `${ORIGIN}/b/`, snaps);
await dropOtherVersions("gbsnap-222222222222", `${ORIGIN}/a/b/`, snaps);
check(!snaps.stores.has("gbsnap-000000000000"), "a cache left empty is deleted");
check(snaps.stores.has("gbsnap-111111111111"), "a cache of another site's version stays");

// the digest binds a snapshot to its version and its bytes
const bytes = new Uint8Array([1, 2, 3, 4]);
const d1 = await digest("aaaa", bytes);
check(/^[0-9a-f]{64}$/.test(d1), "digest is SHA-256 in hex");
check(d1 === (await digest("aaaa", new Uint8Array([1, 2, 3, 4]))), "digest is stable");
check(d1 !== (await digest("bbbb", bytes)), "another version, another digest");
check(d1 !== (await digest("aaaa", new Uint8Array([1, 2, 3, 5]))), "other bytes, another digest");

console.log(JSON.stringify({ failures }));
