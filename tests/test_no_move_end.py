"""``when no move: end game`` (docs/language.md §4.12.6): a decision nobody can answer ends the game."""

import random
from pathlib import Path

from rules_text import diagnostics
from step_interpreter import apply as step_apply

import ruledsl
from ruledsl.language import ast as A
from ruledsl.language.parse import parse
from ruledsl.verify.checks import verify

ROOT = Path(__file__).resolve().parent.parent
BLOCKED = ROOT / "tests/data/blocked.rules"
BEFORE_PASS = ROOT / "tests/data/tutorial_before_pass.rules"
DRAW = """      move draw where not empty(deck) {
        put top(deck) into hand[current]  # mutate: equivalent top-bottom — no rule reads the order of a hand, only its cards
      }
"""


def test_the_clause_parses_onto_the_decision_and_no_stays_a_name():
    tree = parse(BLOCKED.read_text(), "blocked.rules")
    flow = next(i for i in tree.items if isinstance(i, A.FlowDef))
    choose = flow.body[-1].body[0]
    assert isinstance(choose, A.Choose) and isinstance(choose.no_move_end, A.NoMoveEnd)
    assert choose.no_move_end.span.line == BLOCKED.read_text().splitlines().index("      when no move: end game") + 1
    assert [o.name for o in choose.options] == ["lay"]
    # `no` is a keyword only in the clause: an enum value or a move may still be called so
    parse('game "G"\nenum answer { yes, no }\nflow { choose no by 0 { move no {} } }\n', "g.rules")


def test_a_decision_that_always_has_a_move_cannot_end_for_want_of_one():
    text = BLOCKED.read_text().replace("      when no move: end game\n",
                                       "      move rest {}\n      when no move: end game\n")
    (d,) = diagnostics(text, name="blocked.rules")
    assert d.code == "E206" and "always has a legal move, `rest`" in d.message
    assert "give `rest` the condition" in d.hint


def test_a_move_with_a_condition_or_parameters_leaves_the_clause_useful():
    text = BLOCKED.read_text().replace("      when no move: end game\n",
                                       "      move rest where laid[current] > 2 {}\n      when no move: end game\n")
    assert ruledsl.loads(text, "blocked.rules") is not None


def test_the_clause_belongs_to_one_decision_only():
    text = BLOCKED.read_text().replace("      when no move: end game\n", "")
    text = text.replace("  turns from 0", "  when no move: end game\n  turns from 0")
    assert diagnostics(text, name="blocked.rules")[0].code.startswith("E1")


def test_no_decision_without_a_legal_move_is_ever_offered():
    game = ruledsl.load(BLOCKED)
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_game(players=2 + seed % 3, seed=seed)
        while not state.is_over:
            moves = state.legal_moves()
            assert moves, "a decision with no legal move was offered"
            state.apply(rng.choice(moves))
        assert state.finding is None and state.winners


def test_the_step_interpreter_ends_the_game_at_the_same_point():
    game = ruledsl.load(BLOCKED)
    for seed in range(10):
        rng = random.Random(seed)
        fast, slow = game.new_game(players=2, seed=seed), game.new_game(players=2, seed=seed)
        while not fast.is_over:
            move = rng.choice(fast.legal_moves())
            fast.apply(move)
            step_apply(slow, move)
            assert slow.is_over == fast.is_over and slow.legal_moves() == fast.legal_moves()
        assert slow.winners == fast.winners


def test_verify_holds_once_the_stuck_decision_ends_the_game():
    """The tutorial before its `pass` move gets stuck (tests/test_verify.py finds it); with the
    clause instead of `pass`, the same rules verify."""
    text = BEFORE_PASS.read_text(encoding="utf-8")
    assert DRAW in text
    stuck = ruledsl.loads(text, str(BEFORE_PASS))
    report = verify(stuck, shrink_seconds=5)
    assert report.failure is not None and "has no legal move" in report.failure.message
    fixed = ruledsl.loads(text.replace(DRAW, DRAW + "      when no move: end game\n"), str(BEFORE_PASS))
    assert verify(fixed, shrink_seconds=5).ok


def test_explain_says_the_game_ends():
    from ruledsl.desk.explain import rulebook
    assert "If you have no legal move here, the game ends." in rulebook(str(BLOCKED))
