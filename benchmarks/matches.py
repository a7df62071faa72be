"""Games between two bots, seats swapped, summed up as a row: win rate with its 95% interval, time per
decision (wall clock and CPU time), pairs split. The seats are ruledsl's bots by name, or OpenSpiel's
own ISMCTSBot (``openspiel-ismcts:seconds=S``). Used by benchmarks/bots.py and benchmarks/ladder.py;
nothing here is asserted, it only measures.

A row of paired games also counts its whole pairs (``pairs``) and the pairs the bot won exactly one
game of (``pairs_split``): with two sides, the same seats won both games of such a pair, whoever sat
there. Between two bots that play alike, a split pair is one the deal decided or a coin flip decided;
if a share ``d`` of the games is decided by the cards the seed deals, ``pairs_split / pairs`` comes to
``d + (1 - d) / 2``, so ``d`` is about ``2 * pairs_split / pairs - 1`` (``--rung greedy/greedy``).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import ruledsl
from ruledsl.language.errors import RulesRuntimeError
from ruledsl.play.botbase import Bot
from ruledsl.play.bots import make_bot
from ruledsl.play.sim import derive_seed, play_game

ROOT = Path(__file__).resolve().parent.parent


class Timed(Bot):
    """Passes every decision to ``inner`` and times the ones with a real choice."""

    def __init__(self, inner: Bot):
        self.inner = inner
        self.name = inner.name
        self.wants_view = inner.wants_view
        self.wants_worlds = inner.wants_worlds
        self.given = getattr(inner, "given", {})
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.decisions = 0
        self.iterations = 0  # iterations of a search bot's searches, summed

    def choose(self, view, legal, *knowledge):
        start, cpu = time.perf_counter(), time.process_time()
        move = self.inner.choose(view, legal, *knowledge)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu
            self.decisions += 1
            self.iterations += getattr(self.inner, "last_iterations", 0)
        return move


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class OpenSpielIsmcts(Bot):
    """OpenSpiel's own ISMCTSBot (open_spiel.python.algorithms.ismcts) in a ruledsl seat, with a CPU time
    budget per decision like ``ismcts:seconds=``. It searches from a state the adapter builds around
    the player's Knowledge (no secret in it) and resamples with the adapter's resample_from_infostate."""

    name = "openspiel-ismcts"
    wants_worlds = True

    def __init__(self, path: str, params: dict, players: int, seconds: float, seed: int):
        import random

        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from ruledsl.adapters.openspiel import load_game

        self.given = {"seconds": seconds}
        self.rng = random.Random(seed)
        self.game = load_game(ROOT / path, players=players, params=params)
        self.seconds = seconds
        self.last_iterations = 0
        rng = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        budget = self

        class Timed(ismcts.ISMCTSBot):
            def run_search(self, state):  # as ISMCTSBot.run_search, stopped by CPU time instead of a count
                self.reset()
                legal = state.legal_actions()
                if len(legal) == 1:
                    return [(legal[0], 1.0)]
                self._root_node = self.create_new_node(state)
                end = time.process_time() + budget.seconds
                budget.last_iterations = 0
                while time.process_time() < end:
                    try:
                        self.run_simulation(self.sample_root_state(state))
                    except RulesRuntimeError:
                        pass  # a rule failed in this sampled world (as ruledsl's ismcts: learn nothing)
                    budget.last_iterations += 1
                root = self.filter_illegals(self._root_node, legal)
                if root.total_visits == 0:
                    return [(a, 1.0 / len(legal)) for a in legal]
                return self.get_final_policy(state, root)

        # Keyed by the observation: the adapter's information state replays from a seed a world has not.
        # Two worlds with the same observation list the same legal actions (look-alike cards are numbered
        # alike, a set being built is in its builder's observation), so OpenSpiel's default holds:
        # allow_inconsistent_action_sets=False, which raises where they would differ.
        self.bot = Timed(self.game, evaluator, 1.0, 1, random_state=rng, use_observation_string=True,
                         allow_inconsistent_action_sets=False)

    def choose(self, view, legal, knowledge):
        if len(legal) == 1:
            return legal[0]
        state = self.game.new_initial_state()
        # a world the player cannot tell from the real one (others' secret choices drawn again)
        state.become(knowledge.sample(self.rng), knowledge)  # resampled from the same Knowledge
        while True:  # a move of two arguments is taken in steps (ruledsl.adapters.steps): search each
            action = self.bot.step(state)
            # the move (or the next step) the action makes in this state: of cards that look alike,
            # the copy the list names (decode alone would give the copy the number stands for)
            move = state.move_of(action)
            if not isinstance(move, tuple):
                return move
            state.apply_action(action)


def make_seat(spec: str, path: str, params: dict, seed: int, players: int = 2) -> Bot:
    """A bot by its name; ``openspiel-ismcts:seconds=S`` is OpenSpiel's ISMCTSBot."""
    if spec.startswith(OpenSpielIsmcts.name):
        seconds = float(spec.partition("seconds=")[2] or 0.1)
        return OpenSpielIsmcts(path, params, players, seconds, seed)
    return make_bot(spec, seed)


