"""Fuzzing: broken and strange rules files give ruledsl's errors, never a crash.

Two sources of input: a small grammar-based generator of syntactically valid rules files (declarations,
statements and expressions over a few names), and mutations of the game files (tokens or lines deleted,
duplicated, swapped or replaced). Loading may only raise RulesError; playing a few random moves of a
file that loads may only raise ruledsl's errors. In CI the examples are derandomized (conftest.py).
"""

from __future__ import annotations

import functools
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl import RuledslError, RulesError
from ruledsl import fuzz as fuzz_words

GAMES = Path(__file__).resolve().parent.parent / "games"
SCENARIO_SUFFIX = ".test.rules"
GAME_FILES = sorted(p for p in GAMES.rglob("*.rules")
                    if p.parent.name != "lib" and not p.name.endswith(SCENARIO_SUFFIX))
SCENARIO_FILES = sorted(GAMES.glob("*" + SCENARIO_SUFFIX))
# read once: strategies must not see edits
TEXTS = {p: p.read_text(encoding="utf-8") for p in GAME_FILES + SCENARIO_FILES}
MOVES = 25
# RULEDSL_FUZZ_EXAMPLES=5000 explores far more (minutes); the default keeps the suite fast.
EXAMPLES = int(os.environ.get("RULEDSL_FUZZ_EXAMPLES", "120"))


def fuzz(**kwargs):
    return settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                    **kwargs)


def load_and_play(text: str, filename: str, seed: int) -> None:
    """Load ``text``; if it loads, play a few random moves. Anything but ruledsl's errors fails the test."""
    try:
        game = ruledsl.loads(text, filename)
    except RulesError:
        return
    rng = random.Random(seed)
    try:
        state = game.new_game(None, seed)
        for _ in range(MOVES):
            if state.is_over:
                break
            moves = state.legal_moves()
            state.describe(moves[0])
            state.view(state.current_player)
            state.apply(rng.choice(moves))
        state.broken_invariants()
        game.state_from_json(state.to_json())
        state.scores, state.winners
    except RuledslError:
        return


# ---- a grammar-based generator of rules files
#
# Expressions are built by type (number, true/false, player, card, cards), so that most generated files
# pass the checker and reach the engine; now and then an untyped expression slips in to reach the
# checker's type errors.

INTS = st.sampled_from(fuzz_words.INTS)  # the words of ruledsl/fuzz.py, which grows files from them too
ZONES = st.sampled_from(fuzz_words.ZONES)


@functools.lru_cache(maxsize=None)
def typed(locals_: tuple = ()) -> dict:
    """Strategies of expression text by type, over the names the generated files declare."""
    cards_here = [name for name in locals_ if name == "c"]
    leaf = {
        "int": st.one_of(INTS, st.sampled_from(["v", "w[current]", "w[0]", "n", "pos", "size(z)",
                                                "size(h[current])", "d(1)", "top(z).r"])),
        "bool": st.sampled_from(["true", "false", "flag", "empty(z)", "empty(h[current])", "empty(deck)"]),
        "player": st.sampled_from(["current", "next(current)"]),
        "card": st.sampled_from(["top(z)", "bottom(z)", "top(h[current])", "top(deck)", *cards_here]),
    }

    def grow(kind, inner):
        i, b, p, c = (inner[k] for k in ("int", "bool", "player", "card"))
        options = {
            "int": [st.builds("({} {} {})".format, i, st.sampled_from(["+", "-", "*", "/", "%"]), i),
                    st.builds("(-{})".format, i), st.builds("{}.r".format, c),
                    st.builds("w[{}]".format, p), st.builds("d({})".format, i),
                    st.builds("(if {} then {} else {})".format, b, i, i),
                    st.builds("sum({} for each q in {})".format, st.just("q.r"), ZONES),
                    st.builds("count(each q in {} where q.r > {})".format, ZONES, i),
                    st.builds("max(w[q] for each q in players)".format)],
            "bool": [st.builds("({} {} {})".format, i, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), i),
                     st.builds("({} {} {})".format, b, st.sampled_from(["and", "or"]), b),
                     st.builds("(not {})".format, b), st.builds("({} == {})".format, c, c),
                     st.builds("({} in {})".format, c, ZONES), st.builds("({}.s == a)".format, c),
                     st.builds("any(each q in players where w[q] > {})".format, i),
                     st.builds("all(each q in {} where q.r != {})".format, ZONES, i)],
            "player": [st.builds("next({})".format, p), st.builds("(if {} then {} else {})".format, b, p, p)],
            "card": [st.builds("(if {} then {} else {})".format, b, c, c)],
        }
        return st.one_of(*options[kind])

    strategies = dict(leaf)
    for _ in range(2):  # expressions nest two levels deep
        strategies = {kind: st.one_of(leaf[kind], grow(kind, strategies)) for kind in leaf}
    return strategies


