"""`sum`/`min`/`max`/`list` of a `for each`, and `.kind` of a card held in a local, are written out
as generated Python loops (compiler/expressions.py). tests/test_generated.py cannot see them, because
the steps and the generated flow call the same compiled expression: here they are checked against
the same sums worked out in plain Python from the cards the state holds, over random hands."""

import re
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl import RulesRuntimeError

FOLDS = textwrap.dedent("""\
    game "Folds"
    players 2..2
    param dealt = 0 in 0..12 "cards dealt to the first hand"
    kind chip { value: 1..6 }
    kind star { value: 1..6 }
    deck chips = chip(value: each)
    deck stars = star(value: each)
    cards chips in deck
    cards stars in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    define big(p) = sum(c.value for each c in hand[p] where c.value > 2)
    define every(p) = sum(c.value for each c in hand[p])
    define best_star(p) = max(c.value for each c in hand[p] where c.kind == star, default: -1)
    define least(p) = min(c.value + 1 for each c in hand[p] where c.kind != star, default: 99)
    define top_value(p) = max(c.value for each c in hand[p])
    define chips_in_order(p) = list(c.value for each c in hand[p] where c.kind == chip)
    define star_count(p) = count(each c in hand[p] where c.kind == star)
    flow {
      shuffle deck
      deal dealt from deck into hand[0]
      choose t by 0 { move stop {} }
    }
    """)


def held(state, program):
    """(kind, value) of each card in the first hand, in its order."""
    zone = state.zone_id("hand[0]")
    return [(program.card_kind[c], program.card_attrs["value"][c]) for c in state.zones[zone]]


@settings(max_examples=60, deadline=None)
@given(dealt=st.integers(0, 12), seed=st.integers(0, 10 ** 6))
def test_generated_folds_give_what_the_plain_sums_give(dealt, seed):
    state = ruledsl.loads(FOLDS, "folds.rules", params={"dealt": dealt}).new_game(2, seed)
    cards = held(state, state.program)
    assert len(cards) == dealt
    values = [v for _, v in cards]
    assert state.evaluate("big", 0) == sum(v for v in values if v > 2)
    assert state.evaluate("every", 0) == sum(values)
    assert state.evaluate("best_star", 0) == max((v for k, v in cards if k == "star"), default=-1)
    assert state.evaluate("least", 0) == min((v + 1 for k, v in cards if k != "star"), default=99)
    assert state.evaluate("chips_in_order", 0) == [v for k, v in cards if k == "chip"]
    assert state.evaluate("star_count", 0) == sum(1 for k, _ in cards if k == "star")
    if values:
        assert state.evaluate("top_value", 0) == max(values)
    else:  # max of nothing without a default: the rule's own error, at the define
        with pytest.raises(RulesRuntimeError) as info:
            state.evaluate("top_value", 0)
        assert "`max(...)` of nothing" in info.value.message
        assert info.value.span.line == 16


def test_the_folds_are_generated_loops():
    """The folds and `.kind` above run as generated functions, not closures called once per value."""
    state = ruledsl.loads(FOLDS, "folds.rules", params={"dealt": 5}).new_game(2, 1)
    for name in ("big", "best_star", "least", "chips_in_order"):
        state.evaluate(name, 0)  # compiled on first use, into the compiler's namespace
    ns = state.program.compiler.ns
    text = "\n".join(getattr(v, "definition", None) or getattr(v, "src", None) or ""
                     for v in ns.values() if callable(v))
    assert "_n += " in text and "_out.append(" in text and "_m = _none = " in text
    assert "_nokind" in text  # `c.kind` read from the table in place


KINDS = FOLDS.replace("define star_count(p)", "define is_star(c) = c.kind == star\n"
                      "define stars_over(p, v) = count(each c in hand[p] where c.kind == star and c.value > v)\n"
                      "define star_count(p)")


@settings(max_examples=40, deadline=None)
@given(dealt=st.integers(0, 12), seed=st.integers(0, 10 ** 6), over=st.integers(0, 6))
def test_a_kind_test_that_reads_another_local_counts_as_plain_python(dealt, seed, over):
    """`c.kind` read in place fails through a helper handed nothing, so a count whose test also reads
    another local (`v`: no table of the card alone) keeps its element in a Python local
    (purity.each_loop) instead of a slot of L: the same counts as plain Python over random hands."""
    state = ruledsl.loads(KINDS, "kinds.rules", params={"dealt": dealt}).new_game(2, seed)
    cards = held(state, state.program)
    assert state.evaluate("stars_over", 0, over) == sum(1 for k, v in cards if k == "star" and v > over)


def test_a_kind_test_loops_over_a_python_local_and_no_card_still_fails_at_the_rule():
    state = ruledsl.loads(KINDS, "kinds.rules", params={"dealt": 6}).new_game(2, 3)
    state.evaluate("stars_over", 0, 1)
    loops = [v.definition for v in state.program.compiler.ns.values()
             if "_nokind" in (getattr(v, "definition", None) or "")]
    assert loops and all("for _each in _dom:" in text and re.search(r"_nokind\d+\(\)", text) for text in loops)
    with pytest.raises(RulesRuntimeError) as info:
        state.evaluate("is_star", None)
    assert info.value.message == "`.kind` of no card"
    assert info.value.span.line == KINDS.splitlines().index("define is_star(c) = c.kind == star") + 1
