"""Sampled worlds: a player's hidden cards dealt again, everything the player sees kept in place."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.play.worlds import Knowledge, back_groups, canonical, determinize, hidden_positions

GAMES = Path(__file__).resolve().parent.parent / "games"
PARAMS = {"trolley_car": {"single_round": True}, "tramwaje": {"max_rounds": 3}}
# every game (tramwaje reveals a hand to one player for a while)
FILES = {path.stem: (path, PARAMS.get(path.stem, {}))
         for path in sorted(GAMES.glob("*.rules")) if not path.name.endswith(".test.rules")}


def test_every_game_is_sampled():
    assert {"knockout_whist", "uno", "trambahn", "trolley_car", "tutorial_highlow", "tramwaje"} <= set(FILES)


@lru_cache(maxsize=None)
def game(name: str) -> ruledsl.Game:
    path, params = FILES[name]
    return ruledsl.load(path, params=params)


def position(name: str, seed: int, moves: int):
    """A game after up to ``moves`` random moves (fewer if it ends)."""
    g = game(name)
    s = g.new_game(g.program.min_players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        legal = s.legal_moves()
        s._apply(legal[rng.randrange(len(legal))])
    return s


def visible_places(s, player):
    """Every card the player sees, with where it lies: (card, zone id or -1 - place, index)."""
    out = set()
    for z in s.program.zones:
        if z.places:
            for q in z.places:
                c = s.places[q]
                if c >= 0 and s.card_visible(player, c):
                    out.add((c, -1 - q, 0))
        else:
            for i, c in enumerate(s.zones[z.zid]):
                if s.card_visible(player, c):
                    out.add((c, z.zid, i))
    return out


def assert_agrees(real, world, player):
    p = real.program
    # every visible card stays where it was, and nothing else becomes visible there
    assert visible_places(world, player) == visible_places(real, player)
    # zone sizes and taken slots are kept
    assert [len(z) for z in world.zones] == [len(z) for z in real.zones]
    assert [c >= 0 for c in world.places] == [c >= 0 for c in real.places]
    # conservation: every card in exactly one place, and loc agrees with the zones
    where = world.card_locations()
    assert all(len(places) == 1 for places in where.values()), where
    for zid, cards in enumerate(world.zones):
        assert all(world.loc[c] == zid for c in cards)
    for q, c in enumerate(world.places):
        if c >= 0:
            assert world.loc[c] == -1 - q
    # a hidden card trades places only within its back group
    groups = back_groups(p)
    for zid, i in hidden_positions(real, player):
        before = real.zones[zid][i] if zid >= 0 else real.places[-1 - zid]
        after = world.zones[zid][i] if zid >= 0 else world.places[-1 - zid]
        assert groups[before] == groups[after]
    # the player cannot tell the world from the real game
    assert world.view(player) == real.view(player)
    if real.current_player == player:
        assert world.legal_moves() == real.legal_moves()
    # and the world holds no trace of the real game's generator
    assert world.seed == 0


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(FILES)), seed=st.integers(0, 10_000), moves=st.integers(0, 120),
       observer=st.integers(0, 1), draw=st.integers(0, 2**32))
def test_a_sampled_world_keeps_what_the_player_sees(name, seed, moves, observer, draw):
    real = position(name, seed, moves)
    before = real.clone()
    world = determinize(real, observer, random.Random(draw))
    assert real == before  # the real state is not touched
    assert_agrees(real, world, observer)


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(sorted(FILES)), seed=st.integers(0, 10_000), moves=st.integers(0, 60),
       draw=st.integers(0, 2**32))
def test_a_sampled_world_plays_on(name, seed, moves, draw):
    """The flow goes on in a world: random moves from it never break a rule."""
    real = position(name, seed, moves)
    if real.is_over:
        return
    world = determinize(real, real.current_player, random.Random(draw))
    rng = random.Random(draw)
    for _ in range(150):
        if world.is_over:
            break
        legal = world.legal_moves()
        world._apply(legal[rng.randrange(len(legal))])
        assert all(len(places) == 1 for places in world.card_locations().values())


def test_worlds_really_differ_in_the_hidden_cards():
    real = position("trolley_car", 3, 10)
    player = real.current_player
    worlds = [determinize(real, player, random.Random(i)) for i in range(5)]
    deck = real.zone_id("deck")
    assert len({tuple(w.zones[deck]) for w in worlds}) == 5
    assert all(Counter(w.zones[deck] + w.zones[real.zone_id(f"hand[{1 - player}]")])
               == Counter(real.zones[deck] + real.zones[real.zone_id(f"hand[{1 - player}]")]) for w in worlds)


def test_the_same_generator_gives_the_same_world():
    real = position("tutorial_highlow", 5, 4)
    a = determinize(real, 0, random.Random(9))
    b = determinize(real, 0, random.Random(9))
    assert a == b


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(FILES)), seed=st.integers(0, 10_000), moves=st.integers(0, 80),
       draw=st.integers(0, 2**32))
def test_knowledge_does_not_depend_on_the_hidden_cards(name, seed, moves, draw):
    """Two games that differ only in cards a player cannot see give that player equal Knowledge."""
    real = position(name, seed, moves)
    player = max(real.current_player, 0)
    other = determinize(real, player, random.Random(draw))  # the same for the player, hidden cards moved
    assert canonical(real, player) == canonical(other, player)
    assert Knowledge(real, player).world == Knowledge(other, player).world
    assert Knowledge(real, player).view() == real.view(player)


def test_a_card_variable_follows_its_place():
    """A variable naming a hidden card names the card that now lies where it lay."""
    g = ruledsl.loads(
        """
