"""Tables of constants and copies worked out at setup (docs §2.11.1, §2.6.1): every error, and the values."""

import textwrap
from pathlib import Path

import pytest

import ruledsl
from rules_text import diagnostics

POINTS = Path(__file__).parent / "data" / "points.rules"

BASE = """\
game "Tables"
players 2..6
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
var x: int = 3
"""


def errors(text: str) -> list:
    found = diagnostics(textwrap.dedent(text) + "flow { end game }\n", before=BASE, name="tables.rules")
    return [(d.code, d.line, d.message, d.hint) for d in found]


def messages(text: str) -> list:
    return [e[:3] for e in errors(text)]


@pytest.mark.parametrize("players, cards", [(2, 52), (4, 52), (5, 104), (6, 104)])
def test_copies_of_a_deck_depend_on_the_player_count(players, cards):
    s = ruledsl.load(POINTS).new_game(players, seed=2)
    assert s.program.card_count == cards
    assert sum(len(z) for z in s.zones) == cards


def test_a_table_by_attribute_with_labels_as_keys_and_else():
    game = ruledsl.loads(BASE + "table points[rank] = { A: 11, 10: 10, K: 4, Q: 3, J: 2, else: 0 }\n"
                         "define score(p) = sum(points[c.rank] for each c in deck)\nflow { end game }\n")
    assert game.new_game(2).scores == [4 * (11 + 10 + 4 + 3 + 2)] * 2


def test_a_table_of_enum_values_by_enum_and_a_derived_attribute_from_a_table():
    game = ruledsl.loads("""\
        game "E"
        enum colour { red, black, green }
        table next_colour[colour] = { red: black, black: green, green: red }
        table cost[1..3] = { 1: 5, 2..3: 7 }
        kind chip { colour: colour  size: 1..3  price: int = cost[size] * 2 }
        cards chip(colour: each, size: each) in bag
        zone bag: pile public
        var c: colour = next_colour[next_colour[red]]
        flow { end game }
        define score(p) = sum(c.price for each c in bag)
        winner(p): highest score(p)
        """.replace("        ", ""))
    s = game.new_game(2)
    assert s.get_var("c") == 2 and s.scores == [3 * (10 + 14 + 14)] * 2


def test_a_lookup_outside_a_table_while_playing_is_a_finding():
    game = ruledsl.loads(BASE + "table t[1..3] = { else: 1 }\nflow { x = t[x + 1] }\n")
    with pytest.raises(ruledsl.RulesRuntimeError, match=r"`t\[4\]` is outside `t`"):
        game.new_game(2)


def test_two_else_values():
    assert messages("table t[1..3] = { 1: 1, else: 0, else: 2 }\n") == [
        ("E204", 7, "table `t` has two `else` values")]


def test_two_values_for_one_key():
    assert messages("table t[1..3] = { 1: 1, 1..3: 2 }\n") == [("E204", 7, "table `t` gives two values for 1")]


def test_a_value_missing_without_else():
    assert errors("table points[rank] = { A: 11, 10: 10 }\n") == [
        ("E205", 7, "table `points` gives no value for 2, 3, 4, 5, 6, 7 and 5 more",
         "give them, or one value for the rest: `else: 0`")]


def test_values_of_two_types():
    assert messages("table t[1..2] = { 1: 1, 2: true }\n") == [
        ("E202", 7, "the values of table `t` are of one type: this one is a true/false value, the first a number")]


def test_a_value_that_is_not_a_constant():
    assert messages("table t[1..2] = { else: x }\n") == [
        ("E213", 7, "a constant is needed here: a number, true/false, a string or a parameter")]


def test_an_index_over_an_attribute_without_values():
    assert messages("kind token { heavy: bool }\ntable t[heavy] = { else: 1 }\n") == [
        ("E205", 8, "a table runs over an enum or a range of numbers; attribute `heavy` is a true/false value")]


def test_an_index_over_players_or_growing():
    assert messages("table t[player] = { else: 1 }\ntable u[*] = { else: 1 }\n") == [
        ("E205", 7, "a table runs over an enum, a range of numbers or a card attribute, not `player`"),
        ("E205", 8, "a table has a fixed index: an enum, a range or a card attribute")]


def test_an_index_that_depends_on_the_player_count():
    assert messages("table t[1..player_count] = { else: 1 }\n") == [
        ("E205", 7, "a table's index is the same for every player count")]


def test_a_key_of_another_enum():
    assert errors("table t[suit] = { clubs: 1, red: 2, else: 0 }\n") == [
        ("E202", 7, "a key of table `t` is a value of `suit`", "one of clubs, diamonds, hearts, spades")]


def test_a_key_outside_the_index_and_an_empty_key_range():
    assert messages("table t[1..3] = { 4: 1, 3..2: 0, else: 0 }\n") == [
        ("E205", 7, "the key 4 is outside the index 1..3 of table `t`"),
        ("E205", 7, "the keys 3..2 of table `t` are an empty range")]


def test_a_table_named_without_its_index():
    assert errors("table t[1..3] = { else: 1 }\ndefine d = t + 1\n") == [
        ("E205", 8, "`t` is a table: it has one value per 1..3; say which", "write t[1..3]")]


def test_a_size_looked_up_outside_a_table():
    assert messages("table t[2..4] = { else: 3 }\nzone z: track(t[player_count])\n") == [
        ("E205", 8, "`t[5]` is outside the table's index 2..4")]


def test_a_size_looked_up_in_a_table_by_enum():
    game = ruledsl.loads(BASE + "table t[suit] = { hearts: 2, else: 3 }\nzone z: track(t[hearts])\nflow { end game }\n")
    assert game.program.zones[-1].places == tuple(range(2))


def test_copies_below_one_for_some_player_count():
    assert messages("table packs[2..6] = { 2..4: 1, else: 0 }\ncards packs[player_count] * jokers in deck\n") == [
        ("E212", 8, "a number of copies must be at least 1; it is 0 with 5 players")]


def test_copies_that_read_a_variable():
    assert messages("cards x * jokers in deck\n") == [
        ("E213", 7, "a constant is needed here: a number, true/false, a string or a parameter")]


def test_a_table_and_a_variable_of_one_name():
    assert messages("table x[1..2] = { else: 0 }\n") == [("E204", 7, "`x` is defined twice (first at line 6)")]


def test_verify_holds_for_one_pack_and_for_two():
    from ruledsl.verify.session import run

    report = run(ruledsl.load(POINTS), players=[2, 5], seconds=None, examples=3, states=400)
    assert report.failure is None and {sp.players for sp in report.spaces} == {2, 5}


def test_copies_from_a_parameter_follow_its_value():
    text = BASE.replace("cards standard52 in deck\n", "param packs = 2 in 1..3\ncards packs * standard52 in deck\n")
    text += "flow { end game }\n"
    assert ruledsl.loads(text).new_game(2).program.card_count == 104
    assert ruledsl.loads(text, params={"packs": 3}).new_game(2).program.card_count == 156
