"""One exit-code policy for every command, the table of README.md and docs/language.md section 8:

0 success; 1 the rules are at fault; 2 the command line is at fault; 3 an internal error;
141 the reader of stdout went away.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
RACE = (Path(__file__).parent / "data" / "race.rules").read_text(encoding="utf-8")
BROKEN = 'game "Broken"\nplayers 2..4\nvar x: int = y\nflow { x = 1 }\n'
SCENARIOS = 'scenarios for "{rules}"\n\nscenario one_point {{\n  players 2\n  move one\n  expect points[0] == 1\n}}\n'


def invoke(*args, input=None):
    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture
def paths(tmp_path):
    race = tmp_path / "race.rules"
    race.write_text(RACE, encoding="utf-8")
    broken = tmp_path / "broken.rules"
    broken.write_text(BROKEN, encoding="utf-8")
    log = tmp_path / "race.json"
    assert invoke("run", race, "--seed", "3", "--log", log).exit_code == 0
    broken_log = tmp_path / "broken.json"
    data = json.loads(log.read_text(encoding="utf-8"))
    broken_log.write_text(json.dumps({**data, "rules": str(broken), "params": {}}), encoding="utf-8")
    race_test = tmp_path / "race.test.rules"
    race_test.write_text(SCENARIOS.format(rules="race.rules"), encoding="utf-8")
    broken_test = tmp_path / "broken.test.rules"
    broken_test.write_text(SCENARIOS.format(rules="broken.rules"), encoding="utf-8")
    return {"race": race, "broken": broken, "log": log, "broken_log": broken_log, "race_test": race_test,
            "broken_test": broken_test, "missing": tmp_path / "nope.rules", "dir": tmp_path}


# For each command: how to call it with a good file, a broken one, and a missing one / a directory.
# None where a command cannot be called so: `view` serves until stopped (tests/test_desk_view.py runs
# it), `lsp` reads its files from the editor, not from the command line.
COMMANDS = {
    "check": (["check", "{race}"], ["check", "{broken}"], ["check", "{missing}"], ["check", "{dir}"]),
    "run": (["run", "{race}"], ["run", "{broken}"], ["run", "{missing}"], ["run", "{dir}"]),
    "simulate": (["simulate", "{race}", "-n", "3"], ["simulate", "{broken}"], ["simulate", "{missing}"],
                 ["simulate", "{dir}"]),
    "verify": (["verify", "{race}", "-k", "2"], ["verify", "{broken}"], ["verify", "{missing}"],
               ["verify", "{dir}"]),
    "compare": (["compare", "{race}", "{race}", "-n", "3"], ["compare", "{race}", "{broken}"],
                ["compare", "{race}", "{missing}"], ["compare", "{dir}", "{race}"]),
    "replay": (["replay", "{log}"], ["replay", "{broken_log}"], ["replay", "{missing}"], ["replay", "{dir}"]),
    "play": (["play", "{race}"], ["play", "{broken}"], ["play", "{missing}"], ["play", "{dir}"]),
    "test": (["test", "{race_test}"], ["test", "{broken_test}"], ["test", "{missing}"], ["test", "{dir}"]),
    "graph": (["graph", "{race}"], ["graph", "{broken}"], ["graph", "{missing}"], ["graph", "{dir}"]),
    "compile": (["compile", "{race}", "--emit-python"], ["compile", "{broken}"], ["compile", "{missing}"],
                ["compile", "{dir}"]),
    "mutate": (["mutate", "{race_test}", "--match", "move one", "--operator", "remove-move"],
               ["mutate", "{broken_test}"], ["mutate", "{missing}"], ["mutate", "{dir}"]),
    "view": (None, ["view", "{broken}"], ["view", "{missing}"], ["view", "{dir}"]),
    "lsp": (["lsp"], None, None, None),
    "explain": (["explain", "{race}"], ["explain", "{broken}"], ["explain", "{missing}"], ["explain", "{dir}"]),
    "tune": (["tune", "{race}", "--param", "goal=4..5", "-n", "2"], ["tune", "{broken}", "--param", "goal=4..5"],
             ["tune", "{missing}", "--param", "goal=4..5"], ["tune", "{dir}", "--param", "goal=4..5"]),
    # `new` reads no rules file: its usage errors are a bad NAME and files that exist already
    "new": (["new", "fresh", "--dir", "{dir}/new"], None, ["new", "9x"], ["new", "race", "--dir", "{dir}"]),
}


def fill(args, paths):
    return [a.format(**{k: str(v) for k, v in paths.items()}) for a in args]


def test_the_table_covers_every_command():
    assert set(COMMANDS) == set(main.list_commands(None))  # commands are imported when asked for


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_exit_codes_of_every_command(command, paths):
    good, broken, missing, directory = (fill(a, paths) if a else None for a in COMMANDS[command])
    if good:
        assert invoke(*good, input="q\n").exit_code == 0
    if broken:
        result = invoke(*broken)
        assert result.exit_code == 1, result.stderr
        assert "error[E200]: unknown name `y`" in result.stderr
    for args in (missing, directory):
        if args:
            result = invoke(*args)
            assert result.exit_code == 2, (args, result.stderr)
            assert result.stderr.strip(), "a usage error says what is wrong"
    assert invoke(*(good or broken), "--no-such-option").exit_code == 2


@pytest.mark.parametrize("args, message", [
    (["view", "{broken_log}"], "error[E200]: unknown name `y`"),
    (["view", "{log}", "--rules", "{broken}"], "the log's parameters do not fit"),
])
def test_view_of_a_log_that_its_rules_do_not_take(args, message, paths):
    result = invoke(*fill(args, paths))
    assert result.exit_code == 1
    assert message in result.stderr


def test_view_of_a_log_that_does_not_fit_its_rules(paths, tmp_path):
    data = json.loads(paths["log"].read_text(encoding="utf-8"))
    log = tmp_path / "changed.json"
    log.write_text(json.dumps({**data, "players": 9}), encoding="utf-8")
    result = invoke("view", log)
    assert result.exit_code == 1
    assert "the log's player count does not fit" in result.stderr


def test_test_and_graph_read_files_as_the_other_commands_do(paths, tmp_path):
    """A byte-order mark is accepted; bytes that are not UTF-8 are a positioned E002 (exit 1)."""
    race_bom = tmp_path / "bom.rules"
    race_bom.write_bytes(b"\xef\xbb\xbf" + paths["race"].read_bytes())
    bom_test = tmp_path / "bom.test.rules"
    bom_test.write_bytes(b"\xef\xbb\xbf" + SCENARIOS.format(rules="bom.rules").encode())
    assert invoke("test", bom_test).exit_code == 0
    assert invoke("graph", race_bom).exit_code == 0
    latin = tmp_path / "latin.rules"
    latin.write_bytes(b'game "Caf\xe9"\n')
    latin_test = tmp_path / "latin.test.rules"
    latin_test.write_text(SCENARIOS.format(rules="latin.rules"), encoding="utf-8")
    for args in (["graph", latin], ["test", latin_test]):
        result = invoke(*args)
        assert result.exit_code == 1, args
        assert f"{latin}:1:10: error[E002]: the file is not UTF-8 text" in result.stderr


@pytest.mark.parametrize("command", ["run", "simulate", "verify", "play"])
def test_parameters_and_player_counts_are_usage_errors(command, paths):
    race = str(paths["race"])
    for extra, message in (
            (["--set", "gaol=3"], "error: unknown parameter 'gaol' (parameters: goal); did you mean `goal`?"),
            (["--set", "goal=1", "--set", "goal=2"],
             "error: --set goal is given twice (goal=1 and goal=2); give it once"),
            (["--players", "9"], "error: Race is for 2 to 4 players, not 9 (use --players)")):
        result = invoke(command, race, *extra)
        assert result.exit_code == 2
        assert result.stderr.strip() == message


def test_check_exits_2_when_a_file_is_missing_even_beside_a_broken_one(paths):
    result = invoke("check", paths["broken"], paths["missing"], paths["race"])
    assert result.exit_code == 2
    assert f"{paths['missing']}: error[E001]: no such rules file: {paths['missing']}" in result.stderr
    assert "error[E200]" in result.stderr
    assert result.stdout == f"ok: {paths['race']} (Race)\n"


def test_replay_of_a_log_that_does_not_fit_its_rules(paths, tmp_path):
    data = json.loads(paths["log"].read_text(encoding="utf-8"))
    for change, message in (({"players": 9}, "the log's player count does not fit"),
                            ({"params": {"goal": "many"}}, "the log's parameters do not fit")):
        log = tmp_path / "changed.json"
        log.write_text(json.dumps({**data, **change}), encoding="utf-8")
        result = invoke("replay", log)
        assert result.exit_code == 1
        assert message in result.stderr
        assert "--players" not in result.stderr  # replay has no such option


def test_replay_with_a_missing_rules_file_is_a_usage_error(paths):
    result = invoke("replay", paths["log"], "--rules", paths["missing"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {paths['missing']} does not exist (the rules of {paths['log']}; use --rules)\n"


def test_replay_of_a_file_that_is_not_utf8(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "ruledsl-log", "rules": "caf\xe9"}')
    result = invoke("replay", bad)
    assert result.exit_code == 2
    assert result.stderr == f"error: {bad} is not a game log: it is not UTF-8 text (byte 0xe9 at offset 39)\n"


def test_replay_accepts_a_byte_order_mark(paths):
    text = paths["log"].read_text(encoding="utf-8")
    paths["log"].write_text("\ufeff" + text, encoding="utf-8")
    result = invoke("replay", paths["log"], "-q")
    assert result.exit_code == 0 and result.stdout.startswith("ok: ")


def test_an_unwritable_output_file_is_a_usage_error(paths, tmp_path):
    result = invoke("run", paths["race"], "--log", tmp_path / "no" / "dir" / "x.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot write the log ")


def test_an_internal_error_exits_3_with_one_line(paths, monkeypatch):
    import ruledsl.cli.games

    def boom(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(ruledsl.cli.games, "play_game", boom)
    monkeypatch.delenv("RULEDSL_DEBUG", raising=False)
    result = invoke("run", paths["race"])
    assert result.exit_code == 3
    assert result.stderr == ("error: internal error in ruledsl: ZeroDivisionError: a bug "
                             "(set RULEDSL_DEBUG=1 to see the traceback)\n")


@pytest.mark.parametrize("args", [["simulate", "{race}", "-n", "3"], ["run", "{race}", "--json"],
                                  ["check", "{race}"], ["test", "{race_test}"], ["graph", "{race}"]])
def test_a_closed_pipe_ends_quietly(args, paths):
    """`ruledsl simulate ... | head -1`: the reader goes away; no error message, exit 141 like other tools."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    reader_gone = subprocess.Popen([sys.executable, "-m", "ruledsl", *fill(args, paths)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    reader_gone.stdout.close()  # nobody reads the output
    stderr = reader_gone.stderr.read().decode()
    assert reader_gone.wait(timeout=60) == 141
    assert stderr == ""


