"""Le Conseil des 12: whole games (conservation of the cards, the Faveur's bounds, the same
seed giving the same game), the twelve months' special rules, the chronicle and the hint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.conseil import rules
from engine.conseil.chronicle import dynast, roman
from engine.conseil.content import MONTHS
from engine.conseil.solver import Omniscient
from engine.core import playout, registry
from engine.core.rng import Rng
from pipeline.story.bundles import bundle_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundle():
    return bundle_for("conseil", ROOT / "content")


@pytest.fixture
def game(bundle):
    # built for each test: mutmut links the code a fixture runs to the first test that builds
    # it, so a game shared by the module would leave Rules.__init__ judged by one test only
    return registry.get("conseil")(bundle)


def play(game, seed, n, scenario="base", silent=False, every=None, omniscient=False):
    setup = game.normalize_setup(
        {"seed": seed, "players": n, "bots": n, "scenario": scenario, "silent": silent}
    )
    state = game.new_game(setup)
    table = Omniscient(game)

    def drawn_seat(game: Any, state: dict, seats: list[int], k: int) -> int:
        return seats[Rng({"rng": k}).below(len(seats))]

    def policy(game: Any, state: dict, seat: int, k: int) -> Any:
        rng = Rng({"rng": Rng.seed_from(f"{seed}:{k}")})
        return table.action(state, seat, rng) if omniscient else game.choose(state, seat, rng)

    for move in playout.play(game, state, policy, seat=drawn_seat):
        state = move.after
        if every:
            every(state)
        assert move.index + 1 < 2000
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_many_bot_games_keep_every_card_in_one_place(game, n):
    def check(state):
        game.check_state(state)
        assert 0 <= state["favor"] <= rules.FAVOR_MAX
        assert len(state["pets"]) + len(state["pets_done"]) + bool(state["petitioner"]) == 7
        assert state["pile"][-1] == rules.THRONE or state["dilemma"] == rules.THRONE

    for i in range(40):
        state = play(game, f"prop-{n}-{i}", n, every=check)
        assert state["phase"] == "over"
        out = game.outcome(state)
        assert (out.winners == list(range(n))) == state["result"]["won"]
        if state["result"]["won"]:
            assert state["throne_char"] and state["favor"] >= 1
        else:
            assert state["throne_char"] is None


def test_setup(game):
    for n, favor in ((2, 3), (3, 3), (4, 4)):
        setup = game.normalize_setup({"seed": f"mise-{n}", "players": n, "bots": n})
        s = game.new_game(setup)
        assert s["favor"] == favor - (1 if s["rung"] else 0)
        assert (s["chef"] is not None) == (n == 4)
        assert "puissante" in s["face_up"] and len(s["face_up"]) == 5
        assert any(game.R.crown(c) == 1 for c in s["face_up"] if c != "puissante")
        pile = [*s["resolved"], s["dilemma"], *s["pile"]]
        levels = sorted(game.R.dilemmas[d]["difficulty"] for d in pile if d in game.R.dilemmas)
        assert levels == [1, 1, 1, 1, 2, 2, 3] and pile[-1] == rules.THRONE
        hand = set(s["hands"][0]) | {c for c in s["chosen"] if c}
        assert all(set(h) <= set(s["face_up"]) for h in s["hands"]) and hand


def test_same_seed_same_game(game):
    a = play(game, "meme", 3)
    b = play(game, "meme", 3)
    assert a == b


@pytest.mark.parametrize("month", MONTHS)
def test_every_month_is_set_up_as_written_and_ends(game, month):
    sc = game.R.scenarios[month]
    setup = game.normalize_setup({"seed": month, "players": 3, "bots": 3, "scenario": month})
    s = game.new_game(setup)
    pets = [*s["pets"], *([s["petitioner"]] if s["petitioner"] else []), *s["pets_done"]]
    assert sorted(pets) == sorted(sc["petitioners"])
    dilemmas = [s["dilemma"], *s["pile"][:-1]]
    assert sorted(dilemmas) == sorted(int(d) for d in sc["dilemmas"])
    assert s["pile"][-1] == rules.THRONE
    assert s["favor"] == (sc.get("start_favor") or 3)
    assert s["silent"] == bool(sc.get("silent"))
    for seed in ("x", "y"):
        end = play(game, f"{month}-{seed}", 3, scenario=month)
        assert end["phase"] == "over"
        if end["result"]["won"] and sc.get("throne"):
            assert end["throne_char"] == sc["throne"]
        if end["result"]["won"] and sc.get("min_bells"):
            assert end["rings"] >= sc["min_bells"]


def test_november_gives_no_faveur(game):
    s = play(game, "nov", 3, scenario="novembre")
    assert not any(e["key"] == "favor.moved" and e["args"]["delta"] > 0 for e in s["log"])
    assert any(e["key"] == "favor.none" for e in s["log"]) or s["favor"] <= 1


def test_a_silent_council_says_nothing(game):
    s = play(game, "chut", 3, silent=True)
    assert not any(e["key"].startswith("remark.") for e in s["log"])
    december = play(game, "chut-dec", 3, scenario="decembre")
    assert not any(e["key"].startswith("remark.") for e in december["log"])
    talk = play(game, "bavard", 3)
    assert any(e["key"].startswith("remark.") for e in talk["log"])


def test_a_month_rule_decides_the_end(game):
    s = play(game, "mai-regle", 3, scenario="mai")
    s = dict(s)
    s["phase"], s["result"] = "x", None
    s["throne_char"], s["claimed"], s["favor"] = "sorcier", True, 2
    rules._end(game.R, s)
    assert s["result"]["reason"] == "throne_rule" and not s["result"]["won"]


def test_the_chronicle_across_games(game):
    s = play(game, "chronique", 2)
    # the seats are named from the game's list: the first reign of a name is « Ier » or « Ire »
    first = s["seats"][1]["name"]
    assert game.outcome(s).ranking[0]["name"].endswith(dynast(first, 1))
    assert dynast(first, 1) in (f"{first} Ier", f"{first} Ire")
    nxt = game.sequel(s)
    assert nxt is not None and nxt["chronicle"]["games"] == 1
    assert nxt["chronicle"]["year"] == 1 + s["result"]["total"]
    throne = s["throne_char"]
    if throne:
        every = [
            *nxt["pets"],
            *([nxt["petitioner"]] if nxt["petitioner"] else []),
            *nxt["pets_done"],
        ]
        assert throne not in every
    nxt, _ = playout.play_out(game, nxt, _bots)
    assert game.outcome(nxt).ranking[0]["name"].endswith(f"{first} II")
    assert len(game.chronicle(nxt)[0]["items"]) == 2
    assert [roman(n) for n in (1, 2, 3, 4, 9, 12)] == ["Ier", "II", "III", "IV", "IX", "XII"]


def test_the_throne_removed_from_the_next_game_is_replaced_by_a_crown_one(game):
    s = play(game, "trone", 3)
    s = dict(s)
    s["throne_char"] = "puissante"
    s["result"] = {**s["result"], "won": True}
    nxt = game.sequel(s)
    assert "puissante" not in nxt["face_up"] and len(nxt["face_up"]) == 5


def test_the_hint_after_a_lost_dilemma(game):
    for i in range(60):
        setup = game.normalize_setup({"seed": f"indice-{i}", "players": 3, "bots": 3})
        s, _ = playout.play_out(game, game.new_game(setup), _bots, seat=_until_aftermath)
        if s["phase"] == "aftermath":
            after = game.apply(s, {"type": "hint"})
            text = game.render_log(after["log"][-1 - _since(after)])
            if text.startswith("Même en voyant toutes les mains"):
                continue  # no solution that time: look for a dilemma that had one
            assert text.startswith("Il y avait une solution : "), text
            assert "révéler dans cet ordre" in text
            return
    pytest.fail("no dilemma was lost in 60 games")


def _since(state):
    """How many entries the next turn logged after the hint."""
    keys = [e["key"] for e in state["log"]]
    return len(keys) - 1 - keys.index("hint")


def test_the_omniscient_table_wins_more_than_the_honest_bots(game):
    bots = sum(play(game, f"cmp-{i}", 2)["result"]["won"] for i in range(20))
    seer = sum(play(game, f"cmp-{i}", 2, omniscient=True)["result"]["won"] for i in range(20))
    assert seer >= bots and seer >= 15


def test_the_guided_game(game):
    setup = game.normalize_setup({"seed": "guide", "players": 3, "bots": 2, "scenario": "tutoriel"})
    s = game.new_game(setup)
    assert s["petitioner"] == "dame" and s["die"] == 7 and s["dilemma"] == 5
    assert s["phase"] == "choose"  # no bells in the guided game
    scr = game.screen(s, 0, game.legal_actions(s, 0))
    texts = [w for w in scr["widgets"] if w["type"] == "text"]
    assert texts and texts[0]["title"].startswith("Tutoriel 1")
    end = play(game, "guide", 3, scenario="tutoriel")
    assert end["phase"] == "over" and len(end["resolved"]) == 4


def test_a_vacant_throne_offers_le_roi_des_12_when_it_exists(game, monkeypatch):
    from engine.conseil import chronicle

    lost = None
    for i in range(40):
        s = play(game, f"vacant-{i}", 2)
        if not s["result"]["won"]:
            lost = s
            break
    assert lost is not None
    monkeypatch.setattr(chronicle.registry, "ids", lambda: ["conseil", "roi"])
    links = game.outcome(lost).links
    assert [link["game"] for link in links] == ["roi"]
    monkeypatch.setattr(chronicle.registry, "ids", lambda: ["conseil"])
    assert game.outcome(lost).links == []


class _View:
    """The records of the content, as a checker's graph view shows them."""

    def __init__(self, bundle):
        self.bundle = bundle

    def records(self):
        for kind, recs in self.bundle["records"].items():
            for key, data in recs.items():
                yield f"{kind}:{key}", kind, data


