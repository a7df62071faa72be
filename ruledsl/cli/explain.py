"""``ruledsl explain``: the rules read back as a rulebook (Markdown or HTML), from the checked model."""

from __future__ import annotations

from pathlib import Path

import click

from ..language.errors import ParameterError, RulesError
from .common import (
    EXIT_RULES,
    CliError,
    _parse_sets,
    _plural,
    _print_diagnostics,
    _unreadable,
    main,
)


@main.command("explain")
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown, or a standalone HTML page.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter before writing.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the rulebook into this file instead of printing it.")
def explain_command(file, fmt, sets, output) -> None:
    """Write FILE's rulebook: components, setup, flow, decisions, triggers, end and scoring, parameters."""
    from ..desk.explain import rulebook, to_html

    reason = _unreadable(file)
    if reason:
        raise CliError(reason)
    try:
        text = rulebook(file, _parse_sets(sets))
    except RulesError as err:
        _print_diagnostics(err.diagnostics)
        click.echo(_plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(EXIT_RULES) from None
    except ParameterError as err:
        raise CliError(str(err)) from None
    if fmt == "html":
        text = to_html(text, Path(file).stem)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
        click.echo(f"rulebook: {output}", err=True)
    else:
        click.echo(text, nl=False)
