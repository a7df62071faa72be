"""How much work each compiled step may do: the static weights the engine's work bound charges.

The engine stops a move that works too long without asking any player
(docs/language.md 7.7). Counting steps alone is not enough: one step may go
through a range of 100,000 values or a zone of 10,000 cards, or nest such
aggregates. So each step gets a *weight* when it is compiled, an upper bound
of the work it does, in *units of work*:

- every expression node written out counts 1; an aggregate, fold, `best` or
  pick counts its domain once, plus, for each value its domain may hold, 1 and
  the weight of its condition and value (so nested aggregates multiply);
- a step counts STEP_WORK (its dispatch) plus the weights of the expressions
  it works out; a `for` counts the values of its domain (the list it takes);
  `put`, `put each`, `deal`, `shuffle` and `gather` count the cards they may
  move (each kind by what moving a card costs it);
- listing a decision's moves (the product of each move's parameters' domain
  sizes times the weight of its condition) is not charged to the run: it ends
  the run, so it happens once per move; it is refused if it alone is too much;
- an effect followed by a trigger check counts the check: every trigger's
  condition over its domain.

The size of a domain is what the compiler knows of it: a constant range or
set by its size, a zone or list of cards by the game's card count, `players`
by the most players, an enum by its values, and a range worked out while
playing by MAX_RANGE (the most a range may hold then).

A step (or a decision's listing, the trigger check, an invariant, a score)
whose weight alone is more than MAX_WORK could never run within the bound:
the rules are refused (E216) at that rule. :class:`Work` is a part of the
compiler (a mixin before the others, so its ``expr``, ``stmt`` and ``option`` see
every expression, statement and move compiled; ``emit`` calls ``weigh_step``).
"""

from __future__ import annotations

from contextlib import contextmanager

from ..checker import types as T
from ..checker.limits import MAX_RANGE, MAX_WORK
from ..language import ast as A
from ..language.assemble import diag
from ..language.errors import RulesError
from .steps import EFFECT

# The units of each kind of work, measured so that a unit is about the same CPU time (docs 7.7)
STEP_WORK = 10  # one step: the dispatch of its generated function
VALUE_WORK = 2  # one value an aggregate, a fold or a loop goes through (beside its condition's own weight)
MOVE_WORK = 100  # one card of many moved by `put` (its zones, places and positions kept up;
# taken from anywhere in its zone, not only its top); a single card: a quarter of it
SHUFFLE_WORK = 60  # one card of a shuffled zone (the game's own generator, in Python)
DEAL_WORK = 2  # one card dealt, or moved by `put each` (moved in C, its position set)
CALL_WORK = 6  # beside VALUE_WORK, per value of a fold, `best`, `random`, `first` or `sorted` (a call per value)
_QUANTIFIED = (A.Aggregate, A.Fold, A.Best)
_INLINED = ("any", "all", "count", "cards")  # aggregates written out as loops in the generated code
_HINT = ("go through a smaller domain (a range with constant ends, a zone rather than every card), or work "
         "a nested aggregate's value out once into a variable")


class _Frame:
    """The domain nodes (or other expressions) whose compiled value and weight are wanted."""

    __slots__ = ("nodes", "wanted", "got", "total", "extra", "binding")

    def __init__(self, nodes):
        self.nodes = [n for n in nodes if n is not None]
        self.wanted = {id(n) for n in self.nodes}
        self.got: dict = {}  # id(node) -> (fn, type, weight, size)
        self.total = 0
        self.extra = 0  # the work of turning a domain into its values once (a track's slots)
        self.binding = None  # an aggregate's variable

    def weight_of(self, node) -> int:
        got = self.got.get(id(node))
        return got[2] if got is not None else 0

    def domain_work(self) -> int:
        return sum(w for _, _, w, _ in self.got.values())

    def over(self, inner: int, per_value: int = 0) -> int:
        """The weight of going through the domains once each and, for every combination of their values,
        ``per_value`` and ``inner`` (the weight compiled inside the frame, the domains' own included)."""
        inside = self.domain_work()
        return inside + self.extra + self.combinations() * (VALUE_WORK + per_value + inner - inside)

    def combinations(self) -> int:
        product = 1
        for _, _, _, size in self.got.values():
            product *= size
        return product


