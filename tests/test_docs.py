"""The examples in the documentation are real: every rules snippet parses, every Python snippet runs."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruledsl import RulesError
from ruledsl.language.parse import parse

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROOT = DOCS.parent
BLOCK = re.compile(r"```rules\n(.*?)```", re.S)
PYTHON = re.compile(r"```python\n(.*?)```", re.S)


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


def python_snippets():
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for i, found in enumerate(PYTHON.finditer(page.read_text(encoding="utf-8"))):
            yield pytest.param(found.group(1), id=f"{page.name}-py{i}")


@pytest.fixture(scope="module")
def reader_folder(tmp_path_factory):
    """The top of the repository as a reader sees it: `games/`, and `highlow.rules`, the file the
    tutorial has the reader write (here the finished one, games/tutorial_highlow.rules)."""
    folder = tmp_path_factory.mktemp("reader")
    (folder / "games").symlink_to(ROOT / "games", target_is_directory=True)
    shutil.copy(ROOT / "games" / "tutorial_highlow.rules", folder / "highlow.rules")
    return folder


@pytest.mark.parametrize("code", list(python_snippets()))
def test_python_snippet_runs_alone(code, reader_folder):
    """Each snippet runs by itself in a fresh interpreter, as a reader would paste it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], cwd=reader_folder, env=env, capture_output=True,
                          text=True, input="0\n" * 200, timeout=120)  # input(): always the first move
    assert done.returncode == 0, done.stderr


def test_there_are_python_snippets_to_run():
    assert len(list(python_snippets())) >= 10
