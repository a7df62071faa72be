"""The parser: syntax errors name what was found, what was expected, and where."""

import pytest

from ruledsl import RulesError
from ruledsl.language import ast as A
from ruledsl.language.parse import data_path, parse


def syntax_error(text: str):
    with pytest.raises(RulesError) as info:
        parse(text, "x.rules")
    [d] = info.value.diagnostics
    return d


def test_nodes_carry_their_span():
    tree = parse('game "G"\nzone deck: pile hidden\n', "g.rules")
    zone = tree.items[1]
    assert isinstance(zone, A.ZoneDef)
    assert (zone.span.file, zone.span.line, zone.span.column) == ("g.rules", 2, 1)


def test_unexpected_token():
    d = syntax_error('game "x"\nflow {\n  put c into\n}\n')
    assert (d.code, d.line, d.column) == ("E100", 4, 1)
    assert d.message == "unexpected '}'; expected a name"


def test_unclosed_block_names_the_open_brace():
    d = syntax_error('game "x"\nflow {\n  shuffle deck\n')
    assert d.message.startswith("the file ends too early; expected '}'")
    assert d.hint == "the innermost block that needs to be closed is `flow`, opened at line 2, column 6"


def test_an_unclosed_block_is_shown_where_it_opens():
    text = ('game "x"\n'
            'players 2..2\n'
            'var n: int = 0\n'
            '\n'
            'procedure bump(p) {\n'
            '  if n < 3 {\n'
            '    n += 1\n'
            '  }\n'
            '\n'
            'flow {\n'
            '  bump(0)\n'
            '}\n')
    d = syntax_error(text)
    assert (d.line, d.column) == (10, 1)
    assert d.hint == ("the innermost block that needs to be closed is `procedure bump(p)`, "
                      "opened at line 5, column 19")
    [(where, what, line)] = d.related
    assert (where.line, where.column, what) == (5, 19, "the block `procedure bump(p)` opened here is still open")
    assert d.render().splitlines()[3:6] == [
        "x.rules:5:19: note: the block `procedure bump(p)` opened here is still open",
        "    procedure bump(p) {",
        "                      ^",
    ]


def test_a_brace_on_a_line_of_its_own_is_named_by_the_line_above():
    d = syntax_error('game "x"\nflow\n{\n  shuffle deck\n')
    assert d.hint == "the innermost block that needs to be closed is `flow`, opened at line 3, column 1"


def test_bad_character():
    d = syntax_error('flow {\n  shuffle deck $\n}\n')
    assert (d.line, d.column, d.message) == (2, 16, "unexpected character '$'")


def test_operator_precedence():
    tree = parse("define x = 1 + 2 * 3 == 7 and not false\n", "p.rules")
    body = tree.items[0].body
    assert body.op == "and"
    assert body.left.op == "=="
    assert body.left.left.op == "+"
    assert body.left.left.right.op == "*"


def test_grammar_is_found():
    assert data_path("grammar", "ruledsl.lark").is_file()
    assert data_path("lib", "standard.rules").is_file()


def test_every_game_file_parses():
    from pathlib import Path

    from ruledsl.scenarios.runner import SUFFIX
    from ruledsl.scenarios.syntax import parse_scenarios

    for path in sorted(Path("games").rglob("*.rules")):
        text = path.read_text(encoding="utf-8")
        if path.name.endswith(SUFFIX):
            parse_scenarios(text, str(path))  # a scenario file: tests of a game
        else:
            parse(text, str(path))


def test_assignment_where_a_comparison_belongs_gets_a_hint():
    d = syntax_error("flow { if x = 3 { x = 1 } }\n")
    assert (d.line, d.column, d.message) == (1, 13, "unexpected '='; expected '{'")
    assert d.hint == "to compare two values, write `==`"


def test_reserved_words_are_words_of_the_grammar():
    from ruledsl.language.parse import keywords, parser

    words = {t.pattern.value for t in parser().terminals if t.pattern.value.isidentifier()}
    assert keywords() <= words
    assert {"move", "choose", "in", "each", "put", "into", "once", "where"} <= keywords()
    assert "deck" in words and "deck" not in keywords()  # only opens a declaration: free as a name
