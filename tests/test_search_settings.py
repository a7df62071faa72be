"""The search bots' settings that use the rules' heuristic: `lookahead` (a wide decision's moves ranked
by where they lead), `setdone` (playouts end a set of cards early), `margin` (the depth cut judged by
how far each player's lead moved; with `own`, their own heuristic), `guide` (playout moves chosen as
greedy would) and `few` (a playout's small decisions always made as greedy would)."""

import random

import ruledsl
from ruledsl.engine.setlog import building
from ruledsl.engine.worlds import Knowledge
from ruledsl.play.bots import make_bot
from ruledsl.play.search import _leads, _logistic, _Node
from tests.rules_text import MINI

# Each turn a player gives the next player a set of their cards, or keeps them; a hand is worth its size.
GIFTS = MINI + """\
define heuristic(p) = size(hand[p])
flow {
  shuffle deck
  for p in players { deal 5 from deck into hand[p] }
  turns from 0 until empty(hand[0]) or empty(hand[1]) {
    choose turn by current {
      move give(cs subset of hand[current]) where size(cs) >= 1 {
        for c in cs { put c into hand[next(current)] }
      }
      move keep { }
    }
  }
}
"""


def gifts(seed=1):
    return ruledsl.loads(GIFTS, "gifts.rules").new_game(players=2, seed=seed)


def in_a_set(seed=1):
    """A state in which player 0 has started a gift and added one card: `done` is legal, so are more cards."""
    s = gifts(seed)
    s.apply(ruledsl.Move("give", ()))
    s.apply(next(m for m in s.legal_moves() if m.name == "add"))
    assert "done" in [m.name for m in s.legal_moves()] and len(s.legal_moves()) > 1
    return s


def _first_playout_move(spec, seed):
    bot = make_bot(spec, seed)
    s = in_a_set(seed)
    before = len(s.moves)
    bot._rollout(s, random.Random(seed))
    return s.moves[before].name


def test_setdone_ends_a_set_in_a_playout_wherever_it_may():
    assert all(_first_playout_move("ismcts:depth=1,setdone=1", seed) == "done" for seed in range(20))
    # without it, done is one step among the cards left: some playouts add another card
    assert {_first_playout_move("ismcts:depth=1", seed) for seed in range(20)} == {"add", "done"}


def test_few_makes_a_small_playout_decision_by_the_heuristic():
    # in the set under way: four more cards or `done`; done gives the cards away (a hand is worth its size)
    assert len(in_a_set().legal_moves()) == 5
    assert all(_first_playout_move("ismcts:depth=1,few=5", seed) == "add" for seed in range(20))
    # with fewer than five allowed, or none, the decision stays random: some playouts end the gift
    for spec in ("ismcts:depth=1,few=4", "ismcts:depth=1"):
        assert {_first_playout_move(spec, seed) for seed in range(20)} == {"add", "done"}
    # the four cards tie: they are taken at random, not in the engine's order
    firsts = set()
    for seed in range(20):
        bot, s = make_bot("ismcts:depth=1,few=5", seed), in_a_set(1)
        before = len(s.moves)
        bot._rollout(s, random.Random(seed))
        firsts.add(s.moves[before])
    assert len(firsts) > 1


def test_lookahead_ranks_a_set_by_the_set_it_makes():
    for spec, give_lower in (("ismcts:widen=2", False), ("ismcts:widen=2,lookahead=1", True)):
        bot = make_bot(spec, 3)
        s = gifts()
        node = _Node(-1)
        bot._widened(node, s, s.legal_moves())
        give, keep = node.prior[ruledsl.Move("give", ())], node.prior[ruledsl.Move("keep", ())]
        # right after `give` no card has moved yet; finished, the gift costs a card
        assert (give < keep) == give_lower and give <= keep


