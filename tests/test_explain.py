"""``ruledsl explain``: rulebooks written from the checked model; the checked-in pages stay up to date."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.desk.explain import rulebook, to_html

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ["tramwaje", "trolley_car", "trolley_car_bet", "trambahn", "goofspiel", "knockout_whist", "uno",
         "tutorial_highlow"]


@pytest.mark.parametrize("name", SEEDS)
def test_the_checked_in_rulebook_is_up_to_date(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    page = ROOT / "docs" / "games" / f"{name}.rulebook.md"
    assert page.read_text(encoding="utf-8") == rulebook(f"games/{name}.rules"), (
        f"regenerate it: ruledsl explain games/{name}.rules -o docs/games/{name}.rulebook.md")


def test_a_rulebook_has_every_part(monkeypatch):
    monkeypatch.chdir(ROOT)
    book = rulebook("games/tramwaje.rules")
    for heading in ("## How to win", "## Components", "## Parameters", "## Who starts", "## Setup and play",
                    "## As soon as ...", "## Appendix: terms used in these rules", "## Appendix: bookkeeping"):
        assert heading in book
    assert book.index("## How to win") < book.index("## Components") < book.index("## Setup and play")
    assert "54 cards start in the stack: 52 × playing card, 2 × joker card." in book
    assert "| hand | each player | a row | only its owner sees its cards |" in book
    assert "| `deal_size` | 10 | 1 to 10 | cards dealt to each player |" in book
    assert "- *wild* (c): c is a joker card or c's rank is 1." in book  # a define in words, a short one written out
    assert '"2 Aces, or 2 Jokers, or an Ace and a Joker, can stand in for 1 tram."' in book  # its comment
    assert "*next line*" not in book  # only the bots' heuristic reads it
    assert "**repel** (with c from v's hand), if *wild* (c):" in book  # a move with its condition
    assert "Response window (**offers**)" in book  # a window read back as one step
    assert "As soon as, for a player p, not founded and *company* (p):" in book


def test_a_variant_marks_what_it_changes(monkeypatch):
    monkeypatch.chdir(ROOT)
    book = rulebook("games/trolley_car_bet.rules")
    assert "betting cards laid before a player **[new in this variant]**" in book
    assert [line for line in book.splitlines() if line.startswith("- *deduction*")][0].endswith(
        "**[changed by this variant]**")
    assert "- Also, in **turn** **[new in this variant]**:" in book
    assert "[new in this variant]" not in rulebook("games/trolley_car.rules")


def test_explain_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    out = runner.invoke(main, ["explain", "tests/data/one_lead.rules"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("# One lead change: the rules")
    page = tmp_path / "book.html"
    out = runner.invoke(main, ["explain", "tests/data/one_lead.rules", "--format", "html", "-o", str(page)])
    assert out.exit_code == 0 and "<h1>One lead change: the rules</h1>" in page.read_text()
    broken = tmp_path / "broken.rules"
    broken.write_text('game "B"\nplayers 2..2\nflow { put nowhere into hand }\n')
    out = runner.invoke(main, ["explain", str(broken)])
    assert out.exit_code == 1
    assert runner.invoke(main, ["explain", str(tmp_path / "missing.rules")]).exit_code == 2


def test_html_page():
    assert "<h1>T</h1>" in to_html("# T\n", "t")


def test_tramwaje_reads_as_a_rulebook(monkeypatch):
    """The gaps a reader found (docs/games/tramwaje.md): bookkeeping, the rule for a line, the end, who starts."""
    monkeypatch.chdir(ROOT)
    book = rulebook("games/tramwaje.rules")
    win = book[book.index("## How to win"):book.index("## Components")]
    assert "The founder of the first complete company wins" in win  # the designer's comment on the winner
    assert "What sets *founded*: as soon as, for a player p, not founded and *company* (p)" in win
    assert "(*president* (p): A president: a King in the player's hand." in win  # what company reads, in words
    assert "`max_rounds` × the number of players" in win
    assert "- Player 0 (the first seat) has the first turn" in book
    # bookkeeping: its steps are left out of the rules and listed in the appendix
    assert "Set v's attacked to true." not in book and "Set rank of" not in book
    play = book[:book.index("## Appendix")]
    assert "| attacked |" not in play and "| attacked | each player |" in book
    assert "| moves played |" in play  # a shown counter stays with the components
    # the rule for a line, in the designer's words where the move is
    lay = book[book.index("- **lay**"):book.index("- **add driver**")]
    assert "(*is line* (cs): The set is a whole line" in lay and "(*can become line* (p, cs): The cards" in lay
    assert "if (c is not a joker card and c's rank is 11 or 12) and not *complete* (the current player, i)" in book
    # procedures in the order play reaches them
    assert book.index("### *take turn*") < book.index("### *start of move*") < book.index("### *attack*")


def test_who_starts_and_the_end_from_any_flow(monkeypatch):
    monkeypatch.chdir(ROOT)
    trolley = rulebook("games/trolley_car.rules")
    assert "- The player after the dealer has the first turn" in trolley
    assert "  - After each round: set the dealer to the player after the dealer." in trolley
    assert "- after a number of rounds: 1 if `single_round`, else the number of players;" in trolley
    trambahn = rulebook("games/trambahn.rules")
    assert "- at once, in *draw up*, when the draw pile is empty;" in trambahn
    assert "- at once, by the rule *scoring* (below), when" in trambahn
    uno = rulebook("games/uno.rules")
    assert "- when *hand over*;" in uno
    assert "*WILD FOUR*" in uno and "(*WILD FOUR*: 14.)" not in uno  # a named constant keeps its name


def test_terms_and_bookkeeping_on_a_small_game(tmp_path):
    rules = tmp_path / "small.rules"
    rules.write_text(
        'game "Small"\nplayers 2..2\n'
        "var tries[player]: int unshown = 0\n"
        "var points[player]: int = 0\n"
        "# a big gain: more than two points at once\n"
        "define big(n) = n > 2\n"
        "define twice(n) = 2 * n\n"
        "flow {\n  turns from 1 until points[0] >= 5 {\n"
        "    choose turn by current {\n"
        "      move gain(n in 1..3) where big(twice(n)) { points[current] += n  tries[current] += 1 }\n"
        "    }\n  }\n}\n"
        "winner(p): highest points[p]\n")
    book = rulebook(str(rules))
    assert "**gain** (with n from 1 to 3), if *big* (2 × n):" in book  # a short define written out
    assert "  - (*big* (n): a big gain: more than two points at once)" in book  # a commented one explained there
    assert "tries" not in book[:book.index("## Appendix: bookkeeping")]
    assert "| tries | each player | a number | 0 |" in book
    assert "- Player 1 (the first seat) has the first turn" in book
    assert "- after the turn in which player 0's points is at least 5;" in book
