"""Property tests: whole Trolley Car games driven by random legal moves, for 2-6 players,
checking the engine's invariants after every step (DESIGN.md, "Invariants").

The random choices come only from hypothesis: it draws the game's seed and the seed of
the generator that picks among the legal moves, so a failure replays exactly.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CROSSINGS, TROLLEY, TROLLEY_BET, colour_of, load, rank_of
from ruledsl import IllegalMove, Move

GAMES = {
    "round": load(TROLLEY, single_round=True),
    "bet round": load(TROLLEY_BET, single_round=True),
    "match": load(TROLLEY),
    "bet match": load(TROLLEY_BET),
}

CARDS = 104
NONSENSE = [Move("fly"), Move("play"), Move("play", (CARDS,)), Move("play", (-1,)), Move("draw", (3,)),
            Move("pass", (1, 2))]


def assert_conserved(s) -> None:
    where = s.card_locations()
    assert len(where) == CARDS
    misplaced = {s.card_label(c): names for c, names in where.items() if len(names) != 1}
    assert not misplaced, f"cards not in exactly one zone: {misplaced}"


def unlisted_moves(s, legal: list[Move], rnd: random.Random) -> list:
    """Moves the state does not list: for each listed option, a card it does not list; each
    option of the game's decisions that is not listed now; malformed and unknown moves."""
    out = [m for m in NONSENSE if m not in legal] + ["play(x)", ["play", "1"], "play(1,)", ""]
    listed = {(m.name, m.args) for m in legal}
    for name in {m.name for m in legal if m.args}:
        others = [c for c in range(CARDS) if (name, (c,)) not in listed]
        out.append(Move(name, (rnd.choice(others),)))
    for name in ("play", "draw", "pass", "keep", "play_drawn", "declare", "bet"):
        if not any(m.name == name for m in legal):
            out.append(Move(name, (rnd.randrange(CARDS),)) if name in ("play", "declare", "bet") else Move(name))
    return out


def check_step(game, s, rnd: random.Random, replay: bool) -> None:
    assert_conserved(s)
    legal = s.legal_moves()
    assert legal, "a pending decision without legal moves"
    assert len(set(legal)) == len(legal)
    # every listed move applies cleanly, on a clone
    for m in legal:
        c = s.clone()
        c.apply(m)
        assert_conserved(c)
        assert c.moves == s.moves + [m]
    # every other move is refused and changes nothing
    before = s.clone()
    for m in unlisted_moves(s, legal, rnd):
        with pytest.raises(IllegalMove):
            s.apply(m)
        assert s == before, f"refused move {m} changed the state"
    # clone, save and replay give the same state
    clone = s.clone()
    assert clone == s and hash(clone) == hash(s)
    back = game.state_from_json(s.to_json())
    assert back == s and back.legal_moves() == legal
    if replay:
        assert game.replay(s.n, s.seed, list(s.moves)) == s


def play_through(kind: str, players: int, seed: int, choices: int, replays: int, horizon: int) -> None:
    """Play a whole game with random legal moves, checking every step; replay from the seed
    and moves at ``replays`` steps drawn from the first ``horizon`` and at the end."""
    game = GAMES[kind]
    rnd = random.Random(choices)
    s = game.new_game(players=players, seed=seed)
    bound = s.program.limit
    steps = 0
    replay_at = set(rnd.sample(range(horizon), replays))
    while not s.is_over:
        check_step(game, s, rnd, replay=steps in replay_at)
        s.apply(rnd.choice(s.legal_moves()))
        steps += 1
        assert steps <= bound
    assert s.finding is None, s.finding  # ended by its own rules, within the move bound
    assert_conserved(s)
    assert s.legal_moves() == [] and s.current_player == -1
    with pytest.raises(IllegalMove):
        s.apply(Move("pass"))
    assert game.replay(players, seed, list(s.moves)) == s
    assert game.state_from_json(s.to_json()) == s
    scores = s.scores
    assert s.winners == [p for p in range(players) if scores[p] == min(scores)]


