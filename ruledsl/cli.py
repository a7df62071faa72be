"""The ``ruledsl`` command: check rules files, run games between bots, simulate many.

Exit codes, the same for every command (README.md has the table):
0 success; 1 the rules are at fault (a broken rules file, a rule that failed
while playing, a check that verify or replay found broken, a log that does not
fit its rules); 2 the command line is at fault (bad option or value, a named
file that is missing or unreadable or not a game log, an unknown or bad
parameter, a player count or seat out of range, an output file that cannot be
written); 3 an internal error of ruledsl; 141 the reader of the output went
away (``| head``), quietly, as Unix tools do. Errors are printed on stderr,
never as a traceback; set RULEDSL_DEBUG=1 to see the traceback of an internal
error.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from . import __version__, load
from . import ast as A
from .bots import BOTS, parse_bot
from .errors import (
    ParameterError,
    RuledslError,
    RulesError,
    RulesRuntimeError,
    read_source,
    runtime_diagnostic,
)
from .cli_test import test_command
from .parse import parse
from .scenario import SUFFIX as SCENARIO_SUFFIX
from .scenario import load_scenarios
from .scenario_syntax import parse_scenarios
from .sim import PlayoutFailed, play_game, simulate

LOG_FORMAT = "ruledsl-log"
LOG_VERSION = 1

EXIT_RULES = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
VERIFY_PROGRESS_SECONDS = 10.0  # how often verify prints a progress line when stderr is not a terminal
EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool stopped by a closed pipe


class CliError(click.ClickException):
    """A one-line reason on stderr and an exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class _Group(click.Group):
    """Turns any error that escaped a command into a message instead of a traceback."""

    def main(self, *args, **kwargs):
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()  # here, so that a closed pipe is met while it can still be handled
        except BrokenPipeError:
            _quiet_after_closed_pipe()

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            _quiet_after_closed_pipe()
        except RuledslError as err:
            raise CliError(str(err), EXIT_RULES) from None
        except Exception as err:  # an internal error: say so briefly
            if os.environ.get("RULEDSL_DEBUG"):
                raise
            raise CliError(f"internal error in ruledsl: {type(err).__name__}: {err} "
                           "(set RULEDSL_DEBUG=1 to see the traceback)", EXIT_INTERNAL) from None


def _quiet_after_closed_pipe() -> None:
    """The reader of stdout went away (``ruledsl simulate ... | head -1``): stop without a word."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
    except (OSError, ValueError, AttributeError):
        pass
    sys.exit(EXIT_PIPE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ruledsl")
def main() -> None:
    """Check, run and simulate card games written as .rules files."""


# ---- shared helpers


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _print_diagnostics(diagnostics) -> None:
    for d in diagnostics:
        click.echo(d.render(), err=True)


def _parse_sets(sets: tuple[str, ...]) -> dict[str, str]:
    """``NAME=VALUE`` pairs to a dict of strings; the loader converts them to the parameter's type."""
    params: dict[str, str] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name.isidentifier() or not value:
            raise CliError(f"--set takes NAME=VALUE (for example --set hand_size=12), not {item!r}")
        if name in params:
            raise CliError(f"--set {name} is given twice ({name}={params[name]} and {name}={value}); give it once")
        params[name] = value
    return params


def _unreadable(file: str) -> str | None:
    """Why the rules file named on the command line cannot be read, or None when it is a file."""
    path = Path(file)
    if path.is_file():
        return None
    return f"{file} is a directory, not a rules file" if path.is_dir() else f"{file} does not exist"


