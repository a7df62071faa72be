"""Highlighting: the Pygments lexer (found through its entry point) and the TextMate grammar in editors/."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, String

from ruledsl.desk.lexer import RuledslLexer
from ruledsl.desk.symbols import grammar_keywords

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(ROOT.joinpath("games").rglob("*.rules"))
BLOCK = re.compile(r"```rules\n(.*?)```", re.S)


def test_pygments_finds_the_lexer_by_name_and_file_name():
    assert isinstance(get_lexer_by_name("ruledsl"), RuledslLexer)
    assert isinstance(get_lexer_by_name("rules"), RuledslLexer)  # the docs' fenced blocks
    assert isinstance(get_lexer_for_filename("trolley_car.rules"), RuledslLexer)


def test_pygmentize_highlights_a_game():
    done = subprocess.run([sys.executable, "-m", "pygments", "-l", "ruledsl", "-f", "html",
                           str(ROOT / "games" / "trolley_car.rules")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '<span class="k">flow</span>' in done.stdout
    assert '<span class="kd">procedure</span>' in done.stdout
    assert 'class="err"' not in done.stdout


@pytest.mark.parametrize("path", GAMES + [ROOT / "docs"], ids=lambda p: p.name)
def test_every_game_and_doc_snippet_lexes_without_errors(path):
    if path.is_dir():
        texts = [m.group(1) for page in sorted(path.rglob("*.md"))
                 for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]
    else:
        texts = [path.read_text(encoding="utf-8")]
    assert texts
    for text in texts:
        tokens = list(RuledslLexer(stripnl=False).get_tokens(text))
        assert [v for t, v in tokens if t is Error] == []
        assert "".join(v for _, v in tokens) == (text if text.endswith("\n") else text + "\n")


def test_tokens_have_the_right_kinds():
    text = ('# a comment\nparam goal = 10 "points to win"\n'
            "flow { turns from 0 until any(each p in players where points[p] >= goal) { } }\n")
    tokens = [(t, v) for t, v in RuledslLexer().get_tokens(text) if v.strip()]
    kinds = {}
    for t, v in tokens:
        kinds.setdefault(v, t)  # a word's first appearance
    assert kinds["# a comment"] in Comment
    assert kinds["param"] in Keyword.Declaration and kinds["goal"] in Name.Function
    assert kinds['"points to win"'] in String
    assert kinds["turns"] in Keyword and kinds["until"] in Keyword and kinds["each"] in Keyword
    assert kinds["any"] in Name.Builtin and kinds["players"] in Name.Builtin
    assert kinds["points"] is Name
    # a character no rules file may hold is an error token, so the lexing test above can fail
    assert [v for t, v in RuledslLexer().get_tokens("x = 1 ; y") if t is Error] == [";"]


def textmate_words(grammar: dict) -> set:
    words = set()
    for key in ("keyword", "constant", "declaration"):
        match = grammar["repository"][key]["match"]
        group = re.search(r"\(([a-z_|]+)\)", match).group(1)
        words.update(group.split("|"))
    return words


def test_the_textmate_grammar_is_json_with_the_grammars_keywords():
    path = ROOT / "editors" / "ruledsl.tmLanguage.json"
    grammar = json.loads(path.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.ruledsl" and grammar["fileTypes"] == ["rules"]
    expected = set(grammar_keywords())
    assert {"game", "choose", "move", "turns", "scenario", "expect"} <= expected
    found = textmate_words(grammar)
    assert found == expected, (
        f"editors/ruledsl.tmLanguage.json is out of date (missing {sorted(expected - found)}, "
        f"extra {sorted(found - expected)}): python -m ruledsl.desk.textmate > editors/ruledsl.tmLanguage.json")
    for entry in grammar["repository"].values():
        for key in ("match", "begin", "end"):
            if key in entry:
                re.compile(entry[key])
