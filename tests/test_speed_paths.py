"""Shortcuts of the generated code that tests/test_generated.py cannot see, because both of its sides
run them: the quantifier loops of purity.each_loop (a define's `any`/`all`/`count` is the same
generated function for the steps and the flow) and the listing of moves on the state's own locals."""

import functools
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


class Empty(Exception):
    """What the test's check of an empty zone raises."""


def _empty():
    raise Empty("the zone is empty")


@pytest.mark.parametrize("func", ["any", "all", "count", "cards"])
def test_a_tests_part_that_does_not_read_the_element_is_asked_once_with_the_same_answers(func):
    """hoist.loop_invariants: the part of a quantifier's test that reads no element (a top card, a
    local, a size) is kept in a Python local from the first time the test asks it. Over random
    positions, against the same loop asking it every time: the same answer, the same locals, and the
    same error when it fails (only when a card gets that far: an empty zone with no card passing the
    first part is no error); and the part is asked at most once."""
    from ruledsl.compiler.hoist import loop_invariants

    slot = 2
    test = "((_each % 3 == L[0]) and (_each != (s.zones[1] or _empty())[-1] + L[1] * 2 + len(s.zones[2])))"
    before, cached = loop_invariants(test, {"_empty": _empty, "len": len})
    assert before and cached.count(":=") == 1
    asked = [0]

    def counted():
        asked[0] += 1
        return _empty()

    ns = {"_empty": _empty, "len": len, "all": all, "range": range}
    plain = compiled_in(each_loop(func, slot, "s.zones[0]", test), ns)
    once = compiled_in(each_loop(func, slot, "s.zones[0]", cached, before), ns)
    counting = compiled_in(each_loop(func, slot, "s.zones[0]", cached.replace("_empty()", "_counted()"), before),
                           {**ns, "_counted": counted})
    rng = random.Random(11)
    failed = answered = 0
    for _ in range(600):
        zones = [[rng.randrange(30) for _ in range(rng.randint(0, 6))] for _ in range(3)]
        s = Position(zones, 2)
        start = [rng.randrange(3), rng.randrange(4), None, "x"]
        results = []
        for fn in (plain, once):
            L = start.copy()
            try:
                results.append((fn(s, L), L))
            except Empty as exc:
                results.append((str(exc), L))
        assert results[0] == results[1]
        asked[0] = 0
        try:
            counting(s, start.copy())
            answered += 1
        except Empty:
            failed += 1
        assert asked[0] <= 1
    assert failed and answered


def compiled_in(lines, ns):
    exec("def f(s, L):\n" + "".join(f"    {line}\n" for line in lines), ns)  # noqa: S102 - test's own text
    return ns["f"]


def test_a_part_reading_the_element_or_handed_the_locals_is_asked_every_time():
    """Parts that read the element, or call what is handed the state, or are small, stay; a test that
    hands the locals on (which may write a slot a part reads) keeps every part."""
    from ruledsl.compiler.hoist import loop_invariants

    def helper(*args):
        return 1

    ns = {"_h": helper, "_d4": helper, "len": len}
    for test in ["(_each != s.vars[3 + s.vars[4 + s.vars[5 + _each]]] + L[2])",
                 "(_each != _d4(s, L) + s.vars[3 + s.vars[4 + s.vars[5 + s.vars[6]]]])",
                 "(_each != _h(s) + s.vars[L[3] + _each] * s.vars[5 + s.vars[6]])",
                 "(_each != s.vars[3] + L[4])"]:
        assert loop_invariants(test, ns) == ([], test)
    before, cached = loop_invariants("(_each != _h() + s.vars[3 + s.vars[4]] * s.vars[5 + s.vars[6]])", ns)
    assert before and cached.count(":=") == 1


def _generated(ns: dict, name: str, lines: list):
    """A generated function ``name(s, L)`` with its ``definition``, as the compiler's gen_def makes one."""
    text = f"def {name}(s, L):\n" + "".join(f"    {line}\n" for line in lines)
    exec(text, ns)  # noqa: S102 - the test's own text
    ns[name].definition = text
    return ns[name]


