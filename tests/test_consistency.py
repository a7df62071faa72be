"""Regression tests of issue 29: each a file that `ruledsl check` accepted and that then broke a
promise of the pipeline (what check accepts must run, what run logs must replay)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.encode import ActionCodec

GAMES = Path(__file__).resolve().parent.parent / "games"

HEADER = '''game "Euchre-ish"
players 2..3
limit 100 moves
var points[player]: int = 0
var went_alone[player]: bool = false
'''

# a move option over a set of true/false values
ORDER_UP = HEADER + '''
flow {
  turns from 0 until any(each p in players where points[p] >= 5) {
    choose turn by current {
      move order_up(alone in {false, true}) {
        went_alone[current] = alone
        points[current] += 1
      }
    }
  }
}
define score(p) = points[p]
'''

# a true/false winner key (language.md 2.16)
ALONE_WINS = ORDER_UP + "winner(p): highest went_alone[p], highest points[p]\n"

# a public variable shows a card the players cannot see: a leak, but the game can be played again
LEAK = '''game "Leak"
players 2..2
limit 40 moves
enum colour { red "Red", blue "Blue" }
kind token {
  colour: colour
  value: 1..3
  show "{colour}{value}"
}
cards token(colour: each, value: each) in deck
zone deck: pile hidden
zone hand[player]: row owner
var seen: int = 0
var taken[player]: int = 0
flow {
  shuffle deck
  turns from 0 until size(hand[0]) >= 2 and size(hand[1]) >= 2 {
    choose turn by current {
      move draw {
        seen = top(deck).value
        put top(deck) into hand[current]
        taken[current] += 1
      }
    }
  }
}
define score(p) = taken[p]
'''

# a move option over an enum whose values have labels, and cards that show them
PAINT = '''game "Paint"
players 2..2
limit 20 moves
enum colour { red "Red", blue "Blue" }
kind token {
  colour: colour
  show "{colour}"
}
cards token(colour: each) in deck
zone deck: row public
var shade: colour = red
var turns_taken: int = 0
flow {
  turns from 0 until turns_taken >= 4 {
    choose turn by current {
      move paint(k in colour) { shade = k  turns_taken += 1 }
    }
  }
}
'''

# a game that never ends before its bound
DAWDLE = '''game "Dawdle"
players 2..2
limit 6 moves
var x[player]: int = 0
flow {
  turns from 0 until x[0] >= 3 {
    choose turn by current {
      move up { x[current] += 1 }
      move wait {}
    }
  }
}
define score(p) = x[p]
'''


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()


def invoke(*args):
    result = runner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture
def write(tmp_path):
    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


# ---- true/false move options


def test_a_true_false_move_option_logs_and_replays(write, tmp_path):
    rules = write("order_up.rules", ORDER_UP)
    assert invoke("check", rules).exit_code == 0
    log = tmp_path / "game.json"
    assert invoke("run", rules, "--log", log).exit_code == 0
    moves = json.loads(log.read_text())["moves"]
    assert ["order_up", True] in moves or ["order_up", False] in moves
    replayed = invoke("replay", log)
    assert replayed.exit_code == 0, replayed.stdout + replayed.stderr
    assert re.search(r"order_up\((true|false)\)", replayed.stdout)


def test_a_true_false_move_option_saves_loads_clones_and_encodes(write):
    game = ruledsl.load(write("order_up.rules", ORDER_UP))
    s = game.new_game(2, 0)
    assert s.legal_moves() == [ruledsl.Move("order_up", (False,)), ruledsl.Move("order_up", (True,))]
    assert s.describe_moves(s.legal_moves()) == ["order_up(false)", "order_up(true)"]
    codec = ActionCodec(game.program, 2)
    assert [codec.decode(codec.encode(s, m)) for m in s.legal_moves()] == s.legal_moves()
    assert codec.num_actions == 2 and codec.describe(1) == "order_up(true)"
    s.apply("order_up(true)")  # as text, as a list and as numbers, the move is the listed one
    s.apply(["order_up", 1])
    assert s.moves == [ruledsl.Move("order_up", (True,))] * 2 and s.view(0)["vars"]["went_alone[0]"] is True
    assert [m.to_json() for m in s.moves] == [["order_up", True]] * 2
    back = game.state_from_json(s.to_json())
    assert back == s and back.to_json() == s.to_json() and s.clone() == s


def test_verify_holds_for_a_true_false_move_option(write):
    from ruledsl.verify.checks import verify

    report = verify(ruledsl.load(write("order_up.rules", ORDER_UP)), [2], examples=3, seed=1, shrink_seconds=1)
    assert report.ok, report.failure


# ---- true/false winner keys


def test_a_true_false_winner_key_ranks_players(write):
    game = ruledsl.load(write("alone.rules", ALONE_WINS))
    s = game.new_game(2, 0)
    for m in ["order_up(false)", "order_up(true)"] * 4 + ["order_up(false)"]:
        s.apply(m)
    assert s.is_over and s.winners == [1]  # player 1 went alone (true is above false)
    assert invoke("run", write("alone2.rules", ALONE_WINS)).exit_code == 0


# ---- a run log replays, even when the rules leak what a player should not know


def test_a_run_log_of_leaky_rules_replays_with_a_note(write, tmp_path):
    rules = write("leak.rules", LEAK)
    log = tmp_path / "leak.json"
    assert invoke("run", rules, "--log", log).exit_code == 0
    replayed = invoke("replay", log)
    assert replayed.exit_code == 0, replayed.stdout + replayed.stderr
    assert "note: information flow" in replayed.stdout and "ruledsl verify" in replayed.stdout
    assert "ok: 4 moves replayed" in replayed.stdout


def test_a_log_whose_outcome_differs_from_its_replay_is_refused(write, tmp_path):
    rules = write("order_up.rules", ORDER_UP)
    log = tmp_path / "game.json"
    invoke("run", rules, "--log", log)
    data = json.loads(log.read_text())
    data["scores"] = [99, 99]
    log.write_text(json.dumps(data))
    replayed = invoke("replay", log)
    assert replayed.exit_code == 1 and "records scores [99, 99]" in replayed.stderr


# ---- replay counts moves as the log does


def test_replay_counts_a_set_of_cards_as_one_move(tmp_path):
    log = tmp_path / "tramwaje.json"
    ran = invoke("run", GAMES / "tramwaje.rules", "--seed", 3, "--set", "deal_size=4", "--set", "max_rounds=10",
                 "--log", log)
    assert ran.exit_code == 0
    moves = json.loads(log.read_text())["moves"]
    assert any(isinstance(m[-1], list) for m in moves), "no set of cards in this game: pick another seed"
    # the log lies outside the rules' folder, so its rules path is not followed: name the rules
    replayed = invoke("replay", log, "--rules", GAMES / "tramwaje.rules")
    listed = re.findall(r"^\s+(\d+)\. ", replayed.stdout, re.M)
    assert replayed.exit_code == 0
    assert len(listed) == len(moves) and f"ok: {len(moves)} moves replayed" in replayed.stdout


# ---- simulate names the seeds of the games stopped at their bound


def test_simulate_json_lists_the_seeds_stopped_at_the_bound(write):
    rules = write("dawdle.rules", DAWDLE)
    out = invoke("simulate", rules, "--games", 6, "--json")
    stats = json.loads(out.stdout)
    assert len(stats["stopped_seeds"]) == stats["stopped"] > 0
    again = invoke("run", rules, "--seed", stats["stopped_seeds"][0], "--json")
    assert "limit" in json.loads(again.stdout)["finding"]
    assert str(stats["stopped_seeds"][0]) in invoke("simulate", rules, "--games", 6).stdout


# ---- descriptions use the labels the view shows


def test_a_move_names_an_enum_value_by_its_label_as_cards_do(write):
    game = ruledsl.load(write("paint.rules", PAINT))
    s = game.new_game(2, 0)
    assert s.view(0)["zones"]["deck"] == ["Red", "Blue"]
    assert s.view(0)["legal_moves"] == ["paint(Red)", "paint(Blue)"]
    assert ActionCodec(game.program, 2).describe(1) == "paint(Blue)"
    assert s.describe(ruledsl.Move("paint", (0,)), names=True) == "paint(red)"


def test_a_scenario_may_name_an_enum_value_by_name_or_label(write):
    rules = write("paint.rules", PAINT)
    write("paint.test.rules", 'scenarios for "paint.rules"\n\nscenario by_label {\n  players 2\n'
                              '  move paint(Blue)\n  expect legal paint(red), paint(Blue)\n}\n\n'
                              'scenario by_name {\n  players 2\n  move paint(blue), paint(red)\n}\n')
    result = invoke("test", rules)
    assert result.exit_code == 0, result.stdout + result.stderr


# ---- a parameter's range and the player count


def test_a_hand_that_cannot_be_dealt_is_refused_before_the_game_starts():
    game = ruledsl.load(GAMES / "trolley_car.rules", params={"hand_size": 51})
    assert game.new_game(2, 0).decision  # 2 x 51 cards: it deals
    for players, hand in ((3, 51), (6, 18)):
        game = ruledsl.load(GAMES / "trolley_car.rules", params={"hand_size": hand})
        with pytest.raises(ruledsl.ParameterError) as err:
            game.new_game(players, 0)
        text = str(err.value)
        assert f"for {players} players with hand_size={hand}" in text and "the file's own: hand_size=15" in text
    result = invoke("run", GAMES / "trolley_car.rules", "--set", "hand_size=51", "--players", 3)
    assert result.exit_code == 2 and "cannot be set up for 3 players with hand_size=51" in result.stderr
    assert "it is for 2 players only" in result.stderr


# ---- what a move option may run over


def test_a_move_option_over_text_is_a_positioned_error(write):
    rules = write("words.rules", HEADER + '''
flow {
  turns from 0 until points[0] > 2 {
    choose turn by current {
      move say(w in {"yes", "no"}) { points[current] += 1 }
    }
  }
}
''')
    result = invoke("check", rules)
    assert result.exit_code == 1
    assert "words.rules:10:21: error[E202]: move `say`'s parameter `w` runs over a set of a string" in result.stderr
    assert "hint: declare an enum of the choices" in result.stderr