@pytest.mark.parametrize("command", ["run", "simulate", "play", "view"])
@pytest.mark.parametrize("bot, message", [
    ("clever", "unknown bot 'clever'"),
    ("ismcts:iterations=0", "setting 'iterations' must be a finite number of at least 1"),
    ("greedy:depth=3", "bot 'greedy' has no setting 'depth'"),
])
def test_a_bad_bot_is_a_usage_error(command, bot, message, paths):
    result = invoke(command, paths["race"], "--bot", bot)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"error: --bot {bot}: ") and message in result.stderr
    assert result.stdout == ""


def _ruledsl(args, paths, **kwargs):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-m", "ruledsl", *fill(args, paths)], env=env,
                            stderr=subprocess.PIPE, **kwargs)


@pytest.mark.parametrize("args", [["check", "{race}"], ["run", "{race}"]])
def test_a_closed_stdout_is_a_usage_error_with_one_line(args, paths):
    """`ruledsl run x.rules >&-`: nowhere to write; exit 2 with a reason, no traceback."""
    closed = _ruledsl(args, paths, preexec_fn=lambda: os.close(1))
    stderr = closed.stderr.read().decode()
    assert closed.wait(timeout=60) == 2
    assert stderr == "error: cannot write the output: standard output is closed\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["check", "{race}"], ["run", "{race}"], ["simulate", "{race}", "-n", "3"]])
