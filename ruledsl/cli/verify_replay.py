"""``ruledsl verify`` and ``ruledsl replay``: a rules file's promises checked over many games, and a game log played again."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ..engine.load import load
from ..engine.setlog import describe_moves
from ..language.errors import ParameterError, RulesError
from ..verify.session import DEFAULT_SECONDS, DEFAULT_STATES
from .common import (
    EXIT_RULES,
    LOG_FORMAT,
    LOG_VERSION,
    VERIFY_PROGRESS_SECONDS,
    CliError,
    _check_players,
    _load_game,
    _parse_sets,
    _plural,
    _print_diagnostics,
    _stderr_is_terminal,
    _unreadable,
    main,
)
from .games import _log_text, _winner_words
from .progress import quiet_option

EXIT_INTERRUPTED = 130  # 128 + SIGINT: what a shell reports for a command stopped by Ctrl-C


@main.command("verify")
@click.argument("file")
@click.option("--players", "-p", type=int, multiple=True,
              help="Player count to try (repeatable) [default: every count the game allows].")
@click.option("--examples", "-k", type=click.IntRange(min=1), default=None,
              help="Random games to play with checks after every step, at most [default: 25; "
                   "with --seconds, as many as the time allows].")
@click.option("--seconds", type=click.FloatRange(min=0), default=None,
              help=f"CPU seconds to spend between exploration and random games [default: {DEFAULT_SECONDS:.0f}].")
@click.option("--explore", "explore_only", is_flag=True,
              help="Only explore deals position by position (breadth first), with the whole time budget.")
@click.option("--states", type=click.IntRange(min=1), default=None,
              help=f"Positions to explore at most, over all deals [default: {DEFAULT_STATES:,}, or what the time allows].")
@click.option("--small", is_flag=True,
              help="Explore first with each parameter at the low end of its declared range (`in LOW..HIGH`).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of hypothesis's search.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Where to write the replay file of a failure [default: FILE's name + .failure.json].")
@click.option("--shrink-seconds", type=click.FloatRange(min=0), default=30.0, show_default=True,
              help="Time allowed for shortening a failing game.")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="List every move, trigger, condition and rule line with how often the games reached it.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Split the work into this many independent searches run by as many processes "
                   "(docs/scale.md); each spends the time budget.")
@quiet_option
def verify_command(file, players, examples, seconds, explore_only, states, small, seed, sets, out_path,
                   shrink_seconds, show_coverage, jobs, quiet) -> None:
    """Check FILE's rules: explore deals position by position, then play random games, with the
    engine's invariants and the file's own checked after every step."""
    from ..verify.checks import checks_of
    from ..verify.session import run, small_params

    game = _load_game(file, sets)
    counts = [_check_players(game, n) for n in players] or None
    if counts is None:  # every count the game allows: each must be set up with the parameters given
        for n in range(game.program.min_players, game.program.max_players + 1):
            _check_players(game, n)
    budget = DEFAULT_SECONDS if seconds is None else seconds
    if examples is None and seconds is None:
        examples = 25
    small_game = None
    if small:
        lows = small_params(file, _parse_sets(sets))
        if lows:
            small_game = (_load_game(file, tuple(sets) + tuple(f"{k}={v}" for k, v in lows.items())), lows)
    games_text = "random games until the time is up" if examples is None else _plural(examples, "random game")
    click.echo(f"verifying {game.name} ({file}): exploration, then {games_text}, within {budget:g} s of CPU; "
               "checks after every step:")
    for name, what in checks_of(game):
        click.echo(f"  - {name}: {what}")
    progress, stop_progress = (None, lambda: None) if quiet else _progress(examples, budget)
    try:
        if jobs > 1:
            from ..verify.parallel import verify_parallel

            report = verify_parallel(game, file, _parse_sets(sets), counts, examples, seed, jobs, shrink_seconds,
                                     None, seconds=budget, states=states, explore_only=explore_only,
                                     small=small_game[1] if small_game else None)
        else:
            report = run(game, counts, examples, seed, budget, states, explore_only, small_game, progress,
                         shrink_seconds)
    finally:
        stop_progress()
    if show_coverage:
        click.echo("coverage (file:line: what: how often the games reached it):")
        for item in report.coverage.items():
            click.echo(f"  {'  ' if item.covered else '! '}{item.describe()}")
    for space in report.spaces:
        click.echo(f"explored: {space.describe()}")
    if report.interrupted:
        click.echo("interrupted (Ctrl-C): what was found so far:")
    if report.ok:
        if report.examples or not explore_only:
            click.echo(f"ok: every check held in {_plural(report.examples, 'game')} ({_plural(report.steps, 'move')}, "
                       f"the longest {report.longest})" + (" (the time budget ran out)" if report.out_of_time else ""))
        else:
            click.echo("ok: every check held in every position explored")
        click.echo(f"covered: {report.coverage.summary()}")
        missed = report.coverage.missed()
        if missed and not show_coverage:
            click.echo(f"  not reached: {len(missed)} (list them with --coverage), e.g. {missed[0].describe()}")
        if report.interrupted:
            raise click.exceptions.Exit(EXIT_INTERRUPTED)
        return
    failure = report.failure
    shown_game = game
    if failure.params:
        shown_game = _load_game(file, tuple(sets) + tuple(f"{k}={v}" for k, v in failure.params.items()))
        click.echo(f"found with the small parameters: {', '.join(f'{k}={v}' for k, v in failure.params.items())}")
    click.echo(f"FAILED: {failure.check}: {failure.message}")
    click.echo(f"shortest game found: {failure.players} players, seed {failure.seed}, "
               f"{_plural(len(failure.moves), 'move')}"
               + (" (shortening stopped at --shrink-seconds)" if report.shrink_stopped else "") + ":")
    _echo_moves(_describe_moves(shown_game, failure.players, failure.seed, failure.moves))
    target = out_path or (Path(file).name.removesuffix(".rules") + ".failure.json")
    from ..engine.setlog import fold

    log = failure.to_log(file, game.params)
    log["moves"] = fold(shown_game, failure.players, failure.seed, failure.moves)  # a set of cards: one record
    try:
        Path(target).write_text(_log_text(log), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write the replay file {target}: {exc.strerror or exc}") from None
    click.echo(f"replay file: {target}  (run: ruledsl replay {target})")
    raise click.exceptions.Exit(EXIT_INTERRUPTED if report.interrupted else EXIT_RULES)


def _progress(examples, budget: float):
    """(progress(report), stop()): a bar on a terminal (CPU time spent of the budget), else a line
    every VERIFY_PROGRESS_SECONDS on stderr."""
    started = time.process_time()

    def words(report) -> str:
        games = f"{report.examples} of {_plural(examples, 'game')}" if examples else _plural(report.examples, "game")
        explored = sum(s.states for s in report.spaces)
        return (f"{games} done, {_plural(report.steps, 'move')} checked, {explored:,} positions explored "
                f"({report.phase or 'starting'})")

    if _stderr_is_terminal():
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("verifying"), BarColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                       transient=True)
        task = bar.add_task("", total=budget or 1)
        bar.start()

        def progress(report):
            bar.update(task, completed=time.process_time() - started, description=words(report))

        return progress, bar.stop
    shown = {"at": time.monotonic()}

    def line(report):  # off a terminal: a line now and then
        now = time.monotonic()
        if now - shown["at"] >= VERIFY_PROGRESS_SECONDS:
            shown["at"] = now
            click.echo(f"verify: {words(report)}, {time.process_time() - started:.0f} of {budget:g} s CPU", err=True)

    return line, lambda: None


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
    """The moves of a game in words, each with the player who made it (engine/setlog.py)."""
    return [f"player {who}: {text}" if who is not None else text
            for who, text in describe_moves(game, players, seed, moves)]


@main.command("replay")
@click.argument("log_file", metavar="LOG.json")
@click.option("--rules", "rules_path", default=None, help="The rules file to use instead of the one the log names.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list the moves.")
def replay_command(log_file, rules_path, quiet) -> None:
    """Re-run a game log (from `run --log` or a `verify` failure) with every check, to its last step."""
    from ..engine.setlog import fold, unfold
    from ..verify.checks import LOG_MISMATCH, replay_log

    log, rules, game, n = _game_of_log(log_file, rules_path)
    records = fold(game, n, log["seed"], log["moves"])  # the moves as the log and the list count them
    if not quiet:
        for i, text in enumerate(_describe_moves(game, n, log["seed"], log["moves"]), 1):
            click.echo(f"  {i:>3}. {text}")  # replay lists every move: it is what a log is read for
    recorded = log.get("failure")
    broken, made = replay_log(game, {"players": n, "seed": log["seed"], "moves": log["moves"]})
    note = None
    if broken is not None and broken.check in DESIGN_CHECKS and not recorded:
        # a game log (not a verify failure) replays if its moves do: a leak of hidden information is
        # a finding about the rules, which verify reports; here it is a note, and the replay goes on
        note = broken
        broken, made = replay_log(game, {"players": n, "seed": log["seed"], "moves": log["moves"]},
                                  focus="save and clone")
    if broken is not None and broken.check == LOG_MISMATCH:
        raise CliError(f"{log_file} does not fit {rules}: {broken.message}", EXIT_RULES)
    counted = _records_made(records, made)
    if broken is not None:
        click.echo(f"FAILED after move {counted}: {broken.check}: {broken.message}")
        raise click.exceptions.Exit(EXIT_RULES)
    if recorded:
        click.echo(f"the recorded failure ({recorded.get('check')}) did not happen: every check held "
                   f"through {_plural(counted, 'move')}")
        raise click.exceptions.Exit(EXIT_RULES)
    state = game.replay(n, log["seed"], unfold(records))
    _same_outcome(log, state, log_file)
    status = "game over" if state.is_over else f"player {state.current_player} to decide `{state.decision}`"
    if note is not None:
        click.echo(f"note: {note.check}: {note.message} (the rules may show what a player should not know; "
                   f"`ruledsl verify {rules}` looks for such leaks)")
        click.echo(f"ok: {_plural(counted, 'move')} replayed, every check but {note.check} held; {status}")
    else:
        click.echo(f"ok: {_plural(counted, 'move')} replayed, every check held; {status}")
    if state.is_over:
        click.echo(f"scores: {state.scores}; winners: {_winner_words(state.winners)}")


#: the checks about what the rules let players know, rather than about whether a game can be played again
DESIGN_CHECKS = ("hidden information", "information flow", "secret choices")


def _records_made(records: list, steps: int) -> int:
    """How many of the log's moves (a set of cards: one move) the first ``steps`` engine steps reach."""
    from ..engine.setlog import unfold

    done = 0
    for i, record in enumerate(records):
        done += len(unfold([record]))
        if done >= steps:
            return i + 1 if steps else 0
    return len(records)


