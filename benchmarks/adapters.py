"""What a decision costs through the OpenSpiel adapter and the PettingZoo env, against the engine itself.

    python benchmarks/adapters.py                       # uno and trolley_car, 2 players, 5 rounds
    python benchmarks/adapters.py --games uno --players 4 --rounds 7 --seconds 2

Each row plays random games to their end, seeds 0, 1, 2, ... (a random.Random(seed) picks among the
legal moves), and counts decisions:

- native: ``state.legal_moves()``, a pick, ``state._apply(move)`` (what bench.py's playouts do);
- OpenSpiel: ``state.legal_actions()``, a pick, ``state.apply_action(a)`` on the pyspiel game of
  ruledsl/adapters/openspiel.py (the chance node that picks the seed is played, not counted);
- PettingZoo: the legal action ids (``env.actions.legal_actions``), a pick, ``env.step(a)``;
- PettingZoo + observe: the same with the pick made from ``env.observe(agent)["action_mask"]``
  (an observation is encoded at every decision: the price of a learning agent's input, not of
  the decision itself).

Every row is warmed up, then the rows take turns in slices, rotated each round; the ratio to native
(decisions per second) is taken round by round and shown as median (min-max). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import ruledsl  # noqa: E402


def native(game, players):
    def play(seed):
        s = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not s.is_over:
            s._apply(rng.choice(s.legal_moves()))
            n += 1
        return n
    return play


def openspiel(path, players):
    from ruledsl.adapters.openspiel import load_game

    og = load_game(path, players=players)

    def play(seed):
        st = og.new_initial_state()
        st.apply_action(seed % 1000)
        rng = random.Random(seed)
        n = 0
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
        return n
    return play


def pettingzoo(path, players, observe):
    from ruledsl.adapters.pettingzoo import env as make_env

    env = make_env(path, players=players)

    def play(seed):
        env.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        while not env.game_state.is_over:
            agent = env.agent_selection
            if observe:
                actions = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
            else:
                actions = env.actions.legal_actions(env.game_state)
            env.step(rng.choice(actions))
            n += 1
        return n
    return play


def timed(play, seeds, seconds):
    """Decisions per second over ``seconds`` of CPU time, continuing the seeds from ``seeds``."""
    t0 = time.process_time()
    n = 0
    while True:
        n += play(next(seeds))
        t = time.process_time() - t0
        if t >= seconds:
            return n / t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=["uno", "trolley_car"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per slice")
    args = ap.parse_args(argv)
    print("| Rules file | Players | Row | Decisions/s | ÷ native |")
    print("| --- | ---: | --- | ---: | ---: |")
    for name in args.games:
        path = str(ROOT / "games" / f"{name}.rules")
        game = ruledsl.load(path, params={"single_round": True} if name.startswith("trolley") else None)
        rows = {"native": native(game, args.players)}
        try:
            rows["OpenSpiel"] = openspiel(path, args.players)
        except ImportError:
            print(f"| {name} | {args.players} | OpenSpiel | skipped (pyspiel not installed) | |")
        try:
            rows["PettingZoo"] = pettingzoo(path, args.players, False)
            rows["PettingZoo + observe"] = pettingzoo(path, args.players, True)
        except ImportError:
            print(f"| {name} | {args.players} | PettingZoo | skipped (pettingzoo not installed) | |")
        seeds = {k: iter(range(10**9)) for k in rows}
        for k, play in rows.items():
            play(10**8)  # warm-up
        rates = {k: [] for k in rows}
        order = list(rows)
        for r in range(args.rounds):
            for k in order[r % len(order):] + order[:r % len(order)]:
                rates[k].append(timed(rows[k], seeds[k], args.seconds))
        for k in rows:
            ratios = [x / y for x, y in zip(rates[k], rates["native"])]
            shown = "-" if k == "native" else \
                f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
            print(f"| {name}.rules | {args.players} | {k} | {statistics.median(rates[k]):,.0f} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
