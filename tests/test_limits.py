"""Limits of an untrusted rules file: too deep, too big or too slow is a positioned error, never a hang or a crash.

Each reproduction of issue 22's second and third findings is a test here: the Python API raises
RulesError (E216) or RulesRuntimeError, never RecursionError or ValueError, and quickly.
"""

import random
import resource

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl import RulesError, RulesRuntimeError
from ruledsl.checker.limits import MAX_INT, MAX_MOVE_COMBINATIONS, MAX_WORK
from ruledsl.cli import main
from ruledsl.language.sizes import MAX_DEPTH

HEAD = 'game "L"\nplayers 2..2\nvar x: int = 1\n'
DECIDE = " choose t by 0 { move ok {} }\n"
TAIL = "define score(p) = x\nwinner(p): highest score(p)\n"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def refused(text: str) -> "ruledsl.Diagnostic":
    start = cpu()
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, "l.rules").new_game(2)
    assert cpu() - start < 5, "refused, but only after a long time"
    (d,) = info.value.diagnostics
    return d


def test_400_nested_ifs_are_refused_with_a_position_not_a_recursion_error():
    text = HEAD + "flow {\n" + "if x > 0 {\n" * 400 + "x = 2\n" + "}\n" * 400 + DECIDE + "}\n" + TAIL
    d = refused(text)
    assert d.code == "E216" and d.message == (f"the rules nest too deeply here: more than {MAX_DEPTH} levels of "
                                             "blocks and expressions inside each other")
    assert d.line > 5 and d.hint.startswith("give a part of the expression a name with `define`")


def test_a_500_term_and_is_refused():
    text = HEAD + "flow { if " + " and ".join(["x > 0"] * 500) + " { x = 2 }\n" + DECIDE + "}\n" + TAIL
    assert refused(text).code == "E216"


def test_the_games_are_far_from_the_depth_limit():
    """A generous limit: 50 nested ifs and a 100-term `and` still load."""
    ruledsl.loads(HEAD + "flow {\n" + "if x > 0 {\n" * 50 + "x = 2\n" + "}\n" * 50 + DECIDE + "}\n" + TAIL).new_game(2)
    ruledsl.loads(HEAD + "flow { if " + " and ".join(["x > 0"] * 100) + " { x = 2 }\n" + DECIDE + "}\n"
                  + TAIL).new_game(2)


def test_a_number_literal_beyond_64_bits_is_refused_at_its_position():
    d = refused(HEAD + "flow { x = " + "9" * 4400 + "\n" + DECIDE + "}\n" + TAIL)
    assert d.code == "E216" and (d.line, d.column) == (4, 12)
    assert d.message == ("the number 999999999999...999999 (4400 digits) is larger than the language's whole "
                         f"numbers (at most {MAX_INT:,})")
    ruledsl.loads(HEAD + f"flow {{ x = {MAX_INT}\n" + DECIDE + "}\n" + TAIL)  # the largest is fine
    assert refused(HEAD + f"flow {{ x = {MAX_INT + 1}\n" + DECIDE + "}\n" + TAIL).code == "E216"


@pytest.mark.parametrize("first, body, use", [
    ("a > 0", "g{i-1}(a) and g{i-1}(a)", "if g19(x)"),   # a condition: the attribute guards read every copy
    ("a + 1", "g{i-1}(g{i-1}(a))", "if g19(x) > 0"),     # an argument: each level writes the one below out twice
])
def test_defines_that_double_at_each_level_are_refused_in_linear_time(first, body, use):
    """Depth 20: 2^20 copies if written out; the checker's guards and the compiler's budget see it at once."""
    defs = f"define g0(a) = {first}\n" + "".join(
        f"define g{i}(a) = " + body.replace("{i-1}", str(i - 1)) + "\n" for i in range(1, 20))
    text = HEAD + defs + "flow { " + use + " { x = 2 }\n" + DECIDE + "}\n" + TAIL
    d = refused(text)
    assert d.code == "E216" and "`g19` is written out with more than 2,000 copies of defines" in d.message


