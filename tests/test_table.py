"""The table a player is shown (engine/table.py): no `unshown` bookkeeping, no seats the game lacks,
a set being built with its condition so far, and what a move did in words."""

from pathlib import Path

import ruledsl
from ruledsl.engine.table import changes, set_in_progress, table_view

TRAMWAJE = Path(__file__).resolve().parent.parent / "games" / "tramwaje.rules"

RULES = """game "bookkeeping"
players 2..3
var offered[player, player]: bool unshown = false
var tries[player]: int owner unshown = 0
var score[player]: int = 0
flow { }
"""


def test_unshown_variables_stay_in_the_view_but_not_on_the_table():
    game = ruledsl.loads(RULES, "t.rules")
    s = game.new_game(2, 0)
    assert s.view(0)["vars"] == {"offered[0, 0]": False, "offered[0, 1]": False, "offered[1, 0]": False,
                                 "offered[1, 1]": False, "tries[0]": 0, "tries[1]": "?", "score[0]": 0,
                                 "score[1]": 0}
    assert table_view(s, 0)["vars"] == {"score[0]": 0, "score[1]": 0}


def test_two_visibilities_are_an_error():
    try:
        ruledsl.loads(RULES.replace("owner unshown", "owner hidden"), "t.rules")
    except ruledsl.RulesError as err:
        assert "t.rules:4:1: error[E209]: variable `tries` has two visibilities, `owner hidden`" in str(err)
    else:
        raise AssertionError("not refused")


def test_values_of_seats_the_game_lacks_are_never_shown():
    # a game of up to five players, played by three: no value of seat 3 or 4 is shown
    view = ruledsl.loads(RULES.replace("players 2..3", "players 2..5"), "t.rules").new_game(3, 0).view(0)
    seats = {k: k[k.index("["):].strip("[]").split(", ") for k in view["vars"]}
    assert "offered[0, 2]" in view["vars"] and len(view["vars"]) == 9 + 3 + 3
    assert not any(set(s) & {"3", "4"} for s in seats.values())
    game = ruledsl.load(TRAMWAJE)
    assert list(table_view(game.new_game(3, 0), 0)["vars"]) == ["moves_played", "attack_strength", "attack_effect"]
    assert table_view(game.new_game(3, 0), 0)["vars"]["attack_effect"] == "none"  # an enum value by name


def test_a_set_being_built_shows_its_cards_and_its_condition():
    game = ruledsl.load(TRAMWAJE)
    s = game.new_game(3, 0)
    assert set_in_progress(s) is None
    s.apply("attack_player(1)")
    s.apply("strike")
    assert set_in_progress(s) == {"move": "strike", "cards": [], "condition":
                                  "sum(strength(c) for each c in cs) is 0 so far; done when >= 5"}
    s.apply(next(m for m in s.legal_moves() if s.describe(m) == "add(7♦)"))
    assert table_view(s, 0)["building"] == {"move": "strike", "cards": ["7♦"], "condition":
                                            "sum(strength(c) for each c in cs) is 7 so far; done when >= 5"}
    assert "building" not in table_view(s, 1)  # only its builder is shown the set


def test_changes_say_what_moved_as_far_as_the_player_sees():
    before = {"zones": {"hand[0]": ["7♦", "9♣"], "hand[1]": ["?", "?"], "battle": []}, "vars": {"n": 0}}
    after = {"zones": {"hand[0]": ["9♣", "K♣"], "hand[1]": ["?"], "battle": ["7♦"]}, "vars": {"n": 1}}
    assert changes(before, after) == ["K♣ → hand[0]", "7♦ hand[0] → battle", "hand[1] −1 hidden", "n 0 → 1"]
    shown = {"zones": {"hand[1]": ["Q♠", "2♥"]}, "vars": {}}
    hidden = {"zones": {"hand[1]": ["?", "?"]}, "vars": {}}
    assert changes(hidden, shown) == ["hand[1] shown: Q♠, 2♥"]
    assert changes(shown, hidden) == ["hand[1] no longer shown: Q♠, 2♥"]
