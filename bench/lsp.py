"""``gamebook lsp`` measured through its protocol, as an editor drives it (JSON-RPC over stdio),
on the synthetic campaigns of ``bench/generate.py``: edit → diagnostic for a text typed and for
a reference re-pointed (a structural edit), the last diagnostic after a burst of four keys
150 ms apart, a hover sent while a check runs, and the server's resident memory.

With ``--reference REV`` the server of another commit (a temporary ``git worktree``) is
measured in the same run, side by side.

Run alone: ``python bench/lsp.py [--sizes 10000,100000] [--reference REV] [--output FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import cpu_model, write_section
from generate import generate

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- BEGIN bench/lsp.py: this section is rewritten by `nox -s bench` -->"
END = "<!-- END bench/lsp.py -->"


class Client:
    def __init__(self, code: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(code)}
        #: the server's standard error (its tracebacks), shown when a wait times out
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline.cli", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            cwd=code,
            env=env,
        )
        self.messages: queue.Queue = queue.Queue()
        # what came while waiting for another message (a diagnostic published before the
        # answer to a hover): read first by the next wait, never dropped
        self.early: list[tuple[float, dict]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put((time.perf_counter(), json.loads(out.read(length))))

    def send(self, payload: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def _next(self, timeout: float) -> tuple[float, dict]:
        return self.early.pop(0) if self.early else self.messages.get(timeout=timeout)

    def request(self, method: str, params: dict, timeout: float = 120) -> tuple[float, dict]:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        aside = []
        while True:
            at, msg = self.messages.get(timeout=timeout)
            if msg.get("id") == rid and "method" not in msg:
                self.early.extend(aside)
                return at, msg.get("result")
            aside.append((at, msg))

    def diagnostics(self, uri: str, timeout: float = 120) -> tuple[float, list]:
        while True:
            at, msg = self._next(timeout)
            if msg.get("method") == "textDocument/publishDiagnostics" and (
                msg["params"]["uri"] == uri
            ):
                return at, msg["params"]["diagnostics"]

    def drain(self) -> None:
        self.early.clear()
        while True:
            try:
                self.messages.get(timeout=0.3)
            except queue.Empty:
                return

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stderr_tail(self, size: int = 4000) -> str:
        self.errors.seek(0, os.SEEK_END)
        self.errors.seek(max(0, self.errors.tell() - size))
        return self.errors.read().decode("utf-8", "replace")

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=30)
            self.notify("exit", {})
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()
        finally:
            self.errors.close()


def _edits(text: str) -> tuple[str, str]:
    """(a word typed in a text, a reference re-pointed) of one content file."""
    lines = text.split("\n")
    t = next(i for i, line in enumerate(lines) if line.strip().startswith("text:"))
    typed = lines.copy()
    typed[t] = (
        typed[t].rstrip().rstrip('"') + " encore" + ('"' if typed[t].rstrip().endswith('"') else "")
    )
    r = next(i for i, line in enumerate(lines) if re.search(r"\bread:\s*\d+", line))
    moved = lines.copy()
    moved[r] = re.sub(
        r"(\bread:\s*)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1), moved[r]
    )
    return "\n".join(typed), "\n".join(moved)


def measure(code: Path, folder: Path, repeats: int) -> dict:
    target = sorted((folder / "livre").glob("*.yaml"))[0]
    uri = target.resolve().as_uri()
    text = target.read_text(encoding="utf-8")
    typed, moved = _edits(text)
    c = Client(code)
    version = 1
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        t0 = time.perf_counter()
        c.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        at, _ = c.diagnostics(uri)
        opened = at - t0
        c.drain()

        def change(new: str) -> float:
            nonlocal version
            version += 1
            sent = time.perf_counter()
            c.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": new}],
                },
            )
            return sent

        out: dict = {"open": opened}
        for name, new in (("typed", typed), ("structural", moved)):
            times = []
            for _ in range(repeats):
                for state in (new, text):
                    sent = change(state)
                    at, _ = c.diagnostics(uri)
                    if state is new:
                        times.append(at - sent)
                    c.drain()
            out[name] = statistics.median(times)
        # a burst of keys 150 ms apart (structural edits): the last diagnostic after the last
        bursts = []
        for _ in range(repeats):
            for k in range(4):
                last = change(moved if k % 2 == 0 else text)
                time.sleep(0.15)
            last = change(moved)
            deadline = time.perf_counter() + 600
            at = None
            while time.perf_counter() < deadline:
                try:
                    at, _ = c.diagnostics(uri, timeout=max(5.0, out["structural"] * 4))
                except queue.Empty:
                    break
            bursts.append((at or time.perf_counter()) - last)
            change(text)
            c.diagnostics(uri)
            c.drain()
        out["burst"] = statistics.median(bursts)
        # a hover while a structural check runs
        line = next(i for i, row in enumerate(text.split("\n")) if re.search(r"\bread:\s*\d+", row))
        col = re.search(r"\bread:\s*(\d+)", text.split("\n")[line]).start(1) + 1
        hovers = []
        for _ in range(repeats):
            change(moved)
            time.sleep(0.12)  # past the debounce: the check is running
            sent = time.perf_counter()
            at, _ = c.request(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}},
            )
            hovers.append(at - sent)
            c.diagnostics(uri)
            change(text)
            c.diagnostics(uri)
            c.drain()
        out["hover"] = statistics.median(hovers)
        out["rss_mb"] = c.rss_mb()
    except queue.Empty:
        # a message that never came (an edit left without its diagnostics): say where, with
        # what the server wrote, instead of a bare timeout
        tail = c.stderr_tail()
        said = (
            f"; its standard error ends with:\n{tail}" if tail else "; its standard error is empty"
        )
        raise SystemExit(
            f"bench/lsp.py: no answer from the server at {folder.name} nodes (version {version})"
            + said
        ) from None
    finally:
        c.close()
    return out


def render(rows: list[dict], load: tuple[float, float]) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        BEGIN,
        "## The language server (`gamebook lsp`)",
        "",
        f"Measured {now} on {cpu_model()}, {os.cpu_count()} cores; load average "
        f"{load[0]:.2f} at the start, {load[1]:.2f} at the end. Medians over the repeats; each "
        "edit is sent as an editor does (the whole text), then undone.",
        "",
        "| server | nodes | open → first diagnostic | text typed → diagnostic "
        "| reference re-pointed → diagnostic | last of a burst of 4 keys "
        "| hover during a check | resident |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['server']} | {r['size']:,} | {r['open']:.2f} s | {r['typed'] * 1000:.0f} ms "
            f"| {r['structural'] * 1000:.0f} ms | {r['burst'] * 1000:.0f} ms "
            f"| {r['hover'] * 1000:.0f} ms | {r['rss_mb']:.0f} MB |"
        )
    out += [
        "",
        "Goals (issue 31): edit → diagnostic ≤ 150 ms at 10k nodes and ≤ 500 ms at 100k; the last "
        "diagnostic of a burst ≤ 500 ms after the last key at 100k; hover ≤ 50 ms during a check; "
        "≤ 1 GiB resident at 100k.",
        END,
    ]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--reference", help="a commit whose server is measured alongside")
    ap.add_argument("--reference-sizes", default="10000")
    ap.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    ap.add_argument("--print", action="store_true", help="print instead of writing BENCHMARKS.md")
    args = ap.parse_args(argv)
    start = os.getloadavg()[0]
    rows = []
    servers = [("ours", ROOT, [int(s) for s in args.sizes.split(",")])]
    tmp = None
    if args.reference:
        tmp = tempfile.mkdtemp(prefix="gamebook-lsp-ref-")
        subprocess.run(
            ["git", "worktree", "add", "--detach", tmp, args.reference],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        sizes = [int(s) for s in args.reference_sizes.split(",")]
        servers.insert(0, (f"before ({args.reference[:7]})", Path(tmp), sizes))
    try:
        for name, code, sizes in servers:
            for size in sizes:
                folder = generate(size).folder
                r = measure(code, folder, args.repeats)
                r.update(server=name, size=size)
                print(json.dumps(r), flush=True)
                rows.append(r)
    finally:
        if tmp:
            subprocess.run(["git", "worktree", "remove", "--force", tmp], cwd=ROOT, check=False)
    section = render(rows, (start, os.getloadavg()[0]))
    if args.print:
        print(section)
    else:
        write_section(args.output, section, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
