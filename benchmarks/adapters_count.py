"""Instructions a decision, native / OpenSpiel / PettingZoo, counted by valgrind's callgrind.

    python benchmarks/adapters_count.py                        # uno, trolley_car, tramwaje; 2 players
    python benchmarks/adapters_count.py --games trolley_car --rows native os

The rows are benchmarks/adapters.py's (``native``, ``os``: OpenSpiel, ``pz``: PettingZoo), each
played for fixed seeds (``--count`` games, seeds 0 on, after one untimed game at seed 999) in a
process of its own under ``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``. Only what runs
inside ``functools.reduce`` (the timed games) is counted, so loading the rules and the warm-up are
not, and the count does not move with the machine's load (as CPU time does on a busy machine). The
figure is the instructions counted divided by the moves made (``move_count``: a move the adapters
take in two actions is one decision).

Run by hand, one row (what each subprocess runs)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=/tmp/cg.out python benchmarks/adapters_count.py --play trolley_car os 20
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

COUNTS = {"trolley_car": 20, "uno": 30, "tramwaje": 3}  # games a row plays: a few million instructions each
ROWS = ("native", "os", "pz", "os-floor", "native-os")


def replay(game, players, path, params):
    """native, playing the OpenSpiel row's games move for move (their moves recorded first, not
    counted): ``legal_moves()``, a pick thrown away (what the rows pay for their picks), ``_apply``
    of the move the OpenSpiel row made. The rows' games are alike, not the same (they pick among
    actions, native among moves), and a game's length and hands change what a decision costs."""
    import random

    from ruledsl.adapters.openspiel import load_game

    og = load_game(path, players=players, params=params, seeds=1000)
    games = {}

    def play(seed):
        s = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        for m in games[seed]:
            rng.choice(s.legal_moves())
            s._apply(m)
        return s.move_count

    def recorded(seed):  # the OpenSpiel row's game (benchmarks/adapters.py), its moves kept
        st = og.new_initial_state()
        st.apply_action(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        games[seed] = list(st.inner.moves)

    play.record = recorded
    return play


def thinnest_openspiel(game, players):
    """The least an OpenSpiel game can do around the engine: the same chance node and decisions,
    each a legal move's index in the engine's own list (no action space, no checks, no history of
    its own); pyspiel's C++ ``apply_action`` calls ``current_player`` and ``_apply_action`` back, as
    it does for the adapter. What this row costs over native is what no adapter can go below
    through pyspiel's Python game API."""
    import pyspiel

    game_type = pyspiel.GameType(
        short_name="python_ruledsl_floor", long_name="ruledsl floor", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=1000, max_chance_outcomes=1000, num_players=players,
                            min_utility=-1.0, max_utility=1.0, max_game_length=100_000)

    class State(pyspiel.State):
        def __init__(self, g):
            super().__init__(g)
            self.inner = None

        def current_player(self):
            inner = self.inner
            return pyspiel.PlayerId.CHANCE if inner is None else inner.actor

        def legal_actions(self):
            return list(range(len(self.inner.legal_moves())))

        def _apply_action(self, action):
            inner = self.inner
            if inner is None:
                self.inner = game.new_game(players, seed=action)
            else:
                inner._apply(inner._legal[action])

        def is_terminal(self):
            return self.inner.is_over

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return State(self)

    pyspiel.register_game(game_type, Game)
    import adapters

    return adapters.random_play(pyspiel.load_game("python_ruledsl_floor"))


def play(name: str, row: str, count: int) -> int:
    """Plays ``count`` games of ``row`` inside functools.reduce; returns the moves made."""
    import adapters

    import ruledsl

    path = str(ROOT / "games" / f"{name}.rules")
    params = {"single_round": True} if name.startswith("trolley") else None
    if row == "native":
        one = adapters.native(ruledsl.load(path, params=params), 2)
    elif row == "os":
        one = adapters.openspiel(path, 2, params)
    elif row == "pz":
        one = adapters.pettingzoo(path, 2, params, False)
    elif row == "os-floor":
        one = thinnest_openspiel(ruledsl.load(path, params=params), 2)
    elif row == "native-os":
        one = replay(ruledsl.load(path, params=params), 2, path, params)
        for seed in [adapters.SEEDS - 1, *range(count)]:
            one.record(seed)
    else:
        raise SystemExit(f"row must be one of {', '.join(ROWS)}, not {row!r}")
    one(adapters.SEEDS - 1)  # warm-up, not counted
    return functools.reduce(lambda n, seed: n + one(seed), range(count), 0)


def counted(name: str, row: str, count: int) -> tuple[int, int]:
    """(instructions counted, moves made) of one row, in a process of its own under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = dict(os.environ, PYTHONHASHSEED="0")
        run = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce",
                              f"--callgrind-out-file={out}", sys.executable, __file__,
                              "--play", name, row, str(count)],
                             env=env, capture_output=True, text=True, check=True)
        moves = int(run.stdout.split()[-1])
        text = Path(out).read_text()
    totals = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.M)
    return int(totals.group(1)), moves


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=["trolley_car", "uno", "tramwaje"])
    ap.add_argument("--rows", nargs="*", default=list(ROWS), choices=ROWS)
    ap.add_argument("--play", nargs=3, metavar=("GAME", "ROW", "COUNT"), help="play one row (run under valgrind)")
    args = ap.parse_args(argv)
    if args.play:
        name, row, count = args.play
        print(play(name, row, int(count)))
        return 0
    print("| Rules file | Row | Moves | Instructions a decision | ÷ native |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name in args.games:
        native = None
        for row in args.rows:
            instructions, moves = counted(name, row, COUNTS.get(name, 10))
            per = instructions / moves
            if row == "native":
                native = per
            ratio = f"{per / native:.2f}×" if native and row != "native" else "-"
            print(f"| {name}.rules | {row} | {moves} | {per / 1000:.1f}k | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