def test_the_content_checks(game):
    from engine.conseil import content, deep

    view = _View(game.bundle)
    assert content._numbers(view) == []
    assert content._solvable(view) == []
    assert deep.months_winnable(type(game), view) == []  # the deep check: every month won
    broken = {**game.bundle, "records": {**game.bundle["records"]}}
    broken["records"]["dilemma"] = {
        **game.bundle["records"]["dilemma"],
        "99": {"title": "X", "objectives": [[13], [13]], "value": 1},
    }
    assert [i.node for i in content._solvable(_View(broken))] == ["dilemma:99"]


def test_the_council_wins_or_loses_together_whatever_its_silent_boxes(game):
    """« le Conseil gagne la partie » : the winners are the seats, every one of them on a win
    and none on a loss, never one per box of the Conseil silencieux."""
    for n, boxes in ((2, 5), (4, 2), (3, 0)):
        s = play(game, f"ensemble-{n}", n)
        for won in (True, False):
            end = {**s, "silent_boxes": boxes, "result": {**s["result"], "won": won}}
            out = game.outcome(end)
            assert out.winners == (list(range(n)) if won else []), (n, boxes, won)
            assert sorted(out.scores) == list(range(n))
            if boxes:
                assert f"Conseil silencieux : {boxes} case" in " ".join(out.ranking[0]["details"])


