"""What every ``ruledsl`` command shares: the command group, exit codes, errors, loading a rules file.

Exit codes, the same for every command (README.md has the table):
0 success; 1 the rules are at fault (a broken rules file, a rule that failed
while playing, a check that verify or replay found broken, a log that does not
fit its rules); 2 the command line is at fault (bad option or value, a named
file that is missing or unreadable or not a game log, an unknown or bad
parameter, a player count or seat out of range, an output file that cannot be
written); 3 an internal error of ruledsl; 141 the reader of the output went
away (``| head``), quietly, as Unix tools do. Errors are printed on stderr,
never as a traceback; set RULEDSL_DEBUG=1 to see the traceback of an internal
error.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import click

from ..engine.load import load
from ..language.errors import (
    ParameterError,
    RuledslError,
    RulesError,
    RulesRuntimeError,
    runtime_diagnostic,
)
from ..version import __version__

LOG_FORMAT = "ruledsl-log"
LOG_VERSION = 1

EXIT_RULES = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
VERIFY_PROGRESS_SECONDS = 5.0  # how often verify prints a progress line when stderr is not a terminal
EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool stopped by a closed pipe
EXIT_INTERRUPTED = 130  # 128 + SIGINT: what a shell reports for a tool stopped by Ctrl-C


class CliError(click.ClickException):
    """A one-line reason on stderr and an exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class _Group(click.Group):
    """Turns any error that escaped a command into a message instead of a traceback.

    A command's module is imported when the command is asked for (``loader``, set by the package,
    which knows every module): ``ruledsl check`` does not pay for importing the simulator, the
    scenario runner or the desk."""

    loader = None  # loader(name): import the module of command ``name`` (all of them for None)

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands and self.loader is not None:
            self.loader(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx):
        if self.loader is not None:
            self.loader(None)
        return super().list_commands(ctx)

    def main(self, *args, **kwargs):
        if sys.stdout is None:  # started with stdout closed (`ruledsl run x.rules >&-`): nowhere to write
            click.echo("error: cannot write the output: standard output is closed", err=True)
            sys.exit(EXIT_USAGE)
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()  # here, so that a closed pipe is met while it can still be handled
        except BrokenPipeError:
            _quiet_after_closed_pipe()
        except OSError as err:  # a full device (`> /dev/full`), an output file gone bad
            _cannot_write(err)
        except KeyboardInterrupt:  # Ctrl-C between the command and its last flush
            _interrupted()

    def format_commands(self, ctx, formatter) -> None:
        """The command list with each command's whole first sentence, wrapped, never cut with `...`."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, cmd.short_help or _first_sentence(cmd.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            _quiet_after_closed_pipe()
        except KeyboardInterrupt:
            _interrupted()
        except RuledslError as err:
            raise CliError(str(err), EXIT_RULES) from None
        except OSError as err:
            if _is_output_error(err):
                _cannot_write(err)
            raise CliError(f"internal error in ruledsl: {type(err).__name__}: {err} "
                           "(set RULEDSL_DEBUG=1 to see the traceback)", EXIT_INTERNAL) from None
        except Exception as err:  # an internal error: say so briefly
            if os.environ.get("RULEDSL_DEBUG"):
                raise
            raise CliError(f"internal error in ruledsl: {type(err).__name__}: {err} "
                           "(set RULEDSL_DEBUG=1 to see the traceback)", EXIT_INTERNAL) from None


def _first_sentence(text: str) -> str:
    """The first sentence of a command's help, on one line: what `ruledsl --help` lists."""
    words = " ".join(text.split("\n\n")[0].split())
    end = words.find(". ")
    return words if end < 0 else words[: end + 1]


#: errno values that mean the output cannot be written (not a bug of ruledsl): no space, a quota, an I/O
#: error, a closed or bad descriptor
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EBADF, errno.EFBIG})


def _is_output_error(err: OSError) -> bool:
    return err.errno in _OUTPUT_ERRNOS


def _cannot_write(err: OSError):
    """The output cannot be written (a full device, a closed descriptor): one line on stderr, exit 2."""
    _silence_stdout()
    try:
        click.echo(f"error: cannot write the output: {err.strerror or err}", err=True)
    except OSError:
        pass
    sys.exit(EXIT_USAGE)


