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
from pipeline.story.bundles import bundle_for
from pipeline.story.report import check

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"

STARTERS = [g.id for g in registry.games() if g.start_from is not Game.start_from]


@pytest.fixture(scope="module")
def graphs():
    return {sg.campaign.family: sg for sg in check(CONTENT).graphs.values()}


def _one_per_kind(sg) -> list[str]:
    reachable = sg.reachable if hasattr(sg, "reachable") else set(sg.graph)
    by_kind: dict[str, str] = {}
    starts = registry.get(sg.campaign.family).start_kinds  # not story nodes, but starting points
    for node in sorted(sg.graph.nodes):
        kind = node.partition(":")[0]
        known = S.KINDS[sg.campaign.family].get(kind)
        if node in reachable and known is not None and (known.story or kind in starts):
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
    # the node does not exist: said so, with the forms this game does begin at
    assert "n'existe pas" in err and "commencez à" in err and "élément de jeu" not in err


@pytest.mark.parametrize("game", STARTERS)
@pytest.mark.parametrize("node", ["", "   ", "paragraphe", "dilemma:", ":12"])
def test_a_node_without_kind_and_key_is_refused_in_french(game, node):
    """``--from`` takes ``kind:key``; an empty value used to start an ordinary game."""
    code, out, err = run_cli(["play", game, "--content", str(CONTENT), "--from", node])
    assert code == 2 and "Traceback" not in out + err
    assert "sorte:clé" in err and out == ""


@pytest.mark.parametrize("game", STARTERS)
def test_a_key_that_does_not_exist_is_refused_in_french(game, graphs):
    """Each kind a game begins at, with a key that is not in the content (a number too, since
    some kinds pad or parse it): « n'existe pas », never a search that fails later."""
    cls = registry.get(game)
    kinds = {n.partition(":")[0] for n in _one_per_kind(graphs[game])} - {"campaign"}
    assert kinds
    for kind in sorted(kinds):
        for key in ("pas_de_cle", "987"):
            code, out, err = run_cli(
                ["play", game, "--content", str(CONTENT), "--bots", str(cls.default_players),
                 "--from", f"{kind}:{key}"]
            )  # fmt: skip
            assert code == 2 and "Traceback" not in out + err, (kind, key, err)
            assert "impossible de commencer" in err, (kind, key, err)
            said = ("n'existe pas", "n'existent pas", "pas un point", "en jeu dans chaque partie")
            assert any(s in err for s in said), (kind, key, err)


def test_story_map_offers_play_from_here(tmp_path):
    from pipeline.publish.storymap import write_storymaps

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


# ---------------------------------------------------------------- every node of every campaign


def _reaching_scenarios(sg) -> dict[str, set[str]]:
    """node -> the scenarios whose own graph reaches it: from the scenario's setup through
    cards, arrows, paragraphs and choices, never through an epilogue or another scenario."""
    g = sg.graph
    out: dict[str, set[str]] = {}
    for scenario in (n for n in g if n.startswith("scenario:")):
        seen, todo = {scenario}, [scenario]
        while todo:
            node = todo.pop()
            for _, target, data in g.out_edges(node, data=True):
                if data.get("kind") in ("ends", "continues") or target.startswith("scenario:"):
                    continue
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        for node in seen:
            out.setdefault(node, set()).add(scenario.partition(":")[2])
    return out


def _starting_points(game: str, sg) -> list[str]:
    starts = registry.get(game).start_kinds
    return [
        n
        for n in sorted(sg.graph.nodes)
        if (k := S.KINDS[game].get(n.partition(":")[0])) is not None
        and (k.story or k.name in starts)
    ]


def test_every_citadel_node_starts_in_the_scenario_that_reaches_it(graphs):
    """The Citadel (issue 31): each paragraph and adventure card starts in a scenario whose
    graph reaches it (not the introduction for all), the card in play, the paragraph read,
    every adventure card on the way taken."""
    from engine.citadelle import cards as K
    from engine.citadelle.start import _in_play, way_to

    sg = graphs["citadelle"]
    g = registry.get("citadelle")(bundle_for("citadelle", CONTENT))
    setup = g.normalize_setup({"players": 2, "bots": 2, "seed": "4"})
    reaching = _reaching_scenarios(sg)
    intro = sg.campaign.data.get("intro") if hasattr(sg.campaign, "data") else None
    started: dict[str, str] = {}
    for node in _starting_points("citadelle", sg):
        kind, _, key = node.partition(":")
        state = g.start_from(node, setup)
        started[node] = state["scenario"]
        if kind in ("paragraph", "adventure_card"):  # the cards on the way are in play
            number = key if kind == "paragraph" else str(g.bundle["records"][kind][key]["number"])
            step = ("paragraph" if kind == "paragraph" else "adventure", number)
            tied = g.bundle["records"][kind][key].get("scenario")
            _, way, _ = way_to(g.bundle, step, tied)
            taken = {str(e["args"]["number"]) for e in state["log"] if e["key"] == "card.taken"}
            for step_kind, n in way[:-1]:  # taken (it may have left play since, as rules say)
                assert step_kind != "adventure" or n in taken or _in_play(g.bundle, state, n), (
                    node, n
                )  # fmt: skip
        if node in reaching:
            assert state["scenario"] in reaching[node], (node, state["scenario"], reaching[node])
        if kind == "paragraph":
            assert key in state["read"], node
        elif kind == "adventure_card":
            places = K.places(g.bundle, state, K.adventure(key))
            assert places and "box" not in places, (node, places)
        elif kind == "exploration_card":  # the next card its zone deals, or dealt already
            zone = str(g.bundle["records"]["exploration_card"][key]["zone"])
            deck = state["explore_decks"].get(zone) or []
            assert (deck and deck[-1] == key) or key not in deck, node
    in_intro = [n for n, s in started.items() if s == intro or s == "portes_rouillees"]
    assert len(started) > 350 and len(in_intro) < len(started) // 3, len(in_intro)


