"""verify's exploration, cycles, leaks through numbers and words, and missing shuffles.

Each planted fault is a small game under tests/data/ (its first lines say what is wrong); the
default run (:func:`ruledsl.verify.session.run`, what `ruledsl verify FILE` does) must find it
within its time budget, and the log it reports must replay to the fault.
"""

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.language.errors import RulesRuntimeError
from ruledsl.verify.canon import position_hash
from ruledsl.verify.checks import replay_log
from ruledsl.verify.explore import explore
from ruledsl.verify.session import run, small_params

DATA = Path(__file__).resolve().parent / "data"


def replays_to(game, failure):
    """The failure's log, replayed with every check, breaks the same check by its last move."""
    broken, made = replay_log(game, failure.to_log("planted.rules", game.params))
    assert broken is not None and broken.check == failure.check, broken
    assert made >= len(failure.moves) - 1  # a listed move that fails may show one position early
    return broken


def uniform_share(game, games: int, found) -> float:
    """The share of ``games`` games of uniformly random moves in which ``found(state)`` happens."""
    hits = 0
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_game(None, seed)
        try:
            while not s.is_over and not found(s):
                s.apply(rng.choice(s.legal_moves()))
            hits += bool(found(s))
        except RulesRuntimeError:
            hits += 1
    return hits / games


def test_a_cycle_behind_a_rare_sequence_is_found_with_its_shortest_log():
    game = ruledsl.load(DATA / "lock.rules")
    report = run(game)
    assert report.failure is not None and report.failure.check == "cycle", report.failure
    # the shortest way: six right presses, then the turn handed over and back
    assert report.failure.moves == [["press", 1], ["press", 2], ["press", 3], ["press", 4], ["press", 1],
                                    ["press", 2], ["hand_over"], ["hand_over"]]
    assert "after move 6 comes back after 2 more moves" in report.failure.message
    broken = replays_to(game, report.failure)
    assert "repeat them forever" in broken.message
    assert report.spaces[0].states > 6  # found by exploring the first deal


def test_random_play_opens_the_lock_in_under_one_game_in_a_hundred():
    game = ruledsl.load(DATA / "lock.rules")
    share = uniform_share(game, 3000, lambda s: s.legal_moves() and s.legal_moves()[0].name == "hand_over")
    assert share < 0.01


def test_a_dead_end_behind_a_rare_branch_is_found():
    game = ruledsl.load(DATA / "trapdoor.rules")
    assert uniform_share(game, 3000, lambda s: False) < 0.01
    report = run(game)
    assert report.failure is not None and report.failure.check == "runs", report.failure
    assert "must decide `climb` but has no legal move" in report.failure.message
    assert len(report.failure.moves) == 6
    replays_to(game, report.failure)


def test_exploration_exhausts_a_small_space_and_says_how_much_it_covered():
    text = (DATA / "lock.rules").read_text(encoding="utf-8").replace("move hand_over {}\n", "")
    game = ruledsl.loads(text, str(DATA / "lock.rules"))
    space, failure = explore(game, 2, 0)
    assert failure is None
    assert space.exhausted and space.states > 50 and space.depth >= 12 and space.ends > 0
    assert "(all of them)" in space.describe()
    small, failure = explore(game, 2, 0, max_states=10)
    assert failure is None and not small.exhausted and small.states == 10


def test_a_position_reached_two_ways_is_one_position():
    game = ruledsl.load(DATA / "lock.rules")
    a = game.replay(2, 0, [["press", 3], ["press", 4]])
    b = game.replay(2, 0, [["press", 4], ["press", 3]])
    assert a != b  # the states differ: their histories do
    assert position_hash(a) == position_hash(b)  # the positions do not


def test_a_rank_leaked_through_a_number_argument_is_found():
    game = ruledsl.load(DATA / "bury.rules")
    report = run(game, seconds=20)
    assert report.failure is not None and report.failure.check == "information flow", report.failure
    assert "move bury(" in report.failure.message and "a number, player or word" in report.failure.message
    replays_to(game, report.failure)
    # a card chosen from the hand, not a rank, is shown to the others as `bury(?)`: no leak
    text = (DATA / "bury.rules").read_text(encoding="utf-8")
    old = text[text.index("      move bury("):text.index("      move draw")]
    text = text.replace(old, "      move bury(c in hand[current]) {\n        put c into buried\n      }\n")
    assert run(ruledsl.loads(text, str(DATA / "bury.rules")), examples=6, seconds=10).ok


