"""engine/sight.py: a card a player saw go hidden is known to lie in its zone, and worlds keep it there."""

import glob
import random

import pytest

import ruledsl
from ruledsl.engine.sight import Sight, _look
from ruledsl.engine.worlds import Knowledge
from ruledsl.play.botbase import Bot
from ruledsl.play.sim import play_game
from tests.rules_text import MINI

GAMES = sorted(p for p in glob.glob("games/*.rules") if not p.endswith(".test.rules"))


def _played(path, seed, moves=400, players=None):
    game = ruledsl.load(path)
    s = game.new_game(players or max(2, game.program.min_players), seed)
    sight = Sight(s)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        m = rng.choice(s.legal_moves())
        s._apply(m)
        sight.follow(m)
        yield s, sight


def test_a_trick_taken_face_down_stays_in_its_pile_in_every_world():
    *_, (s, sight) = _played("games/knockout_whist.rules", 3, moves=6)  # three tricks of two cards
    known = sight.known(0)
    taken = {z.zid for z in s.program.zones if z.name.startswith("taken")}
    assert len(known) == 6 and set(known.values()) <= taken
    assert all(s.loc[c] == z for c, z in known.items())
    kept = Knowledge(s, 0, known)
    assert all(all(w.loc[c] == z for c, z in known.items()) for w in (kept.sample(random.Random(i)) for i in range(30)))
    # without it, the cards of the tricks are dealt among every hidden place: the other player's hand too
    plain = Knowledge(s, 0)
    moved = sum(any(w.loc[c] != z for c, z in known.items()) for w in (plain.sample(random.Random(i)) for i in range(30)))
    assert moved == 30


@pytest.mark.parametrize("path", GAMES)
def test_a_known_card_lies_where_it_is_known_to_lie(path):
    for seed in range(2):
        for s, sight in _played(path, seed):
            for p in range(s.n):
                assert all(s.loc[c] == z for c, z in sight.known(p).items()), (path, seed, len(s.moves), p)


@pytest.mark.parametrize("path", ["games/knockout_whist.rules", "games/tramwaje.rules", "games/uno.rules",
                                  "games/trambahn.rules"])
def test_what_a_player_sees_is_the_same_in_every_world_they_cannot_tell_apart(path):
    # the map is worked out from these looks alone, so it holds nothing the player could not see
    for k, (s, sight) in enumerate(_played(path, 5, moves=120)):
        if k % 10:
            continue
        for p in range(s.n):
            world = Knowledge(s, p, sight.known(p)).sample(random.Random(k))
            assert _look(world, p) == _look(s, p)


BURY = MINI + """\
zone pile: row public
flow {
  shuffle deck
  for p in players { deal 3 from deck into hand[p] }
  choose bury by 0 { move bury(c in hand[0]) { put c under deck } }
  shuffle deck
  choose peek by 0 { move on {} }
  deal 1 from deck into hand[1]
  choose last by 0 { move on {} }
}
define score(p) = 0
winner(p): highest score(p)
"""


def test_a_card_put_under_a_pile_is_known_there_until_a_card_leaves_the_pile_unseen():
    s = ruledsl.loads(BURY, "bury.rules").new_game(players=2, seed=1)
    sight = Sight(s)
    m = s.legal_moves()[0]
    buried = m.args[0]
    s.apply(m)
    sight.follow(m)
    deck = s.loc[buried]
    assert sight.known(0) == {buried: deck}  # shuffled since, but still in the deck
    assert sight.known(1) == {}  # player 1 never saw it
    s.apply(s.legal_moves()[0])
    sight.follow(s.moves[-1])
    # a card went from the deck into player 1's hand unseen: it may be the buried one
    assert s.decision == "last" and sight.known(0) == {}


REVEAL = MINI + """\
flow {
  shuffle deck
  for p in players { deal 3 from deck into hand[p] }
  reveal hand[1] to 0 { choose look by 0 { move on {} } }
  choose after by 0 { move on {} }
}
define score(p) = 0
winner(p): highest score(p)
"""


def test_a_hand_shown_and_held_again_is_known_to_be_in_that_hand():
    s = ruledsl.loads(REVEAL, "reveal.rules").new_game(players=2, seed=1)
    sight = Sight(s)
    m = s.legal_moves()[0]
    s.apply(m)
    sight.follow(m)
    hand = next(z.zid for z in s.program.zones if z.name == "hand[1]")
    assert sight.known(0) == {c: hand for c in s.zones[hand]}
    assert sight.known(1) == {}


class Spy(Bot):
    """A bot that searches worlds: it keeps what each Knowledge it was given says is known."""

    wants_worlds = True

    def __init__(self):
        self.known = []

    def choose(self, view, legal, knowledge):
        self.known.append((knowledge.known or {}, knowledge.world))
        return legal[0]


def test_play_game_gives_search_bots_what_their_player_saw():
    spy = Spy()
    play_game(ruledsl.load("games/knockout_whist.rules"), 2, 1, [spy, "random"])
    assert any(known for known, _ in spy.known)  # tricks were taken face down while it played
    for known, world in spy.known:  # a Knowledge's canonical world, too, keeps them where they lie
        assert all(world.loc[c] == z for c, z in known.items())


