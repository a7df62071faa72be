"""``ruledsl mutate``: change one rule at a time and see whether the game's scenarios notice.

Exit codes as for every command (README.md): 0 every mutant was killed or
is marked equivalent; 1 a mutant survived unmarked, or the rules or their
scenarios are broken (or fail as written); 2 a usage error (a bad option, a
missing file, a rules file with no scenario file beside it, a --match that
matches no mutant). docs/language.md §10.6 describes the command.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import attrs
import click

from ..language.errors import RulesError
from ..mutate.operators import OPERATORS
from ..scenarios.runner import SUFFIX, load_scenarios, scenario_file_for
from .common import EXIT_RULES, CliError, main

PROGRESS_SECONDS = 5.0  # off a terminal, a progress line this often
TIMEOUT_FACTOR = 20.0  # a mutant may take this many times the unmutated suite's time ...
TIMEOUT_FLOOR = 10.0  # ... and never less than this many seconds


def _scenario_path(file: str) -> Path:
    p = Path(file)
    if not p.is_file():
        raise CliError(f"{file} is a directory, not a rules file" if p.is_dir() else f"{file} does not exist")
    found = scenario_file_for(p)
    if found is None:
        if p.name.endswith(".rules"):
            raise CliError(f"{file} has no scenario file beside it (expected {p.name[:-len('.rules')]}{SUFFIX}); "
                           "mutate runs a game's scenarios against each mutant")
        raise CliError(f"{file} is not a rules file (*.rules) or a scenario file (*{SUFFIX})")
    return found


def _broken(diagnostics) -> None:
    for d in diagnostics:
        click.echo(d.render(), err=True)
    n = len(diagnostics)
    click.echo(f"{n} error{'' if n == 1 else 's'}", err=True)
    raise click.exceptions.Exit(EXIT_RULES)


class _Progress:
    """A rich bar on a terminal; off a terminal, a line on stderr every few seconds."""

    def __init__(self, total: int, label: str):
        import sys

        self.total = total
        self.done = self.killed = self.survived = self.invalid = 0
        self.started = self.shown = time.monotonic()
        self.bar = None
        if sys.stderr.isatty() and total:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(TextColumn(f"mutating {label}"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[tally]}"), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("mutate", total=total, tally="")
            self.bar.start()

    def __call__(self, index, verdict) -> None:
        self.done += 1
        if verdict.status == "killed":
            self.killed += 1
        elif verdict.status == "survived":
            self.survived += 1
        else:
            self.invalid += 1
        tally = f"{self.killed} killed, {self.survived} survived, {self.invalid} invalid"
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, tally=tally)
            return
        now = time.monotonic()
        if now - self.shown >= PROGRESS_SECONDS:
            self.shown = now
            click.echo(f"mutate: {self.done} of {self.total} mutants, {tally}, {now - self.started:.0f} s", err=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@main.command("mutate")
@click.argument("file")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Judge mutants in this many processes.")
@click.option("--match", "-k", "pattern", default=None, metavar="TEXT",
              help="Only mutants that change a line containing TEXT.")
@click.option("--operator", "-o", "operators", multiple=True, type=click.Choice(list(OPERATORS)),
              help="Only this mutation operator (repeatable) [default: all].")
@click.option("--verify", "use_verify", is_flag=True,
              help="Also mutate the `invariant`s, and run a short `verify` (invariants and engine checks) "
                   "on mutants the scenarios miss.")
@click.option("--verify-examples", type=click.IntRange(min=1), default=3, show_default=True,
              help="Games verify plays per mutant with --verify.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help=f"A mutant that runs longer is killed [default: {TIMEOUT_FACTOR:g} times the unmutated "
                   f"suite, at least {TIMEOUT_FLOOR:g} s].")
@click.option("--base/--no-base", "with_base", default=True, show_default=True,
              help="For a variant (`extends`): mutate its base file's lines too, but for the declarations "
                   "it replaces.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def mutate_command(file: str, jobs: int, pattern: str | None, operators: tuple[str, ...], use_verify: bool,
                   verify_examples: int, timeout: float | None, with_base: bool, as_json: bool) -> None:
    """Mutate the rules of FILE one change at a time and run its scenarios against each.

    FILE is a rules file with its scenario file (x.test.rules) beside it, or the scenario file.
    A mutant no scenario fails on survived: a rule the scenarios do not pin down."""
    from rich.console import Console

    from ..mutate import report
    from ..mutate.comments import Comments
    from ..mutate.operators import generate
    from ..mutate.run import INVALID, KILLED, baseline, run

    class _Out(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError  # the CLI ends quietly with 141, as every command does

    scenario_path = _scenario_path(file)
    try:
        loaded = load_scenarios(scenario_path)
        loaded.check()
    except RulesError as err:
        _broken(err.diagnostics)
    rules = loaded.rules_path
    examples = verify_examples if use_verify else None
    text, first = baseline(str(scenario_path), examples)
    if first.status == INVALID:
        raise CliError(f"{rules} does not compile: {first.detail}", EXIT_RULES)
    if first.status == KILLED:
        what = f"scenario {first.by}" if not first.by.startswith("verify") else first.by
        raise CliError(f"the rules as written already fail their tests ({what}: {first.detail}); "
                       f"fix that first (ruledsl test {scenario_path})", EXIT_RULES)
    try:
        made = generate(text, rules, None, invariants=use_verify, with_bases=with_base)
    except RulesError as err:
        _broken(err.diagnostics)
    comments = {path: Comments(t, OPERATORS) for path, t in made.texts.items()}
    chosen = [m for m in made.mutants if not operators or m.operator in operators]
    skips = {}
    mutants = []
    for m in chosen:
        mark = comments[m.path].skip_of(report.line_of(made.texts, m))
        if mark is None:
            mutants.append(m)
        else:
            skips.setdefault((m.path, mark.line), []).append(m)
    if pattern is not None:
        mutants = [m for m in mutants if pattern in report.changed_lines(made.texts[m.path], m)[0]]
        if not mutants:
            raise CliError(f"--match {pattern!r}: no mutant changes a line containing it")
        skips = {k: [m for m in ms if pattern in report.changed_lines(made.texts[m.path], m)[0]]
                 for k, ms in skips.items()}
    skipped = [report.Skipped(path, mark, first, last, len(skips.get((path, mark.line), ())))
               for path, notes in comments.items() for mark, first, last in notes.skips()
               if pattern is None or skips.get((path, mark.line))]
    limit = timeout if timeout is not None else max(TIMEOUT_FLOOR, TIMEOUT_FACTOR * first.seconds)
    started = time.monotonic()
    progress = _Progress(len(mutants), Path(rules).name)
    try:
        verdicts = run(str(scenario_path), mutants, jobs, examples, limit, progress)
    finally:
        progress.stop()
    seconds = time.monotonic() - started
    items = report.entries(made.texts, mutants, verdicts, comments)
    lines: dict = {}
    for m in made.mutants:
        lines.setdefault((m.path, report.line_of(made.texts, m)), []).append(m)
    items = [attrs.evolve(e, suggest=report.mark_text(made.texts, e.mutant, lines[(e.path, e.line)]))
             if e.status == "survived" else e for e in items]
    stale = report.stale_marks(made.texts, [m for m in made.mutants if not comments[m.path].skip_of(
        report.line_of(made.texts, m))], items, comments)
    unknown = [(path, mark) for path, notes in comments.items() for mark in notes.unknown_names()]
    if as_json:
        click.echo(json.dumps(report.to_json(rules, str(scenario_path), items, seconds, jobs, made.skipped, stale,
                                             skipped),
                              ensure_ascii=False, indent=2))
    else:
        out = _Out(highlight=False, soft_wrap=True)
        report.render(out, rules, items, seconds, jobs, unknown, stale, skipped)
    if any(e.status == "survived" for e in items):
        raise click.exceptions.Exit(EXIT_RULES)
