"""The examples in the documentation are real: every rules snippet parses, every Python snippet runs."""

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ruledsl
from ruledsl import RulesError
from ruledsl.language.parse import keywords, parse

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROOT = DOCS.parent
BLOCK = re.compile(r"```rules\n(.*?)```", re.DOTALL)
PYTHON = re.compile(r"```python\n(.*?)```", re.DOTALL)


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


def declared_names(text: str) -> list:
    """The names a snippet of declarations declares (none when it is not a list of declarations)."""
    try:
        tree = parse(text, "snippet.rules")
    except RulesError:
        return []
    return [item.name for item in tree.items
            if isinstance(getattr(item, "name", None), str) and type(item).__name__ != "GameName"]


@pytest.mark.parametrize("text", list(snippets()))
def test_a_snippet_declares_no_word_of_the_language(text):
    """Parsing lets `zone under[card]` through; the checker refuses it (E204), so a fragment that cannot
    be checked whole must not show it."""
    assert not set(declared_names(text)) & keywords()


def test_there_are_snippets_to_check():
    assert len(list(snippets())) > 50


# A block that opens a file (`game` or `extends` at the start of a line) is a whole rules file, and must
# check as one. These blocks open a file on purpose without being a whole game; each is named here with
# the error it gets, which the test checks (so a mark that no longer fits fails too).
NOT_WHOLE = {
    "language.md-1": "E211",  # 2.1: the declarations that open a file, alone
    "tutorial.md-0": "E211",  # step 1: the file before its flow, refused as the page shows
}
OPENS_A_FILE = re.compile(r"^(game|extends)\b", re.MULTILINE)


def whole_files():
    for page in sorted(DOCS.rglob("*.md")):
        for i, found in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8"))):
            if OPENS_A_FILE.search(found.group(1)):
                yield pytest.param(f"{page.name}-{i}", found.group(1), id=f"{page.name}-{i}")


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    """A folder where the examples' variants find their bases: the tutorial game under both its names."""
    folder = tmp_path_factory.mktemp("bases")
    for name in ("tutorial_highlow.rules", "highlow.rules"):
        shutil.copy(ROOT / "games" / "tutorial_highlow.rules", folder / name)
    return folder


@pytest.mark.parametrize("name, text", list(whole_files()))
def test_a_whole_example_file_checks(name, text, bases):
    path = str(bases / "example.rules")
    if name in NOT_WHOLE:
        with pytest.raises(RulesError) as info:
            ruledsl.loads(text, path)
        assert [d.code for d in info.value.diagnostics] == [NOT_WHOLE[name]]
    else:
        game = ruledsl.loads(text, path)  # it checks, and a game of it runs to its end
        state, rng = game.new_game(game.program.min_players, seed=1), random.Random(1)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
        assert state.finding is None, state.finding


def test_the_blocks_marked_not_whole_exist():
    assert set(NOT_WHOLE) <= {p.values[0] for p in whole_files()}
    assert len(list(whole_files())) > len(NOT_WHOLE)


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
    # input(): always the first move; the timeout is for a snippet that hangs (verify.md's second one
    # takes about 40 s on a loaded machine)
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=reader_folder, env=env, capture_output=True,
                          text=True, input="0\n" * 200, timeout=300)
    assert done.returncode == 0, done.stderr


def test_there_are_python_snippets_to_run():
    assert len(list(python_snippets())) >= 10


def anchor(heading: str) -> str:
    """The anchor a heading gets on the page, as GitHub makes it: lower case, punctuation dropped, each
    space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {anchor(found.group(1)) for found in re.finditer(r"^#+ (.*)$", text, re.MULTILINE)}


def links():
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for found in re.finditer(r"\]\(([\w./-]*\.md)?#([^)\s]+)\)", page.read_text(encoding="utf-8")):
            target = (page.parent / found.group(1)) if found.group(1) else page
            yield pytest.param(target, found.group(2), id=f"{page.name}->{found.group(0)[2:-1]}")


@pytest.mark.parametrize("target, name", list(links()))
def test_a_link_to_a_section_finds_its_heading(target, name):
    """A section renumbered or renamed must take the links to it along."""
    assert target.exists() and name in anchors(target)


def test_there_are_links_to_check():
    assert len(list(links())) > 100 and anchor("4.12 `choose NAME by PLAYER { move ... }`: decisions") == (
        "412-choose-name-by-player--move---decisions")
