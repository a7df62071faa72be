"""Procedures that take zones and give results (docs §2.12.1): every error, and what they do."""

import textwrap

from rules_text import MINI, diagnostics

import ruledsl

BASE = MINI + """\
zone spots: track(3) public
var v: int = 0
"""


def game_of(text: str):
    return ruledsl.loads(BASE + textwrap.dedent(text), "procs.rules")


def errors(text: str) -> list:
    return [(d.code, d.line, d.message) for d in diagnostics(text, before=BASE, name="procs.rules")]


def test_a_zone_parameter_and_a_result_computed_by_statements():
    s = game_of("""\
        procedure refill(z) { while size(z) < 4 { put top(deck) into z } }
        procedure top_rank(z) {
          let most = 0
          for c in z { if c.rank > most { most = c.rank } }
          return most
        }
        flow {
          refill(hand[1])
          let h = hand[0]
          refill(h)
          v = top_rank(hand[1])
        }
        """).new_game(2)
    ranks = [s.program.card_attrs["rank"][c] for c in s.zones[s.zone_id("hand[1]")]]
    assert len(ranks) == 4 and len(s.zones[s.zone_id("hand[0]")]) == 4
    assert s.get_var("v") == max(ranks)
    assert all(s.loc[c] == z for z, cards in enumerate(s.zones) for c in cards)


def test_return_leaves_the_procedure_at_once_and_each_call_has_its_own_result():
    s = game_of("""\
        procedure sign(n) {
          if n > 10 { return 1 }
          for k in 1..3 { if k == n { return 0 } }
          return -1
        }
        flow { let a = sign(12)  let b = sign(2)  let c = sign(7)  v = a * 100 + b * 10 + c }
        """).new_game(2)
    assert s.get_var("v") == 100 + 0 - 1


def test_a_procedure_with_a_result_may_be_called_as_a_statement():
    s = game_of("procedure draw(z) { put top(deck) into z  return size(z) }\nflow { draw(hand[0]) }\n").new_game(2)
    assert len(s.zones[s.zone_id("hand[0]")]) == 1


def test_a_zone_parameter_given_a_number():
    assert errors("procedure refill(z) { put top(deck) into z }\nflow { refill(3) }\n") == [
        ("E202", 10, "`refill` uses `z` as a zone; it is given a number")]


def test_a_body_that_deals_into_a_track_given_at_the_call():
    assert errors("procedure fill(z) { deal 1 from deck into z }\nflow { fill(hand[0]) fill(spots) }\n") == [
        ("E202", 9, "`deal` works on piles and rows, not tracks")]


def test_a_zone_parameter_with_an_index():
    assert errors("procedure fill(z) { put top(deck) into z[0] }\nflow { fill(hand[0]) }\n") == [
        ("E205", 9, "`z` is one zone already; it takes no index")]


def test_a_let_that_is_not_a_zone_used_as_one():
    assert errors("flow { let n = 3  put top(deck) into n }\n") == [("E202", 9, "`n` is a number, not a zone")]


def test_return_outside_a_procedure():
    assert errors("flow { return 3 }\n") == [
        ("E206", 9, "`return` gives a procedure's result; here it stands outside a procedure")]


def test_return_inside_a_reveal_block():
    assert errors("procedure peek(p) { reveal hand[p] to 0 { return 1 } return 0 }\nflow { v = peek(1) }\n") == [
        ("E206", 9, "a `return` cannot leave a `reveal` or `at once` block")]


def test_two_types_of_result():
    assert errors("procedure f(n) { if n > 1 { return true } return 2 }\nflow { v = f(1) }\n") == [
        ("E202", 9, "`f` gives a true/false value at one `return` and a number at another")]


def test_a_procedure_that_can_end_without_return():
    assert errors("procedure f(n) { if n > 1 { return 1 } }\nflow { v = f(1) }\n") == [
        ("E206", 9, "`f` can end without `return`")]


def test_a_result_taken_from_a_procedure_without_one():
    assert errors("procedure f(n) { v = n }\nflow { let x = f(1) }\n") == [
        ("E202", 10, "`f` gives no result: it has no `return`")]


def test_a_result_inside_an_expression():
    assert errors("procedure f(n) { return n }\nflow { v = f(1) + 1 }\n") == [
        ("E206", 10, ("`f` is a procedure: its result is taken by `let x = f(...)` or `x = f(...)`, "
                      "not inside an expression"))]


def test_the_result_type_is_checked_where_it_is_taken():
    assert [e[:2] for e in errors("procedure f(n) { return n > 1 }\nflow { v = f(1) }\n")] == [("E202", 10)]


def test_verify_holds_across_zone_parameters_and_results():
    from pathlib import Path

    from ruledsl.verify.session import run

    game = ruledsl.load(Path(__file__).parent / "data" / "refill.rules")
    report = run(game, players=[2], seconds=None, examples=3, states=400)
    assert report.failure is None


def test_a_procedure_given_a_player_where_its_body_moves_a_card_is_an_error():
    # found by the fuzzer (--seed 0 --case mutation:19679): the body was checked with untyped parameters only,
    # and the compiler met `put c` with c a player (AssertionError, exit 3)
    (d,) = diagnostics("""\
        zone pile: pile public
        procedure discard(c) { put c into pile }
        flow {
          discard(current)
          choose t by 0 { move stop {} }
        }
        """, before=MINI, name="p.rules")
    assert (d.code, d.line, d.message) == ("E202", 8, "`put` moves a card or cards, not a player")


def test_a_setup_block_inside_a_procedure_keeps_triggers_quiet_until_it_is_done():
    """docs §2.12: a round's deal in a procedure, in `setup { }`, so that no trigger fires mid-deal."""
    text = """\
        var fired: int = 0
        trigger one_card when size(hand[0]) == 1 and fired == 0 { fired = 1 }
        procedure deal_round() {
          setup {
            repeat 3 times { put top(deck) into hand[0] }
            choose keep by 0 { move keep {} move more { deal 1 from deck into hand[0] } }
          }
        }
        flow {
          deal_round()
          choose stop by 0 { move stop {} }
        }
        """
    s = game_of(text).new_game(2)
    assert s.decision == "keep" and s.get_var("fired") == 0  # the deal went through one card, quietly
    s.apply("more")
    assert len(s.zones[s.zone_id("hand[0]")]) == 4 and s.get_var("fired") == 0
    loud = game_of(text.replace("setup {", "if true {")).new_game(2)
    assert loud.get_var("fired") == 1  # the same deal outside `setup` fires the trigger at the first card
