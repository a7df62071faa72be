"""`swap a with b`: the cards of two zones change places (docs §4.5.2)."""

import textwrap
from pathlib import Path

from rules_text import MINI, diagnostics

import ruledsl
from ruledsl.language.parse import parse

SWAP = Path(__file__).parent / "data" / "swap.rules"

BASE = MINI + """\
zone short: track(2) public
zone long: track(3) public
define few = if player_count < 3 then 2 else 3
zone grows: track(few) public
"""


def errors(body: str) -> list:
    return [(d.code, d.line, d.message)
            for d in diagnostics("flow {\n" + textwrap.dedent(body) + "}\n", before=BASE, name="s.rules")]


def test_swap_parses_into_its_node():
    tree = parse(BASE + "flow { swap hand[0] with deck }\n", "s.rules")
    stmt = tree.items[-1].body[0]
    assert type(stmt).__name__ == "Swap" and (stmt.first.name, stmt.second.name) == ("hand", "deck")


def test_swap_moves_every_card_and_keeps_each_card_in_one_place():
    game = ruledsl.loads(BASE + "flow { shuffle deck deal 5 from deck into hand[1] swap hand[1] with deck }\n")
    s = game.new_game(2, seed=4)
    assert len(s.zones[s.zone_id("hand[1]")]) == 47 and len(s.zones[s.zone_id("deck")]) == 5
    assert all(s.loc[c] == z for z, cards in enumerate(s.zones) for c in cards)


def test_a_track_with_a_row():
    assert errors("swap short with deck\n") == [
        ("E202", 12, "`swap` exchanges two piles or rows, or two tracks; `short` is a track and `deck` is not")]


def test_tracks_of_two_sizes():
    assert errors("swap short with long\nswap grows with long\n") == [
        ("E202", 12, "`swap` exchanges tracks slot by slot; `short` and `long` have different numbers of slots"),
        ("E202", 13, "`swap` exchanges tracks slot by slot; `grows` and `long` have different numbers of slots")]


def test_an_unknown_zone_is_told_once():
    assert [e[2] for e in errors("swap hnd[0] with deck\n")] == ["unknown zone `hnd`"]


def test_swap_is_a_word_of_the_language():
    assert diagnostics("var swap: int = 0\nflow { end game }\n", before=BASE)[0].code in ("E100", "E204")


def test_verify_holds_across_swaps():
    from ruledsl.verify.session import run

    report = run(ruledsl.load(SWAP), players=[3], seconds=None, examples=5, states=500)
    assert report.failure is None