@pytest.mark.parametrize("func", ["any", "all", "count"])
def test_a_generated_call_that_does_not_read_the_plain_loops_slot_is_asked_once(func):
    """hoist.loop_calls: in a plain loop (``for L[slot] in ...``), a call of a generated function that
    never reads the loop's slot (a count over a zone of a player in L[0], its element left in L[5]) is
    asked the first time the test asks it and read back after that; one that reads the slot is asked
    every time. Over random positions, against the loop as written: the same answer, the same
    locals, and the first call asked at most once."""
    from ruledsl.compiler.hoist import loop_calls

    calls = {"_d1": 0, "_d2": 0}
    ns = {"len": len, "range": range}
    count_in_zone = ["_n = 0", "_each = L[5]", "for _each in s.zones[L[0]]:", "    if _each > L[1]:",
                     "        _n += 1", "L[5] = _each", "return _n"]
    _generated(ns, "_d1", ["_calls['_d1'] += 1", *count_in_zone])
    _generated(ns, "_d2", ["_calls['_d2'] += 1", "return L[3] * 2 + len(s.zones[0])"])  # reads the loop's slot
    ns["_calls"] = calls
    slot = 3
    test = "(L[3] <= _d1(s, L) and L[3] + _d1(s, L) != _d2(s, L))"
    before, cached = loop_calls(test, slot, ns)
    assert before == ["_u = []", "_v0 = _u"] and cached.count("_d1(s, L)") == 2 and cached.count(":=") == 2
    assert "and L[3] + (_v0 if" in cached and "!= _d2(s, L))" in cached and "_v1" not in cached
    loop = "for L[3] in range(L[2]):"
    body = {"any": [f"    if {{}}:", "        return True", "return False"],
            "all": [f"    if not {{}}:", "        return False", "return True"],
            "count": ["    if {}:", "        _n += 1", "return _n"]}[func]
    head = ["_n = 0"] if func == "count" else []
    plain = compiled_in([*head, loop, body[0].format(test), *body[1:]], ns)
    once = compiled_in([*before, *head, loop, body[0].format(cached), *body[1:]], ns)
    rng = random.Random(5)
    for _ in range(400):
        zones = [[rng.randrange(9) for _ in range(rng.randint(0, 5))] for _ in range(3)]
        s = Position(zones, 2)
        start = [rng.randrange(3), rng.randrange(6), rng.randrange(5), None, "x", None]
        results = []
        for fn in (plain, once):
            L = start.copy()
            calls["_d1"] = 0
            results.append((fn(s, L), L))
        assert results[0] == results[1]
        assert calls["_d1"] <= 1
    # a call handed anything else, or a function not generated, stays where it is
    assert loop_calls("(L[3] < _d1(s, M))", slot, ns) == ([], "(L[3] < _d1(s, M))")
    assert loop_calls("(L[3] < _h(s, L))", slot, {**ns, "_h": len}) == ([], "(L[3] < _h(s, L))")


