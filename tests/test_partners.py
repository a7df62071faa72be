"""Partnerships (`define team(p)`) and cooperative results (`winner: all when C`): docs/language.md
§2.16.1-2. A partnership's win is one win; a cooperative game's result is shared by all."""

from pathlib import Path

from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.play.botbase import rewards
from ruledsl.play.sim import play_game, simulate
from rules_text import MINI, diagnostics

ROOT = Path(__file__).resolve().parent.parent
WHIST = ROOT / "games" / "partnership_whist.rules"
CLIMB = ROOT / "tests" / "data" / "climb.rules"

BASE = MINI + """\
var total[player]: int = 0
var k: int = 0
flow { for p in players { k += 1  total[p] = k } }
"""


errors = diagnostics


def test_team_takes_one_parameter():
    (d,) = errors(BASE + "define team = 0\n")
    assert (d.code, d.line) == ("E203", 10)
    assert d.message == "`team` takes one parameter, the player"
    assert d.hint == "write define team(p) = ..., the same value for partners: p % 2 for partners across the table"


def test_team_is_a_number_a_player_or_an_enum_value():
    (d,) = errors(BASE + "define team(p) = size(hand[p]) > 2\n")
    assert (d.code, d.line, d.column) == ("E202", 10, 18)
    assert d.message == "`team` should be a number, a player or an enum value, but this is a true/false value"
    assert d.hint == "partners are the players with the same value: p % 2, or a variable per player"


def test_a_cooperative_game_cannot_also_have_teams():
    (d,) = errors(BASE + "define team(p) = p % 2\nwinner: all when total[0] == 0\n")
    assert (d.code, d.line) == ("E204", 10)
    assert d.message == "`winner: all` makes the players one team; `define team(p)` cannot split them"
    assert d.hint == "a cooperative game needs no teams: remove `define team`"


def test_winner_all_needs_its_condition():
    (d,) = errors(BASE + "winner: all\n")
    assert d.code == "E100"


def test_partners_win_together_even_when_the_order_separates_them():
    game = ruledsl.loads(BASE + "define team(p) = p % 2\nwinner(p): highest total[p]\n", "mini.rules")
    state = game.new_game(4, 0)
    assert state.over and state.teams == [0, 1, 0, 1]
    assert state.winners == [1, 3]       # player 3 ranks first; their partner wins with them


def test_without_teams_each_seat_is_its_own_team():
    state = ruledsl.loads(BASE + "winner(p): highest total[p]\n", "mini.rules").new_game(3, 0)
    assert state.teams == [0, 1, 2] and state.winners == [2]


def test_a_cooperative_game_is_won_or_lost_by_all():
    won = ruledsl.loads(BASE + "winner: all when total[1] == 2\n", "mini.rules").new_game(3, 0)
    assert won.winners == [0, 1, 2] and won.teams == [0, 0, 0]
    lost = ruledsl.loads(BASE + "winner: all when total[1] == 0\n", "mini.rules").new_game(3, 0)
    assert lost.winners == []


def test_simulate_counts_a_partnerships_win_once():
    stats = simulate(ruledsl.load(WHIST, params={"target": 1}), 12, seed=1)
    assert set(stats.team_wins) == {"0+2", "1+3"}
    assert sum(stats.team_wins.values()) == 12 and stats.shared == 0
    assert stats.wins[0] == stats.wins[2] == stats.team_wins["0+2"]
    data = stats.to_dict()
    assert data["team_win_rate"]["0+2"] == stats.team_wins["0+2"] / 12 and data["cooperative"] is False


def test_simulate_reports_a_cooperative_result_as_shared_by_all():
    stats = simulate(ruledsl.load(CLIMB), 10, players=3, seed=0)
    assert stats.cooperative and list(stats.team_wins) == ["0+1+2"] and stats.shared == 0
    assert stats.wins == [stats.team_wins["0+1+2"]] * 3


def test_games_without_partnerships_report_as_before():
    stats = simulate(ruledsl.load(ROOT / "games" / "tutorial_highlow.rules"), 3)
    assert stats.team_wins is None and "team_wins" not in stats.to_dict()
    assert "teams" not in play_game(ruledsl.load(ROOT / "games" / "tutorial_highlow.rules")).to_dict()


def test_a_partnerships_win_is_a_whole_win_for_each_partner_in_the_bots_rewards():
    game = ruledsl.loads(BASE + "define team(p) = p % 2\nwinner(p): highest total[p]\n", "mini.rules")
    assert rewards(game.new_game(4, 0)) == [0.0, 1.0, 0.0, 1.0]


def test_the_cli_says_partners_and_prints_per_partnership_rates():
    runner = CliRunner()
    run = runner.invoke(main, ["run", str(WHIST), "--seed", "3", "--set", "target=1"])
    assert run.exit_code == 0 and "(partners)" in run.output
    sim = runner.invoke(main, ["simulate", str(WHIST), "--games", "4", "--set", "target=1"])
    assert "partnership 0+2: wins" in sim.output and "partnership 1+3: wins" in sim.output
    coop = runner.invoke(main, ["simulate", str(CLIMB), "--games", "4", "-p", "2"])
    assert "cooperative: the players won together in" in coop.output
