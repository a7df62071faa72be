"""The checking pass: every error at once, each with its position, message and hint."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError

BASE = """\
game "Mini"
players 2..4
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
var total[player]: int = 0
"""


def errors(text: str) -> list:
    with pytest.raises(RulesError) as info:
        ruledsl.loads(textwrap.dedent(text), "mini.rules")
    return info.value.diagnostics


def first(text: str):
    return errors(text)[0]


def test_unknown_zone_is_positioned_with_a_hint():
    d = first(BASE + "flow {\n  deal 5 from deck into hnd[0]\n}\n")
    assert (d.code, d.line, d.column) == ("E200", 9, 25)
    assert d.message == "unknown zone `hnd`"
    assert d.hint == "did you mean `hand`?"
    assert d.render().splitlines() == [
        "mini.rules:9:25: error[E200]: unknown zone `hnd`",
        "      deal 5 from deck into hnd[0]",
        "                            ^^^^^^",
        "    hint: did you mean `hand`?",
    ]


def test_all_errors_are_reported_at_once_in_file_order():
    found = errors(BASE + textwrap.dedent("""\
        flow {
          total = 3
          choose turn by current {
            move play(c in hand[current]) where c.rnk > 2 { put c into deck }
          }
          foo(1)
        }
        """))
    assert [(d.code, d.line) for d in found] == [("E205", 9), ("E201", 11), ("E200", 13)]
    assert found[0].message == "`total` needs 1 index, but 0 are given"
    assert found[0].hint == "write total[player]"
    assert found[1].message == "no card kind has an attribute `rnk`"
    assert found[1].hint == "did you mean `rank`?"
    assert found[2].message == "unknown procedure `foo`"


def test_rules_error_text_lists_every_diagnostic_and_a_count():
    with pytest.raises(RulesError) as info:
        ruledsl.loads(BASE + "flow { total = 1 foo() }\n", "mini.rules")
    text = str(info.value)
    assert text.count("error[") == 2
    assert text.endswith("2 errors")


def test_type_errors_say_what_was_expected_and_found():
    d = first(BASE + "flow { total[0] = size(deck) > 2 }\n")
    assert d.code == "E202"
    assert d.message == "the value of `total` should be a number, but this is a true/false value"


def test_wrong_index_type():
    d = first(BASE + "flow { deal 1 from deck into hand[hearts] }\n")
    assert d.message == "the index of `hand` should be a player, but this is a suit"


def test_define_arity():
    d = first(BASE + "define twice(x) = x * 2\nflow { total[0] = twice(1, 2) }\n")
    assert (d.code, d.message) == ("E203", "`twice` takes 1 argument(s), not 2")


def test_recursion_is_refused():
    d = first(BASE + "define a(x) = b(x)\ndefine b(x) = a(x)\nflow { total[0] = a(1) }\n")
    assert d.code == "E207"
    assert "a -> b -> a" in d.message


def test_trigger_may_not_ask_a_player():
    d = first(BASE + textwrap.dedent("""\
        trigger t when empty(deck) {
          choose x by 0 { move ok {} }
        }
        flow { shuffle deck }
        """))
    assert d.code == "E206"
    assert d.message == "a trigger cannot ask a player to choose; it happens at once"


def test_random_is_not_allowed_in_a_condition():
    d = first(BASE + "flow { choose t by 0 { move m where random(deck).rank > 3 {} } }\n")
    assert d.code == "E206"


def test_duplicate_definition_names_the_first():
    d = first(BASE + "zone deck: row public\nflow { shuffle deck }\n")
    assert d.code == "E204"
    assert d.message == "`deck` is defined twice (first at line 5)"


def test_unknown_zone_option():
    d = first(BASE + "zone pot: pile secret\nflow { shuffle deck }\n")
    assert d.code == "E209"
    assert d.message == "unknown zone option `secret`"


def test_owner_visibility_needs_an_owner():
    d = first(BASE + "zone pot: pile owner\nflow { shuffle deck }\n")
    assert d.message == "zone `pot` is seen by its owner, but it has no owner"


def test_track_put_needs_a_slot():
    d = first(BASE + "zone line: track(4) public\nflow { put top(deck) into line }\n")
    assert d.message.startswith("a card goes into a track at a slot")


def test_missing_flow():
    d = first(BASE)
    assert (d.code, d.message) == ("E211", "the rules have no `flow { ... }`: nothing says how a game runs")


def test_deck_needs_every_attribute():
    d = first(BASE.replace("cards standard52 in deck", "cards playing_card(rank: 3) in deck")
              + "flow { shuffle deck }\n")
    assert d.message == "a `playing_card` card needs a value for `suit`"


def test_missing_include_file():
    d = first('include "nowhere.rules"\nflow {}\n')
    assert (d.code, d.line, d.message) == ("E208", 1, 'cannot find the included file "nowhere.rules"')


def test_enum_value_must_be_unique_across_enums():
    d = first(BASE + "enum light { red, green }\nflow { shuffle deck }\n")
    assert d.message == "`red` is a value of both `colour` and `light`"


def test_unknown_parameter_override_is_a_parameter_error():
    with pytest.raises(ruledsl.ParameterError, match="unknown parameter 'hand_sise'.*did you mean `hand_size`"):
        ruledsl.load("games/trolley_car.rules", params={"hand_sise": 3})


def test_parameter_override_of_wrong_type():
    with pytest.raises(ruledsl.ParameterError, match="parameter 'hand_size' takes a number, not 'many'"):
        ruledsl.load("games/trolley_car.rules", params={"hand_size": "many"})


def test_missing_file_is_a_rules_error():
    with pytest.raises(RulesError) as info:
        ruledsl.load("games/no_such_game.rules")
    assert info.value.diagnostics[0].message == "no such rules file: games/no_such_game.rules"


def test_valid_games_check_cleanly():
    for path in ("games/trolley_car.rules", "games/trolley_car_bet.rules"):
        assert ruledsl.load(path).program.card_count == 104


def test_a_word_of_the_language_cannot_name_a_definition():
    d = first(BASE + "define each = 3\nflow { for in in players { shuffle deck } }\n")
    assert (d.code, d.line, d.message) == ("E204", 8, "`each` is a word of the language; choose another name")
    assert [x.message for x in errors(BASE + "flow { for in in players { shuffle deck } }\n")] == [
        "`in` is a word of the language; choose another name"]