@functools.lru_cache(maxsize=None)
def chaos() -> st.SearchStrategy:
    """An expression of any type at all, for the checker's type errors."""
    names = ["v", "n", "flag", "current", "players", "a", "none", "z", "h", "t", "top(z)", "e", '"text"']
    leaves = st.one_of(INTS, st.sampled_from(names))
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds("({} {} {})".format, inner, st.sampled_from(["+", "==", "and", "in", "<"]), inner),
        st.builds("{}.{}".format, inner, st.sampled_from(["r", "kind", "id", "x"])),
        st.builds("{}[{}]".format, st.sampled_from(["w", "h", "t", "z"]), inner),
        st.builds("{}({})".format, st.sampled_from(["size", "top", "next", "abs", "d", "random"]), inner)),
        max_leaves=4)


@functools.lru_cache(maxsize=None)
def statements(depth: int = 2, locals_: tuple = ()) -> st.SearchStrategy:
    t = typed(locals_)
    i, b, p, c = t["int"], t["bool"], t["player"], t["card"]
    simple = st.one_of(
        st.builds("{} {} {}".format, st.sampled_from(["v", "w[current]", "pos"]), st.sampled_from(["=", "+=", "-="]), i),
        st.builds("flag = {}".format, b),
        st.builds("let k{} = {}".format, st.integers(0, 2), i),
        st.builds("put {} into {}".format, c, ZONES),
        st.builds("put random(each q in {} where q.r >= {}) into {}".format, ZONES, i, ZONES),
        st.builds("put {} under {}".format, c, ZONES),
        st.builds("put {} into t at {}".format, c, i),
        st.builds("deal {} from {} into {}".format, i, ZONES, ZONES),
        st.builds("shuffle {}".format, ZONES),
        st.just("gather all cards into deck"),
        st.just("end game"),
        st.builds("pr({})".format, i),
        st.builds("{} = {}".format, st.sampled_from(["v", "flag", "pos", "w[current]"]), chaos()),
    )
    if depth == 0:
        return simple
    inner = statements(depth - 1, locals_)
    with_card = statements(depth - 1, locals_ + ("c",))
    body = st.lists(inner, max_size=3).map(lambda xs: "{ " + "\n".join(xs) + " }")
    card_body = st.lists(with_card, max_size=2).map(lambda xs: "{ " + "\n".join(xs) + " }")
    option = st.one_of(
        st.builds("move {} {}".format, st.sampled_from(["m1", "m2"]), body),
        st.builds("move {} where {} {}".format, st.sampled_from(["m3", "m4"]), b, body),
        st.builds("move play(c in {}) where {} {}".format, ZONES, b, card_body),
        st.builds("move pick(k in 1..3) {}".format, body),
    )
    return st.one_of(
        simple,
        st.builds("if {} {} else {}".format, b, body, body),
        st.builds("for c in {} {}".format, ZONES, card_body),
        st.builds("for q in players {}".format, body),
        st.builds("repeat {} times {}".format, i, body),
        st.builds("while {} {}".format, b, body),
        st.builds("turns from {} until {} {}".format, p, b, body),
        st.builds("choose ch by {} {{ {} }}".format, p, st.lists(option, min_size=1, max_size=3).map("\n".join)),
        st.builds("reveal {} to {} {}".format, ZONES, p, body),
        st.builds("at once {}".format, body),
    )


DECLARATIONS = fuzz_words.DECLARATIONS


@st.composite
def rules_files(draw) -> str:
    lines = ['game "Fuzz"']
    missing = draw(st.sets(st.sampled_from(DECLARATIONS), max_size=2))  # now and then a declaration is missing
    lines.extend(d for d in DECLARATIONS if d not in missing)
    lines.append("procedure pr(y) { " + draw(statements(0).filter(lambda s: "pr(" not in s)) + " }")
    if draw(st.booleans()):
        lines.append(f"trigger tr when {draw(typed()['bool'])} {{ {draw(statements(0))} }}")
    if draw(st.booleans()):
        lines.append(f"invariant inv: {draw(typed()['bool'])}")
    if draw(st.booleans()):
        lines.append(f"define score(p) = w[p] + {draw(typed()['int'])}")
        lines.append(f"winner(p): {draw(st.sampled_from(['highest', 'lowest']))} score(p)")
    body = draw(st.lists(statements(2), min_size=1, max_size=4))
    lines.append("flow {\n" + "\n".join(body) + "\n}")
    return "\n".join(lines) + "\n"


