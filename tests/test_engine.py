"""The engine: state as data, legal moves, refused moves, saves, findings and language semantics."""

import json
import textwrap

import pytest

import ruledsl
from ruledsl import IllegalMove, Move, RulesRuntimeError, SaveError

# A small game that exercises most statements: deal, decisions with card
# parameters, a shared track slot, a trigger, a reveal grant and scoring.
SMALL = textwrap.dedent("""\
    game "Small"
    players 2..3
    limit 200 moves
    enum colour { red, black }
    kind chip { colour: colour  value: 1..4 }
    deck chips = chip(colour: each, value: each)
    cards 2 * chips in pool

    zone pool: pile hidden
    zone hand[player]: row owner
    zone shown: row public
    zone path[colour]: track(8) public
    zone won[player]: pile top
    connect path[red] 2 = path[black] 1

    var points[player]: int = 0
    var steps[colour]: int = 0
    var bonus: int = 0

    trigger reward for c in colour when steps[c] == 2 {
      bonus += 1
      steps[c] = 3
    }

    invariant bonus_small: bonus <= 2 "at most one bonus per path"

    flow {
      shuffle pool
      for p in players { deal 3 from pool into hand[p] }
      turns from 0 until empty(pool) or all(each p in players where empty(hand[p])) {
        choose turn by current {
          move lay(c in hand[current]) where c.value > 1 and steps[c.colour] < 8
                                            and not occupied(path[c.colour], steps[c.colour]) {
            put c into path[c.colour] at steps[c.colour]
            steps[c.colour] += 1
            points[current] += c.value
          }
          move draw where not empty(pool) {
            put top(pool) into hand[current]
          }
          move show(c in hand[current]) {
            put c into shown
          }
        }
      }
    }

    define score(p) = points[p]
    winner(p): highest score(p)
    """)


@pytest.fixture(scope="module")
def small():
    return ruledsl.loads(SMALL, "small.rules")


def play_random(state, seed=0, limit=500):
    import random

    r = random.Random(seed)
    while not state.is_over and limit:
        state.apply(r.choice(state.legal_moves()))
        limit -= 1
    return state


def test_new_game_reaches_first_decision(small):
    s = small.new_game(players=2, seed=1)
    assert s.current_player == 0
    assert s.decision == "turn"
    assert len(s.view(0)["zones"]["hand[0]"]) == 3
    assert not s.is_over


def test_card_universe_and_labels(small):
    p = small.program
    assert p.card_count == 16
    assert p.card_labels[0] == "chip(colour: red, value: 1)"


def test_illegal_move_is_refused_and_changes_nothing(small):
    s = small.new_game(players=2, seed=1)
    before = s.clone()
    with pytest.raises(IllegalMove) as info:
        s.apply(Move("jump"))
    assert "whose moves are draw, lay, show" in str(info.value)
    not_in_hand = next(c for c in range(16) if c not in s.zones[s.zone_id("hand[0]")])
    with pytest.raises(IllegalMove, match="it is not allowed now"):
        s.apply(Move("show", (not_in_hand,)))
    with pytest.raises(IllegalMove):
        s.apply("show(x)")
    assert s == before


def test_clone_is_independent_and_equal(small):
    s = small.new_game(players=2, seed=2)
    c = s.clone()
    assert c == s and hash(c) == hash(s)
    c.apply(c.legal_moves()[0])
    assert c != s


def test_determinism_and_replay(small):
    a = play_random(small.new_game(players=3, seed=5), seed=9)
    b = small.replay(3, 5, list(a.moves))
    assert a == b
    assert a.scores == b.scores


