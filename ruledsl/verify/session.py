"""A whole ``ruledsl verify`` run within a time budget: exploration of a few deals, then random games.

:func:`run` spends ``seconds`` of CPU time: first (up to ``EXPLORE_SHARE`` of
it) it explores deals position by position (:mod:`.explore`): each player
count with a few seeds, under the ``small`` parameters first if given (each
parameter at the low end of its declared range, where the spaces are small
enough to be exhausted), then under the file's own; then it plays random games
with every check (:func:`.checks.verify`) until ``examples`` games are played
or the time is up. Time exploration does not use goes to the games. The first
finding stops the run; an exploration finding is already a shortest log,
a random game's is shortened as before.

Ctrl-C stops the run at once: the report then holds what was found so far,
and says so (``Report.interrupted``).
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

from ..engine.coverage import instrument
from ..engine.game import Game
from .checks import Report, checks_of, verify
from .explore import explore

DEFAULT_SECONDS = 45.0  # CPU seconds of a default run: with start-up and the last game, under a minute
EXPLORE_SHARE = 0.25  # of the budget, at most, for exploration (all of it with explore_only)
EXPLORE_SEEDS = 2  # deals explored per player count
DEFAULT_STATES = 200_000  # positions explored at most, over all the deals of a run


@contextmanager
def ctrl_c_noted():
    """Ctrl-C that cannot be lost. Python only prints a KeyboardInterrupt raised while the garbage
    collector runs a callback (hypothesis keeps one) or a ``__del__``, and the run would go on; so
    the handler raises as Python's own does and also notes the press, which the run looks at on
    every tick. Yields the note, a one-item list. Outside the main thread, or under a handler that
    is not Python's default, nothing is changed."""
    pressed = [False]
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield pressed
        return

    def handler(signum, frame):
        pressed[0] = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def small_params(path: str, given: dict | None = None) -> dict:
    """Each parameter the rules file declares with a range (`param N = 6 in 1..12`) at the low end
    of it, except those ``given`` (``--set``) fixes. Another parameter's range may depend on it:
    the low ends are worked out in the file's order, each with those before it."""
    from ..checker.check import check
    from ..language.assemble import assemble
    from ..language.errors import read_source

    given = dict(given or {})
    text = read_source(path).removeprefix("\ufeff")
    out: dict = {}
    model = check(assemble(text, str(path)), given or None)
    for name, info in model.params.items():
        if name in given or info.accepted is None:
            continue
        out[name] = info.accepted[0]
        model = check(assemble(text, str(path)), {**given, **out})  # a later range may read this one
    return out


def run(game: Game, players: list | None = None, examples: int | None = 25, seed: int = 0,
        seconds: float | None = DEFAULT_SECONDS, states: int | None = None, explore_only: bool = False,
        small: tuple | None = None, progress=None, shrink_seconds: float = 30.0,
        clock=time.process_time) -> Report:
    """Verify ``game`` within ``seconds`` of ``clock()`` (None: no limit; then ``examples`` bounds the
    games). ``small``: ``(game under smaller parameters, those parameters)``, explored first.
    ``explore_only``: no random games. ``progress(report)`` is called every few seconds."""
    started = clock()
    deadline = None if seconds is None else started + seconds
    played, cov = instrument(game)
    report = Report(checks_of(game), coverage=cov)
    p = game.program
    counts = list(players or range(p.min_players, p.max_players + 1))
    configs = []
    if small is not None:
        configs += [(small[0], n, seed + k, small[1]) for n in counts for k in range(EXPLORE_SEEDS)]
    configs += [(played, n, seed + k, {}) for n in counts for k in range(EXPLORE_SEEDS)]
    if seconds is None:
        explore_end = None
    else:
        explore_end = started + (seconds if explore_only else seconds * EXPLORE_SHARE)
    budget = states or DEFAULT_STATES
    shown = {"at": time.monotonic()}

    def tick(_space=None):
        if pressed[0]:
            raise KeyboardInterrupt  # pressed while Python dropped the first one (ctrl_c_noted)
        if progress is not None and time.monotonic() - shown["at"] >= 1.0:
            shown["at"] = time.monotonic()
            progress(report)

    def games_progress(r):  # called by the random games after each game and every few seconds in one
        if pressed[0]:
            raise KeyboardInterrupt
        if progress is not None:
            progress(r)

    with ctrl_c_noted() as pressed:
        try:
            for i, (g, n, s, params) in enumerate(configs):
                left = len(configs) - i
                end = None if explore_end is None else clock() + (explore_end - clock()) / left
                report.phase = f"exploring {n} players, seed {s}" + (" (small)" if params else "")
                space, failure = explore(g, n, s, max_states=max(1, budget // left), deadline=end, clock=clock,
                                         on_state=tick)
                space.params = dict(params)
                report.spaces.append(space)
                budget -= space.states
                if failure is not None:
                    if params:  # found under the small parameters: the log must say so
                        failure.params = dict(params)
                    report.failure = failure
                    return report
                if explore_end is not None and clock() > explore_end:
                    break
            if explore_only:
                return report
            report.phase = "random games"
            verify(game, counts, examples, seed, games_progress, shrink_seconds, deadline=deadline, clock=clock,
                   report=report, instrumented=(played, cov))
        except KeyboardInterrupt:
            report.interrupted = True
        return report
