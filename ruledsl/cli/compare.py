"""``ruledsl compare``: a base rules file and its variant played over the same seeds, side by side."""

from __future__ import annotations

import json

import click

from ..language.errors import ParameterError
from ..play.scale import coverage_of
from ..play.sim import bot_names
from .common import (
    CliError,
    _bots_option,
    _check_players,
    _load_game,
    _plural,
    _stdout_is_terminal,
    main,
)
from .games import simulate_command
from .scale import play_many, prepare_report, scale_options, throughput


@main.command("compare")
@click.argument("base")
@click.argument("variant")
@click.option("--games", "-n", type=click.IntRange(min=2), default=200, show_default=True,
              help="Number of paired games (each seed is played once with each rules file).")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players [default: the fewest both games allow].")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator.")
@click.option("--base-set", "base_sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of BASE.")
@click.option("--variant-set", "variant_sets", multiple=True, metavar="NAME=VALUE",
              help="Set a parameter of VARIANT.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@scale_options
def compare_command(base, variant, games, players, seed, base_sets, variant_sets, bots, as_json, jobs, dask,
                    report_dir, quiet) -> None:
    """Play the same seeds with BASE and VARIANT and report the paired change of win rates and scores.

    VARIANT may be the same file as BASE with other --variant-set parameters.
    """
    from ..play.insight import design
    from ..play.report import balance, paired, require, write_report

    try:
        require(plots=report_dir is not None)
    except ParameterError as err:
        raise CliError(str(err)) from None
    gb = _load_game(base, base_sets)
    gv = _load_game(variant, variant_sets)
    if players is None:
        players = max(gb.program.min_players, gv.program.min_players)
    n = _check_players(gb, players)
    _check_players(gv, n)
    bot_choice = _bots_option(bots, n)
    if report_dir is not None:
        prepare_report(report_dir)
    rb, tb = play_many(gb, base, base_sets, games, n, seed, bot_choice, jobs, dask, report_dir is not None,
                       "compare: base", quiet)
    rv, tv = play_many(gv, variant, variant_sets, games, n, seed, bot_choice, jobs, dask, report_dir is not None,
                       "compare: variant", quiet)
    if not quiet:
        throughput(2 * games, tb + tv, jobs, dask)
    try:
        result = paired(rb.records, rv.records, n)
    except ParameterError as err:
        raise CliError(str(err)) from None
    data = {"base": {"rules": base, "params": gb.params}, "variant": {"rules": variant, "params": gv.params},
            "seed": seed, "bots": bot_names(bot_choice, n, seed), **result,
            "design": {"base": design(rb.records, n), "variant": design(rv.records, n)}}
    if report_dir is not None:
        bal_b = balance(rb.records, n, coverage_of(gb, rb.coverage))
        bal_v = balance(rv.records, n, coverage_of(gv, rv.coverage))
        try:
            page = write_report(report_dir, f"{gb.name} against {gv.name}: {_plural(games, 'paired game')}, "
                                f"{n} players, seed {seed}", {**data, "base_balance": bal_b, "variant_balance": bal_v},
                                {f"Base: {base}": bal_b, f"Variant: {variant}": bal_v}, result)
        except ParameterError as err:
            raise CliError(str(err)) from None
        click.echo(f"report: {page}", err=True)
    if as_json:
        click.echo(json.dumps(data))
        return
    _compare_table(data, base, variant, games, n, seed)


# --bot as simulate takes it (the same choices and settings), for both sides
compare_command.params.append(next(p for p in simulate_command.params if p.name == "bots"))


def _compare_table(data, base, variant, games, n, seed) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if _stdout_is_terminal() else 140)
    table = Table(title=f"{variant} minus {base}: {_plural(games, 'paired game')}, {n} players, seed {seed}")
    for head in ("Seat", "Win rate", "Change", "95% CI", "McNemar p", "Mean score", "Change", "95% CI", "t-test p"):
        table.add_column(head, justify="right")
    for s in data["seats"]:
        wl, wh = s["win_rate_change_ci95"]
        sl, sh = s["mean_score_change_ci95"]
        table.add_row(str(s["seat"]), f"{s['win_rate'][0]:.1%} -> {s['win_rate'][1]:.1%}",
                      f"{s['win_rate_change']:+.1%}", f"[{wl:+.1%}, {wh:+.1%}]", f"{s['mcnemar_p']:.3g}",
                      f"{s['mean_score'][0]:.2f} -> {s['mean_score'][1]:.2f}", f"{s['mean_score_change']:+.2f}",
                      f"[{sl:+.2f}, {sh:+.2f}]", f"{s['paired_t_p']:.3g}")
    console.print(table)
    lo, hi = data["length_change_ci95"]
    console.print(f"game length change: {data['length_change']:+.1f} moves (95% CI [{lo:+.1f}, {hi:+.1f}])",
                  highlight=False)
    if data.get("statistics"):
        st_table = Table(title="Statistics of the rules (variant minus base), paired")
        for head in ("Statistic", "Base -> variant", "Change", "95% CI", "Test p"):
            st_table.add_column(head, justify="right")
        for name, st in data["statistics"].items():
            share = st["kind"] == "share"
            lo, hi = st["change_ci95"]
            fmt = (lambda x: f"{x:.1%}") if share else (lambda x: f"{x:.2f}")
            sign = (lambda x: f"{x:+.1%}") if share else (lambda x: f"{x:+.2f}")
            st_table.add_row(name, f"{fmt(st['mean'][0])} -> {fmt(st['mean'][1])}", sign(st["change"]),
                             f"[{sign(lo)}, {sign(hi)}]", f"{st['test']} {st['p_value']:.3g}")
        console.print(st_table)
    from ..play.insight import side_by_side

    metrics = Table(title="Design metrics (docs/scale.md), value [95% interval]")
    for head in ("Metric", "Base", "Variant"):
        metrics.add_column(head)
    for name, b, v in side_by_side({"design": data["design"]["base"]}, {"design": data["design"]["variant"]}):
        metrics.add_row(name, b, v)
    console.print(metrics)
