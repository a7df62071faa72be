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
from ..play.sim import add_up, bot_names, statistic_kinds
from .common import (
    CliError,
    _fail_at_runtime,
    _parse_sets,
    _plural,
)
from .progress import Progress, quiet_option

SCALE_OPTIONS = [
    click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Local processes that play the games (the results do not depend on it)."),
    click.option("--dask", "dask", metavar="ADDRESS", default=None,
                 help="Play the games on the Dask scheduler at ADDRESS (tcp://host:8786) instead."),
    click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
                 help="Write report.html (with plots) and report.json into this directory."),
    quiet_option,
]


def scale_options(fn):
    for option in reversed(SCALE_OPTIONS):
        fn = option(fn)
    return fn


def play_many(game, file, sets, games, n, seed, bots, jobs, dask, coverage, label=None, quiet=False):
    """Run the games with their progress on stderr (a bar on a terminal, a line every few seconds off
    one, nothing when ``quiet``); return (Run, seconds). Exits 1 if a rule fails."""
    started = time.perf_counter()
    with Progress(label or game.name, games, quiet=quiet) as progress:
        try:
            run = run_games(game, file, _parse_sets(sets), n, seed, games, bots, jobs=jobs, dask=dask,
                            coverage=coverage, progress=progress)
        except RulesRuntimeError as err:
            progress.__exit__(None, None, None)
            _fail_at_runtime(game, err, file, sets)
        except ParameterError as err:
            raise CliError(str(err)) from None
    return run, time.perf_counter() - started


def prepare_report(directory) -> None:
    """Make the report directory before any game is played, so a bad one (or missing plots) fails at once."""
    from pathlib import Path

    from ..play.report import require

    try:
        require(plots=True)
    except ParameterError as err:
        raise CliError(str(err)) from None
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot make the report directory {directory}: {exc.strerror or exc}") from None


def throughput(games: int, seconds: float, jobs: int, dask) -> None:
    where = f"on Dask at {dask}" if dask else f"on {jobs} processes" if jobs > 1 else "in one process"
    rate = games / seconds if seconds > 0 else float("inf")
    shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"
    click.echo(f"{_plural(games, 'game')} in {seconds:.2f} s {where}: {shown} games/s", err=True)


def stats_of(game, run, games, n, seed, bots):
    return add_up(run.records, game.program.name, games, n, seed, dict(game.program.params), bot_names(bots, n, seed),
                  game.program.cooperative, statistic_kinds(game.program))


def design_of(game, file, sets, run, n, seed, skill_bot, skill_games, jobs, dask) -> dict:
    """The design metrics of a run, and skill against luck from ``skill_games`` more games (0: none)."""
    from ..play.insight import design, skill_runs

    out = {"design": design(run.records, n)}
    if skill_games:
        from ..play.bots import parse_bot

        try:
            parse_bot(skill_bot)
            out["skill"] = skill_runs(game, file, _parse_sets(sets), n, seed, skill_games, skill_bot, jobs, dask)
        except RulesRuntimeError as err:
            _fail_at_runtime(game, err, file, sets)
        except ParameterError as err:
            raise CliError(str(err)) from None
    return out


def print_design(design: dict) -> None:
    """The design metrics as lines of text (name, value, 95% interval)."""
    from ..play.insight import rows

    for name, value in rows(design):
        click.echo(f"{name}: {value}")


def simulate_report(game, file, run, n, report_dir, stats, design=None) -> None:
    from ..play.report import balance, write_report

    cov = coverage_of(game, run.coverage) if run.coverage is not None else None
    rep = balance(run.records, n, cov)
    if design and design.get("skill"):
        rep["skill"] = design["skill"]
    data = {"rules": file, **stats.to_dict(), "balance": rep}
    try:
        page = write_report(report_dir, f"{game.name}: {_plural(stats.games, 'game')}, {n} players, "
                            f"seed {stats.seed}", data, {"": rep})
    except ParameterError as err:
        raise CliError(str(err)) from None
    click.echo(f"report: {page}", err=True)


# ---- compare