def test_a_full_device_is_a_usage_error_with_one_line(args, paths):
    """`ruledsl run x.rules > /dev/full`: the output cannot be written; exit 2, not an internal error."""
    with open("/dev/full", "w") as full:
        process = _ruledsl(args, paths, stdout=full)
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=60) == 2
    assert stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", [["simulate", "{race}", "-n", "1000000"],
                                  ["verify", "{race}", "--examples", "100000"]])
def test_ctrl_c_exits_130_with_one_line(args, paths):
    """Ctrl-C: the exit code of a tool stopped by SIGINT, one line, no traceback (not click's `Aborted!`)."""
    import signal
    import time

    # a shell without job control starts background commands with SIGINT ignored: give the child the
    # default handler, as a terminal's Ctrl-C finds it
    process = _ruledsl(args, paths, stdout=subprocess.PIPE,
                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)  # well inside the command: loading takes a fraction of that
    assert process.poll() is None, process.stderr.read().decode()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"{args[0]} went on for 60 s after Ctrl-C") from None
    stderr, stdout = err.decode(), out.decode()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr + stdout and "Aborted" not in stderr
    if args[0] == "verify":  # verify says what it had found so far, on stdout as its report
        assert "interrupted (Ctrl-C): what was found so far:" in stdout
    else:
        assert stderr.rstrip().endswith("interrupted")
