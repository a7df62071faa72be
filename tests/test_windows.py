"""Response windows (`respond NAME by p in DOMAIN ... { move ... }`): who is asked, in what order,
when the window closes, and that it passes the checker's and verify's rules like any loop."""

import random
import textwrap

import pytest

import ruledsl
from ruledsl import RulesError
from ruledsl.engine.table import in_window
from ruledsl.play.lookahead import after
from ruledsl.verify.checks import verify

CLAIMS = textwrap.dedent("""\
    game "Claims"
    players 2..4
    kind card { rank: 1..6  show "R{rank}" }
    cards 4 * card(rank: each) in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    zone pot: row public
    var claimed[player]: int = 0
    flow {
      shuffle deck
      for p in players { deal 2 from deck into hand[p] }
      turns from 0 until empty(hand[current]) {
        choose turn by current {
          move lay(c in hand[current]) { put c into pot }
        }
        respond claims by p in players where p != current {
          move claim where not empty(pot) and claimed[p] < 2 {
            put top(pot) into hand[p]
            claimed[p] += 1
          }
        }
      }
    }
    """)


def game():
    return ruledsl.loads(CLAIMS, "claims.rules")


def test_the_others_are_asked_in_seat_order_and_all_must_pass_in_a_row():
    s = game().new_game(players=3, seed=1)
    assert s.current_player == 0 and s.decision == "turn"
    s.apply(s.legal_moves()[0])
    # the window: player 1, then player 2; the current player stays 0
    assert (s.current_player, s.decision, s.current) == (1, "claims", 0)
    assert [m.name for m in s.legal_moves()] == ["claim", "pass"]
    s.apply(ruledsl.Move("pass", ()))
    assert s.current_player == 2
    s.apply(ruledsl.Move("claim", ()))
    # a claim starts the count again: player 0 is not asked, player 1 is asked again
    assert (s.current_player, s.decision) == (1, "claims")
    assert [m.name for m in s.legal_moves()] == ["pass"]  # the pot is empty: only pass, but still asked
    s.apply(ruledsl.Move("pass", ()))
    assert (s.current_player, s.decision) == (2, "claims")
    s.apply(ruledsl.Move("pass", ()))
    # every asked player passed in a row: the window is closed, the next turn begins
    assert (s.current_player, s.decision) == (1, "turn")


def test_a_window_keeps_verify_green():
    report = verify(game(), players=[2, 3], examples=3, shrink_seconds=0)
    assert report.ok, report


def test_a_window_cannot_name_a_move_pass():
    text = CLAIMS.replace("move claim where", "move pass where")
    with pytest.raises(RulesError) as e:
        ruledsl.loads(text, "claims.rules")
    assert "pass" in str(e.value)


def test_a_move_is_judged_past_the_windows_the_others_pass():
    """greedy's lookahead (`answers` above 0) lets the other players pass the windows a move opens,
    so every move of a decision is judged where play goes on, not one of them inside a window."""
    s = game().new_game(players=3, seed=1)
    for move in s.legal_moves():
        inside = after(s, move, random.Random(0), answer=0)
        assert in_window(inside) == "claims" and inside.current_player == 1  # answers=0: judged where it ends
        past = after(s, move, random.Random(0), answer=4)
        assert in_window(past) is None
        assert (past.current_player, past.decision) == (1, "turn")  # both others passed: the next turn
        assert past.cards_in("pot") == inside.cards_in("pot")  # nobody claimed
