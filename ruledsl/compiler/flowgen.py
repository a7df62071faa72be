"""A compiled program's steps as one generated Python module: the fast path of the engine.

The compiler turns the flow into a flat list of steps with jumps (compile.py),
so that where a game stands is plain data (a program counter). Running that
list one step at a time costs a dispatch per step; this module writes the list
out once more as Python source, compiles it, and the engine runs that instead:

- every step where the flow may start or jump to (a *leader*: the start, a
  jump's target, the body of a move) gets one function that runs the steps
  from there up to the next unconditional jump, decision or end, and returns
  the step to go on from (or -1: a decision is pending, or the game is over);
  a conditional jump inside is an ``if`` that returns its target, or, in a
  stretch on no loop of the flow, what the target's function returns, called
  there (branches.py: no round through State._run per ``if``/``else``);
- the effects and conditions whose compiled closure carries its own source
  text (``fn.src`` for an expression, ``fn.stmt`` for a statement) are written
  in place; the others are called;
- the trigger check (every trigger's condition, first declared first, until
  none holds) is one function (firegen.py), and a trigger's body is run the
  same way;
- each decision gets one function that lists its legal moves, with the moves
  themselves built once per program and shared (a Move is immutable).

The state stays plain data and the step numbers stay the program's: the
generated code reads and writes the same State fields the step list does, so
clone, save, replay and verify see no difference. A runtime error is traced
back to the step it happened in through the generated line it was raised on,
so it still names the rules line. ``source`` is what
``ruledsl compile --emit-python`` prints.

Nothing of a rules file's text reaches the generated code: it is built from
step numbers, slots and names the compiler made, and from the source texts of
the compiler's own generated expressions.
"""

from __future__ import annotations

import re

from ..checker import types as T
from . import hoist
from .branches import calling, reached
from .codecache import compiled
from .common import keep_common
from .firegen import TriggerCheck
from .forward import forward_slots
from .noops import drop_noops
from .purity import CardTable
from .srctext import conjuncts, loop_locals, rules_line, unused_mask, writes_locals
from .steps import CHOOSE, EFFECT, HALT, JUMP, JUMP_IF_NOT, RETURN, SET

ALIASED = ("vars", "zones", "places", "loc")  # State fields bound to a local in a generated function
MAX_TRACE = 400  # steps written into one function before it hands over to the next
MAX_FOLLOW = 60  # a jump is followed into the same function only within this many steps of its start
MAX_THREAD = 6  # the tests of the stretches it jumps to a stretch asks in place, one inside another


class Interned(dict):
    """The moves of one option, made once: ``table[args]`` -> Move(name, args). Each move of a
    one-argument option is entered in its decision's ``fast`` map when it is made (Flow.hook)."""

    def __init__(self, make, name: str, one: bool):
        super().__init__()
        self.make, self.name, self.one = make, name, one
        self.fast = self.hook = None

    def __missing__(self, key):
        move = self[key] = self.make(self.name, (key,) if self.one else key)
        if self.hook is not None:
            first, body, slot = self.hook
            self.fast[id(move)] = (first, body, slot, key)
        return move


