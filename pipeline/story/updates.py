"""Safe content updates: what a change of a campaign's content breaks for the players who are
in the middle of a game saved with the published version (``gamebook check --against``).

A save holds ids: the cards in a deck or in a hand, the opened envelopes, the houses and
characters of the setup, the objectives named by its actions.  Compared with the published
bundle, the content being checked may:

- remove a record (``SAVE001``, error): a save that holds it cannot be resumed — unless the
  record was renamed and says so (``renamed_from: [old id]``): then saves are converted;
- declare a former id that cannot be converted (``SAVE002``, warning): digits only, still the
  id of another record, or claimed by two records.

A rename declared well is listed (the saves that hold the old id are converted on load).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.migrate import RENAMED_FROM, renames

from ..files import FileProblem, read_text_limited
from ..findings import Finding
from ..messages import count, declare, kind_fr, t
from .graph import StoryGraph

SAVE001 = declare(
    "SAVE001",
    "error",
    about="retiré depuis la version publiée (parties en cours cassées)",
    fix=(
        "Remettez l'élément, ou, s'il a été renommé, déclarez son ancien identifiant dans "
        "renamed_from: [ancien_id] pour que les sauvegardes soient converties (sauf un "
        "identifiant fait de chiffres, que les sauvegardes ne peuvent pas convertir : "
        "remettez-le)."
    ),
    messages={
        "save.removed": (
            "{kind} « {key} » a disparu depuis la version publiée : une partie en cours qui "
            "l'utilise (en main, dans un paquet, ouverte, choisie à la mise en place…) ne pourra "
            "plus être reprise. Si la fiche a été renommée, déclarez son ancien nom sur la "
            "nouvelle : « {field}: [{key}] »"
        ),
        "save.removed_guess": (
            "{kind} « {key} » a disparu depuis la version publiée, et « {new} » est apparu avec "
            "presque le même contenu : si c'est la même fiche renommée, ajoutez-y "
            "« {field}: [{key}] » pour que les parties en cours soient converties ; sinon, une "
            "partie qui utilise « {key} » ne pourra plus être reprise"
        ),
        "save.removed_number": (
            "{kind} « {key} » a disparu depuis la version publiée : une partie en cours qui "
            "l'utilise ne pourra plus être reprise. Un numéro renommé ne se convertit pas "
            "(renamed_from ne garde pas un ancien nom fait de chiffres) : remettez « {key} »"
        ),
    },
)


SAVE002 = declare(
    "SAVE002",
    "warning",
    about="ancien nom déclaré qui ne convertit pas les sauvegardes",
    fix="Retirez cet ancien nom de renamed_from, ou choisissez un identifiant libre.",
    messages={
        "save.rename_digits": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car il n'est fait que de chiffres"
        ),
        "save.rename_twice": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car deux fiches le déclarent"
        ),
        "save.rename_taken": (
            "ancien nom « {old} » ({field}) : les sauvegardes qui le nomment ne peuvent pas être "
            "converties, car c'est encore l'identifiant d'une autre fiche"
        ),
    },
)


@dataclass
class Comparison:
    campaign: str
    published: str | None
    current: str | None
    findings: list[Finding] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    added: int = 0
    changed: int = 0


def read_published(path: Path) -> list[dict[str, Any]]:
    """The bundles of a published version: one ``.json`` bundle, or a folder holding some (a
    built site's ``bundles/``, or ``gamebook compile``'s output).  ``ValueError`` (French)."""
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    out = []
    for f in files:
        try:
            data = json.loads(read_text_limited(f, 256 * 1024 * 1024))
        except (FileProblem, ValueError, RecursionError) as exc:
            if path.is_dir():
                continue
            why = exc if isinstance(exc, FileProblem) else "ce n'est pas du JSON lisible"
            raise ValueError(f"paquet publié illisible « {f} » : {why}") from None
        if isinstance(data, dict) and isinstance(data.get("records"), dict):
            out.append(data)
    if not out:
        raise ValueError(f"aucun paquet compilé dans « {path} » (gamebook compile en écrit)")
    return out


def _where(sg: StoryGraph, node: str | None) -> tuple[str, int, int]:
    rec = sg.records.get(node) if node else None
    if rec is not None:
        return rec.file, rec.line, rec.column
    return sg.campaign.data_pos


def compare(published: dict[str, Any], sg: StoryGraph, current: dict[str, Any]) -> Comparison:
    """What changing ``published`` into ``current`` (the bundle of ``sg``) does to saves."""
    out = Comparison(sg.campaign.id, published.get("version"), current.get("version"))
    old_records = published.get("records") or {}
    new_records = current.get("records") or {}
    table = renames(current)
    declared: dict[str, list[str]] = {}
    for kind, recs in new_records.items():
        for key, data in recs.items():
            for old in (data or {}).get(RENAMED_FROM) or ():
                declared.setdefault(str(old), []).append(f"{kind}:{key}")
    for old, nodes in sorted(declared.items()):
        if old in table:
            continue
        file, line, col = _where(sg, nodes[0])
        key = (
            "save.rename_digits"
            if old.isdigit()
            else "save.rename_twice"
            if len(nodes) > 1
            else "save.rename_taken"
        )
        out.findings.append(
            Finding(
                "SAVE002",
                "warning",
                t(key, old=old, field=RENAMED_FROM),
                file,
                line,
                col,
                nodes[0],
            )
        )
    for kind, recs in sorted(old_records.items()):
        now = new_records.get(kind, {})
        for key in sorted(recs):
            if key in now:
                if json.dumps(recs[key], sort_keys=True) != json.dumps(now[key], sort_keys=True):
                    out.changed += 1
                continue
            if key in table:
                out.renamed[f"{kind}:{key}"] = f"{kind}:{table[key]}"
                continue
            out.removed.append(f"{kind}:{key}")
            guess = _successor(recs[key], kind, now, recs, declared)
            if key.isascii() and key.isdigit():
                # a number cannot be told from a count in a save: no ``renamed_from`` to advise
                file, line, col = (
                    _where(sg, f"{kind}:{guess}") if guess is not None else sg.campaign.data_pos
                )
                message = t("save.removed_number", kind=kind_fr(kind), key=key)
            elif guess is not None:
                # the record that most likely took its place: the finding stands on it
                file, line, col = _where(sg, f"{kind}:{guess}")
                message = t(
                    "save.removed_guess", kind=kind_fr(kind), key=key, new=guess, field=RENAMED_FROM
                )
            else:
                file, line, col = sg.campaign.data_pos
                message = t("save.removed", kind=kind_fr(kind), key=key, field=RENAMED_FROM)
            out.findings.append(
                Finding("SAVE001", "error", message, file, line, col, f"{kind}:{key}")
            )
        targets = set(table.values())
        out.added += sum(1 for key in now if key not in recs and key not in targets)
    for kind, recs in new_records.items():
        if kind not in old_records:
            out.added += len(recs)
    return out


def _successor(
    old: Any,
    kind: str,
    now: dict[str, Any],
    before: dict[str, Any],
    declared: dict[str, list[str]],
) -> str | None:
    """The new record of ``kind`` that most likely is ``old`` renamed: added since the published
    version, declaring no former name, and the closest in content (at least 60 % alike)."""
    import difflib

    def body(data: Any) -> str:
        data = {k: v for k, v in (data or {}).items() if k not in ("id", RENAMED_FROM)}
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    claimed = {node.split(":", 1)[1] for nodes in declared.values() for node in nodes}
    target = body(old)
    best, score = None, 0.6
    for key, data in sorted(now.items()):
        if key in before or key in claimed:
            continue
        ratio = difflib.SequenceMatcher(None, target, body(data), autojunk=False).ratio()
        if ratio > score:
            best, score = key, ratio
    return best


def summary(c: Comparison) -> str:
    """One French paragraph on a comparison (``gamebook check --against`` prints it)."""
    counts = ", ".join(
        count(f"against.{what}", n)
        for what, n in (
            ("changed", c.changed),
            ("added", c.added),
            ("removed", len(c.removed)),
            ("renamed", len(c.renamed)),
        )
    )
    lines = [
        f"Campagne « {c.campaign} » : version publiée {c.published or '?'} → "
        f"{c.current or '?'} ; {counts}."
    ]
    for old, new in sorted(c.renamed.items()):
        lines.append(f"  renommée : {old} → {new} (les sauvegardes seront converties)")
    if not c.removed:
        lines.append("  Les parties en cours pourront être reprises.")
    return "\n".join(lines)
