#!/usr/bin/env node
// Run the rules engine under real Pyodide, in Node, from the vendored runtime — offline.
//
//   node run_engine.mjs <pyodide_dir> <engine_zip> <bundle.json> <game> <seed> <n_actions>
//       Prints one line per applied action: the sha256 of the state after it (see DRIVER).
//       Nothing else goes to stdout; diagnostics go to stderr.
//
//   node run_engine.mjs <pyodide_dir> <engine_zip> --jobs <jobs.json>
//       jobs.json: [{"bundle": path, "game": <a registered game id>, "seed": int|str,
//                    "n_actions": int}, ...] — all run in ONE Pyodide (it takes seconds to start).
//       Prints one JSON object: {"pyodide", "python": [major, minor, micro], "engine_file",
//       "load_ms", "fetch_calls", "results": [{"game", "seed", "hashes": [...]}, ...]}.
//
// The Python that runs is DRIVER below; tests/test_pyodide.py execs the very same text in
// CPython and compares the hash sequences.
//
// No network: no package is loaded (empty lock file, local package base URL, so even the CDN
// fallback would point at the local folder), and globalThis.fetch is wrapped to throw on any
// URL that is not a local file. In Node, loadPyodide reads its own files (wasm, stdlib zip,
// lock file) with fs, never with fetch: every fetch call is recorded and reported, and any
// attempted network request makes the script fail (exit code 3).

import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

// ----------------------------------------------------------------------------- the Python side
// Deterministic: every die roll or shuffle comes from the state's seeded RNG, and the bots'
// and the random picks' generators are seeded from the seed. No backquote in this text.
const DRIVER = String.raw`
import hashlib
import json

import engine
from engine.core import registry
from engine.core.rng import Rng


def state_hash(state):
    text = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_sequence(bundle_text, game, seed, n_actions):
    """The hashes of the states after each of at most n_actions actions of a game played by
    its bots, one action in four drawn at random (a seeded engine generator: the same picks in
    CPython and Pyodide), through the game contract; fewer if the game ends."""
    play = registry.get(game)(engine.load_bundle(bundle_text))
    low, high = play.seat_range()
    n = min(max(play.default_players, low), high)
    setup = play.normalize_setup({"seed": str(seed), "players": n, "bots": n})
    state = play.new_game(setup)
    pick = Rng({"rng": Rng.seed_from(f"{seed}:pick")})
    hashes = []
    for i in range(int(n_actions)):
        seats = play.to_act(state)
        if not seats:
            nxt = play.sequel(state)
            if nxt is None:
                break
            state = nxt
            hashes.append(state_hash(state))
            continue
        seat = seats[pick.below(len(seats))]
        if pick.below(4) == 0:
            actions = play.legal_actions(state, seat)
            action = actions[pick.below(len(actions))]
        else:
            bot = Rng({"rng": Rng.seed_from(f"{seed}:bot:{i}")})
            action = play.choose(state, seat, bot, setup["seats"][seat].get("persona"))
        state = play.apply(state, action)
        hashes.append(state_hash(state))
    return hashes
`;

// ----------------------------------------------------------------------------- no network

const fetchCalls = [];
const networkAttempts = [];
const realFetch = globalThis.fetch;

function urlOf(input) {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input && typeof input.url === "string" ? input.url : String(input);
}

function isLocalFile(url) {
  return url.startsWith("file://") || !url.includes("://");
}

globalThis.fetch = function guardedFetch(input, init) {
  const url = urlOf(input);
  fetchCalls.push(url);
  if (!isLocalFile(url)) {
    networkAttempts.push(url);
    throw new Error(`run_engine.mjs: network request refused: ${url}`);
  }
  return realFetch(input, init);
};

// ----------------------------------------------------------------------------- helpers

function usage(message) {
  process.stderr.write(
    `${message}\nusage: node run_engine.mjs <pyodide_dir> <engine_zip> <bundle.json> <game> ` +
      `<seed> <n_actions>\n       node run_engine.mjs <pyodide_dir> <engine_zip> --jobs ` +
      `<jobs.json>\n`,
  );
  process.exit(2);
}

