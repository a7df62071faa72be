"""`define heuristic(p)`: a rules file's own judgement of a position, used by greedy and by the
search bots' cut playouts; checked by the checker."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError
from ruledsl.play.botbase import decide, heuristic, rewards
from ruledsl.play.bots import make_bot
from ruledsl.play.sim import play_game

# Each turn a player takes one card of a common pool; the score says nothing until the pool is
# empty (the winner holds the highest ranks), so only a heuristic tells a good take from a bad one.
PICK = textwrap.dedent("""\
    game "Pick"
    players 2..3
    limit 200 moves
    kind card { rank: 1..9  show "R{rank}" }
    cards card(rank: each) in pool
    zone pool: row public
    zone hand[player]: row public
    flow {
      turns from 0 until empty(pool) {
        choose take by current {
          move take(c in pool) { put c into hand[current] }
        }
      }
    }
    define score(p) = if empty(pool) then sum(c.rank for each c in hand[p]) else 0
    winner(p): highest score(p)
    define heuristic(p) = sum(c.rank for each c in hand[p])
    """)


def load(text=PICK):
    return ruledsl.loads(text, "pick.rules")


def test_without_a_heuristic_there_is_none():
    g = load(PICK.replace("define heuristic(p) = sum(c.rank for each c in hand[p])\n", ""))
    assert g.program.heuristic is None
    assert heuristic(g.new_game(2, 1), 0) is None


def test_the_heuristic_is_worked_out_for_each_player():
    s = load().new_game(2, 1)
    s.apply(ruledsl.Move("take", (s.program.card_labels.index("R7"),)))
    assert heuristic(s, 0) == 7 and heuristic(s, 1) == 0


def test_greedy_takes_the_move_the_heuristic_prefers():
    g = load()
    s = g.new_game(3, 2)
    bots = [make_bot("greedy", seed=p) for p in range(3)]
    while not s.is_over:
        ranks = {m: int(s.describe(m)[len("take(R"):-1]) for m in s.legal_moves()}
        move = decide(bots[s.current_player], s, s.current_player, s.legal_moves())
        assert ranks[move] == max(ranks.values())  # the highest card left, every time
        s.apply(move)


def test_without_the_heuristic_greedy_cannot_tell_the_takes_apart():
    g = load(PICK.replace("define heuristic(p) = sum(c.rank for each c in hand[p])\n", ""))
    s = g.new_game(3, 2)
    bot = make_bot("greedy", seed=1)
    picked = set()
    for _ in range(3):  # the first player's first take, asked of fresh copies: ties broken at random
        picked.add(decide(bot, s, 0, s.legal_moves()))
    assert len(picked) > 1


def test_a_cut_playout_is_judged_by_the_heuristic():
    s = load().new_game(2, 1)
    s.apply(ruledsl.Move("take", (s.program.card_labels.index("R2"),)))
    s.apply(ruledsl.Move("take", (s.program.card_labels.index("R9"),)))
    assert not s.is_over and s.scores == [0, 0]  # the score says nothing yet
    assert rewards(s) == [0.0, 1.0]  # the heuristic does


def test_ismcts_with_a_cut_and_the_heuristic_beats_random():
    g = load()
    wins = 0
    for seed in range(4):
        result = play_game(g, 2, seed, ["ismcts:iterations=30,depth=2", "random"])
        wins += result.winners == [0]
    assert wins >= 3


def test_a_graded_cut_is_worth_more_the_further_ahead():
    """`grade=1`: a cut playout is judged by how far each player's heuristic leads the best other's,
    where ranking alone gives a small lead and a large one the same 1."""
    g = load()
    bot = make_bot("ismcts:iterations=1,grade=1", seed=1)
    s = g.new_game(2, 1)
    decide(bot, s, 0, s.legal_moves())  # a search sets the bot up for this game (and its mean gap)
    labels = s.program.card_labels
    small, large = s.clone(), s.clone()
    for world, mine in ((small, "R3"), (large, "R9")):
        world.apply(ruledsl.Move("take", (labels.index(mine),)))
        world.apply(ruledsl.Move("take", (labels.index("R2"),)))
    assert rewards(small) == rewards(large) == [1.0, 0.0]
    a, b = bot._graded(small), bot._graded(large)
    assert 0.5 < a[0] < b[0] < 1.0 and a[0] + a[1] == pytest.approx(1.0) and b[1] < a[1]


def test_ismcts_with_graded_cuts_beats_random():
    wins = 0
    for seed in range(4):
        result = play_game(load(), 2, seed, ["ismcts:iterations=30,depth=2,grade=1", "random"])
        wins += result.winners == [0]
    assert wins >= 3


@pytest.mark.parametrize("definition, code, words, where", [
    ("define heuristic(p, q) = 1", "E203", "`heuristic` takes one parameter", "pick.rules:17:1:"),
    ("define heuristic(p) = empty(hand[p])", "E202", "`heuristic` should be a number", "pick.rules:17:23:"),
])
def test_a_bad_heuristic_is_an_error_at_its_position(definition, code, words, where):
    text = PICK.replace("define heuristic(p) = sum(c.rank for each c in hand[p])", definition)
    with pytest.raises(RulesError) as e:
        load(text)
    message = str(e.value)
    assert code in message and words in message and message.startswith(where), message