def test_a_move_with_too_many_argument_combinations_is_refused():
    text = HEAD + "flow { choose t by 0 { move m(a in 1..1000, b in 1..1000, c in 1..1000) {} } }\n" + TAIL
    d = refused(text)
    assert d.code == "E216" and d.message == (
        "`m` can be made in up to 1,000,000,000 ways (1,000 × 1,000 × 1,000 values of its parameters), "
        f"more than one decision lists (at most {MAX_MOVE_COMBINATIONS:,})")
    ruledsl.loads(HEAD + "flow { choose t by 0 { move m(a in 1..100, b in 1..100) {} } }\n" + TAIL).new_game(2)


def test_repeated_squaring_is_a_finding_at_its_rule_not_a_hang():
    text = HEAD + "flow { x = 2\n repeat 40 times { x = x * x }\n" + DECIDE + "}\n" + TAIL
    start = cpu()
    with pytest.raises(RulesRuntimeError) as info:
        ruledsl.loads(text, "l.rules").new_game(2)
    assert cpu() - start < 5
    assert info.value.span.line == 5
    assert "a number went past the language's whole numbers" in str(info.value)


@pytest.mark.parametrize("growth", ["x += x", "let y = x * 3\n x = y"])
def test_every_way_of_storing_a_number_is_bounded(growth):
    text = HEAD + "flow { x = 2\n repeat 100 times { " + growth + " }\n" + DECIDE + "}\n" + TAIL
    with pytest.raises(RulesRuntimeError, match="went past the language's whole numbers"):
        ruledsl.loads(text, "l.rules").new_game(2)


def test_a_huge_score_is_a_finding_and_run_prints_no_traceback(tmp_path):
    """A score of thousands of digits used to crash `run` when it printed it (exit 3)."""
    rules = tmp_path / "big.rules"
    rules.write_text(HEAD + "var y: int = 3037000499\nflow {\n}\n"
                     "define score(p) = y * y * y * y * y * y * y * y * y * y * y * y * y * y * y * y\n"
                     "winner(p): highest score(p)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(rules)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "a number went past the language's whole numbers" in result.output


def test_cli_check_of_a_too_deep_file_exits_1_with_the_error(tmp_path):
    rules = tmp_path / "deep.rules"
    rules.write_text(HEAD + "flow {\n" + "if x > 0 {\n" * 400 + "x = 2\n" + "}\n" * 400 + DECIDE + "}\n" + TAIL,
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(rules)])
    assert result.exit_code == 1
    assert "error[E216]: the rules nest too deeply here" in result.output


# ---- a setup that loops endlessly, with many player counts (found by ruledsl/fuzz.py's grammar once it
# wrote other `players` lines): the other counts are tried within one shared budget of steps, not
# MAX_WORK_PER_MOVE each (12 tries: 5.7 s of CPU for a loop of two statements)

MANY = 'game "L"\nplayers 2..13\nvar x: int = 1\nzone z: pile public\n'


def tries(monkeypatch) -> list:
    """The player counts the diagnosis of a failed setup tries, in order."""
    from ruledsl.engine.game import Game

    tried, new_game = [], Game.new_game

    def counting(self, players=None, seed=0, _diagnose=True, _steps=None):
        if not _diagnose:
            tried.append(players)
        return new_game(self, players, seed, _diagnose, _steps)

    monkeypatch.setattr(Game, "new_game", counting)
    return tried


