"""Progress of a long command (simulate, compare, tune, verify) on stderr, wherever it runs.

On a terminal a rich bar that vanishes when done; off one (a pipe, a CI log, a
file) a plain line every few seconds, ``simulate: 12 of 30 games, 40 s``, so a
long run is never silent; nothing at all with ``--quiet``. Standard output keeps
only the results.
"""

from __future__ import annotations

import sys
import time

import click

PROGRESS_SECONDS = 5.0  # how often a line is printed off a terminal

quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="Print no progress (nor the time taken) on stderr, only the results.")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Progress:
    """``with Progress("simulate", total=30) as p: ... p(done)``: a bar on a terminal, a line every
    ``every`` seconds off one, nothing when ``quiet``. ``total`` may be None (not known ahead)."""

    def __init__(self, label: str, total: int | None = None, unit: str = "game", quiet: bool = False,
                 every: float | None = None):
        self.label, self.total, self.unit, self.quiet = label, total, unit, quiet
        self.every = PROGRESS_SECONDS if every is None else every
        self.bar = self.task = None
        self.started = self.shown = time.monotonic()

    def __enter__(self) -> "Progress":
        if not self.quiet and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import (
                Progress as Bar,
            )

            columns = [TextColumn("{task.description}"), BarColumn()]
            columns += [MofNCompleteColumn(), TimeRemainingColumn()] if self.total else [TimeElapsedColumn()]
            self.bar = Bar(*columns, console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task(self.label, total=self.total)
            self.bar.start()
        return self

    def __call__(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=self.total)
            return
        now = time.monotonic()
        if now - self.shown >= self.every:
            self.shown = now
            of = f"{done} of {_plural(self.total, self.unit)}" if self.total else _plural(done, self.unit)
            click.echo(f"{self.label}: {of}, {now - self.started:.0f} s", err=True)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
