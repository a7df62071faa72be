"""What a save promises: a loaded state is one the rules reach from its seed by its moves.

A save carries a digest of its canonical JSON (damage and hand edits are refused),
and loading replays its moves from its seed and compares: so an edit with the
digest recomputed (or removed) is refused too. docs/api.md, "Saving".
"""

import hashlib
import json
import random
import time
from pathlib import Path

import pytest

import ruledsl
from ruledsl import SaveError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return ruledsl.load(ROOT / "games" / "trolley_car.rules")


def played(game, moves=6, seed=3):
    s = game.new_game(3, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_moves()))
    return s


def resealed(data: dict) -> str:
    """An edited save with its digest recomputed, as anyone who read docs/api.md can."""
    body = {k: v for k, v in data.items() if k != "digest"}
    canonical = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return json.dumps({**body, "digest": hashlib.sha256(canonical.encode("utf-8")).hexdigest()})


def other_player(s):
    return (s.current_player + 1) % s.n


def test_a_save_round_trips_and_carries_a_digest(game):
    s = played(game)
    data = json.loads(s.to_json())
    assert len(data["digest"]) == 64
    assert game.state_from_json(s.to_json()) == s
    assert game.state_from_json(resealed(data)) == s  # the digest is that of the documented canonical form


def test_a_save_whose_turn_was_changed_is_refused(game):
    s = played(game)
    data = json.loads(s.to_json())
    turned = {**data, "current": other_player(s), "actor": other_player(s)}
    with pytest.raises(SaveError, match="changed after it was written: its digest does not match"):
        game.state_from_json(json.dumps(turned))
    expected = (f"the save does not follow from its own moves: player {other_player(s)} is to decide, "
                f"but its moves lead to the decision of player {s.current_player}")
    with pytest.raises(SaveError, match=expected):
        game.state_from_json(resealed(turned))
    without = {k: v for k, v in turned.items() if k != "digest"}  # as saves before digests: still replayed
    with pytest.raises(SaveError, match=expected):
        game.state_from_json(json.dumps(without))


def test_an_edit_that_keeps_every_card_in_one_place_is_refused(game):
    s = played(game)
    data = json.loads(s.to_json())
    hands = [i for i, z in enumerate(data["zones"]) if z][:2]
    a, b = hands
    data["zones"][a][0], data["zones"][b][0] = data["zones"][b][0], data["zones"][a][0]  # swap two cards
    with pytest.raises(SaveError, match="its 'zones' is not what its moves lead to"):
        game.state_from_json(resealed(data))
    data = json.loads(s.to_json())
    data["rng"] = (data["rng"] + 1) % 2 ** 64  # the next shuffle foreseen differently
    with pytest.raises(SaveError, match="'rng'"):
        game.state_from_json(resealed(data))


def test_a_save_whose_moves_cannot_be_made_is_refused(game):
    s = played(game)
    data = json.loads(s.to_json())
    data["moves"][2] = ["play", 9999]
    with pytest.raises(SaveError, match="move 3 of the save, play\\(9999\\), cannot be made"):
        game.state_from_json(resealed(data))
    data = json.loads(s.to_json())
    data["seed"] += 1
    with pytest.raises(SaveError, match="does not follow from its own moves|cannot be made"):
        game.state_from_json(resealed(data))


def test_a_position_set_up_by_hand_is_not_a_save_that_loads(game):
    s = game.new_game(3, 1)
    s.set_var("total[0]", 7)
    with pytest.raises(SaveError, match="set up by hand"):
        game.state_from_json(s.to_json())


def test_saves_of_a_game_as_it_goes_load_in_the_time_of_their_last_move(game):
    """verify loads a save after every step: each is checked by resuming the last replay, not from the start."""
    s = game.new_game(3, 5)
    rng = random.Random(5)
    started = time.process_time()
    count = 0
    while not s.is_over and count < 400:
        s.apply(rng.choice(s.legal_moves()))
        assert game.state_from_json(s.to_json()) == s
        count += 1
    per_load = (time.process_time() - started) / count
    whole = time.process_time()
    game.replay(3, 5, s.moves)
    whole = time.process_time() - whole
    assert count > 50 and per_load < max(whole / 4, 0.005), (per_load, whole)
    # and a save of another game (not a continuation) is checked from its own start
    other = played(game, 4, seed=9)
    assert game.state_from_json(other.to_json()) == other
