"""Tree-search bots: UCT (``mcts``) and information-set UCT (``ismcts``).

Both grow a tree of moves from the decision at hand. One iteration takes a
world (``ismcts``: a fresh one sampled from the player's Knowledge every
iteration; ``mcts``: one world sampled once per decision), walks down the tree
by the UCB1 rule, adds one new move, plays random moves from there
(a *rollout*) and credits the result to every move on the way. The move tried
most often at the root is played.

``ismcts`` is single-observer information-set MCTS (Cowling, Powley and
Whitehouse, 2012): the tree is shared by all the sampled worlds, and a move
is judged only among the iterations in which it was legal (its
*availability*). The other players' moves are searched in the sampled worlds,
as if they saw them (a known weakness of the single-observer form).

A rollout ends when the game ends, or, with ``depth`` set, once ``depth``
random moves have been made and the players' scores differ: then the
position is judged by the rules' ``winner`` order (see
:func:`ruledsl.botbase.rewards`). Rules that declare ``heuristic(p)`` judge
any position, so there a rollout stops after exactly ``depth`` moves and the
position is judged by the heuristic.
"""

from __future__ import annotations

import math
import random
import time
from typing import ClassVar

from ..engine.setlog import building
from ..language.errors import RulesRuntimeError
from .botbase import Bot, Setting, heuristic, outcome, ranking_keys, rewards
from .lookahead import after


def _leads(state, own: bool = False) -> list[float]:
    """Each player's heuristic less the mean of the others' (their own heuristic alone with ``own``, when
    playing solo, or in a cooperative game, where a lead over the others would always be nothing)."""
    values = [heuristic(state, p) for p in range(state.n)]
    if own or state.n == 1 or state.program.cooperative:  # the table wins or loses together: nobody leads
        return values
    total = sum(values)
    return [v - (total - v) / (state.n - 1) for v in values]


def _logistic(x: float) -> float:
    if math.isnan(x):  # two infinite heuristics: nothing to tell them apart
        return 0.5
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def rewards_value(state, player: int) -> float:
    """How good ``state`` is for ``player`` by the rules' heuristic; a won game above any value, a lost one
    below (the order of greedy's judgement)."""
    won = outcome(state, player)
    if won:
        return won * math.inf
    return heuristic(state, player)


#: A playout's cut when no ``depth`` is given: rules that declare a heuristic judge any position, so a
#: short playout judged by how far it moved the leads; without one, a long playout judged by who is ahead.
DEPTH = 40
HEURISTIC_DEPTH = 6

#: Worlds in which the root's prior judges each move with ``lookahead`` (as many as greedy samples).
PRIOR_WORLDS = 4
#: What ``done`` gains over a step of a set worth the same in the prior: enough to win a tie, nothing more.
_TIE = 1e-9


class _Node:
    __slots__ = ("avail", "children", "player", "prior", "visits", "wins")

    def __init__(self, player: int):
        self.player = player  # who made the move that leads here
        self.children: dict = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.prior: dict | None = None  # move -> the heuristic of its mover after it (wide decisions only)


