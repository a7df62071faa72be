"""Scenario expectations about what a rule does not show in one position: who sees a zone
(`expect player 1 sees ...`, `... does not see ...`), whether the cards depend on the seed
(`expect hand[0] differs for seed 2`) and the player counts a game refuses (`expect players 5
refused`). Run on the tutorial game (2-4 players; deck hidden, pile shows its top, hands owner)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruledsl import RulesError
from ruledsl.scenario import load_scenarios

HIGHLOW = Path(__file__).resolve().parent.parent / "games" / "tutorial_highlow.rules"


def run(tmp_path, body: str):
    path = tmp_path / "game.test.rules"
    path.write_text(f'scenarios for "{HIGHLOW}"\nscenario s {{\n  players 2\n{body}\n}}\n', encoding="utf-8")
    loaded = load_scenarios(path)
    loaded.check()
    (scenario,) = loaded.scenarios
    return loaded.run(scenario)


TABLE = "  gather all cards into deck\n  pile: 7♣\n  hand[0]: 7♥ 8♠\n  hand[1]: K♥\n"


@pytest.mark.parametrize("expectation", [
    "expect player 0 sees hand[0]",
    "expect player 1 does not see hand[0]",
    "expect player 0 does not see deck",
    "expect player 1 sees pile",  # a pile of one card, which shows its top
    "expect players 1 refused",
    "expect players 5 refused",
])
def test_expectations_that_hold(tmp_path, expectation):
    outcome = run(tmp_path, TABLE + "  " + expectation)
    assert outcome.passed, outcome.message()


@pytest.mark.parametrize("expectation", ["expect hand[0] differs for seed 1", "expect deck differs for seed 5"])
def test_the_deal_depends_on_the_seed(tmp_path, expectation):
    outcome = run(tmp_path, "  " + expectation)
    assert outcome.passed, outcome.message()


@pytest.mark.parametrize("expectation, found", [
    ("expect player 1 sees hand[0]", "player 1 does not see hand[0]: 2 of its 2 cards are hidden"),
    ("expect player 0 does not see hand[0]", "player 0 sees hand[0]: 7♥ 8♠"),
    ("expect player 0 sees deck", "player 0 does not see deck"),
    ("expect player 0 does not see pile", "player 0 sees pile: 7♣"),
    ("expect players 3 refused", "a game of 3 players is allowed"),
])
def test_expectations_that_fail_say_what_was_found(tmp_path, expectation, found):
    outcome = run(tmp_path, TABLE + "  " + expectation)
    assert outcome.status == "failed" and found in outcome.found, outcome.message()


def test_the_same_seed_gives_the_same_cards(tmp_path):
    outcome = run(tmp_path, "  seed 3\n  expect hand[1] differs for seed 3")
    assert outcome.status == "failed" and "with seed 3 too, hand[1]:" in outcome.found


def test_a_position_set_up_by_hand_is_the_same_for_every_seed(tmp_path):
    # the set-up and the moves are played again with the other seed: only what the seed decides differs
    outcome = run(tmp_path, "  gather all cards into deck\n  pile: 7♣\n  hand[0]: 7♥ 8♠\n  expect hand[0] differs for seed 9")
    assert outcome.status == "failed" and "with seed 9 too, hand[0]: 7♥ 8♠" in outcome.found


def test_the_top_and_the_bottom_of_a_zone(tmp_path):
    table = "  gather all cards into hand[1]\n  pile: 7♣\n  deck top: 2♠ 3♦\n  hand[0]: 7♥\n"
    assert run(tmp_path, table + "  expect deck top: 2♠ 3♦").passed
    assert run(tmp_path, table + "  expect deck bottom: 3♦ 2♠").passed
    outcome = run(tmp_path, table + "  expect deck top: 3♦")
    assert outcome.status == "failed" and "deck top: 2♠" in outcome.found, outcome.message()


def test_the_viewer_is_written_as_a_player(tmp_path):
    with pytest.raises(RulesError, match="is no player; write `player 1`"):
        run(tmp_path, "  expect seat 1 sees hand[0]")


def test_an_unknown_zone_is_reported_by_check(tmp_path):
    with pytest.raises(RulesError, match="there is no zone `hnd`"):
        run(tmp_path, "  expect player 1 sees hnd[0]")
