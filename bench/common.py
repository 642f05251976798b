"""What the benchmark scripts share: the machine's description, and BENCHMARKS.md, where each
script owns one section between its BEGIN and END marks."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_section(path: Path, section: str, begin: str, end: str) -> None:
    """Replace the section between ``begin`` and ``end`` in ``path`` (or append it), keeping
    everything else."""
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = "# Benchmarks\n"
    start, stop = old.find(begin), old.find(end)
    section = section.rstrip("\n")
    if start != -1 and stop > start:
        new = old[:start] + section + old[stop + len(end) :]
    else:
        new = old.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(new, encoding="utf-8")
