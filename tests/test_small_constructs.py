"""Small constructs of issue 28: `min`/`max` with a default over nothing, `reverse ZONE`
(docs/language.md §5.7, §4.5.1)."""

import textwrap


import ruledsl
from rules_text import diagnostics

BASE = """\
game "Mini"
players 2..2
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone pile: pile public
zone line: track(4) public
zone hand[player]: row owner
var low: int = 0
var high: int = 0
"""


def load(flow: str):
    return ruledsl.loads(BASE + textwrap.dedent(flow), "mini.rules")


errors = diagnostics


def test_min_and_max_of_nothing_give_their_default():
    state = load("""\
        flow {
          low = min(c.rank for each c in hand[0], default: 99)
          high = max(c.rank for each c in deck where c.rank > 13, default: -1)
          choose t by 0 { move stop {} }
        }
        """).new_game(2, 0)
    assert (state.get_var("low"), state.get_var("high")) == (99, -1)


def test_a_default_is_not_used_when_there_are_values():
    state = load("""\
        flow {
          high = max(c.rank for each c in deck, default: -1)
          choose t by 0 { move stop {} }
        }
        """).new_game(2, 0)
    assert state.get_var("high") == 13


def test_only_min_and_max_take_a_default():
    (d,) = errors(BASE + "flow { low = sum(c.rank for each c in deck, default: 0) }\n")
    assert (d.code, d.line) == ("E202", 11)
    assert d.message == "`sum` of nothing is 0: it takes no `default`"
    assert d.hint == "only `min` and `max` take a default"


def test_a_default_is_a_number():
    (d,) = errors(BASE + "flow { low = min(c.rank for each c in deck, default: true) }\n")
    assert d.code == "E202" and "the default of `min`" in d.message


def test_reverse_turns_a_pile_over():
    state = load("""\
        flow {
          repeat 3 times { put top(deck) into pile }
          choose t by 0 { move turn { reverse pile } }
        }
        """).new_game(2, 0)
    pile = state.program.zone_families["pile"][0]
    before = list(state.zones[pile])
    state.apply("turn")
    assert state.zones[pile] == before[::-1]


def test_a_track_cannot_be_reversed():
    (d,) = errors(BASE + "flow { reverse line }\n")
    assert (d.code, d.line, d.column) == ("E202", 11, 16)
    assert d.message == "`reverse` turns a pile or a row over; a track's cards keep their slots"
    assert d.hint == "move the cards of a track slot by slot with `put ... at SLOT`"
