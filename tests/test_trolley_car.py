"""Trolley Car: one scenario test for every rule sentence of the source text
(shared/seeds/000_38162791cb3f69f3.txt), played through games/trolley_car.rules.

Each test name says which sentence it covers; docs/games/trolley_car.md maps the
sentences to the rules file and to these tests. Positions are laid out with the
position editor on a real game (conftest.Table), then played with legal moves.
"""

from __future__ import annotations

import collections

import pytest

import ruledsl
from conftest import CROSSINGS, TROLLEY, Table, colour_of, load, past_declarations, rank_of

RED = sorted(f"{r}{s}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "♥♦")


def var(t: Table, name: str):
    return t.s.get_var(name)


def slot(t: Table, colour: str, index: int):
    return t.s.cards_in(f"line[{colour}]")[index]


def on_board(t: Table, colour: str) -> dict:
    """The occupied slots of a line's track: {slot: label}."""
    return {i: c for i, c in enumerate(t.s.cards_in(f"line[{colour}]")) if c is not None}


# ---------------------------------------------------------------------------
# Introduction and components
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Setting up the game
# ---------------------------------------------------------------------------

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


def test_setup1_hand_size_parameter_changes_the_deal():
    s = load(TROLLEY, single_round=True, hand_size=10).new_game(players=4, seed=3)
    assert [len(s.cards_in(f"hand[{p}]")) for p in range(4)] == [10] * 4
    assert len(s.cards_in("deck")) == 104 - 40 - 2


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


def test_setup3_red_card_on_the_red_start_space_of_a_16_space_loop(trolley):
    s = trolley.new_game(players=2, seed=5)
    line = s.cards_in("line[red]")
    assert len(line) == 16 and colour_of(line[0]) == "red"
    assert s.get_var("pos[red]") == 0 and s.get_var("start[red]") == 0


def test_setup4_black_card_on_the_black_start_space_of_a_16_space_loop(trolley):
    s = trolley.new_game(players=2, seed=5)
    line = s.cards_in("line[black]")
    assert len(line) == 16 and colour_of(line[0]) == "black"
    assert s.get_var("pos[black]") == 0 and s.get_var("start[black]") == 0


def test_setup3_4_start_space_and_loop_length_parameters():
    s = load(TROLLEY, single_round=True, loop_length=20, start_space=5).new_game(players=2, seed=5)
    for colour in ("red", "black"):
        line = s.cards_in(f"line[{colour}]")
        assert len(line) == 20
        assert colour_of(line[5]) == colour and sum(c is not None for c in line) == 1
        assert s.get_var(f"pos[{colour}]") == 5 and s.get_var(f"start[{colour}]") == 5


def test_board_the_lines_intersect_at_four_crossings(trolley):
    t = Table(trolley)
    shared = {}
    for red_slot in range(16):
        cid = t.take("2♥", "line[red]", red_slot)
        black = t.s.cards_in("line[black]")
        if "2♥" in black:
            shared[red_slot] = black.index("2♥")
        t.s.place(cid, "deck")
    assert shared == CROSSINGS


def test_setup5_declarations_start_right_of_dealer_and_go_in_turn(trolley):
    s = trolley.new_game(players=4, seed=2)
    assert s.get_var("dealer") == 0
    order = []
    while s.decision == "declare":
        order.append(s.current_player)
        s.apply("pass")
    assert order == [1, 2, 3, 0]


def test_setup5_declare_lays_one_card_of_the_hand_face_up_or_pass(trolley):
    s = trolley.new_game(players=3, seed=4)
    hand = s.cards_in("hand[1]")
    moves = s.legal_moves()
    assert sorted(s.card_label(m.args[0]) for m in moves if m.name == "declare") == sorted(hand)
    assert [m for m in moves if m.name != "declare"] == [ruledsl.Move("pass")]
    pick = next(m for m in moves if m.name == "declare")
    label = s.card_label(pick.args[0])
    s.apply(pick)
    assert s.cards_in("declared[1]") == [label]
    assert len(s.cards_in("hand[1]")) == 14
    # one declaration each: the next decision belongs to the next player
    assert s.decision == "declare" and s.current_player == 2


def test_setup5_players_see_the_declarations_made_before_theirs(trolley):
    s = trolley.new_game(players=3, seed=4)
    pick = next(m for m in s.legal_moves() if m.name == "declare")
    s.apply(pick)
    view = s.view(2)
    assert s.current_player == 2
    assert view["zones"]["declared[1]"] == [s.card_label(pick.args[0])]
    assert set(view["zones"]["hand[1]"]) == {"?"}  # but not the hand


# ---------------------------------------------------------------------------
# Goal of the game: end of a round and scoring
# ---------------------------------------------------------------------------

def test_goal_round_ends_when_a_player_plays_out_all_cards(trolley):
    t = Table(trolley, players=3)
    assert t.current == 1
    t.line("red", ["5♥"])
    t.line("black", ["9♣"])
    t.hand(1, ["6♥"])
    t.hand(2, ["K♠", "Q♠"])
    t.hand(0, ["2♣", "3♣", "9♠"])
    t.do("play(6♥)")
    assert t.s.is_over
    # one point per card in hand; red laid 2 cards, black 1, nobody declared
    assert t.s.scores == [3, 0, 2]


def test_goal_round_ends_when_deck_is_exhausted_and_nobody_can_play(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♥"])
    t.line("black", ["5♣", "6♣"])
    t.hand(0, ["K♠", "K♥"])
    t.hand(1, ["9♠", "9♥", "J♦"])
    t.empty_deck()
    assert t.moves() == ["pass"]
    t.do("pass")
    assert not t.s.is_over  # nobody can play, which the players find out by passing in turn
    t.do("pass")
    assert t.s.is_over
    assert t.s.scores == [2, 3]  # black laid more; nobody declared


def test_goal_deck_exhausted_but_another_player_can_play_so_play_goes_on(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♥"])
    t.line("black", ["5♣"])
    t.hand(0, ["4♥", "K♠"])
    t.hand(1, ["9♠", "9♥"])
    t.empty_deck()
    t.do("pass")
    assert not t.s.is_over and t.current == 0 and t.s.decision == "turn"


def test_goal_one_point_per_card_in_hand_and_minus_3_for_declarers_of_the_line_with_most_cards(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["4♦", "5♥"])
    t.line("black", ["9♣"])
    t.hand(1, ["6♥"])
    t.hand(2, ["K♠", "Q♠"])
    t.hand(0, ["2♣", "3♣", "9♠"])
    t.declare(0, "K♦")   # red: the faster line
    t.declare(2, "10♣")  # black
    t.do("play(6♥)")
    assert t.s.is_over
    assert t.s.scores == [3 - 3, 0, 2]
    assert t.s.winners == [0, 1]


def test_goal_line_with_most_cards_counts_set_aside_cards_and_negative_scores_are_allowed(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["4♦", "5♥"])
    t.line("black", ["9♣"])
    for label in ["2♠", "3♠", "4♠", "5♠"]:
        t.take(label, "aside[black]")
    t.hand(1, ["6♥"])
    t.hand(2, ["K♠", "Q♠"])
    t.hand(0, ["2♣", "3♣", "9♠"])
    t.declare(0, "K♦")
    t.declare(2, "10♣")
    t.do("play(6♥)")
    # red laid 3, black 1 on the board + 4 set aside = 5: black is faster
    assert t.s.scores == [3, 0, 2 - 3]
    assert t.s.winners == [2]


def test_goal_cards_at_crossings_count_for_the_line_that_laid_them(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["4♦", "5♥"])
    t.line("black", ["9♣"])
    # black cards standing in the red track at crossings red 4 (= black 1) and red 10 (= black 3)
    t.take("7♠", "line[black]", CROSSINGS[4])
    t.take("8♠", "line[black]", CROSSINGS[10])
    t.take("2♠", "aside[black]")
    t.hand(1, ["6♥"])
    t.hand(0, ["2♣"])
    t.declare(0, "3♣")
    t.do("play(6♥)")
    # red laid 3; black laid 9♣, 7♠, 8♠ and one set aside = 4: black wins
    assert t.s.scores == [1 - 3, 0]


def test_goal_tie_every_player_gets_minus_3(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["4♦", "5♥"])
    t.line("black", ["9♣", "10♣", "J♣"])
    t.hand(1, ["6♥"])
    t.hand(2, ["K♠", "Q♠"])
    t.hand(0, ["2♣", "3♣", "9♠"])
    t.declare(0, "K♦")
    t.do("play(6♥)")
    assert t.s.scores == [3 - 3, 0 - 3, 2 - 3]
    assert t.s.winners == [1]


def test_goal_player_with_fewest_points_wins(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["5♥"])
    t.line("black", ["9♣", "10♣"])
    t.hand(1, ["6♥"])
    t.hand(2, ["K♠"])
    t.hand(0, ["2♣", "3♣"])
    t.do("play(6♥)")  # red 2, black 2: a tie
    assert t.s.scores == [-1, -3, -2]
    assert t.s.winners == [1]


# ---------------------------------------------------------------------------
# Sequence of play
# ---------------------------------------------------------------------------

def test_sequence_play_begins_with_the_player_right_of_the_dealer(trolley):
    s = past_declarations(trolley.new_game(players=4, seed=9))
    assert s.decision == "turn" and s.current_player == 1  # dealer 0, next(dealer) = 1


def test_sequence_each_player_plays_at_most_one_card_then_play_proceeds_to_the_right(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["5♥"])
    t.line("black", ["5♣"])
    for p in range(3):
        t.hand(p, ["6♥", "4♦"] if p == 1 else ["K♠", "Q♠"] if p == 2 else ["9♥", "9♠"])
    t.deck_top(["2♠", "3♦"])
    t.do("play(6♥)")
    assert t.current == 2 and t.s.decision == "turn"  # one card, then the next player
    assert t.s.cards_in("hand[1]") == ["4♦"]
    t.do("draw")  # 2♠ fits nothing: kept, turn over
    t.do("keep")
    assert t.current == 0 and t.s.decision == "turn"
    t.do("draw")  # 3♦ fits nothing either (red is at 6)
    t.do("keep")
    assert t.current == 1  # round the table: 1, 2, 0, 1


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


def test_sequence_match_scores_add_up_over_the_rounds_and_lowest_total_wins(trolley_match):
    # round 1: dealer 0, player 1 plays out; red is faster, player 0 declared red
    t = Table(trolley_match, players=2)
    t.line("red", ["5♥"])
    t.line("black", ["9♣"])
    t.hand(1, ["6♥"])
    t.hand(0, ["2♣", "3♣"])
    t.declare(0, "K♦")
    t.do("play(6♥)")
    s = t.s
    assert not s.is_over
    assert s.scores == [2 - 3, 0]
    assert s.get_var("dealer") == 1
    assert s.decision == "declare" and s.current_player == 0  # right of the new dealer
    assert [len(s.cards_in(f"hand[{p}]")) for p in range(2)] == [15, 15]  # dealt afresh
    assert sum(c is not None for c in s.cards_in("line[red]")) == 1
    # round 2: dealer 1, player 0 begins and plays out; player 1 keeps 3 cards
    t = Table(s)
    assert t.current == 0
    t.line("red", ["5♥"])
    t.line("black", ["9♣"])
    t.hand(0, ["6♥"])
    t.hand(1, ["2♣", "3♣", "4♣"])
    t.do("play(6♥)")
    assert t.s.is_over
    assert t.s.scores == [-1 + 0, 0 + 3]
    assert t.s.winners == [0]


# ---------------------------------------------------------------------------
# Playing the game
# ---------------------------------------------------------------------------

def test_playing_red_cards_only_on_the_red_line_black_only_on_the_black(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["5♥", "5♠", "9♥", "9♠", "4♦", "10♣", "2♣"])
    t.hand(0, ["K♠"])
    assert t.labels() == sorted(["5♥", "4♦", "9♠", "10♣"])
    t.do("play(9♠)")
    assert slot(t, "black", 1) == "9♠" and slot(t, "red", 1) is None
    assert var(t, "pos[black]") == 1 and var(t, "rank[black]") == 9


def test_playing_card_goes_to_its_lines_next_space(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦", "6♦"], first=5)
    t.line("black", ["9♣"])
    t.hand(1, ["7♥", "2♣"])
    t.hand(0, ["K♠"])
    t.do("play(7♥)")
    assert on_board(t, "red") == {5: "5♦", 6: "6♦", 7: "7♥"}
    assert var(t, "pos[red]") == 7 and var(t, "rank[red]") == 7


@pytest.mark.parametrize("line_rank, fitting", [
    (7, ["6", "7", "8"]),
    (1, ["K", "A", "2"]),    # the Ace is next to both the King and the 2
    (13, ["Q", "K", "A"]),
    (2, ["A", "2", "3"]),
])
def test_playing_same_rank_or_at_most_one_rank_different_ace_next_to_king_and_two(trolley, line_rank, fitting):
    t = Table(trolley, players=2)
    t.line("black", ["9♣"])
    t.line("red", ["5♦"])
    t.s.set_var("rank[red]", line_rank)
    t.hand(1, [r for r in RED if r.endswith("♥")] + ["2♣"])
    t.hand(0, ["K♠"])
    assert t.labels() == sorted(f"{r}♥" for r in fitting)


def test_example_king_of_hearts_on_red_allows_kings_queens_and_aces_of_red(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["Q♦", "K♥"])
    t.line("black", ["5♣"])
    t.hand(1, RED + ["9♠", "J♣", "K♠", "A♣"])  # every red card once, and black cards that do not fit
    t.hand(0, ["2♣"])
    assert t.labels() == sorted(["K♥", "K♦", "Q♥", "Q♦", "A♥", "A♦"])


def test_drawing_is_allowed_instead_of_a_playable_card(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["6♥", "2♣"])
    t.hand(0, ["K♠"])
    assert "play(6♥)" in t.moves() and "draw" in t.moves()
    assert "pass" not in t.moves()


def test_drawing_a_playable_card_it_may_be_played_at_once(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣", "3♣"])
    t.hand(0, ["K♠"])
    t.deck_top(["6♥"])
    deck = len(t.s.cards_in("deck"))
    t.do("draw")
    assert t.s.decision == "drawn_card" and t.current == 1
    assert sorted(t.moves()) == ["keep", "play_drawn"]
    t.do("play_drawn")
    assert on_board(t, "red") == {0: "5♦", 1: "6♥"}
    assert sorted(t.s.cards_in("hand[1]")) == ["2♣", "3♣"]
    assert len(t.s.cards_in("deck")) == deck - 1
    assert t.current == 0 and t.s.decision == "turn"


def test_drawing_a_playable_card_it_may_be_kept(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣"])
    t.hand(0, ["K♠"])
    t.deck_top(["6♥"])
    t.do("draw")
    t.do("keep")
    assert sorted(t.s.cards_in("hand[1]")) == ["2♣", "6♥"]
    assert on_board(t, "red") == {0: "5♦"}
    assert t.current == 0 and t.s.decision == "turn"


def test_drawing_an_unplayable_card_it_is_added_to_the_hand(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣"])
    t.hand(0, ["K♠"])
    t.deck_top(["Q♥"])
    t.do("draw")
    assert t.s.decision == "drawn_card" and t.moves() == ["keep"]  # asked all the same, but it cannot be played
    t.do("keep")
    assert sorted(t.s.cards_in("hand[1]")) == ["2♣", "Q♥"]
    assert t.current == 0 and t.s.decision == "turn"


def test_drawing_with_an_empty_deck_a_player_who_can_play_must_play(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["6♥", "10♠", "2♣"])
    t.hand(0, ["K♠"])
    t.empty_deck()
    assert sorted(t.moves()) == ["play(10♠)", "play(6♥)"]


# ---------------------------------------------------------------------------
# Crossings
# ---------------------------------------------------------------------------

def test_crossing_example_black_controls_it_red_passes_over_and_takes_rank_7(trolley):
    # Red: J♦ 10♦ J♥ Q♦ K♥ on red 13,14,15,0,1; next space red 2 = black 11.
    # Black: 7♠ 8♣ 9♠ 9♠ 8♣ on black 6..10; next space black 11.
    t = Table(trolley, players=2)  # Ottokar is player 1, Babu player 0
    t.line("red", ["J♦", "10♦", "J♥", "Q♦", "K♥"], first=13)
    t.line("black", ["7♠", "8♣", "9♠", "9♠", "8♣"], first=6)
    assert (var(t, "pos[red]") + 1) % 16 == 2 and var(t, "pos[black]") + 1 == CROSSINGS[2]
    t.hand(1, ["7♠", "2♦"])
    t.hand(0, ["8♥", "6♦", "7♥", "9♥", "5♦", "K♦", "Q♥", "A♦", "4♣"])
    assert "play(7♠)" in t.moves()
    t.do("play(7♠)")  # Ottokar extends the black line into the intersection
    assert slot(t, "black", 11) == "7♠" and slot(t, "red", 2) == "7♠"
    assert var(t, "pos[black]") == 11 and var(t, "rank[black]") == 7
    # no red card goes into the intersection: red passes over it with rank 7
    assert var(t, "pos[red]") == 2 and var(t, "rank[red]") == 7
    assert t.current == 0
    assert t.labels() == ["6♦", "7♥", "8♥"]  # a red 6, 7 or 8
    t.do("play(8♥)")  # Babu continues the red line after the intersection
    assert slot(t, "red", 3) == "8♥" and slot(t, "red", 2) == "7♠"
    assert var(t, "pos[red]") == 3 and var(t, "rank[red]") == 8


def test_crossing_a_line_reaching_a_taken_crossing_passes_over_it_at_once(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♥"])
    t.line("black", ["K♠"])
    t.take("4♣", "line[black]", CROSSINGS[2])  # black took red 2 earlier
    t.hand(1, ["6♥", "2♣"])
    t.hand(0, ["3♦", "4♥", "5♦", "6♦", "7♥", "9♣"])
    t.do("play(6♥)")
    assert slot(t, "red", 1) == "6♥"
    assert var(t, "pos[red]") == 2 and var(t, "rank[red]") == 4  # the rank, not the colour
    assert t.labels() == ["3♦", "4♥", "5♦"]
    t.do("play(5♦)")
    assert slot(t, "red", 3) == "5♦" and slot(t, "red", 2) == "4♣"


def test_crossing_rank_taken_is_kept_after_the_crossing_card_is_set_aside(trolley):
    t = Table(trolley, players=2)
    black = ["2♠", "3♠", "4♠", "5♠", "6♠", "7♣", "8♣", "9♣", "10♣", "J♣", "Q♣", "7♠", "8♠", "9♠", "10♠"]
    t.line("black", black)  # black 0..14; 7♠ stands on black 11 = red 2
    t.line("red", ["5♥", "6♥"])
    t.at("red", pos=2, rank=7, start=0)  # red has passed over the 7♠
    t.hand(1, ["J♠", "2♦"])
    t.hand(0, ["8♦", "5♦", "K♣"])
    t.do("play(J♠)")  # black reaches its start: its cards but the J♠ are set aside
    assert "7♠" in t.s.cards_in("aside[black]") and slot(t, "red", 2) is None
    assert on_board(t, "black") == {15: "J♠"} and var(t, "pos[black]") == 15
    assert var(t, "pos[red]") == 2 and var(t, "rank[red]") == 7
    assert t.labels() == ["8♦"]
    t.do("play(8♦)")
    assert slot(t, "red", 3) == "8♦"


# ---------------------------------------------------------------------------
# Laps: a line back at its start sets its cards aside
# ---------------------------------------------------------------------------

LAP = ["6♥", "7♦", "8♥", "9♦", "10♥", "J♦", "Q♥", "K♦", "A♥", "2♦", "3♥", "4♦", "5♦", "6♦", "7♥"]


def test_lap_after_fifteen_cards_played_all_but_the_last_are_set_aside(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["5♥"])
    t.line("black", ["K♠"])
    t.hand(1, LAP[0::2] + ["4♣", "4♠"])
    t.hand(0, LAP[1::2] + ["8♦", "4♣", "4♠"])
    for i, label in enumerate(LAP):
        assert t.current == (1 if i % 2 == 0 else 0)
        t.do(f"play({label})")
        if i < 14:
            assert slot(t, "red", i + 1) == label
    assert on_board(t, "red") == {15: "7♥"}
    assert sorted(t.s.cards_in("aside[red]")) == sorted(["5♥"] + LAP[:-1])
    assert var(t, "start[red]") == 15 and var(t, "pos[red]") == 15 and var(t, "rank[red]") == 7
    # players continue from the last card played, into the space after it
    assert t.current == 0
    t.do("play(8♦)")
    assert on_board(t, "red") == {15: "7♥", 0: "8♦"}


def test_lap_other_lines_cards_stay_and_leave_no_gap_worry(trolley):
    t = Table(trolley, players=2)
    labels = ["5♥", "6♥", "7♦", "8♥", None, "9♦", "10♥", "J♦", "Q♥", "K♦", "A♥", "2♦", "3♥", "4♦", "5♦"]
    t.line("red", labels)
    t.take("9♣", "line[black]", CROSSINGS[4])  # a black card on red 4
    t.line("black", ["8♣"])
    t.hand(1, ["6♦", "2♣"])
    t.hand(0, ["K♠"])
    t.do("play(6♦)")
    assert on_board(t, "red") == {4: "9♣", 15: "6♦"}
    assert var(t, "pos[red]") == 15 and var(t, "start[red]") == 15
    assert slot(t, "black", CROSSINGS[4]) == "9♣"
    assert sorted(t.s.cards_in("aside[red]")) == sorted(x for x in labels if x)


def test_lap_start_space_moves_back_by_one_each_lap(trolley):
    t = Table(trolley, players=2)
    t.line("red", LAP, first=15)  # kept card on 15 after a first lap, then 0..13
    assert var(t, "start[red]") == 15 and var(t, "pos[red]") == 13
    t.line("black", ["K♠"], first=5)
    t.hand(1, ["8♦", "2♣"])
    t.hand(0, ["K♣"])
    t.do("play(8♦)")  # to space 14; the next space is the start 15
    assert var(t, "start[red]") == 14 and var(t, "pos[red]") == 14
    assert on_board(t, "red") == {14: "8♦"}
    assert len(t.s.cards_in("aside[red]")) == 15


def test_lap_reached_by_passing_a_crossing_keeps_the_last_card_the_line_played(trolley):
    # Red runs from its start 3 round to 0; black holds the crossing red 2 (= black 11).
    t = Table(trolley, players=2)
    t.line("black", ["5♣", "4♣"], first=10)
    t.line("red", LAP[:-1], first=3)  # 14 red cards on 3..15, 0
    t.hand(1, ["7♥", "2♣"])
    t.hand(0, ["5♦", "K♠"])
    t.do("play(7♥)")  # to red 1; red passes over the 4♣ on red 2, and its next space is its start 3
    assert var(t, "pos[red]") == 2 and var(t, "rank[red]") == 4
    # "all of the line's cards except for the last one played": the 7♥ stays
    assert on_board(t, "red") == {1: "7♥", 2: "4♣"}
    assert sorted(t.s.cards_in("aside[red]")) == sorted(LAP[:-1])
    assert var(t, "start[red]") == 1  # the kept card's space
    t.do("play(5♦)")
    assert slot(t, "red", 3) == "5♦"


# ---------------------------------------------------------------------------
# Playing one's declaration
# ---------------------------------------------------------------------------

def test_declaration_card_may_be_played_onto_its_line(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["7♦"])
    t.line("black", ["9♣"])
    t.declare(1, "6♥")
    t.declare(0, "8♥")  # another player's declaration is not ours to play
    t.hand(1, ["2♣", "3♣"])
    t.hand(0, ["K♠"])
    assert t.labels() == ["6♥"]
    t.do("play(6♥)")
    assert t.s.cards_in("declared[1]") == [] and slot(t, "red", 1) == "6♥"
    assert t.s.cards_in("declared[0]") == ["8♥"]


def test_declaration_that_does_not_fit_cannot_be_played(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["7♦"])
    t.line("black", ["9♣"])
    t.declare(1, "Q♥")
    t.hand(1, ["2♣"])
    t.hand(0, ["K♠"])
    assert t.labels() == []


def test_declaration_played_is_no_longer_eligible_for_the_deduction(trolley):
    t = Table(trolley, players=2)
    t.line("red", ["7♦"])
    t.line("black", ["9♣"])
    t.declare(1, "6♥")
    t.declare(0, "K♥")
    t.hand(1, ["5♦"])
    t.hand(0, ["2♣", "3♣"])
    t.deck_top(["Q♣"])
    t.do("play(6♥)")  # player 1 plays their declaration
    t.do("draw")      # player 0: Q♣ fits nothing
    t.do("keep")
    t.do("play(5♦)")  # player 1 plays out
    assert t.s.is_over
    # red laid 3, black 1: only player 0's declaration is still face up
    assert t.s.scores == [3 - 3, 0]


# ---------------------------------------------------------------------------
# Variant: increase the bet
# ---------------------------------------------------------------------------

def test_variant_bet_offered_only_for_a_card_matching_a_declaration_on_the_table(trolley_bet):
    t = Table(trolley_bet, players=3)
    t.line("red", ["K♦"])
    t.line("black", ["K♣"])
    t.hand(1, ["7♦", "7♥", "7♠", "8♥", "9♣", "2♣"])
    t.hand(0, ["2♠"])
    t.hand(2, ["3♠"])
    assert t.labels("bet") == []  # nothing declared yet
    t.declare(0, "7♥")             # another player's red 7
    t.declare(1, "9♦")             # one's own red 9
    assert t.labels("bet") == ["7♥", "7♦"]
    t.do("bet(7♦)")
    assert t.s.cards_in("bets[1]") == ["7♦"] and "7♦" not in t.s.cards_in("hand[1]")
    assert t.current == 2 and t.s.decision == "turn"  # instead of playing a card


def test_variant_bet_does_not_exist_in_the_base_game(trolley):
    t = Table(trolley, players=3)
    t.line("red", ["K♦"])
    t.line("black", ["K♣"])
    t.declare(0, "7♥")
    t.hand(1, ["7♦", "2♣"])
    t.hand(0, ["2♠"])
    t.hand(2, ["3♠"])
    assert all(not m.startswith("bet") for m in t.moves())


@pytest.mark.parametrize("matching_played, expected", [
    (False, [3 - 3, 0 - 5, 3]),  # the matching 7♥ is still declared: -5 instead of -3
    (True, [2, 0 - 3, 3]),       # 7♥ was played: the bet does not count, the own declaration does
])
def test_variant_bet_deducts_5_only_while_the_matching_declaration_is_on_the_table(
        trolley_bet, matching_played, expected):
    t = Table(trolley_bet, players=3)
    t.line("red", ["8♦"])
    t.line("black", ["5♣"])
    t.declare(0, "7♥")
    t.declare(1, "9♦")
    t.hand(1, ["7♦", "8♥"])
    t.hand(2, ["K♠", "Q♠"])
    t.hand(0, ["2♣", "3♣"])
    t.deck_top(["2♠", "J♠"])
    t.do("bet(7♦)")
    t.do("draw")  # player 2: 2♠ fits nothing
    t.do("keep")
    if matching_played:
        t.do("play(7♥)")  # player 0 plays the declaration the bet matched
    else:
        t.do("draw")      # J♠ fits nothing
        t.do("keep")
    t.do("play(8♥)")      # player 1 plays out; red is the faster line
    assert t.s.is_over
    assert t.s.scores == expected


@pytest.mark.parametrize("black_cards, expected", [
    (["5♣"], [2, 0, 1]),                            # red wins: the black bet earns nothing
    (["5♣", "6♣"], [2 - 3, 0 - 3, 1 - 3]),          # a tie: -3 for all, bets or not
    (["5♣", "6♣", "8♣"], [2 - 3, 0 - 5, 1]),        # black wins: the black bet earns -5
])
def test_variant_bet_counts_only_for_the_faster_line_and_not_in_a_tie(trolley_bet, black_cards, expected):
    t = Table(trolley_bet, players=3)
    t.line("red", ["8♦"])
    t.line("black", black_cards)
    t.declare(0, "7♠")
    t.declare(1, "9♠")
    t.take("7♣", "bets[1]")  # player 1 bet on black, matching player 0's 7♠
    t.hand(1, ["7♦"])
    t.hand(2, ["K♥"])
    t.hand(0, ["2♥", "3♥"])
    t.do("play(7♦)")
    assert t.s.is_over
    assert t.s.scores == expected