def test_json_round_trip(small):
    s = small.new_game(players=2, seed=4)
    s.apply(s.legal_moves()[0])
    back = small.state_from_json(s.to_json())
    assert back == s
    assert back.legal_moves() == s.legal_moves()


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: "not json", "not a saved state: the text is not JSON"),
    (lambda d: {**d, "format": "other"}, "not a saved ruledsl state"),
    (lambda d: {**d, "version": 99}, "saved with format version 99"),
    (lambda d: {**d, "players": 9}, "field 'players' should be a player count from 2 to 3"),
    (lambda d: {**d, "zones": d["zones"][:-1]}, "field 'zones' should be a list of"),
    (lambda d: {**d, "places": [0] + d["places"][1:]}, "card 0 (chip(colour: red, value: 1)) is in 2 places"),
    (lambda d: {**d, "rng": -1}, "field 'rng' should be the generator's 64-bit state"),
    (lambda d: {**d, "game": "Other"}, "the save is of the game 'Other'"),
])
def test_corrupt_saves_are_refused_with_a_reason(small, mutate, reason):
    s = small.new_game(players=2, seed=4)
    data = json.loads(s.to_json())
    bad = mutate(data)
    text = bad if isinstance(bad, str) else json.dumps(bad)
    with pytest.raises(SaveError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        small.state_from_json(text)


def test_shared_slot_is_one_place(small):
    s = small.new_game(players=2, seed=1)
    cid = s.place("chip(colour: red, value: 3)", "path[red]", 2)
    assert s.cards_in("path[black]")[1] == "chip(colour: red, value: 3)"
    assert s.card_locations()[cid] == ["path[red] slot 2"]
    with pytest.raises(ruledsl.ParameterError, match="already holds"):
        s.place("chip(colour: black, value: 3)", "path[black]", 1)


def test_trigger_fires_after_the_effect_that_makes_it_true(small):
    s = small.new_game(players=2, seed=1)
    s.stack("hand[0]", ["chip(colour: red, value: 2)", "chip(colour: red, value: 3)"])
    red = [m for m in s.legal_moves() if m.name == "lay"
           and s.program.card_labels[m.args[0]].startswith("chip(colour: red")]
    s.apply(red[0])
    assert s.get_var("bonus") == 0
    s.apply(s.legal_moves()[-1])  # player 1 shows a card
    red = [m for m in s.legal_moves() if m.name == "lay"
           and s.program.card_labels[m.args[0]].startswith("chip(colour: red")]
    s.apply(red[0])
    assert s.get_var("steps[red]") == 3  # the trigger moved it on from 2
    assert s.get_var("bonus") == 1


def test_views_hide_what_a_player_may_not_see(small):
    s = small.new_game(players=2, seed=3)
    v0, v1 = s.view(0), s.view(1)
    assert "?" not in v0["zones"]["hand[0]"]
    assert v1["zones"]["hand[0]"] == ["?", "?", "?"]
    assert set(v0["zones"]["pool"]) == {"?"}
    assert "legal_moves" in v0 and "legal_moves" not in v1


def test_top_visibility_shows_only_the_top_card(small):
    s = small.new_game(players=2, seed=3)
    s.place("chip(colour: red, value: 1)", "won[0]")
    s.place("chip(colour: red, value: 4)", "won[0]")
    assert s.view(1)["zones"]["won[0]"] == ["?", "chip(colour: red, value: 4)"]


def test_game_ends_and_ranks_winners(small):
    s = play_random(small.new_game(players=2, seed=7), seed=3)
    assert s.is_over and s.legal_moves() == [] and s.current_player == -1
    best = max(s.scores)
    assert s.winners == [i for i, v in enumerate(s.scores) if v == best]
    with pytest.raises(IllegalMove, match="the game is over"):
        s.apply(Move("draw"))


def test_declared_invariants_are_evaluated(small):
    s = small.new_game(players=2, seed=7)
    assert s.broken_invariants() == []
    s.set_var("bonus", 5)
    assert s.broken_invariants() == ["invariant `bonus_small` is broken: at most one bonus per path"]


def test_player_count_out_of_range(small):
    with pytest.raises(ruledsl.ParameterError, match="Small is for 2 to 3 players, not 7"):
        small.new_game(players=7)


def rules(body: str) -> ruledsl.Game:
    head = 'game "T"\nplayers 1..2\nlimit 50 moves\nenum c { a }\nkind k { n: 1..3 }\ncards k(n: each) in z\n'
    head += "zone z: pile public\nzone y: pile public\nvar x: int = 0\n"
    return ruledsl.loads(head + textwrap.dedent(body), "t.rules")


def test_endless_loop_is_a_finding_not_a_hang():
    g = rules("flow { while true { x += 1 } }\n")
    with pytest.raises(RulesRuntimeError, match="without asking any player to move") as info:
        g.new_game(players=1)
    assert info.value.span.line == 10


def test_endless_trigger_is_a_finding():
    g = rules("trigger loop when x >= 0 { x += 1 }\nflow { x = 1 }\n")
    with pytest.raises(RulesRuntimeError, match="trigger `loop` keeps firing"):
        g.new_game(players=1)


def test_move_bound_stops_the_game_with_a_finding():
    g = rules("flow { while true { choose go by 0 { move again {} } } }\n")
    s = g.new_game(players=1)
    while not s.is_over:
        s.apply("again")
    assert len(s.moves) == 50
    assert s.finding == "the game reached its limit of 50 moves without ending"
    assert s.winners == []


def test_runtime_error_in_a_move_leaves_the_state_unchanged():
    g = rules("flow { choose go by 0 { move take { put top(y) into z } } }\n")
    s = g.new_game(players=1)
    before = s.clone()
    with pytest.raises(RulesRuntimeError, match="the zone is empty"):
        s.apply("take")
    assert s == before


def test_put_under_deal_and_top_n():
    g = rules(textwrap.dedent("""\
        flow {
          put top(z) under y
          deal 5 from z into y
          put top(y, 2) into z
          choose done by 0 { move ok {} }
        }
        """))
    s = g.new_game(players=1)
    # z starts k1 k2 k3 (bottom..top); k3 goes under y, then k2, k1 are dealt (deal stops when z is empty)
    assert s.cards_in("y") == ["k(n: 3)"]
    assert s.cards_in("z") == ["k(n: 1)", "k(n: 2)"]


@pytest.mark.parametrize("end, moved, left", [
    ("top", ["k(n: 3)", "k(n: 2)"], ["k(n: 1)"]),      # the top two, the topmost first
    ("bottom", ["k(n: 1)", "k(n: 2)"], ["k(n: 3)"]),   # the bottom two, the bottommost first
])
def test_top_and_bottom_of_n_cards_take_their_own_end(end, moved, left):
    g = rules(f"flow {{\n  put {end}(z, 2) into y\n  choose done by 0 {{ move ok {{}} }}\n}}\n")
    s = g.new_game(players=1)
    # z holds k1 k2 k3 from the bottom up; the list's cards are put on y one after the other
    assert s.cards_in("y") == moved
    assert s.cards_in("z") == left


def test_reveal_grants_sight_only_during_its_block():
    src = textwrap.dedent("""\
        game "R"
        players 2..2
        kind k { n: 1..2 }
        cards k(n: each) in z
        zone z: pile hidden
        zone hand[player]: row owner
        flow {
          deal 1 from z into hand[0]
          reveal hand[0] to 1 {
            choose look by 1 { move ok {} }
          }
          choose after by 1 { move ok {} }
        }
        """)
    s = ruledsl.loads(src, "r.rules").new_game(players=2)
    assert s.view(1)["zones"]["hand[0]"] == ["k(n: 2)"]
    s.apply("ok")
    assert s.view(1)["zones"]["hand[0]"] == ["?"]


@pytest.mark.parametrize("call, error", [
    (lambda g: ruledsl.loads(123), ruledsl.RulesError),
    (lambda g: ruledsl.loads("flow {}", "x.rules", params=[1]), ruledsl.ParameterError),
    (lambda g: g.new_game(players="2"), ruledsl.ParameterError),
    (lambda g: g.new_game(players=2, seed=1.5), ruledsl.ParameterError),
    (lambda g: g.new_game(players=2).apply(None), IllegalMove),
    (lambda g: g.new_game(players=2).apply(["lay", "x"]), IllegalMove),
    (lambda g: g.new_game(players=2).view(5), ruledsl.ParameterError),
    (lambda g: g.state_from_json(b"\xff"), SaveError),
    (lambda g: g.state_from_json("[]"), SaveError),
    (lambda g: g.new_game(players=2).place("no such card", "shown"), ruledsl.ParameterError),
    (lambda g: g.new_game(players=2).set_var("nothing", 1), ruledsl.ParameterError),
])
def test_bad_input_raises_a_ruledsl_error(small, call, error):
    with pytest.raises(error):
        call(small)


def test_a_card_variable_shows_only_a_card_its_viewer_may_see():
    src = textwrap.dedent("""\
        game "Peek"
        players 2..2
        kind k { n: 1..3 }
        cards k(n: each) in z
        zone z: pile hidden
        zone table: row public
        var chosen: card
        flow {
          chosen = top(z)
          choose look by 0 { move ok {} }
          put chosen into table
          choose again by 0 { move ok {} }
        }
        """)
    s = ruledsl.loads(src, "peek.rules").new_game(players=2)
    assert s.view(0)["vars"]["chosen"] == "?"  # the card lies face down in the deck
    s.apply("ok")
    assert s.view(0)["vars"]["chosen"] == "k(n: 3)"  # now face up on the table
