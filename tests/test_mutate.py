"""`ruledsl mutate`: the mutants its operators make, and what it reports when scenarios miss a rule.

The runs are kept small: the tiny race of tests/data/mutate_race.rules, or the tutorial game with
`--match` on one move.
"""

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.language.parse import parser
from ruledsl.mutate.comments import Comments, parse_mark
from ruledsl.mutate.operators import OPERATORS, generate

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
DATA = Path(__file__).resolve().parent / "data"

TINY = '''\
game "Tiny"
players 2..3
param goal = 3 in 1..9 "points that win"
param fast = false
zone deck: pile hidden
zone pile: pile public
zone hand[player]: row owner
zone won[player]: row hidden
var points[player]: int = 0
invariant small: points[0] <= 100
trigger bonus when points[current] == 2 {
  points[current] += 1
}
flow {
  shuffle deck
  turns from 0 until points[current] >= goal {
    choose turn by current {
      move take(c in hand[current]) where c.rank > 5 and not fast {
        put c into won[current]
        points[current] += 1
      }
      move pass where empty(deck) or size(pile) in {1, 2} {}
    }
  }
}
'''


def mutated_lines(text, mutants):
    """(operator, the first changed line after the change, stripped) for every mutant."""
    out = set()
    for m in mutants:
        new = m.apply(text)
        line = text.count("\n", 0, m.start)
        out.add((m.operator, new.split("\n")[line].strip()))
    return out


def test_the_operators_make_the_expected_mutants_of_a_tiny_file():
    made = generate(TINY, "tiny.rules", invariants=False)
    got = mutated_lines(TINY, made.mutants)
    expected = {
        ("compare", "turns from 0 until points[current] > goal {"),
        ("compare", "trigger bonus when points[current] != 2 {"),
        ("compare", "move take(c in hand[current]) where c.rank >= 5 and not fast {"),
        ("compare", "move pass where empty(deck) or size(pile) not in {1, 2} {}"),
        ("constant", "move take(c in hand[current]) where c.rank > 6 and not fast {"),
        ("constant", "move take(c in hand[current]) where c.rank > 4 and not fast {"),
        ("and-or", "move take(c in hand[current]) where c.rank > 5 or not fast {"),
        ("operand", "move take(c in hand[current]) where not fast {"),
        ("operand", "move take(c in hand[current]) where c.rank > 5 {"),
        ("and-or", "move pass where empty(deck) and size(pile) in {1, 2} {}"),
        ("not", "move take(c in hand[current]) where c.rank > 5 and fast {"),
        ("where", "move take(c in hand[current]) {"),
        ("where", "move pass {}"),
        ("shuffle", ""),  # its line stays, empty
        ("visibility", "zone deck: pile public"),
        ("visibility", "zone hand[player]: row public"),
        ("visibility", "zone hand[player]: row others"),
        ("top-bottom", "put c under won[current]"),
        ("zone", "put c into hand[current]"),  # hand and won: both rows per player
        ("param", 'param goal = 4 in 1..9 "points that win"'),
        ("param", 'param goal = 2 in 1..9 "points that win"'),
        ("param", "param fast = true"),
        ("players", "players 1..3"),
        ("players", "players 2..4"),
        ("swap", "points[current] += 1"),  # the two statements of `take`, swapped
    }
    assert expected <= got, sorted(expected - got)
    removed = {m.description for m in made.mutants if m.operator in ("remove-move", "remove-trigger")}
    assert removed == {"removed move `take`", "removed move `pass`", "removed trigger `bonus`"}


def test_what_the_operators_leave_alone():
    made = generate(TINY, "tiny.rules", invariants=False)
    got = mutated_lines(TINY, made.mutants)
    # a parameter's default belongs to `param`, its accepted range to nobody
    assert not [g for g in got if g[0] == "constant" and g[1].startswith("param")]
    # owner/others only for a zone with a player index; a zone only for another of its type
    assert ("visibility", "zone deck: pile owner") not in got
    assert ("zone", "put c into deck") not in got and ("zone", "put c into pile") not in got
    # invariants are checked by verify only: mutated only when asked
    assert not [g for g in got if g[1].startswith("invariant")]
    with_invariants = mutated_lines(TINY, generate(TINY, "tiny.rules", invariants=True).mutants)
    assert ("compare", "invariant small: points[0] < 100") in with_invariants
    # one operator only
    only = generate(TINY, "tiny.rules", operators=["shuffle"]).mutants
    assert [m.operator for m in only] == ["shuffle"]


