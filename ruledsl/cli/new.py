"""``ruledsl new NAME``: a small game and its scenario file to start from, written from a template.

The template (``templates/new.rules`` and ``templates/new.test.rules`` beside this module) is a
whole game that checks, runs, verifies and passes its scenarios, so a designer starts from
something that works and changes one rule at a time. Nothing is overwritten: a file that
exists already is a usage error (exit 2) unless ``--force``.
"""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

import click

from .common import CliError, main

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def _template(name: str) -> string.Template:
    return string.Template(resources.files("ruledsl.cli").joinpath("templates", name).read_text(encoding="utf-8"))


@main.command("new")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=".", show_default=True,
              help="The folder to write the two files into (made if missing).")
@click.option("--title", default=None, help="The game's title (default: NAME with its words capitalised).")
@click.option("--force", is_flag=True, help="Overwrite files that exist already.")
def new_command(name: str, directory: str, title: str | None, force: bool) -> None:
    """Start a new game: write NAME.rules and NAME.test.rules, a small game and its scenarios.

    The game checks, runs and passes its scenarios as written; its comments say
    which commands to run after each change.
    """
    if not _NAME.fullmatch(name):
        raise CliError(f"{name!r} is not a name for a game file: use letters, digits, _ and -, "
                       "starting with a letter (for example: my_game)")
    title = title if title is not None else " ".join(w.capitalize() for w in re.split(r"[_-]+", name) if w)
    if '"' in title or "\n" in title:
        raise CliError("--title may not contain a quote or a line break")
    folder = Path(directory)
    rules, scenarios = folder / f"{name}.rules", folder / f"{name}.test.rules"
    existing = [str(p) for p in (rules, scenarios) if p.exists()]
    if existing and not force:
        raise CliError(f"{' and '.join(existing)} exist{'s' if len(existing) == 1 else ''} already "
                       "(give --force to overwrite, or choose another NAME)")
    values = {"title": title, "file": rules.name, "test_file": scenarios.name}
    texts = {rules: _template("new.rules").safe_substitute(values),
             scenarios: _template("new.test.rules").safe_substitute(values)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in texts.items():
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    click.echo(f"wrote {rules} and {scenarios}")
    click.echo(f"next: ruledsl test {rules}   then   ruledsl run {rules}")
