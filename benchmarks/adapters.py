"""What a decision costs through the OpenSpiel adapter and the PettingZoo env, against the engine itself.

    python benchmarks/adapters.py                       # uno, trolley_car, tramwaje; 2 players, 5 rounds
    python benchmarks/adapters.py --games uno --players 4 --rounds 7 --seconds 2

Each row plays random games of the same rules file with the same parameters (Trolley Car one round,
``single_round=true``, in every row) to their end, and counts decisions: the moves made in the game
(``State.move_count``), so that a move the adapters take in two steps (a card, then a colour) counts
once, as it does natively. In every round each row starts again at the same seed and goes on with
the following ones (seeds 0 to 999: the OpenSpiel game's chance outcomes), a ``random.Random(seed)``
picking uniformly among what the row is offered:

- native: ``state.legal_moves()``, a pick, ``state._apply(move)`` (what bench.py's playouts do);
- OpenSpiel: ``state.legal_actions()``, a pick, ``state.apply_action(a)`` on the pyspiel game of
  ruledsl/adapters/openspiel.py (the chance node that picks the seed is played, not counted);
- PettingZoo: PettingZoo's own loop (``for agent in env.agent_iter()``, ``env.last(observe=False)``,
  ``env.step``) on an env made with ``mask_in_infos=True``, the pick made from
  ``info["action_mask"].nonzero()[0].tolist()`` (what an agent that needs no observation does; the
  dead steps at the end, one an agent, are taken as PettingZoo asks);
- PettingZoo, ids: the env's own legal action ids (``env.actions.legal_actions(state, env.pending)``,
  not PettingZoo's API), a pick, ``env.step(a)`` (the row of the earlier passes);
- PettingZoo + observe: PettingZoo's loop with ``env.last()``, the pick made from
  ``observation["action_mask"]`` (an observation is encoded at every decision: the price of a
  learning agent's input, not of the decision itself);
- PettingZoo floor: the thinnest env around the engine through PettingZoo's loop (``pettingzoo_floor``):
  the least a decision through PettingZoo's API can cost.

The adapters pick a move in steps, so their games are not move for move the native ones (a wild card
is first one head among the others, then a colour), only alike: the moves per game are printed for
every row. Every row is warmed up (one game, untimed), then the rows take turns in slices of
``--seconds`` of CPU time, rotated each round; decisions per second and the ratio to native (taken
round by round) are shown as median (min-max). Nothing is asserted.
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


import numpy as np

import ruledsl

SEEDS = 1000  # the OpenSpiel game's chance outcomes: every row plays seeds below this


def native(game, players):
    def play(seed):
        s = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s._apply(rng.choice(s.legal_moves()))
        return s.move_count
    return play


def openspiel(path, players, params):
    from ruledsl.adapters.openspiel import load_game

    return random_play(load_game(path, players=players, params=params, seeds=SEEDS))


def random_play(og):
    """A game of the pyspiel game ``og`` (a ruledsl game behind it) from ``seed``, random actions picked
    by ``random.Random(seed)``: returns the ruledsl moves made."""
    def play(seed):
        st = og.new_initial_state()
        st.apply_action(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        return st.inner.move_count
    return play


def pettingzoo(path, players, params, how):
    """A PettingZoo row: ``how`` is ``ids`` (the env's own legal action ids, not PettingZoo's API),
    ``infos`` (``last(observe=False)`` and the mask in the infos) or ``observe`` (``last()``, the
    mask in the observation); ``False`` is ``ids`` and ``True`` ``observe``, as this function's
    ``observe`` flag was (benchmarks/adapters_count.py's ``pz`` row passes False)."""
    from ruledsl.adapters.pettingzoo import env as make_env

    how = {False: "ids", True: "observe"}.get(how, how)

    env = make_env(path, players=players, params=params, mask_in_infos=how == "infos")

    def ids(seed):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.game_state.is_over:
            env.step(rng.choice(env.actions.legal_actions(env.game_state, env.pending)))
        return env.game_state.move_count

    def api(seed):  # PettingZoo's loop (docs/integrations.md), the dead steps at the end included
        env.reset(seed=seed)
        rng = random.Random(seed)
        observe = how == "observe"
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"] if observe else info["action_mask"]
            env.step(rng.choice(mask.nonzero()[0].tolist()))
        return env.game_state.move_count
    play = ids if how == "ids" else api
    play.env = env
    return play


def pettingzoo_floor(game, players, size):
    """The least a PettingZoo env can do around the engine, played through PettingZoo's loop as the
    PettingZoo row is: a decision's actions are the indices of the engine's own list of legal moves
    (no action space, nothing checked), its mask (``size`` entries, as many as the env's actions, so
    that the agent reads a mask as long) one made once per number of legal moves, shared and
    read-only; no observation. It plays native's games. What it costs over native is what no env can
    go below through PettingZoo's API with a NumPy action mask (``agent_iter``, ``last``, ``step``
    and the agent's reading of the mask)."""
    from pettingzoo import AECEnv

    masks = {}

    def mask_of(k):  # the first k actions set
        if k not in masks:
            mask = np.zeros(max(size, k), np.int8)
            mask[:k] = 1
            mask.flags.writeable = False
            masks[k] = mask
        return masks[k]

    class Floor(AECEnv):
        metadata = {"name": "ruledsl floor"}

        def __init__(self):
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(players)]

        def reset(self, seed=None, options=None):
            self.state = s = game.new_game(players, seed=seed)
            self.agents = list(self.possible_agents)
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[max(s.actor, 0)]
            self.legal = s.legal_moves()
            self.infos[self.agent_selection] = {"action_mask": mask_of(len(self.legal))}

        def observe(self, agent):
            return None

        def step(self, action):
            s = self.state
            if s.is_over:
                self._was_dead_step(action)
                return
            s._apply(self.legal[action])
            if not s.is_over:
                agent = self.agent_selection = self.possible_agents[s.actor]
                self.legal = s.legal_moves()
                self.infos[agent] = {"action_mask": mask_of(len(self.legal))}
            else:
                for a in self.agents:
                    self.terminations[a] = True
                self.agent_selection = self.agents[0]

    env = Floor()

    def play(seed):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            _observation, _reward, terminated, truncated, info = env.last(False)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(info["action_mask"].nonzero()[0].tolist()))
        return env.state.move_count
    return play


