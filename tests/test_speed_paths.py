"""Shortcuts of the generated code that tests/test_generated.py cannot see, because both of its sides
run them: the quantifier loops of purity.each_loop (a define's `any`/`all`/`count` is the same
generated function for the steps and the flow) and the listing of moves on the state's own locals."""

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.compiler.purity import each_loop, local_test
from ruledsl.compiler.rng import shuffle, shuffle_loop
from ruledsl.engine.game import Game
from ruledsl.engine.moves import Move

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))


class Position:
    """What the loops read: ``s.zones`` and ``s.n``."""

    def __init__(self, zones, n):
        self.zones, self.n = zones, n


def reference(func, slot, values, test, L):
    """The loop the shortcut stands for: the element lives in ``L[slot]`` while it runs."""
    if func == "any":
        for L[slot] in values:
            if test(L[slot]):
                return True
        return False
    if func == "all":
        for L[slot] in values:
            if not test(L[slot]):
                return False
        return True
    if func == "cards":
        return [L[slot] for L[slot] in values if test(L[slot])]
    n = 0
    for L[slot] in values:
        if test(L[slot]):
            n += 1
    return n


def compiled(lines):
    ns = {"all": all, "range": range}
    exec("def f(s, L):\n" + "".join(f"    {line}\n" for line in lines), ns)  # noqa: S102 - test's own text
    return ns["f"]


@pytest.mark.parametrize("func", ["any", "all", "count", "cards"])
def test_loops_leave_the_slot_as_the_plain_loop_does(func):
    """Over random positions: the same answer, and L as the loop over L[slot] leaves it (the element
    that decided, else the last one, unchanged over nothing), for the players' zones being empty (the
    shortcut over all zones at once) and for a test over a list of cards."""
    rng = random.Random(7)
    slot = 2
    empty_test = local_test("(not s.zones[(1 + L[2])])", slot)
    assert empty_test == "(not s.zones[(1 + _each)])"
    by_player = compiled(each_loop(func, slot, "range(s.n)", empty_test))
    card_test = local_test("(L[2] % 3 == L[0])", slot)
    by_card = compiled(each_loop(func, slot, "s.zones[0]", card_test))
    if func == "any":
        assert any(line.startswith("if all(") for line in each_loop(func, slot, "range(s.n)", empty_test))
    for _ in range(300):
        n = rng.randint(1, 5)
        zones = [[rng.randrange(20) for _ in range(rng.randint(0, 4))]]
        zones += [[1] * rng.choice([0, 1, 1, 1]) for _ in range(6)]
        s = Position(zones, n)
        start = [rng.randrange(3), None, rng.choice([None, 99]), "x"]
        mine, theirs = start.copy(), start.copy()
        assert by_player(s, mine) == reference(func, slot, range(n), lambda p: not zones[1 + p], theirs)
        assert mine == theirs
        mine, theirs = start.copy(), start.copy()
        assert by_card(s, mine) == reference(func, slot, zones[0], lambda c: c % 3 == theirs[0], theirs)
        assert mine == theirs


def test_a_test_that_hands_the_locals_on_keeps_the_slot():
    """A test that passes L to a function (which may read the slot) is not rewritten."""
    assert local_test("_d5(s, L)", 3) is None
    assert local_test("(L[3] > 0 and _d5(s, L))", 3) is None
    assert local_test("any(L[4] for L[3] in s.zones[0])", 3) is None
    assert local_test("(L[3] > L[4])", 3) == "(_each > L[4])"


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_listing_moves_leaves_the_state_unchanged(path):
    """Listing the legal moves works on the state's own locals until it must write to them: a listing
    made afresh on positions of random games changes nothing of the state, and finds the same moves."""
    game = ruledsl.load(path)
    for seed in range(2):
        state = game.new_game(game.program.min_players, seed)
        rng = random.Random(seed)
        for _ in range(120):
            if state.is_over:
                break
            before = state.clone()
            legal = state.legal_moves()
            state._legal = None
            assert state.legal_moves() == legal
            assert state == before and state.to_json() == before.to_json()
            state._apply(legal[rng.randrange(len(legal))])