def test_margin_judges_the_cut_by_how_far_each_lead_moved():
    s = gifts()
    assert _leads(s) == [0.0, 0.0]  # five cards each
    s.apply(ruledsl.Move("give", ()))
    s.apply(next(m for m in s.legal_moves() if m.name == "add"))
    s.apply(ruledsl.Move("done", ()))
    assert _leads(s) == [-2.0, 2.0]  # four against six
    assert _logistic(0.0) == 0.5 and 0.5 < _logistic(1.0) < 1.0 and _logistic(float("nan")) == 0.5
    assert _logistic(-1e9) < 1e-20


def _root_values(spec, s):
    """The mean result credited to each move at the root after a search of ``spec`` from ``s``."""
    bot = make_bot(spec, 5)
    bot._widening = False
    root, rng = _Node(-1), random.Random(5)
    for _ in range(bot.iterations):
        bot._iterate(root, Knowledge(s, s.current_player).sample(rng), s.legal_moves(), rng)
    return {m.name: child.wins / child.visits for m, child in root.children.items()}


def test_a_player_far_ahead_sees_the_cost_of_a_gift_with_margin():
    s = gifts()
    for _ in range(3):  # player 0 keeps and player 1 gives player 0 a card, three times: 8 cards against 2
        s.apply(ruledsl.Move("keep", ()))
        s.apply(ruledsl.Move("give", ()))
        s.apply(next(m for m in s.legal_moves() if m.name == "add"))
        s.apply(ruledsl.Move("done", ()))
    assert s.current_player == 0 and _leads(s)[0] == 6.0
    # by rank, a gift of a few cards leaves player 0 ahead: as good as keeping
    by_rank = _root_values("ismcts:iterations=30,depth=1,setdone=1,scaled=0", s)
    assert by_rank == {"give": 1.0, "keep": 1.0}
    by_margin = _root_values("ismcts:iterations=30,depth=1,setdone=1,margin=1", s)
    assert by_margin["give"] < 0.5 <= by_margin["keep"] < 1.0
    by_default = _root_values("ismcts:iterations=30,depth=1,setdone=1", s)  # scaled: by change, in its own units
    assert by_default["give"] < 0.5 <= by_default["keep"] < 1.0


def test_guide_plays_a_playout_move_as_greedy_would():
    # in a gift being built, `done` gives the card away at once; `add` moves nothing yet: greedy adds
    assert all(_first_playout_move("ismcts:depth=1,guide=1", seed) == "add" for seed in range(20))
    # at random (and half the time), done is one step among the others
    assert {_first_playout_move("ismcts:depth=1", seed) for seed in range(20)} == {"add", "done"}
    assert {_first_playout_move("ismcts:depth=1,guide=0.5", seed) for seed in range(40)} == {"add", "done"}


def _seeded(spec, s):
    """The root of a search of ``spec`` from ``s`` given only its prior, judged in one sampled world."""
    bot, root = make_bot(spec, 2), _Node(-1)
    changes = bot._prior_changes([Knowledge(s, 0).sample(random.Random(2))], s.legal_moves())
    bot._seed_root(root, changes, s.actor, building(s))
    return root


def test_prior_starts_each_root_move_with_the_lead_right_after_it():
    s = in_a_set()
    root = _seeded("ismcts:iterations=1,depth=1,margin=1,prior=3", s)
    legal = s.legal_moves()
    assert set(root.children) == set(legal) and all(ch.visits == 3 for ch in root.children.values())
    values = {m.name: ch.wins / ch.visits for m, ch in root.children.items()}
    # `done` gives the card away now: the lead falls by two (and done wins a tie: 1e-9); adding moves nothing yet
    assert abs(values["done"] - _logistic(-2.0)) < 1e-8 and values["add"] == 0.5


def test_a_strong_prior_keeps_a_short_search_on_greedys_choice():
    s = in_a_set()
    # one playout cannot outweigh fifty virtual ones: a card is added rather than the gift finished at once
    picked = {make_bot("ismcts:iterations=1,depth=1,margin=1,prior=50", seed).choose(
        None, s.legal_moves(), Knowledge(s, 0)).name for seed in range(10)}
    assert picked == {"add"}
    # without the prior a single playout leaves the choice to chance: done is taken too
    unguided = {make_bot("ismcts:iterations=1,depth=1,margin=1", seed).choose(
        None, s.legal_moves(), Knowledge(s, 0)).name for seed in range(30)}
    assert "done" in unguided