def timed(play, first_seed, seconds):
    """(decisions per second, games played) over ``seconds`` of CPU time, seeds from ``first_seed`` on."""
    t0 = time.process_time()
    n = games = 0
    while True:
        n += play((first_seed + games) % SEEDS)
        games += 1
        t = time.process_time() - t0
        if t >= seconds:
            return n / t, n / games


def spread(values, digits=2):
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=["uno", "trolley_car", "tramwaje"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per slice")
    args = ap.parse_args(argv)
    print("| Rules file | Players | Row | Moves/game | Decisions/s | ÷ native |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    for name in args.games:
        path = str(ROOT / "games" / f"{name}.rules")
        params = {"single_round": True} if name.startswith("trolley") else None
        game = ruledsl.load(path, params=params)
        rows = {"native": native(game, args.players)}
        try:
            rows["OpenSpiel"] = openspiel(path, args.players, params)
        except ImportError:
            print(f"| {name} | {args.players} | OpenSpiel | skipped (pyspiel not installed) | | |")
        try:
            rows["PettingZoo"] = pettingzoo(path, args.players, params, "infos")
            rows["PettingZoo, ids"] = pettingzoo(path, args.players, params, "ids")
            rows["PettingZoo + observe"] = pettingzoo(path, args.players, params, "observe")
            size = rows["PettingZoo"].env.actions.num_actions
            rows["PettingZoo floor"] = pettingzoo_floor(game, args.players, size)
        except ImportError:
            print(f"| {name} | {args.players} | PettingZoo | skipped (pettingzoo not installed) | | |")
        for play in rows.values():
            play(SEEDS - 1)  # warm-up (the timed slices start at seed 0)
        rates = {k: [] for k in rows}
        lengths = {k: [] for k in rows}
        order = list(rows)
        for r in range(args.rounds):
            for k in order[r % len(order):] + order[:r % len(order)]:
                rate, length = timed(rows[k], 0, args.seconds)
                rates[k].append(rate)
                lengths[k].append(length)
        for k in rows:
            ratios = [x / y for x, y in zip(rates[k], rates["native"])]
            shown = "-" if k == "native" else spread(ratios)
            print(f"| {name}.rules | {args.players} | {k} | {statistics.median(lengths[k]):.0f} | "
                  f"{spread(rates[k], 0)} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