def _first_rule(path, players, observer=0, seeds=range(40)):
    """A game played at random until another player's move rules cards out for ``observer``: the
    state then, the Sight, the state before that move and the move."""
    game = ruledsl.load(path)
    for seed in seeds:
        s = game.new_game(players, seed)
        sight = Sight(s, [observer])
        rng = random.Random(seed)
        while not s.is_over:
            before = s.clone()
            m = rng.choice(s.legal_moves())
            s._apply(m)
            sight.follow(m)
            if sight.ruled_out(observer):
                return s, sight, before, m
    raise AssertionError("no move ruled anything out")


def test_a_player_who_does_not_follow_suit_holds_none_of_it_in_any_world():
    s, sight, before, m = _first_rule("games/knockout_whist.rules", 2)
    (zones, cards, allowance), = sight.ruled_out(0)
    played = m.args[0]
    suits = {s.card_label(c)[-1] for c in cards}
    assert len(suits) == 1 and s.card_label(played)[-1] not in suits  # the suit led, not the card's own
    assert allowance == 0 and {s.program.zones[z].name for z in zones} == {"hand[1]"}
    hidden_of_suit = {c for c in range(s.program.card_count) if s.card_label(c)[-1] in suits
                      and not s.card_visible(0, c) and c not in sight.known(0)}
    assert cards == hidden_of_suit  # every card of the suit led that player 0 has not seen
    kept = Knowledge(s, 0, sight.known(0), sight.ruled_out(0))
    for i in range(30):
        world = kept.sample(random.Random(i))
        assert not any(c in cards for z in zones for c in world.zones[z])
    plain = Knowledge(s, 0, sight.known(0))
    assert any(any(c in cards for z in zones for c in plain.sample(random.Random(i)).zones[z]) for i in range(30))


def test_a_player_who_drew_unable_to_play_held_nothing_playable_but_the_card_drawn():
    s, sight, before, m = _first_rule("games/uno.rules", 2)
    assert m.name == "draw"
    (zones, cards, allowance), = sight.ruled_out(0)
    assert allowance == 1  # the card drawn may be anything
    assert {s.program.zones[z].name for z in zones} == {"hand[1]", "drawn[1]"}
    kept = Knowledge(s, 0, sight.known(0), sight.ruled_out(0))
    for i in range(30):
        world = kept.sample(random.Random(i))
        assert sum(1 for z in zones for c in world.zones[z] if c in cards) <= 1


@pytest.mark.parametrize("path", GAMES)
def test_what_a_move_rules_out_holds_in_the_real_game(path):
    game = ruledsl.load(path)
    players = max(2, game.program.min_players)
    for seed in range(2):
        s = game.new_game(players, seed)
        sight = Sight(s)
        rng = random.Random(seed)
        for _ in range(300):
            if s.is_over:
                break
            m = rng.choice(s.legal_moves())
            s._apply(m)
            sight.follow(m)
            for p in range(players):
                for zones, cards, allowance in sight.ruled_out(p):
                    held = sum(1 for z in zones for c in s.zones[z] if c in cards)
                    assert held <= allowance, (path, seed, len(s.moves), p)


def test_what_a_move_rules_out_is_worked_out_from_what_the_player_may_know():
    from ruledsl.engine.sight import _look, _told
    s, sight, before, m = _first_rule("games/knockout_whist.rules", 2)
    actor = before.actor
    # a world player 0 cannot tell from the real state before the move, with the card played where it
    # really was: the move rules out the same cards there
    knowledge = Knowledge(before, 0)
    world = knowledge.sample(random.Random(5))
    card = m.args[0]
    if world.loc[card] != before.loc[card]:
        from ruledsl.engine.sight import _swapped
        world = _swapped(world, card, world.zones[before.loc[card]][0])
    assert _look(world, 0) == _look(before, 0)
    after_real, after_world = before.clone(), world.clone()
    after_real._apply(m)
    after_world._apply(m)
    glimpsed = {card}
    told_real = _told(before, m, actor, 0, ({}, []), _look(before, 0), _look(after_real, 0), glimpsed)
    told_world = _told(world, m, actor, 0, ({}, []), _look(world, 0), _look(after_world, 0), glimpsed)
    assert told_real is not None and told_real == told_world


def test_the_shadow_game_of_a_game_with_rule_coverage_counts_nothing():
    from ruledsl.engine.coverage import instrument

    counted, coverage = instrument(ruledsl.load("games/knockout_whist.rules"))
    s = counted.new_game(2, 3)
    sight = Sight(s)
    rng = random.Random(3)
    runs, fired = sum(coverage.runs), sum(coverage.fired)
    for _ in range(10):
        m = rng.choice(s.legal_moves())
        s._apply(m)
        once = sum(coverage.runs), sum(coverage.fired)
        sight.follow(m)  # the move made again, in the shadow game only
        assert (sum(coverage.runs), sum(coverage.fired)) == once
    assert sum(coverage.runs) > runs and sight.known(0)  # the game counted; the shadow followed it
