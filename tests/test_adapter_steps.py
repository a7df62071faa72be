"""The adapters' compact encodings: moves of several arguments chosen one argument an action,
observations in [0, 1], and OpenSpiel's information-state tensor (docs/integrations.md)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import ruledsl
from ruledsl.adapters.encode import ObservationCodec, squash
from ruledsl.adapters.openspiel import load_game
from ruledsl.adapters.pettingzoo import env
from ruledsl.adapters.steps import NONE, StepCodec

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def _walk(codec, state, move):
    """Follows ``move``'s actions through ``codec.legal``; returns what the last one leads to."""
    pending = NONE
    for action in codec.actions_of(state, move):
        ids, leads = codec.legal(state, pending)
        assert action in ids
        pending = leads[action]
    return pending


@pytest.mark.parametrize("name", ["trambahn", "uno"])
def test_every_legal_move_is_reached_by_its_steps_and_only_legal_moves_are(name):
    game = ruledsl.load(GAMES / f"{name}.rules")
    codec = StepCodec(game.program, 2)
    state = game.new_game(2, seed=3)
    rng = random.Random(3)
    several = 0
    for _ in range(600):
        if state.is_over or several > 20:
            break
        legal = state.legal_moves()
        assert [_walk(codec, state, m) for m in legal] == legal
        several += sum(len(m.args) > 1 for m in legal)
        # every path of legal actions ends in a legal move, and decode agrees with legal()
        pending = NONE
        while True:
            ids, leads = codec.legal(state, pending)
            action = rng.choice(ids)
            got, pending = codec.decode(action, pending), leads[action]
            # decode names the copy the number stands for; the list, the copy it makes (trambahn has
            # cards that look alike: the same words)
            if isinstance(pending, ruledsl.Move):
                assert state.describe_moves([got]) == state.describe_moves([pending])
            else:
                assert codec.pending_text(got) == codec.pending_text(pending)
            assert got == pending or codec.flat.look(got[1][0] if isinstance(got, tuple) else got.args[0]) \
                == codec.flat.look(pending[1][0] if isinstance(pending, tuple) else pending.args[0])
            if isinstance(pending, ruledsl.Move):
                assert pending in legal
                break
            assert codec.pending_text(pending).endswith(", …)")
        state.apply(rng.choice(legal))
    assert several > 0  # the game met moves of two arguments


def test_trambahn_and_tramwaje_actions_in_steps_stay_in_the_hundreds():
    for name, flat in (("trambahn", 18_764), ("tramwaje", 3_874)):
        program = ruledsl.load(GAMES / f"{name}.rules").program
        assert StepCodec(program, 2, steps=False).num_actions == flat
        steps = StepCodec(program, 2)
        assert steps.num_actions < 1000
        # a move of one argument or none keeps its place and its number (only further arguments move)
        assert steps.heads[0][0] == 0


def test_a_game_without_moves_of_two_arguments_numbers_as_before():
    program = ruledsl.load(GAMES / "tutorial_highlow.rules").program
    steps, flat = StepCodec(program, 2), StepCodec(program, 2, steps=False)
    assert steps.num_actions == flat.num_actions == 54 and steps.pending_size == 0
    assert [steps.describe(a) for a in range(54)] == [flat.describe(a) for a in range(54)]


def test_openspiel_steps_keep_the_choice_private_and_the_mover_to_act():
    game = load_game(GAMES / "uno.rules", players=2)
    rng = random.Random(4)
    steps = games = 0
    while steps < 3 and games < 10:  # random games until three first steps are met
        games += 1
        state = game.new_initial_state()
        state.apply_action(3 + games)
        while not state.is_terminal() and steps < 3:
            steps += _step_privately(state, rng)
    assert steps == 3


def _step_privately(state, rng) -> int:
    """One random action; where it is a first step, checks that only the mover knows of it (1), else 0."""
    actor = state.current_player()
    before = [state.observation_tensor(p) for p in range(2)]
    before_info = state.information_state_tensor(1 - actor)
    action = rng.choice(state.legal_actions())
    moves = state.inner.moves[:]
    state.apply_action(action)
    if not state.pending:
        return 0
    # a first step: nothing happened in the game, and only the mover knows
    assert state.inner.moves == moves and state.current_player() == actor
    assert state.observation_tensor(1 - actor) == before[1 - actor]
    assert state.information_state_tensor(1 - actor) == before_info
    assert state.observation_tensor(actor) != before[actor]
    assert "chosen so far: play_wild(" in state.information_state_string(actor)
    assert "chosen so far" not in state.information_state_string(1 - actor)
    clone = state.clone()
    assert clone.pending == state.pending and clone.legal_actions() == state.legal_actions()
    return 1


