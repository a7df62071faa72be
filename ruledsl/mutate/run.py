"""Running a game's scenarios against each mutant of its rules, in one process or several.

A mutant is judged as follows. Its text is compiled with the scenario file's
expectations, as ``ruledsl test`` compiles the rules (``ScenarioFile.game``),
with the parameters of the file's first scenario first:

- it does not parse, check or compile: ``invalid`` (counted apart, never as
  killed): the operator made a file no designer could run;
- otherwise the scenarios run until one fails or errors: ``killed``, by
  that scenario (they run grouped by the parameters they set, the groups in
  the order they first appear in the file, the file's order within each);
  if none does, and ``--verify`` was given, a short ``verify`` runs (its
  invariants and the engine's checks): a failure kills the mutant;
- otherwise it ``survived``: no test noticed the change.

A mutant that runs longer than the timeout is killed (``timeout``), and one
that makes ruledsl itself fail is killed and says so (``internal error``):
neither passed its scenarios.

The scenario file is read and parsed once per process (``_Worker``); each
mutant then costs one check and compile per set of parameters its scenarios
use, and one run of the suite (less when an early scenario kills it). Parses
are shared (``shared_parses``): ``ScenarioFile`` assembles the rules once per
set of parameters, and every mutant includes the same library and base
files, so within a mutate run each (text, path) is parsed once; and a
mutant's own text is not parsed whole: ``_Splicer`` parses only the
declarations it changes and reuses the original's trees for the others.
Processes come from ``concurrent.futures``; results come back as they finish
and are put back in the file's order.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import threading
from pathlib import Path
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import attrs

from ..language import ast as A
from ..language.assemble import assemble
from ..language.errors import ParameterError, RuledslError, RulesError, Span, decode_source
from ..language.parse import parse, parser
from ..scenarios.runner import ScenarioFile, load_scenarios

KILLED, SURVIVED, INVALID = "killed", "survived", "invalid"


@attrs.frozen
class Verdict:
    status: str  # killed | survived | invalid
    by: str | None = None  # the scenario that killed it, "verify: CHECK", "timeout", "internal error"
    detail: str | None = None  # why: the scenario's finding, the first error of an invalid mutant
    seconds: float = 0.0


PARSES_KEPT = 8  # (text, path) pairs whose syntax trees a process keeps: a mutant, its library, its base
_PRESET: dict = {}  # (text, path) -> the syntax tree of the mutant being judged, spliced (_Splicer)


def _pos(node) -> tuple[int, int]:
    return node.meta.start_pos, node.meta.end_pos


class _Splicer:
    """The syntax tree of a mutant, made from the original's: only the declarations it touches are parsed.

    A mutant changes one place, and keeps the number of every line (removals leave empty lines),
    so every declaration before and after the changed ones has the same tree and the same spans
    as in the original. The changed declarations are parsed alone, after as many empty lines and
    spaces as put them at their place. ``tree`` returns None where that does not hold (another
    declaration goes on after the change on the same line), and the mutant is parsed whole."""

    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.items = parse(text, path).items
        self.spans = [_pos(c) for c in parser().parse(text).children]
        self.ok = len(self.spans) == len(self.items)

    def tree(self, m):
        if not self.ok:
            return None
        touched = [i for i, (s, e) in enumerate(self.spans) if s < max(m.end, m.start + 1) and e > m.start]
        if not touched:
            return None
        first, last = touched[0], touched[-1]
        start = min(self.spans[first][0], m.start)
        end = max(self.spans[last][1], m.end)
        grown = len(m.replacement) - (m.end - m.start)
        at_line_start = end == 0 or self.text[end - 1] == "\n"
        if (last + 1 < len(self.spans) and grown and not at_line_start
                and "\n" not in self.text[end:self.spans[last + 1][0]]):
            return None  # the next declaration starts on the changed line: its columns move
        mutated = m.apply(self.text)
        segment = mutated[start:end + grown]
        line = self.text.count("\n", 0, start)
        column = start - (self.text.rfind("\n", 0, start) + 1)
        try:
            items = parse("\n" * line + " " * column + segment, self.path).items
        except RulesError:
            return None  # not valid syntax: the whole parse says where
        return mutated, A.RulesFile(self.path, mutated, self.items[:first] + tuple(items) + self.items[last + 1:],
                                    span=Span(self.path, 1, 1, 1, 1))


@contextlib.contextmanager
def shared_parses():
    """While it lasts, a rules text parsed once is not parsed again (by ``ruledsl.assemble``).

    The syntax tree is frozen data, so one tree may serve several compiles. Put back on exit,
    so the rest of a process (a test session) parses as before."""
    from ..language import assemble as assembly

    original = getattr(assembly, "parse", None)
    if original is None or getattr(original, "shared", False):  # moved away, or already shared
        yield
        return
    cached = functools.lru_cache(maxsize=PARSES_KEPT)(original)

    def parse(text, path="<rules>"):
        preset = _PRESET.get((text, path))
        return preset if preset is not None else cached(text, path)

    parse.shared = True
    assembly.parse = parse
    try:
        yield
    finally:
        assembly.parse = original


class _Timeout(BaseException):
    """Raised by the alarm in the middle of a mutant's run (a BaseException: no rule catches it)."""


