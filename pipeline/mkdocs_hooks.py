"""mkdocs hooks: pages generated from the pipeline at build time (never written to site/)."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

from pipeline import reference  # loaded by path by mkdocs: absolute import


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "reference-format.md", content=reference.render()))
    return files