game "Peek"
players 2..2
cards 10 * plain in deck
kind plain { show "x" }
zone deck: pile hidden
zone hand[player]: row owner
var chosen: card
flow {
  deal 3 from deck into hand[1]
  chosen = top(hand[1])
  choose turn by 0 { move go {} }
}
define score(p) = 0
winner(p): highest score(p)
""",
        "peek.rules",
    )
    real = g.new_game(2, 1)
    hand = real.zone_id("hand[1]")
    assert real.get_var("chosen") == real.zones[hand][-1]
    for i in range(10):
        world = determinize(real, 0, random.Random(i))
        assert world.get_var("chosen") == world.zones[hand][-1]


def test_values_and_zones_indexed_by_a_hidden_card_follow_it():
    """A hidden card's own value and pile go with it to the card that now lies in its place."""
    g = ruledsl.loads(
        """
game "Marks"
players 2..2
cards 12 * plain in deck
kind plain { show "x" }
zone deck: pile hidden
zone hand[player]: row owner
zone kept[card]: pile hidden
var marked[card]: int = 0
flow {
  deal 4 from deck into hand[1]
  for c in hand[1] {
    marked[c] = 7
    put top(deck) into kept[c]
  }
  choose turn by 0 { move go {} }
}
define score(p) = 0
winner(p): highest score(p)
""",
        "marks.rules",
    )
    real = g.new_game(2, 2)
    hand = real.zone_id("hand[1]")
    marked = g.program.var_families["marked"][0]
    under = g.program.zone_families["kept"][0]
    for i in range(10):
        world = determinize(real, 0, random.Random(i))
        held = world.zones[hand]
        assert sorted(c for c in range(g.program.card_count) if world.vars[marked + c] == 7) == sorted(held)
        assert all(len(world.zones[under + c]) == (1 if c in held else 0) for c in range(g.program.card_count))
        assert all(world.loc[x] == under + c for c in held for x in world.zones[under + c])
        assert all(len(places) == 1 for places in world.card_locations().values())
    assert {tuple(determinize(real, 0, random.Random(i)).zones[hand]) for i in range(10)} != {tuple(real.zones[hand])}


def test_hidden_cards_in_a_growing_family_stay_in_its_open_members():
    g = ruledsl.loads(
        """
game "Stash"
players 2..2
cards 12 * plain in deck
kind plain { show "x" }
zone deck: pile hidden
zone stash[player, *]: pile owner
flow {
  new stash[1] as a
  deal 3 from deck into stash[1, a]
  new stash[1] as b
  deal 2 from deck into stash[1, b]
  choose turn by 0 { move go {} }
}
define score(p) = 0
winner(p): highest score(p)
""",
        "stash.rules",
    )
    real = g.new_game(2, 4)
    sizes = [len(cards) for cards in real.zones]
    for i in range(8):
        world = determinize(real, 0, random.Random(i))
        assert [len(cards) for cards in world.zones] == sizes
        assert world.view(0) == real.view(0) and world.vars == real.vars
        assert all(len(places) == 1 for places in world.card_locations().values())


