"""The ruledsl command: exit codes, exact messages, JSON output, logs, and never a traceback."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
TROLLEY = str(ROOT / "games" / "trolley_car.rules")
# A short Trolley Car: one round with small hands.
SHORT = ("--set", "hand_size=5", "--set", "single_round=true")

RACE = (Path(__file__).parent / "data" / "race.rules").read_text(encoding="utf-8")

# Parses, but `y` names nothing.
BROKEN = """\
game "Broken"
players 2..4
zone deck: pile hidden
var x: int = y
flow {
  x = 1
}
"""

# The first decision has no legal move: a finding at run time.
STUCK = (Path(__file__).parent / "data" / "stuck.rules").read_text(encoding="utf-8")


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()  # click 8.2+: stderr is kept apart already


def invoke(*args):
    result = runner().invoke(main, [str(a) for a in args])
    # Never a traceback: the only exception click may see is the exit itself.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("race", RACE), ("broken", BROKEN), ("stuck", STUCK)):
        paths[name] = tmp_path / f"{name}.rules"
        paths[name].write_text(text, encoding="utf-8")
    return paths


# ---- check


def test_check_valid_files(files):
    result = invoke("check", TROLLEY, files["race"])
    assert result.exit_code == 0
    assert result.stdout == f"ok: {TROLLEY} (Trolley Car)\nok: {files['race']} (Race)\n"
    assert result.stderr == ""


def test_check_broken_file_prints_each_diagnostic_and_a_count(files):
    result = invoke("check", files["broken"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{files['broken']}:4:14: error[E200]: unknown name `y`"
    assert lines[1:3] == ["    var x: int = y", "                 ^"]
    assert lines[-1] == "1 error"
    assert result.stdout == ""


def test_check_counts_errors_over_many_files(files):
    result = invoke("check", files["race"], files["broken"])
    assert result.exit_code == 1
    assert result.stdout == f"ok: {files['race']} (Race)\n"
    assert result.stderr.splitlines()[-1] == "1 error in 1 of 2 files"


def test_check_syntax_only_skips_the_checker(files):
    result = invoke("check", "--syntax-only", files["broken"])
    assert result.exit_code == 0
    assert result.stdout == f"ok: {files['broken']} (Broken, syntax only)\n"


def test_check_syntax_error(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "X"\nplayers 2..4\nzone deck pile\n', encoding="utf-8")
    for args in (["check"], ["check", "--syntax-only"]):
        result = invoke(*args, bad)
        assert result.exit_code == 1
        assert result.stderr.splitlines()[0].startswith(f"{bad}:3:11: error[E100]: ")


def test_check_missing_file(tmp_path):
    missing = tmp_path / "nope.rules"
    result = invoke("check", missing)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == f"{missing}: error[E001]: no such rules file: {missing}"


def test_check_needs_a_file():
    result = invoke("check")
    assert result.exit_code == 2
    assert "Missing argument" in result.stderr


# ---- run


def test_run_json_has_the_game_and_is_deterministic():
    first = invoke("run", TROLLEY, "--players", 3, "--seed", 5, *SHORT, "--json")
    assert first.exit_code == 0, first.stderr
    data = json.loads(first.stdout)
    for key in ("game", "players", "seed", "params", "scores", "winners", "moves", "length", "finding"):
        assert key in data
    assert data["game"] == "Trolley Car" and data["players"] == 3 and data["seed"] == 5
    assert data["params"]["hand_size"] == 5 and data["params"]["single_round"] is True
    assert data["length"] == len(data["moves"]) > 0
    assert all(isinstance(m, list) and isinstance(m[0], str) for m in data["moves"])
    assert len(data["scores"]) == 3 and data["winners"] and data["finding"] is None
    again = invoke("run", TROLLEY, "--players", 3, "--seed", 5, *SHORT, "--json")
    assert again.stdout == first.stdout
    other = invoke("run", TROLLEY, "--players", 3, "--seed", 6, *SHORT, "--json")
    assert json.loads(other.stdout)["moves"] != data["moves"]


def test_run_json_moves_replay_through_the_api():
    data = json.loads(invoke("run", TROLLEY, "--players", 2, "--seed", 3, *SHORT, "--json").stdout)
    game = ruledsl.load(TROLLEY, params={"hand_size": 5, "single_round": True})
    state = game.replay(2, 3, data["moves"])
    assert state.is_over and state.scores == data["scores"] and state.winners == data["winners"]


def test_run_players_default_to_the_fewest(files):
    data = json.loads(invoke("run", files["race"], "--json").stdout)
    assert data["players"] == 2 and data["seed"] == 0


def test_run_plain_text(files):
    result = invoke("run", files["race"], "--seed", 1, "--bot", "first")
    assert result.exit_code == 0
    # first bots always score one point: the first player reaches 6 first.
    assert result.stdout == (
        "Race: 2 players, seed 1, 11 moves\n"
        "  player 0 (first): 6  winner\n"
        "  player 1 (first): 5\n"
        "winner: player 0\n"
        "(the highest score(p) wins)\n"
    )


def test_run_writes_a_log(files, tmp_path):
    log = tmp_path / "game.json"
    result = invoke("run", files["race"], "--players", 3, "--seed", 4, "--set", "goal=4", "--log", log)
    assert result.exit_code == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["format"] == "ruledsl-log" and data["version"] == 1
    assert data["rules"] == str(files["race"])
    assert (data["params"], data["players"], data["seed"]) == ({"goal": 4}, 3, 4)
    game = ruledsl.load(data["rules"], params=data["params"])
    state = game.replay(data["players"], data["seed"], data["moves"])
    assert state.is_over and state.scores == data["scores"] and state.winners == data["winners"]


def test_run_unwritable_log(files, tmp_path):
    result = invoke("run", files["race"], "--log", tmp_path / "no" / "such" / "dir.json")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write the log {tmp_path / 'no' / 'such' / 'dir.json'}: ")


# ---- simulate


def test_simulate_json(files):
    result = invoke("simulate", files["race"], "--games", 8, "--players", 3, "--seed", 1, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar off a terminal
    data = json.loads(result.stdout)
    for key in ("games", "players", "wins", "win_rate", "mean_scores", "mean_moves", "max_moves", "stopped"):
        assert key in data
    assert data["games"] == 8 and data["players"] == 3 and data["stopped"] == 0
    assert len(data["wins"]) == len(data["win_rate"]) == len(data["mean_scores"]) == 3
    # Every game has a winner; a tie counts for each tied winner.
    assert 8 <= sum(data["wins"]) <= 8 * 3
    assert data["win_rate"] == [w / 8 for w in data["wins"]]
    assert 0 < data["mean_moves"] <= data["max_moves"]
    again = invoke("simulate", files["race"], "--games", 8, "--players", 3, "--seed", 1, "--json")
    assert again.stdout == result.stdout


def test_simulate_plain_text(files):
    result = invoke("simulate", files["race"], "--games", 4, "--bot", "first")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Race: 4 games, 2 players, seed 0",
        "  player 0 (first): wins 4, win rate 1.000, mean score 6.00",
        "  player 1 (first): wins 0, win rate 0.000, mean score 5.00",
        "mean game length: 11.0 moves (longest 11)",
        "stopped at the move bound: 0 of 4",
        "games with a shared win: 0 (a shared win counts for each tied player)",
    ]


# ---- errors: one clear line, the right exit code, no traceback


@pytest.mark.parametrize("command", ["run", "simulate"])
@pytest.mark.parametrize("args, code, message", [
    (["--set", "goal"], 2, "error: --set takes NAME=VALUE (for example --set hand_size=12), not 'goal'"),
    (["--set", "gaol=3"], 2, "error: unknown parameter 'gaol' (parameters: goal); did you mean `goal`?"),
    (["--set", "goal=many"], 2, "error: parameter 'goal' takes a number, not 'many'"),
    (["--players", "9"], 2, "error: Race is for 2 to 4 players, not 9 (use --players)"),
    (["--players", "0"], 2, "error: Race is for 2 to 4 players, not 0 (use --players)"),
])
def test_bad_arguments(files, command, args, code, message):
    result = invoke(command, files["race"], *args)
    assert result.exit_code == code
    assert result.stderr == message + "\n"
    assert result.stdout == ""


@pytest.mark.parametrize("command", ["run", "simulate"])
def test_missing_file(tmp_path, command):
    result = invoke(command, tmp_path / "nope.rules")
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'nope.rules'} does not exist\n"


@pytest.mark.parametrize("command", ["run", "simulate"])
def test_broken_rules_file(files, command):
    result = invoke(command, files["broken"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{files['broken']}:4:14: error[E200]: unknown name `y`"
    assert lines[-1] == "1 error"


def test_rule_failing_in_play(files):
    result = invoke("run", files["stuck"], "--seed", 3)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{files['stuck']}:5:3: error[R001]: player 0 must decide `turn` but has no legal move"
    assert lines[-1] == (f"in the game (seed 3) after 0 moves; play it again with: "
                         f"ruledsl run {files['stuck']} --players 2 --seed 3")


def test_rule_failing_in_a_simulation_names_the_game(files):
    result = invoke("simulate", files["stuck"], "--games", 3, "--json")
    assert result.exit_code == 1
    assert result.stdout == ""
    last = result.stderr.splitlines()[-1]
    assert last.startswith("in game 0 of the simulation (seed ")
    seed = int(last.split("(seed ")[1].split(")")[0])
    replay = invoke("run", files["stuck"], "--seed", seed)
    assert replay.exit_code == 1 and f"--seed {seed}" in replay.stderr


def test_unknown_option_is_a_usage_error(files):
    result = invoke("run", files["race"], "--speed", "3")
    assert result.exit_code == 2
    assert "Error: No such option" in result.stderr and "--speed" in result.stderr


# ---- the installed command and python -m ruledsl


def test_python_dash_m_and_the_installed_command(files):
    commands = [[sys.executable, "-m", "ruledsl"]]
    if shutil.which("ruledsl"):
        commands.append([shutil.which("ruledsl")])
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for cmd in commands:
        done = subprocess.run(cmd + ["run", str(files["race"]), "--seed", "2", "--json"],
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["game"] == "Race"
        bad = subprocess.run(cmd + ["run", str(files["broken"])], capture_output=True, text=True, env=env,
                             timeout=60)
        assert bad.returncode == 1
        assert "Traceback" not in bad.stderr
        assert bad.stderr.splitlines()[0] == f"{files['broken']}:4:14: error[E200]: unknown name `y`"


# ---- bots with settings


@pytest.mark.parametrize("command", ["run", "simulate"])
@pytest.mark.parametrize("bot, message", [
    ("clever", "error: --bot clever: unknown bot 'clever' (bots: first, greedy, ismcts, mcts, random)"),
    ("ismcts:iterations=0",
     "error: --bot ismcts:iterations=0: bot 'ismcts': setting 'iterations' must be a finite number of at least 1, "
     "not 0"),
    ("greedy:depth=3", "error: --bot greedy:depth=3: bot 'greedy' has no setting 'depth' (its settings: answers, samples)"),
])
def test_bad_bots_are_usage_errors(files, command, bot, message):
    result = invoke(command, files["race"], "--bot", bot)
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""


def test_search_bots_on_the_command_line(files):
    args = ("simulate", files["race"], "--games", 4, "--seed", 2, "--bot", "ismcts:iterations=20", "--bot", "random",
            "--json")
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["bots"] == ["ismcts:iterations=20", "random"]
    assert invoke(*args).stdout == result.stdout
    result = invoke("run", files["race"], "--bot", "greedy", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["bots"] == ["greedy", "greedy"]


def test_logs_and_json_name_the_moves_cards_and_run_says_what_wins(tmp_path):
    """A log's moves keep their numbers (replay reads them) and gain their words, with the cards' names."""
    rules = Path(__file__).resolve().parent.parent / "games" / "trolley_car.rules"
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["run", str(rules), "--seed", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("(the lowest score(p) wins)")
    data = json.loads(log.read_text(encoding="utf-8"))
    assert len(data["described"]) == len(data["moves"])
    game = ruledsl.load(rules)
    first = data["moves"][0]
    assert data["described"][0] == f"{first[0]}({game.program.card_labels[first[1]]})"  # declare(4♦), not declare(16)
    assert "♦" in log.read_text(encoding="utf-8") or "♣" in log.read_text(encoding="utf-8")  # not \\u escapes
    out = json.loads(CliRunner().invoke(main, ["run", str(rules), "--seed", "1", "--json"]).output)
    assert out["described"] == data["described"] and out["winner_order"] == "the lowest score(p) wins"