def test_a_suit_leaked_through_a_moves_words_is_found():
    game = ruledsl.load(DATA / "named.rules")
    report = run(game, seconds=20)
    assert report.failure is not None and report.failure.check == "information flow", report.failure
    assert "move name(" in report.failure.message
    replays_to(game, report.failure)


def test_a_missing_shuffle_is_found_and_a_shuffle_mends_it():
    game = ruledsl.load(DATA / "unshuffled.rules")
    report = run(game, seconds=10)
    assert report.failure is not None and report.failure.check == "random deal", report.failure
    assert report.failure.moves == []
    assert "the deal does not depend on the seed: a shuffle may be missing" in report.failure.message
    replays_to(game, report.failure)
    text = (DATA / "unshuffled.rules").read_text(encoding="utf-8").replace("flow {\n", "flow {\n  shuffle deck\n")
    assert run(ruledsl.loads(text, str(DATA / "unshuffled.rules")), examples=4, seconds=8).ok


def test_goofspiels_fixed_hands_are_no_missing_shuffle():
    from ruledsl.verify.deal import deal_finding

    game = ruledsl.load("games/goofspiel.rules")
    assert deal_finding(game, 2, 0) is None  # the hands are the same in every game; the prize deck is not


def test_small_parameters_are_the_low_ends_of_the_declared_ranges():
    assert small_params("games/tutorial_highlow.rules") == {"hand_size": 1, "trick_size": 2}
    assert small_params("games/tutorial_highlow.rules", {"hand_size": 4}) == {"trick_size": 2}
    assert small_params("games/uno.rules") == {}


def test_the_cli_explores_writes_a_replay_file_and_replay_stops_at_the_cycle(tmp_path):
    out = tmp_path / "lock.json"
    result = CliRunner().invoke(main, ["verify", str(DATA / "lock.rules"), "--explore", "--out", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "FAILED: cycle: " in result.output and "8 moves" in result.output
    again = CliRunner().invoke(main, ["replay", str(out), "--rules", str(DATA / "lock.rules")],  # out lies elsewhere
                               catch_exceptions=False)
    assert again.exit_code == 1 and "FAILED after move 8: cycle" in again.output


def test_the_cli_with_small_parameters_says_what_it_explored(tmp_path):
    result = CliRunner().invoke(main, ["verify", "games/tutorial_highlow.rules", "--small", "--explore",
                                       "--seconds", "4"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "explored: 2 players, seed 0 (hand_size=1, trick_size=2): " in result.output
    assert "ok: every check held in every position explored" in result.output


def test_ctrl_c_stops_at_once_and_prints_what_was_found(monkeypatch):
    import ruledsl.verify.session as session

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "verify", interrupted)
    result = CliRunner().invoke(main, ["verify", str(DATA / "race.rules"), "--seconds", "2"],
                                catch_exceptions=False)
    assert result.exit_code == 130, result.output
    assert "interrupted (Ctrl-C): what was found so far:" in result.output
    assert "explored: 2 players, seed 0" in result.output


@pytest.mark.parametrize("name", ["tutorial_highlow", "goofspiel"])
def test_games_explore_clean(name):
    game = ruledsl.load(f"games/{name}.rules")
    report = run(game, examples=3, seconds=12)
    assert report.ok, report.failure


@pytest.mark.parametrize("phase", ["exploring", "random games"])
def test_a_ctrl_c_that_python_drops_still_stops_the_run(phase):
    """Python only prints a KeyboardInterrupt raised inside a garbage-collector callback (hypothesis
    keeps one) and goes on; `ruledsl verify` once ran on after such a Ctrl-C. The press is noted by
    the handler and the run stops at its next tick, in either phase, with what it found so far."""
    import signal

    game = ruledsl.load(DATA.parent.parent / "games" / "trolley_car.rules")
    pressed = []

    def progress(report):
        if report.phase.startswith(phase) and not pressed:
            pressed.append(report.phase)
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:
                pass  # dropped, as inside a gc callback
    # the run notes a press only under Python's own handler (it leaves any other alone): start from it,
    # whatever an earlier test in this process or a library it loaded left behind
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        report = run(game, players=[2], examples=None, seconds=40, progress=progress)
        assert pressed and report.interrupted
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's own handler is back
    finally:
        signal.signal(signal.SIGINT, previous)
