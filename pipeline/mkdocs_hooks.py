"""mkdocs hooks: pages generated from the pipeline at build time (never written to site/).

- the format reference (from ``pipeline.schema``);
- one play page per campaign (``play/<campaign>/``), its opening text rendered here so it is
  readable before Pyodide has started;
- one chronicle page per campaign (``chronique/<campaign>/``), filled in the browser from the
  player's saved campaign.

Every content text is HTML-escaped here: a ``<script>`` in a card stays text.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from pipeline import reference  # loaded by path by mkdocs: absolute imports
from pipeline.report import check

GAMES = {"dilemme": "Le Dilemme du Roi", "citadelle": "The 7th Citadel"}


def _content_dir(config: Any) -> Path:
    env = os.environ.get("GAMEBOOK_CONTENT")
    if env:
        return Path(env)
    return Path(config["config_file_path"]).resolve().parent / "content"


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def _opening(sg: Any) -> str:
    """The campaign's opening, exactly what a player reads first."""
    camp = sg.campaign
    parts = [_paragraphs(camp.data.get("text", ""))]
    records = sg.records
    if camp.family == "dilemme":
        start = camp.data.get("start_envelope", 0)
        env = records.get(f"envelope:{int(start):02d}")
        story = records.get(f"story_card:{env.data.get('story')}") if env else None
        if story:
            parts.append(f"<h2>{html.escape(story.data['title'])}</h2>")
            parts.append(_paragraphs(story.data.get("text", "")))
    else:
        intro = records.get(f"scenario:{camp.data.get('intro')}")
        if intro:
            parts.append(f"<h2>{html.escape(intro.data['title'])}</h2>")
            parts.append(_paragraphs(intro.data.get("text", "")))
    return "\n".join(parts)


def _play_page(sg: Any) -> str:
    title = sg.campaign.data.get("title", GAMES.get(sg.campaign.family, sg.campaign.id))
    return (
        "---\n"
        "template: game.html\n"
        f"game: {sg.campaign.family}\n"
        f"campaign_title: {title!r}\n"
        f"title: {('Jouer — ' + title)!r}\n"
        "hide:\n  - toc\n"
        "---\n\n"
        f'<div class="gb-opening">\n{_opening(sg)}\n</div>\n'
    )


def _chronicle_page(sg: Any) -> str:
    title = sg.campaign.data.get("title", sg.campaign.id)
    return (
        f"---\ntitle: {('Chronique — ' + title)!r}\n---\n\n"
        f"# Chronique — {html.escape(title)}\n\n"
        '<div class="gb-chronicle-page" id="gb-chronicle" '
        f'data-game="{html.escape(sg.campaign.family)}">\n'
        "<p>La chronique de votre campagne s'affiche ici dès que vous avez joué sur ce "
        "navigateur (elle est lue dans la sauvegarde automatique).</p>\n</div>\n\n"
        '<script src="../../assets/ui-fr.js"></script>\n'
        '<script src="../../assets/chronicle.js"></script>\n'
    )


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "reference-format.md", content=reference.render()))
    report = check(_content_dir(config))
    for sg in report.graphs.values():
        game = sg.campaign.family
        files.append(File.generated(config, f"play/{game}/index.md", content=_play_page(sg)))
        files.append(
            File.generated(config, f"chronique/{game}/index.md", content=_chronicle_page(sg))
        )
    return files