def test_simulate_gives_each_seat_of_a_won_council_an_equal_share(game):
    """``gamebook simulate``'s win shares: a won council is won by each of its seats."""
    from pipeline.story.simulate import SimulationReport, play_run

    runs = [play_run(game, f"parts-{i}", "bots", i) for i in range(6)]  # 2, 3, 4 seats
    results = [r for run in runs for r in run.results]
    assert {r["seats"] for r in results} == {2, 3, 4}
    assert sum(bool(r["winners"]) for r in results) >= len(results) // 2  # bots win most
    for r in results:
        assert r["winners"] in ([], list(range(r["seats"])))
    stats = SimulationReport(
        game="conseil",
        runs=3,
        completed=3,
        games=len(results),
        scenarios=0,
        visits={},
        errors=[],
        reachable=[],
        results=results,
    ).play_stats()
    for seat, share in stats["win_share_by_seat"].items():
        mine = [r for r in results if r["seats"] > int(seat)]
        expected = sum(1 / r["seats"] for r in mine if r["winners"]) / len(mine)
        assert share == round(expected, 4)
    assert stats["win_share_by_seat"]["0"] == stats["win_share_by_seat"]["1"]


def _won(state, throne="sorcier"):
    """A finished game, as if the council had won it with ``throne`` on the throne."""
    return {**state, "throne_char": throne, "result": {**state["result"], "won": True}}


def test_the_guided_games_sovereign_leaves_the_next_games_quemandeurs(game):
    """« Si un personnage … s'est assis sur le trône à l'issue de la partie précédente,
    retirez sa carte de la pile des cartes Quémandeur » : the guided game too."""
    end = play(game, "guide-trone", 3, scenario="tutoriel")
    for throne in ("sorcier", "puissante", "druidesse"):
        nxt = game.sequel(_won(end, throne))
        assert nxt["scenario"] == "base" and nxt["chronicle"]["throne"] == throne
        every = [*nxt["pets"], *([nxt["petitioner"]] if nxt["petitioner"] else [])]
        assert throne not in every and len(every) + len(nxt["pets_done"]) == 7
        assert len(nxt["face_up"]) == 5 and throne not in nxt["face_up"]
    # « Si la dernière partie a été perdue … la mise en place ne subit aucun changement »
    lost = {**end, "throne_char": None, "result": {**end["result"], "won": False}}
    assert game.sequel(lost)["chronicle"]["throne"] is None


def test_the_next_game_of_the_year_is_the_next_month(game):
    """« Un défi différent vous est proposé chaque mois » : after a won Mars comes Avril (its
    own Quémandeurs and dilemmas); a lost month is played again; the year ends with
    Décembre."""
    mars = play(game, "annee", 3, scenario="mars")
    avril = game.sequel(_won(mars))
    assert avril["scenario"] == "avril"
    sc = game.R.scenarios["avril"]
    assert sorted([*avril["pets"], avril["petitioner"]]) == sorted(sc["petitioners"])
    assert sorted([avril["dilemma"], *avril["pile"][:-1]]) == sorted(int(d) for d in sc["dilemmas"])
    assert (
        avril["chronicle"]["games"] == 1 and avril["chronicle"]["reigns"][0]["scenario"] == "mars"
    )
    again = game.sequel({**mars, "result": {**mars["result"], "won": False}, "throne_char": None})
    assert again["scenario"] == "mars" and again["rng"] != mars["rng"]
    decembre = play(game, "annee", 3, scenario="decembre")
    assert game.sequel(_won(decembre)) is None
    # eleven months won in a row: the year goes past the ten lines of a normal chronicle
    s = _won(play(game, "annee", 3, scenario="janvier"))
    for month in MONTHS[1:]:
        s = game.sequel(s)
        assert s is not None and s["scenario"] == month
        s = _won({**s, "phase": "over", "result": {**mars["result"]}})
    assert game.sequel(s) is None


def test_the_pages_next_game_button_goes_on_to_the_next_month(game):
    """The play page's « Partie suivante » (``WebSession.next_json``) after a won Mars opens
    Avril, and a save of the two games loads back into Avril."""
    from engine import web

    bundle = json.dumps(game.bundle)
    for i in range(10):
        session = web.WebSession("conseil", bundle)
        session.start_json(
            json.dumps({"seed": f"mars-{i}", "players": 3, "bots": 3, "scenario": "mars"})
        )
        state = session.session.state
        if state["phase"] == "over" and state["result"]["won"]:
            break
    else:
        pytest.fail("no Mars won by the bots in ten games")
    screen = json.loads(session.next_json())
    assert session.session.state["scenario"] == "avril", screen.get("error")
    assert "Avril" in game.progress(session.session.state)
    saved = session.save_json()
    other = web.WebSession("conseil", bundle)
    json.loads(other.load_json(saved))
    assert other.session.state["scenario"] == "avril"
    assert other.session.state["chronicle"] == session.session.state["chronicle"]