class _SearchBot(Bot):
    resample = True
    settings: ClassVar[dict] = {
        "iterations": Setting(int, 100, 1, "iterations of the search per decision"),
        "c": Setting(float, 0.7, 0.0, "exploration constant of the UCB1 rule"),
        "depth": Setting(int, DEPTH, 0, f"random moves after which a rollout stops once scores differ; with a "
                                        f"heuristic in the rules, after exactly this many (default {DEPTH}, "
                                        f"{HEURISTIC_DEPTH} with a heuristic; 0: always play to the end)"),
        "time": Setting(float, 0.0, 0.0, "stop a search after this many seconds of wall clock (0: no limit; "
                                         "a limit makes games depend on the machine's speed)"),
        "seconds": Setting(float, 0.0, 0.0, "search for this many seconds of CPU time per decision, as many "
                                            "iterations as fit (with `iterations` given too: whichever ends "
                                            "first; 0: by iterations only)"),
        "widen": Setting(int, 6, 0, "with a heuristic in the rules, a decision with at least this many moves "
                                    "is widened progressively: its moves are tried best first by the "
                                    "heuristic, one more as its visits grow (0: off)"),
        "grade": Setting(int, 0, 0, "with a heuristic in the rules, 1 judges a rollout cut at `depth` by how far "
                                    "each player's heuristic is ahead of the best other's, scaled by the mean "
                                    "such gap of this search (0: by who is ahead only)"),
        "lookahead": Setting(int, 0, 0, "a widened decision ranks each move by where it leads, as greedy does: "
                                        "a set of cards it starts finished the shortest way, then up to this "
                                        "many decisions that follow from it (an offer's answer, a defence) "
                                        "made as greedy would (0: by the heuristic right after the move)"),
        "setdone": Setting(float, 0.0, 0.0, "in a playout, a set of cards being built ends (done) with this "
                                            "chance wherever it may (0: done is one move among the others; "
                                            "1: every set is the shortest)"),
        "margin": Setting(float, 0.0, 0.0, "with a heuristic, a playout cut at the depth is judged by how far "
                                           "each player's lead (their heuristic less the others' mean; in a "
                                           "cooperative game the table's own heuristic) moved since the "
                                           "decision: a logistic of that change over this many units of the "
                                           "heuristic (0: by rank, the share of the others whose heuristic is "
                                           "lower)"),
        "scaled": Setting(int, 1, 0, "with a heuristic and `depth`, and no `margin` or `grade` given, 1 judges a "
                                     "cut as `margin` does, in units of the mean change of the leads over this "
                                     "search's cuts so far, so that the heuristic's own scale does not matter "
                                     "(0: by rank, the share of the others whose heuristic is lower)"),
        "guide": Setting(float, 0.0, 0.0, "with a heuristic, a playout move is chosen with this chance as greedy "
                                          "would (the move after which its mover's heuristic is highest) "
                                          "instead of at random (0: every playout move at random)"),
        "prior": Setting(float, 0.0, 0.0, "with `margin` or `scaled`, each move at the root starts with this many virtual "
                                          "playouts worth what its mover's lead is right after it (with `lookahead`, "
                                          "as greedy judges it: its set finished and answered until the player is "
                                          "back where the set began, in four sampled worlds, `done` first among "
                                          "equal steps; judged as `margin` judges a cut): the search leans to "
                                          "greedy's choice until its playouts say otherwise (0: off)"),
        "own": Setting(int, 0, 0, "with `margin`, 1 judges a cut (and the prior) by how far each player's own "
                                  "heuristic moved, not their lead over the others: a search that does not "
                                  "count holding the others back as progress (0: by the lead)"),
        "few": Setting(int, 0, 0, "with a heuristic, a playout makes a decision of at most this many moves "
                                  "as greedy would: the move after which its player's heuristic is highest, "
                                  "ties at random (0: every playout move at random)"),
    }

    wants_worlds = True

    def __init__(self, seed: int = 0, iterations: int | None = None, c: float = 0.7, depth: int | None = None,
                 time: float = 0.0, seconds: float = 0.0, widen: int = 6, grade: int = 0,
                 lookahead: int = 0, setdone: float = 0.0, margin: float = 0.0, guide: float = 0.0,
                 prior: float = 0.0, few: int = 0, own: int = 0, scaled: int = 1):
        self.seed = seed
        self.seconds = seconds
        if iterations is None:  # by time alone when a time is given, else 100 iterations
            iterations = 10 ** 9 if seconds > 0 or time > 0 else 100
        self.iterations = iterations
        self.c = c
        self.depth = depth  # None: by the rules (see cut_depth)
        self.time = time
        self.widen = widen
        self.grade = grade
        self.lookahead = lookahead
        self.setdone = setdone
        self.margin = margin
        self.guide = guide
        self.prior = prior
        self.few = few
        self.own = bool(own)
        self.scaled = bool(scaled)
        self.rng = random.Random(seed)
        self._grading, self._gaps = False, [0.0, 0]  # grade's state, set for each search by choose()
        self._moved = [0.0, 0]  # scaled's state, set for each search by choose()
        self._outer: str | None = None  # the decision of its last choice that was not a step of a set
        self._root: str | None = None  # where the move being decided began (a set's: the decision before it)
        self._prior_rng = random.Random(seed + 1)  # finishes the sets of a lookahead; apart from the search's
        #: The number of iterations of the last search (for benchmarks).
        self.last_iterations = 0

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} iterations={self.iterations}>"

    def choose(self, view, legal, knowledge):
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = self.rng
        root = _Node(-1)
        fixed = None if self.resample else knowledge.sample(rng)
        deadline = time.perf_counter() + self.time if self.time > 0 else None
        cpu_deadline = time.process_time() + self.seconds if self.seconds > 0 else None
        program = knowledge.world.program
        self._widening = self.widen > 0 and program.heuristic is not None
        self._grading = (self.grade > 0 and self.cut_depth(program) > 0 and program.heuristic is not None
                         and program.team is None and not program.cooperative)
        self._gaps = [0.0, 0]  # the sum of the heuristic gaps at the rollouts' cuts, and their number
        self._moved = [0.0, 0]  # scaled: the sum of the leads' changes (absolute) at the cuts, and their number
        here = knowledge.world
        if building(here):  # a step of a set: the move began at the decision before the set
            self._root = self._outer or here.decision
        else:
            self._root = self._outer = here.decision
        prior, seed_at = None, -1
        if self.prior > 0 and self._by_change(program):
            worlds = [knowledge.sample(rng) if fixed is None else fixed.clone()
                      for _ in range(PRIOR_WORLDS if self.lookahead else 1)]
            prior = self._prior_changes(worlds, legal)
            # in units of `margin` at once; `scaled` waits until each root move was tried once for its unit
            seed_at = 0 if self.margin > 0 else len(legal)
        done = 0
        for _ in range(self.iterations):
            if done == seed_at:
                self._seed_root(root, prior, here.actor, building(here))
            world = knowledge.sample(rng) if fixed is None else fixed.clone()
            try:
                self._iterate(root, world, legal, rng)
            except RulesRuntimeError:
                pass  # a rule failed in this sampled world: learn nothing from it
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            if cpu_deadline is not None and time.process_time() > cpu_deadline:
                break
        self.last_iterations = done
        best = None
        for move in legal:
            child = root.children.get(move)
            if child is not None and (best is None or child.visits > best[0]):
                best = (child.visits, move)
        return best[1] if best is not None else legal[rng.randrange(len(legal))]

    def _iterate(self, root: _Node, s, legal, rng: random.Random) -> None:
        c = self.c
        path = []
        node = root
        moves = list(legal)
        start = _leads(s, self.own) if self._by_change(s.program) else None
        widening = self._widening
        while True:
            children = node.children
            if widening and len(moves) >= self.widen:
                moves = self._widened(node, s, moves)
            untried = []
            for m in moves:
                child = children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
            actor = s.actor
            if untried:
                # a widened decision tries its moves best first; others in a random order
                move = untried[0] if node.prior is not None else untried[rng.randrange(len(untried))]
                node = children[move] = _Node(actor)
                node.avail = 1
                s._apply(move)
                path.append(node)
                break
            best, move = -1.0, None
            for m in moves:
                child = children[m]
                if not child.visits:  # created in an iteration where a rule failed
                    best, move, node = math.inf, m, child
                    break
                value = child.wins / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best:
                    best, move, node = value, m, child
            s._apply(move)
            path.append(node)
            if s.over:
                break
            moves = s.legal_moves()
        self._rollout(s, rng)
        if start is not None and not (s.over and not s.finding):  # margin: by how far each lead moved
            result = self._moved_by(_leads(s, self.own), start)
        else:  # grade: by how far each player is ahead at the cut; else who is ahead
            result = self._graded(s) if self._grading else rewards(s)
        for node in path:
            node.visits += 1
            node.wins += result[node.player]

    def cut_depth(self, program) -> int:
        """The ``depth`` given, or the default for these rules (:data:`HEURISTIC_DEPTH` with a heuristic)."""
        if self.depth is not None:
            return self.depth
        return HEURISTIC_DEPTH if program.heuristic is not None else DEPTH

    def _by_change(self, program) -> bool:
        """Whether a cut playout is judged by how far each lead moved (``margin``, or ``scaled`` when
        neither ``margin`` nor ``grade`` is given)."""
        if program.heuristic is None:
            return False
        return self.margin > 0 or (self.scaled and not self.grade and self.cut_depth(program) > 0)

    def _unit(self) -> float:
        """How large a change of a lead is one unit: ``margin``, or with ``scaled`` the mean absolute change
        at the cuts of this search so far (1 while every change was nothing)."""
        if self.margin > 0:
            return self.margin
        moved = self._moved
        return moved[0] / moved[1] if moved[0] > 0 else 1.0

    def _moved_by(self, now: list[float], then: list[float]) -> list[float]:
        """What a cut rollout is worth to each player by how far their lead moved since the decision: a
        logistic of the change over :meth:`_unit` (with ``scaled``, this cut counted in it first)."""
        changes = [a - b for a, b in zip(now, then)]
        if self.margin <= 0:
            finite = [abs(c) for c in changes if math.isfinite(c)]
            self._moved[0] += sum(finite)
            self._moved[1] += len(finite)
        unit = self._unit()
        return [_logistic(c / unit) for c in changes]

    def _prior_changes(self, worlds, legal) -> dict:
        """For each move at the root, in each of ``worlds`` (with ``lookahead``, greedy's number of
        sampled worlds), what a playout cut right after it would be judged by: ``(True, reward)`` if the
        game is over, else ``(False, change)``, how far its mover's lead moved."""
        actor = worlds[0].actor
        changes: dict = {}
        for world in worlds:
            start = _leads(world, self.own)[actor]
            for m in legal:
                try:
                    later = self._after(world, m, self._root)
                except RulesRuntimeError:
                    continue
                if later.over and not later.finding:
                    seen = (True, rewards(later)[actor])
                else:
                    seen = (False, _leads(later, self.own)[actor] - start)
                changes.setdefault(m, []).append(seen)
        return changes

    def _seed_root(self, root: _Node, changes: dict, actor: int, setting: bool) -> None:
        """Give every move at the root ``prior`` virtual playouts worth its :meth:`_prior_changes` as a
        cut is judged (a logistic over :meth:`_unit`; a finished game by who won), on top of what it has
        (with ``scaled``, the root's moves have each been tried once by then). Among steps of a set
        (``setting``) worth the same, ``done`` comes first, as greedy takes it: a set no larger than it
        needs to be."""
        unit = self._unit()
        for m, seen in changes.items():
            value = sum(v if over else _logistic(v / unit) for over, v in seen) / len(seen)
            if setting and m.name == "done":
                value = min(1.0, value + _TIE)
            child = root.children.get(m)
            if child is None:
                child = root.children[m] = _Node(actor)
            child.visits += self.prior
            child.avail += self.prior
            child.wins += value * self.prior

    def _after(self, s, m, root: str | None = None):
        """A copy of ``s`` after ``m``, as the root's prior and widening judge a move: with ``lookahead``,
        a set ``m`` starts finished and what follows answered until the player is back at the decision
        ``root`` (default: the one ``m`` is made in), as greedy judges it."""
        if self.lookahead:
            return after(s, m, self._prior_rng, self.lookahead, root)
        later = s.clone()
        later._apply(m)
        return later

    def _graded(self, s) -> list[float]:
        """What a rollout's end is worth to each player, from 0 to 1: a finished game as :func:`rewards`
        says; a cut one by the gap between the player's heuristic and the best other player's, ``0.5 +
        0.5 * tanh(gap / mean gap)``, the mean taken over the cuts of this search so far (so the rules'
        scale of the heuristic does not matter). A player far ahead gets nearly 1, one just ahead a little
        over a half: a move that gains more is worth more, where ranking alone gives both 1."""
        if s.over and not s.finding:
            return rewards(s)
        keys = [heuristic(s, p) for p in range(s.n)]
        if any(math.isinf(k) for k in keys):
            return rewards(s)
        gaps = [keys[p] - max(k for q, k in enumerate(keys) if q != p) for p in range(s.n)]
        sums = self._gaps
        sums[0] += sum(abs(g) for g in gaps)
        sums[1] += len(gaps)
        scale = sums[0] / sums[1] or 1.0
        return [0.5 + 0.5 * math.tanh(g / scale) for g in gaps]

    def _widened(self, node: _Node, s, moves: list) -> list:
        """Progressive widening: the moves of a wide decision, best first by the heuristic of the player
        who makes them (the position right after the move), cut to the few its visits have earned:
        ``2 + sqrt(visits)``. The heuristic of a move is worked out once per node (in the first world
        where the move is legal) and kept."""
        prior = node.prior
        if prior is None:
            prior = node.prior = {}
        actor = s.actor
        for m in moves:
            if m not in prior:
                try:
                    prior[m] = rewards_value(self._after(s, m), actor)
                except RulesRuntimeError:
                    prior[m] = -math.inf
        ranked = sorted(moves, key=lambda m: -prior[m])
        visits = sum(node.children[m].visits for m in moves if m in node.children)
        return ranked[:2 + int(math.sqrt(visits))]

    def _rollout(self, s, rng: random.Random) -> None:
        depth = self.cut_depth(s.program)
        made = 0
        setdone = self.setdone
        guide = self.guide
        few = self.few
        if depth and s.program.heuristic is not None:  # the rules judge any position: stop at the depth
            while not s.over and made < depth:
                moves = s._legal
                if moves is None:
                    moves = s.legal_moves()
                if len(moves) == 1:
                    move = moves[0]
                elif guide and rng.random() < guide:
                    move = _greediest(s, moves, rng)
                elif setdone and building(s) and rng.random() < setdone and any(m.name == "done" for m in moves):
                    move = next(m for m in moves if m.name == "done")
                elif len(moves) <= few:
                    move = _greediest(s, moves, rng)
                else:
                    move = moves[rng.randrange(len(moves))]
                s._apply(move)
                made += 1
            return
        while not s.over:
            # past the depth, look at the scores every few moves (looking costs a score per player)
            if depth and made >= depth and (made - depth) % 8 == 0:
                keys = ranking_keys(s)
                if any(k != keys[0] for k in keys):
                    return
            moves = s._legal  # the engine lists them on reaching a decision; no copy needed here
            if moves is None:
                moves = s.legal_moves()
            s._apply(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
            made += 1


def _greediest(s, moves: list, rng: random.Random):
    """The move after which the player making it stands best by the rules' heuristic (a won game first),
    ties broken at random: a one-decision greedy step of a guided playout."""
    actor = s.actor
    best, chosen = None, []
    for m in moves:
        later = s.clone()
        try:
            later._apply(m)
            value = rewards_value(later, actor)
        except RulesRuntimeError:
            continue
        if best is None or value > best:
            best, chosen = value, [m]
        elif value == best:
            chosen.append(m)
    if not chosen:
        return moves[rng.randrange(len(moves))]
    return chosen[0] if len(chosen) == 1 else chosen[rng.randrange(len(chosen))]


class MctsBot(_SearchBot):
    """UCT search in one world per decision: exact for games where every card is visible; with hidden
    cards it commits to one random guess of them per decision (use ``ismcts`` there)."""

    name = "mcts"
    resample = False


class IsmctsBot(_SearchBot):
    """Information-set MCTS: a fresh world sampled from what the player may know every iteration."""

    name = "ismcts"
    resample = True
