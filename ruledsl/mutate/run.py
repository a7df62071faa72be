"""Running a game's scenarios against each mutant of its rules, in one process or several.

A mutant is judged as follows. Its text is compiled with the scenario file's
expectations, as ``ruledsl test`` compiles the rules (``ScenarioFile.game``),
with the parameters of the file's first scenario first:

- it does not parse, check or compile: ``invalid`` (counted apart, never as
  killed): the operator made a file no designer could run;
- otherwise the scenarios run until one fails or errors: ``killed``, by
  that scenario (they run grouped by the parameters they set, the groups in
  the order they first appear in the file, the file's order within each); if none does, and ``--verify`` was
  given, a short ``verify`` runs (its invariants and the engine's checks):
  a failure kills the mutant;
- otherwise it ``survived``: no test noticed the change.

A mutant that runs longer than the timeout is killed (``timeout``), and one
that makes ruledsl itself fail is killed and says so (``internal error``):
neither passed its scenarios.

The scenario file is read and parsed once per process (``_Worker``); each
mutant then costs one parse, one check and compile per set of parameters its
scenarios use, and one run of the suite (less when an early scenario kills
it). The parse is shared (``shared_parses``): ``ScenarioFile`` assembles the
rules once per set of parameters, and every mutant includes the same library
and base files, so within a mutate run each (text, path) is parsed once.
Processes come from ``concurrent.futures``; results come back as they finish
and are put back in the file's order.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import attrs

from ruledsl.errors import ParameterError, RuledslError, RulesError
from ruledsl.scenario import ScenarioFile, load_scenarios

KILLED, SURVIVED, INVALID = "killed", "survived", "invalid"


@attrs.frozen
class Verdict:
    status: str  # killed | survived | invalid
    by: str | None = None  # the scenario that killed it, "verify: CHECK", "timeout", "internal error"
    detail: str | None = None  # why: the scenario's finding, the first error of an invalid mutant
    seconds: float = 0.0


PARSES_KEPT = 8  # (text, path) pairs whose syntax trees a process keeps: a mutant, its library, its base


@contextlib.contextmanager
def shared_parses():
    """While it lasts, a rules text parsed once is not parsed again (by ``ruledsl.assemble``).

    The syntax tree is frozen data, so one tree may serve several compiles. Put back on exit,
    so the rest of a process (a test session) parses as before."""
    import ruledsl.assemble as assembly

    original = getattr(assembly, "parse", None)
    if original is None or getattr(original, "shared", False):  # moved away, or already shared
        yield
        return
    cached = functools.lru_cache(maxsize=PARSES_KEPT)(original)

    def parse(text, path="<rules>"):
        return cached(text, path)

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
    """One process's loaded scenario file, judging mutant texts."""

    def __init__(self, scenario_path: str, verify_examples: int | None, timeout: float | None):
        loaded = load_scenarios(scenario_path)
        self.source = loaded.source
        self.rules_path = loaded.rules_path
        self.rules_text = loaded.rules_text
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

    def judge(self, text: str) -> Verdict:
        start = time.perf_counter()
        timer = (self.timeout is not None and hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())  # where signals arrive
        if timer:
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            verdict = self._judge(text)
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

    def _judge(self, text: str) -> Verdict:
        file = ScenarioFile(self.source, self.rules_path, text)
        try:
            file.game(self.first_params)
        except RulesError as err:
            own = [d for d in err.diagnostics if d.file != file.path]
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
            from ruledsl.verify import verify

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


def _judge_in_worker(index: int, text: str) -> tuple[int, Verdict]:
    return index, _WORKER.judge(text)


def baseline(scenario_path: str, verify_examples: int | None) -> tuple[str, Verdict]:
    """The unmutated rules through the same judge: they must survive (every scenario passes).

    Returns the rules text the mutants are made from, and its verdict (its ``seconds``: one run)."""
    with shared_parses():
        worker = _Worker(scenario_path, verify_examples, None)
        return worker.rules_text, worker.judge(worker.rules_text)


def run(scenario_path: str, texts: list, jobs: int = 1, verify_examples: int | None = None,
        timeout: float | None = None, on_result=None) -> list:
    """Judge each mutant text; ``on_result(index, verdict)`` as each is done. Verdicts in input order."""
    verdicts: list = [None] * len(texts)
    if jobs <= 1 or len(texts) <= 1:
        with shared_parses():
            worker = _Worker(scenario_path, verify_examples, timeout)
            for i, text in enumerate(texts):
                verdicts[i] = worker.judge(text)
                if on_result:
                    on_result(i, verdicts[i])
        return verdicts
    jobs = min(jobs, len(texts))
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init,
                             initargs=(scenario_path, verify_examples, timeout)) as pool:
        futures = [pool.submit(_judge_in_worker, i, text) for i, text in enumerate(texts)]
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
