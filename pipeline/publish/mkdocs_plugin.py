"""The site generator's plug-in: pages generated from the pipeline and the game registry at build
time (never written to site/).  No game is named here: every registered game gets its pages.

The interface is narrow on purpose, so that another generator can take mkdocs' place: three
plain functions, each data in and data out, know nothing of mkdocs —

- ``navigation(nav, docs_dir)``: the site's navigation with every game's pages added;
- ``generated_pages(content_dir)``: ``(path, Markdown)`` of every page made at build time;
- ``home(markdown, docs_dir)``: a page's Markdown with the list of games filled in;

and ``GamebookPlugin`` (registered as the ``gamebook`` mkdocs plug-in by the entry point in
pyproject.toml) only hands mkdocs' events to them.  Theming stays in ``overrides/``.

- the format reference (from the games' content schemas);
- one play page per game (``play/<id>/``), its opening text rendered here so it is readable
  before Pyodide has started;
- one chronicle page per game that keeps a chronicle (``chronique/<id>/``), filled in the
  browser from the player's saved campaign;
- the navigation (play, chronicle and rules pages of every game) and the home page's list of
  games.

Every content text is HTML-escaped here and reaches the page as raw HTML, never as Markdown (a
``[lien](javascript:…)`` stays text) nor as a page title (the theme prints titles unescaped in
``<title>``, the header and the search index): page titles come from the registry only.  Front
matter is written by a serializer (JSON strings are valid YAML scalars), never by pasting text.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from engine.core import registry
from engine.core.game import Game
from pipeline.publish import reference
from pipeline.story.report import check

GAMES_MARK = "<!-- gamebook:games -->"


def _content_dir(config: Any) -> Path:
    env = os.environ.get("GAMEBOOK_CONTENT")
    if env:
        return Path(env)
    return Path(config["config_file_path"]).resolve().parent / "content"


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def _front(meta: dict[str, Any]) -> str:
    return (
        "---\n"
        + "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in meta.items())
        + "---\n\n"
    )


def _has_chronicle(cls: type[Game]) -> bool:
    return cls.chronicle is not Game.chronicle


def _opening(sg: Any) -> str:
    """The campaign's opening, exactly what a player reads first."""
    parts = [_paragraphs(sg.campaign.data.get("text", ""))]
    hook = sg.schema.opening
    if hook is not None:
        for title, text in hook(sg.view()):
            parts.append(f"<h2>{html.escape(title)}</h2>")
            parts.append(_paragraphs(text))
    return "\n".join(parts)


def _play_page(cls: type[Game], sg: Any | None) -> str:
    title = (sg.campaign.data.get("title") if sg else None) or cls.title
    opening = _opening(sg) if sg else _paragraphs(cls.pitch)
    return (
        _front(
            {
                "template": "game.html",
                "game": cls.id,
                "campaign_title": title,  # escaped by overrides/game.html
                "default_players": min(max(cls.default_players, cls.players[0]), cls.players[1]),
                "cooperative": cls.cooperative,
                "title": f"Jouer — {cls.title}",
                "hide": ["toc"],
            }
        )
        + f'<div class="gb-opening">\n{opening}\n</div>\n'
    )


def _chronicle_page(cls: type[Game], sg: Any | None) -> str:
    title = (sg.campaign.data.get("title") if sg else None) or cls.title
    return (
        _front({"title": f"Chronique — {cls.title}"})
        + f"<h1>Chronique — {html.escape(title)}</h1>\n\n"
        + '<div class="gb-chronicle-page" id="gb-chronicle" '
        + f'data-game="{html.escape(cls.id)}">\n'
        + "<p>La chronique de votre campagne s'affiche ici dès que vous avez joué sur ce "
        + "navigateur (elle est lue dans la sauvegarde automatique).</p>\n</div>\n\n"
        + '<script src="../../assets/ui-fr.js"></script>\n'
        + '<script type="module" src="../../assets/chronicle.js"></script>\n'
    )


def _rules_file(docs_dir: Path, cls: type[Game]) -> str | None:
    name = f"regles-{cls.id}.md"
    return name if (docs_dir / name).is_file() else None


def navigation(nav: list[Any], docs_dir: Path) -> list[Any]:
    """The navigation with every registered game's play, chronicle and rules pages after the
    home page."""
    nav = list(nav)
    play = [{cls.title: f"play/{cls.id}/index.md"} for cls in registry.games()]
    chron = [
        {cls.title: f"chronique/{cls.id}/index.md"}
        for cls in registry.games()
        if _has_chronicle(cls)
    ]
    rules = [{cls.title: r} for cls in registry.games() if (r := _rules_file(docs_dir, cls))]
    generated = [{"Jouer": play}, {"Chroniques": chron}, {"Règles": rules}]
    home = next((i for i, e in enumerate(nav) if isinstance(e, dict) and "Accueil" in e), -1)
    return nav[: home + 1] + generated + nav[home + 1 :]


def generated_pages(content_dir: Path) -> list[tuple[str, str]]:
    """``(path under the docs, Markdown)`` of every page made at build time: the format
    reference, and each game's play page and chronicle page."""
    out = [("reference-format.md", reference.render())]
    report = check(content_dir)
    by_family = {sg.campaign.family: sg for sg in report.graphs.values()}
    for cls in registry.games():
        sg = by_family.get(cls.id)
        out.append((f"play/{cls.id}/index.md", _play_page(cls, sg)))
        if _has_chronicle(cls):
            out.append((f"chronique/{cls.id}/index.md", _chronicle_page(cls, sg)))
    return out


def home(markdown: str, docs_dir: Path) -> str:
    """``markdown`` with the list of games (from the registry) where the page marks it."""
    if GAMES_MARK not in markdown:
        return markdown
    blocks = []
    for cls in registry.games():
        low, high = cls.players
        seats = f"{low} à {high} joueurs" if low != high else f"{low} joueur" + "s" * (low > 1)
        rules = _rules_file(docs_dir, cls)
        links = f"[Jouer](play/{cls.id}/index.md){{ .md-button .md-button--primary }}"
        if rules:
            links += f" [Les règles]({rules}){{ .md-button }}"
        blocks.append(f"### {cls.title}\n\n*{seats}.* {cls.pitch}\n\n{links}\n")
    return markdown.replace(GAMES_MARK, "\n".join(blocks))


class GamebookPlugin(BasePlugin[LegacyConfig]):  # no options of its own
    """mkdocs' events handed to the functions above (``plugins: [gamebook]`` in mkdocs.yml)."""

    def on_config(self, config: Any) -> Any:
        config["nav"] = navigation(config.get("nav") or [], Path(config["docs_dir"]))
        return config

    def on_files(self, files: Files, /, *, config: Any) -> Files:
        for path, markdown in generated_pages(_content_dir(config)):
            files.append(File.generated(config, path, content=markdown))
        return files

    def on_page_markdown(self, markdown: str, /, *, page: Any, config: Any, files: Files) -> str:
        return home(markdown, Path(config["docs_dir"]))
