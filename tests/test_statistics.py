"""`statistic NAME = EXPR` (docs/language.md §2.18): worked out when each game ends, added up by
`simulate` (text and --json), the report and `compare`, with 95% intervals."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from rules_text import MINI, diagnostics
from ruledsl.cli import main
from ruledsl.play.report import balance, paired
from ruledsl.play.scale import run_games
from ruledsl.play.sim import play_game, simulate
from ruledsl.verify import verify

ROOT = Path(__file__).resolve().parent.parent
PUSH = ROOT / "tests" / "data" / "push.rules"

BASE = MINI + """\
var k: int = 0
flow { shuffle deck for p in players { deal 3 from deck into hand[p] k += 1 } }
"""


errors = diagnostics


def test_a_statistic_is_a_number_or_true_false():
    (d,) = errors(BASE + "statistic top_card = top(deck)\n")
    assert (d.code, d.line, d.column) == ("E202", 9, 22)
    assert d.message == "a statistic is a number or true/false, but `top_card` is a card"
    assert d.hint.startswith("count it (count(each ...), size(...)) or ask a question of it")


def test_a_statistic_cannot_change_the_state():
    (d,) = errors(BASE + "statistic r = random(deck).rank\n")
    assert (d.code, d.line) == ("E206", 9)
    assert "`random` changes the state" in d.message


def test_two_statistics_of_one_name():
    (d,) = errors(BASE + "statistic a = 1\nstatistic a = k\n")
    assert (d.code, d.line) == ("E204", 10)
    assert d.message == "`statistic a` is defined twice (first at line 9)"


def test_a_statistic_may_share_its_variables_name():
    game = ruledsl.loads(BASE + "statistic k = k\n", "mini.rules")
    assert game.new_game(3, 0).statistics == {"k": 3}


def test_the_values_at_the_end_of_a_game():
    game = ruledsl.loads(BASE + "statistic big = size(deck) > 44\nstatistic held = size(hand[0]) + k\n",
                         "mini.rules")
    assert game.new_game(2, 0).statistics == {"big": True, "held": 5}
    assert game.new_game(3, 0).statistics == {"big": False, "held": 6}


def test_a_variant_replaces_a_statistic(tmp_path):
    (tmp_path / "base.rules").write_text(BASE.replace('include "standard.rules"',
                                                      f'include "{ROOT / "games/lib/standard.rules"}"')
                                         + "statistic held = k\n")
    (tmp_path / "v.rules").write_text('extends "base.rules"\nreplace statistic held = 10 * k\n')
    assert ruledsl.load(tmp_path / "v.rules").new_game(2, 0).statistics == {"held": 20}


def test_a_statistic_that_fails_at_the_end_is_a_finding_of_verify():
    text = BASE.replace("deal 3", "deal 13") + "statistic last = top(deck).rank\n"
    report = verify(ruledsl.loads(text, "mini.rules"), players=[4], examples=2, shrink_seconds=2)
    assert not report.ok and report.failure.check == "runs"
    assert "when the game ends" in report.failure.message and "the zone is empty" in report.failure.message


def test_simulate_adds_them_up_game_by_game():
    game = ruledsl.load(PUSH)
    stats = simulate(game, 60, 3, seed=2)
    results = [play_game(game, 3, r_seed) for r_seed in _seeds(60, 2)]
    busts = [r.statistics["busts"] for r in results]
    someone = [r.statistics["someone_busted"] for r in results]
    assert all(isinstance(b, int) and not isinstance(b, bool) for b in busts)
    assert all(isinstance(x, bool) for x in someone)
    assert stats.statistic("busts")["mean"] == pytest.approx(sum(busts) / 60)
    share = stats.statistic("someone_busted")
    assert share["kind"] == "share" and share["held"] == sum(someone)
    low, high = share["ci95"]
    assert low < share["mean"] < high
    # a game with someone busted has at least one bust, and the other way round
    assert all((b > 0) == x for b, x in zip(busts, someone))


def _seeds(n, base):
    from ruledsl.play.sim import derive_seed

    return [derive_seed(base, i) for i in range(n)]


def test_the_report_and_the_paired_comparison():
    base_game = ruledsl.load(PUSH)
    variant = ruledsl.load(PUSH, {"bust_at": 30})
    rb = run_games(base_game, PUSH, {}, 3, 4, 80, "random").records
    rv = run_games(variant, PUSH, {"bust_at": 30}, 3, 4, 80, "random").records
    rep = balance(rb, 3)["statistics"]
    assert rep["someone_busted"]["kind"] == "share" and rep["busts"]["kind"] == "mean"
    assert rep["busts"]["mean"] == pytest.approx(sum(r["statistics"]["busts"] for r in rb) / 80)
    change = paired(rb, rv, 3)["statistics"]
    fewer = change["someone_busted"]
    assert fewer["test"] == "McNemar" and change["busts"]["test"] == "paired t"
    assert fewer["change"] == pytest.approx(fewer["mean"][1] - fewer["mean"][0])
    assert fewer["change"] < 0 and fewer["change_ci95"][1] < 0  # busting at 30 is rarer than at 21


def test_the_command_line_prints_them(tmp_path):
    runner = CliRunner()
    text = runner.invoke(main, ["simulate", str(PUSH), "-n", "40", "-p", "3"])
    assert text.exit_code == 0, text.output
    assert "statistic someone_busted: held in " in text.output and "95% interval" in text.output
    as_json = runner.invoke(main, ["simulate", str(PUSH), "-n", "40", "-p", "3", "--json", "-q"])
    data = json.loads(as_json.output)
    assert set(data["statistics"]) == {"busts", "someone_busted", "cards_dealt"}
    assert data["statistics"]["cards_dealt"]["mean"] >= 3  # every player holds a card at least
    cmp = runner.invoke(main, ["compare", str(PUSH), str(PUSH), "--variant-set", "bust_at=30", "-n", "40",
                               "-p", "3", "-q", "--json"])
    assert json.loads(cmp.output)["statistics"]["someone_busted"]["mean"][1] <= \
        json.loads(cmp.output)["statistics"]["someone_busted"]["mean"][0]
    out = tmp_path / "rep"
    rep = runner.invoke(main, ["simulate", str(PUSH), "-n", "20", "-p", "3", "-q", "--report", str(out),
                               "--skill-games", "0"])
    assert rep.exit_code == 0, rep.output
    assert "Statistics of the rules" in (out / "report.html").read_text()
    assert "someone_busted" in json.loads((out / "report.json").read_text())["balance"]["statistics"]
