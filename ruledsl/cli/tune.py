"""``ruledsl tune``: the parameter values that best meet a target, from paired games over a grid or a search."""

from __future__ import annotations

import json

import click

from ..engine.load import load
from ..language.errors import ParameterError, RulesError, RulesRuntimeError
from .common import (
    CliError,
    _bots_option,
    _check_players,
    _fail_at_runtime,
    _load_game,
    _parse_sets,
    _plural,
    main,
)
from .games import simulate_command
from .progress import Progress, quiet_option


@main.command("tune")
@click.argument("file")
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=LOW..HIGH|NAME=a,b,c|NAME",
              help="A parameter to tune and the values to try: a range of whole numbers, a list of values "
                   "(numbers, texts, true,false), or a true/false parameter's name alone for both its values "
                   "(give it once per parameter).")
@click.option("--target", default="fair", show_default=True, metavar="fair|length=N|drama",
              help="fair: every seat wins its share; length=N: games of N moves on average; "
                   "drama: the winner is behind for as much of the game as can be.")
@click.option("--games", "-n", type=click.IntRange(min=2), default=200, show_default=True,
              help="Games per value (the same seeds for every value).")
@click.option("--search", type=click.Choice(["grid", "halving"]), default="grid", show_default=True,
              help="grid: every value with all the games; halving: all with few games, the better half "
                   "with twice as many, until one is left.")
@click.option("--points", type=click.IntRange(min=2), default=8, show_default=True,
              help="At most this many values of each parameter (evenly spread over its range).")
@click.option("--players", "-p", type=int, default=None, help="Number of players [default: the fewest allowed].")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter that is not tuned.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes that play the games (the results do not depend on it).")
@click.option("--dask", "dask", metavar="ADDRESS", default=None,
              help="Play the games on the Dask scheduler at ADDRESS (tcp://host:8786) instead.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Write a PNG of the target against each parameter, with intervals.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@quiet_option
def tune_command(file, params, target, games, search, points, players, seed, sets, bots, jobs, dask, plot_file,
                 as_json, quiet) -> None:
    """Find the values of FILE's parameters that best meet --target (docs/scale.md, "Tuning")."""
    from ..play.tune import parse_param, parse_target, plot, resolve, tune

    try:
        ranges = [parse_param(p) for p in params]
        goal_kind, goal = parse_target(target)
    except ParameterError as err:
        raise CliError(str(err)) from None
    names = [r[0] for r in ranges]
    if len(set(names)) != len(names):
        raise CliError("--param names a parameter twice; give each once")
    fixed = _parse_sets(sets)
    for name in names:
        if name in fixed:
            raise CliError(f"{name} is both tuned (--param) and set (--set); give it once")
    game = _load_game(file, sets)
    for name in names:
        if name not in game.program.params:
            known = ", ".join(sorted(game.program.params)) or "none"
            raise CliError(f"{file} has no parameter '{name}' (its parameters: {known})")
    try:
        ranges = [resolve(r, game.program.params[r[0]]) for r in ranges]
    except ParameterError as err:
        raise CliError(str(err)) from None
    n = _check_players(game, players)
    bot_choice = _bots_option(bots, n)

    def game_for(values):
        try:
            return load(file, params={**fixed, **values})
        except (RulesError, ParameterError) as err:
            shown = ", ".join(f"{k}={v}" for k, v in values.items())
            message = "; ".join(d.message for d in err.diagnostics) if isinstance(err, RulesError) else str(err)
            raise CliError(f"{shown}: {message}") from None

    try:
        with Progress("tune", quiet=quiet) as progress:  # games played over all the values tried
            result = tune(game_for, file, n, seed, games, bot_choice, ranges, goal_kind, goal, search, points,
                          jobs, dask, progress=progress)
    except RulesRuntimeError as err:
        _fail_at_runtime(game, err, file, sets)
    except ParameterError as err:
        raise CliError(str(err)) from None
    if plot_file:
        try:
            plot(result, ranges, plot_file)
        except (ParameterError, OSError) as err:
            raise CliError(f"cannot write the plot {plot_file}: {err}") from None
        click.echo(f"plot: {plot_file}", err=True)
    if as_json:
        click.echo(json.dumps({"rules": file, **result}))
        return
    _table(result, names, file)


# --bot as simulate takes it
tune_command.params.append(next(p for p in simulate_command.params if p.name == "bots"))


def _table(result, names, file) -> None:
    from rich.console import Console

    from ..play.tune import shown
    from rich.table import Table

    best = result["best"]
    console = Console(width=140)
    table = Table(title=f"{file}: target {result['target']}, {result['search']} search, "
                        f"{_plural(result['played'], 'game')} played, seed {result['seed']}")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column(best["what"], justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("games", justify="right")
    pct = result["target"] != "length" and not result["target"].startswith("length")
    for c in result["candidates"]:
        fmt = (lambda x: f"{x:.1%}") if pct else (lambda x: f"{x:.1f}")
        mark = " *" if c is best or c == best else ""
        table.add_row(*[shown(c["params"][k]) for k in names], fmt(c["value"]) + mark,
                      f"[{fmt(c['ci95'][0])}, {fmt(c['ci95'][1])}]", str(c["games"]))
    console.print(table)
    said = ", ".join(f"{k}={shown(best['params'][k])}" for k in names)
    fmt = (lambda x: f"{x:.1%}") if pct else (lambda x: f"{x:.1f}")
    console.print(f"best: {said}: {best['what']} {fmt(best['value'])} (95% interval [{fmt(best['ci95'][0])}, "
                  f"{fmt(best['ci95'][1])}])", highlight=False)
    others = [p for p in result["indistinguishable"] if p != best["params"]]
    if others:
        listed = "; ".join(", ".join(f"{k}={shown(p[k])}" for k in names) for p in others)
        console.print(f"not told apart from the best at these games (intervals overlap): {listed}", highlight=False)