def _visits_when_seeded(spec, s):
    """The visits of each root move when a search of ``spec`` from ``s`` gives its prior, and the unit."""
    bot = make_bot(spec, 3)
    seen = []
    given = bot._seed_root

    def seed_root(root, *rest):
        seen.append(({m: ch.visits for m, ch in root.children.items()}, bot._unit()))
        given(root, *rest)

    bot._seed_root = seed_root
    bot.choose(None, s.legal_moves(), Knowledge(s, 0))
    return seen


def test_a_scaled_prior_is_given_once_each_root_move_was_tried():
    s = in_a_set()
    legal = s.legal_moves()
    # with a margin the prior is given before the first playout, in the margin's units
    assert _visits_when_seeded("ismcts:iterations=20,depth=1,margin=3,prior=5", s) == [({}, 3)]
    # scaled: it waits for the search's own unit, one playout of each root move
    [(visits, unit)] = _visits_when_seeded("ismcts:iterations=20,depth=1,setdone=1,prior=5", s)
    assert len(visits) == len(legal) and set(visits.values()) == {1} and unit != 1.0
    assert _visits_when_seeded(f"ismcts:iterations={len(legal)},depth=1,prior=5", s) == []  # never reached


def test_prior_with_lookahead_judges_a_set_by_the_set_it_makes():
    s = gifts()
    legal = s.legal_moves()
    values = {}
    for spec in ("ismcts:iterations=1,depth=1,margin=1,prior=3",
                 "ismcts:iterations=1,depth=1,margin=1,prior=3,lookahead=1"):
        root = _seeded(spec, s)
        assert set(root.children) == set(legal)
        values[spec] = {m.name: ch.wins / ch.visits for m, ch in root.children.items()}
    plain, ahead = values.values()
    # right after `give` no card has moved: as good as keeping; finished, the gift costs a card
    assert plain["give"] == plain["keep"] == 0.5
    assert abs(ahead["give"] - _logistic(-2.0)) < 1e-12 and ahead["keep"] == 0.5


def test_the_prior_follows_a_set_to_the_decision_where_it_began_as_greedy_does():
    s = gifts()
    bot = make_bot("ismcts:iterations=1,depth=1,margin=1,prior=3,lookahead=4", 2)
    bot.choose(None, s.legal_moves(), Knowledge(s, 0))  # the turn, where a gift begins
    s.apply(ruledsl.Move("give", ()))
    s.apply(next(m for m in s.legal_moves() if m.name == "add"))
    bot.choose(None, s.legal_moves(), Knowledge(s, 0))  # a step of the gift
    assert bot._root == "turn"
    later = bot._after(s, ruledsl.Move("done", ()), bot._root)
    # the gift is made, the other player answers (keeps: a hand is worth its size), and player 0 is back
    # at the turn: judged there, as greedy judges it, not after more decisions of its own
    assert later.actor == 0 and later.decision == "turn" and len(later.moves) == len(s.moves) + 2
    assert [m.name for m in later.moves[len(s.moves):]] == ["done", "keep"]
    # judged from the step's own decision, the answers went on past it: player 0 decided again
    further = bot._after(s, ruledsl.Move("done", ()), s.decision)
    assert len(further.moves) > len(later.moves)


def test_the_prior_takes_done_among_steps_of_a_set_worth_the_same():
    flat = ruledsl.loads(GIFTS.replace("define heuristic(p) = size(hand[p])", "define heuristic(p) = 0"),
                         "flat.rules")
    s = flat.new_game(players=2, seed=1)
    s.apply(ruledsl.Move("give", ()))
    s.apply(next(m for m in s.legal_moves() if m.name == "add"))
    # every step is worth the same: greedy ends the set (no larger than it needs to be), and so does the prior
    picked = {make_bot("ismcts:iterations=1,depth=1,margin=1,prior=50", seed).choose(
        None, s.legal_moves(), Knowledge(s, 0)).name for seed in range(10)}
    assert picked == {"done"}