@fuzz(max_examples=EXAMPLES)
@given(rules_files(), st.integers(0, 1000))
def test_generated_rules_files_give_only_ruledsl_errors(text, seed):
    load_and_play(text, str(GAMES / "fuzz.rules"), seed)


# ---- mutations of the game files

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[+\-=!<>]=|\s+|.', re.S)
ODD_TOKENS = ["0", "-1", "100000", "{", "}", "(", ")", "[", "]", "..", "=", ",", "\"", "\"{\"", "none", "each",
              "current", "players", "track(0)", "in", "if", "move", "\ufeff", "\u00e9"]


@st.composite
def mutants(draw, files=GAME_FILES) -> tuple[Path, str]:
    path = draw(st.sampled_from(files))
    text = TEXTS[path]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            units = text.splitlines(keepends=True)
        else:
            units = [t for t in TOKEN.findall(text)]
        if not units:
            break
        i = draw(st.integers(0, len(units) - 1))
        j = draw(st.integers(0, len(units) - 1))
        how = draw(st.sampled_from(["delete", "duplicate", "swap", "replace"]))
        if how == "delete":
            del units[i]
        elif how == "duplicate":
            units.insert(i, units[i])
        elif how == "swap":
            units[i], units[j] = units[j], units[i]
        else:
            units[i] = draw(st.one_of(st.sampled_from(ODD_TOKENS), st.sampled_from(units)))
        text = "".join(units)
    return path, text


@fuzz(max_examples=EXAMPLES)
@given(mutants(), st.integers(0, 1000))
def test_mutated_game_files_give_only_ruledsl_errors(mutant, seed):
    path, text = mutant
    load_and_play(text, str(path), seed)


def test_the_game_files_mutated_include_every_game_and_no_scenario_file():
    names = {p.name for p in GAME_FILES}
    assert {"trambahn.rules", "trolley_car.rules", "tutorial_highlow.rules"} <= names
    assert not any(n.endswith(SCENARIO_SUFFIX) for n in names)
    assert {p.name for p in SCENARIO_FILES} >= {"trambahn.test.rules", "trolley_car.test.rules"}


