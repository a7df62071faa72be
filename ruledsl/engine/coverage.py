"""Rule coverage: which moves were offered and taken, which triggers fired, which branches of the
rules ran one way or the other, and which lines never ran.

Coverage costs nothing when it is off. :func:`instrument` returns a *copy* of a game whose
compiled steps count themselves (a step of the flow, a trigger's condition); the game it was
given is untouched, so ordinary play never pays for it. A tool that plays games on the copy
(``verify`` does; ``simulate`` can) also reports each decision with :meth:`Coverage.note_moves`,
and reads the result with :meth:`Coverage.items` or :meth:`Coverage.summary`.
"""

from __future__ import annotations

import attrs

from ..compiler.steps import CHOOSE, EFFECT, JUMP_IF_NOT, SET
from .game import Game


@attrs.frozen
class Item:
    """One thing the rules can do, and how often the games played did it."""

    kind: str  # 'move', 'trigger', 'branch' or 'line'
    where: str  # file:line
    what: str  # in words
    counts: tuple  # move: (offered, taken); trigger: (fired,); branch: (true, false); line: (ran,)

    @property
    def covered(self) -> bool:
        return all(self.counts)

    def describe(self) -> str:
        if self.kind == "move":
            offered, taken = self.counts
            state = "never offered" if not offered else "offered, never taken" if not taken else \
                f"offered {offered}, taken {taken} times"
        elif self.kind == "trigger":
            state = "never fired" if not self.counts[0] else f"fired {self.counts[0]} times"
        elif self.kind == "branch":
            true, false = self.counts
            state = "never true" if not true else "never false" if not false else f"true {true}, false {false} times"
        else:
            state = "never ran" if not self.counts[0] else f"ran {self.counts[0]} times"
        return f"{self.where}: {self.what}: {state}"


class Coverage:
    """Counts gathered while games are played on an instrumented copy of a game."""

    def __init__(self, program):
        self.program = program
        self.runs = [0] * len(program.code)  # times each effect step ran
        self.true = [0] * len(program.code)  # times each condition step was true
        self.false = [0] * len(program.code)
        self.fired = [0] * len(program.triggers)
        self.offered: dict = {}  # (decision index, move name) -> times listed
        self.taken: dict = {}
        self.shapes: dict = {}  # (decision index, names of the moves listed) -> times seen

    def note_moves(self, state, legal: list, move) -> None:
        """Record the moves a decision listed, and the one taken."""
        choice = state.choice
        names = frozenset(m.name for m in legal)
        self.shapes[(choice, names)] = self.shapes.get((choice, names), 0) + 1
        for name in names:
            key = (choice, name)
            self.offered[key] = self.offered.get(key, 0) + 1
        key = (choice, move.name)
        self.taken[key] = self.taken.get(key, 0) + 1

    def was_taken(self, choice: int, name: str) -> bool:
        return (choice, name) in self.taken

    def items(self) -> list[Item]:
        """Every move, trigger, condition and rule line, in file order within each kind."""
        p = self.program
        out = []
        sites = getattr(p, "call_sites", {})
        chosen_at = {step[1]: pc for pc, step in enumerate(p.code) if step[0] == CHOOSE}
        for ci, choice in enumerate(p.choices):
            called = _calls(sites.get(chosen_at.get(ci), ()))
            for o in choice.options:
                out.append(Item("move", _where(o.span),
                                f"move {o.name} (decision `{choice.name}`{_called(called, o.span.file, ', ')})",
                                (self.offered.get((ci, o.name), 0), self.taken.get((ci, o.name), 0))))
        for ti, t in enumerate(p.triggers):
            out.append(Item("trigger", _where(t.span), f"trigger {t.name}", (self.fired[ti],)))
        conditions = {}
        lines = {}
        for pc, (kind, _a, _b, span) in enumerate(p.code):
            if not span.line:
                continue
            key = (span.file, span.line, _calls(sites.get(pc, ())))  # a procedure's line once per call
            if kind == JUMP_IF_NOT:
                before = conditions.get(key, (0, 0))
                conditions[key] = (before[0] + self.true[pc], before[1] + self.false[pc])
            elif kind in (EFFECT, SET):
                lines[key] = lines.get(key, 0) + self.runs[pc]
        for (file, line, called), counts in sorted(conditions.items(), key=_line_order):
            out.append(Item("branch", f"{file}:{line}",
                            f"condition `{_source_line(p, file, line)}`{_called(called, file)}", counts))
        for (file, line, called), ran in sorted(lines.items(), key=_line_order):
            out.append(Item("line", f"{file}:{line}", f"`{_source_line(p, file, line)}`{_called(called, file)}",
                            (ran,)))
        return out

    def summary(self) -> str:
        """One line: how much of each kind was covered."""
        items = self.items()

        def part(kind, words):
            of_kind = [i for i in items if i.kind == kind]
            done = sum(1 for i in of_kind if i.covered)
            return f"{words} {done}/{len(of_kind)}"

        moves = [i for i in items if i.kind == "move"]
        offered = sum(1 for i in moves if i.counts[0])
        return ", ".join([f"moves offered {offered}/{len(moves)}", part("move", "taken"),
                          part("trigger", "triggers fired"), part("branch", "conditions both true and false"),
                          part("line", "rule lines run")])

    def missed(self) -> list[Item]:
        return [i for i in self.items() if not i.covered]


