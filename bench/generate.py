"""Generate synthetic Citadelle campaigns for the ``gamebook check`` benchmark.

A campaign of ``size`` graph nodes is written to ``bench/data/<size>/``: ``campaign.yaml`` (the
campaign, the scenario ``s0`` with its objective and epilogue) plus ``size // 1000`` content files
(at least one) under ``livre/``, each holding a slice of the ``paragraphs``, ``adventure_cards``
and ``side_quests`` sections.

The content is clean except for a few planted problems, so the checker does real work and the
benchmark can verify what it found:

* islands of two paragraphs (about 0.1 % of the nodes): the head is referenced by nothing
  (GRAPH003, warning), the tail only by the head (GRAPH001, error);
* choices reading paragraphs that do not exist (REF001);
* one choice guarded by a flag that nothing sets (COND001).

Generation is deterministic (seeded ``random.Random``); a stamp file records the generator
version, the expected node count and what was planted, and data with a matching stamp is reused.

Run alone: ``python bench/generate.py [--sizes 1000,10000] [--force]``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: Bump whenever the generated content changes: stale data is then regenerated.
GENERATOR_VERSION = 1
SEED = 7_000_007
DATA_DIR = Path(__file__).resolve().parent / "data"
STAMP = ".bench-stamp.json"
DEFAULT_SIZES = (1_000, 10_000, 100_000)

#: nodes that do not depend on the size: the campaign root, scenario s0, its two epilogue
#: branches and its objective
FIXED_NODES = 5
ITEM_TYPES = ("purse", "quest_item")
VERBS = ("move", "fight", "dodge", "sneak", "climb", "find_passage", "search", "talk", "use")

_SUBJECTS = (
    "Le gardien",
    "La vieille femme",
    "Un marchand d’épices",
    "Le capitaine de la garde",
    "L’ermite",
    "Une voix lointaine",
    "Le forgeron",
    "La prêtresse",
    "Un enfant couvert de suie",
    "Le passeur",
    "La sentinelle",
    "Un colporteur",
)
_VERBS = (
    "vous observe longuement",
    "murmure quelques mots",
    "pose sa lanterne sur la table",
    "désigne la porte du nord",
    "soupire en regardant les remparts",
    "vous tend une clef rouillée",
    "éclate d’un rire sans joie",
    "garde le silence",
    "vous fait signe d’approcher",
    "referme le grand livre",
)
_TAILS = (
    "tandis que la pluie frappe les vitraux",
    "puis parle de la Citadelle d’autrefois",
    "et vous demande ce que vous cherchez ici",
    "avant d’évoquer les brumes de l’est",
    "comme si vous étiez attendu depuis longtemps",
    "et la flamme des bougies vacille",
    "pendant qu’au loin sonne une cloche",
    "sans quitter des yeux votre épée",
)
_ACTS = (
    "Interroger",
    "Suivre",
    "Remercier",
    "Menacer",
    "Ignorer",
    "Aider",
    "Questionner",
    "Saluer",
)
_WHOM = (
    "le gardien",
    "la vieille femme",
    "le marchand",
    "l’ermite",
    "la sentinelle",
    "le passeur",
    "l’inconnu",
)
_PLACES = (
    "Salle des cartes",
    "Pont effondré",
    "Forêt des pendus",
    "Marché couvert",
    "Tour de guet",
    "Crypte oubliée",
    "Col venteux",
    "Moulin abandonné",
)

_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}
_NUMBERISH = re.compile(r"[-+.0-9]")


# --------------------------------------------------------------------------- what was planted


@dataclass
class Planted:
    """The problems planted in a campaign, with the findings they must produce."""

    #: paragraph nodes nothing refers to: GRAPH003 (warning)
    unreferenced: list[str] = field(default_factory=list)
    #: paragraph nodes referenced only from unreachable ones: GRAPH001 (error)
    unreachable: list[str] = field(default_factory=list)
    #: choices reading a paragraph that does not exist: REF001 (error)
    unknown_refs: int = 0
    #: choices guarded by a flag nothing sets: COND001 (error)
    impossible_conditions: int = 0

    def expected_codes(self) -> dict[str, int]:
        codes = {
            "GRAPH001": len(self.unreachable),
            "GRAPH003": len(self.unreferenced),
            "REF001": self.unknown_refs,
            "COND001": self.impossible_conditions,
        }
        return {code: n for code, n in sorted(codes.items()) if n}

    @property
    def total(self) -> int:
        return sum(self.expected_codes().values())


@dataclass
class Generated:
    size: int
    folder: Path
    #: YAML files, campaign.yaml included
    files: int
    #: graph nodes the checker should count (stats.nodes)
    nodes: int
    planted: Planted
    #: False when existing data with a matching stamp was reused
    fresh: bool = False
    seconds: float = 0.0


# --------------------------------------------------------------------------- YAML writing


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    plain = (
        text
        and text[0].isalpha()
        and text == text.strip()
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
        and text.lower() not in _RESERVED
        and not _NUMBERISH.fullmatch(text[:1])
    )
    return text if plain else json.dumps(text, ensure_ascii=False)


def _lines(value: Any, indent: int) -> Iterator[str]:
    """Block-style YAML for nested dicts, lists and scalars (two-space indentation)."""
    pad = "  " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                yield f"{pad}{key}:"
                yield from _lines(item, indent + 1)
            else:
                yield f"{pad}{key}: {_scalar(item)}"
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                sub = _lines(item, indent + 1)
                yield f"{pad}- {next(sub).lstrip()}"
                yield from sub
            elif isinstance(item, list):  # pragma: no cover - the generator never nests lists
                raise TypeError("nested lists are not supported")
            else:
                yield f"{pad}- {_scalar(item)}"
    else:  # pragma: no cover
        yield f"{pad}{_scalar(value)}"


def dump(sections: dict[str, Any]) -> str:
    return "\n".join(_lines(sections, 0)) + "\n"


# --------------------------------------------------------------------------- content


class _Writer:
    """Builds one campaign in memory: plain dicts ready for :func:`dump`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rng = random.Random(f"{SEED}-{size}")
        self.files = max(1, size // 1000)
        self.cards = min(999, max(3, size // 100))
        self.quests = max(2, size // 2000)
        self.flags = max(3, size // 500)
        self.islands = max(1, size // 2000)
        self.paragraphs = size - FIXED_NODES - self.cards - self.quests
        if self.paragraphs < 50:
            raise ValueError(f"size {size} is too small for a benchmark campaign (minimum 100)")
        self.planted = Planted()

    # ---------------------------------------------------------------- text
    def sentence(self) -> str:
        r = self.rng
        return f"{r.choice(_SUBJECTS)} {r.choice(_VERBS)} {r.choice(_TAILS)}."

    def choice_text(self) -> str:
        return f"{self.rng.choice(_ACTS)} {self.rng.choice(_WHOM)}"

    # ---------------------------------------------------------------- build
    def build(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        r = self.rng
        n = self.paragraphs
        # island paragraphs are scattered among the ids; the main story follows the rest in order
        island_ids = r.sample(range(2, n + 1), 2 * self.islands)
        islands = [(island_ids[2 * i], island_ids[2 * i + 1]) for i in range(self.islands)]
        in_island = set(island_ids)
        main = [i for i in range(1, n + 1) if i not in in_island]
        purses = list(range(10, self.cards + 1, 10)) or [self.cards]

        paras: dict[int, dict[str, Any]] = {}
        # ends: ~2 % of the main paragraphs stop the dialogue; never two in a row, never the first
        ends = {main[k] for k in range(2, len(main) - 1, 50)}
        ends.add(main[-1])
        # read-only paragraphs: ~3 % go on by a 'read' effect instead of choices
        reads = {main[k] for k in range(5, len(main) - 1, 33) if main[k + 1] not in ends} - ends
        for k, pid in enumerate(main):
            para: dict[str, Any] = {"id": pid, "text": self.sentence()}
            paras[pid] = para
            if pid in ends:
                para["effects"] = [{"return_to_citadel": True}]
                para["end"] = True
                continue
            nxt = main[k + 1]
            if pid in reads:
                para["effects"] = [{"read": nxt}]
                continue
            targets = [nxt]
            if nxt in ends and k + 2 < len(main):  # the story goes on past an end
                targets.append(main[k + 2])
            for _ in range(r.randint(0, 2)):
                targets.append(r.choice(main))
            choices = []
            for t in dict.fromkeys(targets):
                choice: dict[str, Any] = {"text": self.choice_text(), "read": t}
                if t != nxt and r.random() < 0.08:
                    roll = r.random()
                    if roll < 0.6:
                        choice["requires"] = {"flag": f"drapeau_{r.randrange(self.flags)}"}
                    elif roll < 0.8:
                        q = r.randrange(self.quests)
                        choice["requires"] = {"quest": {"id": f"quete_{q}", "state": "done"}}
                    else:
                        choice["requires"] = {"item": r.choice(purses)}
                choices.append(choice)
            para["choices"] = choices
            if r.random() < 0.01:
                para["actions"] = [self.action(r.choice(main), r.choice(main))]
            elif r.random() < 0.04:
                para["effects"] = [{"damage": r.randint(1, 3)}]

        # grants, each on its own reachable paragraph (after the start)
        talkers = [p for p in main[1:] if p not in ends and p not in reads]
        hosts = iter(r.sample(talkers, self.cards + self.flags + 3 * self.quests + 3))

        def effect(pid: int, eff: dict[str, Any]) -> None:
            paras[pid].setdefault("effects", []).append(eff)

        for number in range(2, self.cards + 1):
            effect(next(hosts), {"take": number})
        for f in range(self.flags):
            effect(next(hosts), {"flag": f"drapeau_{f}"})
        for q in range(self.quests):
            paras[next(hosts)]["side_quest"] = f"quete_{q}"
            effect(next(hosts), {"quest": {"id": f"quete_{q}", "state": "active"}})
            effect(next(hosts), {"quest": {"id": f"quete_{q}", "state": "done"}})
        effect(next(hosts), {"objective": "o_bench"})

        # planted: unknown references and a condition nothing can satisfy
        self.planted.unknown_refs = 2
        for j in range(self.planted.unknown_refs):
            missing = n + 101 + 37 * j
            paras[next(hosts)]["choices"].append({"text": self.choice_text(), "read": missing})
        self.planted.impossible_conditions = 1
        paras[next(hosts)]["choices"].append(
            {
                "text": "Montrer le sceau du roi",
                "requires": {"flag": "drapeau_jamais_pose"},
                "read": r.choice(main),
            }
        )
        # planted: islands no path reaches
        for head, tail in islands:
            paras[head] = {
                "id": head,
                "text": self.sentence(),
                "choices": [
                    {"text": self.choice_text(), "read": tail},
                    {"text": self.choice_text(), "read": r.choice(main)},
                ],
            }
            paras[tail] = {
                "id": tail,
                "text": self.sentence(),
                "choices": [{"text": self.choice_text(), "read": r.choice(main)}],
            }
            self.planted.unreferenced.append(f"paragraph:{head}")
            self.planted.unreachable.append(f"paragraph:{tail}")
        self.planted.unreferenced.sort()
        self.planted.unreachable.sort()

        cards = [self.card(number, main, purses) for number in range(1, self.cards + 1)]
        quests = [
            {
                "id": f"quete_{q}",
                "title": f"Quête {q} : {r.choice(_PLACES)}",
                "text": self.sentence(),
            }
            for q in range(self.quests)
        ]
        return self.manifest(), self.split([paras[i] for i in sorted(paras)], cards, quests)

    def action(self, success: int, failure: int) -> dict[str, Any]:
        r = self.rng
        action: dict[str, Any] = {
            "verb": r.choice(VERBS),
            "cost": r.randint(1, 4),
            "difficulty": r.randint(1, 6),
            "success": [{"read": success}],
        }
        action["failure"] = [{"read": failure}] if r.random() < 0.5 else [{"damage": 1}]
        return action

    def card(self, number: int, main: list[int], purses: list[int]) -> dict[str, Any]:
        r = self.rng
        card: dict[str, Any] = {"number": number}
        if number in purses:
            card["type"] = r.choice(ITEM_TYPES)
            card["title"] = f"Objet {number}"
            card["text"] = self.sentence()
            if card["type"] == "purse":
                card["weight"] = r.randint(1, 3)
            return card
        card["type"] = "terrain" if r.random() < 0.8 else "permanent_event"
        card["title"] = r.choice(_PLACES)
        card["text"] = self.sentence()
        if number == 1:  # the scenario's start: it opens the Livre des dialogues at 1
            card["effects"] = [{"read": main[0]}]
        card["actions"] = [self.action(r.choice(main), r.choice(main))]
        return card

    def manifest(self) -> dict[str, Any]:
        return {
            "campaign": {
                "id": "bench",
                "family": "citadelle",
                "title": f"Banc d’essai, {self.size} nœuds",
                "intro": "s0",
            },
            "scenarios": [
                {
                    "id": "s0",
                    "title": "La Citadelle de papier",
                    "text": self.sentence(),
                    "setup": {"start": [1], "flags": ["depart"]},
                    "objectives": [{"id": "o_bench", "text": "Parcourir le Livre des dialogues"}],
                    "epilogue": [
                        {
                            "id": "victoire",
                            "requires": {"objective": "o_bench"},
                            "text": self.sentence(),
                            "end": "victory",
                        },
                        {"id": "defaite", "text": self.sentence(), "end": "defeat"},
                    ],
                }
            ],
        }

    def split(
        self, paras: list[dict[str, Any]], cards: list[dict[str, Any]], quests: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Slice every section over the content files (contiguous ids, like a real book)."""

        def part(items: list[dict[str, Any]], i: int) -> list[dict[str, Any]]:
            return items[len(items) * i // self.files : len(items) * (i + 1) // self.files]

        out = []
        for i in range(self.files):
            sections: dict[str, Any] = {}
            for name, items in (
                ("side_quests", quests),
                ("adventure_cards", cards),
                ("paragraphs", paras),
            ):
                chunk = part(items, i)
                if chunk:
                    sections[name] = chunk
            out.append(sections)
        return out


# --------------------------------------------------------------------------- stamp and entry


def _stamp(size: int) -> dict[str, Any]:
    return {"generator_version": GENERATOR_VERSION, "seed": SEED, "size": size}


def _read_stamp(folder: Path, size: int) -> Generated | None:
    try:
        data = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if any(data.get(k) != v for k, v in _stamp(size).items()):
        return None
    files = sum(1 for p in folder.rglob("*.yaml"))
    if files != data.get("files"):
        return None
    return Generated(size, folder, files, data["nodes"], Planted(**data["planted"]))


def generate(size: int, data_dir: Path = DATA_DIR, force: bool = False) -> Generated:
    """The campaign of ``size`` nodes under ``data_dir/<size>``, written unless a matching one
    is already there."""
    folder = data_dir / str(size)
    if not force:
        existing = _read_stamp(folder, size)
        if existing is not None:
            return existing
    start = time.perf_counter()
    writer = _Writer(size)
    manifest, parts = writer.build()
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "livre").mkdir(parents=True)
    (folder / "campaign.yaml").write_text(dump(manifest), encoding="utf-8")
    width = len(str(len(parts)))
    for i, sections in enumerate(parts, 1):
        path = folder / "livre" / f"partie-{i:0{width}d}.yaml"
        path.write_text(dump(sections), encoding="utf-8")
    gen = Generated(size, folder, 1 + len(parts), size, writer.planted, fresh=True)
    stamp = {**_stamp(size), "files": gen.files, "nodes": gen.nodes, "planted": asdict(gen.planted)}
    (folder / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    gen.seconds = time.perf_counter() - start
    return gen


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(s.replace("_", "")) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 1000,10000, got {text!r}") from None
    if not sizes or any(s < 100 for s in sizes):
        raise argparse.ArgumentTypeError("sizes must be whole numbers of at least 100")
    return sizes


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=parse_sizes, default=list(DEFAULT_SIZES))
    p.add_argument("--data", type=Path, default=DATA_DIR, help="where campaigns are written")
    p.add_argument("--force", action="store_true", help="regenerate even if the stamp matches")
    args = p.parse_args(argv)
    for size in args.sizes:
        gen = generate(size, args.data, args.force)
        how = f"generated in {gen.seconds:.1f} s" if gen.fresh else "reused"
        print(
            f"{gen.folder}: {gen.files} files, {gen.nodes} nodes, "
            f"{gen.planted.total} planted findings {gen.planted.expected_codes()} ({how})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
