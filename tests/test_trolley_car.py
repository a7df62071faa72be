"""Trolley Car: the tests of games/trolley_car.rules that need Python.

Every rule sentence of the source text (shared/seeds/000_38162791cb3f69f3.txt)
that a position can show is tested by a scenario in the language, in
games/trolley_car.test.rules (and games/trolley_car_bet.test.rules for the
variant); docs/games/trolley_car.md maps the sentences to them. What stays
here needs Python: player counts the game refuses, the card universe, deals
over many seeds and player counts, what another player sees, and a whole
match played to its end.
"""

from __future__ import annotations

import collections

import pytest

import ruledsl
from conftest import TROLLEY, colour_of, load, rank_of


def test_intro_game_is_for_2_to_6_players(trolley):
    for n in range(2, 7):
        assert trolley.new_game(players=n, seed=1).decision == "declare"
    for n in (1, 7):
        with pytest.raises(ruledsl.ParameterError):
            trolley.new_game(players=n, seed=1)


def test_components_two_standard_52_card_decks(trolley):
    s = trolley.new_game(players=2, seed=1)
    labels = s.program.card_labels
    assert len(labels) == 104
    counts = collections.Counter(labels)
    assert len(counts) == 52 and set(counts.values()) == {2}
    assert sum(1 for label in labels if colour_of(label) == "red") == 52


@pytest.mark.parametrize("players", range(2, 7))
def test_setup1_dealer_shuffles_both_decks_and_deals_15_cards_each(trolley, players):
    s = trolley.new_game(players=players, seed=11)
    hands = [s.cards_in(f"hand[{p}]") for p in range(players)]
    assert [len(h) for h in hands] == [15] * players
    # two start cards are on the board, the rest is the deck
    assert len(s.cards_in("deck")) == 104 - 15 * players - 2
    assert all(len(where) == 1 for where in s.card_locations().values())
    # shuffled: another seed deals other hands
    other = trolley.new_game(players=players, seed=12)
    assert [other.cards_in(f"hand[{p}]") for p in range(players)] != hands


@pytest.mark.parametrize("seed", range(20))
def test_setup2_start_cards_one_red_one_black_same_colour_ones_go_back(trolley, seed):
    s = trolley.new_game(players=3, seed=seed)
    red, black = s.cards_in("line[red]"), s.cards_in("line[black]")
    assert colour_of(red[0]) == "red" and colour_of(black[0]) == "black"
    assert red[1:] == [None] * 15 and black[1:] == [None] * 15
    assert s.cards_in("turned") == []  # the same-colour cards went back into the deck
    assert len(s.cards_in("deck")) == 104 - 45 - 2
    assert s.get_var("rank[red]") == rank_of(red[0]) and s.get_var("rank[black]") == rank_of(black[0])


@pytest.mark.parametrize("seed", range(12))
def test_setup2_deal_again_when_no_card_of_the_other_colour_is_left(seed):
    # 6 x 17 = 102 cards dealt: two remain, and half the time they share a colour
    s = load(TROLLEY, single_round=True, hand_size=17).new_game(players=6, seed=seed)
    assert colour_of(s.cards_in("line[red]")[0]) == "red"
    assert colour_of(s.cards_in("line[black]")[0]) == "black"
    assert s.cards_in("deck") == [] and s.cards_in("turned") == []
    assert all(len(where) == 1 for where in s.card_locations().values())


def test_setup5_players_see_the_declarations_made_before_theirs(trolley):
    s = trolley.new_game(players=3, seed=4)
    pick = next(m for m in s.legal_moves() if m.name == "declare")
    s.apply(pick)
    view = s.view(2)
    assert s.current_player == 2
    assert view["zones"]["declared[1]"] == [s.card_label(pick.args[0])]
    assert set(view["zones"]["hand[1]"]) == {"?"}  # but not the hand


def test_sequence_a_match_has_one_round_per_dealer(trolley_match):
    s = trolley_match.new_game(players=3, seed=21)
    first_declarers, dealers = [], []
    previous = None
    while not s.is_over:
        if s.decision == "declare" and previous != "declare":
            first_declarers.append(s.current_player)
            dealers.append(s.get_var("dealer"))
        previous = s.decision
        s.apply(s.legal_moves()[0])
        assert len(s.moves) < 5000
    assert dealers == [0, 1, 2]
    assert first_declarers == [1, 2, 0]
    assert s.finding is None