def test_every_plan_of_the_solver_wins_when_the_all_seeing_table_plays_it(game):
    """The solver's model is the engine's: at the start of every turn of seeded bot games
    (with the council's RÉCOMPENSES, and again with a nudge, a flip and a reroll added), when
    the solver says the dilemma can be won, the all-seeing table playing it through the
    legal actions wins it; when it says no, that table loses it."""
    from engine.conseil.solver import _sight, solve

    extra = [{"id": 3, "type": t, "rung": False} for t in ("nudge", "flip", "reroll")]
    seen = {"plans": 0, "oracle": 0, "reward": 0, "none": 0}
    for i in range(24):
        n = 2 + i % 3
        scenario = ("base", "septembre", "avril", "mars")[i % 4]
        setup = game.normalize_setup(
            {"seed": f"plans-{i}", "players": n, "bots": n, "scenario": scenario}
        )
        s, k = game.new_game(setup), 0
        while game.to_act(s):
            fresh = s["phase"] == "choose" and not any(s["chosen"]) and not s["two_turns"]
            for more in ([], extra) if fresh else ():
                t = json.loads(json.dumps(s))
                t["rewards"] += more
                if more:
                    for seat, hand in enumerate(t["hands"]):
                        t["discards"][seat] = hand[2:] + t["discards"][seat]
                        t["hands"][seat] = hand[:2]
                    t["snapshot"]["hands"] = [list(h) for h in t["hands"]]
                    t["snapshot"]["discards"] = [list(d) for d in t["discards"]]
                    game.check_state(t)
                t["snapshot"]["rewards"] = [r["type"] for r in t["rewards"]]
                snap = t["snapshot"]
                args = (snap["hands"], snap["die"], snap["objectives"], snap["met"])
                plan = solve(*args, t["petitioner"], **_sight(snap))
                if plan is None:
                    seen["none"] += 1
                else:
                    seen["plans"] += 1
                    seen["oracle"] += any(st[2] == "roll" for st in plan["steps"])
                    seen["reward"] += any(st[2] == "reward" for st in plan["steps"])
                assert _omniscient_wins(game, t) is (plan is not None), (i, s["turn_no"], plan)
            s = game.apply(s, game.choose(s, game.to_act(s)[0], Rng({"rng": k})))
            k += 1
    assert seen["oracle"] >= 10 and seen["reward"] >= 10 and seen["none"] >= 1, seen


def _bots(game: Any, state: dict, seat: int, k: int) -> Any:
    """The bots, the ``k``-th move drawn from ``Rng({"rng": k})``."""
    return game.choose(state, seat, Rng({"rng": k}))


def _until_aftermath(game: Any, state: dict, seats: list[int], k: int) -> int | None:
    """The first seat to act, until a lost dilemma's aftermath (then the play-out stops)."""
    return None if state["phase"] == "aftermath" else seats[0]


def _omniscient_wins(game, state):
    seer, done = Omniscient(game), len(state["resolved"])

    def this_dilemma(game: Any, state: dict, seats: list[int], k: int) -> int | None:
        return seats[0] if len(state["resolved"]) == done else None

    def seeing(game: Any, state: dict, seat: int, k: int) -> Any:
        return seer.action(state, seat, Rng({"rng": k}))

    state, _ = playout.play_out(game, state, seeing, seat=this_dilemma)
    return state["resolved"][-1]["success"] if len(state["resolved"]) > done else False


def test_only_the_last_games_sovereign_leaves_the_quemandeurs(game):
    """« à l'issue de la partie précédente » : the sovereign of the game before is back among
    the Quémandeurs once another has reigned since."""
    first = play(game, "dynastie", 3)
    second = game.sequel(_won(first, "sorcier"))
    assert second["chronicle"]["throne"] == "sorcier"
    done = {**second, "phase": "over", "result": dict(first["result"])}
    third = game.sequel(_won(done, "druidesse"))
    assert third["chronicle"]["throne"] == "druidesse"
    back = False
    for k in range(12):
        again = game.R.new_game({**_setup_of(third), "seed": f"dynastie-{k}"}, third["chronicle"])
        pets = [*again["pets"], again["petitioner"], *again["pets_done"]]
        assert "druidesse" not in [p for p in pets if p]
        back = back or "sorcier" in pets
    assert back


def _setup_of(state):
    return {"seed": state["seed"], "seats": state["seats"], "scenario": "base", "silent": False}


