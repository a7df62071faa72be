"""`ruledsl verify` and `ruledsl replay`: exit codes, the replay file, and logs from `run --log`."""

import json
from pathlib import Path

from click.testing import CliRunner

from ruledsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
TROLLEY = ROOT / "games" / "trolley_car.rules"
ONE_ROUND = ("--set", "single_round=true")


def invoke(*args, cwd=None):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_verify_passes_on_a_sound_game():
    result = invoke("verify", ROOT / "games" / "tutorial_highlow.rules", "--examples", "5")
    assert result.exit_code == 0, result.output
    assert "  - conservation: every card is in exactly one zone after every step" in result.output
    assert "  - invariant short_pile: a full pile is taken at once" in result.output
    ok = next(i for i, line in enumerate(result.output.splitlines()) if line.startswith("ok: "))
    assert result.output.splitlines()[ok].startswith("ok: every check held in 5 games")
    # "ok" says what the games covered
    assert result.output.splitlines()[ok + 1].startswith("covered: moves offered ")


def test_verify_coverage_lists_what_the_games_reached_with_its_lines(monkeypatch):
    import ruledsl.cli.verify_replay as cli

    monkeypatch.setattr(cli, "VERIFY_PROGRESS_SECONDS", 0.0)  # a progress line after every game
    rules = ROOT / "games" / "tutorial_highlow.rules"
    result = CliRunner().invoke(main, ["verify", str(rules), "--examples", "3", "--coverage"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("coverage (file:line: what: how often the games reached it):")
    listed = lines[start + 1:lines.index(next(x for x in lines if x.startswith("ok: ")))]
    text = "\n".join(listed)
    source = rules.read_text(encoding="utf-8").splitlines()
    play = next(i for i, line in enumerate(source, 1) if "move play(" in line)
    trick = next(i for i, line in enumerate(source, 1) if line.startswith("trigger trick"))
    assert f"{rules}:{play}: move play (decision `turn`): offered" in text
    assert f"{rules}:{trick}: trigger trick: " in text
    assert "condition `" in text and "ran " in text
    # off a terminal, progress comes as plain lines on stderr, not a bar
    assert "verify: 1 of 3 games done" in result.stderr


def test_verify_failure_writes_a_replay_file_that_replay_reproduces(tmp_path, monkeypatch):
    text = TROLLEY.read_text(encoding="utf-8")
    old = "move draw where not empty(deck) {"
    assert old in text
    broken = tmp_path / "leaky.rules"
    broken.write_text(text.replace(old, "move peek where not empty(deck) and top(deck).rank == 13 {}\n    move draw where not empty(deck) {"), encoding="utf-8")
    out = tmp_path / "failure.json"
    result = invoke("verify", broken, "--examples", "10", *ONE_ROUND, "--out", out, "--shrink-seconds", "5")
    assert result.exit_code == 1
    assert "FAILED: hidden information: " in result.output
    assert f"replay file: {out}" in result.output
    log = json.loads(out.read_text(encoding="utf-8"))
    assert log["format"] == "ruledsl-log" and log["params"]["single_round"] is True
    assert log["failure"]["check"] == "hidden information"

    replayed = invoke("replay", out)
    assert replayed.exit_code == 1
    assert f"FAILED after move {len(log['moves'])}: hidden information" in replayed.output


def beside(tmp_path):
    """The game copied beside the log: a log's rules path is read only inside the log's folder tree."""
    rules = tmp_path / TROLLEY.name
    rules.write_text(TROLLEY.read_text(encoding="utf-8"), encoding="utf-8")
    return rules


def test_run_log_replays_cleanly(tmp_path):
    log = tmp_path / "game.json"
    run = invoke("run", beside(tmp_path), "--players", "3", "--seed", "4", *ONE_ROUND, "--json", "--log", log)
    assert run.exit_code == 0
    played = json.loads(run.output)
    result = invoke("replay", log, "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"ok: {played['length']} moves replayed, every check held; game over"
    assert lines[1].startswith(f"scores: {played['scores']}")


def test_replay_of_a_log_that_does_not_fit_the_rules(tmp_path):
    log = tmp_path / "game.json"
    invoke("run", beside(tmp_path), "--seed", "1", *ONE_ROUND, "--log", log)
    data = json.loads(log.read_text(encoding="utf-8"))
    data["moves"][1] = ["play", 200]
    log.write_text(json.dumps(data), encoding="utf-8")
    result = invoke("replay", log)
    assert result.exit_code == 1
    assert "does not fit" in result.output and "move 2 of the log, play(200), is not legal here" in result.output
    assert "Traceback" not in result.output


def test_replay_refuses_what_is_not_a_log(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"format\": \"something\"}", encoding="utf-8")
    result = invoke("replay", bad)
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {bad} is not a game log: its 'format' is not 'ruledsl-log'"
    missing = invoke("replay", tmp_path / "none.json")
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_verify_bad_player_count():
    result = invoke("verify", TROLLEY, "--players", "9")
    assert result.exit_code == 2
    assert result.output.strip() == "error: Trolley Car is for 2 to 6 players, not 9 (use --players)"


def test_a_long_failing_game_shows_its_first_and_last_moves(capsys):
    from ruledsl.cli.verify_replay import _echo_moves

    _echo_moves([f"move {i}" for i in range(1, 101)], keep=3)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["    1. move 1", "    2. move 2", "    3. move 3",
                     "  ... 94 moves not shown (all are in the replay file) ...",
                     "   98. move 98", "   99. move 99", "  100. move 100"]
