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
