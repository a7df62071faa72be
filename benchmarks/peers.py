"""UNO with random legal moves: games/uno.rules beside RLCard's UNO, decisions per second, same run.

    pip install -e '.[bench]'                  # RLCard 1.2.0, the peer
    python benchmarks/peers.py                 # about 3 seconds per row
    python benchmarks/peers.py --seconds 10    # steadier numbers

RLCard (https://rlcard.org) is a toolkit for reinforcement learning in card games; its UNO is
hand-written Python. Three rows per player count, each played to the end of one hand again and
again, every decision drawn uniformly from the legal ones with a random.Random:

- **uno.rules**: ``state.legal_moves()`` and ``state._apply(move)`` (the unchecked path bots use);
- **RLCard env**: ``env.step(action)``, which also builds the learning agent's observation
  (a numpy array) after every step, as an agent would use it;
- **RLCard game**: the game object under the env, ``game.get_legal_actions()`` and
  ``game.step(action)`` (it still builds a small state dict each step).

The two UNOs differ in details (docs/games/uno.md lists them): RLCard plays a drawn card that fits
at once, without asking, so its hands need fewer decisions. Compare decisions per second; the
decisions per hand column shows how much work a hand is for each. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402


def run(playout, seconds: float) -> tuple[int, int, float]:
    """Play hands (seed 0, 1, ...) until the budget is spent: (hands, decisions, seconds)."""
    hands = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += playout(hands)
        hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands, decisions, elapsed


def rules_playout(players: int):
    game = ruledsl.load(ROOT / "games" / "uno.rules")

    def playout(seed: int) -> int:
        state = game.new_game(players, seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_over:
            legal = state.legal_moves()
            state._apply(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return playout


def rlcard_env_playout(players: int):
    import rlcard

    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})

    def playout(seed: int) -> int:
        rng = random.Random(seed)
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return playout


def rlcard_game_playout(players: int):
    import rlcard

    game = rlcard.make("uno", config={"seed": 0, "game_num_players": players}).game

    def playout(seed: int) -> int:
        rng = random.Random(seed)
        game.init_game()
        n = 0
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return playout


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per row (default 3)")
    parser.add_argument("--players", type=int, action="append", help="player counts (default 2 and 4)")
    args = parser.parse_args(argv)
    console = Console() if Console().is_terminal else Console(width=120)
    try:
        import rlcard
    except ImportError:
        console.print("RLCard is not installed: pip install -e '.[bench]'")
        return 2
    rows = []
    for n in args.players or [2, 4]:
        mine = run(rules_playout(n), args.seconds)
        for label, make in (("uno.rules (ruledsl)", None), ("RLCard env", rlcard_env_playout),
                            ("RLCard game", rlcard_game_playout)):
            hands, decisions, seconds = mine if make is None else run(make(n), args.seconds)
            rows.append((label, n, hands, decisions / hands, decisions / seconds, hands / seconds))
    table = Table(title=f"UNO, one hand, random legal moves — Python {platform.python_version()}, "
                        f"RLCard {rlcard.__version__}, {os.cpu_count()} cores, {args.seconds:g} s a row")
    for name in ("Implementation", "Players", "Hands", "Decisions/hand", "Decisions/s", "Hands/s",
                 "÷ RLCard env", "÷ RLCard game"):
        table.add_column(name, justify="left" if name == "Implementation" else "right", no_wrap=True)
    for i, (label, n, hands, per_hand, dps, hps) in enumerate(rows):
        env_dps, game_dps = rows[i - i % 3 + 1][4], rows[i - i % 3 + 2][4]
        table.add_row(label, str(n), str(hands), f"{per_hand:.0f}", f"{dps:,.0f}", f"{hps:,.1f}",
                      f"{dps / env_dps:.2f}", f"{dps / game_dps:.2f}")
    console.print(table)
    console.print("÷ columns: decisions per second over the RLCard row's, same player count.", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