def _alarm(signum, frame):
    raise _Timeout()


def _first_line(text: str) -> str:
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return " / ".join(lines[:3])


class _Worker:
    """One process's loaded scenario file, judging mutants of its rules."""

    def __init__(self, scenario_path: str, verify_examples: int | None, timeout: float | None):
        loaded = load_scenarios(scenario_path)
        self.source = loaded.source
        self.rules_path = loaded.rules_path
        self.rules_text = loaded.rules_text
        self.splicers: dict = {}  # path -> _Splicer of that file, made at its first mutant
        self.originals: dict = {}  # the files a variant extends, by their real path: read once (``_reader``)
        # A mutant is valid when it checks with the parameters of the first scenario: those are
        # compiled first anyway (the defaults, when no scenario of the file sets any).
        self.first_params = loaded.params_of(loaded.scenarios[0]) if loaded.scenarios else {}
        # The scenarios grouped by their parameters (groups in the order they first appear, the
        # file's order within each): a mutant an early group kills never compiles the later ones.
        keys: dict = {}
        for sc in loaded.scenarios:
            keys.setdefault(tuple(sorted(loaded.params_of(sc).items())), []).append(sc.name)
        self.order = [name for names in keys.values() for name in names]
        self.verify_examples = verify_examples
        self.timeout = timeout

    def judge_mutant(self, mutant) -> Verdict:
        path = mutant.path or self.rules_path
        own = path == self.rules_path
        if own:
            original = self.rules_text
        else:  # a line of the base file a variant extends: the variant is read as written
            if not self.originals:
                texts = assemble(self.rules_text, self.rules_path).texts
                self.originals = {Path(k).resolve(): v for k, v in texts.items()}
            original = self.originals[Path(path).resolve()]
        if path not in self.splicers:
            self.splicers[path] = _Splicer(original, path)
        spliced = self.splicers[path].tree(mutant)
        text, tree = spliced if spliced is not None else (mutant.apply(original), None)
        if tree is not None:
            _PRESET[(text, path)] = tree
        try:
            return self.judge(text) if own else self.judge(self.rules_text, self._reader(path, text))
        finally:
            _PRESET.clear()

    def _reader(self, path: str, mutated: str):
        """How the assembler reads the files the rules extend or include: ``path`` as mutated."""
        changed = Path(path).resolve()

        def read(found) -> str:
            real = Path(found).resolve()
            if real == changed:
                return mutated
            known = self.originals.get(real)
            return known if known is not None else decode_source(Path(found).read_bytes(), str(found))

        return read

    def judge(self, text: str, read=None) -> Verdict:
        start = time.perf_counter()
        timer = (self.timeout is not None and hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())  # where signals arrive
        if timer:
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            verdict = self._judge(text, read)
        except _Timeout:
            verdict = Verdict(KILLED, "timeout", f"ran longer than {self.timeout:g} s")
        except RecursionError:
            verdict = Verdict(KILLED, "internal error", "RecursionError")
        except Exception as err:  # noqa: BLE001 - a mutant that breaks ruledsl itself did not pass
            verdict = Verdict(KILLED, "internal error", f"{type(err).__name__}: {err}")
        finally:
            if timer:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
        return attrs.evolve(verdict, seconds=time.perf_counter() - start)

    def _judge(self, text: str, read=None) -> Verdict:
        file = ScenarioFile(self.source, self.rules_path, text, read)
        try:
            file.game(self.first_params)
        except RulesError as err:
            own = [d for d in err.diagnostics if d.file not in file.texts]
            if own:  # the rules themselves are broken
                d = own[0]
                return Verdict(INVALID, None, f"{d.span.line}:{d.span.column}: {d.message}")
            d = err.diagnostics[0]  # only an expectation of the scenario file no longer compiles
            return Verdict(KILLED, "(scenario file)", f"{d.span.line}:{d.span.column}: {d.message}")
        except ParameterError as err:
            return Verdict(INVALID, None, str(err))
        for name in self.order:
            sc = file.by_name[name]
            try:
                outcome = file.run(sc)
            except RuledslError as err:  # a rule that failed where the scenario runner does not catch it
                return Verdict(KILLED, sc.name, _first_line(f"a rule failed: {err}"))
            if not outcome.passed:
                return Verdict(KILLED, sc.name, _first_line(outcome.message()))
        if self.verify_examples:
            from ..verify import verify

            try:
                game, _ = file.game({})  # verify plays with the defaults, as `ruledsl verify FILE` does
            except (RulesError, ParameterError) as err:
                return Verdict(KILLED, "verify: compile", _first_line(str(err)))
            report = verify(game, examples=self.verify_examples, seed=0, shrink_seconds=0.0)
            if report.failure is not None:
                f = report.failure
                return Verdict(KILLED, f"verify: {f.check}", _first_line(f.message))
        return Verdict(SURVIVED)