def _load_game(file: str, sets: tuple[str, ...]):
    reason = _unreadable(file)
    if reason:
        raise CliError(reason)
    params = _parse_sets(sets)
    try:
        return load(file, params=params)
    except RulesError as err:
        if all(d.code == "E001" for d in err.diagnostics):  # the file vanished or may not be read
            raise CliError("; ".join(d.message for d in err.diagnostics)) from None
        _print_diagnostics(err.diagnostics)
        click.echo(_plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(EXIT_RULES) from None
    except ParameterError as err:
        raise CliError(str(err)) from None


def _check_players(game, players: int | None) -> int:
    try:
        return game.player_count(players)
    except ParameterError as err:
        raise CliError(f"{err} (use --players)") from None


def _bots_option(bots: tuple[str, ...], n: int):
    if not bots:
        return "random"
    if len(bots) == 1:
        return bots[0]
    if len(bots) != n:
        raise CliError(f"--bot given {len(bots)} times for {n} players; give it once, or once per player")
    return list(bots)


def _fail_at_runtime(game, err: RulesRuntimeError, file: str, sets: tuple[str, ...]) -> None:
    """Print a rule that failed during play, where it is and how to play the game again; exit 1."""
    click.echo(runtime_diagnostic(err, game.program.source).render(), err=True)
    if isinstance(err, PlayoutFailed):
        which = f"game {err.index} of the simulation" if err.index is not None else "the game"
        again = " ".join([f"ruledsl run {file} --players {err.players} --seed {err.seed}"]
                         + [f"--set {s}" for s in sets])
        click.echo(f"in {which} (seed {err.seed}) after {_plural(len(err.moves), 'move')}; "
                   f"play it again with: {again}", err=True)
    raise click.exceptions.Exit(EXIT_RULES)


def _check_bots(ctx, param, value):
    """Refuse a bad --bot (unknown bot or setting, bad value) as a usage error, before any game runs."""
    specs = (value,) if isinstance(value, str) else value
    for spec in specs:
        try:
            parse_bot(spec)
        except ParameterError as err:
            raise CliError(f"--bot {spec}: {err}") from None
    return value


_COMMON_OPTIONS = [
    click.option("--players", "-p", type=int, default=None,
                 help="Number of players [default: the fewest the game allows]."),
    click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator."),
    click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                 help="Set a parameter of the rules file (repeatable), e.g. --set hand_size=12."),
    click.option("--bot", "bots", multiple=True, metavar="BOT[:KEY=VALUE,...]", callback=_check_bots,
                 help=f"Bot for every seat, or repeated once per seat [default: random]; bots: "
                      f"{', '.join(sorted(BOTS))}. Settings after a colon, e.g. ismcts:iterations=300 "
                      "(see docs/bots.md)."),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table."),
]


def _common(fn):
    for option in reversed(_COMMON_OPTIONS):
        fn = option(fn)
    return fn


# ---- check


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--syntax-only", is_flag=True, help="Only parse; skip the checks of names, types and flow.")
def check(files: tuple[str, ...], syntax_only: bool) -> None:
    """Check rules files; print every error found, with its position."""
    errors = 0
    broken = 0
    unreadable = False
    for file in files:
        try:
            if syntax_only:
                text = read_source(file)
                if file.endswith(SCENARIO_SUFFIX):
                    parse_scenarios(text, file)
                    click.echo(f"ok: {file} (scenarios, syntax only)")
                    continue
                tree = parse(text, file)
                names = [item.name for item in tree.items if isinstance(item, A.GameName)]
                label = f"{names[0]}, syntax only" if names else "syntax only"
            elif file.endswith(SCENARIO_SUFFIX):
                scenarios = load_scenarios(file)
                scenarios.check()
                label = f"{_plural(len(scenarios.scenarios), 'scenario')} for {scenarios.rules_path}"
            else:
                label = load(file).name
        except RulesError as err:
            _print_diagnostics(err.diagnostics)
            errors += len(err.diagnostics)
            broken += 1
            unreadable = unreadable or any(d.code == "E001" for d in err.diagnostics)
            continue
        except RuledslError as err:
            click.echo(f"{file}: error: {err}", err=True)
            errors += 1
            broken += 1
            continue
        click.echo(f"ok: {file} ({label})")
    if errors:
        summary = _plural(errors, "error")
        if len(files) > 1:
            summary += f" in {broken} of {len(files)} files"
        click.echo(summary, err=True)
        raise click.exceptions.Exit(EXIT_USAGE if unreadable else EXIT_RULES)


# ---- run


