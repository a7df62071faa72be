"""Long commands print their progress off a terminal too (a line every few seconds on stderr), and
nothing with --quiet; standard output keeps only the results."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.cli import progress as P

DATA = Path(__file__).parent / "data"
RACE = DATA / "race.rules"


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [*map(str, args)], catch_exceptions=False)


@pytest.fixture
def every_moment(monkeypatch):
    monkeypatch.setattr(P, "PROGRESS_SECONDS", 0.0)  # a line after every game, for the test


@pytest.mark.parametrize("command", [
    ["simulate", RACE, "--games", "3"],
    ["simulate", RACE, "--games", "3", "--json"],
    ["compare", RACE, RACE, "--games", "3"],
    ["tune", RACE, "--param", "goal=4..5", "--points", "2", "--games", "3"],
])
def test_progress_lines_off_a_terminal_and_none_when_quiet(every_moment, command):
    loud = invoke(*command)
    assert loud.exit_code == 0, loud.output
    lines = [line for line in loud.stderr.splitlines() if ": " in line and line.endswith(" s")]
    label = {"simulate": "simulate", "compare": "compare: base", "tune": "tune"}[command[0]]
    assert lines and lines[0].startswith(f"{label}: 1 ") and "game" in lines[0], loud.stderr
    assert lines[0] not in loud.stdout  # standard output: the results only
    quiet = invoke(*command, "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout == loud.stdout


def test_the_time_taken_reads_as_a_sentence():
    from ruledsl.cli.scale import throughput

    runner = CliRunner()
    with runner.isolation() as (out, err, *_):
        throughput(50, 2.54, 2, None)
        throughput(50, 2.54, 1, None)
    text = (err if err is not None else out).getvalue().decode()
    assert "50 games in 2.54 s on 2 processes: 20 games/s" in text
    assert "50 games in 2.54 s in one process: 20 games/s" in text


def test_verify_is_quiet_with_quiet(monkeypatch):
    from ruledsl.cli import common

    monkeypatch.setattr(common, "VERIFY_PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr("ruledsl.cli.verify_replay.VERIFY_PROGRESS_SECONDS", 0.0, raising=False)
    loud = invoke("verify", RACE, "--examples", "2")
    assert loud.exit_code == 0 and "verify: " in loud.stderr
    quiet = invoke("verify", RACE, "--examples", "2", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""
