"""The most work any move or setup of random games takes, per game file (docs/language.md 7.7).

    python scripts/move_work.py 100                       # 100 games at the fewest and the most players
    python scripts/move_work.py 40 games/tramwaje.rules   # some files only

The work is counted in the units the engine charges (compiler/work.py): the weights of the stretches of
steps a move or a setup runs, its first stretch and the triggers' bodies included. Moves are drawn
uniformly from the legal moves by a random.Random seeded with the game's seed. This script measures only.
"""

import glob
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ruledsl  # noqa: E402
from ruledsl.engine.rules import MAX_WORK_PER_MOVE  # noqa: E402
from ruledsl.engine.state import State  # noqa: E402


CURRENT = [0]  # the units counted since the last reset


def run(self, steps=None, spent=0):
    """State._run, counting the weights it charges instead of stopping at the bound."""
    flow = self.program.flow or self._flow()
    weights, blocks, L = flow.weights, flow.blocks, self.locals
    work = spent
    pc = self.pc
    try:
        while pc >= 0:
            work += weights[pc]
            pc = blocks[pc](self, L)
    finally:
        CURRENT[0] += work - spent


orig_apply = State._apply


def apply(self, m):
    """State._apply, counting the weight of the move's first stretch."""
    flow = self.program.flow or self._flow()
    fast = flow.fast[self.choice].get(id(m))
    if fast is not None:
        body = fast[1]
    else:
        body = self._by_name(flow, m, list(self.locals))[1]
    CURRENT[0] += flow.weights[body]
    orig_apply(self, m)


def triggers_work(state) -> int:
    """The units the triggers' bodies took off their budget in this move (State._charge_triggers makes it;
    the generated code takes the work off it in place)."""
    left = state._trigger_work
    return 0 if left is None else MAX_WORK_PER_MOVE - left[0]


State._run, State._apply = run, apply

games = sys.argv[2:] or sorted(p for p in glob.glob("games/*.rules") if not p.endswith(".test.rules"))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
print("| file | cards | largest work of a move or setup | where | mean | moves and setups |")
print("| --- | --- | --- | --- | --- | --- |")
for path in games:
    game = ruledsl.load(path)
    p = game.program
    worst, total, moves, where = 0, 0, 0, None
    for n in sorted({p.min_players, p.max_players}):
        for seed in range(N):
            rng = random.Random(seed)
            CURRENT[0] = 0
            st = game.new_game(n, seed)
            CURRENT[0] += triggers_work(st)
            if CURRENT[0] > worst: worst, where = CURRENT[0], f"setup, {n} players, seed {seed}"
            total += CURRENT[0]; moves += 1
            while not st.is_over:
                legal = st.legal_moves()
                CURRENT[0] = 0
                st.apply(legal[rng.randrange(len(legal))])
                CURRENT[0] += triggers_work(st)
                if CURRENT[0] > worst: worst, where = CURRENT[0], f"move {len(st.moves)}, {n} players, seed {seed}"
                total += CURRENT[0]; moves += 1
    print(f"| {os.path.basename(path)} | {p.card_count} | {worst:,} | {where} | {total / moves:,.0f} | {moves:,} |",
          flush=True)