def test_the_chronicle_sheet_reads_each_reign_as_the_rulebook_asks(game):
    """« La Chronique »: each game writes its year (the previous year plus the previous reign's
    length), the month played, the dynasty, the reign's length, who sits on the throne (or a
    vacant throne), the greatest obstacle (the last dilemma lost, never the claim itself), the
    people's verdict and, for a silent council, its ticked boxes."""
    from engine.conseil import chronicle
    from engine.conseil import text_fr as T

    assert chronicle.widgets({"chronicle": {}}) == [
        {
            "type": "text",
            "title": "La Chronique",
            "text": "La Chronique est encore vierge.",
            "tone": "note",
            "area": "main",
        }
    ]
    won = {
        "names": ["Aliénor Ire", "Bertrand Ier"],
        "year": 1,
        "scenario": "base",
        "throne": "sorcier",
        "score": 23,
        "obstacle": 12,
        "verdict": rules.verdict(23),
        "silent_boxes": 0,
    }
    lost = {
        "names": ["Aliénor II", "Bertrand II"],
        "year": 24,
        "scenario": "mars",
        "throne": None,
        "score": 1,
        "obstacle": rules.THRONE,
        "verdict": rules.verdict(1),
        "silent_boxes": 2,
    }
    third = {**won, "year": 25, "scenario": "tutoriel", "obstacle": 7, "silent_boxes": 1}
    (sheet,) = chronicle.widgets(
        {"chronicle": {"reigns": [won, lost, third]}, "phase": "choose"}, {12: "La disette"}
    )
    assert sheet["type"] == "items" and sheet["title"] == "La Chronique"
    assert sheet["ordered"] is True and sheet["area"] == "main"
    assert sheet["items"] == [
        "An 1 — Aliénor Ire, Bertrand Ier : règne de 23 ans, sur le trône : "
        f"{T.char('sorcier')}. Plus grand obstacle : La disette. {T.BAND[rules.verdict(23)]}",
        f"An 24 (Mars) — Aliénor II, Bertrand II : règne de 1 an, trône vacant. "
        f"{T.BAND[rules.verdict(1)]} Conseil silencieux : ☑☑",
        "An 25 — Aliénor Ire, Bertrand Ier : règne de 23 ans, sur le trône : "
        f"{T.char('sorcier')}. Plus grand obstacle : dilemme n° 7. "
        f"{T.BAND[rules.verdict(23)]} Conseil silencieux : ☑",
    ]
    over = play(game, "chronique", 2)
    (sheet,) = chronicle.widgets(over)
    line = chronicle.reign(over)
    assert len(sheet["items"]) == 1 and sheet["items"][0].startswith(f"An {line['year']} — ")
    assert ", ".join(line["names"]) in sheet["items"][0]


def test_the_reigns_length_is_told_by_its_parts(game):
    """« Additionnez les valeurs de toutes les cartes Dilemme résolues … les valeurs des 7
    cartes Quémandeur … le nombre de points de Faveur restants »: the result lists each part
    in years, then the verdict."""
    from engine.conseil import text_fr as T

    def years(n: int) -> str:
        return f"{n} an" if n < 2 else f"{n} ans"

    for seed in ("chronique", "parts-1", "parts-2"):
        s = play(game, seed, 3)
        res = s["result"]
        assert game.outcome(s).ranking[0]["details"][:4] == [
            f"Dilemmes résolus : {years(res['dilemmas'])}",
            f"Couronnes des Quémandeurs : {years(res['crowns'])}",
            f"Faveur restante : {years(res['favor'])}",
            T.BAND[rules.verdict(res["total"])],
        ]


def test_a_games_result_reads_the_council_as_one(game, monkeypatch):
    """The council wins or loses together: a won game names every seat, the character it put
    on the throne and the reign's length; a lost one a vacant throne (and, when Le Roi des 12
    is installed, a game of it to fill the throne); one line of ranking for the whole table;
    the reason is the journal's last line; a silent council's boxes are told."""
    from engine.conseil import chronicle
    from engine.conseil import text_fr as T

    def years(n: int) -> str:
        return f"{n} an" if n < 2 else f"{n} ans"

    seen = set()
    for i in range(30):
        s = play(game, f"issue-{i}", 3, silent=i % 2 == 1)
        res, won = s["result"], s["result"]["won"]
        seen.add((won, bool(s.get("silent_boxes"))))
        monkeypatch.setattr(chronicle.registry, "ids", lambda: ["conseil", "roi"])
        out = game.outcome(s)
        assert out.winners == ([0, 1, 2] if won else [])
        assert out.scores == {0: res["total"], 1: res["total"], 2: res["total"]}
        assert out.why == game.render_log(s["log"][-1]) and out.why
        if won:
            assert out.summary == (
                f"Le Conseil l'emporte : {T.char(s['throne_char'])} monte sur le trône. "
                f"Règne de {years(res['total'])}."
            )
            assert out.links == []
        else:
            assert out.summary == (
                f"Le Conseil a échoué ; le trône reste vacant. Règne de {years(res['total'])}."
            )
            assert out.links == [
                {
                    "game": "roi",
                    "label": "Une partie du Roi des 12 pour occuper le trône vacant",
                    "setup": {},
                }
            ]
        names = ", ".join(chronicle.reign(s)["names"])
        (line,) = out.ranking
        assert {k: v for k, v in line.items() if k != "details"} == {
            "seat": None,
            "name": f"Le Conseil : {names}",
            "rank": 1,
            "score": res["total"],
        }
        boxes = s.get("silent_boxes", 0)
        if boxes:
            word = "case cochée" if boxes == 1 else "cases cochées"
            assert line["details"][4:] == [f"Conseil silencieux : {boxes} {word}"]
        else:
            assert len(line["details"]) == 4
        monkeypatch.setattr(chronicle.registry, "ids", lambda: ["conseil"])
        assert game.outcome(s).links == []
    assert (True, False) in seen and (False, False) in seen
    for boxes, told in ((1, ["Conseil silencieux : 1 case cochée"]), (0, [])):
        assert game.outcome({**s, "silent_boxes": boxes}).ranking[0]["details"][4:] == told
    for boxes in (2, 3):
        told = game.outcome({**s, "silent_boxes": boxes}).ranking[0]["details"][4:]
        assert told == [f"Conseil silencieux : {boxes} cases cochées"]