class Work:
    """The static weights of steps (see the module's docstring); a mixin of the compiler."""

    def start_work(self) -> None:
        self.work = 0  # units of the expressions compiled since the last step
        self.step_work: list = []  # step -> its weight
        self.trigger_work = 0  # one check of every trigger's condition
        self._frames: list = []
        self._statements: list = []  # per statement being compiled: [node, frame, charged?]
        self._depth = 0

    # ---- sizes

    def domain_size(self, fn, t: str, node=None) -> int:
        """The most values a domain may hold while playing."""
        if t in T.CARD_SOURCES or t == T.ANY:  # (a zone's name is a constant: its number)
            return self._zone_size(node)
        if getattr(fn, "constant", False):
            try:
                return len(fn(None, None))
            except TypeError:
                return 1
        most = getattr(fn, "most", None)
        if isinstance(most, int):  # a range longer than MAX_RANGE is a finding before it is gone through
            return min(most, MAX_RANGE)
        if t == T.PLAYERS:
            return self.m.max_players
        if t.startswith("type:") and t[5:] in self.m.enums:
            return len(self.m.enums[t[5:]].values)
        if isinstance(node, A.SetLit):
            return len(node.items)
        return MAX_RANGE

    def _zone_size(self, node) -> int:
        """The cards a zone may hold: every card; but a zone of a family indexed by the variable of an
        aggregate around it (`declared[p]` inside `any(each p in players where ...)`) holds, on average
        over that aggregate's values, at most every card divided by their number: the family's zones
        share the cards, so the inner aggregate's values over all of the outer's are at most the cards."""
        total = self.card_total
        if isinstance(node, A.Index):
            bound = {self.m.bindings.get(i) for i in node.indices if isinstance(i, A.Name)} - {None}
            for frame in self._frames[:-1]:  # (the last one is the aggregate this zone is the domain of)
                if frame.binding is not None and frame.binding in bound and frame.got:
                    return max(1, -(-total // frame.combinations()))
        return total

    def too_much(self, work: int, span, what: str):
        if work > MAX_WORK:
            raise RulesError([diag(self.m.texts, "E216",
                                   f"{what} may take up to {work:,} units of work, more than a move may take "
                                   f"(at most {MAX_WORK:,}; docs/language.md 7.7)",
                                   span, _HINT)])

    # ---- the compiler's own methods, measured

    def expr(self, e, env=None, statics=None):
        frames = self._frames
        top = frames[-1] if frames else None
        wanted = top is not None and id(e) in top.wanted and id(e) not in top.got
        outer, self.work = self.work, 0
        self._depth += 1
        try:
            if isinstance(e, _QUANTIFIED):
                frame = _Frame([e.domain])
                frame.binding = self.m.bindings.get((e, e.var))
                frames.append(frame)
                try:
                    fn, t = super().expr(e, env, statics)
                finally:
                    frames.pop()
                if not frame.got:  # (every aggregate compiles its domain; this is only in case)
                    frame.got[0] = (None, T.ANY, 0, MAX_RANGE)
                # a fold, `best` or a pick calls a function per value; a sort also compares log2(size) times
                per_value = 0 if isinstance(e, A.Aggregate) and e.func in _INLINED else CALL_WORK
                if isinstance(e, A.Aggregate) and e.func == "sorted":
                    per_value += frame.combinations().bit_length()
                work = 1 + frame.over(self.work, per_value)
            else:
                fn, t = super().expr(e, env, statics)
                work = 1 + self.work
        finally:
            self._depth -= 1
        if wanted:
            top.got[id(e)] = (fn, t, work, self.domain_size(fn, t, e))
        self.work = outer + work
        if self._depth == 0:
            self.too_much(work, e.span, "this expression")
        return fn, t

    def cards(self, fn, t, span):
        """A source of cards as a list: a track's (or what may be one) costs a look at each of its slots."""
        if t in (T.TRACK, T.ANY):
            self.work += self.track_slots()
        return super().cards(fn, t, span)

    def domain(self, fn, t, span):
        """A domain's values, worked out once per aggregate or loop: their cost is the frame's, once."""
        before = self.work
        dom = super().domain(fn, t, span)
        if self._frames and self.work != before:
            self._frames[-1].extra += self.work - before
            self.work = before
        return dom

    def track_slots(self) -> int:
        return max((len(z.places) for z in self.zone_list), default=0)

    def stmt(self, s) -> None:
        nodes = ()
        if isinstance(s, (A.For, A.PutEach)):
            nodes = (s.domain,)
        elif isinstance(s, A.Put):
            nodes = (s.cards,)
        elif isinstance(s, A.Deal):
            nodes = (s.count,)
        elif isinstance(s, A.Turns):
            nodes = (s.until,)
        frame = _Frame(nodes)
        self._frames.append(frame)
        self._statements.append([s, frame, 0])
        try:
            super().stmt(s)
        finally:
            self._statements.pop()
            self._frames.pop()

    def _own_work(self, s, frame: _Frame, step: int) -> int:
        """What statement ``s`` does beside its expressions, charged on its first step (``step`` 0).
        `turns` works its condition out on its second step, each turn, not on the first."""
        if isinstance(s, A.Turns):
            return -frame.weight_of(s.until) if step == 0 else frame.weight_of(s.until) if step == 1 else 0
        if step:
            return 0
        got = next(iter(frame.got.values()), None)
        if isinstance(s, A.For) and got is not None:
            return got[3] + frame.extra  # the list of its values, taken when it starts
        if isinstance(s, A.PutEach) and got is not None:  # zones named per value, each card moved once at most
            return frame.over(self.work) - self.work + DEAL_WORK * self.card_total
        if isinstance(s, A.Put) and got is not None:
            return MOVE_WORK // 4 if got[1] in (T.CARD, T.NONE) else MOVE_WORK * got[3]
        if isinstance(s, A.Deal) and got is not None:
            fn = got[0]
            if getattr(fn, "constant", False) and isinstance(fn(None, None), int):
                return DEAL_WORK * max(0, min(fn(None, None), self.card_total))
            return DEAL_WORK * self.card_total
        if isinstance(s, A.Shuffle):
            return SHUFFLE_WORK * self.card_total
        if isinstance(s, A.Gather):
            return VALUE_WORK * (self.card_total + len(self.zone_list) + self.place_count)
        return 0

    def weigh_step(self, kind, a) -> None:
        """The weight of the step just emitted (the compiler's ``emit`` calls this)."""
        pc = len(self.code) - 1
        work = STEP_WORK + self.work
        if self._statements:
            entry = self._statements[-1]
            work += self._own_work(entry[0], entry[1], entry[2])
            entry[2] += 1
        self.work = 0
        self.step_work.append(work)

    def option(self, o, known=None):
        frame = _Frame([p.domain for p in o.params])
        outer, self.work = self.work, 0
        self._frames.append(frame)
        try:
            option = super().option(o, known)
        finally:
            self._frames.pop()
        listing = frame.over(self.work, len(o.params))
        self.work = outer
        # not charged to the CHOOSE step: a listing ends the run (the flow waits for the move), so it
        # happens once per move and cannot be gone round; refused only if it alone could never fit
        self.too_much(listing, o.span, f"listing the moves `{o.name}`")
        return option

    @contextmanager
    def measured(self, domain):
        """The weight of what is compiled inside, once per value of ``domain`` (a trigger's or an
        invariant's); kept apart from the steps'. Yields the frame; its weight is then ``frame.total``."""
        frame = _Frame([domain])
        outer, self.work = self.work, 0
        self._frames.append(frame)
        try:
            yield frame
        finally:
            self._frames.pop()
            frame.total = frame.over(self.work)
            self.work = outer

    def finish_work(self, flow_end: int) -> None:
        """Charge the trigger check to every effect of the flow, and refuse a step that could never fit."""
        code = self.code
        if self.m.triggers:
            for pc in range(flow_end):
                if code[pc][0] == EFFECT:
                    self.step_work[pc] += self.trigger_work
        for pc, work in enumerate(self.step_work):
            self.too_much(work, code[pc][3], "this step")