@fuzz(max_examples=max(EXAMPLES // 4, 10))
@given(mutants(SCENARIO_FILES))
def test_mutated_scenario_files_give_only_ruledsl_errors(mutant):
    """A scenario file mutated: reading, checking and running one of its scenarios gives only ruledsl's errors."""
    from ruledsl.scenarios.runner import ScenarioFile
    from ruledsl.scenarios.syntax import parse_scenarios

    path, text = mutant
    try:
        source = parse_scenarios(text, str(path))
        rules = path.parent / source.rules
        if rules not in TEXTS:
            return
        scenarios = ScenarioFile(source, str(rules), TEXTS[rules])
        scenarios.check()
        if scenarios.scenarios:
            outcome = scenarios.run(scenarios.scenarios[len(text) % len(scenarios.scenarios)])
            assert outcome.status in ("passed", "failed", "error"), outcome.status
    except RuledslError:
        pass


def test_the_generator_makes_files_that_load_and_files_that_do_not():
    """The generated files reach the engine, not only the checker (else the fuzzer tests little)."""
    loaded = failed = 0

    @fuzz(max_examples=60, derandomize=True, database=None)
    @given(rules_files())
    def count(text):
        nonlocal loaded, failed
        try:
            ruledsl.loads(text, str(GAMES / "fuzz.rules"))
            loaded += 1
        except RulesError:
            failed += 1

    count()
    assert loaded >= 5 and failed >= 5, (loaded, failed)


# ---- what the fuzzer found, kept as plain tests

FOUND = """\
game "Found"
players 2..3
kind k {
  r: 1..5
}
kind plain {
  x: 1..2
}
cards k(r: 1..5) in z
cards plain(x: 1..2) in deck
zone z: pile public
zone deck: pile public
var w[player]: int = 0
var v: int = 0
"""


ONE_KIND = FOUND.replace("kind plain {\n  x: 1..2\n}\n", "").replace("cards plain(x: 1..2) in deck\n", "")


def finding(text: str, players: int = 2, then=None, base: str = FOUND) -> ruledsl.RulesRuntimeError:
    game = ruledsl.loads(base + text, "found.rules")
    try:
        state = game.new_game(players, 0)
        if then is not None:
            then(state)
    except ruledsl.RulesRuntimeError as err:
        return err
    raise AssertionError("no finding")


# A card variable never set: with one kind of card the checker lets `c.r` through (E214 would stop
# a read that some kind lacks), so the none is met while playing.
NEVER_SET = "var c: card = none\n"


def test_an_invariant_that_cannot_be_worked_out_is_a_finding():
    err = finding(NEVER_SET + "invariant inv: any(each q in players where w[q] > c.r)\nflow { v = 1 }\n",
                  then=lambda s: s.broken_invariants(), base=ONE_KIND)
    assert err.span.line == 12 and "a value is none" in err.message


def test_a_score_that_is_none_is_a_finding():
    err = finding(NEVER_SET + "define score(p) = c.r\nflow { v = 1 }\n", then=lambda s: s.scores, base=ONE_KIND)
    assert err.span.line == 12 and "none" in err.message
    err = finding(NEVER_SET + "define score(p) = w[p]\nwinner(p): highest c.r\nflow { v = 1 }\n",
                  then=lambda s: s.winners, base=ONE_KIND)
    assert err.span.line == 13 and "none" in err.message


@pytest.mark.parametrize("index, message", [("none", "`w[...]`: the index is none"), ("2", "`w[2]` is outside `w`")])
def test_a_constant_index_outside_the_family_is_a_finding(index, message):
    err = finding(f"flow {{ w[{index}] = 1 }}\n")
    assert err.span.line == 15 and err.message.startswith(message)  # a setup that fails for some player
    # counts only also says which (engine/dealing.py)


@pytest.mark.parametrize("text, line, message", [
    ("flow { let a = 5\n g[0, a] = 1 }\n", 17, "`g[...]`: index 5 is out of range"),  # past the range
    ("flow { let a = 1\n g[0, a] = 1 }\n", 17, "`g[...]`: index 1 is out of range"),  # before it
    ("flow { let a = 3\n let b = 2\n g[b, a] = 1 }\n", 18, "`g[...]`: index 2 is out of range"),  # no player 2
    ("flow { let a = 3\n g[2, a] = 1 }\n", 17, "`g[...]`: index 2 is out of range"),  # a constant player too
])
def test_an_index_of_two_parts_outside_the_family_is_a_finding(text, line, message):
    # (an index of slots and numbers is checked in the generated code itself: expressions._checked_index)
    err = finding("var g[player, 2..4]: int = 0\n" + text)
    assert err.span.line == line and err.message.startswith(message)


def test_an_index_of_two_parts_inside_the_family_reads_and_writes_its_own_variable():
    game = ruledsl.loads(FOUND + "var g[player, 2..4]: int = 0\nvar q: player = 0\n"
                         "flow { let a = 3\n q = 1\n g[q, a] = 7\n g[0, 4] = 2\n v = g[1, a] * 10 + g[0, 4] }\n",
                         "found.rules")
    state = game.new_game(3, 0)
    assert state.get_var("v") == 72 and state.get_var("g[1, 3]") == 7 and state.get_var("g[0, 4]") == 2
    assert state.get_var("g[0, 3]") == 0 and state.get_var("g[1, 4]") == 0


def test_cards_dealt_to_a_player_some_games_lack():
    with pytest.raises(RulesError) as info:
        ruledsl.loads(FOUND + "zone h[player]: row\ncards k(r: 1..2) in h[2]\nflow { v = 1 }\n", "found.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.message, d.hint) == ("E205", 16, "`h[2]` is not a zone of `h`",
                                                   "a game of 2 players has players 0 to 1")


def test_a_huge_range_while_playing_is_a_finding_not_a_hang():
    err = finding("flow { v = count(each i in 0..1000000000 where i > 5) }\n")
    assert err.message == ("the range 0..1000000000 has 1,000,000,001 values, more than ruledsl goes through "
                           "(at most 100,000)")


def test_dealing_a_zone_into_itself_changes_nothing_at_once():
    state = ruledsl.loads(FOUND + "flow { deal 1000000000 from z into z }\n", "found.rules").new_game(2, 0)
    assert state.is_over and len(state.cards_in("z")) == 5


# ---- the long-running fuzzer (ruledsl/fuzz.py, docs/fuzzing.md) at a fixed seed, sized for CI


def test_the_fuzzer_at_a_fixed_seed_finds_nothing(tmp_path):
    """`python -m ruledsl.fuzz` for 120 files of its three sources (grammar, mutation, and the limits the
    language must bound): no exception outside ruledsl's errors, no slow check or run, no hang."""
    from ruledsl.fuzz import fuzz

    stats = fuzz(cases=120, seed=0, sources=("grammar", "mutation", "limits"), out=str(tmp_path), timeout=60,
                 echo=lambda line: None)
    assert stats["cases"] == 120 and stats["loaded"] >= 10, stats
    assert stats["findings"] == [], stats["findings"]


def test_the_fuzzer_makes_the_same_files_from_the_same_seed():
    from ruledsl.fuzz import SOURCES, game_texts, make_case

    texts = game_texts()
    for source in SOURCES:
        assert make_case(source, 3, 7, texts) == make_case(source, 3, 7, texts)
        assert make_case(source, 3, 7, texts) != make_case(source, 4, 7, texts)


def test_the_fuzzer_writes_no_cache_file_and_its_slowest_cases_play_again_alike(tmp_path, monkeypatch):
    """A fuzz case leaves nothing in the user's cache (a tree and a compiled module each, pushing the
    user's own games out); the slowest check and play are named in the summary, and the named case,
    checked again as `--case` checks it, plays the same moves."""
    from ruledsl.fuzz import _summary, check_one, fuzz, game_texts, make_case

    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(cache))
    stats = fuzz(cases=40, seed=1, sources=("grammar", "mutation"), out=str(tmp_path / "found"), timeout=60,
                 echo=lambda line: None)
    kept = sorted(p.name.split("-")[0] for p in cache.iterdir()) if cache.exists() else []
    assert set(kept) <= {"grammar"}, kept  # the built parser only, read (or written) once
    assert stats["loaded"] >= 3 and stats["cpu"] > 0, stats
    summary = _summary(stats, stats["seconds"])
    assert "per CPU-minute" in summary
    assert f"({stats['max_check_case']})" in summary and f"({stats['max_run_case']})" in summary
    source, _, n = stats["max_run_case"].partition(":")
    name, text = make_case(source, 1, int(n), game_texts())
    again = check_one(name, text, int(n))
    assert again["loaded"] and again["moves"] == stats["max_run_moves"], (again, stats["max_run_case"])


def test_side_by_side_figures_add_up_and_keep_the_slowest_case_of_all():
    from ruledsl.fuzz import add_up

    def part(cases, check, run, name):
        return {"cases": cases, "by_source": {"grammar": cases}, "found_by_source": {}, "loaded": 1, "cpu": 2.0,
                "seconds": cases, "seed": 0, "findings": [], "max_check_cpu": check, "max_check_case": name,
                "max_run_cpu": run, "max_run_case": name, "max_run_seconds": run * 2, "max_run_moves": cases}

    first, second = part(10, 0.5, 0.1, "grammar:4"), part(20, 0.2, 0.3, "grammar:9")
    total = add_up([first, second])
    assert (total["cases"], total["by_source"], total["cpu"], total["seconds"]) == (30, {"grammar": 30}, 4.0, 20)
    assert (total["max_check_cpu"], total["max_check_case"]) == (0.5, "grammar:4")
    assert (total["max_run_cpu"], total["max_run_case"], total["max_run_seconds"], total["max_run_moves"]) == (
        0.3, "grammar:9", 0.6, 20)
    assert first["cases"] == 10  # the parts are left as they were


def test_a_fuzzer_side_by_side_stops_when_its_run_is_gone(monkeypatch):
    """A side-by-side fuzzer (--jobs N) whose starting run was killed (its parent process changes)
    stops at its next file: it once went on for the rest of --minutes, using the cores."""
    import os

    from ruledsl import fuzz as F

    parents = iter([os.getppid()] + [os.getppid()] * 3 + [1] * 100)  # the run goes away after three files
    monkeypatch.setattr(F.os, "getppid", lambda: next(parents))
    stats = F.fuzz(cases=20, seed=0, sources=("grammar",), timeout=60, echo=lambda line: None, offset=0, stride=2)
    assert stats["cases"] == 3, stats["cases"]
