"""The speed reference of benchmarks/hand/trolley_car.py plays the same game as games/trolley_car.rules.

Both start from the same seed (the reference shuffles and deals as the engine does) and play the
same moves: at every step the legal moves (as described moves, in order), whose decision it is,
and the scores must agree. Without this the benchmark's ratio would compare two different games.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

import ruledsl

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("hand_trolley_car", ROOT / "benchmarks" / "hand" / "trolley_car.py")
hand = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hand)

_GAMES: dict = {}


def game(**params) -> ruledsl.Game:
    key = tuple(sorted(params.items()))
    if key not in _GAMES:
        _GAMES[key] = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True, **params})
    return _GAMES[key]


def play_side_by_side(players: int, seed: int, **params) -> tuple[int, str]:
    """Play one round with random moves on both; returns (moves, how the round ended)."""
    state = game(**params).new_game(players, seed)
    ref = hand.TrolleyRound(players, seed, **params)
    rng = random.Random(seed * 7919 + players)
    moves = 0
    while True:
        where = f"{players} players, seed {seed}, {params}, after {moves} moves"
        assert ref.is_over == state.is_over, where
        assert ref.scores == state.scores, where
        if state.is_over:
            return moves, "passes" if state.get_var("passes") >= players else "empty hand"
        assert ref.decision_name == state.decision and ref.current == state.current_player, where
        legal = state.legal_moves()
        assert ref.describe_moves() == state.describe_moves(legal), where
        if moves % 17 == 0:  # a clone plays on like the original
            twin = ref.clone()
            assert twin.legal_moves() == ref.legal_moves() and twin.scores == ref.scores
        i = rng.randrange(len(legal))
        ref.apply(ref.legal_moves()[i])
        state._apply(legal[i])
        moves += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_same_game_as_the_rules_file(players):
    endings = set()
    for seed in range(6):
        endings.add(play_side_by_side(players, seed)[1])
    assert endings  # every round reached its end on both


def test_same_game_with_other_params():
    """Small hands end by an empty hand (with one card, perhaps before any turn); big hands empty
    the deck and end by passing."""
    endings = set()
    for seed in range(8):
        endings.add(play_side_by_side(2 + seed % 3, seed, hand_size=3)[1])
        endings.add(play_side_by_side(2 + seed % 5, seed, hand_size=1)[1])  # declaring empties a hand
        endings.add(play_side_by_side(4, seed, hand_size=24)[1])
        endings.add(play_side_by_side(3, seed, loop_length=13, start_space=3)[1])
    assert endings == {"passes", "empty hand"}


def test_clone_is_independent():
    ref = hand.TrolleyRound(3, 5)
    twin = ref.clone()
    rng = random.Random(1)
    while not twin.is_over:
        legal = twin.legal_moves()
        twin.apply(legal[rng.randrange(len(legal))])
    assert ref.decision_name == "declare" and len(ref.hands[1]) == 15 and not ref.is_over
