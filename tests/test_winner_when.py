"""`winner(p) when CONDITION: ...`: a game that ends without the condition has no winners."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError

RACE = textwrap.dedent("""\
    game "Race"
    players 2..3
    param goal = 3
    param rounds = 4
    kind card { rank: 1..6  show "R{rank}" }
    cards 4 * card(rank: each) in deck
    zone deck: pile hidden
    var steps[player]: int = 0
    var turns_left: int = 0
    var finished: bool = false
    flow {
      turns_left = rounds * count(each p in players)
      turns from 0 until finished or turns_left == 0 {
        choose turn by current {
          move step { steps[current] += 1 }
          move rest {}
        }
        if steps[current] >= goal { finished = true }
        turns_left -= 1
      }
    }
    define score(p) = steps[p]
    winner(p) when finished: highest score(p)
    """)


def play(moves, **params):
    s = ruledsl.loads(RACE, "race.rules", params=params).new_game(players=2)
    for name in moves:
        s.apply(ruledsl.Move(name, ()))
    return s


def test_the_condition_holds_at_the_end_so_the_best_wins():
    s = play(["step", "rest"] * 2 + ["step"])
    assert s.is_over and s.winners == [0]


def test_a_game_ended_otherwise_has_no_winners():
    s = play(["rest", "step"] * 4, goal=5)
    assert s.is_over and s.scores == [0, 4]  # player 1 is ahead, but nobody reached the goal
    assert s.winners == []


def test_the_condition_is_about_the_game_not_a_player():
    with pytest.raises(RulesError) as e:
        ruledsl.loads(RACE.replace("winner(p) when finished", "winner(p) when steps[p] > 0"), "race.rules")
    assert "unknown" in str(e.value) or "`p`" in str(e.value)


def test_the_condition_must_be_true_or_false():
    with pytest.raises(RulesError) as e:
        ruledsl.loads(RACE.replace("winner(p) when finished", "winner(p) when turns_left"), "race.rules")
    assert "winner's condition" in str(e.value)


def test_bots_score_a_game_without_winners_as_nobody_winning():
    from ruledsl.play.botbase import rewards

    s = play(["rest", "step"] * 4, goal=5)
    assert rewards(s) == [0.0, 0.0]
    assert rewards(play(["step", "rest"] * 2 + ["step"])) == [1.0, 0.0]


def _scenario(tmp_path, body: str, rules: str = RACE):
    from ruledsl.scenarios.runner import load_scenarios

    (tmp_path / "race.rules").write_text(rules, encoding="utf-8")
    path = tmp_path / "race.test.rules"
    path.write_text('scenarios for "race.rules"\n' + textwrap.dedent(body), encoding="utf-8")
    loaded = load_scenarios(path)
    loaded.check()
    (scenario,) = loaded.scenarios
    return loaded.run(scenario)


def test_a_scenario_expects_a_game_that_ends_with_no_winners(tmp_path):
    outcome = _scenario(tmp_path, """\
        scenario nobody_reaches_the_goal {
          param goal = 5
          move rest, step, rest, step, rest, step, rest, step
          expect scores 0, 4
          expect winners none
        }""")
    assert outcome.status == "passed", outcome.message()


def test_expect_winners_none_fails_when_someone_won(tmp_path):
    outcome = _scenario(tmp_path, """\
        scenario the_goal_is_reached {
          move step, rest, step, rest, step
          expect winners none
        }""")
    assert outcome.status == "failed"
    assert "found: winners 0; scores 3, 0" in outcome.message()


def test_expect_winners_none_fails_while_the_game_goes_on(tmp_path):
    outcome = _scenario(tmp_path, "scenario early {\n  move rest\n  expect winners none\n}")
    assert outcome.status == "failed" and "the game goes on" in outcome.message()


def test_a_scenario_expects_several_winners(tmp_path):
    outcome = _scenario(tmp_path, """\
        scenario a_tie {
          param goal = 5
          move step, step, step, step, step, step, step, step
          expect winners 0, 1
        }""", RACE.replace("winner(p) when finished:", "winner(p):"))
    assert outcome.status == "passed", outcome.message()


def test_a_cooperative_condition_over_players_has_its_own_local_slots():
    # found by the fuzzer (--seed 0 --case mutation:17267): the condition was compiled after the number of
    # local slots was taken, so a flow with no locals of its own raised IndexError when the game ended
    game = ruledsl.loads('game "W"\nplayers 2..2\ninclude "standard.rules"\ncards standard52 in deck\n'
                         'zone deck: pile hidden\nzone hand[player]: row owner\n'
                         'flow { choose t by 0 { move stop {} } }\n'
                         'winner: all when all(each p in players where empty(hand[p]))\n', "w.rules")
    state = game.new_game(2, 0)
    state.apply(state.legal_moves()[0])
    assert state.over and state.winners == [0, 1]
