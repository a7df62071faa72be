"""``ruledsl check``, ``ruledsl run`` and ``ruledsl simulate``: a rules file checked, one game played, many games."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ..engine.load import load
from ..language import ast as A
from ..language.errors import RuledslError, RulesError, RulesRuntimeError, read_source
from ..language.parse import parse
from .common import (
    EXIT_RULES,
    EXIT_USAGE,
    LOG_FORMAT,
    LOG_VERSION,
    CliError,
    _bots_option,
    _check_players,
    _common,
    _fail_at_runtime,
    _load_game,
    _plural,
    _print_diagnostics,
    _stderr_is_terminal,
    _stdout_is_terminal,
    main,
)
from .progress import Progress, quiet_option


def play_game(*args, **kwargs):
    """:func:`ruledsl.play.sim.play_game`, the simulator imported only when a game is played (check needs none)."""
    from ..play.sim import play_game as play

    return play(*args, **kwargs)


def simulate(*args, **kwargs):
    """:func:`ruledsl.play.sim.simulate`, imported only when games are simulated."""
    from ..play.sim import simulate as run

    return run(*args, **kwargs)


SCENARIO_SUFFIX = ".test.rules"  # scenarios.runner.SUFFIX, imported only for a scenario file: check stays light


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
                    from ..scenarios.syntax import parse_scenarios

                    parse_scenarios(text, file)
                    click.echo(f"ok: {file} (scenarios, syntax only)")
                    continue
                tree = parse(text, file)
                names = [item.name for item in tree.items if isinstance(item, A.GameName)]
                label = f"{names[0]}, syntax only" if names else "syntax only"
            elif file.endswith(SCENARIO_SUFFIX):
                from ..scenarios.runner import load_scenarios

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
        from ..engine.setlog import describe_moves

        data["described"] = [words for _, words in describe_moves(game, result.players, result.seed, result.moves)]
        data["winner_order"] = _what_wins(game)
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    if _stdout_is_terminal():
        _run_table(result)
    else:
        _run_plain(result)
    order = _what_wins(game)
    if order:
        click.echo(f"({order})")


def _what_wins(game) -> str:
    """The rules' winner order in words, from its first key: ``the lowest score(p) wins``."""
    p = game.program
    if p.cooperative:
        return "the players win or lose together"
    if not p.winner_keys:
        return ""
    fn, highest = p.winner_keys[0]
    span = getattr(fn, "span", None)
    text = None
    if span is not None and span.line and span.line == span.end_line:
        line = (p.source.get(span.file) or "").splitlines()
        if 0 < span.line <= len(line):
            text = line[span.line - 1][span.column - 1:span.end_column - 1].strip() or None
    return f"the {'highest' if highest else 'lowest'} {text or 'first winner key'} wins"


def _write_log(log_path: str, file: str, result, game) -> None:
    from ..engine.setlog import describe_moves, fold

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
        # the same moves in words, cards by their names: for people (replay reads "moves")
        "described": [words for _, words in describe_moves(game, result.players, result.seed, result.moves)],
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
        if key in ("moves", "described") and value:
            body = ",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in value)
            fields.append(f' {json.dumps(key)}: [\n{body}\n ]')
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def _winner_words(winners: list[int], teams: list | None = None) -> str:
    if not winners:
        return "none"
    together = ""
    if len(winners) > 1:
        together = " (tied)"
        if teams is not None and len({teams[w] for w in winners}) == 1:  # one partnership, or all together
            together = " (all together)" if len(winners) == len(teams) and len(set(teams)) == 1 else " (partners)"
    return ", ".join(f"player {w}" for w in winners) + together