# ---- worlds and lang1's constructs: tell hints, secret choices made together

DATA = Path(__file__).resolve().parent / "data"


def test_a_world_never_contradicts_a_tell_hint():
    g = ruledsl.load(DATA / "hints.rules")
    s = g.new_game(3, 1)
    red = s.program.enums["colour"].index("red")
    s.apply(f"hint(1, {red})")  # player 1 learns which of their cards are red
    colours = s.program.card_attrs["colour"]
    z = {z.name: z for z in s.program.zones}["hand[1]"]
    real = [colours[s.places[q]] == red for q in z.places]
    rng = random.Random(3)
    moved = False
    for _ in range(20):
        world = determinize(s, 1, rng)
        cards = [world.places[q] for q in z.places]
        assert [colours[c] == red for c in cards] == real
        assert world.view(1) == s.view(1)  # the hints in the view ('red ?') follow the cards
        moved |= cards != [s.places[q] for q in z.places]
    assert moved, "no world dealt player 1 other cards"


def test_a_bot_in_a_secret_choice_does_not_see_the_others_pending_choices():
    g = game("goofspiel")
    s = g.new_game(3, 4)
    first = s.legal_moves()
    a, b = s.clone(), s.clone()
    a.apply(first[0])
    b.apply(first[-1])  # player 0 bid differently; player 1 decides next in both
    assert a.current_player == b.current_player == 1
    ka, kb = Knowledge(a, 1), Knowledge(b, 1)
    assert ka.world == kb.world and ka.view() == a.view(1) == b.view(1)
    rng = random.Random(7)
    bids = Counter()
    for _ in range(30):
        world = ka.sample(rng)
        assert world.current_player == 1 and world.view(1) == a.view(1)
        assert len(world.moves) == len(a.moves)
        bids[world.moves[-1]] += 1
        d = determinize(a, 1, rng)
        assert d.current_player == 1 and d.view(1) == a.view(1)
    assert len(bids) > 1, "every sampled world had player 0 bid the same"


# ---- variables the player may not see: a world holds nothing of their real values

SECRETS = """
game "Secrets"
players 2..3
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
var bid[player]: int owner = 0
var pot: int hidden = 5
var kept[player]: card owner
var said: int = 0
flow {
  shuffle deck
  for p in players { deal 3 from deck into hand[p] }
  for p in players {
    bid[p] = sum(c.rank for each c in hand[p])
    kept[p] = top(hand[p])
  }
  pot = bid[0] + bid[1]
  turns from 0 until said > 6 {
    choose turn by current {
      move say(n in 1..3) { said += n }
    }
  }
}
define score(p) = bid[p]
winner(p): highest score(p)
"""


def secrets():
    return ruledsl.loads(SECRETS, "secrets.rules")


def test_two_states_that_differ_only_in_hidden_variables_give_the_same_worlds():
    start = secrets().new_game(3, 4)
    other = start.clone()
    other.set_var("bid[1]", start.get_var("bid[1]") + 7)
    other.set_var("pot", 99)
    other.set_var("kept[2]", start.cards_in("deck")[0])  # a card of the deck: not the real one, top of a hand
    assert other != start and other.view(0) == start.view(0)
    assert canonical(start, 0) == canonical(other, 0)
    for seed in range(3):
        a, b = determinize(start, 0, random.Random(seed)), determinize(other, 0, random.Random(seed))
        assert a == b
        assert Knowledge(start, 0).sample(random.Random(seed)) == Knowledge(other, 0).sample(random.Random(seed))
    # the values a world gives are the initial ones, whatever the real ones
    world = determinize(start, 0, random.Random(1))
    assert [world.get_var(f"bid[{p}]") for p in (1, 2)] == [0, 0] and world.get_var("pot") == 5
    assert world.get_var("kept[1]") is None


def test_a_world_keeps_what_the_player_may_see_of_the_variables():
    start = secrets().new_game(3, 4)
    world = determinize(start, 1, random.Random(2))
    assert world.get_var("bid[1]") == start.get_var("bid[1]") != 0  # the player's own `owner` value
    assert world.get_var("said") == start.get_var("said")          # a public one
    assert world.view(1) == start.view(1)