def _interrupted():
    """Ctrl-C: one line, no traceback, and the exit code a shell expects of a tool stopped by SIGINT."""
    try:
        click.echo("\ninterrupted", err=True)
    except OSError:
        pass
    sys.exit(EXIT_INTERRUPTED)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _quiet_after_closed_pipe() -> None:
    """The reader of stdout went away (``ruledsl simulate ... | head -1``): stop without a word."""
    _silence_stdout()
    sys.exit(EXIT_PIPE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ruledsl")
def main() -> None:
    """Check, run and simulate card games written as .rules files."""


# ---- shared helpers


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _print_diagnostics(diagnostics) -> None:
    for d in diagnostics:
        click.echo(d.render(), err=True)


def _parse_sets(sets: tuple[str, ...]) -> dict[str, str]:
    """``NAME=VALUE`` pairs to a dict of strings; the loader converts them to the parameter's type."""
    params: dict[str, str] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name.isidentifier() or not value:
            raise CliError(f"--set takes NAME=VALUE (for example --set hand_size=12), not {item!r}")
        if name in params:
            raise CliError(f"--set {name} is given twice ({name}={params[name]} and {name}={value}); give it once")
        params[name] = value
    return params


def _unreadable(file: str) -> str | None:
    """Why the rules file named on the command line cannot be read, or None when it is a file."""
    path = Path(file)
    if path.is_file():
        return None
    return f"{file} is a directory, not a rules file" if path.is_dir() else f"{file} does not exist"


def _load_game(file: str, sets: tuple[str, ...]):
    reason = _unreadable(file)
    if reason:
        raise CliError(reason)
    params = _parse_sets(sets)
    try:
        return load(file, params=params)
    except RulesError as err:
        if all(d.code == "E001" for d in err.diagnostics):  # the file vanished or may not be read
            raise CliError("; ".join(d.message for d in err.diagnostics)) from None
        _print_diagnostics(err.diagnostics)
        click.echo(_plural(len(err.diagnostics), "error"), err=True)
        raise click.exceptions.Exit(EXIT_RULES) from None
    except ParameterError as err:
        raise CliError(str(err)) from None


def _check_players(game, players: int | None) -> int:
    """The player count, refused (exit 2) when the game is not for it, or cannot be set up for it with
    the parameters given (``--set hand_size=51`` and 3 players: the cards do not go round)."""
    try:
        n = game.player_count(players)
        game.new_game(n, 0)
    except ParameterError as err:
        raise CliError(f"{err} (use --players)") from None
    except RulesRuntimeError:
        pass  # a rule that fails whatever the parameters: the command reports it where it plays
    return n


def _bots_option(bots: tuple[str, ...], n: int):
    if not bots:
        return "random"
    if len(bots) == 1:
        return bots[0]
    if len(bots) != n:
        raise CliError(f"--bot given {len(bots)} times for {n} players; give it once, or once per player")
    return list(bots)


def _fail_at_runtime(game, err: RulesRuntimeError, file: str, sets: tuple[str, ...]) -> None:
    """Print a rule that failed during play, where it is and how to play the game again; exit 1."""
    from ..play.sim import PlayoutFailed

    click.echo(runtime_diagnostic(err, game.program.source).render(), err=True)
    if isinstance(err, PlayoutFailed):
        which = f"game {err.index} of the simulation" if err.index is not None else "the game"
        again = " ".join([f"ruledsl run {file} --players {err.players} --seed {err.seed}"]
                         + [f"--set {s}" for s in sets])
        click.echo(f"in {which} (seed {err.seed}) after {_plural(len(err.moves), 'move')}; "
                   f"play it again with: {again}", err=True)
    raise click.exceptions.Exit(EXIT_RULES)


def _check_bots(ctx, param, value):
    """Refuse a bad --bot (unknown bot or setting, bad value) as a usage error, before any game runs."""
    specs = (value,) if isinstance(value, str) else value
    if specs:  # the bots are imported only when one is named: `ruledsl check` needs none
        from ..play.bots import parse_bot
    for spec in specs:
        try:
            parse_bot(spec)
        except ParameterError as err:
            raise CliError(f"--bot {spec}: {err}") from None
    return value


class _BotOption(click.Option):
    """``--bot``: its help names the bots, read from play/bots.py only when the help is shown."""

    def get_help_record(self, ctx):
        from ..play.bots import BOTS

        self.help = self.help.replace("{bots}", ", ".join(sorted(BOTS)))
        return super().get_help_record(ctx)


_COMMON_OPTIONS = [
    click.option("--players", "-p", type=int, default=None,
                 help="Number of players [default: the fewest the game allows]."),
    click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator."),
    click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                 help="Set a parameter of the rules file (repeatable), e.g. --set hand_size=12."),
    click.option("--bot", "bots", multiple=True, metavar="BOT[:KEY=VALUE,...]", callback=_check_bots,
                 cls=_BotOption, help="Bot for every seat, or repeated once per seat [default: random]; bots: "
                 "{bots}. Settings after a colon, e.g. ismcts:iterations=300 (see docs/bots.md)."),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table."),
]


def _common(fn):
    for option in reversed(_COMMON_OPTIONS):
        fn = option(fn)
    return fn


# ---- --include-dir: a shared folder of rules files, on every command (cli/__init__.py adds it)


def _include_dirs(ctx, param, value) -> None:
    """Put the named folders in front of RULEDSL_PATH for this command (and its worker processes)."""
    if not value:
        return
    before = os.environ.get("RULEDSL_PATH")
    named = [str(Path(v).resolve()) for v in value]
    os.environ["RULEDSL_PATH"] = os.pathsep.join(named + ([before] if before else []))

    def restore() -> None:
        if before is None:
            os.environ.pop("RULEDSL_PATH", None)
        else:
            os.environ["RULEDSL_PATH"] = before

    ctx.call_on_close(restore)


def include_dir_option() -> click.Option:
    return click.Option(
        ["--include-dir"], multiple=True, expose_value=False, callback=_include_dirs, metavar="DIR",
        type=click.Path(exists=True, file_okay=False),
        help="A shared folder that rules files (and a log's rules path) may include from; repeatable. "
             "RULEDSL_PATH names such folders too.")
