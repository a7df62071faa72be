"""`choose NAME by each p in DOMAIN`: players who choose together, each choice hidden until all have chosen."""

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.language.errors import RuledslError
from ruledsl.engine.observe import move_seen
from ruledsl.verify.checks import verify

GOOF = Path("games/goofspiel.rules")

CLAIM = """
game "Claim"
players 2..3
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone pool: row public
zone got[player]: pile public
var bids[player]: int = 0
flow {
  put top(deck) into pool
  choose grab by each p in players {
    move claim(c in pool, n in 1..3) {
      bids[p] = n
      if c in pool { put c into got[p] }
    }
    move wait {}
  }
}
define score(p) = size(got[p])
winner(p): highest score(p)
"""


def claim():
    return ruledsl.loads(CLAIM, str(GOOF))


def test_a_later_chooser_sees_the_same_game_whatever_the_earlier_chose():
    game = ruledsl.load(GOOF)
    start = game.new_game(3, 5)
    assert start.current_player == 0 and start.decision == "bid"
    seen = set()
    for m in start.legal_moves():
        s = start.clone()
        s.apply(m)
        assert s.current_player == 1 and s.decision == "bid"
        v = s.view(1)
        seen.add((repr(v), tuple(s.legal_moves()), move_seen(start, s, m, 1), move_seen(start, s, m, 2)))
    assert len(start.legal_moves()) == 13 and len(seen) == 1
    (_, _, to_1, to_2), = seen
    assert to_1 == to_2 == "bid: ?"


def test_the_chooser_sees_their_own_choice_and_the_others_only_that_one_was_made():
    s = claim().new_game(2, 1)
    m = next(m for m in s.legal_moves() if m.name == "claim" and m.args[1] == 3)
    before = s.clone()
    s.apply(m)
    assert move_seen(before, s, m, 0) == f"claim({s.card_label(m.args[0])} from pool, 3)"
    assert move_seen(before, s, m, 1) == "grab: ?"
    assert move_seen(before, s, m, [0, 1]) == "grab: ?"  # a shared screen shows what all of them may see
    assert s.view(1)["vars"]["bids[0]"] == 0  # nothing happens before all have chosen
    assert s.get_var("bids[0]") == 0
    again = s.game.state_from_json(s.to_json())
    assert again == s
    again.apply("wait")
    assert again.over and again.get_var("bids[0]") == 3


def test_choices_are_carried_out_together_in_an_order_the_seed_draws():
    winners = {}
    for seed in range(12):
        s = claim().new_game(2, seed)
        s.apply(next(m for m in s.legal_moves() if m.name == "claim" and m.args[1] == 1))
        s.apply(next(m for m in s.legal_moves() if m.name == "claim" and m.args[1] == 2))
        assert s.over
        assert s.get_var("bids[0]") == 1 and s.get_var("bids[1]") == 2  # both moves were carried out
        got = [p for p in range(2) if s.view(p)["zones"][f"got[{p}]"]]
        assert len(got) == 1  # the first to claim takes the card
        winners[seed] = got[0]
        replayed = s.game.replay(2, seed, list(s.moves))
        assert replayed == s
    assert set(winners.values()) == {0, 1}


def test_verify_proves_goofspiel_keeps_the_bids_secret():
    report = verify(ruledsl.load(GOOF), examples=5, seed=3)
    assert report.ok, report.failure
    assert report.steps > 50


def test_a_bid_made_in_turn_instead_shows_in_the_next_players_view():
    """The contrast: with one plain `choose` per player, the second bidder sees the first bid."""
    text = GOOF.read_text(encoding="utf-8")
    head, rest = text.split("    choose bid by each p in players {\n")
    body, tail = rest.split("\n    }\n", 1)  # the decision's block ends at the first `}` of its indentation
    text = head + "    for p in players {\n    choose bid by p {\n" + body + "\n    }\n    }\n" + tail
    start = ruledsl.loads(text, str(GOOF)).new_game(2, 5)
    views = set()
    for m in start.legal_moves():
        s = start.clone()
        s.apply(m)
        views.add(repr(s.view(1)["zones"]["bid[0]"]))
    assert len(views) == 13