def test_openspiel_flat_actions_are_one_a_move():
    game = load_game(GAMES / "uno.rules", players=2, actions="flat")
    assert game.num_distinct_actions() == 662
    state = game.new_initial_state()
    state.apply_action(1)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        n = len(state.inner.moves)
        state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.inner.moves) == n + 1 and not state.pending
    with pytest.raises(ruledsl.ParameterError, match="'steps' or 'flat'"):
        load_game(GAMES / "uno.rules", players=2, actions="pairs")


@pytest.mark.parametrize("name", ["trambahn", "tramwaje", "uno", "goofspiel"])
def test_observations_are_in_zero_to_one_and_raw_keeps_the_counts(name):
    game = ruledsl.load(GAMES / f"{name}.rules")
    normal, raw = ObservationCodec(game.program, 2), ObservationCodec(game.program, 2, normalise=False)
    state = game.new_game(2, seed=2)
    rng = random.Random(2)
    hand = normal.zones[[z[0] for z in normal.zones].index("hand[0]")]
    F = len(normal.faces)
    for _ in range(80):
        if state.is_over:
            break
        view = state.view(0)
        x, y = normal.encode(view), raw.encode(view)
        assert x.min() >= 0.0 and x.max() <= 1.0
        size = len(view["zones"]["hand[0]"])
        assert y[hand[2] + 2 + 2 * F] == size                                # raw: the hand's size
        assert x[hand[2] + 2 + 2 * F] == pytest.approx(size / game.program.card_count)
        state.apply(rng.choice(state.legal_moves()))


def test_numbers_squash_into_zero_to_one_keeping_their_order():
    values = [-10**9, -100, -8, -1, 0, 1, 8, 100, 10**9]
    squashed = [squash(v) for v in values]
    assert squashed == sorted(squashed) and len(set(squashed)) == len(values)
    assert all(0 < s < 1 for s in squashed)
    assert (squash(0), squash(8), squash(-8)) == (0.5, 0.75, 0.25)


def test_the_information_state_tensor_marks_the_cards_a_player_saw_played():
    game = load_game(GAMES / "tutorial_highlow.rules", players=2)
    g = game.setup
    assert game.information_state_tensor_size() == g.observation_size + g.history.size
    state = game.new_initial_state()
    state.apply_action(6)
    rng = random.Random(6)
    C = g.history.cards
    played = []
    while not state.is_terminal() and len(played) < 3:
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        move = g.actions.decode(action)
        state.apply_action(action)
        if move.name == "play":  # onto the face-up pile: both players saw it
            played.append((seat, move.args[0]))
    for p in range(2):
        t = np.asarray(state.information_state_tensor(p))
        assert t.min() >= 0 and t.max() <= 1
        history = t[g.observation_size:]
        marked = {(i // C, i % C) for i in np.flatnonzero(history[:2 * C])}
        assert marked == set(played)


def test_the_information_state_tensor_does_not_mark_a_hidden_card():
    """Tramwaje builds a line from a hidden hand card by card: the others do not see which cards."""
    game = load_game(GAMES / "tramwaje.rules", players=2, params={"max_rounds": 5})
    g = game.setup
    C = g.history.cards
    for seed in range(20):
        state = game.new_initial_state()
        state.apply_action(seed)
        rng = random.Random(seed)
        added = None
        while not state.is_terminal() and added is None:
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            move = g.actions.decode(action, state.pending)
            state.apply_action(action)
            if isinstance(move, ruledsl.Move) and move.name == "add":
                added = seat, move.args[0]
        if added is None:
            continue
        seat, card = added
        mine = np.asarray(state.information_state_tensor(seat))[g.observation_size:]
        theirs = np.asarray(state.information_state_tensor(1 - seat))[g.observation_size:]
        assert mine[seat * C + card] == 1.0 and theirs[seat * C + card] == 0.0
        return
    pytest.fail("no random game of Tramwaje added a card to a set")


def test_pettingzoo_steps_keep_the_agent_and_say_what_it_chose():
    e = env(GAMES / "uno.rules", players=2)
    assert e.observation_space("player_0")["observation"].high.max() == 1.0
    e.reset(seed=5)
    rng = random.Random(5)
    for agent in e.agent_iter(400):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.observation_space(agent)["observation"].contains(obs["observation"])
        if e.pending:
            assert info["chosen_so_far"].startswith("play")
            assert e.agent_selection == agent
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    raw = env(GAMES / "uno.rules", players=2, raw=True)
    assert raw.observation_space("player_0")["observation"].high.max() == np.inf
