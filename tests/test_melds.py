"""The meld tests `same`, `distinct`, `run` (each x in ... by KEY), and set moves whose `while` is worked
out from them (docs/language.md §5.6.1, §4.12.7): their values, the checker's errors, the search that
tells whether chosen cards can still become a meld, and games played with them both ways."""

import itertools
import random
import textwrap
from pathlib import Path

import pytest
import step_interpreter
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_text import MINI, diagnostics

import ruledsl
from ruledsl import RulesRuntimeError
from ruledsl.compiler.melds import completable
from ruledsl.verify.checks import verify

DATA = Path(__file__).resolve().parent / "data"

TESTS = MINI.replace("cards standard52 in deck", "cards 2 * standard52 in deck") + textwrap.dedent("""\
    zone pile: pile public
    define alike(p) = same(each c in hand[p] by c.rank)
    define suits_differ(p) = distinct(each c in hand[p] by c.suit)
    define in_sequence(p) = run(each c in hand[p] by c.rank)
    define going_up(p) = run(each c in hand[p] by lowest c.rank)
    define going_down(p) = run(each c in hand[p] by highest c.rank)
    define high_alike(p) = same(each c in hand[p] where c.rank > 9 by c.suit)
    flow { choose turn by 0 { move stop {} } }
    """)


def holding(labels, game=None):
    """A new game of ``game`` (the tests' small one) whose hand[0] holds the cards ``labels``, in order."""
    s = (game or ruledsl.loads(TESTS, "tests.rules")).new_game(2, seed=0)
    for label in s.cards_in("hand[0]"):
        s.place(label, "deck")
    for label in labels:
        s.place(label, "hand[0]")
    assert s.cards_in("hand[0]") == labels
    return s


@pytest.mark.parametrize("labels, alike, differ, sequence, up, down", [
    ([], True, True, True, True, True),
    (["7♣"], True, True, True, True, True),
    (["7♣", "7♦", "7♠"], True, True, False, False, False),
    (["7♣", "7♦", "7♣"], True, False, False, False, False),
    (["5♥", "6♥", "7♥"], False, False, True, True, False),
    (["7♥", "6♥", "5♥"], False, False, True, False, True),
    (["6♥", "5♥", "7♥"], False, False, True, False, False),
    (["5♥", "6♥", "8♥"], False, False, False, False, False),
    (["5♥", "5♠", "6♥"], False, False, False, False, False),
])
def test_the_meld_tests_of_a_hand(labels, alike, differ, sequence, up, down):
    s = holding(labels)
    assert s.evaluate("alike", 0) is alike
    assert s.evaluate("suits_differ", 0) is differ
    assert s.evaluate("in_sequence", 0) is sequence
    assert s.evaluate("going_up", 0) is up
    assert s.evaluate("going_down", 0) is down


def test_a_meld_test_looks_only_at_the_values_where_keeps():
    s = holding(["10♥", "2♣", "Q♥", "K♥"])
    assert s.evaluate("high_alike", 0) is True
    s.place("J♠", "hand[0]")
    assert s.evaluate("high_alike", 0) is False


# ---- the checker's errors


@pytest.mark.parametrize("expr, message, hint", [
    ("same(each c in hand[0])", "`same` compares the values by a key: same(each c in ... by KEY)",
     "for example same(each c in ... by c.ATTRIBUTE): true when all the cards are alike in it"),
    ("run(each c in hand[0] by c.suit)",
     "a `run` is of whole numbers that follow each other; its key should be a number, not a suit",
     "give the run a number: a number attribute of the card, or a table of the places in the sequence"),
    ("same(each c in hand[0] by highest c.rank)",
     "`same` does not look at the order of the values; `highest` is for `run` and `sorted`",
     "write same(each c in ... by KEY)"),
    ("distinct(each c in hand[0] by lowest c.rank)",
     "`distinct` does not look at the order of the values; `lowest` is for `run` and `sorted`",
     "write distinct(each c in ... by KEY)"),
    ("distinct(each c in hand[0] by hand[1])",
     ("the key of `distinct` should be one value of each c (a number, an enum value, a player, true/false or "
      "a key like (a, b)), not a zone"), "compare an attribute of each: distinct(each c in ... by c.ATTRIBUTE)"),
])
def test_a_meld_test_without_a_fitting_key_is_an_error(expr, message, hint):
    (d,) = diagnostics(f"flow {{\n  if {expr} {{ put top(deck) into hand[0] }}\n}}\n", before=MINI)
    assert (d.code, d.message, d.hint) == ("E202", message, hint)
    assert d.line == MINI.count("\n") + 2