def test_the_operators_know_the_languages_words():
    from ruledsl.checker.declare import VISIBILITIES, ZONE_SHAPES
    from ruledsl.mutate import operators

    assert set(operators.VISIBILITY_WORDS) == set(VISIBILITIES)
    assert set(operators.SHAPES) == set(ZONE_SHAPES)


def test_mutants_are_valid_syntax_distinct_and_change_one_place():
    for text in (TINY, (GAMES / "tutorial_highlow.rules").read_text(encoding="utf-8")):
        made = generate(text, "x.rules").mutants
        texts = [m.apply(text) for m in made]
        assert len(set(texts)) == len(texts) and text not in texts
        for m, new in zip(made, texts):
            parser().parse(new)  # raises on a syntax error
            assert m.operator in OPERATORS
            assert new[:m.start] == text[:m.start] and new.endswith(text[m.end:])


SPLICED = TINY.replace("where empty(deck) or size(pile) in {1, 2} {}",
                      "where empty(deck)\n        or size(pile) in {1, 2} {}") + 'define a = 1 define b = a + 2\n'


def test_a_mutants_tree_is_the_originals_with_the_changed_declarations_parsed_again():
    import attrs

    from ruledsl.language.parse import parse
    from ruledsl.mutate.run import _Splicer

    splicer = _Splicer(SPLICED, "tiny.rules")
    made = generate(SPLICED, "tiny.rules", invariants=True).mutants
    spliced = 0
    for m in made:
        new = m.apply(SPLICED)
        assert new.count("\n") == SPLICED.count("\n")  # every line keeps its number
        got = splicer.tree(m)
        if got is None:
            assert m.start >= SPLICED.index("define a")  # only where a declaration follows on the line
            continue
        spliced += 1
        assert got[0] == new
        assert attrs.asdict(got[1]) == attrs.asdict(parse(new, "tiny.rules")), m
    assert spliced > 0.9 * len(made)


def test_equivalent_marks_and_comment_groups():
    assert parse_mark(3, "x  # mutate: equivalent — the order does not matter", OPERATORS).why == \
        "the order does not matter"
    mark = parse_mark(3, "# mutate: equivalent swap, top-bottom -- same cards either way", OPERATORS)
    assert mark.operators == ("swap", "top-bottom") and mark.why == "same cards either way"
    assert parse_mark(3, "# mutate: equivalent swop — typo", OPERATORS).unknown == ("swop",)
    text = "# rule A\n# more of A\nx = 1\n# mutate: equivalent swap — why\ny = 2\nz = 3  # mutate: equivalent — b\n"
    c = Comments(text, OPERATORS)
    assert c.mark_of(5, "swap").why == "why" and c.mark_of(5, "constant") is None
    assert c.mark_of(6, "constant").why == "b" and c.mark_of(3, "swap") is None
    assert c.group_of(5) == (1, "# rule A\n# more of A")
    # a block heads its paragraph; inside a declaration, the nearest block above; else the paragraph
    c = Comments("# head\nzone a: pile hidden\n\nflow {\n  x = 1\n  # inner\n  y = 2\n}\n", OPERATORS)
    assert c.group_of(2) == (1, "# head")
    assert c.group_of(5) == (4, "flow {")
    assert c.group_of(7) == (6, "# inner")


def test_a_mark_can_pick_one_mutant_of_its_operator_by_its_text():
    # the key (the new token, what is dropped) or text of the changed line that the original lacks
    mark = parse_mark(1, "# mutate: equivalent visibility `top`, constant `- 4` operand — x - y", OPERATORS)
    assert mark.selectors == (("visibility", "top"), ("constant", "- 4"), ("operand", None))
    assert mark.why == "x - y"  # a dash inside backquotes is text, the first one outside starts the reason
    text = "zone pile: pile public  # note\ndefine t = size(pile) - 3\n"
    made = generate(text, "t.rules").mutants
    vis = {m.key: m for m in made if m.operator == "visibility"}
    assert set(vis) == {"hidden", "top"}
    c = Comments(text.replace("# note", "# mutate: equivalent visibility `top` — one card at most"), OPERATORS)
    assert c.mark_of(1, "visibility", "top").why == "one card at most"
    assert c.mark_of(1, "visibility", "hidden") is None
    consts = [m for m in made if m.operator == "constant"]
    from ruledsl.mutate.report import changed_lines, mark_text
    c = Comments(text + "# mutate: equivalent constant `- 4` — only one\n", OPERATORS)
    picked = [m for m in consts if c.marks[3].picks(m.operator, m.key, *changed_lines(text, m))]
    assert [m.key for m in picked] == ["4"]
    # a mark at the end of the line it excuses: its own text is not the line's
    own = text.replace("- 3\n", "- 3  # mutate: equivalent constant `- 4` — only one\n")
    c = Comments(own, OPERATORS)
    mutants = [m for m in generate(own, "t.rules").mutants if m.operator == "constant"]
    assert [m.key for m in mutants if c.mark_of(2, m.operator, m.key, *changed_lines(own, m))] == ["4"]
    # the report offers the mark that picks a survivor alone
    texts = {"t.rules": text}
    assert mark_text(texts, vis["top"], made) == "visibility `top`"
    assert {mark_text(texts, m, made) for m in consts} == {"constant `4`", "constant `2`"}


