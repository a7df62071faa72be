"""Sizes worked out from the parameters and the player count when a game is set up (docs §2.8.3)."""

import textwrap
from pathlib import Path

import pytest

import ruledsl
from rules_text import diagnostics

HANDS = Path(__file__).parent / "data" / "hands.rules"

BASE = """\
game "Sizes"
players 2..5
kind card { rank: 1..13 }
cards 4 * card(rank: each) in deck
zone deck: pile hidden
var x: int = 3
"""


def errors(text: str) -> list:
    found = diagnostics(textwrap.dedent(text) + "flow { end game }\n", before=BASE, name="sizes.rules")
    return [(d.code, d.line, d.message, d.hint) for d in found]


@pytest.mark.parametrize("players, slots", [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_a_track_sized_by_the_player_count(players, slots):
    s = ruledsl.load(HANDS).new_game(players, seed=3)
    assert len(s.view(0)["zones"]["hand[0]"]) == slots
    assert [f"won[0, {w}]" in s.view(0)["zones"] for w in range(1, 7)] == [w <= players for w in range(1, 7)]
    assert len(s.program.zones) == 1 + 5 + 5 * players  # deck, a hand for each of 5 seats, their rows


def test_a_game_whose_sizes_depend_on_players_saves_and_loads_for_every_count():
    game = ruledsl.load(HANDS)
    for n in (2, 5):
        s = game.new_game(n, seed=1)
        s.apply(s.legal_moves()[-1])
        back = game.state_from_json(s.to_json())
        assert back.view(1) == s.view(1) and back.program is game.program_for(n)


def test_a_size_the_same_for_every_count_is_one_program():
    game = ruledsl.loads(BASE + "zone t: track(2 + 3)\nflow { end game }\n")
    assert game.programs == {} and game.program_for(4) is game.program


def test_a_size_that_reads_a_variable_is_an_error():
    assert errors("zone t: track(x + 1)\n") == [
        ("E213", 7, "a constant is needed here: a number, true/false, a string or a parameter",
         "`x` is a variable: it is part of the state; a size is worked out once, when a game is set up, from "
         "numbers, parameters, `player_count` and defines of those")]


def test_a_size_that_reads_who_moves_is_an_error():
    assert [e[:3] for e in errors("zone t[player, 1..current]: row\n")] == [
        ("E213", 7, "a constant is needed here: a number, true/false, a string or a parameter")]


def test_a_track_without_slots_for_some_count_is_an_error():
    assert errors("zone t: track(if player_count > 3 then 0 else 4)\n") == [
        ("E209", 7, "a track needs at least one slot; this one has 0 with 4 players", None)]


def test_an_empty_range_for_some_count_is_an_error():
    assert errors("zone t[1..5 - player_count]: row\n") == [
        ("E205", 7, "the index range 1..0 is empty with 5 players",
         "a range written with parameters needs a size of at least 1")]


def test_a_parameter_cannot_depend_on_the_player_count():
    assert errors("param p = player_count\n") == [
        ("E213", 7, "a parameter cannot depend on the player count",
         "name the value with a define, as in `define hand_size = if player_count <= 3 then 5 else 4`; "
         "sizes may use it")]


def test_a_size_condition_must_be_true_or_false():
    assert [e[:3] for e in errors("zone t: track(if 3 then 1 else 2)\n")] == [
        ("E202", 7, "the condition of `if` is true or false")]


def test_verify_checks_every_player_count_of_a_game_sized_by_it():
    from ruledsl.verify.session import run

    report = run(ruledsl.load(HANDS), players=[3, 5], seconds=None, examples=2, states=300)
    assert report.failure is None
    assert {sp.players for sp in report.spaces} == {3, 5}


def test_the_viewer_lays_out_the_slots_of_the_count_played():
    from ruledsl.desk.viewer import table_layout

    game = ruledsl.load(HANDS)
    for players, slots in ((3, 5), (4, 4)):
        hands = [z for z in table_layout(game, players)["zones"] if z["family"] == "hand"]
        assert len(hands) == players and {z["slots"] for z in hands} == {slots}


def test_explain_says_the_slots_for_each_count():
    from click.testing import CliRunner

    from ruledsl.cli import main

    out = CliRunner().invoke(main, ["explain", str(HANDS)]).output
    assert "a track of 5 spaces with 2 to 3 players, 4 with 4 to 5" in out


def test_the_learning_environments_take_the_table_of_the_count_played():
    from pettingzoo.test import api_test

    from ruledsl.adapters.pettingzoo import env

    api_test(env(str(HANDS), players=4), num_cycles=60)
    places = {n: env(str(HANDS), players=n).observations.program.place_count for n in (2, 4)}
    assert places == {2: 5 * 5, 4: 5 * 4}  # five seats' hands: 5 slots each, or 4