def measure(path: str, params: dict, bot: str, opponent: str, games: int, seed: int, start: int = 0,
            progress=None, paired: bool = False, players: int = 2) -> dict:
    """Play the games and sum them up; ``progress(row)`` is called with the sums after every game.
    With ``paired``, games 2k and 2k+1 share one seed, seats swapped. With more than two players the
    bot takes every other seat (a partnership of seats 0 and 2, or 1 and 3); with ``opponent`` None,
    every seat (a cooperative game: the row is how often the bots win together)."""
    game = ruledsl.load(ROOT / path, params=params)
    score = 0.0
    sole = shared = played = nobody = 0
    seconds = cpu_seconds = 0.0
    decisions = 0
    started = time.perf_counter()
    row: dict = {}
    opponent_cpu = 0.0
    opponent_decisions = 0
    iterations = opponent_iterations = 0
    # pairs played whole, and those split: the bot won one of the two games, so the same seats won both (with
    # two sides, the side dealt the better cards whoever sat there: the deal decided, not the bots)
    pairs = split = 0
    last = None  # the score of the first game of the pair being played
    for i in range(start, start + games):
        game_seed = derive_seed(seed, i // 2 if paired else i)
        side = i % 2
        mine = [p for p in range(players) if opponent is None or p % 2 == side]
        seats = [Timed(make_seat(bot if p in mine else opponent, path, params,
                                 derive_seed(game_seed, (100 if p in mine else 0) + p), players))
                 for p in range(players)]
        result = play_game(game, players, game_seed, seats)
        played = i - start + 1
        before = score
        won = [w for w in result.winners if w in mine]
        if won:
            if len(won) == len(result.winners):
                sole += 1
                score += 1
            else:
                shared += 1
                score += 0.5
        elif not result.winners and opponent is not None:  # nobody won (a round bound): a draw, half each
            nobody += 1
            score += 0.5
        if paired and opponent is not None and i % 2 == 1 and last is not None:
            pairs += 1
            split += {last, score - before} == {0.0, 1.0}
        last = score - before if paired and i % 2 == 0 else None
        for p, timed in enumerate(seats):
            if p in mine:
                seconds += timed.seconds
                cpu_seconds += timed.cpu_seconds
                decisions += timed.decisions
                iterations += timed.iterations
            else:
                opponent_cpu += timed.cpu_seconds
                opponent_decisions += timed.decisions
                opponent_iterations += timed.iterations
        low, high = wilson(score, played)
        row = {
            "game": game.name, "rules": path, "params": params, "players": players, "bot": bot,
            "opponent": opponent, "games": played, "start": start, "seed": seed, "wins": sole, "shared": shared,
            "nobody": nobody, "pairs": pairs, "pairs_split": split, "win_rate": score / played, "ci95": [low, high], "decisions": decisions,
            "seconds_per_decision": seconds / decisions if decisions else 0.0,
            "cpu_seconds_per_decision": cpu_seconds / decisions if decisions else 0.0,
            "opponent_cpu_seconds_per_decision": opponent_cpu / opponent_decisions if opponent_decisions else 0.0,
            "iterations_per_decision": iterations / decisions if decisions else 0.0,
            "opponent_iterations_per_decision": opponent_iterations / opponent_decisions if opponent_decisions else 0.0,
            "seconds": seconds, "cpu_seconds": cpu_seconds,
            "wall_seconds": time.perf_counter() - started,
        }
        if progress is not None:
            progress(row)
    return row

