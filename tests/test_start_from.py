"""``gamebook play GAME --from NODE``: start at any story node, for every registered game that
implements ``Game.start_from``; a French message (exit 2, no traceback) when it cannot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from engine.core import registry
from engine.core.errors import SetupError
from engine.core.game import Game
from engine.core.save import parse
from engine.core.session import Session
from pipeline import schema as S
from pipeline.bundles import bundle_for
from pipeline.report import check

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"

STARTERS = [g.id for g in registry.games() if g.start_from is not Game.start_from]


@pytest.fixture(scope="module")
def graphs():
    return {sg.campaign.family: sg for sg in check(CONTENT).graphs.values()}


def _one_per_kind(sg) -> list[str]:
    reachable = sg.reachable if hasattr(sg, "reachable") else set(sg.graph)
    by_kind: dict[str, str] = {}
    for node in sorted(sg.graph.nodes):
        kind = node.partition(":")[0]
        known = S.KINDS[sg.campaign.family].get(kind)
        if node in reachable and known is not None and known.story:
            by_kind.setdefault(kind, node)
    return sorted(by_kind.values())


def test_two_games_at_least_start_anywhere():
    assert len(STARTERS) >= 2


@pytest.mark.parametrize("game", STARTERS)
def test_play_from_a_node_of_every_kind(game, graphs, tmp_path):
    cls = registry.get(game)
    n = cls.default_players
    nodes = _one_per_kind(graphs[game])
    started = []
    for node in nodes:
        save = tmp_path / f"{node.replace(':', '_').replace('/', '_')}.json"
        code, out, err = run_cli(
            ["play", game, "--content", str(CONTENT), "--bots", str(n), "--seed", "3",
             "--from", node, "--save", str(save)]
        )  # fmt: skip
        assert "Traceback" not in out + err
        if code == 0:
            data = parse(save.read_text(encoding="utf-8"))
            assert data["base"] is not None  # the save starts from the node's state
            started.append(node)
        else:
            assert code == 2 and "impossible de commencer" in err, (node, err)
    assert len(started) * 2 >= len(nodes), (started, nodes)


@pytest.mark.parametrize("game", STARTERS)
def test_a_save_started_elsewhere_resumes(game, graphs):
    """The save keeps the node's state as its ``base`` and replays the actions from it."""
    cls = registry.get(game)
    g = cls(bundle_for(game, CONTENT))
    n = cls.default_players
    for node in _one_per_kind(graphs[game]):
        session = Session(g)
        try:
            session.start({"players": n, "bots": n - 1, "seed": "5"}, start_from=node)
        except SetupError:
            continue
        for _ in range(3):
            seats = [s for s in g.to_act(session.state) if not session.is_bot(s)]
            if not seats:
                break
            session.act(g.legal_actions(session.state, seats[0])[0])
        text = session.save_text()
        again = Session(g)
        again.load(text)
        assert again.state == session.state and again.base == session.base
        assert json.loads(text)["base"] is not None


@pytest.mark.parametrize("game", STARTERS)
def test_a_forged_base_is_rebuilt_and_refused(game, graphs):
    """A save's ``base`` is never trusted: it is rebuilt from its start node and the setup.
    The same save with its base edited, or with its start node dropped, is refused."""
    from engine.core.save import SaveError

    cls = registry.get(game)
    g = cls(bundle_for(game, CONTENT))
    n = cls.default_players
    for node in _one_per_kind(graphs[game]):
        session = Session(g)
        try:
            session.start({"players": n, "bots": n, "seed": "6"}, start_from=node)
        except SetupError:
            continue
        data = json.loads(session.save_text())
        assert data["start"] == node
        Session(g).load(json.dumps(data))  # the genuine one loads
        forged = json.loads(json.dumps(data))
        forged["base"]["log"] = forged["base"]["log"][:-1]
        with pytest.raises(SaveError, match="état de départ"):
            Session(g).load(json.dumps(forged))
        with pytest.raises(SaveError, match="rien ne permet de reconstruire"):
            Session(g).load(json.dumps({**data, "start": None}))
        return
    pytest.fail("no node to start from")


@pytest.mark.parametrize("game", STARTERS)
def test_unknown_node_is_refused_in_french(game):
    code, _, err = run_cli(
        ["play", game, "--content", str(CONTENT), "--bots", "3", "--from", "nulle_part:42"]
    )
    assert code == 2 and "impossible de commencer" in err and "Traceback" not in err


def test_story_map_offers_play_from_here(tmp_path):
    from pipeline.storymap import write_storymaps

    report = check(CONTENT)
    written = write_storymaps(report, tmp_path)
    pages = [p for p in written if p.parent.name == "n"]
    linked = [p for p in pages if 'data-testid="play-from"' in p.read_text(encoding="utf-8")]
    assert linked
    for game in STARTERS:
        assert any(f"../../../play/{game}/?from=" in p.read_text(encoding="utf-8") for p in linked)
    # the page the link names exists in a built site: play/<game>/ for every registered game


def test_the_browser_session_starts_from_a_node(graphs):
    from engine import web

    for game in STARTERS:
        node = _one_per_kind(graphs[game])[0]
        bundle = bundle_for(game, CONTENT)
        session = web.WebSession(game, json.dumps(bundle))
        n = registry.get(game).default_players
        screen = json.loads(
            session.start_json(json.dumps({"players": n, "bots": n - 1, "start_from": node}))
        )
        if "error" in screen:
            assert "impossible de commencer" in screen["error"]
        else:
            assert session.session.base is not None