def test_a_skip_mark_covers_a_comment_blocks_declarations_or_one_declaration():
    text = ("# the bots' guide\n# mutate: skip — not a rule\ndefine h(p) = 1 + 2\ndefine g(p) =\n  3\n\n"
            "define k = 4\ndefine w(p) =  # mutate: skip - a guide too\n  5 + 6\ndefine z = 7\n")
    c = Comments(text, OPERATORS)
    assert [(m.line, first, last, m.why) for m, first, last in c.skips()] == \
        [(2, 3, 5, "not a rule"), (8, 8, 9, "a guide too")]
    assert c.skip_of(4) is not None and c.skip_of(7) is None and c.skip_of(10) is None


# ---- the command


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, ["mutate", *[str(a) for a in args]])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def run_json(*args):
    result = invoke(*args, "--json")
    return result, json.loads(result.stdout)


@pytest.fixture
def highlow(tmp_path):
    """The tutorial game with the scenarios of its step 10 (the ones step 11's mutate finds gaps in), copied
    where a test may change them."""
    shutil.copy(GAMES / "tutorial_highlow.rules", tmp_path)
    step10 = (DATA / "tutorial_highlow_step10.test.rules").read_text(encoding="utf-8")
    step10 = step10.replace('scenarios for "../../games/tutorial_highlow.rules"', 'scenarios for "tutorial_highlow.rules"')
    (tmp_path / "tutorial_highlow.test.rules").write_text(step10, encoding="utf-8")
    return tmp_path / "tutorial_highlow.rules"


def delete_scenario(rules: Path, name: str) -> None:
    """Delete one scenario (from its comment block to the next) from the file beside ``rules``."""
    path = rules.with_name(rules.name.replace(".rules", ".test.rules"))
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"scenario {name} "))
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("}")) + 1
    path.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")


def draw_removed(data) -> dict:
    [found] = [r for r in data["results"] if r["description"] == "removed move `draw`"]
    return found


def test_a_planted_scenario_gap_in_the_tutorial_game_is_found(highlow):
    # With every scenario, removing the `draw` move is noticed ...
    result, data = run_json(highlow, "--match", "move draw")
    assert result.exit_code == 0, result.stderr
    assert draw_removed(data)["status"] == "killed"
    assert draw_removed(data)["by"] == "draw_takes_the_top_card_of_the_deck"
    # ... without the scenario of the rule "or draw a card", it survives, and the run fails.
    delete_scenario(highlow, "draw_takes_the_top_card_of_the_deck")
    result, data = run_json(highlow, "--match", "move draw")
    assert result.exit_code == 1
    found = draw_removed(data)
    assert found["status"] == "survived" and found["by"] is None
    assert (found["line"], found["file"]) == (50, str(highlow))
    assert found["original"].strip().startswith("move draw where not empty(deck) {") and found["mutated"] == ""
    assert data["survived"] == 1 and data["killed"] == data["mutants"] - 1
    # the table says where, and shows the diff
    text = invoke(highlow, "--match", "move draw").stdout
    assert f"{highlow}:50:7 remove-move removed move `draw`" in text
    assert "- move draw where not empty(deck) {" in text
    assert "score: 3/4 killed (75%), 1 survived" in text


def test_an_equivalent_mark_lists_the_survivor_apart(highlow):
    delete_scenario(highlow, "draw_takes_the_top_card_of_the_deck")
    rules = highlow.read_text(encoding="utf-8")
    line = "      move draw where not empty(deck) {"
    # a mark for another operator does not cover it
    highlow.write_text(rules.replace(line, "      # mutate: equivalent swap — not this one\n" + line), encoding="utf-8")
    result, data = run_json(highlow, "--match", "move draw")
    assert result.exit_code == 1 and draw_removed(data)["status"] == "survived"
    # a mark for the line does
    highlow.write_text(rules.replace(line, "      # mutate: equivalent — the tutorial does not test drawing\n"
                                     + line), encoding="utf-8")
    result, data = run_json(highlow, "--match", "move draw")
    assert result.exit_code == 0
    found = draw_removed(data)
    assert found["status"] == "equivalent"
    assert found["equivalent"] == {"line": 50, "why": "the tutorial does not test drawing"}
    assert (data["survived"], data["equivalent"]) == (0, 1)
    text = invoke(highlow, "--match", "move draw").stdout
    assert "marked equivalent (1)" in text and "the tutorial does not test drawing" in text
    assert "survived (" not in text