@main.command()
@click.argument("file")
@_common
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game log (JSON) to this file, for replaying the game later.")
def run(file, players, seed, sets, bots, as_json, log_path) -> None:
    """Play one game of FILE between bots and print the scores and the winners."""
    game = _load_game(file, sets)
    n = _check_players(game, players)
    try:
        result = play_game(game, n, seed, _bots_option(bots, n))
    except RulesRuntimeError as err:
        _fail_at_runtime(game, err, file, sets)
    data = {"rules": file, **result.to_dict()}
    if log_path:
        _write_log(log_path, file, result, game)
    if as_json:
        click.echo(json.dumps(data))
        return
    if _stdout_is_terminal():
        _run_table(result)
    else:
        _run_plain(result)


def _write_log(log_path: str, file: str, result, game) -> None:
    from .cardsets import fold

    log = {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "rules": file,
        "game": result.game,
        "params": result.params,
        "players": result.players,
        "seed": result.seed,
        "bots": result.bots,
        "moves": fold(game, result.players, result.seed, result.moves),  # a set of cards: one record
        "scores": result.scores,
        "winners": result.winners,
        "finding": result.finding,
    }
    try:
        Path(log_path).write_text(_log_text(log), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write the log {log_path}: {exc.strerror or exc}") from None


def _log_text(log: dict) -> str:
    """The log as JSON, one field per line and one move per line, so that logs diff well."""
    fields = []
    for key, value in log.items():
        if key == "moves" and value:
            body = ",\n".join("  " + json.dumps(m) for m in value)
            fields.append(f' {json.dumps(key)}: [\n{body}\n ]')
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def _winner_words(winners: list[int]) -> str:
    if not winners:
        return "none"
    return ", ".join(f"player {w}" for w in winners) + (" (tied)" if len(winners) > 1 else "")


def _run_plain(result) -> None:
    click.echo(f"{result.game}: {result.players} players, seed {result.seed}, "
               f"{_plural(result.length, 'move')}")
    width = max(len(str(s)) for s in result.scores) if result.scores else 1
    for i, score in enumerate(result.scores):
        mark = "  winner" if i in result.winners else ""
        click.echo(f"  player {i} ({result.bots[i]}): {score:>{width}}{mark}")
    if result.finding:
        click.echo(f"stopped: {result.finding}")
    click.echo(f"winner{'s' if len(result.winners) > 1 else ''}: {_winner_words(result.winners)}")


def _run_table(result) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"{result.game}: {result.players} players, seed {result.seed}, "
                        f"{_plural(result.length, 'move')}")
    table.add_column("Player", justify="right")
    table.add_column("Bot")
    table.add_column("Score", justify="right")
    table.add_column("")
    for i, score in enumerate(result.scores):
        won = i in result.winners
        table.add_row(str(i), result.bots[i], str(score), "[bold green]winner[/]" if won else "",
                      style="bold" if won else None)
    console.print(table)
    if result.finding:
        console.print(f"[yellow]stopped:[/] {result.finding}", highlight=False)
    console.print(f"winner{'s' if len(result.winners) > 1 else ''}: {_winner_words(result.winners)}",
                  highlight=False)


# ---- simulate


@main.command("simulate")
@click.argument("file")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games to play.")
@_common
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes that play the games (the results do not depend on it).")
@click.option("--dask", "dask", metavar="ADDRESS", default=None,
              help="Play the games on the Dask scheduler at ADDRESS (tcp://host:8786) instead.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Also write report.html (with plots) and report.json into this directory.")
