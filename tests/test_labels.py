"""Numbers of moves shown by a label: `move ask(r in 1..13 as rank)`, `as "{n} tricks"` (docs §4.12.5)."""

import textwrap

import pytest
from rules_text import MINI, diagnostics

import ruledsl

BASE = MINI + """\
table word[1..3] = { 1: "one", 2: "two", else: "many" }
table count[1..3] = { else: 1 }
kind token { weight: 1..3 }
"""


def flow_with(move: str) -> str:
    return textwrap.dedent(f"""\
        flow {{
          shuffle deck
          turns from 0 until empty(deck) {{
            choose turn by current {{
              move {move} {{ put top(deck) into hand[current] }}
            }}
          }}
        }}
        """)


def game_with(move: str):
    return ruledsl.loads(BASE + flow_with(move), "labels.rules")


def errors(move: str) -> list:
    return [(d.code, d.message, d.hint) for d in diagnostics(flow_with(move), before=BASE, name="labels.rules")]


@pytest.mark.parametrize("move, shown", [
    ("ask(r in 1..13 as rank)", ["ask(A)", "ask(2)", "ask(10)", "ask(J)", "ask(Q)", "ask(K)"]),
    ('bid(n in 0..2 as "{n} tricks")', ["bid(0 tricks)", "bid(1 tricks)", "bid(2 tricks)"]),
    ("say(n in 1..4 as word)", ["say(one)", "say(two)", "say(many)", "say(4)"]),
])
def test_a_number_is_shown_by_its_label(move, shown):
    s = game_with(move).new_game(2)
    described = s.describe_moves(s.legal_moves())
    assert [d for d in described if d in shown] == shown
    assert s.describe(s.legal_moves()[0], names=True) == s.legal_moves()[0].name + "(" + str(
        s.legal_moves()[0].args[0]) + ")"  # by number, for scenarios that write the number


def test_a_label_for_a_card_parameter():
    assert errors("play(c in hand[current] as rank)") == [
        ("E202", "`as` gives a number its label; `c` is a card, which moves show by its own name", None)]


def test_a_label_text_that_names_something_else():
    assert errors('bid(n in 1..3 as "{m} tricks")') == [
        ("E201", "the label names `m`; only the move's number `n` can be shown", "write {n} where the number goes")]


def test_a_label_text_without_the_number():
    assert errors('bid(n in 1..3 as "tricks")') == [
        ("E202", 'the label "tricks" does not show the number', 'write {n} where it goes, as in "{n} tricks"')]


def test_a_label_table_of_numbers():
    assert errors("bid(n in 1..3 as count)") == [
        ("E202", "table `count` gives a number; the labels of a number are strings by number",
         'as in `table count[1..3] = { 1: "one", 2: "two", 3: "three" }`')]


def test_a_label_attribute_without_labels():
    assert errors("bid(n in 1..3 as weight)") == [
        ("E202", "attribute `weight` has no labels to show", 'give them in its kind, as in `weight: 1..13 named { 1 "A", 13 "K" }`')]


def test_an_unknown_label():
    assert errors("bid(n in 1..3 as wrd)") == [
        ("E200", "unknown label `wrd`: `as` takes a card attribute with labels, a table of strings or a text",
         "did you mean `word`?")]
