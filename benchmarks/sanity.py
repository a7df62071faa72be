"""Do the bots play the seed games like sensible players? Counts of what they do, per game.

    python benchmarks/sanity.py tramwaje --bot greedy --games 20
    python benchmarks/sanity.py trambahn --bot greedy --bot ismcts --games 20
    nice -n 10 python benchmarks/sanity.py tramwaje --games 100 --json    # the figures of docs/games/
    python benchmarks/sanity.py tramwaje --bot greedy --games 100 --cpu-budget 600   # as many as fit in 10 CPU-minutes
    python benchmarks/sanity.py tramwaje --bot greedy --games 100 --jobs 2           # two processes, the same figures
    python benchmarks/sanity.py trambahn --bot greedy --rules copy.rules              # another heuristic, tried
    python benchmarks/sanity.py tramwaje --bot ismcts --games 2 --set max_rounds=3    # a short trial

Tramwaje (three players by default): companies founded before the round
bound, cards paid per card bought in accepted offers (mean and max), gifts
(accepted offers that pay nothing) and among them Kings or wild cards given
away, attacks made (with their strength) and repelled, and the moves (turns)
in which the player used up ``max_actions`` actions.

Trambahn (two players): tramways bought, regular scorings, extra tours, final
scores, the share of games in which each bot bought a tramway and scored, and
how many cards the longest column held when the game ended (games by that
number: eight make an extra tour).

Every seat plays the same bot unless ``--bot`` is given once per seat. The CPU
time per decision is the time of this process spent in the bots' choose(), over
decisions with more than one legal move. Nothing is asserted: this only counts.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402
from ruledsl.play.botbase import decide, sight_for  # noqa: E402
from ruledsl.play.bots import make_bot  # noqa: E402
from ruledsl.play.sim import derive_seed  # noqa: E402

DEFAULT_BOT = "ismcts"


def _play(game, n: int, seed: int, specs: list[str], watch) -> tuple:
    """Play one game; ``watch(state, move)`` is called before every move. Returns (state, cpu, decisions)."""
    state = game.new_game(n, seed)
    bots = [make_bot(specs[p % len(specs)], derive_seed(seed, p)) for p in range(n)]
    sight = sight_for(state, bots)  # as simulate's: search bots' worlds keep what their players saw
    cpu = 0.0
    decisions = 0
    while not state.is_over:
        player = state.current_player
        legal = state.legal_moves()
        if len(legal) > 1:
            start = time.process_time()
            move = decide(bots[player], state, player, legal, sight)
            cpu += time.process_time() - start
            decisions += 1
        else:
            move = legal[0]
        watch(state, move)
        state._apply(move)
    return state, cpu, decisions


def _strength(state, cards) -> int:
    return sum(state.evaluate("strength", c) for c in cards)


def _tramwaje_game(args, i: int) -> dict:
    """One game of Tramwaje (the ``i``-th of the run), counted: a worker process may play it."""
    began = time.process_time()
    game = _load(args, "tramwaje")
    n = args.players or 3
    cap = game.program.params.get("max_actions", 40)
    seed = derive_seed(args.seed, i)
    counts = {"turns": 0, "capped_turns": 0, "accepted": 0, "rejected": 0, "bought": 0, "paid": 0,
              "paid_per_bought": [], "gifts": 0, "kings_or_wilds_given_free": 0, "attacks": 0, "repelled": 0,
              "strengths": [], "examples": []}
    turn = {"key": None, "actions": 0, "last": None}

    def close_turn():
        if turn["key"] is not None:
            counts["turns"] += 1
            if turn["actions"] >= cap and turn["last"] != "end_move":
                counts["capped_turns"] += 1

    def watch(state, move):
        if state.decision == "action":
            key = state.get_var("moves_played")
            if key != turn["key"]:
                close_turn()
                turn.update(key=key, actions=0)
            turn["actions"] += 1
            turn["last"] = move.name
            if move.name == "attack_player":
                counts["attacks"] += 1
        elif state.decision == "defence":
            battle = state.zones[state.zone_id("battle")]
            counts["strengths"].append(_strength(state, battle))
            if move.name == "repel":
                counts["repelled"] += 1
        elif state.decision == "answer":
            goods = list(state.zones[state.zone_id("goods")])
            pay = list(state.zones[state.zone_id("payment_on_sale")])
            for p in range(n):
                pay += state.zones[state.zone_id(f"payment[{p}]")]
            if move.name == "reject":
                counts["rejected"] += 1
                return
            counts["accepted"] += 1
            counts["bought"] += len(goods)
            counts["paid"] += len(pay)
            counts["paid_per_bought"].append(len(pay) / max(1, len(goods)))
            if not pay:
                counts["gifts"] += 1
                given = [state.card_label(c) for c in goods]
                if any(state.evaluate("wild", c) or state.evaluate("of_rank", c, 13) for c in goods):
                    counts["kings_or_wilds_given_free"] += 1
                counts["examples"].append({"game": i, "gift": given})
            elif len(pay) >= 3 * len(goods):
                counts["examples"].append({"game": i, "bought": [state.card_label(c) for c in goods],
                                           "paid": [state.card_label(c) for c in pay]})

    state, cpu, decisions = _play(game, n, seed, args.bot, watch)
    close_turn()
    if state.finding:
        counts["end"] = "move_limit"
    elif state.get_var("founded"):
        counts["end"] = "founded"
        counts["founder"] = state.get_var("founder")
    else:
        counts["end"] = "round_bound"
    counts.update(cpu=cpu, decisions=decisions, game_cpu=time.process_time() - began)
    return counts


def _games(args, one):
    """The counts of the run's games, in order: ``one(args, i)`` for each, in ``--jobs`` processes; no new
    game is started once the CPU budget (the games' CPU time, all processes together) is spent."""
    spent = 0.0
    if args.jobs <= 1:
        for i in range(args.games):
            if args.cpu_budget and spent > args.cpu_budget:
                return
            row = one(args, i)
            spent += row["game_cpu"]
            yield i, row
        return
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        running = {}
        nxt = 0
        while nxt < args.games and len(running) < args.jobs:
            running[nxt] = pool.submit(one, args, nxt)
            nxt += 1
        done = 0
        while done < nxt:
            row = running.pop(done).result()  # in order, so the output does not depend on --jobs
            spent += row["game_cpu"]
            yield done, row
            done += 1
            if nxt < args.games and not (args.cpu_budget and spent > args.cpu_budget):
                running[nxt] = pool.submit(one, args, nxt)
                nxt += 1


def tramwaje(args) -> dict:
    n = args.players or 3
    totals = {"games": 0, "founded": 0, "round_bound": 0, "move_limit": 0, "turns": 0, "capped_turns": 0,
              "accepted": 0, "rejected": 0, "bought": 0, "paid": 0, "gifts": 0,
              "kings_or_wilds_given_free": 0, "attacks": 0, "repelled": 0,
              "founder_seats": [0] * n, "examples": []}
    ppb, strengths, cpu, decisions, games_cpu = [], [], 0.0, 0, 0.0
    for i, row in _games(args, _tramwaje_game):
        totals["games"] += 1
        totals[row["end"]] += 1
        if row["end"] == "founded":
            totals["founder_seats"][row["founder"]] += 1
        for key in ("turns", "capped_turns", "accepted", "rejected", "bought", "paid", "gifts",
                    "kings_or_wilds_given_free", "attacks", "repelled"):
            totals[key] += row[key]
        ppb += row["paid_per_bought"]
        strengths += row["strengths"]
        totals["examples"] += row["examples"][:5 - len(totals["examples"])]
        cpu += row["cpu"]
        games_cpu += row["game_cpu"]
        decisions += row["decisions"]
        if args.progress:
            print(json.dumps({"game": i, "end": row["end"], "founded": totals["founded"], "turns": totals["turns"],
                              "capped": totals["capped_turns"], "accepted": totals["accepted"],
                              "bought": totals["bought"], "paid": totals["paid"], "gifts": totals["gifts"],
                              "kings_or_wilds_given_free": totals["kings_or_wilds_given_free"],
                              "attacks": totals["attacks"], "cpu": round(games_cpu, 1)}),
                  file=sys.stderr, flush=True)
    return {"game": "tramwaje", "players": n, "bots": args.bot, "seed": args.seed, **totals,
            "paid_per_bought_mean": statistics.mean(ppb) if ppb else None,
            "paid_per_bought_max": max(ppb) if ppb else None,
            "paid_per_bought_overall": totals["paid"] / totals["bought"] if totals["bought"] else None,
            "attack_strength_mean": statistics.mean(strengths) if strengths else None,
            "capped_share": totals["capped_turns"] / totals["turns"] if totals["turns"] else 0.0,
            "cpu_ms_per_decision": 1000 * cpu / decisions if decisions else 0.0, "decisions": decisions,
            "games_cpu_seconds": games_cpu}


_LOADED: dict = {}


def _load(args, name: str):
    """The game, loaded once per process."""
    if name not in _LOADED:
        _LOADED[name] = ruledsl.load(args.rules or ROOT / f"games/{name}.rules", params=args.params)
    return _LOADED[name]


def trambahn(args) -> dict:
    game = ruledsl.load(args.rules or ROOT / "games/trambahn.rules", params=args.params)
    n = 2
    specs = args.bot
    totals = {"games": 0, "tramways": 0, "scorings": 0, "extra_tours": 0, "ended_by_scorings": 0,
              "zero_zero": 0, "longest_column": {}, "cpu": 0.0, "decisions": 0}
    by_bot: dict = {}
    for i in range(args.games):
        seed = derive_seed(args.seed, i)
        # seats swapped every game when two bots are given
        order = specs if i % 2 == 0 or len(specs) == 1 else list(reversed(specs))
        bought = [0] * n

        def watch(state, move):
            if move.name == "buy":
                bought[state.current_player] += 1

        state, cpu, decisions = _play(game, n, seed, order, watch)
        totals["games"] += 1
        totals["cpu"] += cpu
        totals["decisions"] += decisions
        scorings = state.get_var("scorings")
        totals["scorings"] += scorings
        totals["ended_by_scorings"] += scorings >= game.program.params.get("scorings_to_end", 10)
        totals["tramways"] += sum(bought)
        extra = [state.get_var(f"extra[{p}]") for p in range(n)]
        totals["extra_tours"] += sum(1 for p in range(n) for _ in [0] if extra[p] > 0)
        scores = list(state.scores)
        totals["zero_zero"] += all(s == 0 for s in scores)
        # the longest column at the end (eight cards make an extra tour): how near the games come to one
        zones = state.view(0)["zones"]
        longest = max((len(z) for k, z in zones.items() if k.startswith("column[") and not k.endswith(".tram")),
                      default=0)
        totals["longest_column"][longest] = totals["longest_column"].get(longest, 0) + 1
        for p in range(n):
            name = order[p % len(order)]
            row = by_bot.setdefault(name, {"seats": 0, "bought_and_scored": 0, "tramways": 0, "scores": [],
                                           "wins": 0})
            row["seats"] += 1
            row["tramways"] += bought[p]
            row["bought_and_scored"] += bought[p] > 0 and scores[p] > 0
            row["scores"].append(scores[p])
            row["wins"] += p in state.winners
        if args.progress:
            print(json.dumps({"game": i, "scores": scores, "bought": bought, "extra": extra}),
                  file=sys.stderr, flush=True)
    cpu, decisions = totals.pop("cpu"), totals.pop("decisions")
    totals["longest_column"] = dict(sorted(totals["longest_column"].items()))
    for row in by_bot.values():
        s = row.pop("scores")
        row["mean_score"] = statistics.mean(s)
        row["max_score"] = max(s)
        row["bought_and_scored_share"] = row["bought_and_scored"] / row["seats"]
    return {"game": "trambahn", "players": n, "bots": specs, "seed": args.seed, **totals,
            "by_bot": by_bot, "cpu_ms_per_decision": 1000 * cpu / decisions if decisions else 0.0,
            "decisions": decisions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=["tramwaje", "trambahn"])
    ap.add_argument("--bot", action="append", help=f"a bot for every seat, or once per seat (default {DEFAULT_BOT})")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true", help="a line per game on stderr")
    ap.add_argument("--cpu-budget", type=float, default=0.0,
                    help="Tramwaje: start no new game once the games played have taken this many CPU seconds, "
                         "all processes together (0: no limit)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="Tramwaje: games played in this many processes at once (the figures do not depend on it)")
    ap.add_argument("--rules", help="another rules file of the game (e.g. a copy with another heuristic)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the rules (e.g. max_rounds=3 for a short trial)")
    args = ap.parse_args()
    args.params = {}
    for item in args.set:
        name, eq, value = item.partition("=")
        if not eq or not value.strip().lstrip("-").isdigit():
            ap.error(f"--set {item}: give NAME=WHOLE_NUMBER, like max_rounds=3")
        args.params[name.strip()] = int(value)
    args.bot = args.bot or [DEFAULT_BOT]
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: give 1 or more")
    start = time.process_time()
    try:
        row = (tramwaje if args.game == "tramwaje" else trambahn)(args)
    except ruledsl.ParameterError as e:
        ap.error(f"--set: {e}")
    row["cpu_seconds"] = time.process_time() - start
    print(json.dumps(row, ensure_ascii=False) if args.json else json.dumps(row, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