class Flow(TriggerCheck):
    """The generated functions of one program, and how to map a generated line back to its step."""

    def __init__(self, program, move_class, max_firings: int):
        self.program = program
        self.filename = f"<ruledsl generated: {program.name}>"
        self.line_span: list = []  # generated line (0-based) -> the span of its rule, or None
        self.lines: list = []
        self.ns: dict = {}
        code = program.code
        trig_start = min((t.body for t in program.triggers), default=len(code))
        self.trig_start = trig_start
        leaders = {0}
        for pc, (kind, a, b, _span) in enumerate(code):
            if kind == JUMP:
                leaders.add(a)
            elif kind == JUMP_IF_NOT:
                leaders.add(b)
        for choice in program.choices:
            for o in choice.options:
                leaders.add(o.body)
        for t in program.triggers:
            leaders.add(t.body)
        leaders = sorted(x for x in leaders if x is not None and 0 <= x < len(code))
        self.watched = program.trigger_mask if program.triggers else 0
        self._emit_header(max_firings)
        # each decision's listing of its moves, written first: a stretch that stops at a decision lists
        # its moves in place (no call); _mN, the same lines as a function, serves states set up otherwise
        self.listings = []
        self._made = []  # (decision, option, its move or its Interned table): for `fast` below
        for cid, choice in enumerate(program.choices):
            kept = self.lines, self.line_span
            self.lines, self.line_span = [], []
            self._moves_fn(cid, choice, move_class)
            self.listings.append(self.lines)
            self.lines, self.line_span = kept
        # the units of work each function may do at most: the weights of the steps it runs (work.py)
        work = getattr(program, "step_work", None) or [1] * len(code)
        self.weights = [0] * len(code)
        self._calling = calling(code, leaders, trig_start, MAX_TRACE, MAX_FOLLOW)
        self._leaders = set(leaders)
        steps, calls = {}, {}
        for pc in leaders:
            first = len(self.lines)
            self._calls = set()
            self._trace(pc)
            self._alias(first)
            for i in range(first, len(self.lines)):  # a slot written and read again: a Python local
                if self.lines[i].startswith("def "):
                    forward_slots(self.lines, i)
                    keep_common(self.lines, i, program.var_count)  # a part worked out again: from a local
            steps[pc], calls[pc] = self._visited, self._calls
        for pc in leaders:  # a stretch's steps, and those of the stretches it calls (branches.py)
            self.weights[pc] = sum(work[x] for x in reached(pc, steps, calls) if x < len(code))
        first = len(self.lines)
        self._fire_fn()
        self._alias(first)
        self.options = []  # per decision: {(name, number of args): option}
        for cid, choice in enumerate(program.choices):
            first = len(self.lines)
            for text in self.listings[cid]:
                self._line(text)
            self._alias(first)
            self.options.append({(o.name, len(o.params)): o for o in choice.options})
        for i, text in enumerate(self.lines):  # no-ops out of every function (the same number of lines)
            if text.startswith("def "):
                drop_noops(self.lines, i)
        self.source = "\n".join(self.lines) + "\n"
        ns = self._names()
        ns["__builtins__"] = {"any": any, "all": all, "sum": sum, "len": len, "list": list, "min": min,
                              "max": max, "int": int, "range": range, "map": map, "filter": filter, "AssertionError": AssertionError}
        self.blocks = [None] * len(code)
        ns["_BLOCKS"] = self.blocks
        exec(compiled(self.source, self.filename), ns)  # noqa: S102 - source built here, not by the user
        for pc in leaders:
            self.blocks[pc] = ns[f"_b{pc}"]
        self.fire = ns["_fire"]
        self.moves = [ns[f"_m{cid}"] for cid in range(len(program.choices))]
        self.limit = program.limit
        # per decision: {(name, number of args): (number of args, the step its body starts at, its slots,
        # the function of that step)}; `entries`: the same by name only (one of them where a name comes
        # with several numbers of args)
        self.entries_by_arity = []
        self.entries = []
        for choice in program.choices:
            every = {(o.name, len(o.params)): (len(o.params), o.body, tuple(slot for slot, _ in o.params),
                                               self.blocks[o.body])
                     for o in choice.options}
            self.entries_by_arity.append(every)
            self.entries.append({name: entry for (name, _), entry in every.items()})
        # per decision, the moves it lists, by identity: id(move) -> (the function its body starts
        # in, that step, the slot of its argument or -1, the argument). The moves are made once and
        # kept alive by the flow (the XM names, the Interned tables), so an id stays theirs; a move
        # made elsewhere, or listed by another decision, is not in the decision's map and takes the
        # way by name (State._apply)
        self.fast: list = [{} for _ in program.choices]
        for cid, o, made in self._made:
            count, body, slots, first = self.entries_by_arity[cid][(o.name, len(o.params))]
            fast = self.fast[cid]
            if isinstance(made, Interned):
                if count == 1:
                    made.fast, made.hook = fast, (first, body, slots[0])
                    for key, move in made.items():  # made while writing the code (_constant_filter)
                        fast[id(move)] = (first, body, slots[0], key)
            else:
                fast[id(made)] = (first, body, -1, None)
        del self._made

    def listing(self) -> str:
        """The generated module, then what each name it uses stands for: the compiler's generated
        expressions and functions with their source, tables in short, other closures by their job."""
        ns = self._names()
        out = [self.source, "", "# ---- the names used above " + "-" * 40]
        seen: set = set()
        todo = sorted(set(re.findall(r"\b_[A-Za-z]\w*", self.source)))
        while todo:
            name = todo.pop(0)
            if name in seen or name not in ns:
                continue
            seen.add(name)
            value = ns[name]
            text = getattr(value, "src", None)
            if callable(value) and text is not None and not text.startswith(name + "("):
                out.append(f"# {name} = lambda s, L: {text}")
            elif getattr(value, "definition", None):
                out.extend("# " + line for line in value.definition.rstrip().split("\n"))
                text = value.definition
            elif isinstance(value, (list, tuple, range, frozenset, dict, int, str)) and not callable(value):
                shown = repr(value)
                out.append(f"# {name} = {shown if len(shown) <= 100 else shown[:97] + '...'}")
            else:
                out.append(f"# {name}: {_describe(value)}")
            if text:
                todo.extend(sorted(set(re.findall(r"\b_[A-Za-z]\w*", text)) - seen))
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------ writing

    def _line(self, text: str, pc=None) -> None:
        """One generated line; ``pc`` is its step number (or a Span) for errors raised on it."""
        self.lines.append(text)
        if isinstance(pc, int):
            pc = self.program.code[pc][3] if 0 <= pc < len(self.program.code) else None
        self.line_span.append(pc)

    def _alias(self, first: int) -> None:
        """In the function written from line ``first`` on: the State's lists read more than once
        (``s.vars``, ``s.zones``, ...) through a Python local bound once, before the first statement of
        the function's body that reads one (a stretch that only tests and calls the next binds none).
        They are never replaced while the flow runs, only changed in place."""
        lines = self.lines
        start = next(i for i in range(first, len(lines)) if lines[i].startswith("def "))
        found = _ALIASED_REF.findall("\n".join(lines[start + 1:]))
        names = [f for f in ALIASED if found.count(f) >= 2]
        if not names:
            return
        chosen = set(names)

        def local(m):
            return f"_s_{m.group(1)}" if m.group(1) in chosen else m.group(0)

        at = None
        for i in range(start + 1, len(lines)):
            if "s." in lines[i]:
                changed = _ALIASED_REF.sub(local, lines[i])
                if at is None and changed != lines[i]:
                    at = i
                lines[i] = changed
        # back to the top-level statement the first use is in (an `else:` belongs to the `if` above it)
        while at > start + 1 and (not lines[at].startswith("    ") or lines[at].startswith("     ")
                                  or lines[at].lstrip().startswith(_CONTINUED)):
            at -= 1
        lines.insert(at, "    " + "; ".join(f"_s_{f} = s.{f}" for f in names))
        self.line_span.insert(at, None)

    def _names(self) -> dict:  # the names the generated module uses: the compiler's and its own
        return {**(getattr(self.program, "namespace", None) or {}), **self.ns}

    def _name(self, prefix: str, value) -> str:
        name = f"_{prefix}{len(self.ns)}"
        self.ns[name] = value
        return name

    def _expr(self, fn) -> str:
        text = getattr(fn, "src", None)
        if text is not None:
            return text
        return f"{self._name('Xx', fn)}(s, L)"

    def _emit_header(self, max_firings: int) -> None:
        p = self.program
        self._line(f"# The generated steps of the rules of {p.name!r}: {len(p.code)} steps, "
                   f"{len(p.choices)} decision(s), {len(p.triggers)} trigger(s).")
        self._line("# s: the State; L: the flow's locals (s.locals). _bN runs the steps from step N and returns")
        self._line("# the step to go on from (-1: a decision is pending or the game is over); _mN lists the legal")
        self._line("# moves of decision N; _fire runs the triggers. A comment names the rules line of each step;")
        self._line("# the names the code uses are listed at the end.")
        self.ns["_MAX_FIRINGS"] = max_firings

    def _trace(self, start: int) -> None:
        """The function of the leader ``start``: its steps up to the next jump, decision or end."""
        code = self.program.code
        in_trigger = start >= self.trig_start
        self._line("")
        self._line(f"def _b{start}(s, L):", start)
        pc = start
        count = 0
        visited = self._visited = {start}
        calls = start in self._calling  # a jump out calls its stretch (branches.py)
        while True:
            if pc >= len(code):
                self._line("    raise AssertionError('ran past the last step')", pc - 1)
                return
            kind, a, b, span = code[pc]
            where = f"  # {rules_line(span)}" if span.line else ""
            if count >= MAX_TRACE:
                self._line(f"    return {pc}", pc)
                return
            count += 1
            visited.add(pc)
            if kind == EFFECT:
                stmt = getattr(a, "stmt", None)
                changed = getattr(a, "changed", None)
                if stmt is not None and (changed is not None or in_trigger or not self.watched):
                    if in_trigger or not self.watched:
                        stmt = unused_mask(stmt, changed)
                    for text in stmt:
                        self._line(f"    {text}{where}", pc)
                    if in_trigger or not self.watched:
                        pass
                    elif isinstance(changed, str):  # the lines leave the mask in this variable
                        self._line(f"    if {changed} & {self.watched}:{where}", pc)
                        self._fire_call(pc, where, changed, indent="        ")
                    elif changed & self.watched:
                        self._fire_call(pc, where, changed)
                elif in_trigger or not self.watched:
                    self._line(f"    {self._expr_stmt(a, 'e')}{where}", pc)
                else:
                    self._line(f"    _ch = {self._name('Xe', a)}(s, L)", pc)
                    self._line(f"    if _ch & {self.watched}:{where}", pc)
                    self._fire_call(pc, where, "_ch", indent="        ")
                pc += 1
            elif kind == SET:
                stmt = getattr(a, "stmt", None)
                if stmt is not None:
                    for text in unused_mask(stmt, getattr(a, "changed", None)):
                        self._line(f"    {text}{where}", pc)
                else:
                    self._line(f"    {self._expr_stmt(a, 'k')}{where}", pc)
                pc += 1
            elif kind == JUMP_IF_NOT:
                self._line(f"    if not {self._cond(a)}:{where}", pc)
                self._jump_out(b, calls, "        ", pc)
                pc += 1
            elif kind == JUMP:
                if a not in visited and count < MAX_FOLLOW:  # go on in the same function (not round a loop)
                    self._line(f"    pass  # jump to step {a}{where}", pc)
                    pc = a
                    visited.add(pc)
                    continue
                self._jump_out(a, calls, "    ", pc, where)
                return
            elif kind == CHOOSE:
                if in_trigger:
                    self._line(f"    return -2{where}", pc)
                else:
                    self._choose(pc, a, where)
                return
            elif kind == HALT:
                self._line(f"    s.pc = {pc}{where}", pc)
                self._line("    s._end()", pc)
                self._line("    return -1", pc)
                return
            elif kind == RETURN:
                if in_trigger:
                    self._line(f"    return -2{where}", pc)
                else:
                    self._line(f"    raise AssertionError('RETURN reached in the flow'){where}", pc)
                return
            else:
                raise AssertionError(f"unknown step kind {kind}")

    def _exit(self, target: int, calls: bool) -> str:
        """What a stretch returns where it jumps out to ``target``: the step, for State._run to go on
        from; or, in a stretch on no loop of the flow, the value of the target's stretch, called here
        (no round through State._run; the stretch is charged the work of those it calls, branches.py)."""
        if calls and target in self._leaders and target < self.trig_start:
            self._calls.add(target)
            return f"_b{target}(s, L)"
        return str(target)

    def _jump_out(self, target: int, calls: bool, indent: str, pc: int, where: str = "", depth: int = 0) -> None:
        """The lines that leave the stretch for step ``target`` (see _exit). Where the stretch called
        there starts by a test of its own that jumps out again (the next test of an ``if``/``else if``
        chain), that test is asked here first, and its jump taken from here: a chain of tests runs in
        one function, not one call per test (the stretch called, when its test holds, asks it again:
        it reads, and the state is the same). At most MAX_THREAD tests deep; the test's lines keep
        the test's own step, for errors."""
        code = self.program.code
        if calls and depth < MAX_THREAD and target in self._calling and target in self._leaders \
                and target < self.trig_start and code[target][0] == JUMP_IF_NOT:
            _, cond, next_target, _ = code[target]
            self._line(f"{indent}if not {self._cond(cond)}:", target)
            self._jump_out(next_target, True, indent + "    ", target, "", depth + 1)
        self._line(f"{indent}return {self._exit(target, calls)}{where}", pc)

    def _choose(self, pc: int, cid: int, where: str) -> None:
        """The flow stops at decision ``cid``: whose it is, and its legal moves (State._ask, written out)."""
        fn = self.program.choices[cid].actor
        actor = self._expr(fn)
        if getattr(fn, "valid_player", False):  # `current`: always a player, nothing to check
            asks = (f"s.actor = {actor}",)
        else:
            asks = (f"_a = {actor}", "if _a.__class__ is not int or not 0 <= _a < s.n:",
                    f"    _a = s._check_actor({cid}, _a)", "s.actor = _a")
        for text in (f"s.pc = {pc}", f"s.choice = {cid}", *asks):
            self._line(f"    {text}{where}", pc)
        listing = self.listings[cid]
        body = listing[listing.index(next(x for x in listing if x.startswith("def "))) + 1:]
        assert body[-1] == "    return out"
        for text in body[:-1]:  # the lines of _mN (L may be rebound to a copy: nothing after reads it)
            self._line(text, pc)
        # nobody can move: a finding, or with `when no move: end game` the end (as `end game` here would)
        stuck = "    s._end()" if self.program.choices[cid].no_move_end else f"    s._no_moves({cid})"
        for text in ("s._legal = out", "if not out:", stuck, "return -1"):
            self._line(f"    {text}{where}", pc)

    def _expr_stmt(self, fn, prefix: str) -> str:
        return f"{self._name('X' + prefix, fn)}(s, L)"

    def _cond(self, fn) -> str:
        text = getattr(fn, "src", None)
        if text is not None:
            return f"({text})"
        return f"{self._name('Xc', fn)}(s, L)"

    def _moves_fn(self, cid: int, choice, move_class) -> None:
        """The legal moves of decision ``cid``, in the order of its options and their domains."""
        self._line("")
        self._line(f"def _m{cid}(s, L):  # decision {choice.name}, {rules_line(choice.span)}")
        # L is the state's own locals, which listing must not change: a copy before the first code that writes L
        self._copied = False
        first = choice.options[0] if choice.options else None
        # a first move over cards with a table: its rows make the list (_tabled), else an empty one
        self._fresh_out = first is not None and len(first.params) == 1 and first.key is not None
        if not self._fresh_out:
            self._line("    out = []")
        # runs of options whose listing answers an `any` of a later option's condition (listed.py):
        # whether options I to J listed a move, in `_lsI_J` (the moves listed before I counted in `_lbI`)
        answering = sorted({run for o in choice.options for run in o.listed_from})
        for i, o in enumerate(choice.options):
            if i and any(first == i for first, _ in answering):
                self._line(f"    _lb{i} = len(out)")
            self._list_option(cid, o, move_class)
            for first, last in answering:
                if last == i:
                    self._line(f"    _ls{first}_{last} = len(out) > {f'_lb{first}' if first else 0}")
        self._line("    return out")

    def _list_option(self, cid: int, o, move_class) -> None:
        """The lines of ``_moves_fn`` that list the moves of option ``o``."""
        where = f"  # move {o.name}, {rules_line(o.span)}"
        # the condition, with the `any`s the options listed before answer read from their `_lsN`
        # (its source text only; a table of the condition calls the condition itself, o.where)
        asked = o.listed_where if o.listed_where is not None else o.where
        cond = self._cond(asked) if asked is not None else None
        if not o.params:
            made = move_class(o.name)
            self._made.append((cid, o, made))
            move = self._name("XM", made)
            if o.key is not None:
                self._tabled(o, move, where)
                return
            if cond is None:
                self._line(f"    out.append({move}){where}")
                return
            indent = "    "
            for k, part in enumerate(conjuncts(cond)):  # `if a and b` as `if a: if b:`
                self._own(indent, part)
                self._line(f"{indent}if {part}:{where if k == 0 else ''}")
                indent += "    "
            self._line(f"{indent}out.append({move})")
            return
        one = len(o.params) == 1
        made = Interned(move_class, o.name, one)
        self._made.append((cid, o, made))
        table = self._name("XT", made)
        if one and o.key is not None:
            self._tabled(o, table, where)
            return
        if one and self._constant_filter(o, made, cond, where):
            return
        if one:
            slot, dom = o.params[0]
            domain = self._iter(dom)
            put = self._loop_locals([slot], [domain] + ([cond] if cond is not None else []))
            before, test = hoist.loop_calls(put(cond), slot, self._names(), f"_c{slot}_") if cond else ([], "")
            var = put(f"L[{slot}]")
            self._own("    ", test if var != f"L[{slot}]" else None)  # the loop over L[slot] writes L
            for line in before:  # generated calls that do not read the argument: once a listing
                self._line(f"    {line}")
            # a plain loop, not a comprehension: in Python 3.11 a comprehension is a call of its own,
            # about 75 ns a listing more (half the work of listing a hand of a few cards)
            self._line(f"    for {var} in {domain}:{where}")
            if test:
                self._line(f"        if {test}:")
            self._line(f"        {'    ' if test else ''}out.append({table}[{var}])")
            return
        indent = "    "
        slots = [slot for slot, _ in o.params]
        constant = [bool(getattr(dom, "constant", False)) for _, dom in o.params]
        tests, cond = self._hoisted(o, cond, slots, constant)
        # two arguments, the inner's not constant: tests not reading it once an outer value (hoist.guarded_tests)
        inner_at, lead = (slots[1], None) if len(slots) == 2 and not constant[1] else (None, None)
        if inner_at is not None and cond is not None:
            lead, cond = hoist.guarded_tests(cond, inner_at, self._names())
        # the innermost argument over constant values: (the values kept, the rest), if some is kept
        inner = self._filtered(cond, *o.params[-1])
        inner = inner if inner is not None and inner[0] else None
        looped = o.params[:-1] if inner is not None else o.params
        domains = [self._domain(dom) for _, dom in looped]
        rest = inner[1] if inner is not None else cond
        put = self._loop_locals([slot for slot, _ in looped],
                                domains + [t for ts in tests for t in ts] + ([rest] if rest is not None else []))
        if any(put(f"L[{slot}]") == f"L[{slot}]" for slot, _ in looped):
            self._own(indent)  # a loop over a slot of L: a copy of L first
        if once := inner_at is not None and hoist.quiet(domains[1], slots[0], self._names()):
            self._own(indent, put(domains[1]))  # a copy of L once a listing, not once an outer value
            self._line(f"{indent}_w{inner_at} = None")
        for k, ((slot, _), domain) in enumerate(zip(looped, domains)):
            values = f"_w{slot}" if k == 1 and inner_at is not None else put(domain)
            self._own(indent, values)
            self._line(f"{indent}for {put(f'L[{slot}]')} in {values}:{where if k == 0 else ''}")
            indent += "    "
            if tests[k]:  # the parts of the condition that read no inner argument (hoist.py)
                self._own(indent, put(" and ".join(tests[k])))
                self._line(f"{indent}if {put(' and '.join(tests[k]))}:")
                indent += "    "
            if k == 0 and inner_at is not None:  # the inner values as a list (once a listing if they never read the outer)
                self._own(indent, put(domains[1]))
                self._line(f"{indent}{f'if _w{inner_at} is None: ' if once else ''}_w{inner_at} = [*{put(domains[1])}]")
                for text in (f"_w{inner_at}", put(lead)) if lead is not None else ():
                    self._own(indent, text)
                    self._line(f"{indent}if {text}:")
                    indent += "    "
        if inner is not None:
            # the innermost argument's values filtered when compiling; the rest asked once per outer value
            values = inner[0]
            for part in conjuncts(rest) if rest is not None else ():
                self._own(indent, put(part))
                self._line(f"{indent}if {put(part)}:")
                indent += "    "
            outer = "".join(f"{put(f'L[{slot}]')}, " for slot, _ in o.params[:-1])
            self._line(f"{indent}for _v in {self._name('Xd', values)}:")
            self._line(f"{indent}    out.append({table}[({outer}_v)])")
            return
        key = "(" + ", ".join(put(f"L[{slot}]") for slot, _ in o.params) + ",)"
        if cond is not None:
            self._own(indent, put(cond))
            self._line(f"{indent}if {put(cond)}:")
            indent += "    "
        self._line(f"{indent}out.append({table}[{key}])")

    def _loop_locals(self, slots: list, texts: list):
        """srctext.loop_locals, with this program's names."""
        ns = dict(getattr(self.program, "namespace", None) or {})
        ns.update(self.ns)
        return loop_locals(slots, texts, ns)

    def _filtered(self, cond, slot: int, dom):
        """hoist.constant_filter of ``cond`` over the constant values of an argument (slot, domain):
        (the values that pass the leading tests of the argument alone, the rest), or None."""
        if cond is None or not getattr(dom, "constant", False):
            return None
        try:
            values = tuple(dom(None, None))
        except TypeError:
            return None
        return hoist.constant_filter(cond, slot, values, self._names())

    def _constant_filter(self, o, made, cond, where: str) -> bool:
        """A move of one argument over constant values whose condition reads the argument only in
        leading comparisons with constants (hoist.constant_filter): the moves of the values that pass
        them, made once, listed where the rest of the condition holds. False if it does not apply."""
        found = self._filtered(cond, *o.params[0])
        if found is None:
            return False
        kept, rest = found
        if not kept:
            self._line(f"    pass{where}: no value passes")
            return True
        moves = self._name("XL", tuple(made[v] for v in kept))  # entered in `fast` by Flow.__init__
        if rest is None:
            self._line(f"    out += {moves}{where}")
            return True
        indent = "    "
        for k, part in enumerate(conjuncts(rest)):  # `if a and b` as `if a: if b:` (L copied only if needed)
            self._own(indent, part)
            self._line(f"{indent}if {part}:{where if k == 0 else ''}")
            indent += "    "
        self._line(f"{indent}out += {moves}")
        return True

    def _domain(self, dom) -> str:
        """A listing loop's domain: the list itself, not a copy (what the loop runs, a move's condition,
        changes no zone), or for a constant domain its values, made once."""
        if getattr(dom, "constant", False):
            try:
                return self._name("Xd", tuple(dom(None, None)))
            except TypeError:
                pass
        return f"({self._expr(dom)})"

    def _hoisted(self, o, cond, slots: list, constant: list) -> tuple:
        """(per argument, the tests right inside its loop; the condition left), hoist.split."""
        if cond is None:
            return [[] for _ in slots], None
        ns = getattr(self.program, "namespace", None) or {}
        count = self.program.card_count
        cards = frozenset(slot for (slot, _), kind in zip(o.params, o.kinds) if kind == T.CARD)

        def column(name) -> bool:
            value = ns.get(name)
            return isinstance(value, (list, tuple)) and len(value) == count

        return hoist.split(cond, slots, cards, constant, column)

    def _own(self, indent: str, text: str | None = None, keep: bool = True) -> None:
        """Before code that may write to L (``text``, or any code when None) in a moves function: take a
        copy of L unless one was taken already. ``keep``: the copy is taken on every path from here on
        (not inside a branch), so later code needs none."""
        if self._copied or (text is not None and not writes_locals(text)):
            return
        self._line(f"{indent}L = L.copy()")
        if keep and indent == "    ":
            self._copied = True

    def _iter(self, fn) -> str:
        """``fn`` where a comprehension iterates over it (no ``:=`` may stand there)."""
        text = self._expr(fn)
        if ":=" in text:
            return f"{self._name('Xi', fn)}(s, L)"
        return text

    def _tabled(self, o, table: str, where: str) -> None:
        """A move whose condition is a pure function of one card and a few variables (purity.py):
        its value per card is kept in a table per combination of those variables' values."""
        slot = o.params[0][0] if o.params else o.card_slot
        made = CardTable(o.where, slot, self.program.card_count)
        tab = self._name("Xtab", made)
        rows = self._name("Xrows", made.rows)  # the table's rows, one dict for its life (cleared, never replaced)
        self._line(f"    _key = {o.key}{where}")
        if o.params:  # a row holds each card's move, False, or None where working it out failed
            dom = self._iter(o.params[0][1])
            self._line(f"    _row = {rows}.get(_key)")
            self._line("    if _row is None:")
            self._own("        ", keep=False)
            self._line(f"        _row = {tab}.move_row(_key, s, L, {table})")
            out = "out =" if self._fresh_out else "out +="
            self._fresh_out = False
            self._line("    if _row.__class__ is list:")
            # the row's moves of the cards, falsy ones left out: a plain loop (Python 3.11 specialises its
            # list indexing; faster than map(_row.__getitem__) and filter, whose slot wrapper is slow)
            if out == "out =":
                self._line("        out = []")
            parts = getattr(o.params[0][1], "parts", None)  # a + b: through a, then b, not joined first
            if parts is None or any(":=" in part for part in parts):
                parts = (dom,)
            for part in parts:
                self._line(f"        for _mc in {part}:")
                self._line("            if _row[_mc]:")
                self._line("                out.append(_row[_mc])")
            self._line("    else:")
            self._own("        ", keep=False)
            self._line(f"        {out} [{table}[c] for c in {dom} if (_row[c] if _row[c] is not None "
                       f"else {tab}.fill(_row, s, L, c))]")
            return
        self._line(f"    _row = {rows}.get(_key)")
        self._line("    if _row is None:")
        self._line(f"        _row = {tab}.row(_key)")
        self._line(f"    _c = L[{slot}]")
        self._line("    if _c is not None and _row[_c] is not None:")
        self._line("        _ok = _row[_c]")
        self._line("    else:")
        self._own("        ", keep=False)
        self._line(f"        _ok = {tab}.fill(_row, s, L, _c)")
        self._line("    if _ok:")
        self._line(f"        out.append({table})")

    def spanrules_line(self, lineno: int):
        """The span of the rule a generated line (1-based) was written for, or None."""
        i = lineno - 1
        if 0 <= i < len(self.line_span):
            return self.line_span[i]
        return None

    def failing_span(self, tb):
        """The span of the rule of the innermost generated line in a traceback, or None."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                found = self.spanrules_line(tb.tb_lineno) or found
            tb = tb.tb_next
        return found


_CONTINUED = ("else:", "elif ", "except", "finally:")  # lines that go on the statement above them
_ALIASED_REF = re.compile(r"(?<![\w.])s\.(" + "|".join(ALIASED) + r")\b")
def _describe(value) -> str:
    """A closure of the compiler in words: its kind and where it was made."""
    if isinstance(value, CardTable):
        return f"a table of a card condition ({len(value.rows)} rows so far)"
    if isinstance(value, Interned):
        return f"the moves {value.name}(...), made once each"
    code = getattr(value, "__code__", None)
    if code is None:
        return type(value).__name__
    where = code.co_filename.rsplit("/", 1)[-1]
    return f"the closure {code.co_name} of {where}:{code.co_firstlineno}"
