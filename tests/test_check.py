"""The checking pass: every error at once, each with its position, message and hint."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError
from rules_text import MINI, diagnostics

BASE = MINI + """\
var total[player]: int = 0
"""


errors = diagnostics


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


# ---- parameter ranges, size limits, show texts, how a file is read

RANGED = """\
game "Ranged"
players 2..4
param hand = 5 in 1..10 "cards each"
param most = hand + 2 in hand..20
flow { end game }
"""


def test_a_parameter_in_its_range_loads():
    game = ruledsl.loads(RANGED, "ranged.rules", params={"hand": 10, "most": 10})
    assert game.params == {"hand": 10, "most": 10}
    assert ruledsl.loads(RANGED, "ranged.rules").params == {"hand": 5, "most": 7}


@pytest.mark.parametrize("params, message", [
    ({"hand": -5}, "parameter 'hand' must be in 1..10, not -5 (hand: cards each)"),
    ({"hand": 11}, "parameter 'hand' must be in 1..10, not 11 (hand: cards each)"),
    ({"hand": "0"}, "parameter 'hand' must be in 1..10, not 0 (hand: cards each)"),
    ({"hand": 9, "most": 8}, "parameter 'most' must be in 9..20, not 8"),  # a bound that uses another parameter
])
def test_a_parameter_outside_its_range_is_refused_at_load(params, message):
    with pytest.raises(ruledsl.ParameterError) as info:
        ruledsl.loads(RANGED, "ranged.rules", params=params)
    assert str(info.value) == message


def test_range_errors_of_the_file_itself():
    found = errors("""\
        game "R"
        param a = 0 in 1..5
        param b = true in 1..2
        param c = 3 in 5..1
        flow { end game }
        """)
    assert [(d.code, d.line, d.column, d.message) for d in found] == [
        ("E213", 2, 11, "`a` is 0, outside its range 1..5"),
        ("E202", 3, 19, "only a number parameter can have a range; `b` is a true/false value"),
        ("E213", 4, 16, "the range 5..1 of `c` is empty"),
    ]


def test_game_files_give_their_number_parameters_ranges():
    from conftest import GAMES

    for name in ("trolley_car.rules", "tutorial_highlow.rules"):
        game = ruledsl.load(GAMES / name)
        for param, value in game.params.items():
            if isinstance(value, int) and not isinstance(value, bool):
                with pytest.raises(ruledsl.ParameterError, match=f"parameter '{param}' must be in "):
                    ruledsl.load(GAMES / name, params={param: -1})


@pytest.mark.parametrize("text, code, message", [
    ("cards 1000000 * standard52 in deck",
     "E212", "the `cards` lines make 52,000,052 cards or more, more than ruledsl allows (at most 10,000)"),
    ("zone t: track(100000000)", "E209", "a track of 100000000 slots is more than ruledsl allows (at most 10,000)"),
    ("zone z[1..1000, 1..1000]: pile",
     "E205", "zone `z` has 1,000,000 entries, more than ruledsl allows (at most 10,000)"),
    ("var v[1..1000, 1..1000]: int",
     "E205", "variable `v` has 1,000,000 entries, more than ruledsl allows (at most 100,000)"),
    ("var v[1..1000000]: int",
     "E205", "the index range 1..1000000 has 1000000 values, more than the 1000 an index may have"),
    ("zone t: track(\"long\")", "E209", "the slots of a track are a number, not 'long'"),
])
def test_huge_sizes_are_refused_quickly(text, code, message):
    import time

    start = time.perf_counter()
    found = errors(BASE + text + "\nflow { end game }\n")
    assert time.perf_counter() - start < 5
    assert [(d.code, d.line, d.message) for d in found] == [(code, 8, message)]


def test_too_many_players():
    d = first('game "X"\nplayers 2..1000\nflow { end game }\n')
    assert (d.code, d.line, d.message) == ("E213", 2, "players 2..1000: ruledsl allows at most 100 players")


def test_a_huge_track_from_a_parameter_is_refused_at_load():
    text = 'game "X"\nparam n = 5\nzone t: track(n)\nflow { end game }\n'
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, "t.rules", params={"n": 1_000_000_000})
    assert info.value.diagnostics[0].message.startswith("a track of 1000000000 slots is more than ruledsl allows")


@pytest.mark.parametrize("show, problem", [
    ("{rank}}", "has a '{' or '}' without its partner"),
    ("{rank", "has a '{' or '}' without its partner"),
    ("{}", "has the field {}, which is not an attribute name"),
    ("{0}", "has the field {0}, which is not an attribute name"),
    ("{rank:d}", "has the field {rank:d}, which is not an attribute name"),
    ("{rank!r}", "has the field {rank!r}, which is not an attribute name"),
])
def test_a_malformed_show_text_is_a_positioned_error(show, problem):
    text = f'game "X"\nkind k {{\n  n: 1..3\n  show "{show}"\n}}\ncards k(n: 1..3) in deck\nzone deck: pile\nflow {{ end game }}\n'
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, "s.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.column, d.message) == ("E202", 4, 3, f"the `show` text {problem}")
    assert d.render().splitlines()[0] == f"s.rules:4:3: error[E202]: the `show` text {problem}"


def test_show_with_escaped_braces_labels_cards():
    text = 'game "X"\nkind k {\n  n: 1..2\n  show "{{{n}}}"\n}\ncards k(n: 1..2) in deck\nzone deck: pile public\nflow { end game }\n'
    state = ruledsl.loads(text, "s.rules").new_game(2, 0)
    assert [state.card_label(c) for c in state.zones[state.zone_id("deck")]] == ["{1}", "{2}"]


def test_two_show_lines_are_an_error():
    text = 'game "X"\nkind k {\n  n: 1..2\n  show "a{n}"\n  show "b{n}"\n}\nflow { end game }\n'
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, "s.rules")
    assert [(d.code, d.line) for d in info.value.diagnostics] == [("E204", 4)]


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode() + b"flow { end game }\n")
    assert ruledsl.load(path).name == "Mini"
    assert ruledsl.loads("\ufeff" + BASE + "flow { end game }\n").name == "Mini"


def test_a_file_that_is_not_utf8_gets_a_positioned_error(tmp_path):
    path = tmp_path / "latin.rules"
    path.write_bytes(b'game "X"\nflow { end \xe9game }\n')
    with pytest.raises(RulesError) as info:
        ruledsl.load(path)
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("E002", 2, 12)
    assert d.message == "the file is not UTF-8 text: byte 0xe9 cannot start a character here"


def test_an_included_file_that_is_not_utf8(tmp_path):
    (tmp_path / "lib.rules").write_bytes(b"# caf\xe9\n")
    main = tmp_path / "main.rules"
    main.write_text('game "X"\ninclude "lib.rules"\nflow { end game }\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        ruledsl.load(main)
    assert [(d.code, d.line, d.column) for d in info.value.diagnostics] == [("E002", 1, 6)]


def test_every_diagnostic_prints_its_code():
    for text in ('game "X"\nflow { x = }\n', BASE + "flow { deal 1 from deck into hnd[0] }\n"):
        with pytest.raises(RulesError) as info:
            ruledsl.loads(text, "c.rules")
        for d in info.value.diagnostics:
            assert f": error[{d.code}]: " in d.render().splitlines()[0]


def test_a_track_has_no_top_card_to_show():
    # what a player sees of a track and whether they see one of its cards must agree: no `top` track
    d = next(d for d in errors(BASE + "zone line: track(4) top\n") if d.code == "E209")
    assert (d.code, d.line, d.column) == ("E209", 8, 21)
    assert d.message == "track `line` has no top card: its slots lie side by side"
    assert d.hint == "make it public, or a pile or row whose top card everybody sees"


@pytest.mark.parametrize("slot, shown", [('"{"', "'{'"), ("true", "True")])
def test_a_connected_slot_is_a_whole_number(slot, shown):
    # found by the fuzzer (python -m ruledsl.fuzz --seed 0 --case mutation:3469): a text slot reached the compiler
    (d,) = [d for d in errors(BASE + f"zone a: track(4) public\nzone b: track(4) public\nconnect a {slot} = b 3\n")
            if d.code == "E202"]
    assert d.line == 10
    assert d.message == f"a slot of a track is a whole number, not {shown}"


def test_a_define_given_a_zone_where_its_body_adds_a_number_is_an_error():
    # found by the fuzzer (--seed 0 --case grammar:10950): `d(t)` with t a track wrote out `t + 1`, which the
    # checker, typing the define's body with untyped parameters, let through to the compiler (exit 3)
    with pytest.raises(RulesError) as info:
        ruledsl.loads(BASE + "zone t: track(3) public\ndefine d(y) = y + 1\n"
                             "flow { total[0] = size(d(t))\n choose c by 0 { move stop {} } }\n", "mini.rules")
    (d,) = info.value.diagnostics
    assert (d.code, d.line, d.message) == ("E202", 9, "cards are needed here, not a number")