def simulate_command(file, games, players, seed, sets, bots, as_json, jobs, dask, report_dir) -> None:
    """Play many games of FILE between bots and print win rates, scores and lengths."""
    game = _load_game(file, sets)
    n = _check_players(game, players)
    bot_choice = _bots_option(bots, n)
    if jobs > 1 or dask or report_dir:
        from .cli_scale import play_many, prepare_report, simulate_report, stats_of, throughput

        if report_dir:
            prepare_report(report_dir)
        run, seconds = play_many(game, file, sets, games, n, seed, bot_choice, jobs, dask, report_dir is not None)
        stats = stats_of(game, run, games, n, seed, bot_choice)
        throughput(games, seconds, jobs, dask)
        if report_dir:
            simulate_report(game, file, run, n, report_dir, stats)
    else:
        try:
            started = time.perf_counter()
            if _stderr_is_terminal():
                stats = _simulate_with_bar(game, games, n, seed, bot_choice)
                from .cli_scale import throughput

                throughput(games, time.perf_counter() - started, 1, None)
            else:
                stats = simulate(game, games, n, seed, bot_choice)
        except RulesRuntimeError as err:
            _fail_at_runtime(game, err, file, sets)
    if as_json:
        click.echo(json.dumps({"rules": file, **stats.to_dict()}))
    elif _stdout_is_terminal():
        _stats_table(stats)
    else:
        _stats_plain(stats)


def _simulate_with_bar(game, games, n, seed, bots):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"{game.name}", total=games)
        return simulate(game, games, n, seed, bots, progress=lambda done, total: bar.update(task, completed=done))


def _stats_summary(stats) -> list[str]:
    return [
        f"mean game length: {stats.mean_moves:.1f} moves (longest {stats.max_moves})",
        f"stopped at the move bound: {stats.stopped} of {stats.games}",
        f"games with a shared win: {stats.shared} (a shared win counts for each tied player)",
    ]


def _stats_plain(stats) -> None:
    click.echo(f"{stats.game}: {_plural(stats.games, 'game')}, {stats.players} players, seed {stats.seed}")
    for i in range(stats.players):
        click.echo(f"  player {i} ({stats.bots[i]}): wins {stats.wins[i]}, win rate {stats.win_rate[i]:.3f}, "
                   f"mean score {stats.mean_scores[i]:.2f}")
    for line in _stats_summary(stats):
        click.echo(line)


def _stats_table(stats) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"{stats.game}: {_plural(stats.games, 'game')}, {stats.players} players, seed {stats.seed}")
    table.add_column("Player", justify="right")
    table.add_column("Bot")
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("Mean score", justify="right")
    for i in range(stats.players):
        table.add_row(str(i), stats.bots[i], str(stats.wins[i]), f"{stats.win_rate[i]:.1%}",
                      f"{stats.mean_scores[i]:.2f}")
    console.print(table)
    for line in _stats_summary(stats):
        console.print(line, highlight=False)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="ruledsl")


# ---- verify and replay


@main.command("verify")
@click.argument("file")
@click.option("--players", "-p", type=int, multiple=True,
              help="Player count to try (repeatable) [default: every count the game allows].")
@click.option("--examples", "-k", type=click.IntRange(min=1), default=25, show_default=True,
              help="Games to play with checks after every step.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of hypothesis's search.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Where to write the replay file of a failure [default: FILE's name + .failure.json].")
@click.option("--shrink-seconds", type=click.FloatRange(min=0), default=30.0, show_default=True,
              help="Time allowed for shortening a failing game.")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="List every move, trigger, condition and rule line with how often the games reached it.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Split the games into this many independent searches run by as many processes "
                   "(docs/scale.md).")