def test_the_tutorials_worked_example(highlow):
    """docs/tutorial.md step 11: four survivors on `move pass`, and the two scenarios that kill them."""
    result = invoke(highlow, "--match", "move pass")
    assert result.exit_code == 1 and "score: 3/7 killed (43%), 4 survived" in result.stdout
    step = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8").split("## Step 11", 1)[1].split("\n## ", 1)[0]
    scenarios = re.findall(r"```scenario\n(.*?)```", step, re.DOTALL)[0]  # the two for `pass`
    tests = highlow.with_name("tutorial_highlow.test.rules")
    tests.write_text(tests.read_text(encoding="utf-8") + "\n" + scenarios, encoding="utf-8")
    result = invoke(highlow, "--match", "move pass")
    assert result.exit_code == 0, result.stdout
    assert "score: 7/7 killed (100%), 0 survived" in result.stdout


def test_the_tutorial_game_in_games_is_whole_as_step_11_ends():
    """The end of docs/tutorial.md step 11: with every scenario of games/, no mutant survives unmarked."""
    result = invoke(GAMES / "tutorial_highlow.rules")
    assert result.exit_code == 0, result.stdout
    score = re.search(r"^score: .*$", result.stdout, re.MULTILINE).group(0)
    step = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8").split("## Step 11", 1)[1].split("\n## ", 1)[0]
    assert score in step and "0 survived" in score


def test_a_mark_on_a_killed_mutant_is_reported_stale(highlow):
    rules = highlow.read_text(encoding="utf-8")
    line = "      move draw where not empty(deck) {"
    highlow.write_text(rules.replace(line, "      # mutate: equivalent remove-move — wrongly\n" + line),
                       encoding="utf-8")
    result, data = run_json(highlow, "--match", "move draw")
    assert result.exit_code == 0
    assert draw_removed(data)["status"] == "killed" and data["stale_marks"] == 1
    assert "stale marks (1)" in invoke(highlow, "--match", "move draw").stdout


def test_a_stale_mark_and_a_skip_are_reported(highlow):
    rules = highlow.read_text(encoding="utf-8")
    line = "      move draw where not empty(deck) {"
    head = "# As soon as the pile holds trick_size cards"
    marked = rules.replace(line, "      # mutate: equivalent not — killed, in truth\n"
                           "      # mutate: equivalent compare `>` — no comparison here\n" + line)
    highlow.write_text(marked.replace(head, "# mutate: skip — not tested here\n" + head, 1), encoding="utf-8")
    result, data = run_json(highlow)  # exit 1: the tutorial game has survivors (docs/tutorial.md)
    assert result.exit_code == 1 and data["survived"] > 0
    reasons = {x["mark"]: x["reason"] for x in data["stale"]}
    assert reasons["not"].startswith("every mutant it picks is killed: removed `not`")
    assert reasons["compare `>`"].startswith("picks no mutant")
    [skip] = data["skips"]
    assert skip["why"] == "not tested here" and skip["mutants"] > 0 and data["skipped"] == skip["mutants"]
    assert not [r for r in data["results"] if skip["lines"][0] <= r["line"] <= skip["lines"][1]]
    # the game's own mark on the trick's `put` (swap, top-bottom), inside the skipped block, picks no mutant now
    assert reasons["swap"].startswith("picks no mutant") and reasons["top-bottom"].startswith("picks no mutant")
    assert len(data["stale"]) == 4
    text = invoke(highlow).stdout
    assert "stale marks (4)" in text and f"skipped ({skip['mutants']} mutants)" in text


