#!/usr/bin/env node
// Prepare the Python the play page loads, at build time, in the site's own Pyodide (so the
// bytecode or the parser is exactly its Python's), offline:
//
//   node precompile.mjs <job.json>
//   job: {"pyodide": dir, "engine": engine.zip, "games": [[id, bundle.json], ...],
//         "archives": [{"in": zip, "out": zip, "prune": bool, "mode": "minify"|"bytecode",
//                       "only": [prefix, ...]}, ...]}
//
// First the engine plays every game here (start, actions, saves, refused saves, undo...), and
// the standard-library modules that it and Pyodide import are recorded. Then each archive's .py
// files are rewritten:
// - "minify": the source without docstrings or comments (``ast.unparse``), kept
//   only when its syntax tree is exactly the original's minus the docstrings. Sources compress
//   about four times better than bytecode, which is what keeps a play page under its weight
//   budget (see bench/README.md);
// - "bytecode" (what the site ships): .pyc files (unchecked hash-based: no timestamp, no
//   source needed), compiled without docstrings and without column ranges (line numbers kept).
// Everything else is kept; with "prune", only the recorded modules (and the few packages Pyodide
// or codecs look up by name) are kept, and not the frozen ones (built into the runtime); with "only", only the entries under those prefixes.
// Archives are stored uncompressed: the web server compresses the transfer, the browser reads
// them without inflating anything. A file that does not compile stays as it was. Prints one
// JSON line: {"python", "modules", "files": [{...}]}.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const COMPILER = String.raw`
import ast
import importlib.util
import importlib._bootstrap_external as bootstrap
import json
import sys
import zipfile

FIXED = (1980, 1, 1, 0, 0, 0)


# looked up by name at run time (Pyodide's own machinery): kept whole
WHOLE = ("pyodide", "_pyodide", "collections", "json", "re")
# packages kept for their top level only (their sub-packages are big and never imported here)
TOP = ("importlib",)
# codecs looked up by name: the usual ones (the games only ever use UTF-8)
CODECS = ("__init__", "aliases", "utf_8", "utf_8_sig", "ascii", "latin_1", "utf_16",
          "utf_32", "cp437", "raw_unicode_escape", "unicode_escape")


FROZEN = set()


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
    for name, module in sys.modules.items():  # built into the runtime: never read from the zip
        if getattr(getattr(module, "__spec__", None), "origin", None) == "frozen":
            FROZEN.add(name)
    FROZEN.discard("os")  # the landmark Python looks for to find its standard library
    return sorted(
        name for name, module in sys.modules.items()
        if str(getattr(module, "__file__", "") or "").startswith("/lib/python")
        and name not in FROZEN
    )


def wanted(name, modules):
    """Whether the archive entry name belongs to a recorded module or a whole package."""
    parts = name.split("/")
    dotted = name[:-3].replace("/", ".") if name.endswith(".py") else ""
    if dotted.removesuffix(".__init__") in FROZEN:
        return False
    if parts[0] in WHOLE or parts[0].split(".")[0] in WHOLE or not name.endswith(".py"):
        return True
    if parts[0] in TOP and len(parts) == 2:
        return True
    if parts[0] == "encodings" and len(parts) == 2 and parts[1][:-3] in CODECS:
        return True
    dotted = name[:-3].replace("/", ".")
    if dotted.endswith(".__init__"):
        dotted = dotted[: -len(".__init__")]
    return dotted in modules


def _without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            first = body[0] if body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                node.body = body[1:] or [ast.Pass(lineno=first.lineno, col_offset=0)]
    return ast.fix_missing_locations(tree)


def minified(data, name):
    """The source without docstrings or comments, or None when it cannot be proven the same
    program: its syntax tree must be the original's minus the docstrings."""
    try:
        tree = _without_docstrings(ast.parse(data, name))
        text = ast.unparse(tree)
        same = ast.dump(ast.parse(text, name)) == ast.dump(tree)
        compile(text, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return text.encode("utf-8") + b"\n" if same else None


def convert(src, dst, modules=None, mode="bytecode", only=None):
    compiled = kept = dropped = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in sorted(zin.infolist(), key=lambda i: i.filename):
            name = info.filename
            if modules is not None and not wanted(name, modules):
                dropped += 1
                continue
            if only is not None and not name.startswith(tuple(only)):
                dropped += 1
                continue
            data = zin.read(info)
            if name.endswith(".py") and mode == "minify":
                text = minified(data, name)
                if text is None:
                    kept += 1
                else:
                    data = text
                    compiled += 1
            elif name.endswith(".py"):
                try:  # docstrings out, line numbers kept (PYTHONNODEBUGRANGES: no columns)
                    tree = _without_docstrings(ast.parse(data, name))
                    code = compile(tree, name, "exec", dont_inherit=True)
                except (SyntaxError, ValueError, RecursionError):
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
// PYTHONNODEBUGRANGES: the bytecode keeps line numbers but no column ranges (tracebacks lose
// their ^^^ marks only), which takes a fifth off its compressed weight
const py = await loadPyodide({
  indexURL, packages: [], env: { PYTHONNODEBUGRANGES: "1" },
  stdout: () => {}, stderr: (t) => console.error(t),
});
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
  const only = a.only ? py.toPy(a.only) : undefined;
  const result = convert.callKwargs("/tmp/in.zip", "/tmp/out.zip", keep, { mode: a.mode || "bytecode", only })
    .toJs({ dict_converter: Object.fromEntries });
  await writeFile(a.out, py.FS.readFile("/tmp/out.zip"));
  files.push({ in: a.in, out: a.out, ...result });
}
const version = py.runPython("import sys; list(sys.version_info[:3])").toJs();
console.log(JSON.stringify({ python: version, modules: modules.length, files }));