@pytest.mark.parametrize("old, new, message", [
    ("choose bid by each p in players", "choose bid by each p in hand[0]",
     "the players who choose together run over players, not a zone"),
    ("choose bid by each p in players", "choose bid by each points in players", "`points` is already a name here"),
])
def test_choosing_together_errors(old, new, message):
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(GOOF.read_text(encoding="utf-8").replace(old, new), str(GOOF))
    assert message in str(err.value) and "goofspiel.rules:43:" in str(err.value)


def test_the_view_says_who_has_chosen_and_who_is_still_to_choose():
    s = ruledsl.load(GOOF).new_game(3, 2)
    assert s.view(2)["chosen"] == [] and s.view(2)["waiting"] == [0, 1, 2]
    s.apply(s.legal_moves()[0])
    for p in range(3):
        v = s.view(p)
        assert v["chosen"] == [0] and v["waiting"] == [1, 2]
    s.apply(s.legal_moves()[0])
    s.apply(s.legal_moves()[0])
    assert s.view(0)["chosen"] == [] and s.view(0)["waiting"] == [0, 1, 2]  # the next round
    assert [len(s.view(0)["zones"][f"hand[{p}]"]) for p in range(3)] == [12, 12, 12]  # the bids were carried out


def test_verify_checks_that_a_choice_made_together_stays_secret(monkeypatch):
    import ruledsl.verify.checks as V

    report = verify(ruledsl.load(GOOF), examples=2, seed=1)
    assert report.ok and "secret choices" in [name for name, _ in V.ENGINE_CHECKS]
    # a broken display that shows everybody the move as it is: the check must see the bids differ
    monkeypatch.setattr(V, "move_seen", lambda before, after, move, viewer: before.describe(move))
    report = verify(ruledsl.load(GOOF), examples=2, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.check == "secret choices", report.failure
    assert "before all have chosen" in report.failure.message


# ---- a set of cards chosen together: "every player picks three cards to pass to the left"

PASS = """
game "Pass three"
players 3..4
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
zone passed[player]: row owner
var points[player]: int = 0

flow {
  shuffle deck
  for p in players { deal 6 from deck into hand[p] }
  choose give by each p in players {
    move pass(cs subset of hand[p]) where size(cs) >= 3 {
      put cs into passed[next(p)]
    }
  }
  for p in players { put cards(each c in passed[p]) into hand[p] }
  for p in players { points[p] = sum(c.rank for each c in hand[p]) }
}

define score(p) = points[p]
winner(p): highest score(p)
"""


def passing(text=PASS):
    return ruledsl.loads(text, str(GOOF))


def build(s, picks):
    """The current chooser takes `pass` and adds the k-th offered card for each k of ``picks``."""
    s.apply("pass")
    for k in picks:
        s.apply(s.legal_moves()[k])


def test_every_player_passes_exactly_three_cards_chosen_before_anyone_sees_them():
    s = passing().new_game(3, 4)
    hands = {p: set(s.cards_in(f"hand[{p}]")) for p in range(3)}
    chosen = {}
    for p in range(3):
        assert (s.current_player, s.decision, s.legal_moves()) == (p, "give", [ruledsl.Move("pass")])
        s.apply("pass")
        picked = []
        for _ in range(3):
            assert s.current_player == p and s.decision == "pass"
            assert {m.name for m in s.legal_moves()} == {"add"}  # no `done`: complete at three
            m = s.legal_moves()[-1]
            picked.append(s.describe(m)[4:-1])
            s.apply(m)
            assert all(not s.cards_in(f"passed[{q}]") for q in range(3))  # nothing carried out yet
        chosen[p] = set(picked)
    assert s.is_over
    for p in range(3):
        left = (p + 1) % 3
        assert set(s.cards_in(f"hand[{left}]")) == (hands[left] - chosen[left]) | chosen[p]


def test_while_a_set_is_built_the_others_see_nothing_of_it():
    start = passing().new_game(3, 4)
    seen = set()
    for picks in ([0, 0, 0], [5, 4, 3], [2, 0, 1]):
        s = start.clone()
        steps = []
        before = s.clone()
        build(s, picks)
        # replay the steps to see each as the others are shown it
        t = before.clone()
        for m in s.moves[len(before.moves):]:
            u = t.clone()
            u.apply(m)
            steps.append((move_seen(t, u, m, 1), move_seen(t, u, m, 2)))
            t = u
        assert steps == [("give: ?", "give: ?")] + [("pass: ?", "pass: ?")] * 3
        seen.add((repr(s.view(1)), repr(s.view(2)), tuple(s.legal_moves())))
    assert len(seen) == 1  # the next chooser's view and moves are the same whatever was picked


def test_verify_proves_a_set_chosen_together_stays_secret():
    report = verify(passing(), examples=4, seed=2)
    assert report.ok, report.failure
    assert report.steps > 40


def test_verify_sees_a_set_whose_size_depends_on_the_cards_picked():
    """With a condition on the cards (a sum), how many cards a player adds tells the others about them."""
    text = PASS.replace("where size(cs) >= 3", "where sum(c.rank for each c in cs) >= 15")
    report = verify(passing(text), examples=6, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.check in ("information flow", "secret choices")


def test_verify_checks_that_a_set_chosen_together_stays_secret(monkeypatch):
    import ruledsl.verify.checks as V

    # a broken display that shows everybody the cards added: the check must see the sets differ
    monkeypatch.setattr(V, "move_seen", lambda before, after, move, viewer: before.describe(move))
    report = verify(passing(), examples=2, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.check == "secret choices", report.failure
    assert any(m[0] == "add" for m in report.failure.moves)


def test_worlds_forget_a_set_chosen_by_another_player():
    from ruledsl.play.worlds import Knowledge, canonical

    start = passing().new_game(3, 1)
    a, b = start.clone(), start.clone()
    build(a, [0, 0, 0])
    build(b, [3, 2, 1])
    assert a != b and a.current_player == b.current_player == 1
    assert canonical(a, 1) == canonical(b, 1)
    # mid-way through one's own set: a sample keeps the player's own cards added so far
    c = a.clone()
    build(c, [4])
    world = Knowledge(c, 1).sample(random.Random(3))
    assert world.current_player == 1 and world.decision == "pass"
    assert world.moves[-2:] == c.moves[-2:] and world.view(1) == c.view(1)
    assert len(world.moves) == len(c.moves)
    # player 0's set is drawn again in each sample, not kept
    knowledge = Knowledge(c, 1)
    drawn = {tuple(knowledge.sample(random.Random(seed)).moves[:4]) for seed in range(6)}
    assert len(drawn) > 1


def test_search_bots_play_a_set_chosen_together():
    from ruledsl.play.sim import play_game

    result = play_game(passing(), 3, seed=2, bots=["ismcts:iterations=10", "random", "mcts:iterations=10"])
    assert result.length == 12 and len(result.winners) >= 1


def test_a_set_chosen_together_needs_a_condition():
    with pytest.raises(RuledslError) as err:
        passing(PASS.replace(" where size(cs) >= 3", ""))
    assert "error[E206]" in str(err.value)
    assert "takes a set of cards but says not when the set is complete" in str(err.value)


def test_a_set_chosen_together_honours_its_while_condition():
    # `while`: only cards that keep the set at most 12 points in all are offered
    text = PASS.replace("move pass(cs subset of hand[p]) where size(cs) >= 3",
                        "move pass(cs subset of hand[p] while sum(c.rank for each c in cs) <= 12)"
                        " where size(cs) >= 1")
    s = passing(text).new_game(3, 4)
    s.apply("pass")
    hand = s.cards_in("hand[0]")
    offered = {s.describe(m)[4:-1] for m in s.legal_moves()}
    faces = {"A": 1, "J": 11, "Q": 12, "K": 13}
    low = {c for c in hand if (faces.get(c[:-1]) or int(c[:-1])) <= 12}  # every card but a King
    assert offered == low and offered != set(hand)
