"""The speed reference of benchmarks/hand/trolley_car.py plays the same game as games/trolley_car.rules.

Both start from the same seed (the reference shuffles and deals as the engine does). The reference
keeps hands as card counts, so it cannot list its moves in the engine's order (a hand's order of
arrival); the comparison is exact all the same: at every step both must offer the same moves (the
same multiset of described moves), at the same decision, to the same player, with the same scores.
The test picks one of the rules file's moves at random and makes the move that reads the same on
the reference, to the end of the round, where the winners must agree too. Without this the
benchmark's ratio would compare two different games.
"""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
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
            assert ref.winners == state.winners, where
            return moves, "passes" if state.get_var("passes") >= players else "empty hand"
        assert ref.decision_name == state.decision and ref.current == state.current_player, where
        legal = state.legal_moves()
        theirs, mine = state.describe_moves(legal), ref.describe_moves()
        assert Counter(mine) == Counter(theirs), where
        assert len(set(ref.legal_moves())) == len(set(mine)), where  # a description names one move
        if moves % 17 == 0:  # a clone plays on like the original
            twin = ref.clone()
            assert twin.legal_moves() == ref.legal_moves() and twin.scores == ref.scores
        i = rng.randrange(len(legal))
        ref.apply(ref.legal_moves()[mine.index(theirs[i])])
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
    the deck and end by passing, or deal again when the deck runs out while turning up."""
    endings = set()
    for seed in range(8):
        endings.add(play_side_by_side(2 + seed % 3, seed, hand_size=3)[1])
        endings.add(play_side_by_side(2 + seed % 5, seed, hand_size=1)[1])  # declaring empties a hand
        endings.add(play_side_by_side(4, seed, hand_size=24)[1])
        endings.add(play_side_by_side(2, seed, hand_size=51)[1])  # 2 cards left to turn up
        endings.add(play_side_by_side(3, seed, loop_length=13, start_space=3)[1])
        endings.add(play_side_by_side(2, seed, loop_length=13, start_space=12)[1])
    assert endings == {"passes", "empty hand"}


def test_the_deal_again_when_the_deck_runs_out():
    """With 2 x 51 cards dealt the two left are often of one colour: the engine gathers and deals again."""
    deals = Counter()
    for seed in range(40):
        ref = hand.TrolleyRound(2, seed, hand_size=51)
        state = game(hand_size=51).new_game(2, seed)
        assert Counter(ref.describe_moves()) == Counter(state.describe_moves(state.legal_moves()))
        deals[ref.deals] += 1
    assert deals[1] and len(deals) > 1


def test_the_card_counts():
    """A hand int and the kinds it holds; the tables list a kind held twice twice."""
    h = 0
    for m in (0, 0, 25, 26, 51):  # A♦ twice, K♥, A♣, K♠
        h += hand.BIT[m]
    assert hand.hand_size(h) == 5 and hand.hand_kinds(h) == [0, 0, 25, 26, 51]
    # a red line on the King: the Queen, the King and the Ace fit (the Ace's count written again above)
    w = (h >> hand.SHIFT[hand.RED][13]) & 4095
    assert sorted(hand.PLAYS[hand.RED][13][w]) == [0, 0, 25]
    assert sorted(hand.PLAYS_DRAW[13][(h >> hand.SHIFT[hand.BLACK][13]) & 4095]) == [26, 51, hand.DRAW]
    assert [hand.LABEL[m] for m in (0, 1, 25, 26, 27, 51)] == ["A♦", "A♥", "K♥", "A♣", "A♠", "K♠"]


def test_clone_is_independent():
    ref = hand.TrolleyRound(3, 5)
    twin = ref.clone()
    rng = random.Random(1)
    while not twin.is_over:
        legal = twin.legal_moves()
        twin.apply(legal[rng.randrange(len(legal))])
    assert ref.decision_name == "declare" and ref.hand_size(1) == 15 and not ref.is_over
