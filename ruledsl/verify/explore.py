"""State-space exploration: every position the players' choices reach from one deal, breadth first.

For a player count and a seed the game is deterministic given the choices
(every shuffle and random pick comes from the state's generator), so the
positions reachable by legal moves form a graph. :func:`explore` walks it
breadth first, keeping the 64-bit hash of each position it has seen
(:mod:`.canon`: the move history left out), until every position is visited,
the state budget is spent or the time is up. Breadth first means the first
fault found is one of the nearest to the deal: its move sequence is a shortest
one, and it is a game log today's ``replay`` plays again.

What it reports, on each new position (the checks of :mod:`.checks` that look
at one position; the rest of them, over windows of moves, are the random
games' work):

- a move that cannot be carried out, such as a decision with no legal move
  that is not the end (check ``runs``; the engine stops there);
- a card in no zone or two (``conservation``), an invariant broken, a hidden
  card the player to move can tell apart (``hidden information``);
- a **cycle**: a position from which the players can come back to it, so the
  game can go on forever (check ``cycle``). The graph's strongly connected
  components give it once the walk stops; the report is the shortest path to
  the loop's nearest position and the shortest way round the loop, so the log
  ends on the first position met twice, where ``replay`` stops with the same
  check.

:class:`Space` says how much was covered: positions, the deepest level
reached, and whether the space was exhausted.
"""

from __future__ import annotations

import random
import time
from collections import deque

import attrs

from ..engine.game import Game
from ..language.errors import RulesRuntimeError
from .canon import position_hash, same_position
from .checks import (
    FULL_CHECK_MOVES,
    Broken,
    Failure,
    _check_rules,
    apply_listed,
    check_hidden,
    cycle_message,
)
from .deal import deal_finding


@attrs.define
class Space:
    """How much of one deal's state space an exploration covered."""

    players: int
    seed: int
    params: dict = attrs.Factory(dict)  # the parameters explored under (the file's, or --small's)
    states: int = 0  # distinct positions seen
    edges: int = 0  # moves tried
    depth: int = 0  # the deepest level (moves from the deal) reached
    ends: int = 0  # positions where the game is over
    exhausted: bool = False  # every reachable position was visited

    def describe(self) -> str:
        params = "" if not self.params else " (" + ", ".join(f"{k}={v}" for k, v in self.params.items()) + ")"
        how = "all of them" if self.exhausted else "not exhausted"
        return (f"{self.players} players, seed {self.seed}{params}: {self.states:,} positions "
                f"({how}), {self.ends:,} game ends, depth {self.depth}")


class _Stop(Exception):
    """The exploration's deadline or budget was reached."""


def explore(game: Game, players: int, seed: int, max_states: int = 20_000, deadline: float | None = None,
            clock=time.process_time, on_state=None) -> tuple:
    """Visit the positions reachable from the deal of ``players`` players and ``seed``, breadth first.

    Returns ``(Space, Failure or None)``. ``deadline``: a value of ``clock()`` (process CPU time by
    default) at which to stop. ``on_state(space)`` is called now and then (progress)."""
    space = Space(players, seed)
    try:
        root = game.new_game(players, seed)
    except RulesRuntimeError as err:
        return space, Failure("runs", str(err), players, seed, [])
    try:
        _check_position(root, seed, 0)
        found = deal_finding(game, players, seed, root)
        if found:
            raise Broken("random deal", found)
    except Broken as err:
        return space, Failure(err.check, err.message, players, seed, [])
    index = {position_hash(root): 0}
    parent = [-1]
    via: list = [None]  # the index in its parent's legal moves of the move that first reached each position
    depth = [0]
    succ: list = [[]]  # succ[i]: [(j, index of the move in i's legal moves)]
    queue = deque([(0, root)])
    space.states = 1
    space.ends = int(root.is_over)
    failure = None
    tick = 0
    try:
        while queue:
            i, s = queue.popleft()
            legal = s.legal_moves()
            for k, m in enumerate(legal):
                tick += 1
                if tick % 64 == 0:
                    if deadline is not None and clock() > deadline:
                        raise _Stop()
                    if on_state is not None:
                        on_state(space)
                t = s.clone()
                space.edges += 1
                try:
                    apply_listed(t, m)
                except Broken as err:
                    failure = Failure(err.check, err.message, players, seed, _path(root, parent, via, i) + [m.to_json()])
                    raise _Stop() from None
                h = position_hash(t)
                j = index.get(h)
                if j is None:
                    if space.states >= max_states:
                        raise _Stop()
                    j = len(parent)
                    index[h] = j
                    parent.append(i)
                    via.append(k)
                    depth.append(depth[i] + 1)
                    succ.append([])
                    space.states += 1
                    space.depth = max(space.depth, depth[j])
                    try:
                        _check_position(t, seed, depth[j])
                    except Broken as err:
                        failure = Failure(err.check, err.message, players, seed, _path(root, parent, via, j))
                        raise _Stop() from None
                    if t.is_over:
                        space.ends += 1
                    else:
                        queue.append((j, t))
                succ[i].append((j, k))
        space.exhausted = True
    except _Stop:
        pass
    if failure is None:
        failure = _cycle(root, parent, via, depth, succ, players, seed)
    return space, failure


