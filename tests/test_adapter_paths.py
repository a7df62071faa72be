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
            # the plain numbering: each move on its own, cards that look alike (trolley_car, uno) by
            # the list's renaming worked out afresh
            rename = codec.renaming(s, s.legal_moves()) if codec._alike is not None else None
            plain = sorted(codec.encode(s, m, rename) for m in s.legal_moves())
            actions, moves = codec.legal(s)
            assert list(actions) == plain == codec.legal_actions(s)
            assert all(codec.encode(s, m) == a for a, m in moves.items())
            t = s.clone()  # a clone shares the list: the same answer
            assert codec.legal(t)[0] == actions
            s._apply(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("name, params", [("uno", None), ("trolley_car", {"single_round": True})])
def test_openspiel_state_agrees_with_the_plain_path(name, params):
    """Both games have cards that look alike: the heads of a list, worked out as the list goes, agree
    with each move's actions by the flat numbering's renaming."""
    pyspiel = pytest.importorskip("pyspiel")
    from ruledsl.adapters.openspiel import load_game

    g = load_game(f"games/{name}.rules", players=2, params=params)
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
            with pytest.raises(IllegalMove):
                st.move_of(illegal)
            assert (st.inner.to_json(), st.pending) == before
            action = rng.choice(actions)
            made = st.move_of(action)  # a legal move of this very list (its copy of a card), or a step of one
            legal = st.inner.legal_moves()
            if isinstance(made, tuple):
                assert made[1] and any(m.name == codec.flat.blocks[made[0]][0] and m.args[:len(made[1])] == made[1]
                                       for m in legal)
            else:
                assert any(m is made for m in st.inner._legal)
                moves_before = len(st.inner.moves)
            st.apply_action(action)
            if not isinstance(made, tuple):
                assert st.inner.moves[moves_before] == made


def test_pettingzoo_env_agrees_with_the_plain_path():
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.pettingzoo import env

    for name in ("trolley_car", "uno"):
        e = env(f"games/{name}.rules", players=3, describe_moves=True)
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


def _plain_actions(codec, state, pending):
    """What the adapters' legal actions must be, worked out afresh (a new codec, nothing kept)."""
    from ruledsl.adapters.steps import StepCodec

    fresh = StepCodec(state.program, state.n, steps=codec.steps)
    return fresh.legal(state, pending)[0]


def test_openspiel_kept_legal_actions_after_clone_action_and_save():
    """The legal actions an OpenSpiel state keeps: a clone starts with its original's, and an action on
    either (a move or one step of a move) changes only that one's; a saved and loaded state works
    them out again. Every answer is checked against a codec that keeps nothing."""
    pyspiel = pytest.importorskip("pyspiel")
    from ruledsl.adapters.openspiel import load_game

    g = load_game("games/uno.rules", players=2)
    st = g.new_initial_state()
    st.apply_action(4)
    rng = random.Random(4)
    codec = st._rules_game.actions
    steps_seen = 0
    for _ in range(120):
        if st.is_terminal():
            break
        actions = st.legal_actions()
        assert tuple(actions) == _plain_actions(codec, st.inner, st.pending)
        clone = st.clone()
        assert clone._box.answer is st._box.answer  # shared while they share the list of legal moves
        assert clone.legal_actions() == actions
        a = rng.choice(actions)
        clone.apply_action(a)
        # the original still offers and makes what it did, the clone what its own state offers
        assert st.legal_actions() == actions
        if not clone.is_terminal():
            assert tuple(clone.legal_actions()) == _plain_actions(codec, clone.inner, clone.pending)
        steps_seen += bool(clone.pending)
        text = pyspiel.serialize_game_and_state(g, st)
        _, loaded = pyspiel.deserialize_game_and_state(text)
        assert loaded.legal_actions() == actions
        st.apply_action(a)
        assert st.inner == clone.inner and st.pending == clone.pending
        assert st.history() == clone.history()
    assert steps_seen > 0  # a move taken in two steps was met (a wild card, then its colour)


@pytest.mark.parametrize("kept", [None, 3])
def test_kept_actions_of_moves_met_before_are_right_in_the_new_state(kept, monkeypatch):
    """Moves met before (the same moves, in another state or another game) get their kept first
    actions and words: they must be right for the new state and make the same move as the plain path;
    and when the codec's store is full (``kept``: more than 3 moves) it starts again and stays right."""
    pytest.importorskip("pettingzoo")
    import ruledsl.adapters.pettingzoo as pz
    import ruledsl.adapters.steps as steps_module

    if kept is not None:
        monkeypatch.setattr(steps_module, "KEPT_MOVES", kept)
    e = pz.env("games/trolley_car.rules", players=2, params={"single_round": True}, describe_moves=True)
    longest = 0
    for seed in (0, 1, 0):  # seed 0 twice: every list comes back
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not e.game_state.is_over:
            s = e.game_state
            actions, leads = e._legal()
            longest = max(longest, len(s.legal_moves()))
            assert actions == _plain_actions(e.actions, s, e.pending)
            assert e.infos[e.agent_selection]["legal_moves"] == [s.describe(m) for m in s.legal_moves()]
            a = rng.choice(actions)
            target = leads[a]
            expected = s.clone()
            if isinstance(target, ruledsl.Move):
                assert target in s.legal_moves()
                expected._apply(target)
            e.step(a)
            assert s == expected
    if kept is not None:
        assert len(e.actions._kept) <= kept + longest  # it started again


def _env_record(e) -> tuple:
    """What a PettingZoo user may read of ``e`` after a step, the words of the legal moves and of a set
    being built and the action mask in the infos left out."""
    infos = {a: {k: v for k, v in info.items() if k not in ("legal_moves", "set_so_far", "action_mask")}
             for a, info in e.infos.items()}
    return (e.game_state.to_json(), e.pending, e.agent_selection, list(e.agents), dict(e.rewards),
            dict(e._cumulative_rewards), dict(e.terminations), dict(e.truncations), infos)


@pytest.mark.parametrize(("name", "actions"), [("trolley_car", "steps"), ("uno", "steps"), ("uno", "flat"),
                                               ("tramwaje", "steps")])
def test_pettingzoo_env_without_move_words_plays_as_with_them(name, actions):
    """``describe_moves`` (off by default) only adds the words: an env with them and one without, given
    the same actions, agree on everything else at every step, dead steps included; rewards are 0 until
    the game ends (``step`` clears nothing before then), then the outcome; the codec's answer that
    ``step`` reads in place is right even after the codec was asked about another state."""
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.encode import outcome
    from ruledsl.adapters.pettingzoo import env

    params = {"single_round": True} if name == "trolley_car" else None
    plain, worded = (env(f"games/{name}.rules", players=2, params=params, actions=actions, describe_moves=d)
                     for d in (False, True))
    for seed in (0, 1):
        rng = random.Random(seed)
        plain.reset(seed=seed)
        worded.reset(seed=seed)
        pendings = 0
        while plain.agents:
            assert _env_record(plain) == _env_record(worded)
            s = plain.game_state
            assert "legal_moves" not in plain.infos[plain.agent_selection]
            if s.is_over:  # the dead steps, one an agent
                plain.step(None)
                worded.step(None)
                continue
            assert set(plain.rewards.values()) == set(plain._cumulative_rewards.values()) == {0.0}
            assert worded.infos[worded.agent_selection]["legal_moves"] == [s.describe(m) for m in s.legal_moves()]
            ids = plain.actions.legal_actions(s, plain.pending)
            assert tuple(ids) == _plain_actions(plain.actions, s, plain.pending)
            a = rng.choice(ids)
            if rng.random() < 0.3:  # the codec asked about another state in between: step must not use it
                other = s.clone()
                other._apply(other.legal_moves()[0])
                if not other.is_over:
                    plain.actions.legal(other)
            if plain.pending:
                pendings += 1
                assert plain.infos[plain.agent_selection]["chosen_so_far"] == plain.actions.pending_text(plain.pending)
            plain.step(a)
            worded.step(a)
            if plain.game_state.is_over:
                assert [plain.rewards[x] for x in plain.possible_agents] == outcome(plain.game_state, "win")
        assert _env_record(plain) == _env_record(worded)
        if name == "uno" and actions == "steps":
            assert pendings > 0  # a move taken in two steps was met, with "chosen_so_far" in the infos


def test_describe_moves_must_be_true_or_false():
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.pettingzoo import env
    from ruledsl.language.errors import ParameterError

    with pytest.raises(ParameterError, match="describe_moves must be True or False, not 'yes'"):
        env("games/uno.rules", players=2, describe_moves="yes")


@pytest.mark.parametrize(("name", "actions", "words"), [("trolley_car", "steps", False), ("uno", "steps", False),
                                                        ("uno", "steps", True), ("uno", "flat", False),
                                                        ("tramwaje", "steps", False)])
def test_pettingzoo_mask_in_infos_is_the_observed_mask(name, actions, words):
    """``mask_in_infos=True`` puts the deciding agent's action mask into its infos at every step (worked
    out in ``step``, unsorted, and kept for the next step's action): it is ``observe``'s mask, and the
    legal actions worked out afresh; no other agent's infos hold a mask or what it had chosen so far
    (nor do a plain env's: "chosen_so_far" of a move now made is cleared from the mover's infos); and
    an env with it plays as one without, given the same actions, even when the codec was asked about
    another state in between."""
    pytest.importorskip("pettingzoo")
    import numpy as np

    from ruledsl.adapters.pettingzoo import env

    params = {"single_round": True} if name == "trolley_car" else None
    masked, plain = (env(f"games/{name}.rules", players=2, params=params, actions=actions, mask_in_infos=m,
                         describe_moves=words and m) for m in (True, False))
    for seed in (0, 1):
        rng = random.Random(seed)
        masked.reset(seed=seed)
        plain.reset(seed=seed)
        pendings = 0
        for agent in masked.agent_iter(100_000):
            assert _env_record(masked) == _env_record(plain)
            for e in (masked, plain):
                assert all("action_mask" not in info and "chosen_so_far" not in info
                           for a, info in e.infos.items() if a != agent or e.game_state.is_over)
            _, _, terminated, truncated, info = masked.last(observe=False)
            if terminated or truncated:
                assert "action_mask" not in info
                masked.step(None)
                plain.step(None)
                continue
            s = masked.game_state
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (masked.actions.num_actions,)
            assert np.array_equal(mask, masked.observe(agent)["action_mask"])
            ids = mask.nonzero()[0].tolist()
            assert tuple(ids) == _plain_actions(masked.actions, s, masked.pending)
            if not masked.pending:
                assert masked.actions.leads(s, s.legal_moves()) == masked.actions.first(s, s.legal_moves())[1]
            if words:
                assert info["legal_moves"] == [s.describe(m) for m in s.legal_moves()]
            a = rng.choice(ids)
            if rng.random() < 0.3:  # the codec asked about another state in between: step must not use it
                other = s.clone()
                other._apply(other.legal_moves()[0])
                if not other.is_over:
                    masked.actions.legal(other)
                    masked.actions.leads(other, other.legal_moves())
            pendings += bool(masked.pending)
            masked.step(a)
            plain.step(a)
        assert not masked.agents and _env_record(masked) == _env_record(plain)
        if name == "uno" and actions == "steps":
            assert pendings > 0  # a move taken in two steps was met


def test_mask_in_infos_must_be_true_or_false():
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.pettingzoo import env
    from ruledsl.language.errors import ParameterError

    with pytest.raises(ParameterError, match="mask_in_infos must be True or False, not 'yes'"):
        env("games/uno.rules", players=2, mask_in_infos="yes")


def test_pettingzoo_chosen_so_far_leaves_with_the_move():
    """"chosen_so_far" is in the infos of the agent choosing a move in steps, and only while it does:
    once the move is made, the mover's infos no longer say it (they did when the turn passed on)."""
    pytest.importorskip("pettingzoo")
    from ruledsl.adapters.pettingzoo import env

    e = env("games/uno.rules", players=2)
    pendings = 0
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not e.game_state.is_over:
            for agent, info in e.infos.items():
                assert ("chosen_so_far" in info) == (agent == e.agent_selection and bool(e.pending))
            pendings += bool(e.pending)
            e.step(rng.choice(e.actions.legal_actions(e.game_state, e.pending)))
    assert pendings > 0
