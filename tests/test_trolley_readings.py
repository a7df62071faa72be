"""Trolley Car: the readings of docs/games/trolley_car.md that the source text leaves open, and
the hidden-information shape of a draw. Each test fails if its rule is broken (the rule it
guards is named in its docstring)."""

from __future__ import annotations

from conftest import CROSSINGS, Table

from ruledsl.observe import move_seen


def var(t: Table, name: str):
    return t.s.get_var(name)


def on_board(t: Table, colour: str) -> dict:
    return {i: c for i, c in enumerate(t.s.cards_in(f"line[{colour}]")) if c is not None and
            (c[-1] in "♥♦") == (colour == "red")}


# ---- a draw: the drawing player is always asked, so the question tells the others nothing


def draw_position(trolley, top: str) -> Table:
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣", "3♣"])
    t.hand(0, ["K♠", "Q♠"])
    t.deck_top([top])
    return t


def test_after_any_draw_the_same_player_decides_whether_to_play_or_keep_it(trolley):
    """Whether a `drawn_card` decision follows must not depend on the hidden drawn card."""
    seen_by_other = []
    for top, legal in (("6♥", ["keep", "play_drawn"]), ("Q♥", ["keep"])):
        t = draw_position(trolley, top)
        t.do("draw")
        assert t.s.decision == "drawn_card" and t.current == 1
        assert sorted(t.moves()) == legal  # play_drawn only when the card fits
        view = t.s.view(0)
        seen_by_other.append((view["decision"], view["current_player"], view["zones"]["drawn[1]"]))
    # the other player observes exactly the same, fitting card or not
    assert seen_by_other[0] == seen_by_other[1] == ("drawn_card", 1, ["?"])


def test_the_drawn_card_is_seen_by_the_drawer_only(trolley):
    """`drawn` is the drawer's own zone: making it visible to all would show the others the card."""
    t = draw_position(trolley, "Q♥")
    t.do("draw")
    assert t.s.view(1)["zones"]["drawn[1]"] == ["Q♥"]
    assert t.s.view(0)["zones"]["drawn[1]"] == ["?"]
    before = t.s.clone()
    keep = t.s.legal_moves()[0]
    t.s.apply(keep)
    assert move_seen(before, t.s, keep, 0) == "keep"
    assert t.s.view(0)["zones"]["hand[1]"] == ["?", "?", "?"]


# ---- with the deck empty


def test_deck_empty_a_player_whose_only_fitting_card_is_their_declaration_must_play_it(trolley):
    """can_play counts the declaration: with the deck empty, no pass while it fits."""
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣", "K♥"])
    t.declare(1, "6♥")
    t.hand(0, ["K♠"])
    t.empty_deck()
    assert t.moves() == ["play(6♥)"]


def test_deck_empty_a_fitting_declaration_keeps_the_round_going(trolley):
    """Nobody can pass while some player's declaration fits: the round does not end."""
    t = Table(trolley, players=2)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣"])
    t.hand(0, ["K♠", "Q♠"])
    t.declare(0, "4♥")
    t.empty_deck()
    t.do("pass")  # player 1 cannot play
    assert not t.s.is_over and t.current == 0
    assert t.moves() == ["play(4♥)"]


def test_deck_empty_the_round_ends_once_every_player_in_a_row_has_passed(trolley):
    """Nobody can play: the players find it out by passing in turn, as at a table."""
    t = Table(trolley, players=3)
    t.line("red", ["5♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♣"])
    t.hand(2, ["K♠"])
    t.hand(0, ["Q♠", "2♥"])
    t.empty_deck()
    for player in (1, 2):
        assert t.current == player
        t.do("pass")
        assert not t.s.is_over  # the others cannot yet tell that nobody can play
    t.do("pass")
    assert t.s.is_over
    assert t.s.scores == [2 - 3, 1 - 3, 1 - 3]  # a tie (each line laid its start card): 3 off for all


def test_same_card_in_hand_and_declared_reads_as_two_moves(trolley):
    """`play(2♥)` listed twice would not tell the player which one they play."""
    t = Table(trolley, players=2)
    t.line("red", ["3♦"])
    t.line("black", ["9♣"])
    t.hand(1, ["2♥", "K♠"])
    t.declare(1, "2♥")
    t.hand(0, ["K♣"])
    plays = t.moves("play")
    assert sorted(plays) == ["play(2♥ from declared[1])", "play(2♥ from hand[1])"]
    t.do("play(2♥ from declared[1])")
    assert t.s.cards_in("declared[1]") == []
    assert sorted(t.s.cards_in("hand[1]")) == ["2♥", "K♠"]


# ---- laps and crossings


