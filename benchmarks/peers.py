"""UNO with random legal moves: games/uno.rules beside peers written by hand, decisions per second, same run.

    python benchmarks/peers.py                 # 5 rounds of 0.6 s slices per row, 2 and 4 players
    python benchmarks/peers.py --seconds 10 --rounds 9
    pip install -e '.[bench]'                  # RLCard 1.2.0, for its two rows

The peers, each played to the end of one hand again and again, every decision drawn uniformly
from the legal ones with a random.Random:

- **uno.rules**: ``state.legal_moves()`` and ``state._apply(move)`` (the unchecked path bots use);
- **OpenSpiel crazy_eights**: OpenSpiel's (https://github.com/google-deepmind/open_spiel) C++
  Crazy Eights, the UNO-like shedding game it ships, through pyspiel, its Python binding, as a
  Python bot plays it (``state.legal_actions()``, ``state.apply_action(a)``; its chance nodes, the
  deal and the draws, are played the same way, since their outcomes are all equally likely,
  and are not counted as decisions);
- **RLCard env** (if RLCard is installed): ``env.step(action)``, which also builds the learning
  agent's observation (a numpy array) after every step, as an agent would use it;
- **RLCard game**: the game object under the env, ``game.get_legal_actions()`` and
  ``game.step(action)`` (it still builds a small state dict each step).

The games differ in details (docs/games/uno.md lists them; Crazy Eights has no action cards but the
eight, and OpenSpiel's stops a hand after 100 turns), so compare decisions per second; the
decisions per hand column shows how much work a hand is for each.

How it is timed (issue #24): every row is warmed up first (a hand played untimed, so the rules
file's generated code is built and the peers' first-call costs are paid), then the rows take turns
in slices of seconds/rounds, in a rotated order each round, so a busy moment of the machine falls on
all of them alike. Each round gives each row a rate and uno.rules a ratio to each peer; the table
shows the median, min and max over the rounds. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402


def run(playout, seconds: float, first: int = 0) -> tuple[int, int, float]:
    """Play hands (seed first, first+1, ...) until the budget is spent: (hands, decisions, seconds)."""
    hands = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += playout(first + hands)
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


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_playout(players: int):
    """OpenSpiel's C++ crazy_eights through pyspiel: decisions counted, chance nodes sampled."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})

    def playout(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()  # at a chance node: its outcomes, all equally likely
            if not state.is_chance_node():
                n += 1
            state.apply_action(legal[rng.randrange(len(legal))])
        return n

    return playout


def rlcard_available() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


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


def rows_for(players: int) -> tuple[dict, list[str]]:
    """The rows to time for a player count, uno.rules first, and a line for each peer left out."""
    rows = {"uno.rules (ruledsl)": rules_playout(players)}
    skipped = []
    if openspiel_available():
        rows["OpenSpiel crazy_eights (C++)"] = openspiel_playout(players)
    else:
        skipped.append("the OpenSpiel rows: pyspiel is not installed (pip install open-spiel)")
    if rlcard_available():
        rows["RLCard env"] = rlcard_env_playout(players)
        rows["RLCard game"] = rlcard_game_playout(players)
    else:
        skipped.append("the RLCard rows: RLCard is not installed (pip install -e '.[bench]')")
    return rows, skipped


def measure(rows: dict, seconds: float, rounds: int) -> dict:
    """Warm every row up, then time them in turn, ``rounds`` slices of seconds/rounds each, in a
    rotated order. Returns {label: {"rates": [decisions/s per round], "hands": n, "decisions": n}}."""
    labels = list(rows)
    for label in labels:
        rows[label](10 ** 6)  # warm-up: one hand, untimed (builds the generated code)
    out = {label: {"rates": [], "hands": 0, "decisions": 0} for label in labels}
    for r in range(rounds):
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            row = out[label]
            hands, decisions, elapsed = run(rows[label], seconds / rounds, first=row["hands"])
            row["rates"].append(decisions / elapsed)
            row["hands"] += hands
            row["decisions"] += decisions
    return out


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row, all rounds together (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="slices per row, taken in turn (default 5)")
    parser.add_argument("--players", type=int, action="append", help="player counts (default 2 and 4)")
    args = parser.parse_args(argv)
    console = Console() if Console().is_terminal else Console(width=140)
    table = Table(title=f"UNO-like, one hand, random legal moves — Python {platform.python_version()}, "
                        f"{os.cpu_count()} cores, {args.rounds} rounds of {args.seconds / args.rounds:g} s a row "
                        f"(median (min–max) over the rounds)")
    for name in ("Implementation", "Players", "Hands", "Decisions/hand", "Decisions/s", "uno.rules ÷ this"):
        table.add_column(name, justify="left" if name == "Implementation" else "right", no_wrap=True)
    skipped: list[str] = []
    for n in args.players or [2, 4]:
        rows, skipped = rows_for(n)
        result = measure(rows, args.seconds, args.rounds)
        mine = result["uno.rules (ruledsl)"]["rates"]
        for label, row in result.items():
            ratio = [a / b for a, b in zip(mine, row["rates"])]
            table.add_row(label, str(n), str(row["hands"]), f"{row['decisions'] / row['hands']:.0f}",
                          spread(row["rates"], "{:,.0f}"), "-" if label.startswith("uno.rules") else spread(ratio))
    console.print(table)
    console.print("uno.rules ÷ this: uno.rules' decisions per second over the row's, in the same round.",
                  highlight=False)
    for line in skipped:
        console.print(f"skipped {line}", highlight=False, markup=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
