#!/usr/bin/env node
// Precompile Python to bytecode for the site's own Pyodide, at build time, in that very Pyodide
// (so the bytecode is exactly its Python's), offline:
//
//   node precompile.mjs <job.json>
//   job: {"pyodide": dir, "engine": engine.zip, "games": [[id, bundle.json], ...],
//         "archives": [{"in": zip, "out": zip, "prune": bool}, ...]}
//
// First the engine plays every game here (start, actions, saves, refused saves, undo...), and
// the standard-library modules that it and Pyodide import are recorded. Then each archive's .py
// files become .pyc files (unchecked hash-based: no timestamp, no source needed), everything
// else is kept; with "prune", only the recorded modules (and whole packages Pyodide or codecs
// look up by name) are kept. Archives are stored uncompressed: the web server compresses the
// transfer, the browser reads them without inflating anything. A file that does not compile
// stays as source. Prints one JSON line: {"python", "modules", "files": [{...}]}.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const COMPILER = String.raw`
import importlib.util
import importlib._bootstrap_external as bootstrap
import json
import sys
import zipfile

FIXED = (1980, 1, 1, 0, 0, 0)


# looked up by name at run time (codecs, Pyodide's own machinery): kept whole
WHOLE = ("encodings", "pyodide", "_pyodide", "importlib", "collections", "json", "re")


def exercise(engine_zip, games):
    """Play every game through the browser's session; the stdlib modules imported."""
    import random

    zipfile.ZipFile(engine_zip).extractall("/home/pyodide")
    if "/home/pyodide" not in sys.path:
        sys.path.insert(0, "/home/pyodide")
    from engine import web

    for game_id, bundle_path in games:
        with open(bundle_path, encoding="utf-8") as f:
            bundle = f.read()
        pick = random.Random(game_id)
        session = web.WebSession(game_id, bundle)
        session.info_json()
        json.loads(session.start_json(json.dumps({"seed": "trace"})))
        for _ in range(60):
            screen = json.loads(session.screen_json())
            if screen.get("handoff"):
                session.handed_json()
                continue
            actions = [c["action"] for g in screen.get("groups", []) for c in g["choices"]]
            if not actions:
                if screen.get("sequel"):
                    session.next_json()
                    continue
                break
            session.act_json(json.dumps(pick.choice(actions)))
        saved = session.save_json()
        session.peek_json(saved)
        session.load_json(saved)
        session.chronicle_json()
        session.undo_json()
        for bad in ("{", "[" * 500 + "]" * 500, '{"a": NaN}', saved.replace('"state"', '"x"')):
            session.load_json(bad)
        session.act_json('{"nope": 1}')
        session.start_json('{"seed": 1, "players": 99}')
    return sorted(
        name for name, module in sys.modules.items()
        if str(getattr(module, "__file__", "") or "").startswith("/lib/python")
    )


def wanted(name, modules):
    """Whether the archive entry name belongs to a recorded module or a whole package."""
    parts = name.split("/")
    if parts[0] in WHOLE or parts[0].split(".")[0] in WHOLE or not name.endswith(".py"):
        return True
    dotted = name[:-3].replace("/", ".")
    if dotted.endswith(".__init__"):
        dotted = dotted[: -len(".__init__")]
    return dotted in modules


def convert(src, dst, modules=None):
    compiled = kept = dropped = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in sorted(zin.infolist(), key=lambda i: i.filename):
            name = info.filename
            if modules is not None and not wanted(name, modules):
                dropped += 1
                continue
            data = zin.read(info)
            if name.endswith(".py"):
                try:
                    code = compile(data, name, "exec", dont_inherit=True)
                except (SyntaxError, ValueError):
                    kept += 1
                else:
                    data = bytes(bootstrap._code_to_hash_pyc(
                        code, importlib.util.source_hash(data), checked=False))
                    name = name[:-3] + ".pyc"
                    compiled += 1
            out = zipfile.ZipInfo(name, date_time=FIXED)
            out.compress_type = zipfile.ZIP_STORED
            out.create_system = 3
            out.external_attr = info.external_attr or ((0o100644 & 0xFFFF) << 16)
            zout.writestr(out, data)
    return {"compiled": compiled, "kept_as_source": kept, "dropped": dropped}
`;

const job = JSON.parse(await readFile(process.argv[2], "utf-8"));
const indexURL = path.resolve(job.pyodide) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL, packages: [], stdout: () => {}, stderr: (t) => console.error(t) });
py.runPython(COMPILER);
let modules = [];
if (job.engine) {
  py.FS.writeFile("/tmp/engine.zip", await readFile(job.engine));
  const games = [];
  for (const [id, bundle] of job.games || []) {
    const where = `/tmp/bundle-${games.length}.json`;
    py.FS.writeFile(where, await readFile(bundle));
    games.push([id, where]);
  }
  modules = py.globals.get("exercise")("/tmp/engine.zip", py.toPy(games)).toJs();
}
const convert = py.globals.get("convert");
const files = [];
for (const a of job.archives) {
  py.FS.writeFile("/tmp/in.zip", await readFile(a.in));
  const keep = a.prune && modules.length ? py.toPy(new Set(modules)) : undefined;
  const result = convert("/tmp/in.zip", "/tmp/out.zip", keep).toJs({ dict_converter: Object.fromEntries });
  await writeFile(a.out, py.FS.readFile("/tmp/out.zip"));
  files.push({ in: a.in, out: a.out, ...result });
}
const version = py.runPython("import sys; list(sys.version_info[:3])").toJs();
console.log(JSON.stringify({ python: version, modules: modules.length, files }));
