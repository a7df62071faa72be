"""Turn control inside `turns`: `next turn p` and `final round` (docs/language.md §4.11.1, §4.11.2)."""

import random
import textwrap
from pathlib import Path

import pytest

import ruledsl
import step_interpreter
from rules_text import MINI, diagnostics

DATA = Path(__file__).resolve().parent / "data"

BASE = MINI + """\
var total[player]: int = 0
"""


errors = diagnostics


def test_next_turn_and_final_round_parse():
    game = ruledsl.loads(BASE + textwrap.dedent("""\
        flow {
          turns from 0 until empty(deck) {
            choose turn by current {
              move draw { put top(deck) into hand[current]  next turn current }
              move stop { final round }
            }
          }
        }
        """), "mini.rules")
    assert game.new_game(2, 0).decision == "turn"


def test_next_turn_outside_turns_is_an_error():
    (d,) = errors(BASE + "flow {\n  next turn 1\n}\n")
    assert (d.code, d.line, d.column) == ("E206", 9, 3)
    assert d.message == "`next turn` is not inside `turns` here: there is no turn to pass"
    assert d.hint == ("use `next turn` in the body of `turns from ... until ... { ... }`, "
                      "or in a procedure called there")


def test_final_round_outside_turns_is_an_error():
    (d,) = errors(BASE + "flow {\n  repeat 2 times { final round }\n}\n")
    assert (d.code, d.line, d.column) == ("E206", 9, 20)
    assert d.message == "`final round` is not inside `turns` here: there is no turn to pass"


def test_turn_control_in_a_trigger_is_an_error():
    (d,) = errors(BASE + textwrap.dedent("""\
        trigger out when empty(deck) { final round }
        flow { turns from 0 until empty(deck) { choose t by current { move draw { put top(deck) into hand[current] } } } }
        """))
    assert (d.code, d.line) == ("E206", 8)
    assert d.message == "a trigger cannot use `final round`: it steers the turns of the flow"
    assert d.hint == "set a variable in the trigger and act on it in the turn"


def test_a_procedure_with_next_turn_called_outside_turns_is_an_error():
    found = errors(BASE + textwrap.dedent("""\
        procedure again() { next turn current }
        flow {
          again()
          turns from 0 until empty(deck) {
            choose t by current { move draw { put top(deck) into hand[current]  again() } }
          }
        }
        """))
    assert [(d.code, d.line) for d in found] == [("E206", 10)]
    assert found[0].message == "`again` uses `next turn` (line 8), but it is called outside `turns` here"
    assert found[0].hint == "call it from the body of `turns from ... until ... { ... }`"


def test_next_turn_names_a_player():
    (d,) = errors(BASE + textwrap.dedent("""\
        flow {
          turns from 0 until empty(deck) {
            choose t by current { move draw(c in deck) { put c into hand[current]  next turn c } }
          }
        }
        """))
    assert d.code == "E202"
    assert "the player who moves next" in d.message


JUMPS = BASE + textwrap.dedent("""\
    var order: int = 0
    var seen[player]: int = 0
    flow {
      turns from 0 until order >= 6 {
        order += 1
        seen[current] = order
        choose t by current {
          move go(q in players) { next turn q }
          move on {}
          move last { final round }
        }
      }
    }
    """)


def test_next_turn_gives_the_turn_to_the_named_player_then_the_turn_goes_on_from_them():
    state = ruledsl.loads(JUMPS, "mini.rules").new_game(4, 0)
    state.apply(state.legal_moves()[2])  # go(player 2)
    assert state.current_player == 2
    state.apply(next(m for m in state.legal_moves() if m.name == "on"))
    assert state.current_player == 3


def test_final_round_gives_every_player_one_more_turn_then_ends():
    state = ruledsl.loads(JUMPS, "mini.rules").new_game(3, 0)
    state.apply(next(m for m in state.legal_moves() if m.name == "on"))     # player 0
    state.apply(next(m for m in state.legal_moves() if m.name == "last"))   # player 1 starts it
    whose = []
    while not state.is_over:
        whose.append(state.current_player)
        state.apply(next(m for m in state.legal_moves() if m.name == "last"))  # again: no effect
    assert whose == [2, 0, 1]


def test_next_turn_to_a_player_who_left_goes_to_the_next_one_still_in():
    game = ruledsl.loads(BASE + textwrap.dedent("""\
        var n: int = 0
        flow {
          leave 1
          turns from 0 until n >= 3 {
            n += 1
            choose t by current { move go { next turn 1 } }
          }
        }
        """), "mini.rules")
    state = game.new_game(3, 0)
    state.apply(state.legal_moves()[0])
    assert state.current_player == 2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_generated_flow_plays_turn_control_as_the_steps_do(n):
    game = ruledsl.load(DATA / "lead.rules")
    for seed in range(3):
        step_interpreter.play_both_ways(game, n, seed)