def instrument(game: Game) -> tuple[Game, Coverage]:
    """A copy of ``game`` whose steps count themselves into a new :class:`Coverage`."""
    cov = Coverage(game.program)
    programs = {n: _instrumented(q, cov) for n, q in game.programs.items()}  # one per player count
    return Game(programs.get(game.program.min_players) or _instrumented(game.program, cov), programs), cov


def _instrumented(p, cov: Coverage):
    """The program ``p`` with steps that count themselves into ``cov`` (every player count's program
    has the same steps, so their counts add up)."""
    code = []
    for pc, step in enumerate(p.code):
        kind, a, b, span = step
        if kind in (EFFECT, SET):
            a = _counted(a, cov.runs, pc)
        elif kind == JUMP_IF_NOT:
            a = _branch(a, cov.true, cov.false, pc)
        code.append([kind, a, b, span])
    triggers = [attrs.evolve(t, cond=_fires(t.cond, cov.fired, i)) for i, t in enumerate(p.triggers)]
    return attrs.evolve(p, code=code, triggers=triggers)


# Each counting step keeps the step it counts as ``__wrapped__``: a copy of the game that must not count
# (a Sight's shadow game, engine/sight.py) takes the steps back.

def _counted(fn, runs, pc):
    def step(st, L):
        runs[pc] += 1
        return fn(st, L)
    step.__wrapped__ = fn
    return step


def _branch(fn, true, false, pc):
    def step(st, L):
        if fn(st, L):
            true[pc] += 1
            return True
        false[pc] += 1
        return False
    step.__wrapped__ = fn
    return step


def _fires(fn, fired, i):
    def cond(st, L):
        if fn(st, L):
            fired[i] += 1
            return True
        return False
    cond.__wrapped__ = fn
    return cond


def _where(span) -> str:
    return f"{span.file}:{span.line}"


def _line_order(entry):
    return entry[0]


def _calls(spans) -> tuple:
    """The calls a step of a procedure was compiled under, as (file, line), outermost first."""
    return tuple((s.file, s.line) for s in spans)


def _called(calls: tuple, file: str, sep: str = "") -> str:
    """Words naming where a procedure was called from: ``called at line 77`` (the innermost call
    first, then the calls around it; the file when it is another one), after ``sep``; in brackets
    without ``sep``; '' outside procedures."""
    if not calls:
        return ""
    words = "called at " + ", from ".join(f"line {line}" if f == file else f"{f}:{line}"
                                          for f, line in reversed(calls))
    return sep + words if sep else f" ({words})"


def _source_line(program, file: str, line: int) -> str:
    text = program.source.get(file, "")
    lines = text.splitlines()
    if 0 < line <= len(lines):
        words = lines[line - 1].strip()
        return words if len(words) <= 60 else words[:57] + "..."
    return "?"