_WORKER: _Worker | None = None


def _init(scenario_path: str, verify_examples, timeout) -> None:
    global _WORKER
    shared_parses().__enter__()  # for the life of this worker process
    _WORKER = _Worker(scenario_path, verify_examples, timeout)


def _judge_in_worker(index: int, mutant) -> tuple[int, Verdict]:
    return index, _WORKER.judge_mutant(mutant)


def baseline(scenario_path: str, verify_examples: int | None) -> tuple[str, Verdict]:
    """The unmutated rules through the same judge: they must survive (every scenario passes).

    Returns the rules text the mutants are made from, and its verdict (its ``seconds``: one run)."""
    with shared_parses():
        worker = _Worker(scenario_path, verify_examples, None)
        return worker.rules_text, worker.judge(worker.rules_text)


def run(scenario_path: str, mutants: list, jobs: int = 1, verify_examples: int | None = None,
        timeout: float | None = None, on_result=None) -> list:
    """Judge each mutant of the rules the scenario file names (made from the text ``baseline``
    returns); ``on_result(index, verdict)`` as each is done. The verdicts, in the mutants' order."""
    verdicts: list = [None] * len(mutants)
    if jobs <= 1 or len(mutants) <= 1:
        with shared_parses():
            worker = _Worker(scenario_path, verify_examples, timeout)
            for i, mutant in enumerate(mutants):
                verdicts[i] = worker.judge_mutant(mutant)
                if on_result:
                    on_result(i, verdicts[i])
        return verdicts
    jobs = min(jobs, len(mutants))
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init,
                             initargs=(scenario_path, verify_examples, timeout)) as pool:
        futures = [pool.submit(_judge_in_worker, i, m) for i, m in enumerate(mutants)]
        try:
            for future in as_completed(futures):
                i, verdict = future.result()
                verdicts[i] = verdict
                if on_result:
                    on_result(i, verdict)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return verdicts
