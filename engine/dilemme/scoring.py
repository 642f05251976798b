"""The end of a game (« Fin de la partie, étapes », « Scores », « Points de Prestige et points
de Convoitise », « Sauvegarder la partie »): objective points, ranks, prestige and craving,
achievements ticked, and what is saved for the next game."""

from __future__ import annotations

from ..core import Rng
from . import abilities, achievements, campaign
from . import rules as R
from .common import _log, _rec, _rules


def _end_game(bundle: dict, state: dict) -> None:
    rules = _rules(bundle)
    camp = state["campaign"]
    seats = state["seats"]
    positions = {r: m["pos"] for r, m in state["resources"].items()}
    coins = {i: s["coins"] for i, s in enumerate(seats)}
    power = {i: s["power"] for i, s in enumerate(seats)}
    wealth = R.competition_ranks(coins)
    majority = R.power_majority_points(power)
    scores = {}
    rows = []
    for i, s in enumerate(seats):
        obj = _rec(bundle, "secret_objective", s["objective"]) if s["objective"] else None
        res_pts, wealth_pts = (
            R.secret_objective_points(obj, positions, wealth[i]) if obj else (0, 0)
        )
        public = R.public_objective_points(s["public"], positions)
        s["public_points"] = public
        total = res_pts + wealth_pts + public + majority[i]
        scores[i] = total
        rows.append(
            {
                "house": s["house"],
                "name": s["name"],
                "objective": s["objective"],
                "public": public,
                "resources": res_pts,
                "wealth": wealth_pts,
                "power": majority[i],
                "total": total,
            }
        )
    ranks = R.competition_ranks(scores)
    if state["abdicated"]:
        ending = "top" if state["stability"] >= rules["stability_track"] // 2 else "bottom"
    else:
        ending = "died"
    gains = R.prestige_and_craving(ranks, ending)
    for i, row in enumerate(rows):
        row["rank"] = ranks[i]
        p, c = gains[i]
        row["prestige"], row["craving"] = p, c
        h = camp["houses"][seats[i]["house"]]
        h["prestige"] += p
        h["craving"] += c
    winner_rank = min(ranks.values())
    winners = [seats[i]["name"] for i, r in ranks.items() if r == winner_rank]
    _log(state, "game.end", ending=ending, winners=winners)
    # achievements and alignment
    for i, s in enumerate(seats):
        hrec = _rec(bundle, "house", s["house"]) or {}
        for ach in hrec.get("achievements") or ():
            if (
                ach.get("kind") == "mechanic"
                and achievements._achievement_holds(
                    state, i, ach.get("test") or {}, ranks[i], ending
                )
            ) or (ach.get("kind") == "alignment" and ach.get("objective") == s["objective"]):
                achievements._tick(bundle, state, s["house"], ach)
        if s["objective"]:
            camp["houses"][s["house"]]["objectives"].append(s["objective"])
        abilities._trigger(bundle, state, i, "game_end")
    # save: kept immediates back into the deck, events stay, resolved dilemmas are gone
    deck = state["deck"] + state["kept_immediates"]
    Rng(state).shuffle(deck)
    camp["deck"] = deck
    camp["events"] = list(state["events"])
    camp["history"].append(
        {
            "game": camp["game_no"],
            "ending": ending,
            "rows": rows,
            "timeline": state["timeline"],
            "stability": state["stability"],
            "resources": positions,
        }
    )
    state["result"] = {"ending": ending, "rows": rows, "winners": winners}
    if state["final_pending"] and not camp["finished"]:
        campaign._grand_final(bundle, state)
    state["phase"] = "over"
    state["pending"] = None