def test_in_a_cooperative_game_margin_judges_the_tables_own_heuristic():
    s = ruledsl.load("games/stairway.rules").new_game(players=2, seed=1)
    # the table wins or loses together: every player's heuristic is the same, and a lead over the others
    # would always be nothing, so a cut judged by how far the lead moved would see no move as better
    assert _leads(s) == [40, 40]  # both stairs empty: room for 20 numbers on each
    s.apply(next(m for m in s.legal_moves() if m.name == "up"))
    assert _leads(s)[0] == _leads(s)[1] < 40


def test_own_judges_the_cut_by_the_players_own_heuristic_not_the_lead():
    s = gifts()
    s.apply(ruledsl.Move("give", ()))
    s.apply(next(m for m in s.legal_moves() if m.name == "add"))
    s.apply(ruledsl.Move("done", ()))
    assert _leads(s) == [-2.0, 2.0] and _leads(s, own=True) == [4, 6]  # four cards against six
    # player 1 far ahead (8 cards against 2): a gift costs its lead twice what it costs its own hand, so
    # the cut that judges the lead sees it as worse than the cut that judges the player's own cards
    for _ in range(2):
        s.apply(ruledsl.Move("keep", ()))
        s.apply(ruledsl.Move("give", ()))
        s.apply(next(m for m in s.legal_moves() if m.name == "add"))
        s.apply(ruledsl.Move("done", ()))
    assert s.current_player == 1 and _leads(s, own=True) == [2, 8]
    by_lead = _root_values("ismcts:iterations=40,depth=1,setdone=1,margin=1", s)
    by_own = _root_values("ismcts:iterations=40,depth=1,setdone=1,margin=1,own=1", s)
    assert by_lead["give"] < by_own["give"] < 0.5 <= min(by_lead["keep"], by_own["keep"])


def test_scaled_judges_the_cut_in_units_of_the_searchs_own_changes():
    # the same game with its heuristic a thousand times larger: `margin=1` then sees every change as
    # huge (a gift is worth nothing at all), `scaled` judges both games alike
    large = ruledsl.loads(GIFTS.replace("define heuristic(p) = size(hand[p])",
                                        "define heuristic(p) = 1000 * size(hand[p])"), "gifts.rules")
    states = [gifts(), large.new_game(players=2, seed=1)]
    for s in states:  # player 1 gives player 0 a card: 6 cards against 4, player 0 to move
        s.apply(ruledsl.Move("keep", ()))
        s.apply(ruledsl.Move("give", ()))
        s.apply(next(m for m in s.legal_moves() if m.name == "add"))
        s.apply(ruledsl.Move("done", ()))
    assert _leads(states[1]) == [1000 * v for v in _leads(states[0])] == [2000.0, -2000.0]
    spec = "ismcts:iterations=40,depth=2,setdone=1"
    small, big = (_root_values(spec + ",scaled=1", s) for s in states)
    assert small.keys() == big.keys() == {"give", "keep"}
    assert all(abs(small[m] - big[m]) < 1e-9 for m in small)
    assert small["give"] < 0.5 < small["keep"] < 0.99  # a gift loses lead, keeping gains some; neither saturates
    by_margin = _root_values(spec + ",margin=1", states[1])
    assert by_margin["give"] < 1e-6  # in units of one point, a thousand-point change saturates the logistic


def test_scaled_sees_no_change_as_an_even_result():
    bot = make_bot("ismcts:scaled=1", 1)
    assert bot._moved_by([3.0, -3.0], [3.0, -3.0]) == [0.5, 0.5]
    assert bot._moved == [0.0, 2]
    assert bot._moved_by([4.0, -4.0], [3.0, -3.0]) == [_logistic(2.0), _logistic(-2.0)]  # unit: 2 / 4