def _run_plain(result) -> None:
    click.echo(f"{result.game}: {result.players} players, seed {result.seed}, "
               f"{_plural(result.length, 'move')}")
    width = max(len(str(s)) for s in result.scores) if result.scores else 1
    for i, score in enumerate(result.scores):
        mark = "  winner" if i in result.winners else ""
        click.echo(f"  player {i} ({result.bots[i]}): {score:>{width}}{mark}")
    if result.finding:
        click.echo(f"stopped: {result.finding}")
    click.echo(f"winner{'s' if len(result.winners) > 1 else ''}: {_winner_words(result.winners, result.teams)}")


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
    console.print(f"winner{'s' if len(result.winners) > 1 else ''}: {_winner_words(result.winners, result.teams)}",
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
@click.option("--skill-bot", "skill_bot", metavar="BOT", default="greedy", show_default=True,
              help="The strongest bot, for skill against luck and dominant moves (docs/scale.md).")
@click.option("--skill-games", "skill_games", type=click.IntRange(min=0), default=None,
              help="Deals played by the strongest bot against random play in each seat and against "
                   "itself, for skill against luck [default: 0; with --report, up to 100].")
@quiet_option
def simulate_command(file, games, players, seed, sets, bots, as_json, jobs, dask, report_dir, skill_bot,
                     skill_games, quiet) -> None:
    """Play many games of FILE between bots and print win rates, scores and lengths.

    With --report or --json also the design metrics (lead changes, drama, decisiveness, first-mover
    share, stalemates, length spread; skill against luck and dominant moves with --skill-games).
    """
    game = _load_game(file, sets)
    n = _check_players(game, players)
    bot_choice = _bots_option(bots, n)
    design = None
    if jobs > 1 or dask or report_dir or as_json or skill_games:
        from .scale import (
            design_of,
            play_many,
            prepare_report,
            simulate_report,
            stats_of,
            throughput,
        )

        if report_dir:
            prepare_report(report_dir)
        run, seconds = play_many(game, file, sets, games, n, seed, bot_choice, jobs, dask, report_dir is not None,
                                 "simulate", quiet)
        stats = stats_of(game, run, games, n, seed, bot_choice)
        if not quiet and (jobs > 1 or dask or report_dir or skill_games or not as_json):  # --json alone: no time
            throughput(games, seconds, jobs, dask)
        if skill_games is None:
            skill_games = min(games, 100) if report_dir else 0
        design = design_of(game, file, sets, run, n, seed, skill_bot, skill_games, jobs, dask)
        if report_dir:
            simulate_report(game, file, run, n, report_dir, stats, design)
    else:
        try:
            started = time.perf_counter()
            with Progress("simulate", games, quiet=quiet) as progress:  # a bar, or a line now and then
                stats = simulate(game, games, n, seed, bot_choice, progress=progress)
            if _stderr_is_terminal() and not quiet:
                from .scale import throughput

                throughput(games, time.perf_counter() - started, 1, None)
        except RulesRuntimeError as err:
            _fail_at_runtime(game, err, file, sets)
    if as_json:
        extra = {} if design is None else {"design": design["design"], "skill": design.get("skill")}
        click.echo(json.dumps({"rules": file, **stats.to_dict(), **extra}))
    elif _stdout_is_terminal():
        _stats_table(stats)
    else:
        _stats_plain(stats)
    if design is not None and not as_json:
        from .scale import print_design

        print_design(design)


def _stats_summary(stats) -> list[str]:
    lines = [
        f"mean game length: {stats.mean_moves:.1f} moves (longest {stats.max_moves})",
        f"stopped at the move bound: {stats.stopped} of {stats.games}" + (
            f" (seeds {', '.join(map(str, stats.stopped_seeds[:5]))}{', ...' if stats.stopped > 5 else ''}: "
            "ruledsl run FILE --seed S plays one again)" if stats.stopped_seeds else ""),
    ]
    per = stats.games or 1
    if stats.cooperative:  # one result shared by the whole table
        won = sum(stats.team_wins.values()) if stats.team_wins else 0
        lines.append(f"cooperative: the players won together in {won} of {stats.games} games "
                     f"(win rate {won / per:.3f}), and lost together in the others")
    elif stats.team_wins is not None:
        for team, wins in stats.team_wins.items():
            lines.append(f"partnership {team}: wins {wins}, win rate {wins / per:.3f}")
        lines.append(f"games won by more than one partnership: {stats.shared} "
                     "(a partnership's win counts once; each partner's seat counts it above)")
    else:
        lines.append(f"games with a shared win: {stats.shared} (a shared win counts for each tied player)")
    for name in stats.statistic_sums or ():
        lines.append(statistic_line(name, stats.statistic(name)))
    return lines


def statistic_line(name: str, st: dict) -> str:
    """One `statistic` over a run: a share of games with its count, or a mean; its 95% interval if known."""
    ci = st["ci95"]
    if st["kind"] == "share":
        text = f"statistic {name}: held in {st['held']} of {st['games']} games ({st['mean']:.3f}"
        return text + (f", 95% interval [{ci[0]:.3f}, {ci[1]:.3f}])" if ci else ")")
    text = f"statistic {name}: mean {st['mean']:.2f} over {st['games']} games"
    return text + (f" (95% interval [{ci[0]:.2f}, {ci[1]:.2f}])" if ci else "")


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