def test_the_chronicle_goes_on_over_three_games(game):
    """« Calculez l'année où votre Conseil siège en additionnant l'année de début de règne et
    la durée du règne précédent »: after two games the third starts in year 1 + both reigns,
    with both lines written in order."""

    def finish(state):
        k = 0
        while seats := game.to_act(state):
            state = game.apply(state, game.choose(state, seats[0], Rng({"rng": k})))
            k += 1
        return state

    first = play(game, "trois-règnes", 2)
    second = finish(game.sequel(first))
    third = game.sequel(second)
    chron = third["chronicle"]
    assert chron["games"] == 2
    assert [r["score"] for r in chron["reigns"]] == [
        first["result"]["total"],
        second["result"]["total"],
    ]
    assert [r["year"] for r in chron["reigns"]] == [1, 1 + first["result"]["total"]]
    assert chron["year"] == 1 + first["result"]["total"] + second["result"]["total"]
    assert chron["throne"] == second["throne_char"]


def test_the_dynasty_writes_each_name_with_its_reign():
    """The chronicle's dynasty: a name takes its regnal number, agreeing with the name
    (« Aliénor Ire », « Bertrand II »); a name already ending with a number takes none
    (« Membre 1 », then « Membre 1 (2e règne) »)."""
    assert dynast("Aliénor", 1) == "Aliénor Ire" and dynast("Bertrand", 1) == "Bertrand Ier"
    assert dynast("Bertrand", 2) == "Bertrand II" and dynast("Aliénor", 3) == "Aliénor III"
    assert dynast("Membre 1", 1) == "Membre 1" and dynast("Membre 12", 1) == "Membre 12"
    assert dynast("Membre 1", 2) == "Membre 1 (2e règne)"
    assert dynast("Membre 12", 3) == "Membre 12 (3e règne)"
    assert dynast("Louis 2b", 1) == "Louis 2b Ier"


def test_the_greatest_obstacle_is_the_last_dilemma_lost(game):
    """The chronicle writes, for each reign, the greatest obstacle: the last dilemma the
    council failed (none when it failed none)."""
    from engine.conseil import chronicle

    for i in range(6):
        s = play(game, f"obstacle-{i}", 3)
        failed = [r["id"] for r in s["resolved"] if not r["success"]]
        assert chronicle.reign(s)["obstacle"] == (failed[-1] if failed else None)
    s = dict(s, resolved=[{"id": 4, "success": True}, {"id": 9, "success": False}])
    assert chronicle.reign(s)["obstacle"] == 9
    s["resolved"] = [{"id": 4, "success": False}, {"id": 9, "success": True}]
    assert chronicle.reign(s)["obstacle"] == 4
    s["resolved"] = [{"id": 4, "success": True}]
    assert chronicle.reign(s)["obstacle"] is None


def _reign_line(year, score, *, won=True, throne="sorcier", scenario="base", names=None):
    """A past reign as the chronicle keeps it (``chronicle.reign``)."""
    return {
        "names": names or ["Aliénor Ire", "Bertrand Ier"],
        "won": won,
        "score": score,
        "verdict": rules.verdict(score),
        "throne": throne if won else None,
        "year": year,
        "scenario": scenario,
        "obstacle": None,
        "silent_boxes": 0,
    }


def _last_game(s, past, *, scenario="base", won=True, total=30, throne="golem"):
    """The campaign's last game, over (``s``, a finished game): Aliénor and Bertrand at the
    table, ``past`` reigns in the chronicle (each name seen in all of them), this game won or
    lost with ``total``."""
    year = 1 + sum(r["score"] for r in past)
    chron = {
        "games": len(past),
        "reigns": past,
        "year": year,
        "throne": None,
        "counts": {"Aliénor": len(past), "Bertrand": len(past)},
    }
    return {
        **s,
        "seats": [{"name": "Aliénor", "bot": True}, {"name": "Bertrand", "bot": True}],
        "scenario": scenario,
        "chronicle": chron,
        "throne_char": throne if won else None,
        "result": {**s["result"], "won": won, "total": total},
        "resolved": [],
    }


def test_a_full_chronicle_ends_the_campaign_with_the_councils_record(game):
    """The chronicle sheet holds ten reigns: the tenth game over, the campaign ends with the
    council's record, read from « La Chronique »: the reigns won out of those played, the
    years of reign in all (each « Durée du règne »), the longest reign and the year it
    began (« Début de règne »), and who sits on the throne (« Sur le trône », vacant after a
    lost game)."""
    from engine.conseil import chronicle
    from engine.conseil import text_fr as T

    scores = [12, 30, 41, 7, 25, 41, 18, 9, 33]
    past, year = [], 1
    for i, score in enumerate(scores):
        past.append(_reign_line(year, score, won=i % 3 != 1))
        year += score
    assert year == 217
    over = play(game, "bilan", 2)
    end = _last_game(over, past, won=True, total=26, throne="golem")
    assert not chronicle.campaign_over({**end, "phase": "claim"})
    assert chronicle.campaign_over(end)
    record = chronicle.standings(end)
    assert record == {
        "type": "ranking",
        "title": "Fin de la campagne : le bilan du Conseil",
        "rows": [
            {
                "rank": 1,
                "name": "Le Conseil : Aliénor X, Bertrand X",
                "score": 242,
                "details": [
                    "7 parties gagnées sur 10",
                    "Années de règne en tout : 242 ans",
                    # the first of the two 41-year reigns, begun in year 1 + 12 + 30
                    "Plus long règne : 41 ans, à partir de l'an 43",
                    f"Sur le trône : {T.char('golem')}",
                ],
            }
        ],
        "why": "La feuille de la Chronique est pleine (10 règnes).",
        "carry": [
            "La Chronique garde chaque règne, son année, son verdict et le personnage monté "
            "sur le trône.",
            "Les membres du Conseil : Aliénor et Bertrand (10 règnes dans la Chronique).",
        ],
        "area": "main",
    }
    # the result says it first: the campaign's end is the headline, its record the widget
    out = game.outcome(end)
    assert out.summary == "La campagne est terminée : 10 parties, 242 ans de règne en tout."
    assert out.widgets == [record]
    assert game.chronicle(end)[0] == record
    # the tenth game lost: the throne is vacant
    lost = _last_game(over, past, won=False, total=1)
    details = chronicle.standings(lost)["rows"][0]["details"]
    assert details[0] == "6 parties gagnées sur 10" and details[-1] == "Le trône est vacant"
    assert details[1] == "Années de règne en tout : 217 ans"
    assert game.outcome(lost).summary == (
        "La campagne est terminée : 10 parties, 217 ans de règne en tout."
    )
    # one game won of ten: « partie » in the singular
    once = [{**r, "won": False, "throne": None} for r in past]
    details = chronicle.standings(_last_game(over, once, total=26))["rows"][0]["details"]
    assert details[0] == "1 partie gagnée sur 10"
    # a longer last reign is the longest, begun in the year the chronicle reached
    details = chronicle.standings(_last_game(over, past, total=50))["rows"][0]["details"]
    assert details[2] == "Plus long règne : 50 ans, à partir de l'an 217"
    # nine reigns only: the sheet has a line left, no record yet
    short = _last_game(over, past[:8], total=26)
    assert not chronicle.campaign_over(short)
    assert game.outcome(short).widgets == [] and game.chronicle(short)[0]["type"] == "items"
    assert game.outcome(short).summary.startswith("Le Conseil l'emporte")


