"""Moves that take a set of cards (`move m(cs subset of ZONE) where COND`): offered once, built card by
card inside one decision, `done` once the set is valid; the checker's errors; verify stays green."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError
from ruledsl.verify import verify

STRIKES = textwrap.dedent("""\
    game "Strikes"
    players 2..3
    limit 500 moves
    kind card { rank: 1..6  show "R{rank}" }
    cards 4 * card(rank: each) in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    zone pile: pile public
    var hits[player]: int = 0
    define strength(c) = c.rank
    flow {
      shuffle deck
      for p in players { deal 5 from deck into hand[p] }
      turns from 0 until empty(deck) {
        choose turn by current {
          move attack(cs subset of hand[current]) where sum(strength(c) for each c in cs) >= 8 {
            for c in cs { put c into pile }
            hits[current] += 1
          }
          move draw { put top(deck) into hand[current] }
        }
      }
    }
    """)


def game(text=STRIKES):
    return ruledsl.loads(text, "strikes.rules")


def test_a_set_is_offered_once_and_built_card_by_card():
    s = game().new_game(players=2, seed=3)
    assert [m.name for m in s.legal_moves()] == ["attack", "draw"]  # one listing, not one per subset
    s.apply(ruledsl.Move("attack", ()))
    assert (s.decision, s.current_player) == ("attack", 0)
    hand = [m.args[0] for m in s.legal_moves() if m.name == "add"]
    assert len(hand) == 5 and "done" not in [m.name for m in s.legal_moves()]
    ranks = {c: int(s.describe(ruledsl.Move("add", (c,)))[len("add(R"):-1]) for c in hand}
    chosen, picked = 0, []
    for c in sorted(hand, key=ranks.get, reverse=True):
        s.apply(ruledsl.Move("add", (c,)))
        chosen += ranks[c]
        picked.append(c)
        names = [m.name for m in s.legal_moves()]
        assert ("done" in names) == (chosen >= 8)  # done once the set is valid
        assert ruledsl.Move("add", (c,)) not in s.legal_moves()  # a card is added once
        if chosen >= 8:
            break
    s.apply(ruledsl.Move("done", ()))
    assert s.decision == "turn" and s.current_player == 1
    assert s.get_var("hits[0]") == 1
    assert sorted(s.cards_in("pile")) == sorted(s.card_label(c) for c in picked)  # the whole set, played at once


def test_a_set_move_is_not_offered_when_even_the_whole_zone_fails():
    text = STRIKES.replace(">= 8", ">= 100")
    s = game(text).new_game(players=2, seed=3)
    assert [m.name for m in s.legal_moves()] == ["draw"]


def test_a_set_beside_other_parameters_is_an_error():
    text = STRIKES.replace("move attack(cs subset of hand[current])",
                           "move attack(cs subset of hand[current], q in players)")
    with pytest.raises(RulesError) as e:
        game(text)
    assert "takes a set of cards beside other parameters" in str(e.value)
    assert str(e.value).count("error[") == 1  # no follow-on errors about `cs`


def test_a_set_in_a_choice_made_together_needs_a_condition():
    """Chosen together, a set is complete as soon as its condition holds (tests/test_together.py): it needs one."""
    text = STRIKES.replace("choose turn by current {", "choose turn by each q in players {").replace(
        "hand[current]) where", "hand[q]) where").replace("hits[current] += 1", "hits[q] += 1")
    state = game(text).new_game(2, 1)
    assert state.decision == "turn"  # with a condition: accepted
    with pytest.raises(RulesError) as e:
        game(text.replace(" where sum(strength(c) for each c in cs) >= 8", ""))
    message = str(e.value)
    assert "E206" in message and "choose turn by each" in message and "takes a set of cards" in message
    assert message.startswith("strikes.rules:16:")  # the position of `cs subset of ...`
    assert message.count("error[") == 1  # no follow-on errors about `cs`


def test_set_moves_keep_verify_green():
    report = verify(game(), players=[2, 3], examples=3, shrink_seconds=0)
    assert report.ok, report
