"""OpenSpiel's own ISMCTSBot plays ruledsl games: the adapter resamples from the information state with
the worlds ruledsl's ismcts samples (docs/integrations.md, docs/bots.md)."""

from __future__ import annotations

import re

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from ruledsl.adapters.openspiel import load_game  # noqa: E402


def _play(game, seed: int, simulations: int, check_every: int = 5):
    """ISMCTSBot in seat 0, the first legal action elsewhere; every few decisions, check that a resampled
    state looks the same to the player who decides."""
    state = game.new_initial_state()
    state.apply_action(seed)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)  # seeded (unseeded, it draws its own seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), 1.0, simulations,
                           random_state=np.random.RandomState(seed))
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, sampler))  # the bot's own: unseeded
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        if decisions % check_every == 0:
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.legal_actions() == state.legal_actions()
        action = bot.step(state) if player == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    return state


@pytest.mark.parametrize("path, players, params", [
    ("games/goofspiel.rules", 2, None),
    ("games/trolley_car.rules", 2, {"single_round": True}),
])
def test_openspiel_ismcts_bot_plays_a_whole_game(path, players, params):
    game = load_game(path, players=players, params=params)
    state = _play(game, seed=3, simulations=8)
    assert state.is_terminal()
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])  # a win and a loss, or a tie


def test_resampling_hides_what_the_player_cannot_see():
    game = load_game("games/trolley_car.rules", players=2, params={"single_round": True})
    state = game.new_initial_state()
    state.apply_action(5)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    player = state.current_player()
    other = 1 - player
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    # the other player's hidden hand differs between worlds; what the player sees does not
    assert len({w.observation_string(other) for w in worlds}) > 1
    assert {w.observation_string(player) for w in worlds} == {state.observation_string(player)}


def test_a_state_made_from_a_sampled_world_resamples_and_searches():
    """A seat that hands ISMCTSBot a world of the player's Knowledge (benchmarks/matches.py) instead of the
    real state: the world has no seed to replay its history from, and `become` starts the histories from
    what each player sees in it, so resampling and searching work from it."""
    import random

    from ruledsl.engine.worlds import Knowledge

    game = load_game("games/trolley_car.rules", players=2, params={"single_round": True})
    real = game.new_initial_state()
    real.apply_action(4)
    for _ in range(6):  # a few moves in, so that a replay from the wrong seed would go astray
        real.apply_action(real.legal_actions()[-1])
    player = real.current_player()
    world = Knowledge(real._box.state, player).sample(random.Random(2))
    state = game.new_initial_state()
    state.become(world)
    assert state.observation_string(player) == real.observation_string(player)
    assert state.legal_actions() == real.legal_actions()
    # the player's history ends where the player stands (a replay of the world's moves from a seed would
    # end in another deal)
    assert state.information_state_string(player).splitlines()[-1] == real.observation_string(player)
    sampler = pyspiel.UniformProbabilitySampler(2, 0.0, 1.0)
    again = state.resample_from_infostate(player, sampler)
    assert again.observation_string(player) == real.observation_string(player)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 1.0, 10,
                           random_state=np.random.RandomState(1), use_observation_string=True,
                           allow_inconsistent_action_sets=True)
    bot.set_resampler(lambda st, p: st.resample_from_infostate(p, sampler))
    assert bot.step(state) in real.legal_actions()


def test_a_state_that_became_a_world_resamples_from_the_knowledge_it_came_from():
    import random

    import ruledsl
    from ruledsl.engine.sight import Sight
    from ruledsl.engine.worlds import Knowledge

    rules = ruledsl.load("games/knockout_whist.rules")
    s = rules.new_game(2, 3)
    sight = Sight(s, [0])
    rng = random.Random(3)
    while len(s.moves) < 6 or s.current_player != 0:  # tricks taken face down: cards known in a pile
        m = rng.choice(s.legal_moves())
        s._apply(m)
        sight.follow(m)
    known = sight.known(0)
    assert known
    knowledge = Knowledge(s, 0, known, sight.ruled_out(0))
    state = load_game("games/knockout_whist.rules", players=2).new_initial_state()
    state.become(knowledge.sample(random.Random(1)), knowledge)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    for _ in range(10):  # a card seen going into a pile stays there in every resampled world
        world = state.resample_from_infostate(0, sampler)
        assert all(world.inner.loc[c] == z for c, z in known.items())
    # another player's infostate, or a state without it, resamples as before: anywhere hidden
    plain = load_game("games/knockout_whist.rules", players=2).new_initial_state()
    plain.become(knowledge.sample(random.Random(1)))
    moved = [plain.resample_from_infostate(0, sampler) for _ in range(10)]
    assert any(any(w.inner.loc[c] != z for c, z in known.items()) for w in moved)