def test_a_card_number_names_its_only_version_or_lists_them():
    g = registry.get("citadelle")(bundle_for("citadelle", CONTENT))
    setup = g.normalize_setup({"players": 2, "bots": 2, "seed": "4"})
    state = g.start_from("adventure_card:202", setup)
    assert any(e.get("args", {}).get("key") == "202/green" for e in state["log"])
    with pytest.raises(SetupError) as err:
        g.start_from("adventure_card:304", setup)
    assert str(err.value) == (
        "impossible de commencer à « adventure_card:304 » : la carte Aventure 304 existe en "
        "plusieurs versions : précisez adventure_card:304/gold, adventure_card:304/green, "
        "adventure_card:304/green@portes_rouillees"
    )


@pytest.mark.parametrize("game", [g.id for g in registry.games()])
def test_every_node_of_every_campaign_can_be_started_from(game, graphs):
    """Every story node (and every starting point a card game offers) of the shipped content
    starts a game whose state passes the game's invariants (a refusal would be in French)."""
    g = registry.get(game)(bundle_for(game, CONTENT))
    n = registry.get(game).default_players
    nodes = _starting_points(game, graphs[game])
    refused = []
    for node in nodes:
        session = Session(g)
        try:
            session.start({"players": n, "bots": 0, "seed": "6"}, start_from=node)
        except SetupError as exc:
            assert str(exc).startswith(f"impossible de commencer à « {node} » : "), exc
            refused.append(node)
            continue
        g.check_state(session.state)
        assert session.base is not None
    assert nodes and refused == []  # every node of every shipped campaign starts


def _started(game: str, node: str, players: int, **extra):
    g = registry.get(game)(bundle_for(game, CONTENT))
    return g.start_from(node, g.normalize_setup({"players": players, "bots": players, **extra}))


def test_the_conseil_starts_at_a_month_or_with_a_dilemma_first():
    assert _started("conseil", "scenario:mars", 3)["scenario"] == "mars"
    assert _started("conseil", "tutorial:1", 3)["scenario"] == "tutoriel"
    bundle = bundle_for("conseil", CONTENT)
    for key, data in bundle["records"]["dilemma"].items():
        state = _started("conseil", f"dilemma:{key}", 3, seed="2")
        dealt = [state["dilemma"], *state["pile"][:-1]]  # the first one is on the table
        assert dealt[0] == int(key) and len(dealt) == 7, (key, dealt)
        levels = sorted(bundle["records"]["dilemma"][str(d)].get("difficulty", 1) for d in dealt)
        assert levels == [1, 1, 1, 1, 2, 2, 3], (key, data, levels)  # a pile the rules deal
    # a month whose pile holds the dilemma keeps the month
    march = bundle["records"]["scenario"]["mars"]["dilemmas"]
    state = _started("conseil", f"dilemma:{march[3]}", 3, scenario="mars")
    assert state["scenario"] == "mars" and state["dilemma"] == int(march[3])


def test_complots_starts_with_a_variant_or_a_card_in_play_at_any_table_size():
    bundle = bundle_for("complots", CONTENT)
    for vid, variant in bundle["records"]["variant"].items():
        for players in (2, 6, 8):
            state = _started("complots", f"variant:{vid}", players)
            assert state["variant"] == vid and len(state["seats"]) == players
            assert state["chars"] == list(variant["characters"])
    for cid in bundle["records"]["character"]:
        assert cid in _started("complots", f"character:{cid}", 4)["chars"]


def test_the_roi_starts_with_a_card_in_hand_or_a_tournament_of_its_size():
    from engine.roi.cards import CARD_IDS

    for card in CARD_IDS:
        state = _started("roi", f"character_card:{card}", 3, seed="1")
        assert card in state["set"], (card, state["set"])
    assert _started("roi", "tournament:12", 12)["tournament"] is True
    g = registry.get("roi")(bundle_for("roi", CONTENT))
    with pytest.raises(SetupError) as err:
        g.start_from("tournament:12", g.normalize_setup({"players": 4, "bots": 4}))
    assert str(err.value) == (
        "impossible de commencer à « tournament:12 » : un tournoi à 12 se joue à 12 : lancez "
        "avec --bots 12"
    )