def test_decembre_won_ends_the_troubled_year_with_the_months_played_again(game):
    """« L'année troublée de Rita »: a month lost is played again, the year ends once
    Décembre is won; the record counts the months won of those played, the months played
    again after a failure, and ends in the year Décembre's reign ends."""
    from engine.conseil import chronicle
    from engine.conseil import text_fr as T

    months = ["janvier", "fevrier", "fevrier", "mars", "avril", "avril", "avril", "mai"]
    months += ["juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"]
    past, year = [], 1
    for i, month in enumerate(months):
        # a month is lost when the next line plays it again; the first Décembre is lost
        won = i + 1 >= len(months) or months[i + 1] != month
        won = won and month != "decembre"
        past.append(_reign_line(year, 10 + i, won=won, scenario=month))
        year += 10 + i
    assert sum(1 for r in past if r["won"]) == 11 and year == 256
    over = play(game, "bilan", 2)
    for month in ("novembre", "decembre"):
        for won in (True, False):
            s = _last_game(over, past, scenario=month, won=won, total=40)
            assert chronicle.campaign_over(s) == (won and month == "decembre")
    end = _last_game(over, past, scenario="decembre", won=True, total=40, throne="stoique")
    record = chronicle.standings(end)
    assert record["why"] == "Décembre est gagné : l'année troublée s'achève en l'an 296."
    (row,) = record["rows"]
    assert row["name"] == "Le Conseil : Aliénor XVI, Bertrand XVI" and row["score"] == 295
    assert row["details"] == [
        "12 parties gagnées sur 16",
        "Mois rejoués après un échec : 4",
        "Années de règne en tout : 295 ans",
        "Plus long règne : 40 ans, à partir de l'an 256",
        f"Sur le trône : {T.char('stoique')}",
    ]
    assert record["carry"][1] == (
        "Les membres du Conseil : Aliénor et Bertrand (16 règnes dans la Chronique)."
    )
    assert game.outcome(end).summary == (
        "La campagne est terminée : 16 parties, 295 ans de règne en tout."
    )


def test_every_game_starts_with_the_faveur_the_rulebook_gives(game):
    """« Placez le jeton Faveur sur la case 4 … si vous jouez à 4 ou sur 3 si vous êtes moins
    nombreux », in the guided game and the months too; Novembre starts at 1 (« vous
    commencez ce scénario avec 1 point de Faveur »)."""
    for scenario in ("tutoriel", "mars", "novembre"):
        for n in (2, 3, 4):
            setup = game.normalize_setup(
                {"seed": f"faveur-{n}", "players": n, "bots": n, "scenario": scenario}
            )
            s = game.new_game(setup)
            favor = 1 if scenario == "novembre" else 4 if n == 4 else 3
            assert s["log"][0]["args"]["favor"] == favor, (scenario, n)


def test_the_guided_game_deals_the_rulebooks_example(game):
    """The guided game: the die on 7, LA DAME first before TOUR EFFONDRÉE (the rulebook's
    example), then its fixed piles: four easy dilemmas and seven Quémandeurs in order."""
    setup = game.normalize_setup({"seed": "guide", "players": 3, "bots": 3, "scenario": "tutoriel"})
    s = game.new_game(setup)
    assert [s["dilemma"], *s["pile"]] == [5, 8, 2, 13, rules.THRONE]
    assert [s["petitioner"], *s["pets"]] == [
        "dame",
        "stoique",
        "automate",
        "parasite",
        "puissante",
        "sorcier",
        "druidesse",
    ]
    assert s["face_up"] == sorted(["puissante", "sorcier", "druidesse", "automate", "parasite"])
    assert s["reserve"] == sorted(set(rules.CHARACTERS) - set(s["face_up"]))
    game.check_state(s)
    # the state a save keeps: its format version (checked on resume), the first turn
    assert s["format_version"] == game.state_version
    assert game.view(s, 0)["turn_no"] == 1 and s["step"] == 0
    assert s["log"][0]["args"] == {
        "names": [seat["name"] for seat in s["seats"]],
        "favor": 3,
        "die": 7,
        "scenario": "tutoriel",
    }
    assert s["log"][1] == {
        "key": "setup.face_up",
        "args": {"chars": s["face_up"], "hidden": 2},
    }


