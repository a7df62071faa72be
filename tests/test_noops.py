"""compiler/noops.py: statements of a generated function that do nothing, taken out of its text. The
rewritten function must do exactly what the original does (tests/test_generated.py checks it on every
game against the step interpreter); here, which lines go and which must stay, each run both ways."""

import dis
import random

import ruledsl
from ruledsl.compiler.noops import drop_noops
from ruledsl.engine.rules import flow_of


def both(body: list) -> tuple:
    """The function ``f(L)`` with ``body``, as written and as rewritten: (its lines, both functions)."""
    lines = ["def f(L):", *[f"    {line}" for line in body]]
    rewritten = lines.copy()
    drop_noops(rewritten, 0)
    made = []
    for text in (lines, rewritten):
        ns = {}
        exec("\n".join(text), ns)  # noqa: S102 - the test's own text
        made.append(ns["f"])
    return rewritten, made[0], made[1]


def nops(fn) -> int:
    return sum(1 for ins in dis.get_instructions(fn) if ins.opname == "NOP")


def test_a_pass_beside_other_statements_becomes_a_comment_and_a_lone_one_stays():
    lines, original, rewritten = both([
        "x = L[0]  # a",
        "pass  # jump to step 4  # rules:3",
        "if x > 0:",
        "    pass  # alone in its block: it stays",
        "else:",
        "    x = -x",
        "    pass",
        "while x > 5:",
        "    pass",
        "    pass",
        "    x -= 2",
        "if L[1]:",
        "    pass",
        "    pass  # two alone: one stays",
        "return x",
    ])
    assert len(lines) == 16  # the same number of lines: each generated line still names its rules line
    assert lines[2] == "    # (pass) jump to step 4  # rules:3"
    assert lines[4] == "        pass  # alone in its block: it stays"
    assert lines[7].strip().startswith("#")
    assert lines[9].strip().startswith("#") and lines[10].strip().startswith("#")
    assert lines[13].strip().startswith("#") and lines[14] == "        pass  # two alone: one stays"
    assert nops(rewritten) < nops(original)
    rng = random.Random(5)
    for _ in range(100):
        L = [rng.randrange(-9, 10), rng.randrange(2)]
        assert original(L) == rewritten(L)


def test_a_double_negation_in_a_test_asks_the_operand_once():
    lines, original, rewritten = both([
        "if not ((not L[0])):",
        "    return 1",
        "while ((not (not (not L[1])))):",
        "    L[1] = 1",
        "if not L[2]:",  # a single `not` stays
        "    return 2",
        "return 3",
    ])
    assert lines[1] == "    if (L[0]):"
    assert lines[3] == "    while (((not L[1]))):"
    assert lines[5] == "    if not L[2]:"
    for values in ([0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1], [[], [], "x"], [[1], None, ""]):
        a, b = list(values), list(values)
        assert original(a) == rewritten(b) and a == b


def test_no_lone_pass_is_left_among_other_statements_in_trolley_cars_code():
    game = ruledsl.load("games/trolley_car.rules")
    state = game.new_game(2, 1)
    source = flow_of(state.program).source
    assert "# (pass)" in source  # the jumps within a function and the unused masks were written as `pass`
    for line in source.split("\n"):
        assert "not (not " not in line.split("  # ")[0]
