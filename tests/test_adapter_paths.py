"""The adapters' shortcuts (legal actions worked out once per state, moves made from them without a
second check, move words kept per move) give what the plain path gives, at every step of random
games. No timing is looked at."""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.adapters.encode import ActionCodec
from ruledsl.language.errors import IllegalMove

GAMES = ["trolley_car", "uno", "tramwaje", "knockout_whist"]


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_match_encoding_every_legal_move(name):
    game = ruledsl.load(f"games/{name}.rules")
    codec = ActionCodec(game.program, 2)
    for seed in range(2):
        s = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            plain = sorted(codec.encode(s, m) for m in s.legal_moves())
            actions, moves = codec.legal(s)
            assert list(actions) == plain == codec.legal_actions(s)
            assert all(codec.encode(s, m) == a for a, m in moves.items())
            t = s.clone()  # a clone shares the list: the same answer
            assert codec.legal(t)[0] == actions
            s._apply(rng.choice(s.legal_moves()))


def test_openspiel_state_agrees_with_the_plain_path():
    pyspiel = pytest.importorskip("pyspiel")
    from ruledsl.adapters.openspiel import load_game

    g = load_game("games/uno.rules", players=2)
    for seed in range(3):
        st = g.new_initial_state()
        assert st.legal_actions() == pyspiel.State.legal_actions(st) == list(range(1000))
        st.apply_action(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            p = st.current_player()
            assert p == st.inner.actor
            actions = st.legal_actions()
            assert actions == pyspiel.State.legal_actions(st) == st.legal_actions(p)
            assert st.legal_actions(1 - p) == []
            codec = st._rules_game.actions
            # each legal move's next action (its first, or the next after the arguments chosen so far)
            pending, k = st.pending, len(st.pending[1]) if st.pending else 0
            nexts = {codec.actions_of(st.inner, m)[k] for m in st.inner.legal_moves()
                     if not pending or (codec.flat.blocks[pending[0]][0] == m.name and m.args[:k] == pending[1])}
            assert actions == sorted(nexts)
            illegal = next(a for a in range(codec.num_actions) if a not in actions)
            before = st.inner.to_json(), st.pending
            with pytest.raises(IllegalMove):
                st.apply_action(illegal)
            assert (st.inner.to_json(), st.pending) == before
            st.apply_action(rng.choice(actions))


def test_pettingzoo_env_agrees_with_the_plain_path():
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.pettingzoo import env

    for name in ("trolley_car", "uno"):
        e = env(f"games/{name}.rules", players=3)
        e.reset(seed=1)
        rng = random.Random(1)
        while not e.game_state.is_over:
            s = e.game_state
            assert e.infos[e.agent_selection]["legal_moves"] == [s.describe(m) for m in s.legal_moves()]
            mask = e.observe(e.agent_selection)["action_mask"]
            actions = e.actions.legal_actions(s, e.pending)
            assert [a for a in range(len(mask)) if mask[a]] == sorted(set(actions))
            illegal = next(a for a in range(len(mask)) if not mask[a])
            before = s.to_json()
            with pytest.raises(IllegalMove):
                e.step(illegal)
            assert s.to_json() == before
            e.step(rng.choice(actions))
