"""Parts of a two-argument move's condition tested before its inner loop (compiler/hoist.py): which
parts move and which stay, and a game whose listing uses it played by the generated code and by the
steps side by side."""

import textwrap

import ruledsl
import step_interpreter
from ruledsl.compiler import hoist
from ruledsl.engine.rules import flow_of

CARDS = frozenset({3})
COLUMN = {"_a_colour_9"}.__contains__


def split(cond, constant=(False, True), slots=(3, 4)):
    return hoist.split(cond, list(slots), CARDS, list(constant), COLUMN)


def test_a_part_of_the_outer_argument_alone_is_tested_in_the_outer_loop():
    tests, rest = split("(L[4] != 4) and ((_a_colour_9[L[3]] == 4) and (not _d1(s, L)))")
    assert tests == [["(_a_colour_9[L[3]] == 4)"], []]
    assert rest == "(L[4] != 4) and (not _d1(s, L))"


def test_every_part_hoisted_leaves_no_condition_and_inner_parts_stay_inner():
    assert split("(_a_colour_9[L[3]] == 2) and L[4] == 1") == ([["(_a_colour_9[L[3]] == 2)"], []], "(L[4] == 1)")
    assert split("_a_colour_9[L[3]] != 2 and not (L[3] == 0 or L[3] == 5)") == (
        [["(_a_colour_9[L[3]] != 2)", "(not (L[3] == 0 or L[3] == 5))"], []], None)
    # a slot that is no argument of the move: left in the innermost loop
    assert split("_a_colour_9[L[3]] != 2 and L[9] == 0") == ([["(_a_colour_9[L[3]] != 2)"], []], "(L[9] == 0)")


def test_nothing_moves_after_a_part_that_may_fail_or_before_a_loop_that_may():
    # a call first: every part after it keeps its place (it could raise where a hoisted test is false)
    assert split("_d1(s, L) and _a_colour_9[L[3]] == 2") == ([[], []], "_d1(s, L) and _a_colour_9[L[3]] == 2")
    # an inner domain that is not a constant is not skipped (working it out might fail)
    assert split("_a_colour_9[L[3]] == 2 and L[4] == 1", constant=(False, False))[0] == [[], []]
    # an ordering comparison may meet None; an unknown table, or one indexed by a non-card, is not read early
    for cond in ("L[3] < 2 and L[4] == 1", "_t_8[L[3]] == 2 and L[4] == 1", "_a_colour_9[L[4]] == 2 and L[4] == 1",
                 "(x := L[3]) == 2 and L[4] == 1"):
        assert split(cond)[0] == [[], []], cond


# the tiles of both test games: four colours (one of them wild), three ranks, two of each
TILES = """\
    enum colour { red "R", green "G", blue "B", wild "W" }
    kind tile {
      colour: colour
      rank: 1..3
      show "{colour}{rank}"
    }
    cards 2 * tile(colour: {red, green, blue, wild}, rank: 1..3) in deck

    zone deck: pile hidden
    zone pile: pile public
    zone hand[player]: row owner
    var now: colour = red
"""

PAINT = textwrap.dedent("""\
    game "Paint"
    players 2..3
    limit 300 moves

""" + TILES + """\
    var painted[player]: int public = 0

    flow {
      shuffle deck
      for p in players { deal 4 from deck into hand[p] }
      turns from 0 until any(each p in players where empty(hand[p])) {
        choose turn by current {
          move paint(c in hand[current], k in colour) where k != wild and c.colour == wild and (c.rank == 3 or k != now) {
            put c into pile
            now = k
            painted[current] += 1
          }
          move lay(c in hand[current]) where c.colour == now {
            put c into pile
          }
          move draw where not empty(deck) {
            put top(deck) into hand[current]
          }
          when no move: end game
        }
      }
    }

    define score(p) = painted[p]
    winner(p): highest score(p)
""")