def _check_position(s, seed: int, step: int) -> None:
    """The checks of one position that the random games run after a move (with the same generators,
    so that a replay of the path checks the same)."""
    _check_rules(s, conservation=True)
    if s.is_over:
        if s.finding:
            raise Broken("termination", s.finding)
        return
    if step < FULL_CHECK_MOVES:
        check_hidden(s, random.Random(seed * 1_000_033 + step))


def _path(root, parent: list, via: list, j: int) -> list:
    """The moves from the deal to position ``j`` along the tree of first visits, as log records."""
    ks = []
    while parent[j] >= 0:
        ks.append(via[j])
        j = parent[j]
    ks.reverse()
    s = root.clone()
    out = []
    for k in ks:
        m = s.legal_moves()[k]
        out.append(m.to_json())
        s.apply(m)
    return out


def _cycle(root, parent, via, depth, succ, players: int, seed: int):
    """A Failure for the loop nearest the deal in the graph explored, or None if it has none."""
    comp = _components(succ)
    cyclic = set()
    sizes: dict = {}
    for c in comp:
        sizes[c] = sizes.get(c, 0) + 1
    for i, out in enumerate(succ):
        for j, _ in out:
            if comp[i] == comp[j] and (sizes[comp[i]] > 1 or i == j):
                cyclic.add(i)
    if not cyclic:
        return None
    start = min(cyclic, key=lambda i: (depth[i], i))
    loop = _loop(start, succ, comp)
    to_start = _path(root, parent, via, start)
    s = root.game.replay(players, seed, to_start)
    first = s.clone()
    moves = []
    for k in loop:
        m = s.legal_moves()[k]
        moves.append(m.to_json())
        s.apply(m)
    if not same_position(first, s):
        return None  # two positions with one hash: not a loop after all
    n = len(to_start)
    return Failure("cycle", cycle_message(n, len(moves)), players, seed, to_start + moves)


def _loop(start: int, succ: list, comp: list) -> list:
    """The move indices of a shortest way from ``start`` back to it, within its component."""
    back: dict = {}
    queue = deque([start])
    seen = {start}
    while queue:
        i = queue.popleft()
        for j, k in succ[i]:
            if comp[j] != comp[start]:
                continue
            if j == start:
                path = [k]
                while i != start:
                    i, k = back[i]
                    path.append(k)
                path.reverse()
                return path
            if j not in seen:
                seen.add(j)
                back[j] = (i, k)
                queue.append(j)
    return []


def _components(succ: list) -> list:
    """Tarjan's strongly connected components, without recursion: the component of each node."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n
    on_stack = [False] * n
    stack: list = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, pos = work[-1]
            edges = succ[v]
            if pos < len(edges):
                work[-1] = (v, pos + 1)
                w = edges[pos][0]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    return comp
