"""compiler/forward.py: a generated function's locals slots read back from Python locals. The
rewritten function must do exactly what the original does (tests/test_generated.py checks it on
every game against the step interpreter); here, the places where forwarding must stop, each run
both ways on random values."""

import random

from ruledsl.compiler.forward import forward_slots


def both(body: list) -> tuple:
    """The function ``f(s, L)`` with ``body``, as written and as rewritten: (its text, both functions)."""
    lines = ["def f(s, L):", *[f"    {line}" for line in body]]
    rewritten = lines.copy()
    forward_slots(rewritten, 0)
    made = []
    for text in (lines, rewritten):
        ns = {"bump": lambda s, L: L.__setitem__(1, L[1] + 10)}
        exec("\n".join(text), ns)  # noqa: S102 - the test's own text
        made.append(ns["f"])
    return "\n".join(rewritten), made[0], made[1]


def same_runs(original, rewritten) -> None:
    rng = random.Random(3)
    for _ in range(200):
        start = [rng.randrange(-5, 6) for _ in range(4)]
        a, b = start.copy(), start.copy()
        assert original(None, a) == rewritten(None, b)
        assert a == b


def test_a_slot_written_at_the_top_is_read_from_a_local_until_a_call_takes_L():
    text, original, rewritten = both([
        "L[1] = L[0] + 1  # a comment with L[1] in it",
        "x = L[1] * 2",
        "if x > 3:",
        "    x += L[1]",
        "bump(s, L)",
        "return x + L[1]",
    ])
    assert "L[1] = _Lv1 = L[0] + 1  # a comment with L[1] in it" in text
    assert "x = _Lv1 * 2" in text and "x += _Lv1" in text
    assert "return x + L[1]" in text  # after the call, read from L again
    same_runs(original, rewritten)


def test_a_write_in_a_branch_or_a_loop_stops_forwarding():
    text, original, rewritten = both([
        "L[2] = L[0] * 3",
        "if L[0] > 0:",
        "    L[2] = 7",
        "y = L[2]",
        "L[3] = L[2] + 1",
        "for _i in range(2):",
        "    y += L[3]",
        "    L[3] = y",
        "L[3] += 1",
        "return y + L[3] + L[2]",
    ])
    assert "if _Lv2 > 0" not in text and "if L[0] > 0:" in text
    assert "y = L[2]" in text  # written in the branch: not forwarded
    assert "    y += L[3]" in text  # inside the loop: not forwarded
    same_runs(original, rewritten)


def test_augmented_writes_and_self_reads_keep_the_value():
    text, original, rewritten = both([
        "L[0] = L[0] + L[1]",
        "L[0] += 2",
        "z = L[0]",
        "L[1] = L[0] - L[1]",
        "return z * L[1] + L[0]",
    ])
    assert "L[0] = _Lv0 = L[0] + L[1]" in text and "z = L[0]" in text
    assert "L[1] = _Lv1 = L[0] - L[1]" in text and "return z * _Lv1 + L[0]" in text
    same_runs(original, rewritten)
