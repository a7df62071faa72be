"""The desk's commands: ``ruledsl lsp``, ``ruledsl graph`` and ``ruledsl view``.

The CLI registers them (see :data:`COMMANDS`); the helpers they share with the
other commands (loading a rules file, reading a log) come from :mod:`.common`
and :mod:`.verify_replay`; the tools themselves are in :mod:`ruledsl.desk`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..language.errors import RuledslError
from . import common as cli
from .verify_replay import _game_of_log


def _need(module: str, package: str):
    """Import an optional dependency of the desk, or stop with a message saying how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise cli.CliError(f"this command needs {package}: pip install 'ruledsl[desk]'") from None


# ---- lsp


@click.command("lsp")
def lsp_command() -> None:
    """Run the language server on stdin and stdout (for editors: diagnostics, hover, definitions, completion)."""
    _need("pygls", "pygls")
    from ..desk.lsp import serve

    serve()


# ---- graph

FORMATS = ("dot", "svg", "png")


@click.command("graph")
@click.argument("file")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), default=None,
              help="Write the diagram to this file [default: DOT on stdout].")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default=None,
              help="dot, svg or png [default: from the output file's extension, else dot]; "
                   "svg and png need Graphviz's `dot` program.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
def graph_command(file, output, fmt, sets) -> None:
    """Draw the flow of FILE: phases, loops, decisions with their moves, and triggers."""
    from ..desk.graph import GraphvizMissing, flow_dot, render

    if fmt is None:
        suffix = Path(output).suffix.lower().lstrip(".") if output else ""
        fmt = suffix if suffix in FORMATS else "dot"
    model = _checked_model(file, sets)
    dot_text = flow_dot(model)
    if fmt == "dot":
        data = dot_text.encode("utf-8")
    else:
        try:
            data = render(dot_text, fmt)
        except GraphvizMissing as err:
            raise cli.CliError(str(err), cli.EXIT_USAGE) from None
    if output is None:
        if fmt != "dot" and sys.stdout.isatty():
            raise cli.CliError(f"a {fmt} image is not for a terminal: give --output FILE")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise cli.CliError(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"wrote {output} ({fmt})", err=True)


def _checked_model(file: str, sets):
    from ..checker.check import check
    from ..language.assemble import assemble
    from ..language.errors import ParameterError, RulesError, read_source
    from ..scenarios.runner import SUFFIX

    if file.endswith(SUFFIX):
        raise cli.CliError(f"{file} is a scenario file: draw the rules file it tests")
    reason = cli._unreadable(file)
    if reason:
        raise cli.CliError(reason)
    try:
        text = read_source(file)
    except RulesError as err:
        if all(d.code == "E001" for d in err.diagnostics):  # the file vanished or may not be read
            raise cli.CliError("; ".join(d.message for d in err.diagnostics)) from None
        cli._print_diagnostics(err.diagnostics)
        click.echo(cli._plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(cli.EXIT_RULES) from None
    try:
        return check(assemble(text, file), cli._parse_sets(sets))
    except RulesError as err:
        cli._print_diagnostics(err.diagnostics)
        click.echo(cli._plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(cli.EXIT_RULES) from None
    except ParameterError as err:
        raise cli.CliError(str(err)) from None


# ---- view


@click.command("view")
@click.argument("source", metavar="LOG.json|FILE.rules")
@click.option("--seat", type=int, default=0, show_default=True, help="The seat whose view is shown (and played).")
@click.option("--players", "-p", type=int, default=None,
              help="With a rules file: number of players [default: the fewest the game allows].")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="With a rules file: the seed.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="With a rules file: set a parameter.")
@click.option("--bot", "bot_name", default="random", show_default=True, metavar="BOT[:KEY=VALUE,...]",
              callback=lambda ctx, param, value: cli._check_bots(ctx, param, value),
              help="With a rules file: the bots' kind, with settings (see docs/bots.md).")
@click.option("--rules", "rules_path", default=None, help="With a log: the rules file to use instead of the one it names.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The local port to serve on (0: any free port).")
def view_command(source, seat, players, seed, sets, bot_name, rules_path, port) -> None:
    """Show a game in the browser as one seat sees it: a saved LOG.json, or a new game of FILE.rules
    where you play --seat against bots. Serves on 127.0.0.1 only; Ctrl-C stops it."""
    from ..desk.viewer import Session, make_server

    path = Path(source)
    if not path.is_file():
        raise cli.CliError(f"{source} {'is a directory' if path.is_dir() else 'does not exist'}")
    if source.endswith(".json"):
        log, rules, game, n = _game_of_log(source, rules_path)
        _check_seat(cli, seat, n)
        try:
            session = Session(game, n, log["seed"], seat, moves=log["moves"])
        except RuledslError as err:
            raise cli.CliError(f"{source} does not fit {rules}: {err}", cli.EXIT_RULES) from None
    else:
        game = cli._load_game(source, sets)
        n = cli._check_players(game, players)
        _check_seat(cli, seat, n)
        try:
            session = Session(game, n, seed, seat, bot=bot_name, live=True)
        except RuledslError as err:
            raise cli.CliError(f"a rule failed before your first decision: {err}", cli.EXIT_RULES) from None
    try:
        server = make_server(session, port)
    except OSError as exc:
        raise cli.CliError(f"cannot serve on port {port}: {exc.strerror or exc}") from None
    from ..desk.viewer import page_url

    click.echo(f"ruledsl view: {game.name}, seen by player {seat}: {page_url(server)} (Ctrl-C stops)")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.server_close()


def _check_seat(cli, seat: int, n: int) -> None:
    if not 0 <= seat < n:
        raise cli.CliError(f"--seat {seat}: the seats are 0 to {n - 1}")


COMMANDS = (lsp_command, graph_command, view_command)