@pytest.mark.parametrize("text", ["draw(", "play(", "play(1", "play 1", "play(1,)", "play(x)", "draw()x", "[draw]"])
def test_malformed_move_text_is_refused_and_changes_nothing(text):
    s = GAMES["round"].new_game(players=3, seed=5)
    while s.decision == "declare":
        s.apply("pass")
    assert Move("draw") in s.legal_moves()  # so a text misread as `draw` would be applied
    before = s.clone()
    with pytest.raises(IllegalMove):
        s.apply(text)
    assert s == before


seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=6)
fast = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=10, **fast)
@given(players=players, seed=seeds, choices=seeds)
def test_single_round_keeps_every_invariant(players, seed, choices):
    play_through("round", players, seed, choices, replays=4, horizon=150)


@settings(max_examples=10, **fast)
@given(players=players, seed=seeds, choices=seeds)
def test_bet_variant_single_round_keeps_every_invariant(players, seed, choices):
    play_through("bet round", players, seed, choices, replays=4, horizon=150)


@settings(max_examples=2, **fast)
@given(players=players, seed=seeds, choices=seeds)
def test_whole_match_keeps_every_invariant(players, seed, choices):
    play_through("match", players, seed, choices, replays=3, horizon=600)


@settings(max_examples=2, **fast)
@given(players=players, seed=seeds, choices=seeds)
def test_bet_variant_whole_match_keeps_every_invariant(players, seed, choices):
    play_through("bet match", players, seed, choices, replays=3, horizon=600)


@settings(max_examples=15, deadline=None)
@given(players=players, seed=seeds)
def test_views_show_a_player_only_their_own_hand(players, seed):
    s = GAMES["round"].new_game(players=players, seed=seed)
    for p in range(players):
        zones = s.view(p)["zones"]
        for q in range(players):
            hand = zones[f"hand[{q}]"]
            assert len(hand) == len(s.cards_in(f"hand[{q}]"))
            assert (set(hand) == {"?"}) == (q != p)
        assert set(zones["deck"]) <= {"?"}


# ---- the shape of the board (Trolley Car's own invariants, from the readings)

SHARED = {"red": set(CROSSINGS), "black": set(CROSSINGS.values())}


def check_lines(s, plays: int) -> None:
    """Each line runs from its start space to the space it stands on: every space on the way
    holds a card of the line's colour, except crossings (the other line's card, or a gap);
    no card of its colour lies off that run; standing on its own card, it has that card's rank."""
    laid = 0
    for colour in ("red", "black"):
        track = s.cards_in(f"line[{colour}]")
        n = len(track)
        start, pos, rank = (s.get_var(f"{v}[{colour}]") for v in ("start", "pos", "rank"))
        run, i = [start], start
        while i != pos:
            i = (i + 1) % n
            run.append(i)
        assert track[start] is not None and colour_of(track[start]) == colour, (colour, start, track)
        for i in run:
            label = track[i]
            own = label is not None and colour_of(label) == colour
            assert own or i in SHARED[colour], f"{colour} line has a gap at {i}: {track} (start {start}, pos {pos})"
        for i, label in enumerate(track):
            if label is not None and colour_of(label) == colour:
                assert i in run, f"{colour} card {label} at {i} is off the run {run}: {track}"
                laid += 1
        if track[pos] is not None and colour_of(track[pos]) == colour:
            assert rank == rank_of(track[pos])  # (a crossing card may have left and been replaced)
        laid += len(s.cards_in(f"aside[{colour}]"))
    assert laid == 2 + plays  # the two start cards and every card played this round


@settings(max_examples=10, **fast)
@given(kind=st.sampled_from(["round", "bet round"]), players=players, seed=seeds, choices=seeds)
def test_lines_run_from_their_start_without_gaps(kind, players, seed, choices):
    s = GAMES[kind].new_game(players=players, seed=seed)
    rnd = random.Random(choices)
    plays = 0
    while not s.is_over:
        check_lines(s, plays)
        m = rnd.choice(s.legal_moves())
        s.apply(m)
        plays += m.name in ("play", "play_drawn")