def verify_command(file, players, examples, seed, sets, out_path, shrink_seconds, show_coverage, jobs) -> None:
    """Check FILE's rules with property-based testing: the engine's invariants and the file's own."""
    from .verify import checks_of, verify

    game = _load_game(file, sets)
    counts = [_check_players(game, n) for n in players] or None
    click.echo(f"verifying {game.name} ({file}): {_plural(examples, 'game')}, checks after every step:")
    for name, what in checks_of(game):
        click.echo(f"  - {name}: {what}")
    progress = None
    bar = None
    if _stderr_is_terminal():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       transient=True)
        task = bar.add_task("verify", total=examples)

        def progress(report):
            bar.update(task, completed=report.examples)

        bar.start()
    else:
        started = time.monotonic()
        shown = {"at": started}

        def progress(report):  # off a terminal: a line now and then
            now = time.monotonic()
            if now - shown["at"] >= VERIFY_PROGRESS_SECONDS:
                shown["at"] = now
                click.echo(f"verify: {report.examples} of {_plural(examples, 'game')} done, "
                           f"{_plural(report.steps, 'move')} checked, {now - started:.0f} s", err=True)
    try:
        if jobs > 1:
            from .scale import verify_parallel

            def shards_done(done, total):
                if bar is not None:
                    bar.update(task, completed=done)

            report = verify_parallel(game, file, _parse_sets(sets), counts, examples, seed, jobs, shrink_seconds,
                                     shards_done)
        else:
            report = verify(game, counts, examples, seed, progress, shrink_seconds)
    finally:
        if bar is not None:
            bar.stop()
    if show_coverage:
        click.echo("coverage (file:line: what: how often the games reached it):")
        for item in report.coverage.items():
            click.echo(f"  {'  ' if item.covered else '! '}{item.describe()}")
    if report.ok:
        click.echo(f"ok: every check held in {_plural(report.examples, 'game')} ({_plural(report.steps, 'move')}, "
                   f"the longest {report.longest})")
        click.echo(f"covered: {report.coverage.summary()}")
        missed = report.coverage.missed()
        if missed and not show_coverage:
            click.echo(f"  not reached: {len(missed)} (list them with --coverage), e.g. {missed[0].describe()}")
        return
    failure = report.failure
    click.echo(f"FAILED: {failure.check}: {failure.message}")
    click.echo(f"shortest game found: {failure.players} players, seed {failure.seed}, "
               f"{_plural(len(failure.moves), 'move')}"
               + (" (shortening stopped at --shrink-seconds)" if report.shrink_stopped else "") + ":")
    _echo_moves(_describe_moves(game, failure.players, failure.seed, failure.moves))
    target = out_path or (Path(file).name.removesuffix(".rules") + ".failure.json")
    from .cardsets import fold

    log = failure.to_log(file, game.params)
    log["moves"] = fold(game, failure.players, failure.seed, failure.moves)  # a set of cards: one record
    try:
        Path(target).write_text(_log_text(log), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write the replay file {target}: {exc.strerror or exc}") from None
    click.echo(f"replay file: {target}  (run: ruledsl replay {target})")
    raise click.exceptions.Exit(EXIT_RULES)


def _echo_moves(texts: list[str], keep: int = 25) -> None:
    """Numbered moves; a long game shows its first and last moves only."""
    numbered = [f"  {i:>3}. {text}" for i, text in enumerate(texts, 1)]
    if len(numbered) > 2 * keep + 1:
        hidden = len(numbered) - 2 * keep
        numbered = numbered[:keep] + [f"  ... {hidden} moves not shown (all are in the replay file) ..."] + \
            numbered[-keep:]
    for line in numbered:
        click.echo(line)


def _describe_moves(game, players, seed, moves) -> list[str]:
    """The moves of a game in words, as far as they can be replayed; a set of cards is one move."""
    from .cardsets import describe, fold, is_record, unfold

    moves = fold(game, players, seed, unfold(moves))
    out = []
    try:
        s = game.new_game(players, seed)
        for m in moves:
            who = s.current_player
            out.append(f"player {who}: {describe(game.program, m) if is_record(m) else s.describe(m)}")
            for step in unfold([m]):
                s.apply(step)
    except RuledslError:
        pass
    out.extend(str(m) for m in moves[len(out):])
    return out


@main.command("replay")
@click.argument("log_file", metavar="LOG.json")
@click.option("--rules", "rules_path", default=None, help="The rules file to use instead of the one the log names.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list the moves.")
def replay_command(log_file, rules_path, quiet) -> None:
    """Re-run a game log (from `run --log` or a `verify` failure) with every check, to its last step."""
    from .verify import LOG_MISMATCH, replay_log

    log, rules, game, n = _game_of_log(log_file, rules_path)
    if not quiet:
        for i, text in enumerate(_describe_moves(game, n, log["seed"], log["moves"]), 1):
            click.echo(f"  {i:>3}. {text}")  # replay lists every move: it is what a log is read for
    broken, made = replay_log(game, {"players": n, "seed": log["seed"], "moves": log["moves"]})
    if broken is not None and broken.check == LOG_MISMATCH:
        raise CliError(f"{log_file} does not fit {rules}: {broken.message}", EXIT_RULES)
    if broken is not None:
        click.echo(f"FAILED after move {made}: {broken.check}: {broken.message}")
        raise click.exceptions.Exit(EXIT_RULES)
    recorded = log.get("failure")
    if recorded:
        click.echo(f"the recorded failure ({recorded.get('check')}) did not happen: every check held "
                   f"through {_plural(made, 'move')}")
        raise click.exceptions.Exit(EXIT_RULES)
    state = game.replay(n, log["seed"], log["moves"])
    status = "game over" if state.is_over else f"player {state.current_player} to decide `{state.decision}`"
    click.echo(f"ok: {_plural(made, 'move')} replayed, every check held; {status}")
    if state.is_over:
        click.echo(f"scores: {state.scores}; winners: {_winner_words(state.winners)}")


def _game_of_log(log_file: str, rules_path: str | None):
    """Read a game log and load the rules it names: (log, rules file, game, player count).

    A log that cannot be read or is not a log is a usage error (2); rules that are broken, or
    that the log's parameters or player count do not fit, are the rules' fault (1)."""
    try:
        data = Path(log_file).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {log_file}: {exc.strerror or exc}") from None
    try:
        raw = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise CliError(f"{log_file} is not a game log: it is not UTF-8 text "
                       f"(byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    log = _read_log(raw, log_file)
    rules = rules_path or _find_rules(log["rules"], log_file)
    reason = _unreadable(rules)
    if reason:
        raise CliError(f"{reason} (the rules of {log_file}; use --rules)")
    params = log.get("params") or {}
    try:
        game = load(rules, params=params)
    except RulesError as err:
        _print_diagnostics(err.diagnostics)
        click.echo(_plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(EXIT_RULES) from None
    except ParameterError as err:
        raise CliError(f"the log's parameters do not fit {rules}: {err}", EXIT_RULES) from None
    try:
        n = game.player_count(log["players"])
    except ParameterError as err:
        raise CliError(f"the log's player count does not fit {rules}: {err}", EXIT_RULES) from None
    return log, rules, game, n


def _read_log(raw: str, name: str) -> dict:
    from .cardsets import is_record, unfold

    try:
        log = json.loads(raw)
    except ValueError as exc:
        raise CliError(f"{name} is not a game log: not JSON ({exc})") from None
    if not isinstance(log, dict) or log.get("format") != LOG_FORMAT:
        raise CliError(f"{name} is not a game log: its 'format' is not {LOG_FORMAT!r}")
    if log.get("version") != LOG_VERSION:
        raise CliError(f"{name} is a version {log.get('version')!r} log; this ruledsl reads version {LOG_VERSION}")
    checks = {
        "rules": (lambda v: isinstance(v, str) and v, "the path of the rules file"),
        "players": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a player count"),
        "seed": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
        "moves": (lambda v: isinstance(v, list) and all(is_record(m) or (
            isinstance(m, list) and m and isinstance(m[0], str)
            and all(isinstance(a, int) and not isinstance(a, bool) for a in m[1:])) for m in v),
            "a list of moves like [\"play\", 17] or sets of cards like [\"attack\", [3, 17]]"),
        "params": (lambda v: v is None or isinstance(v, dict), "an object of parameters"),
    }
    for key, (ok, what) in checks.items():
        if not ok(log.get(key)):
            raise CliError(f"{name} is not a valid game log: '{key}' should be {what}")
    log["moves"] = unfold(log["moves"])  # the engine's steps: a set record stands for its steps
    return log


def _find_rules(path: str, log_file: str) -> str:
    for candidate in (Path(path), Path(log_file).parent / path):
        if candidate.is_file():
            return str(candidate)
    raise CliError(f"the log names the rules file {path}, which is not there (use --rules)")


# ---- play: a human seat at the terminal


@main.command("play")
@click.argument("file")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players [default: the fewest the game allows].")
@click.option("--seat", "seats", type=int, multiple=True,
              help="A seat you play (repeatable) [default: seat 0]; bots play the others.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
@click.option("--bot", "bot_name", default="random", show_default=True, metavar="BOT[:KEY=VALUE,...]",
              callback=_check_bots, help="The bot in the other seats (see docs/bots.md).")
def play_command(file, players, seats, seed, sets, bot_name) -> None:
    """Play FILE at the terminal: you choose the moves of your seats, bots the others'."""
    from .bots import decide, make_bot
    from .cardsets import building
    from .observe import move_seen

    game = _load_game(file, sets)
    n = _check_players(game, players)
    humans = set(seats or (0,))
    for seat in humans:
        if not 0 <= seat < n:
            raise CliError(f"--seat {seat}: the seats are 0 to {n - 1}")
    bots = {p: make_bot(bot_name, seed=seed * 31 + p) for p in range(n) if p not in humans}
    opener, picked = "", []  # a bot's set of cards being built, shown once done
    try:
        state = game.new_game(n, seed)
        while not state.is_over:
            player = state.current_player
            legal = state.legal_moves()
            if player in bots:
                bot = bots[player]
                move = decide(bot, state, player, legal)
                before = state.clone()
                state.apply(move)
                # shown as the human seats may see it: a card none of them can see is a '?'
                seen = move_seen(before, state, move, humans)
                if building(before) and before.actor == player:  # a step of a set: the set is one move
                    if move.name == "add":
                        picked.append(seen[len("add("):-1])
                    if move.name != "done":
                        continue
                    seen = opener + "{" + ", ".join(picked) + "}"
                elif building(state) and state.actor == player and state.decision == move.name:
                    opener, picked = seen, []  # the set's cards are shown when it is done
                    continue
                click.echo(f"player {player} ({bot.label}): {seen}")
                continue
            move = _ask_move(state, player, legal)
            if move is None:
                click.echo("game left unfinished")
                return
            state.apply(move)
    except RulesRuntimeError as err:
        _fail_at_runtime(game, err, file, sets)
    click.echo("game over" + (f": {state.finding}" if state.finding else ""))
    for p, score in enumerate(state.scores):
        mark = "  winner" if p in state.winners else ""
        click.echo(f"  player {p}{' (you)' if p in humans else ''}: {score}{mark}")


def _show_view(view: dict) -> None:
    click.echo(f"--- player {view['player']}, deciding `{view['decision']}`")
    for name, cards in view["zones"].items():
        if not cards or all(c is None for c in cards):
            continue
        if all(c == "?" for c in cards):
            click.echo(f"  {name}: {_plural(len(cards), 'hidden card')}")
        else:
            shown = " ".join("." if c is None else c for c in cards)
            click.echo(f"  {name}: {shown}")
    if view["vars"]:
        click.echo("  " + ", ".join(f"{k}={v}" for k, v in view["vars"].items()))


def _ask_move(state, player: int, legal: list):
    """Show the player's view and read a move number; None when input ends or they quit."""
    _show_view(state.view(player))
    for i, m in enumerate(legal, 1):
        click.echo(f"  {i:>2}) {state.describe(m)}")
    while True:
        try:
            answer = click.prompt(f"player {player}, your move (1-{len(legal)}, q to quit)",
                                  default="", show_default=False)
        except (click.Abort, EOFError):
            click.echo()
            return None
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        click.echo(f"  type a number from 1 to {len(legal)}, or q")


main.add_command(test_command)
from . import cli_scale  # noqa: E402,F401  (adds `compare`)
from . import cli_compile  # noqa: E402,F401  (adds `compile`)
from . import cli_mutate  # noqa: E402,F401  (adds `mutate`)

# The designer's desk: `lsp`, `graph`, `view` (ruledsl/desk/).
from .desk.commands import COMMANDS as _DESK_COMMANDS  # noqa: E402

for _command in _DESK_COMMANDS:
    main.add_command(_command)
