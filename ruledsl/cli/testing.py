"""``ruledsl test``: run the scenarios of scenario files and print each as passed or failed.

Exit codes as for every command: 0 all passed; 1 a scenario failed or a file
is broken; 2 a usage error (a missing file, a rules file with no scenario
file beside it, a --match that names no scenario).
"""

from __future__ import annotations

from pathlib import Path

import click

from ..language.errors import RulesError
from ..scenarios.runner import SUFFIX, load_scenarios, scenario_file_for

EXIT_FAILED = 1
EXIT_USAGE = 2


def _usage(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    raise click.exceptions.Exit(EXIT_USAGE)


def _targets(files) -> list[Path]:
    out = []
    for file in files:
        p = Path(file)
        if not p.is_file():
            what = "is a directory, not a file" if p.is_dir() else "does not exist"
            _usage(f"{file} {what}")
        found = scenario_file_for(p)
        if found is None:
            _usage(f"{file} has no scenario file beside it (expected {p.name[:-len('.rules')]}{SUFFIX})"
                   if p.name.endswith(".rules") else f"{file} is not a scenario file (*{SUFFIX})")
        if found not in out:
            out.append(found)
    return out


@click.command("test")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--match", "-k", "pattern", default=None, metavar="NAME",
              help="Run only the scenarios whose name contains NAME or matches it as a glob (lap_*).")
def test_command(files: tuple[str, ...], pattern: str | None) -> None:
    """Run the scenarios of FILE (a .test.rules file, or the rules file it tests)."""
    from rich.console import Console
    from rich.markup import escape

    class _Out(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError  # the CLI ends quietly with 141, as every command does

    out = _Out(highlight=False, soft_wrap=True)
    targets = _targets(files)
    passed = failed = broken = 0
    ran = 0
    for path in targets:
        try:
            scenarios = load_scenarios(path)
            scenarios.check()
        except RulesError as err:
            for d in err.diagnostics:
                click.echo(d.render(), err=True)
            out.print(f"[bold red]BROKEN[/] {escape(str(path))}: {len(err.diagnostics)} error(s)")
            broken += 1
            continue
        chosen = scenarios.select(pattern)
        if not chosen:
            continue
        out.print(f"[bold]{escape(str(path))}[/] (tests {escape(scenarios.rules_path)})")
        for sc in chosen:
            ran += 1
            outcome = scenarios.run(sc)
            where = f"line {sc.span.line}"
            if outcome.passed:
                passed += 1
                out.print(f"  [green]passed[/] {escape(sc.name)} [dim]({where}, "
                          f"{outcome.checked} expectation{'s' if outcome.checked != 1 else ''})[/]")
            else:
                failed += 1
                word = "failed" if outcome.status == "failed" else "error"
                out.print(f"  [bold red]{word}[/] {escape(sc.name)} [dim]({where})[/]")
                for line in outcome.message().splitlines():
                    out.print("    " + escape(line))
    if pattern and not ran and not broken:
        _usage(f"no scenario matches {pattern!r}")
    summary = f"{passed} passed"
    if failed:
        summary += f", {failed} failed"
    if broken:
        summary += f", {broken} broken file{'s' if broken != 1 else ''}"
    out.print(("[bold red]" if failed or broken else "[bold green]") + summary + "[/]")
    if failed or broken:
        raise click.exceptions.Exit(EXIT_FAILED)
