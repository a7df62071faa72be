"""Every game under games/ as an OpenSpiel game and a PettingZoo environment, passing each library's
own conformance checks; the shared action and observation encodings; the docs' examples run."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

import ruledsl
from ruledsl.adapters.encode import ActionCodec, ActionSpaceError, ObservationCodec, format_params, parse_params
from ruledsl.adapters.openspiel import load_game
from ruledsl.adapters.pettingzoo import env

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
# Small settings keep a game short, for the games that have such parameters.
SMALL = {"hand_size": 4, "single_round": True, "max_rounds": 5}  # short games: tests, not measurements


def small_params(path) -> dict:
    names = ruledsl.load(path).params
    return {k: v for k, v in SMALL.items() if k in names}


def seats(path) -> int:
    p = ruledsl.load(path).program
    return min(max(p.min_players, 3), p.max_players)


def test_there_are_games():
    assert len(GAME_FILES) >= 4


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_openspiel_random_simulation(path):
    game = load_game(path, players=seats(path), params=small_params(path))
    assert game.num_players() == seats(path)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_pettingzoo_api_and_seed(path):
    api_test(env(path, players=seats(path), params=small_params(path)), num_cycles=200)
    seed_test(lambda: env(path, players=seats(path), params=small_params(path)), num_cycles=50)


@pytest.mark.parametrize("name", ["trolley_car", "uno"])
def test_pettingzoo_api_with_the_mask_in_infos(name):
    """PettingZoo's own checks of an env that also puts the action mask into the infos (which its
    api_test reads there too)."""
    path = ROOT / "games" / f"{name}.rules"
    api_test(env(path, players=seats(path), params=small_params(path), mask_in_infos=True), num_cycles=200)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_action_ids_round_trip(path):
    game = ruledsl.load(path, params=small_params(path))
    n = seats(path)
    codec = ActionCodec(game.program, n)
    state = game.new_game(n, seed=5)
    rng = random.Random(5)
    for _ in range(150):
        if state.is_over:
            break
        ids = [codec.encode(state, m) for m in state.legal_moves()]
        assert len(set(ids)) == len(ids)
        assert all(0 <= a < codec.num_actions for a in ids)
        assert [codec.decode(a, state) for a in ids] == state.legal_moves()
        assert codec.legal_actions(state) == sorted(ids)
        assert codec.mask(state).sum() == len(ids)
        state.apply(rng.choice(state.legal_moves()))


def test_observation_hides_what_the_player_cannot_see():
    game = ruledsl.load(ROOT / "games" / "tutorial_highlow.rules")
    state = game.new_game(3, seed=2)
    codec = ObservationCodec(game.program, 3)
    deck = state.zone_id("deck")
    hand1 = state.zone_id("hand[1]")
    assert state.sees(0, deck) == "count" and len(set(state.cards_in("deck"))) > 1
    other = state.clone()
    other.zones[deck].reverse()                                   # a different order of the hidden deck
    other.zones[hand1][0], other.zones[deck][0] = other.zones[deck][0], other.zones[hand1][0]
    for z in (deck, hand1):
        for c in other.zones[z]:
            other.loc[c] = z
    assert state.cards_in("hand[1]") != other.cards_in("hand[1]")
    # player 0 sees neither the deck nor player 1's hand: the same observation
    assert np.array_equal(codec.encode(state.view(0)), codec.encode(other.view(0)))
    # player 1 sees their own hand: a different one
    assert not np.array_equal(codec.encode(state.view(1)), codec.encode(other.view(1)))
    # and players see different things in the same state (their own hands)
    assert not np.array_equal(codec.encode(state.view(0)), codec.encode(state.view(1)))


def test_number_arguments_outside_the_window_are_refused_clearly():
    game = ruledsl.load(ROOT / "games" / "trambahn.rules")
    codec = ActionCodec(game.program, 2, int_values=range(0, 1))
    state = game.new_game(2, seed=1)
    rng = random.Random(1)
    with pytest.raises(ActionSpaceError, match="outside the action space's numbers 0..0"):
        while True:
            for m in state.legal_moves():
                codec.encode(state, m)
            state.apply(rng.choice(state.legal_moves()))


def test_game_string_parameters_round_trip():
    assert parse_params(format_params({"hand_size": 4, "single_round": True})) == \
        {"hand_size": "4", "single_round": "true"}
    with pytest.raises(ruledsl.ParameterError, match="name:value"):
        parse_params("hand_size=4")


def test_openspiel_game_plays_to_the_rules_winners():
    path = ROOT / "games" / "tutorial_highlow.rules"
    game = load_game(path, players=2, seeds=7)
    state = game.new_initial_state()
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == list(range(7))
    state.apply_action(3)
    assert state.inner.seed == 3
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    again = ruledsl.load(path).replay(2, 3, state.inner.moves)
    shared = len(again.winners) > 1
    assert state.returns() == [(0.0 if shared else 1.0) if i in again.winners else -1.0 for i in range(2)]
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history() and state2.inner == state.inner


def test_information_state_keeps_every_view_of_the_player():
    game = load_game(ROOT / "games" / "tutorial_highlow.rules", players=2)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    lines = state.information_state_string(0).splitlines()
    assert len(lines) == 5
    assert lines[-1] == state.observation_string(0)
    assert state.observation_string(0) != state.observation_string(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_openspiel_mcts_plays_trolley_car():
    from open_spiel.python.algorithms import mcts

    game = load_game(ROOT / "games" / "trolley_car.rules", players=2, params={"hand_size": 3, "single_round": True})
    rng = np.random.RandomState(11)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(11)
    picks = random.Random(11)
    mcts_moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            mcts_moves += 1
        else:
            action = picks.choice(state.legal_actions())
        state.apply_action(action)
    assert mcts_moves > 0
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def _play_out(e, seed):
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(10_000):
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert reward == 0
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return [total[a] for a in e.possible_agents]


def test_pettingzoo_rewards_are_win_and_loss_by_default():
    path = ROOT / "games" / "tutorial_highlow.rules"
    e = env(path, players=3)
    rewards = _play_out(e, 4)
    replayed = ruledsl.load(path).replay(3, 4, e.game_state.moves)
    assert replayed.is_over and replayed.winners
    shared = len(replayed.winners) > 1
    assert rewards == [(0.0 if shared else 1.0) if i in replayed.winners else -1.0 for i in range(3)]


def _winners_of(e, seed):
    _play_out(e, seed)
    return e.game_state.winners


def test_the_trolley_car_winner_gets_the_larger_reward():
    """The lowest score wins Trolley Car: with the scores as rewards an agent would learn to lose."""
    path = ROOT / "games" / "trolley_car.rules"
    params = {"single_round": True, "hand_size": 6}
    seed = next(s for s in range(50)  # the first seed whose game (random play, as below) has one winner
                if len(_winners_of(env(path, players=2, params=params), s)) == 1)
    for returns in ("win", "score"):
        e = env(path, players=2, params=params, returns=returns)
        rewards = _play_out(e, seed)
        game = e.game_state
        (winner,) = game.winners
        assert rewards[winner] > rewards[1 - winner], (returns, rewards, game.scores)
    assert rewards == [-float(x) for x in game.scores]  # `score`: negated, since the lowest score wins


def test_pettingzoo_rewards_can_be_the_rules_scores():
    path = ROOT / "games" / "tutorial_highlow.rules"  # the highest score wins: the scores as they are
    e = env(path, players=3, returns="score")
    rewards = _play_out(e, 4)
    replayed = ruledsl.load(path).replay(3, 4, e.game_state.moves)
    assert rewards == [float(x) for x in replayed.scores]


def test_pettingzoo_refuses_an_illegal_action_and_keeps_the_state():
    e = env(ROOT / "games" / "tutorial_highlow.rules", players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.game_state.clone()
    with pytest.raises(ruledsl.IllegalMove):
        e.step(illegal)
    assert e.game_state == before
    e.render_mode = "ansi"
    text = e.render()
    assert "player 0 to decide turn" in text and "hand[1]:" in text


def test_a_missing_rules_file_is_a_clear_error():
    with pytest.raises(ruledsl.RulesError, match="no such rules file"):
        env("games/no_such_game.rules")
    with pytest.raises(ruledsl.RulesError, match="no such rules file"):
        load_game("games/no_such_game.rules")


def test_the_integration_page_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/integrations.md", "exec"), {})


def test_observers_a_ruledsl_game_cannot_give_are_refused():
    from open_spiel.python.observation import make_observation

    game = load_game(ROOT / "games" / "tutorial_highlow.rules", players=2)
    nothing = pyspiel.IIGObservationType(perfect_recall=False, public_info=False,
                                         private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ruledsl.ParameterError, match="observed by one player"):
        make_observation(game, nothing)
    everyone = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                          private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ruledsl.ParameterError, match="information state"):
        make_observation(game, everyone)
    own = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    state.apply_action(2)
    own.set_from(state, 1)
    assert np.array_equal(own.tensor, np.asarray(state.observation_tensor(1), np.float32))


def test_pettingzoo_render_shows_everything_or_only_the_deciding_players_view():
    path = ROOT / "games" / "tutorial_highlow.rules"
    everything = env(path, players=2, render_mode="ansi")
    seat = env(path, players=2, render_mode="ansi", render_view=True)
    everything.reset(seed=3)
    seat.reset(seed=3)
    state = everything.game_state
    hand0 = " ".join(state.cards_in("hand[0]"))
    hand1 = " ".join(state.cards_in("hand[1]"))
    assert f"hand[0]: {hand0}" in everything.render() and f"hand[1]: {hand1}" in everything.render()
    shown = seat.render()                                   # player 0 decides: their hand, not player 1's
    assert f"hand[0]: {hand0}" in shown
    assert "hand[1]: " + " ".join("?" * len(state.cards_in("hand[1]"))) in shown


def test_the_documented_numbering_of_high_low():
    game = ruledsl.load(ROOT / "games" / "tutorial_highlow.rules")
    codec = ActionCodec(game.program, 2)
    assert codec.num_actions == game.program.card_count + 2
    assert codec.decode(17) == ruledsl.Move("play", (17,))
    assert (codec.decode(52), codec.decode(53)) == (ruledsl.Move("draw"), ruledsl.Move("pass"))
    assert codec.describe(17) == "play(" + game.program.card_labels[17] + ")"
    with pytest.raises(ruledsl.ParameterError, match="actions are 0 to 53"):
        codec.decode(54)


@pytest.mark.parametrize("name", ["tutorial_highlow", "goofspiel", "knockout_whist", "uno"])
def test_openspiel_playthrough_runs(name):
    """OpenSpiel's own playthrough tool, which asks for the public and the private part of each
    observation as well as a player's whole one (the bigger games run it too, in 3 to 80 s: see
    docs/integrations.md)."""
    from open_spiel.python.algorithms import generate_playthrough

    game = load_game(ROOT / "games" / f"{name}.rules", seeds=3)
    lines = generate_playthrough.playthrough_lines(str(game), alsologtostdout=False)
    text = "\n".join(lines)
    assert "PublicObservationString() = " in text and "PrivateObservationString(0) = " in text
    public = [line for line in lines if line.startswith('PublicObservationString() = "{')]
    assert public and all('"player"' not in line for line in public)  # the public part is the same for all


def test_the_public_and_private_parts_of_a_view_add_up_to_the_view():
    from ruledsl.adapters.openspiel import view_part

    state = ruledsl.load(ROOT / "games" / "tutorial_highlow.rules").new_game(2, 5)
    whole, public, private = state.view(0), view_part(state, 0, "public"), view_part(state, 0, "private")
    assert public["zones"]["hand[0]"] == ["?"] * len(whole["zones"]["hand[0]"])  # the owner's hand is private
    assert private["zones"]["hand[0]"] == whole["zones"]["hand[0]"]
    assert public["zones"]["pile"] == whole["zones"]["pile"] and set(private["zones"]["pile"]) <= {"?"}
    assert view_part(state, 1, "public")["zones"] == public["zones"]  # every seat's public part is the same
    for name, cards in whole["zones"].items():
        merged = [p if p != "?" else q for p, q in zip(public["zones"][name], private["zones"][name])]
        assert merged == cards, name


@pytest.mark.parametrize("mask_in_infos", [False, True])
def test_pettingzoo_shows_a_set_being_built_to_its_builder_only(mask_in_infos):
    """Tramwaje builds sets of cards card by card: the builder's observation holds the cards added so
    far (counted by face, after the move chosen so far) and its infos say them in words (with the
    legal moves' words, `describe_moves`); the other
    agent's observation is the same whichever card was added. Rules without sets keep no such part."""
    e = env(ROOT / "games" / "tramwaje.rules", players=2, mask_in_infos=mask_in_infos, describe_moves=True)
    e.reset(seed=2)
    while True:  # to a decision of a set with at least two cards to add
        agent = e.agent_selection
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        adds = [int(a) for a in legal if e.actions.describe(int(a), e.pending).startswith("add(")]
        if len(adds) >= 2:
            break
        e.step(int(legal[0]))
    rival = next(a for a in e.agents if a != agent)
    codec = e.observations
    start = codec.size + e.actions.pending_size
    before = e.observe(agent)["observation"][start:].copy()
    seen = []
    for added in adds[:2]:
        saved = (e.game_state.clone(), e.pending)
        e.step(added)
        assert e.agent_selection == agent  # still building
        label = re.match(r"add\((.+?)\)", e.actions.describe(added, saved[1])).group(1)
        grown = e.observe(agent)["observation"][start:] - before
        assert grown[codec.face_index[label]] > 0 and np.count_nonzero(grown) == 1
        assert label in e.infos[agent]["set_so_far"]
        seen.append((e.observe(agent)["observation"].copy(), e.observe(rival)["observation"].copy()))
        e.game_state, e.pending = saved
        e.agent_selection = agent
    assert not np.array_equal(seen[0][0], seen[1][0])
    assert np.array_equal(seen[0][1], seen[1][1])
    plain = env(ROOT / "games" / "trolley_car.rules", players=2)
    assert plain.observations.set_size == 0
    assert plain.observation_space("player_0")["observation"].shape == (plain.observations.size
                                                                         + plain.actions.pending_size,)
