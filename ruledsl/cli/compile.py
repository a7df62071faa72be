"""``ruledsl compile``: check and compile a rules file; ``--emit-python`` prints the generated module.

Exit codes as for every command (README.md): 0 success; 1 the rules file is
broken; 2 a bad option or file.
"""

from __future__ import annotations

import click

from .common import _load_game, main


@main.command("compile")
@click.argument("file")
@click.option("--emit-python", is_flag=True,
              help="Print the Python module the engine runs for these rules (docs/compile.md).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
def compile_command(file: str, emit_python: bool, sets: tuple[str, ...]) -> None:
    """Compile a rules file to the Python the engine runs; print it with --emit-python."""
    game = _load_game(file, sets)
    listing = game.python_listing()
    if emit_python:
        click.echo(listing, nl=False)
        return
    p = game.program
    click.echo(f"ok: {file} ({game.name}: {len(p.code)} steps, {len(p.choices)} decisions, "
               f"{len(p.triggers)} triggers; {listing.count(chr(10))} lines of Python)")
