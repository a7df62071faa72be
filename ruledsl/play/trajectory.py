"""A game's trajectory: every player's standing sampled at the start of every turn.

:func:`ruledsl.scale.play_chunk` follows each game it plays with a
:class:`Trajectory` and keeps in the game's record only what
:func:`game_metrics` works out of it and a thinned curve, so the design
metrics (:mod:`ruledsl.play.insight`, docs/scale.md) need no second pass.
"""

from __future__ import annotations

import math

from .botbase import heuristic, ranking_keys

#: Points kept of a game's curve in its record (for plots); the metrics use every sample.
CURVE_POINTS = 40


class Trajectory:
    """Every player's standing, sampled at the start of every turn of one game.

    A sample is taken at a decision when the player whose turn it is
    (``current``) changed since the last decision. Rules whose flow has no
    ``turns`` loop never change ``current``; for them a sample is taken
    whenever the deciding player changes instead (a play to a trick, one
    player's secret pick). The standing is the rules' ``heuristic(p)`` if they
    declare one, else the first key of the ``winner`` order turned so that
    larger is better (the ``score`` when that key is not a number).
    """

    __slots__ = ("by_actor", "by_turn", "last_actor", "last_current", "turned")

    def __init__(self):
        self.by_turn: list = []
        self.by_actor: list = []
        self.last_current = None
        self.last_actor = None
        self.turned = 0

    def note(self, state) -> None:
        """Called before each decision of the game (``on_decision``)."""
        current, actor = state.current, state.actor
        new_turn = current != self.last_current
        if new_turn and self.last_current is not None:
            self.turned += 1
        if new_turn or actor != self.last_actor:
            values = standing(state)
            self.by_actor.append(values)
            if new_turn:
                self.by_turn.append(values)
        self.last_current, self.last_actor = current, actor

    def samples(self) -> list:
        return self.by_turn if self.turned else self.by_actor

    def finish(self, winners: list) -> dict:
        """The game's own design numbers (see :func:`game_metrics`) and its thinned curve."""
        samples = self.samples()
        out = game_metrics(samples, winners)
        step = max(1, math.ceil(len(samples) / CURVE_POINTS))
        out["curve"] = [list(v) for v in samples[::step]]
        return out


def standing(state) -> list:
    """Each player's standing now, larger is better (see :class:`Trajectory`)."""
    n = state.n
    if state.program.heuristic is not None:
        return [_number(heuristic(state, p)) for p in range(n)]
    keys = ranking_keys(state)
    if keys and keys[0] and all(isinstance(k[0], (int, float)) for k in keys):
        return [_number(k[0]) for k in keys]
    return [_number(s) for s in state.scores]


def _number(v) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or math.isnan(v):
        return -math.inf if v is None else 0.0
    return float(v)


def leader(values: list):
    """The one player whose standing is strictly the greatest, or None (a tie at the top)."""
    if not values:
        return None
    best = max(values)
    top = [p for p, v in enumerate(values) if v == best]
    return top[0] if len(top) == 1 else None


def game_metrics(samples: list, winners: list) -> dict:
    """One game's numbers from its samples (standings during play) and its winners.

    The leaders are those of the samples, followed by the result: the sole
    winner, or no leader for a shared win or a game with no winner.

    - ``lead_changes``: how often a leader differs from the last leader before it (samples with a
      tie at the top are skipped);
    - ``behind``: the fraction of the samples in which the sole winner was strictly behind someone;
    - ``depth``: in those samples, the winner's mean deficit to the leader as a share of the widest
      gap between first and last seen in any sample of the game, from 0 to 1;
    - ``decided_at``: the first sample index from which the winner leads to the end, as a share of
      the samples (0: the winner led from the first sample; 1: only the result made them leader).

    The last three are None unless the game has a sole winner (and ``depth`` unless the winner
    was ever behind).
    """
    sole = winners[0] if len(winners) == 1 else None
    leaders = [leader(v) for v in samples] + [sole]
    changes = 0
    last = None
    for who in leaders:
        if who is None:
            continue
        if last is not None and who != last:
            changes += 1
        last = who
    out = {"samples": len(samples), "lead_changes": changes, "behind": None, "depth": None, "decided_at": None}
    if sole is None:
        return out
    widest = max((max(v) - min(v) for v in samples), default=0.0)
    deficits = []
    for v in samples:
        best = max(v)
        if v[sole] < best:
            gap = best - v[sole]
            deficits.append(1.0 if not math.isfinite(gap) or not math.isfinite(widest) else gap / widest)
    k = len(leaders) - 1
    while k > 0 and leaders[k - 1] == sole:
        k -= 1
    out["behind"] = len(deficits) / len(samples) if samples else 0.0
    out["depth"] = sum(deficits) / len(deficits) if deficits else None
    out["decided_at"] = k / len(samples) if samples else 0.0
    return out
