"""benchmarks/peek.py: the probe that shows one bot what its player may not see, and only that bot."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import ruledsl
from ruledsl.play.botbase import Bot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
_spec = importlib.util.spec_from_file_location("peek_benchmark", ROOT / "benchmarks" / "peek.py")
peek = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(peek)


class Looking(Bot):
    """Keeps the worlds it is dealt, and plays the first legal move."""

    wants_worlds = True

    def __init__(self, name):
        self.name = name
        self.worlds = []

    def choose(self, view, legal, knowledge):
        rng = random.Random(7)
        self.worlds += [knowledge.sample(rng) for _ in range(6)]
        return legal[0]


def _zone(state, name):
    return [z.name for z in state.program.zones].index(name)


def test_the_probed_bot_sees_the_other_hand_and_the_fair_one_does_not():
    state = ruledsl.load(ROOT / "games/uno.rules").new_game(2, seed=3)
    player = state.current_player
    other = f"hand[{1 - player}]"
    counts = {}
    for sees in ("hands", "all"):
        decide = peek.peeking(sees, "probed", counts)
        probed, fair = Looking("probed"), Looking("fair")
        decide(probed, state, player, state.legal_moves())
        decide(fair, state, player, state.legal_moves())
        real_hand = sorted(state.zones[_zone(state, other)])
        real_deck = state.zones[_zone(state, "deck")]
        assert all(sorted(w.zones[_zone(w, other)]) == real_hand for w in probed.worlds)
        assert any(sorted(w.zones[_zone(w, other)]) != real_hand for w in fair.worlds)
        # the stack: dealt at random for `hands`, the real order for `all`
        assert all((w.zones[_zone(w, "deck")] == real_deck) == (sees == "all") for w in probed.worlds)
        own = f"hand[{player}]"
        assert all(w.zones[_zone(w, own)] == state.zones[_zone(state, own)] for w in probed.worlds)
    assert counts == {("probed", "probed"): 2, ("fair", "fair"): 2}
