"""Many games from the command line: the runner behind ``simulate --jobs/--dask/--report`` and ``ruledsl compare``.

Exit codes as for every command (README.md): 0 success; 1 a rule failed
while playing or a rules file is broken; 2 a bad option or file, a Dask
scheduler that cannot be reached, a report that cannot be written.
"""

from __future__ import annotations

import time

import click

from ..language.errors import ParameterError, RulesRuntimeError
from ..play.scale import coverage_of, run_games
from ..play.sim import add_up, bot_names
from .common import (
    CliError,
    _fail_at_runtime,
    _parse_sets,
    _plural,
    _stderr_is_terminal,
)

SCALE_OPTIONS = [
    click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Local processes that play the games (the results do not depend on it)."),
    click.option("--dask", "dask", metavar="ADDRESS", default=None,
                 help="Play the games on the Dask scheduler at ADDRESS (tcp://host:8786) instead."),
    click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
                 help="Write report.html (with plots) and report.json into this directory."),
]


def scale_options(fn):
    for option in reversed(SCALE_OPTIONS):
        fn = option(fn)
    return fn


def play_many(game, file, sets, games, n, seed, bots, jobs, dask, coverage, label=None):
    """Run the games with a progress bar on a terminal; return (Run, seconds). Exits 1 if a rule fails."""
    bar = None
    progress = None
    if _stderr_is_terminal():
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=Console(stderr=True), transient=True)
        task = bar.add_task(label or game.name, total=games)

        def progress(done, total):
            bar.update(task, completed=done)

        bar.start()
    started = time.perf_counter()
    try:
        run = run_games(game, file, _parse_sets(sets), n, seed, games, bots, jobs=jobs, dask=dask,
                        coverage=coverage, progress=progress)
    except RulesRuntimeError as err:
        if bar is not None:
            bar.stop()
        _fail_at_runtime(game, err, file, sets)
    except ParameterError as err:
        raise CliError(str(err)) from None
    finally:
        if bar is not None:
            bar.stop()
    return run, time.perf_counter() - started


def prepare_report(directory) -> None:
    """Make the report directory before any game is played, so a bad one fails at once."""
    from pathlib import Path

    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot make the report directory {directory}: {exc.strerror or exc}") from None


def throughput(games: int, seconds: float, jobs: int, dask) -> None:
    where = f"on Dask at {dask}" if dask else f"{jobs} processes" if jobs > 1 else "in one process"
    rate = games / seconds if seconds > 0 else float("inf")
    shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"
    click.echo(f"{_plural(games, 'game')} in {seconds:.2f} s {where}: {shown} games/s", err=True)


def stats_of(game, run, games, n, seed, bots):
    return add_up(run.records, game.program.name, games, n, seed, dict(game.program.params), bot_names(bots, n, seed),
                  game.program.cooperative)


def simulate_report(game, file, run, n, report_dir, stats) -> None:
    from ..play.report import balance, write_report

    cov = coverage_of(game, run.coverage) if run.coverage is not None else None
    rep = balance(run.records, n, cov)
    data = {"rules": file, **stats.to_dict(), "balance": rep}
    try:
        page = write_report(report_dir, f"{game.name}: {_plural(stats.games, 'game')}, {n} players, "
                            f"seed {stats.seed}", data, {"": rep})
    except ParameterError as err:
        raise CliError(str(err)) from None
    click.echo(f"report: {page}", err=True)


# ---- compare
