"""`stack_from(z, c)`: a card and every card on it, as one list from that card up (docs/language.md §4.3.2).
Its value and findings, the checker's errors, and Forty Moves (tests/data/forty.rules, a patience that
moves runs of cards) played through the step interpreter, the adapters' steps and verify."""

import random
import textwrap
from pathlib import Path

import pytest
import step_interpreter
from rules_text import MINI, diagnostics

import ruledsl
from ruledsl import RulesRuntimeError
from ruledsl.adapters.steps import NONE, StepCodec
from ruledsl.verify.checks import verify

DATA = Path(__file__).resolve().parent / "data"
FORTY = DATA / "forty.rules"

PILES = MINI + textwrap.dedent("""\
    zone pile: pile public
    define from_card(c) = stack_from(pile, c)
    define from_top_two(c) = stack_from(top(pile, 2), c)
    flow {
      choose turn by 0 {
        move lift(c in pile) { put stack_from(pile, c) into hand[1] }
        move lift_drawn { put stack_from(pile, top(deck)) into hand[1] }
      }
    }
    """)


def piled(labels):
    s = ruledsl.loads(PILES, "piles.rules").new_game(2, seed=0)
    for label in labels:
        s.place(label, "pile")
    assert s.cards_in("pile") == labels
    return s


def labels(s, cards):
    return [s.card_label(c) for c in cards]


def test_a_stack_is_the_card_and_every_card_on_it_from_the_card_up():
    s = piled(["2♣", "9♦", "5♠", "K♥"])
    assert labels(s, s.evaluate("from_card", "9♦")) == ["9♦", "5♠", "K♥"]
    assert labels(s, s.evaluate("from_card", "K♥")) == ["K♥"]
    assert labels(s, s.evaluate("from_card", "2♣")) == ["2♣", "9♦", "5♠", "K♥"]
    # a list works as well: top(pile, 2) is the top card first
    assert labels(s, s.evaluate("from_top_two", "K♥")) == ["K♥", "5♠"]


def test_putting_a_stack_keeps_its_order_and_leaves_the_cards_under_it():
    s = piled(["2♣", "9♦", "5♠", "K♥"])
    s.place("A♠", "hand[1]")
    s.apply(ruledsl.Move("lift", (s.cards_named("9♦")[0],)))
    assert s.cards_in("pile") == ["2♣"]
    assert s.cards_in("hand[1]") == ["A♠", "9♦", "5♠", "K♥"]


def test_a_stack_from_a_card_not_in_the_zone_is_a_finding():
    s = piled(["2♣", "9♦"])
    with pytest.raises(RulesRuntimeError) as e:
        s.apply(ruledsl.Move("lift_drawn"))
    assert "`stack_from(...)`: the card" in str(e.value) and "is not in the zone" in str(e.value)
    assert s.cards_in("pile") == ["2♣", "9♦"]  # a refused move changes nothing


def test_stack_of_a_track_or_from_a_number_is_an_error():
    (d,) = diagnostics("zone line: track(5) public\nflow {\n  put stack_from(line, top(deck)) into hand[0]\n}\n",
                       before=MINI)
    assert (d.code, d.line) == ("E202", MINI.count("\n") + 3)
    assert d.message == "`stack_from` gives a card and the cards on it; a track's cards lie in slots, side by side"
    assert d.hint == "cards that lie on each other are a pile or a row: zone NAME: pile public"
    (d,) = diagnostics("flow {\n  put stack_from(deck, 3) into hand[0]\n}\n", before=MINI)
    assert (d.code, d.message) == ("E202", "`stack_from` needs a card here, not a number")
    (d,) = diagnostics("flow {\n  put stack_from(deck) into hand[0]\n}\n", before=MINI)
    assert (d.code, d.message) == ("E203", "`stack_from` takes 2 argument(s), not 1")


# ---- Forty Moves: runs of cards moved together


def _play(game, seed, each):
    s = game.new_game(1, seed)
    rng = random.Random(seed)
    while not s.is_over:
        legal = s.legal_moves()
        each(s, legal)
        s._apply(legal[rng.randrange(len(legal))])
    return s


def test_forty_moves_shifts_runs_of_several_cards():
    game = ruledsl.load(FORTY)
    runs = []

    def note(s, legal):
        for m in legal:
            if m.name == "shift":
                i, c, _ = m.args
                column = s.zones[s.zone_id(f"up[{i}]")]
                runs.append(len(column) - column.index(c))

    for seed in range(20):
        _play(game, seed, note)
    assert max(runs) >= 2 and 1 in runs  # single cards and runs of several were offered


def test_the_generated_flow_moves_runs_as_the_steps_do():
    game = ruledsl.load(FORTY)
    for seed in range(6):
        step_interpreter.play_both_ways(game, 1, seed)


def test_a_shift_is_chosen_in_steps_by_the_adapters():
    """`shift(i, c, j)`: three actions, the column, the card, the column it goes to; every legal move is
    reached by its steps, and every path of legal steps ends in a legal move."""
    game = ruledsl.load(FORTY)
    codec = StepCodec(game.program, 1)
    shifts = 0
    for seed in range(8):
        s = game.new_game(1, seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            for m in legal:
                pending = NONE
                actions = codec.actions_of(s, m)
                assert len(actions) == max(1, len(m.args))
                for a in actions:
                    ids, leads = codec.legal(s, pending)
                    assert a in ids
                    pending = leads[a]
                assert pending == m
                shifts += m.name == "shift"
            s.apply(legal[rng.randrange(len(legal))])
    assert shifts > 0


def test_forty_moves_keeps_verify_green():
    report = verify(ruledsl.load(FORTY), examples=4, shrink_seconds=0)
    assert report.ok, report