def test_a_lap_reached_by_passing_a_crossing_moves_the_start_back_two_spaces(trolley):
    """Red starts on 13; black holds the crossing red 12. Red lays on 11, passes over 12, and its
    next space is its start: all but the card on 11 are set aside and 11 is the new start."""
    t = Table(trolley, players=2)
    red = ["A♥", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "J♥", "Q♥", "K♥", "A♦"]
    t.line("red", red, first=13)  # 13, 14, 15, 0 .. 10
    assert var(t, "pos[red]") == 10 and var(t, "start[red]") == 13
    t.take("5♣", "line[black]", CROSSINGS[12])
    t.hand(1, ["2♦", "K♠"])
    t.hand(0, ["Q♣", "J♠"])
    t.do("play(2♦)")
    assert var(t, "start[red]") == 11 == 13 - 2
    assert on_board(t, "red") == {11: "2♦"}
    assert len(t.s.cards_in("aside[red]")) == 14
    assert var(t, "pos[red]") == 12 and var(t, "rank[red]") == 5  # on the crossing, with its rank


def test_the_four_crossings_are_where_a_tall_and_a_wide_loop_meet():
    """docs/games/trolley_car.md: red runs round a loop 3 spaces wide and 7 high from its bottom
    right corner, black round a loop 7 wide and 3 high from its top row, second from the right,
    both counter-clockwise; laid over each other they share exactly the four connected spaces."""
    def loop(x0, y0, w, h):
        x1, y1 = x0 + w - 1, y0 + h - 1
        cells = [(x1, y) for y in range(y0, y1)] + [(x, y1) for x in range(x1, x0, -1)]
        return cells + [(x0, y) for y in range(y1, y0, -1)] + [(x, y0) for x in range(x0, x1)]

    red = loop(0, 0, 3, 7)
    black = loop(-2, 2, 7, 3)
    start = black.index((3, 4))  # top row, second from the right
    black = black[start:] + black[:start]
    assert red[0] == (2, 0) and red[1] == (2, 1)  # bottom right, running up
    assert len(red) == len(black) == 16
    assert {red.index(c): black.index(c) for c in red if c in black} == CROSSINGS


# ---- the variant: a bet needs one's own declaration, and its colour


def bet_table(trolley_bet) -> Table:
    t = Table(trolley_bet, players=3)
    t.line("red", ["K♦"])
    t.line("black", ["K♣"])
    t.hand(0, ["2♠"])
    t.hand(2, ["3♠"])
    return t


def test_variant_no_bet_without_a_declaration_of_ones_own(trolley_bet):
    """"If the player's declaration is correct": a player who declared nothing cannot bet."""
    t = bet_table(trolley_bet)
    t.declare(0, "7♥")
    t.hand(1, ["7♦", "7♥", "2♣"])
    assert t.labels("bet") == []


def test_variant_a_bet_has_the_colour_of_ones_own_declaration(trolley_bet):
    """"Another betting card of the same color": no hedge on the other colour."""
    t = bet_table(trolley_bet)
    t.declare(0, "7♥")   # another player's red 7
    t.declare(1, "9♠")   # one's own black 9
    t.hand(1, ["7♦", "9♣", "9♠", "2♣"])
    assert t.labels("bet") == ["9♠", "9♣"]  # the red 7♦ would match 7♥, but it is the other colour


def test_variant_a_bet_matches_anyones_declaration_of_ones_own_colour(trolley_bet):
    """"Including declarations by other players": a red bet may match another's red declaration."""
    t = bet_table(trolley_bet)
    t.declare(0, "7♥")
    t.declare(1, "9♦")
    t.hand(1, ["7♦", "7♣", "2♣"])
    assert t.labels("bet") == ["7♦"]


def test_variant_a_bet_that_empties_the_hand_ends_the_round(trolley_bet):
    """A hand emptied by a bet is an empty hand: the round ends after that turn."""
    t = bet_table(trolley_bet)
    t.declare(1, "9♦")
    t.hand(1, ["9♥"])
    t.do("bet(9♥)")
    assert t.s.is_over
    # red and black laid one card each: a tie, 3 off for everybody, bets or not
    assert t.s.scores == [1 - 3, 0 - 3, 1 - 3]


def test_variant_a_bet_counts_only_while_ones_own_declaration_is_on_the_table(trolley_bet):
    """The 5 off is for a correct declaration: a player who has played theirs gets nothing, even
    with a bet on the faster line whose matching declaration is still on the table."""
    t = Table(trolley_bet, players=2)
    t.line("red", ["J♦"])
    t.line("black", ["5♣"])
    t.declare(0, "9♦")
    t.declare(1, "10♦")
    t.take("9♥", "bets[1]")  # red, matching player 0's 9♦
    t.hand(1, ["J♥"])
    t.hand(0, ["K♠", "2♠"])
    t.deck_top(["3♣"])
    t.do("play(10♦)")  # player 1 plays their declaration
    t.do("draw")       # player 0: the 3♣ fits nothing
    t.do("keep")
    t.do("play(J♥)")   # player 1 plays out; red laid 3, black 1
    assert t.s.is_over
    assert t.s.scores == [3 - 3, 0]  # player 0's red declaration counts; player 1's bet does not
