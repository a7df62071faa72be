"""Scenario files: parsing, setting up positions, expectations, errors at the scenario's line,
`ruledsl test` and `ruledsl check` on them, and the docs' scenario snippets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl import RulesError
from ruledsl.cli import main
from ruledsl.scenarios.runner import load_scenarios
from ruledsl.scenarios.syntax import parse_scenarios

ROOT = Path(__file__).resolve().parent.parent
HIGHLOW = ROOT / "games" / "tutorial_highlow.rules"
DOCS = ROOT / "docs"


def write(tmp_path, body: str, name: str = "game.test.rules") -> Path:
    path = tmp_path / name
    path.write_text(f'scenarios for "{HIGHLOW}"\n' + body, encoding="utf-8")
    return path


def run_one(tmp_path, body: str, check: bool = True):
    loaded = load_scenarios(write(tmp_path, body))
    if check:
        loaded.check()
    (scenario,) = loaded.scenarios
    return loaded.run(scenario)


TABLE = """
  players 2
  gather all cards into deck
  pile: 7♣
  hand[0]: 7♥ 8♠ 2♦
  hand[1]: K♥
"""


def test_a_passing_scenario_counts_its_expectations(tmp_path):
    outcome = run_one(tmp_path, "scenario s {" + TABLE + """
      expect moves play: play(8♠), play(2♦)
      expect legal draw
      expect illegal play(7♥) "not allowed"
      move play(2♦)
      expect pile: 7♣ 2♦
      expect 2♦ not in hand[0]
      expect 7♥ in hand[0]
      expect decision turn by 1
    }""")
    assert outcome.status == "passed", outcome.message()
    assert outcome.checked == 7


@pytest.mark.parametrize("expectation, found", [
    ("expect size(hand[0]) == 2", "size(hand[0]) is 3"),
    ("expect moves play: play(8♠)", "the legal play moves are play(8♠), play(2♦)"),
    ("expect legal play(7♥)", "play(7♥) is not legal"),
    ("expect illegal play(8♠)", "play(8♠) is legal"),
    ("expect decision turn by 1", "player 0 decides `turn`"),
    ("expect over", "the game goes on"),
    ("expect scores 0, 0", "scores -3, -1"),
    ("expect hand[0]: 7♥ 8♠", "hand[0]: 7♥ 8♠ 2♦"),
    ("expect K♥ in hand[0]", "hand[0]: 7♥ 8♠ 2♦"),
    ("expect illegal play(7♥) \"no such reason\"", "the reason given is: it is not allowed now"),
])
def test_a_failing_expectation_shows_what_was_found_and_the_position(tmp_path, expectation, found):
    outcome = run_one(tmp_path, "scenario s {" + TABLE + expectation + "\n}")
    assert outcome.status == "failed"
    message = outcome.message()
    assert expectation in message
    assert found in message, message
    assert f":{2 + TABLE.count(chr(10))}:" in message.splitlines()[0]  # the expectation's line
    assert "hand[0]: 7♥ 8♠ 2♦" in message and "pile: 7♣" in message  # the position


def test_expect_not_over(tmp_path):
    body = "scenario s {" + TABLE + "expect not over\nmove play(8♠), play(K♥)\nexpect not over\n}"
    outcome = run_one(tmp_path, body)
    assert outcome.status == "failed" and outcome.checked == 1
    assert "found: the game is over" in outcome.message() and "the game is over; scores" in outcome.message()


def test_an_illegal_move_fails_with_the_legal_moves(tmp_path):
    outcome = run_one(tmp_path, "scenario s {" + TABLE + "move play(7♥)\n}")
    assert outcome.status == "failed"
    assert "play(7♥) is not a legal move here (legal: play(8♠), play(2♦), draw)" in outcome.message()


@pytest.mark.parametrize("statement, message", [
    ("hand[0]: 7♥ 7♥", "no spare 7♥: this scenario has already placed its only copy"),
    ("hand[0]: 1♥", "there is no card 1♥ in this game"),
    ("hands[0]: 7♥", "there is no zone 'hands[0]'"),
    ("hand[5]: 7♥", "there is no zone 'hand[5]'"),
    ("tricks[0] = 1, nothing = 2", "there is no variable 'nothing'"),
    ("pile at 0: 7♥", "pile has no slots"),
    ("hand[0]: none", "`none` stands for an empty slot"),
    ("players 3", "`players` must come before the position is set up"),
])
def test_a_position_that_cannot_occur_is_an_error_at_its_line(tmp_path, statement, message):
    # run without `check` first: running finds these too (check finds unknown names before)
    outcome = run_one(tmp_path, "scenario s {" + TABLE + statement + "\n}", check=False)
    assert outcome.status == "error"
    d = outcome.diagnostic
    assert message in d.message
    assert d.line == 2 + TABLE.count("\n")
    assert d.column >= 1 and d.source_line.strip() == statement


def test_syntax_errors_have_positions(tmp_path):
    with pytest.raises(RulesError) as err:
        load_scenarios(write(tmp_path, "scenario s {\n  expect moves play play(7♥)\n}"))
    d = err.value.diagnostics[0]
    assert (d.line, d.column) == (3, 21) and "expected ':'" in d.message


def test_an_expectation_is_checked_against_the_rules_names(tmp_path):
    loaded = load_scenarios(write(tmp_path, "scenario s {\n  expect size(hnd[0]) == 1\n}"))
    with pytest.raises(RulesError) as err:
        loaded.check()
    d = err.value.diagnostics[0]
    assert d.file.endswith("game.test.rules") and d.line == 3 and "unknown zone or variable `hnd`" in d.message
    assert d.hint == "did you mean `hand`?"


def test_scenario_names_are_unique_and_bases_exist(tmp_path):
    with pytest.raises(RulesError) as err:
        load_scenarios(write(tmp_path, "scenario a { }\nscenario a { }\nscenario b from c { }"))
    messages = [d.message for d in err.value.diagnostics]
    assert any("`a` is defined twice" in m for m in messages)
    assert any("starts from `c`" in m for m in messages)


def test_a_scenario_runs_from_its_base(tmp_path):
    path = write(tmp_path, "scenario table {" + TABLE + "}\n"
                 "scenario after from table { move play(8♠)\n expect pile: 7♣ 8♠ }")
    loaded = load_scenarios(path)
    outcome = loaded.run(loaded.by_name["after"])
    assert outcome.status == "passed", outcome.message()


def test_a_rule_failure_can_be_expected(tmp_path):
    # the trick trigger puts cards into won[current]; a move that fails is found by its message
    outcome = run_one(tmp_path, "scenario s {" + TABLE + 'move play(8♠) fails "never"\n}')
    assert outcome.status == "failed" and "was played without any rule failing" in outcome.message()


# ---- the command line


def test_cli_test_passes_and_fails_with_exit_codes(tmp_path):
    runner = CliRunner()
    good = write(tmp_path, "scenario ok {" + TABLE + "expect size(pile) == 1 }", "good.test.rules")
    bad = write(tmp_path, "scenario ok {" + TABLE + "expect size(pile) == 1 }\n"
                "scenario wrong {" + TABLE + "expect size(pile) == 2 }", "bad.test.rules")
    result = runner.invoke(main, ["test", str(good)])
    assert result.exit_code == 0, result.output
    assert "passed ok" in result.output and "1 passed" in result.output
    result = runner.invoke(main, ["test", str(bad)])
    assert result.exit_code == 1
    assert "failed wrong" in result.output and "size(pile) is 1" in result.output
    assert "1 passed, 1 failed" in result.output
    result = runner.invoke(main, ["test", str(bad), "--match", "ok"])
    assert result.exit_code == 0 and "wrong" not in result.output
    result = runner.invoke(main, ["test", str(bad), "--match", "w*"])
    assert result.exit_code == 1 and "passed ok" not in result.output


def test_cli_test_usage_errors(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["test"]).exit_code == 2
    assert runner.invoke(main, ["test", str(tmp_path / "missing.test.rules")]).exit_code == 2
    lonely = tmp_path / "lonely.rules"
    lonely.write_text(HIGHLOW.read_text(encoding="utf-8"), encoding="utf-8")
    result = runner.invoke(main, ["test", str(lonely)])
    assert result.exit_code == 2 and "no scenario file beside it" in result.output
    good = write(tmp_path, "scenario ok {" + TABLE + "}")
    result = runner.invoke(main, ["test", str(good), "--match", "nothing"])
    assert result.exit_code == 2 and "no scenario matches" in result.output


def test_cli_broken_scenario_file_exits_1_with_positions(tmp_path):
    bad = write(tmp_path, "scenario s {\n  expect size(hnd[0]) == 1\n}")
    result = CliRunner().invoke(main, ["test", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:3:" in result.output and "unknown zone or variable `hnd`" in result.output
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert result.exit_code == 1 and "unknown zone or variable `hnd`" in result.output


def test_cli_check_accepts_scenario_files():
    result = CliRunner().invoke(main, ["check", str(ROOT / "games" / "tutorial_highlow.test.rules")])
    assert result.exit_code == 0, result.output
    assert "scenarios for" in result.output


# ---- the docs


SCENARIO_BLOCK = re.compile(r"```scenario\n(.*?)```", re.S)


def scenario_snippets():
    for page in sorted(DOCS.rglob("*.md")):
        for i, found in enumerate(SCENARIO_BLOCK.finditer(page.read_text(encoding="utf-8"))):
            yield pytest.param(found.group(1), id=f"{page.name}-{i}")


@pytest.mark.parametrize("text", list(scenario_snippets()))
def test_scenario_snippet_parses(text):
    # a whole file (`{ ... }` stands for a body left out), or the statements of one scenario
    text = text.replace("{ ... }", "{ }")
    if re.search(r"^scenarios ", text, re.M):
        parse_scenarios(text, "snippet.test.rules")
    elif re.search(r"^scenario \w+ ", text, re.M):  # whole scenarios of a file whose header is left out
        parse_scenarios(f'scenarios for "x.rules"\n{text}', "snippet.test.rules")
    else:
        parse_scenarios(f'scenarios for "x.rules"\nscenario example {{\n{text}\n}}', "snippet.test.rules")


def test_there_are_scenario_snippets():
    assert len(list(scenario_snippets())) >= 2


# ---- a broken rule makes its scenario fail


def test_breaking_the_ace_next_to_the_king_fails_its_scenario(tmp_path):
    """A copy of Trolley Car whose `follows` forgets that the Ace is next to the King: the scenario
    of that rule fails, showing the expectation, what was found and the position."""
    rules = (ROOT / "games" / "trolley_car.rules").read_text(encoding="utf-8")
    ace = " or (a == 1 and b == 13) or (a == 13 and b == 1)"
    assert ace in rules
    (tmp_path / "trolley_car.rules").write_text(rules.replace(ace, ""), encoding="utf-8")
    scenarios = (ROOT / "games" / "trolley_car.test.rules").read_text(encoding="utf-8")
    test_file = tmp_path / "trolley_car.test.rules"
    test_file.write_text(scenarios, encoding="utf-8")

    result = CliRunner().invoke(main, ["test", str(tmp_path / "trolley_car.rules")])
    assert result.exit_code == 1
    out = result.output
    assert "failed playing_the_ace_is_next_to_both_the_king_and_the_two" in out
    line = next(i for i, text in enumerate(scenarios.splitlines(), 1)
                if "expect moves play: play(K♥), play(A♥), play(2♥)" in text)
    assert f"{test_file}:{line}:3: scenario `playing_the_ace_is_next_to_both_the_king_and_the_two` failed" in out
    assert "expect moves play: play(K♥), play(A♥), play(2♥)" in out
    assert "found: the legal play moves are play(A♥), play(2♥)" in out
    assert "player 1 decides `turn`" in out and "rank[red] = 1" in out
    assert "hand[1]: A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 2♣" in out
    # the King of Hearts example and a lap that plays an Ace on a King fail too; the others pass
    assert "failed example_king_of_hearts_on_red_allows_kings_queens_and_aces_of_red" in out
    assert "failed lap_after_fifteen_cards_played_all_but_the_last_are_set_aside" in out
    total = len(load_scenarios(test_file).scenarios)
    assert out.count("  failed ") == 3 and f"{total - 3} passed, 3 failed" in out


def test_trolley_car_page_maps_rules_to_scenarios_that_exist():
    page = (DOCS / "games" / "trolley_car.md").read_text(encoding="utf-8")
    table = page.split("| Source sentence | Rules | Scenarios and tests |", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and line.endswith(" |")]
    assert len(rows) > 30
    named = set()
    for row in rows:
        named |= set(re.findall(r"`([a-z0-9_]+)`", row.rsplit(" | ", 1)[1]))
    scenarios = set()
    for name in ("trolley_car.test.rules", "trolley_car_bet.test.rules"):
        scenarios |= {s.name for s in load_scenarios(ROOT / "games" / name).scenarios}
    python_tests = set(re.findall(r"^def (test_\w+)", "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py")), re.M))
    assert named - scenarios - python_tests == set()
    # every scenario that checks a rule is named on the page (the others are starting positions)
    starting_points = {"two_players", "three_players", "bet_on_red", "bet_on_black"}
    assert scenarios - named == starting_points


def test_the_tutorials_scenario_is_the_one_in_the_games_scenario_file():
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    step = text.split("## Step 10", 1)[1]
    shown = SCENARIO_BLOCK.search(step).group(1)
    game_file = (ROOT / "games" / "tutorial_highlow.test.rules").read_text(encoding="utf-8")
    body = shown.split("\n", 2)[2]  # the scenario, after the `scenarios for` line and a blank line
    assert shown.startswith('scenarios for "tutorial_highlow.rules"\n') and body in game_file


FAILING_GAME = """game "Fail"
players 2..2
var x: int = 0
flow {
  turns from 0 until x > 5 {
    choose turn by current {
      move inc { x += 1 }
      move boom { x = 10 / x }
    }
  }
}
define score(p) = x
winner(p): lowest score(p)
"""


def test_a_rule_that_fails_can_be_expected_and_fails_the_scenario_otherwise(tmp_path):
    (tmp_path / "fail.rules").write_text(FAILING_GAME, encoding="utf-8")
    path = tmp_path / "fail.test.rules"
    path.write_text('scenarios for "fail.rules"\n'
                    'scenario expected { move boom fails "division by zero" }\n'
                    'scenario unexpected { move inc\n move boom }\n'
                    'scenario wrong_finding { move boom fails "something else" }\n', encoding="utf-8")
    loaded = load_scenarios(path)
    expected, unexpected, wrong = (loaded.run(s) for s in loaded.scenarios)
    assert expected.status == "passed" and expected.checked == 1
    assert unexpected.status == "passed"  # after inc, x is 1: no division by zero
    assert wrong.status == "failed" and "a rule failed: division by zero" in wrong.message()
    assert "fail.rules:8:" in wrong.message()  # the rule's line


def test_current_can_be_set_and_the_decision_follows(tmp_path):
    (tmp_path / "fail.rules").write_text(FAILING_GAME, encoding="utf-8")
    path = tmp_path / "fail.test.rules"
    path.write_text('scenarios for "fail.rules"\n'
                    'scenario s { current = 1\n expect decision turn by 1\n move inc\n'
                    ' expect decision turn by 0\n expect x == 1 }\n', encoding="utf-8")
    loaded = load_scenarios(path)
    outcome = loaded.run(loaded.scenarios[0])
    assert outcome.status == "passed", outcome.message()
    assert outcome.checked == 3


def test_pytest_runs_each_scenario_as_a_test(tmp_path):
    import subprocess
    import sys

    good = write(tmp_path, "scenario fine {" + TABLE + "expect size(pile) == 1 }\n"
                 "scenario broken {" + TABLE + "expect size(pile) == 3 }", "highlow.test.rules")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "ruledsl.pytest_plugin", "-q", "-p", "no:cacheprovider",
                          str(good)], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout
    assert "highlow.test.rules::broken" in run.stdout
    assert "found: size(pile) is 1" in run.stdout and "Traceback" not in run.stdout


@pytest.mark.parametrize("statement, message", [
    ("line[red] at 16: 5♥", "line[red] has slots 0 to 15, not 16"),
    ("line[red] at 1: 7♥", "slot 1 of line[red] already holds 6♥"),
    ("line[black] at 11: 7♠", "slot 11 of line[black] already holds 8♥"),  # red 2 is black 11
    ("hand[0]: 5♥ 5♥ 5♥", "no spare 5♥: this scenario has already placed all 2 copies"),
    ("line[red]: 7♥", "line[red] is a track: say where"),
])
def test_track_positions_that_cannot_occur(tmp_path, statement, message):
    path = tmp_path / "t.test.rules"
    path.write_text(f'scenarios for "{ROOT / "games" / "trolley_car.rules"}"\n'
                    "scenario s {\n  players 2\n  gather all cards into deck\n  line[red] at 0: 4♥ 6♥ 8♥\n"
                    f"  {statement}\n}}\n", encoding="utf-8")
    loaded = load_scenarios(path)
    outcome = loaded.run(loaded.scenarios[0])
    assert outcome.status == "error"
    assert message in outcome.diagnostic.message
    assert outcome.diagnostic.line == 6


def test_parameter_and_player_count_errors_point_at_their_statements(tmp_path):
    path = write(tmp_path, "scenario s {\n  param nosuch = 1\n}\nscenario t {\n  players 9\n}\n")
    loaded = load_scenarios(path)
    with pytest.raises(RulesError) as err:
        loaded.check()
    d = err.value.diagnostics[0]
    assert (d.line, d.column) == (3, 3) and "unknown parameter 'nosuch'" in d.message
    outcome = loaded.run(loaded.by_name["t"])
    assert outcome.status == "error" and outcome.diagnostic.line == 6
    assert "High-Low is for 2 to 4 players, not 9" in outcome.diagnostic.message


def test_check_finds_names_the_game_does_not_have_before_running(tmp_path):
    path = write(tmp_path, "scenario s {\n  players 2\n  hands[0]: 5♥ 1♥\n  trick[0] = 1\n"
                 "  move ply(5♥), draw\n  expect decision trn by 1\n  expect 7♥ in wn[0]\n"
                 "  expect illegal bet(5♥)\n}")
    loaded = load_scenarios(path)
    with pytest.raises(RulesError) as err:
        loaded.check()
    found = [(d.line, d.message, d.hint) for d in err.value.diagnostics]
    assert found == [
        (4, "there is no zone `hands`", "did you mean `hand`?"),
        (4, "there is no card 1♥ in this game", "did you mean `10♥`?"),
        (5, "there is no variable `trick`", "did you mean `tricks`?"),
        (6, "no decision of the game has a move `ply`", "did you mean `play`?"),
        (7, "the game has no decision `trn`", "did you mean `turn`?"),
        (8, "there is no zone `wn`", "did you mean `won`?"),
    ]  # an illegal move may name no move of the game


# ---- a card that lies in two places: `play(2♥ from hand[1])`

TWO_2H = """scenario s {
  players 2
  move pass, pass
  gather all cards into deck
  line[red] at 0: 3♦
  line[black] at 0: 9♣
  rank[red] = 3, rank[black] = 9
  hand[1]: 2♥ K♠
  declared[1]: 2♥
  hand[0]: K♣
"""


def trolley_scenario(tmp_path, body: str):
    path = tmp_path / "t.test.rules"
    path.write_text(f'scenarios for "{ROOT / "games" / "trolley_car.rules"}"\nparam single_round = true\n'
                    + body, encoding="utf-8")
    loaded = load_scenarios(path)
    loaded.check()
    (scenario,) = loaded.scenarios
    return loaded.run(scenario)


def test_a_move_text_may_say_where_its_card_comes_from():
    (scenario,) = parse_scenarios('scenarios for "x.rules"\nscenario s {\n'
                                  '  move play(2♥ from declared[1]), x(A♠ from meld[0, red].bonus), play(3♥)\n}').scenarios
    texts = scenario.stmts[0].moves
    assert [str(m) for m in texts] == ["play(2♥ from declared[1])", "x(A♠ from meld[0, red].bonus)", "play(3♥)"]
    assert texts[0].args == (("card", "2♥"),) and texts[0].place(0) == "declared[1]" and texts[2].place(0) is None


def test_the_same_card_in_two_places_is_moved_by_its_place(tmp_path):
    outcome = trolley_scenario(tmp_path, TWO_2H + """
  expect moves play: play(2♥ from hand[1]), play(2♥ from declared[1])
  expect illegal play(2♥ from deck) "there is no card 2♥ in deck"
  move play(2♥ from declared[1])
  expect declared[1]: none
  expect hand[1]: 2♥ K♠
}""")
    assert outcome.status == "passed", outcome.message()
    assert outcome.checked == 4


def test_an_ambiguous_move_without_its_place_is_not_a_move(tmp_path):
    outcome = trolley_scenario(tmp_path, TWO_2H + "  move play(2♥)\n}")
    assert outcome.status == "failed"
    assert "play(2♥) is not a legal move here (legal: play(2♥ from hand[1]), play(2♥ from declared[1])" \
        in outcome.message()


def test_a_place_that_is_no_zone_is_found_by_check(tmp_path):
    with pytest.raises(RulesError) as err:
        trolley_scenario(tmp_path, TWO_2H + "  move play(2♥ from hnd[1])\n}")
    (d,) = err.value.diagnostics
    assert d.message == "there is no zone `hnd[1]`" and d.hint == "did you mean `hand`?" and d.line == 13


def test_a_rule_that_fails_while_the_moves_are_listed_fails_the_scenario_at_its_line(tmp_path):
    """Not an escaped RulesRuntimeError (found by `ruledsl mutate`: `i in 0..4` over a family of 1..4)."""
    rules = tmp_path / "slots.rules"
    rules.write_text('game "Slots"\nplayers 2..2\nvar v[1..3]: int = 0\n'
                     "flow { choose first by 0 { move go {} }\n"
                     "       choose pick by 1 { move take(i in 0..3) where v[i] == 0 { v[i] = 1 } } }\n"
                     "define score(p) = 0\nwinner(p): highest score(p)\n", encoding="utf-8")
    scenarios = tmp_path / "slots.test.rules"
    scenarios.write_text('scenarios for "slots.rules"\n\nscenario listing {\n  players 2\n  move go\n'
                         "  expect moves: take(1), take(2), take(3)\n}\n", encoding="utf-8")
    loaded = load_scenarios(scenarios)
    (outcome,) = [loaded.run(s) for s in loaded.scenarios]
    assert outcome.status == "failed"
    assert "`v[0]` is outside `v`" in outcome.found  # a finding of the rules, reported as the scenario's failure
    assert outcome.where.line in (5, 6)  # the move after which the moves are listed, or the expectation


# ---- include: another file's scenarios, run against this file's rules


def test_an_included_file_runs_its_scenarios_with_its_settings_against_the_including_files_rules(tmp_path):
    # the included file names another rules file (never read) and plays with 3 players ...
    (tmp_path / "base.test.rules").write_text(
        'scenarios for "elsewhere.rules"\nplayers 3\n'
        "scenario table {\n  gather all cards into deck\n  pile: 7♣\n  hand[0]: 8♠\n  hand[1]: K♥\n}\n"
        "scenario three { expect size(hand[2]) == 6 }\n"
        "scenario wrong_here from table { expect illegal play(8♠) }\n", encoding="utf-8")
    # ... the including file plays with 2, starts a scenario from an included one, and leaves one out
    path = write(tmp_path, 'include "base.test.rules" except wrong_here\nplayers 2\n'
                 "scenario after from table { move play(8♠)\n expect pile: 7♣ 8♠ }\n"
                 "scenario two { expect players 2 refused }\n")
    loaded = load_scenarios(path)
    assert [s.name for s in loaded.scenarios] == ["table", "three", "after", "two"]
    assert loaded.rules_path == str(HIGHLOW)
    loaded.check()
    outcomes = {s.name: loaded.run(s) for s in loaded.scenarios}
    assert outcomes["three"].status == "passed", outcomes["three"].message()  # the included file's 3 players
    assert outcomes["after"].status == "passed", outcomes["after"].message()
    assert outcomes["two"].status == "failed"  # this file's 2 players: 2 players are not refused


@pytest.mark.parametrize("include, message", [
    ('include "base.test.rules" except nothing_like_it', "has no scenario `nothing_like_it` to leave out"),
    ('include "base.test.rules" except table', "`table` is left out, but `after` of \"base.test.rules\""),
    ('include "missing.test.rules"', "cannot find the scenario file \"missing.test.rules\""),
    ('include "game.test.rules"', "includes itself"),
    ('include "base.rules"', "an included file is a scenario file"),
])
def test_include_errors_have_positions(tmp_path, include, message):
    (tmp_path / "base.test.rules").write_text(
        'scenarios for "x.rules"\nscenario table { }\nscenario after from table { }\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_scenarios(write(tmp_path, include + "\nscenario mine { }\n"))
    [d] = [d for d in err.value.diagnostics if message in d.message]
    assert d.span.line == 2


def test_an_included_scenario_name_may_not_be_used_again(tmp_path):
    (tmp_path / "base.test.rules").write_text('scenarios for "x.rules"\nscenario table { }\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_scenarios(write(tmp_path, 'include "base.test.rules"\nscenario table { }\n'))
    [d] = err.value.diagnostics
    assert "`table` is defined twice (also in \"base.test.rules\")" in d.message and d.span.line == 3