def _same_outcome(log: dict, state, log_file: str) -> None:
    """The scores, winners and finding the log recorded (a log of `run --log`) are the replay's."""
    if not state.is_over:
        return
    found = {"scores": state.scores, "winners": state.winners, "finding": state.finding}
    for key, value in found.items():
        if key in log and log[key] != value:
            raise CliError(f"{log_file} records {key} {log[key]!r}, but replaying its moves gives {value!r}; "
                           "the log was made with other rules or parameters", EXIT_RULES)


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
    from ..engine.setlog import is_record, unfold

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
            and all(isinstance(a, int) for a in m[1:])) for m in v),  # true/false: an int too
            "a list of moves like [\"play\", 17] or [\"order_up\", true], or sets of cards like "
            "[\"attack\", [3, 17]]"),
        "params": (lambda v: v is None or isinstance(v, dict), "an object of parameters"),
    }
    for key, (ok, what) in checks.items():
        if not ok(log.get(key)):
            raise CliError(f"{name} is not a valid game log: '{key}' should be {what}")
    log["moves"] = unfold(log["moves"])  # the engine's steps: a set record stands for its steps
    return log


def _find_rules(path: str, log_file: str) -> str:
    """The rules file a log names: relative to the log's folder, else in a shared folder.

    A log may come from anyone, so its rules path obeys the rule of ``include``: a .rules file
    inside the log's folder tree, a shared folder (--include-dir, RULEDSL_PATH) or the library,
    symlinks resolved; any other file is not opened (``--rules`` names one you trust)."""
    from ..language.assemble import NOT_RULES, allowed_roots, refusal, shared_dirs

    roots = allowed_roots(log_file)
    refused = None
    for candidate in (Path(log_file).parent / path, *(d / path for d in shared_dirs())):
        reason = refusal(candidate, roots)
        if reason:
            refused = refused or reason
        elif candidate.is_file():
            return str(candidate)
    if refused == NOT_RULES:
        raise CliError(f"the log names the rules file {path}, which is not a .rules file; it was not opened "
                       "(name the rules with --rules)")
    if refused:
        raise CliError(f"the log names the rules file {path}, which is outside the log's folder, the shared "
                       "folders and the library; it was not opened (if you trust it, name it with --rules, "
                       "or the folder it is relative to with --include-dir)")
    raise CliError(f"the log names the rules file {path}, which is not there (use --rules)")
