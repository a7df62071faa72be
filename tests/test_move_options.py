"""True/false and enum options of a move (docs/language.md §4.12; issue 28, item 13), end to end: the
legal moves and their words, `run --log` and `replay`, the adapters' steps, the desk's and the
terminal's display, and scenarios that name the values."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from click.testing import CliRunner
from rules_text import MINI

import ruledsl
from ruledsl import Move
from ruledsl.adapters.openspiel import load_game
from ruledsl.adapters.pettingzoo import env
from ruledsl.adapters.steps import NONE, StepCodec
from ruledsl.cli import main
from ruledsl.desk.viewer import Session

BIDS = MINI + """\
limit 40 moves
enum call { low "Low", high "High", pass }
var alone_count[player]: int = 0
var calls[player]: int = 0
var last: call = pass
flow {
  shuffle deck
  for p in players { deal 2 from deck into hand[p] }
  repeat 3 times {
    for p in players {
      choose bid by p {
        move order_up(alone in {false, true}) { if alone { alone_count[p] += 1 } }
        move say(k in call) where k != pass { calls[p] += 1  last = k }
        move say_some(k in {pass, high}) { last = k }
        move both(alone in {true, false}, k in call) where alone or k == high {
          calls[p] += 2
          if alone { alone_count[p] += 1 }
          last = k
        }
      }
    }
  }
}
define score(p) = alone_count[p] + calls[p]
winner(p): highest score(p)
"""

FIRST = ["order_up(false)", "order_up(true)", "say(Low)", "say(High)", "say_some(pass)", "say_some(High)",
         "both(true, Low)", "both(true, High)", "both(true, pass)", "both(false, High)"]


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "bids.rules"
    path.write_text(BIDS, encoding="utf-8")
    return path


def invoke(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


def test_the_moves_are_the_values_and_are_shown_by_their_labels(rules):
    s = ruledsl.load(rules).new_game(2, seed=1)
    legal = s.legal_moves()
    assert s.describe_moves(legal) == FIRST
    # true/false stay true/false; an enum value is its position in the enum, also in a set written in another order
    assert [m.args for m in legal] == [(False,), (True,), (0,), (1,), (2,), (1,), (True, 0), (True, 1), (True, 2),
                                       (False, 1)]
    s.apply("both(false, 1)")
    assert (s.get_var("calls[0]"), s.get_var("alone_count[0]"), s.get_var("last")) == (2, 0, 1)  # high
    s.apply(["order_up", True])
    assert s.get_var("alone_count[1]") == 1 and [m.to_json() for m in s.moves] == [["both", False, 1],
                                                                                   ["order_up", True]]
    with pytest.raises(ruledsl.IllegalMove):
        s.apply("both(false, 0)")  # the where: not alone, and not high


def test_a_run_log_keeps_true_false_and_enum_options_and_replays(rules, tmp_path):
    for seed in range(40):
        log = tmp_path / f"game{seed}.json"
        assert invoke("run", rules, "--seed", seed, "--log", log).exit_code == 0
        data = json.loads(log.read_text(encoding="utf-8"))
        names = {m[0] for m in data["moves"]}
        if {"order_up", "both", "say"} <= names:
            break
    else:
        pytest.fail("no seed of 40 took every kind of option")
    state, described = ruledsl.load(rules).new_game(2, seed), []
    for m in data["moves"]:
        described.append(state.describe(Move.parse(m)))  # in words as the decision it answers shows it
        state.apply(m)
    assert data["described"] == described and state.moves == [Move.parse(m) for m in data["moves"]]
    assert any(isinstance(m[1], bool) for m in data["moves"] if m[0] in ("order_up", "both"))
    assert all(type(m[-1]) is int for m in data["moves"] if m[0] in ("say", "say_some"))
    replayed = invoke("replay", log)
    assert replayed.exit_code == 0, replayed.output
    assert f"ok: {len(data['moves'])} moves replayed" in replayed.output
    for text in data["described"]:
        assert text in replayed.output


def test_the_adapters_steps_reach_every_option_and_name_the_first_argument(rules):
    game = ruledsl.load(rules)
    codec = StepCodec(game.program, 2)
    rng = random.Random(2)
    state = game.new_game(2, seed=2)
    while not state.is_over:
        legal = state.legal_moves()
        for move in legal:
            pending = NONE
            for action in codec.actions_of(state, move):
                ids, leads = codec.legal(state, pending)
                assert action in ids
                if len(move.args) == 2 and pending == NONE:
                    assert codec.describe(action) == f"both({'true' if move.args[0] else 'false'}, …)"
                pending = leads[action]
            assert pending == move and type(pending.args[0]) is type(move.args[0])
        state.apply(rng.choice(legal))
    e = env(rules, players=2)
    e.reset(seed=3)
    for agent in e.agent_iter(200):
        obs, _reward, terminated, truncated, _info = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents  # the whole game was played through the adapter's steps


def test_openspiel_writes_a_first_step_of_true_false_as_the_move_would(rules):
    state = load_game(rules, players=2).new_initial_state()
    state.apply_action(0)  # the chance node: the seed
    rng, seen = random.Random(1), []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        seen.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    steps = [text for text in seen if text.startswith("both(") and text.endswith(", …)]")]
    assert steps and all(re.fullmatch(r"both\((true|false), …\) \[both\(\1, …\)\]", text) for text in steps)
    assert "order_up(true) [order_up(true)]" in seen or "order_up(false) [order_up(false)]" in seen


def test_the_desk_shows_a_logged_game_with_the_labels(rules, tmp_path):
    log = tmp_path / "game.json"
    invoke("run", rules, "--seed", 5, "--log", log)
    data = json.loads(log.read_text(encoding="utf-8"))
    for seat in (0, 1):
        session = Session(ruledsl.load(rules), 2, data["seed"], seat, moves=data["moves"])
        assert [m["text"] for m in session.moves()] == data["described"]
    live = Session(ruledsl.load(rules), 2, 1, 0, live=True)
    assert live.step(len(live.steps) - 1)["view"]["legal_moves"] == FIRST
    assert live.choose(FIRST.index("both(true, pass)")) == (True, "ok")
    assert live.moves()[0] == {"player": 0, "text": "both(true, pass)"}


def test_the_terminal_lists_the_options_in_words(rules):
    # seat 0 takes the 2nd, the 10th and the 6th listed move
    result = invoke("play", rules, "--seed", 2, input="2\n10\n6\n")
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^\s+\d+\) (.*)$", result.output, re.MULTILINE)
    assert listed[:10] == FIRST
    for text in ("player 0 (you): order_up(true)", "player 0 (you): both(false, High)",
                 "player 0 (you): say_some(High)"):
        assert text in result.output


def test_a_scenario_names_true_false_and_enum_values_by_label_or_name(rules):
    rules.with_name("bids.test.rules").write_text("""\
scenarios for "bids.rules"

scenario options_by_label_and_by_name {
  players 2
  expect moves order_up: order_up(false), order_up(true)
  expect moves both: both(true, Low), both(true, High), both(true, pass), both(false, High)
  move order_up(true)
  expect alone_count[0] == 1
  move both(false, high)
  expect calls[1] == 2 and last == high
  expect illegal both(false, Low)
  move say(High), say_some(pass)
  expect calls[0] == 1 and last == pass
}
""", encoding="utf-8")
    result = invoke("test", rules)
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output
    broken = rules.with_name("bids.rules")
    broken.write_text(BIDS.replace("where alone or k == high", "where alone"), encoding="utf-8")
    assert invoke("test", broken).exit_code == 1  # the scenario notices a changed condition