def test_a_game_listing_with_a_hoisted_test_plays_as_the_steps_do():
    game = ruledsl.loads(PAINT)
    source = flow_of(game.new_game(2, 0).program).source
    assert "for _x" in source and "_Xd" in source  # the cards' loop (the card in a local), the colours over a constant tuple
    assert any(line.strip().startswith("if (_a_colour_") and "== 3)" in line for line in source.splitlines())
    painted = 0
    for n in (2, 3):
        for seed in range(12):
            state, made = step_interpreter.play_both_ways(game, n, seed)
            painted += sum(m.name == "paint" for m in made)
    assert painted > 0  # the hoisted move was listed and made


def test_a_constant_domain_is_filtered_by_the_leading_tests_of_its_argument_alone():
    """hoist.constant_filter: the leading parts that read only the argument and constants are worked
    out for each value when compiling; the rest is asked once, if it never reads the argument and
    changes nothing (hoist.quiet)."""
    ns = {"_a_colour_9": [0, 4, 1], "_d1": _definition("return L[3] == 2"), "_d2": _definition("return L[4] == 2"),
          "_f3": lambda s, L: True}
    assert hoist.constant_filter("(L[4] != 4) and (_a_colour_9[L[3]] == 4)", 4, tuple(range(5)), ns) == (
        (0, 1, 2, 3), "(_a_colour_9[L[3]] == 4)")
    assert hoist.constant_filter("L[4] != 4 and L[4] != 0", 4, (0, 4, 2), ns) == ((2,), None)
    assert hoist.constant_filter("not _d1(s, L)", 4, (0, 1), ns) == ((0, 1), "(not _d1(s, L))")
    # the rest reads the argument, in place or in a function it calls; or calls what may do anything
    for cond in ("L[4] != 4 and L[3] == L[4]", "L[4] != 4 and _d2(s, L)", "L[4] != 4 and _f3(s, L)",
                 "L[4] != 4 and s._check_actor(0, 1)", "(x := L[4]) == 1"):
        assert hoist.constant_filter(cond, 4, (0, 1), ns) is None, cond


def _definition(body: str):
    def fn(s, L):
        raise AssertionError("not called")

    fn.definition = f"def _d(s, L):\n    {body}\n"
    return fn


NAMING = textwrap.dedent("""\
    game "Naming"
    players 2..3
    limit 200 moves

""" + TILES + """\

    flow {
      shuffle deck
      for p in players { deal 3 from deck into hand[p] }
      turns from 0 until empty(deck) or any(each p in players where empty(hand[p])) {
        choose turn by current {
          move call(k in colour) where k != wild and k != now and any(each c in hand[current] where c.colour == wild) {
            now = k
            put top(deck) into hand[current]
          }
          move match(k in colour) where k != wild and any(each c in hand[current] where c.colour == k) {
            put first(each c in hand[current] where c.colour == k) into pile
          }
          move swap(c in hand[current], k in colour) where k != wild and c.colour == wild and size(deck) > 3 {
            now = k
            put c into pile
          }
          move draw {
            put top(deck) into hand[current]
          }
        }
      }
    }

    define score(p) = 0 - size(hand[p])
    winner(p): highest score(p)
""")


def test_a_game_listing_with_a_filtered_constant_domain_plays_as_the_steps_do():
    """`call(k in colour) where k != wild and k != now and ...`: k != wild is worked out when compiling
    (its moves made once), `k != now` reads a variable, so it and the rest stay in the loop; `match`
    reads k in its rest: not filtered; `swap(c in ..., k in colour)`: the colours filtered, the rest
    asked once per card. Played against the step interpreter."""
    game = ruledsl.loads(NAMING)
    source = flow_of(game.new_game(2, 0).program).source
    assert "out += _XL" not in source  # `k != now` reads a variable: the loop stays
    assert "for _v in _Xd" in source  # swap's colours
    filtered = ruledsl.loads(NAMING.replace("k != now and ", ""))
    source = flow_of(filtered.new_game(2, 0).program).source
    assert "out += _XL" in source  # the call's moves, made once
    assert all("for L[" in line for line in source.splitlines() if "# move match" in line)  # reads k: a loop
    called = swapped = 0
    for g in (game, filtered):
        for n in (2, 3):
            for seed in range(10):
                state, made = step_interpreter.play_both_ways(g, n, seed)
                called += sum(m.name == "call" for m in made)
                swapped += sum(m.name == "swap" for m in made)
    assert called > 0 and swapped > 0