def _say(state, word):
    """The action of the player to act whose words begin with ``word``, else None."""
    player = state.current_player()
    return next((a for a in state.legal_actions() if state.action_to_string(player, a).startswith(word)), None)


def test_two_worlds_that_look_the_same_to_the_player_list_the_same_actions():
    """Trolley Car has two copies of every card. In resampled worlds the player draws a card and keeps
    it, the other player draws and keeps one unseen: where the player's information state is then the
    same (a 10♣ drawn, whichever copy), the legal actions are the same, as OpenSpiel's ISMCTS needs (it
    keys its tree by the information state; it met an action it never listed before cards that look
    alike were numbered alike)."""
    game = load_game("games/trolley_car.rules", players=2, params={"single_round": True})
    state = game.new_initial_state()
    state.apply_action(3)
    while _say(state, "draw") is None:  # past the declarations
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    seen: dict = {}
    copies = 0
    for _ in range(150):
        world = state.resample_from_infostate(player, sampler)
        world.apply_action(_say(world, "draw"))
        inner = world.inner
        drawn = inner.zones[inner.zone_id(f"drawn[{player}]")][0]  # the card's id: which copy
        world.apply_action(_say(world, "keep"))
        while world.current_player() != player:
            world.apply_action(_say(world, "draw") or _say(world, "keep") or world.legal_actions()[0])
        key = world.information_state_string(player)
        if key in seen:
            assert world.legal_actions() == seen[key][0]
            copies += drawn != seen[key][1]
        else:
            seen[key] = (world.legal_actions(), drawn)
    assert copies > 0  # some worlds drew the other copy of a card


def test_a_set_being_built_is_part_of_its_builders_information_state():
    """Tramwaje builds sets of cards card by card (`add(c)`, then `done`), and `State.view` does not show
    the cards added so far: without them two sets begun with different cards looked the same to their
    builder but listed different cards to add, and ISMCTSBot met an action it never listed. The builder's
    information state and observation say the set so far; the other player's do not."""
    game = load_game("games/tramwaje.rules", players=2)
    state = game.new_initial_state()
    state.apply_action(2)
    while True:  # to a set with at least two cards that may begin it
        player = state.current_player()
        adds = [a for a in state.legal_actions() if state.action_to_string(player, a).startswith("add(")]
        if len(adds) >= 2:
            break
        state.apply_action(state.legal_actions()[0])
    one, other = state.clone(), state.clone()
    one.apply_action(adds[0])
    other.apply_action(adds[1])
    assert one.current_player() == other.current_player() == player  # still building
    assert one.information_state_string(player) != other.information_state_string(player)
    assert one.observation_string(player) != other.observation_string(player)
    assert "set so far: " in one.information_state_string(player)
    rival = 1 - player
    assert one.information_state_string(rival) == other.information_state_string(rival)
    assert "set so far" not in one.information_state_string(rival)
    # the tensors too: an agent that reads numbers sees its own set, and nobody else's
    for tensor in ("observation_tensor", "information_state_tensor"):
        mine = [np.asarray(getattr(s, tensor)(player)) for s in (one, other)]
        theirs = [np.asarray(getattr(s, tensor)(rival)) for s in (one, other)]
        assert len(mine[0]) == getattr(game, f"{tensor}_size")()
        assert not np.array_equal(*mine)
        assert np.array_equal(*theirs)
    codec = game.setup.observations
    start = codec.size + game.setup.actions.pending_size  # the set's part: one value per face

    def set_part(s):
        return np.asarray(s.observation_tensor(player))[start:start + codec.set_size]

    for s, added in ((one, adds[0]), (other, adds[1])):
        label = re.match(r"add\((.+?)\)", state.action_to_string(player, added)).group(1)  # add(4♣) [...]
        grown = set_part(s) - set_part(state)
        assert grown[codec.face_index[label]] > 0 and np.count_nonzero(grown) == 1


def test_openspiel_ismcts_bot_plays_tramwaje_with_its_sets():
    game = load_game("games/tramwaje.rules", players=2)
    sampler = pyspiel.UniformProbabilitySampler(2, 0.0, 1.0)
    state = game.new_initial_state()
    state.apply_action(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(2)), 1.0, 6,
                           random_state=np.random.RandomState(2))
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, sampler))
    for _ in range(40):  # decisions of a set among them (it stopped at the 15th before)
        action = bot.step(state) if state.current_player() == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