def test_cards_a_condition_cannot_tell_apart_share_their_answer():
    """purity.twins: a condition that reads its card only through attribute columns answers alike for
    cards alike in those columns, so a table fills them together; reading the card itself, or handing
    the locals on, gives none. Then, on Trolley Car (two decks: four cards of each rank and colour),
    every answer the tables hold after random rounds is the condition's own for that card."""
    from ruledsl.compiler.purity import CardTable, twins

    ns = {"_a_rank_1": [1, 2, 1, 2, 3], "_a_colour_2": [0, 0, 0, 1, 0], "_d3": lambda s, L: True}

    def cond(text):
        fn = eval(f"lambda s, L: {text}", ns)  # noqa: S307 - the test's own text
        fn.src = text
        return fn

    assert twins(cond("_a_rank_1[L[4]] == s"), 4, 5) == [(0, 2), (1, 3), (0, 2), (1, 3), (4,)]
    assert twins(cond("_a_rank_1[L[4]] + _a_colour_2[L[4]] > L[0]"), 4, 5) == [(0, 2), (1,), (0, 2), (3,), (4,)]
    for text in ["_a_rank_1[L[4]] == 1 and L[4] != 2", "_a_rank_1[L[4]] == 1 and _d3(s, L)",
                 "_a_rank_1[L[0]] == L[4]"]:
        assert twins(cond(text), 4, 5) is None

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    game.new_game(2, 0)
    assert "_key = (s.vars[9], s.vars[10], )" in game.python_listing().replace("_s_vars", "s.vars")
    for n in (2, 4):
        for seed in range(6):
            state = game.new_game(n, seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_moves()
                state._apply(legal[rng.randrange(len(legal))])
    tables = [t for t in {**game.program.namespace, **game.program.flow.ns}.values() if isinstance(t, CardTable)]
    assert tables and all(t.twins is not None and len(t.twins[0]) == 4 for t in tables)
    checked = 0
    for table in tables:
        for key, row in table.rows.items():
            s = game.new_game(2, 0)
            s.vars[9], s.vars[10] = key  # the rank each line must follow: the tables' key
            for c, value in enumerate(row):
                if value is not None:
                    L = list(s.locals)
                    L[table.slot] = c
                    assert bool(value) == bool(table.cond(s, L)), (key, c)
                    checked += 1
    assert checked > 1000


def test_some_players_zone_empty_asked_in_place_answers_as_the_loop():
    """purity.asked_in_place: "some player's zone is empty" written where it is asked answers without the
    call while every zone holds a card and the slot holds the last player already, else calls. Over random
    positions (the slot unset, the last player, another): the same answer and the same locals as the
    plain loop; and the call was skipped and made."""
    from ruledsl.compiler.purity import asked_in_place

    slot = 2
    test = local_test("(not s.zones[(1 + L[2])])", slot)
    calls = [0]
    loop = compiled(each_loop("any", slot, "range(s.n)", test))

    def counted(s, L):
        calls[0] += 1
        return loop(s, L)

    text = asked_in_place("any", slot, "range(s.n)", test, "_f(s, L)")
    assert text is not None and "_f(s, L)" in text
    assert asked_in_place("all", slot, "range(s.n)", test, "_f(s, L)") is None
    assert asked_in_place("any", slot, "s.zones[0]", test, "_f(s, L)") is None
    in_place = eval(f"lambda s, L: {text}", {"_f": counted, "all": all})  # noqa: S307 - the test's own text
    rng = random.Random(5)
    skipped = made = 0
    for _ in range(400):
        n = rng.randint(1, 5)
        zones = [[]] + [[1] * rng.choice([0, 1, 1, 1, 1]) for _ in range(6)]
        s = Position(zones, n)
        start = [0, "x", rng.choice([None, n - 1, 0, 99]), None]
        mine, theirs = start.copy(), start.copy()
        calls[0] = 0
        assert in_place(s, mine) == reference("any", slot, range(n), lambda p: not zones[1 + p], theirs)
        assert mine == theirs
        skipped += calls[0] == 0
        made += calls[0]
    assert skipped and made


class Vars:
    """What the tests of hoist.shared_parts read: ``s.vars``."""

    def __init__(self, values):
        self.vars = values


SHARED = [  # (a test, whether a part of it is asked once)
    ("((s.vars[0] + 1) % 3 == s.vars[1]) or ((s.vars[0] + 1) % 3 != s.vars[2] and s.vars[3] > (s.vars[0] + 1) % 3)",
     True),
    ("(s.vars[1] and (s.vars[0] * 2 + s.vars[2]) > 3) or (s.vars[0] * 2 + s.vars[2]) < 1", False),  # first: maybe
    ("(10 // (s.vars[0] - s.vars[1]) if s.vars[2] else 0) + 10 // (s.vars[0] - s.vars[1])", False),  # a branch
    ("10 // (s.vars[0] - s.vars[1] + s.vars[3]) > 2 or 10 // (s.vars[0] - s.vars[1] + s.vars[3]) < -2", True),
    ("_h(s.vars[0] + s.vars[1] * 2) == 3 or _h(s.vars[0] + s.vars[1] * 2) == 4", True),
    ("_h(s.vars[0] + s.vars[1] * 2, s) == 3 or _h(s.vars[0] + s.vars[1] * 2, s) == 4", False),  # handed the state
]


@pytest.mark.parametrize("test, shared", SHARED)
def test_a_part_a_test_asks_again_is_worked_out_once_with_the_same_answers(test, shared):
    """hoist.shared_parts (the trigger check asked in place: each condition works out the line's next
    space): a part asked again is kept where it is first asked, if every way to the later places goes
    through it. Over random values: the same answer or the same error as the test as written, and a
    helper asked at most once where the part is shared."""
    from ruledsl.compiler.hoist import shared_parts

    calls = [0]

    def helper(*args):
        calls[0] += 1
        return args[0] % 5

    once = shared_parts(test, {"_h": helper})
    assert (once != test) == shared
    rng = random.Random(3)
    outcomes = set()
    for _ in range(500):
        s = Vars([rng.randint(-2, 3) for _ in range(4)])
        answers = []
        for text in (test, once):
            calls[0] = 0
            try:
                answers.append(eval(text, {"_h": helper, "s": s}))  # noqa: S307 - the test's own text
            except ZeroDivisionError as exc:
                answers.append(str(exc))
            outcomes.add(str(answers[-1]))
        assert answers[0] == answers[1], (test, s.vars)
        if shared:
            assert calls[0] <= 1
    assert len(outcomes) >= 2


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
            fast = game.program.flow.fast[state.choice]
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


MATCH = """\
game "Match"
players 2..3
limit 300 moves

enum colour { red "R", green "G", blue "B" }
kind tile {
  colour: colour
  rank: 1..4
  show "{colour}{rank}"
}
cards 2 * tile(colour: {red, green, blue}, rank: 1..4) in deck

zone deck: pile hidden
zone pile: pile public
zone hand[player]: row owner
zone drawn[player]: row owner
var now: colour = red

define fits(c) = c.colour == now or c.rank == top(pile).rank

flow {
  shuffle deck
  for p in players { deal 3 from deck into hand[p] }
  START
  turns from 0 until any(each p in players where empty(hand[p])) {
    choose turn by current {
      move play(c in hand[current]) where fits(c) {
        put c into pile
        now = c.colour
      }
      move draw where not empty(deck) and not any(each c in hand[current] where fits(c)) {
        let d = top(deck)
        put d into drawn[current]
        choose drawn_card by current {
          move play_drawn where fits(d) or bottom(pile).rank == d.rank {
            put d into pile
          }
          move keep {
            put d into hand[current]
          }
        }
      }
      when no move: end game
    }
  }
}

winner(p): lowest size(hand[p])
"""


def _fits(state, c) -> bool:
    """The rule `fits(c)` worked out by hand from the state (the pile is not empty)."""
    p = state.program
    pile = state.zones[state.zone_id("pile")]
    colour, rank = p.card_attrs["colour"], p.card_attrs["rank"]
    return colour[c] == state.vars[0] or rank[c] == rank[pile[-1]]


def _turns(game, seeds):
    """Whole games of 2 and 3 players, each played both ways against the step interpreter, then again
    with random moves: at each `turn` decision, (the state, its legal moves, the mover's hand, the deck)."""
    import step_interpreter

    for n in (2, 3):
        for seed in seeds:
            step_interpreter.play_both_ways(game, n, seed)
            state = game.new_game(n, seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_moves()
                if state.decision == "turn":
                    yield (state, legal, state.zones[state.zone_id(f"hand[{state.actor}]")],
                           state.zones[state.zone_id("deck")])
                state._apply(legal[rng.randrange(len(legal))])


def test_a_condition_reading_a_piles_top_card_is_tabled_and_lists_as_the_rule_says():
    """`c.rank == top(pile).rank` in a card's condition: the table's key holds the top card's rank
    (purity.py), for a move over the hand, a move of a `let` card (with `bottom(pile)`) and an `any`.
    Whole games against the step interpreter (the options' own closures; the `any` is shared by both,
    so it is checked against the rule worked out by hand), and the tables were used."""
    game = ruledsl.loads(MATCH.replace("START", "put top(deck) into pile"))
    listing = game.python_listing()
    assert listing.count("if s.zones[") + listing.count("if _s_zones[") >= 3  # the key's card ends
    assert "_Xrows" in listing and "_nocard" in listing
    draws = 0
    for state, legal, hand, deck in _turns(game, range(10)):
        assert [m.args[0] for m in legal if m.name == "play"] == [c for c in hand if _fits(state, c)]
        assert (Move("draw") in legal) == (bool(deck) and not any(_fits(state, c) for c in hand))
        draws += Move("draw") in legal
    assert draws > 0
    assert any(len(t.rows) for t in game.program.flow.ns.values() if type(t).__name__ == "CardTable")


def test_a_tabled_condition_meets_an_empty_pile_as_the_rule_does():
    """While the pile is empty the key holds NO_CARD; a card whose condition reads the top card then
    fails at the rule, the same error as the options' own closures give; one whose condition holds
    before (its colour) is listed. Each first turn of games from many seeds, against the step
    interpreter."""
    import step_interpreter

    from ruledsl.language.errors import RulesRuntimeError

    text = MATCH.replace("START", "choose start by current { move go { } }")
    game = ruledsl.loads(text.replace("deal 3", "deal 1"))  # one card: red (listed) or not (a failure)
    failed = listed = 0
    for n in (2, 3):
        for seed in range(20):
            fast = game.new_game(n, seed)
            slow = fast.clone()
            try:  # the steps: the turn's moves listed by the closures
                step_interpreter.apply(slow, Move("go"))
                plain = None
            except RulesRuntimeError as exc:
                plain = (str(exc), exc.span)
            try:
                fast._apply(Move("go"))
            except RulesRuntimeError as exc:
                failed += 1
                assert (str(exc), exc.span) == plain
                continue
            listed += 1
            assert plain is None and fast.legal_moves() == slow.legal_moves()
    assert failed and listed


@pytest.mark.parametrize("draw_when, reused", [
    ("not any(each c in hand[current] where fits(c))", True),   # the play move's cards and condition
    ("not any(each d in hand[current] where fits(d))", True),   # the same, its card named otherwise
    ("not any(each c in hand[current] where c.colour == now)", False),   # another condition
    ("not any(each c in drawn[current] where fits(c))", False),  # other cards
    ("not any(each c in hand[next(current)] where fits(c))", False),  # another player's hand
])
def test_an_any_over_an_earlier_moves_cards_is_whether_that_move_was_listed(draw_when, reused):
    """`move draw where ... not any(each c in hand[current] where fits(c))` after `move play(c in
    hand[current]) where fits(c)`: the listing asks whether play listed a move instead of asking the
    `any` again (compiler/listed.py), only where the cards and the condition are the same.
    Whole games, 2 and 3 players, against the step interpreter (each option's own closures) and
    against the rule worked out by hand; both answers of the `any` were met."""
    game = ruledsl.loads(MATCH.replace("START", "put top(deck) into pile").replace(
        "not empty(deck) and not any(each c in hand[current] where fits(c))", f"not empty(deck) and {draw_when}"))
    listing = game.python_listing()
    assert ("= len(out) >" in listing) == reused  # whether the play move listed a move (listed.py)
    turn = listing[listing.index("def _m0("):listing.index("def _m1(")]
    assert (re.search(r"_d\d+\(s, L\)", turn) is None) == reused
    seen = set()
    for state, legal, hand, deck in _turns(game, range(12)):
        if reused:
            some = any(_fits(state, c) for c in hand)
            assert (Move("draw") in legal) == (bool(deck) and not some)
            seen.add(some)
    assert seen == ({False, True} if reused else set())


def test_a_pass_allowed_only_to_who_cannot_play_is_listed_as_the_steps_list_it():
    """Trolley Car's `move pass where empty(deck) and not can_play(current)` asks whether the play move
    (the same cards, the same condition) listed a move; whole rounds of 4 to 6 players, where the deck
    runs out early, against the step interpreter, and passes were made."""
    import step_interpreter

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    game.new_game(2, 0)
    assert "= len(out) >" in game.python_listing()  # whether the play move listed a move (listed.py)
    passes = 0
    for n in (4, 5, 6):
        for seed in range(3):
            fast = step_interpreter.play_both_ways(game, n, seed)[0]
            passes += sum(m.name == "pass" for m in fast.moves)
    assert passes > 0


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_stretch_calls_the_stretches_it_jumps_to_only_off_loops_and_is_charged_their_work(path):
    """A stretch on no loop of the flow returns the value of the stretch it jumps out to, called in
    place (compiler/branches.py); its weight (the units of work State._run charges it) covers its
    callees' (so the work bound stays an upper bound); a stretch on a loop still returns the step,
    so each round of the loop is charged through State._run. The State's lists are bound to locals
    (flowgen._alias) before their first use, not always at the top. (tests/test_generated.py plays
    every game through these calls against the step interpreter.)"""
    from ruledsl.compiler.branches import exits, on_loops
    from ruledsl.compiler.flowgen import MAX_FOLLOW, MAX_TRACE

    game = ruledsl.load(path)
    game.new_game(4 if "partnership" in path.stem else 2, 0)
    flow = game.program.flow
    code = game.program.code
    leaders = [pc for pc, fn in enumerate(flow.blocks) if fn is not None]
    looping = on_loops({pc: exits(code, pc, MAX_TRACE, MAX_FOLLOW) for pc in leaders})
    assert not looping & flow._calling
    calls = 0
    for pc, text in re.findall(r"^def _b(\d+)\(s, L\):\n(.*?)(?=^def |\Z)", flow.source, re.S | re.M):
        callees = [int(x) for x in re.findall(r"return _b(\d+)\(s, L\)", text)]
        uses = [line for line in text.splitlines() if re.search(r"\b_s_\w+", line)]
        assert not uses or re.match(r"    _s_\w+ = s\.\w+(; |$)", uses[0]), (pc, uses[0])  # bound before use
        if int(pc) not in flow._calling:
            assert not callees, pc
        for x in callees:
            assert flow.weights[int(pc)] >= flow.weights[x] + 1, (pc, x)
        calls += len(callees)
    assert calls > 0


def test_the_stretches_on_a_loop_are_found():
    """branches.on_loops over a small step list: a `while` whose test and body go round through two
    stretches; the stretch after it (reached from the loop's exit) is on no loop."""
    from ruledsl.compiler.branches import exits, on_loops, reached
    from ruledsl.compiler.steps import CHOOSE, EFFECT, JUMP, JUMP_IF_NOT

    at = None
    code = [(EFFECT, None, None, at),         # 0
            (JUMP_IF_NOT, None, 5, at),       # 1: while ... (the exit: 5)
            (JUMP_IF_NOT, None, 4, at),       # 2:   if ... else 4
            (JUMP, 1, None, at),              # 3:   back to the test
            (JUMP, 1, None, at),              # 4:   back to the test
            (JUMP_IF_NOT, None, 7, at),       # 5: if ... else 7
            (CHOOSE, 0, None, at),            # 6
            (CHOOSE, 0, None, at)]            # 7
    leaders = [0, 1, 4, 5, 7]
    assert on_loops({pc: exits(code, pc, 400, 60) for pc in leaders}) == {1, 4}
    assert reached(5, {5: {5, 6}, 7: {7}}, {5: {7}}) == {5, 6, 7}


def test_calls_between_stretches_nest_no_deeper_than_the_bound():
    """A long chain of `if`s between two decisions: each `if` ends a stretch, each stretch calls the
    next; past branches.MAX_DEPTH a stretch returns the step instead (State._run calls on), so a
    file's length cannot exhaust Python's stack. Played against the step interpreter."""
    import step_interpreter

    from ruledsl.compiler.branches import MAX_DEPTH

    ifs = "\n".join(f"      if x == {k} {{ x += 1 }}" for k in range(3 * MAX_DEPTH))
    text = f"""\
game "Chain"
players 2..2
limit 40 moves
var x: int = 0
flow {{
  turns from 0 until x > 1000 {{
    choose turn by current {{
      move step {{
      x = 0
{ifs}
      }}
      move jump {{
      x = 1
{ifs}
      }}
    }}
  }}
}}
winner(p): highest x
"""
    game = ruledsl.loads(text)
    game.new_game(2, 0)
    flow = game.program.flow
    callees = {int(pc): [int(x) for x in re.findall(r"return _b(\d+)\(s, L\)", body)]
               for pc, body in re.findall(r"^def _b(\d+)\(s, L\):\n(.*?)(?=^def |\Z)", flow.source, re.S | re.M)}

    @functools.cache
    def depth(pc):
        return 1 + max((depth(x) for x in callees[pc]), default=0)

    deepest = max(depth(pc) for pc in callees)
    assert MAX_DEPTH // 2 < deepest <= MAX_DEPTH
    for seed in range(3):
        state, _ = step_interpreter.play_both_ways(game, 2, seed)
        assert state.vars[0] == 3 * MAX_DEPTH


ANSWERED = """\
game "Answered"
players 2..3
limit 300 moves

enum colour { red "R", green "G", blue "B", any_colour "A" }
kind tile {
  colour: colour
  rank: 1..4
  show "{colour}{rank}"
}
cards 2 * tile(colour: {red, green, blue}, rank: 1..4) + 2 * tile(colour: any_colour, rank: 1..2) in deck

zone deck: pile hidden
zone pile: pile public
zone hand[player]: row owner
var now: colour = red

define fits(c) = c.colour != any_colour and (c.colour == now or c.rank == top(pile).rank)
define joker(c, p) = c.colour == any_colour and (c.rank == 1 or not any(each d in hand[p] where d.colour == now))
define can_play(p) = any(each c in hand[p] where fits(c) or joker(c, p))

flow {
  shuffle deck
  for p in players {
    deal 8 from deck into hand[p]
  }
  put top(deck) into pile
  turns from 0 until any(each p in players where empty(hand[p])) {
    choose turn by current {
      move play(c in hand[current]) where fits(c) {
        put c into pile
        now = c.colour
      }
      move play_joker(c in hand[current], k in colour) where k != any_colour and joker(c, current) {
        put c into pile
        now = k
      }
      move draw where not empty(deck) and not can_play(current) {
        put top(deck) into hand[current]
      }
      move pass where empty(deck) and not any(each c in hand[current] where joker(c, current)) {
      }
      move pass_high where empty(deck) and not any(each c in hand[current] where fits(c) or c.rank == 4) {
      }
      when no move: end game
    }
  }
}

winner(p): lowest size(hand[p])
"""


def test_an_any_the_moves_listed_before_answer_is_read_from_the_listing():
    """`draw` asks `any(each c in hand where fits(c) or joker(c, p))`, the conditions under which
    `play` and `play_joker` (whose colour `k` some value passes) list a card: the listing reads
    whether they listed a move (listed.py) instead of asking the `any` again; `pass` reads
    `play_joker`'s alone; `pass_high`'s `c.rank == 4` no option lists, so it asks its `any`. Whole
    games against the step interpreter (the options' own closures), with turns that drew, passed
    and played a joker."""
    import step_interpreter

    game = ruledsl.loads(ANSWERED)
    options = {o.name: o for o in game.program.choices[0].options}
    assert options["draw"].listed_from == ((0, 1),) and options["pass"].listed_from == ((1, 1),)
    assert options["pass_high"].listed_from == () and options["pass_high"].listed_where is None
    listing = game.python_listing()
    assert "_ls0_1 = len(out) > 0" in listing and "_ls1_1 = len(out) > _lb1" in listing
    # play_joker's loop: over the hand itself (no copy), its card in a Python local (no slot of L)
    assert re.search(r"for _x\d+ in \((_s_|s\.)zones\[", listing)
    seen = {"draw": 0, "pass": 0, "pass_high": 0, "play_joker": 0}
    for n in (2, 3):
        for seed in range(25):
            state, _ = step_interpreter.play_both_ways(game, n, seed)
            for m in state.moves:
                if m.name in seen:
                    seen[m.name] += 1
    assert all(seen.values()), seen


def test_an_any_is_answered_only_by_options_that_list_what_it_asks():
    """No answer from an option whose other argument no value passes, or has no value (it lists
    nothing, though cards fit), nor where a condition reads a local the listings before may
    overwrite; an answer from an option whose other argument some value passes."""
    turn = """\
    choose turn by current {
      move never(c in hand[current], k in colour) where k == red and k == blue and fits(c) {
      }
      move fine where not any(each c in hand[current] where fits(c)) {
      }
      move no_rank(c in hand[current], r in 3..2) where fits(c) {
      }
      move fine_three where not any(each c in hand[current] where fits(c)) {
      }
      move red_only(c in hand[current], k in colour) where k == red and fits(c) {
      }
      move fine_too where not any(each c in hand[current] where fits(c)) {
      }
      move mine where not any(each c in hand[current] where fits(c) and c != d) {
      }
      when no move: end game
    }"""
    start = ANSWERED.index("    choose turn by current {")
    end = ANSWERED.index("\n\nwinner")
    text = ANSWERED[:start] + "    let d = top(pile)\n" + turn + "\n  }\n}" + ANSWERED[end:]
    game = ruledsl.loads(text)
    options = {o.name: o for o in game.program.choices[0].options}
    assert options["fine"].listed_from == () and options["fine_three"].listed_from == ()
    assert options["fine_too"].listed_from == ((4, 4),)
    assert options["mine"].listed_from == ()


CHAIN = """\
game "Chain"
players 2..2
limit 60 moves

kind chip {
  rank: 1..4
}
cards 2 * chip(rank: 1..4) in pool

zone pool: pile hidden
zone pile: pile public
var x: int = 0
var y: int = 0

flow {
  shuffle pool
  while y < 40 {
    choose go by 0 {
      move pick(k in 1..5) {
        x = k
      }
      move take where not empty(pool) {
        put top(pool) into pile
      }
    }
    if x == 1 {
      y += 1
    } else if x == 2 {
      y += 2
    } else if top(pile).rank == 3 {
      y += 3
    } else if x == 4 {
      y += 4
    } else {
      y += 5
    }
  }
}

winner(p): highest y
"""


def test_a_chain_of_tests_is_asked_in_one_stretch_and_fails_as_the_steps_do():
    """After a move, an `if`/`else if` chain: the stretch asks the tests of the stretches it jumps to
    in place (flowgen._jump_out), nested, and jumps from there. Random moves against the step
    interpreter: the same states, and where a test fails (the top card of an empty pile) the same
    finding at the same rules line."""
    import step_interpreter

    from ruledsl.language.errors import RulesRuntimeError

    game = ruledsl.loads(CHAIN)
    game.new_game(2, 0)
    source = game.program.flow.source
    assert re.search(r"^        if not \(.*\n            if not \(", source, re.M)  # a test inside a test
    failed = played = 0
    for seed in range(40):
        state = game.new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_moves()
            assert legal == step_interpreter.legal_moves(state)
            move = legal[rng.randrange(len(legal))]
            slow = state.clone()
            try:
                step_interpreter.apply(slow, move)
                plain = None
            except RulesRuntimeError as exc:
                plain = (str(exc), exc.span)
            try:
                state._apply(move)
            except RulesRuntimeError as exc:
                assert (str(exc), exc.span) == plain
                failed += 1
                break
            assert plain is None and state == slow
            played += 1
    assert failed and played


def test_a_move_listed_by_another_decision_takes_the_way_by_name():
    """Each decision has its own map of the moves it lists (Flow.fast[decision]): Trolley Car's
    `declare` and `turn` both have a move `pass`, two Move objects. Declare's `pass` made at a turn
    is not in the turn's map and runs the turn's `pass` (found by name), as the turn's own object
    does; in the declaration's map, it runs the declaration's. Whole rounds, every pass at a turn."""
    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    checked = 0
    for seed in range(12):
        state = game.new_game(3, seed)
        fast = game.program.flow.fast
        names = [c.name for c in game.program.choices]
        declare, turn = names.index("declare"), names.index("turn")
        declared_pass = None
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_moves()
            passes = [m for m in legal if m.name == "pass"]
            if state.choice == declare and passes:
                declared_pass = passes[0]
                assert id(declared_pass) in fast[declare] and id(declared_pass) not in fast[turn]
            elif state.choice == turn and passes and declared_pass is not None:
                own = passes[0]
                assert own is not declared_pass and id(own) in fast[turn]
                other = state.clone()
                state._apply(own)
                other._apply(declared_pass)
                assert other == state and other.to_json() == state.to_json()
                assert other.legal_moves() == state.legal_moves()
                checked += 1
                continue
            state._apply(legal[rng.randrange(len(legal))])
    assert checked > 0


HELD = MATCH[:MATCH.index("zone deck")].replace('"Match"', '"Held"') + """\
zone deck: pile hidden
zone pile: pile public
zone hand[player]: row owner
zone aside[colour]: pile public
var count[colour]: int = 0
var fired: int = 0
var last: colour = red

trigger three for k in colour when count[k] >= 2 {
  count[k] = 0
  fired += 1
  last = k
}
trigger tall when size(pile) > 3 {
  put top(pile) into aside[last]
}

flow {
  shuffle deck
  for p in players { deal 4 from deck into hand[p] }
  turns from 0 until any(each p in players where empty(hand[p])) {
    choose turn by current {
      move play(c in hand[current]) {
        put c into pile
        count[c.colour] += 1
      }
      move draw where not empty(deck) {
        put top(deck) into hand[current]
      }
    }
  }
}
"""


def test_fire_starts_from_the_trigger_the_check_in_place_found():
    """The check in place leaves the number of its first test that held (`_held`), and _fire starts
    from that trigger and value, setting the trigger variables as its own check would (the earlier
    triggers' variables at their last value), without asking the conditions again. Two triggers,
    one over the three colours and one without a variable, declared in that order: games for 2 and 3
    players against the step interpreter (which asks every condition), and each of the four tests
    was the one that held first at some point, the one after the colours too."""
    import step_interpreter

    game = ruledsl.loads(HELD)
    game.new_game(2, 0)
    flow = game.program.flow
    assert "def _fire(s, L, held=0):" in flow.source and "_fire(s, L, _held)" in flow.source
    names = flow.fire.__globals__
    real, held = names["_fire"], []

    def recording(s, L, number=0):
        held.append(number)
        return real(s, L, number)

    names["_fire"] = recording
    try:
        for seed in range(30):
            for n in (2, 3):
                step_interpreter.play_both_ways(game, n, seed)
    finally:
        names["_fire"] = real
    assert {1, 2, 3, 4} <= set(held) and 0 not in held


SWAP = """\
game "Swap"
players 2..3
limit 200 moves

enum colour { red "R", blue "B" }
kind tile {
  colour: colour
  rank: 1..5
  show "{colour}{rank}"
}
cards 2 * tile(colour: {red, blue}, rank: 1..5) in deck

zone deck: pile hidden
zone hand[player]: row owner
zone shelf[player]: pile public

define strength(p) = sum(c.rank for each c in hand[p])
define reds(p) = cards(each c in shelf[p] where c.colour == red)

flow {
  shuffle deck
  for p in players { deal 4 from deck into hand[p] }
  turns from 0 until empty(deck) {
    choose turn by current {
      move swap(c in hand[current], d in reds(current)) where c.rank > top(shelf[current]).rank and d.rank != c.rank {
        put c into shelf[current]
        put d into hand[current]
      }
      move give(q in players, c in shelf[q]) where q != current and strength(current) > 6 and c.rank < 4 {
        put c into hand[current]
      }
      move hit(q in players) where q != current and strength(current) >= strength(q) {
        put top(deck) into shelf[q]
      }
      move shelve(c in hand[current]) { put c into shelf[current] }
      move draw { put top(deck) into hand[current] }
    }
  }
}

winner(p): highest strength(p)
"""


def test_a_listing_asks_what_does_not_read_an_argument_once_and_only_where_the_loops_would():
    """A move of two arguments whose inner values are not constant: the leading tests that never read
    the inner argument are asked once an outer value, only once its inner values are known to be some
    (`top(shelf[current])` fails on an empty shelf, which has no red card either: asked before that
    check, the first turn would fail); inner values that never read the outer argument are worked out
    once a listing (hoist.guarded_tests, flowgen). A move of one argument asks a define's call that does
    not read it once a listing (hoist.loop_calls with its own names). Whole games, 2 and 3 players,
    against the step interpreter (the options' own closures, asked move by move); each move was offered."""
    import step_interpreter

    game = ruledsl.loads(SWAP)
    game.new_game(2, 0)
    listing = game.python_listing()
    swap = listing[listing.index("move swap"):listing.index("move give")]
    assert re.search(r"_w\d+ = None", listing) and re.search(r"if _w\d+ is None: _w\d+ = ", swap)
    assert swap.index("if _w") < swap.index("_empty")  # the guard before the test that can fail
    give = listing[listing.index("move give"):listing.index("move hit")]
    assert "is None:" not in give  # its inner values read the outer argument: worked out for each
    assert re.search(r"_c\d+_0 := _d\d+\(s, L\)", listing)  # strength(current) once in hit's listing
    offered = set()
    for n in (2, 3):
        for seed in range(8):
            _, made = step_interpreter.play_both_ways(game, n, seed)
            offered |= {m.name for m in made}
    assert offered == {"swap", "give", "hit", "shelve", "draw"}


LISTED = """\
game "Listed"
players 2..4
limit 200 moves

kind chip {
  rank: 1..5
}
cards 4 * chip(rank: 1..5) in pool

zone pool: pile hidden
zone pile: pile public
zone hand[player]: row owner
zone kept[player]: row owner
var rounds: int = 0

flow {
  shuffle pool
  for p in players { deal 4 from pool into hand[p] }
  put top(pool) into pile
  turns from 0 until rounds >= 30 or empty(pool) {
    choose turn by current {
      move lay(c in hand[current]) where c.rank > size(kept[current]) {
        put c into pile
      }
      move raise(c in hand[current] + kept[current]) where c.rank + size(kept[current]) >= top(pile).rank {
        put c into kept[current]
      }
      move ask(p in players) where p != current and size(hand[p]) > size(hand[current]) {
        put top(hand[p]) into hand[current]
      }
      move draw {
        put top(pool) into hand[current]
      }
      move take where not empty(pile) {
        put top(pile) into hand[current]
      }
    }
    rounds += 1
  }
}

winner(p): highest size(kept[p])
"""


def test_a_listing_over_one_argument_is_a_plain_loop_and_lists_as_the_steps_do():
    """A move of one argument whose condition has no table (it reads a zone's size) is listed by a
    plain loop in the generated code, not a comprehension (a call of its own in Python 3.11): over a
    zone, over joined zones and over the players (the argument in a Python local). Random moves
    against the step interpreter: the same moves at every turn, and where the condition fails (the
    top card of an empty pile) the same finding at the same rules line."""
    import step_interpreter

    from ruledsl.language.errors import RulesRuntimeError

    game = ruledsl.loads(LISTED)
    game.new_game(2, 0)
    source = game.program.flow.source
    assert "out += [" not in source and "for _x" in source
    failed = listed = 0
    for n in (2, 3, 4):
        for seed in range(25):
            state = game.new_game(n, seed)
            rng = random.Random(seed)
            legal = state.legal_moves()
            while not state.is_over:
                assert legal == step_interpreter.legal_moves(state)
                listed += sum(m.name in ("lay", "raise", "ask") for m in legal)
                move = legal[rng.randrange(len(legal))]
                slow = state.clone()
                try:  # the steps make the move, then list the next decision's moves
                    step_interpreter.apply(slow, move)
                    plain = None if slow.is_over else step_interpreter.legal_moves(slow)
                except RulesRuntimeError as exc:
                    plain = (str(exc), exc.span)
                try:  # the generated code lists them where the move's code stops
                    state._apply(move)
                    legal = state.legal_moves()
                except RulesRuntimeError as exc:
                    assert (str(exc), exc.span) == plain
                    failed += 1
                    break
                assert plain is None or legal == plain
    assert failed and listed


QUIET = """\
game "Quiet"
players 2..3
limit 150 moves

kind chip {
  rank: 1..6
}
cards 2 * chip(rank: 1..6) in deck

zone deck: pile hidden
zone pot: pile public
zone heap: pile public
zone hand[player]: row owner
var sweeps: int = 0
var trims: int = 0

trigger full_pot when size(pot) >= 3 {
  while not empty(pot) { put top(pot) into heap }
  sweeps += 1
}
trigger big_hand for p in players when size(hand[p]) >= 4 {
  put top(hand[p]) into heap
  trims += 1
}
trigger low_deck when size(deck) < 3 and not empty(heap) {
  put top(heap) into deck
}

flow {
  shuffle deck
  for p in players { deal 1 from deck into hand[p] }
  turns from 0 until sweeps >= 4 {
    choose turn by current {
      move draw where not empty(deck) {
        put top(deck) into hand[current]
      }
      move give(c in hand[current]) {
        put c into pot
      }
    }
  }
}

winner(p): lowest size(hand[p])
"""


def test_a_check_after_an_effect_asks_the_triggers_that_read_what_it_changed():
    """After an effect, the first round of `_fire` asks only the triggers that read a family the
    effect changed (every other one was false at the last check and reads nothing that changed), and
    leaves their variables as a full check would. Random games against the step interpreter, which
    asks every trigger after every watched effect: the same states (trigger variables included) and
    the same firings. A position set by hand (a full pot, then a move that changes only the deck and
    a hand) makes the next check ask every trigger again, as the steps do."""
    import step_interpreter

    game = ruledsl.loads(QUIET)
    game.new_game(2, 0)
    fire = game.program.flow.source.split("def _fire(s, L, ch=-1):", 1)[1].split("\ndef ", 1)[0]
    assert "if not s._quiet:" in fire and fire.count(" and ch & ") == 2  # big_hand and low_deck: asked if touched
    fired = set()
    for n in (2, 3):
        for seed in range(20):
            state, _ = step_interpreter.play_both_ways(game, n, seed)
            fired.update(name for name in ("sweeps", "trims") if state.get_var(name))  # counts only grow
    assert fired == {"sweeps", "trims"}
    for n in (2, 3):
        state = game.new_game(n, 5)
        while state.get_var("sweeps") or not any(m.name == "draw" for m in state.legal_moves()):
            state = game.new_game(n, state.seed + 1)
        for label in state.cards_in("deck")[:3]:  # a full pot, set by hand: no trigger ran
            state.place(label, "pot")
        slow = state.clone()
        draw = next(m for m in state.legal_moves() if m.name == "draw")
        step_interpreter.apply(slow, draw)
        state.apply(draw)
        assert state == slow and state.get_var("sweeps") == 1 and not state.zones[state.zone_id("pot")]
