"""Tramwaje's hidden information, where scenarios cannot say it: a hand is never visible to another
player except while a rule shows it (a robbery's chooser, a seller looking at an offer's payment),
and the seller sees the payment offered. Random games, seeded."""

import random
from pathlib import Path

import pytest

import ruledsl

RULES = Path(__file__).resolve().parent.parent / "games" / "tramwaje.rules"


@pytest.fixture(scope="module")
def game():
    return ruledsl.load(RULES, params={"max_rounds": 4})


def hand_seen(s, viewer, owner):
    return s.sees(viewer, s.zone_id(f"hand[{owner}]")) == "all"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hands_are_shown_only_by_the_rules_that_show_them(game, seed):
    s = game.new_game(players=3, seed=seed)
    r = random.Random(seed)
    answers = 0
    while not s.is_over:
        for viewer in range(3):
            for owner in range(3):
                if viewer == owner or not hand_seen(s, viewer, owner):
                    continue
                # only the attacker choosing among the victim's cards sees a hand
                assert s.decision in ("rob", "seize") and viewer == s.current, (s.decision, viewer, owner)
        if s.decision == "answer":
            seller = s.current_player
            buyers = [b for b in range(3) if s.cards_in(f"payment[{b}]")]
            for b in buyers:
                assert s.sees(seller, s.zone_id(f"payment[{b}]")) == "all"  # the seller sees the payment
                third = next(p for p in range(3) if p not in (b, seller))
                assert s.sees(third, s.zone_id(f"payment[{b}]")) != "all"  # nobody else does
                answers += 1
        s.apply(r.choice(s.legal_moves()))
    assert answers > 0  # the games did reach offers


@pytest.mark.parametrize("players", [2, 5])
def test_the_generic_properties_hold(players):
    """verify's checks (conservation, listed moves apply, hidden information, information flow, replay,
    termination, the file's invariant) on short games at the smallest and largest table."""
    from ruledsl.verify.checks import verify

    report = verify(ruledsl.load(RULES, params={"max_rounds": 2}), players=[players], examples=2,
                    shrink_seconds=0)
    assert report.ok, report


def test_greedy_with_the_rules_heuristic_founds_companies_where_random_does_not():
    # The strongest bot that fits the machine (docs/games/tramwaje.md): greedy judging positions by
    # the rules' `heuristic`. Two seeded three-player games at the default parameters.
    game = ruledsl.load(RULES)
    from ruledsl.play.sim import play_game

    seeds = (14, 18)
    greedy = sum(bool(play_game(game, 3, seed, "greedy:samples=2").winners) for seed in seeds)
    rand = sum(bool(play_game(game, 3, seed, "random").winners) for seed in seeds)
    assert greedy > rand
    assert greedy >= 1
