"""A game's state as plain data, and step / legal_moves / apply.

A :class:`State` holds the zones, the board's places, the variables, the
flow's program counter and locals, whose decision is pending, the random
generator and the moves made. It can be cloned, compared, hashed and saved to
JSON; the same rules, parameters, seed and moves always give the same state.
"""

from __future__ import annotations

from ..checker.limits import within_int
from ..compiler.flowgen import Flow
from ..compiler.picking import descending
from ..compiler.program import MAX_TRIGGER_FIRINGS
from ..language.errors import NOWHERE, IllegalMove, RulesRuntimeError
from .moves import Move
from .positions import Positions
from .rules import MAX_WORK_PER_MOVE, _explain, _run_rule, flow_of
from .seal import _sealed
from .seeing import Seeing

SAVE_FORMAT = "ruledsl-state"
SAVE_VERSION = 1


class State(Seeing, Positions):
    """Where a game stands. Plain data: clone(), ==, hash(), to_json()."""

    __slots__ = ("game", "program", "n", "seed", "zones", "places", "loc", "vars", "locals", "pc",
                 "choice", "actor", "current", "rng", "grants", "shown", "known", "moves", "is_over",
                 "finding", "_legal", "_trigger_work", "_quiet")

    # ---- the OpenSpiel-like surface

    @property
    def current_player(self) -> int:
        """The player who must decide now, or -1 when the game is over."""
        return -1 if self.over else self.actor

    # `is_over` is a plain field (what a playout loop reads after every move); `over` is its other name
    @property
    def over(self) -> bool:
        return self.is_over

    @over.setter
    def over(self, value: bool) -> None:
        self.is_over = value

    @property
    def decision(self) -> str | None:
        """The name of the pending decision (e.g. ``turn``), or None when the game is over."""
        return None if self.over else self.program.choices[self.choice].name

    @property
    def move_count(self) -> int:
        return len(self.moves)

    @property
    def scores(self) -> list[int]:
        score = self.program.score
        span = getattr(score, "span", NOWHERE)
        values = [_run_rule(score, self, i, span) for i in range(self.n)]
        for i, v in enumerate(values):
            if not isinstance(v, int):
                raise RulesRuntimeError(f"the score of player {i} is {'none' if v is None else repr(v)}, "
                                        "not a number", span)
            within_int(v, span)
        return values

    @property
    def winners(self) -> list[int]:
        """The players ranked first by the rules' ``winner`` order (ties share it); [] if stopped early."""
        if not self.over or self.finding:
            return []
        when = self.program.winner_when
        if when is not None and not when(self, list(self.locals)):
            return []
        keys = []
        for i in range(self.n):
            key = []
            for fn, highest in self.program.winner_keys:
                span = getattr(fn, "span", NOWHERE)
                v = _run_rule(fn, self, i, span)
                if v is None or isinstance(v, str):
                    raise RulesRuntimeError(f"the winner order gives {'none' if v is None else v!r} for player {i}, "
                                            "not a number, true/false or a key", span)
                key.append(descending(v) if highest else v)
            keys.append(tuple(key))
        best = min(keys)
        first = [i for i in range(self.n) if keys[i] == best]
        if self.program.team is None:
            return first
        teams = self.teams
        won = {teams[i] for i in first}  # partners win together (docs §2.16.1)
        return [i for i in range(self.n) if teams[i] in won]

    @property
    def statistics(self) -> dict:
        """The rules' ``statistic NAME = EXPR`` values now, by name (a number, or true/false)."""
        out = {}
        for name, fn, share, span in self.program.statistics:
            value = _run_rule(fn, self, list(self.locals), span)
            if share and value.__class__ is not bool or not share and value.__class__ is not int:
                raise RulesRuntimeError(f"statistic `{name}` is {'none' if value is None else repr(value)}, "
                                        f"not {'true or false' if share else 'a number'}", span)
            out[name] = value
        return out

    @property
    def teams(self) -> list:
        """Each seat's partnership, from ``define team(p)``: partners share a value. Without it each
        seat is its own team (its number); in a cooperative game (``winner: all``) all share team 0."""
        team = self.program.team
        if team is None:
            return [0] * self.n if self.program.cooperative else list(range(self.n))
        span = getattr(team, "span", NOWHERE)
        values = [_run_rule(team, self, i, span) for i in range(self.n)]
        for i, v in enumerate(values):
            if v.__class__ is not int:
                raise RulesRuntimeError(f"the team of player {i} is {'none' if v is None else repr(v)}, "
                                        "not a number", span)
        return values

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make, in a stable order; [] when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_over else self._enumerate()
        return legal[:]

    def apply(self, move) -> None:
        """Make a move. An illegal move raises IllegalMove and leaves the state unchanged."""
        m = Move.parse(move)
        if self.over:
            raise IllegalMove(m, "the game is over")
        legal = self.legal_moves()
        try:  # the listed move itself: its arguments as the rules made them (true, not 1)
            m = legal[legal.index(m)]
        except ValueError:
            option_names = {o.name for o in self.program.choices[self.choice].options}
            if m.name not in option_names:
                reason = (f"player {self.actor} is deciding `{self.decision}`, whose moves are "
                          + ", ".join(sorted(option_names)))
            else:
                reason = f"it is not allowed now (legal: {', '.join(self.describe(x) for x in legal[:12])}"
                reason += ", ...)" if len(legal) > 12 else ")"
            raise IllegalMove(m, reason, legal)
        saved = self.clone()
        try:
            self._apply(m)
        except BaseException:
            self._restore(saved)
            raise

    def clone(self) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.program = self.program
        s.n = self.n
        s.seed = self.seed
        s.zones = list(map(list.copy, self.zones))
        s.places = self.places.copy()
        s.loc = self.loc.copy()
        s.vars = self.vars.copy()
        s.locals = self.locals.copy()
        s.pc = self.pc
        s.choice = self.choice
        s.actor = self.actor
        s.current = self.current
        s.rng = self.rng
        s.grants = list(map(list.copy, self.grants)) if self.grants else []
        s.shown = list(map(list.copy, self.shown)) if self.shown else []
        s.known = self.known  # never changed in place
        s.moves = self.moves.copy()
        s.is_over = self.is_over
        s.finding = self.finding
        s._legal = self._legal
        s._trigger_work = None
        s._quiet = self._quiet
        return s

    def _set_by_hand(self) -> None:
        """The state was changed other than by a move (a position set up, a world sampled, a save
        read): the legal moves kept are listed again, and the next trigger check asks every trigger
        (``_quiet``: every trigger was found false by the last check and nothing they read changed
        since, other than by effects that asked them; the generated ``_fire`` reads it)."""
        self._legal = None
        self._quiet = False

    def _restore(self, other: "State") -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))

    def _key(self) -> tuple:
        return (self.n, self.seed, tuple(map(tuple, self.zones)), tuple(self.places), tuple(self.vars),
                tuple(_freeze(v) for v in self.locals), self.pc, self.choice, self.actor, self.current,
                self.rng, tuple(map(tuple, self.grants)), tuple(map(tuple, self.shown)),
                tuple(map(tuple, self.known)), tuple(self.moves), self.is_over, self.finding)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.program is other.program and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        status = "over" if self.over else f"player {self.actor} to decide {self.decision}"
        return f"<State {self.program.name}: {self.n} players, {len(self.moves)} moves, {status}>"

    # ---- what players see


    # ---- running the flow

    def _flow(self) -> Flow:
        return flow_of(self.program)

    def _enumerate(self) -> list[Move]:
        flow = self.program.flow or self._flow()
        try:
            return flow.moves[self.choice](self, self.locals)  # it copies the locals before changing them
        except RulesRuntimeError:
            raise
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            span = self.program.choices[self.choice].span
            raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None

    def _apply(self, m: Move) -> None:
        flow = self.program.flow or self._flow()
        L = self.locals
        fast = flow.fast[self.choice].get(id(m))  # a move the decision listed: where its body starts
        if fast is not None:
            first, body, slot, value = fast
            if slot >= 0:
                L[slot] = value
        else:
            first, body = self._by_name(flow, m, L)
        moves = self.moves
        moves.append(m)
        self._trigger_work = None  # the triggers' bodies get their own budget for this move (_charge_triggers)
        if self.shown:
            self.shown = []  # `show`: the cards shown during this move, as [card, player]
        # (pc, choice, actor and the legal moves are set where the move's code stops: a decision or the end)
        try:  # the first stretch of the move's body, called here; the rest (rarely any) by _run
            pc = first(self, L)
        except (RulesRuntimeError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            self._failed(flow, exc, body)
        if pc >= 0:
            self.pc = pc
            self._run(None, flow.weights[body])  # the first stretch's work counts too
        if len(moves) >= flow.limit and not self.is_over:
            self._end()
            self.finding = f"the game reached its limit of {flow.limit} moves without ending"

    def _by_name(self, flow: Flow, m: Move, L: list) -> tuple:
        """The start of move ``m``'s body found by its name and number of arguments, which are put in
        their slots: (the function of that step, the step)."""
        args = m.args
        entry = flow.entries[self.choice].get(m.name)
        if entry is None or entry[0] != len(args):
            entry = flow.entries_by_arity[self.choice].get((m.name, len(args)))
            if entry is None:
                choice = self.program.choices[self.choice]
                raise IllegalMove(m, f"decision `{choice.name}` has no move {m.name} with {len(args)} argument(s)")
        count, body, slots, first = entry
        if count:
            if count == 1:
                L[slots[0]] = args[0]
            else:
                for slot, v in zip(slots, args):
                    L[slot] = v
        return first, body

    def _run(self, steps: list | None = None, spent: int = 0) -> None:
        """Carry out steps until a player must decide or the game ends (the generated code of flowgen.py:
        one function per stretch of steps, each returning the step to go on from, or -1).

        Each stretch is charged its weight, the units of work it may do at most (compiler/work.py), off
        a budget of MAX_WORK_PER_MOVE less ``spent`` (the move's first stretch, run by _apply).
        ``steps``, a one-item list, is a budget shared by several runs (dealing.setup_failure's tries):
        no more than MAX_WORK_PER_MOVE nor what is left of it, and the work done is taken off it."""
        flow = self.program.flow or self._flow()
        blocks = flow.blocks
        weights = flow.weights
        L = self.locals
        limit = MAX_WORK_PER_MOVE if steps is None else min(MAX_WORK_PER_MOVE, steps[0])
        budget = limit - spent
        pc = self.pc
        try:
            while pc >= 0:
                budget -= weights[pc]
                if budget < 0:
                    raise RulesRuntimeError(
                        f"the rules did more than {limit:,} units of work without asking any player to move "
                        "(an endless loop, or a long range or a big zone gone through again and again?)",
                        self.program.code[pc][3])
                pc = blocks[pc](self, L)
        except (RulesRuntimeError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            self._failed(flow, exc, pc)
        finally:
            if steps is not None:
                steps[0] -= limit - max(budget, 0)

    def _charge_triggers(self, t: int, units: int) -> None:
        """Take ``units`` off the work the triggers' bodies may do in this move (or this setup, or the
        setup tries' shared budget): as much as the flow's, MAX_WORK_PER_MOVE."""
        left = getattr(self, "_trigger_work", None)
        if left is None:
            left = self._trigger_work = [MAX_WORK_PER_MOVE]
        left[0] -= units
        if left[0] < 0:
            trigger = self.program.triggers[t]
            raise RulesRuntimeError(f"trigger `{trigger.name}` did more than {MAX_WORK_PER_MOVE:,} units of work "
                                    "in one move (an endless loop in its body?)", trigger.span)

    def _failed(self, flow: Flow, exc: Exception, pc: int):
        """A rule failed in the generated code run from step ``pc``: the finding, at the rule's line
        (found from the generated line that failed)."""
        if isinstance(exc, RulesRuntimeError):
            if exc.span.line:
                raise exc
            span = flow.failing_span(exc.__traceback__) or self.program.code[pc][3]
            raise RulesRuntimeError(exc.message, span) from None
        span = flow.failing_span(exc.__traceback__) or self.program.code[pc][3]
        raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None

    # The generated code stops at a decision by setting pc, choice, actor and _legal (flowgen.Flow._choose);
    # these two are its ways out when the actor is no player or nobody can move.

    def _check_actor(self, cid: int, actor) -> int:
        choice = self.program.choices[cid]
        if not isinstance(actor, int) or not 0 <= actor < self.n:
            raise RulesRuntimeError(f"decision `{choice.name}` is asked of {actor!r}, who is no player", choice.span)
        return actor

    def _no_moves(self, cid: int) -> None:
        choice = self.program.choices[cid]
        raise RulesRuntimeError(f"player {self.actor} must decide `{choice.name}` but has no legal move", choice.span)

    def _end(self) -> None:
        self.is_over = True
        self.choice = -1
        self.actor = -1
        self._legal = []

    def _fire(self) -> bool:
        """Run triggers whose condition holds, first declared first, until none does.
        Returns True if a trigger ended the game."""
        return self._flow().fire(self, self.locals)

    def _keeps_firing(self, t: int):
        trigger = self.program.triggers[t]
        raise RulesRuntimeError(f"trigger `{trigger.name}` keeps firing ({MAX_TRIGGER_FIRINGS} times after one step); "
                                "its body must make its condition false", trigger.span)

    # ---- setting up a position (tests, puzzles, teaching)


    # ---- checks used by tests and verify


    # ---- saving

    def to_json(self) -> str:
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.program.name,
            "params": self.program.params,
            "players": self.n,
            "seed": self.seed,
            "zones": self.zones,
            "places": self.places,
            "vars": self.vars,
            "locals": [_plain(v) for v in self.locals],
            "pc": self.pc,
            "choice": self.choice,
            "actor": self.actor,
            "current": self.current,
            "rng": self.rng,
            "grants": self.grants,
            "shown": self.shown,
            "known": self.known,
            "moves": [m.to_json() for m in self.moves],
            "over": self.over,
            "finding": self.finding,
        }
        return _sealed(data)


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, range):
        return tuple(v)
    return v


def _plain(v):
    if isinstance(v, (list, tuple, range)):
        return [_plain(x) for x in v]
    return v


