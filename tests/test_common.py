"""compiler/common.py: a pure part worked out again in one generated function, read back from a
Python local. The rewritten function must do exactly what the original does (tests/test_generated.py
checks it on every game against the step interpreter); here, where keeping must stop, each case run
both ways on random values."""

import random

import ruledsl
from ruledsl.compiler.common import keep_common
from ruledsl.engine.rules import flow_of

PART = "((_s_vars[2 + x] + 1) % 5)"


def both(body: list, var_count: int = 8) -> tuple:
    """``f(s, L, x)`` with ``body`` (``_s_vars = s``: a list here), as written and as rewritten."""
    lines = ["def f(s, L, x):", "    _s_vars = s", *[f"    {line}" for line in body]]
    rewritten = lines.copy()
    keep_common(rewritten, 0, var_count)
    made = []
    for text in (lines, rewritten):
        ns = {"bump": lambda v: v.append(1)}
        exec("\n".join(text), ns)  # noqa: S102 - the test's own text
        made.append(ns["f"])
    return "\n".join(rewritten), made[0], made[1]


def same_runs(original, rewritten) -> None:
    rng = random.Random(4)
    for _ in range(200):
        vars_ = [rng.randrange(-3, 9) for _ in range(8)]
        slots = [rng.randrange(0, 4) for _ in range(3)] + [[1, 2]]
        x = rng.randrange(0, 2)
        a, b = (vars_.copy(), [*slots[:3], slots[3].copy()]), (vars_.copy(), [*slots[:3], slots[3].copy()])
        assert original(a[0], a[1], x) == rewritten(b[0], b[1], x)
        assert a == b


def test_a_part_set_into_two_variables_is_worked_out_once_until_one_it_reads_is_written():
    text, original, rewritten = both([
        f"_k = {PART}",
        f"_s_vars[6 + x] = {PART}",  # another variable: |6 - 2| < 8, the same x
        f"_s_vars[2 + x] = {PART}",  # its own: read, then written
        f"return {PART} + _k",
    ])
    assert f"_s_vars[6 + x] = _k" in text and "_s_vars[2 + x] = _k" in text
    assert f"return {PART} + _k" in text  # after the write, worked out again
    same_runs(original, rewritten)


def test_a_part_set_into_a_variable_gets_a_local_of_its_own():
    text, original, rewritten = both([
        f"_s_vars[6 + x] = {PART}",
        f"y = {PART} * 2",
        "return y",
    ])
    assert f"_s_vars[6 + x] = _cm0 = {PART}" in text and "y = _cm0 * 2" in text
    same_runs(original, rewritten)


def test_writes_that_may_reach_what_the_part_reads_stop_keeping():
    cases = [
        ["x = 1 - x"],  # a name it reads
        ["_s_vars[x] = 0"],  # any variable: unknown index
        ["_s_vars[-6 + x] = 0"],  # |-6 - 2| == 8 variables: a negative index could land on it
        ["_s_vars[2] = 3"],  # a constant index and one with x: not known apart
        ["_s_vars[7] = 3"],
        ["if x:", "    _s_vars[2 + x] += 1"],  # in a branch
        ["bump(_s_vars)"],  # the variables handed on
        ["for _i in range(1):", "    pass"],  # a loop
        ["L[0] = 1"],  # not read: the part is kept (checked below)
    ]
    for i, between in enumerate(cases):
        text, original, rewritten = both([f"_k = {PART}", *between, f"return {PART} + _k"])
        kept = text.rstrip().endswith("return _k + _k")
        assert kept == (i == len(cases) - 1), (between, text)
        same_runs(original, rewritten)


def test_a_part_that_reads_a_slot_is_forgotten_when_a_list_changes_in_place():
    text, original, rewritten = both([
        "_k = (L[3][0] + 1)",  # not a part: a list in a slot read through
        "y = (L[1] + L[2])",
        "_v = L[3]",
        "bump(_v)",
        "return (L[1] + L[2]) + y + (L[3][0] + 1) + _k",
    ])
    assert "return (L[1] + L[2]) + y + (L[3][0] + 1) + _k" in text
    same_runs(original, rewritten)
    text, original, rewritten = both(["y = (L[1] + L[2])", "L[0] = 5", "return (L[1] + L[2]) * y"])
    assert "return y * y" in text
    same_runs(original, rewritten)


def test_a_call_s_argument_list_is_not_taken_for_the_part():
    text, original, rewritten = both(["y = (x * 2 + 1)", "z = abs(x * 2 + 1) + max(0, (x * 2 + 1))", "return z + y"])
    assert "abs(x * 2 + 1)" in text and "max(0, y)" in text
    same_runs(original, rewritten)


def test_trolley_cars_lay_works_out_the_next_space_once():
    game = ruledsl.load("games/trolley_car.rules")
    source = flow_of(game.new_game(2, 1).program).source
    assert "] = _k  # games/trolley_car.rules:69" in source and "] = _k  # games/trolley_car.rules:70" in source


def test_a_line_that_writes_first_and_reads_after_keeps_the_part_worked_out():
    text, original, rewritten = both([
        f"_k = {PART}",
        f"y = (x := 1 - x) + {PART}",  # the name written in the line before the part is read
        f"_s_vars[2 + x] = bump([]) or {PART}",  # a call in the value: not known to come first
        "return y + _k",
    ])
    assert f"(x := 1 - x) + {PART}" in text and f"bump([]) or {PART}" in text
    same_runs(original, rewritten)
