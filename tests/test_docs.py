"""The examples in the documentation are real: every rules snippet parses."""

import re
from pathlib import Path

import pytest

from ruledsl import RulesError
from ruledsl.parse import parse

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```rules\n(.*?)```", re.S)


def snippets():
    for page in sorted(DOCS.rglob("*.md")):
        for i, found in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8"))):
            yield pytest.param(found.group(1), id=f"{page.name}-{i}")


def parses(text: str) -> bool:
    # a whole file, a list of statements, the moves of a decision, or one expression
    for candidate in (text, f"flow {{\n{text}\n}}", f"flow {{ choose example by 0 {{\n{text}\n}} }}",
                      f"define example = (\n{text}\n)"):
        try:
            parse(candidate, "snippet.rules")
            return True
        except RulesError:
            continue
    # a list of expressions, one a line
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    try:
        parse("".join(f"define e{i} = ({line})\n" for i, line in enumerate(lines) if line), "snippet.rules")
        return True
    except RulesError:
        return False


@pytest.mark.parametrize("text", list(snippets()))
def test_rules_snippet_parses(text):
    assert parses(text), text


def test_there_are_snippets_to_check():
    assert len(list(snippets())) > 50


def test_the_tutorials_complete_file_is_the_game_file():
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    listing = text.split("## The complete file", 1)[1]
    listed = BLOCK.search(listing).group(1)
    game = (DOCS.parent / "games" / "tutorial_highlow.rules").read_text(encoding="utf-8")
    assert listed == game
