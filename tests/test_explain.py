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
    for heading in ("## Components", "## Parameters", "## Terms used in these rules", "## Setup and play",
                    "## As soon as ...", "## The end and the winner"):
        assert heading in book
    assert "54 cards start in the stack: 52 × playing card, 2 × joker card." in book
    assert "| hand | each player | a row | only its owner sees its cards |" in book
    assert "| `deal_size` | 10 | 1 to 10 | cards dealt to each player |" in book
    assert "- *wild* (c): *is joker* (c) or c's rank is 1." in book  # a define in words
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