function parseSeed(text) {
  return /^-?\d+$/.test(String(text)) ? Number(text) : String(text);
}

function checkJob(job) {
  if (!/^[a-z_][a-z0-9_]*$/.test(String(job.game))) usage(`not a game id: ${job.game}`);
  if (!Number.isInteger(job.n_actions) || job.n_actions < 0) usage("n_actions: an integer ≥ 0");
  return job;
}

async function startPyodide(pyodideDir) {
  const indexURL = path.resolve(pyodideDir) + path.sep;
  const { loadPyodide, version } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
  // The lock file without its packages: nothing can be resolved, hence nothing downloaded.
  const lock = JSON.parse(await readFile(indexURL + "pyodide-lock.json", "utf8"));
  const started = Date.now();
  const pyodide = await loadPyodide({
    indexURL,
    packages: [],
    lockFileContents: { ...lock, packages: {} },
    packageBaseUrl: indexURL,
    packageCacheDir: indexURL,
    stdout: (line) => process.stderr.write(`[python stdout] ${line}\n`),
    stderr: (line) => process.stderr.write(`[python stderr] ${line}\n`),
  });
  return { pyodide, version, loadMs: Date.now() - started };
}

async function installEngine(pyodide, engineZip) {
  const bytes = await readFile(engineZip);
  const target = "/engine_archive";
  // unpackArchive wants a plain Uint8Array: a Node Buffer is refused ("Unknown typed array
  // type 'Buffer'").
  pyodide.unpackArchive(new Uint8Array(bytes), "zip", { extractDir: target });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(target)})`);
  pyodide.runPython(DRIVER);
  return pyodide.runPython("engine.__file__");
}

// ----------------------------------------------------------------------------- main

async function main(argv) {
  if (argv.length < 3) usage("missing arguments");
  const [pyodideDir, engineZip, ...rest] = argv;
  let jobs;
  let jobsMode = false;
  if (rest[0] === "--jobs") {
    if (rest.length !== 2) usage("--jobs takes one file");
    jobsMode = true;
    jobs = JSON.parse(await readFile(rest[1], "utf8")).map(checkJob);
  } else {
    if (rest.length !== 4) usage("expected <bundle.json> <game> <seed> <n_actions>");
    const [bundle, game, seed, n] = rest;
    jobs = [checkJob({ bundle, game, seed: parseSeed(seed), n_actions: Number(n) })];
  }

  const { pyodide, version, loadMs } = await startPyodide(pyodideDir);
  const pyVersion = pyodide.runPython("import sys\nlist(sys.version_info[:3])").toJs();
  const engineFile = await installEngine(pyodide, engineZip);
  process.stderr.write(
    `pyodide ${version} (Python ${pyVersion.join(".")}) started in ${loadMs} ms; ` +
      `engine from ${engineFile}\n`,
  );

  const runSequence = pyodide.globals.get("run_sequence");
  const results = [];
  for (const job of jobs) {
    const started = Date.now();
    const bundleText = await readFile(job.bundle, "utf8");
    const proxy = runSequence(bundleText, job.game, job.seed, job.n_actions);
    const hashes = proxy.toJs();
    proxy.destroy();
    process.stderr.write(
      `${job.game} seed ${job.seed}: ${hashes.length} actions in ${Date.now() - started} ms\n`,
    );
    results.push({ game: job.game, seed: job.seed, hashes });
  }
  runSequence.destroy();

  if (jobsMode) {
    const out = {
      pyodide: version,
      python: pyVersion,
      engine_file: engineFile,
      load_ms: loadMs,
      fetch_calls: fetchCalls,
      results,
    };
    process.stdout.write(JSON.stringify(out) + "\n");
  } else {
    process.stdout.write(results[0].hashes.map((h) => h + "\n").join(""));
  }
  if (networkAttempts.length) {
    process.stderr.write(`network requests were attempted: ${networkAttempts.join(", ")}\n`);
    return 3;
  }
  if (fetchCalls.length) process.stderr.write(`fetch was called: ${fetchCalls.join(", ")}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`run_engine.mjs: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 1;
  },
);