def test_a_setup_that_never_ends_is_tried_again_within_one_budget(monkeypatch):
    from ruledsl.engine.dealing import TRIES_WORK
    from ruledsl.engine.rules import MAX_WORK_PER_MOVE

    tried = tries(monkeypatch)
    game = ruledsl.loads(MANY + "flow { while true { x = 1 } }\n" + TAIL, "l.rules")
    with pytest.raises(RulesRuntimeError) as info:
        game.new_game()
    assert info.value.span.line == 5 and f"did more than {MAX_WORK_PER_MOVE:,} units of work" in info.value.message
    assert tried == [3, 4][:TRIES_WORK // MAX_WORK_PER_MOVE]  # not 3 to 13: each runs out the budget


def test_counts_whose_setup_is_short_are_all_tried_after_one_that_loops(monkeypatch):
    tried = tries(monkeypatch)
    game = ruledsl.loads(MANY + "flow { while count(each q in players) == 2 { x = 1 }\n" + DECIDE + "}\n" + TAIL,
                         "l.rules")
    with pytest.raises(RulesRuntimeError) as info:
        game.new_game()
    assert tried == list(range(3, 14))
    assert "the setup fails for 2 players and works for 3 to 13 players" in info.value.message
    assert game.new_game(3).decision


def _random_number(rng, depth: int) -> str:
    """A random whole-number expression over x and constants: + - * % and if-then-else."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(["x", str(rng.randrange(1, 4)), str(rng.randrange(2**40, 2**62))])
    a, b = _random_number(rng, depth - 1), _random_number(rng, depth - 1)
    pick = rng.randrange(5)
    if pick == 3:
        return f"({a} % {rng.choice([7, 16, 2**62, -5])})"
    if pick == 4:
        return f"(if x > 2 then {a} else {b})"
    return f"({a} {'+-*'[pick]} {b})"


def test_a_number_the_compiler_bounds_is_stored_unchecked_and_right():
    """Statements.within_limits leaves out the check when the compiler knows a bound (expressions.bound_of:
    x % k, a card's number, sums and products of these). Over random expressions: a value past the
    whole numbers is still a finding, any other is stored as Python computes it; and some stores do
    go without the check (the listing has no `_fits` for them)."""
    rng = random.Random(5)
    unchecked = 0
    for _ in range(200):
        expr = _random_number(rng, 3)
        text = HEAD + "flow { x = 3\n x = " + expr + "\n" + DECIDE + "}\n" + TAIL
        want = eval(expr.replace("if x > 2 then", "").replace(" else ", " if True else "), {"x": 3})  # noqa: S307 - the test's own text
        if abs(want) > MAX_INT:  # a finding when it runs, or already when it loads (a constant)
            with pytest.raises(RulesRuntimeError, match="went past the language's whole numbers"):
                ruledsl.loads(text, "l.rules").new_game(2)
            continue
        game = ruledsl.loads(text, "l.rules")
        assert game.new_game(2).vars[0] == want, expr
        line = next(x for x in game.python_listing().splitlines() if x.rstrip().endswith("l.rules:5"))
        unchecked += "_fits" not in line
    assert unchecked >= 20


# ---- work inside one step (issue 22, docs/fuzzing.md): the bound counts units of work, not steps, so an
# endless loop whose every step goes through a long range or a big zone stops as quickly as a plain one

ZONE = ('game "L"\nplayers 2..2\nvar x: int = 1\nkind token { n: 1..10000 }\ncards token(n: each) in z\n'
        'zone z: pile public\nzone y: pile public\n')
ENDLESS = [
    HEAD + "flow { while true { x = count(each i in 1..100000 where i > x) } }\n" + TAIL,  # a long range
    ZONE + "flow { while true { x = count(each c in z where c.n > x) } }\n" + TAIL,  # a 10,000-card zone
    ZONE + "flow { while true { for c in z { x = c.n } } }\n" + TAIL,
    ZONE + "flow { while true { put z into y\n put y into z } }\n" + TAIL,  # moving 10,000 cards
    ZONE + "flow { while true { shuffle z } }\n" + TAIL,
    ZONE + "flow { while true { x = sum(c.n for each c in z) % 7 } }\n" + TAIL,
    ZONE + "flow { while true { x = size(sorted(each c in z by c.n)) } }\n" + TAIL,
]


@pytest.mark.parametrize("text", ENDLESS, ids=["range", "zone", "for", "put", "shuffle", "sum", "sorted"])
def test_an_endless_loop_over_a_long_domain_is_a_finding_at_its_rule(text):
    start = cpu()
    with pytest.raises(RulesRuntimeError) as info:
        ruledsl.loads(text, "l.rules").new_game(2)
    assert cpu() - start < 10, "stopped, but only after a long time"
    lines = text.splitlines()
    assert lines[info.value.span.line - 1].startswith("flow { while true")  # the loop's line
    assert info.value.message.startswith(f"the rules did more than {MAX_WORK:,} units of work without asking")


def test_the_cli_stops_the_endless_range_with_exit_1(tmp_path):
    rules = tmp_path / "endless.rules"
    rules.write_text(ENDLESS[0], encoding="utf-8")
    start = cpu()
    result = CliRunner().invoke(main, ["run", str(rules)])
    assert cpu() - start < 10
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{rules}:4:8: error[R001]: the rules did more than {MAX_WORK:,} units of work" in result.output


def test_a_trigger_whose_body_never_ends_is_a_finding_naming_it():
    text = (ZONE + "trigger spin when x > 1 { while true { x = count(each c in z where c.n > x) + 2 } }\n"
            "flow { x = 2\n" + DECIDE + "}\n" + TAIL)
    start = cpu()
    with pytest.raises(RulesRuntimeError) as info:
        ruledsl.loads(text, "l.rules").new_game(2)
    assert cpu() - start < 10
    assert info.value.message.startswith(f"trigger `spin` did more than {MAX_WORK:,} units of work in one move")
    assert info.value.span.line == 8


@pytest.mark.parametrize("text, what", [
    (HEAD + "flow { x = count(each i in 1..100000 where count(each j in 1..100000 where j > i) > 0)\n"
     + DECIDE + "}\n" + TAIL, "this expression"),
    (HEAD + "var n: int = 5\nflow { x = count(each i in 1..n where count(each j in 1..n where j > i) > 0)\n"
     + DECIDE + "}\n" + TAIL, "this expression"),  # a range worked out while playing
    (HEAD + "var n: int = 5\nflow { choose t by 0 { move m(a in 1..n, b in 1..n) {} } }\n" + TAIL,
     "listing the moves `m`"),
    (ZONE + "trigger a for i in 1..10000 when count(each c in z where c.n == i) > 1 { x = 1 }\nflow {" + DECIDE
     + "}\n" + TAIL, "checking the triggers after an effect"),  # every card, for each of 10,000 values
])
def test_what_can_never_fit_the_bound_is_refused_when_loading(text, what):
    d = refused(text)
    assert d.code == "E216" and d.message.startswith(f"{what} may take up to ")
    assert int(d.message.split("up to ")[1].split()[0].replace(",", "")) > MAX_WORK
    assert d.message.endswith(f"more than a move may take (at most {MAX_WORK:,}; docs/language.md 7.7)")


def test_nested_aggregates_over_a_zone_family_are_bounded_by_the_cards_not_their_product():
    """`h[p]` inside `each p in players` shares the cards with its siblings: over all 100 players, the
    inner aggregates go through 10,000 cards, not 100 × 10,000 (which would be refused, E216)."""
    text = (ZONE.replace("players 2..2", "players 2..100") + "zone h[player]: row public\n"
            "flow { x = count(each p in players where any(each d in h[p] where count(each e in h[p] where "
            "e.n == d.n) > 1))\n" + DECIDE + "}\n" + TAIL)
    state = ruledsl.loads(text, "l.rules").new_game(100)
    assert state.decision == "t" and state.get_var("x") == 0
    with pytest.raises(RulesError, match="E216"):  # the same over one zone that may hold every card
        ruledsl.loads(text.replace("h[p] where count(each e in h[p]", "z where count(each e in z"), "l.rules")