# ---- whether chosen cards can still become a meld: the search against every set

KINDS = st.lists(st.sampled_from(["same", "distinct", "run"]), min_size=0, max_size=3).map(tuple)


def _meets(cards, kinds):
    for i, kind in enumerate(kinds):
        values = [keys[i] for keys in cards]
        if kind == "same" and len(set(values)) > 1:
            return False
        if kind == "distinct" and len(set(values)) != len(values):
            return False
        if kind == "run" and any(b != a + 1 for a, b in zip(sorted(values), sorted(values)[1:])):
            return False
    return True


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_completable_answers_as_trying_every_set_would(data):
    kinds = data.draw(KINDS)
    card = st.tuples(*[st.integers(1, 5) for _ in kinds])
    cards = data.draw(st.lists(card, max_size=7))
    k = data.draw(st.integers(0, min(3, len(cards))))
    chosen, rest = cards[:k], cards[k:]
    low, high = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 7))
    some = any(low <= k + m <= high and _meets(chosen + list(more), kinds)
               for m in range(len(rest) + 1) for more in itertools.combinations(rest, m))
    assert completable(chosen, rest, kinds, low, high) is some


# ---- set moves whose `while` is worked out

MELDS = DATA / "melds.rules"

# Melders' sets of one rank with the `while` written out by hand, as docs/language.md §4.12.4 does
BY_HAND = MELDS.read_text(encoding="utf-8").replace(
    """      move meld(cs subset of hand[current])
          where same(each c in cs by c.rank) and size(cs) >= 3 and size(cs) <= 4
             or run(each c in cs by c.rank) and same(each c in cs by c.suit) and size(cs) >= 3 {""",
    """      move meld(cs subset of hand[current] while can_meld(current, cs)) where one_rank(cs) and size(cs) >= 3 {""",
).replace("flow {", """define one_rank(cs) = all(each a in cs where all(each b in cs where b.rank == a.rank))
define can_meld(p, cs) = one_rank(cs) and size(cs) <= 4
    and any(each c in hand[p] where all(each d in cs where d.rank == c.rank)
            and count(each d in hand[p] where d.rank == c.rank) >= 3)
flow {""")
SETS_ONLY = MELDS.read_text(encoding="utf-8").replace(
    "\n             or run(each c in cs by c.rank) and same(each c in cs by c.suit) and size(cs) >= 3", "")


def test_the_worked_out_while_plays_as_the_one_written_by_hand():
    assert BY_HAND != MELDS.read_text(encoding="utf-8") and "while" not in SETS_ONLY.split("flow {")[1]
    auto = ruledsl.loads(SETS_ONLY, "sets.rules")
    hand = ruledsl.loads(BY_HAND, "by_hand.rules")
    melds = 0
    for seed in range(12):
        a, b = auto.new_game(2, seed), hand.new_game(2, seed)
        rng = random.Random(seed)
        while not a.is_over:
            legal = a.legal_moves()
            assert legal == b.legal_moves(), (seed, len(a.moves))
            move = legal[rng.randrange(len(legal))]
            melds += move.name == "done"
            a.apply(move)
            b.apply(move)
        assert b.is_over and a.winners == b.winners
    assert melds > 3  # the games made melds, not only draws


@pytest.mark.parametrize("n", [2, 3])
def test_the_generated_flow_builds_melds_as_the_steps_do(n):
    game = ruledsl.load(MELDS)
    built = 0
    for seed in range(4):
        built += sum(m.name == "add" for m in step_interpreter.play_both_ways(game, n, seed)[1])
    assert built > 0


