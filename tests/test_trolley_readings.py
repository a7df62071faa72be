"""Trolley Car: the readings of docs/games/trolley_car.md that need Python. The readings a position
can show are scenarios in games/trolley_car.test.rules and games/trolley_car_bet.test.rules; here
are what another player is shown of a draw (a view and the moves seen, which scenarios do not
check) and the grid construction of the crossings. Each test fails if its rule is broken (the rule
it guards is named in its docstring)."""

from __future__ import annotations

from conftest import CROSSINGS

from ruledsl.engine.observe import move_seen


# ---- a draw: the drawing player is always asked, so the question tells the others nothing


def draw_position(trolley, top: str):
    """Two players past their declarations (player 1 to play), the red line at rank 5, the black
    at 9, and a copy of ``top`` on top of the deck; then player 1 draws."""
    s = trolley.new_game(players=2, seed=0)
    while s.decision == "declare":
        s.apply(next(m for m in s.legal_moves() if m.name == "pass"))
    s.set_var("rank[red]", 5)
    s.set_var("rank[black]", 9)
    where = s.card_locations()
    s.place(next(c for c in s.cards_named(top) if where[c] == ["deck"]), "deck")
    assert s.current_player == 1 and s.cards_in("deck")[-1] == top
    s.apply(next(m for m in s.legal_moves() if m.name == "draw"))
    return s


def test_after_any_draw_the_other_player_sees_the_same_question(trolley):
    """Whether a `drawn_card` decision follows, and what the others see of it, must not depend on
    the hidden drawn card: a 6♥ fits red at 5, a Q♥ fits nothing."""
    seen_by_other = []
    for top, legal in (("6♥", ["keep", "play_drawn"]), ("Q♥", ["keep"])):
        s = draw_position(trolley, top)
        assert s.decision == "drawn_card" and s.current_player == 1
        assert sorted(m.name for m in s.legal_moves()) == legal  # play_drawn only when it fits
        view = s.view(0)
        seen_by_other.append((view["decision"], view["current_player"], view["zones"]["drawn[1]"]))
    assert seen_by_other[0] == seen_by_other[1] == ("drawn_card", 1, ["?"])


def test_the_drawn_card_is_seen_by_the_drawer_only(trolley):
    """`drawn` is the drawer's own zone: making it visible to all would show the others the card."""
    s = draw_position(trolley, "Q♥")
    assert s.view(1)["zones"]["drawn[1]"] == ["Q♥"]
    assert s.view(0)["zones"]["drawn[1]"] == ["?"]
    before = s.clone()
    keep = s.legal_moves()[0]
    s.apply(keep)
    assert move_seen(before, s, keep, 0) == "keep"
    assert set(s.view(0)["zones"]["hand[1]"]) == {"?"} and "Q♥" in s.view(1)["zones"]["hand[1]"]


# ---- the board


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