def test_a_variant_mutates_its_base_but_what_it_replaces(tmp_path):
    base = (GAMES / "tutorial_highlow.rules").read_text(encoding="utf-8")
    (tmp_path / "base.rules").write_text(base, encoding="utf-8")
    (tmp_path / "v.rules").write_text('extends "base.rules"\ngame "V"\nreplace define can_play(p) = true\n',
                                      encoding="utf-8")
    made = generate((tmp_path / "v.rules").read_text(encoding="utf-8"), str(tmp_path / "v.rules"))
    paths = {m.path for m in made.mutants}
    assert len(paths) == 2 and str(tmp_path / "v.rules") in paths
    assert made.replaced > 0  # the base's can_play is not part of the variant's game
    base_path = next(p for p in paths if p.endswith("base.rules"))
    start = next(i for i, ln in enumerate(base.split("\n"), 1) if ln.startswith("define can_play"))
    from ruledsl.mutate.report import line_of
    assert not [m for m in made.mutants if m.path == base_path and line_of(made.texts, m) == start]
    only = generate((tmp_path / "v.rules").read_text(encoding="utf-8"), str(tmp_path / "v.rules"), with_bases=False)
    assert {m.path for m in only.mutants} == {str(tmp_path / "v.rules")}


def test_invalid_mutants_are_counted_apart():
    result, data = run_json(DATA / "mutate_race.rules", "--operator", "param")
    assert result.exit_code == 1  # `goal = 3` survives: no scenario plays to the default goal
    statuses = {r["description"]: r["status"] for r in data["results"]}
    assert statuses == {"param `goal` = 4 → 5": "invalid", "param `goal` = 4 → 3": "survived"}
    [invalid] = [r for r in data["results"] if r["status"] == "invalid"]
    assert "4" in invalid["detail"] and invalid["by"] is None
    assert (data["mutants"], data["invalid"], data["killed"], data["survived"]) == (2, 1, 0, 1)
    assert data["score"] == 0.0  # invalid mutants are not in the score


def test_the_json_shape():
    _, data = run_json(DATA / "mutate_race.rules", "--match", "move")
    assert set(data) >= {"rules", "scenarios", "mutants", "killed", "survived", "equivalent", "invalid",
                         "stale_marks", "score", "seconds", "jobs", "results"}
    assert data["scenarios"].endswith("mutate_race.test.rules")
    assert data["mutants"] == len(data["results"]) == data["killed"] + data["survived"] + data["invalid"] \
        + data["equivalent"]
    for r in data["results"]:
        assert set(r) >= {"id", "operator", "description", "file", "line", "column", "original", "mutated",
                          "status", "by", "detail", "group", "equivalent"}
        assert r["status"] in ("killed", "survived", "equivalent", "invalid")
        assert r["operator"] in OPERATORS
    groups = {r["group"]["comment"] for r in data["results"]}
    assert '# "One step, or two."' in groups


def test_jobs_give_the_same_verdicts():
    _, one = run_json(DATA / "mutate_race.rules")
    result, two = run_json(DATA / "mutate_race.rules", "--jobs", "2")
    assert result.exit_code == 1
    assert [(r["description"], r["status"], r["by"]) for r in one["results"]] == \
        [(r["description"], r["status"], r["by"]) for r in two["results"]]
    assert two["jobs"] == 2


def test_all_killed_exits_0():
    result = invoke(DATA / "mutate_race.rules", "--operator", "remove-move")
    assert result.exit_code == 0, result.stdout
    assert "score: 2/2 killed (100%), 0 survived" in result.stdout


def test_usage_errors_exit_2(tmp_path):
    lonely = tmp_path / "lonely.rules"
    shutil.copy(DATA / "mutate_race.rules", lonely)
    cases = [
        ([tmp_path / "missing.rules"], "does not exist"),
        ([lonely], "has no scenario file beside it"),
        ([tmp_path], "is a directory"),
        ([DATA / "mutate_race.rules", "--jobs", "0"], "--jobs"),
        ([DATA / "mutate_race.rules", "--operator", "nonsense"], "--operator"),
        ([DATA / "mutate_race.rules", "--match", "no such line"], "no mutant changes a line"),
    ]
    for args, message in cases:
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert message in result.stderr, (args, result.stderr)


def test_broken_rules_or_failing_scenarios_exit_1(tmp_path):
    shutil.copy(DATA / "mutate_race.test.rules", tmp_path)
    rules = tmp_path / "mutate_race.rules"
    good = (DATA / "mutate_race.rules").read_text(encoding="utf-8")
    rules.write_text(good.replace("points[current] += 2", "points[current] += nowhere"), encoding="utf-8")
    result = invoke(rules)
    assert result.exit_code == 1 and "nowhere" in result.stderr
    rules.write_text(good.replace("points[current] += 2", "points[current] += 3"), encoding="utf-8")
    result = invoke(rules)
    assert result.exit_code == 1
    assert "already fail" in result.stderr and "two_steps" in result.stderr