def test_no_set_built_by_the_worked_out_while_is_a_dead_end():
    """Every `add` offered leads to a meld: from every set being built, `done` or another `add` is legal."""
    game = ruledsl.load(MELDS)
    for seed in range(30):
        s = game.new_game(3, seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            assert legal  # never stuck
            s.apply(legal[rng.randrange(len(legal))])
        assert s.finding is None


def test_a_condition_of_another_shape_keeps_the_plain_set_move():
    """`!=` on the size is not a bound: the move is offered as before, when the whole hand meets it."""
    text = MELDS.read_text(encoding="utf-8").replace(
        "size(cs) >= 3 and size(cs) <= 4", "size(cs) != 2")
    s = holding(["7♣", "7♦", "7♠"], ruledsl.loads(text.replace("stock", "deck"), "other.rules"))
    assert [m.name for m in s.legal_moves()] == ["meld", "draw"]  # the whole hand is one rank
    s.apply(ruledsl.Move("meld"))
    assert [m.name for m in s.legal_moves()] == ["add", "add", "add", "done"]  # no `while`: any card, done at once


def test_a_search_too_long_for_a_mix_of_tests_is_a_finding():
    """A run with no two cards of one suit (`run` and `distinct` together are searched) over two whole
    decks: the search is cut off with a finding at the move, not left to run; over a hand it is answered."""
    text = MINI.replace("cards standard52 in deck", "cards 2 * standard52 in deck") + textwrap.dedent("""\
        flow {
          choose turn by 0 {
            move spread(cs subset of deck) where run(each c in cs by c.rank) and distinct(each c in cs by c.suit)
                and size(cs) >= 5 { put cs into hand[0] }
            move stop {}
          }
        }
        """)
    with pytest.raises(RulesRuntimeError) as e:
        ruledsl.loads(text, "spread.rules").new_game(2, seed=0).legal_moves()
    assert "the set move looked at more than 100,000 cards" in str(e.value)
    assert "write a `while` of your own" in str(e.value)
    in_hand = text.replace("subset of deck", "subset of hand[0]")
    s = holding(["5♥", "6♠", "7♦", "8♣", "9♥"], ruledsl.loads(in_hand, "hand.rules"))
    assert [m.name for m in s.legal_moves()] == ["stop"]  # four suits: no run of five without a suit twice
    s = holding(["5♥", "6♠", "7♦", "8♣", "9♥"], ruledsl.loads(in_hand.replace(">= 5", ">= 4"), "four.rules"))
    assert [m.name for m in s.legal_moves()] == ["spread", "stop"]
    s.apply(ruledsl.Move("spread"))
    add = [s.card_label(m.args[0]) for m in s.legal_moves() if m.name == "add"]
    assert add == ["5♥", "6♠", "7♦", "8♣", "9♥"]
    s.apply(ruledsl.Move("add", (s.cards_named("5♥")[0],)))
    add = [s.card_label(m.args[0]) for m in s.legal_moves() if m.name == "add"]
    assert add == ["6♠", "7♦", "8♣"]  # 9♥ would make a second heart of the run 5-8


def test_meld_tests_inside_a_define_of_a_set_move_are_an_error():
    body = textwrap.dedent("""\
        zone laid[player]: row public
        define is_meld(cs) = same(each c in cs by c.rank) and size(cs) >= 3
        define meld_of_rank(cs) = is_meld(cs) and size(cs) <= 4
        flow {
          choose turn by 0 {
            move meld(cs subset of hand[0]) where meld_of_rank(cs) { put cs into laid[0] }
            move stop {}
          }
        }
        """)
    (d,) = diagnostics(body, before=MINI)
    assert (d.code, d.line, d.column) == ("E206", MINI.count("\n") + 6, 43)
    assert d.message == ("the meld tests of this set are inside `meld_of_rank`, where the game cannot see them: "
                         "it cannot work out which sets can still become a meld")
    assert d.hint == ("write the tests in the move's own condition, as in where same(each c in cs by c.ATTRIBUTE) "
                      "and size(cs) >= 3, or say which sets can still become one with "
                      "`cs subset of ... while CONDITION`")
    # with a `while` of its own, or with the tests in the move's condition, it checks
    ruledsl.loads(MINI + body.replace("subset of hand[0])", "subset of hand[0] while size(cs) <= 4)"), "a.rules")
    ruledsl.loads(MINI + body.replace("where meld_of_rank(cs)",
                                      "where same(each c in cs by c.rank) and size(cs) >= 3"), "b.rules")


def test_melders_keeps_verify_green():
    report = verify(ruledsl.load(MELDS), players=[3], examples=3, shrink_seconds=0)
    assert report.ok, report