class Generator:
    """What a shuffle reads and writes: ``s.rng``."""

    def __init__(self, rng):
        self.rng = rng


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 64) - 1), st.integers(0, 300))
def test_the_packed_shuffle_swaps_as_the_plain_loop_does(seed, n):
    """rng.shuffle computes every draw at once for 16 to 256 items: the same order and the same
    generator state after it as the plain Fisher-Yates loop, for any generator state and length
    (the short and the long ones go through the loop itself)."""
    packed, plain = Generator(seed), Generator(seed)
    mine, theirs = list(range(n)), list(range(n))
    shuffle(packed, mine)
    shuffle_loop(plain, theirs)
    assert mine == theirs
    assert packed.rng == plain.rng
    assert sorted(mine) == list(range(n))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_listed_move_plays_as_the_same_move_made_afresh(path):
    """State._apply finds where a move the flow listed starts by the move's identity (Flow.fast), and
    any other move by its name: in random games, the listed move and an equal Move made afresh
    (which takes the way by name) reach the same state, move after move; and the fast way was taken."""
    game = ruledsl.load(path)
    fast_ones = 0
    for seed in range(2):
        state = game.new_game(game.program.min_players, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if state.is_over:
                break
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            fresh = Move(move.name, tuple(move.args))
            fast = game.program.flow.fast
            assert id(fresh) not in fast
            fast_ones += id(move) in fast
            other = state.clone()
            state._apply(move)
            other._apply(fresh)
            assert other == state and other.to_json() == state.to_json()
            assert other.legal_moves() == state.legal_moves()
    assert fast_ones > 0


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_new_game_starts_alike_after_other_games_were_played(path):
    """Game.new_game copies the zones and card locations it worked out once (Game._starting_zones):
    after games of the same Game were played on, a new game equals one from a Game that never
    played (nothing of the kept start is shared with a state), and its zones match program.initial
    the way the deal found them."""
    game = ruledsl.load(path)
    n = game.program.min_players
    for seed in range(3):
        state = game.new_game(n, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            legal = state.legal_moves()
            state._apply(legal[rng.randrange(len(legal))])
    zones, loc = game._starts[id(game.program)]
    for zid, ids in game.program.initial:
        assert all(loc[c] == zid and c in zones[zid] for c in ids)
    fresh = Game(game.program)
    for seed in range(3):
        assert game.new_game(n, seed) == fresh.new_game(n, seed)
        assert game.new_game(n, seed).to_json() == fresh.new_game(n, seed).to_json()


def test_the_trigger_check_asked_in_place_fires_as_the_steps_do():
    """Where every trigger's condition can be asked without the locals (Trolley Car's lap and
    crossing, over the two colours), a stretch asks them in place and calls _fire only when one
    holds, else sets the trigger variables as _fire leaves them. Whole rounds for 2 to 6 players
    against the step interpreter (tests/step_interpreter.py checks the triggers by their closures):
    the same states after every move, and the triggers did fire (lines set aside)."""
    import step_interpreter

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    game.new_game(2, 0)
    assert game.program.flow._fire_precheck() is not None
    assert "    else:\n        L[" in game.python_listing()
    laps = 0
    for n in (2, 4, 6):
        fast = step_interpreter.play_both_ways(game, n, n)[0]
        laps += sum(len(fast.zones[z]) for z in range(len(fast.zones)) if "aside" in game.program.zones[z].name)
    assert laps > 0


def test_a_tabled_listing_over_joined_zones_goes_through_each_zone_in_turn():
    """A tabled move over `a + b` (Trolley Car's play from hand and declaration) is listed by one loop
    per zone, in order, not over the two joined first: on every turn of whole rounds, 2 to 6 players,
    its moves are the step interpreter's (the options' own closures), and turns where the declared
    card is offered (the second zone's loop) were met."""
    import step_interpreter

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    game.new_game(2, 0)
    listing = game.python_listing()
    assert re.search(r"for _mc in (_s_|s\.)zones\[", listing) and "for _mc in [*" not in listing
    from_declared = 0
    for n in (2, 4, 6):
        for seed in range(3):
            state = game.new_game(n, seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_moves()
                assert legal == step_interpreter.legal_moves(state)
                declared = state.zones[state.zone_id(f"declared[{state.actor}]")]
                from_declared += any(m.name == "play" and m.args[0] in declared for m in legal)
                state._apply(legal[rng.randrange(len(legal))])
    assert from_declared > 0