def test_a_dilemma_without_bells_is_dealt_as_an_easy_one(game):
    """The content's dilemmas may leave out their bells (« difficulty »): such a card is an
    easy one (one bell), as the content check counts it; the normal setup still deals four
    easy, two medium and one hard dilemma."""
    easy = {k for k, d in game.R.dilemmas.items() if d.get("difficulty", 1) == 1}
    game.R.dilemmas = {
        k: {f: v for f, v in d.items() if f != "difficulty"} if k in easy else d
        for k, d in game.R.dilemmas.items()
    }
    s = game.new_game(game.normalize_setup({"seed": "cloches", "players": 3, "bots": 3}))
    pile = [*(r["id"] for r in s["resolved"]), *([s["dilemma"]] if s["dilemma"] else [])]
    pile += s["pile"]
    assert len(pile) == 8 and pile[-1] == rules.THRONE
    assert sum(1 for d in pile if d in easy) == 4
    levels = sorted(game.R.dilemmas[d].get("difficulty") or 1 for d in pile[:-1])
    assert levels == [1, 1, 1, 1, 2, 2, 3]


def test_a_writer_starts_a_game_at_the_dilemma_of_their_choice(game):
    """The writers' starting point « dilemma:N »: the game opens on that dilemma, the rest of
    the pile dealt as usual (seven dilemmas, then the claim)."""
    setup = game.normalize_setup({"seed": "depart", "players": 2, "bots": 2})
    for number in (22, 5, 33):
        s = game.start_from(f"dilemma:{number}", setup)
        assert s["dilemma"] == number and s["turn_no"] == 1
        assert len(s["pile"]) == 7 and s["pile"][-1] == rules.THRONE
        assert number not in s["pile"]


def test_la_puissante_on_the_throne_is_replaced_by_a_crown_one_quemandeur(game):
    """« Si la PUISSANTE a été écartée de la sorte, tirez 1 carte Quémandeur supplémentaire
    face visible de valeur 1 »: besides the crown-1 card the four others must hold, the
    face-up Quémandeurs hold one more crown 1."""
    s = _won(play(game, "trone", 3), "puissante")
    for i in range(8):
        nxt = game.sequel({**s, "seed": f"trone-{i}"})
        ones = [c for c in nxt["face_up"] if game.R.crown(c) == 1]
        assert "puissante" not in nxt["face_up"] and len(ones) >= 2, nxt["face_up"]


def test_each_game_of_a_chronicle_is_dealt_anew(game):
    """The same table and seed, the next game of the chronicle: another deal (the game's
    number in the chronicle is part of its generator)."""
    setup = game.normalize_setup({"seed": "chronique", "players": 3, "bots": 3})
    first = game.R.new_game(setup)
    chron = {"games": 1, "reigns": [], "year": 30, "throne": None}
    second = game.R.new_game(setup, chronicle=chron)
    assert second["rng"] != first["rng"]
    assert [second["dilemma"], *second["pile"]] != [first["dilemma"], *first["pile"]]


def test_the_first_screen_of_a_game_shows_a_table_at_rest(game):
    """A new game stops at the bells, before anyone has chosen: no card revealed, no remark;
    its screen is drawn from that state."""
    s = game.new_game(game.normalize_setup({"seed": "premier", "players": 3, "bots": 0}))
    assert s["phase"] == "bells"
    view = game.view(s, 0)
    assert view["revealed"] == [False, False, False] and view["remarks"] == [None, None, None]
    assert game.screen(s, 0, game.legal_actions(s, 0))


#: the fields of a Conseil table's state: a new game's, and « claimed », « last » once set
STATE_FIELDS = frozenset(
    {"chef", "chosen", "chronicle", "claimed", "die", "dilemma", "discards", "face_up", "favor",
     "first_met", "format_version", "game", "hands", "hint", "known", "last", "log",
     "lost_turn", "met", "objectives", "pending", "petitioner", "pets", "pets_done", "phase",
     "pile", "pub_discard", "remarks", "reserve", "resolved", "result", "revealed", "rewards",
     "rings", "rng", "rule", "rung", "scenario", "seats", "seed", "silent", "silent_boxes",
     "snapshot", "spoke", "step", "table", "throne_char", "turn_no", "two_turns"}
)  # fmt: skip


@pytest.mark.parametrize("month", ["base", "janvier", "juin", "novembre"])
def test_no_step_leaves_a_field_a_table_does_not_have(game, month):
    """A save and every seat's view carry the state whole: a step that wrote a field under a
    wrong name would leave the real one stale and ship a stray one.  Every field a bot game
    goes through is one of the table's, and every journal entry says what, to whom."""
    seen = {"log": 0}

    def check(state):
        assert set(state) <= STATE_FIELDS, sorted(set(state) - STATE_FIELDS)
        for entry in state["log"][seen["log"] :]:
            assert set(entry) <= {"key", "args", "to"}, entry
        seen["log"] = len(state["log"])

    for n in (2, 3, 4):
        for silent in (False, True):
            seen["log"] = 0
            state = play(game, f"fields-{month}-{n}-{silent}", n, scenario=month, silent=silent,
                         every=check)  # fmt: skip
            assert state["phase"] == "over"
